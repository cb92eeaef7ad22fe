"""PIMC's play-outs in C (csrc/search/pimc.pyx, ``GameSupport.native_playouts``)
against the Python play-outs they replace: the same rules player at both
seats, the same leaf solves, the same values, world by world."""

import random

import pytest

import solver
from solver import position
from solver.dd import Solver
from solver.search.heuristics import make_policy
from solver.search.pimc import _rollout_values, pimc_search
from solver.search.support import support_for

pytest.importorskip("solver.search._pimc")

LEAF_NODES = 20_000


def _sampled(game, st, rng, per):
    """``per`` worlds sampled from the view of the seat to move in ``st``."""
    seat = st.current_player()
    sampler = position.from_json(st.information_state(seat).view).sampler()
    for _ in range(per):
        yield game, st, seat, sampler.sample(rng)


def _worlds(variant, seeds, per=2):
    """Sampled worlds of random dix positions (earlier rounds included:
    the rules player's unseen cards leave out the match's whole history)."""
    game = solver.load_game("dix", variant=variant)
    for seed in seeds:
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 4 * game.tricks_per_round)):
            st.apply_action(rng.choice(st.legal_actions()))
        if st.is_terminal():
            continue
        yield from _sampled(game, st, rng, per)


@pytest.mark.parametrize("variant", ["standard", "seventeen"])
def test_native_playouts_equal_the_python_playouts(variant):
    rounds, leaf_solves, compared = set(), 0, 0
    for game, st, seat, w in _worlds(variant, range(10)):
        legal = w.legal_actions()
        bots = [make_policy("rules", game, s, seed=1) for s in range(2)]
        want = _rollout_values(w, seat, legal, bots, LEAF_NODES, solver=Solver())
        native = support_for(game).native_playouts(w, seat, "rules", LEAF_NODES)
        assert native.values(w, legal) == want
        # without the leaf the Python play-outs go to the end: so does C
        bare = support_for(game).native_playouts(w, seat, "rules", 0)
        assert bare.values(w, legal) == _rollout_values(w, seat, legal, bots, 0)
        rounds.add(st.round_index())
        leaf_solves += native._worlds.leaf_solves
        compared += 1
    # the comparison covers what it is meant to: later rounds, leaf solves
    assert compared >= 15 and len(rounds) >= 2 and leaf_solves >= 10


def test_a_leaf_changes_the_values():
    """The leaf solve acts: on some world the solved ending is worth more
    to the seat than the rules players' play-out of it."""
    differ = 0
    for game, _st, seat, w in _worlds("standard", range(10, 16)):
        legal = w.legal_actions()
        with_leaf = support_for(game).native_playouts(w, seat, "rules", LEAF_NODES)
        without = support_for(game).native_playouts(w, seat, "rules", 0)
        differ += with_leaf.values(w, legal) != without.values(w, legal)
    assert differ >= 3


def test_pimc_decisions_are_the_python_decisions(monkeypatch):
    game = solver.load_game("dix")
    st = game.new_initial_state(seed=4)
    seat = st.current_player()
    sampler = position.from_json(st.information_state(seat).view).sampler()

    def run():
        return pimc_search(sampler.sample, seat, st.legal_actions(), game, worlds=6,
                           rng=random.Random(2))

    fast = run()
    monkeypatch.setattr(type(support_for(game)), "native_playouts",
                        lambda self, *a: None)
    slow = run()
    assert fast.samples == slow.samples and fast.values == slow.values
    assert fast.worlds == 6 and fast.solved == 0


def test_a_world_of_another_round_or_an_illegal_card_is_refused():
    game = solver.load_game("dix")
    st = game.new_initial_state(seed=1)
    native = support_for(game).native_playouts(st, st.current_player(), "rules", 100)
    with pytest.raises(ValueError, match="not legal"):
        native.values(st, [c for c in range(64) if c not in st.legal_actions()][:1])
    while st.round_index() == 0:
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(ValueError, match="another round"):
        native.values(st, st.legal_actions())


def test_other_policies_play_out_in_python():
    game = solver.load_game("dix")
    st = game.new_initial_state(seed=1)
    assert support_for(game).native_playouts(st, 0, "random", LEAF_NODES) is None


def _trick_worlds(name, options, seeds, per=2):
    from solver.games.contract_match.state import TRICKS
    game = solver.load_game(name, **options)
    for seed in seeds:
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        target = rng.randrange(0, 12)
        while not st.is_terminal():
            if (st.phase == TRICKS and st.log.play.tricks_done >= target
                    and len(st.legal_actions()) > 1):
                break
            st.apply_action(rng.choice(st.legal_actions()))
        if st.is_terminal():
            continue
        yield from _sampled(game, st, rng, per)


@pytest.mark.parametrize("name,options", [("trix", {}), ("trix", {"partners": True}),
                                          ("tricks", {})])
def test_native_trick_playouts_equal_the_python_playouts(name, options):
    contracts, compared, reveals = set(), 0, 0
    for game, st, seat, w in _trick_worlds(name, options, range(6)):
        legal = w.legal_actions()
        bots = [make_policy("rules", game, s, seed=1) for s in range(4)]
        for leaf_nodes in (LEAF_NODES, 0):
            native = support_for(game).native_playouts(w, seat, "rules", leaf_nodes, Solver())
            assert native.values(w, legal) == _rollout_values(w, seat, legal, bots, leaf_nodes,
                                                              solver=Solver())
        contracts.add(st.log.contract)
        reveals += len(st.log.reveals)
        compared += 1
    assert compared >= 10 and len(contracts) >= 2


def test_native_trick_playouts_with_a_revealed_card():
    """The doubled card's points (its revealer gains them back), on worlds
    where a card was revealed (under must-discard, which the rules player
    never notices: void, it discards a penalty card first anyway)."""
    seen = 0
    for game, st, seat, w in _trick_worlds("trix", {"must_discard_penalty": True},
                                           range(40), per=1):
        if not st.log.reveals:
            continue
        legal = w.legal_actions()
        bots = [make_policy("rules", game, s, seed=1) for s in range(4)]
        native = support_for(game).native_playouts(w, seat, "rules", 0)
        assert native.values(w, legal) == _rollout_values(w, seat, legal, bots, 0)
        seen += 1
    assert seen >= 3


def test_pimc_trick_decisions_are_the_python_decisions(monkeypatch):
    """The same decision with the C play-outs and without.  The C leaf
    asks for the leaf position's value alone, the Python leaf for every
    card's: equal values, fewer nodes, so the leaf bound (a hundredth of
    ``nodes``) is set where no leaf of these worlds reaches it."""
    game, st, seat, _ = next(_trick_worlds("trix", {}, [3], per=1))
    sampler = position.from_json(st.information_state(seat).view).sampler()

    def run():
        return pimc_search(sampler.sample, seat, st.legal_actions(), game, worlds=4,
                           nodes=2_000_000, rng=random.Random(2))

    fast = run()
    monkeypatch.setattr(type(support_for(game)), "native_playouts",
                        lambda self, *a: None)
    slow = run()
    assert fast.samples == slow.samples and fast.values == slow.values
