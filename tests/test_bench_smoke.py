"""The benchmarks still run: each one's --quick mode, checked for figures, not speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_bench(name: str, tmp_path: Path) -> dict[str, object]:
    out = tmp_path / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", "--quick", "--json", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    data: dict[str, object] = json.loads(out.read_text())
    assert data["benchmark"] == name
    return data


@pytest.mark.parametrize("name", ["engines", "render", "storage"])
def test_benchmark_runs_and_reports_figures(name: str, tmp_path: Path) -> None:
    results = run_bench(name, tmp_path)["results"]
    assert isinstance(results, list) and results
    figures = json.dumps(results)
    expected = {
        "engines": "playouts_per_second",
        "render": "png_bytes",
        "storage": "memory_usage_bytes",
    }[name]
    assert expected in figures
