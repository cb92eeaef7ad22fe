"""``dixtrix play GAME --human SEAT``: a person plays a seat in the terminal
against the bots.

At each of the person's decisions the position is shown in a card player's
words (``bots.advice.describe``) with the legal actions; the person types an
action in the game's notation, by any alias the game accepts
(``string_to_action``) or by an unambiguous start of it (``king`` for
``contract kinghearts``, ``done`` for ``reveal done``); ``hint`` for the
search's advice, ``help`` for the notation and the commands, or ``quit``.
A bad entry is answered with the rule's reason ("you must follow suit
(diamonds)") and asked again.  A decision with one legal action is played
for the person, with a line saying so (``--confirm-forced`` asks anyway).

Every other seat's action is printed as it is played, then what the table
sees: who took each trick, the cards the person draws from a stock (and
the turn-up when another seat takes it), the end of each deal with its
points and the match totals.  Nothing a seat cannot see is printed (the
game's own narrative is not: it shows every hand).  The end of the input
ends the game cleanly.
"""

from __future__ import annotations

import re
import sys
import textwrap

from solver import position
from solver.errors import DixtrixError, IllegalActionError, NotationError
from solver.front import N_
from solver.said import phrase
from solver.search import Limit, best_move
from solver.search.advice import equal_test_said

from . import advice

# the error raised here (solver/errors.py: a code and its parameters): a
# notation error of what was typed, with the way to the help
TYPE_HELP = phrase("human_type_help", N_("{error} (type 'help')"))
#: the reason a prefix is refused when it starts several actions' names
AMBIGUOUS = phrase("human_ambiguous", N_("it could be {actions}: type more of it"))

#: seconds of search behind ``hint``
HINT_SECONDS = 0.5

COMMANDS = ("Commands: an action (its notation, an alias, or the start of it when only one "
            "legal action begins so); 'hint' for the search's advice with every legal "
            "action's value; 'help' for this text; 'quit' to leave the game.")


def play_human(game, bots: dict, human: int, seed, inp=None, out=None,
               confirm_forced: bool = False) -> int:
    """Play one match: ``bots`` maps the other seats to bots; ``human``
    reads from ``inp`` (default stdin).  ``confirm_forced``: ask even when
    one action is legal.  Returns the exit status."""
    inp = inp or sys.stdin
    out = out or sys.stdout

    def say(text=""):
        out.write(text + "\n")
        out.flush()

    state = game.new_initial_state(seed=seed)
    for bot in bots.values():
        bot.restart()
    deal = state.round_index()
    names = advice.seat_names(game.num_players, human, game.partnership)
    table = _Table(human, names, say)
    say(f"{game.name}: you play seat {human}. Type an action, 'hint', 'help' or 'quit'.")
    while not state.is_terminal():
        if state.round_index() != deal:
            _deal_score(say, state, deal, names, human)
            deal = state.round_index()
        seat = state.current_player()
        if seat != human:
            action = bots[seat].step(state)
            say(f"{names[seat]}: {state.action_to_string(action)}")
            table.apply(state, bots, seat, action)
            continue
        legal = state.legal_actions()
        if len(legal) == 1 and not confirm_forced:
            say(f"you: {state.action_to_string(legal[0])} (your only legal action, played "
                f"for you)")
            table.apply(state, bots, human, legal[0])
            continue
        view = position.SeatView.of(state, human)
        say("")
        trick = state.trick_number()
        if trick:
            say(f"  Trick {trick[0]} of {trick[1]}")
        for line in advice.describe(view):
            say(f"  {line}")
        say("  Legal: " + _legal_text(state, legal))
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
                for para in (f"Notation: {game.notation}", COMMANDS):
                    say(textwrap.fill(para, 78, initial_indent="  ", subsequent_indent="  "))
                say("  Legal: " + _legal_text(state, legal))
                continue
            if low == "hint":
                _hint(say, view)
                continue
            try:
                action = read_action(state, text, legal, human)
            except DixtrixError as exc:
                say(f"  {exc}")
                continue
            table.apply(state, bots, human, action)
            break
    _deal_score(say, state, deal, names, human)
    say("Match over. Returns: " + ", ".join(f"{names[s]} {r:+g}"
                                             for s, r in enumerate(state.returns())))
    return 0


def _legal_text(state, legal) -> str:
    words = [state.action_to_string(a) for a in legal]
    # actions with a space ("contract queens") are told apart by commas
    return (", " if any(" " in w for w in words) else " ").join(words)


def _hint(say, view) -> None:
    res = best_move(view, Limit(time=HINT_SECONDS), seed=0)
    say(f"  Values in {res.unit}; the advice first:")
    for a in res.ranking:                   # the advice's own order
        v = res.values.get(a)
        mark = "advised" if a == res.action else ("as good" if a in res.equal else "")
        value = f"{v:+8.2f}" if v is not None else "        "
        say(f"    {a:<18} {value}  {mark}")
    for a, why in res.reasons.items():
        say(f"    ({a} has a higher mean: {why})")
    say("  " + advice.advice_line(res.action, res.equal, view.game.is_card(res.action_id),
                                  test=equal_test_said(view.game.round_scale)))


