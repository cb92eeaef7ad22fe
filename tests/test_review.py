"""Game review (bots/review.py, ``dixtrix review``, ``dixtrix solve --at``):
the random seat shows the largest loss, an exact player shows no exact
loss where its view determines the deal, records cut anywhere, finished
matches, bad and empty records, reproducibility, the report and its
picture, and solve's best actions, JSON and line agreeing."""

from __future__ import annotations

import json
import math
import re
import shlex
import threading
from pathlib import Path

import pytest

import solver
from bots import review as reviews
from bots.cli import main
from bots.exact import exact, solve_doc
from bots.registry import make_bot
from solver.search import Limit

README = Path(__file__).resolve().parent.parent / "README.md"


def played(name: str, specs, seed: int, deals: int | None = None, actions: int | None = None,
           **options):
    """A game played by ``specs`` (one bot settings string a seat) until
    ``deals`` deals are over, ``actions`` actions are played or the game ends."""
    game = solver.load_game(name, **options)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, game, s, seed=seed * 10 + s) for s, spec in enumerate(specs)]
    while not state.is_terminal():
        if deals is not None and state.round_index() >= deals:
            break
        if actions is not None and len(state.history()) >= actions:
            break
        state.apply_action(bots[state.current_player()].step(state))
    return state


# ---- the random seat loses the most ------------------------------------------

#: game -> (deals reviewed, seeds, ISMCTS iterations a decision, iterations of a
#: decision searched in Python, whether the random seat owns the first kingdom)
SEPARATION = {
    "dix": (1, (0, 1, 2), 1000, 100, False),
    "trix": (5, (0, 1), 1000, 100, True),
    "tricks": (5, (0, 1), 1000, 100, True),
    "dixie-rook": (2, (0, 1), 10_000, 100, False),
    "dix-exchange": (4, (0, 1), 3000, 300, False),
}


@pytest.mark.parametrize("name", sorted(SEPARATION))
def test_the_random_seat_loses_more_than_every_other_seat(name):
    """One seat plays ``random``, the others ``rules``; the review's total
    expected loss of the random seat is larger than every other seat's.

    A trix or tricks deal alone can give the random seat a hand where
    nothing can go wrong while the rules players' calls and doubling
    differ from the search's by tens of points, so those two games are
    reviewed over the first kingdom (the dealer's set), the five deals
    whose contracts the random seat calls; Rook over two hands, DIX over
    four rounds (docs/review.md gives the rates measured over more seeds)."""
    deals, seeds, iterations, py, owner = SEPARATION[name]
    game = solver.load_game(name)
    kinds = set()
    for seed in seeds:
        first = game.new_initial_state(seed=seed)
        bad = first.current_player() if owner else seed % game.num_players
        specs = ["random" if s == bad else "rules" for s in range(game.num_players)]
        state = played(name, specs, seed, deals=deals)
        doc = reviews.review(solver.to_json(state), limit=Limit(iterations=iterations),
                             py_iterations=py, hindsight=False)
        loss = {s["seat"]: s["loss"] for s in doc["summary"]}
        assert all(loss[bad] > loss[s] for s in loss if s != bad), (seed, bad, loss)
        kinds |= {e["kind"] for e in doc["decisions"]}
        # the summary adds up the decisions
        for s in doc["summary"]:
            mine = [e for e in doc["decisions"] if e["seat"] == s["seat"]]
            assert s["decisions"] == len(mine)
            assert s["loss"] == pytest.approx(sum(e["loss"] or 0.0 for e in mine))
            assert sum(s["mistakes"].values()) == sum(1 for e in mine if e["size"])
    # non-card decisions are judged too
    expected = {"dix": {"card"}, "trix": {"card", "contract", "reveal"},
                "tricks": {"card", "contract"},
                "dixie-rook": {"card", "bid/pass", "discard", "trump"},
                "dix-exchange": {"ask/keep"}}[name]
    assert expected <= kinds, kinds


