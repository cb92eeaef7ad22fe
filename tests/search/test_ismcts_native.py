"""The Cython dix ISMCTS against the rules engine and its Python twin."""

import os
import random

import pytest

import solver
from bots.searchbots import ISMCTSBot
from solver import position
from solver.games.dix.kernel import native_dix_search
from solver.search import Limit, best_move
from solver.search.ismcts import ismcts_search, run_native

if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
    pytest.skip("pure-Python run: no Cython search", allow_module_level=True)
pytest.importorskip("solver.search._ismcts")


def _state(seed, n, **opts):
    game = solver.load_game("dix", **opts)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n):
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("opts", [{}, {"variant": "seventeen"},
                                  {"free_play_while_stock": True}])
def test_compact_playouts_follow_the_rules_exactly(opts):
    """A determinization and playout done in C, replayed by the Python rules
    engine on the same hidden cards, gives the same tricks and tens."""
    for seed in range(25):
        game, state = _state(seed, random.Random(seed).randrange(0, 40), **opts)
        seat = state.current_player()
        sampler = position.from_json(state.information_state(seat).view).sampler()
        native = native_dix_search(sampler)
        for k in range(4):
            hand, stock, played, won, tens, last, r0 = native.simulate(seed * 10 + k)
            world = sampler.base.clone()
            world.hands[1 - seat] = hand
            if stock:
                world.stock = tuple(stock)
            # the determinization agrees with the view
            assert world.information_state(seat).view == state.information_state(seat).view
            for a in played:
                world.apply_action(a)             # raises if C played an illegal card
            rnd = world.rounds[-1] if world.round_no > state.round_no or \
                world.is_terminal() else None
            assert rnd is not None
            assert [rnd["scores"][s] + 4 * rnd["tens"][s] for s in (0, 1)] == won
            assert rnd["tens"] == tens
            diff = world.round_returns(state.round_no)[0]
            assert r0 == pytest.approx(max(-1, min(1, diff / 30)))


def test_native_and_python_agree_in_a_perfect_information_endgame():
    from tests.games.test_dix import DEAL, SCRIPT
    game = solver.load_game("dix")
    state = game.new_initial_state(deal=DEAL)
    for lead, follow, _, _ in SCRIPT[:13]:
        state.apply_action_string(lead)
        state.apply_action_string(follow)
    state.apply_action_string("AD")
    sampler = position.from_json(state.information_state(1).view).sampler()
    nat = run_native(native_dix_search(sampler), game, 20000, None, 0.7, 1, 5)
    py = ismcts_search(sampler, 1, state.legal_actions(), game, iterations=3000,
                       rng=random.Random(5))
    best_n = max(nat.visits, key=nat.visits.get)
    best_p = max(py.visits, key=py.visits.get)
    assert state.action_to_string(best_n) != "9H" and state.action_to_string(best_p) != "9H"
    assert nat.values[state.string_to_action("9H")] < nat.values[best_n]


def test_native_search_is_deterministic_for_1_and_2_trees():
    game, state = _state(4, 16)
    assert len(state.legal_actions()) > 1
    seat = state.current_player()
    for trees in (1, 2):
        a = ISMCTSBot(game, seat, seed=3, iterations=4000, trees=trees)
        b = ISMCTSBot(game, seat, seed=3, iterations=4000, trees=trees)
        assert a.step(state) == b.step(state)
        assert a.last.visits == b.last.visits and a.last.values == b.last.values
        assert a.last.iterations == 4000


@pytest.mark.parametrize("name", ["dix", "trix", "dixie-rook", "dix-exchange"])
def test_the_answer_depends_on_the_trees_never_on_the_threads(name):
    """A seed reproduces on any machine: the same trees grown by 1, 2 or 3
    threads (more threads than trees: still one a tree) give one answer,
    figure for figure, for a Cython search of every kind (card play, and a
    decision around it)."""
    game = solver.load_game(name)
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    views = []
    while len(views) < 2 and not state.is_terminal():
        if len(state.legal_actions()) > 1 and (not views or rng.random() < 0.1):
            views.append(state.information_state(state.current_player()).view)
        state.apply_action(rng.choice(state.legal_actions()))
    assert views
    for view in views:
        results = [best_move(view, Limit(iterations=3000), seed=11, trees=4, threads=t,
                             exact=False) for t in (1, 2, 3)]
        assert results[0].bot == "ismcts"
        for other in results[1:]:
            assert (other.action, other.values, other.visits, other.ci95) == \
                (results[0].action, results[0].values, results[0].visits, results[0].ci95)



