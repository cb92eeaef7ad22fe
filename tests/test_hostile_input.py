"""Hostile input (issue #19): whatever a caller sends to the places input
enters -- ``solver.loads``, ``solver.from_json``, ``solve``, ``best_move``,
``evaluate``, the command line -- only documented errors come out
(``DixtrixError`` subclasses; one line and status 2 at the command line).
A property test over deep nesting, huge integers, wrong types, bad
encodings and mutated real documents, and a seeded fuzzer (marked slow:
25 documents an entry point by default, 2,000 with DIXTRIX_FULL_TESTS=1)
whose mutations also drop and duplicate parts and damage the JSON text
as bytes."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import signal
import tempfile
import traceback
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from bots.cli import main as cli_main
from solver.dd.layout import solve_layout
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
    """Found by the fuzzer: int() of a 5,000-digit string raised
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


# ---- the fuzzer: seeded mutations by the thousand ----------------------------
#
# It was a script, removed after commit 33078b3 (`git show
# 33078b3:bench/fuzz.py`), that ran each entry point in a child process so
# that a crash was counted and the rest went on; here a crash stops the test
# run, which is as loud.

#: the options of each game the fuzzer's documents come from
FUZZ_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("dix", {}), ("dix", {"variant": "seventeen"}), ("trix", {}), ("trix", {"partners": True}),
    ("tricks", {}), ("dixie-rook", {}), ("dixie-rook", {"players": 6}),
    ("dix-exchange", {"players": 6})]
#: seconds an entry point may take on one document before it counts as a hang
HANG = 20.0


def _fuzz_corpus(seed: int = 0) -> list[dict]:
    """Records and seat views at several points of random games, mid-match
    forms past the first deal."""
    rng = random.Random(seed)
    docs = []
    for name, options in FUZZ_GAMES:
        game = solver.load_game(name, **options)
        for k in range(4):
            state = game.new_initial_state(seed=seed * 100 + k)
            for _ in range(rng.randrange(0, 80)):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            docs.append(solver.to_json(state))
            if not state.is_terminal():
                docs.append(state.information_state(state.current_player()).view)
                if state.deal_start()[1] > 0:
                    mid = solver.to_json(state, from_deal="current")
                    docs.append(mid)
                    docs.append(solver.position.record_from_json(mid).state().information_state(
                        state.current_player()).view)
    return docs


HOSTILE = [None, True, -1, 0, 10**30, 2**64, -(2**63) - 1, 1.5, "", "?", "ZZ", "AS",
           "?" * 500, [], {}, [None], {"": None}, "\u0000", "\ud7ff" * 3, 1e308]


