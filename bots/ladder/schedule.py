"""The duplicate schedule of a ladder: which games are played, by whom, on
which deals, with which seeds -- a pure function of the game, the entries
and the seed (docs/ladder.md).

Vocabulary:

* an **entry** is one bot settings string (``"ismcts:time=0.2"``), checked
  up front with ``make_bot``;
* a **deal** is one match seed: ``game.new_initial_state(seed=deal_seed)``
  fixes every card of the whole match (every round, hand or kingdom), and
  ``play_match`` plays it to the end.  A ladder *game* is one whole match;
* a **group** is the set of entries that meet on a deal: a pair in
  two-seat and partnership games, else up to one entry per seat;
* an **arrangement** (rotation) maps seats to the group's entries; a deal
  is played once in every arrangement of every group (duplicate), so every
  entry holds every seat's cards and the card luck cancels out.

Nothing here depends on the order games are run in: every seed is derived
from the schedule's seed and the game's key ``(deal, group, rotation)``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

import solver
from solver.errors import OptionError
from solver.front import N_
from solver.game import game_name, options_from_text, parse_pairs
from solver.said import Quote, phrase

from ..registry import make_bot, parse_settings

#: bump when the meaning of a schedule definition changes (seeds, groups)
SCHEDULE_FORMAT = 1

# the errors raised here (solver/errors.py: a code and its parameters)
GAME_SPEC = phrase("ladder_game_spec", N_("--game: expected a game name with options, got {got}"))
ENTRY_SPEC = phrase("ladder_entry_spec", N_("bot entry: expected a settings string, got {got}"))
ENTRY_NAMELESS = phrase("ladder_entry_nameless", N_("bot entry {got}: no bot name"))
LADDER_SEED = phrase("ladder_seed", N_("--seed must be a non-negative integer, got {got}"))
TOO_FEW_ENTRIES = phrase("ladder_entries", N_("a ladder needs at least 2 bot entries, got {n}"))
NO_ROUND_TRIP = phrase("ladder_round_trip", N_("stored schedule definition does not round-trip "
                                               "(format {format})"))
LADDER_DEALS = phrase("ladder_deals", N_("--deals must be a positive integer, got {got}"))
EMPTY_ENTRY = phrase("ladder_empty_entry", N_("--bots {got}: empty entry"))

def is_partnership(game: solver.Game) -> bool:
    """Whether the game's seats play as two teams (even seats vs odd seats);
    a partnership is always one entry, so partners stay together."""
    return game.partnership


def parse_game_spec(spec: str) -> tuple[str, dict]:
    """``"trix:partners=true"`` / ``"dix:variant=seventeen,target=10"`` ->
    ``(name, options)``; the game and its options are validated by
    ``solver.load_game`` (``OptionError`` naming the culprit)."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(GAME_SPEC(got=Quote(spec)))
    name, _, rest = spec.strip().partition(":")
    name = game_name(name)                             # any case; else the games known
    # each value read by its option (Option.parse)
    options = options_from_text(name, parse_pairs(rest.split(","), f"game {spec!r}"))
    solver.load_game(name, **options)                  # raises OptionError
    return name, options


def canonical_entry(spec: str) -> str:
    """One spelling per bot: ``"pimc: worlds=40"`` -> ``"pimc:worlds=40"``,
    settings sorted, numbers as Python writes them."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(ENTRY_SPEC(got=Quote(spec)))
    name, settings = parse_settings(spec.strip())
    if not name:
        raise OptionError(ENTRY_NAMELESS(got=Quote(spec)))
    if not settings:
        return name
    return name + ":" + ",".join(f"{k}={settings[k]}" for k in sorted(settings))


def derive_seed(*parts) -> int:
    """A 48-bit seed from the parts' text (stable across Python versions and
    processes, unlike ``hash``)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


@dataclass(frozen=True)
class GameTask:
    """One game of the schedule: everything a worker needs to play it.
    Plain data (picklable for process pools and Dask)."""

    schedule_id: str
    game: str
    options: tuple            # sorted (key, value) items
    deal: int
    group: int
    rotation: int
    deal_seed: int
    arrangement: tuple        # entry index per seat
    specs: tuple              # bot settings string per seat
    bot_seeds: tuple          # bot seed per seat

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.deal, self.group, self.rotation)


