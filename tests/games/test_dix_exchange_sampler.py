"""The dix-exchange world sampler (issue #7): on small views every
consistent world is enumerated by brute force (the engine itself replays
each candidate and must give the seat the same view), the sampler's count
must equal it and its draws must be uniform over those worlds (chi-square,
fixed seeds); no draw is ever inconsistent; an inconsistent view is refused
with the culprit named.

Small decks keep the enumeration small.  With 4 players and first dealer 0
the draw order is seats 1, 2, 3, 0 (stock positions 0..3) and the dealer's
stock card is position 4; with a 7-card deck the carried-over stock runs
out in round 2, whose draws then come from a stock of the used cards --
including the round-1 dealer's discard, which only the dealer has seen.
"""

import json
import random
from collections import Counter

import pytest

import solver
from solver import position
from solver.errors import PositionError
from solver.game import Chance
from solver.games.dix_exchange import VALUE_INDEX, DixExchangeState
from tests.search.test_sampler import chi2_critical

SMALL4 = "9:1 7:1 5:2 0:2 CJ:1"          # 7 cards, 4 players: a stock rebuilt in round 2
SMALL5 = "10:1 8:1 7:1 3:1 0:1 CJ:1"     # 6 cards, 5 players: all cards every round


def places(shuffle) -> list:
    """A view's stock as a list of places ("?" unseen): a stock nobody has
    seen is written as its count."""
    return ["?"] * shuffle if isinstance(shuffle, int) else shuffle.split()



def play(deck, players, stock, actions, dealer=0, seed=0):
    game = solver.load_game("dix-exchange", players=players, deck=deck)
    state = game.new_initial_state(seed=seed, deal={"first_dealer": dealer,
                                                    "shuffles": [stock]})
    for text in actions:
        state.apply_action_string(text)
    return state


# ----------------------------------------------------------------------
# brute force: the engine decides what is consistent

class _NeedStock(Exception):
    def __init__(self, pool):
        super().__init__()
        self.pool = pool


class _Scripted(Chance):
    """Plays the scripted outcomes; a stock not scripted yet stops the
    replay and reports the pool the engine shuffles into it."""

    def draw(self, kind, generate):
        if self.pos >= len(self.scripted):
            raise _NeedStock(generate.pool)
        return super().draw(kind, generate)


def _fills(pool, known):
    """Every distinct arrangement of ``pool`` (a list of value indices) on
    the stock positions, agreeing with the ``known`` values (None: "?")."""
    rest = Counter(pool)
    rest.subtract(v for v in known if v is not None)
    if min(rest.values(), default=0) < 0:
        return
    holes = [i for i, v in enumerate(known) if v is None]

    def rec(j, out):
        if j == len(holes):
            yield tuple(out)
            return
        for v in sorted(rest):
            if rest[v] > 0:
                rest[v] -= 1
                out[holes[j]] = v
                yield from rec(j + 1, out)
                rest[v] += 1
        out[holes[j]] = None

    yield from rec(0, list(known))


def brute_worlds(game, view):
    """Every complete deal (a tuple of stocks) whose replay gives
    ``view["seat"]`` exactly ``view``."""
    seat = view["seat"]
    masked = [[None if t == "?" else VALUE_INDEX[t] for t in places(sh)]
              for sh in view["deal"]["shuffles"]]
    first = view["deal"]["first_dealer"]
    worlds = []

    def extend(stocks):
        chance = _Scripted(0, [("first_dealer", first)] + [("shuffle", s) for s in stocks])
        try:
            state = DixExchangeState(game, chance)
            for text in view["actions"]:
                state.apply_action_string(text)
        except _NeedStock as need:
            k = len(stocks)
            if k < len(masked):
                for fill in _fills(need.pool, masked[k]):
                    extend(stocks + [fill])
            return
        if len(stocks) == len(masked) and state.information_state(seat).view == view:
            worlds.append(tuple(stocks))

    extend([])
    return worlds


def world_of(state, nstocks):
    return tuple(v for kind, v in state._chance.log[1:nstocks + 1])


# ----------------------------------------------------------------------
# the views: early, after exchanges, after blocks, across rounds, and
# across a stock rebuilt from used cards (with an unseen discard)

ROUND1 = ["ask", "accept", "keep", "ask", "accept", "draw"]
ROUND2 = ["keep", "ask", "accept", "keep"]


