"""The ladder report: a markdown or HTML page with PNG plots (matplotlib,
extra ``plot``): ratings with their 95% intervals, the mean score
difference of each pair with its interval, and the ratings against the
number of games played."""

from __future__ import annotations

import html
import os
import textwrap

from solver.errors import INSTALL, OptionError
from solver.front import N_
from solver.said import Quote, phrase

from .ratings import ELO, PRIOR_SD
from .results import LadderResults

# the errors raised here (solver/errors.py: a code and its parameters)
PLOTS_NEED = phrase("ladder_plots_need", N_("the ladder report's plots need matplotlib: "
                                            "{install} (or use --no-plots)"))
REPORT_FORMAT = phrase("ladder_report_format", N_("report format must be 'md' or 'html', got "
                                                  "{got}"))
NOTHING_TO_RATE = phrase("ladder_nothing_to_rate", N_("{db}: no complete duplicate unit yet, "
                                                      "nothing to rate"))


def have_matplotlib() -> bool:
    """Whether the plots can be drawn (the ``plot`` extra is installed)."""
    try:
        # matplotlib is the optional [plot] extra: only whether it imports
        import matplotlib  # noqa: F401  (only whether it imports)
    except ImportError:
        return False
    return True


def _pyplot():
    try:
        # matplotlib is the optional [plot] extra, loaded only to draw
        import matplotlib
    except ImportError:
        raise OptionError(PLOTS_NEED(install=INSTALL(extra="plot"))) from None
    matplotlib.use("Agg")
    # pyplot after the backend is chosen (the optional [plot] extra)
    import matplotlib.pyplot as plt
    return plt


def _title(ax, res: LadderResults, what: str) -> None:
    ax.set_title(f"{res.schedule.game_spec} (seed {res.schedule.seed})\n{what}", fontsize=10)


