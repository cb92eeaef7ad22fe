"""The advice service of the front ends: a seat's position in a card
player's words and the decision service's advice on it, as one JSON-able
dict.

``advise(view, ...)`` asks ``solver.search.best_move`` and adds what a
person reads: the position described from the asker's side (you, left,
partner, right; opponent in dix), the trick with who played what, the unit
of every value named; every legal action's value with its 95% interval,
the actions the search cannot tell apart, and one plain line of advice
("Play 8D.").  Where every card is known (dix from trick 14, a full record
of a card-play position) the values are exact, with the expected line of
play (``bots/exact.py``).  ``dixtrix hint`` prints it (``bots/hint.py``),
the HTTP API and the web table send it (``bots/server/``), game review and
the terminal player use its descriptions (``bots/review.py``,
``bots/human.py``).

The facts and the line of advice are built once, as phrases
(``solver.said``: a code and its parameters, each seat a number, each
action its notation): ``advise`` says them in English (``facts``,
``advice``) and puts the records beside (``fact_codes``,
``advice_codes``), as it does the search's reasons, note and as-good test,
so that every other face words the same records in its own language
(``bots/server/words.py``) and none parses a sentence.
"""

from __future__ import annotations

import math

from solver import position, said
from solver.errors import PositionError, SearchAborted, UnsupportedPositionError
from solver.front import N_, NP_, FactView
from solver.said import Act, Said, Word, phrase
from solver.search import Limit, beliefs, best_move
from solver.search.advice import EQUAL_POINTS, equal_test_said

from .exact import bracket_doc, line

# the error raised here (solver/errors.py: a code and its parameters)
RECORD_OVER = phrase("advice_record_over", N_("the game in this record is over: there is no "
                                              "move to advise"))

#: what a hint searches when no limit is given (seconds)
DEFAULT_SECONDS = 1.0
#: plies of the expected line of play shown with an exact solve
LINE_PLIES = 8

#: the words as this module writes them: English, what the command line
#: prints (``solver.said.English``); the server words the same records
#: with its translator instead (bots/server/words.py)
English = said.English
ENGLISH = said.ENGLISH

#: the separator of a list said in a sentence (``solver.said.Said.words``),
#: marked here for the catalogues
N_(", ")

# the facts of a position (``facts_of``) every game words alike, one
# phrase a line: the widget facts (solver/facts.py); a game says its own
# facts in its front (``Front.deal_facts``, ``taken_facts``,
# ``seat_fact_lines``: solver/front.py)
HAND = phrase("fact.hand", N_("Your hand: {hand}"))
CARD = phrase("fact.card", N_("Your card: {card}"))
OPPONENT_HAND = phrase("fact.opponent_hand",
                       N_("Opponent's hand (known, the stock is empty): {hand}"))
TRUMPS_TURN_UP = phrase("fact.trumps_turn_up", N_("Trumps: {trump} (turn-up {card})"))
TRUMPS = phrase("fact.trumps", N_("Trumps: {trump}"))
LAYOUT = phrase("fact.layout", N_("Layout: {layout}"))
TRICK = phrase("fact.trick", N_("Trick so far: {cards}"))
SEAT_CARD = phrase("fact.seat_card", N_("{name} {card}"))
YOU_LEAD = phrase("fact.you_lead", N_("Trick: you lead"))
TRICKS_WON = phrase("fact.tricks_won", N_("Tricks won: {scores}"))
TOTALS = phrase("fact.totals", N_("Match score: {scores}"))
STOCK = phrase("fact.stock", N_("Cards left in the stock: {n}"))

# the line of advice (``advice_said``), one phrase a sentence
PLAY = phrase("advice.play", N_("Play {card}."))
DO = phrase("advice.do", N_("{action}."))
EXACTLY = phrase("advice.exactly", N_("Exactly as good: {actions}."))
SAME_CARD = phrase("advice.same", *NP_("{cards} is the same card here (equivalent).",
                                       "{cards} are the same card here (equivalent)."))
