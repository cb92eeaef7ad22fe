"""The Cython searches of the decisions around card play (csrc/search/deal.pxd,
hand.pxd, exchange.pxd) against the Python rules engine and the Python
heuristics: every play-out move replayed in the game's own state (so every
move is legal and the deal scores the same), every move made by a C port
of a rules heuristic equal to the Python heuristic's move in the same
world, and the generic tree's new statistics (batch means, root offsets,
the flat allocation, PUCT) acting as documented."""

import os
import random
from collections import Counter

import pytest

import solver
from solver import position
from solver.cards import cards_of
from solver.games.contract_match.kernel import native_contract_search
from solver.games.dix_exchange.kernel import native_exchange_search
from solver.games.dixie_rook.kernel import native_rook_search
from solver.search.heuristics import make_policy
from solver.search.native import native_search

if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
    pytest.skip("pure-Python run: no Cython search", allow_module_level=True)
pytest.importorskip("solver.search._ismcts")


def _states(game, pred, count, seed0=0, mix=0.5, limit=2000):
    """Decisions of seeded games (the rules player at every seat, a random
    move now and then) where ``pred(state)`` holds, one a game."""
    out = []
    seed = seed0
    while len(out) < count and seed < seed0 + limit:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        bots = [make_policy("rules", game, s, seed=s) for s in range(game.num_players)]
        seed += 1
        skip = rng.randrange(0, 3)
        for _ in range(3000):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if pred(state) and len(legal) > 1:
                if skip == 0:
                    out.append(state)
                    break
                skip -= 1
            a = rng.choice(legal) if rng.random() < mix else \
                bots[state.current_player()].step(state)
            state.apply_action(a)
    assert len(out) == count
    return out


def _sampler(state):
    return position.from_json(state.information_state(state.current_player()).view).sampler()


# ---- trix / tricks: the decisions before the play ----------------------------

CONTRACT_CONFIGS = [("trix", {}), ("trix", {"partners": True}),
                    ("trix", {"must_discard_penalty": True}), ("tricks", {})]


def _deal_world(sampler, hands, redeals):
    """The sampler's base world with the current deal's hands set to
    ``hands`` (masks) and ``redeals`` scripted as the next chance deals."""
    world = sampler.base.clone()
    dealt = tuple(tuple(cards_of(h)) for h in hands)
    world.deal_logs[-1].hands = dealt
    world._chance.log[sampler.log_index] = ("deal", dealt)
    ch = world._chance
    ch.scripted = list(ch.scripted[:ch.pos]) + [
        ("deal", tuple(tuple(cards_of(h)) for h in r)) for r in redeals]
    return world


def _deal_action(world, bit):
    from solver.games.contract_match.state import (
        CHOOSE,
        CLAIM,
        CONTRACT_BASE,
        DECLARE,
        LAYOUT_PLAY,
        NO_REDEAL,
        PASS,
        REDEAL,
        REVEAL_BASE,
        REVEAL_DONE,
    )
    ph = world.phase
    if ph == CHOOSE:
        return CONTRACT_BASE + bit
    if ph == DECLARE:
        return REVEAL_DONE if bit == 63 else REVEAL_BASE + bit
    if ph == CLAIM:
        return REDEAL if bit == 1 else NO_REDEAL
    if ph == LAYOUT_PLAY and bit == 63:
        return PASS
    return bit


