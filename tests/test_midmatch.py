"""Positions from the middle of a match (docs/positions.md, "Positions from
the middle of a match"): a record or seat view that starts at the current
deal with a ``match`` object.  For each game (and option sets) a seeded
match is played some deals in; its mid-match record and every seat's
mid-match view must be fixed points, agree with the whole-match state when
the same actions follow (legal actions, returns, information states of this
deal, the final result), and the world samplers of a mid-match view give
worlds consistent with the whole-match view; a search takes a mid-match
view; every bad ``match`` field is refused with its JSON path."""

from __future__ import annotations

import json
import random

import pytest

import solver
from solver.errors import PositionError
from solver.position import from_json, to_json

#: (game, options, seed, deals to play in before the position, actions into it)
CASES = [
    ("dix", {"target": 40}, 3, 1, 9),
    ("dix", {"variant": "seventeen", "target": 25}, 5, 1, 7),
    ("trix", {}, 11, 6, 9),
    ("trix", {"partners": True}, 12, 5, 4),
    ("tricks", {}, 13, 6, 7),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, 12),
    ("dixie-rook", {"players": 6, "target": 120, "lose_at": 300}, 15, 1, 10),
    ("dix-exchange", {"players": 6}, 16, 1, 3),
    ("dix-exchange", {"players": 4, "carry_stock": False}, 17, 1, 3),
    ("dix-exchange", {}, 18, 3, 2),             # the stock carries over: match.stock
    ("dix-exchange", {"players": 5}, 19, 9, 1),  # fewer than 5 left by then: carried
]


def _ids(case):
    game, opts, *_ = case
    return game + "".join(f"-{k}={v}" for k, v in sorted(opts.items()))


def _play_match(game, seed):
    """A whole seeded match played by a seeded random player: its record
    (every chance outcome) and its actions."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return to_json(state)


def _point(game, whole, deals_in, acts_in):
    """The whole-match state (deals from the whole record, so later deals are
    scripted) at ``acts_in`` actions into the ``deals_in``-th deal after the
    first, and the action index of that point."""
    actions = whole["actions"]
    rec = dict(whole, actions=[])
    state = from_json(rec).state()
    starts = 0
    i = 0
    while i < len(actions):
        before = state.deal_start()[1]
        state.apply_action(state.string_to_action(actions[i]))
        i += 1
        if state.deal_start()[1] != before:
            starts += 1
            if starts == deals_in:
                break
    for _ in range(acts_in):
        if i >= len(actions) or state.is_terminal():
            break
        nxt = state.clone()
        nxt.apply_action(nxt.string_to_action(actions[i]))
        if nxt.deal_start() != state.deal_start():
            break                        # stay inside the deal
        state = nxt
        i += 1
    return state, i


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_midmatch_record_and_views_agree_with_the_whole_match(case):
    name, opts, seed, deals_in, acts_in = case
    game = solver.load_game(name, **opts)
    whole = _play_match(game, seed)
    state, i = _point(game, whole, deals_in, acts_in)
    assert not state.is_terminal()
    at, first, match = state.deal_start()
    assert first > 0, "the position is past the first deal"

    # the mid-match record is a fixed point and replays to the same state
    mid = to_json(state, from_deal="current")
    assert "match" in mid
    assert json.dumps(mid).count('"actions"') == 1
    rec = from_json(mid)
    assert rec.to_json() == mid
    assert from_json(json.dumps(mid)).to_json() == mid
    ms = rec.state()
    assert ms.current_player() == state.current_player()
    assert ms.legal_actions() == state.legal_actions()
    assert ms.round_returns() == state.round_returns()
    assert rec.from_current_deal().to_json() == mid

    # each seat's mid-match view: a fixed point, equal to the whole view's
    # from_current_deal, and to the information state of the mid-match state
    views = {}
    for seat in range(game.num_players):
        v = ms.information_state(seat).view
        assert v.get("match") is not None
        sv = from_json(v)
        assert sv.to_json() == v
        whole_view = from_json(state.information_state(seat).view)
        assert whole_view.from_current_deal().to_json() == v
        views[seat] = sv

    # the same actions follow: the same legal actions, information states of
    # this deal, and the same final result (later deals from the whole record)
    full_mid = dict(mid)
    scripted = state._chance.scripted
    full_mid["deal"] = game.format_deal([("match", match)] + list(scripted[at:]))
    a = from_json(dict(full_mid, actions=mid["actions"])).state()
    b = state.clone()
    for text in whole["actions"][i:]:
        assert a.legal_actions() == b.legal_actions()
        assert a.current_player() == b.current_player()
        same_deal = b.deal_start()[2] == match and b.deal_start()[1] == first
        if same_deal and len(a.history()) % 5 == 0:
            for seat in range(game.num_players):
                got = a.information_state(seat).view
                assert from_json(b.information_state(seat).view).from_current_deal() \
                    .to_json() == got
        act = b.string_to_action(text)
        a.apply_action(act)
        b.apply_action(act)
    assert a.is_terminal() and b.is_terminal()
    assert a.returns() == b.returns()

    # worlds of the mid-match view are consistent with it and with the whole
    # match view's information state for this deal
    seat = state.current_player()
    sv = views[seat]
    whole_sv = from_json(state.information_state(seat).view)
    sampler, whole_sampler = sv.sampler(), whole_sv.sampler()
    rng = random.Random(5)
    for _ in range(4):
        for smp in (sampler, whole_sampler):
            w = smp.sample(rng)
            assert w.legal_actions() == state.legal_actions()
            wm = from_json(to_json(w, from_deal="current")).state()
            assert wm.information_state(seat).view == sv.to_json()
        w = from_json(sv.view).world(rng.randrange(100))
        assert w.information_state(seat).view == sv.to_json()


@pytest.mark.parametrize("case", [c for c in CASES if c[1] in ({"target": 40}, {},
                                                                 {"players": 6}, {"target": 120, "lose_at": 300})],
                         ids=_ids)
def test_best_move_takes_a_midmatch_view(case):
    from solver.search import Limit, best_move
    name, opts, seed, deals_in, acts_in = case
    game = solver.load_game(name, **opts)
    state, _ = _point(game, _play_match(game, seed), deals_in, acts_in)
    view = from_json(state.information_state(state.current_player()).view).from_current_deal()
    res = best_move(view, limit=Limit(iterations=60), seed=1, threads=1)
    assert res.action in [state.action_to_string(a) for a in state.legal_actions()]
