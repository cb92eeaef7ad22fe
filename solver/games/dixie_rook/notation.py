"""dixie-rook's action ids and their notation, and the card facts the
rules and the notation share (a card's count, a seat's team)."""

from __future__ import annotations

from ...cards import ROOK, ROOK_COLOURS, rank_of
from ...errors import NotationError
from ...front import N_
from ...game import ACTION_NOT_STRING, NOT_AN_ACTION
from ...said import Quote, phrase

# the notation's errors (solver/errors.py: a code and its parameters)
BAD_BID = phrase("rook_bad_bid", N_("bad bid {text}: a bid is a number from {least} to {most} in steps of "
                                    "{step}"))
BAD_DISCARD = phrase("rook_bad_discard", N_("bad discard {text}: unknown card {card}"))
BAD_TRUMP = phrase("rook_bad_trump", N_("bad trump {text}: name red, green, yellow or black (or R G Y B)"))
UNKNOWN_ACTION = phrase("rook_unknown_action", N_("unknown action {action} (expected a card like R14, "
                                                  "'bid 85', 'pass', 'discard R5' or 'trump red')"))

MIN_BID, MAX_BID, BID_STEP = 70, 120, 5
MOST_TRICKS_BONUS = 20
COUNT_BY_RANK = {5: 5, 10: 10, 13: 10}

DISCARD_BASE = 64              # 64 + card: discard that card into the nest
BID_BASE = 128                 # 128 + value: bid value (0..255 encodable, 70..120 legal)
MAX_BID_VALUE = 255
PASS = BID_BASE + MAX_BID_VALUE + 1
TRUMP_BASE = PASS + 1          # + colour 0..3
NUM_ACTIONS = TRUMP_BASE + 4

AUCTION, DISCARD, TRUMP, PLAY = "auction", "discard", "trump", "play"
COLOUR_WORDS = {"red": 0, "green": 1, "yellow": 2, "black": 3, "r": 0, "g": 1, "y": 2, "b": 3}


def card_count(card: int) -> int:
    """The count of one card: 5s 5, 10s and 13s 10, others 0."""
    return COUNT_BY_RANK.get(rank_of(card), 0)


def team_of(seat: int) -> int:
    return seat % 2


def _team_name(team: int, n: int) -> str:
    return f"team {team} (seats {' '.join(str(s) for s in range(team, n, 2))})"


# ----------------------------------------------------------------------
# notation (shared by the state and the seat-view replay)

def parse_action(text) -> int:
    """Action notation -> action int (``NotationError`` names the text)."""
    if not isinstance(text, str):
        raise NotationError(ACTION_NOT_STRING(got=Quote(text)), str(text))
    t = " ".join(text.strip().lower().split())
    if t in ("pass", "p"):
        return PASS
    word, _, rest = t.partition(" ")
    if word == "bid" or (t.isdigit() and not rest):
        value = rest if word == "bid" else t
        if not value.isdigit() or len(value) > 6 or int(value) > MAX_BID_VALUE:
            raise NotationError(BAD_BID(text=Quote(text), least=MIN_BID, most=MAX_BID,
                                        step=BID_STEP), text)
        return BID_BASE + int(value)
    if word == "discard" and rest:
        try:
            return DISCARD_BASE + ROOK.parse(rest)
        except NotationError:
            raise NotationError(BAD_DISCARD(text=Quote(text), card=Quote(rest)), text) from None
    if word in ("trump", "trumps") and rest:
        if rest not in COLOUR_WORDS:
            raise NotationError(BAD_TRUMP(text=Quote(text)), text)
        return TRUMP_BASE + COLOUR_WORDS[rest]
    try:
        return ROOK.parse(t)
    except NotationError:
        raise NotationError(UNKNOWN_ACTION(action=Quote(text)), text) from None


def format_action(action: int) -> str:
    if isinstance(action, int) and not isinstance(action, bool):
        if 0 <= action < DISCARD_BASE and action in ROOK:
            return ROOK.to_string(action)
        if DISCARD_BASE <= action < BID_BASE and action - DISCARD_BASE in ROOK:
            return "discard " + ROOK.to_string(action - DISCARD_BASE)
        if BID_BASE <= action < PASS:
            return f"bid {action - BID_BASE}"
        if action == PASS:
            return "pass"
        if TRUMP_BASE <= action < NUM_ACTIONS:
            return "trump " + ROOK_COLOURS[action - TRUMP_BASE]
    raise NotationError(NOT_AN_ACTION(action=Quote(action), game="dixie-rook"), str(action))
