"""The rules of a dix match as a state machine (``DixState``: the deal of
each round, trick play, the draws from the stock, scoring), and the same
rules replaying one round's public course for seat views
(``_PublicRound``).  The rules in words are in ``solver/games/dix/game.py``."""

from __future__ import annotations

from typing import Any

from ...cards import DIX, JOKER, SUIT_BITS, SUIT_NAMES, rank_of, suit_of
from ...cardset import cards_of, dix_pips, make_rank_table, trick_winner
from ...errors import NAMED_SEAT, PositionError
from ...front import N_
from ...game import MUST_FOLLOW, NOT_HELD, TERMINAL, Chance, InfoState, State
from ...said import Quote, Said, Word, phrase
from ..common import compact_unseen

#: this game (DixGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


STANDARD, SEVENTEEN = "standard", "seventeen"
TEN_TRICK_PENALTY = 4          # a ten-trick scores -3 instead of +1
#: an action is a card id, a bit index of the 64-bit card mask (solver/cards.py)
NUM_ACTIONS = 4 * SUIT_BITS
#: an action number that is no card (the rules' reason, solver/errors.py)
NOT_A_CARD = phrase("dix_not_a_card", N_("not a card"))


def hand_line(seat: int, cards) -> str:
    """The narrative line of a seat's hand as dealt (a world sampler
    rewrites it with the hand it draws: solver/games/dix/views.py)."""
    return f"  seat {seat}: {DIX.format_cards(cards)}"


def draws_line(drawn: list[tuple[int, str]], left: int) -> str:
    """The narrative line of one trick's draws from the stock: ``drawn``
    (seat, card's name) in the order drawn, ``left`` the places left
    after them."""
    text = ", ".join(f"seat {seat} {card}" for seat, card in drawn)
    return f"          draws: {text}; {left} left in the stock"


class DixState(State):
    """A dix match in progress.  Public attributes are read-only views for
    bots and front ends: ``dealer``, ``trump`` (-1 at no trumps),
    ``turn_up``, ``hands`` (masks), ``trick`` (cards on the table, lead
    first), ``leader``, ``tricks_won``, ``tens``, ``totals``, ``round_no``."""

    game: AnyGame   # this game's own options and helpers

    def __init__(self, game: AnyGame, chance):
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
        g: AnyGame = self.game
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
        self.events += [hand_line(s, hands[s]) for s in (0, 1)]

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

    def why_illegal(self, action: int) -> Said:
        seat = self.current_player()
        if not (0 <= action < 64) or action not in DIX:
            return NOT_A_CARD()
        if not (self.hands[seat] >> action) & 1:
            return NOT_HELD(seat=seat, card=DIX.to_string(action))
        led = self.table[self.trick[0]]
        suit = N_("trumps") if led == self.trump else SUIT_NAMES[led]
        return MUST_FOLLOW(seat=seat, suit=Word(suit))

    def _apply(self, card: int) -> None:
        seat = self.current_player()
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        if len(self.trick) == 2:
            self._end_trick()

    def _end_trick(self) -> None:
        g: AnyGame = self.game
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
            drawn = []
            for seat in (winner, 1 - winner):           # the winner draws first
                self.draws.append((self.tricks_done, seat, self.stock_pos))
                card = self.stock[self.stock_pos]
                if card is not None:                    # a view's replay knows none
                    drawn.append((seat, DIX.to_string(card)))
                self._draw_card(seat)
                self.stock_pos += 1
            if drawn:
                self.events.append(draws_line(drawn, len(self.stock) - self.stock_pos))
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

    def tie_key(self, action: int) -> tuple:
        """Among cards of equal value, part with the one least worth keeping:
        the joker last, then trumps, then nines and tens (a ten-trick's
        makers), then by strength, low before high (the rules player's
        order: ``solver/games/dix/heuristic.py``)."""
        table = self.table
        trump = table[action] == self.trump
        return (action == JOKER, trump, dix_pips(action) in (9, 10), table[64 + action],
                action)

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
            raise PositionError(NAMED_SEAT(name="seat", top=1, got=Quote(seat)))
        g: AnyGame = self.game
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

    def __init__(self, game: AnyGame, dealer: int, turn_up: int):
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


def _public_replay(game: AnyGame, first_dealer: int, actions: list[int], turn_up: int,
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
