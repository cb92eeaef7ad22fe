"""PIMC and the cheating double-dummy player: values in the game's units,
the solver / rollout paths, determinism and bad settings."""

import random

import pytest

import solver
from bots import make_bot
from solver import Limit, best_move, solve
from solver.errors import LimitError, OptionError
from solver.games.dixie_rook.search import deal_score as _rook_deal_score
from solver.search.pimc import _dd_values, choose, pimc_search


def _dix_at(trick, seed=1):
    state = solver.load_game("dix").new_initial_state(seed=seed)
    rng = random.Random(seed)
    while state.tricks_done < trick - 1:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_dix_after_the_stock_pimc_values_are_the_solver_values():
    for seed in range(4):
        state = _dix_at(17, seed)
        seat = state.current_player()
        sol = solve(state)
        # the search itself, and the service's exact path: the same values
        for res, how in ((best_move(state, Limit(worlds=2), bot="pimc", seed=seed,
                                    exact=False), "pimc"),
                         (best_move(state, Limit(worlds=2), bot="pimc", seed=seed), "exact")):
            for a, v in sol.action_values.items():
                want = v if v else (0.5 if sol.action_winners[a] == seat else -0.5)
                assert res.values[a] == want
            assert sol.action_values[res.action] == sol.value
            assert res.bot == how and res.confidence == 1.0


def test_dix_solver_values_are_what_the_round_scores():
    """Playing the solver's best card for both seats to the end, the
    round's ``round_returns`` is the value PIMC gave the first card."""
    for seed in range(3):
        state = _dix_at(21, seed)
        seat = state.current_player()
        horizon = state.round_index()
        vals, _ = _dd_values(state, seat, 10**8)
        best = max(vals.values())
        while not state.is_terminal() and state.round_index() == horizon:
            s = state.current_player()
            v, _ = _dd_values(state, s, 10**8)
            state.apply_action(max(v, key=lambda a: (v[a], -a)))
        assert state.round_returns(horizon)[seat] == best


def _rook_last_tricks(count):
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook")
    rng = random.Random(7)
    out, seed = [], 0
    while len(out) < count:
        state = game.new_initial_state(seed=seed)
        seed += 1
        bots = [make_bot("rules", game, s, seed=seed) for s in range(4)]
        while not state.is_terminal():
            if state.phase == PLAY and not state.trick and \
                    bin(state.hands[state.leader]).count("1") == 1:
                out.append(state.clone())
                break
            if state.phase == PLAY:
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(bots[state.current_player()].step(state))
    return out


def test_dixie_rook_solver_values_go_through_the_bid_like_the_game():
    """On the forced last trick the solver's captured points are exact;
    turned into the hand's score difference they equal what the game
    scores (hands whose tricks tie go to a random cut: skipped)."""
    checked = 0
    for state in _rook_last_tricks(40):
        hand = state.round_index()
        seat = state.current_player()
        vals, _ = _dd_values(state, seat, 10**6)
        end = state.clone()
        while not end.is_terminal() and end.round_index() == hand:
            end.apply_action(end.legal_actions()[0])
        if end.results[hand]["tricks"][0] == end.results[hand]["tricks"][1]:
            continue
        assert list(vals.values()) == [end.round_returns(hand)[seat]]
        checked += 1
    assert checked >= 20


def test_rook_score_transform_sets_a_short_bidder():
    state = _rook_last_tricks(1)[0]
    seat = state.bid_winner
    short = _rook_deal_score(state, seat, state.bid - 5)
    made = _rook_deal_score(state, seat, state.bid + 5)
    assert made > 0 > short
    assert short < -state.bid


