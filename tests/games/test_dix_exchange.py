"""dix-exchange (DIX, Dave De Vega): the seed's examples, every blocking
card, the Chat-Joker revival, the restored round, elimination and the
winner, hidden information, and bad input.  Token counts are worked out by
hand in each test.

Scripted rounds come from records: ``shuffle(...)`` lists the first stock
positions and completes the 55-card deck in deck order.  With 4 players and
first dealer 0 the draw order is seats 1, 2, 3, 0 (positions 0..3) and the
dealer's stock card is position 4.
"""

import json
from collections import Counter

import pytest

import solver
from solver import position
from solver.cards import EXCHANGE_VALUES
from solver.errors import IllegalActionError, NotationError, OptionError, PositionError
from solver.games.dix_exchange import ACCEPT, ASK, BLOCK, DRAW, KEEP, VALUE_INDEX


def places(shuffle) -> list:
    """A view's stock as a list of places ("?" unseen): a stock nobody has
    seen is written as its count."""
    return ["?"] * shuffle if isinstance(shuffle, int) else shuffle.split()



def shuffle(*first, deck="standard"):
    """A stock: ``first`` on top, then the rest of ``deck`` in deck order."""
    game = solver.load_game("dix-exchange", deck=deck)
    rest = Counter({v: c for v, c in zip(EXCHANGE_VALUES, game.counts, strict=True)})
    rest.subtract(first)
    assert min(rest.values()) >= 0, first
    return " ".join(list(first) + [v for v in EXCHANGE_VALUES for _ in range(rest[v])])


def start(*first, dealer=0, players=4, **options):
    game = solver.load_game("dix-exchange", players=players, **options)
    deal = {"first_dealer": dealer, "shuffles": [shuffle(*first, deck=game.options["deck"])]}
    return game.new_initial_state(deal=deal)


def act(state, seat, *texts):
    for text in texts:
        assert state.current_player() == seat, (text, state.current_player())
        state.apply_action_string(text)


def sees(state, seat, k, i):
    """Whether ``seat``'s view shows stock position ``i`` of stock ``k``."""
    return places(state.information_state(seat).view["deal"]["shuffles"][k])[i] != "?"


# ----------------------------------------------------------------------
# the seed's examples

def test_example_1_forced_exchange_is_face_down():
    # seat 1 draws the Roc, seat 2 a Deux: seat 2 must accept
    st = start("0", "2", "5", "6")
    act(st, 1, "ask")
    assert st.legal_actions() == [ACCEPT]
    act(st, 2, "accept")
    assert st.card_of(1) == "2" and st.card_of(2) == "0"
    # each party learns the other's card, nobody else does
    assert sees(st, 1, 0, 1) and sees(st, 2, 0, 0)
    assert not sees(st, 3, 0, 0) and not sees(st, 3, 0, 1)
    assert not sees(st, 0, 0, 0) and not sees(st, 0, 0, 1)
    assert st.information_state(2).known["card"] == "0"
    assert st.tokens == [3, 3, 3, 3]
    assert st.current_player() == 2          # turn order unchanged


def test_example_2_loup_blocks_and_costs_the_asker_a_token():
    st = start("0", "9", "5", "6")
    act(st, 1, "ask")
    assert st.legal_actions() == [ACCEPT, BLOCK + VALUE_INDEX["9"]]
    act(st, 2, "block 9")
    assert st.tokens == [3, 2, 3, 3]
    assert st.card_of(1) == "0" and st.card_of(2) == "9"
    # the Loup is public; the asker keeps the Roc unseen
    assert all(sees(st, s, 0, 1) for s in range(4))
    assert not any(sees(st, s, 0, 0) for s in (0, 2, 3))
    assert st.information_state(0).view["actions"] == ["ask", "block 9"]
    act(st, 2, "keep")
    act(st, 3, "keep")
    act(st, 0, "keep")
    # showdown 0 9 5 6: the Roc is lowest, seat 1 loses another token
    assert st.tokens == [3, 1, 3, 3]


