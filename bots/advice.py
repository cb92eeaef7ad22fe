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
"""

from __future__ import annotations

import math

from solver import position
from solver.errors import PositionError, SearchAborted, UnsupportedPositionError
from solver.search import Limit, beliefs, best_move
from solver.search.advice import EQUAL_POINTS, equal_test

from .exact import bracket_doc, line

#: what a hint searches when no limit is given (seconds)
DEFAULT_SECONDS = 1.0
#: plies of the expected line of play shown with an exact solve
LINE_PLIES = 8

class English:
    """The words as this module writes them (its message ids are English):
    what the command line prints.  The server passes its translator
    instead (``bots/server/i18n.py``: the same two calls), which is why
    every sentence here is a message id with ``{placeholders}``, marked
    ``tr(...)`` for extraction into the server's catalogues."""

    def __call__(self, message: str, **params) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, **params) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)


ENGLISH = English()

#: the words of a trump (a suit's letter, a Rook colour), as message ids
TRUMP_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "red": "red",
               "green": "green", "yellow": "yellow", "black": "black"}


def _trump_word(trump, tr) -> str:
    word = TRUMP_WORDS.get(trump)
    if word is None:
        return str(trump)
    return {"spades": tr("spades"), "hearts": tr("hearts"), "diamonds": tr("diamonds"),
            "clubs": tr("clubs"), "red": tr("red"), "green": tr("green"),
            "yellow": tr("yellow"), "black": tr("black")}[word]


# --------------------------------------------------------------------------
# names from the asker's side


def seat_names(n: int, seat: int, partnership: bool) -> list[str]:
    """Each seat's name as the player in ``seat`` says it."""
    names = []
    for s in range(n):
        k = (s - seat) % n
        if k == 0:
            name = "you"
        elif n == 2:
            name = "opponent"
        elif k == 1:
            name = "left"
        elif k == n - 1:
            name = "right"
        elif n == 4 and k == 2:
            name = "partner" if partnership else "across"
        elif partnership and k % 2 == 0:
            name = f"partner ({k} to the left)"
        else:
            name = f"seat {s} ({k} to the left)"
        names.append(name)
    return names


