"""The bot contract: a fair bot decides from what its seat knows.

For random positions of every game, the same bot with the same seed is
asked on the TRUE state and on another world its seat cannot tell from it
(drawn from the seat's view by the game's world sampler); it must choose the
same action.  ``cheat`` is the one unfair bot, and the test shows that it
does peek (so the test can see peeking).  Marked slow: 50 positions a game
by default (3,200 bot decisions), 200 with DIXTRIX_FULL_TESTS=1 (12,800)."""

from __future__ import annotations

import random

import pytest

import solver
from bots import make_bot, registered_bots
from bots.registry import _BOTS
from solver.position import SeatView, from_json

#: (game, options) pairs: every game, and the options that change who knows what
GAMES = [("dix", {}), ("dix", {"variant": "seventeen"}), ("trix", {}),
         ("trix", {"partners": True}), ("tricks", {}), ("dixie-rook", {}),
         ("dixie-rook", {"players": 6}), ("dix-exchange", {"players": 5})]
#: positions a game: the default run, and the full one (DIXTRIX_FULL_TESTS=1)
POSITIONS, FULL_POSITIONS = 50, 200
#: every fair bot, with limits small enough for 200 positions a game
FAIR = ["random", "rules", "learned", "ismcts:iterations=40,py_iterations=20",
        # the learned policy as the prior and the play-outs of the search: each
        # seat's probabilities from its own cards in the drawn world
        "ismcts:iterations=40,py_iterations=20,prior=learned,policy=learned",
        # the learned value at the leaf: it reads the drawn world, never the truth
        "ismcts:iterations=40,py_iterations=20,prior=learned,leaf=value",
        "pimc:worlds=1,nodes=2000,leaf=0",
        # the beliefs weigh worlds by what the others chose: from the view only
        "ismcts:iterations=40,py_iterations=20,inference=on,pool=32",
        "pimc:worlds=1,nodes=2000,leaf=0,inference=on,pool=32"]


def _positions(game, n, seed):
    """``n`` (state, other world) pairs at decisions of random play-outs,
    where the other world differs from the state in some hidden card when
    the seat's view allows any other world."""
    rng = random.Random(seed)
    out, deal = [], 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed * 1000 + deal)
        deal += 1
        stops = sorted(rng.sample(range(1, 120), 6))
        step = 0
        while not state.is_terminal() and len(out) < n and stops:
            if step == stops[0]:
                stops.pop(0)
                seat = state.current_player()
                if seat >= 0 and len(state.legal_actions()) > 1:
                    view = from_json(state.information_state(seat).view)
                    for _ in range(4):              # prefer a world unlike the truth
                        other = view.world(seed=rng.randrange(1 << 30))
                        if solver.to_json(other)["deal"] != solver.to_json(state)["deal"]:
                            break
                    out.append((state.clone(), other))
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    return out


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: g[0] + "".join(
    f"-{k}={v}" for k, v in g[1].items()))
def positions(request, sample):
    name, options = request.param
    game = solver.load_game(name, **options)
    return game, _positions(game, sample(POSITIONS, FULL_POSITIONS), seed=7)


def test_the_positions_hide_something(positions):
    game, pairs = positions
    differ = sum(solver.to_json(a)["deal"] != solver.to_json(b)["deal"] for a, b in pairs)
    assert differ >= len(pairs) // 2, f"{game}: only {differ} worlds differ from the truth"


@pytest.mark.slow
@pytest.mark.parametrize("spec", FAIR)
def test_a_fair_bot_plays_the_same_on_worlds_its_seat_cannot_tell_apart(positions, spec):
    game, pairs = positions
    for i, (truth, other) in enumerate(pairs):
        seat = truth.current_player()
        a = make_bot(spec, game, seat, seed=i).step(truth)
        b = make_bot(spec, game, seat, seed=i).step(other)
        assert a == b, (f"{spec} at position {i} of {game} (seat {seat}): "
                        f"{truth.action_to_string(a)} on the true deal, "
                        f"{other.action_to_string(b)} on another world of its view")