def test_example_3_putois_returns_every_card_to_its_drawer():
    # example 1 then example 3: seat 2 received the Roc and passes it on to
    # seat 3, who shows the Putois
    st = start("0", "2", "8", "5")
    act(st, 1, "ask")
    act(st, 2, "accept")
    act(st, 2, "ask")
    assert st.target == 3
    act(st, 3, "block 8")
    # the asker (seat 2) and the drawer of the Roc (seat 1) lose a token
    assert st.tokens == [3, 2, 2, 3]
    # everyone takes back the card they drew
    assert [st.card_of(s) for s in range(4)] == ["5", "0", "2", "8"]
    assert st.current_player() == 3          # play continues after the asker
    act(st, 3, "keep")
    act(st, 0, "keep")
    # showdown: seat 1's Roc is lowest
    assert st.tokens == [3, 1, 2, 3]


# ----------------------------------------------------------------------
# every blocking card

@pytest.mark.parametrize("card", ["6", "10"])
def test_hotel_and_hibou_cancel_without_penalty(card):
    st = start("3", card, "5", "4")
    act(st, 1, "ask")
    act(st, 2, f"block {card}")
    assert st.tokens == [3, 3, 3, 3]
    assert st.card_of(1) == "3" and st.card_of(2) == card
    assert all(sees(st, s, 0, 1) for s in range(4))
    assert st.current_player() == 2


def test_putois_costs_one_token_when_the_asker_drew_the_offered_card():
    st = start("0", "8", "5", "4")
    act(st, 1, "ask")
    act(st, 2, "block 8")
    assert st.tokens == [3, 2, 3, 3]
    assert [st.card_of(s) for s in range(4)] == ["4", "0", "8", "5"]


def test_saute_lapin_passes_the_request_on_and_turn_order_stays():
    st = start("1", "7", "3", "5")
    act(st, 1, "ask")
    act(st, 2, "block 7")
    assert st.asker == 1 and st.target == 3
    assert st.legal_actions() == [ACCEPT]        # seat 3 holds 3: must accept
    act(st, 3, "accept")
    assert st.card_of(1) == "3" and st.card_of(3) == "1" and st.card_of(2) == "7"
    assert sees(st, 1, 0, 2) and sees(st, 3, 0, 0) and not sees(st, 2, 0, 0)
    assert st.tokens == [3, 3, 3, 3]
    assert st.current_player() == 2              # seat 2 still has its turn


def test_saute_lapin_wraps_past_the_dealer():
    st = start("5", "4", "1", "7")
    act(st, 1, "keep")
    act(st, 2, "keep")
    act(st, 3, "ask")
    act(st, 0, "block 7")                        # the dealer passes it on
    assert st.target == 1
    act(st, 1, "accept")
    assert st.card_of(3) == "5" and st.card_of(1) == "1"
    assert st.current_player() == 0              # the dealer's own turn


def test_saute_lapin_request_lapses_when_it_would_come_back():
    # seat 2 asks seat 3; seats 3, 0 and 1 all hold a 7
    st = start("7", "2", "7", "7")
    act(st, 1, "keep")
    act(st, 2, "ask")
    act(st, 3, "block 7")
    act(st, 0, "block 7")
    act(st, 1, "block 7")
    assert st.phase == "turn" and st.current_player() == 3
    assert st.tokens == [3, 3, 3, 3]
    assert st.card_of(2) == "2"
    assert any("lapses" in e for e in st.events)


def test_a_responder_with_6_to_10_may_accept():
    st = start("0", "10", "5", "4")
    act(st, 1, "ask")
    act(st, 2, "accept")
    assert st.card_of(1) == "10" and st.card_of(2) == "0"
    assert not any(sees(st, s, 0, 1) for s in (0, 3))


def test_the_dealer_swaps_with_the_stock_and_keeps_a_putois_without_effect():
    st = start("5", "4", "3", "0", "8")
    act(st, 1, "keep")
    act(st, 2, "keep")
    act(st, 3, "keep")
    assert st.legal_actions() == [KEEP, DRAW]
    act(st, 0, "draw")
    # showdown 8 5 4 3: seat 3 loses; the discarded Roc stays unseen
    assert st.tokens == [3, 3, 3, 2]
    assert sees(st, 0, 0, 3) and not any(sees(st, s, 0, 3) for s in (1, 2, 3))
    assert all(sees(st, s, 0, 4) for s in range(4))     # shown at the showdown
    # with 4 players the stock carries over: round 2 draws from position 5
    assert st.round_no == 1 and st.drawn[2] == (0, 5)