AS_GOOD = phrase("advice.as_good",
                 N_("As good as far as the search can tell: {actions} ({test})."))
INSEPARABLE = phrase("advice.inseparable", N_("the search cannot separate them from it"))
TOO_LITTLE = phrase("advice.too_little", N_("Searched too little to judge: {actions}."))
ONLY = phrase("advice.only", N_("It is the only legal action."))


# --------------------------------------------------------------------------
# names from the asker's side


def seat_relation(n: int, seat: int, other: int, partnership: bool) -> tuple[str, int]:
    """Who ``other`` is to the player in ``seat`` of ``n`` seats: ``(kind,
    k)``, ``k`` the seats counted to the left, ``kind`` one of you,
    opponent (two seats), left, right, partner, across (four seats, no
    partners), partner_k (a partner of more than four seats) and seat_k
    (any other seat); every face names a seat from this."""
    k = (other - seat) % n
    if k == 0:
        return "you", k
    if n == 2:
        return "opponent", k
    if k == 1:
        return "left", k
    if k == n - 1:
        return "right", k
    if n == 4 and k == 2:
        return ("partner" if partnership else "across"), k
    if partnership and k % 2 == 0:
        return "partner_k", k
    return "seat_k", k


def seat_names(n: int, seat: int, partnership: bool) -> list[str]:
    """Each seat's name as the player in ``seat`` says it, in English."""
    names = []
    for s in range(n):
        kind, k = seat_relation(n, seat, s, partnership)
        if kind == "partner_k":
            names.append(f"partner ({k} to the left)")
        elif kind == "seat_k":
            names.append(f"seat {s} ({k} to the left)")
        else:
            names.append(kind)
    return names


def facts_of(view) -> list[Said]:
    """The position as the seat to move sees it, one fact a line, as
    phrases (``solver.said``: each seat a ``Seat``, each trump a
    ``Word``); a list per seat starts from the asker's own.  The widget
    facts are said here, the game's own by its front, each where it
    reads best: the deal's (a contract, a bid) after the trumps, what was
    taken beyond the tricks after the tricks won, a number a seat last.
    The trick is said only during the card play (no lead in an auction)."""
    game, seat = view.game, view.seat
    known = dict(view.info.known)
    facts = FactView(known, seat, game.num_players, game.scores_by_team)
    front = game.front
    lines = []
    if known.get("hand") not in (None, ""):
        lines.append(HAND(hand=known["hand"]))
    if known.get("card") not in (None, ""):
        lines.append(CARD(card=known["card"]))
    if known.get("opponent_hand"):
        lines.append(OPPONENT_HAND(hand=known["opponent_hand"]))
    if known.get("trump") not in (None, ""):
        # the trump in the game's words for it (``Front.trump_words``)
        word = front.trump_words.get(known["trump"])
        trump = Word(word) if word is not None else str(known["trump"])
        if known.get("turn_up"):
            lines.append(TRUMPS_TURN_UP(trump=trump, card=known["turn_up"]))
        else:
            lines.append(TRUMPS(trump=trump))
    lines += front.deal_facts(facts)
    if known.get("layout"):
        lines.append(LAYOUT(layout=known["layout"]))
    trick = known.get("trick")
    leader = known.get("leader")
    if isinstance(trick, list) and isinstance(leader, int):
        if trick:
            lines.append(TRICK(cards=[SEAT_CARD(name=facts.who((leader + i) % facts.seats), card=c)
                                      for i, c in enumerate(trick)]))
        elif leader == seat and view.any_world().trick_number() is not None:
            # the seat leads only once the card play has begun: a game
            # names its leader before (an auction, a contract's choice or
            # its doubles), and its state says when the tricks are played
            # (``State.trick_number``, None outside trick play)
            lines.append(YOU_LEAD())
    if known.get("tricks_won") is not None:
        lines.append(TRICKS_WON(scores=facts.scores(known["tricks_won"])))
    lines += front.taken_facts(facts)
    if known.get("totals") is not None:
        lines.append(TOTALS(scores=facts.scores(known["totals"])))
    if known.get("stock_left"):
        lines.append(STOCK(n=known["stock_left"]))
    return lines + front.seat_fact_lines(facts)


