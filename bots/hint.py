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
from solver.errors import DixtrixError, PositionError, UnsupportedPositionError
from solver.search import contracts

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
    team_lists = game.name == "dixie-rook"
    if team_lists:      # dixie-rook keeps team lists as (team of seat 0, team of seat 1)
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
    if known.get("used"):
        lines.append(f"Contracts already played in this kingdom: {', '.join(known['used'])}")
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
            played = ", ".join(f"{who((leader + i) % n)} {c}" for i, c in enumerate(trick))
            lines.append(f"Trick so far: {played}")
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


def make_limit(time=None, iterations=None, worlds=None):
    """The search limit of a hint: ``time`` (default ``DEFAULT_SECONDS``
    when no count is given) and/or ``iterations`` / ``worlds``."""
    from solver.search import Limit
    if time is not None or (iterations is None and worlds is None):
        return Limit(time=time if time is not None else DEFAULT_SECONDS,
                     iterations=iterations, worlds=worlds)
    return Limit(iterations=iterations, worlds=worlds)


def _exact(view, max_nodes=None):
    """The exact values when the view hides nothing and the solver takes the
    position (within ``max_nodes``), else None or ``{"unavailable": why}``."""
    if not view.info.known.get("opponent_hand"):
        return None
    from solver.dd import solve
    from solver.dd.solve import principal_line
    from solver.errors import SearchAborted
    world = view.world(seed=0)
    try:
        sol = solve(world, seat=view.seat, max_nodes=max_nodes)
        line = principal_line(world, view.seat, plies=LINE_PLIES, max_nodes=max_nodes)
    except (UnsupportedPositionError, SearchAborted) as exc:
        return {"unavailable": str(exc)}
    return {"solution": sol, "line": line}


def advise(view, origin: str = "", bot: str = "ismcts", limit=None, seed: int = 0,
           exact: bool = True, max_nodes=None, progress=None, stop=None,
           threads=None, nodes=None) -> dict:
    """The hint's whole content as a JSON-able dict (what ``--json``
    prints and the web table's hint button shows): the game, seat, the
    position, its ``facts`` in a player's words, then either ``exact``
    (every card known and the solver takes the position: exact values,
    best actions, the expected line of play) or ``search`` (each legal
    action's mean with its 95% interval, the actions as good, visits...),
    and one line of ``advice``.  ``exact=False`` skips the exact solve;
    ``limit`` (a ``solver.search.Limit``, default ``make_limit()``),
    ``bot``, ``seed``, ``progress``, ``stop``, ``threads`` and ``nodes``
    go to ``best_move``; ``max_nodes`` bounds the exact solve (past it:
    the search)."""
    from solver.search import best_move
    game, seat = view.game, view.seat
    names = seat_names(game.num_players, seat, game.partnership)
    facts = describe(view)
    out: dict = {"game": game.name, "options": game.non_default_options(), "seat": seat,
                 "origin": origin, "position": view.to_json(), "facts": facts}
    solved = _exact(view, max_nodes) if exact else None
    if solved is not None and "unavailable" in solved:
        out["note"] = f"(no exact values here: {solved['unavailable']}; searching instead)"
        solved = None
    if solved is not None:
        sol = solved["solution"]
        out["exact"] = {"unit": game.round_unit, "values": dict(sol.action_values),
                        "best": list(sol.best_actions), "nodes": sol.nodes, "time": sol.time,
                        "objective": sol.objective,
                        "winners": ({sol_a: names[w] for sol_a, w in sol.action_winners.items()}
                                    if sol.action_winners else {}),
                        "line": [{"seat": s, "who": names[s], "action": a, "value": v}
                                 for s, a, v in solved["line"]]}
        best = sol.best_actions[0]
        out["advice"] = advice_line(best, sol.best_actions, _is_card(view, best), exact=True)
        return out
    kw = {} if threads is None else {"threads": threads}
    if nodes is not None and bot == "pimc":
        kw["nodes"] = nodes
    res = best_move(view, limit if limit is not None else make_limit(), bot=bot, seed=seed,
                    progress=progress, stop=stop, **kw)
    per = "worlds" if res.bot == "pimc" else "visits"
    out["search"] = {"bot": res.bot, "unit": res.unit, "action": res.action,
                     "equal": list(res.equal), "same": [list(m) for m in res.same],
                     "values": res.values, "ci95": res.ci95,
                     per: res.visits, "iterations": res.iterations, "nodes": res.nodes,
                     "time": res.time, "stopped": res.stopped}
    unknown = {a for a in res.values if not math.isfinite(res.ci95.get(a, math.inf))}
    out["advice"] = advice_line(res.action, res.equal, _is_card(view, res.action),
                                unknown=unknown, same=res.same)
    return out


