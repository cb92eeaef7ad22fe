"""The ``dixtrix`` command.

    dixtrix games                         list the games and their options
    dixtrix play dix --seed 1             a seeded game between two bots
    dixtrix play dix --seed 1 --bots random,random --option target=20
    dixtrix play dix-exchange --players 7 --seed 3
    dixtrix play dix --seed 1 --record game.json   also write the game record
    dixtrix ladder run --game dix --bots rules,random --deals 50 --db ladder.db

Errors in what the user typed are reported in one line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

import solver
from solver import position
from solver.errors import DixtrixError

from .base import make_bot, registered_bots
from .match import play_match


def _option_value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _parse_options(items) -> dict:
    opts = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise solver.OptionError(f"--option expects key=value, got {item!r}")
        opts[key.strip()] = _option_value(value.strip())
    return opts


def cmd_games(args) -> int:
    for name in solver.registered_games():
        game = solver.load_game(name)
        print(f"{name}: {game.description}")
        for key, spec in game.options_spec.items():
            extra = f" (one of {', '.join(map(str, spec.choices))})" if spec.choices else ""
            print(f"    {key} = {json.dumps(spec.default)}{extra}: {spec.doc}")
    return 0


def cmd_play(args) -> int:
    options = _parse_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    game = solver.load_game(args.game, **options)
    from .rules import has_rules_bot
    default = "rules" if has_rules_bot(game.name) else "random"
    specs = (args.bots or default).split(",")
    if len(specs) == 1:
        specs = specs * game.num_players
    if len(specs) != game.num_players:
        raise solver.OptionError(f"--bots: {game.name} has {game.num_players} seats, "
                                 f"got {len(specs)} bots")
    seed = args.seed
    bots = [make_bot(spec, game, seat, seed=None if seed is None else seed * 1000 + seat)
            for seat, spec in enumerate(specs)]
    print(f"{game!r}, seed {seed}: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(specs)))
    printed = [0]

    def show(state, seat, action):
        events = getattr(state, "events", None)
        if events is None:
            print(f"seat {seat}: {state.action_to_string(action)}")
            return
        for line in events[printed[0]:]:
            print(line)
        printed[0] = len(events)

    state = game.new_initial_state(seed=seed)
    if getattr(state, "events", None):
        for line in state.events:
            print(line)
    printed[0] = len(getattr(state, "events", []))
    del state
    final = play_match(game, bots, seed=seed, on_action=show if not args.quiet else None)
    print(f"returns: {final.returns()}")
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump(position.to_json(final), fh, indent=1)
            fh.write("\n")
        print(f"record written to {args.record}")
    return 0


def _demo_position(args):
    """A seeded position: the game dealt by ``--seed`` and played by the
    default bots for ``--after`` actions (default: the game's demo point)."""
    options = _parse_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    game = solver.load_game(args.game, **options)
    from .rules import has_rules_bot
    spec = "rules" if has_rules_bot(game.name) else "random"
    seed = 0 if args.seed is None else args.seed
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, game, s, seed=seed * 1000 + s) for s in range(game.num_players)]
    after = args.after if args.after is not None else game.demo_hint_after
    for _ in range(after):
        if state.is_terminal():
            break
        state.apply_action(bots[state.current_player()].step(state))
    while not state.is_terminal() and len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])      # skip forced moves
    return game, state, f"seed {seed}, {spec} bots played {len(state.history())} actions"


