"""dix -- Dix by Fred Blundun, 2 players (seed 000, RULINGS "dix").

Read top to bottom as the rules:

* 53 cards (52 + joker).  Deal 13 each, turn up one card: its suit is
  trumps; a turned-up joker means no trumps.  The joker is a trump ranking
  exactly where the turned-up card would.  (``seventeen``: 17 each.)
* The dealer leads trick 1; the trick winner leads the next.  Follow suit if
  able (also while the stock lasts unless ``free_play_while_stock``).
* After each of tricks 1-13 the winner draws first, then the loser.
* Pips: A=1, 2-10 face, courts and joker 0.  A trick totalling 10 is a
  ten-trick.  Round score = tricks - 4 x ten-tricks.  Round winner: higher
  score, then fewer ten-tricks, then the winner of the last trick.
* Match to ``target``: ends after the first round in which a player has
  reached it; higher total wins; equal totals -> that round's tie-breaks.

Actions are card indices (``solver.cards``); the only decisions are cards.
"""

from __future__ import annotations

import random
from typing import cast

from ..cards import DIX, JOKER, SUIT_BITS, SUIT_NAMES, rank_of, suit_of
from ..cardset import cards_of, dix_pips, make_rank_table, trick_winner
from ..errors import NotationError, PositionError, short_repr
from ..game import TERMINAL, Chance, Game, InfoState, Option, State, WorldSampler, register_game
from ..sampler import INF, InconsistentConstraints, IntervalSampler, SlotGroup
from .common import check_distinct, check_keys, compact_unseen, match_number, need, parse_card_list

STANDARD, SEVENTEEN = "standard", "seventeen"
TEN_TRICK_PENALTY = 4          # a ten-trick scores -3 instead of +1
#: an action is a card id, a bit index of the 64-bit card mask (solver/cards.py)
NUM_ACTIONS = 4 * SUIT_BITS


