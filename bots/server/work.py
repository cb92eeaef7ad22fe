"""The work a search route of the server does on a worker (``pool``), from
a position already read and checked: the hint (``_advise``), the exact
solve (``_solve``), the evaluation (``_evaluate``) and a deal's review
(``review_deal``, for the review route and the table's), each answer in
the reader's words where it has any.  ``app.create_app`` hands them to the
routes through the application's ``context.Context``.
"""

from __future__ import annotations

from solver.search import evaluate

from .. import advice
from .. import review as reviews
from ..exact import solve_doc
from . import labels, words
from .i18n import Translator


def _advise(view, bot, limit, seed, settings, tr: Translator | None = None, stop=None,
            inference=None, beliefs: bool = False, prior=None, leaf=None) -> dict:
    out = advice.with_position(
        advice.advise(view, "request", bot=bot, limit=limit, seed=seed, stop=stop,
                      trees=settings.trees, threads=settings.threads or None,
                      inference=None if inference is None else inference == "on",
                      beliefs=beliefs, prior=prior, leaf=leaf), view)
    tr = tr or Translator("en")
    # every action in words, in the reader's language, for the page's hint
    # panel (each action's id is beside its name: nothing parsed again)
    game = view.game
    out["labels"] = {text: labels.action(game, text, game.is_card(out["ids"][text]), tr)
                     for text in out["ranking"]}
    if "beliefs" in out and out["beliefs"].get("kind") == "card":
        out["beliefs"]["labels"] = {card: labels.action(game, card, True, tr)
                                    for card in out["beliefs"]["cards"]}
    # the facts, the advice, the units and the reasons in the reader's words
    return words.hint(out, view, tr)


def _solve(state, plies, settings, stop=None) -> dict:
    # values, best actions and line from one set of values (bots/exact.py);
    # the line's solves share one budget (at most max_nodes more) and end
    # when the request is stopped (client gone, server stopping)
    return solve_doc(state, plies=plies, max_nodes=settings.max_nodes,
                     line_nodes=settings.max_nodes, stop=stop)


def _evaluate(view, limit, policy, seed, stop=None, inference=None) -> dict:
    ev = evaluate(view, limit, policy=policy, seed=seed, stop=stop,
                  inference=None if inference is None else inference == "on")
    names = advice.seat_names(view.game.num_players, view.seat, view.game.partnership)
    return {"game": view.game.name, "seat": view.seat, "names": names, "values": ev.values,
            "ci95": ev.ci95, "worlds": ev.worlds, "unit": ev.unit, "method": ev.method,
            "time": ev.time, "stopped": ev.stopped}


def review_deal(pos, deal, seat, limit, body, settings, tr: Translator, stop=None) -> dict:
    """One deal of ``pos`` reviewed for ``seat`` with the request's bot and
    seed: each decision's search within ``limit``, each hindsight solve
    within the settings' node cap, the facts in the reader's words."""
    return reviews.review(pos, deal=deal, seat=seat, limit=limit, bot=body.bot,
                          seed=body.seed, trees=settings.trees,
                          threads=settings.threads or None,
                          nodes=min(reviews.DEFAULT_NODES, settings.max_nodes),
                          stop=stop, describe=lambda view: words.facts(view, tr))
