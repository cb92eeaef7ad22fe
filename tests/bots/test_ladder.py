"""The ladder (issue #16): the duplicate schedule, the rating fit, the
SQLite store and the command line.  Games here are small (dix's 17-card
variant to 10 points, rules and random bots)."""

from __future__ import annotations

import json
import math
import os
import random
import sqlite3
from collections import Counter

import pytest

from bots.cli import main
from bots.ladder import (
    LadderError,
    LadderResults,
    LadderStore,
    Schedule,
    ScheduleMismatchError,
    play_game,
    run_ladder,
)
from bots.ladder.ratings import (
    ELO,
    Unit,
    comparisons,
    duplicate_units,
    fit_bradley_terry,
    pair_differences,
    rate,
    t975,
)
from solver.errors import DixtrixError, OptionError

SMALL = "dix:variant=seventeen,target=10"


# ---- the duplicate schedule -------------------------------------------------

def _check_rotations(sch: Schedule, deals: int = 3):
    """Every arrangement once per deal and group; every member of a group
    holds every seat equally often over the group's arrangements."""
    n = sch.game.num_players
    tasks = list(sch.tasks(deals))
    keys = [t.key for t in tasks]
    assert len(keys) == len(set(keys))
    for deal in range(deals):
        for g, members in enumerate(sch.groups):
            arrs = [t.arrangement for t in tasks if t.deal == deal and t.group == g]
            assert arrs == sch.arrangements(deal, g)
            assert len(set(arrs)) == len(arrs)                 # each exactly once
            assert all(set(a) == set(members) for a in arrs)
            for seat in range(n):
                held = Counter(a[seat] for a in arrs)
                assert set(held) == set(members)               # every hand, every entry
                assert len(set(held.values())) == 1 or len(members) < n
            seeds = {t.deal_seed for t in tasks if t.deal == deal}
            assert len(seeds) == 1                             # one deal for everyone
    return tasks


def test_two_players_swapped():
    sch = Schedule(SMALL, ["rules", "random", "ismcts:iterations=20"], seed=4)
    tasks = _check_rotations(sch)
    assert sch.groups == [(0, 1), (0, 2), (1, 2)]
    assert sch.arrangements(0, 0) == [(0, 1), (1, 0)]
    assert len(tasks) == 3 * 3 * 2


@pytest.mark.parametrize("game", ["trix:partners=true", "dixie-rook", "dixie-rook:players=6"])
def test_partners_kept_together(game):
    sch = Schedule(game, "rules,random,pimc:worlds=3", seed=2)
    assert sch.partnership
    _check_rotations(sch)
    for deal in range(3):
        for g, (a, b) in enumerate(sch.groups):
            arrs = sch.arrangements(deal, g)
            assert len(arrs) == 2                               # each side once per team
            for arr in arrs:
                assert len({arr[s] for s in range(0, len(arr), 2)}) == 1   # partners together
                assert len({arr[s] for s in range(1, len(arr), 2)}) == 1
            assert {arrs[0][0], arrs[1][0]} == {a, b}


def test_individual_four_seats_rotated():
    # as many entries as seats: one group, rotated through the 4 seats
    sch = Schedule("trix", "rules,random,pimc:worlds=3,ismcts:iterations=5", seed=1)
    assert not sch.partnership and sch.groups == [(0, 1, 2, 3)]
    tasks = _check_rotations(sch, deals=4)
    assert len(tasks) == 4 * 4
    # more entries than seats: a round robin of every group of four
    sch5 = Schedule("tricks", "rules,random,pimc:worlds=3,ismcts:iterations=5,"
                              "ismcts:iterations=6", seed=1)
    assert len(sch5.groups) == 5 and sch5.games_per_deal() == 20
    _check_rotations(sch5)
    # fewer entries than seats: the table filled cyclically, every rotation
    sch2 = Schedule("dix-exchange:players=5", "random,rules", seed=1)
    arrs = sch2.arrangements(0, 0)
    assert len(arrs) == 5 and all(Counter(a) == Counter(arrs[0]) for a in arrs)


