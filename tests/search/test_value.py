"""The learned value at the leaf (solver/search/value.py, ``leaf=value``):
the kernel's features equal their Python twin and its forward pass the
numpy twin on random positions, the play-outs it ends give estimates in the
reward range, a fit reproduces from its seed and explains part of the
play-outs' spread on held-out deals, the search says which leaf it used,
and bad settings and files get the project's errors."""

import json

import pytest

import solver
from bots.registry import make_bot
from solver.errors import OptionError
from solver.games.dix.kernel import DIX_VALUE_FEATURES, dix_value_features
from solver.position import from_json
from solver.search import Limit, best_move
from solver.search.native import native_search
from solver.search.value import (
    check_leaf,
    check_value,
    fit,
    held_out,
    kernel_value,
    make_value,
    predict,
    samples,
    shipped_value,
)
from tests.search.test_equivalence import _endings

native = pytest.importorskip("solver.search._ismcts")
np = pytest.importorskip("numpy")

DIX_OPTIONS = [{}, {"variant": "seventeen"}]


def _search_of(state):
    view = from_json(state.information_state(state.current_player()).view)
    sampler = view.sampler()
    return native_search(state.game, sampler), sampler.base


@pytest.mark.parametrize("options", DIX_OPTIONS, ids=["dix", "seventeen"])
def test_the_kernels_features_and_value_equal_the_twins(options):
    game = solver.load_game("dix", **options)
    doc = shipped_value(game)
    assert doc is not None
    checked = 0
    for left in (16, 12, 8, 5):
        for state in _endings("dix", options, left, 8, seed=11):
            search, base = _search_of(state)
            # the search's own world (its stock as the sampler drew it), so
            # both sides read the same cards
            hands = list(base.hands)
            for seat in (0, 1):
                want = dix_value_features(base, seat)
                got = search.value_point(hands, seat)
                if want is None:
                    assert got[0] == -1
                    continue
                assert got[0] == want[0]
                assert got[1] == pytest.approx(want[1], abs=1e-12)
                assert got[2] == pytest.approx(want[2], abs=1e-12)
            want = dix_value_features(base, 0)
            assert search.value_at(hands) is None      # no value loaded yet
            assert search.set_value(kernel_value(doc))
            est = search.value_at(hands)
            if want is None or state.game.tricks_per_round - base.tricks_done <= doc["floor"]:
                assert est is None
                continue
            phase, f, partial = want
            twin = max(-1.0, min(1.0, partial[0] + predict(doc, phase, f)))
            assert est == pytest.approx([twin, -twin], abs=1e-12)
            checked += 1
    assert checked >= 10


def test_the_features_are_not_all_zero_and_the_lead_flips():
    base = next(b for b in (_search_of(s)[1] for s in _endings("dix", {}, 16, 6, seed=5))
                if not b.trick)
    _, f0, _ = dix_value_features(base, 0)
    _, f1, _ = dix_value_features(base, 1)
    assert any(x != 0 for x in f0[:27])
    assert f0 == pytest.approx([-x for x in f1])    # what one seat has, the other lacks


def test_a_fit_reproduces_and_explains_part_of_the_spread():
    game = solver.load_game("dix")
    x, ph, y, d = samples(game, 6, 20, seed=3)
    x2, ph2, y2, _ = samples(game, 6, 20, seed=3)
    assert (x == x2).all() and (ph == ph2).all() and (y == y2).all()
    assert x.shape == (len(y), len(DIX_VALUE_FEATURES)) and set(ph) <= {0, 1, 2, 3}
    a = make_value(game, deals=40, playouts=20, seed=1, source="playout")
    b = make_value(game, deals=40, playouts=20, seed=1, source="playout")
    assert a == b
    check_value(a, DIX_VALUE_FEATURES)
    # the held-out deals: the value explains part of the play-outs' spread
    assert all(h["rows"] > 0 and h["mse"] < h["variance"] for h in a["meta"]["held_out"])
    # from the rules player's play: the same from the same seed
    r = make_value(game, deals=6, playouts=1, seed=2)
    assert r == make_value(game, deals=6, playouts=1, seed=2)
    assert r["meta"]["source"] == "rules" and r["meta"]["rows"] > 6 * 10
    check_value(r, DIX_VALUE_FEATURES)
    w = fit(x, ph, y)
    assert len(w) == 4 and all(len(r) == len(DIX_VALUE_FEATURES) for r in w)
    assert held_out(w, x, ph, y)[0]["r2"] > 0


