"""Dixie-rook worlds: the column sampler's counts against brute force, and
the seat-view sampler exactly uniform over every consistent complete
world (brute-force enumeration checked by a full replay, chi-square on the
draws), never an inconsistent one, and an inconsistent view a typed error."""

import itertools
import math
import random
from collections import Counter

import pytest

import solver
from solver import position
from solver.cards import ROOK, SUIT_RANK_MASK, cards_of, mask_of, suit_of
from solver.errors import PositionError
from solver.games.dixie_rook import DISCARD_BASE, PLAY, RookWorldSampler, format_action
from solver.games.dixie_rook.state import _public_replay
from solver.sampler import ColumnSampler, HolderSampler, InconsistentConstraints
from tests.search.test_sampler import chi2_critical

MODES = ["exact", "compiled"]


def _holder_brute(caps, cards):
    out = []
    n = len(caps)

    def rec(i, left, got):
        if i == len(cards):
            if not any(left):
                out.append(tuple(tuple(sorted(g)) for g in got))
            return
        c, allowed = cards[i]
        for h in range(n):
            if allowed >> h & 1 and left[h]:
                left[h] -= 1
                got[h].append(c)
                rec(i + 1, left, got)
                got[h].pop()
                left[h] += 1

    rec(0, list(caps), [[] for _ in caps])
    return out


def _random_instance(rng):
    n = rng.randrange(1, 6)
    caps = [rng.randrange(0, 3) for _ in range(n)]
    masks = [rng.randrange(1, 1 << n) for _ in range(3)] + [(1 << n) - 1]
    return caps, [(c, rng.choice(masks)) for c in range(sum(caps))]


def test_column_counts_match_brute_force_and_the_holder_sampler():
    rng = random.Random(1)
    for _ in range(150):
        caps, cards = _random_instance(rng)
        worlds = _holder_brute(caps, cards)
        if not worlds:
            with pytest.raises(InconsistentConstraints):
                ColumnSampler(caps, cards)
            continue
        assert ColumnSampler(caps, cards).count == len(worlds) == \
            HolderSampler(caps, cards).count


def _column_draw(sampler, mode, rng):
    if mode == "exact":
        return sampler.sample(rng)
    if mode == "compiled":
        return sampler.compiled.sample_py(rng)
    from solver import _sampler
    walker = getattr(sampler, "_walker_for_test", None)
    if walker is None:
        walker = sampler._walker_for_test = _sampler.ColumnWalker(sampler.compiled)
    return [cards_of(m) for m in walker.walk(rng.getrandbits(64))]


def _modes():
    try:
        from solver import _sampler  # noqa: F401
        return MODES + ["cython"]
    except ImportError:  # pragma: no cover
        return MODES


@pytest.mark.parametrize("mode", _modes())
def test_column_draws_are_uniform(mode):
    rng = random.Random(5)
    done = 0
    while done < 4:
        caps, cards = _random_instance(rng)
        worlds = _holder_brute(caps, cards)
        if not 4 <= len(worlds) <= 60:
            continue
        done += 1
        sampler = ColumnSampler(caps, cards)
        index = {w: i for i, w in enumerate(worlds)}
        draws = 80 * len(worlds)
        seen = Counter()
        r = random.Random(done)
        for _ in range(draws):
            got = tuple(tuple(sorted(g)) for g in _column_draw(sampler, mode, r))
            assert got in index
            seen[index[got]] += 1
        exp = draws / len(worlds)
        stat = sum((seen[i] - exp) ** 2 / exp for i in range(len(worlds)))
        assert stat < chi2_critical(len(worlds) - 1, 1e-4), (stat, len(worlds))


# ----------------------------------------------------------------------
# seat views

def _game(players):
    return solver.load_game("dixie-rook", players=players, target=120, lose_at=300)


