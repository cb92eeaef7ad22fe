"""The ``dixtrix`` command.

    dixtrix games                         list the games and their options
    dixtrix play dix --seed 1             a seeded game between two bots
    dixtrix play dix --seed 1 --bots random,random --option target=20
    dixtrix play dix-exchange --players 7 --seed 3
    dixtrix play dix --seed 1 --record game.json   also write the game record
    dixtrix solve game.json --at 28       exact values after the record's first 28 actions
    dixtrix review game.json              every decision judged (docs/review.md)
    dixtrix ladder run --game dix --bots rules,random --deals 50 --db ladder.db

Errors in what the user typed are reported in one line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import solver
from solver import position
from solver.errors import INSTALL, DixtrixError, SearchAborted
from solver.front import N_
from solver.game import (
    check_given_seed,
    check_seed,
    game_name,
    options_from_text,
    parse_pairs,
    wrap_seed,
)
from solver.said import Quote, phrase
from solver.search import Limit, evaluate, value
from solver.search.learned import HIDDEN_MAX, PRIORS, model_key
from solver.search.native import ISMCTS_POLICIES
from solver.search.service import NO_MOVE_TO_ADVISE

from . import advice, engine, hint, human, learn, modelfit, review
from .exact import solve_doc, unfinished_doc
from .ladder.cli import add_parser as add_ladder_parser
from .ladder.executors import JOBS_OR_DASK
from .match import play_match
from .registry import make_bot, registered_bots
from .review import DEFAULT_NODES, DEFAULT_SECONDS
from .rules import has_rules_bot
from .server.serve import serve
from .server.settings import add_flags, from_flags

# the errors raised here (solver/errors.py: a code and its parameters; the
# command line prints their English)
BOTS_COUNT = phrase("cli_bots_count", N_("--bots: {game} has {seats} seats, got {got} bots"))
HUMAN_SEAT = phrase("cli_human_seat", N_("--human: {game} has seats 0..{last}, got {got}"))
AFTER_NEGATIVE = phrase("cli_after", N_("--after: a number of actions (0 or more), got {got}"))
AFTER_ENDED = phrase("cli_after_ended", N_("--after {after}: the game ended after {n} actions "
                                           "(seed {seed}); ask for fewer"))
NO_GAME_NOR_FILE = phrase("cli_no_game_nor_file", N_("{game}; nor is there a position file "
                                                     "{file}"))
HINT_BOTH = phrase("cli_hint_both", N_("hint: give a POSITION or --position FILE, not both"))
HINT_NOTHING = phrase("cli_hint_nothing", N_("hint: give a POSITION file (or - for stdin), or a "
                                             "game to deal with --seed"))
HINT_DEMO_FLAGS = phrase("cli_hint_demo_flags", N_("hint: --seed, --after, --option and "
                                                   "--players deal a demo game; a POSITION "
                                                   "file brings its own"))
AT_RANGE = phrase("cli_at", N_("{command} --at: the record has {n} actions, so N is 0..{n}, "
                               "got {got}"))
SOLVE_VIEW = phrase("cli_solve_view", N_("solve needs every card, and this is a seat view: use "
                                         "dixtrix hint (the search) or dixtrix evaluate"))
SOLVE_OVER = phrase("cli_solve_over", N_("the game in this record is over: nothing to solve "
                                         "(give --at N for the position after N of its {n} "
                                         "actions)"))
SOLVE_OVER_AT = phrase("cli_solve_over_at", N_("the game after {at} actions is over: nothing "
                                               "to solve (give --at N for the position after N "
                                               "of its {n} actions)"))
NEEDS_NUMPY = phrase("cli_needs_numpy", N_("dixtrix {command} needs numpy: {install}"))
AT_LEAST_ONE = phrase("cli_at_least_one", N_("{flag} must be at least 1, got {got}"))
CUT_RANGE = phrase("cli_cut", N_("--cut is a number of tricks 0..64, got {got}"))


def _load_game(args):
    """The game of ``args.game`` (any case) with ``--option KEY=VALUE``
    (each value read by its option: ``Option.parse``) and ``--players``."""
    name = game_name(args.game)
    options = options_from_text(name, parse_pairs(args.option or [], "--option"))
    if args.players is not None:
        options["players"] = args.players
    return solver.load_game(name, **options)


def cmd_games(args) -> int:
    for name in solver.registered_games():
        game = solver.load_game(name)
        print(f"{name}: {game.description}")
        for key, spec in game.options_spec.items():
            extra = f" (one of {', '.join(map(str, spec.choices))})" if spec.choices else ""
            print(f"    {key} = {json.dumps(spec.default)}{extra}: {spec.doc}")
    return 0


def _bot_seed(seed: int, seat: int) -> int:
    """Seat ``seat``'s bot's seed in a game dealt by ``seed``: ``seed * 1000
    + seat``, kept in the seed range of every face (a deal's seed near
    2**63-1 wraps round instead of giving make_bot one it refuses)."""
    return wrap_seed(seed * 1000 + seat)


def cmd_play(args) -> int:
    game = _load_game(args)
    default = "rules" if has_rules_bot(game) else "random"
    specs = (args.bots or default).split(",")
    if len(specs) == 1:
        specs = specs * game.num_players
    if len(specs) != game.num_players:
        raise solver.OptionError(BOTS_COUNT(game=game.name, seats=game.num_players,
                                            got=len(specs)))
    seed = args.seed
    if seed is not None:
        check_seed(seed, "--seed")
    bots = [make_bot(spec, game, seat, seed=None if seed is None else _bot_seed(seed, seat))
            for seat, spec in enumerate(specs)]
    if args.human is not None:
        if not 0 <= args.human < game.num_players:
            raise solver.OptionError(HUMAN_SEAT(game=game.name, last=game.num_players - 1,
                                                got=args.human))
        others = {s: b for s, b in enumerate(bots) if s != args.human}
        return human.play_human(game, others, args.human, seed,
                                confirm_forced=args.confirm_forced)
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
    default bots for exactly ``--after`` actions (default: the game's demo
    point).  When the seat to move then has one legal action, the forced
    actions are played on to the next real decision, and the origin line
    says so; a game over before ``--after`` actions is an error saying
    when it ended."""
    game = _load_game(args)
    spec = "rules" if has_rules_bot(game) else "random"
    seed = 0 if args.seed is None else check_seed(args.seed, "--seed")
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, game, s, seed=_bot_seed(seed, s)) for s in range(game.num_players)]
    after = args.after if args.after is not None else game.demo_hint_after
    if after < 0:
        raise solver.OptionError(AFTER_NEGATIVE(got=after))
    for _ in range(after):
        if state.is_terminal():
            raise solver.PositionError(AFTER_ENDED(after=after, n=len(state.history()),
                                                   seed=seed))
        state.apply_action(bots[state.current_player()].step(state))
    forced = 0
    while not state.is_terminal() and len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])      # skip forced moves
        forced += 1
    origin = f"seed {seed}, {spec} bots played {after} actions"
    if forced:
        origin += (f", then {forced} forced one{'s' if forced > 1 else ''} (one legal action"
                   f"{' each' if forced > 1 else ''}) to reach a decision")
    return game, state, origin


