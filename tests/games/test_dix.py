"""dix by the seed's own text (seed 000) and RULINGS; every score by hand."""

import pytest

import solver
from solver import position
from solver.cards import DIX
from solver.errors import IllegalActionError

P = DIX.parse

# A designed round.  Turn-up 8H: hearts are trumps, the joker ranks between
# 7H and 9H.  Seat 0 deals (and so leads) with all thirteen spades; seat 1
# holds all thirteen clubs.  The stock alternates a diamond (drawn by seat 0,
# who wins tricks 1-13) and a trump (drawn by seat 1).
SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
CLUBS = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
DIAMONDS = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D".split()
TRUMPS = "AH KH QH JH TH 9H JK 7H 6H 5H 4H 3H 2H".split()
STOCK = [c for pair in zip(DIAMONDS, TRUMPS, strict=True) for c in pair]
DEAL = {"first_dealer": 0,
        "rounds": [{"hands": [SPADES, CLUBS], "turn_up": "8H", "stock": " ".join(STOCK)}]}

# (lead, follow, winner, ten-trick?) worked out by hand from the rules
SCRIPT = [
    # tricks 1-13: seat 0 leads spades, seat 1 (void) discards clubs
    ("AS", "9C", 0, True),    # 1 + 9
    ("KS", "TC", 0, True),    # 0 + 10 (ten and king)
    ("QS", "AC", 0, False),   # 0 + 1
    ("JS", "KC", 0, False),
    ("TS", "QC", 0, True),    # 10 + 0 (ten and queen)
    ("9S", "JC", 0, False),
    ("8S", "8C", 0, False),
    ("7S", "7C", 0, False),
    ("6S", "6C", 0, False),
    ("5S", "2C", 0, False),
    ("4S", "3C", 0, False),
    ("3S", "4C", 0, False),
    ("2S", "5C", 0, False),
    # trick 14: seat 0 now holds the diamonds, seat 1 the trumps
    ("AD", "9H", 1, True),    # trumped; 1 + 9
    # seat 1 leads trumps, seat 0 (void) discards diamonds
    ("AH", "KD", 1, False),
    ("KH", "TD", 1, True),    # 0 + 10
    ("QH", "QD", 1, False),
    ("JH", "JD", 1, False),
    ("TH", "9D", 1, False),
    ("JK", "8D", 1, False),
    ("7H", "3D", 1, True),    # 7 + 3
    ("6H", "7D", 1, False),
    ("5H", "6D", 1, False),
    ("4H", "5D", 1, False),
    ("3H", "4D", 1, False),
    ("2H", "2D", 1, False),
]


def scripted_state(n_tricks=26, **options):
    game = solver.load_game("dix", target=50, **options)
    state = game.new_initial_state(deal=DEAL)
    for lead, follow, _, _ in SCRIPT[:n_tricks]:
        state.apply_action_string(lead)
        state.apply_action_string(follow)
    return state


def test_scripted_round_score_and_last_trick_tie_break():
    state = scripted_state()
    # seat 0: 13 tricks, 3 ten-tricks -> 13 - 4*3 = 1
    # seat 1: 13 tricks, 3 ten-tricks -> 13 - 4*3 = 1
    # equal scores, equal ten-tricks -> the winner of the last trick: seat 1
    assert state.rounds[0]["scores"] == [1, 1]
    assert state.rounds[0]["tens"] == [3, 3]
    assert state.rounds[0]["winner"] == 1
    assert state.totals == [1, 1]
    assert not state.is_terminal()          # the match goes on to 50
    assert state.dealer == 1 and state.current_player() == 1   # deal alternates


def test_each_scripted_trick_by_hand():
    game = solver.load_game("dix")
    state = game.new_initial_state(deal=DEAL)
    for i, (lead, follow, winner, ten) in enumerate(SCRIPT):
        before_tens = list(state.tens)
        before_won = list(state.tricks_won)
        state.apply_action_string(lead)
        state.apply_action_string(follow)
        if i == len(SCRIPT) - 1:
            break
        assert state.tricks_won[winner] == before_won[winner] + 1, i
        assert state.tens[winner] == before_tens[winner] + (1 if ten else 0), i
        assert state.leader == winner


def test_fewer_ten_tricks_breaks_a_score_tie():
    state = scripted_state(25)
    # white-box: 15 tricks with 2 tens (7) against 11 with 1 (7): seat 1 has
    # fewer ten-tricks and wins although seat 0 took the last trick
    state.tricks_won, state.tens, state.last_winner = [15, 11], [2, 1], 0
    assert state.round_scores() == [7, 7]
    assert state.round_winner() == 1