def test_the_engine_bot_sends_only_its_seats_view():
    """``engine`` (a subprocess per bot: too slow for 200 positions a game)
    on a few positions: the same answer on two worlds of one view."""
    game = solver.load_game("trix")
    bots = {}
    try:
        for i, (truth, other) in enumerate(_positions(game, 6, seed=11)):
            seat = truth.current_player()
            bot = bots.setdefault(seat, make_bot("engine:iterations=200", game, seat, seed=1))
            assert bot.step(truth) == bot.step(other), i
    finally:
        for bot in bots.values():
            bot.close()


def test_every_registered_bot_is_checked_or_declared_unfair():
    names = {spec.partition(":")[0] for spec in FAIR} | {"engine"}
    for name in registered_bots():
        assert name in names or not _BOTS[name].fair, name


def test_cheat_is_declared_unfair_and_does_peek():
    """The check above sees peeking: ``cheat`` (every card visible)
    changes its card with the hidden cards on some dix endings."""
    game = solver.load_game("dix")
    assert not _BOTS["cheat"].fair
    changed = 0
    for truth, other in _positions(game, 40, seed=3):
        seat = truth.current_player()
        a = make_bot("cheat:nodes=20000", game, seat, seed=0).step(truth)
        b = make_bot("cheat:nodes=20000", game, seat, seed=0).step(other)
        changed += a != b
    assert changed > 0


def test_step_view_plays_from_the_view_alone():
    game = solver.load_game("trix")
    truth, _ = _positions(game, 1, seed=5)[0]
    seat = truth.current_player()
    view = from_json(truth.information_state(seat).view)
    bot = make_bot("rules", game, seat, seed=1)
    assert bot.step_view(view) == make_bot("rules", game, seat, seed=1).step(truth)


def _stops(game, seed):
    """Live states of a random play-out, from its first decisions to a few
    deals in (earlier deals have hidden cards too).  It passes more often
    than chance would, so that some dixie-rook hands are passed out (their
    hands stay hidden for good)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    for step in range(260):
        if state.is_terminal():
            break
        if step % 37 == 5 and state.current_player() >= 0:
            out.append(state.clone())
        actions = state.legal_actions()
        names = [state.action_to_string(a) for a in actions]
        if "pass" in names and rng.random() < 0.7:
            state.apply_action(actions[names.index("pass")])
        else:
            state.apply_action(rng.choice(actions))
    return out


def _hidden_parts(world):
    """What a world says beyond its seat's view: its complete record (every
    deal's hidden cards), its narrative (which names them), what every seat
    sees of it and its text."""
    return (solver.to_json(world), list(world.events), world.to_text(),
            [world.information_state(s).view for s in range(world.game.num_players)])


@pytest.mark.parametrize("name, options", GAMES)
def test_a_world_holds_no_hidden_truth_however_its_view_was_made(name, options):
    """A world drawn from ``SeatView.of(state, seat)`` (which keeps the live
    state, so that nothing is replayed) holds nothing its seat cannot
    know: it is the world drawn with the same seed from the same view made
    without the state (``SeatView(game, seat, view, info)``) or read from
    JSON -- in every deal's hidden cards and in the narrative -- and so is
    ``any_world()``."""
    game = solver.load_game(name, **options)
    checked = 0
    # seed 130: a tricks play-out with a bad-hand claim (its line shows cards)
    for seed in (3, 130):
        for state in _stops(game, seed):
            for seat in {state.current_player(), (state.current_player() + 1)
                         % game.num_players}:
                info = state.information_state(seat)
                views = [SeatView.of(state, seat), SeatView(game, seat, info.view, info),
                         from_json(info.view)]
                for draw in (3, 4):
                    got = [_hidden_parts(v.world(seed=draw)) for v in views]
                    assert got[0] == got[1] == got[2], (name, seed, seat, draw)
                got = [_hidden_parts(v.any_world()) for v in views]
                assert got[0] == got[1] == got[2], (name, seed, seat, "any_world")
                checked += 1
    assert checked >= 8
