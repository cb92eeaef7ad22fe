"""The match skeleton of trix and tricks as a state machine
(``ContractMatchState``): the chooser's contracts, each deal's trick play or
layout, the deal logs the seat views replay.  ``solver/games/contract_match/game.py``
has the match in words."""

from __future__ import annotations

from abc import abstractmethod
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from ...cards import FRENCH, cards_of, mask_of, rank_of
from ...errors import NAMED_SEAT, NotationError, PositionError
from ...front import N_
from ...game import (
    ACTION_NOT_STRING,
    GAME_OVER,
    NOT_AN_ACTION,
    NOT_HELD,
    NOT_LEGAL,
    TERMINAL,
    Chance,
    InfoState,
    State,
)
from ...said import Quote, Said, phrase
from .layout import LayoutDeal
from .trick_play import HAND_SIZE, NUM_SEATS, PENALTY_RULES, TrickDeal, format_trick

# the notation's errors (solver/errors.py: a code and its parameters)
CONTRACT_IN = phrase("unknown_contract_in", N_("unknown contract in {text} (one of: {choices})"))
CARD_IN = phrase("unknown_card_in", N_("unknown card in {text}"))
UNKNOWN_ACTION = phrase("unknown_action", N_("unknown action {action} for {game} ({like})"))
# the rules' reasons
PLAYED_BEFORE = phrase("played_before", N_("{card} was already played in this deal"))
CONTRACT_USED = phrase("contract_used", N_("contract {contract} was already played in {round} {number}"))
NOT_DOUBLED = phrase("not_doubled", N_("{card} is not a card that can be doubled in this contract"))
REVEALED = phrase("revealed", N_("{card} is already revealed"))
PASS_FITS = phrase("pass_fits", N_("seat {seat} holds a card that fits ({cards}): a pass is legal only "
                                   "without one"))
NOT_BAD = phrase("not_bad", N_("hand is not bad"))

#: this game (ContractGame, ``game.py``), for annotations: ``game.py`` imports
#: this module, so this module does not import it back
AnyGame = Any


CARD_LIMIT = 64
CONTRACT_BASE = 64
PASS = 70
REVEAL_DONE = 71
NO_REDEAL = 72
REDEAL = 73
REVEAL_BASE = 128

# phases
CHOOSE, DECLARE, CLAIM, TRICKS, LAYOUT_PLAY, OVER = range(6)
#: what the seat to act must do, by phase
PHASE_NOW = {
    CHOOSE: phrase("choose_now", N_("seat {seat} must choose a contract now")),
    DECLARE: phrase("declare_now", N_("seat {seat} must declare its reveals now ('reveal ..' or "
                                      "'reveal done')")),
    CLAIM: phrase("claim_now", N_("seat {seat} must say 'redeal' or 'no redeal' now")),
    TRICKS: phrase("play_now", N_("seat {seat} must play a card now")),
    LAYOUT_PLAY: phrase("layout_now", N_("seat {seat} must play a card to the layout or pass "
                                         "now")),
}

ROUNDS = 4
DEALS_PER_ROUND = 5


#: public facts of recently completed views (``ContractGame._public_facts``)
_PUBLIC_CACHE: OrderedDict = OrderedDict()

#: game name -> ({action: text}, {text: action}): notation never depends on options
_NOTATION_CACHE: dict[str, tuple[dict, dict]] = {}


@lru_cache(maxsize=8192)
def format_hand(cards: tuple) -> str:
    """Display form of a sorted hand (suits S H D C, high first: for the
    French deck that is descending card index)."""
    return " ".join(FRENCH.to_string(c) for c in reversed(cards))


def hand_line(seat: int, hand: tuple) -> str:
    """The narrative line of a seat's hand as dealt (a world sampler
    rewrites it with the hand it draws: solver/games/contract_match/views.py)."""
    return f"  seat {seat}: {format_hand(hand)}"