@register_game
class DixGame(Game):
    name = "dix"
    zero_sum = True                  # returns: +1 match winner, -1 loser
    conformance_configs = ({}, {"variant": SEVENTEEN}, {"free_play_while_stock": True})
    round_scale = 30.0
    round_unit = "round score difference (yours minus the opponent's; a tie-break win +0.5)"
    demo_hint_after = 28               # trick 15: the stock is empty, every card known: exact
    notation = ("Cards are rank then suit: A K Q J T 9 8 7 6 5 4 3 2 (T is the ten; 10D "
                "is read as TD) and S H D C (spades, hearts, diamonds, clubs): AS is the ace "
                "of spades; JK is the joker. Every action is a card: type it (case does not "
                "matter).")
    description = "Dix (Fred Blundun): 2 players, trumps and a joker, ten-tricks cost 3"
    options_spec = {
        "variant": Option(STANDARD, "standard: 13 cards and a 26-card stock, 26 tricks; "
                          "seventeen: 17 cards, no stock, 17 tricks",
                          choices=(STANDARD, SEVENTEEN)),
        "target": Option(50, "the match ends after the first round in which a player has "
                         "reached this total", min=1, max=100000),
        "free_play_while_stock": Option(False, "if true, following suit is not required "
                                        "while the stock lasts"),
    }

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_deal_length(self) -> int:
        # every action is a card played: two per trick
        return 2 * self.tricks_per_round

    @property
    def hand_size(self) -> int:
        return 17 if self.options["variant"] == SEVENTEEN else 13

    @property
    def tricks_per_round(self) -> int:
        return 17 if self.options["variant"] == SEVENTEEN else 26

    @property
    def stock_size(self) -> int:
        return 0 if self.options["variant"] == SEVENTEEN else 26

    # ------------------------------------------------------------------
    # chance: the first dealer, then one deal per round

    def generate_round(self, rng: random.Random) -> tuple:
        cards = list(DIX.cards)
        rng.shuffle(cards)
        n = self.hand_size
        hands = (tuple(sorted(cards[:n])), tuple(sorted(cards[n:2 * n])))
        turn_up = cards[2 * n]
        stock = tuple(cards[2 * n + 1:2 * n + 1 + self.stock_size])
        return hands, turn_up, stock

    # ------------------------------------------------------------------
    # mid-match positions: {"round": r, "dealer": seat, "totals": [a, b]}

    match_keys = ("round", "dealer", "totals")

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        check_keys(match, self.match_keys, "match")
        rnd = match_number(match, "round")
        dealer = need(match, "dealer", "match", int)
        if dealer not in (0, 1):
            raise PositionError(f"must be 0 or 1, got {dealer}", "match.dealer")
        totals = need(match, "totals", "match", list)
        if len(totals) != 2:
            raise PositionError(f"one total per seat (2), got {len(totals)}", "match.totals")
        per, done = self.tricks_per_round, rnd - 1
        for s, t in enumerate(totals):
            if isinstance(t, bool) or not isinstance(t, int):
                raise PositionError(f"a total is an integer, got {short_repr(t)}",
                                    f"match.totals[{s}]")
            # a round scores between -3 x tricks (every trick a ten-trick) and +tricks
            if not -3 * per * done <= t <= per * done:
                raise PositionError(f"after {done} round{'s' if done != 1 else ''} a total "
                                    f"lies in {-3 * per * done}..{per * done}, got {t}",
                                    f"match.totals[{s}]")
        tens4 = per * done - sum(totals)       # 4 x the ten-tricks made so far
        if tens4 < 0 or tens4 % 4 or tens4 > 4 * per * done:
            raise PositionError(f"no {done} round{'s' if done != 1 else ''} of {per} tricks "
                                f"make these totals (they sum to {per * done} less 4 per "
                                f"ten-trick)", "match.totals")
        if max(totals) >= self.options["target"]:
            raise PositionError(f"a total reached the target {self.options['target']}: "
                                f"the match is already over", "match.totals")
        return {"round": rnd, "dealer": dealer, "totals": list(totals)}

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError("expected an object", "deal")
        if mid:
            check_keys(deal, ("rounds",), "deal")
            out = []
        else:
            check_keys(deal, ("first_dealer", "rounds"), "deal")
            first = need(deal, "first_dealer", "deal", int)
            if first not in (0, 1):
                raise PositionError(f"must be 0 or 1, got {first}", "deal.first_dealer")
            out = [("first_dealer", first)]
        rounds = need(deal, "rounds", "deal", list)
        for r, rnd in enumerate(rounds):
            out.append(("round", self._parse_round(rnd, f"deal.rounds[{r}]")))
        return out

    def _parse_round(self, rnd, path: str) -> tuple:
        keys = ("hands", "turn_up") + (("stock",) if self.stock_size else ())
        if not isinstance(rnd, dict):
            raise PositionError("expected an object", path)
        check_keys(rnd, keys, path)
        hands_raw = need(rnd, "hands", path, list)
        if len(hands_raw) != 2:
            raise PositionError(f"expected 2 hands, got {len(hands_raw)}", f"{path}.hands")
        hands = []
        for s, h in enumerate(hands_raw):
            cards = parse_card_list(DIX, h, f"{path}.hands[{s}]")
            if len(cards) != self.hand_size:
                raise PositionError(f"seat {s} must hold {self.hand_size} cards, "
                                    f"got {len(cards)}", f"{path}.hands[{s}]")
            hands.append(cards)
        turn_up = parse_card_list(DIX, [need(rnd, "turn_up", path, str)], f"{path}.turn_up")[0]
        stock = []
        if self.stock_size:
            stock = parse_card_list(DIX, need(rnd, "stock", path), f"{path}.stock")
        if self.stock_size and len(stock) != self.stock_size:
            raise PositionError(f"the stock has {self.stock_size} cards, got {len(stock)}",
                                f"{path}.stock")
        check_distinct(DIX, [(f"{path}.hands[0]", hands[0]), (f"{path}.hands[1]", hands[1]),
                             (f"{path}.turn_up", [turn_up]), (f"{path}.stock", stock)], path)
        return (tuple(sorted(hands[0])), tuple(sorted(hands[1]))), turn_up, tuple(stock)

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {"rounds": []} if mid else {"first_dealer": 0, "rounds": []}
        for kind, value in outcomes:
            if kind == "first_dealer":
                out["first_dealer"] = value
            else:
                hands, turn_up, stock = value
                rnd = {"hands": [DIX.format_cards(h) for h in hands],
                       "turn_up": DIX.to_string(turn_up)}
                if self.stock_size:
                    rnd["stock"] = DIX.format_cards(stock, sort=False)
                out["rounds"].append(rnd)
        return out

    # ------------------------------------------------------------------
    # seat views

    def world_sampler(self, view: dict) -> DixWorldSampler:
        return DixWorldSampler(self, view)

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record (``deal`` and ``actions``) consistent with a
        seat view; every action in dix is public, so only the deal is new."""
        return {"deal": _complete_view(self, view, rng), "actions": list(view["actions"])}


class DixState(State):
    """A dix match in progress.  Public attributes are read-only views for
    bots and front ends: ``dealer``, ``trump`` (-1 at no trumps),
    ``turn_up``, ``hands`` (masks), ``trick`` (cards on the table, lead
    first), ``leader``, ``tricks_won``, ``tens``, ``totals``, ``round_no``."""

    game: DixGame   # this game's own options and helpers

    def __init__(self, game: DixGame, chance):
        super().__init__(game, chance)
        self.totals = [0, 0]
        self.round_no = -1                 # index of the current round (in this record)
        self.round_base = 0                # rounds played before this record starts
        self.rounds: list[dict] = []       # finished rounds: scores and winner
        self.events: list[str] = []        # narrative for front ends
        self.winner: int | None = None     # match winner once terminal
        match, self.dealer = self._draw_match_or_dealer()
        if match is not None:
            self.round_base = match["round"] - 1
            self.totals = list(match["totals"])
            self.events.append(f"from round {match['round']}: totals {self.totals[0]} : "
                               f"{self.totals[1]}")
        self._start_round()

    # ---- round set-up ------------------------------------------------
    def _start_round(self) -> None:
        g: DixGame = self.game
        self.round_no += 1
        if self.round_no > 0:
            self.dealer = 1 - self.dealer
        self._mark_deal({"round": self.round_base + self.round_no + 1, "dealer": self.dealer,
                         "totals": list(self.totals)})
        hands, turn_up, stock = self._chance.draw("round", g.generate_round)
        self.initial_hands = (tuple(hands[0]), tuple(hands[1]))
        self.hands = [sum(1 << c for c in hands[0]), sum(1 << c for c in hands[1])]
        self.turn_up = turn_up
        self.stock = tuple(stock)
        self.stock_pos = 0
        if turn_up == JOKER:
            self.trump = -1
            self.table = make_rank_table()
        else:
            self.trump = suit_of(turn_up)
            self.table = make_rank_table(self.trump, rank_of(turn_up))
        self.leader = self.dealer
        self.trick: list[int] = []
        self.tricks_done = 0
        self.tricks_won = [0, 0]
        self.tens = [0, 0]
        self.last_winner = -1
        self.played = 0                    # mask of cards played this round
        self.draws: list[tuple[int, int, int]] = []   # (trick, seat, stock index)
        self.round_start = len(self._history)
        trump_text = "no trumps" if self.trump < 0 else SUIT_NAMES[self.trump]
        number = self.round_base + self.round_no + 1
        self.events.append(f"round {number}: seat {self.dealer} deals; turn-up "
                           f"{DIX.to_string(turn_up)} ({trump_text})")
        for s in (0, 1):
            self.events.append(f"  seat {s}: {DIX.format_cards(hands[s])}")

    # ---- protocol ------------------------------------------------------
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return self.leader if not self.trick else 1 - self.leader

    def _must_follow(self) -> bool:
        return not (self.game.options["free_play_while_stock"] and
                    self.stock_pos < len(self.stock))

    def _legal_mask(self) -> int:
        seat = self.current_player()
        hand = self.hands[seat]
        if not self.trick or not self._must_follow():
            return hand
        led = self.table[self.trick[0]]
        follow = 0
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            if self.table[c] == led:
                follow |= low
            m ^= low
        return follow or hand

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        return cards_of(self._legal_mask())

    def why_illegal(self, action: int) -> str:
        seat = self.current_player()
        if not (0 <= action < 64) or action not in DIX:
            return "not a card"
        if not (self.hands[seat] >> action) & 1:
            return f"seat {seat} does not hold {DIX.to_string(action)}"
        led = self.table[self.trick[0]]
        suit = "trumps" if led == self.trump else SUIT_NAMES[led]
        return f"seat {seat} must follow suit ({suit})"

    def _apply(self, card: int) -> None:
        seat = self.current_player()
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        if len(self.trick) == 2:
            self._end_trick()

    def _end_trick(self) -> None:
        g: DixGame = self.game
        cards = self.trick
        winner = (self.leader + trick_winner(cards, self.trump, self.table)) % 2
        ten = dix_pips(cards[0]) + dix_pips(cards[1]) == 10
        self.tricks_done += 1
        self.tricks_won[winner] += 1
        if ten:
            self.tens[winner] += 1
        self.last_winner = winner
        self._last_trick = (self.leader, tuple(cards), winner)
        self.events.append(
            f"trick {self.tricks_done:2d}: seat {self.leader} {DIX.to_string(cards[0])}, seat "
            f"{1 - self.leader} {DIX.to_string(cards[1])} -> seat {winner}"
            f"{'  (ten-trick, -3)' if ten else ''}")
        self.trick = []
        self.leader = winner
        if self.tricks_done <= 13 and self.stock_pos < len(self.stock):
            for seat in (winner, 1 - winner):           # the winner draws first
                self.draws.append((self.tricks_done, seat, self.stock_pos))
                self._draw_card(seat)
                self.stock_pos += 1
        if self.tricks_done == g.tricks_per_round:
            self._end_round()

    def _draw_card(self, seat: int) -> None:
        """``seat`` takes the stock's next card into its hand."""
        self.hands[seat] |= 1 << self.stock[self.stock_pos]

    def trick_number(self) -> tuple[int, int] | None:
        if self.winner is not None:
            return None
        return self.tricks_done + 1, self.game.tricks_per_round

    def round_index(self) -> int:
        return self.round_no

    def round_returns(self, index: int | None = None) -> list[float]:
        """A round's score difference (zero-sum); a finished round decided by
        its tie-breaks counts half a point for its winner."""
        if index is not None and index < len(self.rounds):
            rnd = self.rounds[index]
            sc, finished, winner = rnd["scores"], True, rnd["winner"]
        else:
            sc = self.round_scores()
            finished = self.tricks_done == self.game.tricks_per_round
            winner = self.round_winner() if finished else -1
        diff = float(sc[0] - sc[1])
        if finished and diff == 0:
            diff = 0.5 if winner == 0 else -0.5
        return [diff, -diff]

    def round_scores(self) -> list[int]:
        """This round's score so far: tricks - 4 x ten-tricks."""
        return [self.tricks_won[s] - TEN_TRICK_PENALTY * self.tens[s] for s in (0, 1)]

    def round_winner(self) -> int:
        """Winner of a finished round: score, then fewer tens, then last trick."""
        sc = self.round_scores()
        if sc[0] != sc[1]:
            return 0 if sc[0] > sc[1] else 1
        if self.tens[0] != self.tens[1]:
            return 0 if self.tens[0] < self.tens[1] else 1
        return self.last_winner

    def _end_round(self) -> None:
        scores = self.round_scores()
        rw = self.round_winner()
        for s in (0, 1):
            self.totals[s] += scores[s]
        self.rounds.append({"scores": scores, "tens": list(self.tens), "winner": rw,
                            "totals": list(self.totals)})
        number = self.round_base + self.round_no + 1
        self.events.append(f"round {number} over: scores {scores[0]} : {scores[1]}"
                           f" (ten-tricks {self.tens[0]} : {self.tens[1]}), round to seat "
                           f"{rw}; totals {self.totals[0]} : {self.totals[1]}")
        target = self.game.options["target"]
        if max(self.totals) >= target:
            if self.totals[0] != self.totals[1]:
                self.winner = 0 if self.totals[0] > self.totals[1] else 1
            else:
                self.winner = rw
            self.events.append(f"match over: seat {self.winner} wins "
                               f"{self.totals[self.winner]} to {self.totals[1 - self.winner]}")
        else:
            self._start_round()

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # ---- notation --------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return DIX.to_string(action)

    def string_to_action(self, text: str) -> int:
        return DIX.parse(text)

    # ---- information -----------------------------------------------------
    def _round_bounds(self) -> list[tuple[int, int]]:
        """(start, end) of each round's actions in the history."""
        per = 2 * self.game.tricks_per_round
        n = len(self._history)
        return [(r * per, min(n, (r + 1) * per)) for r in range(self.round_no + 1)]

    def information_state(self, seat: int) -> InfoState:
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {short_repr(seat)}")
        g: DixGame = self.game
        outcomes = self._chance.log
        rounds = []
        r = 0
        for kind, value in outcomes:
            if kind != "round":
                continue
            hands, turn_up, stock = value
            rnd = {"hands": [DIX.format_cards(hands[s]) if s == seat else len(hands[s])
                             for s in (0, 1)],
                   "turn_up": DIX.to_string(turn_up)}
            if g.stock_size:
                seen = self._own_draw_positions(r, seat)
                rnd["stock"] = compact_unseen([DIX.to_string(c) if i in seen else "?"
                                               for i, c in enumerate(stock)])
            rounds.append(rnd)
            r += 1
        view = self._view_head(seat, {"rounds": rounds})
        view["actions"] = [DIX.to_string(a) for a in self._history]
        return InfoState(seat, view, self._known(seat))

    def _own_draw_positions(self, round_index: int, seat: int) -> set:
        if round_index == self.round_no:
            return {i for (_, s, i) in self.draws if s == seat}
        # a finished round: draws are recomputed from its public play
        return {i for (_, s, i) in _public_replay(self.game, self.first_dealer(),
                                                  self._round_actions(round_index),
                                                  self._round_turn_up(round_index),
                                                  round_index)["draws"] if s == seat}

    def _round_actions(self, r: int) -> list[int]:
        start, end = self._round_bounds()[r]
        return self._history[start:end]

    def _round_turn_up(self, r: int) -> int:
        return [v for k, v in self._chance.log if k == "round"][r][1]

    def _known(self, seat: int) -> dict:
        known = {"hand": DIX.format_cards(cards_of(self.hands[seat])),
                 "trump": None if self.trump < 0 else "CDHS"[self.trump],
                 "turn_up": DIX.to_string(self.turn_up),
                 "trick": [DIX.to_string(c) for c in self.trick],
                 "leader": self.leader,
                 "round": self.round_base + self.round_no, "dealer": self.dealer,
                 "tricks_won": list(self.tricks_won), "tens": list(self.tens),
                 "totals": list(self.totals),
                 "stock_left": len(self.stock) - self.stock_pos,
                 "opponent_hand": None}
        if self.game.stock_size and self.stock_pos == len(self.stock):
            # trick 14 on: every card not seen is in the opponent's hand
            rest = DIX.mask & ~self.hands[seat] & ~self.played & ~(1 << self.turn_up)
            known["opponent_hand"] = DIX.format_cards(cards_of(rest))
        return known

    # ---- display / misc --------------------------------------------------
    def to_text(self) -> str:
        number = self.round_base + self.round_no + 1
        lines = [f"dix round {number}, dealer seat {self.dealer}, turn-up "
                 f"{DIX.to_string(self.turn_up)}, trick {self.tricks_done + 1}",
                 f"seat 0: {DIX.format_cards(cards_of(self.hands[0]))}",
                 f"seat 1: {DIX.format_cards(cards_of(self.hands[1]))}",
                 f"table: {' '.join(DIX.to_string(c) for c in self.trick) or '-'}; "
                 f"totals {self.totals[0]} : {self.totals[1]}"]
        return "\n".join(lines)

    def clone(self) -> DixState:
        new = DixState.__new__(DixState)
        new.__dict__.update(self.__dict__)
        new._chance = self._chance.clone()
        new._history = list(self._history)
        new.hands = list(self.hands)
        new.trick = list(self.trick)
        new.tricks_won = list(self.tricks_won)
        new.tens = list(self.tens)
        new.totals = list(self.totals)
        new.rounds = [dict(r) for r in self.rounds]
        new.events = list(self.events)
        new.draws = list(self.draws)
        return new