# ---- exact play shows no exact loss ------------------------------------------


def test_an_exact_player_shows_zero_exact_loss_where_its_view_determines_the_deal():
    # seat 0 plays through the decision service (from trick 14 of a dix round
    # its view determines the deal: the exact solver decides); seat 1 random
    random_losses = []
    for seed in (5, 6):
        # prior=rules: the rounds this test was written on (under dix's learned
        # prior seed 6 reaches the position of the test below)
        state = played("dix", ["ismcts:iterations=300,prior=rules", "random"], seed=seed,
                       deals=1)
        doc = reviews.review(solver.to_json(state), limit=Limit(iterations=300))
        exact_ones = [e for e in doc["decisions"] if e["method"] == "exact"]
        mine = [e for e in exact_ones if e["seat"] == 0]
        assert len(mine) >= 5
        for e in mine:
            assert e["exact_loss"] == 0 and e["loss"] == 0
            assert e["played"] in e["exact_best_actions"]
        # the hindsight values are those the service advised from there
        for e in exact_ones:
            assert e["exact_best"] == e["value_best"]
            assert e["exact_loss"] == pytest.approx(e["loss"])
        random_losses += [e["exact_loss"] for e in exact_ones if e["seat"] == 1]
    # positive control: the random seat does lose exactly somewhere
    assert max(random_losses) > 0


def test_every_exact_decision_has_its_exact_loss():
    # seat 0's position at trick 14 takes 2,072,342 nodes for a fresh
    # solver, past the hindsight's bound (DEFAULT_NODES); the decision
    # service solved it from the seat's view, which determines the deal, and
    # that answer is the hindsight's where two sides play
    state = played("dix", ["ismcts:iterations=300,prior=learned", "random"], seed=6, deals=1)
    doc = reviews.review(solver.to_json(state), limit=Limit(iterations=300))
    mine = [e for e in doc["decisions"] if e["method"] == "exact" and e["seat"] == 0]
    assert mine and all(e["exact_loss"] is not None for e in mine)
    # where both answered, they agree: the same values, the same units
    both = [e for e in mine if e["exact_played"] is not None]
    assert all(e["exact_played"] == pytest.approx(e["value_played"]) for e in both)


def test_hindsight_values_are_the_solvers_and_give_up_past_the_bound():
    state = played("trix", ["rules"] * 4, seed=3, deals=3)
    doc = reviews.review(solver.to_json(state), deal=3, limit=Limit(iterations=100),
                         nodes=200_000)
    rec = solver.from_json(solver.to_json(state))
    replay = rec.game.new_initial_state(seed=rec.seed, deal=rec.deal)
    checked = 0
    by_index = {e["index"]: e for e in doc["decisions"]}
    for i, text in enumerate(rec.actions):
        e = by_index.get(i)
        if e is not None and e["exact_loss"] is not None:
            ex = exact(replay, e["seat"], 200_000, kind=reviews.HINDSIGHT_KIND)
            assert e["exact_played"] == ex.values[e["played"]]
            assert e["exact_best"] == max(ex.values.values())
            assert e["exact_best_actions"] == list(ex.best)
            checked += 1
        replay.apply_action(replay.string_to_action(text))
    assert checked >= 10
    # the first tricks of a trix deal pass 200,000 nodes: no value there
    cards = [e for e in doc["decisions"] if e["kind"] == "card"]
    assert cards[0]["exact_loss"] is None
    # the exact value after the deal is its result
    deal = doc["deals"][0]
    assert deal["complete"] and deal["points"][-1]["label"] == "end"
    assert deal["points"][-1]["exact"] == deal["result"]
    assert deal["result"] == [float(v) for v in state.round_returns(2)]


def _hindsight_task(state, deal: int, nodes: int) -> dict:
    p = reviews.plan(solver.to_json(state), deal=deal)
    d = next(d for d in p.deals if d.deal == deal)
    return {"record": d.record, "actions": d.actions, "nodes": nodes,
            "wanted": {str(k): sorted(v) for k, v in d.wanted.items()}}