def test_schedule_is_a_pure_function_of_seed_and_entries():
    a = list(Schedule(SMALL, "rules,random,ismcts:iterations=7", seed=9).tasks(5))
    b = list(Schedule(SMALL, ["rules", "random", "ismcts:iterations=7"], seed=9).tasks(5))
    assert a == b
    c = list(Schedule(SMALL, "rules,random,ismcts:iterations=7", seed=10).tasks(5))
    assert [t.deal_seed for t in a] != [t.deal_seed for t in c]
    # spellings of one bot are one entry; the deal count is not in the id
    s1 = Schedule("dix:target=10,variant=seventeen", "rules,pimc: worlds=40", seed=1)
    s2 = Schedule(SMALL, "rules,pimc:worlds=40", seed=1)
    assert s1.schedule_id == s2.schedule_id and s1.entries == ("rules", "pimc:worlds=40")
    assert list(s1.tasks(3)) == list(s2.tasks(5))[:len(list(s1.tasks(3)))]
    assert Schedule(SMALL, "random,rules", seed=1).schedule_id != s2.schedule_id
    # settings of one entry may follow it on the command line
    s3 = Schedule(SMALL, "rules,pimc:worlds=3,nodes=1000,random", seed=1)
    assert s3.entries == ("rules", "pimc:nodes=1000,worlds=3", "random")


def test_every_arrangement_gets_the_same_deal():
    sch = Schedule(SMALL, "rules,random", seed=5)
    recs = [play_game(t) for t in sch.tasks(1)]
    ra, rb = (json.loads(r.record)["deal"]["rounds"] for r in recs)
    common = min(len(ra), len(rb))
    assert common >= 1 and ra[:common] == rb[:common]
    # zero-sum dix: a pair's duplicate difference is the summed seat results
    assert recs[0].scores[0] == -recs[0].scores[1]


@pytest.mark.parametrize("entries, message", [
    ("rules,bogus", "unknown bot 'bogus'"),
    ("rules,ismcts:time", "expected key=value"),
    ("rules,ismcts:foo=1", "unknown setting 'foo'"),
    ("rules,ismcts:time=-1", "time must be"),
    ("rules", "at least 2"),
])
def test_bad_entries_fail_up_front(entries, message):
    with pytest.raises(DixtrixError, match=message):
        Schedule(SMALL, entries)


def test_an_entry_listed_twice_is_an_a_a_ladder(tmp_path):
    sch = Schedule(SMALL, "rules,random,rules", seed=1)
    assert sch.labels == ["rules #1", "random", "rules #2"]
    db = str(tmp_path / "aa.db")
    run_ladder(SMALL, "rules,rules", deals=3, seed=1, db=db, progress=False)
    assert "rules #1 vs rules #2" in LadderResults.open(db).table().replace(
        "rules #2 vs rules #1", "rules #1 vs rules #2")


def test_bad_game_spec():
    with pytest.raises(OptionError, match="unknown game"):
        Schedule("chess", "rules,random")
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        Schedule("dix:colour=red", "rules,random")
    with pytest.raises(OptionError, match="expected key=value"):
        Schedule("dix:variant", "rules,random")
    with pytest.raises(OptionError, match="must be one of"):
        Schedule("dixie-rook:players=5", "rules,random")


# ---- ratings ------------------------------------------------------------------

def _synthetic_units(true_elo, deals, rng):
    """Pair results drawn from the Bradley-Terry model, one unit per pair and deal."""
    k = len(true_elo)
    units = []
    for d in range(deals):
        for i in range(k):
            for j in range(i + 1, k):
                p = 1.0 / (1.0 + math.exp((true_elo[j] - true_elo[i]) / ELO))
                u = rng.random()
                # a draw one time in ten, the expected score still p
                si = 1.0 if u < p - 0.05 else (0.5 if u < p + 0.05 else 0.0)
                units.append(Unit(d, len(units), {i: si, j: 1.0 - si}, 2))
    return units