def _states(players, seed, every=1):
    """Every ``every``-th state of one random game's first hands."""
    game = _game(players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    k = 0
    while not state.is_terminal() and state.hand_no < 2:
        if k % every == 0:
            yield state
        k += 1
        state.apply_action(rng.choice(state.legal_actions()))


def _multinomial(caps):
    out = math.factorial(sum(caps))
    for c in caps:
        out //= math.factorial(c)
    return out


def _holders(state, seat):
    """The view's unseen cards and their places in the hand in play,
    independently of the sampler: (hidden cards, [(holder, capacity)])."""
    g = state.game
    n, k = g.num_players, g.nest_size
    w = state.bid_winner
    places = [(o, state.hands[o].bit_count()) for o in range(n) if o != seat]
    if state.phase == "auction":
        places.append(("nest", k))
    elif w != seat:
        places.append(("discards", len(state.discards)))
    seen = set(state.initial_hands[seat]) | (set(state.nest) | set(state.discards)
                                             if w == seat else set())
    hidden = [c for o, _ in places if o not in ("nest", "discards")
              for c in cards_of(state.hands[o])]
    hidden += list(state.nest) if state.phase == "auction" else []
    hidden += list(state.discards) if w not in (seat, -1) else []
    assert not set(hidden) & seen
    return sorted(hidden), places


def _brute_worlds(state, seat):
    """Every split of the unseen cards over their places that a full
    replay of the record accepts with this exact seat view."""
    view = state.information_state(seat).view
    hidden, places = _holders(state, seat)
    rec = position.to_json(state)
    h = state.hand_no
    n, k = state.game.num_players, state.game.nest_size
    pub = _public_replay(state.game, view["deal"]["first_dealer"], list(view["actions"]))[h]
    played = {o: [c for _, s, c, _ in pub["plays"] if s == o] for o in range(n)}
    w = state.bid_winner
    found = []

    def rec_split(i, left, got):
        if i == len(places):
            if not left:
                found.append(dict(got))
            return
        o, cap = places[i]
        for pick in itertools.combinations(left, cap):
            got[o] = pick
            rec_split(i + 1, [c for c in left if c not in pick], got)
        got.pop(o, None)

    rec_split(0, hidden, {})
    out = []
    for split in found:
        doc = {key: (list(v) if isinstance(v, list) else v) for key, v in rec.items()}
        deal = dict(doc["deal"])
        deal["deals"] = [dict(d) for d in deal["deals"]]
        d = deal["deals"][h]
        hands = list(d["hands"])
        nest = list(state.nest)
        pile = list(split.get("discards", ()))
        for o in range(n):
            if o == seat:
                continue
            cards = list(split[o]) + played[o]
            if o == w and w != seat:
                took = sorted(cards + pile)
                nest = took[:k]                  # any split of what it took up will do
                cards = took[k:]
            hands[o] = ROOK.format_cards(cards)
        if "nest" in split:
            nest = list(split["nest"])
        d["hands"], d["nest"] = hands, ROOK.format_cards(nest)
        actions = list(doc["actions"])
        if pile:        # another seat's discards, one card for each in the record
            for (i, _), c in zip(pub["discards"], pile, strict=True):
                actions[i] = format_action(DISCARD_BASE + c)
        doc["deal"], doc["actions"] = deal, actions
        try:
            replay = position.from_json(doc).state()
        except PositionError:
            continue
        if replay.information_state(seat).view == view:
            out.append(_key(split))
    return out


def _key(split):
    return tuple(sorted((str(o), tuple(sorted(v))) for o, v in split.items()))


def _world_key(world, seat, state):
    split = {o: cards_of(world.hands[o]) for o in range(world.game.num_players) if o != seat}
    if state.phase == "auction":
        split["nest"] = list(world.nest)
    elif state.bid_winner != seat:
        split["discards"] = list(world.discards)
    return _key(split)


def _find_view(players, want_winner, lo, hi, seed0):
    """A play-phase state and seat whose unseen splits number ``lo..hi``
    before the replay check, the seat the bid winner or not."""
    for seed in range(seed0, seed0 + 200):
        for state in _states(players, seed):
            if state.phase != PLAY:
                continue
            for seat in range(players):
                if (state.bid_winner == seat) != want_winner:
                    continue
                _, places = _holders(state, seat)
                if lo <= _multinomial([c for _, c in places]) <= hi:
                    return state, seat
    raise AssertionError("no such view")


CASES = [(4, False, 60, 400, 0), (4, True, 20, 200, 10), (6, False, 30, 400, 20),
         (6, True, 20, 300, 30)]


@pytest.mark.parametrize("players,winner,lo,hi,seed0", CASES)
def test_view_worlds_are_exactly_uniform(players, winner, lo, hi, seed0):
    state, seat = _find_view(players, winner, lo, hi, seed0)
    consistent = _brute_worlds(state, seat)
    assert len(consistent) >= 3
    view = state.information_state(seat).view
    sampler = position.from_json(view).sampler()
    assert sampler.sampler.count == len(consistent)
    index = {key: i for i, key in enumerate(consistent)}
    draws = 60 * len(consistent)
    rng = random.Random(7)
    seen = Counter()
    for _ in range(draws):
        key = _world_key(sampler.sample(rng), seat, state)
        assert key in index
        seen[index[key]] += 1
    exp = draws / len(consistent)
    stat = sum((seen[i] - exp) ** 2 / exp for i in range(len(consistent)))
    assert stat < chi2_critical(len(consistent) - 1, 1e-4), (stat, len(consistent))


def _consistent(world, view, seat):
    """A world is a legal history with this seat view: every card once;
    each play from the seat's holding then; no card of a colour the seat
    failed to follow in its holding at that trick; the discards from the
    bid winner's hand and nest; and the same view."""
    g = world.game
    n = g.num_players
    everything = [c for hd in world.initial_hands for c in hd] + list(world.nest)
    assert sorted(everything) == list(ROOK.cards)
    pub = _public_replay(g, view["deal"]["first_dealer"], list(view["actions"]))[-1]
    hold = [mask_of(hd) for hd in world.initial_hands]
    w = world.bid_winner
    if w >= 0:
        hold[w] |= mask_of(world.nest)
        for i, _ in pub["discards"]:
            c = world._history[i] - DISCARD_BASE
            assert hold[w] >> c & 1
            hold[w] &= ~(1 << c)
    by_trick = {}
    for t, s, c, _ in pub["plays"]:
        by_trick.setdefault(t, []).append((s, c))
    voids = {(t, s): col for t, s, col in pub["voids"]}
    for t in sorted(by_trick):
        for s, c in by_trick[t]:
            col = voids.get((t, s))
            if col is not None:
                assert not hold[s] & SUIT_RANK_MASK[col]
            assert hold[s] >> c & 1
        for s, c in by_trick[t]:
            hold[s] &= ~(1 << c)
    for s in range(n):
        assert hold[s] == world.hands[s]
    assert world.information_state(seat).view == view


def test_never_an_inconsistent_world():
    """5000 draws over views of every phase, 4 and 6 seats (the 100k run:
    bench/test_bench_sampler.py)."""
    views = []
    for players, seed in ((4, 3), (6, 4)):
        for state in _states(players, seed, every=7):
            for seat in range(players):
                views.append(state.information_state(seat).view)
    rng = random.Random(3)
    per = 5000 // len(views) + 1
    total = 0
    for view in views:
        sampler = position.from_json(view).sampler()
        for _ in range(per):
            _consistent(sampler.sample(rng), view, view["seat"])
            total += 1
    assert total >= 5000


@pytest.mark.parametrize("players", [4, 6])
def test_patched_worlds_equal_a_full_replay(players):
    """A world made by patching the base equals the replay of its own
    record: every seat's view, the narrative and the scores to come."""
    for seed in range(3):
        for state in _states(players, seed, every=11):
            seat = (state.hand_no + seed) % players
            view = state.information_state(seat).view
            sampler = position.from_json(view).sampler()
            for k in range(2):
                world = sampler.sample(random.Random(k))
                replay = position.from_json(position.to_json(world)).state()
                assert replay.events == world.events
                for s in range(players):
                    assert replay.information_state(s).view == world.information_state(s).view
                # the world's own tie-cut stream (a fresh one per draw)
                replay._chance._streams["cut"] = world._chance.clone()._streams["cut"]
                rng = random.Random(k)
                while not world.is_terminal() and world.hand_no == state.hand_no:
                    a = rng.choice(world.legal_actions())
                    world.apply_action(a)
                    replay.apply_action(a)
                assert world.results == replay.results[:len(world.results)]


def test_the_bid_winner_split_and_discard_order_are_uniform():
    """Another seat won the bid: which of the cards it took up were the
    nest is a uniform split (each card it played was in the nest with
    probability k / (hand + k)), the discards in a uniform order."""
    state = next(s for s in _states(4, 2) if s.phase == PLAY and s.tricks_done >= 4)
    w = state.bid_winner
    seat = (w + 1) % 4
    view = state.information_state(seat).view
    pub = _public_replay(state.game, view["deal"]["first_dealer"], list(view["actions"]))[-1]
    mine = [c for _, s, c, _ in pub["plays"] if s == w]
    sampler = position.from_json(view).sampler()
    rng = random.Random(2)
    draws = 4000
    in_nest = 0
    lowest_first = 0
    for _ in range(draws):
        world = sampler.sample(rng)
        in_nest += sum(c in world.nest for c in mine)
        lowest_first += world.discards[0] == min(world.discards)
    p = in_nest / (len(mine) * draws)
    sd = math.sqrt(4 / 17 * 13 / 17 / (len(mine) * draws))
    assert abs(p - 4 / 17) < 5 * sd * 2        # draws of one world are not independent
    sd = math.sqrt(0.25 * 0.75 / draws)
    assert abs(lowest_first / draws - 0.25) < 5 * sd


def _void_then_play(players):
    """A view where some other seat failed to follow a colour and played
    again later: (state, seat, that seat, the colour, the later play's
    action index)."""
    for seed in range(50):
        for state in _states(players, seed):
            if state.phase != PLAY:
                continue
            seat = state.current_player()
            view = state.information_state(seat).view
            pub = _public_replay(state.game, view["deal"]["first_dealer"],
                                 list(view["actions"]))[-1]
            for t, s, col in pub["voids"]:
                later = [i for (tt, ss, _, i) in pub["plays"] if ss == s and tt > t]
                if s != seat and later:
                    return state, seat, s, col, later[0]
    raise AssertionError("no such view")


@pytest.mark.parametrize("players", [4, 6])
def test_an_inconsistent_view_is_a_position_error_not_a_hang(players):
    """The seat that showed a void plays a card of that colour later."""
    state, seat, s, col, i = _void_then_play(players)
    view = state.information_state(seat).view
    seen = set(state.initial_hands[seat]) | (set(state.nest) if state.bid_winner == seat
                                              else set())
    played = {ROOK.parse(a) for a in view["actions"] if a[:1].isalpha() and
              a[:1] in "RGYB"}
    card = next(c for c in ROOK.cards if suit_of(c) == col and c not in seen | played)
    bad = dict(view, actions=list(view["actions"]))
    bad["actions"][i] = ROOK.to_string(card)
    with pytest.raises(PositionError):
        RookWorldSampler(state.game, bad)
    with pytest.raises(PositionError):
        position.from_json(bad).sampler().sample(random.Random(0))