# ----------------------------------------------------------------------
# showdown, revival, restore, elimination, winner

def test_lowest_value_ties_the_lion_and_the_chat_joker():
    st = start("0000", "CJ", "5", "000")
    act(st, 1, "keep")
    act(st, 2, "keep")
    act(st, 3, "keep")
    act(st, 0, "keep")
    assert st.tokens == [3, 2, 2, 3]             # the Masqueleon is safe


def test_chat_joker_revival_brings_back_eliminated_players():
    # tokens 1: round 1 eliminates seat 3 (lowest); round 2 (dealer seat 1,
    # draws seats 2, 0, 1) shows two Chat-Jokers: nobody loses and seat 3
    # re-enters with one token
    st = start("5", "6", "1", "4", "CJ", "CJ", "9", tokens=1)
    act(st, 1, "keep")
    act(st, 2, "keep")
    act(st, 3, "keep")
    act(st, 0, "keep")
    assert st.tokens == [1, 1, 1, 0] and st.active == (0, 1, 2)
    assert st.dealer == 1 and st.order == (2, 0, 1)
    act(st, 2, "keep")
    act(st, 0, "keep")
    act(st, 1, "keep")
    assert st.tokens == [1, 1, 1, 1]
    assert st.active == (0, 1, 2, 3) and not st.is_terminal()
    assert any("re-enter" in e for e in st.events)


def test_chat_joker_revival_also_saves_a_player_who_lost_mid_round():
    st = start("3", "9", "CJ", "CJ", tokens=1)
    act(st, 1, "ask")
    act(st, 2, "block 9")
    assert st.tokens == [1, 0, 1, 1]
    act(st, 2, "keep")
    act(st, 3, "keep")
    act(st, 0, "keep")
    assert st.tokens == [1, 1, 1, 1] and st.round_no == 1


def test_two_players_one_token_same_card_replay_then_winner():
    # tokens 1.  Round 1 (dealer 0; draws seats 1 2 3 0 = 1 1 5 6): seats 1
    # and 2 tie lowest and are eliminated.  Round 2 (dealer 3; draws seats
    # 0 3 = 4 4): both would lose their last token -> tokens restored,
    # another round.  Round 3 (dealer 0; draws seats 3 0 = 9 2): seat 0
    # loses, seat 3 wins.
    st = start("1", "1", "5", "6", "4", "4", "9", "2", tokens=1)
    for seat in (1, 2, 3, 0):
        act(st, seat, "keep")
    assert st.tokens == [1, 0, 0, 1]
    assert st.dealer == 3 and st.order == (0, 3)
    act(st, 0, "keep")
    act(st, 3, "keep")
    assert st.tokens == [1, 0, 0, 1] and not st.is_terminal()
    assert any("restored" in e for e in st.events)
    assert st.dealer == 0 and st.order == (3, 0) and st.round_no == 2
    act(st, 3, "keep")
    act(st, 0, "keep")
    assert st.is_terminal() and st.winner == 3
    assert st.returns() == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])
    assert st.legal_actions() == []
    assert st.events[-1] == "seat 3 wins"


def test_tokens_never_go_below_zero():
    # tokens 1: seat 1 loses its token to a Loup, then holds the lowest card
    st = start("0", "9", "5", "6", tokens=1)
    act(st, 1, "ask")
    act(st, 2, "block 9")
    act(st, 2, "keep")
    act(st, 3, "keep")
    act(st, 0, "keep")
    assert st.tokens == [1, 0, 1, 1]
    assert 1 not in st.active


def test_eliminated_seats_are_skipped_and_the_deal_passes_on():
    st = start("0", "9", "5", "6", "4", "3", "2", tokens=1)
    for seat in (1, 2, 3, 0):
        act(st, seat, "keep")
    # seat 1 eliminated; the deal passes from seat 0 to seat 2 (seat 1 out)
    assert st.dealer == 2 and st.order == (3, 0, 2)
    act(st, 3, "ask")
    assert st.target == 0
    act(st, 0, "accept")
    act(st, 0, "ask")
    assert st.target == 2                        # seat 1 is skipped


# ----------------------------------------------------------------------
# the stock

