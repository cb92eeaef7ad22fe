"""A table as a viewer sees it: the presentation of ``table.Table``.

A viewer sees the table through ``payload``: the seats around it (names,
person or bot and its level, card counts), the trick with who played each
card (and the last trick until the next lead), trumps, the game's board
(the table top every face draws, ``bots/tabletop.py``, and what the game
words of its board as generic widgets: panels, notes on the felt, a line
under each seat; ``Front.panels``), its hand and legal actions
when it is a seat, a summary of every finished deal (its points, and what
the game's record of it says: ``Game.front``'s ``deal_summaries``), and
every card and action in words in the viewer's language (``labels``).
Nothing here names a game: what differs from game to game is declared by
the game (``solver/front.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import DixtrixError
from solver.facts import own_facts
from solver.front import BoardView
from solver.position import SeatView

from .. import tabletop
from . import labels, words
from .i18n import Translator

#: a table (``table.Table``, which imports this module to present itself:
#: named loosely here so that the import goes one way)
Table = Any

#: the public log entries a view carries (the latest)
LOG_ENTRIES = 80


@dataclass(frozen=True)
class _Seen:
    """A log entry as the table top reads it (``tabletop.Played``)."""

    seat: int
    action: str
    card: bool
    deal: int
    trick: int | None = None


def payload(table: Table, seat: int | None, tr: Translator | None = None) -> dict:
    """The table as ``seat`` sees it (None: a spectator); see the module
    docstring and docs/server.md."""
    tr = tr or Translator("en")
    state, game = table.state, table.game
    n = game.num_players
    infos = [state.information_state(s) for s in range(n)]
    over = state.is_terminal()
    cur = None if over else state.current_player()
    if seat is not None:
        known = dict(infos[seat].known)
        view_actions = infos[seat].view["actions"]
    else:
        known = public_known([i.known for i in infos], own_facts(game))
        view_actions = public_actions([i.view["actions"] for i in infos])
    names = words.seat_names(game, seat, tr)
    legal = []
    if seat is not None and cur == seat:
        for a in state.legal_actions():
            text = state.action_to_string(a)
            is_card = game.is_card(a)
            legal.append({"action": text, "card": is_card,
                          "label": labels.action(game, text, is_card, tr)})
    hand = known.get("hand") if seat is not None else None
    if hand is None and seat is not None and known.get("card"):
        hand = known["card"]
    hand = hand.split() if isinstance(hand, str) else []
    log = _log(table, view_actions, names, tr)
    seats = []
    persons = set(table.row.persons)
    for s in range(n):
        k = infos[s].known
        own = k.get("hand")
        count = len(own.split()) if isinstance(own, str) else (
            1 if k.get("card") not in (None, "") else 0)
        entry = {"seat": s, "name": names[s], "you": s == seat, "cards": count,
                 "kind": "person" if s in persons else "bot", "to_move": s == cur}
        spec = table.row.seats[s]
        if s not in persons:
            entry["level"] = spec.get("level")
            entry["bot"] = spec["bot"]
        else:
            # a person seat nobody joined yet (a public table), or whose
            # person is away: a bot plays it meanwhile
            entry["open"] = bool(spec.get("open"))
            entry["away"] = "standin" in spec
            if "standin" in spec:
                entry["standin"] = spec["standin"]
        seats.append(entry)
    board = _board(table, known, log, names, seat, tr)
    ids = set(hand) | set(board.pop("_cards", ()))
    ids |= {e["action"] for e in log if e["card"]}
    if seat is not None and known.get("opponent_hand"):
        ids |= set(known["opponent_hand"].split())
    out = {
        "table": table.id, "game": game.name, "title": game.front.name(tr),
        "options": dict(game.options),
        "seeded": table.row.seeded, "version": table.version,
        "public": table.row.public, "away": table.row.away, "open": table.row.open,
        "turn_ends": table.turn_ends(), "rematch": table.row.rematch,
        "seat": seat, "spectator": seat is None, "seats": seats,
        "persons": sorted(persons),
        "bots": {str(s): spec for s, spec in sorted(table.row.bots.items())},
        "levels": {str(s): sp.get("level") for s, sp in enumerate(table.row.seats)
                   if "bot" in sp and sp.get("level")},
        "names": names, "players": n, "partnership": game.partnership,
        "to_move": cur, "your_turn": seat is not None and cur == seat,
        "over": over, "legal": legal, "hand": hand, "known": known, "board": board,
        "deal": state.round_index(), "deal_scores": table.deal_scores(),
        "summaries": summaries(table, names, tr, seat),
        "unit": labels.unit(game, game.round_unit, tr), "totals": known.get("totals"),
        # each score row's unit in words (a deal's result, the match so far,
        # the match's result): no row of the score table is read in another's
        "units": words.units(game, tr),
        "returns": [float(v) for v in state.returns()] if over else None,
        "log": log[-LOG_ENTRIES:], "actions": len(view_actions),
        "cards": labels.cards_in(game, ids, tr),
        "lang": tr.lang, "dir": "rtl" if tr.rtl else "ltr",
    }
    if table.row.seeded:
        out["seed"] = table.row.seed
    if seat is not None:
        view = SeatView(game, seat, infos[seat].view, infos[seat])
        out["facts"] = words.facts(view, tr)
        out["view"] = view.view
    return out


def _log(table: Table, view_actions: list, names: list, tr: Translator) -> list[dict]:
    """The actions as this viewer sees them (hidden ones as ``?``), each
    with who played it and its label."""
    # a view lists the match's actions from the first (a view starting at
    # a later deal would list the last ones): align them with the actors
    offset = len(table.actors) - len(view_actions)
    out = []
    start = max(0, len(view_actions) - 4 * LOG_ENTRIES)
    for i in range(start, len(view_actions)):
        text = view_actions[i]
        seat = table.actors[offset + i]
        is_card = text != "?" and is_card_text(table, text)
        out.append({"index": offset + i, "seat": seat, "who": names[seat],
                    "action": text, "card": is_card, "deal": table.deals[offset + i],
                    "label": labels.action(table.game, text, is_card, tr)})
    return out


def is_card_text(table: Table, text: str) -> bool:
    try:
        return table.game.is_card(table.state.string_to_action(text))
    except DixtrixError:
        return False


def _board(table: Table, known: dict, log: list, names: list, seat: int | None,
           tr: Translator) -> dict:
    """What lies on the table (``tabletop.lay``, from the viewer's facts
    and the log) and, in the game's words and generic widgets, its panels,
    the notes on the felt and a line under each seat (``Front.panels``,
    ``notes``, ``seat_notes``)."""
    game = table.game
    said = game.front
    deal = table.state.round_index()
    top = tabletop.lay(game, known, [_Seen(e["seat"], e["action"], e["card"], e["deal"])
                                     for e in log],
                       deal, table.state.is_terminal())
    board: dict = {k: top[k] for k in ("trick", "leader", "last_trick") if k in top}
    trumps = said.trumps(known, tr)
    if trumps is not None:
        board["trumps"] = trumps
    if known.get("turn_up"):
        board["turn_up"] = known["turn_up"]
    if known.get("stock_left") is not None:
        board["stock_left"] = known["stock_left"]
    if top.get("layout"):
        board["layout"] = top["layout"]
    view = BoardView(known, names, seat, [(e["seat"], e["label"]) for e in log
                                          if e["deal"] == deal])
    board.update(labels.board(game, view, tr))
    board["_cards"] = top["cards"] | said.panel_cards(known)
    return board


def summaries(table: Table, names: list, tr: Translator, seat: int | None = None
              ) -> list[dict]:
    """One summary a finished deal: its points per seat (the game's
    round result, ``round_returns``), the running totals, what the game's
    record of it says (``Game.front``'s ``deal_summaries``: what each seat
    or team took) and, as ``said``, the same in the reader's words as
    ``seat`` sees it (``Front.summary_words``: a heading, rows of one
    number a seat, lines across the seats)."""
    out = []
    said = table.game.front
    view = BoardView({}, names, seat)
    running = [0.0] * table.game.num_players
    details = said.deal_summaries(table.state, tr)
    for i, points in enumerate(table.deal_scores()):
        running = [a + b for a, b in zip(running, points, strict=True)]
        entry = {"deal": i, "points": points, "running": list(running)}
        if i < len(details):
            entry.update(details[i])
            entry["said"] = said.summary_words(details[i], view, tr)
        else:
            entry["said"] = {"heading": None, "rows": [], "lines": []}
        out.append(entry)
    return out


def label_review(table: Table, doc: dict, tr: Translator) -> None:
    """Every action a review names (played, advised) in the viewer's
    words: ``played_label``, ``best_label``."""
    def label(text):
        if text is None:
            return None
        return labels.action(table.game, text, is_card_text(table, text), tr)
    for entry in doc.get("decisions", []):
        entry["played_label"] = label(entry["played"])
        entry["best_label"] = label(entry["best"])
    for summary in doc.get("summary", []):
        for entry in summary.get("biggest", []):
            entry["played_label"] = label(entry["played"])
            entry["best_label"] = label(entry["best"])


def public_known(all_known: list[dict], own: frozenset[str] = frozenset()) -> dict:
    """The facts every seat knows alike, but a seat's own (``own``: the
    game's, ``solver.facts.own_facts``) even where they are alike: what a
    spectator may see."""
    first = all_known[0]
    return {k: v for k, v in first.items()
            if k not in own and all(other.get(k) == v for other in all_known[1:])}


def public_actions(per_seat: list[list]) -> list:
    """The actions as a spectator sees them: an action any seat does not see
    (``?`` in its view) is hidden."""
    length = min(len(a) for a in per_seat)
    out = []
    for i in range(length):
        texts = {a[len(a) - length + i] for a in per_seat}
        out.append(texts.pop() if len(texts) == 1 else "?")
    return out


__all__ = ["payload", "summaries", "label_review", "is_card_text", "public_known",
           "public_actions", "LOG_ENTRIES"]