def _deal_replays(name, opts, phases, count, seed0, policy="rules", sims=3):
    """``(world, action, its mover's rules move or None, in a card phase)``
    for every play-out move of the kernel's deal searches, replayed, and
    the final check of each play-out's scores."""
    from solver.games.contract_match.state import LAYOUT_PLAY, TRICKS
    game = solver.load_game(name, **opts)
    states = _states(game, lambda s: s.phase in phases, count, seed0)
    for state in states:
        sampler = _sampler(state)
        native = native_contract_search(sampler, policy)
        choosing = state.phase == 0
        d = state.round_index()
        for k in range(sims):
            (hands, redeals), played, points, contract = native.simulate(k)
            world = _deal_world(sampler, hands, redeals)
            assert world.information_state(state.current_player()).view == \
                state.information_state(state.current_player()).view
            rules = [make_policy("rules", game, s) for s in range(4)]
            for bit in played:
                a = _deal_action(world, bit)
                card_phase = world.phase in (TRICKS, LAYOUT_PLAY)
                want = None
                if not card_phase or choosing:
                    want = rules[world.current_player()].step(world)
                yield world, a, want, card_phase
                world.apply_action(a)              # raises if C's move is illegal
            last = d + len(redeals)
            assert world.round_index() > last or world.is_terminal()
            log = world.deal_logs[last]
            assert log.contract == contract
            assert log.scores == points


@pytest.mark.parametrize("name,opts", CONTRACT_CONFIGS)
def test_contract_choice_play_outs_are_the_rules_player_move_for_move(name, opts):
    """The contract choice's play-outs (policy ``rules``): the contract, and
    every later move of every seat (reveals, claims, cards, the layout),
    the Python rules player's, in the same world."""
    moves = list(_deal_replays(name, opts, (0,), 8, 100))
    assert len(moves) > 200
    assert all(a == want for _, a, want, _ in moves)


@pytest.mark.parametrize("name,opts", CONTRACT_CONFIGS)
def test_doubling_and_claim_play_outs_follow_the_rules(name, opts):
    """Doubling and claims: the non-card moves are the rules player's; the
    cards are legal and score as the game scores them."""
    phases = (1,) if name == "trix" else (2,)
    moves = list(_deal_replays(name, opts, phases, 6, 300))
    decided = [(a, want) for _, a, want, card in moves if not card]
    assert decided and all(a == want for a, want in decided)


def test_a_redeal_inside_the_search_deals_new_hands_and_asks_again():
    """A bad hand in tricks' Jacks: the kernel's redeal is replayed with the
    hands it dealt (scripted chance) and the claims start again."""
    from solver.games.contract_match.state import CLAIM, REDEAL
    game = solver.load_game("tricks")
    states = _states(game, lambda s: s.phase == CLAIM and REDEAL in s.legal_actions(), 2, 0,
                     limit=20000)
    for state in states:
        sampler = _sampler(state)
        native = native_contract_search(sampler)
        seen = 0
        for k in range(6):
            (hands, redeals), played, points, _ = native.simulate(k)
            seen += len(redeals)
            world = _deal_world(sampler, hands, redeals)
            for bit in played:
                world.apply_action(_deal_action(world, bit))
            assert world.deal_logs[state.round_index() + len(redeals)].scores == points
        assert seen > 0
        stats = native.run(500, 0.0, 1, 1, 0.7)
        assert set(stats[0]) <= set(state.legal_actions())


def test_contract_choice_is_flat_paired_and_root_offsets_act():
    """Every contract is played once in each world (equal visits, batches in
    step); root offsets (the kernel's, for trees whose allocation the raw
    values would skew) shift a move's statistics and nothing else: the same
    play-outs offset by each contract's average-deal value give exactly
    the raw means minus it."""
    from solver.search import contract_choice
    game = solver.load_game("trix")
    state = _states(game, lambda s: s.phase == 0 and len(s.legal_actions()) == 5, 1, 7)[0]
    sampler = _sampler(state)
    a = native_contract_search(sampler)
    visits, raw, done, squares, per_tree, batches = a.run(1003, 0.0, 5, 2, 0.7)
    assert len(set(visits.values())) == 1 and done == sum(visits.values())
    assert done >= 1003 and done % 5 == 0
    for tree in batches:
        counts = {act: [c for c, _ in tree[act]] for act in tree}
        assert len({tuple(c) for c in counts.values()}) == 1
    b = native_contract_search(sampler)
    base = {act: contract_choice.baseline(game, state.action_to_string(act)) / game.round_scale
            for act in state.legal_actions()}
    b.native.set_offsets({act - 64: -v for act, v in base.items()})
    visits_b, means, *_ = b.run(1003, 0.0, 5, 2, 0.7)
    assert visits_b == visits
    for act in state.legal_actions():
        assert means[act] == pytest.approx(raw[act] - base[act], abs=1e-12)


