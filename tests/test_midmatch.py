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


def _deal_worlds(sampler) -> int:
    """The exact number of completions of the deal in play's hidden cards
    the game's sampler draws from."""
    if hasattr(sampler, "models"):                       # dix
        return sampler.models[-1].sampler.count
    if hasattr(sampler, "live_model"):                   # dix-exchange
        return sampler.live_model.count
    return sampler.sampler.count if sampler.sampler is not None else 1


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
        assert a.round_returns() == b.round_returns()
        for seat in range(game.num_players):             # what each seat knows now
            assert a.information_state(seat).known == b.information_state(seat).known
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
    # the same number of worlds for the deal in play (dix-exchange: a carried
    # stock's view forgets the earlier showdowns, so it allows more)
    mid_count, whole_count = _deal_worlds(sampler), _deal_worlds(whole_sampler)
    if name == "dix-exchange" and "stock" in match:
        assert mid_count >= whole_count > 0
    else:
        assert mid_count == whole_count
    rng = random.Random(5)
    for _ in range(4):
        for smp in (sampler, whole_sampler):
            w = smp.sample(rng)
            assert w.legal_actions() == state.legal_actions()
            wm = from_json(to_json(w, from_deal="current")).state()
            assert wm.information_state(seat).view == sv.to_json()
        w = from_json(sv.view).world(rng.randrange(100))
        assert w.information_state(seat).view == sv.to_json()


SEARCHED = [c for c in CASES
            if c[1] in ({"target": 40}, {}, {"players": 6}, {"target": 120, "lose_at": 300})]


@pytest.mark.parametrize("case", SEARCHED, ids=_ids)
def test_best_move_takes_a_midmatch_view(case):
    from solver.search import Limit, best_move
    name, opts, seed, deals_in, acts_in = case
    game = solver.load_game(name, **opts)
    state, _ = _point(game, _play_match(game, seed), deals_in, acts_in)
    view = from_json(state.information_state(state.current_player()).view).from_current_deal()
    res = best_move(view, limit=Limit(iterations=60), seed=1, trees=1)
    assert res.action in [state.action_to_string(a) for a in state.legal_actions()]


# ----------------------------------------------------------------------
# bad input: every bad match field is refused with its JSON path

def _mid(name, opts, seed, deals_in, acts_in=0, seat=None):
    game = solver.load_game(name, **opts)
    state, _ = _point(game, _play_match(game, seed), deals_in, acts_in)
    if seat is None:
        return to_json(state, from_deal="current")
    return from_json(state.information_state(seat).view).from_current_deal().to_json()


def _with_match(doc, **changes):
    out = json.loads(json.dumps(doc))
    for key, value in changes.items():
        if value is _DROP:
            out["match"].pop(key, None)
        else:
            out["match"][key] = value
    return out


_DROP = object()

BAD = [
    # (game, options, seed, deals in, changes, path, message)
    ("dix", {"target": 40}, 3, 1, {"round": 0}, "match.round", "round number"),
    ("dix", {"target": 40}, 3, 1, {"round": "2"}, "match.round", "must be int"),
    ("dix", {"target": 40}, 3, 1, {"dealer": 2}, "match.dealer", "must be a seat 0..1"),
    ("dix", {"target": 40}, 3, 1, {"totals": [1]}, "match.totals", "one total per seat"),
    ("dix", {"target": 40}, 3, 1, {"totals": [1.5, 0]}, "match.totals[0]", "integer"),
    ("dix", {"target": 40}, 3, 1, {"round": 2, "totals": [30, -4]}, "match.totals[0]",
     "lies in -78..26"),
    ("dix", {"target": 40}, 3, 1, {"round": 2, "totals": [13, 12]}, "match.totals",
     "less 4 per ten-trick"),
    ("dix", {"target": 40}, 3, 1, {"round": 5, "totals": [41, -1]}, "match.totals",
     "already over"),
    ("dix", {"target": 40}, 3, 1, {"first_dealer": 0}, "match", "unknown key"),
    ("trix", {}, 11, 6, {"kingdom": 5}, "match.kingdom", "kingdom number 1..4"),
    ("trix", {}, 11, 6, {"owner": 4}, "match.owner", "seat 0..3"),
    ("trix", {}, 11, 6, {"played": ["queens", "queen"]}, "match.played[1]", "listed twice"),
    ("trix", {}, 11, 6, {"played": ["bridge"]}, "match.played[0]", "unknown contract"),
    ("trix", {}, 11, 6, {"played": ["queens", "kinghearts", "diamonds", "ltoosh", "trix"]},
     "match.played", "every contract of this kingdom is played"),
    ("trix", {}, 11, 6, {"played": [], "totals": [10, 0, 0, -20]}, "match.totals",
     "sum to -10"),
    ("trix", {}, 11, 6, {"totals": [0, 0, 0, 99999]}, "match.totals[3]", "lies in"),
    ("trix", {}, 11, 6, {"kingdom": 1, "played": [], "totals": [0, 0, 0, 0], "owner": 0},
     "match.owner", "holds 7H"),
    ("tricks", {}, 13, 6, {"set": 0}, "match.set", "set number"),
    ("tricks", {}, 13, 6, {"owner": 1}, "match", "unknown key"),
    ("tricks", {}, 13, 6, {"played": "queens"}, "match.played", "must be list"),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, {"totals": [7, 0]},
     "match.totals[0]", "multiple of 5"),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, {"hand": 4, "totals": [125, 0]},
     "match.totals", "already over"),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, {"hand": 2, "totals": [200, 0]},
     "match.totals[0]", "lies in -120..120"),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, {"dealer": 4}, "match.dealer",
     "seat 0..3"),
    ("dixie-rook", {"target": 120, "lose_at": 300}, 14, 1, {"hand": _DROP}, "match",
     "missing 'hand'"),
    ("dix-exchange", {}, 18, 3, {"tokens": [0, 0, 0, 3]}, "match.tokens", "already over"),
    ("dix-exchange", {}, 18, 3, {"tokens": [3, 3, 3, 4]}, "match.tokens[3]", "0..3 tokens"),
    ("dix-exchange", {}, 18, 3, {"tokens": [0, 3, 3, 3], "dealer": 0}, "match.dealer",
     "holds no token"),
    ("dix-exchange", {}, 18, 3, {"round": 1, "tokens": [2, 3, 3, 3]}, "match.tokens",
     "round 1 starts"),
    ("dix-exchange", {}, 18, 3, {"stock": _DROP}, "match", "missing 'stock'"),
    ("dix-exchange", {}, 18, 3, {"stock": "11 5"}, "match.stock[0]", "unknown card value"),
    ("dix-exchange", {}, 18, 3, {"stock": "10 10 10 10 10"}, "match.stock", "5 cards 10"),
    ("dix-exchange", {"players": 6}, 16, 1, {"stock": "5 4"}, "match.stock",
     "every card is shuffled"),
    ("dix-exchange", {"carry_stock": False}, 17, 1, {"stock": "5 4"}, "match.stock",
     "carry_stock is off"),
]


