"""What a table store holds (``store.py``: the interface and SQLite;
``pgstore.py``: PostgreSQL): the schema, as SQL both databases run (with
``{real}`` their floating-point type), each version's step, and the rows
a store reads (``Row``: a table's whole record; ``Head``: what its row says
now).  The schema's versions and what each holds are told in ``store.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: the schema this code writes
SCHEMA_VERSION = 4

#: schema 2 (``{real}``: the database's floating-point type): what a fresh
#: database starts from, then ``MIGRATE_2_TO_3``, so that a new database and
#: an upgraded one have one shape
SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,      -- JSON object, the game's options
    seed TEXT NOT NULL,         -- decimal: deals every deal, the bots' seeds derive from it
    seeded INTEGER NOT NULL,    -- 1: the creator gave the seed (reproducible)
    seats TEXT NOT NULL,        -- JSON list, one per seat: {{"bot": settings}} or {{"person": true}}
    admin_hash TEXT,            -- SHA-256 (hex) of the admin token
    moves INTEGER NOT NULL,     -- actions played: the table's version
    created {real} NOT NULL,
    updated {real} NOT NULL,
    ended {real}                -- when the match ended (NULL while it runs)
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,   -- SHA-256 (hex) of the seat's token
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,       -- 0, 1, 2...: the action's index in the match
    seat INTEGER NOT NULL,      -- who played it
    action TEXT NOT NULL,       -- the action in notation
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_expiry ON tables (ended, updated)
"""

#: schema 2 -> 3: the bot-turn claim (the process playing the bots' turns,
#: NULL: none; its lease ends at ``claim_until``, the database's clock) and
#: the version table
MIGRATE_2_TO_3 = """
ALTER TABLE tables ADD COLUMN claim_owner TEXT;
ALTER TABLE tables ADD COLUMN claim_until {real};
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER NOT NULL,
    applied {real} NOT NULL
)
"""

#: schema 3 -> 4: the lobby (``public``), the absent seats (``away``: the
#: seconds a person's turn waits before a bot plays the seat, NULL: for
#: ever; ``moved``: when the last move was stored, the turn's start) and the
#: rematch (the id of the table the match goes on at)
MIGRATE_3_TO_4 = """
ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN away {real};
ALTER TABLE tables ADD COLUMN moved {real};
ALTER TABLE tables ADD COLUMN rematch TEXT;
CREATE INDEX IF NOT EXISTS tables_lobby ON tables (public, ended, created)
"""

#: the columns of schema 2 (what the upgrade from schema 1 writes)
COLUMNS_2 = ("id, game, options, seed, seeded, seats, admin_hash, moves, created, updated, "
             "ended")
COLUMNS = COLUMNS_2 + ", public, away, moved, rematch"
#: the most tables the lobby lists (the newest)
LOBBY = 100


@dataclass
class Row:
    id: str
    game: str
    options: dict
    seed: int
    seeded: bool
    #: one per seat: {"bot": "settings", "level": "hard"?} or {"person": True}
    seats: list
    admin_hash: str | None
    created: float
    updated: float
    ended: float | None
    #: ``(seat, action)`` of every move, in order
    moves: list = field(default_factory=list)
    #: seat -> SHA-256 of its token
    token_hashes: dict = field(default_factory=dict)
    #: listed in the lobby; its open seats are taken by joining
    public: bool = False
    #: seconds a person's turn waits before a bot plays the seat (None: for ever)
    away: float | None = None
    #: when the last move was stored (None: no move yet; the turn then starts
    #: at ``created``)
    moved: float | None = None
    #: the id of the rematch, once one is made
    rematch: str | None = None

    @property
    def persons(self) -> list[int]:
        """The seats people have (a person away included)."""
        return [s for s, spec in enumerate(self.seats) if "person" in spec]

    @property
    def playing(self) -> list[int]:
        """The seats a person plays now (not away: no bot stands in)."""
        return [s for s, spec in enumerate(self.seats)
                if "person" in spec and "standin" not in spec]

    @property
    def open(self) -> list[int]:
        """A public table's seats nobody has joined yet."""
        return [s for s, spec in enumerate(self.seats) if spec.get("open")]

    @property
    def bots(self) -> dict[int, str]:
        return {s: spec["bot"] for s, spec in enumerate(self.seats) if "bot" in spec}

    def bot_of(self, seat: int) -> str:
        """The bot that plays ``seat``: its own, or the stand-in of a person away."""
        spec = self.seats[seat]
        return spec["bot"] if "bot" in spec else spec["standin"]


@dataclass(frozen=True)
class Head:
    """What a table's row says now: enough to tell whether a process's copy
    of the table is behind (``moves``) and whether it has ended."""
    moves: int
    updated: float
    ended: float | None
    #: the seats as stored (JSON text): a seat joined, handed to a bot or
    #: taken back by another process shows here
    seats: str = "[]"
    rematch: str | None = None
    moved: float | None = None


def _statements(script: str, real: str) -> list[str]:
    return [s.strip() for s in script.format(real=real).split(";") if s.strip()]


__all__ = ["Row", "Head", "SCHEMA_VERSION", "SCHEMA_2", "MIGRATE_2_TO_3", "MIGRATE_3_TO_4",
           "COLUMNS", "COLUMNS_2", "LOBBY"]