def _game_or_file(target: str, position: bool = False):
    """What ``dixtrix hint TARGET`` means: ``("game", name)`` for a game
    name in any case, ``("file", path)`` for ``-`` or a file; a word that
    is neither is an error naming both readings (a mistyped game name is
    the likelier one when it has no file's look)."""
    if target == "-" or position:
        return "file", target
    try:
        return "game", game_name(target)
    except solver.OptionError as exc:
        unknown_game = exc.as_message()
    if os.path.exists(target) or os.sep in target or "." in target:
        return "file", target
    raise solver.OptionError(NO_GAME_NOR_FILE(game=unknown_game, file=Quote(target)))


def cmd_hint(args) -> int:
    target = args.target
    if args.legend and not target and not args.position:
        print(hint.legends())
        return 0
    if args.position:
        if target:
            raise solver.OptionError(HINT_BOTH())
        target = args.position
    if not target:
        raise solver.OptionError(HINT_NOTHING())
    kind, target = _game_or_file(target, position=bool(args.position))
    if kind == "file":
        if args.seed is not None or args.after is not None or args.option or args.players:
            raise solver.OptionError(HINT_DEMO_FLAGS())
        view = advice.view_of(hint.read_position(target))
        origin = "standard input" if target == "-" else target
    else:
        args.game = target
        game, state, origin = _demo_position(args)
        if state.is_terminal():
            raise solver.PositionError(NO_MOVE_TO_ADVISE())
        view = position.SeatView.of(state, state.current_player())
    return hint.run(args, origin, view)


def _read_any(target: str):
    return hint.read_position(target)


def cmd_serve(args) -> int:
    settings = from_flags(args)
    return serve(settings, args.host, args.port, access_log=args.access_log,
                 header_timeout=settings.header_timeout)


