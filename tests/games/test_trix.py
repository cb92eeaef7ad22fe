"""Trix: scripted scenarios (every score computed by hand here), zero-sum
checks over seeded random matches, bad input, seat views."""

import json
import random

import pytest

import solver
from solver import position
from solver.cards import FRENCH
from solver.errors import IllegalActionError, NotationError, PositionError
from solver.games.contract_match.state import CHOOSE, PASS, REVEAL_DONE

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
DIAMONDS = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"
CLUBS = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"


def without(cards: str, *remove: str) -> str:
    return " ".join(c for c in cards.split() if c not in remove)


def state_of(hands, seed=1, **options):
    """A trix state whose first deal is ``hands`` (later deals seeded)."""
    game = solver.load_game("trix", **options)
    return game.new_initial_state(seed=seed, deal={"deals": [hands]})


def play(state, *actions):
    for a in actions:
        state.apply_action_string(a)


def policy(state):
    """A deterministic choice that depends only on the current deal's
    progress (so it makes the same choices with or without early ends)."""
    legal = state.legal_actions()
    log = state.deal_logs[-1]
    k = len(log.play.plays) if log.play is not None else len(log.reveals)
    return legal[(k * 31 + state.current_player() * 7 + len(state.deal_logs)) % len(legal)]


def finish(state):
    while not state.is_terminal():
        state.apply_action(policy(state))
    return state


# -- King of Hearts doubling ------------------------------------------------

# seat 0 owns (7H); seat 1 holds KH and every other heart but AH
KH_HANDS = ["AH 7H " + without(SPADES, "3S", "2S"),
            without(HEARTS, "AH", "7H") + " 3S 2S", DIAMONDS, CLUBS]


def test_first_owner_is_the_holder_of_seven_of_hearts():
    st = state_of(KH_HANDS)
    assert st.chooser == 0 and st.current_player() == 0
    hands = [CLUBS, DIAMONDS, SPADES, HEARTS]          # 7H with seat 3
    st = state_of(hands)
    assert st.chooser == 3 and st.current_player() == 3
    assert st.phase == CHOOSE
    assert [st.action_to_string(a) for a in st.legal_actions()] == [
        "contract kinghearts", "contract queens", "contract diamonds", "contract ltoosh",
        "contract trix"]


def _kh_declared(state, revealer_actions):
    play(state, "contract kinghearts")
    for seat in range(4):            # in seat order from the owner (seat 0)
        assert state.current_player() == seat
        for a in revealer_actions.get(seat, []):
            state.apply_action_string(a)
        state.apply_action_string("reveal done")


def test_doubled_king_of_hearts_taken_by_another_player():
    st = state_of(KH_HANDS)
    _kh_declared(st, {1: ["reveal KH"]})
    play(st, "AH", "KH", "2D", "2C")            # seat 0 wins the trick with KH in it
    row = st.rows[-1]
    assert row["scores"] == [-150, 75, 0, 0]    # taker twice 75, revealer +75
    assert sum(row["scores"]) == -75


def test_doubled_king_of_hearts_taken_by_its_revealer():
    st = state_of(KH_HANDS)
    _kh_declared(st, {1: ["reveal KH"]})
    play(st, "7H", "KH", "2D", "2C")            # seat 1's KH wins its own trick
    assert st.rows[-1]["scores"] == [0, -75, 0, 0]   # normal penalty, no bonus


def test_doubled_king_taken_by_the_revealers_partner():
    hands = ["7H " + without(SPADES, "2S"),
             without(HEARTS, "AH", "7H") + " 2S 2C", DIAMONDS, "AH " + without(CLUBS, "2C")]
    st = state_of(hands, partners=True)
    _kh_declared(st, {1: ["reveal KH"]})
    play(st, "7H", "KH", "2D", "AH")            # seat 3 (seat 1's partner) takes KH
    scores = st.rows[-1]["scores"]
    assert scores == [0, 75, 0, -150]
    assert scores[1] + scores[3] == -75         # the team pays exactly the plain value
    finish(st)
    ret = st.returns()
    assert ret[0] == ret[2] == st.totals[0] + st.totals[2]
    assert ret[1] == ret[3] == -ret[0]


def test_undoubled_king_of_hearts():
    st = state_of(KH_HANDS)
    _kh_declared(st, {})
    play(st, "AH", "KH", "2D", "2C")
    assert st.rows[-1]["scores"] == [-75, 0, 0, 0]


