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
    assert main(["hint", "dix", "--seed", "1", "--iterations", "200"]) == 0
    out = capsys.readouterr().out
    assert "to move" in out and "<- best" in out
    assert main(["hint", "dix", "--seed", "1", "--iterations", "200"]) == 0
    assert capsys.readouterr().out.split("values")[1].split("\n", 1)[1] == \
        out.split("values")[1].split("\n", 1)[1]          # seeded search: same values


def test_hint_from_a_position_file(tmp_path, capsys):
    import solver
    state = solver.load_game("dix").new_initial_state(seed=5)
    state.apply_action(state.legal_actions()[0])
    path = tmp_path / "view.json"
    seat = state.current_player()
    path.write_text(json.dumps(state.information_state(seat).view))
    assert main(["hint", "--position", str(path), "--iterations", "100"]) == 0
    assert f"seat {seat} to move" in capsys.readouterr().out
    path.write_text("{not json")
    assert main(["hint", "--position", str(path)]) == 2
    assert "malformed JSON" in capsys.readouterr().err
    assert main(["hint"]) == 2


def test_hint_is_exact_once_every_card_is_known(capsys):
    assert main(["hint", "dix", "--seed", "1"]) == 0      # default: trick 15 of round 1
    out = capsys.readouterr().out
    assert "opponent hand:" in out and "exact values (double dummy" in out
    assert main(["hint", "dix", "--seed", "1", "--after", "20", "--iterations", "5000"]) == 0
    out = capsys.readouterr().out
    assert "ismcts" in out and "5,000 iterations" in out


def test_hint_with_pimc_counts_worlds(capsys):
    assert main(["hint", "trix", "--seed", "2", "--after", "30", "--bot", "pimc",
                 "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    assert "pimc" in out and "8 worlds" in out and "<- best" in out