def test_the_search_says_which_leaf_it_used_and_reproduces():
    state = _endings("dix", {}, 20, 1, seed=7)[0]
    a = best_move(state, Limit(iterations=2000), seed=1, exact=False, leaf="value")
    assert a.search["leaf"] == "value"
    b = best_move(state, Limit(iterations=2000), seed=1, exact=False, leaf="value")
    assert (a.action, a.values) == (b.action, b.values)
    c = best_move(state, Limit(iterations=2000), seed=1, exact=False, leaf="playout")
    assert c.search["leaf"] == "playout"
    assert c.values != a.values
    # a decision whose kernel has no value plays out and says so
    trix = _endings("trix", {}, 12, 1, seed=7)[0]
    t = best_move(trix, Limit(iterations=500), seed=1, exact=False, leaf="value")
    assert t.search["leaf"] == "playout"


def test_bad_leaves_and_value_files_are_refused(tmp_path):
    game = solver.load_game("dix")
    assert check_leaf(None, "pimc", game) == "exact"
    assert check_leaf(False, "pimc", game) == "playout"
    assert check_leaf(None, "ismcts", game) in ("value", "playout")
    for leaf, bot, words in (("deep", "ismcts", "leaf must be one of"),
                             ("value", "pimc", "the learned value is ISMCTS's"),
                             ("exact", "ismcts", "an exact end is PIMC's")):
        with pytest.raises(OptionError, match=words):
            check_leaf(leaf, bot, game)
    with pytest.raises(OptionError, match="leaf"):
        make_bot("ismcts:leaf=deep", game, 0)
    with pytest.raises(OptionError, match="leaf must be one of value, playout"):
        make_bot("ismcts:leaf=exact", game, 0)
    with pytest.raises(OptionError, match="leaf must be one of exact, playout"):
        make_bot("pimc:leaf=value", game, 0)
    assert make_bot("pimc:leaf=0", game, 0).options["leaf"] == "playout"
    assert make_bot("pimc:leaf=1", game, 0).options["leaf"] == "exact"
    assert make_bot("ismcts:leaf=1", game, 0).options["leaf"] is None     # the game's
    doc = dict(shipped_value(game))
    bad = tmp_path / "v.json"
    for change, words in (({"weights": [[0.0]] * 4}, "finite weights"),
                          ({"features": ["x"]}, "features are not"),
                          ({"cut": -1}, "number of tricks"),
                          ({"weights": [[float("nan")] * 30] * 4}, "finite weights")):
        with pytest.raises(OptionError, match=words):
            check_value(dict(doc, **change), DIX_VALUE_FEATURES)
    bad.write_text("{")
    with pytest.raises(OptionError, match="not JSON"):
        check_value(str(bad), DIX_VALUE_FEATURES)
    with pytest.raises(OptionError, match="cannot read"):
        check_value(str(tmp_path / "none.json"), DIX_VALUE_FEATURES)
    with pytest.raises(OptionError, match="trix has no leaf value"):
        make_value(solver.load_game("trix"), deals=1, playouts=1, seed=1)
    assert shipped_value(solver.load_game("trix")) is None
    assert json.loads(json.dumps(doc)) == doc


def test_the_fit_command_writes_a_value_the_search_reads(tmp_path, capsys):
    from bots.cli import main  # the command line, only for this test
    out = tmp_path / "v.json"
    assert main(["model", "value", "dix", "--deals", "5", "--seed", "4", "--out",
                 str(out)]) == 0
    doc = json.loads(out.read_text())
    check_value(doc, DIX_VALUE_FEATURES)
    assert doc["meta"]["command"].startswith("dixtrix model value") and doc["meta"]["seed"] == 4
    assert "phase 3:" in capsys.readouterr().out
    assert main(["model", "value", "dix", "--deals", "0"]) == 2
    assert "--deals must be at least 1" in capsys.readouterr().err
    assert main(["model", "value", "trix", "--deals", "2", "--out", str(out)]) == 2
    assert "trix has no leaf value" in capsys.readouterr().err