DixGame.state_class = DixState


# ----------------------------------------------------------------------
# seat views: completion of the unseen cards

class _PublicRound(DixState):
    """One round's public course, played by the rules of ``DixState`` with
    the hidden cards left out: nobody holds a card and the stock's places
    are not named, so the cards of the actions are applied as played (the
    view's completion checks them against a world later).  It records what
    the rules say about a seat's cards: who played which card in which
    trick (``plays``), every failure to follow what was led (``voids``),
    and who drew which stock place (``draws``, kept by the state itself).
    The round ends the replay: what follows it needs the next deal."""

    def __init__(self, game: DixGame, dealer: int, turn_up: int):
        self.plays: list[tuple[int, int, int]] = []
        self.voids: list[tuple[int, int, int]] = []
        no_cards = (((), ()), turn_up, (None,) * game.stock_size)
        super().__init__(game, Chance(0, [("first_dealer", dealer), ("round", no_cards)]))

    def _apply(self, card: int) -> None:
        seat, trick_no = self.current_player(), self.tricks_done + 1
        self.plays.append((trick_no, seat, card))
        if self.trick and self._must_follow():
            led = self.table[self.trick[0]]
            if self.table[card] != led:
                self.voids.append((trick_no, seat, led))
        super()._apply(card)

    def _draw_card(self, seat: int) -> None:
        """The draw is recorded (``draws``); the card is not known here."""

    def _end_round(self) -> None:
        """The replay covers one round."""


