"""Running the bot for operations tests, and finding every process it started.

Each run carries a unique ``TABLEBOT_TEST_RUN`` variable that the bot's children
(render workers) inherit, and its own ``DATA_DIR``, the working directory of its
embedded redis-server (which overwrites its copy of the environment with its process
title). So the processes of one run are found by id in ``/proc``, whoever their
parent is by then."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.harness.fixtures import REPO_ROOT

MARKER = "TABLEBOT_TEST_RUN"


def embedded_run(data_dir: Path) -> dict[str, str]:
    """Settings for a bot with its own embedded Redis (data in ``data_dir``), marked."""
    return {"REDIS_URL": "", "DATA_DIR": str(data_dir), MARKER: secrets.token_hex(8)}


def processes_of(run: Mapping[str, str]) -> dict[int, str]:
    """pid -> command line of every live process of this run: started with its marker,
    or working in its data directory."""
    wanted = f"{MARKER}={run[MARKER]}".encode()
    data_dir = Path(run["DATA_DIR"]).resolve()
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            cwd = (entry / "cwd").resolve()
        except OSError:
            continue
        if wanted in environ or cwd == data_dir:
            found[int(entry.name)] = command.decode(errors="replace").strip()
    return found


def redis_servers(processes: Mapping[int, str]) -> list[int]:
    return [pid for pid, command in processes.items() if "redis-server" in command]


async def none_left(run: Mapping[str, str], timeout: float = 5.0) -> dict[int, str]:
    """Wait (at most ``timeout``) until no process of the run is left; what is left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (left := processes_of(run)) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return left


@dataclass
class Exited:
    code: int
    output: str

    @property
    def lines(self) -> list[str]:
        return self.output.strip().splitlines()


async def run_to_exit(env: Mapping[str, str], timeout: float = 60.0) -> Exited:
    """``python -m bot`` with ``env`` until it exits by itself (a failed start)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=REPO_ROOT,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return Exited(process.returncode, output.decode(errors="replace"))