def test_fit_recovers_known_strengths():
    true = [250.0, 50.0, -100.0, -200.0]
    units = _synthetic_units(true, deals=400, rng=random.Random(11))
    r = rate(["a", "b", "c", "d"], units)
    centred = [t - sum(true) / 4 for t in true]
    for i in range(4):
        assert r.lo[i] <= centred[i] <= r.hi[i], (i, r.elo, r.lo, r.hi)
        assert abs(r.elo[i] - centred[i]) < 60
        assert 8 < (r.hi[i] - r.lo[i]) / 2 < 60
    assert r.order() == [0, 1, 2, 3]
    assert abs(sum(r.elo)) < 1e-6
    b = rate(["a", "b", "c", "d"], units, ci="bootstrap", bootstrap=60)
    for i in range(4):
        assert b.lo[i] <= centred[i] <= b.hi[i]
        assert abs(b.elo[i] - r.elo[i]) < 1e-9


def test_fit_is_the_maximum_likelihood():
    # two entries, 30 wins to 10: the MLE difference is ln(3) (the weak prior
    # moves it by less than a percent)
    comps = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10
    theta, cov = fit_bradley_terry(2, comps)
    assert theta[0] - theta[1] == pytest.approx(math.log(3), rel=0.01)
    # Fisher information of the difference: n p (1 - p) = 40 * 3/16
    var_diff = cov[0][0] + cov[1][1] - 2 * cov[0][1]
    assert var_diff == pytest.approx(1 / (40 * 3 / 16), rel=0.02)
    # an entry that wins everything gets a finite rating
    theta, _ = fit_bradley_terry(2, [(0, 1, 1.0)] * 50)
    assert math.isfinite(theta[0]) and theta[0] > theta[1]


def test_pair_differences_and_units():
    units = [Unit(d, 0, {0: x, 1: -x}, 2) for d, x in enumerate([1.0, 2.0, 3.0, 0.0])]
    (p,) = pair_differences(2, units)
    # differences 2, 4, 6, 0: mean 3, sd sqrt(20/3)
    assert (p.units, p.mean, p.wins, p.draws, p.losses) == (4, 3.0, 3, 1, 0)
    assert p.sd == pytest.approx(math.sqrt(20 / 3))
    assert p.hi - p.mean == pytest.approx(3.1824 * p.sd / 2, rel=1e-4)   # t at 3 df
    assert t975(1000) == pytest.approx(1.9623, abs=1e-3)
    assert [c[3] for c in comparisons(units)] == [1.0, 1.0, 1.0, 0.5]
    # incomplete units (a game missing) are left out
    sch = Schedule(SMALL, "rules,random", seed=1)
    rows = [{"deal": 0, "grp": 0, "rotation": 0, "arrangement": [0, 1], "scores": [5, -5]},
            {"deal": 0, "grp": 0, "rotation": 1, "arrangement": [1, 0], "scores": [2, -2]},
            {"deal": 1, "grp": 0, "rotation": 0, "arrangement": [0, 1], "scores": [9, -9]}]
    (u,) = duplicate_units(sch, rows)
    assert (u.deal, u.scores) == (0, {0: 1.5, 1: -1.5})   # (5 - 2) / 2


# ---- the store, resuming, the table -------------------------------------------