def say(records, game, tr=ENGLISH, names=None, name=None) -> list[str]:
    """Phrases (``facts_of``, ``advice_said``) in the words of ``tr``
    (default English), each seat called by ``names`` (a list by seat), each
    action by ``name`` (default its notation), in ``game``'s own words
    where it has them (``Front.phrase``)."""
    seat = names.__getitem__ if names is not None else None
    own = game.front.phrase
    return [r.words(tr, seat, name, own) for r in records]


def describe(view, tr=ENGLISH, names=None) -> list[str]:
    """The position's facts (``facts_of``) in the words of ``tr`` (default
    English) with each seat called by ``names`` (default ``seat_names``:
    you, left, partner...)."""
    game = view.game
    if names is None:
        names = seat_names(game.num_players, view.seat, game.partnership)
    return say(facts_of(view), game, tr, names)


def advice_said(action: str, equal, is_card: bool, exact: bool = False, unknown=(), same=(),
                test: Said | None = None) -> list[Said]:
    """One line of advice as phrases, a sentence each; ``equal``: the
    actions as good; ``unknown``: those among them searched too little to
    have an interval; ``same``: the classes of equivalent cards
    (``PlayResult.same``); ``test``: the test that made them as good
    (``solver.search.advice.equal_test_said``)."""
    twins = next((m for m in same if action in m), ())
    others = [Act(a) for a in equal if a != action and a not in unknown and a not in twins]
    rare = [Act(a) for a in equal if a != action and a in unknown and a not in twins]
    line = [PLAY(card=Act(action)) if is_card else DO(action=Act(action, capital=True))]
    if others and exact:
        return line + [EXACTLY(actions=others)]
    rest = [Act(a) for a in twins if a != action]
    if rest:
        line.append(SAME_CARD(n=len(rest), cards=rest))
    if others:
        line.append(AS_GOOD(actions=others, test=test or INSEPARABLE()))
    if rare:
        line.append(TOO_LITTLE(actions=rare))
    return line


def advice_line(action: str, equal, is_card: bool, exact: bool = False, unknown=(), same=(),
                test: Said | None = None, tr=ENGLISH, name=None) -> str:
    """``advice_said`` in the words of ``tr`` (default English), actions
    named by ``name`` (default: their notation), a sentence after the other."""
    return " ".join(r.words(tr, None, name)
                    for r in advice_said(action, equal, is_card, exact, unknown, same, test))


def advice_of(out: dict, card: bool) -> list[Said]:
    """The line of ``advice`` of a hint (``advise``'s dict) as phrases
    (``advice_said``)."""
    if "exact" in out:
        ex = out["exact"]
        if ex["forced"]:
            return advice_said(out["action"], (), card) + [ONLY()]
        return advice_said(out["action"], ex["best"], card, exact=True)
    s = out["search"]
    unknown = {a for a in s["values"]
               if not (isinstance(s["ci95"].get(a), (int, float))
                       and math.isfinite(s["ci95"][a]))}
    return advice_said(out["action"], s["equal"], card, unknown=unknown, same=s["same"],
                       test=Said.from_json(s["equal_test_code"]))


# --------------------------------------------------------------------------
# the service


def view_of(pos):
    """The seat view of the seat to move (``PositionError`` for a finished
    game)."""
    if isinstance(pos, position.SeatView):
        return pos
    state = pos.state()
    if state.is_terminal():
        raise PositionError(RECORD_OVER())
    return position.SeatView.of(state, state.current_player())


def make_limit(time=None, iterations=None, worlds=None, nodes=None):
    """The search limit of a hint: ``time`` (default ``DEFAULT_SECONDS``
    when no count is given) and/or ``iterations`` / ``worlds`` / ``nodes``."""
    if time is not None or (iterations is None and worlds is None):
        return Limit(time=time if time is not None else DEFAULT_SECONDS,
                     iterations=iterations, worlds=worlds, nodes=nodes)
    return Limit(iterations=iterations, worlds=worlds, nodes=nodes)


