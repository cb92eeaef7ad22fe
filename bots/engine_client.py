"""A Python client of the engine protocol (docs/protocol.md), in the manner
of python-chess's ``chess.engine``, and the ``engine`` bot that seats an
engine subprocess at a table (so a bot written in any language can play a
match or a ladder).

    from bots.engine_client import EngineClient
    from solver.search import Limit

    with EngineClient.popen() as engine:           # this package's engine
        result = engine.play(view, Limit(iterations=20_000))
        result.action, result.values               # the same PlayResult as best_move

The context manager always reaps the process: ``quit``, then terminate,
then kill.  Errors the engine reports become ``EngineError`` (a
``DixtrixError``) with its message; an engine that dies or stops answering
is an ``EngineError`` too.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from typing import IO, Any

from solver.errors import DixtrixError, LimitError, OptionError
from solver.front import N_
from solver.game import Game, State
from solver.said import Quote, Said, phrase
from solver.search import Evaluation, Limit, PlayResult
from solver.search.limits import NOT_A_LIMIT

from .base import LIMIT_SETTINGS, Bot, Setting
from .engine import split_command

# the errors raised here (solver/errors.py: a code and its parameters)
CANNOT_START = phrase("engine_cannot_start", N_("cannot start the engine {command}: {reason}"))
NO_PIPE = phrase("engine_no_pipe", N_("the engine has no pipe"))
EXITED = phrase("engine_exited", N_("the engine has exited"))
EXITED_STATUS = phrase("engine_exited_status", N_("the engine has exited (status {status})"))
SILENT = phrase("engine_silent", N_("the engine did not answer within {seconds} s"))
#: an ``error`` line of the engine, as the engine wrote it (its own words)
ENGINE_SAID = phrase("engine_error_line", N_("{line}"))
ENGINE_BOT = phrase("engine_bot", N_("engine: bot is ismcts or pimc, got {got}"))
ENGINE_ILLEGAL = phrase("engine_illegal", N_("the engine played {action}, which is not legal "
                                             "here"))

#: seconds to wait for an answer that needs no search
REPLY_SECONDS = 30.0


class EngineError(DixtrixError):
    """The engine answered ``error ...``, died, or did not answer."""


def result_of(doc: dict[str, Any]) -> PlayResult:
    """The ``PlayResult`` of an engine's ``result`` line (its JSON): the
    intervals not yet known back to infinity, the tuples back to tuples,
    the reasons and the note as codes back to records (solver/said.py)."""
    doc = dict(doc)
    doc["ci95"] = {k: (float("inf") if v is None else v)
                   for k, v in doc.get("ci95", {}).items()}
    doc["equal"] = tuple(doc.get("equal", ()))
    doc["same"] = tuple(tuple(m) for m in doc.get("same", ()))
    doc["reason_codes"] = {a: Said.from_json(why)
                           for a, why in (doc.get("reason_codes") or {}).items()}
    if doc.get("note_code") is not None:
        doc["note_code"] = Said.from_json(doc["note_code"])
    return PlayResult(**doc)


class EngineClient:
    """One engine subprocess.  Use ``EngineClient.popen(cmd)`` as a context
    manager (or call ``close()``)."""

    def __init__(self, process: subprocess.Popen[str]):
        self.process = process
        # the engine's lines; None once its output has ended
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.id: dict[str, str] = {}
        self.options: dict[str, list[str]] = {}

    @classmethod
    def popen(cls, cmd: str | list[str] | None = None, timeout: float = REPLY_SECONDS) -> EngineClient:
        """Start ``cmd`` (a string or list; default: this package's engine)
        and shake hands with it."""
        argv = split_command(cmd)
        try:
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                       encoding="utf-8")
        except OSError as exc:
            raise EngineError(CANNOT_START(command=Quote(argv[0]),
                                           reason=exc.strerror or str(exc))) from None
        engine = cls(process)
        try:
            engine._hello(timeout)
        except BaseException:
            engine.close()
            raise
        return engine

    # ---- plumbing -----------------------------------------------------------

    def _pipe(self, stream: IO[str] | None) -> IO[str]:
        if stream is None:      # Popen made with stdin and stdout pipes: never
            raise EngineError(NO_PIPE())
        return stream

    def _read(self) -> None:
        for line in self._pipe(self.process.stdout):
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)                 # end of output: the engine is gone

    def send(self, line: str) -> None:
        if self.process.poll() is not None:
            raise EngineError(EXITED_STATUS(status=self.process.returncode))
        try:
            stdin = self._pipe(self.process.stdin)
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(EXITED()) from None

    def receive(self, timeout: float | None = REPLY_SECONDS) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(SILENT(seconds=timeout)) from None
        if line is None:
            self.lines.put(None)
            raise EngineError(EXITED_STATUS(status=self.process.poll()))
        if line.startswith("error "):
            raise EngineError(ENGINE_SAID(line=line[len("error "):]))
        return line

    def _until(self, prefix: str, timeout: float | None = REPLY_SECONDS,
               on_line: Callable[[str], None] | None = None) -> str:
        while True:
            line = self.receive(timeout)
            if line.startswith(prefix):
                return line
            if on_line is not None:
                on_line(line)

    def _hello(self, timeout: float) -> None:
        self.send("dixtrix")

        def note(line: str) -> None:
            if line.startswith("id "):
                key, _, value = line[3:].partition(" ")
                self.id[key] = value
            elif line.startswith("option name "):
                words = line.split()
                self.options[words[2]] = words[3:]

        self._until("ok", timeout, note)

    # ---- commands -----------------------------------------------------------

    def ping(self, timeout: float = REPLY_SECONDS) -> None:
        """``isready``: returns once the engine answers ``readyok``."""
        self.send("isready")
        self._until("readyok", timeout)

    def configure(self, **options: object) -> None:
        """``setoption`` for each option (``threads=2``, ``bot="pimc"`` ...);
        a bad value is an ``EngineError`` naming it."""
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.ping()                           # errors, if any, come before readyok

    def _position(self, position: Any) -> None:
        if isinstance(position, State):
            position = position.information_state(position.current_player()).view
        if hasattr(position, "to_json"):
            position = position.to_json()
        text = position if isinstance(position, str) else json.dumps(position)
        self.send("position " + " ".join(text.split("\n")))

    @staticmethod
    def _go_args(limit: Limit | None, bot: str | None) -> str:
        if limit is not None and not isinstance(limit, Limit):
            raise LimitError(NOT_A_LIMIT(got=type(limit).__name__))
        parts: list[str] = []
        if limit is not None:
            for name in ("time", "iterations", "worlds"):
                v = getattr(limit, name)
                if v is not None:
                    parts += [name, str(v)]
        if bot is not None:
            parts += ["bot", bot]
        return " ".join(parts)

    def analyse(self, position: Any, limit: Limit | None = None, bot: str | None = None,
                info: Callable[[dict[str, Any]], None] | None = None,
                timeout: float | None = None) -> tuple[PlayResult, list[dict[str, Any]]]:
        """Search ``position`` (a seat view, a record, their JSON or a
        State: its seat to move's view) and return the ``PlayResult`` and
        every ``info`` line as a dict (also passed to ``info``)."""
        self._position(position)
        self.send(("go " + self._go_args(limit, bot)).strip())
        infos: list[dict[str, Any]] = []
        if timeout is None:
            timeout = (limit.time if limit is not None and limit.time else 0) + REPLY_SECONDS

        def on_line(line: str) -> None:
            if line.startswith("info ") and not line.startswith("info string "):
                d = _parse_info(line)
                infos.append(d)
                if info is not None:
                    info(d)

        result = self._until("result ", timeout, on_line)
        self._until("bestmove ", REPLY_SECONDS)
        return result_of(json.loads(result[len("result "):])), infos

    def play(self, position: Any, limit: Limit | None = None, bot: str | None = None
             ) -> PlayResult:
        """The engine's ``PlayResult`` for ``position`` (see ``analyse``)."""
        return self.analyse(position, limit, bot)[0]

    def stop(self) -> None:
        self.send("stop")

    def solve(self, position: Any) -> dict[str, Any]:
        """Exact values of a complete record (``solution`` JSON)."""
        self._position(position)
        self.send("solve")
        line = self._until("solution ", None)
        self._until("bestmove ", REPLY_SECONDS)
        solution: dict[str, Any] = json.loads(line[len("solution "):])
        return solution

    def evaluate(self, position: Any, limit: Limit | None = None) -> Evaluation:
        self._position(position)
        args: list[str] = []
        if limit is not None:
            if limit.worlds is not None:
                args += ["worlds", str(limit.worlds)]
            if limit.time is not None:
                args += ["time", str(limit.time)]
        self.send(("evaluate " + " ".join(args)).strip())
        line = self._until("evaluation ", None)
        doc = json.loads(line[len("evaluation "):])
        doc["ci95"] = [float("inf") if v is None else v for v in doc["ci95"]]
        return Evaluation(**doc)

    def quit(self) -> None:
        try:
            self.send("quit")
        except EngineError:
            pass

    def close(self, timeout: float = 2.0) -> None:
        """Quit, then terminate, then kill: the process is always reaped."""
        if self.process.poll() is None:
            self.quit()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_info(line: str) -> dict[str, int | float | str]:
    # an action with a space comes in double quotes (bots.engine.action_word)
    try:
        words = shlex.split(line)[1:]
    except ValueError:
        words = line.split()[1:]
    out: dict[str, int | float | str] = {}
    # lenient with what an engine prints: a key left without a value is dropped
    for key, value in zip(words[::2], words[1::2], strict=False):
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = value
    return out


class EngineBot(Bot):
    """``engine:cmd=...`` (default: this package's engine), with ``time``,
    ``iterations``, ``worlds`` and ``bot`` for its searches (default one
    second).  It sends its seat's view, never the hidden cards, so it is as
    fair as the engine behind it."""

    name = "engine"
    settings_spec = (Setting("cmd", str), *LIMIT_SETTINGS, Setting("bot", ("ismcts", "pimc")))

    def __init__(self, game: Game, seat: int, seed: int | None = None, cmd: object = None,
                 time: float | None = None, iterations: int | None = None,
                 worlds: int | None = None, bot: str | None = None, **settings: Any):
        super().__init__(game, seat, seed, **settings)
        if bot is not None and bot not in ("ismcts", "pimc"):
            raise OptionError(ENGINE_BOT(got=Quote(bot)))
        self.limit = (Limit(time=time, iterations=iterations, worlds=worlds)
                      if (time, iterations, worlds) != (None, None, None) else Limit(time=1.0))
        self.cmd = cmd if cmd is None else str(cmd)
        self.bot = bot
        self.engine: EngineClient | None = None

    def _engine(self) -> EngineClient:
        if self.engine is None or self.engine.process.poll() is not None:
            self.engine = EngineClient.popen(self.cmd)
            self.engine.configure(seed=self.seed if self.seed is not None else 0)
        return self.engine

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = state.information_state(self.seat).view
        res = self._engine().play(view, self.limit, self.bot)
        action = state.string_to_action(res.action)
        if action not in legal:
            raise EngineError(ENGINE_ILLEGAL(action=Quote(res.action)))
        return action

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass



__all__ = ["EngineClient", "EngineError", "EngineBot", "result_of"]
