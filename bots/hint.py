"""``dixtrix hint``: the advice for the seat to move, printed for the
command line.

The content -- the position in a card player's words, every legal
action's value with its 95% interval, the actions the search cannot tell
apart, the line of advice, the exact values and expected line where every
card is known -- is the advice service's (``bots/advice.py``, which the
HTTP API and the web table send too); this module reads the position file,
shows a progress line on a terminal, and prints it (``--json``: the same
content for programs).
"""

from __future__ import annotations

import json
import math
import sys
import textwrap
import time as _time

from solver import load_game, position, registered_games
from solver.errors import PositionError
from solver.front import N_
from solver.game import check_seed
from solver.said import Word, phrase
from solver.search import contract_choice
from solver.search.advice import equal_test

from .advice import advise, json_finite, make_limit, with_position

# the errors raised here (solver/errors.py: a code and its parameters;
# ``file``: the file's name as Python quotes it, or the words "standard input")
NO_SUCH_FILE = phrase("hint_no_file", N_("cannot read the position {file}: no such file"))
A_DIRECTORY = phrase("hint_directory", N_("cannot read the position {file}: it is a directory"))
NO_PERMISSION = phrase("hint_permission", N_("cannot read the position {file}: permission "
                                             "denied"))
UNREADABLE = phrase("hint_unreadable", N_("cannot read the position {file}: {reason}"))
BAD_POSITION = phrase("hint_bad_position", N_("position {file}: {error}"))
BAD_POSITION_AT = phrase("hint_bad_position_at", N_("position {file}: {path}: {error}"))
UNWRITABLE = phrase("hint_unwritable", N_("cannot write {file}: {reason}"))
STDIN = N_("standard input")

#: a progress line is shown on a terminal once a search has run this long
PROGRESS_AFTER = 1.0


# --------------------------------------------------------------------------
# the command


def read_position(source: str):
    """A record or seat view from a file path or ``-`` (stdin); every
    failure is a ``PositionError`` naming the file."""
    label = Word(STDIN) if source == "-" else repr(source)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(position.MAX_DOCUMENT_BYTES + 1)
        else:
            with open(source, "rb") as fh:
                data = fh.read(position.MAX_DOCUMENT_BYTES + 1)
    except FileNotFoundError:
        raise PositionError(NO_SUCH_FILE(file=label)) from None
    except IsADirectoryError:
        raise PositionError(A_DIRECTORY(file=label)) from None
    except PermissionError:
        raise PositionError(NO_PERMISSION(file=label)) from None
    except OSError as exc:
        raise PositionError(UNREADABLE(file=label, reason=exc.strerror or str(exc))) from None
    try:
        return position.loads(data)
    except PositionError as exc:
        raise PositionError(BAD_POSITION_AT(file=label, path=exc.where, error=exc.as_message())
                            if exc.where and exc.said is not None
                            else BAD_POSITION(file=label, error=exc.as_message())) from None


def saved_position(view, whole_match: bool = False) -> dict:
    """What ``--save-position`` writes: the seat view advised on, from the
    start of the deal in play (a mid-match view: the match object, this
    deal, its actions) when the position is past the first deal of the
    match, since that is what a user edits; ``whole_match`` keeps the view
    from the first deal (perfect recall of the whole match)."""
    if whole_match or view.match is not None:
        return view.to_json()
    if view.any_world().deal_start()[1] == 0:
        return view.to_json()                    # the first deal: the same thing
    return view.from_current_deal().to_json()


