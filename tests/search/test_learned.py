"""The learned policy (solver/search/learned.py): the kernels' card policy
(csrc/include/cardfeat.pxd) equals its Python twin on random positions of
every game whose kernel has one, the searches take it as their prior and
play-outs and say so, the ``learned`` bot plays whole deals from its own
cards, and bad settings get the project's errors."""

import json
import random

import pytest

import solver
from bots.cli import main
from bots.modelfit import hidden_forward
from bots.registry import make_bot
from solver.beliefs import ModelParams, ObservationSet, RulesTable, observation_features
from solver.cardplay import CARD_FEATURES
from solver.errors import OptionError
from solver.games.contract_match.state import LAYOUT_PLAY
from solver.position import from_json
from solver.search import Limit, best_move
from solver.search.learned import action_probabilities, check_model, hidden_scores, kernel_spec, model_of
from solver.search.native import native_search
from tests.search.test_equivalence import _endings, ending_ids
from tests.search.test_tree_equivalence import _hands

native = pytest.importorskip("solver.search._ismcts")

#: game, options, tricks left: dix with its stock and without, the trick
#: contracts of trix (individual and partners) and tricks, dixie-rook's play
#: with 4 and 6 seats
POSITIONS = [("dix", {}, 20), ("dix", {"variant": "seventeen"}, 12), ("trix", {}, 12),
             ("trix", {"partners": True}, 12), ("tricks", {}, 12), ("dixie-rook", {}, 10),
             ("dixie-rook", {"players": 6}, 7)]


@pytest.mark.parametrize("name,options,left", POSITIONS, ids=ending_ids(POSITIONS))
def test_the_kernels_card_policy_equals_the_python_twin(name, options, left):
    checked = peaked = 0
    for state in _endings(name, options, left, 25, seed=3):
        seat = state.current_player()
        view = from_json(state.information_state(seat).view)
        search = native_search(state.game, view.sampler())
        model, params = model_of(state.game)
        spec = kernel_spec(model, params, state)
        assert spec is not None
        assert search.set_policy(spec, True, False)
        got = search.policy_probs(_hands(state))
        want = action_probabilities(model, params, state)
        assert want is not None
        assert set(got) == set(want) == set(state.legal_actions())
        for a in got:
            assert got[a] == pytest.approx(want[a], abs=1e-12), state.action_to_string(a)
        assert sum(got.values()) == pytest.approx(1.0)
        checked += 1
        peaked += max(got.values()) > 2.0 / len(got)
    assert checked == 25 and peaked > 5           # not a flat policy: the check bites


def _with_hidden(model, params, rng: random.Random) -> ModelParams:
    """``params`` with a random hidden layer on every card kind (2 to 6
    units, so a kernel pads the smaller ones), large enough to move the
    probabilities."""
    layers: dict[str, dict[str, list]] = {}
    for kind, names in model.features.items():
        if tuple(names) != CARD_FEATURES:
            continue
        units = rng.randint(2, 6)
        layers[kind] = {"w": [[rng.uniform(-2, 2) for _ in names] for _ in range(units)],
                        "b": [rng.uniform(-0.5, 0.5) for _ in range(units)],
                        "v": [rng.uniform(-2, 2) for _ in range(units)]}
    return ModelParams(params.kinds, params.floor, params.alpha, dict(params.meta), layers)


@pytest.mark.parametrize("name,options,left", POSITIONS, ids=ending_ids(POSITIONS))
def test_the_kernels_hidden_layer_equals_both_twins(name, options, left):
    """The card policy with a hidden layer: the kernel (cardfeat.pxd's
    ``hidden_score``), the Python twin (``action_probabilities``) and the
    fit's numpy forward pass (``bots.modelfit.hidden_forward``) agree."""
    np = pytest.importorskip("numpy")
    rng = random.Random(11)
    moved = 0
    for state in _endings(name, options, left, 15, seed=5):
        seat = state.current_player()
        view = from_json(state.information_state(seat).view)
        search = native_search(state.game, view.sampler())
        model, params = model_of(state.game)
        deep = _with_hidden(model, params, rng)
        spec = kernel_spec(model, deep, state)
        assert spec is not None and spec["hidden"] >= 2
        assert search.set_policy(spec, True, False)
        got = search.policy_probs(_hands(state))
        want = action_probabilities(model, deep, state)
        flat = action_probabilities(model, params, state)
        assert want is not None and flat is not None
        assert set(got) == set(want) == set(state.legal_actions())
        for a in got:
            assert got[a] == pytest.approx(want[a], abs=1e-12), state.action_to_string(a)
        moved += max(abs(want[a] - flat[a]) for a in want) > 0.05
        # the numpy twin of the layer on the same feature rows
        table = RulesTable()
        o, hand = model.example(state, state.legal_actions()[0], table)
        _, rows, _ = observation_features(ObservationSet([o], model.features, 0, table.rules),
                                          o, hand)
        layer = deep.hidden[o.kind]
        assert list(hidden_forward(layer, np.array(rows))) == pytest.approx(
            hidden_scores(layer, rows), abs=1e-12)
    assert moved > 5                              # the layer changes the policy: the check bites