def _line(view, seat, res):
    """The expected line of play of an exact result (every card known):
    ``[(seat, action, value), ...]`` from the same values as the advice
    (``bots.exact``: the game's deal-result unit, ties to the first action
    in the game's order, so the line starts with the advised action),
    bounded to a few times the nodes of the solve itself; [] where the
    solver stops short."""
    try:
        return line(view.any_world(), seat, plies=LINE_PLIES,
                    total_nodes=max(res.nodes * 4, 100_000))
    except (UnsupportedPositionError, SearchAborted):
        return []


def advise(view, origin: str = "", bot: str = "ismcts", limit=None, seed: int = 0,
           progress=None, stop=None, trees=None, threads=None, nodes=None,
           line: bool = True, beliefs: bool = False, inference=None, prior=None,
           policy=None, leaf=None) -> dict:
    """The hint's whole content as a JSON-able dict (what ``--json``
    prints and the web table's hint button shows): the game, seat, the
    position, its ``facts`` in a player's words, the decision service's
    advice (``solver.search.best_move``: ``action``, ``ranking`` -- every
    legal action in the order the advice prefers them, the advised one
    first -- and ``method``: forced, exact, ismcts or pimc), then either
    ``exact`` (one legal action, or the view determines the deal and the
    solver took it: exact values, the actions as good, the expected line
    of play) or ``search`` (each legal action's mean with its 95% interval
    and visits or worlds, the actions as good, the reasons an action with a
    higher mean is not the advice...), and one line of ``advice``; where
    the solver was tried and passed its bound, ``brackets``: what it
    proved of each action's value (``bots.exact.bracket_doc``).
    ``limit`` (a ``solver.search.Limit``, default ``make_limit()``),
    ``bot``, ``seed``, ``progress``, ``stop``, ``trees``, ``threads`` and
    ``nodes`` go to ``best_move``; ``line``: compute the expected line of an exact result;
    ``inference``: the search's beliefs (``best_move``'s, None the game's
    default); ``prior``, ``policy`` and ``leaf``: what guides the search
    (``best_move``'s, None its defaults; the result's ``search.guided`` says
    what it used); ``beliefs``: add ``beliefs``, where the unseen cards are
    as the seat may believe (``beliefs_of``)."""
    game, seat = view.game, view.seat
    names = seat_names(game.num_players, seat, game.partnership)
    # the facts and the advice are built once, as phrases: the English
    # fields say them here, every other face words the codes beside them
    # (bots/server/words.py)
    facts = facts_of(view)
    # the trick (and an exact line's tricks) are the same in every world of
    # the view: read from the sampler's prepared world (no world drawn)
    world = view.any_world()
    trick = world.trick_number()
    # no "position" here: a face that prints the hint as JSON adds it
    # (with_position), the others never need it built
    out: dict = {"game": game.name, "options": game.non_default_options(), "seat": seat,
                 "trick": list(trick) if trick else None,
                 "origin": origin, "facts": say(facts, game, names=names),
                 "fact_codes": [f.to_json() for f in facts]}
    kw = {k: v for k, v in (("trees", trees), ("threads", threads), ("prior", prior),
                            ("policy", policy), ("leaf", leaf)) if v is not None}
    if beliefs:
        out["beliefs"] = beliefs_of(view, seed, inference is not False)
    res = best_move(view, limit if limit is not None else make_limit(), bot=bot, seed=seed,
                    progress=progress, stop=stop, nodes=nodes, inference=inference, **kw)
    # each action's id beside its name, so that no face parses a name again
    out.update(action=res.action, ranking=list(res.ranking), method=res.bot,
               ids={a: res.ids[a] for a in res.ranking})
    if res.note_code is not None:
        out["note"] = f"({res.note})"
        out["note_code"] = res.note_code.to_json()
    card = game.is_card(res.action_id)
    if res.bot in ("exact", "forced"):
        steps = _line(view, seat, res) if line and res.bot == "exact" else []
        out["exact"] = {"unit": res.unit, "values": dict(res.values), "best": list(res.equal),
                        "ranking": list(res.ranking), "nodes": res.nodes, "time": res.time,
                        "forced": res.bot == "forced",
                        "winners": ({a: names[w] for a, w in res.winners.items()}
                                    if res.winners else {}),
                        "winner_seats": dict(res.winners) if res.winners else {},
                        "line": [{"seat": s, "who": names[s], "action": a, "value": v,
                                  "trick": t}
                                 for (s, a, v), t in zip(steps, _tricks(world, steps), strict=True)]}
        return _with_advice(out, advice_of(out, card))
    if res.brackets is not None:
        # every card is known but the solve passed its bound: what it proved
        out["brackets"] = bracket_doc(world, res.brackets, res.span)
    per = "worlds" if res.bot == "pimc" else "visits"
    test = equal_test_said(game.round_scale)
    out["search"] = {"bot": res.bot, "unit": res.unit, "action": res.action,
                     "ranking": list(res.ranking), "equal": list(res.equal),
                     "same": [list(m) for m in res.same], "values": res.values,
                     "ci95": res.ci95, per: res.visits, "reasons": dict(res.reasons),
                     "reason_codes": {a: why.to_json() for a, why in res.reason_codes.items()},
                     "iterations": res.iterations, "nodes": res.nodes,
                     "time": res.time, "stopped": res.stopped,
                     "beliefs": dict(res.beliefs), "diff_ci95": dict(res.diff_ci95),
                     "guided": dict(res.search),
                     "equal_test": test.english(), "equal_test_code": test.to_json(),
                     "equal_points": EQUAL_POINTS * game.round_scale}
    return _with_advice(out, advice_of(out, card))