def cases():
    out = []
    # 4 players, carried-over stock
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", [])
    out.append(("start, seat 2", st, 2))
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", ["ask", "accept"])
    out.append(("after an exchange, a party", st, 1))
    out.append(("after an exchange, not a party", st, 3))
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", ["ask", "accept", "ask", "block 9"])
    out.append(("after a Loup block", st, 0))
    st = play(SMALL4, 4, "0 7 5 9 CJ 5 0", ["ask", "block 7", "accept"])
    out.append(("after a Saute-lapin passed the request", st, 2))
    st = play(SMALL4, 4, "0 5 9 0 CJ 7 5", ROUND1)
    out.append(("round 2 starts, the dealer discarded", st, 2))
    out.append(("round 2, seat 0 saw its discard", st, 0))
    st = play(SMALL4, 4, "0 5 9 0 CJ 7 5", ROUND1 + ROUND2)
    out.append(("round 2, a stock rebuilt from used cards", st, 1))
    out.append(("round 2, rebuilt stock, seen by none of its cards", st, 2))
    out.append(("round 2, rebuilt stock, the discarder", st, 0))
    # 5 players: every round a shuffle of all the cards
    st = play(SMALL5, 5, "0 3 8 10 7 CJ", ["ask", "accept", "ask", "block 8"])
    out.append(("5 players, Putois block", st, 4))
    st = play(SMALL5, 5, "0 3 8 10 7 CJ", ["keep", "ask", "accept", "ask", "block 10", "keep",
                                           "draw", "ask"])
    out.append(("5 players, round 2", st, 1))
    return out


CASES = cases()
REBUILT = next(c for c in CASES if c[0] == "round 2, a stock rebuilt from used cards")


def test_views_cover_the_hard_cases():
    names = [c[0] for c in CASES]
    st = dict((n, s) for n, s, _ in CASES)["round 2, a stock rebuilt from used cards"]
    assert len(st.shuffles) == 2 and st.round_no == 1
    for seat in (1, 2):
        sampler = st.game.world_sampler(st.information_state(seat).view)
        assert sampler.model.tracked, "the unseen discard ties the two stocks"
    assert not st.game.world_sampler(st.information_state(3).view).model.tracked
    assert st.game.world_sampler(st.information_state(1).view).live == [0, 1]
    st = dict((n, s) for n, s, _ in CASES)["5 players, round 2"]
    assert st.game.world_sampler(st.information_state(1).view).live == [1]
    assert len(names) == len(set(names))


def _chi2(draw, support):
    """Draw ``60 x len(support)`` times (at least 2000); every draw must be
    in ``support`` and the frequencies uniform (chi-square, p = 0.001)."""
    index = set(support)
    draws = max(2000, 60 * len(support))
    seen = Counter()
    rng = random.Random(7)
    for _ in range(draws):
        w = draw(rng)
        assert w in index, "an inconsistent world was drawn"
        seen[w] += 1
    if len(support) > 1:
        expected = draws / len(support)
        stat = sum((seen[w] - expected) ** 2 / expected for w in support)
        assert stat < chi2_critical(len(support) - 1, 1e-3), (stat, len(support))


@pytest.mark.parametrize("name,state,seat", CASES, ids=[c[0] for c in CASES])
def test_count_matches_brute_force_and_draws_are_uniform(name, state, seat):
    game = state.game
    nstock = len(state.shuffles)
    view = state.information_state(seat).view
    worlds = brute_worlds(game, view)
    assert world_of(state, nstock) in worlds
    sampler = game.world_sampler(view)
    assert sampler.count == len(worlds)
    # complete worlds (complete_view's): uniform over all of them
    _chi2(lambda r: tuple(v for _, v in sampler.outcomes(r)[1:]), worlds)
    # the search's worlds: the live stocks uniform, the others kept from base
    live = sampler.live
    fixed = world_of(sampler.base, nstock)
    per_live = Counter(tuple(w[k] for k in live) for w in worlds)
    assert len(set(per_live.values())) == 1, "the other stocks are independent of the live ones"

    def draw(r):
        w = world_of(sampler.sample(r), nstock)
        assert w in worlds and all(w[k] == fixed[k] for k in range(nstock) if k not in live)
        return tuple(w[k] for k in live)

    _chi2(draw, list(per_live))


def test_complete_view_draws_the_sampler_outcomes():
    name, state, seat = REBUILT
    view = state.information_state(seat).view
    sampler = state.game.world_sampler(view)
    for s in range(20):
        rec = state.game.complete_view(view, random.Random(s))
        assert rec == {"deal": state.game.format_deal(sampler.outcomes(random.Random(s))),
                       "actions": view["actions"]}