# ---- dixie-rook: bids, nest, trumps --------------------------------------------

def _rook_action(world, bit):
    from solver.games.dixie_rook import AUCTION, BID_BASE, DISCARD, DISCARD_BASE, PASS, TRUMP, TRUMP_BASE
    if world.phase == AUCTION:
        return PASS if bit == 11 else BID_BASE + 70 + 5 * bit
    if world.phase == DISCARD:
        return DISCARD_BASE + bit
    if world.phase == TRUMP:
        return TRUMP_BASE + bit
    return bit


def _rook_value(world, last, h):
    """The hand's value (team 0 minus team 1) the game scores when ``last``
    ends it: a tie for most tricks, the mean of the cut's two outcomes."""
    from tests.search.test_ismcts_native import _rook_hand_values
    values = _rook_hand_values(world, last, h)
    return sum(values) / len(values)


def _rook_replays(players, phases, count, seed0, sims=3, opts=None):
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook", players=players, target=120, lose_at=300,
                            **(opts or {}))
    states = _states(game, lambda s: s.phase in phases, count, seed0)
    for state in states:
        sampler = _sampler(state)
        native = native_rook_search(sampler)
        h = state.hand_no
        seat = state.current_player()
        for k in range(sims):
            held, played, winner, value, won, count_ = native.simulate(k)
            world = sampler.world_from(sampler.base.clone(), [cards_of(m) for m in held],
                                       random.Random(k))
            assert world.information_state(seat).view == state.information_state(seat).view
            rules = [make_policy("rules", game, s) for s in range(game.num_players)]
            for i, bit in enumerate(played):
                a = _rook_action(world, bit)
                want = None if world.phase == PLAY else rules[world.current_player()].step(world)
                yield world, a, want
                if i == len(played) - 1 and world.phase == PLAY:
                    assert value == pytest.approx(_rook_value(world, a, h))
                world.apply_action(a)
            if winner < 0:                     # passed out: no score, a new hand
                assert value == 0 and world.hand_no > h
                assert all(res["hand"] != h for res in world.results)
            else:
                res = world.results[-1]
                assert res["hand"] == h and res["tricks"] == won and res["count"] == count_
                assert world.bid_winner == winner or world.hand_no > h


@pytest.mark.parametrize("players,opts", [(4, {}), (6, {}), (4, {"dealer_must_bid": True})])
def test_rook_bidding_play_outs_are_the_rules_player(players, opts):
    moves = list(_rook_replays(players, ("auction",), 6, 10, opts=opts))
    decided = [(a, want) for _, a, want in moves if want is not None]
    assert len(decided) > 40
    assert all(a == want for a, want in decided)


@pytest.mark.parametrize("players", [4, 6])
def test_rook_nest_and_trump_play_outs_are_the_rules_player(players):
    moves = list(_rook_replays(players, ("discard", "trump"), 6, 40))
    decided = [(a, want) for _, a, want in moves if want is not None]
    assert len(decided) > 20
    assert all(a == want for a, want in decided)


@pytest.fixture
def rules_cards(monkeypatch):
    """The kernels' card play-outs as the rules player's cards (``playout``
    3), whatever the policy asked."""
    from solver.search import _ismcts
    cls = _ismcts.Search
    monkeypatch.setattr(
        _ismcts, "Search",
        lambda kind, c, rules, state: cls(
            kind, c, dict(rules, playout=3) if kind in ("rook", "hand") else rules, state))


def test_rook_rules_cards_are_the_python_rules_player(rules_cards):
    """``rook_rules_card``, the rules player's cards ported to C, against the
    Python player in every play-out position of whole hands."""
    from solver.games.dixie_rook import PLAY
    pairs = []
    for n in (4, 6):
        for world, a, _ in _rook_replays(n, ("auction", "trump"), 4, 80):
            if world.phase == PLAY and len(world.legal_actions()) > 1:
                pairs.append((a, make_policy("rules", world.game,
                                             world.current_player()).step(world)))
    assert len(pairs) > 300
    assert all(a == want for a, want in pairs)


