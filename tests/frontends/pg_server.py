"""A throwaway PostgreSQL server for the tests and bench/server_load.py:
Debian's ``postgresql`` package (``initdb``, ``pg_ctl``) in a temporary
directory, on a free loopback port, its unix socket in that directory.

``initdb`` and ``postgres`` refuse to run as root: as root, the server
runs as the ``postgres`` user the Debian package creates (``runuser``),
its directory given to that user.  ``PostgresServer.unavailable()`` says
why a server cannot be had here (the tests skip with that reason).
Durability is switched off (fsync, full-page writes): a test's database
lives for seconds and nothing needs it after a crash of the machine.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile

#: the database user the tests connect as (a trust login on loopback)
USER = "dixtrix"
#: the Unix user that runs the server when the tests run as root
SERVICE_USER = "postgres"


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self):
        why = self.unavailable()
        if why:
            raise RuntimeError(why)
        self.initdb, self.pg_ctl = _binary("initdb"), _binary("pg_ctl")
        self.root = tempfile.mkdtemp(prefix="dixtrix-pg-")
        self.data = os.path.join(self.root, "data")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVICE_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self.as_user = ["runuser", "-u", SERVICE_USER, "--"]
        self._run([self.initdb, "-D", self.data, "-U", USER, "-A", "trust", "-E", "UTF8",
                   "--no-sync", "--no-instructions"])
        for _ in range(5):                 # a port taken between the look and the start
            self.port = _free_port()
            options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                       f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                       f"-c max_connections=200")
            done = subprocess.run([*self.as_user, self.pg_ctl, "-D", self.data, "-o", options,
                                   "-l", os.path.join(self.root, "log"), "-w", "-t", "30",
                                   "start"], capture_output=True, text=True)
            if done.returncode == 0:
                break
        else:
            log = self.log()
            self.stop()
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()} {log[-1000:]}")
        self.url = f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    @staticmethod
    def unavailable() -> str | None:
        """Why no server can be started here (None: one can)."""
        if _binary("initdb") is None or _binary("pg_ctl") is None:
            return ("no PostgreSQL server programs (initdb, pg_ctl): install Debian's "
                    "postgresql package (sh tests/install_system.sh does, as root)")
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError:
            return "psycopg 3 is not installed: pip install -e '.[test]'"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(SERVICE_USER)
            except KeyError:
                return (f"running as root, and there is no {SERVICE_USER!r} user to run the "
                        f"server as (initdb refuses root)")
            if shutil.which("runuser") is None:
                return "running as root, and there is no runuser to run the server as postgres"
        return None

    def _run(self, cmd: list[str]) -> None:
        done = subprocess.run([*self.as_user, *cmd], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{os.path.basename(cmd[0])} failed: {done.stderr.strip()}")

    def log(self) -> str:
        try:
            with open(os.path.join(self.root, "log")) as fh:
                return fh.read()
        except OSError:
            return ""

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg
        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if os.path.isdir(self.data):
            subprocess.run([*self.as_user, self.pg_ctl, "-D", self.data, "-m", "immediate",
                            "-w", "stop"], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)
