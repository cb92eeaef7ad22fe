"""The ``cheat`` player's search where the exact solve does not finish
(issue #40): ``cheat:search=ismcts`` searches the one true world, in C for
trix and tricks (``GameSupport.native_seen``: the deal handed to the
trick, layout and deal kernels with every hand fixed), in Python for the
other games."""

from __future__ import annotations

import random
from typing import cast

import pytest

import solver
from bots import make_bot
from solver.errors import OptionError
from solver.games.contract_match.state import TRICKS, ContractMatchState
from solver.position import SeatView
from solver.search import Limit, best_move
from solver.search.support import support_for


def _trix_trick(seed: int, contract: str, plays: int):
    """A trix deal in ``contract`` (the chooser's first choice forced),
    ``plays`` cards in or more (the first choice of two cards or more),
    played at random; None once that deal is over."""
    game = solver.load_game("trix")
    state = cast(ContractMatchState, game.new_initial_state(seed=seed))
    state.apply_action(state.string_to_action(f"contract {contract}"))
    rng = random.Random(seed)
    while state.phase != TRICKS or len(state.log.play.plays) < plays or \
            len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
        if state.round_index() > 0:
            return None
    return state


def _other_world(state):
    """A world of the seat to move's view whose hidden hands differ from
    ``state``'s."""
    sampler = SeatView.of(state, state.current_player()).sampler()
    truth = [tuple(h) for h in state.deal_logs[-1].hands]
    for k in range(50):
        world = sampler.sample(random.Random(k))
        if [tuple(h) for h in world.deal_logs[-1].hands] != truth:
            return world
    raise AssertionError("no other world found")


@pytest.mark.parametrize("seed,contract", [(1, "queens"), (2, "kinghearts"), (3, "ltoosh")])
def test_the_seen_search_reads_the_true_hands(seed, contract):
    """Two deals one seat cannot tell apart: its fair search gives the same
    values in both, the all-seeing search different ones (it plays the
    true hands), and that search is the C one."""
    state = _trix_trick(seed, contract, 9)
    other = _other_world(state)
    seat = state.current_player()
    assert other.current_player() == seat
    assert support_for(state.game).native_seen(state, "rules", 2**64 - 1, True) is not None
    limit = Limit(iterations=4000)
    fair = [best_move(s.information_state(seat).view, limit, seed=5, exact=False)
            for s in (state, other)]
    assert fair[0].values == fair[1].values
    seen = [best_move(s, limit, seed=5, exact=False, omniscient=True) for s in (state, other)]
    assert all(r.bot == "ismcts" and r.iterations == 4000 for r in seen)
    assert seen[0].values != seen[1].values
    # the same seed, the same answer
    again = best_move(state, limit, seed=5, exact=False, omniscient=True)
    assert again.values == seen[0].values and again.action == seen[0].action


def test_the_seen_search_finds_the_sure_card_at_the_end():
    """Two cards a hand: the tree is tiny, so the search of the true world
    plays a card of the best max^n value (each seat for its own score),
    which a search over uniform worlds need not."""
    checked = 0
    for seed in range(12):
        state = _trix_trick(seed, "queens", 44)
        if state is None or state.log.play.trick:
            continue
        sol = solver.dd.solve(state, kind="maxn")
        if sol.kind != "maxn":
            continue
        best = max(sol.action_values.values())
        res = best_move(state, Limit(iterations=6000), seed=1, exact=False, omniscient=True)
        assert sol.action_values[res.action] == best, (seed, res.values, sol.action_values)
        checked += 1
    assert checked >= 3


def test_cheat_searches_where_the_solve_stops_and_solves_where_it_finishes():
    game = solver.load_game("trix")
    state = _trix_trick(4, "queens", 0)
    seat = state.current_player()
    bot = make_bot("cheat:search=ismcts,iterations=2000,nodes=20000,exact=on", game, seat, seed=3)
    action = bot.step(state)
    assert bot.last.bot == "ismcts" and bot.last.iterations == 2000
    assert "nodes" in bot.last.note            # the solve was tried, and stopped
    twin = make_bot("cheat:search=ismcts,iterations=2000,nodes=20000,exact=on", game, seat, seed=3)
    assert twin.step(state) == action
    late = _trix_trick(4, "ltoosh", 32)
    bot = make_bot("cheat:search=ismcts,iterations=2000,exact=on", game, late.current_player(), seed=3)
    bot.step(late)
    assert bot.last.bot == "exact"