#: how the narrative line of a bad-hand claim (tricks) starts, after the seat
BAD_HAND = " has a bad hand ("


def bad_hand_line(seat: int, hand: tuple) -> str:
    """The narrative line of a bad-hand claim (tricks): the claimer shows
    its 2s and 3s (rewritten, like the hands, in a drawn world)."""
    low = [c for c in hand if rank_of(c) <= 3]
    return f"  seat {seat}{BAD_HAND}{FRENCH.format_cards(low)}) and orders a redeal"


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


class DealLog:
    """One dealt hand (a redealt hand too) and everything public about it."""

    __slots__ = ("hands", "contract", "reveals", "claim", "play", "scores")

    def __init__(self, hands: tuple):
        self.hands = hands                  # the four initial hands (sorted tuples)
        self.contract = -1
        self.reveals: list[tuple[int, int]] = []    # (seat, card), trix doubling
        self.claim = -1                     # seat that ordered a redeal (tricks)
        # TrickDeal or LayoutDeal once play starts: the phase says which, and
        # each use names the type it reads (``play: TrickDeal = log.play``)
        self.play: Any = None
        self.scores: list[int] | None = None     # the deal's scores once it is over

    def copy(self) -> DealLog:
        new = DealLog.__new__(DealLog)
        new.hands = self.hands
        new.contract = self.contract
        new.reveals = list(self.reveals)
        new.claim = self.claim
        new.play = self.play.copy() if self.play is not None else None
        new.scores = self.scores
        return new


