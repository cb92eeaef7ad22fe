"""dixie-rook -- Dixie Rook, 4 or 6 players in partnerships (seed 003,
RULINGS "dixie-rook").

Read top to bottom as the rules:

* 56 Rook cards (colours R G Y B, ranks 1-14, 14 high; no bird card).
  Count: every 5 = 5, every 10 = 10, every 13 = 10 (100 in all); most
  tricks +20: 120 points per hand.
* 4 players: 13 each and a nest of 4; 6 players: 9 each and a nest of 2.
  Partners are seats of the same parity.  The first dealer is drawn; the deal
  passes to the next seat every hand (also after a hand passed out).
* Auction from seat dealer+1: bid (70..120, multiples of 5, each higher than
  the last; outbidding a partner is allowed) or pass (final).  One bidder
  left wins; a bid of 120 ends the auction at once.  The last seat after all
  others passed without a bid may bid (and wins) or pass; all pass: no score,
  a new deal by the next dealer.  ``dealer_must_bid``: that last seat (the
  dealer) must bid.
* The bid winner takes the nest, discards 4 (6 players: 2) cards face down
  one action at a time, then names trumps.
* Seat dealer+1 leads trick 1; follow colour if able, else any card;
  highest trump wins, else highest of the colour led; the winner leads.
* The last trick's winner takes the nest: its count and one extra trick.
  A tie for most tricks is broken by a cut from a separate seeded stream
  (``cut``): each seat cuts a card, the higher team rank total gets the 20,
  equal totals cut again.  The main stream is never touched by a cut.
* Opponents score what they took; the bidding team scores what it took if
  that reaches the bid, else minus the bid.  Game to ``target`` (300): after
  a hand in which a team has reached it, the higher total wins; exactly
  equal totals play another hand.  ``lose_at`` (default 0, off) is a house
  rule beyond the rulings: the game also ends once a team falls to
  ``-lose_at``; random players overbid and are set nearly every hand, so
  without it their games rarely end (the conformance configs use it).

Actions (sorted ranges): 0..63 play a card (its index); 64 + card discard
it; 128 + value bid ``value``; ``PASS``; ``TRUMP_BASE`` + colour name
trumps.  Notation: ``R14``, ``discard R14``, ``bid 85``, ``pass``,
``trump red``.  Aliases (case-insensitive): a bare number for a bid
(``85``), ``p`` for pass, ``trump R`` / ``trumps red`` for trumps.

Information: bids, trumps and cards played are public; the nest and the
discards are seen by the bid winner only (not the partner) until the nest
is turned up after the last trick, when both are public.  In seat views the
hidden discards are ``"?"`` and the hidden nest is its size.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal, cast

from ..cards import ROOK, ROOK_COLOURS, SUIT_RANK_MASK, cards_of, mask_of, rank_of, suit_of
from ..cardset import make_rank_table, trick_winner
from ..errors import NotationError, PositionError, short_repr
from ..game import TERMINAL, Chance, Game, InfoState, Option, State, WorldSampler, register_game
from ..sampler import ColumnSampler, InconsistentConstraints
from .common import check_distinct, check_keys, match_cards, match_number, need, parse_card_list

if TYPE_CHECKING:
    from .._sampler import ColumnWalker

MIN_BID, MAX_BID, BID_STEP = 70, 120, 5
MOST_TRICKS_BONUS = 20
COUNT_BY_RANK = {5: 5, 10: 10, 13: 10}

DISCARD_BASE = 64              # 64 + card: discard that card into the nest
BID_BASE = 128                 # 128 + value: bid value (0..255 encodable, 70..120 legal)
MAX_BID_VALUE = 255
PASS = BID_BASE + MAX_BID_VALUE + 1
TRUMP_BASE = PASS + 1          # + colour 0..3
NUM_ACTIONS = TRUMP_BASE + 4

AUCTION, DISCARD, TRUMP, PLAY = "auction", "discard", "trump", "play"
COLOUR_WORDS = {"red": 0, "green": 1, "yellow": 2, "black": 3, "r": 0, "g": 1, "y": 2, "b": 3}


def card_count(card: int) -> int:
    """The count of one card: 5s 5, 10s and 13s 10, others 0."""
    return COUNT_BY_RANK.get(rank_of(card), 0)


def team_of(seat: int) -> int:
    return seat % 2


def _team_name(team: int, n: int) -> str:
    return f"team {team} (seats {' '.join(str(s) for s in range(team, n, 2))})"


# ----------------------------------------------------------------------
# notation (shared by the state and the seat-view replay)

def parse_action(text) -> int:
    """Action notation -> action int (``NotationError`` names the text)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is a string, got {short_repr(text)}", str(text))
    t = " ".join(text.strip().lower().split())
    if t in ("pass", "p"):
        return PASS
    word, _, rest = t.partition(" ")
    if word == "bid" or (t.isdigit() and not rest):
        value = rest if word == "bid" else t
        if not value.isdigit() or len(value) > 6 or int(value) > MAX_BID_VALUE:
            raise NotationError(f"bad bid {short_repr(text)}: a bid is a number from {MIN_BID} to "
                                f"{MAX_BID} in steps of {BID_STEP}", text)
        return BID_BASE + int(value)
    if word == "discard" and rest:
        try:
            return DISCARD_BASE + ROOK.parse(rest)
        except NotationError:
            raise NotationError(f"bad discard {short_repr(text)}: unknown card {short_repr(rest)}",
                                text) from None
    if word in ("trump", "trumps") and rest:
        if rest not in COLOUR_WORDS:
            raise NotationError(f"bad trump {short_repr(text)}: name red, green, yellow or black "
                                f"(or R G Y B)", text)
        return TRUMP_BASE + COLOUR_WORDS[rest]
    try:
        return ROOK.parse(t)
    except NotationError:
        raise NotationError(f"unknown action {short_repr(text)} (expected a card like R14, 'bid 85', "
                            f"'pass', 'discard R5' or 'trump red')", text) from None


def format_action(action: int) -> str:
    if isinstance(action, int) and not isinstance(action, bool):
        if 0 <= action < DISCARD_BASE and action in ROOK:
            return ROOK.to_string(action)
        if DISCARD_BASE <= action < BID_BASE and action - DISCARD_BASE in ROOK:
            return "discard " + ROOK.to_string(action - DISCARD_BASE)
        if BID_BASE <= action < PASS:
            return f"bid {action - BID_BASE}"
        if action == PASS:
            return "pass"
        if TRUMP_BASE <= action < NUM_ACTIONS:
            return "trump " + ROOK_COLOURS[action - TRUMP_BASE]
    raise NotationError(f"{short_repr(action)} is not a dixie-rook action", str(action))


# ----------------------------------------------------------------------
# the auction (one implementation for the state and the seat-view replay)