def cmd_engine(args) -> int:
    return engine.main()


def _record_at(pos, at, what: str = "solve"):
    """The state after the first ``at`` actions of a record (all of them
    when ``at`` is None); ``OptionError`` naming ``--at`` past its end."""
    if at is None:
        return pos.state()
    n = len(pos.actions)
    if not 0 <= at <= n:
        raise solver.OptionError(AT_RANGE(command=what, n=n, got=at))
    doc = pos.to_json()
    doc["actions"] = doc["actions"][:at]
    return position.record_from_json(doc).state()


def cmd_solve(args) -> int:
    """Exact values of a complete record (every card known), or of the
    position after ``--at N`` of its actions."""
    pos = _read_any(args.position)
    if isinstance(pos, position.SeatView):
        raise solver.HiddenInformationError(SOLVE_VIEW())
    state = _record_at(pos, args.at)
    if state.is_terminal():
        n = len(pos.actions)
        raise solver.PositionError(SOLVE_OVER(n=n) if args.at is None
                                   else SOLVE_OVER_AT(at=args.at, n=n))
    try:
        doc = solve_doc(state, plies=args.line, max_nodes=args.max_nodes, tt_mb=args.tt_mb,
                        kind=args.kind)
    except SearchAborted as exc:
        # past --max-nodes: what the solve proved of each action
        doc = unfinished_doc(state, exc)
    if args.at is not None:
        doc["at"] = args.at
    if args.json:
        print(json.dumps(doc, indent=1))
        return 0
    at = f" after {args.at} actions" if args.at is not None else ""
    if not doc["finished"]:
        print(f"{state.game.name}{at}: seat {doc['seat']} to move; the solve stopped at its "
              f"bound ({doc['nodes']:,} nodes): each action's {doc['kind']} value, as far as "
              f"proved")
        width = max((len(a) for a in doc["words"]), default=0)
        for a, words in doc["words"].items():
            print(f"  {a:<{width}}  {words}")
        if not doc["words"]:
            print("  (this solver proves no bound before it finishes)")
        return 0
    print(f"{state.game.name}{at}: seat {doc['seat']} to move; exact values in "
          f"{doc['unit']} (solver: {doc['objective']}; {doc['kind']} value)")
    print(f"value {_signed(doc['value'])} ({doc['nodes']:,} nodes, {doc['time']:.2f} s)")
    width = max(len(a) for a in doc["action_values"])
    winners = doc.get("round_winners") or {}
    for a, v in doc["action_values"].items():
        mark = "best" if a in doc["best_actions"] else ""
        won = f"  round won by seat {winners[a]}" if a in winners else ""
        print(f"  {a:<{width}}  {_signed(v):>6}  {mark:<4}{won}".rstrip())
    if doc["line"]:
        print("line: " + ", ".join(f"seat {step['seat']} {step['action']}"
                                   for step in doc["line"]))
    return 0


def _signed(v) -> str:
    return f"{v:+d}" if isinstance(v, int) else f"{v:+.1f}"


class _ReviewBar:
    """The review's progress on a terminal: a tqdm bar on stderr when tqdm
    is installed, else a one-line counter; nothing off a terminal."""

    def __init__(self, enabled: bool):
        # the progress bar: None until the first report, False without tqdm
        self.bar: Any = None
        self.enabled, self.shown = enabled, False

    def __call__(self, info: dict) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            try:
                from tqdm import tqdm  # tqdm, the optional [ladder] extra, draws the bar (none without it)
            except ImportError:
                self.bar = False
            else:
                self.bar = tqdm(total=info["total"], unit="step", desc="review",
                                file=sys.stderr, dynamic_ncols=True, leave=False)
        if self.bar:
            self.bar.set_postfix_str(info["what"], refresh=False)
            self.bar.update(info["done"] - self.bar.n)
        else:
            sys.stderr.write(f"\r  review: {info['done']}/{info['total']} ({info['what']})   ")
            sys.stderr.flush()
            self.shown = True

    def close(self) -> None:
        if self.bar:
            self.bar.close()
        elif self.shown:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