def _hostile(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.5:
        return copy.deepcopy(rng.choice(HOSTILE))     # never share a mutable value
    if r < 0.7:
        v: Any = copy.deepcopy(rng.choice(HOSTILE))
        for _ in range(rng.randrange(1, 60)):
            v = [v] if rng.random() < 0.5 else {"k": v}
        return v
    if r < 0.8:
        return 10 ** rng.randrange(15, 6000) - 1
    return rng.randrange(-10, 100)


def _paths(doc) -> list[list]:
    out: list[list] = []

    def walk(v, path):
        out.append(path)
        if isinstance(v, dict):
            for k in list(v):
                walk(v[k], path + [k])
        elif isinstance(v, list):
            for i in range(len(v)):
                walk(v[i], path + [i])

    walk(doc, [])
    return out


def mutate_doc(doc: dict, rng: random.Random) -> dict:
    """One to three structural mutations of a copy of ``doc``: a value
    replaced by something hostile, a key or element dropped, an element
    duplicated, a known key added."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randrange(1, 4)):
        paths = _paths(doc)[1:]
        if not paths:
            break
        path = rng.choice(paths)
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = rng.random()
        if op < 0.5:
            parent[key] = _hostile(rng)
        elif op < 0.65:
            del parent[key]
        elif op < 0.8 and isinstance(parent, list):
            parent.insert(key, parent[key] if rng.random() < 0.7 else _hostile(rng))
        elif isinstance(parent, dict):
            parent[rng.choice(["x", "seed", "seat", "deal", "actions", "options",
                               "game"])] = _hostile(rng)
        else:
            parent[key] = _hostile(rng)
    return doc


def mutate_text(doc: dict, rng: random.Random) -> bytes:
    """The JSON text of a (maybe mutated) document, then damaged as bytes:
    cut, a byte flipped, a hostile run spliced in, re-encoded."""
    if rng.random() < 0.5:
        doc = mutate_doc(doc, rng)
    try:
        data = json.dumps(doc).encode("utf-8")
    except (ValueError, RecursionError):
        data = b"{}"
    op = rng.random()
    if op < 0.25 and data:
        data = data[:rng.randrange(len(data))]
    elif op < 0.5 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    elif op < 0.65:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice([b"[" * 3000, b"9" * 5000, b"NaN", b"\xff\xfe",
                                      b'"\\ud800"', b"{" * 50]) + data[i:]
    elif op < 0.75:
        data = data.decode("utf-8", "replace").encode("latin-1", "replace")
    return data


class _Hang(Exception):
    pass


def _feed(entry: str, base: dict, rng: random.Random, path: str) -> None:
    """One mutated document through ``entry``."""
    if entry == "loads":
        solver.loads(mutate_text(base, rng))
    elif entry == "from_json":
        solver.from_json(mutate_doc(base, rng))
    elif entry == "cli":
        with open(path, "wb") as fh:
            fh.write(mutate_text(base, rng))
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()) as err:
            code = cli_main(["hint", path, "--iterations", "30"])
        # the command line: an answer, or one line and status 2
        assert code == 0 or (code == 2 and err.getvalue().count("\n") == 1), \
            (code, err.getvalue()[:200])
    else:
        doc = mutate_doc(base, rng) if rng.random() < 0.8 else base
        if entry == "solve":
            solver.solve(doc, max_nodes=20_000)
        elif entry == "best_move":
            bot = rng.choice(["ismcts", "pimc"])
            solver.best_move(doc, Limit(iterations=30) if bot == "ismcts" else Limit(worlds=1),
                             bot=bot, nodes=5_000)
        else:
            solver.evaluate(doc, Limit(worlds=2))


@pytest.fixture(scope="module")
def fuzz_corpus():
    return _fuzz_corpus(seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["loads", "from_json", "solve", "best_move", "evaluate",
                                   "cli"])
def test_the_fuzzer_finds_no_untyped_error_and_no_hang(entry, fuzz_corpus, sample, tmp_path):
    """Seeded mutated documents (seed 1, document i from generator
    ``10**7 + i``) into each entry point: only a ``DixtrixError`` comes out,
    and no document takes more than ``HANG`` seconds."""
    def alarm(signum, frame):
        raise _Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    path = str(tmp_path / "pos.json")
    found = []
    try:
        for i in range(sample(25, 2000)):
            rng = random.Random(10**7 + i)
            base = fuzz_corpus[rng.randrange(len(fuzz_corpus))]
            signal.setitimer(signal.ITIMER_REAL, HANG)
            try:
                _feed(entry, base, rng, path)
            except DixtrixError:
                pass
            except _Hang:
                found.append(f"#{i}: over {HANG} s")
            except Exception as exc:               # the finding: an untyped error
                tb = traceback.extract_tb(exc.__traceback__)[-1]
                found.append(f"#{i}: {type(exc).__name__}: {str(exc)[:120]} "
                             f"({os.path.basename(tb.filename)}:{tb.lineno})")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not found, "\n".join(found[:10])


# --------------------------------------------------------------------------
# every refusal a person meets is coded (solver/errors.py): a code, its
# parameters as JSON, its English the template's


def _coded(exc: DixtrixError) -> None:
    assert exc.code, f"an error without a code: {exc!r}"
    assert json.loads(json.dumps(exc.data, allow_nan=False)) == exc.data, exc
    # the English is the phrase's template filled in, the path before it
    assert exc.words() == str(exc), exc
    assert exc.said is not None and exc.said.code == exc.code


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_every_refusal_of_a_bad_position_carries_a_code(doc):
    """The fuzzer's documents (a real record or view with one part made
    hostile), drawn from a fixed seed: whatever ``from_json`` refuses, it
    refuses with a code and its data."""
    try:
        solver.from_json(doc)
    except DixtrixError as exc:
        _coded(exc)


def _illegal_move(name: str) -> None:
    """The first action of the game's action space that the first state
    refuses, played."""
    state = solver.load_game(name).new_initial_state(seed=1)
    legal = state.legal_actions()
    state.apply_action(next(a for a in range(state.game.num_distinct_actions)
                            if a not in legal))


#: bad inputs of the other entry points a person meets first: a game and its
#: options, an action's notation, an illegal move, a limit, a bot's settings string
BAD_CALLS = [
    lambda: solver.load_game("bridge"),
    lambda: solver.load_game("dix", bogus=1),
    lambda: solver.load_game("dix", target="x"),
    lambda: solver.load_game("dix", variant="twelve"),
    lambda: solver.load_game("dix-exchange", deck="9:x"),
    lambda: solver.load_game("dixie-rook", players=5),
    lambda: solver.loads(b"{\"game\": \"dix\", \"seed\": 1,"),
    lambda: solver.loads(b"\xff"),
    lambda: Limit(time=-1),
    lambda: Limit(iterations=0),
    lambda: Limit.from_mapping({"time": "x"}),
    lambda: Limit.from_mapping({"speed": 1}),
    lambda: Limit.from_words(["time"]),
    lambda: solver.SearchSettings(c=-1),
    lambda: solver.SearchSettings(policy="x"),
    lambda: solver.SearchSettings(trees=0),
    lambda: solver.best_move(solver.load_game("dix").new_initial_state(seed=1), bot="nobot"),
    lambda: solver.best_move(solver.load_game("dix").new_initial_state(seed=1), stop=1),  # type: ignore[arg-type]
] + [lambda name=name, text=text: solver.load_game(name).new_initial_state(seed=1)
     .string_to_action(text)
     for name in GAMES for text in ("ZZ", "bid 1000", "block X", "contract nope", "", 7)] + [
    lambda name=name: _illegal_move(name) for name in GAMES] + [
    lambda spec=spec: __import__("bots").make_bot(spec, solver.load_game("dix"), 0, seed=1)
    for spec in (None, 1, "pimc:policy=pimc", "pimc:time=0.3,policy=ismcts",
                 "ismcts:iterations=0", "ismcts:bogus=1", "ismcts:seed=3", "nobot",
                 "easy:time=1", "x" * 5000)]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_every_refusal_of_a_bad_argument_carries_a_code(call):
    with pytest.raises(DixtrixError) as err:
        call()
    _coded(err.value)


def _dix_view():
    state = solver.load_game("dix").new_initial_state(seed=1)
    return solver.position.SeatView.of(state, 0)


def _dix_end():
    """A dix state past its stock (the double-dummy solver's positions)."""
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.stock_pos < len(state.stock):
        state.apply_action(state.legal_actions()[0])
    return state


#: bad inputs of the solver's own entry points (the double-dummy solvers and
#: their positions, the layout solver, the models and values a search reads,
#: a state's view of a seat): each refusal is coded, its parameters data
SOLVER_CALLS = [
    lambda: solver.dd.Contract("x", 3, (0, 1, 2)),
    lambda: solver.dd.Contract("x", 4, (0, 1, 0, 1), most_tricks_bonus=3),
    lambda: solver.dd.Contract("x", 4, (0, 1, 0, 1), objective="best"),
    lambda: solver.dd.TrickPosition(solver.dd.bridge_contract(-1), (1, 2, 4), 0),
    lambda: solver.dd.TrickPosition(solver.dd.bridge_contract(-1), (1, 2, 4, 8), 7),
    lambda: solver.dd.TrickPosition(solver.dd.bridge_contract(-1), (4, 8, 16, 1 << 70), 0),
    lambda: solver.dd.TrickPosition(solver.dd.bridge_contract(-1), (4, 4, 8, 16), 0),
    lambda: solver.dd.solve_position(42),  # type: ignore[arg-type]
    lambda: solver.solve(42),
    lambda: solver.solve(_dix_view()),
    lambda: solver.solve(solver.load_game("dix").new_initial_state(seed=1)),
    lambda: solver.solve(_dix_end(), kind="best"),
    lambda: solver.solve(_dix_end(), max_nodes=0),
    lambda: solver.solve(_dix_end(), max_nodes=1),
    lambda: solver.dd.contract_table(solver.load_game("dix").new_initial_state(seed=1)),
    lambda: solve_layout([[], [], []], {}, 0),
    lambda: solve_layout([[99], [], [], []], {}, 0),
    lambda: solve_layout([[], [], [], []], {0: (12, 14)}, 0),
    lambda: solve_layout([[], [], [], []], {}, 5),
    lambda: solver.load_game("dix").new_initial_state(seed=1).information_state(2),
    lambda: solver.load_game("trix").new_initial_state(seed=1).information_state(-1),
    lambda: __import__("solver.search.heuristics").search.heuristics.make_policy(
        "deep", solver.load_game("dix"), 0),
    lambda: __import__("solver.search.learned").search.learned.check_model(
        solver.load_game("dix"), os.path.join(tempfile.gettempdir(), "no-such-model.json")),
    lambda: __import__("solver.search.learned").search.learned.check_model(
        solver.load_game("dix"), {"kinds": {"nokind": {}}}),
    lambda: __import__("solver.search.value").search.value.check_leaf(
        "value", "pimc", solver.load_game("dix")),
    lambda: __import__("solver.search.value").search.value.check_leaf(
        "deep", "ismcts", solver.load_game("dix")),
    lambda: __import__("solver.search.value").search.value.check_value([1, 2], ("a",)),
    lambda: __import__("solver.search.value").search.value.check_value(
        {"features": ["a"], "weights": [[1.0]] * 99}, ("a",)),
    lambda: solver.to_json(solver.load_game("dix").new_initial_state(seed=1), from_deal="first"),
    lambda: solver.loads(b'{"game": "dix", "seed": NaN}'),
]


@pytest.mark.parametrize("call", SOLVER_CALLS)
def test_every_refusal_of_the_solvers_entry_points_carries_a_code(call):
    with pytest.raises(DixtrixError) as err:
        call()
    _coded(err.value)