def test_rollouts_value_decisions_the_solver_does_not_take():
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=2)         # trick 1: the stock is full
    seat = state.current_player()
    sampler = game.world_sampler(state.information_state(seat).view)
    stats = pimc_search(sampler.sample, seat, state.legal_actions(), game, worlds=4,
                        rng=random.Random(1))
    assert stats.worlds == 4 and stats.solved == 0
    assert set(stats.values) == set(state.legal_actions())
    assert all(n == 4 for n in stats.visits.values())
    assert choose(stats, state.legal_actions()) in state.legal_actions()


def test_a_tiny_node_bound_falls_back_to_rollouts():
    state = _dix_at(14, 3)
    seat = state.current_player()
    sampler = state.game.world_sampler(state.information_state(seat).view)
    stats = pimc_search(sampler.sample, seat, state.legal_actions(), state.game,
                        worlds=3, nodes=10, rng=random.Random(1))
    assert stats.worlds == 3 and stats.solved == 0


@pytest.mark.parametrize("name", ["dix", "trix", "dixie-rook"])
def test_pimc_is_deterministic_by_seed(name):
    game = solver.load_game(name)
    state = game.new_initial_state(seed=11)
    rng = random.Random(11)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    runs = [make_bot("pimc:worlds=5,nodes=50000", game, seat, seed=3) for _ in range(2)]
    actions = [b.step(state) for b in runs]
    assert actions[0] == actions[1]
    if runs[0].last is not None:
        assert runs[0].last.values == runs[1].last.values


def test_cheat_sees_the_true_state():
    state = _dix_at(16, 5)
    bot = make_bot("cheat", state.game, state.current_player(), seed=0)
    action = bot.step(state)
    sol = solve(state)
    assert sol.action_values[state.action_to_string(action)] == sol.value


def test_bad_settings_are_typed_errors():
    game = solver.load_game("dix")
    for spec in ("pimc:worlds=0", "pimc:time=-1", "pimc:nodes=0", "pimc:worlds=2.5"):
        with pytest.raises(LimitError):
            make_bot(spec, game, 0, seed=0)
    for policy in ("nonsense", "pimc", "ismcts"):     # a searching play-out: refused
        with pytest.raises(OptionError, match="unknown policy"):
            make_bot(f"pimc:policy={policy}", game, 0, seed=0)
    with pytest.raises(OptionError, match="unknown setting"):
        make_bot("pimc:width=3", game, 0, seed=0)
    state = game.new_initial_state(seed=1)
    with pytest.raises(LimitError, match="worlds"):
        best_move(state, Limit(iterations=10), bot="pimc")
    with pytest.raises(OptionError, match="unknown bot"):
        best_move(state, Limit(worlds=1), bot="alphazero")


def test_tied_exact_values_go_to_the_first_action_and_are_all_equal():
    """A paranoid solve often values several cards alike: the cheat (one
    world: the true deal, solved) advises the first of the tied actions by
    the game's rule among equal actions (``State.tie_key``) and marks every
    tied action as equal."""
    game = solver.load_game("trix")
    found = 0
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(25, 45)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        bot = make_bot("cheat:worlds=4", game, state.current_player(), seed=1)
        action = bot.step(state)
        res = bot.last
        if res.bot != "exact":
            continue
        top = max(res.values.values())
        tied = [state.action_to_string(a) for a in sorted(state.legal_actions(),
                                                           key=state.tie_key)
                if res.values[state.action_to_string(a)] == top]
        assert state.action_to_string(action) == tied[0] == res.ranking[0]
        assert set(res.equal) == set(tied)
        found += len(tied) > 1
    assert found >= 3


def test_no_time_left_for_the_tie_break_is_not_an_error():
    from solver.search.pimc import PIMCStats, _break_ties
    state = _dix_at(20, 2)
    legal = state.legal_actions()[:2]
    stats = PIMCStats(values={a: 1.0 for a in legal}, visits={a: 1 for a in legal},
                      wins={a: 1 for a in legal}, worlds=1, solved=1)
    bots = [make_bot("random", state.game, s, seed=s) for s in range(2)]
    _break_ties(stats, lambda rng: state.clone(), 0, legal, bots, 0, random.Random(0),
                None, deadline=0.0)
    assert stats.tiebreak == {}
    assert choose(stats, legal) == min(legal)