class Schedule:
    """A duplicate schedule.  ``Schedule("trix:partners=true", ["rules",
    "random"], seed=1)``; ``tasks(deals)`` lists the games of the first
    ``deals`` deals in a fixed order.  ``schedule_id`` hashes the
    definition (game with every option, entries, seed, format): the number
    of deals is not part of it, so a ladder can be extended."""

    def __init__(self, game, entries, seed: int = 0, *, check_bots: bool = True):
        """``game``: a spec (``"dix:variant=seventeen"``) or a ``Game``;
        ``entries``: settings strings (a list, or one comma-separated
        string as on the command line)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError(LADDER_SEED(got=Quote(seed)))
        if isinstance(game, solver.Game):
            self.game = game
        else:
            name, options = parse_game_spec(game)
            self.game = solver.load_game(name, **options)
        if isinstance(entries, str):
            entries = _split_entries(entries)
        entries = [canonical_entry(e) for e in entries]
        if len(entries) < 2:
            raise OptionError(TOO_FEW_ENTRIES(n=len(entries)))
        if check_bots:
            for e in entries:       # a bad entry fails before anything runs
                for seat in range(self.game.num_players):
                    make_bot(e, self.game, seat, seed=0)
        self.entries = tuple(entries)
        self.seed = seed
        self.partnership = is_partnership(self.game)
        self.groups = self._groups()
        self.definition = {
            "format": SCHEDULE_FORMAT,
            "game": self.game.name,
            "options": dict(sorted(self.game.options.items())),
            "entries": list(self.entries),
            "seed": seed,
        }
        canon = json.dumps(self.definition, sort_keys=True, separators=(",", ":"))
        self.schedule_id = hashlib.sha256(canon.encode()).hexdigest()[:16]

    @property
    def labels(self) -> list[str]:
        """Display names: the settings strings, numbered where one is listed
        more than once (``rules #1``, ``rules #2``: an A/A ladder, whose
        ratings should agree within their intervals)."""
        counts = {e: self.entries.count(e) for e in self.entries}
        seen: dict[str, int] = {}
        out = []
        for e in self.entries:
            seen[e] = seen.get(e, 0) + 1
            out.append(f"{e} #{seen[e]}" if counts[e] > 1 else e)
        return out

    @classmethod
    def from_definition(cls, definition: dict) -> Schedule:
        """The schedule stored in a ladder database (bots not re-checked)."""
        game = solver.load_game(definition["game"], **definition["options"])
        sch = cls(game, definition["entries"], definition["seed"], check_bots=False)
        if sch.definition != definition:
            raise OptionError(NO_ROUND_TRIP(format=Quote(definition.get("format"))))
        return sch

    @property
    def game_spec(self) -> str:
        opts = self.game.non_default_options()
        if not opts:
            return self.game.name
        return self.game.name + ":" + ",".join(
            f"{k}={_format_option(v)}" for k, v in sorted(opts.items()))

    # ---- groups and arrangements ----
    def _groups(self) -> list[tuple[int, ...]]:
        k, n = len(self.entries), self.game.num_players
        if n == 2 or self.partnership:
            return list(combinations(range(k), 2))
        if k >= n:
            return list(combinations(range(k), n))
        return [tuple(range(k))]

    def arrangements(self, deal: int, group: int) -> list[tuple[int, ...]]:
        """The seat arrangements of one group on one deal, each exactly once:
        the distinct rotations of the group's seating.  Pairs (two seats,
        or two partnerships on alternating seats) are swapped; a larger
        group sits in a seeded cyclic order (fresh per deal, so no entry
        always follows the same neighbour) and is rotated through every
        seat.  A group smaller than the table fills it cyclically."""
        n = self.game.num_players
        members = list(self.groups[group])
        if len(members) > 2:
            random.Random(derive_seed(self.seed, "order", deal, group)).shuffle(members)
        base = tuple(members[s % len(members)] for s in range(n))
        out: list[tuple[int, ...]] = []
        for r in range(n):
            arr = tuple(base[(s - r) % n] for s in range(n))
            if arr not in out:
                out.append(arr)
        return out

    def deal_seed(self, deal: int) -> int:
        return derive_seed(self.seed, "deal", deal)

    def tasks(self, deals: int) -> Iterator[GameTask]:
        """Every game of the first ``deals`` deals, in (deal, group,
        rotation) order."""
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise OptionError(LADDER_DEALS(got=Quote(deals)))
        options = tuple(sorted(self.game.options.items()))
        for deal in range(deals):
            dseed = self.deal_seed(deal)
            for g in range(len(self.groups)):
                for r, arr in enumerate(self.arrangements(deal, g)):
                    yield GameTask(
                        schedule_id=self.schedule_id, game=self.game.name, options=options,
                        deal=deal, group=g, rotation=r, deal_seed=dseed, arrangement=arr,
                        specs=tuple(self.entries[e] for e in arr),
                        bot_seeds=tuple(derive_seed(self.seed, "bot", deal, g, r, s)
                                        for s in range(len(arr))))

    def games_per_deal(self) -> int:
        return sum(len(self.arrangements(0, g)) for g in range(len(self.groups)))

    def __repr__(self) -> str:
        return f"Schedule({self.game_spec!r}, {list(self.entries)!r}, seed={self.seed})"


def _format_option(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _split_entries(text: str) -> list[str]:
    """``"random,rules,pimc:time=0.2,worlds=40,ismcts:time=0.2"`` -> the
    entries: a comma starts a new entry unless the next item is a
    ``key=value`` setting of the current one."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise OptionError(EMPTY_ENTRY(got=Quote(text)))
        name = part.partition(":")[0]
        if "=" in name and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part           # another setting of the previous entry
        else:
            out.append(part)
    return out