def describe(view, tr=ENGLISH, names=None) -> list[str]:
    """The position as the seat to move sees it, one fact a line, in the
    words of ``tr`` (default English) with each seat called by ``names``
    (default ``seat_names``: you, left, partner...); a list per seat starts
    from the asker's own."""
    game, seat = view.game, view.seat
    n = game.num_players
    names = list(names) if names is not None else seat_names(n, seat, game.partnership)
    known = dict(view.info.known)
    team_lists = game.scores_by_team
    if team_lists:      # team lists as (team of seat 0, team of seat 1)
        mine = seat % 2

        def order(v):
            return [v[mine], v[1 - mine]]
    else:
        def order(v):
            return v
    lines = []
    sep = tr(", ")

    def who(s):
        return names[s] if isinstance(s, int) and 0 <= s < n else tr("nobody")

    def per_seat(values, teams):
        if teams:
            return tr("your team {a}, the other team {b}", a=values[0], b=values[1])
        return sep.join(tr("{name} {value}", name=names[(seat + k) % n],
                           value=values[(seat + k) % n]) for k in range(n))

    if known.get("hand") not in (None, ""):
        lines.append(tr("Your hand: {hand}", hand=known["hand"]))
    if known.get("card") not in (None, ""):
        lines.append(tr("Your card: {card}", card=known["card"]))
    if known.get("opponent_hand"):
        lines.append(tr("Opponent's hand (known, the stock is empty): {hand}",
                        hand=known["opponent_hand"]))
    if known.get("trump") not in (None, ""):
        trump = _trump_word(known["trump"], tr)
        if known.get("turn_up"):
            lines.append(tr("Trumps: {trump} (turn-up {card})", trump=trump,
                            card=known["turn_up"]))
        else:
            lines.append(tr("Trumps: {trump}", trump=trump))
    if known.get("contract") not in (None, ""):
        by = known.get("chooser")
        # the contract in words where the game gives them (its titles are
        # the server's message ids for the contracts: its ``Game.front``)
        title = tr(known.get("contract_title") or known["contract"])
        if by is not None:
            lines.append(tr("Contract: {contract}, chosen by {name}", contract=title,
                            name=who(by)))
        else:
            lines.append(tr("Contract: {contract}", contract=title))
    # the contract in play is in ``used`` from the moment it is chosen: it
    # is not yet one of those played (in words where the game gives them)
    used = known.get("used_titles") or known.get("used") or ()
    current = known.get("contract_title") or known.get("contract")
    played = sep.join(tr(c) for c in used if c != current)
    if played:
        # in the game's words for its rounds (trix's kingdoms, tricks' sets:
        # its ``Game.front``, solver/front.py)
        lines.append(tr(game.front.played_contracts, contracts=played))
    if known.get("layout"):
        lines.append(tr("Layout: {layout}", layout=known["layout"]))
    if known.get("bid") is not None and known.get("bid_winner") is not None:
        lines.append(tr("Bid: {n} by {name}", n=known["bid"], name=who(known["bid_winner"])))
    elif known.get("high_bid") is not None:
        lines.append(tr("Highest bid: {n} by {name}", n=known["high_bid"],
                        name=who(known.get("high_bidder"))))
    trick = known.get("trick")
    leader = known.get("leader")
    if isinstance(trick, list) and isinstance(leader, int):
        if trick:
            so_far = sep.join(tr("{name} {card}", name=who((leader + i) % n), card=c)
                              for i, c in enumerate(trick))
            lines.append(tr("Trick so far: {cards}", cards=so_far))
        elif leader == seat:
            lines.append(tr("Trick: you lead"))
    if known.get("tricks_won") is not None:
        lines.append(tr("Tricks won: {scores}",
                        scores=per_seat(order(known["tricks_won"]), team_lists)))
    if known.get("tens") is not None:
        lines.append(tr("Ten-tricks taken (3 each against the taker): {scores}",
                        scores=per_seat(known["tens"], False)))
    if known.get("count") is not None:
        lines.append(tr("Count taken this hand: {scores}",
                        scores=per_seat(order(known["count"]), True)))
    if known.get("tokens") is not None:
        lines.append(tr("Tokens: {scores}", scores=per_seat(known["tokens"], False)))
    if known.get("totals") is not None:
        lines.append(tr("Match score: {scores}",
                        scores=per_seat(order(known["totals"]), team_lists)))
    if known.get("stock_left"):
        lines.append(tr("Cards left in the stock: {n}", n=known["stock_left"]))
    return lines


def advice_line(action: str, equal, is_card: bool, exact: bool = False,
                unknown=(), same=(), test: str = "", tr=ENGLISH, name=None) -> str:
    """One line of advice; ``equal``: the actions as good; ``unknown``: those
    among them searched too little to have an interval; ``same``: the
    classes of equivalent cards (``PlayResult.same``); ``test``: the words
    of the test that made them as good (``solver.search.advice.equal_test``);
    ``tr``: the words (default English), ``name``: an action in words
    (default: its notation)."""
    say = name or (lambda a: a)
    sep = tr(", ")
    twins = next((m for m in same if action in m), ())
    others = [a for a in equal if a != action and a not in unknown and a not in twins]
    rare = [a for a in equal if a != action and a in unknown and a not in twins]
    if is_card:
        text = tr("Play {card}.", card=say(action))
    else:
        words = say(action)
        text = tr("{action}.", action=words[:1].upper() + words[1:])
    if others and exact:
        return text + " " + tr("Exactly as good: {actions}.",
                               actions=sep.join(say(a) for a in others))
    rest = [a for a in twins if a != action]
    if rest:
        text += " " + tr.ngettext("{cards} is the same card here (equivalent).",
                                  "{cards} are the same card here (equivalent).", len(rest),
                                  cards=sep.join(say(a) for a in rest))
    if others:
        text += " " + tr("As good as far as the search can tell: {actions} ({test}).",
                         actions=sep.join(say(a) for a in others),
                         test=test or tr("the search cannot separate them from it"))
    if rare:
        text += " " + tr("Searched too little to judge: {actions}.",
                         actions=sep.join(say(a) for a in rare))
    return text