def test_queens_with_two_revealed_queens():
    hands = ["7H " + without(SPADES, "QS"), without(HEARTS, "7H") + " QS", DIAMONDS, CLUBS]
    st = state_of(hands)
    play(st, "contract queens", "reveal done", "reveal QS", "reveal QH", "reveal done",
         "reveal done", "reveal done")
    assert st.revealed == (1 << FRENCH.parse("QS")) | (1 << FRENCH.parse("QH"))
    play(st, "7H", "QH", "QD", "QC")    # seat 1 takes QH (its own), QD, QC
    play(st, "QS", "2D", "2C", "AS")    # seat 0 takes QS, revealed by seat 1
    # seat 1: -25 (own QH, no bonus) -25 -25 (QD, QC) +25 (bonus for QS) = -50
    # seat 0: QS doubled = -50
    assert st.rows[-1]["scores"] == [-50, -50, 0, 0]
    assert st.phase == CHOOSE and len(st.deal_logs) == 2   # every queen taken: next deal


def test_ltoosh_thirteen_tricks():
    hands = ["7H " + without(SPADES, "2S"), without(HEARTS, "7H") + " 2S", DIAMONDS, CLUBS]
    st = state_of(hands)
    play(st, "contract ltoosh")
    while len(st.rows) == 0:          # everyone plays its highest legal card
        st.apply_action(max(st.legal_actions()))
    assert st.deal_logs[0].play.tricks_won == [13, 0, 0, 0]
    assert st.rows[-1]["scores"] == [-13 * 15, 0, 0, 0]


def test_diamonds():
    st = state_of(KH_HANDS)
    play(st, "contract diamonds", "AH", "KH", "AD", "2C")   # seat 0 takes AD
    assert st.deal_logs[0].play.taken[0] & (1 << FRENCH.parse("AD"))
    while len(st.rows) == 0:
        st.apply_action(max(st.legal_actions()))
    scores = st.rows[-1]["scores"]
    assert sum(scores) == -130


# -- the layout -------------------------------------------------------------

def test_layout_finishing_order():
    # each seat holds one suit: seat 2 (hearts, 7H) owns and starts; every
    # seat always has exactly one card that fits, so it goes out after its
    # 13th turn: order 2, 3, 0, 1
    st = state_of([CLUBS, DIAMONDS, HEARTS, SPADES], stop_when_decided=False)
    play(st, "contract trix")
    assert st.current_player() == 2 and st.legal_actions() == [FRENCH.parse("JH")]
    while len(st.rows) == 0:
        legal = st.legal_actions()
        assert legal != [PASS]          # its own suit's row always has a free end
        st.apply_action(legal[0])
    assert st.deal_logs[0].play.finish == [2, 3, 0, 1]
    assert st.rows[-1]["scores"] == [100, 50, 200, 150]


def test_layout_forced_pass_and_bad_cards():
    # seat 2 owns (7H) but holds no jack: its only action is a pass
    hands = [CLUBS, DIAMONDS, without(HEARTS, "JH") + " 2S", "JH " + without(SPADES, "2S")]
    st = state_of(hands)
    play(st, "contract trix")
    assert st.legal_actions() == [PASS]
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("QH")
    assert "QH" in str(exc.value) and "not started" in exc.value.reason
    play(st, "pass", "JH")
    assert st.current_player() == 0
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("pass")              # seat 0 holds JC
    assert "'pass'" in str(exc.value) and "JC" in exc.value.reason
    play(st, "JC", "JD")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("9H")                # the hearts row holds only JH
    assert "'9H'" in str(exc.value) and "does not fit" in exc.value.reason
    play(st, "QH")
    # seat 0's view: seat 2 passed on an empty layout, so no world gives it a jack
    view = position.from_json(st.information_state(0).view)
    for w in range(5):
        world = view.world(seed=w)
        assert not any(FRENCH.to_string(c)[0] == "J" for c in world.deal_logs[0].hands[2])


def test_stop_when_decided_gives_identical_scores():
    for seed in range(6):
        for partners in (False, True):
            a = finish(solver.load_game("trix", partners=partners).new_initial_state(seed=seed))
            b = finish(solver.load_game("trix", partners=partners, stop_when_decided=False)
                       .new_initial_state(seed=seed))
            assert [r["scores"] for r in a.rows] == [r["scores"] for r in b.rows]
            assert a.returns() == b.returns()
            assert len(a.history()) < len(b.history())


# -- the match ----------------------------------------------------------------