def test_draw_order_winner_first_and_stock_runs_out_at_trick_13():
    state = scripted_state(1)
    # seat 0 won trick 1: it draws stock[0] (AD), then seat 1 stock[1] (AH)
    assert state.hands[0] >> P("AD") & 1 and state.hands[1] >> P("AH") & 1
    assert state.draws == [(1, 0, 0), (1, 1, 1)]
    state = scripted_state(12)
    assert state.information_state(0).known["stock_left"] == 2
    assert state.information_state(0).known["opponent_hand"] is None
    state = scripted_state(13)
    assert state.information_state(0).known["stock_left"] == 0
    assert len(state.draws) == 26
    # from trick 14 on each seat sees the other's whole hand
    assert set(state.information_state(0).known["opponent_hand"].split()) == set(TRUMPS)
    assert state.information_state(1).known["opponent_hand"] == " ".join(DIAMONDS)
    state.apply_action_string("AD")
    state.apply_action_string("9H")
    assert len(state.draws) == 26           # no draw after trick 14


def test_hand_sizes_during_the_round():
    state = scripted_state(5)
    assert bin(state.hands[0]).count("1") == 13 and bin(state.hands[1]).count("1") == 13


def test_joker_ranks_where_the_turn_up_would():
    # 8H turned up: hearts rank A K Q J T 9 JK 7 ... 2 (seed's example)
    deal = {"first_dealer": 0, "rounds": [{
        "hands": ["JK 2S 3S 4S 5S 6S 7S 2C 3C 4C 5C 6C 7C",
                  "9H 7H AS KS QS JS 8C 9C TC JC QC KC AC"],
        "turn_up": "8H",
        "stock": "AH KH QH JH TH 6H 5H 4H 3H 2H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D "
                 "TS 9S 8S"}]}
    game = solver.load_game("dix")
    s = game.new_initial_state(deal=deal)
    s.apply_action_string("JK")                          # joker led: trumps led
    assert [DIX.to_string(a) for a in s.legal_actions()] == ["7H", "9H"]  # must follow
    s.apply_action_string("7H")
    assert s.tricks_won == [1, 0]                        # JK beats 7H
    s = game.new_initial_state(deal=deal)
    s.apply_action_string("JK")
    s.apply_action_string("9H")
    assert s.tricks_won == [0, 1]                        # 9H beats JK
    s = game.new_initial_state(deal=deal)
    s.apply_action_string("2S")
    s.apply_action_string("AS")
    assert s.leader == 1
    s.apply_action_string("KS")                          # seat 1 leads a spade:
    assert P("JK") not in s.legal_actions()              # seat 0 must follow spades


def test_joker_trumps_a_plain_lead_when_void():
    deal = {"first_dealer": 1, "rounds": [{
        "hands": ["JK 2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C 7C",
                  "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"],
        "turn_up": "8H",
        "stock": "AH KH QH JH TH 9H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D "
                 "AC KC QC JC TC 9C 8C"}]}
    s = solver.load_game("dix").new_initial_state(deal=deal)
    assert s.current_player() == 1                     # the dealer leads trick 1
    s.apply_action_string("AS")
    s.apply_action_string("JK")                        # void in spades: the joker trumps
    assert s.tricks_won == [1, 0]


def test_no_trumps_when_the_joker_is_turned_up():
    deal = {"first_dealer": 0, "rounds": [{
        "hands": ["2H 3H 4H 5H 6H 7H 8H 2C 3C 4C 5C 6C 7C",
                  "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"],
        "turn_up": "JK",
        "stock": "AH KH QH JH TH 9H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D "
                 "AC KC QC JC TC 9C 8C"}]}
    s = solver.load_game("dix").new_initial_state(deal=deal)
    assert s.trump == -1
    s.apply_action_string("2H")
    s.apply_action_string("AS")                        # a spade cannot trump: no trumps
    assert s.tricks_won == [1, 0]
    assert s.information_state(0).known["trump"] is None


@pytest.mark.parametrize("a,b", [("2S", "8H"), ("3S", "7D"), ("4C", "6C"), ("5S", "5H"),
                                 ("9S", "AH"), ("TS", "KH"), ("TS", "QD"), ("TC", "JD"),
                                 ("TD", "JK")])
def test_the_nine_ten_pairings(a, b):
    from solver.cardset import dix_pips
    assert dix_pips(P(a)) + dix_pips(P(b)) == 10


