"""Tricks: the draw for first deal, bad-hand redeals in Jacks, the set
structure, zero-sum sets, bad input, seat views."""

import random

import pytest

import solver
from solver import position
from solver.cards import FRENCH
from solver.errors import IllegalActionError, NotationError, PositionError
from solver.games.contract_match.state import CHOOSE, CLAIM, LAYOUT_PLAY, NO_REDEAL, REDEAL
from solver.games.tricks.game import is_bad_hand


def mask(text):
    return sum(1 << c for c in FRENCH.parse_cards(text))


def fmt(hands):
    return [FRENCH.format_cards(h) for h in hands]


# dealer seat 0 (AS is the high card); seat 1 holds 2H 3H 2D 3D 2C: a bad hand
BAD_FOR_1 = ["AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH KH",
             "2H 3H 2D 3D 2C QH JH TH 9H 8H 7H 6H 5H",
             "2S 3S 4H AD KD QD JD TD 9D 8D 7D 6D 5D",
             "4D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"]
# seat 2 holds 2H 2D 2C 3H 3S: not bad (its 3s share the suit of one 2 only)
NOT_BAD_FOR_2 = ["AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH KH",
                 "QH JH TH 9H 8H 7H 6H 5H 4H 2S 3D 3C 4D",
                 "2H 2D 2C 3H 3S AD KD QD JD TD 9D 8D 7D",
                 "6D 5D AC KC QC JC TC 9C 8C 7C 6C 5C 4C"]


def state_of(deals, draws=("AS 2H 3C 4D",), seed=1):
    game = solver.load_game("tricks")
    return game.new_initial_state(seed=seed, deal={"draws": list(draws), "deals": deals})