def _public_replay(game: DixGame, first_dealer: int, actions: list[int], turn_up: int,
                   round_index: int) -> dict:
    """One round's public card play, replayed by the rules (``_PublicRound``):
    who led and followed each trick, who drew which stock index, and every
    failure to follow suit (a void)."""
    dealer = first_dealer if round_index % 2 == 0 else 1 - first_dealer
    replay = _PublicRound(game, dealer, turn_up)
    for card in actions:
        if replay.tricks_done == game.tricks_per_round:
            break
        replay._apply(card)
    return {"dealer": dealer, "draws": replay.draws, "plays": replay.plays,
            "voids": replay.voids, "table": replay.table}


def _prepare_view(game: DixGame, view: dict, rng: random.Random):
    """Parse a dix seat view and prepare each round's sampler.

    A complete deal consistent with a dix seat view, or ``PositionError``.

    The unseen cards are assigned to the opponent's hand, the opponent's
    draws and the undrawn stock by bipartite matching under the view's
    constraints: a card the opponent played was in their hand before, and no
    card of a suit the opponent failed to follow was in their hand then."""
    seat = view["seat"]
    other = 1 - seat
    deal = view.get("deal")
    if not isinstance(deal, dict):
        raise PositionError("a seat view needs a deal object", "deal")
    if "match" in view:
        check_keys(deal, ("rounds",), "deal")
        first = view["match"]["dealer"]
    else:
        check_keys(deal, ("first_dealer", "rounds"), "deal")
        first = need(deal, "first_dealer", "deal", int)
        if first not in (0, 1):
            raise PositionError(f"must be 0 or 1, got {first}", "deal.first_dealer")
    rounds = need(deal, "rounds", "deal", list)
    actions = []
    for i, a in enumerate(view["actions"]):
        try:
            actions.append(DIX.parse(a))
        except NotationError as exc:
            raise PositionError(str(exc), f"actions[{i}]") from None
    per = 2 * game.tricks_per_round
    if len(actions) > per * len(rounds):
        raise PositionError(f"the actions reach round {len(rounds) + 1}, whose deal is "
                            f"missing", "deal.rounds")
    models = [_complete_round(game, rnd, f"deal.rounds[{r}]", seat, other, first, r,
                              actions[r * per:(r + 1) * per], r * per, rng)
              for r, rnd in enumerate(rounds)]
    return first, models