def test_five_or_more_players_reshuffle_every_round():
    st = start("5", "4", "3", "2", "1", players=5)
    for seat in (1, 2, 3, 4, 0):
        act(st, seat, "keep")
    assert len(st.shuffles) == 2 and st.drawn[2] == (1, 0)


def test_carry_stock_off_reshuffles_every_round():
    st = start("5", "4", "3", "2", carry_stock=False)
    for seat in (1, 2, 3, 0):
        act(st, seat, "keep")
    assert len(st.shuffles) == 2


def test_used_cards_are_reshuffled_when_the_stock_runs_out():
    # a 6-card deck: round 1 draws 4 and the dealer 1 more; round 2's
    # second draw finds the stock empty: the used cards (the 4 shown and the
    # discard; not the card seat 2 already holds) make the new stock
    deck = "5:2 4:2 3:1 2:1"
    game = solver.load_game("dix-exchange", deck=deck)
    deal = {"first_dealer": 0, "shuffles": ["5 5 4 4 3 2", "4 4 5 3 5"]}
    st = game.new_initial_state(deal=deal)
    for seat in (1, 2, 3):
        act(st, seat, "keep")
    act(st, 0, "draw")                   # discards 4, draws 3; showdown 5 5 4 3
    assert st.tokens == [2, 3, 3, 3]
    assert len(st.shuffles) == 2 and st.drawn[2] == (0, 5) and st.drawn[3] == (1, 0)
    assert sorted(st.shuffles[1]) == sorted(VALUE_INDEX[v] for v in "4 4 5 3 5".split())
    # a record whose second stock is not a shuffle of the used cards
    bad = {"first_dealer": 0, "shuffles": ["5 5 4 4 3 2", "4 4 5 2 5"]}
    rec = {"game": "dix-exchange", "options": {"deck": deck}, "deal": bad,
           "actions": ["keep", "keep", "keep", "draw"]}
    with pytest.raises(PositionError) as exc:
        position.from_json(rec)
    assert exc.value.path == "deal.shuffles[1]"


# ----------------------------------------------------------------------
# hidden information

def test_a_third_player_cannot_tell_a_swap_between_two_others():
    # the same public play in two worlds that differ only in the cards
    # seats 1 and 2 swapped: seat 3 and seat 0 see the same thing
    worlds = [start("0", "2", "5", "6"), start("1", "3", "5", "6")]
    for st in worlds:
        act(st, 1, "ask")
        act(st, 2, "accept")
        act(st, 2, "keep")
    for seat in (3, 0):
        assert (worlds[0].information_state_string(seat)
                == worlds[1].information_state_string(seat))
    for seat in (1, 2):
        assert (worlds[0].information_state_string(seat)
                != worlds[1].information_state_string(seat))
    # and a world sampled from seat 3's view keeps seat 3's information
    view = worlds[0].information_state(3).view
    assert places(view["deal"]["shuffles"][0])[:4] == ["?", "?", "5", "?"]
    sv = position.from_json(view)
    for w in range(5):
        assert sv.world(seed=w).information_state_string(3) == str(worlds[0].information_state(3))


def test_the_dealers_stock_card_is_private_until_the_showdown():
    st = start("5", "4", "3", "0", "8")
    for seat in (1, 2, 3):
        act(st, seat, "keep")
    before = st.information_state(1).view
    assert places(before["deal"]["shuffles"][0])[4] == "?"
    act(st, 0, "draw")
    assert all(sees(st, s, 0, 4) for s in range(4))


def test_seat_view_claiming_an_unseen_card_is_rejected():
    st = start("0", "2", "5", "6")
    act(st, 1, "ask")
    act(st, 2, "accept")
    view = st.information_state(3).view
    view["deal"]["shuffles"][0] = "0" + view["deal"]["shuffles"][0][1:]
    with pytest.raises(PositionError) as exc:
        position.from_json(view)
    assert exc.value.path == "deal.shuffles[0][0]"
    view = st.information_state(1).view
    toks = places(view["deal"]["shuffles"][0])
    toks[1] = "?"
    view["deal"]["shuffles"][0] = " ".join(toks)
    with pytest.raises(PositionError, match="has seen this card") as exc:
        position.from_json(view)
    assert exc.value.path == "deal.shuffles[0][1]"