def _spy_solve_budgets(monkeypatch) -> list:
    """The node bound of every root solve PIMC asks for, in order."""
    import solver.search.pimc as pimc
    budgets: list = []
    real = pimc._dd_values

    def spy(world, seat, nodes, solver=None):
        budgets.append(nodes)
        return real(world, seat, nodes, solver)

    monkeypatch.setattr(pimc, "_dd_values", spy)
    return budgets


def test_a_decision_probes_before_its_first_solved_world(monkeypatch):
    """Until a world is solved, a world's solve is bounded by
    ``nodes // PROBE_SHARE``, times ``PROBE_GROWTH`` for each failed probe;
    after one is solved, by ``nodes``."""
    budgets = _spy_solve_budgets(monkeypatch)
    state = _dix_at(21, 2)
    sampler = solver.position.from_json(
        state.information_state(state.current_player()).view).sampler()
    pimc_search(sampler.sample, state.current_player(), state.legal_actions(), state.game,
                worlds=3, nodes=160_000, rng=random.Random(0))
    assert budgets == [10_000, 160_000, 160_000]
    # a decision whose probes fail plays out the rest of its worlds
    budgets.clear()
    trix = solver.load_game("trix")
    st = _trix_at(trix, 4)
    sampler = solver.position.from_json(
        st.information_state(st.current_player()).view).sampler()
    res = pimc_search(sampler.sample, st.current_player(), st.legal_actions(), trix,
                      worlds=4, nodes=16_000, rng=random.Random(0))
    assert budgets == [1_000, 4_000] and res.solved == 0 and res.worlds == 4


def _trix_at(trix, tricks_done):
    """A trix trick contract at a trick's lead after ``tricks_done`` tricks."""
    from solver.games.contract_match.state import TRICKS
    st = trix.new_initial_state(seed=0)
    rng = random.Random(0)
    while not (st.phase == TRICKS and st.log.play.tricks_done >= tricks_done
               and not st.log.play.trick and len(st.legal_actions()) > 1):
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_worlds_too_big_for_the_solver_go_to_the_playouts(monkeypatch):
    """Above the game's ``probe_cards`` (trix: 40 cards in play) PIMC
    does not try the solver under its default node bound; at 40 cards, or
    with a larger bound, it does."""
    import solver.search.pimc as pimc
    budgets = _spy_solve_budgets(monkeypatch)
    trix = solver.load_game("trix")
    support = pimc.support_for(trix)
    for done, nodes, tried in ((0, pimc.DEFAULT_NODES, False), (3, pimc.DEFAULT_NODES, True),
                               (0, 2 * pimc.DEFAULT_NODES, True)):
        st = _trix_at(trix, done)
        assert support.cards_in_play(st) == 52 - 4 * done
        sampler = solver.position.from_json(
            st.information_state(st.current_player()).view).sampler()
        budgets.clear()
        res = pimc_search(sampler.sample, st.current_player(), st.legal_actions(), trix,
                          worlds=1, nodes=nodes, rng=random.Random(0))
        assert bool(budgets) == tried, (done, nodes, budgets)
        assert res.worlds == 1
    # outside card play there is no count, so nothing is held back
    assert support.cards_in_play(trix.new_initial_state(seed=0)) is None
    # dixie-rook: four seats from 36 cards in play, six from 42; dix: always
    assert pimc.support_for(solver.load_game("dixie-rook", players=4)).probe_cards(
        solver.load_game("dixie-rook", players=4)) == 36
    six = solver.load_game("dixie-rook", players=6)
    assert pimc.support_for(six).probe_cards(six) == 42
    dix = solver.load_game("dix")
    assert pimc.support_for(dix).probe_cards(dix) is None