def test_forced_fifth_contract_and_kingdom_rotation():
    st = state_of(KH_HANDS, seed=3)
    for k in range(4):
        assert st.chooser == k          # owner 0, then 1, 2, 3
        for d in range(5):
            legal = st.legal_actions()
            assert len(legal) == 5 - d
            if d == 4:
                assert st.current_player() == st.chooser
            st.apply_action(legal[-1])
            while st.phase != CHOOSE and not st.is_terminal():
                st.apply_action(policy(st))
    assert st.is_terminal() and len(st.rows) == 20
    assert "match score table:" in st.events


def test_every_kingdom_sums_to_zero():
    reveals = 0
    for cfg in ({}, {"partners": True}, {"must_discard_penalty": True}):
        game = solver.load_game("trix", **cfg)
        for seed in range(25):
            st = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                legal = st.legal_actions()
                # prefer reveals half of the time so doubling is common
                rev = [a for a in legal if a > REVEAL_DONE]
                st.apply_action(rng.choice(rev) if rev and rng.random() < 0.5
                                else rng.choice(legal))
            reveals += sum(len(log.reveals) for log in st.deal_logs)
            assert len(st.rows) == 20
            for k in range(4):
                assert sum(sum(r["scores"]) for r in st.rows if r["round"] == k) == 0
            assert sum(st.returns()) == 0
            assert sum(st.totals) == 0
    assert reveals > 100


def test_match_result_and_shared_win():
    st = finish(state_of(KH_HANDS))
    best = max(st.totals)
    assert st.winners == [s for s in range(4) if st.totals[s] == best]
    assert st.events[-1].startswith("match over:")
    assert st.returns() == [float(v) for v in st.totals]
    # equal best totals share the win (the result rule on its own)
    st.totals = [40, 40, -30, -50]
    st._final_result()
    assert st.winners == [0, 1] and "shared win" in st.events[-1]
    team = finish(state_of(KH_HANDS, partners=True))
    team.totals = [40, -40, -40, 40]
    team._final_result()
    assert team.winners == [0, 1, 2, 3] and "shared win" in team.events[-1]


def test_must_discard_penalty():
    # seat 1 is void in spades and holds queens: it must discard one
    hands = ["7H " + without(SPADES, "2S"), without(HEARTS, "7H") + " 2S", DIAMONDS, CLUBS]
    st = state_of(hands, must_discard_penalty=True)
    play(st, "contract queens", "reveal done", "reveal done", "reveal done", "reveal done")
    play(st, "AS", "2S")
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["QD"]   # seat 2
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("AD")
    assert "'AD'" in str(exc.value) and "penalty card" in exc.value.reason
    play(st, "QD", "QC")
    st.apply_action_string("KS")
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["QH"]


# -- bad input ------------------------------------------------------------------

def test_contract_already_played():
    st = state_of(KH_HANDS)
    play(st, "contract diamonds")
    while st.phase != CHOOSE:
        st.apply_action(policy(st))
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("contract diamonds")
    assert "'contract diamonds'" in str(exc.value)
    assert "already played in kingdom 1" in exc.value.reason


def test_reveal_a_card_not_held():
    st = state_of(KH_HANDS)
    play(st, "contract kinghearts")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("reveal KH")          # seat 0 to declare; seat 1 holds KH
    assert "'reveal KH'" in str(exc.value) and "does not hold KH" in exc.value.reason
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("reveal QS")          # not doubled in King of Hearts
    assert "'reveal QS'" in str(exc.value)


def test_acting_out_of_turn():
    st = state_of(KH_HANDS)
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_for(2, st.string_to_action("contract queens"))
    assert "'contract queens'" in str(exc.value) and "seat 0's turn" in exc.value.reason
    st.apply_action_for(0, st.string_to_action("contract diamonds"))
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("2D")                 # seat 2's card, seat 0 leads
    assert "'2D'" in str(exc.value) and "seat 0 does not hold 2D" in exc.value.reason


def test_notation_and_aliases():
    st = state_of(KH_HANDS)
    for text, canon in (("Contract King", "contract kinghearts"),
                        ("contract king of hearts", "contract kinghearts"),
                        ("contract KH", "contract kinghearts"),
                        ("contract tricks", "contract ltoosh"),
                        ("contract layout", "contract trix"),
                        ("no reveal", "reveal done"), ("reveal 10h", "reveal TH"),
                        ("10s", "TS"), ("PASS", "pass")):
        assert st.action_to_string(st.string_to_action(text)) == canon
    for bad in ("contract hearts", "reveal XX", "redeal", "bid 80"):
        with pytest.raises(NotationError) as exc:
            st.string_to_action(bad)
        assert repr(bad) in str(exc.value)