def _trick_states(name, opts, count, seed0=0):
    from solver.games.contract_match.state import TRICKS
    game = solver.load_game(name, **opts)
    out = []
    seed = seed0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        stop_at = rng.randrange(0, 40)
        k = 0
        while not state.is_terminal():
            if state.phase == TRICKS and len(state.legal_actions()) > 1:
                if k >= stop_at:
                    out.append(state)
                    break
                k += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


@pytest.mark.parametrize("name,opts", [("trix", {}), ("trix", {"partners": True}),
                                       ("tricks", {}), ("trix", {"must_discard_penalty": True})])
def test_compact_trick_playouts_follow_the_rules_exactly(name, opts):
    from solver.games.contract_match.kernel import native_trick_search
    game, states = _trick_states(name, opts, 12)
    for state in states:
        seat = state.current_player()
        sampler = position.from_json(state.information_state(seat).view).sampler()
        native = native_trick_search(sampler)
        d = state.round_index()
        for k in range(3):
            hands, played, scores = native.simulate(k)
            world = sampler.base.clone()
            world.log.play.hands = list(hands)
            assert world.information_state(seat).view == state.information_state(seat).view
            for a in played:
                if world.round_index() != d:
                    break                      # stop_when_decided ended the deal early
                world.apply_action(a)          # raises if C played an illegal card
            assert world.deal_logs[d].scores == scores


def test_trick_search_runs_and_is_deterministic():
    game, states = _trick_states("trix", {}, 1, seed0=5)
    state = states[0]
    seat = state.current_player()
    a = ISMCTSBot(game, seat, seed=2, iterations=3000)
    b = ISMCTSBot(game, seat, seed=2, iterations=3000)
    assert a.step(state) == b.step(state) and a.last.visits == b.last.visits
    assert a.last.iterations == 3000


def _layout_states(name, opts, count, seed0=0):
    from solver.games.contract_match.state import LAYOUT_PLAY
    game = solver.load_game(name, **opts)
    out = []
    seed = seed0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        stop_at = rng.randrange(0, 30)
        k = 0
        while not state.is_terminal():
            if state.phase == LAYOUT_PLAY:
                if k >= stop_at:
                    out.append(state)
                    break
                k += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


@pytest.mark.parametrize("name,opts", [("trix", {}), ("trix", {"partners": True}),
                                       ("tricks", {})])
def test_compact_layout_playouts_follow_the_rules_exactly(name, opts):
    from solver.games.contract_match.kernel import native_layout_search
    from solver.games.contract_match.state import PASS
    game, states = _layout_states(name, opts, 10)
    for state in states:
        seat = state.current_player()
        sampler = position.from_json(state.information_state(seat).view).sampler()
        native = native_layout_search(sampler)
        d = state.round_index()
        for k in range(3):
            hands, played, places = native.simulate(k)
            world = sampler.base.clone()
            world.log.play.hands = list(hands)
            assert world.information_state(seat).view == state.information_state(seat).view
            for a in played:
                if world.round_index() != d:
                    break
                world.apply_action(PASS if a == 63 else a)   # raises if C was illegal
            finish = world.deal_logs[d].play.finish
            assert [finish.index(s) for s in range(4)] == places


def test_layout_search_runs_with_the_game_pass_action():
    game, states = _layout_states("trix", {}, 30, seed0=3)
    from solver.games.contract_match.state import PASS
    for state in states:
        if state.legal_actions() == [PASS]:
            seat = state.current_player()
            bot = ISMCTSBot(game, seat, seed=1, iterations=500)
            assert bot.step(state) == PASS
            break
    state = next(s for s in states if len(s.legal_actions()) > 1)
    bot = ISMCTSBot(game, state.current_player(), seed=1, iterations=2000)
    assert bot.step(state) in state.legal_actions()
    assert bot.last.iterations == 2000