def _complete_view(game: DixGame, view: dict, rng: random.Random) -> dict:
    first, models = _prepare_view(game, view, rng)
    head = [("match", view["match"])] if "match" in view else [("first_dealer", first)]
    outcomes = head + [("round", m.deal(rng)) for m in models]
    return game.format_deal(outcomes)


class DixWorldSampler(WorldSampler):
    """Uniform worlds for one dix seat view, prepared once: one replay makes
    a base state; each draw clones it and re-deals only the hidden cards of
    the current round (the opponent's hand and the undrawn stock)."""

    def __init__(self, game: DixGame, view: dict):
        self.game = game
        self.seat = view["seat"]
        _, self.models = _prepare_view(game, view, random.Random(0))
        rec = game.complete_record(view, random.Random(0))
        # the replay builds the game's state_class
        self.base = cast(DixState, game.replay(rec["actions"], deal=rec["deal"],
                                               match=rec.get("match")))
        log = self.base.chance.log
        self.log_index = max(i for i, (kind, _) in enumerate(log) if kind == "round")
        # a view whose last round just ended holds no hidden card that matters
        self.live = len(self.models) == self.base.round_no + 1

    def worlds(self) -> int:
        base = self.base
        if not self.live or base.winner is not None:
            return 1
        if base.game.stock_size and base.stock_pos == len(base.stock):
            return 1                # the stock is gone: the opponent holds the rest
        # the round's deals consistent with the view: each is a world, and
        # two that differ only in cards already played count twice (a bound)
        return self.models[-1].sampler.count

    def sample(self, rng: random.Random) -> DixState:
        state = self.base.clone()
        if not self.live or state.winner is not None:
            return state
        hands, turn_up, stock = self.models[-1].deal(rng)
        other = 1 - self.seat
        held = set(hands[other])
        held |= {stock[i] for (_, s, i) in state.draws if s == other}
        state.hands[other] = sum(1 << c for c in held) & ~state.played
        state.stock = stock
        state.initial_hands = hands
        state.chance.rewrite(self.log_index, (hands, turn_up, stock))
        return state


