import json
import subprocess
import sys

from bots.cli import main


def test_play_dix_demo(capsys):
    assert main(["play", "dix", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "trick  1: seat" in out and "trick 26: seat" in out and "match over" in out
    assert main(["play", "dix", "--seed", "1"]) == 0
    assert capsys.readouterr().out == out            # seeded: the same game


def test_play_writes_a_loadable_record(tmp_path, capsys):
    import solver
    path = tmp_path / "game.json"
    assert main(["play", "dix", "--seed", "2", "--option", "target=5", "--quiet",
                 "--record", str(path)]) == 0
    rec = json.loads(path.read_text())
    state = solver.from_json(rec).state()
    assert state.is_terminal()


def test_bad_input_is_one_line_and_status_2(capsys):
    assert main(["play", "dox"]) == 2
    assert "unknown game 'dox'" in capsys.readouterr().err
    assert main(["play", "dix", "--option", "target=0"]) == 2
    assert "'target' must be >= 1" in capsys.readouterr().err
    assert main(["play", "dix", "--bots", "random,wizard"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert main(["play", "dix", "--option", "oops"]) == 2


def test_games_lists_options(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "dix:" in out and "variant" in out


def test_console_entry_point_runs():
    r = subprocess.run([sys.executable, "-m", "bots.cli", "play", "dix", "--seed", "3",
                        "--quiet"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "returns" in r.stdout


def test_hint_demo_lists_every_legal_action(capsys):
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--iterations", "300"]) == 0
    out = capsys.readouterr().out
    assert "You are to move" in out and "advised" in out and "Unit: round score difference" in out
    assert out.strip().splitlines()[-1].startswith("Play ")
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--iterations", "300"]) == 0
    assert _table(capsys.readouterr().out) == _table(out)   # iterations and a seed: the same


def test_hint_from_a_position_file(tmp_path, capsys, monkeypatch):
    import io

    import solver
    state = solver.load_game("dix").new_initial_state(seed=5)
    state.apply_action(state.legal_actions()[0])
    path = tmp_path / "view.json"
    seat = state.current_player()
    path.write_text(json.dumps(state.information_state(seat).view))
    assert main(["hint", str(path), "--iterations", "100"]) == 0
    assert "You are to move" in capsys.readouterr().out
    assert main(["hint", "--position", str(path), "--iterations", "100"]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert main(["hint", "-", "--iterations", "100", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seat"] == seat and doc["search"]["action"] in doc["search"]["values"]
    assert doc["advice"].startswith("Play ")


def _table(out: str) -> list:
    """The hint's facts, values and advice: not the first line (where the
    position came from) nor the lines that carry timings."""
    return [line for line in out.splitlines()[1:] if not line.startswith(("Values:", "Exact"))]


def _error(capsys, argv):
    """One line on stderr and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dixtrix: error: "), err
    return err


def test_every_hint_input_error_is_one_line_and_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert "malformed JSON" in _error(capsys, ["hint", str(bad)])
    assert "no such file" in _error(capsys, ["hint", str(tmp_path / "missing.json")])
    assert "is a directory" in _error(capsys, ["hint", str(tmp_path)])
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"game": "dix", "x": "caf\xe9"}'.encode("latin-1"))
    assert "not UTF-8" in _error(capsys, ["hint", str(latin)])
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    assert "nests" in _error(capsys, ["hint", str(deep)])
    huge = tmp_path / "huge.json"
    huge.write_text('{"game": "dix", "seed": ' + "9" * 5000 + "}")
    assert "digits" in _error(capsys, ["hint", str(huge)])
    assert "give a POSITION" in _error(capsys, ["hint"])
    done = tmp_path / "done.json"
    assert main(["play", "dix", "--seed", "2", "--option", "target=5", "--quiet",
                 "--record", str(done)]) == 0
    capsys.readouterr()
    assert "over" in _error(capsys, ["hint", str(done)])
    assert "Limit.time" in _error(capsys, ["hint", "dix", "--seed", "1", "--time", "-1"])
    assert "Limit.iterations" in _error(capsys, ["hint", "dix", "--seed", "1",
                                                 "--iterations", "0"])
    assert "not both" in _error(capsys, ["hint", str(done), "--position", str(done)])


def test_version(capsys):
    import pytest
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and "dixtrix 0.1.0" in capsys.readouterr().out


def test_hint_save_position_writes_the_view_it_advised_on(tmp_path, capsys):
    import solver
    out = tmp_path / "saved.json"
    assert main(["hint", "trix", "--seed", "2", "--after", "30", "--iterations", "50",
                 "--save-position", str(out)]) == 0
    first = capsys.readouterr().out
    view = solver.from_json(json.loads(out.read_text()))
    assert isinstance(view, solver.position.SeatView)
    assert main(["hint", str(out), "--iterations", "50"]) == 0
    again = capsys.readouterr().out
    assert _table(first) == _table(again)                       # same advice, same words


def test_hint_is_exact_once_every_card_is_known(capsys):
    assert main(["hint", "dix", "--seed", "1"]) == 0      # default: trick 15 of round 1
    out = capsys.readouterr().out
    assert "Opponent's hand (known" in out and "Exact values" in out
    assert "Expected line of play: trick 15: you " in out and "Exactly as good" in out


def test_hint_with_pimc_counts_worlds(capsys):
    assert main(["hint", "trix", "--seed", "2", "--after", "30", "--bot", "pimc",
                 "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    assert "8 worlds" in out and "8 worlds  advised" in out


def test_seat_names_from_the_askers_side():
    from bots.advice import seat_names
    assert seat_names(2, 1, False) == ["opponent", "you"]
    assert seat_names(4, 1, True) == ["right", "you", "left", "partner"]
    assert seat_names(4, 0, False)[2] == "across"


def test_the_progress_line_shows_on_a_terminal_only(monkeypatch):
    import io

    from bots import hint
    monkeypatch.setattr(hint, "PROGRESS_AFTER", 0.0)
    out = io.StringIO()
    p = hint.Progress(stream=out, enabled=True)
    p({"iterations": 12345, "seconds": 1.5, "best": "8D", "value": 1.25})
    p.close()
    assert "12,345 iterations" in out.getvalue() and "best so far 8D (+1.25)" in out.getvalue()
    quiet = io.StringIO()
    p = hint.Progress(stream=quiet)              # a StringIO is not a terminal
    p({"iterations": 1, "seconds": 2.0})
    assert quiet.getvalue() == ""


def test_play_human_through_standard_input(monkeypatch, capsys):
    """A whole dix deal (seventeen, to 1 point) typed on stdin, with a bad
    token, 'help' and 'hint' along the way; the opponent's hand is never
    shown."""
    import io

    import solver
    game = solver.load_game("dix", variant="seventeen", target=1)
    state = game.new_initial_state(seed=4)
    from bots import make_bot
    other = make_bot("rules", game, 1, seed=4001)
    moves = ["ZZ", "help", "hint"]
    while not state.is_terminal():
        if state.current_player() == 0:
            a = state.legal_actions()[-1]
            moves.append(state.action_to_string(a))
        else:
            a = other.step(state)
        state.apply_action(a)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(moves) + "\n"))
    monkeypatch.setattr("bots.human.HINT_SECONDS", 0.05)
    code = main(["play", "dix", "--seed", "4", "--option", "variant=seventeen",
                 "--option", "target=1", "--human", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "unknown card 'ZZ'" in out and "Legal:" in out and "advised" in out
    assert "Match over" in out and "Deal 1 over" in out
    assert "Opponent's hand" not in out
    opp = set(solver.to_json(state)["deal"]["rounds"][0]["hands"][1].split())
    shown = out.split("your move>")[0]
    assert not any(c in shown.split() for c in opp)        # no hidden card before play


def test_play_human_ends_cleanly_on_end_of_input(monkeypatch, capsys):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "trix", "--seed", "1", "--human", "2"]) == 0
    assert "game abandoned" in capsys.readouterr().out
    assert main(["play", "trix", "--human", "7"]) == 2


def test_solve_and_evaluate_commands(tmp_path, capsys):
    import solver
    state = solver.load_game("dix").new_initial_state(seed=1)
    while state.tricks_done < 14:
        state.apply_action(state.legal_actions()[0])
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(solver.to_json(state)))
    assert main(["solve", str(rec), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == solver.solve(state).value and doc["line"]
    assert main(["solve", str(rec)]) == 0
    assert "line:" in capsys.readouterr().out
    view = tmp_path / "view.json"
    view.write_text(json.dumps(state.information_state(state.current_player()).view))
    assert "seat view" in _error(capsys, ["solve", str(view)])
    assert main(["evaluate", str(view), "--worlds", "20", "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert ev["worlds"] == 20 and len(ev["values"]) == 2
    assert main(["evaluate", str(rec), "--worlds", "10"]) == 0
    assert "(you)" in capsys.readouterr().out
    assert "no such file" in _error(capsys, ["evaluate", str(tmp_path / "nope.json")])
    early = tmp_path / "early.json"
    early.write_text(json.dumps(solver.to_json(solver.load_game("dix").new_initial_state(
        seed=1))))
    assert "trick 14" in _error(capsys, ["solve", str(early)])


def test_hint_saves_and_reads_mid_match_positions(tmp_path, capsys):
    import solver
    mid, whole = tmp_path / "mid.json", tmp_path / "whole.json"
    # trix deal 3 or later: the saved view starts at the current deal
    assert main(["hint", "trix", "--seed", "2", "--after", "120", "--iterations", "40",
                 "--save-position", str(mid)]) == 0
    first = capsys.readouterr().out
    doc = json.loads(mid.read_text())
    assert "match" in doc and len(doc["deal"]["deals"]) == 1
    assert doc["match"]["kingdom"] >= 1 and len(doc["match"]["totals"]) == 4
    assert isinstance(solver.from_json(doc), solver.position.SeatView)
    assert main(["hint", str(mid), "--iterations", "40"]) == 0
    again = capsys.readouterr().out
    assert _table(first) == _table(again)       # the current deal is all the search reads
    # --whole-match keeps every deal
    assert main(["hint", "trix", "--seed", "2", "--after", "120", "--iterations", "40",
                 "--save-position", str(whole), "--whole-match"]) == 0
    capsys.readouterr()
    full = json.loads(whole.read_text())
    assert "match" not in full and len(full["deals"] if "deals" in full else
                                       full["deal"]["deals"]) > 1
    # a mid-match record (not a view) is advised on too
    state = solver.from_json(full).world(seed=0)
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(solver.position.to_json(state, from_deal="current")))
    assert main(["hint", str(rec), "--iterations", "40"]) == 0
    capsys.readouterr()
    # a bad match field: one line, exit status 2
    bad = dict(doc, match=dict(doc["match"], owner=7))
    mid.write_text(json.dumps(bad))
    assert main(["hint", str(mid)]) == 2
    err = capsys.readouterr().err
    assert "match.owner" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_one_rule_for_seeds_on_every_face(capsys):
    """A seed is an integer 0..2**63-1 everywhere: a negative one is refused
    by the command line (before anything is dealt or printed), the Python
    API, a record and a review, never taken for its absolute value."""
    import pytest

    import solver
    from bots.review import review
    from solver.errors import OptionError, PositionError
    from solver.search import Limit, best_move, evaluate
    for argv in (["play", "trix", "--seed", "-2"], ["hint", "dix", "--seed", "-1"],
                 ["hint", "dix", "--seed", "1", "--search-seed", "-1"]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert "seed" in err and "-" in err.split("got")[-1] and out == "", (argv, out, err)
    game = solver.load_game("dix")
    with pytest.raises(OptionError, match="seed"):
        game.new_initial_state(seed=-2)
    state = game.new_initial_state(seed=2)
    for call in (lambda: best_move(state, Limit(iterations=10), seed=-1),
                 lambda: evaluate(state, Limit(worlds=1), seed=-1)):
        with pytest.raises(OptionError, match="seed"):
            call()
    with pytest.raises(PositionError, match="seed"):
        solver.from_json({"game": "dix", "seed": -2, "actions": []})
    with pytest.raises(OptionError, match="seed"):
        review(solver.to_json(state), seed=-1)


def test_an_extra_missing_names_the_command_that_installs_it(monkeypatch, tmp_path):
    """dixtrix is installed from its checkout: the hint for a missing extra
    is ``pip install ".[plot]"``, never a package the index does not have."""
    import sys as _sys

    import pytest

    from bots import review
    from solver.errors import OptionError, install_hint
    monkeypatch.setitem(_sys.modules, "matplotlib", None)       # import fails
    with pytest.raises(OptionError) as exc:
        review.plot({"deals": [], "unit": "points"}, str(tmp_path / "g.png"))
    assert 'pip install ".[plot]"' in str(exc.value) and "dixtrix[" not in str(exc.value)
    assert install_hint("server") == 'pip install ".[server]" (in the dixtrix checkout)'


def test_every_command_and_option_says_what_it_is(capsys):
    """Every command's page has a description and every option a help
    text; a flag a command does not know is refused with that command's
    usage (not the top level's)."""
    import argparse

    from bots.cli import _finish, build_parser
    parser = build_parser()
    _finish(parser)
    missing = []

    def walk(p, name):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    if not sub.description:
                        missing.append(f"{name} {sub_name}: no description")
                    walk(sub, f"{name} {sub_name}")
            elif action.help is None and "-h" not in action.option_strings:
                missing.append(f"{name} {action.option_strings or action.dest}: no help")
    walk(parser, "dixtrix")
    assert not missing, missing
    import pytest
    with pytest.raises(SystemExit):
        main(["play", "dix", "--sed", "1"])
    err = capsys.readouterr().err
    assert err.startswith("usage: dixtrix play") and "unrecognized arguments: --sed 1" in err
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    assert "rules player" in out and "dixtrix hint" in out and "--policy" in out


def test_play_shows_dix_stock_draws_and_contracts_in_words(capsys):
    assert main(["play", "dix", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    first = out.split("round 2")[0]
    assert first.count("draws: seat") == 13            # after tricks 1-13
    assert "draws: seat 1 6S, seat 0 TH; 24 left in the stock" in first
    assert main(["play", "tricks", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "chooses Jacks" in out and "chooses King of Hearts" in out
    assert "chooses jacks" not in out and "kinghearts" not in out


def test_a_seed_above_the_api_s_range_or_a_reserved_bot_setting_is_one_line(tmp_path, capsys):
    """One seed range on every face: a --seed above 2**63-1 was played
    here while the HTTP API refused it; a bot setting named like make_bot's
    own arguments (ismcts:seed=5) printed a traceback, in play and in the
    ladder: each is now one error line naming it, exit status 2."""
    big = str(2**64)
    for argv in (["play", "dix", "--seed", big], ["hint", "dix", "--seed", big],
                 ["hint", "dix", "--seed", "1", "--search-seed", big],
                 ["ladder", "run", "--game", "dix", "--bots", "random,rules", "--deals", "1",
                  "--seed", big, "--db", str(tmp_path / "big.db")]):
        err = _error(capsys, argv)
        assert "seed must be 0..2**63-1" in err and big in err, (argv, err)
    err = _error(capsys, ["play", "trix", "--bots", "ismcts:seed=5", "--quiet"])
    assert "bot 'ismcts': 'seed' is not a setting" in err and "its settings: time" in err
    err = _error(capsys, ["ladder", "run", "--game", "trix", "--bots", "random,rules:seed=1",
                          "--deals", "1", "--db", str(tmp_path / "x.db")])
    assert "bot 'rules': 'seed' is not a setting" in err and "its settings: none" in err
    top = str(2**63 - 1)               # the top of the range plays, its bots' seeds too
    assert main(["play", "dix", "--seed", top, "--quiet", "--option", "target=5"]) == 0


def test_hint_beliefs_before_any_card_are_exact_and_by_suit(capsys):
    """Issue #51: ``hint trix --seed 3 --beliefs`` before a card is played
    showed 27% to 39% where each share is one third; now the exact shares,
    said to be exact, under a heading a suit, with each holder's count of
    unseen cards."""
    assert main(["hint", "trix", "--seed", "3", "--beliefs", "--time", "0.1"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("Where the cards you cannot see are"):out.index("Values:")]
    lines = block.splitlines()
    assert "exact, counted over every deal your view allows" in lines[1]
    assert lines[3].split() == ["unseen", "13", "13", "13"]
    rows = [ln.split() for ln in lines[4:]]
    assert [r[0] for r in rows if len(r) == 1] == ["Spades", "Hearts", "Diamonds", "Clubs"]
    cards = [r for r in rows if len(r) > 1]
    assert len(cards) == 39 and all(r[1:] == ["33.3%"] * 3 for r in cards)
