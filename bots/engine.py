"""``dixtrix engine``: a line protocol for other programs (docs/protocol.md).

In the spirit of UCI: the engine reads one command a line on standard input
and writes one answer a line on standard output (flushed per line; logs go
to standard error). Positions are the JSON of docs/positions.md, on one
line or spread over several. A search runs on a worker thread, so ``stop``,
``isready`` and ``quit`` are answered while it runs; ``stop`` ends it
within milliseconds with the best found so far (``solver.search`` polls a
stop event). Bad input of any kind gets one ``error <where>: <reason>``
line, and the engine goes on with its state unchanged: a line that is not
UTF-8 text costs only itself. ``position`` may span lines (a position
file's pretty-printed JSON, read until its brackets close), and an exact
``solve`` that runs long moves to a child process that ``stop`` ends at
once.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import subprocess
import sys
import threading
import time as _time
from dataclasses import asdict
from typing import Any

import solver
from solver.dd.trick import check_tt_mb
from solver.errors import DixtrixError, LimitError, OptionError, PositionError, SearchAborted
from solver.front import N_
from solver.position import MAX_DEPTH, record_from_json
from solver.said import Quote, Said, phrase, short_repr
from solver.search import Limit, SearchSettings, beliefs, best_move, evaluate
from solver.search.service import BOTS, DEFAULT_LIMIT_SECONDS, DEFAULT_TREES

from .advice import json_finite
from .exact import solve_doc
from .lifeline import exit_with_parent
from .review import DEFAULT_NODES, DEFAULT_SECONDS, review

NAME = "dixtrix"
#: the longest command line read (a position of 1 MiB and some room)
MAX_LINE = (1 << 20) + 4096
#: seconds an ``infinite`` search may run before it stops by itself
INFINITE_SECONDS = 86400.0
#: ``go time`` at least this long (seconds) gets an ``info string`` saying
#: it is seconds (a UCI client may mean milliseconds)
LONG_TIME_SECONDS = 60.0
#: the nodes an exact ``solve`` spends on the engine's own thread (a tenth
#: of a second or so): past them the solve restarts in a child process,
#: which ``stop`` can end at once (the solver has no stop of its own, and a
#: thread cannot be ended from outside)
QUICK_SOLVE_NODES = 200_000
#: seconds between two looks at ``stop`` while a child process solves
SOLVE_POLL_SECONDS = 0.02

# the errors raised here (solver/errors.py: a code and its parameters); the
# protocol's error line is their English (docs/protocol.md)
SEARCH_RUNNING = phrase("engine_busy", N_("a search is running: send stop first"))
BUSY_OPTIONS = phrase("engine_busy_options",
                      N_("a search is running: options change between searches"))
SETOPTION_USAGE = phrase("engine_setoption_usage",
                         N_("expected: setoption name <name> value <value>"))
UNKNOWN_OPTION = phrase("engine_unknown_option", N_("unknown option {got} (known: {known})"))
OPTION_INT = phrase("engine_option_int", N_("option {name}: an integer {low}..{high}, got {got}"))
OPTION_CHOICE = phrase("engine_option_choice", N_("option {name}: one of {choices}, got {got}"))
POSITION_USAGE = phrase("engine_position_usage",
                        N_("expected: position <record or seat view JSON>"))
NO_POSITION = phrase("engine_no_position", N_("no position: send position <json> first"))
GAME_OVER = phrase("engine_game_over", N_("the game in this record is over: there is no move "
                                          "to advise (review judges its decisions)"))
# the two bots of the decision service (solver.search.service.BOTS), by name
GO_BOT = phrase("engine_go_bot", N_("go: bot is ismcts or pimc, got {got}"))
GO_INFINITE = phrase("engine_go_infinite", N_("go: infinite takes no other limit"))
SOLVE_VIEW = phrase("engine_solve_view", N_("solve needs every card: this is a seat view (use "
                                            "go or evaluate)"))
EVALUATE_USAGE = phrase("engine_evaluate_usage", N_("evaluate: expected worlds N and/or time S"))
EVALUATE_BAD = phrase("engine_evaluate_bad", N_("evaluate: bad {key} {got}"))
REVIEW_PAIRS = phrase("engine_review_pairs", N_("expected pairs of a key and a value (deal N, "
                                                "seat S, time S, iterations N, worlds N, "
                                                "nodes N, bot ismcts|pimc)"))
REVIEW_NUMBER = phrase("engine_review_number", N_("{key} is a number, got {got}"))
REVIEW_BOT = phrase("engine_review_bot", N_("bot is ismcts or pimc, got {got}"))
BELIEFS_USAGE = phrase("engine_beliefs_usage", N_("beliefs: expected nothing or worlds N"))

#: option name -> (type, default, min, max or choices, what it does)
OPTIONS: dict[str, tuple[str, Any, Any, Any, str]] = {
    "trees": ("spin", DEFAULT_TREES, 1, 64,
              "independent ISMCTS trees of a search (the answer for a seed depends on it, "
              "the same default on every machine)"),
    "threads": ("spin", 0, 0, 64,
                "threads that grow the trees (0: one a tree, at most one a core; the answer "
                "does not depend on it)"),
    "tt_mb": ("spin", 64, 1, 16384, "transposition table of the double-dummy solver (MiB)"),
    "bot": ("combo", "ismcts", ("ismcts", "pimc"), None, "the search of go"),
    "seed": ("spin", 0, 0, 2**63 - 1, "search seed: the same seed, position and limit "
             "(iterations or worlds) give the same answer"),
    "nodes": ("spin", 0, 0, 10**12,
              "the bound of an exact solve (a position the view determines; one PIMC "
              "world); 0: the decision service's default"),
    "policy": ("combo", "rules", ("rules", "random"), None, "evaluate: play-out policy"),
    "prior": ("combo", "default", ("default", "rules", "learned", "none"), None,
              "go's ISMCTS tree prior: the rules bot's move favoured, the game's learned "
              "policy at every card node, or none (default: the game's)"),
    "leaf": ("combo", "default", ("default", "value", "playout"), None,
             "how go's ISMCTS play-outs end: the game's learned value after a few tricks, "
             "or the deal's end (default: the game's)"),
    "inference": ("combo", "default", ("default", "on", "off"), None,
                  "weigh the worlds of go and evaluate by what the other seats chose (the "
                  "beliefs; default: the game's)"),
}


class Engine:
    """The engine's side of the protocol, its read-answer loop (``run``):
    the options, the current position, and the search running on its
    worker thread (at most one).  The program's side, which starts an
    engine and talks to it, is ``bots.engine_client.EngineClient``."""

    def __init__(self, out=None, err=None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.options: dict[str, Any] = {k: v[1] for k, v in OPTIONS.items()}
        self.position = None          # a solver.position.Record or SeatView
        self.worker: threading.Thread | None = None
        self.stop_event = threading.Event()
        self.write_lock = threading.Lock()
        #: a search is under way (cleared just before its final line, so a
        #: command sent after that line never finds the engine busy)
        self.active = False

    # ---- output -------------------------------------------------------------

    def send(self, line: str) -> None:
        with self.write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, where: str, reason: str) -> None:
        reason = " ".join(str(reason).split())
        if len(reason) > 500:
            reason = reason[:497] + "..."
        self.send(f"error {where}: {reason}")

    # ---- the loop -----------------------------------------------------------

    def run(self, stream=None) -> int:
        """Read commands until ``quit`` or the end of the input.  ``stream``
        gives bytes (default: standard input's) or text lines."""
        stream = stream or sys.stdin.buffer
        self._lines = 0
        pending = None
        while True:
            line, pending = (pending, None) if pending is not None else \
                (self._read_line(stream), None)
            if line is None:
                break
            if line is _SKIP:
                continue
            command = line.strip()
            stack = _document_start(command)
            if stack:
                command, pending = self._read_document(stream, command, stack)
                if command is None:
                    break
                if command is _SKIP:
                    continue
            if not self.handle(command):
                break
        self.shutdown()
        return 0

    def _read_line(self, stream, where="input"):
        """The next line as text; None at the end of the input; ``_SKIP``
        for a line refused here (too long, not UTF-8: one error line each,
        and only that line is lost)."""
        raw = stream.readline(MAX_LINE)
        if not raw:
            return None
        self._lines += 1
        newline = b"\n" if isinstance(raw, bytes) else "\n"
        if len(raw) >= MAX_LINE and not raw.endswith(newline):
            # drain the rest of an over-long line, then refuse it
            while raw and not raw.endswith(newline):
                raw = stream.readline(MAX_LINE)
            self.error(where, f"line {self._lines}: over {MAX_LINE:,} characters")
            return _SKIP
        if isinstance(raw, bytes):
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.error(where, f"line {self._lines} is not UTF-8 text (byte "
                                  f"{exc.start + 1}); the line is ignored")
                return _SKIP
        return raw

    def _read_document(self, stream, first: str, stack: str):
        """``position`` followed by JSON that spans lines (a position file's
        pretty-printed JSON): the following lines until its brackets close
        (outside strings), as one command.  Returns ``(command, pending)``:
        ``pending`` a line to handle next.  A line that starts with a
        command's name, a blank line, a line that is not text or the end of
        the input ends the document early with one error (the command
        still runs); the command is then ``_SKIP``, or None at the end of
        the input."""
        parts, total = [first], len(first)
        while stack:
            line = self._read_line(stream, "position")
            if line is None:
                self.error("position", "the input ended inside the position's JSON")
                return None, None
            if line is _SKIP:
                return self._skip_document(stream, stack), None
            words = line.split(None, 1)
            if not words:
                self.error("position", f"line {self._lines}: a blank line inside the "
                                       f"position's JSON (its brackets are not closed)")
                return _SKIP, None
            if words[0] in COMMANDS:
                self.error("position", f"line {self._lines} is the command {words[0]!r}, "
                                       f"but the position's JSON is not closed")
                return _SKIP, line
            total += len(line)
            if total > MAX_LINE:
                self.error("position", f"a position over {MAX_LINE:,} characters")
                return self._skip_document(stream, stack), None
            stack = _brackets(line, stack)
            parts.append(line.rstrip("\r\n"))
        return "\n".join(parts), None

    def _skip_document(self, stream, stack):
        """The rest of a refused multi-line position, read and dropped (so
        its lines are not taken for commands) up to its closing bracket, a
        blank line or a command."""
        while stack:
            raw = stream.readline(MAX_LINE)
            if not raw:
                return None
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            if not text.strip() or text.split()[0] in COMMANDS:
                break
            stack = _brackets(text, stack)
        return _SKIP

    def handle(self, line: str) -> bool:
        """One command; False for ``quit``."""
        if not line:
            return True
        verb, _, rest = line.partition(" ")
        rest = rest.strip()
        handler = COMMANDS.get(verb)
        if handler is None:
            self.error(short_repr(verb, 30).strip("'"),
                       f"unknown command (known: {', '.join(COMMANDS)})")
            return True
        try:
            return handler(self, rest) is not False
        except DixtrixError as exc:
            self.error(*_where(exc, verb))
        except Exception as exc:          # a bug: say it, keep serving
            print(f"dixtrix engine: internal error: {exc!r}", file=self.err)
            self.error(verb, f"internal error ({type(exc).__name__})")
        return True

    def shutdown(self) -> None:
        self.stop_event.set()
        if self.worker is not None:
            self.worker.join(timeout=5)

    def busy(self) -> bool:
        return self.active

    def start(self, target, *args) -> None:
        if self.busy():
            raise OptionError(SEARCH_RUNNING())
        if self.worker is not None:
            self.worker.join()                # past its final line: ending now
        self.active = True
        self.stop_event = threading.Event()
        self.worker = threading.Thread(target=self._guard, args=(target, *args), daemon=True)
        self.worker.start()

    def _guard(self, target, *args):
        try:
            target(*args)
        except DixtrixError as exc:
            self.active = False
            self.error(*_where(exc, target.__name__.lstrip("_")))
        except Exception as exc:          # a bug: say it, keep serving
            self.active = False
            print(f"dixtrix engine: internal error: {exc!r}", file=self.err)
            self.error(target.__name__.lstrip("_"), f"internal error ({type(exc).__name__})")
        finally:
            self.active = False

    def final(self, *lines: str) -> None:
        """The last lines of a search: the engine is free once they are out."""
        with self.write_lock:
            self.active = False
            for line in lines:
                self.out.write(line + "\n")
            self.out.flush()

    # ---- commands -----------------------------------------------------------

    def cmd_hello(self, rest):
        self.send(f"id name {NAME}")
        self.send(f"id version {solver.__version__}")
        for name, (kind, default, lo, hi, _doc) in OPTIONS.items():
            if kind == "spin":
                self.send(f"option name {name} type spin default {default} min {lo} max {hi}")
            else:
                self.send(f"option name {name} type combo default {default} "
                          + " ".join(f"var {v}" for v in lo))
        self.send("ok")

    def cmd_isready(self, rest):
        self.send("readyok")

    def cmd_setoption(self, rest):
        words = rest.split()
        if len(words) != 4 or words[0] != "name" or words[2] != "value":
            raise OptionError(SETOPTION_USAGE())
        name, value = words[1].lower(), words[3]
        if name not in OPTIONS:
            raise OptionError(UNKNOWN_OPTION(got=Quote(name), known=list(OPTIONS)))
        kind, _, lo, hi, _ = OPTIONS[name]
        if kind == "spin":
            if not value.lstrip("-").isdigit() or len(value) > 20:
                raise OptionError(OPTION_INT(name=name, low=lo, high=hi, got=Quote(value)))
            v = int(value)
            if not lo <= v <= hi:
                raise OptionError(OPTION_INT(name=name, low=lo, high=hi, got=v))
            if name == "tt_mb":
                check_tt_mb(v)
        else:
            if value not in lo:
                raise OptionError(OPTION_CHOICE(name=name, choices=list(lo), got=Quote(value)))
            v = value
        if self.busy():
            raise OptionError(BUSY_OPTIONS())
        self.options[name] = v

    def cmd_newgame(self, rest):
        if self.busy():
            raise OptionError(SEARCH_RUNNING())
        self.position = None

    def cmd_position(self, rest):
        if not rest:
            raise PositionError(POSITION_USAGE())
        if self.busy():
            raise OptionError(SEARCH_RUNNING())
        # validated; the state is unchanged on error.  A finished game is
        # kept for review; go, solve and evaluate refuse it
        self.position = solver.from_json(rest)

    def _need_position(self, live: bool = True):
        if self.position is None:
            raise PositionError(NO_POSITION())
        if live and isinstance(self.position, solver.position.Record) and \
                self.position.state().is_terminal():
            raise PositionError(GAME_OVER())
        return self.position

    def cmd_go(self, rest):
        pos = self._need_position()
        words = rest.split()
        bot, infinite, limit_words = self.options["bot"], False, []
        i = 0
        while i < len(words):
            w = words[i]
            if w == "infinite":
                infinite = True
                i += 1
            elif w == "bot":
                if i + 1 >= len(words) or words[i + 1] not in BOTS:
                    raise OptionError(GO_BOT(got=Quote(" ".join(words[i + 1:i + 2]))))
                bot = words[i + 1]
                i += 2
            else:
                limit_words += words[i:i + 2]
                i += 2
        if infinite:
            if limit_words:
                raise LimitError(GO_INFINITE())
            limit = Limit(time=INFINITE_SECONDS)
        elif limit_words:
            limit = Limit.from_words(limit_words, "go")
            if "time" in limit_words[::2] and limit.time is not None \
                    and limit.time >= LONG_TIME_SECONDS:
                # UCI's habit is milliseconds: say what was understood
                self.send(f"info string go time is in seconds: this search may run "
                          f"{limit.time:g} s ({limit.time / 60:.1f} min); go movetime "
                          f"{limit.time:g} would be {limit.time / 1000:g} s")
        else:
            limit = Limit(time=DEFAULT_LIMIT_SECONDS)
        self.start(self._search, pos, limit, bot)

    def _search(self, pos, limit, bot):
        last = [0.0]

        def progress(info):
            now = _time.perf_counter()
            if now - last[0] < 0.1:
                return
            last[0] = now
            value = info.get("value")
            val = f" value {value:.4f}" if isinstance(value, (int, float)) and \
                math.isfinite(value) else ""
            best = f" best {action_word(info['best'])}" if info.get("best") else ""
            self.send(f"info iterations {info.get('iterations', 0)} nodes "
                      f"{info.get('nodes', 0)} seconds {info.get('seconds', 0.0):.3f}"
                      f"{best}{val}")

        if limit.nodes is None and self.options["nodes"]:
            limit = Limit(limit.time, limit.iterations, limit.worlds, self.options["nodes"])
        res = best_move(pos, limit, bot=bot, seed=self.options["seed"], progress=progress,
                        stop=self.stop_event, settings=self._settings(bot))
        value = res.values.get(res.action, 0.0)
        # the search's leader by visits (the progress lines' best) need not be
        # the advice (its rule among equal actions): the last info line names
        # the move bestmove plays, so no client reads two answers
        self.final(f"info iterations {res.iterations} nodes {res.nodes} seconds "
                   f"{res.time:.3f} best {action_word(res.action)} value {value:.4f}",
                   "result " + json.dumps(json_finite(asdict(res)), separators=(",", ":")),
                   f"bestmove {action_word(res.action)} value {value:.4f}")

    def _inference(self) -> bool | None:
        """The ``inference`` option as the decision service takes it."""
        return {"on": True, "off": False}.get(self.options["inference"])

    def _settings(self, bot: str) -> SearchSettings:
        """The options as the decision service's settings (``default``: the
        service's own; the leaf option is ISMCTS's, PIMC keeps its own)."""
        o = self.options
        return SearchSettings(**self._trees(), inference=self._inference(),
                              prior=None if o["prior"] == "default" else o["prior"],
                              leaf=None if o["leaf"] == "default" or bot != "ismcts"
                              else o["leaf"])

    def _trees(self) -> dict[str, Any]:
        """The ``trees`` and ``threads`` options as the decision service
        takes them (``threads`` 0: its default)."""
        return {"trees": self.options["trees"], "threads": self.options["threads"] or None}

    def cmd_stop(self, rest):
        self.stop_event.set()

    def cmd_solve(self, rest):
        pos = self._need_position()
        if isinstance(pos, solver.position.SeatView):
            raise PositionError(SOLVE_VIEW())
        self.start(self._solve, pos)

    def _solve(self, pos):
        # the values in the game's deal-result unit, the best actions of the
        # same values (bots/exact.py): what dixtrix solve and the hint show
        try:
            doc = solve_doc(pos.state(), plies=0, max_nodes=QUICK_SOLVE_NODES,
                            tt_mb=self.options["tt_mb"])
        except SearchAborted:
            doc = self._solve_in_child(pos)
            if doc is None:
                self.final("error solve: stopped before the exact values were found (an "
                           "exact solve has no best-so-far answer)")
                return
        doc.pop("line", None)
        self.final("solution " + json.dumps(doc, separators=(",", ":")),
                   f"bestmove {action_word(doc['best_actions'][0])} value {doc['value']}")

    def _solve_in_child(self, pos):
        """The solution doc of ``pos`` solved in a child process, or None
        when ``stop`` (or ``quit``) ended it first: the child is killed."""
        request = json.dumps({"position": pos.to_json(), "tt_mb": self.options["tt_mb"]})
        # the engine's pid is passed down, so the child watches this process
        # even if it dies before the child has started
        child = subprocess.Popen([sys.executable, "-c", "from bots.engine import solve_child; "
                                  f"solve_child({os.getpid()})"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        answer = []
        talk = threading.Thread(target=lambda: answer.append(
            child.communicate(request.encode("utf-8"))), daemon=True)
        talk.start()
        while talk.is_alive():
            if self.stop_event.wait(SOLVE_POLL_SECONDS):
                child.kill()
                talk.join()
                return None
        out, err = answer[0]
        try:
            reply = json.loads(out)
        except ValueError:
            print(err.decode("utf-8", "replace"), file=self.err, end="")
            raise RuntimeError(f"the solving child process exited with status "
                               f"{child.returncode} and no answer") from None
        if "error" in reply:
            # the child's error with its code where it has one (solve_child)
            said = reply.get("said")
            raise DixtrixError(Said.from_json(said) if said else reply["error"])
        return reply["solution"]

    def cmd_evaluate(self, rest):
        pos = self._need_position()
        words = rest.split()
        kw: dict[str, Any] = {}
        if len(words) % 2 or any(w not in ("time", "worlds") for w in words[::2]):
            raise LimitError(EVALUATE_USAGE())
        for w, value in zip(words[::2], words[1::2], strict=True):
            try:
                kw[w] = float(value) if w == "time" else int(value)
            except ValueError:
                raise LimitError(EVALUATE_BAD(key=w, got=Quote(value))) from None
        self.start(self._evaluate, pos, Limit(**kw) if kw else Limit(worlds=200))

    def _evaluate(self, pos, limit):
        ev = evaluate(pos, limit, policy=self.options["policy"], seed=self.options["seed"],
                      stop=self.stop_event, inference=self._inference())
        self.final("evaluation " + json.dumps(json_finite(asdict(ev)), separators=(",", ":")))

    def cmd_review(self, rest):
        pos = self._need_position(live=False)
        words = rest.split()
        if len(words) % 2:
            raise OptionError(REVIEW_PAIRS())
        kw: dict = {"bot": self.options["bot"]}
        limit_words = []
        for key, value in zip(words[::2], words[1::2], strict=True):
            if key in ("deal", "seat"):
                if not value.isdigit() or len(value) > 9:
                    raise OptionError(REVIEW_NUMBER(key=key, got=Quote(value)))
                kw[key] = int(value)
            elif key == "bot":
                if value not in BOTS:
                    raise OptionError(REVIEW_BOT(got=Quote(value)))
                kw["bot"] = value
            else:
                limit_words += [key, value]
        nodes = DEFAULT_NODES
        if set(limit_words[::2]) <= {"nodes"}:
            limit_words += ["time", str(DEFAULT_SECONDS)]     # nodes alone: the default time
        limit = Limit.from_words(limit_words, "review")
        if limit.nodes is not None:
            # nodes bounds the exact solves: the service's (a position the view
            # determines) and the hindsight solves of the true deal
            nodes = limit.nodes
        self.start(self._review, pos, limit, nodes, kw)

    def _review(self, pos, limit, nodes, kw):
        last = [0.0]

        def progress(info):
            now = _time.perf_counter()
            if now - last[0] < 0.1 and info["done"] < info["total"]:
                return
            last[0] = now
            self.send(f"info review {info['done']} of {info['total']} {info['what']}")

        doc = review(pos, limit=limit, seed=self.options["seed"],
                     **self._trees(), nodes=nodes, progress=progress,
                     stop=self.stop_event, **kw)
        self.final("review " + json.dumps(json_finite(doc), separators=(",", ":")))

    def cmd_beliefs(self, rest):
        pos = self._need_position()
        words = rest.split()
        if words and (len(words) != 2 or words[0] != "worlds"):
            raise LimitError(BELIEFS_USAGE())
        limit = Limit.from_words(words, "beliefs") if words else None
        if self.busy():
            raise OptionError(SEARCH_RUNNING())
        rep = beliefs(pos, limit, seed=self.options["seed"],
                      inference=self.options["inference"] != "off")
        self.send("beliefs " + json.dumps(json_finite(rep.to_json()), separators=(",", ":")))

    def cmd_quit(self, rest):
        return False


COMMANDS = {"dixtrix": Engine.cmd_hello, "isready": Engine.cmd_isready,
            "setoption": Engine.cmd_setoption, "newgame": Engine.cmd_newgame,
            "position": Engine.cmd_position, "go": Engine.cmd_go, "stop": Engine.cmd_stop,
            "solve": Engine.cmd_solve, "evaluate": Engine.cmd_evaluate,
            "review": Engine.cmd_review, "beliefs": Engine.cmd_beliefs,
            "quit": Engine.cmd_quit}


def solve_child(engine_pid: int | None = None) -> None:
    """The child process of a long ``solve``: one request on standard
    input (``{"position": ..., "tt_mb": ...}``), one answer on standard
    output (``{"solution": ...}`` or ``{"error": "<where>: <reason>"}``,
    with ``"said"``, the error's phrase as ``Said.to_json`` writes it,
    where it has one and names no place in the input).
    It exits when the engine that started it (``engine_pid``) is gone."""
    exit_with_parent(engine_pid)
    request = json.loads(sys.stdin.buffer.read())
    try:
        doc = solve_doc(record_from_json(request["position"]).state(), plies=0,
                        tt_mb=request["tt_mb"])
        doc.pop("line", None)
        reply: dict[str, Any] = {"solution": doc}
    except DixtrixError as exc:
        reply = {"error": str(exc)}
        if exc.said is not None and not exc.where:
            reply["said"] = exc.said.to_json()
    try:
        line = json.dumps(reply)
    except (TypeError, ValueError):     # a quoted value JSON cannot hold: the English alone
        reply.pop("said", None)
        line = json.dumps(reply)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


#: a line the reader refused (it said why) and the loop skips
_SKIP = object()


def _brackets(text: str, stack: str = "") -> str:
    """The JSON brackets (``{`` ``[``) still open after ``text``, given
    ``stack`` open before it; "" once the outermost one closes (the rest
    of the line is the parser's to judge).  Brackets inside strings do not
    count; JSON strings never span lines."""
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack += ch
        elif ch in "}]":
            stack = stack[:-1]
            if not stack:
                return ""
    return stack


def _document_start(command: str) -> str:
    """For ``position`` whose JSON opens on this line and continues on the
    next ones, the brackets left open; else "".  The line must be a valid
    start of a JSON document (it parses once its brackets are closed), so
    a plain malformed position is refused at once rather than taken for
    the start of a longer one."""
    verb, _, body = command.partition(" ")
    body = body.strip()
    if verb != "position" or body[:1] not in ("{", "["):
        return ""
    stack = _brackets(body)
    if not stack or len(stack) > MAX_DEPTH:
        # nested past what a position may be: not the start of a longer
        # one (``position`` refuses the line itself, naming the depth)
        return ""
    closed = body.rstrip().removesuffix(",") + "".join(
        "}" if b == "{" else "]" for b in reversed(stack))
    try:
        json.loads(closed)
    except (ValueError, RecursionError):
        return ""
    return stack


def action_word(action: str) -> str:
    """An action as one word of an answer line: as it is, or in double
    quotes when it has a space (``"contract trix"``, ``"bid 70"``), so a
    client that splits lines as a shell does (Python's ``shlex.split``)
    reads it back whole."""
    return json.dumps(action) if any(c.isspace() for c in action) else action


def _where(exc: DixtrixError, verb: str) -> tuple[str, str]:
    """``(where, reason)`` of an error line: the JSON path or field the
    error names (else the command), and the reason without that path
    repeated."""
    path = getattr(exc, "path", None)
    reason = str(exc)
    if path and reason.startswith(f"{path}: "):
        reason = reason[len(path) + 2:]
    return path or verb, reason


def main() -> int:
    """``dixtrix engine``: serve the protocol on stdin/stdout."""
    # bytes, decoded a line at a time: a line that is not UTF-8 costs only
    # itself (a text stream fails on the whole buffer it decodes at once)
    stdin = open(sys.stdin.fileno(), "rb", closefd=False)
    try:
        return Engine().run(stdin)
    except KeyboardInterrupt:
        return 130


def default_command() -> list[str]:
    """The command that starts this package's engine."""
    return [sys.executable, "-m", "bots.cli", "engine"]


def split_command(cmd) -> list[str]:
    if cmd is None:
        return default_command()
    if isinstance(cmd, str):
        return shlex.split(cmd)
    return list(cmd)


__all__ = ["Engine", "main", "COMMANDS", "OPTIONS", "default_command", "split_command"]
