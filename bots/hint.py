"""``dixtrix hint``: advice for the seat to move, in a card player's words.

The position is described from the asker's side (you, left, partner,
right; opponent in dix), the trick with who played what, the unit of every
value named; then every legal action's value with its 95% interval, the
actions the search cannot tell apart marked, and one plain line of advice
("Play 8D.").  Where every card is known (dix from trick 14, a full
record of a card-play position) the values are exact, with the expected
line of play.  ``--json`` gives the same content for programs.
"""

from __future__ import annotations

import json
import math
import sys
import time as _time

from solver import position
from solver.errors import DixtrixError, PositionError, SearchAborted, UnsupportedPositionError
from solver.search import contract_choice

#: what a hint searches when no limit is given (seconds)
DEFAULT_SECONDS = 1.0
#: plies of the expected line of play shown with an exact solve
LINE_PLIES = 8
#: a progress line is shown on a terminal once a search has run this long
PROGRESS_AFTER = 1.0

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


# --------------------------------------------------------------------------
# names from the asker's side


def seat_names(n: int, seat: int, partnership: bool) -> list[str]:
    """Each seat's name as the player in ``seat`` says it."""
    names = []
    for s in range(n):
        k = (s - seat) % n
        if k == 0:
            name = "you"
        elif n == 2:
            name = "opponent"
        elif k == 1:
            name = "left"
        elif k == n - 1:
            name = "right"
        elif n == 4 and k == 2:
            name = "partner" if partnership else "across"
        elif partnership and k % 2 == 0:
            name = f"partner ({k} to the left)"
        else:
            name = f"seat {s} ({k} to the left)"
        names.append(name)
    return names


def _per_seat(values, names, teams: bool) -> str:
    """``[3, 5]`` as ``you 3, opponent 5`` (or per team)."""
    if teams:
        return f"your team {values[0]}, the other team {values[1]}"
    me = names.index("you")
    n = len(values)
    return ", ".join(f"{names[(me + k) % n]} {values[(me + k) % n]}" for k in range(n))


def describe(view) -> list[str]:
    """The position as the seat to move sees it, one fact a line."""
    game, seat = view.game, view.seat
    n = game.num_players
    names = seat_names(n, seat, game.partnership)
    known = dict(view.info.known)
    team_lists = game.scores_by_team
    if team_lists:      # team lists as (team of seat 0, team of seat 1)
        mine = seat % 2

        def order(v):
            return [v[mine], v[1 - mine]]
    else:
        def order(v):
            return v
    lines = []

    def who(s):
        return names[s] if isinstance(s, int) and 0 <= s < n else "nobody"

    if known.get("hand") not in (None, ""):
        lines.append(f"Your hand: {known['hand']}")
    if known.get("card") not in (None, ""):
        lines.append(f"Your card: {known['card']}")
    if known.get("opponent_hand"):
        lines.append(f"Opponent's hand (known, the stock is empty): {known['opponent_hand']}")
    if known.get("trump") not in (None, ""):
        trump = SUITS.get(known["trump"], known["trump"])
        extra = f" (turn-up {known['turn_up']})" if known.get("turn_up") else ""
        lines.append(f"Trumps: {trump}{extra}")
    if known.get("contract") not in (None, ""):
        by = known.get("chooser")
        lines.append(f"Contract: {known['contract']}" + (f", chosen by {who(by)}"
                                                          if by is not None else ""))
    # the contract in play is in ``used`` from the moment it is chosen: it
    # is not yet one of those played
    played = [c for c in known.get("used") or () if c != known.get("contract")]
    if played:
        # trix's rounds are kingdoms, tricks' are sets
        lines.append(f"Contracts already played in this "
                     f"{getattr(game, 'round_word', 'round')}: {', '.join(played)}")
    if known.get("layout"):
        lines.append(f"Layout: {known['layout']}")
    if known.get("bid") is not None and known.get("bid_winner") is not None:
        lines.append(f"Bid: {known['bid']} by {who(known['bid_winner'])}")
    elif known.get("high_bid") is not None:
        lines.append(f"Highest bid: {known['high_bid']} by {who(known.get('high_bidder'))}")
    trick = known.get("trick")
    leader = known.get("leader")
    if isinstance(trick, list) and isinstance(leader, int):
        if trick:
            so_far = ", ".join(f"{who((leader + i) % n)} {c}" for i, c in enumerate(trick))
            lines.append(f"Trick so far: {so_far}")
        elif leader == seat:
            lines.append("Trick: you lead")
    if known.get("tricks_won") is not None:
        lines.append(f"Tricks won: {_per_seat(order(known['tricks_won']), names, team_lists)}")
    if known.get("tens") is not None:
        lines.append(f"Ten-tricks taken (3 each against the taker): "
                     f"{_per_seat(known['tens'], names, False)}")
    if known.get("count") is not None:
        lines.append(f"Count taken this hand: {_per_seat(order(known['count']), names, True)}")
    if known.get("tokens") is not None:
        lines.append(f"Tokens: {_per_seat(known['tokens'], names, False)}")
    if known.get("totals") is not None:
        lines.append(f"Match score: {_per_seat(order(known['totals']), names, team_lists)}")
    if known.get("stock_left"):
        lines.append(f"Cards left in the stock: {known['stock_left']}")
    return lines


