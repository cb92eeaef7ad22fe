"""What a seat knows, as a typed record: the facts of ``InfoState.known``.

A game's state gives each seat its facts (``State.information_state(seat)
.known``): its hand, the trick, the trumps, the contract, the bids.  The
front ends draw a board from them and the advice words them, so each fact
has a declared kind (a shape of solver/shapes.py, the vocabulary a
position's deal and match objects are declared in too) and a line of
meaning: the widget facts every trick game shares (``WIDGET_FACTS``: a
hand, the trick, the layout's rows, the trumps, the stock's count, the
match's totals) here, and each game's own in its ``Game.facts``.  The
conformance tests hold every fact a game gives to its declaration (its
name declared, its value of its kind), and docs/facts.md is written from
the declarations (``facts_markdown``, by ``python -m
solver.games.facts_page``; a test holds the page equal to them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .shapes import (
    Card,
    CardText,
    ListOf,
    Seat,
    Shape,
    Text,
    Whole,
    conforms,
    described,
    spelled,
)


@dataclass(frozen=True)
class Fact:
    """One fact's kind (a shape of solver/shapes.py: ``Seat(none=True)``,
    ``ListOf(Whole())``), its meaning, whether it may be null
    (``optional``: not known yet, or not in this part of the deal), and
    whether it is one seat's own (``own``: a hand, a nest only the bid
    winner saw), which a spectator is never shown even where every seat's
    value happens to be alike."""

    kind: Shape
    doc: str
    optional: bool = False
    own: bool = False

    def __post_init__(self):
        if not isinstance(self.kind, Shape):
            raise ValueError(f"a fact's kind is a shape of solver/shapes.py (Seat(), "
                             f"ListOf(Whole()), ...), got {self.kind!r}")

    def check(self, value: Any, seats: int | None = None) -> str | None:
        """Why ``value`` is not of this fact's kind, or None where it is
        (``seats``: the game's, which a seat and a list of one a seat
        are held to)."""
        if value is None:
            return None if self.optional else "is null, and this fact is never null"
        if conforms(self.kind, value, seats):
            return None
        return f"is {value!r}, not {described(self.kind)}"


#: the facts the faces draw as generic widgets, alike in every game that
#: has them (a game need not have them all)
WIDGET_FACTS: Mapping[str, Fact] = {
    "hand": Fact(CardText(), "the seat's own cards", own=True),
    "card": Fact(Card(), "the seat's one card, where a seat holds one", optional=True,
                 own=True),
    "opponent_hand": Fact(CardText(), "the other seat's whole hand, where the rules let the "
                          "seat know it", optional=True, own=True),
    "trick": Fact(ListOf(Card()), "the cards of the trick in play, in the order played"),
    "leader": Fact(Seat(none=True), "the seat that led the trick in play", optional=True),
    "layout": Fact(Text(), "the rows laid on the table, as the game writes them (read by "
                   "its front's layout_rows)", optional=True),
    "trump": Fact(Text(), "the trump suit or colour, as the game writes it", optional=True),
    "turn_up": Fact(Card(), "the card turned up"),
    "stock_left": Fact(Whole(), "cards left in the stock"),
    "totals": Fact(ListOf(Whole()), "the match's score so far, one a seat or one a team"),
    "tricks_won": Fact(ListOf(Whole()), "tricks taken in this deal, one a seat or one a team"),
    "round": Fact(Whole(), "the deal in play, counted from 0"),
    "dealer": Fact(Seat(none=True), "the seat that dealt this deal"),
}


def declared(game: Any) -> dict[str, Fact]:
    """Every fact ``game`` may give: the widget facts and its own."""
    return {**WIDGET_FACTS, **getattr(game, "facts", {})}


def own_facts(game: Any) -> frozenset[str]:
    """The facts ``game`` gives that are one seat's own (``Fact.own``)."""
    return frozenset(k for k, f in declared(game).items() if f.own)


def check_known(game: Any, known: Mapping[str, Any]) -> list[str]:
    """What in ``known`` (a seat's facts) the game does not declare, or
    gives of another kind: one line each, naming the fact."""
    facts = declared(game)
    bad = []
    for key, value in known.items():
        fact = facts.get(key)
        if fact is None:
            bad.append(f"{game.name}: the fact {key!r} is not declared (Game.facts)")
            continue
        why = fact.check(value, getattr(game, "num_players", None))
        if why is not None:
            bad.append(f"{game.name}: the fact {key!r} {why}")
    return bad


def facts_markdown(games: Mapping[str, Any]) -> str:
    """docs/facts.md: the widget facts and each game's own, from their
    declarations (``games``: name -> game)."""
    def table(facts: Mapping[str, Fact]) -> list[str]:
        rows = ["| fact | kind | may be null | one seat's own | meaning |",
                "|---|---|---|---|---|"]
        for key, fact in sorted(facts.items()):
            rows.append(f"| `{key}` | `{spelled(fact.kind)}` | "
                        f"{'yes' if fact.optional else 'no'} | "
                        f"{'yes' if fact.own else 'no'} | {fact.doc} |")
        return rows

    out = ["# What a seat knows: the facts of `InfoState.known`", "",
           "Written from the declarations (`solver/facts.py`, each game's `Game.facts`)",
           "by `python -m solver.games.facts_page`; a test holds this page equal to them. A",
           "seat's facts (`State.information_state(seat).known`) hold only",
           "declared facts, each of its kind (the conformance tests check every",
           "fact of random play-outs of every game). A seat's own fact is never",
           "shown to a spectator.", "",
           "## Kinds", "",
           "Each fact's kind is a shape of `solver/shapes.py`, the vocabulary a",
           "position's deal and match objects are declared in too; those the facts use:",
           "", "| kind | value |", "|---|---|"]
    kinds = {spelled(f.kind): described(f.kind) for facts in
             [WIDGET_FACTS, *(getattr(g, "facts", {}) for g in games.values())]
             for f in facts.values()}
    out += [f"| `{k}` | {v} |" for k, v in sorted(kinds.items())]
    out += ["", "## Widget facts", "",
            "Drawn alike by every face (the hand, the trick, the layout's rows, the",
            "trumps, the counts); a game gives those it has.", ""]
    out += table(WIDGET_FACTS)
    for name, game in sorted(games.items()):
        own = getattr(game, "facts", {})
        out += ["", f"## {name}", ""]
        out += table(own) if own else ["No facts beyond the widget facts."]
    return "\n".join(out) + "\n"


__all__ = ["Fact", "WIDGET_FACTS", "declared", "own_facts", "check_known",
           "facts_markdown"]
