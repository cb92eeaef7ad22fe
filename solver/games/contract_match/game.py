"""The match skeleton shared by trix and tricks: a chooser picks contracts.

Both games are four "rounds" (trix: kingdoms, tricks: sets) of five deals.
In each round one seat (trix: the kingdom owner, tricks: the dealer) picks
a contract for every new hand after seeing it, each contract once per round,
so the fifth is forced (still an action, with one legal choice).  The next
round's chooser is seat chooser+1.  Four trick contracts
(``contract_match.trick_play``) and the layout (``layout``); what differs -- how the first
chooser is found, doubling (trix) and bad-hand redeals (tricks), the
returns -- lives in ``solver/games/trix/`` and ``solver/games/tricks/``, which subclass
:class:`ContractGame` and :class:`ContractMatchState`.

Actions (sorted ints; one canonical string each)::

    0..63        a card (``solver.cards`` index)                  "QS"
    64..68       contract 0..4 (each game names them)             "contract queens"
    70           pass (layout, legal only when no card fits)      "pass"
    71           end of a seat's doubling declaration (trix)      "reveal done"
    72, 73       keep the hand / order a redeal (tricks, Jacks)   "no redeal", "redeal"
    128 + card   reveal (double) a penalty card (trix)            "reveal KH"

Every action is public, so a seat view hides only the other hands; a
consistent world is found by replaying the public actions (which never
depend on the hidden cards) and matching the unseen cards to the other
seats under every constraint the actions imply (``complete_view``).
"""


from __future__ import annotations

import random
from typing import ClassVar

from ...cards import FRENCH
from ...cardset import popcount
from ...errors import HAND_SIZE as HAND_SIZE_ERROR
from ...errors import (
    ILLEGAL_ACTION,
    MUST_BE_LIST,
    NOT_AN_OBJECT,
    SEAT_RANGE,
    VIEW_NEEDS_DEAL,
    NotationError,
    PositionError,
)
from ...facts import Fact
from ...front import N_, NP_
from ...game import ALREADY_OVER, Chance, Game, InteropSpec, State, canonical_json
from ...games.common import TOTAL_NOT_INTEGER, TOTALS_COUNT, VIEW_HAND_SIZE, VIEW_SHOWS_HAND
from ...said import Quote, phrase
from ...shapes import ListOf, PerSeat, Seat, Shape, Text, Whole, Word
from ..common import (
    check_distinct,
    check_keys,
    match_number,
    need,
    parse_card_list,
)
from .front import ContractFront
from .layout import FINISH_SCORES
from .state import (
    _PUBLIC_CACHE,
    CARD_LIMIT,
    DEALS_PER_ROUND,
    REVEAL_BASE,
    ROUNDS,
    ContractMatchState,
    _norm,
    format_hand,
)
from .trick_play import HAND_SIZE, NUM_SEATS, PENALTY_RULES
from .views import ContractWorldSampler, _complete_hands

# the errors raised here (solver/errors.py: a code and its parameters)
EVERY_CONTRACT_PLAYED_POSITION = phrase("every_contract_played_position", N_("every contract of this {rw} "
                                                                             "is played: the position "
                                                                             "starts in the next {rw}"))
TOTALS_SUM_BUT_WHOLE = phrase("totals_sum_but_whole", N_("the totals sum to {total}, but whole {rw}s sum "
                                                         "to 0 and {what} played in this {rw} make {want}"))
DEAL_LIST_HANDS = phrase("deal_list_hands", N_("a deal is a list of the 4 hands"))
VIEW_LISTS_LEAST_FIRST = phrase("view_lists_least_first", N_("a view lists at least the first deal"))
VIEW_LISTS_DEALS_ACTIONS = phrase("view_lists_deals_actions", N_("the view lists {n_raw} deals; its "
                                                                 "actions reach {n_deal_logs}"))
UNKNOWN_CONTRACT_OF = phrase("unknown_contract_of", N_("unknown contract {name} (one of {choices})"))
LISTED_TWICE_EACH_CONTRACT = phrase("listed_twice_each_contract", N_("{contract_names} is listed twice: "
                                                                     "each contract is played once per "
                                                                     "{rw}"))
