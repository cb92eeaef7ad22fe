"""``dixtrix play GAME --human SEAT``: a person plays a seat in the terminal
against the bots.

At each of the person's decisions the position is shown in a card player's
words (``bots.hint.describe``) with the legal actions; the person types an
action in the game's notation (its aliases accepted: ``string_to_action``),
``hint`` for the search's advice (every legal action's value), ``help`` for
the legal actions again, or ``quit``.  A bad entry is answered with the
reason and asked again.  Every other seat's action is printed as it is
played (the game's own narrative is not: it shows every hand); the score is
shown at the end of each deal and of the match.  The end of the input ends
the game cleanly.
"""

from __future__ import annotations

import sys

from solver import position
from solver.errors import DixtrixError, IllegalActionError
from solver.search import Limit, best_move

from . import hint as hints

#: seconds of search behind ``hint``
HINT_SECONDS = 0.5


def play_human(game, bots: dict, human: int, seed, inp=None, out=None) -> int:
    """Play one match: ``bots`` maps the other seats to bots; ``human``
    reads from ``inp`` (default stdin).  Returns the exit status."""
    inp = inp or sys.stdin
    out = out or sys.stdout

    def say(text=""):
        out.write(text + "\n")
        out.flush()

    state = game.new_initial_state(seed=seed)
    for bot in bots.values():
        bot.restart()
    deal = state.round_index()
    names = hints.seat_names(game.num_players, human, game.partnership)
    say(f"{game.name}: you play seat {human}. Type an action, 'hint', 'help' or 'quit'.")
    while not state.is_terminal():
        if state.round_index() != deal:
            _deal_score(say, state, deal, names)
            deal = state.round_index()
        seat = state.current_player()
        if seat != human:
            action = bots[seat].step(state)
            say(f"{names[seat]}: {state.action_to_string(action)}")
            _apply(state, bots, seat, action)
            continue
        view = position.from_json(state.information_state(human).view)
        legal = state.legal_actions()
        say("")
        for line in hints.describe(view):
            say(f"  {line}")
        say("  Legal: " + " ".join(state.action_to_string(a) for a in legal))
        while True:
            out.write("your move> ")
            out.flush()
            line = inp.readline()
            if not line:
                say("\n(end of input: game abandoned)")
                return 0
            text = line.strip()
            if not text:
                continue
            low = text.lower()
            if low in ("quit", "exit", "q"):
                say("game abandoned")
                return 0
            if low in ("help", "?"):
                say("  Legal: " + " ".join(state.action_to_string(a) for a in legal))
                continue
            if low == "hint":
                res = best_move(view, Limit(time=HINT_SECONDS), seed=0)
                say(f"  ({res.unit}; the advice first)")
                for a in res.ranking:           # the advice's own order
                    v = res.values.get(a)
                    mark = "advised" if a == res.action else ("as good" if a in res.equal else "")
                    value = f"{v:+8.2f}" if v is not None else "        "
                    say(f"    {a:<14} {value}  {mark}")
                for a, why in res.reasons.items():
                    say(f"    ({a} has a higher mean: {why})")
                say("  " + hints.advice_line(res.action, res.equal,
                                             hints._is_card(view, res.action)))
                continue
            try:
                action = state.string_to_action(text)
                if action not in legal:
                    raise IllegalActionError(text, "not a legal action now (type 'help')")
            except DixtrixError as exc:
                say(f"  {exc}")
                continue
            _apply(state, bots, human, action)
            break
    _deal_score(say, state, deal, names)
    say(f"Match over. Returns: " + ", ".join(f"{names[s]} {r:+g}"
                                              for s, r in enumerate(state.returns())))
    return 0


def _apply(state, bots, seat, action):
    state.apply_action(action)
    for bot in bots.values():
        bot.inform_action(state, seat, action)


def _deal_score(say, state, deal, names):
    try:
        scores = state.round_returns(deal)
    except (IndexError, KeyError):
        return
    say(f"Deal {deal + 1} over: " + ", ".join(f"{names[s]} {v:+g}"
                                              for s, v in enumerate(scores)))


__all__ = ["play_human"]
