"""The rules of a dixie-rook game as a state machine
(``DixieRookState``), and the same rules replaying a seat view's public
course (``_PublicReplay``).  The rules in words are in
``solver/games/dixie_rook/game.py``."""

from __future__ import annotations

import random
from typing import Any

from ...cards import ROOK, ROOK_COLOURS, SUIT_RANK_MASK, cards_of, mask_of, suit_of
from ...cardset import make_rank_table, trick_winner
from ...errors import ILLEGAL_ACTION, NAMED_SEAT, NotationError, PositionError
from ...front import N_, NP_
from ...game import NOT_HELD, TERMINAL, Chance, InfoState, State
from ...said import Quote, Said, Word, phrase
from .auction import Auction
from .notation import (
    AUCTION,
    BID_BASE,
    DISCARD,
    DISCARD_BASE,
    MOST_TRICKS_BONUS,
    NUM_ACTIONS,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_BASE,
    _team_name,
    card_count,
    format_action,
    parse_action,
    team_of,
)

# the errors raised here (solver/errors.py: a code and its parameters)
ONLY_DISCARDS_HIDDEN = phrase("only_discards_hidden", N_("only the bid winner's discards can be hidden "
                                                         "('?')"))
AUCTION_ON_SEAT_BID = phrase("auction_on_seat_bid", N_("{tok}: the auction is on: seat {to_act} must bid "
                                                       "or pass"))
SEAT_DISCARD = phrase("seat_discard", N_("{tok}: seat {bid_winner} must discard"))
SEAT_NAME_TRUMPS = phrase("seat_name_trumps", N_("{tok}: seat {bid_winner} must name trumps"))
CARD_PLAYED = phrase("card_played", N_("{tok}: a card must be played"))

#: this game (DixieRookGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any

# the rules' reasons (solver/errors.py: a code and its parameters)
NOT_ROOK = phrase("rook_not_an_action", N_("not a dixie-rook action"))
AUCTION_ON = phrase("auction_on", N_("the auction is on: seat {seat} must bid or pass"))
AUCTION_OVER = phrase("auction_over", N_("the auction is over (seat {seat} won it at {bid})"))
DISCARD_FIRST = phrase("discard_first", *NP_("seat {seat} must first discard {n} more card",
                                             "seat {seat} must first discard {n} more cards"))
DISCARDS_DONE = phrase("discards_done", N_("the discards are done"))
TRUMPS_FIRST = phrase("trumps_first", N_("seat {seat} must name trumps first"))
TRUMPS_NAMED = phrase("trumps_named", N_("trumps are already named ({colour})"))
FOLLOW_COLOUR = phrase("follow_colour", N_("seat {seat} must follow {colour}"))
PASSED = phrase("passed", N_("seat {seat} has passed (a pass is final)"))