def test_a_model_file_with_a_hidden_layer_round_trips_and_is_checked(tmp_path):
    game = solver.load_game("trix")
    model, params = model_of(game)
    deep = _with_hidden(model, params, random.Random(2))
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(deep.to_json()))
    back = check_model(game, str(path))
    assert back.hidden == deep.hidden and back.kinds == deep.kinds
    kind = next(iter(deep.hidden))
    bad = deep.to_json()
    bad["hidden"][kind]["w"][0] = bad["hidden"][kind]["w"][0][:-1]
    with pytest.raises(OptionError, match=f"kind '{kind}': a hidden layer has 1..32 units, "
                                          f"each with 20 weights"):
        check_model(game, bad)
    bad = deep.to_json()
    bad["hidden"][kind]["v"][0] = float("nan")
    with pytest.raises(OptionError, match="finite numbers"):
        check_model(game, bad)
    bad = deep.to_json()
    bad["hidden"]["card:hearts:lead"] = bad["hidden"][kind]
    with pytest.raises(OptionError, match="'card:hearts:lead', a kind of decision the game "
                                          "does not have"):
        check_model(game, bad)


def test_a_search_without_a_card_policy_says_no():
    # dix-exchange has no card play: its kernel takes no card policy
    game = solver.load_game("dix-exchange", players=5)
    state = game.new_initial_state(seed=2)
    view = from_json(state.information_state(state.current_player()).view)
    search = native_search(game, view.sampler())
    model, params = model_of(game)
    assert kernel_spec(model, params, state) is None
    spec = kernel_spec(*model_of(solver.load_game("trix")), _endings("trix", {}, 12, 1, 3)[0])
    assert search.set_policy(spec, True, False) is False
    assert search.policy_probs([0] * 5) == {}


@pytest.mark.parametrize("name", ["dix", "trix"])
def test_the_search_uses_the_learned_policy_and_says_so(name):
    state = _endings(name, {}, 12, 1, seed=7)[0]
    plain = best_move(state, Limit(iterations=3000), seed=1, exact=False, prior="rules")
    assert plain.search == {"prior": "rules", "playout": "rules", "leaf": "playout"}
    res = best_move(state, Limit(iterations=3000), seed=1, exact=False, prior="learned",
                    policy="learned")
    assert res.search == {"prior": "learned", "playout": "learned", "leaf": "playout"}
    assert set(res.values) == set(plain.values)
    # the same seed, the same search
    again = best_move(state, Limit(iterations=3000), seed=1, exact=False, prior="learned",
                      policy="learned")
    assert again.values == res.values and again.visits == res.visits
    # the prior moves the visits: the search is not the one without it
    assert res.visits != plain.visits
    # the learned policy's leads and the rules' other cards: a third search
    leads = best_move(state, Limit(iterations=3000), seed=1, exact=False, prior="learned",
                      policy="leads")
    assert leads.search == {"prior": "learned", "playout": "leads", "leaf": "playout"}
    assert leads.visits == best_move(state, Limit(iterations=3000), seed=1, exact=False,
                                     prior="learned", policy="leads").visits
    assert leads.visits != res.visits


def test_a_leads_play_out_draws_only_the_leads_from_the_policy():
    # the Python twin of the kernels' ``leads`` play-outs: the policy at a
    # card led to a trick, the rules (None here) at every other card
    model, params = model_of(solver.load_game("trix"))
    seen = {True: 0, False: 0}
    for state in _endings("trix", {}, 11, 12, seed=4):
        for _ in range(4):                  # a lead and the trick's follows
            if len(state.legal_actions()) > 1:
                leading = not state.log.play.trick
                full = action_probabilities(model, params, state)
                only = action_probabilities(model, params, state, leads_only=True)
                assert full is not None
                assert only == (full if leading else None)
                seen[leading] += 1
            state.apply_action(state.legal_actions()[0])
    assert seen[True] > 3 and seen[False] > 10