def _complete_round(game, rnd, path, seat, other, first, r, acts, offset, rng):
    n = game.hand_size
    if not isinstance(rnd, dict):
        raise PositionError("expected an object", path)
    keys = ("hands", "turn_up") + (("stock",) if game.stock_size else ())
    check_keys(rnd, keys, path)
    hands = need(rnd, "hands", path, list)
    if len(hands) != 2:
        raise PositionError(f"expected 2 hands, got {len(hands)}", f"{path}.hands")
    if isinstance(hands[other], int) and not isinstance(hands[other], bool):
        if hands[other] != n:
            raise PositionError(f"seat {other} holds {n} cards, got {hands[other]}",
                                f"{path}.hands[{other}]")
    else:
        raise PositionError(f"seat {seat}'s view cannot show seat {other}'s cards: give "
                            f"their count ({n})", f"{path}.hands[{other}]")
    own = parse_card_list(DIX, hands[seat], f"{path}.hands[{seat}]")
    if len(own) != n:
        raise PositionError(f"seat {seat} must hold {n} cards, got {len(own)}",
                            f"{path}.hands[{seat}]")
    turn_up = parse_card_list(DIX, [need(rnd, "turn_up", path, str)], f"{path}.turn_up")[0]
    stock = []
    if game.stock_size:
        stock = parse_card_list(DIX, need(rnd, "stock", path), f"{path}.stock", unknown_ok=True)
        if len(stock) != game.stock_size:
            raise PositionError(f"the stock has {game.stock_size} places, got {len(stock)}",
                                f"{path}.stock")
    check_distinct(DIX, [(f"{path}.hands[{seat}]", own), (f"{path}.turn_up", [turn_up]),
                         (f"{path}.stock", stock)], path)
    pub = _public_replay(game, first, acts, turn_up, r)
    own_set = set(own) | {c for c in stock if c is not None}
    # a seat knows exactly the stock places it drew
    own_draw_pos = {i for (_, s, i) in pub["draws"] if s == seat}
    for i, c in enumerate(stock):
        if c is not None and i not in own_draw_pos:
            raise PositionError(f"seat {seat} cannot know this stock card (it drew "
                                f"places {sorted(own_draw_pos)})", f"{path}.stock[{i}]")
    for i in own_draw_pos:
        if stock[i] is None:
            raise PositionError(f"seat {seat} drew this card, so the view must name it",
                                f"{path}.stock[{i}]")
    hidden = [c for c in DIX.cards if c not in own_set and c != turn_up]
    opp_play = {}
    for k, (t, s, c) in enumerate(pub["plays"]):
        if s == other:
            if c in own_set or c == turn_up:
                raise PositionError(
                    f"seat {other} plays {DIX.to_string(c)}, which seat {seat} "
                    f"{'sees turned up' if c == turn_up else 'holds or drew'}",
                    f"actions[{offset + k}]")
            opp_play[c] = t
    voids = [(t, suit) for (t, s, suit) in pub["voids"] if s == other]
    table = pub["table"]
    # slot groups: the opponent's initial cards (time 0), each opponent draw
    # after trick k (time k), the stock places nobody drew (never in a hand)
    groups = [SlotGroup(0, n, "hand")]
    groups += [SlotGroup(t, 1, i) for (t, s, i) in pub["draws"] if s == other]
    drawn = {i for (_, _, i) in pub["draws"]}
    rest = [i for i in range(game.stock_size) if i not in drawn]
    if not game.stock_size:                 # seventeen: the 18 cards nobody sees
        rest = list(range(DIX.size - 2 * n - 1))
    groups.append(SlotGroup(INF, len(rest), "rest"))
    cards = []
    for c in hidden:
        p = opp_play.get(c)
        hi = INF if p is None else p - 1
        lo = max([t for (t, suit) in voids if table[c] == suit and (p is None or t < p)],
                 default=0)
        cards.append((c, lo, hi))
    try:
        sampler = IntervalSampler(groups, cards)
    except InconsistentConstraints:
        raise PositionError(f"no deal of the unseen cards is consistent with seat "
                            f"{seat}'s view (the opponent's plays and failures to follow)",
                            path) from None
    return _RoundModel(game, seat, own, turn_up, stock, groups, rest, sampler,
                       set(opp_play))


class _RoundModel:
    """One round of a seat view, prepared: draws the round's deal uniformly
    among those consistent with the view."""

    def __init__(self, game, seat, own, turn_up, stock, groups, rest, sampler, opp_played):
        self.game, self.seat, self.own, self.turn_up = game, seat, own, turn_up
        self.stock, self.groups, self.rest, self.sampler = stock, groups, rest, sampler
        self.opp_played = opp_played

    def deal(self, rng):
        """``(hands, turn_up, stock)`` of one uniformly drawn world."""
        placed = self.sampler.compiled.sample(rng)
        full_stock = list(self.stock)
        for g, cards_here in zip(self.groups[1:], placed[1:], strict=True):
            if g.label == "rest":
                if self.game.stock_size:
                    for i, c in zip(self.rest, cards_here, strict=True):
                        full_stock[i] = c
            else:
                full_stock[g.label] = cards_here[0]
        hands_full = [None, None]
        hands_full[self.seat] = tuple(sorted(self.own))
        hands_full[1 - self.seat] = tuple(sorted(placed[0]))
        return (tuple(hands_full), self.turn_up, tuple(full_stock))
