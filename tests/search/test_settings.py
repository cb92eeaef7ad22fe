"""``SearchSettings`` (solver/search/settings.py): one object for how
``best_move`` searches, beside ``Limit`` for how much.  Every keyword
``best_move`` took before it gives the same seeded answer as the settings
object; a bad setting is refused with the same error either way; the
object is immutable and ``replace`` round-trips."""

from __future__ import annotations

import dataclasses
import inspect
import random
from typing import cast

import pytest

import solver
from bots import make_bot
from solver.errors import LimitError, OptionError
from solver.games.contract_match.state import TRICKS, ContractMatchState
from solver.search import Limit, SearchSettings, best_move
from solver.search.support import support_for


def _dix(seed=3, n=9):
    """A dix position with hidden cards and a choice to make."""
    state = solver.load_game("dix").new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n):
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.legal_actions()) > 1
    return state


def _trix_late(seed=4, plays=20):
    """A trix deal in ltoosh, ``plays`` cards in (the first choice of two
    cards or more), played at random: an all-seeing player's exact solve of
    a kind of value applies (tests/search/test_cheat_search.py's)."""
    state = cast(ContractMatchState, solver.load_game("trix").new_initial_state(seed=seed))
    state.apply_action(state.string_to_action("contract ltoosh"))
    rng = random.Random(seed)
    while state.phase != TRICKS or len(state.log.play.plays) < plays or \
            len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.round_index() == 0
    return state


def _same(a, b):
    """The same answer; an exact solve's nodes aside (the solver keeps its
    table from one call to the next, so a second solve counts fewer)."""
    nodes = a.bot == b.bot == "exact" or a.nodes == b.nodes
    return nodes and (a.action, a.bot, a.values, a.visits, a.iterations, a.ranking, a.note,
                      a.search) == (b.action, b.bot, b.values, b.visits, b.iterations,
                                    b.ranking, b.note, b.search)


#: each old keyword of best_move with a value that changes the search
KEYWORDS = [{"trees": 1}, {"trees": 3}, {"threads": 1}, {"c": 1.4}, {"policy": "random"},
            {"prior": "none"}, {"prior": "rules"}, {"equivalence": False},
            {"leaf": "playout"}, {"py_iterations": 30}, {"exact": False},
            {"inference": True, "pool": 32}, {"inference": False},
            {"model": None}, {"trees": 1, "threads": 1, "c": 0.3, "policy": "random"}]


@pytest.mark.parametrize("kw", KEYWORDS, ids=lambda kw: ",".join(kw))
def test_every_old_keyword_gives_the_settings_objects_answer(kw):
    view = _dix().information_state(_dix().current_player()).view
    limit = Limit(iterations=80)
    old = best_move(view, limit, seed=5, **kw)
    new = best_move(view, limit, seed=5, settings=SearchSettings(**kw))
    assert _same(old, new)
    # a keyword beside settings replaces that field
    beside = best_move(view, limit, seed=5, settings=SearchSettings(trees=5), **kw)
    assert _same(beside, best_move(view, limit, seed=5,
                                   settings=SearchSettings(trees=5).replace(**kw)))


def test_pimc_omniscient_kind_and_nodes_keywords_too():
    state = _dix()
    view = state.information_state(state.current_player()).view
    for kw in ({"leaf": False}, {"leaf": "playout", "policy": "random"}):
        assert _same(best_move(view, Limit(worlds=2), bot="pimc", seed=3, **kw),
                     best_move(view, Limit(worlds=2), bot="pimc", seed=3,
                               settings=SearchSettings(**kw)))
    assert _same(best_move(state, Limit(iterations=60), seed=3, omniscient=True, exact=False),
                 best_move(state, Limit(iterations=60), seed=3,
                           settings=SearchSettings(omniscient=True, exact=False)))
    # the model of play the learned prior, play-outs and beliefs read
    model = support_for(state.game).opponent_model(state.game).params()
    kw = {"model": model, "prior": "learned", "policy": "learned", "inference": True}
    assert _same(best_move(view, Limit(iterations=60), seed=3, **kw),
                 best_move(view, Limit(iterations=60), seed=3, settings=SearchSettings(**kw)))
    # nodes is the limit's, not a setting: the same as Limit.nodes
    assert _same(best_move(view, Limit(iterations=60), seed=3, nodes=1000),
                 best_move(view, Limit(iterations=60, nodes=1000), seed=3))
    # the kinds of an exact value: the paranoid solve, the strict max^n
    # searched instead where its solve does not finish, both solved late
    for plays in (20, 32):
        trix = _trix_late(plays=plays)
        for kw in ({"kind": "paranoid"}, {"kind": "maxn", "strict_kind": True}):
            old = best_move(trix, Limit(iterations=60), seed=1, omniscient=True, **kw)
            new = best_move(trix, Limit(iterations=60), seed=1,
                            settings=SearchSettings(omniscient=True, **kw))
            assert _same(old, new)


