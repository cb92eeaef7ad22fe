"""A real ``dixtrix serve`` subprocess on a loopback ephemeral port, for
the server's tests and bench/server_load.py."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time

READY = re.compile(r"listening on (http://\S+?)/? ")


class ServerProcess:
    """``dixtrix serve --port 0`` with the given flags; ``url`` once it
    listens; ``stop()`` sends SIGTERM (``kill()`` SIGKILL); stderr is kept
    in ``log`` for the assertions about crashes and internal errors, stdout
    after the address (uvicorn's access log) in ``out``."""

    def __init__(self, db: str, *flags: str, timeout: float = 60.0):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.p = subprocess.Popen([sys.executable, "-m", "bots.cli", "serve", "--port", "0",
                                   "--db", db, *flags],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env)
        self.log: list[str] = []
        self.out: list[str] = []
        #: the line that says where it listens and where its tables are
        self.banner = ""
        self._err = threading.Thread(target=self._drain, daemon=True)
        self._err.start()
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline:
            line = self.p.stdout.readline() if self.p.stdout is not None else ""
            if not line:
                break
            m = READY.search(line)
            if m:
                self.url = m.group(1).rstrip("/")
                self.banner = line
                threading.Thread(target=self._drain_out, daemon=True).start()
                return
        self.kill()
        raise RuntimeError(f"dixtrix serve did not start: {line!r} {''.join(self.log)[-2000:]}")

    def _drain(self):
        for line in self.p.stderr:
            self.log.append(line)

    def _drain_out(self):
        for line in self.p.stdout:
            self.out.append(line)

    @property
    def pid(self) -> int:
        return self.p.pid

    def alive(self) -> bool:
        return self.p.poll() is None

    def stop(self, timeout: float = 20.0) -> int:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(timeout=10)


def rss_kib(pid: int) -> int:
    """The process's resident memory (KiB) from /proc (0 where there is none)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@contextlib.contextmanager
def running(db: str, *flags: str):
    """A server for a test module's fixture: stopped at the end, which must
    be a clean exit with no internal error in its log."""
    srv = ServerProcess(db, *flags)
    srv.db = db  # type: ignore[attr-defined]  # the fixture's database, for the tests
    try:
        yield srv
    finally:
        assert srv.stop() == 0
        assert not [line for line in srv.log if "internal error" in line], srv.log


def replay_table(db: str, table_id: str):
    """A table's record as the server keeps it in SQLite (its row and its
    moves), replayed by the solver (what the scores shown must equal)."""
    import solver
    con = sqlite3.connect(db)
    try:
        game, options, seed = con.execute(
            "SELECT game, options, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
        moves = [a for (a,) in con.execute(
            "SELECT action FROM moves WHERE table_id = ? ORDER BY idx", (table_id,))]
    finally:
        con.close()
    state = solver.load_game(game, **json.loads(options)).new_initial_state(seed=int(seed))
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state