TOTAL_RANGE = phrase('total_range', *NP_('after {n} deal a total lies in -{bound}..{bound}, got {got}',
                                         'after {n} deals a total lies in -{bound}..{bound}, got {got}'))
ACTIONS_REACH_DEAL_WHICH = phrase("actions_reach_deal_which", N_("the actions reach deal {n_raw}, which "
                                                                 "the view does not list"))

#: a contract's name that is none of the game's (solver/errors.py)
UNKNOWN_CONTRACT = phrase("unknown_contract", N_("unknown contract {name}"))


class ContractGame(Game):
    #: a seat's facts beyond the widget facts (solver/facts.py), trix's and
    #: tricks' alike; each adds its own
    facts: ClassVar[dict[str, Fact]] = {
        "chooser": Fact(Seat(none=True), "the seat whose kingdom or set is in play (it "
                        "chooses the contracts)"),
        "contract": Fact(Text(), "the contract in play, by its name", optional=True),
        "contract_title": Fact(Text(), "the same in words", optional=True),
        "used": Fact(ListOf(Text()), "the chooser's contracts chosen so far, the one in play "
                     "last"),
        "used_titles": Fact(ListOf(Text()), "the same in words"),
        "out": Fact(ListOf(Whole()), "a layout contract's finishing order so far, by seat"),
    }
    """Common part of the trix and tricks games (4 seats, 20 deals)."""

    #: how the front ends show the game (solver/front.py)
    front_class = ContractFront

    state_class: ClassVar[type[ContractMatchState]]

    #: canonical contract names, indexed by contract id (trick_play ids): the
    #: notation (``contract kinghearts``)
    contract_names: tuple = ()
    #: the contracts in words, as players say them (``King of Hearts``): what
    #: the narrative and the score table print
    contract_titles: tuple = ()
    #: extra accepted spellings (lower case, spaces/-/_ removed) -> contract id
    contract_aliases: dict = {}
    round_word = "round"
    chooser_word = "chooser"
    has_reveals = False
    has_claims = False
    #: the frameworks' adapters: one 52-card deal a deal object's ``deals``
    #: entry, dealt card by card; general-sum deals
    interop = InteropSpec(deal_kind="deal", deal_key="deals", deck=FRENCH, min_players=NUM_SEATS,
                          max_players=NUM_SEATS, max_chance_outcomes=FRENCH.size)

    @property
    def num_players(self) -> int:
        return NUM_SEATS

    @property
    def num_distinct_actions(self) -> int:
        # the reveals (REVEAL_BASE + card id) are the highest action ids
        return REVEAL_BASE + CARD_LIMIT

    @property
    def max_deal_length(self) -> int:
        # the contract (1), a redeal claim per seat (tricks' Jacks), each
        # seat's reveals of its penalty cards and "done" (6 per seat), and 52
        # cards played with at most three passes before each card of a layout
        return 1 + NUM_SEATS + NUM_SEATS * 6 + 52 * NUM_SEATS

    def generate_deal(self, rng: random.Random) -> tuple:
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        return tuple(tuple(sorted(cards[13 * s:13 * s + 13])) for s in range(NUM_SEATS))

    def contract_id(self, name: str) -> int | None:
        key = name.replace(" ", "").replace("-", "").replace("_", "")
        for i, n in enumerate(self.contract_names):
            if key == n:
                return i
        return self.contract_aliases.get(key)

    def contract_of(self, name: str) -> int:
        """``contract_id``, or ``NotationError`` naming an unknown contract."""
        contract = self.contract_id(name)
        if contract is None:
            raise NotationError(UNKNOWN_CONTRACT(name=Quote(name)))
        return contract

    # ---- the deal object -------------------------------------------------
    # Subclasses add their own keys before "deals" (``_parse_prefix`` /
    # ``_format_prefix``); "deals" is a list of deals, each a list of the
    # four hands (card strings).

    deal_keys: tuple = ("deals",)

    # ---- mid-match positions: {round word: k, chooser word: seat,
    #      "played": [contracts of this round so far], "totals": [4 ints]} ----
    # a property where other games have a constant: the keys name the game's
    # own round and chooser words.  A deal scores at most ``round_scale`` a
    # seat (parse_match bounds the totals by the deals played)
    @property
    def match_fields(self) -> dict[str, Shape]:  # type: ignore[override]
        bound = int(self.round_scale) * ROUNDS * DEALS_PER_ROUND
        return {self.round_word: Whole(1, ROUNDS), self.chooser_word: Seat(),
                "played": ListOf(Word(self.contract_names), 0, DEALS_PER_ROUND - 1,
                                 distinct=True),
                "totals": PerSeat(Whole(-bound, bound))}

    def contract_total(self, contract: int) -> int:
        """What one deal of ``contract`` adds to the four totals together."""
        rule = PENALTY_RULES.get(contract)
        if rule is None:                     # the layout
            return sum(FINISH_SCORES)
        return -(popcount(rule.mask) * rule.per_card + HAND_SIZE * rule.per_trick)

    def parse_match(self, match: dict, seat: int | None = None) -> dict:
        rw, cw = self.round_word, self.chooser_word
        check_keys(match, self.match_keys, "match")
        rnd = match_number(match, rw, ROUNDS)
        chooser = need(match, cw, "match", int)
        if chooser not in range(NUM_SEATS):
            raise PositionError(SEAT_RANGE(top=3, got=chooser), f"match.{cw}")
        played_raw = need(match, "played", "match", list)
        played: list[int] = []
        for i, name in enumerate(played_raw):
            where = f"match.played[{i}]"
            c = self.contract_id(_norm(name)) if isinstance(name, str) else None
            if c is None:
                raise PositionError(UNKNOWN_CONTRACT_OF(name=Quote(name),
                                                        choices=', '.join(self.contract_names)), where)
            if c in played:
                raise PositionError(LISTED_TWICE_EACH_CONTRACT(contract_names=self.contract_names[c], rw=rw),
                                    where)
            played.append(c)
        if len(played) >= DEALS_PER_ROUND:
            raise PositionError(EVERY_CONTRACT_PLAYED_POSITION(rw=rw), "match.played")
        totals = need(match, "totals", "match", list)
        if len(totals) != NUM_SEATS:
            raise PositionError(TOTALS_COUNT(want=4, got=len(totals)), "match.totals")
        done = (rnd - 1) * DEALS_PER_ROUND + len(played)
        bound = int(self.round_scale) * done
        for s, t in enumerate(totals):
            if isinstance(t, bool) or not isinstance(t, int):
                raise PositionError(TOTAL_NOT_INTEGER(got=Quote(t)),
                                    f"match.totals[{s}]")
            if abs(t) > bound:
                raise PositionError(TOTAL_RANGE(n=done, bound=bound, got=t), f"match.totals[{s}]")
        want = sum(self.contract_total(c) for c in played)   # whole rounds sum to zero
        if sum(totals) != want:
            what = ", ".join(self.contract_names[c] for c in played) or "no contract"
            raise PositionError(TOTALS_SUM_BUT_WHOLE(total=sum(totals), rw=rw, what=what, want=want),
                                "match.totals")
        return {rw: rnd, cw: chooser, "played": [self.contract_names[c] for c in played],
                "totals": list(totals)}

    def parse_deal(self, deal: dict, mid: bool = False) -> list:
        if not isinstance(deal, dict):
            raise PositionError(NOT_AN_OBJECT(), "deal")
        check_keys(deal, ("deals",) if mid else self.deal_keys, "deal")
        out = [] if mid else self._parse_prefix(deal)
        raw = deal.get("deals", [])
        if not isinstance(raw, list):
            raise PositionError(MUST_BE_LIST(got=type(raw).__name__), "deal.deals")
        for d, hands in enumerate(raw):
            out.append(("deal", self._parse_hands(hands, f"deal.deals[{d}]")))
        if not mid:
            self._check_parsed(deal, out)
        return out

    def _parse_hands(self, hands, path: str) -> tuple:
        if not isinstance(hands, list) or len(hands) != NUM_SEATS:
            raise PositionError(DEAL_LIST_HANDS(), path)
        parsed = [parse_card_list(FRENCH, h, f"{path}[{s}]") for s, h in enumerate(hands)]
        # a card given to two seats first: it also makes one hand too long,
        # and the duplicate is what was meant
        check_distinct(FRENCH, [(f"{path}[{s}]", parsed[s]) for s in range(NUM_SEATS)], path)
        for s, cards in enumerate(parsed):
            if len(cards) != HAND_SIZE:
                raise PositionError(HAND_SIZE_ERROR(seat=s, want=HAND_SIZE, got=len(cards)),
                                    f"{path}[{s}]")
        return tuple(tuple(sorted(h)) for h in parsed)

    def _format_deal(self, outcomes: list, mid: bool) -> dict:
        out: dict = {}
        if not mid:
            self._format_prefix(outcomes, out)
        out["deals"] = [[format_hand(h) for h in v] for k, v in outcomes if k == "deal"]
        return out

    def _parse_prefix(self, deal: dict) -> list:
        return []

    def _check_parsed(self, deal: dict, outcomes: list) -> None:
        """Cross-checks of the parsed deal object (``PositionError``)."""

    def _format_prefix(self, outcomes: list, out: dict) -> None:
        """Add the game's own keys (before "deals") to ``out``."""

    # ---- seat views --------------------------------------------------------

    def view_deal(self, outcomes: list, seat: int) -> dict:
        """The deal object as ``seat`` sees it: other hands as counts."""
        full = self.format_deal(outcomes)
        full["deals"] = [[h if s == seat else HAND_SIZE for s, h in enumerate(hands)]
                         for hands in full["deals"]]
        return full

    def _view_prefix(self, deal: dict, seat: int) -> tuple[list, dict]:
        """The game's own keys of a view's deal object -> (chance outcomes
        before the first deal, facts for ``_dummy_deal`` and ``_forced``)."""
        return [], {}

    def _dummy_deal(self, d: int, facts: dict) -> tuple:
        """Some deal, used only to replay a view's public actions."""
        cards = FRENCH.cards
        return tuple(tuple(cards[13 * s:13 * s + 13]) for s in range(NUM_SEATS))

    def _forced(self, d: int, facts: dict) -> dict:
        """``{card: seat}`` that the view's public facts place (trix: 7H)."""
        return {}

    def complete_view(self, view: dict, rng: random.Random) -> dict:
        """A complete record consistent with a seat view.  Every action is
        public and the course of play never depends on hidden cards, so the
        actions are replayed over stand-in hands to learn, per deal, who
        played or revealed which card, who failed to follow which suit, who
        passed in the layout (holding no card that fitted), who proved to
        hold no penalty card (``must_discard_penalty``) and who claimed a
        bad hand; the unseen cards are then matched to the other seats under
        those constraints.  The caller replays the result for legality."""
        seat = view["seat"]
        prefix, facts, own, logs = self._public_facts(view)
        outcomes = list(prefix)
        for d, log in enumerate(logs):
            outcomes.append(("deal", _complete_hands(seat, own[d], log, self._forced(d, facts),
                                                     rng, f"deal.deals[{d}]")))
        return {"deal": self.format_deal(outcomes), "actions": list(view["actions"])}

    def _mid_view_prefix(self, match: dict) -> tuple[list, dict]:
        """A mid-match view's chance outcomes before its first deal and the
        facts for ``_dummy_deal`` / ``_forced`` (trix: 7H when the view
        starts at the first deal of the match)."""
        return [("match", match)], {}

    def world_sampler(self, view: dict, base: State | None = None) -> ContractWorldSampler:
        return ContractWorldSampler(self, view, base)

    def _view_facts(self, view: dict) -> dict:
        """The facts for ``_forced`` that a view's deal or match object
        states (trix: who holds 7H in the first deal)."""
        if "match" in view:
            return self._mid_view_prefix(view["match"])[1]
        return self._view_prefix(view["deal"], view["seat"])[1]

    def _public_facts(self, view: dict) -> tuple:
        """The view's public facts: (chance outcomes before the first deal,
        facts for ``_dummy_deal`` / ``_forced``, the seat's own hands, the
        public replay's deal logs).  Cached for the last few views, since a
        sampler completes the same view many times."""
        try:
            key = (self.name, tuple(sorted(self.options.items())), view["seat"],
                   canonical_json(view.get("match")),
                   canonical_json(view.get("deal")), tuple(view["actions"]))
        except TypeError:
            key = None
        hit = _PUBLIC_CACHE.get(key) if key is not None else None
        if hit is not None:
            _PUBLIC_CACHE.move_to_end(key)
            return hit
        seat = view["seat"]
        deal = view.get("deal")
        if not isinstance(deal, dict):
            raise PositionError(VIEW_NEEDS_DEAL(), "deal")
        if "match" in view:
            check_keys(deal, ("deals",), "deal")
            prefix, facts = self._mid_view_prefix(view["match"])
        else:
            check_keys(deal, self.deal_keys, "deal")
            prefix, facts = self._view_prefix(deal, seat)
        raw = need(deal, "deals", "deal", list)
        if not raw:
            raise PositionError(VIEW_LISTS_LEAST_FIRST(), "deal.deals")
        own = [self._view_own_hand(hands, seat, f"deal.deals[{d}]")
               for d, hands in enumerate(raw)]
        scripted = prefix + [("deal", self._dummy_deal(d, facts)) for d in range(len(raw))]
        public = self.state_class(self, Chance(None, scripted))
        for i, text in enumerate(view["actions"]):
            where = f"actions[{i}]"
            if public.is_terminal():
                raise PositionError(ALREADY_OVER(action=Quote(text)), where)
            try:
                action = public.string_to_action(text)
            except NotationError as exc:
                raise PositionError(exc.as_message(), where) from None
            problem = public.public_problem(action)
            if problem:
                raise PositionError(ILLEGAL_ACTION(action=Quote(text), reason=problem), where)
            public._apply(action)
            if len(public.chance.log) > len(scripted):
                raise PositionError(ACTIONS_REACH_DEAL_WHICH(n_raw=len(raw) + 1), "deal.deals")
        if len(public.deal_logs) != len(raw):
            raise PositionError(VIEW_LISTS_DEALS_ACTIONS(n_raw=len(raw), n_deal_logs=len(public.deal_logs)),
                                "deal.deals")
        result = (prefix, facts, own, public.deal_logs)
        if key is not None:
            _PUBLIC_CACHE[key] = result
            if len(_PUBLIC_CACHE) > 16:
                _PUBLIC_CACHE.popitem(last=False)
        return result

    def _view_own_hand(self, hands, seat: int, path: str) -> list:
        if not isinstance(hands, list) or len(hands) != NUM_SEATS:
            raise PositionError(DEAL_LIST_HANDS(), path)
        for s, h in enumerate(hands):
            if s == seat:
                continue
            if isinstance(h, bool) or not isinstance(h, int):
                raise PositionError(VIEW_SHOWS_HAND(seat=seat, other=s, want=HAND_SIZE), f"{path}[{s}]")
            if h != HAND_SIZE:
                raise PositionError(VIEW_HAND_SIZE(seat=s, want=HAND_SIZE, got=h),
                                    f"{path}[{s}]")
        own = parse_card_list(FRENCH, hands[seat], f"{path}[{seat}]")
        if len(own) != HAND_SIZE:
            raise PositionError(HAND_SIZE_ERROR(seat=seat, want=HAND_SIZE, got=len(own)),
                                f"{path}[{seat}]")
        check_distinct(FRENCH, [(f"{path}[{seat}]", own)], path)
        return own