def cmd_hint(args) -> int:
    from solver.search import Limit, best_move
    if args.position:
        with open(args.position, encoding="utf-8") as fh:
            pos = position.loads(fh.read())
        view = pos if isinstance(pos, position.SeatView) else None
        if view is None:
            state = pos.state()
            view = position.from_json(state.information_state(state.current_player()).view)
        origin = args.position
    else:
        if not args.game:
            raise solver.OptionError("hint: give a game (with --seed) or --position FILE")
        game, state, origin = _demo_position(args)
        if state.is_terminal():
            raise solver.PositionError("the game is over: there is no move to advise")
        view = position.from_json(state.information_state(state.current_player()).view)
    game, seat = view.game, view.seat
    known = view.info.known
    print(f"{game!r}: {origin}; seat {seat} to move")
    for key in ("hand", "card", "opponent_hand", "contract", "layout", "trick", "trump",
                "turn_up", "bid", "tricks_won", "tens", "count", "tokens", "totals",
                "scores"):
        if known.get(key) not in (None, [], ""):
            print(f"  {key.replace('_', ' ')}: {known[key]}")
    if known.get("opponent_hand") and not args.time and args.iterations is None:
        # every card is known (dix from trick 14): the exact double-dummy values
        from solver.dd import solve
        sol = solve(view.world(seed=0), seat=seat)
        print(f"exact values (double dummy: {sol.objective}, {sol.nodes:,} nodes, "
              f"{sol.time:.2f} s):")
        for action, value in sorted(sol.action_values.items(), key=lambda kv: -kv[1]):
            mark = "  <- best" if action in sol.best_actions else ""
            print(f"  {action:>10}  {value:+7d}{mark}")
        return 0
    if args.bot == "pimc":
        limit = Limit(time=args.time) if args.time else Limit(worlds=args.worlds or 50)
        res = best_move(view, limit, bot="pimc", seed=args.search_seed)
        work = f"{max(res.visits.values()):,} worlds"
    else:
        from solver.search.native import native_dix_search
        iterations = args.iterations
        if iterations is None:
            iterations = 200_000 if game.name == "dix" and \
                native_dix_search(view.sampler()) is not None else 2000
        limit = Limit(time=args.time) if args.time else Limit(iterations=iterations)
        res = best_move(view, limit, bot=args.bot, seed=args.search_seed)
        work = f"{sum(res.visits.values()):,} iterations"
    print(f"values ({res.bot}: mean result of this deal for seat {seat} over the worlds "
          f"its view allows; {work}, {res.time:.2f} s):")
    for action, value in sorted(res.values.items(), key=lambda kv: -kv[1]):
        mark = "  <- best" if action == res.action else ""
        unit = "worlds" if res.bot == "pimc" else "visits"
        print(f"  {action:>10}  {value:+7.2f}  ({res.visits.get(action, 0):,} {unit}){mark}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dixtrix", description="dixtrix: card game engine")
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="list the games and their options")
    g.set_defaults(func=cmd_games)
    pl = sub.add_parser("play", help="play a seeded game between bots")
    pl.add_argument("game", help=f"one of: {', '.join(solver.registered_games())}")
    pl.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
    pl.add_argument("--bots", help=f"comma-separated bot specs, one per seat or one for all "
                                   f"(known: {', '.join(registered_bots())}; default: "
                                   f"rules where the game has a heuristic, else random)")
    pl.add_argument("--players", type=int, help="number of players (games that allow it)")
    pl.add_argument("--option", action="append", metavar="KEY=VALUE", help="game option")
    pl.add_argument("--quiet", action="store_true", help="print only the result")
    pl.add_argument("--record", metavar="FILE", help="write the game record (JSON)")
    pl.set_defaults(func=cmd_play)
    h = sub.add_parser("hint", help="the best move and every legal action's value")
    h.add_argument("game", nargs="?", help="a game to deal with --seed (or use --position)")
    h.add_argument("--position", metavar="FILE", help="a record or seat view (JSON)")
    h.add_argument("--seed", type=int, default=None, help="seed of the demo deal")
    h.add_argument("--after", type=int, default=None,
                   help="actions the bots play before the hint (default: the game's demo)")
    h.add_argument("--players", type=int, help="number of players (games that allow it)")
    h.add_argument("--option", action="append", metavar="KEY=VALUE", help="game option")
    h.add_argument("--bot", default="ismcts", choices=("ismcts", "pimc"),
                   help="search: ismcts (information-set MCTS) or pimc (sampled worlds "
                        "solved double dummy)")
    h.add_argument("--worlds", type=int, default=None, help="pimc: worlds (default 50)")
    h.add_argument("--iterations", type=int, default=None,
                   help="search iterations (default: 200000 with the Cython dix search, "
                        "else 2000)")
    h.add_argument("--time", type=float, default=None, help="seconds (instead of iterations)")
    h.add_argument("--search-seed", type=int, default=0)
    h.set_defaults(func=cmd_hint)
    from .ladder.cli import add_parser as add_ladder_parser
    add_ladder_parser(sub)              # dixtrix ladder run|report (docs/ladder.md)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DixtrixError as exc:
        print(f"dixtrix: error: {exc}", file=sys.stderr)
        return 2


def entry() -> None:
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. `dixtrix play dix | head`
        sys.stderr.close()
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    entry()
