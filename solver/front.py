"""What the front ends need of a game, declared by the game.

A game's ``Front`` (``Game.front``, made from ``Game.front_class``) says
how a person reads the game: its title and words on the new-table form,
its cards' faces and names, its contracts in words, the panels of its
board in generic widgets, the facts of a position that are its own (a
contract, a bid, tokens: said as ``solver.said`` phrases), what each
finished deal's summary adds to the points, its units beside the deal's,
the rows of cards it lays on the table, the bot levels that differ from the
common ones, and where a deal set up by hand keeps its hands.
``bots/server``, ``bots/advice.py`` and
``bots/analysis.py`` read these declarations and never a game's name, so
a new game gets a working table from the defaults here and says more by
declaring more (its package's ``front.py``).

Every word a person reads is an English message id: marked ``N_`` here
and in the games' ``front.py`` files, extracted into the server's
catalogues with its own (``bots/server/i18n.py`` gives the command), and
translated by the ``words`` a method is given: a callable
``words(message, **params)``, the server's translator or the command
line's English (``bots.advice.English``).  The solver never imports the
front ends: it only marks the words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .said import Said, Seat, Word, phrase


def N_(message: str) -> str:
    """Marks a message id for extraction where it is translated later."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message id said of a count with its plural, the pair
    ``ngettext`` takes, and returns the pair (``solver.said.phrase(code,
    *NP_(...))``)."""
    return singular, plural


def NC_(context: str, message: str) -> str:
    """Marks a message id with its context (gettext's ``msgctxt``: the same
    English words naming another thing, as the game Tricks and the contract
    Tricks); the message itself is returned, and said with
    ``words(message, msgctxt=context)``."""
    return message


class Words(Protocol):
    """``words("Bid {n}", n=85)``: a message id in the reader's language
    (``msgctxt=``: of a message marked with its context, ``NC_``)."""

    def __call__(self, message: str, **params: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """A count in words (``{n}`` is ``n``), in the form the language's
        plural rule gives."""
        ...


@dataclass(frozen=True)
class BoardView:
    """What a game's front reads to word its board (``Front.panels``,
    ``notes``, ``seat_notes``): a viewer's facts (``InfoState.known``:
    the seat's, or those every seat shares), the seats' names in words,
    the viewer's seat (None: a spectator or every hand shown), and the
    actions of the deal in play as the viewer saw them, each as ``(seat,
    words)``."""

    known: Mapping[str, Any]
    names: Sequence[str]
    viewer: int | None = None
    moves: Sequence[tuple[int, str]] = ()


#: the suits as a position's facts say the trumps, in a sentence and so
#: in lower case ("Trumps: spades"; ``Front.trump_words``), by the suit's letter
SUIT_TRUMPS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
#: who holds no seat (a bid nobody made), in words
NOBODY = N_("nobody")
# the phrases of a position's facts that several games share: one number
# a seat or a team (``FactView``), a game's own list of one a seat
# (``Front.seat_facts``)
SEAT_VALUE = phrase("fact.seat_value", N_("{name} {value}"))
TEAMS = phrase("fact.teams", N_("your team {a}, the other team {b}"))
SEAT_FACT = phrase("fact.seat_fact", N_("{label}: {scores}"))


@dataclass(frozen=True)
class FactView:
    """What a game's front reads to say a position's facts as a hint lists
    them (``Front.deal_facts``, ``taken_facts``, ``seat_fact_lines``): the
    asking seat's facts (``InfoState.known``), its seat, the number of
    seats, and whether the game's lists of one number a side are one a
    team (``Game.scores_by_team``), said with the asker's team first."""

    known: Mapping[str, Any]
    seat: int
    seats: int
    by_team: bool = False

    def who(self, value: Any) -> Seat | Word:
        """A seat fact as a phrase's parameter: the seat, or "nobody"
        where it names none (-1, null)."""
        s = seat_of(value)
        return Seat(s) if s is not None and s < self.seats else Word(NOBODY)

    def around(self) -> list[int]:
        """The seats from the asker's own, each next to the left."""
        return [(self.seat + k) % self.seats for k in range(self.seats)]

    def each_seat(self, values: Sequence[Any]) -> list[Said]:
        """A list of one number a seat, said from the asker's own."""
        return [SEAT_VALUE(name=Seat(s), value=values[s]) for s in self.around()]

    def teams(self, pair: Sequence[Any]) -> Said:
        """A pair of one number a team, the asker's team first where the
        game counts by team (seats 0, 2, ... against 1, 3, ...)."""
        mine = self.seat % 2 if self.by_team else 0
        return TEAMS(a=pair[mine], b=pair[1 - mine])

    def scores(self, values: Sequence[Any]) -> Said | list[Said]:
        """A list of one number a team where the game counts by team, else
        of one a seat (the tricks won, the match's totals)."""
        return self.teams(values) if self.by_team else self.each_seat(values)