# ----------------------------------------------------------------------
# never an inconsistent world (the 100k-draw run is in bench/)

def test_5000_draws_are_consistent_in_a_long_match():
    game = solver.load_game("dix-exchange", deck="10:2 8:2 7:2 CJ:2 0:2 3:1", tokens=5)
    rng = random.Random(3)
    st = game.new_initial_state(seed=3)
    while not st.is_terminal() and st.round_no < 6:
        st.apply_action(rng.choice(st.legal_actions()))
    assert len(st.shuffles) >= 3
    for seat in range(4):
        view = st.information_state(seat).view
        sampler = game.world_sampler(view)
        info = st.information_state_string(seat)
        r = random.Random(seat)
        for _ in range(1250):
            world = sampler.sample(r)
            assert world.information_state_string(seat) == info
            assert world.history() == st.history()


def test_sampled_worlds_replay_as_records():
    name, state, seat = REBUILT
    sv = position.from_json(state.information_state(seat).view)
    for s in range(20):
        world = sv.world(seed=s)
        rec = position.from_json(position.to_json(world))
        assert rec.state().information_state_string(seat) == world.information_state_string(seat)
        assert rec.state().events == world.events


def test_future_stocks_vary_between_draws():
    """A stock shuffled after the view (here: by the dealer's draw in the
    round being played) is chance, drawn afresh for each world."""
    deck = "9:1 7:1 5:2 0:2 CJ:1 3:1"
    st = play(deck, 4, "0 5 9 0 CJ 7 5 3", ["keep"] * 7)
    assert len(st.shuffles) == 1 and st.current_player() == st.dealer == 1
    sampler = st.game.world_sampler(st.information_state(1).view)
    rng = random.Random(1)
    stocks = set()
    for _ in range(100):
        w = sampler.sample(rng)
        w.apply_action_string("draw")            # the stock is empty: a new one
        stocks.add(w.shuffles[1])
    assert len(stocks) > 1


# ----------------------------------------------------------------------
# inconsistent views: refused, with the culprit named

def _view(state, seat):
    return json.loads(json.dumps(state.information_state(seat).view))


def _refused(view, match):
    with pytest.raises(PositionError, match=match) as exc:
        position.from_json(view)
    return exc.value


def test_a_rebuilt_stock_that_the_used_cards_cannot_make():
    st = play(SMALL4, 4, "0 5 9 0 CJ 7 5", ROUND1 + ROUND2)
    view = _view(st, 3)
    # seat 3 saw every used card: the discarded 9 (its own draw) and the
    # showdown's 5 0 0 CJ; it received stock 1's top card from seat 0
    toks = places(view["deal"]["shuffles"][1])
    assert toks[0] != "?" and toks[1:] == ["?"] * 4
    toks[0] = "7"
    view["deal"]["shuffles"][1] = " ".join(toks)
    err = _refused(view, r"deal\.shuffles\[1\]: this stock is a shuffle of the 5 cards used")
    assert "seen by seat 3: 9:1 5:1 0:2 CJ:1" in str(err) and "show 7:1" in str(err)


def test_a_view_hiding_a_blocking_card():
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", ["ask", "accept", "ask", "block 9"])
    view = _view(st, 1)
    toks = places(view["deal"]["shuffles"][0])
    assert toks[2] == "9"
    toks[2] = "?"
    view["deal"]["shuffles"][0] = " ".join(toks)
    _refused(view, r"deal\.shuffles\[0\]\[2\]: seat 1 has seen this card")


def test_a_view_naming_a_card_the_seat_never_saw():
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", ["ask", "accept"])
    view = _view(st, 3)
    toks = places(view["deal"]["shuffles"][0])
    toks[0] = "5"
    view["deal"]["shuffles"][0] = " ".join(toks)
    _refused(view, r"deal\.shuffles\[0\]\[0\]: seat 3 cannot see this card")


def test_a_full_stock_with_too_many_cards_of_a_value():
    st = play(SMALL4, 4, "5 0 9 0 CJ 7 5", [])
    view = _view(st, 2)
    toks = places(view["deal"]["shuffles"][0])
    toks[3] = "9"                  # seat 2 claims to know another 9: the deck has one
    toks[1] = "9"
    view["deal"]["shuffles"][0] = " ".join(toks)
    _refused(view, r"deal\.shuffles\[0\]")