def read_action(state, text: str, legal, seat: int | None = None) -> int:
    """The legal action a person means by ``text``: the game's notation or
    one of its aliases (``string_to_action``), the notation of an action
    kind with the text after it (``king`` -> ``contract king`` ->
    ``contract kinghearts``), or the start of exactly one legal action's
    text or of its last part (``kingh``, ``70`` for ``bid 70`` when it is
    the only such bid).  Otherwise an error that says why: the rule's
    reason for an action that is not legal now (in the second person when
    ``seat`` is the one to move), the candidates when the text fits
    several, or the notation's complaint."""
    named = {a: state.action_to_string(a) for a in legal}
    try:
        parsed = state.string_to_action(text)
        problem = None
    except DixtrixError as exc:
        parsed, problem = None, exc
    if parsed in named:
        return parsed
    low = " ".join(text.lower().split())
    found = set()
    for kind in sorted({n.split()[0] for n in named.values() if " " in n}):
        try:
            action = state.string_to_action(f"{kind} {text}")
        except DixtrixError:
            continue
        if action in named:
            found.add(action)
    for action, name in named.items():
        name = name.lower()
        if name.startswith(low) or (" " in name and name.split(" ", 1)[1].startswith(low)):
            found.add(action)
    if len(found) == 1:
        return found.pop()
    if found:
        raise IllegalActionError(text, AMBIGUOUS(actions=[named[a] for a in sorted(found)]))
    if parsed is not None:
        reason = str(state.why_illegal(parsed))
        raise IllegalActionError(text, _second_person(reason, seat) + " (type 'help')")
    if isinstance(problem, NotationError):
        raise NotationError(TYPE_HELP(error=problem.as_message()), text)
    assert problem is not None      # parsed is None: string_to_action raised it
    raise problem


_VERBS = {"does": "do", "holds": "hold", "has": "have", "is": "are", "must": "must",
          "cannot": "cannot", "may": "may"}


def _second_person(reason: str, seat: int | None) -> str:
    """``seat 2 must follow suit`` -> ``you must follow suit`` for the
    person in ``seat``."""
    if seat is None:
        return reason
    return re.sub(rf"\bseat {seat} (\w+)",
                  lambda m: f"you {_VERBS.get(m.group(1), m.group(1))}", reason)


class _Table:
    """Applies each action and says what the person's seat sees happen at
    the table: the trick just taken and by whom, the cards drawn from a
    stock.  It reads the person's own information state before and after
    (and the public ``State.last_trick``), so it cannot tell a hidden card."""

    def __init__(self, human: int, names: list[str], say):
        self.human, self.names, self.say = human, names, say

    def apply(self, state, bots, seat, action) -> None:
        before = state.information_state(self.human).known
        trick, last, deal = state.trick_number(), state.last_trick(), state.round_index()
        state.apply_action(action)
        for bot in bots.values():
            bot.inform_action(state, seat, action)
        taken = state.last_trick()
        if taken is not None and taken is not last:
            leader, cards, winner = taken
            n = len(self.names)
            played = ", ".join(f"{self.names[(leader + i) % n]} {state.action_to_string(c)}"
                               for i, c in enumerate(cards))
            who = self.names[winner]
            number = f"trick {trick[0]}" if trick else "the trick"
            self.say(f"  {who} take{'' if who == 'you' else 's'} {number} ({played})")
        if state.is_terminal() or state.round_index() != deal:
            return
        self._draws(before, state.information_state(self.human).known)

    def _draws(self, before: dict, after: dict) -> None:
        left0, left1 = before.get("stock_left"), after.get("stock_left")
        if not isinstance(left0, int) or not isinstance(left1, int) or left1 >= left0:
            return
        mine = set((after.get("hand") or "").split()) - set((before.get("hand") or "").split())
        if not mine:
            return
        others = left0 - left1 - len(mine)
        text = f"  you draw {' '.join(sorted(mine))}"
        turn_up = before.get("turn_up")
        if others and left1 == 0 and turn_up and turn_up not in mine:
            text += (f"; {'your opponent takes' if len(self.names) == 2 else 'another seat takes'}"
                     f" the turn-up {turn_up}")
        elif others:
            who = "your opponent draws" if len(self.names) == 2 else "the others draw"
            text += f"; {who} {others}"
        self.say(text + f" ({left1} left in the stock)")


def _deal_score(say, state, deal, names, human):
    try:
        scores = state.round_returns(deal)
    except (IndexError, KeyError):
        return
    unit = state.game.round_unit
    text = (f"Deal {deal + 1} over: " + ", ".join(f"{names[s]} {v:+g}"
                                                  for s, v in enumerate(scores))
            + f" ({unit})")
    if not state.is_terminal():
        totals = state.information_state(human).known.get("totals")
        if isinstance(totals, list) and len(totals) == len(names):
            text += "; match totals: " + ", ".join(f"{names[s]} {t}"
                                                  for s, t in enumerate(totals))
        elif isinstance(totals, list) and len(totals) == 2:
            mine = human % 2
            text += f"; match totals: your team {totals[mine]}, the other team {totals[1 - mine]}"
    say(text)


__all__ = ["play_human", "read_action"]