class Progress:
    """A one-line progress display on a terminal (stderr) for searches over
    ``PROGRESS_AFTER`` seconds; silent when stderr is not a terminal."""

    def __init__(self, stream=None, enabled=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = _time.perf_counter()
        self.shown = False

    def __call__(self, info: dict) -> None:
        if not self.enabled or _time.perf_counter() - self.start < PROGRESS_AFTER:
            return
        value = info.get("value")
        best = f", best so far {info['best']}" if info.get("best") else ""
        val = f" ({value:+.2f})" if isinstance(value, (int, float)) else ""
        self.stream.write(f"\r  searching: {info.get('iterations', 0):,} iterations, "
                          f"{info.get('seconds', 0):.1f} s{best}{val}   ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()


def run(args, origin: str, view) -> int:
    game = view.game
    if args.save_position:
        saved = saved_position(view, getattr(args, "whole_match", False))
        try:
            with open(args.save_position, "w", encoding="utf-8") as fh:
                json.dump(saved, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise PositionError(UNWRITABLE(file=repr(args.save_position),
                                            reason=exc.strerror or str(exc))) from None
    check_seed(args.search_seed, "--search-seed")
    progress = Progress(enabled=False if args.json else None)
    try:
        inference = getattr(args, "inference", None)
        out = advise(view, origin, bot=args.bot,
                     limit=make_limit(args.time, args.iterations, args.worlds),
                     seed=args.search_seed, progress=progress,
                     trees=getattr(args, "trees", None), threads=getattr(args, "threads", None),
                     beliefs=getattr(args, "beliefs", False),
                     inference=None if inference is None else inference == "on",
                     prior=getattr(args, "prior", None), policy=getattr(args, "policy", None),
                     leaf=getattr(args, "leaf", None))
    finally:
        progress.close()
    facts = out["facts"]
    if args.json:
        out.get("exact", {}).pop("winners", None)
        print(json.dumps(json_finite(with_position(out, view)), indent=1))
        return 0
    _print_header(game, origin, facts, view.seat, out["trick"])
    if getattr(args, "legend", False):
        print(legend(game))
    if out.get("note"):
        print(out["note"])
    if out.get("brackets", {}).get("words"):
        proved = out["brackets"]
        print(f"What the exact solve proved ({proved['kind']} value): "
              + ", ".join(f"{a} {w}" for a, w in proved["words"].items()))
    if "beliefs" in out:
        print(beliefs_text(out["beliefs"]))
    if "exact" in out:
        ex = out["exact"]
        if ex["forced"]:
            print(out["advice"])
            return 0
        print(f"Exact values, every card known (double dummy; {ex['nodes']:,} nodes, "
              f"{ex['time']:.2f} s). Unit: {ex['unit']}.")
        width = max(len(a) for a in ex["ranking"])
        for action in ex["ranking"]:
            mark = "best" if action in ex["best"] else ""
            winner = f"  round won by {ex['winners'][action]}" if ex["winners"] else ""
            print(f"  {action:<{width}}  {_number(ex['values'][action])}  {mark:<4}{winner}")
        if ex["line"]:
            print("Expected line of play: " + line_text(ex["line"]))
        print(out["advice"])
        return 0
    res = out["search"]
    per = "worlds" if res["bot"] == "pimc" else "visits"
    what = ("sampled worlds, each solved double dummy where the solver applies"
            if res["bot"] == "pimc" else "information-set MCTS over the worlds your view allows")
    if res["unit"] == contract_choice.UNIT:
        what = ("every open contract searched in the same sampled worlds; you play each "
                "contract of the set once, so each is compared with its value on an "
                "average deal")
    guided = res.get("guided") or {}
    if guided:
        what += (f" (prior: {guided['prior']}, play-outs: {guided['playout']}"
                 + (f", leaf: {guided['leaf']}" if guided.get("leaf") else "") + ")")
    print(f"Values: {what}; {res['iterations']:,} "
          f"{'worlds' if res['bot'] == 'pimc' else 'iterations'}"
          f", {res['time']:.2f} s. Unit: {res['unit']}, mean with its 95% interval, then "
          f"the difference from the advice with its own 95% interval (the search's paired "
          f"estimate); the advice first.")
    if res.get("beliefs"):
        print("  " + beliefs_line(res["beliefs"]))
    width = max(len(a) for a in res["ranking"])
    advised = res["values"].get(res["action"])
    for action in res["ranking"]:
        value = res["values"].get(action)
        ci = res["ci95"].get(action, math.inf)
        ci_text = f"+-{ci:5.2f}" if math.isfinite(ci) else "   n/a "
        half = res.get("diff_ci95", {}).get(action)
        if action == res["action"] or value is None or advised is None:
            vs = " " * 16
        elif half is None or not math.isfinite(half):
            vs = f"{value - advised:+8.2f}    n/a "
        else:
            vs = f"{value - advised:+8.2f} +-{half:5.2f}"
        twin = next((m[0] for m in res["same"] if action in m), action)
        mark = "advised" if action == res["action"] else (
            f"same as {twin}" if twin != action else
            "" if action not in res["equal"] else "as good" if math.isfinite(ci) else
            "too little searched")
        value_text = f"{value:+8.2f}" if value is not None else "     n/a"
        print(f"  {action:<{width}}  {value_text} {ci_text} {vs}  "
              f"{res[per].get(action, 0):>9,} {per}  {mark}")
    for action, why in res["reasons"].items():
        print(f"  ({action} has a higher mean than {res['action']}: {why}.)")
    print(out["advice"])
    return 0


def beliefs_line(b: dict) -> str:
    """What weighed the worlds of a search, in one line."""
    if not b.get("observations"):
        return (f"The worlds: {b['worlds']:,} drawn among the deals your view allows; "
                f"nothing the others chose weighed them yet.")
    return (f"The worlds: {b['worlds']:,} drawn among the deals your view allows, weighed by "
            f"how likely the other players' {b['observations']} decisions are in each "
            f"(as good as {b['ess']:.0f} equally likely worlds).")


def beliefs_text(b: dict) -> str:
    """``dixtrix hint --beliefs``: where the cards you cannot see are, a
    column a holder with how many of them it holds, the cards by suit
    (dix-exchange: a line a card value).  Exact shares (no decision
    observed: the hard facts alone) to a tenth of a percent; shares of a
    weighed pool to the percent, with their sampling error."""
    names = b["names"]
    width = max(6, *(len(n) for n in names))
    if b["kind"] == "value":
        head = ("How likely each card value is, for each player's card you have not seen "
                "(a column a player):")
    else:
        head = "Where the cards you cannot see are (a column a holder):"
    if b.get("exact"):
        how = ("exact, counted over every deal your view allows (nothing the others "
               "chose tells more yet)")
    else:
        how = (f"weighed by the other players' {b['observations']} decisions over "
               f"{b['worlds']:,} worlds (as good as {b['ess']:.0f} equally likely ones)"
               if b["inference"] else
               f"{b['worlds']:,} worlds drawn alike among the deals your view allows")
        how += f"; each share within {100 * b.get('error', 0):.0f}% (95%)"
    digits = 1 if b.get("exact") else 0
    lines = [head, f"  {how}:", "  " + " " * 8 + "".join(f"{n:>{width + 1}}" for n in names)]
    if b.get("unseen"):
        lines.append(f"  {'unseen':<8}" + "".join(f"{n:>{width + 1}}" for n in b["unseen"]))
    groups = b.get("groups") or [{"suit": None, "cards": list(b["cards"])}]
    for group in groups:
        indent = "  "
        if group["suit"] is not None:
            lines.append(f"  {group['suit'].capitalize()}")
            indent = "    "
        for card in group["cards"]:
            cells = "".join(f"{100 * p:>{width}.{digits}f}%" if p else f"{'-':>{width + 1}}"
                            for p in b["cards"][card])
            lines.append(f"{indent}{card:<{10 - len(indent)}}{cells}")
    return "\n".join(lines)


def line_text(line) -> str:
    """The expected line of play grouped by trick: ``trick 15: you JK,
    opponent 3S; trick 16: ...`` (steps outside trick play stand alone)."""
    groups: list = []
    for step in line:
        said = f"{step['who']} {step['action']}"
        trick = step.get("trick")
        if groups and trick is not None and groups[-1][0] == trick:
            groups[-1][1].append(said)
        else:
            groups.append((trick, [said]))
    return "; ".join((f"trick {t}: " if t is not None else "") + ", ".join(said)
                     for t, said in groups)


def legend(game) -> str:
    """The notation of ``game`` and how to read a hint, in a few lines."""
    text = (f"Notation ({game.name}): {game.notation} Values: the mean for you in the unit "
            f"named, with its 95% interval (+-); visits: how often the search tried the "
            f"action (worlds: sampled deals, each solved); 'as good': "
            f"{equal_test(game.round_scale)} (each action's difference from the advice is "
            f"shown beside its value).")
    return textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ")


def legends() -> str:
    """Every game's notation (``dixtrix hint --legend`` without a game)."""

    return "\n".join(textwrap.fill(f"{name}: {load_game(name).notation}", 78,
                                   subsequent_indent="    ")
                     for name in registered_games())


def _number(v) -> str:
    """An exact value as a player reads it: whole points as integers."""
    return f"{int(v):+5d}" if float(v).is_integer() else f"{v:+7.1f}"


def _print_header(game, origin, facts, seat, trick):
    where = f"seat {seat}" + (f", trick {trick[0]} of {trick[1]}" if trick else "")
    print(f"{game.name}{_options_text(game)}, {origin}. You are to move ({where}).")
    for line in facts:
        print(f"  {line}")


def _options_text(game) -> str:
    opts = game.non_default_options()
    return " (" + ", ".join(f"{k}={v}" for k, v in opts.items()) + ")" if opts else ""


__all__ = ["run", "read_position", "saved_position", "Progress", "legend", "legends",
           "line_text", "beliefs_line", "beliefs_text"]