def text_row(text: str) -> dict[str, Any]:
    """A panel's line of words."""
    return {"text": text}


def cards_row(text: str, cards: Sequence[str]) -> dict[str, Any]:
    """A panel's line of words followed by cards drawn small (their ids)."""
    return {"text": text, "cards": list(cards)}


def list_row(items: Sequence[str], empty: str) -> dict[str, Any]:
    """A panel's numbered list, or ``empty``'s words while it has no item."""
    return {"items": list(items)} if items else {"text": empty}


def panel(ident: str, title: str | None, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A panel beside the trick: its id (what a page and its tests find it
    by), its heading in words (or None) and its rows (``text_row``,
    ``cards_row``, ``list_row``)."""
    return {"id": ident, "title": title, "rows": list(rows)}


class Front:
    """A game as the front ends show it; the defaults suit a game that
    declares nothing more: its name as its title, its description and
    options' docs as the game gives them, cards and actions as the
    notation writes them, a board of the trick and the facts, and each
    deal summarised by its points."""

    #: the game's name as a person reads it (a message id of the context
    #: "game", ``NC_``: each language writes it in its own script or words,
    #: as Arabic writes Trix التركس, apart from a contract of the same
    #: name); None: the game's name
    title: ClassVar[str | None] = None
    #: the form's line about the game (a message id); None: ``Game.description``
    description: ClassVar[str | None] = None
    #: per option: (label, a line of help, {choice: words}), message ids; an
    #: option without words shows its name and the option's own doc
    option_words: ClassVar[dict[str, tuple[str, str, dict[str, str]]]] = {}
    #: the unit of a deal's result (the game's ``Game.round_unit``, the same
    #: English) as a message id; None: the game's unit shown as it writes it,
    #: untranslated
    round_unit: ClassVar[str | None] = None
    #: the unit of the match score so far and of the match's result, as
    #: message ids (None: the score table shows no such row's unit)
    totals_unit: ClassVar[str | None] = None
    result_unit: ClassVar[str | None] = None
    #: each contract's name in words (message ids)
    contracts: ClassVar[dict[str, str]] = {}
    #: the heading of the contracts' panel, with the chooser's ``{name}``
    #: (a message id; None: the panel has no heading)
    contracts_title: ClassVar[str | None] = None
    #: the game's actions that are not cards, in words (message ids): keyed
    #: by an action's whole text ("reveal done") or by its first word, the
    #: verb ("bid" for "bid 85"), whose template words the rest by the one
    #: placeholder it names: ``{card}`` (a card's name), ``{contract}`` (a
    #: contract's words), ``{colour}`` (a trump's words) or ``{n}`` (the
    #: rest as written).  A whole text wins over its verb; "pass" and the
    #: hidden "?" are every game's (``COMMON_ACTIONS``); an action with no
    #: words is shown as the notation writes it.
    actions: ClassVar[dict[str, str]] = {}
    #: each trump as a position's facts say it in a sentence ("Trumps:
    #: spades"), keyed by the ``trump`` fact as the game writes it, as
    #: message ids; a trump with no words here is said as written.  The
    #: French deck's suits by default (``SUIT_TRUMPS``); a game of other
    #: trumps declares its own (dixie-rook's colours)
    trump_words: ClassVar[dict[str, str]] = SUIT_TRUMPS
    #: the game's own facts of one whole number a seat (``ListOf(Whole())``,
    #: solver/facts.py) that a position's facts list (``seat_fact_lines``),
    #: each by its line's label (a message id): ``{"bids": N_("Bids")}``;
    #: a seat whose number is below 0 (none yet) is left out of its line
    seat_facts: ClassVar[dict[str, str]] = {}
    #: per level, the bot settings where they differ from the common ones
    #: (``bots/levels.py``)
    levels: ClassVar[dict[str, str]] = {}
    #: where a deal set up by hand keeps its hands (a path in the position's
    #: ``deal``, docs/positions.md; None: the game deals from a shuffle)
    setup_hands: ClassVar[str | None] = None
    #: a deal set up by hand: (key, card) -- the holder of ``card`` is put
    #: under ``key`` of the deal (the first round's owner), or None
    setup_owner: ClassVar[tuple[str, str] | None] = None

    def __init__(self, game: Any):
        # the game (``solver.game.Game``, which imports this module: typed
        # loosely so that the core's order stays one way)
        self.game = game

    def phrase(self, code: str) -> str | None:
        """The game's own template of a phrase's code (``solver.said``), a
        message id; None (the default) where the game says it as the
        phrase does."""
        return None

    # ---- a position's facts, as a hint lists them ------------------------------
    # Beside the widget facts every game words alike (the hand, the trumps,
    # the trick, the tricks won, the totals: ``bots/advice.py``), a game
    # says its own, one phrase a line, at three places of the list.

    def deal_facts(self, facts: FactView) -> list[Said]:
        """What the deal is played for (its contract and who chose it, the
        contracts played before it, an auction's bid), said after the
        trumps: nothing by default."""
        return []

    def taken_facts(self, facts: FactView) -> list[Said]:
        """What the seats hold or have taken beyond their tricks (ten-tricks,
        count, tokens), said after the tricks won: nothing by default."""
        return []

    def seat_fact_lines(self, facts: FactView) -> list[Said]:
        """The game's ``seat_facts``, a line each, said last: each seat's
        number from the asker's own (``seat_fact_value``), a seat below 0
        left out, a fact with no seat's number left out."""
        lines = []
        for key, label in self.seat_facts.items():
            values = facts.known.get(key)
            if isinstance(values, list) and len(values) == facts.seats:
                scores = [SEAT_VALUE(name=Seat(s), value=self.seat_fact_value(key, values[s]))
                          for s in facts.around() if values[s] >= 0]
                if scores:
                    lines.append(SEAT_FACT(label=Word(label), scores=scores))
        return lines

    def seat_fact_value(self, key: str, value: int) -> Any:
        """A seat's number of the ``seat_facts`` fact ``key`` as its line
        says it (a phrase's parameter: the number, or a ``Word``): the
        number by default."""
        return value

    # ---- the form ----------------------------------------------------------

    def name(self, words: Words | None = None) -> str:
        """The title in ``words``' language (None: the message id itself)."""
        if not self.title:
            return self.game.name
        return words(self.title, msgctxt="game") if words is not None else self.title

    def unit(self, text: str, words: Words) -> str:
        """A unit of a deal's result in words: the game's own
        (``Game.round_unit``) in the reader's language where the front
        declares its message id, any other text as it is."""
        if self.round_unit is not None and text == self.game.round_unit:
            return words(self.round_unit)
        return text

    def described(self, words: Words) -> str:
        return words(self.description) if self.description else self.game.description

    def option(self, key: str, words: Words) -> dict[str, Any]:
        """An option's ``label``, ``doc`` and ``choice_labels`` in words."""
        if key in self.option_words:
            label, doc, choices = self.option_words[key]
            return {"label": words(label), "doc": words(doc) if doc else "",
                    "choice_labels": {c: words(w) for c, w in choices.items()}}
        spec = self.game.options_spec[key]
        return {"label": key, "doc": spec.doc, "choice_labels": {}}

    # ---- cards, contracts, trumps -------------------------------------------

    def card(self, text: str, words: Words) -> dict[str, Any]:
        """``{"id", "face", "name", "colour"}`` of a card (``colour``: what
        the page colours it: red, black, a Rook colour, or none)."""
        return {"id": text, "face": text, "name": text, "colour": "none"}

    def action(self, text: str, is_card: bool, words: Words) -> str:
        """An action (``text`` in the game's notation) in words: a card by
        its name, any other by the game's ``actions``."""
        if is_card:
            return str(self.card(text, words)["name"])
        said = {**COMMON_ACTIONS, **self.actions}
        if text in said and "{" not in said[text]:
            return words(said[text])
        verb, _, rest = text.partition(" ")
        template = said.get(verb) if rest else None
        if template is None:
            return text
        for name, value in (("card", lambda: self.card(rest, words)["name"]),
                            ("contract", lambda: self.contract(rest, words)),
                            ("colour", lambda: self.trump_name(rest, words)),
                            ("n", lambda: rest)):
            if "{" + name + "}" in template:
                return words(template, **{name: value()})
        return words(template)

    def contract_list(self) -> tuple[str, ...]:
        """The contracts of the game, in its order (none by default)."""
        return ()

    def contract(self, name: str, words: Words) -> str:
        return words(self.contracts[name]) if name in self.contracts else name

    def contract_in_play(self, known: Mapping[str, Any]) -> str | None:
        """The contract in play (its name, as ``contracts`` keys it) from
        a seat's facts, which a board shows in words beside the trumps
        (``contract``); None: no contract is in play (the default: a game
        of no contracts)."""
        return None

    def trump_name(self, trump: Any, words: Words) -> str:
        """A trump (as the game's facts write it) in words."""
        return str(trump)

    def trumps(self, known: dict[str, Any], words: Words) -> dict[str, Any] | None:
        """The trumps as the board shows them (``suit``, ``name`` and, for
        a suit, its ``sign``), from a seat's facts; None: no trumps known."""
        trump = known.get("trump")
        if trump in (None, ""):
            return None
        return {"suit": trump, "name": self.trump_name(trump, words)}

    def layout_rows(self, text: str) -> dict[str, list[str]]:
        """The rows of cards laid on the table, as a seat's ``layout`` fact
        writes them, keyed by row, each row's cards in the order they lie;
        a text of another form is refused (ValueError naming it).  The
        default: the game lays out no rows, so any such text is refused
        rather than drawn as nothing."""
        raise ValueError(f"{self.name()} lays out no rows: {text!r}")

    # ---- the board, in generic widgets ---------------------------------------
    # What lies beside the trick and the layout (which every trick game
    # shares and the table top draws: ``bots/tabletop.py``), worded here
    # so that a page draws any game's board from a few widgets (a panel of
    # lines, cards and lists; a note on the felt; a line under a seat)
    # and names no game's facts.

    def panels(self, view: BoardView, words: Words) -> list[dict[str, Any]]:
        """The board's panels (``panel``): none by default."""
        return []

    def notes(self, view: BoardView, words: Words) -> list[str]:
        """Lines on the felt, under the trick (the contract, the bid):
        none by default."""
        return []

    def seat_notes(self, view: BoardView, words: Words) -> list[str]:
        """A line under each seat (its tricks, its tokens), "" for none:
        none by default."""
        return [""] * len(view.names)

    def panel_cards(self, known: Mapping[str, Any]) -> set[str]:
        """The card ids the panels draw, so a page has their faces and
        names: none by default."""
        return set()

    # ---- a deal's summary -----------------------------------------------------

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        """A finished deal's summary (an entry of ``deal_summaries``) as the
        pop-up at its end shows it beside the points, in words: a
        ``heading`` after "Deal n is over" (or None), ``rows`` of one
        number a seat (``{"id", "label", "values", "unit"}``) and ``lines``
        of words across the seats (``{"label", "text"}``).  Nothing more
        by default."""
        return {"heading": None, "rows": [], "lines": []}

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        """Per finished deal, what the game's record of it says beyond the
        points (which every game's summary has: ``round_returns``): the
        default says nothing more."""
        return []


def seat_row(ident: str, label: str, values: Sequence[Any], unit: str) -> dict[str, Any]:
    """A summary's row of one number a seat (``Front.summary_words``)."""
    return {"id": ident, "label": label, "values": list(values), "unit": unit}


def seat_of(value: Any) -> int | None:
    """A seat fact's seat (``dealer``, ``bid_winner``), or None where it
    names none (-1, null, absent)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def tricks_won_notes(view: BoardView, words: Words) -> list[str]:
    """Each seat's tricks won so far (the ``tricks_won`` fact, one count a
    seat), in words under its seat; "" where the fact is not one a seat."""
    won = view.known.get("tricks_won")
    if not isinstance(won, list) or len(won) != len(view.names):
        return [""] * len(view.names)
    return [words.ngettext("{n} trick", "{n} tricks", int(n)) for n in won]


#: the actions every game words alike (``Front.actions``)
COMMON_ACTIONS = {"pass": N_("Pass"), "?": N_("a hidden action")}

#: the French deck's words
RANKS = {"A": N_("Ace"), "K": N_("King"), "Q": N_("Queen"), "J": N_("Jack"),
         "T": N_("Ten"), "9": N_("Nine"), "8": N_("Eight"), "7": N_("Seven"),
         "6": N_("Six"), "5": N_("Five"), "4": N_("Four"), "3": N_("Three"), "2": N_("Two")}
SUITS = {"S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"), "C": N_("Clubs")}
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")
_FRENCH_CARD = re.compile(r"^([AKQJT2-9])([SHDC])$")


class FrenchFront(Front):
    """A game of the French deck (and its joker): ``K♥`` named King of
    Hearts, trumps a suit with its sign; a joker turned up means no trumps."""

    def card(self, text: str, words: Words) -> dict[str, Any]:
        if text == "JK":
            return {"id": text, "face": "\u2605", "name": words(N_("Joker")), "colour": "black"}
        m = _FRENCH_CARD.match(text)
        if not m:
            return super().card(text, words)
        rank, suit = m.groups()
        return {"id": text, "face": ("10" if rank == "T" else rank) + SUIT_SIGNS[suit],
                "name": words(N_("{rank} of {suit}"), rank=words(RANKS[rank]),
                              suit=words(SUITS[suit])),
                "colour": "red" if suit in RED_SUITS else "black"}

    def trump_name(self, trump: Any, words: Words) -> str:
        return words(SUITS[trump]) if trump in SUITS else str(trump)

    def trumps(self, known: dict[str, Any], words: Words) -> dict[str, Any] | None:
        trump = known.get("trump")
        if trump not in (None, ""):
            return {"suit": trump, "name": self.trump_name(trump, words),
                    "sign": SUIT_SIGNS.get(trump, "")}
        if known.get("turn_up") == "JK":
            return {"suit": None, "name": words(N_("No trumps")), "sign": ""}
        return None


__all__ = ["N_", "NP_", "NC_", "Words", "Front", "COMMON_ACTIONS", "BoardView", "FactView",
           "NOBODY", "SUIT_TRUMPS", "SEAT_VALUE", "TEAMS", "SEAT_FACT", "panel",
           "text_row", "cards_row", "list_row", "seat_row", "seat_of", "tricks_won_notes", "FrenchFront",
           "RANKS", "SUITS", "SUIT_SIGNS"]