@pytest.mark.parametrize("name,opts,seed,deals_in,changes,path,message", BAD,
                         ids=[f"{b[0]}-{b[5]}-{b[6][:20]}" for b in BAD])
def test_bad_match_fields_name_their_path(name, opts, seed, deals_in, changes, path, message):
    doc = _with_match(_mid(name, opts, seed, deals_in), **changes)
    with pytest.raises(PositionError) as exc:
        from_json(doc)
    assert exc.value.path == path, str(exc.value)
    assert message in str(exc.value)
    # the same field is refused in a seat view
    view = _with_match(_mid(name, opts, seed, deals_in, seat=0), **changes)
    with pytest.raises(PositionError) as exc:
        from_json(view)
    # seat 0 sees its own hand of the first deal without 7H
    also = {"match.owner": "deal.deals[0]"}.get(path)
    assert exc.value.path in (path, also), str(exc.value)


def test_bad_midmatch_shapes():
    doc = _mid("dix", {"target": 40}, 3, 1)
    with pytest.raises(PositionError) as exc:
        from_json(dict(doc, match=[1, 2]))
    assert exc.value.path == "match" and "must be an object" in str(exc.value)
    bad = json.loads(json.dumps(doc))
    bad["deal"]["first_dealer"] = 0              # the dealer is in the match object
    with pytest.raises(PositionError) as exc:
        from_json(bad)
    assert exc.value.path == "deal" and "unknown key 'first_dealer'" in str(exc.value)
    with pytest.raises(PositionError) as exc:
        from_json({k: v for k, v in doc.items() if k != "deal"} | {"actions": []})
    assert "a record needs a 'deal' or a 'seed'" in str(exc.value)
    # a record with a match and a seed: the seed deals this round and later ones
    rec = from_json({"game": "dix", "match": doc["match"], "seed": 7, "actions": []})
    assert rec.to_json()["match"] == doc["match"]
    with pytest.raises(TypeError):
        to_json(rec, from_deal="current")
    with pytest.raises(ValueError):
        to_json(rec.state(), from_deal="first")
    # the whole-match form of a game without a match object is unaffected
    assert "match" not in to_json(solver.load_game("dix").new_initial_state(seed=1))


def test_unseen_runs_as_counts():
    view = _mid("dix", {"target": 40}, 3, 1, acts_in=0, seat=1)
    stock = view["deal"]["rounds"][0]["stock"]
    assert stock == 26                          # nothing drawn yet: the count
    view["deal"]["rounds"][0]["stock"] = ["?", 24, "?"]
    assert from_json(view).to_json()["deal"]["rounds"][0]["stock"] == 26
    for bad, path in ((25, "deal.rounds[0].stock"), (-1, "deal.rounds[0].stock"),
                      (["?", 0], "deal.rounds[0].stock[1]"),
                      (10**15, "deal.rounds[0].stock")):
        view["deal"]["rounds"][0]["stock"] = bad
        with pytest.raises(PositionError) as exc:
            from_json(view)
        assert exc.value.path == path, str(exc.value)
    # a partly seen stock: a list mixing cards, "?" and counts
    view = _mid("dix", {"target": 40}, 3, 1, acts_in=9, seat=1)
    toks = view["deal"]["rounds"][0]["stock"].split()
    last = max(i for i, t in enumerate(toks) if t != "?")
    mixed = toks[:last + 1] + [len(toks) - last - 1]
    again = dict(view, deal={"rounds": [dict(view["deal"]["rounds"][0], stock=mixed)]})
    assert from_json(again).to_json() == view
    # dix-exchange: a carried stock nobody has seen, and a named card nobody showed
    ex = _mid("dix-exchange", {}, 18, 3, acts_in=0, seat=0)
    carried = ex["match"]["stock"]
    assert isinstance(carried, (int, str))
    n = carried if isinstance(carried, int) else len(carried.split())
    toks = ["?"] * n if isinstance(carried, int) else carried.split()
    spot = next(i for i, t in enumerate(toks) if t == "?")
    toks[spot] = "10"
    with pytest.raises(PositionError) as exc:
        from_json(_with_match(ex, stock=" ".join(toks)))
    assert exc.value.path.startswith("match.stock")