def test_hindsight_keeps_one_table_across_the_deals_positions():
    """A deal's positions are solved on one Solver whose tables outlive
    each solve: every value is the value of a solve on an empty table, and
    the deal costs fewer nodes than those fresh solves (the table acts: an
    earlier position's search finds what the later positions proved)."""
    from solver.dd import Solver
    state = played("trix", ["rules"] * 4, seed=3, deals=3)
    task = _hindsight_task(state, 3, 20_000_000)
    # the paranoid table's reuse: the max^n searches of the last seven tricks
    # share little across positions (4.32 M nodes kept against 4.44 M fresh)
    task["kind"] = "paranoid"
    # the last eight tricks (32 cards): every solve finishes, fresh or not
    end = len(task["actions"])
    task["wanted"] = {k: v for k, v in task["wanted"].items() if int(k) >= end - 32}
    kept = reviews._hindsight(task)
    assert not kept["gave_up"] and len(kept["solved"]) >= 20
    rec = solver.from_json(task["record"])
    start = rec.state()
    fresh_nodes = 0
    for item in kept["solved"]:
        st = start.clone()
        for text in task["actions"][:item["offset"]]:
            st.apply_action(st.string_to_action(text))
        ex = exact(st, item["seat"], solver=Solver(), kind="paranoid")  # an empty table
        assert item["values"] == ex.values and item["value"] == ex.value
        assert item["best"] == list(ex.best)
        fresh_nodes += ex.nodes
    kept_nodes = sum(item["nodes"] for item in kept["solved"])
    assert kept_nodes < 0.9 * fresh_nodes, (kept_nodes, fresh_nodes)
    # the same task again (on the same borrowed solver, its table full of
    # this deal): the same answer, node counts too (a table started afresh
    # for each deal, whatever ran before)
    assert reviews._hindsight(task) == kept


# ---- records of every shape --------------------------------------------------


def test_a_record_cut_part_way_through_a_deal():
    state = played("dix", ["rules", "rules"], seed=2, actions=40)
    doc = reviews.review(solver.to_json(state), limit=Limit(iterations=100))
    assert doc["actions"] == 40 and len(doc["deals"]) == 1
    deal = doc["deals"][0]
    assert not deal["complete"] and deal["result"] is None
    assert deal["points"][-1]["label"] == "now" and deal["points"][-1]["before"] == 40
    # after trick 20 (40 actions) every card is known: exact values at the cut
    assert all(v is not None for v in deal["points"][-1]["exact"])
    assert max(e["index"] for e in doc["decisions"]) < 40
    # the trick numbers of the points follow the tricks played
    labels = [p["label"] for p in deal["points"]]
    assert labels[:3] == ["start", "trick 1", "trick 2"] and labels[-2:] == ["trick 19", "now"]


def test_a_finished_match_reviews_every_deal():
    state = played("dix", ["rules", "random"], seed=1, variant="seventeen", target=15)
    assert state.is_terminal()
    record = solver.to_json(state)
    doc = reviews.review(record, limit=Limit(iterations=100), nodes=100_000)
    assert len(doc["deals"]) == 3 and all(d["complete"] for d in doc["deals"])
    for k, d in enumerate(doc["deals"]):
        assert d["deal"] == k + 1
        assert d["result"] == [float(v) for v in state.round_returns(k)]
    assert {e["deal"] for e in doc["decisions"]} == {d["deal"] for d in doc["deals"]}
    # the seventeen variant is solved from the first card: hindsight everywhere
    assert sum(e["exact_loss"] is not None for e in doc["decisions"]) > len(doc["decisions"]) // 2
    # one deal of it, one seat of it
    two = reviews.review(record, deal=2, seat=1, limit=Limit(iterations=100), hindsight=False)
    assert {e["deal"] for e in two["decisions"]} == {2}
    assert {e["seat"] for e in two["decisions"]} == {1} and two["seats"] == [1]