def test_records_name_the_bad_action():
    rec = {"game": "trix", "deal": {"deals": [KH_HANDS]},
           "actions": ["contract queens", "reveal done", "reveal QS"]}
    with pytest.raises(PositionError) as exc:
        position.from_json(rec)
    assert exc.value.path == "actions[2]" and "QS" in str(exc.value)
    bad_owner = {"game": "trix", "deal": {"first_owner": 2, "deals": [KH_HANDS]},
                 "actions": []}
    with pytest.raises(PositionError) as exc:
        position.from_json(bad_owner)
    assert exc.value.path == "deal.first_owner"


# -- seat views -------------------------------------------------------------------

def test_views_mid_trick_respect_voids_reveals_and_the_owner():
    st = state_of(KH_HANDS, seed=4)
    _kh_declared(st, {1: ["reveal KH"]})
    play(st, "AS", "3S", "2D", "2C")      # seats 2 and 3 show voids in spades
    play(st, "KS", "2S")                  # mid-trick
    info = st.information_state(0)
    view = position.from_json(info.view)
    for w in range(8):
        world = view.world(seed=w)
        assert world.information_state_string(0) == str(info)
        hands = world.deal_logs[0].hands
        kh = FRENCH.parse("KH")
        assert kh in hands[1]                                   # revealed
        assert not any(FRENCH.to_string(c)[1] == "S" for c in hands[2] + hands[3])
    other = position.from_json(st.information_state(2).view)
    for w in range(4):
        hands = other.world(seed=w).deal_logs[0].hands
        assert FRENCH.parse("7H") in hands[0]                   # the owner's card


def test_round_returns_for_search():
    st = state_of(KH_HANDS)
    _kh_declared(st, {1: ["reveal KH"]})
    assert st.round_index() == 0 and st.round_returns() == [0.0] * 4
    play(st, "AH", "KH", "2D", "2C")
    assert st.round_index() == 1
    assert st.round_returns(0) == [-150.0, 75.0, 0.0, 0.0]
    team = state_of(KH_HANDS, partners=True)
    _kh_declared(team, {1: ["reveal KH"]})
    play(team, "AH", "KH", "2D", "2C")
    assert team.round_returns(0) == [-150.0, 75.0, -150.0, 75.0]
    # a deal in play: the penalties taken so far
    play(st, "contract diamonds")
    st.apply_action(st.legal_actions()[0])
    assert st.round_returns() == [0.0] * 4


def test_views_never_leak_with_must_discard_and_full_deals():
    """The conformance resampling check for the configuration the
    conformance suite does not play (must_discard_penalty, no early end):
    a world consistent with a seat's view gives that seat the same
    information state."""
    game = solver.load_game("trix", must_discard_penalty=True, stop_when_decided=False)
    st = game.new_initial_state(seed=8)
    rng = random.Random(8)
    k = 0
    discards = 0
    while not st.is_terminal() and k < 500:
        if k % 61 == 7:
            for s in range(4):
                info = st.information_state(s)
                view = position.from_json(info.view)
                for w in range(2):
                    assert view.world(seed=w).information_state_string(s) == str(info)
        st.apply_action(rng.choice(st.legal_actions()))
        k += 1
        play_ = st.deal_logs[-1].play
        discards = max(discards, len(play_.no_penalty) if hasattr(play_, "no_penalty") else 0)
    assert discards > 0      # a void discard of a non-penalty card happened


def test_bad_views_name_the_culprit():
    st = state_of(KH_HANDS)
    _kh_declared(st, {1: ["reveal KH"]})
    play(st, "AS", "3S")
    view = st.information_state(2).view

    def refused(change, path, words):
        doc = json.loads(json.dumps(view))
        change(doc)
        with pytest.raises(PositionError) as exc:
            position.from_json(doc)
        assert exc.value.path == path and words in str(exc.value)

    def show_other(doc):
        doc["deal"]["deals"][0][1] = KH_HANDS[1]
    refused(show_other, "deal.deals[0][1]", "cannot show seat 1's cards")

    def seat_plays_my_card(doc):
        doc["actions"][-1] = "2D"            # seat 1 "plays" a card seat 2 holds
    refused(seat_plays_my_card, "deal.deals[0]", "which seat 2 holds")

    def owner_mismatch(doc):
        doc["deal"]["first_owner"] = 2       # seat 2 does not hold 7H
    refused(owner_mismatch, "deal.deals[0]", "7H")

    # a contract choice in the middle of a trick
    doc = json.loads(json.dumps(view))
    doc["actions"].append("contract queens")
    with pytest.raises(PositionError) as exc:
        position.from_json(doc)
    assert exc.value.path == f"actions[{len(view['actions'])}]"
    assert st.to_text().startswith("trix: kingdom 1")
