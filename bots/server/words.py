"""The server's answers in the reader's words: every game and option on
the new-table form, a seat's name, a position's facts, the advice, the
units, and the reasons and notes of the search.

What the solver and the bots say comes as codes with their parameters
(``solver.said``: ``bots/advice.py``'s facts and advice line,
``solver.search.advice``'s as-good test and reasons,
``solver.search.service``'s notes), and is worded here once, in the
language of the request (``i18n.Translator``), through message ids that
are the phrases' English templates; nothing English is parsed back.
Seats are named as a person says them -- You, Left, Across, or Seat 1 to
Seat N, counted from 1 -- from the seat's number and the reader's seat,
everywhere words are; the JSON and the engine protocol count seats from
0 (docs/server.md, "Seats").

The games' and options' words for the form are each game's own
(``Game.front``: ``solver/front.py``): a title, a description, and per
option a label, a line of help and, for options with named choices, each
choice in words; every option of the games here has its words (a test
checks it, so an option cannot reach the form as a raw name unnoticed).
"""

from __future__ import annotations

from solver.dd.solution import bracket_shape
from solver.said import Said
from solver.search import advice as search_advice

from .. import advice
from . import labels
from .i18n import N_, Translator

#: the places a card may be besides a seat's hand (``advice.beliefs_of``)
PLACES = {"stock": N_("stock"), "nest": N_("nest"), "discards": N_("discards"),
          "undealt": N_("undealt")}

#: a proved bracket of an unfinished exact solve in words, by its shape
#: (``solver.dd.solution.BRACKET_WORDS``'s templates, held equal by a test)
BRACKET = {"exactly": N_("exactly {value}"), "between": N_("between {lo} and {hi}"),
           "at_least": N_("at least {lo}"), "at_most": N_("at most {hi}"),
           "anywhere": N_("anywhere from {lo} to {hi}")}


# --------------------------------------------------------------------------
# seats


def seat_name(n: int, viewer: int, seat: int, partnership: bool, tr: Translator) -> str:
    """The name of ``seat`` as the player in ``viewer`` of ``n`` seats says
    it (``advice.seat_relation``: You, Left, Partner...), a seat without a
    name as ``Seat n``, counted from 1."""
    kind, _ = advice.seat_relation(n, viewer, seat, partnership)
    if kind == "seat_k":
        return tr("Seat {n}", n=seat + 1)
    if kind == "partner_k":         # more than one partner: which one
        return tr("{name}, seat {n}", name=tr("Partner"), n=seat + 1)
    return {"you": tr("You"), "left": tr("Left"), "right": tr("Right"),
            "partner": tr("Partner"), "across": tr("Across"),
            "opponent": tr("Opponent")}[kind]


def seat_names(game, seat: int | None, tr: Translator) -> list[str]:
    """Every seat's name as ``seat`` says it (None: a spectator, who reads
    Seat 1 to Seat N)."""
    n = game.num_players
    if seat is None:
        return [tr("Seat {n}", n=s + 1) for s in range(n)]
    return [seat_name(n, seat, s, game.partnership, tr) for s in range(n)]


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
    """The position's facts (``advice.facts_of``) in words."""
    return advice.say(advice.facts_of(view), view.game, tr,
                      seat_names(view.game, view.seat, tr))


def said(doc: dict, game, tr: Translator, names: list[str], name=None) -> str:
    """A phrase as JSON (``solver.said.Said.to_json``) in words: seats by
    ``names``, actions by ``name`` (default their notation), in the game's
    own words where it has them."""
    return Said.from_json(doc).words(tr, names.__getitem__, name, game.front.phrase)


def equal_test(scale: float, tr: Translator) -> str:
    """The as-good test (``solver.search.advice.equal_test_said``) in words."""
    return search_advice.equal_test_said(scale).words(tr)


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
    words = out.get("labels") or {}

    def name(action):
        return words.get(action, action)

    def say(doc):
        return said(doc, game, tr, names, name)
    # each phrase worded once, from its code (``advice.advise`` built them)
    out["facts"] = [say(doc) for doc in out.get("fact_codes") or ()]
    if "exact" in out:
        ex = out["exact"]
        ex["unit"] = labels.unit(game, ex["unit"], tr)
        ex["winners"] = {a: names[w] for a, w in (ex.get("winner_seats") or {}).items()}
        for step in ex.get("line") or ():
            step["who"] = names[step["seat"]]
    if "search" in out:
        s = out["search"]
        s["unit"] = labels.unit(game, s["unit"], tr)
        s["equal_test"] = say(s["equal_test_code"])
        s["reasons"] = {a: say(why) for a, why in (s.get("reason_codes") or {}).items()}
    if out.get("note_code"):
        out["note"] = "(" + say(out["note_code"]) + ")"
    if out.get("brackets"):
        brackets(out["brackets"], tr)
    if "beliefs" in out:
        b = out["beliefs"]
        b["names"] = holders([names[h] if isinstance(h, int) else h for h in b["holders"]],
                             tr)
        for group in b.get("groups") or ():
            suit = group.get("suit")
            group["name"] = tr(GROUPS[suit]) if suit in GROUPS else suit
    out["advice"] = " ".join(say(doc) for doc in out["advice_codes"])
    return out


def evaluation(out: dict, game, seat: int, tr: Translator) -> dict:
    """An evaluation's seats and unit in words."""
    out["names"] = seat_names(game, seat, tr)
    out["unit"] = labels.unit(game, out["unit"], tr)
    return out


def solution(out: dict, game, tr: Translator) -> dict:
    """A solve's unit and objective in words (the objective from its code,
    its seats named as a spectator reads them: the solve is nobody's view)."""
    if "unit" in out:
        out["unit"] = labels.unit(game, out["unit"], tr)
    if out.get("objective_code"):
        out["objective"] = said(out["objective_code"], game, tr, seat_names(game, None, tr))
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


__all__ = ["seat_name", "seat_names", "games", "units", "facts", "said", "hint",
           "evaluation", "solution", "review", "equal_test", "bracket", "brackets"]