def test_cheat_search_in_python_where_the_game_has_no_c_search():
    """dix has no C search of the true world: the Python search of it."""
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=2)
    assert support_for(game).native_seen(state, "rules", 2**64 - 1, True) is None
    bot = make_bot("cheat:search=ismcts,iterations=60,exact=off", game,
                   state.current_player(), seed=1)
    assert bot.step(state) in state.legal_actions()
    assert bot.last.bot == "ismcts" and bot.last.iterations == 60


def test_cheat_search_settings_are_checked():
    game = solver.load_game("trix")
    with pytest.raises(OptionError, match="search must be"):
        make_bot("cheat:search=alphabeta", game, 0, seed=0)
    with pytest.raises(OptionError, match="not worlds"):
        make_bot("cheat:search=ismcts,worlds=3", game, 0, seed=0)
    with pytest.raises(OptionError, match="not iterations"):
        make_bot("cheat:search=pimc,iterations=3", game, 0, seed=0)
    assert make_bot("cheat:search=ismcts", game, 0, seed=0).limit.iterations == 1000


def test_each_game_declares_its_cheat():
    """The game's strongest measured all-seeing player is the default
    (``GameSupport.cheat_settings``); a setting given wins, and a search
    other than the game's drops the game's other settings (they were
    measured with its search); worlds ask for play-outs, iterations for
    the tree search."""
    trix = solver.load_game("trix")
    cheat = make_bot("cheat", trix, 0, seed=0)
    assert (cheat.bot, cheat.options["exact"], cheat.limit.iterations) == ("ismcts", False, 1000)
    assert make_bot("cheat:exact=on", trix, 0, seed=0).options["exact"] is True
    pimc = make_bot("cheat:search=pimc", trix, 0, seed=0)
    assert (pimc.bot, pimc.options["exact"], pimc.limit.worlds) == ("pimc", True, 1)
    assert make_bot("cheat:worlds=4", trix, 0, seed=0).bot == "pimc"
    assert make_bot("cheat:iterations=40", solver.load_game("dix"), 0, seed=0).bot == "ismcts"
    partners = make_bot("cheat", solver.load_game("trix", partners=True), 0, seed=0)
    assert (partners.bot, partners.options["exact"]) == ("ismcts", True)
    dix = make_bot("cheat", solver.load_game("dix"), 0, seed=0)
    assert (dix.bot, dix.options["exact"], dix.limit.worlds) == ("pimc", True, 1)


def test_a_strict_max_n_cheat_searches_where_only_the_paranoid_value_is_known():
    """Above ``MAXN_CARDS`` cards the solve of ``kind=maxn`` gives the
    paranoid value: ``cheat:search=ismcts,kind=maxn`` searches instead
    (``strict_kind``), the paranoid cheat takes it; at the end both solve."""
    game = solver.load_game("trix")
    found = 0
    for seed in range(10):
        state = _trix_trick(seed, "ltoosh", 20)
        if state is None:
            continue
        seat = state.current_player()
        paranoid = make_bot("cheat:search=ismcts,iterations=500,exact=on", game, seat, seed=1)
        paranoid.step(state)
        if paranoid.last.bot != "exact":
            continue
        strict = make_bot("cheat:search=ismcts,iterations=500,kind=maxn,exact=on", game, seat, seed=1)
        strict.step(state)
        assert strict.last.bot == "ismcts" and "no maxn value" in strict.last.note
        direct = best_move(state, Limit(iterations=500), seed=1, omniscient=True,
                           kind="maxn", strict_kind=True)
        assert direct.bot == "ismcts"
        found += 1
        break
    assert found
    late = _trix_trick(4, "ltoosh", 32)
    strict = make_bot("cheat:search=ismcts,iterations=500,kind=maxn,exact=on", game,
                      late.current_player(), seed=1)
    strict.step(late)
    assert strict.last.bot == "exact"


def test_a_strict_max_n_cheat_takes_team_minimax_with_partners():
    """With partners the seats form two sides: the solve's team minimax is
    the exact value every kind asks for, so the strict cheat takes it."""
    game = solver.load_game("trix", partners=True)
    state = cast(ContractMatchState, game.new_initial_state(seed=5))
    rng = random.Random(1)
    while state.phase != TRICKS or len(state.log.play.plays) < 8 or \
            len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    bot = make_bot("cheat:search=ismcts,kind=maxn,iterations=300,exact=on", game,
                   state.current_player(), seed=1)
    bot.step(state)
    assert bot.last.bot == "exact"