class Auction:
    """The bidding of one hand: ``to_act``, ``passed``, ``high_bid`` (0: no
    bid yet), ``high_bidder`` (-1), and the outcome once over: ``winner``
    (-1 while open or when every seat passed) and ``passed_out``."""

    __slots__ = ("n", "dealer", "must_bid", "to_act", "passed", "high_bid", "high_bidder",
                 "winner", "passed_out")

    def __init__(self, n: int, dealer: int, must_bid: bool):
        self.n = n
        self.dealer = dealer
        self.must_bid = must_bid
        self.to_act = (dealer + 1) % n
        self.passed = [False] * n
        self.high_bid = 0
        self.high_bidder = -1
        self.winner = -1
        self.passed_out = False

    def copy(self) -> Auction:
        new = Auction.__new__(Auction)
        for k in Auction.__slots__:
            setattr(new, k, getattr(self, k))
        new.passed = list(self.passed)
        return new

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.passed_out

    def lowest_bid(self) -> int:
        return max(MIN_BID, self.high_bid + BID_STEP)

    def pass_forced_away(self) -> bool:
        """``dealer_must_bid``: the dealer, every other seat passed, no bid."""
        return (self.must_bid and self.high_bidder < 0 and
                sum(self.passed) == self.n - 1 and not self.passed[self.to_act])

    def legal(self) -> list[int]:
        out = [BID_BASE + v for v in range(self.lowest_bid(), MAX_BID + 1, BID_STEP)]
        if not self.pass_forced_away():
            out.append(PASS)
        return out

    def why_not_bid(self, value: int) -> str:
        if value < MIN_BID:
            return f"a bid is at least {MIN_BID}"
        if value % BID_STEP:
            return f"a bid is a multiple of {BID_STEP}"
        if value > MAX_BID:
            return f"the highest bid is {MAX_BID}"
        if value <= self.high_bid:
            return (f"a bid must be higher than {self.high_bid} (seat {self.high_bidder}'s "
                    f"bid)")
        return "not legal now"

    def why_not_pass(self) -> str:
        return (f"the dealer (seat {self.to_act}) must bid: every other seat passed without a "
                f"bid (dealer_must_bid)")

    def bid(self, value: int) -> None:
        seat = self.to_act
        self.high_bid = value
        self.high_bidder = seat
        self._advance(seat)

    def pass_(self) -> None:
        seat = self.to_act
        self.passed[seat] = True
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        live = [s for s in range(self.n) if not self.passed[s]]
        if self.high_bid == MAX_BID or (self.high_bidder >= 0 and live == [self.high_bidder]):
            self.winner = self.high_bidder
            return
        if not live:
            self.passed_out = True
            return
        nxt = (seat + 1) % self.n
        while self.passed[nxt]:
            nxt = (nxt + 1) % self.n
        self.to_act = nxt


# ----------------------------------------------------------------------
# the game