@pytest.mark.parametrize("a,b", [("2S", "7H"), ("9S", "2H"), ("TS", "AH"), ("5S", "4H"),
                                 ("AS", "AH"), ("KS", "QH"), ("JK", "9C"), ("TS", "TH"),
                                 ("6S", "3H")])
def test_non_ten_pairs(a, b):
    from solver.cardset import dix_pips
    assert dix_pips(P(a)) + dix_pips(P(b)) != 10


def test_follow_suit_is_enforced():
    state = solver.load_game("dix").new_initial_state(deal={
        "first_dealer": 0, "rounds": [{
            "hands": ["AS 2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C 7C",
                      "KS QH AC KC QC JC TC 9C 8C JH TH 9H 8H"],
            "turn_up": "AD",
            "stock": "QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH KD QD JD TD 9D 8D 7D 6D 5D "
                     "4D 3D 2D JK"}]})
    state.apply_action_string("7H")
    with pytest.raises(IllegalActionError) as err:
        state.apply_action_string("AC")
    assert "AC" in str(err.value) and "must follow suit (hearts)" in str(err.value)
    with pytest.raises(IllegalActionError, match="does not hold 2D"):
        state.apply_action_string("2D")
    assert sorted(DIX.to_string(a) for a in state.legal_actions()) == ["8H", "9H", "JH",
                                                                        "QH", "TH"]


def test_free_play_while_stock_option():
    deal = DEAL
    s = solver.load_game("dix", free_play_while_stock=True).new_initial_state(deal=deal)
    s.apply_action_string("AS")
    s.apply_action_string("9C")
    s.apply_action_string("KS")
    assert len(s.legal_actions()) == 13        # anything goes while the stock lasts


def test_seventeen_variant_deals_17_and_leaves_18_unseen():
    game = solver.load_game("dix", variant="seventeen")
    state = game.new_initial_state(seed=4)
    assert bin(state.hands[0]).count("1") == 17 == bin(state.hands[1]).count("1")
    rec = position.to_json(state)
    rnd = rec["deal"]["rounds"][0]
    assert set(rnd) == {"hands", "turn_up"}     # no stock: the rest is never seen
    seen = set(rnd["hands"][0].split()) | set(rnd["hands"][1].split()) | {rnd["turn_up"]}
    assert len(seen) == 35 and 53 - len(seen) == 18
    # play the whole round: 17 tricks and no draw; still hidden at the end
    import random
    rng = random.Random(0)
    for _ in range(34):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.rounds[0]["scores"][0] + 4 * state.rounds[0]["tens"][0] + \
        state.rounds[0]["scores"][1] + 4 * state.rounds[0]["tens"][1] == 17
    assert state.information_state(0).known["opponent_hand"] is None


def test_match_to_target_and_its_end_rule():
    game = solver.load_game("dix", target=1)
    state = game.new_initial_state(deal=DEAL)
    for lead, follow, _, _ in SCRIPT:
        state.apply_action_string(lead)
        state.apply_action_string(follow)
    # both reached 1 with equal totals: that round's tie-breaks decide -> seat 1
    assert state.is_terminal() and state.winner == 1
    assert state.returns() == [-1.0, 1.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(P("AS"))


def test_match_runs_over_several_rounds_with_alternating_dealer():
    import random
    game = solver.load_game("dix", target=30)
    state = game.new_initial_state(seed=12)
    rng = random.Random(3)
    dealers = []
    while not state.is_terminal():
        if state.tricks_done == 0 and not state.trick:
            dealers.append(state.dealer)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.rounds) >= 2
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))
    totals = [sum(r["scores"][s] for r in state.rounds) for s in (0, 1)]
    assert totals == state.totals and max(totals) >= 30
    assert all(max(r["totals"]) < 30 for r in state.rounds[:-1])
    w = state.winner
    assert state.totals[w] >= state.totals[1 - w]


def test_same_seed_same_game():
    g = solver.load_game("dix")
    a, b = g.new_initial_state(seed=99), g.new_initial_state(seed=99)
    assert position.to_json(a) == position.to_json(b)
    assert position.to_json(g.new_initial_state(seed=98)) != position.to_json(a)


def test_information_state_hides_the_opponent_and_the_stock():
    state = scripted_state(2)
    view = state.information_state(1).view
    rnd = view["deal"]["rounds"][0]
    assert rnd["hands"][0] == 13 and rnd["hands"][1] == CLUBS
    stock = rnd["stock"].split()
    # seat 1 lost tricks 1 and 2: it drew places 1 and 3 only
    assert [i for i, c in enumerate(stock) if c != "?"] == [1, 3]
    assert "AD" not in str(state.information_state(1))
