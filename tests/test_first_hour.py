"""The first hour at the command line (issue #29): what a new user types
and reads.  A mistyped game name says so with the games; option errors
list the choices; ``--after N`` stops after N actions or says why; the
hint says the seat and the trick, groups the expected line by trick and
explains its notation on request; ``play --human`` explains the notation,
gives the rule's reason for an illegal card, announces tricks, draws and
the end of each deal, plays a forced action for the person, and reads an
action by an alias or an unambiguous start."""

from __future__ import annotations

import io
import json

import pytest

import solver
from bots import make_bot
from bots.cli import main
from bots.human import play_human, read_action


def _error(capsys, argv) -> str:
    """One line on stderr and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dixtrix: error: "), err
    return err


# ---- game names and options ---------------------------------------------------


def test_a_mistyped_game_says_unknown_game_with_the_list(capsys):
    for argv in (["hint", "trixx", "--seed", "1"], ["hint", "trixx"], ["play", "trixx"],
                 ["ladder", "run", "--game", "trixx", "--bots", "rules,random", "--db",
                  ":memory:"]):
        err = _error(capsys, argv)
        assert "unknown game 'trixx'" in err, (argv, err)
        assert "dix, dix-exchange, dixie-rook, tricks, trix" in err, (argv, err)
    # a path still reads as a file
    assert "no such file" in _error(capsys, ["hint", "missing.json"])


def test_game_names_are_case_insensitive(capsys, tmp_path):
    assert main(["hint", "Dix", "--iterations", "50"]) == 0
    assert capsys.readouterr().out.startswith("dix, seed 0")
    assert main(["hint", "TRIX", "--seed", "1", "--iterations", "20"]) == 0
    assert capsys.readouterr().out.startswith("trix, seed 1")
    assert main(["play", "DIX", "--seed", "1", "--quiet", "--option", "variant=seventeen",
                 "--option", "target=1"]) == 0
    assert "returns" in capsys.readouterr().out
    db = str(tmp_path / "l.db")
    assert main(["ladder", "run", "--game", "Dix:variant=seventeen,target=1", "--bots",
                 "rules,random", "--deals", "1", "--db", db, "--quiet"]) == 0


def test_an_option_error_lists_the_choices(capsys):
    for argv in (["hint", "dix", "--option", "variant=17"],
                 ["play", "dix", "--option", "variant=17"],
                 ["ladder", "run", "--game", "dix:variant=17", "--bots", "rules,random",
                  "--db", ":memory:"]):
        err = _error(capsys, argv)
        assert "'variant' must be one of" in err and "standard" in err and "seventeen" in err
    err = _error(capsys, ["play", "dixie-rook", "--option", "players=four"])
    assert "must be an integer (one of 4, 6)" in err
    # a number for a string option is the string: a variant named "17" is refused by name
    err = _error(capsys, ["play", "dix", "--option", "variant=17"])
    assert "got '17'" in err


def test_search_seed_has_help(capsys):
    with pytest.raises(SystemExit):
        main(["hint", "--help"])
    out = capsys.readouterr().out
    assert "--search-seed" in out and "seed of the search" in out
    assert "--legend" in out


# ---- --after ------------------------------------------------------------------


def _hint_json(capsys, argv) -> dict:
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_after_stops_after_exactly_n_actions_or_says_why(capsys):
    doc = _hint_json(capsys, ["hint", "dix", "--seed", "1", "--after", "20",
                              "--iterations", "50"])
    assert len(doc["position"]["actions"]) == 20
    assert doc["origin"] == "seed 1, rules bots played 20 actions"
    # trix, seed 2: after 30 actions the seat to move has one legal action,
    # and so has the next: the hint is at action 32 and says why
    doc = _hint_json(capsys, ["hint", "trix", "--seed", "2", "--after", "30", "--bot",
                              "pimc", "--worlds", "4"])
    assert len(doc["position"]["actions"]) == 32
    assert doc["origin"] == ("seed 2, rules bots played 30 actions, then 2 forced ones "
                             "(one legal action each) to reach a decision")
    err = _error(capsys, ["hint", "dix", "--seed", "1", "--after", "5000"])
    assert "--after 5000: the game ended after" in err and "actions" in err


# ---- the hint's words -----------------------------------------------------------


def test_json_visits_list_every_legal_action(capsys):
    doc = _hint_json(capsys, ["hint", "dix", "--seed", "1", "--after", "20",
                              "--iterations", "2000"])
    world = solver.from_json(doc["position"]).world(seed=0)
    legal = {world.action_to_string(a) for a in world.legal_actions()}
    assert set(doc["search"]["visits"]) == legal == set(doc["ranking"])
    assert 0 in doc["search"]["visits"].values()          # an equivalent card, not searched


def test_the_hint_says_the_seat_and_the_trick_and_groups_the_line(capsys):
    assert main(["hint", "dix", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.endswith("You are to move (seat 1, trick 15 of 26).")
    line = next(x for x in out.splitlines() if x.startswith("Expected line of play: "))
    assert line.startswith("Expected line of play: trick 15: you ")
    assert "; trick 16: " in line
    doc = _hint_json(capsys, ["hint", "dix", "--seed", "1"])
    assert doc["trick"] == [15, 26]
    tricks = [step["trick"] for step in doc["exact"]["line"]]
    assert tricks == sorted(tricks) and tricks[0] == 15
    # no trick outside card play: a trix contract choice
    assert main(["hint", "trix", "--seed", "1", "--iterations", "20"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("You are to move (seat 3).")


def test_the_legend_is_one_flag_away(capsys):
    assert main(["hint", "dix", "--seed", "1", "--legend"]) == 0
    out = capsys.readouterr().out
    assert "Notation (dix): Cards are rank then suit" in out and "JK is the joker" in out
    assert main(["hint", "--legend"]) == 0
    out = capsys.readouterr().out
    for name in solver.registered_games():
        assert f"{name}: " in out


def test_every_game_explains_its_notation():
    """Each game's legend names its cards and every kind of action (the
    first word of each action text) a person may have to type."""
    for name in solver.registered_games():
        game = solver.load_game(name)
        assert len(game.notation) > 80, name
        state = game.new_initial_state(seed=1)
        kinds = set()
        for _ in range(400):
            if state.is_terminal():
                break
            for a in state.legal_actions():
                text = state.action_to_string(a)
                if " " in text:
                    kinds.add(text.split()[0])
            state.apply_action(state.legal_actions()[-1])
        for kind in kinds:
            assert kind in game.notation, (name, kind)


def test_the_kingdom_list_leaves_out_the_contract_in_play(capsys):
    assert main(["hint", "trix", "--seed", "2", "--after", "30", "--iterations", "20"]) == 0
    out = capsys.readouterr().out
    assert "Contract: Trix" in out
    assert "Contracts already played in this kingdom: Trix" not in out


@pytest.mark.parametrize("name,word", [("trix", "kingdom"), ("tricks", "set")])
def test_the_played_list_is_the_contracts_finished_in_this_round(name, word):
    """A whole match at every decision, as the hint and ``play --human``
    describe it (``bots.advice.describe``): the list holds each contract
    chosen earlier in the round and finished, never the one in play; at a
    choice it holds every contract of the round so far."""
    from bots.advice import describe
    from solver.position import SeatView
    game = solver.load_game(name)
    state = game.new_initial_state(seed=9)
    chosen, round_no, looked = [], 0, {"in play": 0, "at a choice": 0}
    while not state.is_terminal():
        seat = state.current_player()
        info = state.information_state(seat)
        if info.known["round"] != round_no:
            chosen, round_no = [], info.known["round"]
        lines = describe(SeatView(game, seat, info.view, info))
        listed = [x for x in lines if x.startswith("Contracts already played")]
        playing = [x[len("Contract: "):].split(",")[0] for x in lines
                   if x.startswith("Contract: ")]
        finished = chosen[:-1] if playing else chosen
        if playing:
            assert playing == chosen[-1:]
        looked["in play" if playing else "at a choice"] += 1
        assert listed == ([f"Contracts already played in this {word}: "
                           f"{', '.join(finished)}"] if finished else []), (lines, chosen)
        action = state.legal_actions()[0]
        text = state.action_to_string(action)
        if text.startswith("contract "):           # the lists say it in words
            chosen.append(game.contract_titles[game.contract_names.index(text.split()[1])])
        state.apply_action(action)
    assert round_no == 3 and looked["at a choice"] >= 20 and looked["in play"] > 500


# ---- playing at the terminal -------------------------------------------------------


class FirstLegal:
    """Standard input for ``play_human``: answers each prompt with the first
    action of the last "Legal:" line printed (and first ``script``)."""

    def __init__(self, out: io.StringIO, script=()):
        self.out, self.script = out, list(script)

    def readline(self):
        if self.script:
            return self.script.pop(0) + "\n"
        legal = [x for x in self.out.getvalue().splitlines() if x.startswith("  Legal: ")][-1]
        words = legal[len("  Legal: "):]
        return (words.split(", ") if ", " in words else words.split())[0] + "\n"


def _session(name, seed, human=0, script=(), confirm=False, **options):
    game = solver.load_game(name, **options)
    bots = {s: make_bot("rules", game, s, seed=s) for s in range(game.num_players)
            if s != human}
    out = io.StringIO()
    assert play_human(game, bots, human, seed, inp=FirstLegal(out, script), out=out,
                      confirm_forced=confirm) == 0
    return out.getvalue()


def test_a_dix_match_at_the_terminal_announces_what_the_table_sees():
    text = _session("dix", 1, target=1, script=["help", "ZZ", "2C", "hint"])
    # help: the notation and the commands
    assert "Notation: Cards are rank then suit" in text and "'hint' for the search" in text
    assert "unknown card 'ZZ'" in text
    # an illegal card: the rule's reason, in the second person
    assert "illegal action '2C': you do not hold 2C" in text
    assert "  Values in round score difference" in text              # the hint's unit
    assert "  opponent takes trick 1 (you " in text or "  you take trick 1 (you " in text
    assert "  you draw " in text and "your opponent draws 1 (24 left in the stock)" in text
    assert "your opponent takes the turn-up AS" in text or "you draw AS" in text
    assert "(your only legal action, played for you)" in text
    assert "Deal 1 over: you " in text and "(round score difference" in text
    assert "Match over." in text
    # nothing hidden is told: the opponent's hand is never listed before the stock is out
    before = text[:text.index("(0 left in the stock)")]
    assert "Opponent's hand" not in before


def test_an_illegal_card_gets_the_rule_of_following_suit():
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])          # seat 0 leads 3C
    seat = state.current_player()
    hand = [int(c) for c in state.legal_actions()]
    others = [a for a in range(64) if a in solver.cards.DIX and a not in hand
              and (state.hands[seat] >> a) & 1]
    assert others                                          # cards held that may not be played
    text = state.action_to_string(others[0])
    with pytest.raises(solver.errors.IllegalActionError, match="you must follow suit"):
        read_action(state, text, state.legal_actions(), seat)


def test_forced_actions_are_asked_with_confirm_forced(monkeypatch):
    text = _session("dix", 1, target=1, confirm=True)
    assert "played for you" not in text
    # the command line's flag reaches the session
    seen = []
    monkeypatch.setattr("bots.human.play_human",
                        lambda *a, confirm_forced: seen.append(confirm_forced) or 0)
    for flags, expected in (([], False), (["--confirm-forced"], True)):
        assert main(["play", "dix", "--seed", "1", "--human", "0", *flags]) == 0
        assert seen.pop() is expected


def test_actions_by_alias_or_unambiguous_start():
    game = solver.load_game("trix")
    state = game.new_initial_state(seed=9)                 # seat 0 chooses, holds KH
    legal = state.legal_actions()
    assert state.action_to_string(read_action(state, "king", legal)) == "contract kinghearts"
    assert state.action_to_string(read_action(state, "queens", legal)) == "contract queens"
    assert state.action_to_string(read_action(state, "Contract Trix", legal)) == \
        "contract trix"
    state.apply_action(read_action(state, "king", legal))
    legal = state.legal_actions()
    assert state.action_to_string(read_action(state, "done", legal)) == "reveal done"
    assert state.action_to_string(read_action(state, "kh", legal)) == "reveal KH"
    # the cards: "Q" fits several, and says which
    while state.current_player() != 0 or not game.is_card(state.legal_actions()[0]):
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    queens = [t for t in texts if t.startswith("Q")]
    if len(queens) > 1:
        with pytest.raises(solver.errors.IllegalActionError, match="it could be"):
            read_action(state, "q", legal)

    rook = solver.load_game("dixie-rook").new_initial_state(seed=1)
    legal = rook.legal_actions()
    assert rook.action_to_string(read_action(rook, "pass", legal)) == "pass"
    assert rook.action_to_string(read_action(rook, "75", legal)) == "bid 75"


def test_the_terminal_session_reads_king_and_done():
    text = _session("trix", 9, script=["king", "done"])
    assert "you: " not in text.split("\n")[1]
    assert "  you take trick 1 (" in text or "takes trick 1 (" in text
    assert "Deal 1 over: you " in text and "(points this deal); match totals: you " in text
    assert "Legal: contract kinghearts, contract queens" in text    # comma-separated