def _with_advice(out: dict, line: list[Said]) -> dict:
    """``out`` with its line of advice in English and as codes."""
    out["advice"] = " ".join(r.english() for r in line)
    out["advice_codes"] = [r.to_json() for r in line]
    return out


def beliefs_of(view, seed: int = 0, inference: bool = True) -> dict:
    """Where the cards the seat cannot see are, as it may believe
    (``solver.search.beliefs``: the pool a search of the view with this
    seed weighs), as a JSON-able dict: ``holders`` (a seat number, or a
    place: stock, undealt, nest, discards) with their ``names`` from the
    seat's side, ``cards`` (each unseen card: its probability with each
    holder, in that order; dix-exchange: each card value), ``inference``,
    ``worlds``, ``ess`` (their effective number) and ``observations`` (the
    other seats' decisions weighed)."""
    game = view.game
    rep = beliefs(view, seed=seed, inference=inference)
    names = seat_names(game.num_players, view.seat, game.partnership)
    doc = rep.to_json()
    doc["names"] = [names[h] if isinstance(h, int) else h for h in rep.holders]
    return doc


def _tricks(world, steps) -> list:
    """The trick (its number) each step of a line is played in, None for
    a step outside trick play: the line replayed on ``world``."""
    state = world.clone()
    out = []
    for _, action, _ in steps:
        trick = state.trick_number()
        out.append(trick[0] if trick else None)
        state.apply_action(state.string_to_action(action))
    return out


def json_finite(value):
    """JSON has no infinity: an interval not yet known is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_finite(v) for v in value]
    return value


def with_position(out: dict, view) -> dict:
    """``advise``'s dict with the seat view it advised on as ``position``
    (after ``origin``): what a face that prints the hint as JSON adds
    (``dixtrix hint --json``, the HTTP API); built only there."""
    doc: dict = {}
    for key, value in out.items():
        doc[key] = value
        if key == "origin":
            doc["position"] = view.to_json()
    return doc


__all__ = ["advise", "beliefs_of", "make_limit", "describe", "facts_of", "say", "seat_names",
           "seat_relation", "advice_line", "advice_said", "advice_of", "with_position", "English", "ENGLISH",
           "view_of", "json_finite", "DEFAULT_SECONDS", "LINE_PLIES"]