# ---- dix-exchange ------------------------------------------------------------------

def _exchange_world(sampler, values):
    """The sampler's base world with the round's slots (each seat's drawn
    card, then the dealer's stock card) valued as ``values``; a dealer's
    draw from an empty stock (a new stock of the used cards) gives a card
    of the last value."""
    base = sampler.base
    world = base.clone()
    slots = [base.drawn[s] for s in base.order]
    stock_empty = base.stock_pos >= len(base.shuffles[base.cur])
    if not stock_empty:
        slots.append((base.cur, base.stock_pos))
    rows = [list(r) for r in world.shuffles]
    # with the stock empty, the value past the slots is the rebuilt stock's
    # first card (first_draw below)
    for (k, i), v in zip(slots, values[:len(slots)], strict=True):
        rows[k][i] = v
    world.shuffles = [tuple(r) for r in rows]
    if stock_empty:
        draw = world._draw_card

        def first_draw():
            """The rebuilt stock's top card: one place holding the value."""
            del world._draw_card                    # later draws: the game's own
            world.shuffles.append((values[-1],))
            world.ids.append((world.used[0],))
            world.seen.append([0])
            return len(world.shuffles) - 1, 0

        world._draw_card = first_draw
        assert draw is not None
    return world


def _exchange_states(players, opts, count, seed0, pred=lambda s: True):
    game = solver.load_game("dix-exchange", players=players, **opts)
    return game, _states(game, pred, count, seed0, limit=3000)


#: a small deck: the carried stock runs out within a few rounds
SMALL_DECK = "10:2 9:2 8:1 7:2 6:1 5:2 4:1 3:1 2:2 1:1 0:1 CJ:2"


def _late(s):
    return s.round_no >= 2


def _empty_dealer(s):
    return s.phase == "turn" and s.order[s.turn] == s.dealer and \
        s.stock_pos >= len(s.shuffles[s.cur])


@pytest.mark.parametrize("players,opts,pred", [
    (4, {}, _late), (7, {}, _late), (4, {"carry_stock": False}, _late), (12, {}, _late),
    (4, {"deck": SMALL_DECK}, _late), (4, {"deck": SMALL_DECK}, _empty_dealer)])
def test_exchange_play_outs_are_the_rules_player_and_score_as_the_game(players, opts, pred):
    game, states = _exchange_states(players, opts, 8, 200, pred)
    moves = 0
    for state in states:
        sampler = _sampler(state)
        native = native_exchange_search(sampler)
        r = state.round_index()
        for k in range(4):
            values, played, tokens = native.simulate(k)
            world = _exchange_world(sampler, values)
            rules = [make_policy("rules", game, s) for s in range(players)]
            for a in played:
                assert a == rules[world.current_player()].step(world)
                world.apply_action(a)
                moves += 1
            assert world.round_index() > r or world.is_terminal()
            assert world.round_returns(r) == [t - s for t, s in
                                               zip(tokens, state.start_tokens, strict=True)]
    assert moves > 30


@pytest.mark.parametrize("opts,pred", [({}, _late), ({"deck": SMALL_DECK}, _late),
                                       ({"deck": SMALL_DECK}, _empty_dealer)])