def advice_line(action: str, equal, is_card: bool, exact: bool = False,
                unknown=(), same=()) -> str:
    """One line of advice; ``equal``: the actions as good; ``unknown``: those
    among them searched too little to have an interval; ``same``: the
    classes of equivalent cards (``PlayResult.same``)."""
    verb = f"Play {action}" if is_card else action[:1].upper() + action[1:]
    twins = next((m for m in same if action in m), ())
    others = [a for a in equal if a != action and a not in unknown and a not in twins]
    rare = [a for a in equal if a != action and a in unknown and a not in twins]
    if others and exact:
        return f"{verb}. Exactly as good: {', '.join(others)}."
    text = f"{verb}."
    if len(twins) > 1:
        text += (f" {', '.join(a for a in twins if a != action)} "
                 f"{'is' if len(twins) == 2 else 'are'} the same card here (equivalent).")
    if others:
        text += (f" As good as far as the search can tell: {', '.join(others)} "
                 f"(their 95% intervals overlap).")
    if rare:
        text += f" Searched too little to judge: {', '.join(rare)}."
    return text


# --------------------------------------------------------------------------
# the command


def read_position(source: str):
    """A record or seat view from a file path or ``-`` (stdin); every
    failure is a ``PositionError`` naming the file."""
    label = "standard input" if source == "-" else repr(source)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(position.MAX_DOCUMENT_BYTES + 1)
        else:
            with open(source, "rb") as fh:
                data = fh.read(position.MAX_DOCUMENT_BYTES + 1)
    except FileNotFoundError:
        raise PositionError(f"cannot read the position {label}: no such file") from None
    except IsADirectoryError:
        raise PositionError(f"cannot read the position {label}: it is a directory") from None
    except PermissionError:
        raise PositionError(f"cannot read the position {label}: permission denied") from None
    except OSError as exc:
        raise PositionError(f"cannot read the position {label}: {exc.strerror or exc}") \
            from None
    try:
        return position.loads(data)
    except PositionError as exc:
        raise PositionError(f"position {label}: {exc}") from None


def view_of(pos):
    """The seat view of the seat to move (``PositionError`` for a finished
    game)."""
    if isinstance(pos, position.SeatView):
        return pos
    state = pos.state()
    if state.is_terminal():
        raise PositionError("the game in this record is over: there is no move to advise")
    return position.from_json(state.information_state(state.current_player()).view)


def saved_position(view, whole_match: bool = False) -> dict:
    """What ``--save-position`` writes: the seat view advised on, from the
    start of the deal in play (a mid-match view: the match object, this
    deal, its actions) when the position is past the first deal of the
    match, since that is what a user edits; ``whole_match`` keeps the view
    from the first deal (perfect recall of the whole match)."""
    if whole_match or view.match is not None:
        return view.to_json()
    if view.world(seed=0).deal_start()[1] == 0:
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


def make_limit(time=None, iterations=None, worlds=None, nodes=None):
    """The search limit of a hint: ``time`` (default ``DEFAULT_SECONDS``
    when no count is given) and/or ``iterations`` / ``worlds`` / ``nodes``."""
    from solver.search import Limit
    if time is not None or (iterations is None and worlds is None):
        return Limit(time=time if time is not None else DEFAULT_SECONDS,
                     iterations=iterations, worlds=worlds, nodes=nodes)
    return Limit(iterations=iterations, worlds=worlds, nodes=nodes)