def test_records_round_trip():
    st = start("0", "2", "8", "5")
    act(st, 1, "ask")
    act(st, 2, "accept")
    act(st, 2, "ask")
    act(st, 3, "block 8")
    rec = position.to_json(st)
    assert rec["actions"] == ["ask", "accept", "ask", "block 8"]
    loaded = position.from_json(json.loads(json.dumps(rec)))
    assert position.to_json(loaded) == rec
    assert loaded.state().tokens == st.tokens


# ----------------------------------------------------------------------
# options

def test_deck_option_forms():
    std = solver.load_game("dix-exchange")
    assert std.size == 55
    assert solver.load_game("dix-exchange", deck="standard") == std
    mapping = {"10": 4, 9: 4, "8": 4, "7": 4, "6": 4, "5": 4, "4": 4, "3": 4, "2": 4,
               "1": 4, "0": 3, "00": 3, "000": 3, "0000": 3, "cj": 3}
    assert solver.load_game("dix-exchange", deck=mapping) == std
    small = solver.load_game("dix-exchange", deck="9x2, 1=3 cj:1")
    assert small.options["deck"] == "9:2 1:3 CJ:1" and small.size == 6
    assert repr(small) == "load_game('dix-exchange', deck='9:2 1:3 CJ:1')"


@pytest.mark.parametrize("options,culprit", [
    ({"players": 3}, "players"),
    ({"players": 13}, "players"),
    ({"players": "7"}, "players"),
    ({"carry_stock": "yes"}, "carry_stock"),
    ({"tokens": 0}, "tokens"),
    ({"deck": "11:4"}, "11"),
    ({"deck": "9:four"}, "9"),
    ({"deck": "9"}, "'9'"),
    ({"deck": {"9": -1}}, "9"),
    ({"deck": {"9": 2, 9: 2}}, "9"),
    ({"deck": 55}, "deck"),
    ({"deck": "1:4"}, "deck"),
    ({"deck": "9:0"}, "deck"),
    ({"decks": "standard"}, "decks"),
])
def test_bad_options_name_the_culprit(options, culprit):
    with pytest.raises(OptionError) as exc:
        solver.load_game("dix-exchange", **options)
    assert culprit in str(exc.value)


# ----------------------------------------------------------------------
# bad actions and notation

def test_asking_when_you_must_accept():
    st = start("0", "2", "5", "6")
    act(st, 1, "ask")
    for text in ("ask", "keep"):
        with pytest.raises(IllegalActionError) as exc:
            st.apply_action_string(text)
        assert exc.value.action == text and "must accept" in exc.value.reason


def test_blocking_with_five_or_lower():
    st = start("0", "5", "5", "6")
    act(st, 1, "ask")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("block 5")
    assert exc.value.action == "block 5" and "5 cannot block" in exc.value.reason
    with pytest.raises(IllegalActionError, match="cannot block"):
        st.apply_action_string("block")             # bare block: seat 2's own 5
    st2 = start("0", "9", "5", "6")
    act(st2, 1, "ask")
    with pytest.raises(IllegalActionError, match="does not hold 10"):
        st2.apply_action_string("block 10")
    assert st2.string_to_action("block") == BLOCK + VALUE_INDEX["9"]


def test_acting_out_of_turn():
    st = start("0", "9", "5", "6")
    with pytest.raises(IllegalActionError, match="no request is pending"):
        st.apply_action_string("accept")
    with pytest.raises(IllegalActionError, match="no request is pending"):
        st.apply_action_string("block 9")
    with pytest.raises(IllegalActionError, match="only the dealer"):
        st.apply_action_string("draw")
    act(st, 1, "keep")
    act(st, 2, "keep")
    act(st, 3, "keep")
    with pytest.raises(IllegalActionError, match="does not ask"):
        st.apply_action_string("ask")
    act(st, 0, "keep")
    assert st.history() == [KEEP] * 4


def test_actions_after_the_end():
    st = start("1", "1", "5", "6", "4", "3", tokens=1)
    for seat in (1, 2, 3, 0):
        act(st, seat, "keep")
    act(st, 0, "keep")
    act(st, 3, "keep")
    assert st.is_terminal() and st.winner == 0
    with pytest.raises(IllegalActionError, match="over"):
        st.apply_action(KEEP)