def test_a_rebuilt_stock_of_the_wrong_size():
    name, state, seat = REBUILT
    view = _view(state, seat)
    view["deal"]["shuffles"][1] = " ".join(places(view["deal"]["shuffles"][1]) + ["?"])
    _refused(view, r"deal\.shuffles\[1\]: this stock is a shuffle of the 5 cards used")


# ----------------------------------------------------------------------
# a draw copies one replayed world and replaces its cards: it must be the
# state a full replay of the drawn deal gives

def _same_state(a, b):
    da = {k: v for k, v in vars(a).items() if k != "_chance"}
    db = {k: v for k, v in vars(b).items() if k != "_chance"}
    assert da == db
    assert a._chance.log == b._chance.log
    assert a.events == b.events


def test_a_draw_is_the_state_a_replay_gives():
    game = solver.load_game("dix-exchange", deck="10:2 8:2 7:2 CJ:2 0:2 3:1", tokens=5)
    views = [st.information_state(seat).view for _, st, seat in CASES]
    rng = random.Random(4)
    st = game.new_initial_state(seed=4)
    while not st.is_terminal():
        if rng.random() < 0.15:
            views.append(st.information_state(rng.randrange(4)).view)
        st.apply_action(rng.choice(st.legal_actions()))
    views.append(st.information_state(0).view)
    assert len(st.shuffles) >= 3
    r = random.Random(5)
    most_new = 0
    for view in views:
        sampler = solver.load_game(view["game"], **view["options"]).world_sampler(view)
        for _ in range(5):
            world = sampler.sample(r)
            again = sampler.replay(world._chance.log, seed=world._chance.seed)
            _same_state(world, again)
            # and it plays on like one, new stocks included
            before = len(world.shuffles)
            for _ in range(150):
                if world.is_terminal():
                    break
                a = r.choice(world.legal_actions())
                world.apply_action(a)
                again.apply_action(a)
            _same_state(world, again)
            most_new = max(most_new, len(world.shuffles) - before)
    assert most_new >= 2


# ----------------------------------------------------------------------
# the count itself on made-up stock chains: several stocks rebuilt from
# unseen cards of several earlier ones (more tied groups than play gives
# on small decks), against enumeration stock by stock

def _chain_instance(rng):
    counts = [0] * len(VALUE_INDEX)
    for v in rng.sample(range(len(VALUE_INDEX)), 3):
        counts[v] = rng.randrange(1, 3)
    size = sum(counts)
    deck = [v for v, c in enumerate(counts) for _ in range(c)]
    stocks = [rng.sample(deck, size)]
    sources = [None]
    free = [(0, i) for i in range(size)]         # positions not shuffled again yet
    for k in range(1, rng.randrange(2, 4)):
        src = rng.sample(free, rng.randrange(2, min(5, len(free)) + 1))
        for p in src:
            free.remove(p)
        vals = [stocks[kk][i] for (kk, i) in src]
        rng.shuffle(vals)
        stocks.append(vals)
        sources.append(src)
        free += [(k, i) for i in range(len(vals))]
    masked = [[v if rng.random() < 0.3 else None for v in st] for st in stocks]
    return counts, sources, masked


def _chain_brute(counts, sources, masked):
    deck = [v for v, c in enumerate(counts) for _ in range(c)]
    worlds = []

    def extend(stocks):
        k = len(stocks)
        if k == len(masked):
            worlds.append(tuple(stocks))
            return
        pool = deck if sources[k] is None else [stocks[kk][i] for (kk, i) in sources[k]]
        for fill in _fills(pool, masked[k]):
            extend(stocks + [fill])

    extend([])
    return worlds


def test_the_count_on_stock_chains_matches_enumeration():
    from solver.games.dix_exchange.views import _WorldModel
    rng = random.Random(8)
    multi = tested = 0
    for _ in range(300):
        counts, sources, masked = _chain_instance(rng)
        model = _WorldModel(counts, sources, masked, range(len(masked)))
        worlds = _chain_brute(counts, sources, masked)
        assert model.count == len(worlds)
        multi += len(model.tracked) >= 2
        if len(model.tracked) >= 2 and 4 <= len(worlds) <= 60 and tested < 4:
            _chi2(lambda r, model=model: tuple(map(tuple, model.draw(r))), worlds)
            tested += 1
    assert multi >= 10 and tested == 4