def _line(view, seat, res):
    """The expected line of play of an exact result (every card known):
    ``[(seat, action, value), ...]`` from the same values as the advice
    (``bots.exact``: the game's deal-result unit, ties to the first action
    in the game's order, so the line starts with the advised action),
    bounded to a few times the nodes of the solve itself; [] where the
    solver stops short."""
    from .exact import line
    try:
        return line(view.world(seed=0), seat, plies=LINE_PLIES,
                    total_nodes=max(res.nodes * 4, 100_000))
    except (UnsupportedPositionError, SearchAborted):
        return []


def advise(view, origin: str = "", bot: str = "ismcts", limit=None, seed: int = 0,
           progress=None, stop=None, threads=None, nodes=None, line: bool = True) -> dict:
    """The hint's whole content as a JSON-able dict (what ``--json``
    prints and the web table's hint button shows): the game, seat, the
    position, its ``facts`` in a player's words, the decision service's
    advice (``solver.search.best_move``: ``action``, ``ranking`` -- every
    legal action in the order the advice prefers them, the advised one
    first -- and ``method``: forced, exact, ismcts or pimc), then either
    ``exact`` (one legal action, or the view determines the deal and the
    solver took it: exact values, the actions as good, the expected line
    of play) or ``search`` (each legal action's mean with its 95% interval
    and visits or worlds, the actions as good, the reasons an action with a
    higher mean is not the advice...), and one line of ``advice``.
    ``limit`` (a ``solver.search.Limit``, default ``make_limit()``),
    ``bot``, ``seed``, ``progress``, ``stop``, ``threads`` and ``nodes`` go
    to ``best_move``; ``line``: compute the expected line of an exact result."""
    from solver.search import best_move
    game, seat = view.game, view.seat
    names = seat_names(game.num_players, seat, game.partnership)
    facts = describe(view)
    world = view.world(seed=0)
    trick = world.trick_number()
    out: dict = {"game": game.name, "options": game.non_default_options(), "seat": seat,
                 "trick": list(trick) if trick else None,
                 "origin": origin, "position": view.to_json(), "facts": facts}
    kw = {} if threads is None else {"threads": threads}
    res = best_move(view, limit if limit is not None else make_limit(), bot=bot, seed=seed,
                    progress=progress, stop=stop, nodes=nodes, **kw)
    out.update(action=res.action, ranking=list(res.ranking), method=res.bot)
    if res.note:
        out["note"] = f"({res.note})"
    is_card = _is_card(view, res.action)
    if res.bot in ("exact", "forced"):
        steps = _line(view, seat, res) if line and res.bot == "exact" else []
        out["exact"] = {"unit": res.unit, "values": dict(res.values), "best": list(res.equal),
                        "ranking": list(res.ranking), "nodes": res.nodes, "time": res.time,
                        "forced": res.bot == "forced",
                        "winners": ({a: names[w] for a, w in res.winners.items()}
                                    if res.winners else {}),
                        "line": [{"seat": s, "who": names[s], "action": a, "value": v,
                                  "trick": t}
                                 for (s, a, v), t in zip(steps, _tricks(world, steps), strict=True)]}
        if res.bot == "forced":
            out["advice"] = advice_line(res.action, (), is_card) + \
                " It is the only legal action."
        else:
            out["advice"] = advice_line(res.action, res.equal, is_card, exact=True)
        return out
    per = "worlds" if res.bot == "pimc" else "visits"
    out["search"] = {"bot": res.bot, "unit": res.unit, "action": res.action,
                     "ranking": list(res.ranking), "equal": list(res.equal),
                     "same": [list(m) for m in res.same], "values": res.values,
                     "ci95": res.ci95, per: res.visits, "reasons": dict(res.reasons),
                     "iterations": res.iterations, "nodes": res.nodes,
                     "time": res.time, "stopped": res.stopped}
    unknown = {a for a in res.values if not math.isfinite(res.ci95.get(a, math.inf))}
    out["advice"] = advice_line(res.action, res.equal, is_card, unknown=unknown,
                                same=res.same)
    return out