# ---- dixie-rook card play -------------------------------------------------

def _rook_states(players, count, seed0=0):
    """Card-play decisions of random dixie-rook games (random auctions,
    discards and trumps), any trick, the deciding seat bid winner or not."""
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook", players=players, target=120, lose_at=300)
    out = []
    seed = seed0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        stop_at = rng.randrange(0, game.hand_size * players)
        k = 0
        while not state.is_terminal():
            if state.phase == PLAY and len(state.legal_actions()) > 1:
                if k >= stop_at:
                    out.append(state)
                    break
                k += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


def _rook_hand_values(world, last_card, h):
    """The hand score difference (team 0 minus team 1) the Python game
    gives when ``last_card`` ends the hand, for each winner of a tie cut
    (one value when the tricks are not tied)."""
    out = []
    for most in (0, 1):
        w = world.clone()
        tied = []

        def forced(tied=tied, w=w, most=most):
            tied.append(w.tricks_won[0] == w.tricks_won[1])
            return most if tied[0] else type(w)._most_tricks(w)
        w._most_tricks = forced
        w.apply_action(last_card)
        out.append(w.round_returns(h)[0])
        if not tied[0]:
            return out[:1]
    return out


@pytest.mark.parametrize("players", [4, 6])
def test_rook_playouts_follow_the_rules_and_score_as_the_game(players):
    """A determinization and random playout done in C, replayed by the
    Python rules on the same hidden cards: every card legal, the same
    tricks and count, and the C value of the hand equal to the Python
    game's score difference (``round_returns``, what the Python twin backs
    up) -- a tie for most tricks: the mean of the cut's two outcomes."""
    from solver.cards import cards_of
    from solver.games.dixie_rook.kernel import native_rook_search
    from tests.search.test_rook_sampler import _consistent
    game, states = _rook_states(players, 14)
    ties = 0
    for state in states:
        seat = state.current_player()
        view = state.information_state(seat).view
        sampler = position.from_json(view).sampler()
        native = native_rook_search(sampler)
        h = state.hand_no
        for k in range(4):
            held, played, won, count, value = native.simulate(state.n_actions * 10 + k)
            world = sampler.world_from(sampler.base.clone(), [cards_of(m) for m in held],
                                       random.Random(k))
            _consistent(world, view, seat)           # the C draw is a world of the view
            for a in played[:-1]:
                world.apply_action(a)               # raises if C played an illegal card
            assert world.hand_no == h
            values = _rook_hand_values(world, played[-1], h)
            ties += len(values) == 2
            assert value == pytest.approx(sum(values) / len(values))
            world.apply_action(played[-1])
            res = world.results[-1]
            assert res["tricks"] == won and res["count"] == count
            # what the Python twin backs up is one of the cut's outcomes
            assert world.round_returns(h)[0] in values
            assert world.round_returns(h)[1] == -world.round_returns(h)[0]
    assert ties > 0


def test_rook_search_chooses_legal_cards_and_is_deterministic():
    game, states = _rook_states(4, 3, seed0=40)
    _, states6 = _rook_states(6, 2, seed0=50)
    for state in states + states6:
        seat = state.current_player()
        for trees in (1, 2):
            a = ISMCTSBot(state.game, seat, seed=3, iterations=3000, trees=trees)
            b = ISMCTSBot(state.game, seat, seed=3, iterations=3000, trees=trees)
            move = a.step(state)
            assert move in state.legal_actions() and b.step(state) == move
            assert a.last.visits == b.last.visits and a.last.values == b.last.values
            assert a.last.iterations == 3000
            assert set(a.last.visits) == {state.action_to_string(x)
                                          for x in state.legal_actions()}


def test_rook_native_and_python_searches_value_the_hand_alike():
    """The two searches optimise the same number: at a late, nearly
    determined decision their root values agree to a few points."""
    from solver.games.dixie_rook.kernel import native_rook_search
    game, states = _rook_states(4, 40, seed0=60)
    state = next(s for s in states if s.tricks_done >= 10)
    seat = state.current_player()
    sampler = position.from_json(state.information_state(seat).view).sampler()
    nat = run_native(native_rook_search(sampler), game, 20000, None, 0.7, 1, 5)
    py = ismcts_search(sampler, seat, state.legal_actions(), game, iterations=2000,
                       rng=random.Random(5))
    best = max(nat.visits, key=nat.visits.get)
    assert abs(nat.values[best] - py.values[best]) < 8