def names(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_bad_hand_examples():
    assert is_bad_hand(mask("2H 3H 2D 3D 2C"))
    assert not is_bad_hand(mask("2H 2D 2C 3H 3S"))
    assert is_bad_hand(mask("2H 2D 2C 2S"))
    assert is_bad_hand(mask("2S 3S 2C 3C 2D AH KH"))
    assert not is_bad_hand(mask("2H 3H 2D 3D"))           # two 2s only
    assert not is_bad_hand(mask("2H 2D 2C 3S 3C"))        # 3S's suit has no 2


def test_draw_for_first_deal():
    st = state_of([BAD_FOR_1], draws=["AS AH 2C 3D", "KS 2H 3C 4D"])
    assert st.chooser == 0 and st.current_player() == 0    # the tie of aces redraws
    assert "tie for highest" in st.events[0]
    st = state_of([BAD_FOR_1], draws=["2S 3H 4C 5D"])
    assert st.chooser == 3
    # seeded draws: a unique highest card decides, ties redraw
    for seed in range(30):
        st = solver.load_game("tricks").new_initial_state(seed=seed)
        draws = [v for k, v in st._chance.log if k == "draw"]
        last = [c & 15 for c in draws[-1]]
        assert last.count(max(last)) == 1 and st.chooser == last.index(max(last))
        for d in draws[:-1]:
            ranks = [c & 15 for c in d]
            assert ranks.count(max(ranks)) > 1


def test_draw_records_are_checked():
    bad = {"game": "tricks", "deal": {"draws": ["AS 2H 3C 4D", "KS 2H 3C 4D"],
                                      "deals": [BAD_FOR_1]}, "actions": []}
    with pytest.raises(PositionError) as exc:
        position.from_json(bad)
    assert exc.value.path == "deal.draws[1]"
    tie = {"game": "tricks", "deal": {"draws": ["AS AH 2C 3D"], "deals": [BAD_FOR_1]},
           "actions": []}
    with pytest.raises(PositionError) as exc:
        position.from_json(tie)
    assert exc.value.path == "deal.draws[0]"


def test_accepted_and_rejected_claims():
    st = state_of([BAD_FOR_1, NOT_BAD_FOR_2])
    st.apply_action_string("contract jacks")
    assert st.phase == CLAIM and st.current_player() == 1
    assert names(st) == ["no redeal", "redeal"]            # seat 1's hand is bad
    st.apply_action_string("claim")                         # alias of "redeal"
    # a new deal through chance, still Jacks, the claims start again
    assert len(st.deal_logs) == 2 and st.deal_logs[0].claim == 1
    assert st.phase == CLAIM and st.current_player() == 1 and st.used == [4]
    assert st.log.hands[2] == tuple(sorted(FRENCH.parse_cards(NOT_BAD_FOR_2[2])))
    assert names(st) == ["no redeal"]                       # seat 1's new hand is good
    st.apply_action_string("no redeal")
    assert names(st) == ["no redeal"]
    with pytest.raises(IllegalActionError) as exc:          # 2H 2D 2C 3H 3S: not bad
        st.apply_action_string("redeal")
    assert exc.value.reason == "hand is not bad" and "'redeal'" in str(exc.value)
    st.apply_action_string("keep")
    st.apply_action_string("no redeal")                     # seat 3; the dealer is not asked
    assert st.phase == LAYOUT_PLAY and st.current_player() == 0
    assert st.labels == ["contract jacks", "redeal", "no redeal", "no redeal", "no redeal"]


def test_declining_a_bad_hand_and_the_dealer_not_asked():
    deals = [[BAD_FOR_1[1], BAD_FOR_1[0], BAD_FOR_1[2], BAD_FOR_1[3]]]   # dealer's hand bad
    st = state_of(deals)
    st.apply_action_string("contract jacks")
    asked = []
    while st.phase == CLAIM:
        asked.append(st.current_player())
        st.apply_action(NO_REDEAL)
    assert asked == [1, 2, 3] and st.phase == LAYOUT_PLAY


def _play_deal(st):
    n = len(st.rows)
    while len(st.rows) == n:
        st.apply_action(st.legal_actions()[0])


def test_dealer_claims_only_when_jacks_is_the_last_game():
    game = solver.load_game("tricks")
    rng = random.Random(4)
    deals = [fmt(game.generate_deal(rng)) for _ in range(4)]
    # the fifth hand gives the dealer (seat 0) all four 2s
    deals.append(["2S 2H 2D 2C AS KS QS JS TS 9S 8S 7S 6S",
                  "5S 4S 3S AH KH QH JH TH 9H 8H 7H 6H 5H",
                  "4H 3H AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
                  "3D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"])
    deals.append(fmt(game.generate_deal(rng)))
    st = state_of(deals)
    for name in ("diamonds", "queens", "tricks", "kinghearts"):
        st.apply_action_string(f"contract {name}")
        _play_deal(st)
    assert names(st) == ["contract jacks"]                  # the fifth is forced
    st.apply_action_string("contract jacks")
    for seat in (1, 2, 3):
        assert st.current_player() == seat
        st.apply_action_string("no redeal")
    assert st.current_player() == 0 and names(st) == ["no redeal", "redeal"]
    st.apply_action_string("redeal")
    assert st.deal_logs[4].claim == 0 and len(st.deal_logs) == 6
    assert st.phase == CLAIM and st.current_player() == 1


def test_claim_outside_the_claims_and_out_of_turn():
    st = state_of([BAD_FOR_1])
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("redeal")
    assert "'redeal'" in str(exc.value) and "choose a contract" in exc.value.reason
    st.apply_action_string("contract jacks")
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_for(0, REDEAL)
    assert "'redeal'" in str(exc.value) and "seat 1's turn" in exc.value.reason
    st.apply_action_for(1, NO_REDEAL)


def test_contract_already_played_and_layout_card_that_does_not_fit():
    st = state_of([BAD_FOR_1])
    st.apply_action_string("contract kinghearts")
    _play_deal(st)
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action_string("contract kinghearts")
    assert "'contract kinghearts'" in str(exc.value) and "already played in set 1" in \
        exc.value.reason
    st.apply_action_string("contract jacks")
    while st.phase == CLAIM:
        st.apply_action(NO_REDEAL)
    card = next(c for c in FRENCH.cards if (st.log.play.hands[0] >> c) & 1 and c & 15 != 11)
    with pytest.raises(IllegalActionError) as exc:
        st.apply_action(card)
    assert repr(FRENCH.to_string(card)) in str(exc.value)
    assert "does not fit" in exc.value.reason


def test_scripted_contracts():
    # seat 0 deals and leads AS; nobody else holds a spade or a heart above
    # the seat-0 hearts, so seat 0 takes every trick of Tricks: 13 x -15
    st = state_of([BAD_FOR_1])
    st.apply_action_string("contract tricks")
    while not st.rows:
        st.apply_action(max(st.legal_actions()))
    assert st.deal_logs[0].play.tricks_won == [13, 0, 0, 0]
    assert st.rows[0]["scores"] == [-195, 0, 0, 0]


def test_every_set_sums_to_zero():
    game = solver.load_game("tricks")
    redeals = 0
    for seed in range(40):
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply_action(REDEAL if REDEAL in legal and rng.random() < 0.7
                            else rng.choice(legal))
        redeals += sum(1 for log in st.deal_logs if log.claim >= 0)
        assert len(st.rows) == 20
        for k in range(4):
            rows = [r for r in st.rows if r["round"] == k]
            assert len({r["chooser"] for r in rows}) == 1
            assert sorted(r["contract"] for r in rows) == [0, 1, 2, 3, 4]
            assert sum(sum(r["scores"]) for r in rows) == 0
        assert st.returns() == [float(t) for t in st.totals] and sum(st.totals) == 0
        assert [r["chooser"] for r in st.rows[::5]] == [(st.rows[0]["chooser"] + k) % 4
                                                         for k in range(4)]
    assert redeals > 0


def test_notation():
    st = state_of([BAD_FOR_1])
    for text, canon in (("contract ltoosh", "contract tricks"), ("Contract Jacks", "contract jacks"),
                        ("contract trix", "contract jacks"), ("contract king", "contract kinghearts"),
                        ("claim", "redeal"), ("keep", "no redeal"), ("bad hand", "redeal")):
        assert st.action_to_string(st.string_to_action(text)) == canon
    for bad in ("reveal KH", "contract spades", "double"):
        with pytest.raises(NotationError) as exc:
            st.string_to_action(bad)
        assert repr(bad) in str(exc.value)


def test_views_after_a_redeal_and_mid_layout():
    st = state_of([BAD_FOR_1, NOT_BAD_FOR_2], seed=2)
    st.apply_action_string("contract jacks")
    st.apply_action_string("redeal")
    for _ in range(3):
        st.apply_action(NO_REDEAL)
    for _ in range(9):                  # into the layout, passes included
        st.apply_action(st.legal_actions()[0])
    assert st.phase == LAYOUT_PLAY
    for seat in range(4):
        info = st.information_state(seat)
        assert [h for s, h in enumerate(info.view["deal"]["deals"][0]) if s != seat] == [13] * 3
        view = position.from_json(info.view)
        for w in range(4):
            world = view.world(seed=w)
            assert world.information_state_string(seat) == str(info)
            # the claim proves seat 1's first hand was bad, in every world
            assert is_bad_hand(sum(1 << c for c in world.deal_logs[0].hands[1]))
            for s, fitting in world.deal_logs[1].play.passes:
                assert not fitting & sum(1 << c for c in world.deal_logs[1].hands[s])


def test_cli_plays_to_the_end(capsys):
    from bots.cli import main
    assert main(["play", "tricks", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "match score table:" in out and "match over:" in out
    assert main(["play", "trix", "--seed", "5", "--option", "partners=true"]) == 0
    out = capsys.readouterr().out
    assert "team 0+2" in out and "match over:" in out


def test_phase_after_each_deal():
    st = state_of([BAD_FOR_1])
    st.apply_action_string("contract diamonds")
    _play_deal(st)
    assert st.phase == CHOOSE and st.current_player() == 0 and len(names(st)) == 4