class ContractMatchState(State):
    """A whole match.  Read-only attributes for bots and front ends:
    ``phase``, ``round_no`` (kingdom / set, 0..3), ``chooser``, ``used``
    (contract ids played this round), ``deal_logs`` (every hand dealt, with
    its public facts), ``totals``, ``rows`` (finished deals: scores),
    ``winners`` (seats with the best result once over), ``events``."""

    game: AnyGame   # this game's own options and helpers

    def __init__(self, game: AnyGame, chance: Chance):
        super().__init__(game, chance)
        self.totals = [0] * NUM_SEATS
        self.round_no = 0
        self.chooser = 0
        self.used: list[int] = []
        self.deal_logs: list[DealLog] = []
        self.rows: list[dict] = []
        self.events: list[str] = []
        self.labels: list[str] = []
        self.phase = CHOOSE
        self.order: list[int] = []          # seats asked in DECLARE / CLAIM
        self.order_pos = 0
        self.revealed = 0                   # mask of revealed cards this deal
        self.winners: list[int] | None = None
        match = chance.draw_match()
        if match is not None:
            self._start_from(match)
        else:
            self._start_match()

    def _start_from(self, match: dict) -> None:
        """Start at the first deal of a mid-match position."""
        g: AnyGame = self.game
        self.round_no = match[g.round_word] - 1
        self.chooser = match[g.chooser_word]
        self.used = [g.contract_of(name) for name in match["played"]]
        self.totals = list(match["totals"])
        self.events.append(f"from {g.round_word} {self.round_no + 1}, deal "
                           f"{len(self.used) + 1}: totals " + self._score_text(self.totals))
        self._new_deal()

    def _match_now(self) -> dict:
        g: AnyGame = self.game
        return {g.round_word: self.round_no + 1, g.chooser_word: self.chooser,
                "played": [g.contract_names[c] for c in self.used], "totals": list(self.totals)}

    # ---- hooks -----------------------------------------------------------
    @abstractmethod
    def _start_match(self) -> None:
        """Draw what decides the first chooser, deal the first hand."""

    @abstractmethod
    def _after_choice(self, contract: int) -> None:
        """What follows the contract choice (declarations, claims, play)."""

    def _on_dealt(self, log: DealLog) -> None:
        """Called when a hand is dealt, before it is announced."""

    def _deal_scores(self, log: DealLog) -> list[int]:
        return log.play.scores()

    def _final_result(self) -> None:
        """Set ``winners`` and add the result to the events."""
        best = max(self.totals)
        self.winners = [s for s in range(NUM_SEATS) if self.totals[s] == best]
        names = " and ".join(f"seat {s}" for s in self.winners)
        shared = "shared win: " if len(self.winners) > 1 else ""
        self.events.append(f"match over: {shared}{names} with {best}; totals "
                           + self._score_text(self.totals))

    # ---- dealing -----------------------------------------------------------
    @property
    def log(self) -> DealLog:
        return self.deal_logs[-1]

    def _new_deal(self, contract: int = -1) -> None:
        hands = self._chance.draw("deal", self.game.generate_deal)
        log = DealLog(tuple(tuple(h) for h in hands))
        log.contract = contract
        self.deal_logs.append(log)
        self.revealed = 0
        self._on_dealt(log)
        if contract < 0:
            # a new deal (not a redeal): the start of a mid-match position
            self._mark_deal(self._match_now(), at=len(self._chance.log) - 1)
        g: AnyGame = self.game
        again = " (redeal)" if contract >= 0 else ""
        self.events.append(f"{g.round_word} {self.round_no + 1}, deal {len(self.used) + (contract < 0)}"
                           f"{again}: seat {self.chooser} is the {g.chooser_word}")
        self.events += [hand_line(s, log.hands[s]) for s in range(NUM_SEATS)]
        self.phase = CHOOSE if contract < 0 else self.phase

    def _hand_mask(self, seat: int) -> int:
        return mask_of(self.log.hands[seat])

    def _start_tricks(self) -> None:
        g = self.game
        log = self.log
        log.play = TrickDeal([mask_of(h) for h in log.hands], self.chooser,
                             PENALTY_RULES[log.contract],
                             must_discard=g.options.get("must_discard_penalty", False),
                             stop=g.options.get("stop_when_decided", True))
        self.phase = TRICKS

    def _start_layout(self) -> None:
        log = self.log
        log.play = LayoutDeal([mask_of(h) for h in log.hands], self.chooser,
                              stop=self.game.options.get("stop_when_decided", True))
        self.phase = LAYOUT_PLAY

    # ---- protocol ------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == TRICKS:
            return self.log.play.to_move()
        if ph == LAYOUT_PLAY:
            return self.log.play.turn
        if ph == CHOOSE:
            return self.chooser
        if ph == OVER:
            return TERMINAL
        return self.order[self.order_pos]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        ph = self.phase
        if ph == TRICKS:
            return cards_of(self.log.play.legal_mask())
        if ph == LAYOUT_PLAY:
            m = self.log.play.legal_mask()
            return cards_of(m) if m else [PASS]
        if ph == CHOOSE:
            return [CONTRACT_BASE + c for c in range(5) if c not in self.used]
        if ph == DECLARE:
            seat = self.order[self.order_pos]
            pen = PENALTY_RULES[self.log.contract].mask & self._hand_mask(seat) & ~self.revealed
            return [REVEAL_DONE] + [REVEAL_BASE + c for c in cards_of(pen)]
        if ph == CLAIM:
            seat = self.order[self.order_pos]
            return [NO_REDEAL, REDEAL] if self.is_bad_hand(self._hand_mask(seat)) else [NO_REDEAL]
        return []

    @staticmethod
    def is_bad_hand(mask: int) -> bool:
        return False

    def apply_action(self, action: int) -> None:
        """As ``State.apply_action`` (same checks and errors), with a fast
        legality test for cards and passes."""
        if type(action) is int and action >= 0:
            ph = self.phase
            if ph == TRICKS:
                ok = action < CARD_LIMIT and (self.deal_logs[-1].play.legal_mask() >> action) & 1
            elif ph == LAYOUT_PLAY:
                m = self.deal_logs[-1].play.legal_mask()
                ok = (action < CARD_LIMIT and (m >> action) & 1) or (action == PASS and not m)
            else:
                ok = False
            if ok:
                self._apply_and_log(action)
                return
        super().apply_action(action)

    def _apply(self, action: int) -> None:
        labels = _NOTATION_CACHE.get(self.game.name)
        text = labels[0].get(action) if labels else None
        self.labels.append(text if text is not None else self.action_to_string(action))
        ph = self.phase
        if ph == TRICKS:
            self._apply_trick_card(action)
        elif ph == LAYOUT_PLAY:
            self._apply_layout(action)
        elif ph == CHOOSE:
            self._apply_contract(action - CONTRACT_BASE)
        elif ph == DECLARE:
            self._apply_declaration(action)
        else:
            self._apply_claim(action)

    def _apply_contract(self, contract: int) -> None:
        g: AnyGame = self.game
        self.used.append(contract)
        self.log.contract = contract
        forced = " (forced: the last one)" if len(self.used) == DEALS_PER_ROUND else ""
        self.events.append(f"  seat {self.chooser} chooses {g.contract_titles[contract]}{forced}")
        self._after_choice(contract)

    def _apply_declaration(self, action: int) -> None:
        """Overridden by trix (doubling)."""

    def _apply_claim(self, action: int) -> None:
        """Overridden by tricks (bad-hand redeals)."""

    def _apply_trick_card(self, card: int) -> None:
        play: TrickDeal = self.log.play
        done = play.play(card)
        if done is not None:
            leader, cards, winner = done
            self._last_trick = (leader, tuple(cards), winner)
            pen = PENALTY_RULES[self.log.contract]
            taken = [FRENCH.to_string(c) + ("*" if (self.revealed >> c) & 1 else "")
                     for c in cards if (pen.mask >> c) & 1]
            note = f" (takes {' '.join(taken)})" if taken else ""
            self.events.append(f"  trick {play.tricks_done}: {format_trick(leader, cards, winner)}"
                               f"{note}")
            if play.done:
                if play.tricks_done < 13:
                    self.events.append(f"  every penalty card is taken: the deal ends after "
                                       f"trick {play.tricks_done}")
                self._end_deal()

    def _apply_layout(self, action: int) -> None:
        play: LayoutDeal = self.log.play
        seat = play.turn
        if action == PASS:
            play.pass_turn()
            self.events.append(f"  seat {seat} passes")
        else:
            out_before = len(play.finish)
            play.play(action)
            text = f"  seat {seat} plays {FRENCH.to_string(action)}"
            if len(play.finish) > out_before:
                text += f" and is out ({len(play.finish)}); layout {play.layout.text()}"
            self.events.append(text)
        if play.done:
            self._end_deal()

    def _end_deal(self) -> None:
        g: AnyGame = self.game
        log = self.log
        scores = self._deal_scores(log)
        log.scores = scores
        for s in range(NUM_SEATS):
            self.totals[s] += scores[s]
        self.rows.append({"round": self.round_no, "chooser": self.chooser,
                          "contract": log.contract, "scores": scores,
                          "totals": list(self.totals)})
        self.events.append(f"  {g.contract_titles[log.contract]}: " + self._score_text(scores) +
                           "; totals " + self._score_text(self.totals))
        if len(self.used) < DEALS_PER_ROUND:
            self._new_deal()
            return
        self.events.extend(self.score_table(self.round_no))
        self.round_no += 1
        if self.round_no == ROUNDS:
            self.phase = OVER
            self.events.extend(self.score_table(None))
            self._final_result()
            return
        self.chooser = (self.chooser + 1) % NUM_SEATS
        self.used = []
        self._new_deal()

    @staticmethod
    def _score_text(scores) -> str:
        return " ".join(f"{v:+d}" if v else "0" for v in scores)

    def score_table(self, round_no: int | None) -> list[str]:
        """Lines of the per-deal score table (one round, or the whole match)."""
        g: AnyGame = self.game
        rows = [(i, r) for i, r in enumerate(self.rows)
                if round_no is None or r["round"] == round_no]
        title = (f"{g.round_word} {round_no + 1} scores:" if round_no is not None
                 else "match score table:")
        head = (f"  {'deal':>4} {g.round_word:>7} {g.chooser_word:>6}  {'contract':<14}" +
                "".join(f"{'seat ' + str(s):>8}" for s in range(NUM_SEATS)) +
                self._table_extra_head())
        lines = [title, head]
        sums = [0] * NUM_SEATS
        for i, r in rows:
            for s in range(NUM_SEATS):
                sums[s] += r["scores"][s]
            lines.append(f"  {i + 1:>4} {r['round'] + 1:>7} {r['chooser']:>6}  "
                         f"{g.contract_titles[r['contract']]:<14}" +
                         "".join(f"{v:>8}" for v in r["scores"]) +
                         self._table_extra(r["scores"]))
        lines.append(f"  {'sum':>4} {'':>7} {'':>6}  {'':<14}" +
                     "".join(f"{v:>8}" for v in sums) + self._table_extra(sums))
        return lines

    def _table_extra_head(self) -> str:
        return ""

    def _table_extra(self, scores) -> str:
        return ""

    # ---- public replay (seat-view completion) ------------------------------
    def public_problem(self, action: int) -> Said | None:
        """Why ``action`` cannot be the next action whatever the hidden
        hands are (None if it can); used to replay a seat view."""
        ph = self.phase
        if ph == CHOOSE:
            c = action - CONTRACT_BASE
            if not 0 <= c < 5:
                return self._phase_text()
            return self._contract_problem(c)
        if ph == DECLARE:
            if action == REVEAL_DONE:
                return None
            card = action - REVEAL_BASE
            if card not in FRENCH or action < REVEAL_BASE:
                return self._phase_text()
            return self._reveal_problem(card)
        if ph == CLAIM:
            return None if action in (REDEAL, NO_REDEAL) else self._phase_text()
        if ph == TRICKS:
            if not 0 <= action < CARD_LIMIT or action not in FRENCH:
                return self._phase_text()
            if (self.log.play.played >> action) & 1:
                return PLAYED_BEFORE(card=FRENCH.to_string(action))
            return None
        if ph == LAYOUT_PLAY:
            play: LayoutDeal = self.log.play
            if action == PASS:
                return None
            if not 0 <= action < CARD_LIMIT or action not in FRENCH:
                return self._phase_text()
            if not (play.layout.fitting() >> action) & 1:
                return play.layout.why_not(action)
            return None
        return GAME_OVER()

    def _contract_problem(self, c: int) -> Said | None:
        g: AnyGame = self.game
        if c in self.used:
            return CONTRACT_USED(contract=g.contract_names[c], round=g.round_word,
                                 number=self.round_no + 1)
        return None

    def _reveal_problem(self, card: int) -> Said | None:
        rule = PENALTY_RULES.get(self.log.contract)
        text = FRENCH.to_string(card)
        if rule is None or not (rule.mask >> card) & 1:
            return NOT_DOUBLED(card=text)
        if (self.revealed >> card) & 1:
            return REVEALED(card=text)
        return None

    def _phase_text(self) -> Said:
        seat = self.current_player()
        if self.phase == OVER:
            return GAME_OVER()
        return PHASE_NOW[self.phase](seat=seat)

    def why_illegal(self, action: int) -> Said:
        problem = self.public_problem(action)
        if problem:
            return problem
        seat = self.current_player()
        ph = self.phase
        if ph == TRICKS:
            return self.log.play.why_not(action)
        if ph == LAYOUT_PLAY:
            play: LayoutDeal = self.log.play
            if action == PASS:
                fit = FRENCH.format_cards(cards_of(play.legal_mask()))
                return PASS_FITS(seat=seat, cards=fit)
            return NOT_HELD(seat=seat, card=FRENCH.to_string(action))
        if ph == DECLARE:
            return NOT_HELD(seat=seat, card=FRENCH.to_string(action - REVEAL_BASE))
        if ph == CLAIM:
            return NOT_BAD()
        return NOT_LEGAL(seat=seat)

    def tie_key(self, action: int) -> tuple:
        """Among cards of equal value in a trick contract, part with the
        highest first: a low card is the exit a player keeps (a card that
        wins nothing later costs nothing); other decisions in the game's
        order."""
        if self.phase == TRICKS and 0 <= action < CARD_LIMIT:
            return (-(action & 15), action)
        return (action,)

    # ---- notation ------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        labels = _NOTATION_CACHE.setdefault(self.game.name, ({}, {}))[0]
        text = labels.get(action)
        if text is None:
            text = labels[action] = self._format_action(action)
        return text

    def string_to_action(self, text: str) -> int:
        parsed = _NOTATION_CACHE.setdefault(self.game.name, ({}, {}))[1]
        action = parsed.get(text) if isinstance(text, str) else None
        if action is None:
            action = self._parse_action(text)
            if len(parsed) < 4096:
                parsed[text] = action
        return action

    def _format_action(self, action: int) -> str:
        g: AnyGame = self.game
        if isinstance(action, bool) or not isinstance(action, int):
            raise NotationError(NOT_AN_ACTION(action=Quote(action), game=g.name), str(action))
        if 0 <= action < CARD_LIMIT:
            return FRENCH.to_string(action)
        if CONTRACT_BASE <= action < CONTRACT_BASE + 5:
            return f"contract {g.contract_names[action - CONTRACT_BASE]}"
        if action == PASS:
            return "pass"
        if g.has_reveals:
            if action == REVEAL_DONE:
                return "reveal done"
            if REVEAL_BASE <= action < REVEAL_BASE + CARD_LIMIT:
                return f"reveal {FRENCH.to_string(action - REVEAL_BASE)}"
        if g.has_claims:
            if action == REDEAL:
                return "redeal"
            if action == NO_REDEAL:
                return "no redeal"
        raise NotationError(NOT_AN_ACTION(action=Quote(action), game=g.name), str(action))

    def _parse_action(self, text: str) -> int:
        g: AnyGame = self.game
        if not isinstance(text, str):
            raise NotationError(ACTION_NOT_STRING(got=Quote(text)), str(text))
        t = _norm(text)
        if t == "pass":
            return PASS
        if t.startswith("contract "):
            c = g.contract_id(t[len("contract "):])
            if c is None:
                raise NotationError(CONTRACT_IN(text=Quote(text),
                                                choices=", ".join(g.contract_names)), text)
            return CONTRACT_BASE + c
        if g.has_reveals:
            if t in ("reveal done", "no reveal", "done", "reveal none"):
                return REVEAL_DONE
            if t.startswith("reveal ") or t.startswith("double "):
                card = t.split(" ", 1)[1]
                try:
                    return REVEAL_BASE + FRENCH.parse(card)
                except NotationError:
                    raise NotationError(CARD_IN(text=Quote(text)), text) from None
        if g.has_claims:
            if t in ("redeal", "claim", "claim redeal", "bad hand"):
                return REDEAL
            if t in ("no redeal", "keep", "no claim"):
                return NO_REDEAL
        try:
            return FRENCH.parse(t)
        except NotationError:
            raise NotationError(UNKNOWN_ACTION(action=Quote(text), game=g.name,
                                               like=self._notation_help()), text) from None

    def _notation_help(self) -> str:
        g: AnyGame = self.game
        extra = ""
        if g.has_reveals:
            extra = ", 'reveal KH', 'reveal done'"
        if g.has_claims:
            extra = ", 'redeal', 'no redeal'"
        return f"a card like 'QS', 'contract {g.contract_names[1]}'{extra}, 'pass'"

    # ---- information ---------------------------------------------------------
    def information_state(self, seat: int) -> InfoState:
        if isinstance(seat, bool) or seat not in range(NUM_SEATS):
            raise PositionError(NAMED_SEAT(name="seat", top=NUM_SEATS - 1, got=Quote(seat)))
        g: AnyGame = self.game
        view = self._view_head(seat, g.view_deal(self._chance.log, seat))
        view["actions"] = list(self.labels)
        return InfoState(seat, view, self._known(seat))

    def _known(self, seat: int) -> dict:
        g: AnyGame = self.game
        log = self.log
        play = log.play
        if play is not None:
            hand = cards_of(play.hands[seat])
        else:
            hand = list(log.hands[seat])
        known = {"hand": FRENCH.format_cards(hand), "round": self.round_no,
                 "chooser": self.chooser, "used": [g.contract_names[c] for c in self.used],
                 "contract": g.contract_names[log.contract] if log.contract >= 0 else None,
                 # the same in words, for the narrative and the advice
                 "contract_title": g.contract_titles[log.contract] if log.contract >= 0
                 else None, "used_titles": [g.contract_titles[c] for c in self.used],
                 "totals": list(self.totals), "trick": [], "leader": None, "layout": None}
        if isinstance(play, TrickDeal):
            known["trick"] = [FRENCH.to_string(c) for c in play.trick]
            known["leader"] = play.leader
            known["tricks_won"] = list(play.tricks_won)
        elif isinstance(play, LayoutDeal):
            known["layout"] = play.layout.text()
            known["out"] = list(play.finish)
        return known

    def to_text(self) -> str:
        g: AnyGame = self.game
        log = self.log
        lines = [f"{g.name}: {g.round_word} {self.round_no + 1}, {g.chooser_word} seat "
                 f"{self.chooser}, contract "
                 f"{g.contract_names[log.contract] if log.contract >= 0 else '-'}"]
        play = log.play
        for s in range(NUM_SEATS):
            hand = cards_of(play.hands[s]) if play is not None else log.hands[s]
            lines.append(f"seat {s}: {FRENCH.format_cards(hand)}")
        if isinstance(play, TrickDeal):
            lines.append(f"table: {' '.join(FRENCH.to_string(c) for c in play.trick) or '-'}")
        elif isinstance(play, LayoutDeal):
            lines.append(f"layout: {play.layout.text()}")
        lines.append("totals " + self._score_text(self.totals))
        return "\n".join(lines)

    def trick_number(self) -> tuple[int, int] | None:
        if self.phase != TRICKS:
            return None
        return self.log.play.tricks_done + 1, HAND_SIZE

    # ---- the deal in play, for search (each hand dealt is one "round") -----
    def round_index(self) -> int:
        """Index of the hand in play in ``deal_logs`` (a redealt hand counts)."""
        return len(self.deal_logs) - 1

    def round_returns(self, index: int | None = None) -> list[float]:
        """Scores of hand ``index`` (default: the one in play): final for a
        finished hand, so far for the hand in play (penalties taken, layout
        places settled), zero for a redealt hand or before play starts."""
        log = self.deal_logs[self.round_index() if index is None else index]
        if log.scores is not None:
            scores = log.scores
        elif log.play is not None and log.claim < 0:
            scores = self._deal_scores(log)
        else:
            scores = [0] * NUM_SEATS
        return [float(v) for v in self._seat_view_of_scores(scores)]

    def _seat_view_of_scores(self, scores: list[int]) -> list[int]:
        """What each seat's result is made of (trix partners: the team's)."""
        return scores

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * NUM_SEATS
        return [float(v) for v in self.totals]

    def clone(self) -> ContractMatchState:
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new._chance = self._chance.clone()
        new._history = list(self._history)
        new.labels = list(self.labels)
        new.totals = list(self.totals)
        new.used = list(self.used)
        new.deal_logs = self.deal_logs[:-1] + [self.deal_logs[-1].copy()]
        new.rows = list(self.rows)
        new.events = list(self.events)
        new.order = list(self.order)
        new.winners = None if self.winners is None else list(self.winners)
        return new