def _greedy_follow(world, trump, lead, legal):
    """The documented greedy follower of the dix play-outs (``dix_playout``):
    let the leader win a ten-trick, else win cheaply without a ten, else
    throw the lowest card that makes no ten, else the lowest card."""
    from solver.cardset import dix_pips
    table = world.table

    def rank(c):
        if table[c] == table[lead]:
            win = table[64 + c] > table[64 + lead]
        else:
            win = table[c] == trump
        ten = dix_pips(c) + dix_pips(lead) == 10
        cls = (0 if not win else 3) if ten else (1 if win else 2)
        return cls, table[64 + c] + (64 if table[c] == trump else 0), c

    return min(legal, key=rank)


@pytest.mark.parametrize("policy", ["rules", "random"])
def test_dix_play_outs_follow_the_greedy_rule_three_times_in_four(policy):
    matched = followed = 0
    for seed in range(12):
        game, state = _state(seed, random.Random(seed).randrange(0, 30))
        seat = state.current_player()
        sampler = position.from_json(state.information_state(seat).view).sampler()
        native = native_dix_search(sampler, policy)
        for k in range(3):
            hand, stock, played, *_ = native.simulate(seed * 10 + k)
            world = sampler.base.clone()
            world.hands[1 - seat] = hand
            if stock:
                world.stock = tuple(stock)
            for a in played:
                legal = world.legal_actions()
                if world.trick and len(legal) > 1:
                    followed += 1
                    matched += a == _greedy_follow(world, sampler.base.trump,
                                                   world.trick[0], legal)
                world.apply_action(a)
                if world.round_no > state.round_no or world.is_terminal():
                    break
    _check_share(matched / followed, policy)


def _check_share(share, policy):
    """The share of a kernel's follower cards that the greedy rule gives:
    3 in 4 by the rule, the rest at random (``rules``); by chance only
    (``random``)."""
    if policy == "rules":
        assert share >= 0.7, share
    else:
        assert share <= 0.6, share


def _greedy_trick_follow(world, seat, legal):
    """The documented greedy follower of the trick-contract play-outs
    (``trick_playout``), written from its description: the highest card
    under the trick's winning card, else (over it) the highest card when
    last, the lowest otherwise; void, the card costing its taker most when
    another team's seat wins the trick (doubled if revealed), else the
    costing least; then the highest rank, then the lowest card."""
    from solver.games.contract_match.trick_play import PENALTY_RULES
    log = world.log
    play = log.play
    rule = PENALTY_RULES[log.contract]
    revealed = {card for _, card in log.reveals}
    trick = list(play.trick)
    suit = trick[0] >> 4
    w = max((i for i, c in enumerate(trick) if c >> 4 == suit), key=lambda i: trick[i] & 15)
    follow = [c for c in legal if c >> 4 == suit]
    if follow:
        under = [c for c in follow if (c & 15) < (trick[w] & 15)]
        if under:
            return max(under)
        return max(follow) if len(trick) == 3 else min(follow)
    winner = (play.leader + w) % 4
    partners = bool(world.game.options.get("partners", False))
    same = winner % 2 == seat % 2 if partners else winner == seat

    def cost(c):
        return (rule.per_card if rule.mask >> c & 1 else 0) * (2 if c in revealed else 1)

    return min(sorted(legal), key=lambda c: (cost(c) if same else -cost(c), -(c & 15)))


def _trick_follows(policy, configs, count, seed0, seeds):
    """``(card, the rule's card)`` for every follower's card with a choice
    in the kernel's play-outs (``simulate``) from seeded trick-contract
    decisions, replayed in the Python rules."""
    from solver.games.contract_match.kernel import native_trick_search
    for name, opts in configs:
        game, states = _trick_states(name, opts, count, seed0=seed0)
        for state in states:
            seat = state.current_player()
            sampler = position.from_json(state.information_state(seat).view).sampler()
            native = native_trick_search(sampler, policy=policy)
            d = state.round_index()
            for k in seeds:
                hands, played, _ = native.simulate(k)
                world = sampler.base.clone()
                world.log.play.hands = list(hands)
                for a in played:
                    if world.round_index() != d:
                        break
                    legal = world.legal_actions()
                    if world.log.play.trick and len(legal) > 1:
                        yield a, _greedy_trick_follow(world, world.current_player(), legal)
                    world.apply_action(a)