@register_game
class DixieRookGame(Game):
    name = "dixie-rook"
    notation = ("Cards are colour then number: R G Y B (red, green, yellow, black) and 1 to "
                "14, 14 high: R14 is the red 14. Count: every 5 is worth 5, every 10 and 13 "
                "is worth 10. The auction: bid 70 .. bid 120 in fives (or the number alone: "
                "85), or pass (p). The bid winner takes the nest: discard R5 for each card put "
                "back, then trump red (trump R) names trumps.")
    zero_sum = True                # returns: +1 each seat of the winning team, -1 the others
    #: bound on ``round_returns``: a hand's score difference (120 made vs 0,
    #: or -120 set vs +120)
    round_scale = 240.0
    round_unit = "hand score difference (your team minus the other)"
    partnership = True
    scores_by_team = True
    description = ("Dixie Rook: 4 or 6 players in partnerships, bidding, a nest, count "
                   "cards, game to 300")
    # random play overbids and is set nearly every hand, driving both totals
    # down for ever: the conformance games end by ``lose_at`` as well
    conformance_configs = ({"target": 120, "lose_at": 300},
                           {"players": 6, "target": 120, "lose_at": 300},
                           {"dealer_must_bid": True, "target": 120, "lose_at": 300})
    options_spec = {
        "players": Option(4, "4 players (13 cards each, nest of 4) or 6 (9 each, nest of "
                          "2); partners are the seats of the same parity", choices=(4, 6)),
        "dealer_must_bid": Option(False, "if true, a dealer reached with every other seat "
                                  "passed and no bid made must bid"),
        "target": Option(300, "the game ends after a hand in which a team has reached this "
                         "total: the higher total wins (equal totals: another hand)",
                         min=1, max=100000),
        "lose_at": Option(0, "0: off (scores may fall without limit, as the rulings say); "
                          "N > 0: a house rule, the game also ends after a hand in which a "
                          "team's total fell to -N or below (the higher total wins)",
                          min=0, max=100000),
    }

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # the bids MIN_BID..MAX_BID by BID_STEP and one pass per seat, the
        # trump, and every card of the deck: the nest's discards plus every
        # card played
        bids = (MAX_BID - MIN_BID) // BID_STEP + 1
        return bids + self.num_players + 1 + len(ROOK.cards)

    def game_decided(self, totals) -> bool:
        """Whether the game ends after a hand with these totals (if they
        differ): a team reached ``target``, or, with ``lose_at``, fell to
        ``-lose_at`` or below."""
        lose_at = self.options["lose_at"]
        return max(totals) >= self.options["target"] or (lose_at > 0 and
                                                         min(totals) <= -lose_at)

    @property
    def hand_size(self) -> int:
        return 13 if self.num_players == 4 else 9

    @property
    def nest_size(self) -> int:
        return 4 if self.num_players == 4 else 2

    # ------------------------------------------------------------------
    # chance: the first dealer, one deal per hand, tie cuts (own stream)

    def generate_deal(self, rng: random.Random) -> tuple:
        cards = list(ROOK.cards)
        rng.shuffle(cards)
        n = self.hand_size
        hands = tuple(tuple(sorted(cards[s * n:(s + 1) * n])) for s in range(self.num_players))
        nest = tuple(sorted(cards[self.num_players * n:]))
        return hands, nest

    def generate_cut(self, rng: random.Random) -> tuple:
        """One card per seat (seat order) from a freshly shuffled deck."""
        return tuple(rng.sample(ROOK.cards, self.num_players))

    def cut_totals(self, cut) -> list[int]:
        return [sum(rank_of(c) for s, c in enumerate(cut) if team_of(s) == t) for t in (0, 1)]

    # ------------------------------------------------------------------
    # mid-match positions: {"hand": h, "dealer": seat, "totals": [team 0, team 1]}

    match_keys = ("hand", "dealer", "totals")

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        hand = match_number(match, "hand")
        n = self.num_players
        dealer = need(match, "dealer", "match", int)
        if not 0 <= dealer < n:
            raise PositionError(f"must be a seat 0..{n - 1}, got {dealer}", "match.dealer")
        totals = need(match, "totals", "match", list)
        if len(totals) != 2:
            raise PositionError(f"one total per team (2), got {len(totals)}", "match.totals")
        bound = MAX_BID * (hand - 1)         # a hand scores -120..+120 for a team
        for t, v in enumerate(totals):
            where = f"match.totals[{t}]"
            if isinstance(v, bool) or not isinstance(v, int):
                raise PositionError(f"a total is an integer, got {short_repr(v)}", where)
            if v % BID_STEP:
                raise PositionError(f"every score is a multiple of {BID_STEP}, got {v}", where)
            if abs(v) > bound:
                raise PositionError(f"after {hand - 1} hand{'s' if hand != 2 else ''} a total "
                                    f"lies in -{bound}..{bound}, got {v}", where)
        if self.game_decided(totals) and totals[0] != totals[1]:
            raise PositionError(f"totals {totals[0]} : {totals[1]} end the game: it is "
                                f"already over", "match.totals")
        return {"hand": hand, "dealer": dealer, "totals": list(totals)}

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError("expected an object", "deal")
        if mid:
            check_keys(deal, ("deals",), "deal")
            out: list[tuple[str, Any]] = []
        else:
            check_keys(deal, ("first_dealer", "deals"), "deal")
            out = [("first_dealer", self._parse_first_dealer(deal))]
        for h, d in enumerate(need(deal, "deals", "deal", list)):
            path = f"deal.deals[{h}]"
            if not isinstance(d, dict):
                raise PositionError("expected an object", path)
            check_keys(d, ("hands", "nest", "cuts"), path)
            hands_raw = need(d, "hands", path, list)
            if len(hands_raw) != self.num_players:
                raise PositionError(f"expected {self.num_players} hands, got "
                                    f"{len(hands_raw)}", f"{path}.hands")
            hands = []
            for s, raw in enumerate(hands_raw):
                cards = parse_card_list(ROOK, raw, f"{path}.hands[{s}]")
                if len(cards) != self.hand_size:
                    raise PositionError(f"seat {s} must hold {self.hand_size} cards, got "
                                        f"{len(cards)}", f"{path}.hands[{s}]")
                hands.append(cards)
            nest = parse_card_list(ROOK, need(d, "nest", path), f"{path}.nest")
            if len(nest) != self.nest_size:
                raise PositionError(f"the nest has {self.nest_size} cards, got {len(nest)}",
                                    f"{path}.nest")
            check_distinct(ROOK, [(f"{path}.hands[{s}]", hands[s])
                                  for s in range(self.num_players)] +
                           [(f"{path}.nest", nest)], path)
            out.append(("deal", (tuple(tuple(sorted(h)) for h in hands), tuple(sorted(nest)))))
            for cut in self._parse_cuts(d, path):
                out.append(("cut", cut))
        return out

    def _parse_first_dealer(self, deal: dict) -> int:
        first = need(deal, "first_dealer", "deal", int)
        if not 0 <= first < self.num_players:
            raise PositionError(f"must be a seat 0..{self.num_players - 1}, got {first}",
                                "deal.first_dealer")
        return first

    def _parse_cuts(self, d: dict, path: str) -> list[tuple]:
        """A hand's tie cuts: every one but the last is a tie, the last is not."""
        if "cuts" not in d:
            return []
        raw = need(d, "cuts", path, list)
        cuts = []
        for i, c in enumerate(raw):
            cp = f"{path}.cuts[{i}]"
            cards = parse_card_list(ROOK, c, cp)
            if len(cards) != self.num_players:
                raise PositionError(f"a cut is one card per seat ({self.num_players}), got "
                                    f"{len(cards)}", cp)
            check_distinct(ROOK, [(cp, cards)], cp)
            tot = self.cut_totals(cards)
            if (tot[0] == tot[1]) != (i < len(raw) - 1):
                raise PositionError("every cut but the last must tie (team totals "
                                    f"{tot[0]} : {tot[1]})", cp)
            cuts.append(tuple(cards))
        return cuts

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"deals": []} if mid else {"first_dealer": 0, "deals": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            elif kind == "deal":
                hands, nest = value
                out["deals"].append({"hands": [ROOK.format_cards(h) for h in hands],
                                     "nest": ROOK.format_cards(nest)})
            else:
                out["deals"][-1].setdefault("cuts", []).append(
                    ROOK.format_cards(value, sort=False))
        return out

    # ------------------------------------------------------------------
    # seat views

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record consistent with a seat view: the unseen hands,
        nests and hidden discards chosen (see ``_complete_hand``)."""
        return _complete_view(self, view, rng)

    def world_sampler(self, view: dict) -> RookWorldSampler:
        """Worlds drawn exactly uniformly among those consistent with a
        (validated) seat view (see ``RookWorldSampler``)."""
        return RookWorldSampler(self, view)


class DixieRookState(State):
    """A Dixie Rook game in progress.  Public attributes are read-only for
    bots and front ends: ``dealer``, ``phase``, ``auction``, ``bid_winner``
    (-1 before), ``bid``, ``trump`` (-1 before it is named), ``hands``
    (masks), ``nest``, ``discards``, ``trick`` (cards, lead first),
    ``leader``, ``tricks_won`` and ``count`` (per team), ``totals``,
    ``results`` (finished hands), ``winner`` (the winning team)."""

    game: DixieRookGame   # this game's own options and helpers

    def __init__(self, game: DixieRookGame, chance):
        super().__init__(game, chance)
        self.totals = [0, 0]
        self.hand_no = -1
        self.results: list[dict] = []
        self.events: list[str] = []
        self.winner: int | None = None
        self.meta: list[list] = []         # per dealt hand: [bid winner or None, over]
        self.discard_hand: dict[int, int] = {}   # action index of a discard -> hand
        self.hand_scores: dict[int, tuple] = {}  # hand index -> (team 0, team 1) score
        self.n_actions = 0
        self.hand_base = 0                 # hands played before this record starts
        match, self.dealer = self._draw_match_or_dealer()
        if match is not None:
            self.hand_base = match["hand"] - 1
            self.totals = list(match["totals"])
            self.events.append(f"from hand {match['hand']}: seat {self.dealer} deals")
        else:
            self.events.append(f"seat {self.dealer} deals first (drawn)")
        self._start_hand()

    # ---- hand set-up -----------------------------------------------------
    def _start_hand(self) -> None:
        g: DixieRookGame = self.game
        n = g.num_players
        self.hand_no += 1
        if self.hand_no > 0:
            self.dealer = (self.dealer + 1) % n
        self._mark_deal({"hand": self.hand_base + self.hand_no + 1, "dealer": self.dealer,
                         "totals": list(self.totals)})
        hands, nest = self._deal()
        self.initial_hands = tuple(tuple(h) for h in hands)
        self.nest = tuple(nest)
        self.hands = [mask_of(h) for h in hands]
        self.phase = AUCTION
        self.auction = Auction(n, self.dealer, g.options["dealer_must_bid"])
        self.bid_winner = -1
        self.bid = 0
        self.discards: list[int] = []
        self.trump = -1
        self.table = make_rank_table()
        self.leader = (self.dealer + 1) % n
        self.trick: list[int] = []
        self.tricks_done = 0
        self.tricks_won = [0, 0]
        self.count = [0, 0]
        self.meta.append([None, False])
        number = self.hand_base + self.hand_no + 1
        self.events.append(f"hand {number}: seat {self.dealer} deals; totals "
                           f"{self.totals[0]} : {self.totals[1]}")
        #: where this hand's event lines that show hidden cards are (the
        #: world sampler rewrites them): the deal, the nest taken, the discards
        self.ev_deal, self.ev_nest, self.ev_discards = len(self.events), -1, -1
        self.events += self._deal_events(hands, nest)

    def _deal(self) -> tuple:
        """The hand's deal, ``(hands, nest)``, drawn from the chance source."""
        return self._chance.draw("deal", self.game.generate_deal)

    @staticmethod
    def _deal_events(hands, nest) -> list[str]:
        return ([f"  seat {s}: {ROOK.format_cards(h)}" for s, h in enumerate(hands)] +
                [f"  nest: {ROOK.format_cards(nest)}"])

    def _nest_event(self) -> str:
        return (f"seat {self.bid_winner} wins the auction at {self.bid} and takes the nest "
                f"({ROOK.format_cards(self.nest)})")

    def _discards_event(self) -> str:
        return (f"seat {self.bid_winner} discards {ROOK.format_cards(self.discards, sort=False)}"
                f" face down (the new nest)")

    # ---- protocol ----------------------------------------------------------
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.phase == AUCTION:
            return self.auction.to_act
        if self.phase != PLAY:
            return self.bid_winner
        return (self.leader + len(self.trick)) % self.game.num_players

    def _play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        return (hand & SUIT_RANK_MASK[suit_of(self.trick[0])]) or hand

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        if self.phase == AUCTION:
            return self.auction.legal()
        if self.phase == DISCARD:
            return [DISCARD_BASE + c for c in cards_of(self.hands[self.bid_winner])]
        if self.phase == TRUMP:
            return [TRUMP_BASE + c for c in range(4)]
        return cards_of(self._play_mask(self.current_player()))

    def why_illegal(self, action: int) -> str:
        seat = self.current_player()
        if not 0 <= action < NUM_ACTIONS or (action < BID_BASE and
                                              action % DISCARD_BASE not in ROOK):
            return "not a dixie-rook action"
        kind = ("card" if action < DISCARD_BASE else "discard" if action < BID_BASE else
                "bid" if action < PASS else "pass" if action == PASS else "trump")
        if self.phase == AUCTION:
            if kind == "bid":
                return self.auction.why_not_bid(action - BID_BASE)
            if kind == "pass":
                return self.auction.why_not_pass()
            return f"the auction is on: seat {seat} must bid or pass"
        if kind in ("bid", "pass"):
            return f"the auction is over (seat {self.bid_winner} won it at {self.bid})"
        if self.phase == DISCARD:
            if kind == "discard":
                return f"seat {seat} does not hold {ROOK.to_string(action - DISCARD_BASE)}"
            left = self.game.nest_size - len(self.discards)
            return f"seat {seat} must first discard {left} more card{'s' * (left > 1)}"
        if kind == "discard":
            return "the discards are done"
        if self.phase == TRUMP:
            return f"seat {seat} must name trumps first"
        if kind == "trump":
            return f"trumps are already named ({ROOK_COLOURS[self.trump]})"
        card = action
        if not (self.hands[seat] >> card) & 1:
            return f"seat {seat} does not hold {ROOK.to_string(card)}"
        return f"seat {seat} must follow {ROOK_COLOURS[suit_of(self.trick[0])]}"

    def why_not_turn(self, seat: int) -> str:
        if self.phase == AUCTION and 0 <= seat < len(self.auction.passed) and \
                self.auction.passed[seat]:
            return f"seat {seat} has passed (a pass is final)"
        return super().why_not_turn(seat)

    def _apply(self, action: int) -> None:
        self.n_actions += 1
        if action < DISCARD_BASE:
            self._apply_play(action)
        elif action < BID_BASE:
            self._apply_discard(action - DISCARD_BASE)
        elif action < PASS:
            self._apply_bid(action - BID_BASE)
        elif action == PASS:
            self._apply_pass()
        else:
            self._apply_trump(action - TRUMP_BASE)

    # ---- the auction -------------------------------------------------------
    def _apply_bid(self, value: int) -> None:
        self.events.append(f"  seat {self.auction.to_act} bids {value}")
        self.auction.bid(value)
        self._after_auction_step()

    def _apply_pass(self) -> None:
        self.events.append(f"  seat {self.auction.to_act} passes")
        self.auction.pass_()
        self._after_auction_step()

    def _after_auction_step(self) -> None:
        a = self.auction
        if a.passed_out:
            self.meta[-1][1] = True
            self.events.append(f"hand {self.hand_no + 1}: every seat passed, no score; the "
                               f"deal passes on")
            self._start_hand()
        elif a.winner >= 0:
            w = self.bid_winner = a.winner
            self.bid = a.high_bid
            self.meta[-1][0] = w
            self.hands[w] |= mask_of(self.nest)
            self.phase = DISCARD
            self.ev_nest = len(self.events)
            self.events.append(self._nest_event())

    # ---- nest and trumps ---------------------------------------------------
    def _apply_discard(self, card: int) -> None:
        self.discard_hand[self.n_actions - 1] = self.hand_no
        self.hands[self.bid_winner] &= ~(1 << card)
        self.discards.append(card)
        if len(self.discards) == self.game.nest_size:
            self.phase = TRUMP
            self.ev_discards = len(self.events)
            self.events.append(self._discards_event())

    def _apply_trump(self, colour: int) -> None:
        self.trump = colour
        self.phase = PLAY
        self.events.append(f"seat {self.bid_winner} names trumps: {ROOK_COLOURS[colour]}; "
                           f"seat {self.leader} leads")

    # ---- the play ----------------------------------------------------------
    def _apply_play(self, card: int) -> None:
        seat = self.current_player()
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == self.game.num_players:
            self._end_trick()

    def _end_trick(self) -> None:
        g: DixieRookGame = self.game
        n = g.num_players
        cards = self.trick
        winner = (self.leader + trick_winner(cards, self.trump, self.table)) % n
        self._last_trick = (self.leader, tuple(cards), winner)
        team = team_of(winner)
        pts = sum(card_count(c) for c in cards)
        self.tricks_done += 1
        self.tricks_won[team] += 1
        self.count[team] += pts
        played = " ".join(f"{(self.leader + i) % n}:{ROOK.to_string(c)}"
                          for i, c in enumerate(cards))
        self.events.append(f"  trick {self.tricks_done}: {played} -> seat {winner}"
                           f"{f' (+{pts})' if pts else ''}")
        self.leader = winner
        self.trick = []
        if self.tricks_done == g.hand_size:
            nest_pts = sum(card_count(c) for c in self.discards)
            self.tricks_won[team] += 1
            self.count[team] += nest_pts
            self.events.append(f"  seat {winner} takes the last trick and the nest "
                               f"({ROOK.format_cards(self.discards)}: +{nest_pts} count, one "
                               f"more trick)")
            self._end_hand()

    # ---- scoring -----------------------------------------------------------
    def _draw_cut(self, _main_rng: random.Random) -> tuple:
        # the cut comes from its own stream: the main stream is untouched
        return self.game.generate_cut(self._chance.stream("cut"))

    def _most_tricks(self) -> int:
        """The team that gets the 20: more tricks, or the cut on a tie."""
        t = self.tricks_won
        if t[0] != t[1]:
            return 0 if t[0] > t[1] else 1
        while True:
            cut = self._chance.draw("cut", self._draw_cut)
            tot = self.game.cut_totals(cut)
            cards = " ".join(f"{s}:{ROOK.to_string(c)}" for s, c in enumerate(cut))
            self.events.append(f"  tricks tie {t[0]} : {t[1]}; cut {cards}: team totals "
                               f"{tot[0]} : {tot[1]}{' (cut again)' if tot[0] == tot[1] else ''}")
            if tot[0] != tot[1]:
                return 0 if tot[0] > tot[1] else 1

    def _end_hand(self) -> None:
        g: DixieRookGame = self.game
        n = g.num_players
        most = self._most_tricks()
        captured = [self.count[t] + (MOST_TRICKS_BONUS if t == most else 0) for t in (0, 1)]
        bt = team_of(self.bid_winner)
        made = captured[bt] >= self.bid
        score = list(captured)
        if not made:
            score[bt] = -self.bid
        for t in (0, 1):
            self.totals[t] += score[t]
        self.meta[-1][1] = True
        self.hand_scores[self.hand_no] = tuple(score)
        self.results.append({"hand": self.hand_no, "dealer": self.dealer, "bid_winner": self.bid_winner,
                             "bid": self.bid, "trump": self.trump,
                             "tricks": list(self.tricks_won), "count": list(self.count),
                             "most_tricks": most, "captured": captured, "made": made,
                             "score": score, "totals": list(self.totals)})
        self.events.append(
            f"hand {self.hand_no + 1}: tricks {self.tricks_won[0]} : {self.tricks_won[1]}, "
            f"count {self.count[0]} : {self.count[1]}, +{MOST_TRICKS_BONUS} to team {most}; "
            f"{_team_name(bt, n)} bid {self.bid} and took {captured[bt]}: "
            f"{'made' if made else 'set'}; score {score[0]} : {score[1]}; totals "
            f"{self.totals[0]} : {self.totals[1]}")
        if g.game_decided(self.totals) and self.totals[0] != self.totals[1]:
            self.winner = 0 if self.totals[0] > self.totals[1] else 1
            self.events.append(f"game over: {_team_name(self.winner, n)} wins "
                               f"{self.totals[self.winner]} to {self.totals[1 - self.winner]}")
        else:
            if g.game_decided(self.totals):
                self.events.append(f"totals equal at {self.totals[0]}: another hand")
            self._start_hand()

    def trick_number(self) -> tuple[int, int] | None:
        if self.phase != PLAY or self.is_terminal():
            return None
        return self.tricks_done + 1, self.game.hand_size

    # ---- the current hand, for search (a game is many hands) -------------
    def round_index(self) -> int:
        """Index of the hand in play (a passed-out hand counts as one)."""
        return self.hand_no

    def round_returns(self, index: int | None = None) -> list[float]:
        """Hand ``index``'s score difference (own team minus the other),
        per seat: final for a finished hand (0 for a passed-out one); for
        the hand in play, the count captured so far."""
        if index is None or index == self.hand_no and not self.meta[index][1]:
            diff = float(self.count[0] - self.count[1])
        else:
            score = self.hand_scores.get(index, (0, 0))
            diff = float(score[0] - score[1])
        return [diff if team_of(s) == 0 else -diff for s in range(self.game.num_players)]

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner is None:
            return [0.0] * n
        return [1.0 if team_of(s) == self.winner else -1.0 for s in range(n)]

    # ---- notation ----------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return format_action(action)

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    # ---- information -------------------------------------------------------
    def information_state(self, seat: int) -> InfoState:
        g: DixieRookGame = self.game
        n = g.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {short_repr(seat)}")
        deals: list[dict[str, Any]] = []
        h = -1
        for kind, value in self._chance.log:
            if kind == "deal":
                h += 1
                hands, nest = value
                w, over = self.meta[h]
                seen = w is not None and (over or w == seat)
                deals.append({"hands": [ROOK.format_cards(hands[s]) if s == seat else
                                        len(hands[s]) for s in range(n)],
                              "nest": ROOK.format_cards(nest) if seen else len(nest)})
            elif kind == "cut":
                deals[-1].setdefault("cuts", []).append(ROOK.format_cards(value, sort=False))
        actions = []
        for i, a in enumerate(self._history):
            hand = self.discard_hand.get(i)
            if hand is not None and self.meta[hand][0] != seat and not self.meta[hand][1]:
                actions.append("?")
            else:
                actions.append(format_action(a))
        view = self._view_head(seat, {"deals": deals})
        view["actions"] = actions
        return InfoState(seat, view, self._known(seat))

    def _known(self, seat: int) -> dict:
        a = self.auction
        mine = self.bid_winner == seat
        return {"hand": ROOK.format_cards(cards_of(self.hands[seat])),
                "phase": "over" if self.winner is not None else self.phase,
                "hand_no": self.hand_base + self.hand_no, "dealer": self.dealer,
                "high_bid": a.high_bid, "high_bidder": a.high_bidder,
                "passed": list(a.passed),
                "bid_winner": self.bid_winner, "bid": self.bid,
                "nest": ROOK.format_cards(self.nest) if mine else None,
                "discards": ROOK.format_cards(self.discards, sort=False) if mine else None,
                "trump": ROOK_COLOURS.get(self.trump),
                "trick": [ROOK.to_string(c) for c in self.trick], "leader": self.leader,
                "tricks_won": list(self.tricks_won), "count": list(self.count),
                "totals": list(self.totals)}

    # ---- display / misc ----------------------------------------------------
    def to_text(self) -> str:
        n = self.game.num_players
        number = self.hand_base + self.hand_no + 1
        lines = [f"dixie-rook hand {number}, dealer seat {self.dealer}, phase "
                 f"{self.phase}, bid {self.bid or '-'} by seat {self.bid_winner}, trumps "
                 f"{ROOK_COLOURS.get(self.trump, '-')}"]
        lines += [f"seat {s}: {ROOK.format_cards(cards_of(self.hands[s]))}" for s in range(n)]
        lines.append(f"table: {' '.join(ROOK.to_string(c) for c in self.trick) or '-'}; "
                     f"tricks {self.tricks_won[0]} : {self.tricks_won[1]}; totals "
                     f"{self.totals[0]} : {self.totals[1]}")
        return "\n".join(lines)

    def clone(self) -> DixieRookState:
        new = DixieRookState.__new__(DixieRookState)
        new.__dict__.update(self.__dict__)
        new._chance = self._chance.clone()
        new._history = list(self._history)
        new.hands = list(self.hands)
        new.auction = self.auction.copy()
        new.discards = list(self.discards)
        new.trick = list(self.trick)
        new.tricks_won = list(self.tricks_won)
        new.count = list(self.count)
        new.totals = list(self.totals)
        new.results = [dict(r) for r in self.results]
        new.events = list(self.events)
        new.meta = [list(m) for m in self.meta]
        new.discard_hand = dict(self.discard_hand)
        new.hand_scores = dict(self.hand_scores)
        return new


DixieRookGame.state_class = DixieRookState


# ----------------------------------------------------------------------
# seat views: the public replay and the completion of unseen cards

class _PublicReplay(DixieRookState):
    """A view's actions played by the rules of ``DixieRookState`` with
    public knowledge only: no card is dealt (every hand and the nest are
    empty), so the cards of the actions are applied as played, a hidden
    discard (``"?"``) is the discard of a card nobody names, and a hand
    played out is not scored (its cut is in the view's deal, which the
    completion reads).  ``play`` checks each action against what is public
    (the auction, the phase) and records per hand what the rules say about
    the seats' cards (``public``)."""

    def __init__(self, game: DixieRookGame, first_dealer: int):
        self.public: list[dict] = []
        super().__init__(game, Chance(0, [("first_dealer", first_dealer)]))

    def _deal(self) -> tuple:
        return ((),) * self.game.num_players, ()

    def _start_hand(self) -> None:
        super()._start_hand()
        self.public.append({"dealer": self.dealer, "w": None, "discards": [], "plays": [],
                            "voids": [], "played": False, "n_actions": 0})

    def _end_hand(self) -> None:
        self.meta[-1][1] = True
        self._start_hand()

    def play(self, tokens: list) -> list[dict]:
        """Replay the view's actions (notation, ``"?"`` for a hidden
        discard); ``PositionError`` naming the first that cannot be right.
        Returns one dict per hand reached (the last one open, possibly
        without actions): its dealer, the bid winner ``w`` (None if none),
        ``discards`` as ``(action index, card or None)``, ``plays`` as
        ``(trick, seat, card, action index)``, ``voids`` as ``(trick, seat,
        colour)`` (failures to follow colour), whether it was ``played``
        out, and its ``n_actions``."""
        for i, tok in enumerate(tokens):
            path = f"actions[{i}]"
            cur = self.public[-1]
            cur["n_actions"] += 1
            if tok == "?":
                if self.phase != DISCARD:
                    raise PositionError("only the bid winner's discards can be hidden ('?')", path)
                a = None
            else:
                try:
                    a = parse_action(tok)
                except NotationError as exc:
                    raise PositionError(str(exc), path) from None
            if self.phase == AUCTION:
                auc = self.auction
                if a is not None and BID_BASE <= a < PASS:
                    if a not in auc.legal():
                        raise PositionError(f"illegal action {short_repr(tok)}: "
                                            f"{auc.why_not_bid(a - BID_BASE)}", path)
                elif a == PASS:
                    if PASS not in auc.legal():
                        raise PositionError(f"illegal action {short_repr(tok)}: "
                                            f"{auc.why_not_pass()}", path)
                else:
                    raise PositionError(f"{short_repr(tok)}: the auction is on: seat "
                                        f"{auc.to_act} must bid or pass", path)
            elif self.phase == DISCARD:
                if a is not None and not DISCARD_BASE <= a < BID_BASE:
                    raise PositionError(f"{short_repr(tok)}: seat {self.bid_winner} must discard",
                                        path)
                cur["discards"].append((i, None if a is None else a - DISCARD_BASE))
                if a is None:
                    # the stand-in for a card nobody names: this replay holds
                    # no card, and its own discard list is read by nothing
                    a = DISCARD_BASE + ROOK.cards[0]
            elif self.phase == TRUMP:
                if a is None or a < TRUMP_BASE:
                    raise PositionError(f"{short_repr(tok)}: seat {self.bid_winner} must name "
                                        f"trumps", path)
            else:
                if a is None or a >= DISCARD_BASE:
                    raise PositionError(f"{short_repr(tok)}: a card must be played", path)
                seat, trick_no = self.current_player(), self.tricks_done + 1
                cur["plays"].append((trick_no, seat, a, i))
                if self.trick and suit_of(a) != suit_of(self.trick[0]):
                    cur["voids"].append((trick_no, seat, suit_of(self.trick[0])))
            self._apply(a)
        for hand, (w, over) in zip(self.public, self.meta, strict=True):
            hand["w"] = w
            hand["played"] = over and w is not None
        return self.public


def _public_replay(game: DixieRookGame, first_dealer: int, tokens: list) -> list[dict]:
    """Replay a view's actions with public knowledge only, by the rules of
    the game's state (``_PublicReplay.play``)."""
    return _PublicReplay(game, first_dealer).play(tokens)


def _complete_view(game: DixieRookGame, view: dict, rng: random.Random) -> dict:
    seat = view["seat"]
    deal = view.get("deal")
    if not isinstance(deal, dict):
        raise PositionError("a seat view needs a deal object", "deal")
    if "match" in view:
        check_keys(deal, ("deals",), "deal")
        first = view["match"]["dealer"]
    else:
        check_keys(deal, ("first_dealer", "deals"), "deal")
        first = game._parse_first_dealer(deal)
    deals = need(deal, "deals", "deal", list)
    tokens = list(view["actions"])
    pub = _public_replay(game, first, tokens)
    if len(deals) < len(pub) - 1 or (len(deals) == len(pub) - 1 and pub[-1]["n_actions"]):
        raise PositionError(f"the actions reach hand {len(pub)}, whose deal is missing",
                            "deal.deals")
    if len(deals) > len(pub):
        raise PositionError(f"no action reaches hand {len(pub) + 1}", f"deal.deals[{len(pub)}]")
    outcomes = [("match", view["match"])] if "match" in view else [("first_dealer", first)]
    for h, d in enumerate(deals):
        path = f"deal.deals[{h}]"
        hands, nest, fills = _complete_hand(game, seat, d, path, pub[h], rng)
        outcomes.append(("deal", (hands, nest)))
        for cut in game._parse_cuts(d, path):
            outcomes.append(("cut", cut))
        for i, c in fills.items():
            tokens[i] = format_action(DISCARD_BASE + c)
    return {"deal": game.format_deal(outcomes), "actions": tokens}


def _complete_hand(game: DixieRookGame, seat: int, d, path: str, pub: dict,
                   rng: random.Random) -> tuple:
    """One hand of a seat view completed: ``(hands, nest, fills)`` with
    ``fills`` the hidden discards chosen (action index -> card).

    A hand played out is fully known (its nest is turned up): every hand is
    what its seat played, the bid winner's plus its discards less the nest.
    Otherwise the unseen cards go to slots by bipartite matching: each other
    seat's hand (for a bid winner hiding the nest from this seat: the cards
    it holds now plus those it discarded), and the nest while nobody has
    taken it.  A card a seat played sits in that seat's slots only; a card of
    a colour a seat failed to follow cannot have been in its hand then; a
    discarded or nest card was never played."""
    n, size, k = game.num_players, game.hand_size, game.nest_size
    if not isinstance(d, dict):
        raise PositionError("expected an object", path)
    check_keys(d, ("hands", "nest", "cuts"), path)
    raw = need(d, "hands", path, list)
    if len(raw) != n:
        raise PositionError(f"expected {n} hands, got {len(raw)}", f"{path}.hands")
    for o in range(n):
        if o != seat and (isinstance(raw[o], bool) or raw[o] != size):
            raise PositionError(f"seat {seat}'s view cannot show seat {o}'s cards: give "
                                f"their count ({size})", f"{path}.hands[{o}]")
    own = parse_card_list(ROOK, raw[seat], f"{path}.hands[{seat}]")
    if len(own) != size:
        raise PositionError(f"seat {seat} must hold {size} cards, got {len(own)}",
                            f"{path}.hands[{seat}]")
    w, over = pub["w"], pub["played"]
    seen = w is not None and (over or w == seat)
    nest_raw = need(d, "nest", path)
    if seen:
        nest = parse_card_list(ROOK, nest_raw, f"{path}.nest")
        if len(nest) != k:
            raise PositionError(f"the nest has {k} cards, got {len(nest)}", f"{path}.nest")
    else:
        if isinstance(nest_raw, bool) or nest_raw != k:
            raise PositionError(f"seat {seat} does not see this nest: give its size ({k})",
                                f"{path}.nest")
        nest = []
    check_distinct(ROOK, [(f"{path}.hands[{seat}]", own), (f"{path}.nest", nest)], path)
    if "cuts" in d and not over:
        raise PositionError("a cut only follows a hand played out", f"{path}.cuts")
    discards = pub["discards"]
    for i, c in discards:
        if (w == seat or over) and c is None:
            raise PositionError(f"seat {seat} sees this discard: name it", f"actions[{i}]")
        if not (w == seat or over) and c is not None:
            raise PositionError(f"seat {seat} cannot see this discard: give it as '?'",
                                f"actions[{i}]")
    known = set(own) | set(nest)
    played_by: dict[int, tuple] = {}
    for t, s, c, i in pub["plays"]:
        if c in played_by:
            raise PositionError(f"{ROOK.to_string(c)} is played twice", f"actions[{i}]")
        played_by[c] = (s, t)
        if s != seat and c in known and not (over and s == w and c in nest):
            raise PositionError(f"seat {s} plays {ROOK.to_string(c)}, which seat {seat} "
                                f"holds or saw in the nest", f"actions[{i}]")
    fills: dict[int, int] = {}
    hands: list = [None] * n
    hands[seat] = sorted(own)
    if over:
        gone = [c for _, c in discards]
        for o in range(n):
            mine = [c for c, (s, _) in played_by.items() if s == o]
            if o == w:
                mine = sorted((set(mine) | set(gone)) - set(nest))
            if o != seat:
                hands[o] = sorted(mine)
    else:
        hands, nest, fills = _match_hand(game, seat, hands, own, nest, pub, played_by, rng,
                                         path)
    for o in range(n):
        if len(hands[o]) != size:
            raise PositionError(f"seat {o}'s plays and the nest do not make a hand of {size}",
                                path)
    check_distinct(ROOK, [(f"{path}.hands[{o}]", hands[o]) for o in range(n)] +
                   [(f"{path}.nest", nest)], path)
    return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(nest)), fills