@pytest.mark.parametrize("text", ["blok 9", "block 11", "block", "", "ask please", "9"])
def test_malformed_notation(text):
    st = start("0", "9", "5", "6")
    with pytest.raises(NotationError) as exc:
        st.string_to_action(text)
    assert repr(text) in str(exc.value)


def test_notation_aliases_and_round_trip():
    st = start("0", "9", "5", "6")
    assert st.string_to_action("KEEP") == KEEP == st.string_to_action("stay")
    assert st.string_to_action("exchange") == ASK == st.string_to_action("Swap")
    assert st.string_to_action("ok") == ACCEPT
    assert st.string_to_action("stock") == DRAW
    assert st.string_to_action("block loup") == BLOCK + VALUE_INDEX["9"]
    assert st.string_to_action("block Chat-Joker") == BLOCK + VALUE_INDEX["CJ"]
    assert st.string_to_action("block cj") == BLOCK + VALUE_INDEX["CJ"]
    for a in range(BLOCK + len(EXCHANGE_VALUES)):
        assert st.string_to_action(st.action_to_string(a)) == a
    with pytest.raises(NotationError):
        st.action_to_string(99)
    with pytest.raises(NotationError):
        st.string_to_action(7)


@pytest.mark.parametrize("deal,path", [
    ({"first_dealer": 4, "shuffles": []}, "deal.first_dealer"),
    ({"first_dealer": 0, "shuffles": ["5 4 X 2"]}, "deal.shuffles[0][2]"),
    ({"first_dealer": 0, "shuffles": ["CJ CJ CJ CJ"]}, "deal.shuffles[0]"),
    ({"first_dealer": 0, "shuffles": [3]}, "deal.shuffles[0]"),
    ({"first_dealer": 0, "stock": []}, "deal"),
])
def test_bad_records_name_the_json_path(deal, path):
    with pytest.raises(PositionError) as exc:
        position.from_json({"game": "dix-exchange", "deal": deal, "actions": []})
    assert exc.value.path == path


def test_illegal_action_in_a_record_names_its_index():
    rec = {"game": "dix-exchange", "deal": {"first_dealer": 0,
                                            "shuffles": [shuffle("0", "2", "5", "6")]},
           "actions": ["ask", "block 2"]}
    with pytest.raises(PositionError) as exc:
        position.from_json(rec)
    assert exc.value.path == "actions[1]" and "2 cannot block" in str(exc.value)


def test_short_shuffle_is_rejected():
    rec = {"game": "dix-exchange", "deal": {"first_dealer": 0, "shuffles": ["5 4 3 2"]},
           "actions": []}
    with pytest.raises(PositionError) as exc:
        position.from_json(rec)
    assert exc.value.path == "deal.shuffles[0]"


# ----------------------------------------------------------------------
# the command line

def test_cli_plays_seven_players_to_the_end(capsys):
    from bots.cli import main
    assert main(["play", "dix-exchange", "--players", "7", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "is the first dealer" in out
    assert "showdown:" in out and "draws" in out
    assert out.splitlines()[-2].endswith("wins")


# ----------------------------------------------------------------------
# seat views with stocks rebuilt from used cards (rare with 55 cards)

def test_views_resample_across_rebuilt_stocks():
    import random
    game = solver.load_game("dix-exchange", deck="10:2 8:2 7:2 CJ:2 0:2 3:1", tokens=3)
    stocks = 0
    for seed in range(3):
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(st.history()) < 120:
            for seat in range(4):
                info = st.information_state_string(seat)
                sv = position.from_json(st.information_state(seat).view)
                assert sv.world(seed=seed).information_state_string(seat) == info
            st.apply_action(rng.choice(st.legal_actions()))
        stocks += len(st.shuffles)
    assert stocks >= 8


def test_docs_examples_load():
    import pathlib
    import re
    text = (pathlib.Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    section = text.split("## dix-exchange", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    rec = position.from_json(json.loads(blocks[0]))
    view = position.from_json(json.loads(blocks[1]))
    st = rec.state()
    assert st.tokens == [3, 2, 2, 3]
    assert view.to_json() == st.information_state(2).view