def test_run_resume_extend_and_refuse(tmp_path):
    db = str(tmp_path / "l.db")
    s = run_ladder(SMALL, "rules,random", deals=4, seed=1, db=db, progress=False)
    assert (s.scheduled, s.already, s.played) == (8, 0, 8)
    s = run_ladder(SMALL, "rules,random", deals=4, seed=1, db=db, progress=False)
    assert (s.already, s.played) == (8, 0)                    # nothing replayed
    s = run_ladder(SMALL, "rules,random", deals=6, seed=1, db=db, jobs=2, progress=False)
    assert (s.already, s.played) == (8, 4)                    # extended by two deals
    with LadderStore.open(db) as store:
        rows = store.rows()
        assert len(rows) == 12 and len(store.done_keys()) == 12
        assert store.add(play_game(next(store.schedule.tasks(1)))) is False  # UNIQUE
        assert store.count() == 12
    before = open(db, "rb").read()
    with pytest.raises(ScheduleMismatchError, match="another ladder"):
        run_ladder(SMALL, "rules,random", deals=4, seed=2, db=db)
    with pytest.raises(ScheduleMismatchError):
        run_ladder(SMALL, "random,rules", deals=4, seed=1, db=db)
    assert open(db, "rb").read() == before                    # nothing overwritten
    res = LadderResults.open(db)
    assert len(res.units) == 6
    table = res.table()
    assert "rules vs random" in table and "Elo" in table
    r = res.ratings()
    assert r.elo[0] > r.elo[1]                                 # rules beats random


def test_store_refuses_other_files(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(LadderError, match="not a dixtrix ladder"):
        run_ladder(SMALL, "rules,random", deals=1, db=str(other))
    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite at all, just text that is long enough" * 20)
    with pytest.raises(LadderError, match="not a usable SQLite"):
        LadderResults.open(str(junk))
    with pytest.raises(LadderError, match="no such ladder"):
        LadderResults.open(str(tmp_path / "missing.db"))


# ---- the command line -----------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["--game", SMALL, "--bots", "rules,bogus"], "unknown bot 'bogus'"),
    (["--game", "dix:colour=red", "--bots", "rules,random"], "unknown option 'colour'"),
    (["--game", SMALL, "--bots", "rules,pimc:worlds"], "expected key=value"),
    (["--game", SMALL, "--bots", "rules,random", "--jobs", "0"], "--jobs must be"),
    (["--game", SMALL, "--bots", "rules,random", "--deals", "0"], "--deals must be"),
])
def test_cli_bad_input_one_line_exit_2(tmp_path, capsys, argv, message):
    db = str(tmp_path / "x.db")
    assert main(["ladder", "run", *argv, "--db", db, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("dixtrix: error:")
    assert not os.path.exists(db)                             # nothing ran, nothing made


def test_cli_run_report_and_other_schedule(tmp_path, capsys):
    db = str(tmp_path / "c.db")
    base = ["ladder", "run", "--game", SMALL, "--bots", "rules,random", "--deals", "3",
            "--db", db, "--quiet"]
    assert main(base + ["--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "6 games played" in out and "rules vs random" in out
    assert main(base + ["--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds another ladder" in err
    out_dir = str(tmp_path / "rep")
    assert main(["ladder", "report", "--db", db, "--out", out_dir, "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert "report written to" in out and "rank" in out
    html = open(os.path.join(out_dir, "report.html"), encoding="utf-8").read()
    for png in ("ratings.png", "pairs.png", "history.png"):
        assert png in html
        with open(os.path.join(out_dir, png), "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    assert main(["ladder", "report", "--db", str(tmp_path / "none.db")]) == 2
    assert "no such ladder" in capsys.readouterr().err


def test_four_seat_individual_ladder_uses_the_bootstrap(tmp_path):
    db = str(tmp_path / "t.db")
    s = run_ladder("trix", "rules,random,rules,random", deals=2, seed=1, db=db,
                   progress=False)
    assert s.played == 2 * 4
    res = LadderResults.open(db)
    assert res.default_ci() == "bootstrap" and len(res.units) == 2
    r = res.ratings()
    assert r.method == "bootstrap" and r.comparisons == 2 * 6
    assert all(r.lo[i] <= r.elo[i] <= r.hi[i] for i in range(4))
    fisher = res.ratings(ci="fisher")
    assert all(r.lo[i] <= fisher.lo[i] and fisher.hi[i] <= r.hi[i] for i in range(4))
    # each entry sat in every seat once per deal: its scores add up to the table's
    for u in res.units:
        assert sum(u.scores.values()) == pytest.approx(0.0)     # trix is zero-sum