def _match_hand(game, seat, hands, own, nest, pub, played_by, rng, path):
    n, size, k = game.num_players, game.hand_size, game.nest_size
    w = pub["w"]
    known = set(own) | set(nest)
    pool = [c for c in ROOK.cards if c not in known]
    gone = len(pub["discards"])
    slots = []
    for o in range(n):
        if o == seat:
            continue
        if o == w:           # the nest is hidden from this seat: w's cards plus its discards
            slots += [("hold", o, j) for j in range(size + k - gone)]
            slots += [("gone", o, j) for j in range(gone)]
        else:
            slots += [("hold", o, j) for j in range(size)]
    if w is None:
        slots += [("nest", -1, j) for j in range(k)]
    if len(slots) != len(pool):
        raise PositionError(f"{len(pool)} unseen cards for {len(slots)} places", path)
    voids = {o: [(t, col) for t, s, col in pub["voids"] if s == o] for o in range(n)}

    def allowed(card, slot):
        kind, o, _ = slot
        pb = played_by.get(card)
        if kind != "hold":
            return pb is None
        if pb is None:
            end = size + 1
        elif pb[0] != o:
            return False
        else:
            end = pb[1]
        col = suit_of(card)
        return not any(t < end and c == col for t, c in voids[o])

    assign = match_cards(pool, slots, allowed, rng)
    if assign is None:
        raise PositionError(f"no deal of the unseen cards is consistent with seat {seat}'s "
                            f"view (the plays and failures to follow colour)", path)
    fills = {}
    for o in range(n):
        if o != seat:
            hands[o] = [c for c, sl in assign.items() if sl[1] == o and sl[0] == "hold"]
    if w is None:
        nest = [c for c, sl in assign.items() if sl[0] == "nest"]
    elif w != seat:
        gone_cards = [c for c, sl in assign.items() if sl[0] == "gone"]
        rng.shuffle(gone_cards)
        for (i, _), c in zip(pub["discards"], gone_cards, strict=True):
            fills[i] = c
        allw = sorted(hands[w] + gone_cards)
        nest = rng.sample(allw, k)
        hands[w] = [c for c in allw if c not in nest]
    return hands, nest, fills