def test_the_kernels_take_three_play_out_modes_only():
    state = _endings("trix", {}, 12, 1, seed=3)[0]
    view = from_json(state.information_state(state.current_player()).view)
    search = native_search(state.game, view.sampler())
    spec = kernel_spec(*model_of(state.game), state)
    for mode in (0, 1, 2):
        assert search.set_policy(spec, True, mode)
    with pytest.raises(ValueError, match="playout is 0, 1 or 2"):
        search.set_policy(spec, True, 3)


@pytest.mark.parametrize("name,options,prior", [
    ("dix", {}, "learned"), ("dix", {"variant": "seventeen"}, "learned"),
    ("trix", {}, "learned"), ("tricks", {}, "learned"), ("dixie-rook", {}, "rules")])
def test_each_game_has_the_prior_that_measured_stronger(name, options, prior):
    # docs/search.md, "Learned play measured": the default is the learned
    # prior where it was stronger at equal time
    state = _endings(name, options, 8, 1, seed=3)[0]
    res = best_move(state, Limit(iterations=200), seed=1, exact=False)
    assert res.search["prior"] == prior
    bot = make_bot("ismcts:iterations=200,exact=off", state.game, state.current_player(), seed=1)
    bot.step(state)
    assert bot.last.search["prior"] == prior


def test_where_no_kernel_has_it_the_rules_guide_and_the_result_says_so():
    # the layout's kernel has no learned policy
    game = solver.load_game("trix")
    state = game.new_initial_state(seed=2)
    bots = [make_bot("rules", game, s, seed=s) for s in range(4)]
    while state.phase != LAYOUT_PLAY or len(state.legal_actions()) < 2:
        state.apply_action(bots[state.current_player()].step(state))
    res = best_move(state, Limit(iterations=300), seed=1, exact=False, prior="learned")
    assert res.search == {"prior": "rules", "playout": "rules", "leaf": "playout"}


def test_bad_settings_are_refused():
    state = _endings("trix", {}, 12, 1, seed=7)[0]
    with pytest.raises(OptionError, match="prior must be one of rules, learned, none"):
        best_move(state, Limit(iterations=100), prior="neural")
    with pytest.raises(OptionError, match="policy must be one of"):
        best_move(state, Limit(iterations=100), policy="neural")
    with pytest.raises(OptionError, match="ismcts.*prior must be one of rules, learned, none"):
        make_bot("ismcts:prior=2", state.game, 0)


GAMES = [("dix", {}), ("dix", {"variant": "seventeen"}), ("trix", {}), ("tricks", {}),
         ("dixie-rook", {}), ("dixie-rook", {"players": 6}), ("dix-exchange", {"players": 6})]


@pytest.mark.parametrize("name,options", GAMES, ids=[f"{n}{o}" for n, o in GAMES])
def test_the_learned_bot_plays_whole_deals_alike_from_a_seed(name, options):
    game = solver.load_game(name, **options)
    for seed in (1, 2):
        runs = []
        for _ in range(2):
            state = game.new_initial_state(seed=seed)
            bots = [make_bot("learned", game, s, seed=seed) for s in range(game.num_players)]
            actions = []
            while not state.is_terminal() and len(actions) < 400:
                a = bots[state.current_player()].step(state)
                assert a in state.legal_actions()
                state.apply_action(a)
                actions.append(a)
            runs.append(actions)
        assert runs[0] == runs[1]


def test_the_learned_bot_follows_the_policy():
    state = _endings("trix", {}, 12, 1, seed=9)[0]
    probs = action_probabilities(*model_of(state.game), state)
    bot = make_bot("learned", state.game, state.current_player(), seed=0)
    assert probs[bot.step(state)] == max(probs.values())


def test_the_python_search_takes_the_learned_policy_too(monkeypatch):
    # without the kernels the Python search runs: the policy's favourite as
    # the PUCT prior, play-out moves drawn from it
    monkeypatch.setenv("DIXTRIX_PUREPYTHON", "1")
    state = _endings("dix", {}, 12, 1, seed=5)[0]
    res = best_move(state, Limit(iterations=150), seed=3, exact=False, prior="learned",
                    policy="learned")
    assert res.search == {"prior": "learned", "playout": "learned", "leaf": "playout"}
    again = best_move(state, Limit(iterations=150), seed=3, exact=False, prior="learned",
                      policy="learned")
    assert again.visits == res.visits


def test_the_hint_says_what_guided_its_search(capsys):
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--prior", "learned",
                 "--iterations", "2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["search"]["guided"] == {"prior": "learned", "playout": "rules", "leaf": "playout"}
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--iterations", "2000",
                 "--prior", "rules"]) == 0
    assert "(prior: rules, play-outs: rules, leaf: playout)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["hint", "dix", "--seed", "1", "--prior", "neural"])