def run(args, origin: str, view) -> int:
    game = view.game
    if args.save_position:
        saved = saved_position(view, getattr(args, "whole_match", False))
        try:
            with open(args.save_position, "w", encoding="utf-8") as fh:
                json.dump(saved, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise PositionError(f"cannot write {args.save_position!r}: "
                                f"{exc.strerror or exc}") from None
    progress = Progress(enabled=False if args.json else None)
    try:
        out = advise(view, origin, bot=args.bot,
                     limit=make_limit(args.time, args.iterations, args.worlds),
                     seed=args.search_seed, progress=progress,
                     threads=getattr(args, "threads", None))
    finally:
        progress.close()
    facts = out["facts"]
    if args.json:
        out.get("exact", {}).pop("winners", None)
        print(json.dumps(json_finite(out), indent=1))
        return 0
    _print_header(game, origin, facts, view.seat, out["trick"])
    if getattr(args, "legend", False):
        print(legend(game))
    if out.get("note"):
        print(out["note"])
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
    print(f"Values: {what}; {res['iterations']:,} "
          f"{'worlds' if res['bot'] == 'pimc' else 'iterations'}"
          f", {res['time']:.2f} s. Unit: {res['unit']}, mean with its 95% interval; "
          f"the advice first.")
    width = max(len(a) for a in res["ranking"])
    for action in res["ranking"]:
        value = res["values"].get(action)
        ci = res["ci95"].get(action, math.inf)
        ci_text = f"+-{ci:5.2f}" if math.isfinite(ci) else "   n/a "
        twin = next((m[0] for m in res["same"] if action in m), action)
        mark = "advised" if action == res["action"] else (
            f"same as {twin}" if twin != action else
            "" if action not in res["equal"] else "as good" if math.isfinite(ci) else
            "too little searched")
        value_text = f"{value:+8.2f}" if value is not None else "     n/a"
        print(f"  {action:<{width}}  {value_text} {ci_text}  {res[per].get(action, 0):>9,} "
              f"{per}  {mark}")
    for action, why in res["reasons"].items():
        print(f"  ({action} has a higher mean than {res['action']}: {why}.)")
    print(out["advice"])
    return 0


def _tricks(world, steps) -> list:
    """The trick (its number) each step of a line is played in, None for
    a step outside trick play: the line replayed on ``world``."""
    state = world.clone()
    out = []
    for _, action, _ in steps:
        trick = state.trick_number()
        out.append(trick[0] if trick else None)
        state.apply_action(state.string_to_action(action))
    return out


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
    import textwrap
    text = (f"Notation ({game.name}): {game.notation} Values: the mean for you in the unit "
            f"named, with its 95% interval (+-); visits: how often the search tried the "
            f"action (worlds: sampled deals, each solved); 'as good': the search cannot "
            f"tell it from the advice.")
    return textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ")


def legends() -> str:
    """Every game's notation (``dixtrix hint --legend`` without a game)."""
    import textwrap

    from solver import load_game, registered_games
    return "\n".join(textwrap.fill(f"{name}: {load_game(name).notation}", 78,
                                   subsequent_indent="    ")
                     for name in registered_games())


def _number(v) -> str:
    """An exact value as a player reads it: whole points as integers."""
    return f"{int(v):+5d}" if float(v).is_integer() else f"{v:+7.1f}"


def json_finite(value):
    """JSON has no infinity: an interval not yet known is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_finite(v) for v in value]
    return value


def _is_card(view, action: str) -> bool:
    try:
        a = view.world(seed=0).string_to_action(action)
    except DixtrixError:
        return False
    return view.game.is_card(a)


def _print_header(game, origin, facts, seat, trick):
    where = f"seat {seat}" + (f", trick {trick[0]} of {trick[1]}" if trick else "")
    print(f"{game.name}{_options_text(game)}, {origin}. You are to move ({where}).")
    for line in facts:
        print(f"  {line}")


def _options_text(game) -> str:
    opts = game.non_default_options()
    return " (" + ", ".join(f"{k}={v}" for k, v in opts.items()) + ")" if opts else ""


__all__ = ["run", "advise", "make_limit", "describe", "seat_names", "read_position", "view_of",
           "Progress", "json_finite", "legend", "legends", "line_text"]