class RookWorldSampler(WorldSampler):
    """Worlds drawn exactly uniformly among those consistent with one seat
    view (the protocol's world sampler: ``sample(rng)``).

    Only the hand in play has unseen cards that matter: a hand played out
    is known entirely (its nest is turned up), and the unseen hands of a
    passed-out one change nothing later; those keep the completion made
    once (``complete_view``, which also validates the view), replayed once
    into ``base``.  In the hand in play the unseen cards are those neither
    the seat holds nor saw (the nest and discards when it won the bid) nor
    anyone played; their **holders** (``holders``: a seat, or ``NEST`` /
    ``DISCARDS``) are

    * every other seat's hand as it is now (the bid winner's, when this
      seat did not win the bid: its cards left after the discards made so
      far), ``capacity`` = its cards not yet played;
    * the nest while the auction is on (nobody has taken it);
    * the discards made so far, when another seat won the bid: discarded
      before the play, they can be any unseen card (no failure to follow
      says anything about them).

    A seat that failed to follow a colour holds none of it now (a hand only
    loses cards during the play), and the cards of that colour it held then
    and played later are public: so a void removes that seat from the
    allowed holders of every unseen card of the colour, and nothing else.
    (Trumps do not change the colour a card follows: dixie-rook has no Rook
    bird card.)  ``ColumnSampler`` draws every assignment of the unseen
    cards to the holders with equal probability (exact big-integer counts;
    each draw is a walk of its compiled graph, in C when built); then, when another seat
    won the bid, its original hand and the nest are a uniform split of the
    cards it took up (held now, played, discarded) and the discards'
    order is a uniform permutation: each assignment stands for the same
    number of complete records, so the records are uniform too.  An
    inconsistent view is a ``PositionError``, never a hang.

    Each draw clones ``base`` and rewrites the hand in play's hidden cards
    in place (the deal in the chance log, the hands, the discards and their
    actions, the narrative lines that show them), and gives the world a
    fresh tie-cut stream from ``rng`` (otherwise every world cloned from
    ``base`` would settle a tie for most tricks the same way)."""

    NEST, DISCARDS = -1, -2

    def __init__(self, game: DixieRookGame, view: dict, rng: random.Random | None = None):
        self.game = game
        self.seat = seat = view["seat"]
        rec = game.complete_record(view, rng or random.Random(0))
        # the replay builds the game's state_class
        self.base = cast(DixieRookState, game.replay(rec["actions"], deal=rec["deal"],
                                                     match=rec.get("match")))
        self.sampler: ColumnSampler | None = None
        # the compiled walk: None until first asked for, False without a build
        self._walker: ColumnWalker | Literal[False] | None = None
        deals = view["deal"]["deals"]
        pub = _public_replay(game, self.base.first_dealer(), list(view["actions"]))
        if len(deals) != len(pub) or self.base.is_terminal():
            return                        # the game is over: everything is known
        h = len(deals) - 1
        p = pub[h]
        n, size, k = game.num_players, game.hand_size, game.nest_size
        self.w = w = p["w"]
        self.discard_actions = [i for i, _ in p["discards"]]
        own = set(self.base.initial_hands[seat])
        known = set(own)
        if w == seat:
            known |= set(self.base.nest)
        self.played: list[list[int]] = [[] for _ in range(n)]
        void = [0] * n
        for _, s, c, _ in p["plays"]:
            self.played[s].append(c)
        for _, s, col in p["voids"]:
            void[s] |= SUIT_RANK_MASK[col]
        gone = len(p["discards"])
        self.holders, caps = [], []
        for o in range(n):
            if o != seat:
                self.holders.append(o)
                caps.append(size - len(self.played[o]) + (k - gone if o == w else 0))
        if w is None:
            self.holders.append(self.NEST)
            caps.append(k)
        elif w != seat:
            self.holders.append(self.DISCARDS)
            caps.append(gone)
        played_all = {c for cards in self.played for c in cards}
        hidden = [c for c in ROOK.cards if c not in known and c not in played_all]
        cards = [(c, sum(1 << i for i, o in enumerate(self.holders)
                         if o < 0 or not void[o] >> c & 1)) for c in hidden]
        try:
            self.sampler = ColumnSampler(caps, cards)
        except InconsistentConstraints as exc:
            raise PositionError(f"no deal of the unseen cards is consistent with seat "
                                f"{seat}'s view ({exc})", f"deal.deals[{h}]") from None
        self.log_index = max(i for i, (kind, _) in enumerate(self.base.chance.log)
                             if kind == "deal")

    def assignment(self, rng: random.Random) -> list[list[int]]:
        """One uniform assignment: the unseen cards of each holder (in
        ``holders`` order); the compiled walk in C when built.  A view of a
        finished game has no unseen card to place: none."""
        sampler = self.sampler
        if sampler is None:
            return []
        if self._walker is None:
            self._walker = False
            if not _sampler_pure():
                try:
                    from .. import _sampler
                    self._walker = _sampler.ColumnWalker(sampler.compiled)
                except ImportError:   # pragma: no cover - without a build
                    self._walker = False
        if self._walker:
            return [cards_of(m) for m in self._walker.walk(rng.getrandbits(64))]
        return sampler.sample(rng)

    def worlds(self) -> int:
        return 1 if self.sampler is None else self.sampler.count

    def sample(self, rng: random.Random) -> DixieRookState:
        world = self.base.clone()
        if self.sampler is None:
            return world
        return self.world_from(world, self.assignment(rng), rng)

    def world_from(self, world: DixieRookState, got: list, rng: random.Random) -> DixieRookState:
        """``world`` (a clone of ``base``) with the hand in play's unseen
        cards placed as ``got`` says (one list per holder), the bid
        winner's nest split and the discard order drawn from ``rng``."""
        g = self.game
        n, k, seat, w = g.num_players, g.nest_size, self.seat, self.w
        # every other seat is a holder: its hand is filled below
        initial: list[list[int]] = [list(self.base.initial_hands[seat]) if o == seat else []
                                    for o in range(n)]
        nest = list(self.base.nest)
        pile: list[int] = []
        for o, cards in zip(self.holders, got, strict=True):
            if o == self.NEST:
                nest = list(cards)
            elif o == self.DISCARDS:
                pile = list(cards)
                rng.shuffle(pile)
            else:
                world.hands[o] = mask_of(cards)
                initial[o] = list(cards) + self.played[o]
        if w is not None and w != seat:
            took = sorted(initial[w] + pile)
            nest = rng.sample(took, k)
            initial[w] = [c for c in took if c not in nest]
            world.discards = list(pile)
            for i, c in zip(self.discard_actions, pile, strict=True):
                world._history[i] = DISCARD_BASE + c
        world.initial_hands = tuple(tuple(sorted(hd)) for hd in initial)
        world.nest = tuple(sorted(nest))
        world.chance.rewrite(self.log_index, (world.initial_hands, world.nest))
        world.events[world.ev_deal:world.ev_deal + n + 1] = world._deal_events(
            world.initial_hands, world.nest)
        if world.ev_nest >= 0:
            world.events[world.ev_nest] = world._nest_event()
        if world.ev_discards >= 0:
            world.events[world.ev_discards] = world._discards_event()
        world.chance.restart_stream("cut", random.Random(rng.getrandbits(64)))
        return world


def _sampler_pure() -> bool:
    import os
    return os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0")