#: bad settings, the error and the words the keyword call said before
BAD = [({"trees": 0}, LimitError, "trees must be an integer 1..64, got 0"),
       ({"trees": 65}, LimitError, "trees must be an integer 1..64"),
       ({"threads": 0}, LimitError, "threads must be an integer 1..64, got 0"),
       ({"threads": 2.0}, LimitError, "threads must be an integer 1..64"),
       ({"c": -1}, LimitError, "c must be a number in [0, 100], got -1"),
       ({"c": True}, LimitError, "c must be a number in [0, 100]"),
       ({"policy": "neural"}, OptionError, "policy must be one of rules, random, learned"),
       ({"prior": "neural"}, OptionError, "prior must be one of rules, learned, none"),
       ({"leaf": "deep"}, OptionError, "leaf must be one of value, playout, exact"),
       ({"py_iterations": 0}, LimitError, "py_iterations: must be an integer 1..1e9"),
       ({"inference": "yes"}, OptionError, "inference must be true, false or None"),
       ({"pool": 0}, LimitError, "pool must be an integer 1..65536, got 0"),
       ({"kind": "best"}, OptionError, "kind must be 'paranoid' or 'maxn'"),
       ({"exact": "off"}, OptionError, "exact must be true or false"),
       ({"equivalence": 1}, OptionError, "equivalence must be true or false")]


@pytest.mark.parametrize("kw,error,words", BAD, ids=lambda x: str(x))
def test_bad_settings_are_refused_with_the_same_error(kw, error, words):
    state = _dix()
    with pytest.raises(error) as by_keyword:
        best_move(state, Limit(iterations=10), **kw)
    with pytest.raises(error) as by_object:
        SearchSettings(**kw)
    assert words in str(by_keyword.value)
    assert str(by_keyword.value) == str(by_object.value)
    with pytest.raises(error):
        SearchSettings().replace(**kw)


def test_what_depends_on_the_search_or_the_game_is_checked_by_best_move():
    state = _dix()
    # PIMC's play-outs are heuristics, never the learned policy
    learned = SearchSettings(policy="learned")
    with pytest.raises(OptionError, match="pimc: unknown policy 'learned'"):
        best_move(state, Limit(worlds=1), bot="pimc", settings=learned)
    with pytest.raises(OptionError, match="an exact end is PIMC's"):
        best_move(state, Limit(iterations=10), settings=SearchSettings(leaf="exact"))
    with pytest.raises(OptionError, match="best_move: model"):
        best_move(state, Limit(iterations=10), settings=SearchSettings(model=3))
    with pytest.raises(OptionError, match="settings must be a solver.search.SearchSettings"):
        best_move(state, Limit(iterations=10), settings={"trees": 1})
    with pytest.raises(TypeError, match="unexpected keyword argument 'depth'"):
        best_move(state, Limit(iterations=10), depth=3)


def test_the_settings_are_immutable_and_replace_round_trips():
    s = SearchSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.trees = 3
    t = s.replace(trees=3, policy="random", inference=False)
    assert (t.trees, t.policy, t.inference) == (3, "random", False) and s.trees == 2
    assert t.replace(trees=2, policy="rules", inference=None) == s
    assert hash(t) == hash(SearchSettings(trees=3, policy="random", inference=False))
    # the repr is code that makes the same object (python-chess's habit)
    assert eval(repr(t), {"SearchSettings": SearchSettings}) == t
    with pytest.raises(TypeError):
        s.replace(depth=3)


def test_best_move_keeps_its_common_arguments_and_a_settings_object():
    params = inspect.signature(best_move).parameters
    assert list(params) == ["position", "limit", "bot", "seed", "progress", "stop",
                            "settings", "legacy"]
    assert params["settings"].kind is inspect.Parameter.KEYWORD_ONLY


def test_a_search_bot_passes_one_settings_object():
    state = _dix()
    seat = state.current_player()
    bot = make_bot("ismcts:iterations=60,trees=1,c=1.1,equivalence=off,inference=off",
                   state.game, seat, seed=4)
    assert bot.settings == SearchSettings(trees=1, c=1.1, equivalence=False, inference=False)
    res = best_move(state.information_state(seat).view, bot.limit, seed=4,
                    settings=bot.settings)
    assert bot.step(state) == res.action_id
    cheat = make_bot("cheat:search=ismcts,kind=maxn,iterations=50", state.game, seat, seed=1)
    assert (cheat.settings.omniscient, cheat.settings.kind, cheat.settings.strict_kind) == \
        (True, "maxn", True)
    with pytest.raises(LimitError, match="^pimc: pool must be an integer"):
        make_bot("pimc", state.game, seat).__class__(state.game, seat, pool=0)