def plot_ratings(res: LadderResults, ratings, path: str) -> None:
    plt = _pyplot()
    order = ratings.order()[::-1]
    names = [res.entries[i] for i in order]
    elo = [ratings.elo[i] for i in order]
    err = [[ratings.elo[i] - ratings.lo[i] for i in order],
           [ratings.hi[i] - ratings.elo[i] for i in order]]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(names) + 1.6))
    ax.errorbar(elo, range(len(names)), xerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("Elo (Bradley-Terry on duplicate results, mean 0)")
    _title(ax, res, f"ratings with {ratings.method} 95% intervals")
    ax.margins(y=0.2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_pairs(res: LadderResults, pairs, path: str) -> None:
    plt = _pyplot()
    pairs = [p.oriented() for p in pairs]
    names = [f"{res.entries[p.a]} - {res.entries[p.b]}" for p in pairs][::-1]
    means = [p.mean for p in pairs][::-1]
    err = [[p.mean - p.lo if p.units > 1 else 0 for p in pairs][::-1],
           [p.hi - p.mean if p.units > 1 else 0 for p in pairs][::-1]]
    fig, ax = plt.subplots(figsize=(7, 0.55 * len(names) + 1.6))
    ax.errorbar(means, range(len(names)), xerr=err, fmt="s", capsize=4, color="tab:green")
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("mean duplicate score difference per game and seat")
    _title(ax, res, "score difference per pair, 95% intervals")
    ax.margins(y=0.2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def history_note(res: LadderResults, history) -> str:
    """What the rating history plot shows, in words (drawn under it and
    written under it in the report): why its intervals narrow, and which
    entries' intervals cannot narrow yet (an entry that has won, or lost,
    every comparison so far has no finite maximum-likelihood rating: the
    prior holds it, so its interval keeps the prior's width)."""
    last = history[-1][2]
    method = "Fisher" if last.method == "fisher" else "bootstrap"
    text = (f"Each point: the ratings fitted on the deals played up to it, with {method} "
            f"95% intervals (shaded); they narrow about as 1/sqrt(games).")
    extreme = [f"{res.entries[i]} ({'won' if not last.losses[i] else 'lost'} all "
               f"{last.wins[i] + last.losses[i]})"
               for i in range(len(res.entries))
               if last.wins[i] + last.losses[i] and not last.draws[i]
               and (not last.wins[i] or not last.losses[i])]
    if extreme:
        text += (f" An entry that has won or lost every comparison has no finite "
                 f"maximum-likelihood rating: a weak prior (sd {PRIOR_SD * ELO:.0f} Elo) "
                 f"holds it, and its interval stays wide until the other result comes: "
                 f"{', '.join(extreme)}.")
    return text


def plot_history(res: LadderResults, history, path: str) -> None:
    plt = _pyplot()
    note = textwrap.fill(history_note(res, history), 100)
    fig, ax = plt.subplots(figsize=(7, 4.2 + 0.16 * (note.count("\n") + 1)))
    xs = [h[0] for h in history]
    for i, name in enumerate(res.entries):
        elo = [h[2].elo[i] for h in history]
        lo = [h[2].lo[i] for h in history]
        hi = [h[2].hi[i] for h in history]
        line, = ax.plot(xs, elo, marker="o", ms=3, label=name)
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15)
    ax.axhline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("games played")
    ax.set_ylabel("Elo (95% interval shaded)")
    _title(ax, res, "ratings as the games come in")
    ax.legend(fontsize=8, loc="best")
    fig.text(0.01, 0.01, note, fontsize=6.5, va="bottom", ha="left")
    fig.tight_layout(rect=(0, 0.035 * (note.count("\n") + 1), 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(res: LadderResults, out_dir: str, fmt: str = "md", plots: bool = True,
                 ci: str = "auto") -> str:
    """Write ``report.md`` (or ``report.html``) and its PNGs in ``out_dir``;
    returns the report's path."""
    if fmt not in ("md", "html"):
        raise OptionError(REPORT_FORMAT(got=Quote(fmt)))
    if not res.units:
        raise OptionError(NOTHING_TO_RATE(db=res.db))
    if plots:
        _pyplot()                                     # fail before writing anything
    os.makedirs(out_dir, exist_ok=True)
    ratings = res.ratings(ci=ci)
    pairs = res.pairs()
    images = []
    if plots:
        plot_ratings(res, ratings, os.path.join(out_dir, "ratings.png"))
        images.append(("ratings.png", "Ratings with 95% intervals", ""))
        if pairs:
            plot_pairs(res, pairs, os.path.join(out_dir, "pairs.png"))
            images.append(("pairs.png", "Score difference per pair", ""))
        history = res.history(ci=ci)
        if len(history) >= 2:
            plot_history(res, history, os.path.join(out_dir, "history.png"))
            images.append(("history.png", "Rating against games played",
                           history_note(res, history)))
    table = res.table(ratings)
    sch = res.schedule
    title = f"Ladder: {sch.game_spec}"
    method = ("Each deal (one match seed) is played by every group of entries in every "
              "seat arrangement; an entry's duplicate score is its mean seat score over "
              "the arrangements, and each pair in a group gives one win, draw or loss. "
              "Ratings: Bradley-Terry by maximum likelihood on those comparisons, Elo scale, "
              f"mean 0, {ratings.method} 95% intervals (docs/ladder.md).")
    path = os.path.join(out_dir, f"report.{fmt}")
    with open(path, "w", encoding="utf-8") as fh:
        if fmt == "md":
            fh.write(f"# {title}\n\n{method}\n\n```\n{table}\n```\n\n")
            for name, caption, note in images:
                fh.write(f"## {caption}\n\n![{caption}]({name})\n\n"
                         + (f"{note}\n\n" if note else ""))
            fh.write(f"Database: `{res.db}`; entries: "
                     + ", ".join(f"`{e}`" for e in res.entries) + "\n")
        else:
            fh.write(f"<!doctype html>\n<html><head><meta charset='utf-8'>"
                     f"<title>{html.escape(title)}</title></head><body>\n"
                     f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(method)}</p>\n"
                     f"<pre>{html.escape(table)}</pre>\n")
            for name, caption, note in images:
                fh.write(f"<h2>{html.escape(caption)}</h2>\n"
                         f"<img src='{html.escape(name)}' alt='{html.escape(caption)}'>\n"
                         + (f"<p>{html.escape(note)}</p>\n" if note else ""))
            fh.write("</body></html>\n")
    return path