def advice_of(out: dict, card: bool, tr=ENGLISH, name=None, test: str | None = None) -> str:
    """The line of ``advice`` of a hint (``advise``'s dict) in the words of
    ``tr`` (``test``: the as-good test in those words, default the
    search's own), actions named by ``name``."""
    if "exact" in out:
        ex = out["exact"]
        if ex["forced"]:
            return advice_line(out["action"], (), card, tr=tr, name=name) + " " + \
                tr("It is the only legal action.")
        return advice_line(out["action"], ex["best"], card, exact=True, tr=tr, name=name)
    s = out["search"]
    unknown = {a for a in s["values"]
               if not (isinstance(s["ci95"].get(a), (int, float))
                       and math.isfinite(s["ci95"][a]))}
    return advice_line(out["action"], s["equal"], card, unknown=unknown, same=s["same"],
                       test=s["equal_test"] if test is None else test, tr=tr, name=name)


# --------------------------------------------------------------------------
# the service


def view_of(pos):
    """The seat view of the seat to move (``PositionError`` for a finished
    game)."""
    if isinstance(pos, position.SeatView):
        return pos
    state = pos.state()
    if state.is_terminal():
        raise PositionError("the game in this record is over: there is no move to advise")
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
    facts = describe(view)
    # the trick (and an exact line's tricks) are the same in every world of
    # the view: read from the sampler's prepared world (no world drawn)
    world = view.any_world()
    trick = world.trick_number()
    # no "position" here: a face that prints the hint as JSON adds it
    # (with_position), the others never need it built
    out: dict = {"game": game.name, "options": game.non_default_options(), "seat": seat,
                 "trick": list(trick) if trick else None,
                 "origin": origin, "facts": facts}
    kw = {k: v for k, v in (("trees", trees), ("threads", threads), ("prior", prior),
                            ("policy", policy), ("leaf", leaf)) if v is not None}
    if beliefs:
        out["beliefs"] = beliefs_of(view, seed, inference is not False)
    res = best_move(view, limit if limit is not None else make_limit(), bot=bot, seed=seed,
                    progress=progress, stop=stop, nodes=nodes, inference=inference, **kw)
    # each action's id beside its name, so that no face parses a name again
    out.update(action=res.action, ranking=list(res.ranking), method=res.bot,
               ids={a: res.ids[a] for a in res.ranking})
    if res.note:
        out["note"] = f"({res.note})"
    card = game.is_card(res.action_id)
    if res.bot in ("exact", "forced"):
        steps = _line(view, seat, res) if line and res.bot == "exact" else []
        out["exact"] = {"unit": res.unit, "values": dict(res.values), "best": list(res.equal),
                        "ranking": list(res.ranking), "nodes": res.nodes, "time": res.time,
                        "forced": res.bot == "forced",
                        "winners": ({a: names[w] for a, w in res.winners.items()}
                                    if res.winners else {}),
                        "line": [{"seat": s, "who": names[s], "action": a, "value": v,
                                  "trick": t}
                                 for (s, a, v), t in zip(steps, _tricks(world, steps), strict=True)]}
        out["advice"] = advice_of(out, card)
        return out
    if res.brackets is not None:
        # every card is known but the solve passed its bound: what it proved
        out["brackets"] = bracket_doc(world, res.brackets, res.span)
    per = "worlds" if res.bot == "pimc" else "visits"
    out["search"] = {"bot": res.bot, "unit": res.unit, "action": res.action,
                     "ranking": list(res.ranking), "equal": list(res.equal),
                     "same": [list(m) for m in res.same], "values": res.values,
                     "ci95": res.ci95, per: res.visits, "reasons": dict(res.reasons),
                     "iterations": res.iterations, "nodes": res.nodes,
                     "time": res.time, "stopped": res.stopped,
                     "beliefs": dict(res.beliefs), "diff_ci95": dict(res.diff_ci95),
                     "guided": dict(res.search),
                     "equal_test": equal_test(game.round_scale),
                     "equal_points": EQUAL_POINTS * game.round_scale}
    out["advice"] = advice_of(out, card)
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


__all__ = ["advise", "beliefs_of", "make_limit", "describe", "seat_names", "advice_line",
           "advice_of", "with_position", "English", "ENGLISH",
           "view_of", "json_finite", "DEFAULT_SECONDS", "LINE_PLIES"]