class DixieRookState(State):
    """A Dixie Rook game in progress.  Public attributes are read-only for
    bots and front ends: ``dealer``, ``phase``, ``auction``, ``bid_winner``
    (-1 before), ``bid``, ``trump`` (-1 before it is named), ``hands``
    (masks), ``nest``, ``discards``, ``trick`` (cards, lead first),
    ``leader``, ``tricks_won`` and ``count`` (per team), ``totals``,
    ``results`` (finished hands), ``winner`` (the winning team)."""

    game: AnyGame   # this game's own options and helpers

    def __init__(self, game: AnyGame, chance):
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
        g: AnyGame = self.game
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

    def why_illegal(self, action: int) -> Said:
        seat = self.current_player()
        if not 0 <= action < NUM_ACTIONS or (action < BID_BASE and
                                              action % DISCARD_BASE not in ROOK):
            return NOT_ROOK()
        kind = ("card" if action < DISCARD_BASE else "discard" if action < BID_BASE else
                "bid" if action < PASS else "pass" if action == PASS else "trump")
        if self.phase == AUCTION:
            if kind == "bid":
                return self.auction.why_not_bid(action - BID_BASE)
            if kind == "pass":
                return self.auction.why_not_pass()
            return AUCTION_ON(seat=seat)
        if kind in ("bid", "pass"):
            return AUCTION_OVER(seat=self.bid_winner, bid=self.bid)
        if self.phase == DISCARD:
            if kind == "discard":
                return NOT_HELD(seat=seat, card=ROOK.to_string(action - DISCARD_BASE))
            return DISCARD_FIRST(seat=seat, n=self.game.nest_size - len(self.discards))
        if kind == "discard":
            return DISCARDS_DONE()
        if self.phase == TRUMP:
            return TRUMPS_FIRST(seat=seat)
        if kind == "trump":
            return TRUMPS_NAMED(colour=Word(ROOK_COLOURS[self.trump]))
        card = action
        if not (self.hands[seat] >> card) & 1:
            return NOT_HELD(seat=seat, card=ROOK.to_string(card))
        return FOLLOW_COLOUR(seat=seat, colour=Word(ROOK_COLOURS[suit_of(self.trick[0])]))

    def why_not_turn(self, seat: int) -> str | Said:
        if self.phase == AUCTION and 0 <= seat < len(self.auction.passed) and \
                self.auction.passed[seat]:
            return PASSED(seat=seat)
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
        g: AnyGame = self.game
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
        g: AnyGame = self.game
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

    def tie_key(self, action: int) -> tuple:
        """Among cards of equal value, part with the one least worth keeping:
        trumps last, then count cards, then by rank, low before high; other
        decisions in the game's order."""
        if self.phase == PLAY and action < DISCARD_BASE:
            return (suit_of(action) == self.trump, card_count(action) > 0, action & 15, action)
        return (action,)

    # ---- notation ----------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return format_action(action)

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    # ---- information -------------------------------------------------------
    def information_state(self, seat: int) -> InfoState:
        g: AnyGame = self.game
        n = g.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise PositionError(NAMED_SEAT(name="seat", top=n - 1, got=Quote(seat)))
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

    def __init__(self, game: AnyGame, first_dealer: int):
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
                    raise PositionError(ONLY_DISCARDS_HIDDEN(), path)
                a = None
            else:
                try:
                    a = parse_action(tok)
                except NotationError as exc:
                    raise PositionError(exc.as_message(), path) from None
            if self.phase == AUCTION:
                auc = self.auction
                if a is not None and BID_BASE <= a < PASS:
                    if a not in auc.legal():
                        raise PositionError(ILLEGAL_ACTION(
                            action=Quote(tok), reason=auc.why_not_bid(a - BID_BASE)), path)
                elif a == PASS:
                    if PASS not in auc.legal():
                        raise PositionError(ILLEGAL_ACTION(action=Quote(tok),
                                                           reason=auc.why_not_pass()), path)
                else:
                    raise PositionError(AUCTION_ON_SEAT_BID(tok=Quote(tok), to_act=auc.to_act), path)
            elif self.phase == DISCARD:
                if a is not None and not DISCARD_BASE <= a < BID_BASE:
                    raise PositionError(SEAT_DISCARD(tok=Quote(tok), bid_winner=self.bid_winner),
                                        path)
                cur["discards"].append((i, None if a is None else a - DISCARD_BASE))
                if a is None:
                    # the stand-in for a card nobody names: this replay holds
                    # no card, and its own discard list is read by nothing
                    a = DISCARD_BASE + ROOK.cards[0]
            elif self.phase == TRUMP:
                if a is None or a < TRUMP_BASE:
                    raise PositionError(SEAT_NAME_TRUMPS(tok=Quote(tok), bid_winner=self.bid_winner), path)
            else:
                if a is None or a >= DISCARD_BASE:
                    raise PositionError(CARD_PLAYED(tok=Quote(tok)), path)
                seat, trick_no = self.current_player(), self.tricks_done + 1
                cur["plays"].append((trick_no, seat, a, i))
                if self.trick and suit_of(a) != suit_of(self.trick[0]):
                    cur["voids"].append((trick_no, seat, suit_of(self.trick[0])))
            self._apply(a)
        for hand, (w, over) in zip(self.public, self.meta, strict=True):
            hand["w"] = w
            hand["played"] = over and w is not None
        return self.public


def _public_replay(game: AnyGame, first_dealer: int, tokens: list) -> list[dict]:
    """Replay a view's actions with public knowledge only, by the rules of
    the game's state (``_PublicReplay.play``)."""
    return _PublicReplay(game, first_dealer).play(tokens)
