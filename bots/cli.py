"""The ``dixtrix`` command.

    dixtrix games                         list the games and their options
    dixtrix play dix --seed 1             a seeded game between two bots
    dixtrix play dix --seed 1 --bots random,random --option target=20
    dixtrix play dix-exchange --players 7 --seed 3
    dixtrix play dix --seed 1 --record game.json   also write the game record

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