def cmd_review(args) -> int:
    """Every decision of a record judged from its seat's view and in hindsight."""

    pos = hint.read_position(args.position)
    kw = {k: v for k, v in (("time", args.time), ("iterations", args.iterations),
                             ("worlds", args.worlds)) if v is not None}
    if not kw:
        kw["time"] = review.DEFAULT_SECONDS
    limit = Limit(**kw)
    bar = _ReviewBar(sys.stderr.isatty() and not args.quiet)
    try:
        doc = review.review(pos, deal=args.deal, seat=args.seat, limit=limit, bot=args.bot,
                            seed=args.seed, threads=args.threads, nodes=args.nodes,
                            **({} if args.trees is None else {"trees": args.trees}),
                            hindsight=not args.no_hindsight, jobs=args.jobs, progress=bar,
                            kind=args.kind)
    finally:
        bar.close()
    if args.plot:
        for path in args.plot:
            review.plot(doc, path)
    if args.json:
        print(json.dumps(doc, indent=1))
        return 0
    origin = "standard input" if args.position == "-" else args.position
    if not doc["decisions"]:
        print(f"{doc['game']}, {origin}: nothing to review (the record holds no decision "
              f"with a choice{' for this seat' if args.seat is not None else ''}).")
        return 0
    print(review.render_text(doc, origin))
    for path in args.plot or ():
        print(f"plot written to {path}")
    return 0


def cmd_evaluate(args) -> int:
    """The expected result of the deal per seat, with 95% intervals."""

    view = advice.view_of(_read_any(args.position))
    kw = {}
    if args.worlds is not None:
        kw["worlds"] = args.worlds
    if args.time is not None:
        kw["time"] = args.time
    ev = evaluate(view, Limit(**kw) if kw else None, policy=args.policy, seed=args.seed)
    names = advice.seat_names(view.game.num_players, view.seat, view.game.partnership)
    if args.json:
        print(json.dumps(advice.json_finite({"game": view.game.name, "seat": view.seat,
                                       "values": ev.values, "ci95": ev.ci95,
                                       "worlds": ev.worlds, "unit": ev.unit,
                                       "method": ev.method, "time": ev.time}), indent=1))
        return 0
    player = "the rules player" if ev.method.endswith(":rules") else "random play"
    print(f"{view.game.name}: expected result of this deal ({ev.unit}), "
          f"{ev.worlds:,} sampled worlds played out by {player} at every seat, "
          f"{ev.time:.2f} s")
    labels = [f"seat {s} ({names[s]}):" for s in range(len(ev.values))]
    width = max(map(len, labels))
    for label, v, h in zip(labels, ev.values, ev.ci95, strict=True):
        print(f"  {label:<{width}} {v:+9.2f}  +-{h:.2f}")
    print(f"This values the position as {player} would play it on from here, not the best "
          f"play: for each of your actions' searched value, run dixtrix hint.")
    return 0


def _need_numpy(command: str) -> None:
    """The fits' linear algebra is numpy, the optional [fit] extra: its
    absence is answered in words, naming the command."""
    try:
        # numpy is the optional [fit] extra: its absence is answered in words here
        import numpy  # noqa: F401  the fit's linear algebra
    except ImportError:
        raise solver.OptionError(NEEDS_NUMPY(command=command, install=INSTALL(extra="fit"))) from None


def cmd_model_fit(args) -> int:
    """Fit a game's opponent model to self-play and write its data file."""
    game = _load_game(args)
    _need_numpy("model fit")
    for name, count in (("--matches", args.matches), ("--deals", args.deals),
                        ("--jobs", args.jobs)):
        if count < 1:
            raise solver.OptionError(AT_LEAST_ONE(flag=name, got=count))
    command = "dixtrix model fit " + " ".join(sys.argv[3:]) if len(sys.argv) > 3 else ""
    modelfit.run(game.name, game.non_default_options(), bot=args.bot, matches=args.matches,
                 deals=args.deals, seed=args.seed, jobs=args.jobs, out=args.out,
                 command=command or f"dixtrix model fit {game.name}", alpha=args.alpha,
                 floor=args.floor, data=args.data, from_data=args.from_data)
    return 0


def cmd_model_value(args) -> int:
    """Fit a game's leaf value and write its data file."""
    game = _load_game(args)
    _need_numpy("model value")
    for name, v in (("--deals", args.deals), ("--playouts", args.playouts)):
        if v < 1:
            raise solver.OptionError(AT_LEAST_ONE(flag=name, got=v))
    if not 0 <= args.cut <= 64:
        raise solver.OptionError(CUT_RANGE(got=args.cut))
    command = "dixtrix model value " + " ".join(sys.argv[3:]) if len(sys.argv) > 3 else ""
    doc = value.make_value(game, deals=args.deals, playouts=args.playouts,
                           seed=args.seed, cut=args.cut, source=args.source,
                           command=command or f"dixtrix model value {game.name}")
    out = args.out or value.value_path(game, model_key(game))
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    for p, h in enumerate(doc["meta"]["held_out"]):
        print(f"phase {p}: {h['rows']} held-out rows, variance {h['variance']:.5f}, "
              f"mean squared error {h['mse']:.5f}, explained {h['r2']:.1%}")
    print(f"written: {out}")
    return 0


