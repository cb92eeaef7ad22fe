import pytest

import solver
from bots import make_bot, play_match, registered_bots
from solver.errors import OptionError
from tests.bench_scripts import load


def test_registry_and_settings_errors():
    assert {"random", "rules"} <= set(registered_bots())
    g = solver.load_game("dix")
    with pytest.raises(OptionError, match="unknown bot 'nope'"):
        make_bot("nope", g, 0)
    with pytest.raises(OptionError, match="unknown setting 'speed'"):
        make_bot("random:speed=3", g, 0)
    with pytest.raises(OptionError, match="expected key=value"):
        make_bot("random:fast", g, 0)


@pytest.mark.parametrize("name", solver.registered_games())
def test_random_bot_plays_every_game_legally(name):
    # the game's first conformance configuration: random dixie-rook bidders
    # go set so often that a game to 300 may never end without `lose_at`
    g = solver.load_game(name, **solver.load_game(name).conformance_configs[0])
    bots = [make_bot("random", g, s, seed=s) for s in range(g.num_players)]
    state = play_match(g, bots, seed=1)
    assert state.is_terminal()


def test_bots_are_deterministic_by_seed():
    g = solver.load_game("dix", target=5)
    runs = [play_match(g, [make_bot("rules", g, 0, seed=3), make_bot("random", g, 1, seed=4)],
                       seed=9).history() for _ in range(2)]
    assert runs[0] == runs[1]


def test_dix_rules_bot_beats_random():
    g = solver.load_game("dix", target=1)
    wins = 0
    for seed in range(40):
        seat = seed % 2
        bots = [None, None]
        bots[seat] = make_bot("rules", g, seat, seed=seed)
        bots[1 - seat] = make_bot("random", g, 1 - seat, seed=seed)
        wins += play_match(g, bots, seed=seed).winner == seat
    assert wins >= 30            # about 95% in long runs


def test_dix_rules_bot_prefers_to_lose_a_ten_trick():
    from tests.games.test_dix import DEAL
    g = solver.load_game("dix")
    state = g.new_initial_state(deal=DEAL)
    state.apply_action_string("AS")     # seat 1 (all clubs) can answer 9C: a ten for seat 0
    bot = make_bot("rules", g, 1, seed=0)
    assert state.action_to_string(bot.step(state)) == "9C"


def test_dix_exchange_rules_bot_blocks_and_asks_sensibly():
    from solver.games.dix_exchange import ASK, BLOCK, KEEP
    g = solver.load_game("dix-exchange")
    for seed in range(30):
        state = g.new_initial_state(seed=seed)
        seat = state.current_player()
        bot = make_bot("rules", g, seat, seed=0)
        card = state.information_state(seat).known["card"]
        a = bot.step(state)
        if card in ("2", "1", "0", "00", "000", "0000", "CJ"):
            assert a == ASK
        else:
            assert a == KEEP
        state.apply_action(a)
        if a == ASK and not state.is_terminal():
            responder = state.current_player()
            legal = state.legal_actions()
            choice = make_bot("rules", g, responder, seed=0).step(state)
            if any(x >= BLOCK for x in legal):
                assert choice >= BLOCK


def _strength():
    return load("strength")


@pytest.mark.parametrize("name", ["trix", "tricks", "dix-exchange"])
def test_rules_bot_beats_random_on_fixed_seeds(name):
    mean, ci, _ = _strength().compare(solver.load_game(name), "rules", "random", 40)
    assert mean > 0


def test_strength_logs_pool_into_the_whole_runs_interval(tmp_path, capsys):
    """Two runs over other seeds, each logging its pairs, pool into the
    interval of one run over all the seeds; logs of other bots are refused."""
    strength = _strength()
    game = solver.load_game("dix")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with open(first, "w") as f:
        strength.compare(game, "rules", "random", 3, 0, log=f)
    with open(second, "w") as f:
        strength.compare(game, "rules", "random", 3, 3, log=f)
    mean, ci, _ = strength.compare(game, "rules", "random", 6, 0)
    capsys.readouterr()
    strength.main(["--pool", str(first), str(second)])
    out = capsys.readouterr().out
    assert "6 duplicate deal pairs" in out and f"{mean:+.3f} +- {ci:.3f}" in out
    with open(second, "a") as f:
        strength.compare(game, "random", "rules", 1, 9, log=f)
    with pytest.raises(SystemExit, match="mix games or bots"):
        strength.main(["--pool", str(first), str(second)])


def test_contract_rules_bot_discards_the_king_of_hearts_when_void():
    from solver.games.contract_match.state import TRICKS
    from solver.games.contract_match.trick_play import KH, KING_OF_HEARTS
    g = solver.load_game("trix")
    import random
    for seed in range(200):
        state = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == TRICKS and state.log.contract == KING_OF_HEARTS:
                play = state.log.play
                seat = state.current_player()
                legal = state.legal_actions()
                if play.trick and KH in legal and all(c >> 4 != play.trick[0] >> 4
                                                      for c in legal):
                    bot = make_bot("rules", g, seat, seed=0)
                    assert bot.step(state) == KH
                    return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no void-with-KH position met in the seeded deals: the test checked nothing")


def test_strength_reads_game_options_as_the_command_line_does(capsys):
    """``--option partners=true`` is the boolean the game asks for (the
    command line's reading), not the text 'true'."""
    _strength().main(["trix", "--option", "partners=true", "--a", "random", "--b", "random",
                      "--deals", "1"])
    assert "partners=True" in capsys.readouterr().out
