"""A process that has imported the bot once and forks a fresh bot for each test.

Starting ``python -m bot`` costs about 1.4 s of CPU, almost all of it importing
discord.py, pydantic models and the games; the e2e suite starts the bot a couple of
hundred times on a 2-core machine. The zygote pays that once per test worker: a test's
bot is a `fork` of it that sets the test's environment, sends its output to the test's
log file and runs ``bot.__main__`` as ``python -m bot`` would (`runpy`, so the module
runs as ``__main__`` and its worker pools spawn exactly as they do in production).

The zygote has no threads and no event loop when it forks, so the child starts as
clean as a new interpreter with the imports already done (`random` reseeds itself
after a fork). Tests of the real start-up (``tests/ops``) still run ``python -m bot``.

Protocol, one JSON object per line: the harness writes ``{"module", "env", "cwd",
"log"}``; the zygote answers ``{"started": pid}``, and later ``{"exited": pid,
"code": c}`` with ``c`` as `subprocess` reports it (minus the signal that killed it).

    python -u -m tests.harness.zygote
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import json
import os
import queue
import runpy
import select
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, NoReturn

PRELOADED = ("bot.__main__",)
"""What every forked bot finds imported."""
REAP_SECONDS = 0.02
"""How often the zygote looks for children that ended while no request came."""


def run_child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: become ``python -m <module>`` with the request's setting."""
    code = 1
    try:
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        code = run_module(request["module"])
    finally:
        os._exit(code)


def run_module(module: str) -> int:
    """``module`` as ``__main__``; its exit code, after the exit handlers ran."""
    code = 0
    # A package's __main__ was imported in the zygote only for what it imports; it runs
    # afresh as __main__ (runpy warns when it finds it imported already).
    sys.modules.pop(f"{module}.__main__", None)
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = exit_code(stop.code)
    except BaseException:
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def exit_code(value: object) -> int:
    """`SystemExit`'s code as the interpreter turns it into a process's exit status."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    print(value, file=sys.stderr)
    return 1


def returncode(status: int) -> int:
    """A `waitpid` status as `subprocess` reports it: the exit code, or minus the signal."""
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def say(message: dict[str, int]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def reap(children: set[int]) -> None:
    """Report every child that has ended."""
    for pid in list(children):
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            children.discard(pid)
            say({"exited": pid, "code": returncode(status)})


def serve() -> None:
    """Fork a bot per request until the harness closes the pipe, then end the rest."""
    for module in PRELOADED:
        importlib.import_module(module)
    children: set[int] = set()
    pending = b""
    while True:
        readable, _, _ = select.select([0], [], [], REAP_SECONDS)
        if readable:
            chunk = os.read(0, 65536)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    run_child(request)
                children.add(pid)
                say({"started": pid})
        reap(children)
    for pid in children:
        os.kill(pid, signal.SIGKILL)


class ForkedBot:
    """A bot forked by the `Zygote`: what the harness uses of `asyncio.subprocess.Process`."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid

    @property
    def returncode(self) -> int | None:
        return self._zygote.exits.get(self.pid)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    async def wait(self) -> int:
        while (code := self.returncode) is None:
            await asyncio.sleep(REAP_SECONDS)
        return code


class Zygote:
    """The harness's end: one zygote per test process, started on first use."""

    def __init__(self) -> None:
        self.exits: dict[int, int] = {}
        self._started: queue.Queue[int] = queue.Queue()
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def launch(self, module: str, env: dict[str, str], cwd: Path, log: Path) -> ForkedBot:
        """Fork ``python -m module`` with this environment, its output appended to ``log``."""
        with self._lock:
            process = self._running()
            assert process.stdin is not None
            request = {"module": module, "env": env, "cwd": str(cwd), "log": str(log)}
            process.stdin.write((json.dumps(request) + "\n").encode())
            process.stdin.flush()
            return ForkedBot(self, self._started.get(timeout=30))

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait(timeout=10)
            self._process = None

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, "-u", "-m", "tests.harness.zygote"],
                cwd=Path(__file__).resolve().parents[2],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            threading.Thread(
                target=self._listen, args=(self._process,), name="zygote", daemon=True
            ).start()
        return self._process

    def _listen(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            message = json.loads(line)
            if "started" in message:
                self._started.put(message["started"])
            else:
                self.exits[message["exited"]] = message["code"]


if __name__ == "__main__":
    serve()
