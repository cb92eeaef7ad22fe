"""The server's answers in the reader's words: every game and option on
the new-table form, a seat's name, a position's facts, the advice, the
units, and the reasons and notes the search gives in English.

What the solver and the bots write in English (``bots/advice.py``'s
facts and advice line, ``solver.search.advice``'s as-good test and
reasons, a game's unit of a deal's result) is put here into the language
of the request (``i18n.Translator``), through message ids that are the
same English templates (a test holds them equal: ``test_server_words.py``).
Seats are named as a person says them -- You, Left, Across, or Seat 1 to
Seat N, counted from 1 -- everywhere words are; the JSON and the engine
protocol count seats from 0 (docs/server.md, "Seats").

The games' and options' words for the form are each game's own
(``Game.front``: ``solver/front.py``): a title, a description, and per
option a label, a line of help and, for options with named choices, each
choice in words; every option of the games here has its words (a test
checks it, so an option cannot reach the form as a raw name unnoticed).
"""

from __future__ import annotations

import re

from solver.dd.solution import bracket_shape
from solver.search import advice as search_advice
from solver.search.service import NOTE_BOUND

from .. import advice
from . import labels
from .i18n import N_, Translator

#: the places a card may be besides a seat's hand (``advice.beliefs_of``)
PLACES = {"stock": N_("stock"), "nest": N_("nest"), "discards": N_("discards"),
          "undealt": N_("undealt")}

#: ``solver.search.advice``'s and ``service``'s English templates, as the
#: server's message ids (held equal to them by a test)
EQUAL_TEST = N_("each one's difference from the advice is within its 95% interval, or under "
                "{points}")
TIE_RULE = N_("the search cannot tell these apart, and ties go by the game's rule among "
              "equal actions (the card least worth keeping), so the advice does not change "
              "with the search's seed")
REASON_AS_GOOD = N_("as good as the advice: {rule}")
REASON_FEW = N_("searched too little ({visits}) to be advised: its mean rests on a few results")
NOTE = N_("every card is known, but the exact solve passed its bound of {nodes} nodes: "
          "searched instead")


#: a proved bracket of an unfinished exact solve in words, by its shape
#: (``solver.dd.solution.BRACKET_WORDS``'s templates, held equal by a test)
BRACKET = {"exactly": N_("exactly {value}"), "between": N_("between {lo} and {hi}"),
           "at_least": N_("at least {lo}"), "at_most": N_("at most {hi}"),
           "anywhere": N_("anywhere from {lo} to {hi}")}


def _pattern(template: str, name: str) -> re.Pattern:
    head, _, tail = template.partition("{" + name + "}")
    return re.compile(re.escape(head) + r"([0-9,]+)" + re.escape(tail))


_FEW = _pattern(search_advice.REASON_FEW, "visits")
_NOTE = _pattern(NOTE_BOUND, "nodes")


# --------------------------------------------------------------------------
# seats


def seat_name(english: str, seat: int, tr: Translator) -> str:
    """A seat's name (``advice.seat_names``: you, left, partner...) in words,
    a seat without a name as ``Seat n``, counted from 1."""
    base, _, rest = english.partition(" (")
    if base.startswith("seat "):
        return tr("Seat {n}", n=seat + 1)
    word = {"you": tr("You"), "left": tr("Left"), "right": tr("Right"),
            "partner": tr("Partner"), "across": tr("Across"),
            "opponent": tr("Opponent")}.get(base, base)
    if rest:                        # "partner (2 to the left)": more than one partner
        return tr("{name}, seat {n}", name=word, n=seat + 1)
    return word


def seat_names(game, seat: int | None, tr: Translator) -> list[str]:
    """Every seat's name as ``seat`` says it (None: a spectator, who reads
    Seat 1 to Seat N)."""
    n = game.num_players
    if seat is None:
        return [tr("Seat {n}", n=s + 1) for s in range(n)]
    english = advice.seat_names(n, seat, game.partnership)
    return [seat_name(english[s], s, tr) for s in range(n)]


# --------------------------------------------------------------------------
# the games


def games(tr: Translator, game_objects: dict) -> dict:
    """``{game: {"title", "description", "options": {key: {"label", "doc",
    "choice_labels"}}, "setup": {...}}}`` in ``tr``'s language
    (``game_objects``: name -> the game with its default options);
    ``setup``: where a deal set up by hand keeps its hands (``hands``, a
    path in the deal, None where the game deals from a shuffle) and the
    deal's key that the holder of a card goes under (``owner``)."""
    out = {}
    for name, game in game_objects.items():
        said = game.front
        owner = said.setup_owner
        out[name] = {"title": said.name(tr), "description": said.described(tr),
                     "options": {key: said.option(key, tr) for key in game.options_spec},
                     "setup": {"hands": said.setup_hands,
                               "owner": ({"key": owner[0], "card": owner[1]}
                                         if owner else None)}}
    return out


def units(game, tr: Translator) -> dict:
    """The units of a table's score rows in words: ``deal`` (a deal's result,
    the game's own), ``totals`` (the match score so far), ``result`` (the
    match's result once it is over), as far as the game declares them."""
    out = {"deal": labels.unit(game, game.round_unit, tr)}
    said = game.front
    if said.totals_unit:
        out["totals"] = tr(said.totals_unit)
    if said.result_unit:
        out["result"] = tr(said.result_unit)
    return out


# --------------------------------------------------------------------------
# a position's facts, the advice, the search's words


def facts(view, tr: Translator) -> list[str]:
    """The position's facts (``advice.describe``) in words."""
    return advice.describe(view, tr, seat_names(view.game, view.seat, tr))