def test_a_record_with_an_illegal_action_names_its_index(tmp_path, capsys):
    state = played("trix", ["rules"] * 4, seed=1, actions=12)
    record = solver.to_json(state)
    record["actions"][7] = record["actions"][6]        # a card already played
    with pytest.raises(solver.PositionError) as err:
        reviews.review(record, limit=Limit(iterations=50))
    assert err.value.path == "actions[7]" and "actions[7]" in str(err.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--iterations", "50"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "actions[7]" in out.err and out.err.count("\n") == 1


def test_an_empty_record_has_nothing_to_review(tmp_path, capsys):
    empty = {"game": "dix", "seed": 4, "actions": []}
    doc = reviews.review(empty, limit=Limit(iterations=50))
    assert doc["decisions"] == [] and doc["deals"] == []
    assert [s["decisions"] for s in doc["summary"]] == [0, 0]
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(empty))
    assert main(["review", str(path)]) == 0
    assert "nothing to review" in capsys.readouterr().out
    assert main(["review", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"] == []
    assert main(["review", str(path), "--deal", "1"]) == 2
    assert "holds no action" in capsys.readouterr().err
    (tmp_path / "nothing.json").write_text("")
    assert main(["review", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json" in capsys.readouterr().err


def test_bad_arguments_are_named(tmp_path, capsys):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(solver.to_json(played("dix", ["rules"] * 2, 1, actions=6))))
    for argv, text in ((["--deal", "2"], "deal: the record holds deals 1..1"),
                       (["--deal", "0"], "deal: a deal number"),
                       (["--seat", "2"], "seat: dix has seats 0..1"),
                       (["--time", "-1"], "Limit.time"),
                       (["--jobs", "0"], "jobs"),
                       (["--plot", str(tmp_path / "x.jpg")], ".png or .svg")):
        assert main(["review", str(path), "--iterations", "20"] + argv) == 2, argv
        assert text in capsys.readouterr().err, argv


# ---- determinism, processes, stop --------------------------------------------


def _without_time(doc):
    return {k: v for k, v in doc.items() if k != "time"}


def test_a_review_is_reproducible_and_the_same_over_processes():
    record = solver.to_json(played("tricks", ["rules"] * 4, seed=6, actions=30))
    one = reviews.review(record, limit=Limit(iterations=200), nodes=50_000)
    assert _without_time(one) == _without_time(
        reviews.review(record, limit=Limit(iterations=200), nodes=50_000))
    two = reviews.review(record, limit=Limit(iterations=200), nodes=50_000, jobs=2)
    assert _without_time(two) == _without_time(one)
    # each decision has its own seed: another review seed, other searches
    assert {e["seed"] for e in one["decisions"]} == {
        reviews.decision_seed(0, e["index"]) for e in one["decisions"]}


def test_stop_ends_a_review_with_the_decisions_done():
    record = solver.to_json(played("dix", ["rules"] * 2, seed=3, deals=1))
    stop = threading.Event()
    seen = []

    def progress(info):
        seen.append(info)
        if info["done"] == 3:
            stop.set()
    doc = reviews.review(record, limit=Limit(iterations=100), progress=progress, stop=stop)
    assert doc["stopped"] and len(doc["decisions"]) == 3
    assert seen[0]["total"] > 3 and seen[-1]["done"] == 3


def test_a_seat_view_reviews_its_own_decisions_without_hindsight():
    state = played("trix", ["rules"] * 4, seed=2, deals=1)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    view = state.information_state(2).view
    doc = reviews.review(view, deal=1, limit=Limit(iterations=100))
    assert doc["seats"] == [2] and not doc["hindsight"]
    assert doc["decisions"] and {e["seat"] for e in doc["decisions"]} == {2}
    assert all(e["exact_loss"] is None for e in doc["decisions"])
    # the same decisions, judged the same, as in the review of the record
    full = reviews.review(solver.to_json(state), deal=1, seat=2, limit=Limit(iterations=100),
                          hindsight=False)
    assert [(e["index"], e["played"], e["best"], e["loss"]) for e in doc["decisions"]] == \
        [(e["index"], e["played"], e["best"], e["loss"]) for e in full["decisions"]]
    # "last": the last deal in which the record plays an action
    assert [d["deal"] for d in reviews.review(view, deal="last", limit=Limit(
        iterations=50))["deals"]] == [2]
    with pytest.raises(solver.OptionError, match="seat 2's view"):
        reviews.review(view, seat=1, limit=Limit(iterations=50))


# ---- the report --------------------------------------------------------------


def test_the_text_report_json_and_picture(tmp_path):
    pytest.importorskip("matplotlib")
    state = played("trix", ["rules", "rules", "random", "rules"], seed=4, deals=2)
    # the calls and doubling are searched in Python: few iterations there
    doc = reviews.review(solver.to_json(state), deal=2, limit=Limit(iterations=300),
                         py_iterations=30, nodes=300_000)
    doc = json.loads(json.dumps(doc))           # JSON as it is printed
    png, svg = tmp_path / "deal.png", tmp_path / "deal.svg"
    assert reviews.plot(doc, str(png)) == str(png) and reviews.plot(doc, str(svg))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:2000]
    for e in doc["decisions"]:
        for key in ("index", "seat", "played", "best", "loss", "loss_ci95", "exact_loss",
                    "equal"):
            assert key in e
        assert e["best"] == e["equal"][0]
        if e["loss"] is not None and e["loss"] > 0:
            assert e["played"] not in e["equal"]
            assert e["loss"] == pytest.approx(e["value_best"] - e["value_played"])
        if e["played"] in e["equal"]:
            assert e["loss"] == 0
    assert len(doc["summary"]) == 4 and doc["thresholds"]["blunder"] == 25
    for s in doc["summary"]:
        assert len(s["biggest"]) <= reviews.TOP
        losses = [b["loss"] for b in s["biggest"]]
        assert losses == sorted(losses, reverse=True) and all(v > 0 for v in losses)
        for b in s["biggest"]:
            assert b["position"] and b["played"] != b["best"]
    assert any(e["exact_loss"] is not None for e in doc["decisions"])
    # the text: the summary first, the thresholds in points, the biggest
    # mistakes with the position, the deal's values, every decision
    out = reviews.render_text(doc, "trix.json")
    assert out.startswith("Review of trix, trix.json.")
    assert "blunder >= 25" in out and "mistake >= 12.5" in out and "inaccuracy >= 5" in out
    assert out.index("Summary") < out.index("biggest mistakes") < out.index("Deal 2 (actions") \
        < out.index("Decisions")
    worst = max((b for s in doc["summary"] for b in s["biggest"]), key=lambda b: b["loss"])
    assert f"played {worst['played']}, better {worst['best']}" in out
    assert worst["position"][0] in out
    assert len([line for line in out.splitlines() if re.match(r"\d+ +\d ", line)]) == \
        len(doc["decisions"])


def test_the_thresholds_are_stated_in_each_games_points():
    assert reviews.thresholds(solver.load_game("trix")) == {
        "blunder": 25.0, "mistake": 12.5, "inaccuracy": 5.0}
    for name in solver.registered_games():
        t = reviews.thresholds(solver.load_game(name))
        assert t["blunder"] > t["mistake"] > t["inaccuracy"] > 0
    limits = reviews.thresholds(solver.load_game("trix"))
    assert reviews.size_of(25, limits) == "blunder" and reviews.size_of(24.9, limits) == "mistake"
    assert reviews.size_of(4.99, limits) is None and reviews.size_of(None, limits) is None


# ---- solve --at, and solve's best, JSON and line agreeing --------------------


def test_solve_at_n_the_case_of_the_issue(tmp_path, capsys):
    # the issue: a dix record cut at 28 actions printed "value +2" and "TC +2"
    # without "best", left TC out of best_actions and began its line with TC
    record = tmp_path / "game.json"
    assert main(["play", "dix", "--seed", "7", "--option", "target=10", "--quiet",
                 "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["solve", str(record), "--at", "28", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["at"] == 28 and doc["value"] == 2 and doc["action_values"]["TC"] == 2
    assert "TC" in doc["best_actions"]
    assert doc["best_actions"] == [a for a, v in doc["action_values"].items()
                                   if v == doc["value"]]
    assert doc["line"][0]["action"] in doc["best_actions"]
    # the solver's own objective still tells TC apart (a worse ten-trick tie-break)
    assert doc["solver_value"] == 2 and doc["round_winners"]["TC"] == doc["seat"]
    assert main(["solve", str(record), "--at", "28"]) == 0
    text = capsys.readouterr().out
    marked = [line.split()[0] for line in text.splitlines()
              if line.startswith("  ") and " best" in line]
    assert sorted(marked) == sorted(doc["best_actions"])
    first = re.search(r"line: seat \d (\S+),", text).group(1)
    assert first == doc["line"][0]["action"]
    # a finished record without --at says how to ask, --at past the end is named
    assert main(["solve", str(record)]) == 2
    assert "--at N" in capsys.readouterr().err
    assert main(["solve", str(record), "--at", "999"]) == 2
    assert "--at" in capsys.readouterr().err


@pytest.mark.parametrize("name,options,at", [
    ("dix", {}, 30), ("dix", {"variant": "seventeen"}, 10), ("trix", {}, 40),
    ("tricks", {}, 40), ("dixie-rook", {}, 40), ("dix-exchange", {}, 2)])
def test_solve_best_actions_and_line_agree(name, options, at):
    state = played(name, ["rules"] * solver.load_game(name, **options).num_players, seed=3,
                   actions=at, **options)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    try:
        doc = solve_doc(state, plies=6, max_nodes=3_000_000)
    except solver.UnsupportedPositionError:
        pytest.skip(f"{name}: no solver takes this position")
    top = max(doc["action_values"].values())
    # listed best first; ties in the game's order, as best_actions
    assert doc["best_actions"] == [a for a, v in doc["action_values"].items() if v == top]
    assert doc["value"] == top
    assert doc["line"][0]["action"] == doc["best_actions"][0]
    assert list(doc["action_values"].values()) == sorted(doc["action_values"].values(),
                                                         reverse=True)


# ---- the README's commands ---------------------------------------------------


def test_the_readme_review_commands_work_in_order(tmp_path, monkeypatch, capsys):
    """The README's ``play --record``, ``solve --at`` and ``review`` lines,
    run in order in an empty directory (the review with a small limit
    added, to keep the test fast)."""
    lines = [line.split("#")[0].strip() for line in README.read_text().splitlines()]
    record = next(x for x in lines if x.startswith("dixtrix play") and "--record" in x)
    later = [x for x in lines if x.startswith(("dixtrix solve", "dixtrix review"))]
    assert any("--at" in x for x in later) and any(x.startswith("dixtrix review") for x in later)
    assert lines.index(record) < min(lines.index(x) for x in later)
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(record)[1:] + ["--quiet"]) == 0
    for command in later:
        argv = shlex.split(command)[1:]
        if argv[0] == "review":
            argv += ["--iterations", "100", "--nodes", "100000"]
        assert main(argv) == 0, command
        assert "error" not in capsys.readouterr().err
    for png in [a for x in later for a in shlex.split(x) if a.endswith((".png", ".svg"))]:
        assert (tmp_path / png).exists()


def test_exact_values_are_in_the_games_unit():
    state = played("dixie-rook", ["rules"] * 4, seed=2, actions=30)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    ex = exact(state, max_nodes=2_000_000)
    from solver.games.dixie_rook.search import deal_score
    raw = ex.solution.action_values
    for a, v in ex.values.items():
        assert v == deal_score(state, ex.seat, raw[a])
    assert math.isfinite(ex.value) and ex.best