def test_exchange_worlds_draw_the_round_cards_as_the_python_sampler(opts, pred):
    """The kernel's draw of a round's cards (the compiled world model) has
    the Python sampler's distribution, card by card: each seat's card and
    the dealer's stock card (from a stock rebuilt of the used cards when
    the stock is empty)."""
    _, states = _exchange_states(4, opts, 1, 500, pred)
    state = states[0]
    sampler = _sampler(state)
    native = native_exchange_search(sampler)
    order = list(sampler.base.order)
    n = 6000
    kern = Counter()
    for k in range(n):
        values = native.simulate(k)[0]
        for i, v in enumerate(values):
            kern[(i, v)] += 1
    py = Counter()
    rng = random.Random(1)
    for _ in range(n):
        w = sampler.sample(rng)
        for i, s in enumerate(order):
            py[(i, w.value(w.drawn[s]))] += 1
        py[(len(order), w.value(w._draw_card()))] += 1
    assert {i for i, _ in kern} == {i for i, _ in py} == set(range(len(order) + 1))
    for key in set(kern) | set(py):
        assert abs(kern[key] - py[key]) / n < 0.03, (key, kern[key], py[key])


# ---- the generic tree: batch means, PUCT, determinism ----------------------------

def _any_searches():
    yield from (native_search(s.game, _sampler(s)) for s in
                _states(solver.load_game("dixie-rook"), lambda s: s.phase == "auction", 1, 3) +
                _states(solver.load_game("trix"), lambda s: s.phase == 1, 1, 3) +
                _states(solver.load_game("dix-exchange", players=5), lambda s: True, 1, 3) +
                _states(solver.load_game("trix"), lambda s: s.phase == 4, 1, 3))


def test_batch_means_cover_every_root_reward_in_16_to_32_batches():
    """Per tree and root action: the batches' counts sum to its visits and
    their sums to its total; all but the last hold the same power of two,
    the last no more; 16 to 32 of them once there are 32 rewards."""
    for native in _any_searches():
        visits, means, done, squares, per_tree, batches = native.run(5000, 0.0, 3, 2, 0.7)
        assert len(batches) == 2
        merged = 0
        for tree, bt in zip(per_tree, batches, strict=True):
            assert set(bt) == set(tree)
            for a, (n, mean) in tree.items():
                counts = [c for c, _ in bt[a]]
                assert sum(counts) == n
                assert sum(s for _, s in bt[a]) == pytest.approx(n * mean)
                size = counts[0]
                assert size & (size - 1) == 0
                assert all(c == size for c in counts[:-1]) and 1 <= counts[-1] <= size
                if n >= 32:
                    assert 16 <= len(counts) <= 32
                    merged += size > 1
                else:
                    assert size == 1 and len(counts) == n
        assert merged


def test_puct_follows_the_rules_prior_at_the_decisions():
    """PUCT at a bid: the rules player's bid is tried again before most
    other bids are tried once; without the prior (UCB1), each bid once."""
    game = solver.load_game("dixie-rook")
    state = _states(game, lambda s: s.phase == "auction" and len(s.legal_actions()) >= 8,
                    1, 5)[0]
    sampler = _sampler(state)
    fav = make_policy("rules", game, state.current_player()).step(state)
    k = len(state.legal_actions())
    visits = native_search(game, sampler).run(k, 0.0, 1, 1, 0.7)[0]
    assert visits[fav] >= 2
    plain = native_search(game, sampler)
    plain.native.set_prior(False)
    visits = plain.run(k, 0.0, 1, 1, 0.7)[0]
    assert set(visits.values()) == {1}


@pytest.mark.parametrize("threads", [1, 2])
def test_every_decision_search_is_deterministic(threads):
    for native in _any_searches():
        a = native.run(3000, 0.0, 9, threads, 0.7)
        b = native.run(3000, 0.0, 9, threads, 0.7)
        assert a == b


def test_every_phase_of_every_game_has_a_native_search():
    """``native_search`` returns a search for each decision of seeded games
    of every game, and its root moves are legal actions."""
    for name, opts in [("dix", {}), ("trix", {}), ("tricks", {}), ("dixie-rook", {}),
                       ("dix-exchange", {})]:
        game = solver.load_game(name, **opts)
        for state in _states(game, lambda s: True, 12, 900, mix=0.3):
            native = native_search(game, _sampler(state))
            assert native is not None, (name, state.to_text())
            visits = native.run(300, 0.0, 1, 1, 0.7)[0]
            assert visits and set(visits) <= set(state.legal_actions())
