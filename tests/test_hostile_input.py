"""Hostile input (issue #19): whatever a caller sends to the places input
enters -- ``solver.loads``, ``solver.from_json``, ``solve``, ``best_move``,
``evaluate``, the command line -- only documented errors come out
(``DixtrixError`` subclasses; one line and status 2 at the command line).
A property test over deep nesting, huge integers, wrong types, bad
encodings and mutated real documents; ``bench/fuzz.py`` runs the same
mutations by the ten thousand."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from solver.errors import DixtrixError
from solver.search import Limit

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

#: real documents of every game to mutate: records and seat views
GAMES = ["dix", "trix", "tricks", "dixie-rook", "dix-exchange"]


def _documents():
    docs = []
    for name in GAMES:
        game = solver.load_game(name)
        state = game.new_initial_state(seed=1)
        rng = random.Random(1)
        for _ in range(12):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        docs.append(solver.to_json(state))
        if not state.is_terminal():
            docs.append(state.information_state(state.current_player()).view)
        # a mid-match record and view: play on into the second deal
        for _ in range(400):
            if state.is_terminal() or state.deal_start()[1] > 0:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            mid = solver.to_json(state, from_deal="current")
            docs.append(mid)
            seat = state.current_player()
            docs.append(solver.from_json(mid).state().information_state(seat).view)
    return docs


DOCS = _documents()

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                      st.text(max_size=20), st.integers(min_value=10**19, max_value=10**60))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


def _nest(value, depth, as_dict):
    for _ in range(depth):
        value = {"k": value} if as_dict else [value]
    return value


@st.composite
def mutated(draw):
    """A real document with one part replaced by something hostile."""
    doc = json.loads(json.dumps(draw(st.sampled_from(DOCS))))
    paths = []

    def walk(v, path):
        paths.append(path)
        if isinstance(v, dict):
            for k in v:
                walk(v[k], path + [k])
        elif isinstance(v, list):
            for i in range(len(v)):
                walk(v[i], path + [i])

    walk(doc, [])
    path = draw(st.sampled_from(paths[1:]))
    hostile = draw(st.one_of(
        json_value,
        st.builds(_nest, json_leaf, st.integers(1, 3000), st.booleans()),
        st.just("?" * 1000), st.just(-1), st.just(10**30)))
    target = doc
    for key in path[:-1]:
        target = target[key]
    if draw(st.booleans()) and isinstance(target, list):
        target.append(hostile)
    else:
        target[path[-1]] = hostile
    return doc


def _typed(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except DixtrixError:
        pass


@SETTINGS
@given(mutated())
def test_from_json_and_loads_raise_only_documented_errors(doc):
    _typed(solver.from_json, doc)
    try:
        text = json.dumps(doc)
    except (ValueError, RecursionError):
        return                                  # not expressible as JSON text
    _typed(solver.loads, text)
    _typed(solver.loads, text.encode("utf-8"))


@SETTINGS
@given(st.binary(max_size=300))
def test_loads_of_any_bytes_raises_only_documented_errors(data):
    _typed(solver.loads, data)


@SETTINGS
@given(st.integers(1, 20_000), st.sampled_from(["[", "{\"a\":"]), st.booleans())
def test_deep_nesting_and_long_numbers_are_position_errors(depth, opener, as_number):
    if as_number:
        text = '{"game": "dix", "seed": ' + "9" * depth + "}"
    else:
        closer = "]" if opener == "[" else "}"
        text = opener * depth + "1" + closer * depth
    _typed(solver.loads, text)


@settings(max_examples=40, deadline=None)
@given(mutated())
def test_the_searches_and_the_solver_raise_only_documented_errors(doc):
    try:
        pos = solver.from_json(doc)
    except DixtrixError:
        return
    _typed(solver.best_move, pos, Limit(iterations=20), bot="ismcts")
    _typed(solver.best_move, pos, Limit(worlds=1), bot="pimc", nodes=2000)
    _typed(solver.evaluate, pos, Limit(worlds=2))
    _typed(solver.solve, pos, max_nodes=5000)


@pytest.mark.parametrize("kwargs", [{"seed": [1]}, {"seed": "1"}, {"progress": 5},
                                    {"stop": 1}, {"bot": None}, {"bot": 7},
                                    {"limit": 5}, {"threads": 0}, {"trees": 0},
                                    {"trees": 65}, {"nodes": -1}])
def test_best_move_checks_its_arguments(kwargs):
    state = solver.load_game("dix").new_initial_state(seed=1)
    kwargs.setdefault("limit", Limit(iterations=10))
    with pytest.raises(DixtrixError):
        solver.best_move(state, **kwargs)


@pytest.mark.parametrize("kwargs", [{"policy": None}, {"policy": "pimc"}, {"seed": 1.5},
                                    {"limit": "fast"}])
def test_evaluate_checks_its_arguments(kwargs):
    state = solver.load_game("dix").new_initial_state(seed=1)
    with pytest.raises(DixtrixError):
        solver.evaluate(state, **kwargs)


def test_a_table_larger_than_the_memory_is_a_limit_error(monkeypatch):
    from solver.dd import trick
    from solver.errors import LimitError
    monkeypatch.setattr(trick, "available_mib", lambda: 1000)
    state = solver.load_game("dix").new_initial_state(seed=1)
    with pytest.raises(LimitError, match="only 1000 MiB"):
        solver.solve(state, tt_mb=16384)


@pytest.mark.parametrize("spec", [None, 1, b"random", "pimc:policy=pimc",
                                  "pimc:time=0.3,policy=ismcts", "ismcts:iterations=0",
                                  "x" * 5000])
def test_make_bot_checks_its_arguments(spec):
    from bots import make_bot
    with pytest.raises(DixtrixError):
        make_bot(spec, solver.load_game("dix"), 0, seed=1)
    with pytest.raises(DixtrixError):
        make_bot("random", solver.load_game("dix"), 0, seed=[1])


@settings(max_examples=30, deadline=None)
@given(st.binary(max_size=200))
def test_the_command_line_answers_any_file_with_one_line(data):
    import os
    import tempfile

    from bots.cli import main
    fd, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        code = main(["hint", path, "--iterations", "20"])
        assert code in (0, 2)
    finally:
        os.unlink(path)


def test_long_digit_strings_in_actions_and_options_are_typed_errors():
    """Found by bench/fuzz.py: int() of a 5,000-digit string raised
    Python's own ValueError from a bid and from a deck option."""
    game = solver.load_game("dixie-rook")
    state = game.new_initial_state(seed=1)
    with pytest.raises(DixtrixError):
        state.string_to_action("bid " + "9" * 5000)
    with pytest.raises(DixtrixError):
        solver.load_game("dix-exchange", deck={"10": "9" * 5000})
    with pytest.raises(DixtrixError):
        solver.load_game("dix-exchange", deck={10 ** 5000: 4})
    with pytest.raises(DixtrixError):
        solver.solve({"game": "dix", "seed": 10 ** 5000})