def equal_test(scale: float, tr: Translator) -> str:
    return tr(EQUAL_TEST, points=search_advice.equal_points(scale))


def reason(text: str, tr: Translator) -> str:
    """One of the search's reasons (``solver.search.advice.decide``) in words."""
    if text == search_advice.REASON_AS_GOOD.format(rule=search_advice.TIE_RULE):
        return tr(REASON_AS_GOOD, rule=tr(TIE_RULE))
    m = _FEW.fullmatch(text)
    if m:
        return tr(REASON_FEW, visits=m.group(1))
    return text


def note(text: str, tr: Translator) -> str:
    """A result's note (``"(...)"``, ``service.NOTE_BOUND``) in words."""
    m = _NOTE.fullmatch(text.strip("()"))
    if m:
        return "(" + tr(NOTE, nodes=m.group(1)) + ")"
    return text


#: a group of the beliefs' cards in words (``BeliefReport.groups``: a suit,
#: a dixie-rook colour, dix's joker); the ids are the card names' own
GROUPS = {"spades": N_("Spades"), "hearts": N_("Hearts"), "diamonds": N_("Diamonds"),
          "clubs": N_("Clubs"), "red": N_("Red"), "green": N_("Green"), "yellow": N_("Yellow"),
          "black": N_("Black"), "joker": N_("Joker")}


def bracket(lo: float, hi: float, span, tr: Translator) -> str:
    """A proved bracket ``[lo, hi]`` in words (``solver.dd.solution.
    bracket_words``'s wording, ``span`` the game's own range or None) in
    the reader's language; in a right-to-left sentence each number is
    isolated left to right, so that a minus stays on its number's left."""
    def num(v: float) -> str:
        text = f"{v:g}"
        return f"\u2066{text}\u2069" if tr.rtl else text
    return tr(BRACKET[bracket_shape(lo, hi, None if span is None else tuple(span))],
              value=num(lo), lo=num(lo), hi=num(hi))


def brackets(doc: dict, tr: Translator) -> dict:
    """An unfinished solve's brackets (``bots.exact.bracket_doc``) with
    their ``words`` in the reader's language."""
    doc["words"] = {a: bracket(lo, hi, doc.get("span"), tr)
                    for a, (lo, hi) in (doc.get("brackets") or {}).items()}
    return doc


def holders(names: list, tr: Translator) -> list[str]:
    """The beliefs' holders' names: a seat's as given, a place in words."""
    return [tr(PLACES[h]) if h in PLACES else h for h in names]


def hint(out: dict, view, tr: Translator) -> dict:
    """A hint (``advice.advise``'s dict, its ``labels`` already in words)
    with every word in ``tr``'s language: the facts, the advice line, the
    units, the as-good test, the reasons, the note and the seats' names."""
    game = view.game
    names = seat_names(game, view.seat, tr)
    english = advice.seat_names(game.num_players, view.seat, game.partnership)
    words = out.get("labels") or {}

    def name(action):
        return words.get(action, action)
    test = equal_test(game.round_scale, tr)
    out["facts"] = facts(view, tr)
    if "exact" in out:
        ex = out["exact"]
        ex["unit"] = labels.unit(game, ex["unit"], tr)
        ex["winners"] = {a: names[english.index(w)] if w in english else w
                         for a, w in (ex.get("winners") or {}).items()}
        for step in ex.get("line") or ():
            step["who"] = names[step["seat"]]
    if "search" in out:
        s = out["search"]
        s["unit"] = labels.unit(game, s["unit"], tr)
        s["equal_test"] = test
        s["reasons"] = {a: reason(why, tr) for a, why in (s.get("reasons") or {}).items()}
    if out.get("note"):
        out["note"] = note(out["note"], tr)
    if out.get("brackets"):
        brackets(out["brackets"], tr)
    if "beliefs" in out:
        b = out["beliefs"]
        b["names"] = holders([names[h] if isinstance(h, int) else h for h in b["holders"]],
                             tr)
        for group in b.get("groups") or ():
            suit = group.get("suit")
            group["name"] = tr(GROUPS[suit]) if suit in GROUPS else suit
    out["advice"] = advice.advice_of(out, game.is_card(out["ids"][out["action"]]), tr, name,
                                     test)
    return out


def evaluation(out: dict, game, seat: int, tr: Translator) -> dict:
    """An evaluation's seats and unit in words."""
    out["names"] = seat_names(game, seat, tr)
    out["unit"] = labels.unit(game, out["unit"], tr)
    return out


def solution(out: dict, game, tr: Translator) -> dict:
    """A solve's unit in words."""
    if "unit" in out:
        out["unit"] = labels.unit(game, out["unit"], tr)
    return out


def review(out: dict, game, tr: Translator) -> dict:
    """A review's units in words (its positions' facts are worded by the
    review itself: ``bots.review.review(..., describe=...)``)."""
    if "unit" in out:
        out["unit"] = labels.unit(game, out["unit"], tr)
    for entry in out.get("decisions", ()):
        if "unit" in entry:
            entry["unit"] = labels.unit(game, entry["unit"], tr)
    for summary in out.get("summary", ()):
        for entry in summary.get("biggest", ()):
            if "unit" in entry:
                entry["unit"] = labels.unit(game, entry["unit"], tr)
    return out


__all__ = ["seat_name", "seat_names", "games", "units", "facts", "hint",
           "evaluation", "solution", "review", "equal_test", "reason", "note", "bracket",
           "brackets"]
