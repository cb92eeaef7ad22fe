"""A game review rendered (docs/review.md): the text a player reads
(``render_text``: the summary, the biggest mistakes, each deal's values
and every decision) and the evaluation graph of each deal (``plot``, with
the optional ``plot`` extra).  Both read the JSON-able document that
``bots.review.review`` returns and nothing else; the analysis that makes
it is ``bots/review.py``.
"""

from __future__ import annotations

import math
import os

from solver.errors import INSTALL, OptionError
from solver.front import N_
from solver.said import Quote, phrase

# the errors raised here (solver/errors.py: a code and its parameters)
PLOT_FILE = phrase("review_plot_file", N_("plot: the file name ends in .png or .svg, got {got}"))
PLOT_NEEDS = phrase("review_plot_needs", N_("the review's plot needs matplotlib: {install}; the "
                                            "text report needs nothing more"))
PLOT_EMPTY = phrase("review_plot_empty", N_("plot: no deal of this review has a point to draw"))


def _num(v, signed: bool = False) -> str:
    """A value as a player reads it: two decimals below 10, one below 100,
    none above; trailing zeros dropped."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    f = float(v)
    digits = 2 if abs(f) < 10 else 1 if abs(f) < 100 else 0
    text = f"{f:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "+0"):
        text = "0"
    return "+" + text if signed and text != "0" and f > 0 else text


def _pm(half) -> str:
    return "" if half is None or half == 0 else f" +- {_num(half)}"


def _kind_words(kind) -> str:
    """How the hindsight values individual seats, for the text."""
    if kind == "maxn":
        return ("; individual seats valued max^n, every seat for its own score, where that "
                "search finishes, else paranoid")
    if kind == "paranoid":
        return "; individual seats valued paranoid, against the other seats as one side"
    return ""


def render_text(doc: dict, origin: str = "") -> str:
    """The review in a player's words: the summary first, then the biggest
    mistakes, the values of each deal, and every decision."""
    lines = []
    lim = ", ".join(f"{k} {v:g}" for k, v in doc["limit"].items())
    head = f"Review of {doc['game']}"
    if doc["options"]:
        head += " (" + ", ".join(f"{k}={v}" for k, v in doc["options"].items()) + ")"
    if origin:
        head += f", {origin}"
    lines.append(head + ".")
    deals = doc["deals"]
    what = (f"deal {deals[0]['deal']}" if len(deals) == 1 else f"{len(deals)} deals")
    lines.append(f"{what}, {len(doc['decisions'])} decisions with a choice; each searched by "
                 f"{doc['bot']} from its seat's view ({lim}, seed {doc['seed']}); "
                 + (f"hindsight: exact solves of the true deal (at most {doc['nodes']:,} "
                    f"nodes each{_kind_words(doc.get('hindsight_kind'))})."
                    if doc["hindsight"] else
                    "no hindsight (a seat view: the other cards are unknown)."))
    if doc.get("stopped"):
        lines.append("Stopped early: the decisions below are those reviewed before the stop.")
    t = doc["thresholds"]
    lines.append(f"Unit: {doc['unit']}. Mistakes by expected loss: inaccuracy >= "
                 f"{t['inaccuracy']:.3g}, mistake >= {t['mistake']:.3g}, blunder >= "
                 f"{t['blunder']:.3g}; an action as good as the advice (equivalent cards, "
                 f"exact ties, a difference the search cannot tell from zero) loses 0.")
    lines.append("")
    lines.append("Summary")
    rows: list[tuple[str, ...]] = [("seat", "decisions", "expected loss", "inacc.", "mistakes",
                                    "blunders", "exact loss (decisions)")]
    for s in doc["summary"]:
        m = s["mistakes"]
        rows.append((str(s["seat"]), str(s["decisions"]),
                     _num(s["loss"]) + _pm(s["loss_ci95"]), str(m["inaccuracy"]),
                     str(m["mistake"]), str(m["blunder"]),
                     f"{_num(s['exact_loss'])} ({s['exact_decisions']})"
                     if s["exact_decisions"] else "n/a"))
    lines += _table(rows)
    kinds = sorted({k for s in doc["summary"] for k in s["by_kind"]})
    if len(kinds) > 1:
        lines.append("By decision: " + "; ".join(
            f"{k}: " + ", ".join(f"seat {s['seat']} {_num(s['by_kind'][k]['loss'])}"
                                 for s in doc["summary"] if k in s["by_kind"])
            for k in kinds) + " (expected loss)")
    for s in doc["summary"]:
        if not s["biggest"]:
            continue
        lines.append("")
        lines.append(f"Seat {s['seat']}: biggest mistakes")
        for b in s["biggest"]:
            where = f"action {b['index']}, deal {b['deal']}" + \
                (f", trick {b['trick']}" if b["trick"] else "")
            text = (f"  {where}: played {b['played']}, better {b['best']} "
                    f"(loss {_num(b['loss'])}{_pm(b['loss_ci95'])}"
                    + (f", {b['size']}" if b["size"] else "") + ")")
            if b["exact_loss"] is not None:
                text += (f"; in hindsight {b['played']} {_num(b['exact_played'], True)}, "
                         f"best {'/'.join(b['exact_best_actions'][:3])} "
                         f"{_num(b['exact_best'], True)}")
            lines.append(text)
            for fact in b["position"]:
                lines.append(f"      {fact}")
    for d in deals:
        lines.append("")
        res = ("result " + ", ".join(f"seat {s} {_num(v, True)}" for s, v in
                                     enumerate(d["result"]))) if d["result"] else \
            "not finished in the record"
        lines.append(f"Deal {d['deal']} (actions {d['first']}-{d['last']}): {res}")
        if d["points"]:
            seats = doc["seats"]
            rows = [("after",) + tuple(f"seat {s} exact/search" for s in seats)]
            for pt in d["points"]:
                rows.append((pt["label"],) + tuple(
                    f"{_num(pt['exact'][s], True)} / {_num(pt['searched'][s], True)}"
                    for s in seats))
            lines += ["  " + r for r in _table(rows)]
    lines.append("")
    lines.append("Decisions (loss: expected, from the seat's view; exact: in hindsight)")
    rows = [("action", "seat", "kind", "played", "best", "loss", "exact", "how")]
    for e in doc["decisions"]:
        if e["loss"] is None:
            loss = "not searched"
        elif e["played"] == e["best"]:
            loss = "0"
        elif e["played"] in e["equal"]:
            loss = "0, as good"
        else:
            loss = _num(e["loss"]) + _pm(e["loss_ci95"]) + (f" {e['size']}" if e["size"] else "")
        rows.append((str(e["index"]), str(e["seat"]), e["kind"], e["played"], e["best"], loss,
                     _num(e["exact_loss"]) if e["exact_loss"] is not None else "",
                     e["method"]))
    lines += _table(rows)
    return "\n".join(lines)


def _table(rows) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]


# --------------------------------------------------------------------------
# the picture


def plot(doc: dict, path: str) -> str:
    """The values of each reviewed deal for each seat after every trick
    (the exact value solid, the searched value dashed), like a chess
    engine's evaluation graph: one panel per deal, written to ``path``
    (``.png`` or ``.svg``; needs matplotlib, the ``plot`` extra)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".png", ".svg"):
        raise OptionError(PLOT_FILE(got=Quote(path)))
    try:
        import matplotlib  # the optional [plot] extra: loaded only when a plot is drawn
    except ImportError:
        raise OptionError(PLOT_NEEDS(install=INSTALL(extra="plot"))) from None
    matplotlib.use("Agg")
    # pyplot after the backend is chosen (matplotlib.use must come first)
    import matplotlib.pyplot as plt
    deals = [d for d in doc["deals"] if d["points"]]
    if not deals:
        raise OptionError(PLOT_EMPTY())
    fig, axes = plt.subplots(len(deals), 1, figsize=(8, 2.8 * len(deals) + 0.6), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, d in zip(axes[:, 0], deals, strict=True):
        xs = list(range(len(d["points"])))
        for k, s in enumerate(doc["seats"]):
            colour = colours[k % len(colours)]
            for key, style in (("exact", "-"), ("searched", "--")):
                pts = [(x, pt[key][s]) for x, pt in zip(xs, d["points"], strict=True)
                       if pt[key][s] is not None]
                if pts:
                    ax.plot([x for x, _ in pts], [y for _, y in pts], style, color=colour,
                            marker="o" if key == "exact" else None, ms=3,
                            label=f"seat {s} {key}")
        ax.axhline(0, color="grey", lw=0.6, ls=":")
        step = max(1, len(xs) // 14)
        ax.set_xticks(xs[::step], [pt["label"] for pt in d["points"]][::step], rotation=30,
                      ha="right", fontsize=7)
        ax.set_ylabel(doc["unit"].split(" (")[0], fontsize=8)
        ax.set_title(f"{doc['game']}, deal {d['deal']}: value of the deal for each seat "
                     f"(solid: exact, dashed: searched)", fontsize=9)
        ax.legend(fontsize=6, ncol=2, loc="best")
    fig.tight_layout()
    fig.savefig(path, format=ext[1:], dpi=110)
    plt.close(fig)
    return path