def run(args, origin: str, view) -> int:
    game = view.game
    names = seat_names(game.num_players, view.seat, game.partnership)
    if args.save_position:
        saved = saved_position(view, getattr(args, "whole_match", False))
        try:
            with open(args.save_position, "w", encoding="utf-8") as fh:
                json.dump(saved, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise PositionError(f"cannot write {args.save_position!r}: "
                                f"{exc.strerror or exc}") from None
    given = args.iterations is not None or args.time is not None or args.worlds is not None
    progress = Progress(enabled=False if args.json else None)
    try:
        out = advise(view, origin, bot=args.bot,
                     limit=make_limit(args.time, args.iterations, args.worlds),
                     seed=args.search_seed, exact=not given, progress=progress)
    finally:
        progress.close()
    facts = out["facts"]
    if args.json:
        out.pop("note", None)
        out.get("exact", {}).pop("winners", None)
        print(json.dumps(json_finite(out), indent=1))
        return 0
    _print_header(game, origin, facts)
    if "exact" in out:
        ex = out["exact"]
        rows = sorted(ex["values"].items(), key=lambda kv: -kv[1])
        print(f"Exact values, every card known (double dummy; {ex['nodes']:,} nodes, "
              f"{ex['time']:.2f} s). Unit: {ex['unit']}.")
        width = max(len(a) for a, _ in rows)
        for action, value in rows:
            mark = "best" if action in ex["best"] else ""
            winner = f"  round won by {ex['winners'][action]}" if ex["winners"] else ""
            print(f"  {action:<{width}}  {value:+5d}  {mark:<4}{winner}")
        if ex["line"]:
            print("Expected line of play: " + ", ".join(
                f"{names[step['seat']]} {step['action']}" for step in ex["line"]))
        print(out["advice"])
        return 0
    if out.get("note"):
        print(out["note"])
    res = out["search"]
    per = "worlds" if res["bot"] == "pimc" else "visits"
    rows = sorted(res["values"].items(), key=lambda kv: (-kv[1], kv[0]))
    what = ("sampled worlds, each solved double dummy where the solver applies"
            if res["bot"] == "pimc" else "information-set MCTS over the worlds your view allows")
    if res["unit"] == contracts.UNIT:
        what = ("every open contract played out by the rules heuristic in the same sampled "
                "worlds; you play each contract of the set once, so each is compared with "
                "its value on an average deal")
    print(f"Values: {what}; {res['iterations']:,} "
          f"{'worlds' if res['bot'] == 'pimc' else 'iterations'}"
          f", {res['time']:.2f} s. Unit: {res['unit']}, mean with its 95% interval.")
    width = max(len(a) for a, _ in rows)
    for action, value in rows:
        ci = res["ci95"].get(action, math.inf)
        ci_text = f"+-{ci:5.2f}" if math.isfinite(ci) else "   n/a "
        twin = next((m[0] for m in res["same"] if action in m), action)
        mark = "best" if action == res["action"] else (
            f"same as {twin}" if twin != action else
            "" if action not in res["equal"] else "as good" if math.isfinite(ci) else
            "too little searched")
        print(f"  {action:<{width}}  {value:+8.2f} {ci_text}  {res[per].get(action, 0):>9,} "
              f"{per}  {mark}")
    print(out["advice"])
    return 0


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
    return is_card_action(view.game, a, action)


def is_card_action(game, action: int, text: str) -> bool:
    """Whether an action is a card played from the hand: cards are the
    actions below 64 (their deck index) in every game but dix-exchange,
    whose decisions (keep, ask, block...) are not cards."""
    return action < 64 and " " not in text and game.name != "dix-exchange"


def _print_header(game, origin, facts):
    print(f"{game.name}{_options_text(game)}, {origin}. You are to move.")
    for line in facts:
        print(f"  {line}")


def _options_text(game) -> str:
    opts = game.non_default_options()
    return " (" + ", ".join(f"{k}={v}" for k, v in opts.items()) + ")" if opts else ""


__all__ = ["run", "advise", "make_limit", "describe", "seat_names", "read_position", "view_of",
           "Progress"]