def cmd_learn(args) -> int:
    """Expert iteration: self-play, fit, duplicate gate, a generation at a time."""
    game = _load_game(args)
    _need_numpy("learn")
    if args.dask is not None and args.jobs != 1:
        raise solver.OptionError(JOBS_OR_DASK())
    command = "dixtrix learn " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else ""
    learn.run(game.name, game.non_default_options(), generations=args.generations,
              games=args.games, seed=args.seed, out=args.out, iterations=args.iterations,
              gate=args.gate, jobs=args.jobs, dask=args.dask, start=args.start,
              hidden=args.hidden, command=command or f"dixtrix learn {game.name}")
    print(f"written: {args.out} (checkpoint: {learn.checkpoint_path(args.out)})")
    return 0


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    """The game, its options and its players, as the fitting commands take them."""
    parser.add_argument("game", help=f"one of: {', '.join(solver.registered_games())}")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option")
    parser.add_argument("--players", type=int, default=None, help="the players option")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dixtrix", description="dixtrix: card game engine")
    p.add_argument("--version", action="version", version=f"dixtrix {solver.__version__}")
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
    pl.add_argument("--human", type=int, metavar="SEAT",
                    help="play this seat yourself in the terminal (the bots play the others; "
                         "type help there for the notation)")
    pl.add_argument("--confirm-forced", action="store_true",
                    help="with --human: ask even when one action is legal (by default it is "
                         "played for you, with a line saying so)")
    pl.set_defaults(func=cmd_play)
    h = sub.add_parser("hint", help="the best move and every legal action's value",
                       description="Advice for the seat to move: a POSITION file (a record "
                                   "or seat view, docs/positions.md; - for stdin), or a game "
                                   "dealt by --seed and played by the rules bots.")
    h.add_argument("target", nargs="?", metavar="POSITION|GAME",
                   help="a position file, - for stdin, or a game to deal with --seed")
    h.add_argument("--position", metavar="FILE", help="a record or seat view (JSON)")
    h.add_argument("--seed", type=int, default=None, help="seed of the demo deal")
    h.add_argument("--after", type=int, default=None,
                   help="actions the bots play before the hint (default: the game's demo)")
    h.add_argument("--players", type=int, help="number of players (games that allow it)")
    h.add_argument("--option", action="append", metavar="KEY=VALUE", help="game option")
    h.add_argument("--bot", default="ismcts", choices=("ismcts", "pimc"),
                   help="search: ismcts (information-set MCTS) or pimc (sampled worlds "
                        "solved double dummy)")
    h.add_argument("--worlds", type=int, default=None,
                   help="pimc: sampled worlds (default: search for --time)")
    h.add_argument("--iterations", type=int, default=None,
                   help="ismcts: iterations (default: search for --time)")
    h.add_argument("--time", type=float, default=None,
                   help="seconds of search (default 1; iterations or worlds alone make the "
                        "answer the same on every machine)")
    h.add_argument("--search-seed", type=int, default=0,
                   help="seed of the search (default 0): the same position, limit and seed "
                        "give the same advice from every face (command line, engine, API, bots)")
    h.add_argument("--trees", type=int, default=None,
                   help="independent ISMCTS trees of the search (default: the decision "
                        "service's, the same on every machine and every face)")
    h.add_argument("--threads", type=int, default=None,
                   help="threads that grow the trees (default: one a tree, at most one a "
                        "core); the answer does not depend on it")
    h.add_argument("--beliefs", action="store_true",
                   help="also show where the cards you cannot see are: each one's chance "
                        "with each holder, from what the other players did")
    h.add_argument("--inference", choices=("on", "off"), default=None,
                   help="weigh the search's worlds by what the other players chose (on), or "
                        "draw them alike among the deals your view allows (off); default: "
                        "the game's")
    h.add_argument("--prior", choices=PRIORS, default=None,
                   help="ismcts's tree prior: rules, learned (the game's learned policy "
                        "at every card node) or none; default: the game's")
    h.add_argument("--policy", choices=ISMCTS_POLICIES, default=None,
                   help="ismcts's play-outs: rules (the default), learned, leads (the "
                        "learned policy's leads, the rules' other cards) or random")
    h.add_argument("--leaf", choices=("value", "playout"), default=None,
                   help="how ismcts's play-outs end: value (the game's learned value after "
                        "a few tricks) or playout (at the deal's end); default: the game's")
    h.add_argument("--json", action="store_true", help="the same content as JSON")
    h.add_argument("--legend", action="store_true",
                   help="also explain the game's card and action notation and how to read "
                        "the values (without a position: every game's notation)")
    h.add_argument("--save-position", metavar="FILE",
                   help="write the seat view advised on (JSON), to edit and ask again; "
                        "past the first deal it starts at the current deal (a mid-match "
                        "view, docs/positions.md)")
    h.add_argument("--whole-match", action="store_true",
                   help="with --save-position: write the view from the first deal of the "
                        "match instead")
    h.set_defaults(func=cmd_hint)
    e = sub.add_parser("engine", help="serve the engine protocol on stdin/stdout "
                                      "(docs/protocol.md)")
    e.set_defaults(func=cmd_engine)
    so = sub.add_parser("solve", help="exact values of a complete record (every card known)",
                        description="Exact values of the position at the end of a game "
                                    "record, or after its first N actions (--at N): every "
                                    "legal action's value in the game's deal-result unit, "
                                    "the best ones marked, and the expected line of play.")
    so.add_argument("position", metavar="POSITION", help="a record file, or - for stdin")
    so.add_argument("--at", type=int, metavar="N", default=None,
                    help="the position after the first N actions of the record (a finished "
                         "match as dixtrix play --record writes it, or any part of one)")
    so.add_argument("--json", action="store_true", help="JSON for programs")
    so.add_argument("--tt-mb", type=int, default=64, help="transposition table (MiB)")
    so.add_argument("--max-nodes", type=int, default=None, help="give up past this many nodes")
    so.add_argument("--line", type=int, default=8, help="plies of the expected line of play")
    so.add_argument("--kind", choices=("paranoid", "maxn"), default=None,
                    help="trix and tricks without partners: the seat against the other three "
                         "as one side (paranoid, the default) or every seat for its own score "
                         "(maxn, where that search finishes; the output says which it is)")
    so.set_defaults(func=cmd_solve)
    rv = sub.add_parser("review", help="judge every decision of a recorded game",
                        description="Every decision of a game record (a finished match as "
                                    "dixtrix play --record writes it, or a part of one; a seat "
                                    "view reviews that seat) judged from its seat's view by "
                                    "the search, and in hindsight by the exact solver on the "
                                    "true deal where it applies: the expected loss of each "
                                    "played action, a summary per seat with the biggest "
                                    "mistakes, and the value of each deal after every trick "
                                    "(docs/review.md).")
    rv.add_argument("position", metavar="RECORD", help="a record file, or - for stdin")
    rv.add_argument("--deal", type=int, default=None, metavar="N",
                    help="review deal N only (1 = the first deal of the record)")
    rv.add_argument("--seat", type=int, default=None, help="review this seat only")
    rv.add_argument("--time", type=float, default=None,
                    help=f"seconds of search for each decision (default {DEFAULT_SECONDS:g}; "
                         "iterations or worlds alone give the same review on every machine)")
    rv.add_argument("--iterations", type=int, default=None, help="ismcts: iterations a decision")
    rv.add_argument("--worlds", type=int, default=None, help="pimc: worlds a decision")
    rv.add_argument("--bot", default="ismcts", choices=("ismcts", "pimc"),
                    help="the search that judges each decision")
    rv.add_argument("--seed", type=int, default=0,
                    help="review seed: decision i is searched with seed*1000000+i")
    rv.add_argument("--trees", type=int, default=None,
                    help="independent ISMCTS trees of each search (default: the decision "
                         "service's, as dixtrix hint)")
    rv.add_argument("--threads", type=int, default=None,
                    help="threads that grow each search's trees (default: one a tree, at "
                         "most one a core); the answer does not depend on it")
    rv.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                    help=f"the node bound of each exact solve in hindsight (default "
                         f"{DEFAULT_NODES:,})")
    rv.add_argument("--kind", choices=("paranoid", "maxn"), default=None,
                    help="trix and tricks without partners: the hindsight's exact value, the "
                         "seat against the other three (paranoid) or every seat for its own "
                         "score (maxn, where that search finishes); default: the stronger "
                         "cheat player's (bots/review.py HINDSIGHT_KIND)")
    rv.add_argument("--no-hindsight", action="store_true",
                    help="skip the exact solves of the true deal")
    rv.add_argument("--jobs", type=int, default=1, help="worker processes")
    rv.add_argument("--plot", action="append", metavar="FILE",
                    help="also draw the value of each deal after every trick to FILE (.png or "
                         ".svg; needs matplotlib: pip install \".[plot]\" in the checkout); "
                         "repeatable")
    rv.add_argument("--json", action="store_true", help="the whole review as JSON")
    rv.add_argument("--quiet", action="store_true", help="no progress bar")
    rv.set_defaults(func=cmd_review)
    ev = sub.add_parser("evaluate", help="the expected result of the deal per seat",
                        description="The expected result of the deal in play for every seat, "
                                    "with 95% intervals: worlds drawn among those the seat's "
                                    "view allows (weighed by what the other seats chose where "
                                    "the game's beliefs are on), each played out to the end "
                                    "of the deal by the rules player at every seat. It values "
                                    "the position, not your choices: for every action's "
                                    "searched value, use dixtrix hint.")
    ev.add_argument("position", metavar="POSITION", help="a record or seat view file, or -")
    ev.add_argument("--worlds", type=int, default=None, help="sampled worlds (default 200)")
    ev.add_argument("--time", type=float, default=None, help="seconds")
    ev.add_argument("--policy", default="rules", choices=("rules", "random"),
                    help="who plays the worlds out: the rules player (default) or random play")
    ev.add_argument("--seed", type=int, default=0,
                    help="seed of the worlds and play-outs (default 0): the same seed, the same "
                         "figures")
    ev.add_argument("--json", action="store_true", help="JSON for programs")
    ev.set_defaults(func=cmd_evaluate)
    sv = sub.add_parser("serve", help="the HTTP API and the web table (docs/server.md)",
                        description="Serve the JSON API under /v1 and the web table at /. "
                                    "Needs the server extra: pip install '.[server]'.")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on")
    sv.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    add_flags(sv)                       # one flag a setting (bots/server/settings.py)
    sv.add_argument("--access-log", action="store_true", help="log every request")
    sv.set_defaults(func=cmd_serve)
    add_ladder_parser(sub)              # dixtrix ladder run|report (docs/ladder.md)
    mo = sub.add_parser("model", help="the opponent models the beliefs weigh worlds with",
                        description="The opponent models of the beliefs (docs/search.md, "
                                    "\"Beliefs\").")
    msub = mo.add_subparsers(dest="model_command", required=True)
    mf = msub.add_parser("fit", help="fit a game's opponent model to self-play",
                         description="Play the strongest bot against itself, fit the game's "
                                     "opponent model to its decisions by maximum likelihood, "
                                     "report the held-out log-likelihood per kind of "
                                     "decision against a uniform choice, and write the "
                                     "parameters (with this command and its seed) into the "
                                     "game's data file. Needs numpy.")
    _game_arguments(mf)
    mf.add_argument("--bot", default="ismcts:iterations=10000",
                    help="the bot whose play is fitted (default ismcts:iterations=10000)")
    mf.add_argument("--matches", type=int, default=20, help="self-play matches (default 20; "
                    "every fifth is held out)")
    mf.add_argument("--deals", type=int, default=20, help="deals of each match (default 20)")
    mf.add_argument("--seed", type=int, default=1, help="match m is dealt from seed + m")
    mf.add_argument("--jobs", type=int, default=1, help="worker processes")
    mf.add_argument("--alpha", type=float, default=1.0,
                    help="the weighting's temper (the log-likelihoods' factor, default 1)")
    mf.add_argument("--floor", type=float, default=None,
                    help="the least probability of an observed action (default 0.001)")
    mf.add_argument("--out", default=None, help="where to write (default: the game's data file)")
    mf.add_argument("--data", default=None, metavar="FILE",
                    help="also keep the self-play decisions in FILE (JSON lines)")
    mf.add_argument("--from-data", default=None, metavar="FILE",
                    help="fit from the decisions kept in FILE instead of playing (the file "
                         "was made with the same game, bot, matches and seed)")
    mf.set_defaults(func=cmd_model_fit)
    mv = msub.add_parser("value", help="fit a game's learned value at the search's leaf",
                         description="Play seeded deals (the rules player at every seat, "
                                     "or the search kernel's own play-outs), fit the "
                                     "game's linear leaf value to each position's rest of "
                                     "the deal by ridge regression, report the held-out "
                                     "error per phase (every fifth deal held out), and "
                                     "write the value (with this command and its seed) "
                                     "into the game's data file; the search reads it with "
                                     "leaf=value (docs/search.md, \"The value at the "
                                     "leaf\"). Needs numpy.")
    _game_arguments(mv)
    mv.add_argument("--deals", type=int, default=6000, help="deals played (default 6000)")
    mv.add_argument("--source", choices=value.SOURCES, default="rules",
                    help="the rules player's play (default) or the kernel's play-outs")
    mv.add_argument("--playouts", type=int, default=50,
                    help="play-outs a deal with --source playout (default 50)")
    mv.add_argument("--cut", type=int, default=value.DEFAULT_CUT,
                    help=f"tricks a play-out plays before the value is read (default "
                         f"{value.DEFAULT_CUT})")
    mv.add_argument("--seed", type=int, default=1, help="deal d is dealt from seed + d")
    mv.add_argument("--out", default=None, help="where to write (default: the game's data file)")
    mv.set_defaults(func=cmd_model_value)
    lr = sub.add_parser("learn", help="improve a game's learned policy by its own search "
                        "(expert iteration)",
                        description="Each generation: the search with the current model as "
                                    "its prior plays itself, the model is fitted to the "
                                    "search's visit shares, and the new model's search plays "
                                    "the old one's, duplicate-dealt; the new model is kept "
                                    "only where it wins. A progress line a generation; OUT "
                                    "holds the best model (with this command, its seed and "
                                    "figures), OUT.checkpoint.json lets the same command "
                                    "resume after a kill (docs/search.md, \"Learned play\"). "
                                    "Needs numpy.")
    _game_arguments(lr)
    lr.add_argument("--generations", type=int, default=3, help="generations (default 3)")
    lr.add_argument("--games", type=int, default=100,
                    help="self-play deals a generation (default 100; every fifth held out)")
    lr.add_argument("--seed", type=int, default=1, help="fixes every deal and search")
    lr.add_argument("--out", required=True, help="the model file to write")
    lr.add_argument("--iterations", type=int, default=learn.DEFAULT_ITERATIONS,
                    help=f"the search's iterations a decision (default "
                         f"{learn.DEFAULT_ITERATIONS})")
    lr.add_argument("--gate", type=int, default=learn.DEFAULT_GATE,
                    help=f"duplicate deal pairs of new against old (default "
                         f"{learn.DEFAULT_GATE}; 0: no gate, the new model is kept and "
                         f"measured apart)")
    lr.add_argument("--jobs", type=int, default=1,
                    help="worker processes: 1 plays here, more start a Dask LocalCluster")
    lr.add_argument("--dask", metavar="ADDRESS", default=None,
                    help="play on the Dask cluster at this scheduler address")
    lr.add_argument("--from", dest="start", default=None, metavar="FILE",
                    help="start from this model file (default: the game's shipped model)")
    lr.add_argument("--hidden", type=int, default=0, metavar="UNITS",
                    help=f"fit a hidden layer of UNITS units (1..{HIDDEN_MAX}) a kind of "
                         f"decision on top of the linear weights, which stay as they are "
                         f"(the beliefs read them); default 0: refit the linear weights")
    lr.set_defaults(func=cmd_learn)
    return p


def _finish(parser: argparse.ArgumentParser) -> None:
    """Every command's page describes the command (its help line where it
    has no description of its own), and remembers its own parser, so that a
    flag it does not know is refused with its usage, not the top level's."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {c.dest: c.help for c in action._choices_actions}
            for name, sub in action.choices.items():
                if not sub.description:
                    sub.description = helps.get(name)
                sub.set_defaults(_parser=sub)
                _finish(sub)


def main(argv=None) -> int:
    parser = build_parser()
    _finish(parser)
    args, extra = parser.parse_known_args(argv)
    if extra:
        getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        # every seed flag in the one range of every face (the HTTP API's,
        # make_bot's): checked before anything is dealt or printed
        for flag in ("seed", "search_seed"):
            if getattr(args, flag, None) is not None:
                check_given_seed(getattr(args, flag), "--" + flag.replace("_", "-"))
        return args.func(args)
    except DixtrixError as exc:
        print(f"dixtrix: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dixtrix: interrupted", file=sys.stderr)
        return 130


def _one_line(text: str, limit: int = 500) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def entry() -> None:
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. `dixtrix play dix | head`
        sys.stderr.close()
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    entry()