@pytest.mark.parametrize("policy", ["rules", "random"])
def test_trick_play_outs_follow_the_greedy_rule_three_times_in_four(policy):
    pairs = list(_trick_follows(policy, (("trix", {}), ("trix", {"partners": True}),
                                         ("tricks", {})), 6, 30, range(3)))
    _check_share(sum(a == g for a, g in pairs) / len(pairs), policy)


def _greedy_rook_follow(world, seat, legal):
    """The documented greedy follower of the dixie-rook play-outs
    (``rook_playout``), written from its description: partner winning and
    last to play, the most count (then the lowest rank); an opponent
    winning, the cheapest card that beats it (side suit before trump, then
    the lowest rank); else the lowest card without count (side suit before
    trump, then the lowest rank); ties to the lowest card."""
    from solver.games.dixie_rook import card_count
    trump, n = world.trump, world.game.num_players
    trick = list(world.trick)

    def beats(c, w):
        return (c & 15) > (w & 15) if c >> 4 == w >> 4 else c >> 4 == trump

    wi = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[wi]):
            wi = i
    partner = (world.leader + wi) % n % 2 == seat % 2
    last = len(trick) == n - 1

    def key(c):
        t = int(c >> 4 == trump)
        if partner and last:
            return (0, -card_count(c), 0, c & 15)
        if not partner and beats(c, trick[wi]):
            return (-1, 0, t, c & 15)
        return (0, card_count(c), t, c & 15)

    return min(sorted(legal), key=key)


def _rook_follows(policy, players, count, seed0, seeds):
    """As ``_trick_follows`` for dixie-rook card play."""
    from solver.cards import cards_of
    from solver.games.dixie_rook.kernel import native_rook_search
    for n in players:
        game, states = _rook_states(n, count, seed0=seed0)
        for state in states:
            seat = state.current_player()
            sampler = position.from_json(state.information_state(seat).view).sampler()
            native = native_rook_search(sampler, policy=policy)
            for k in seeds:
                held, played, *_ = native.simulate(k)
                world = sampler.world_from(sampler.base.clone(), [cards_of(m) for m in held],
                                           random.Random(k))
                for a in played[:-1]:
                    legal = world.legal_actions()
                    if world.trick and len(legal) > 1:
                        yield a, _greedy_rook_follow(world, world.current_player(), legal)
                    world.apply_action(a)


@pytest.mark.parametrize("policy", ["rules", "random"])
def test_rook_play_outs_follow_the_greedy_rule_three_times_in_four(policy):
    pairs = list(_rook_follows(policy, (4, 6), 6, 70, range(3)))
    _check_share(sum(a == g for a, g in pairs) / len(pairs), policy)


@pytest.fixture
def always_greedy(monkeypatch):
    """The kernels' play-outs with ``playout`` 2 (the greedy rule at every
    follower's card, no random quarter), whatever the policy asked."""
    from solver.search import _ismcts
    cls = _ismcts.Search
    monkeypatch.setattr(
        _ismcts, "Search",
        lambda kind, c, rules, state: cls(
            kind, c, dict(rules, playout=2) if kind in ("trick", "rook") else rules, state))


def test_trick_play_outs_are_the_documented_greedy_rule(always_greedy):
    pairs = list(_trick_follows("rules", (("trix", {}), ("trix", {"partners": True}),
                                          ("tricks", {}),
                                          ("trix", {"must_discard_penalty": True})),
                                5, 50, [1]))
    assert len(pairs) > 100
    assert all(a == g for a, g in pairs)


def test_rook_play_outs_are_the_documented_greedy_rule(always_greedy):
    pairs = list(_rook_follows("rules", (4, 6), 8, 90, [1]))
    assert len(pairs) > 100
    assert all(a == g for a, g in pairs)
