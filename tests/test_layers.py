"""The import contract of docs/architecture.md holds, and it can fail: `lint-imports`
passes on the bot and refuses a copy with one upward import planted; and no runtime
import cycle is left in `bot/`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on the ``bot`` package under ``root``, with the repository's contracts."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_bot_keeps_its_import_contracts() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted"),
    [
        ("engines/base.py", "import bot.storage.keys"),  # an engine reaching up
        ("storage/keys.py", "import bot.cogs.verbs"),  # storage reaching into Discord
        ("engines/cards.py", "import redis"),  # an engine touching Redis
    ],
)
def test_a_planted_upward_import_breaks_a_contract(
    tmp_path: Path, module: str, planted: str
) -> None:
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "bot" / module
    target.write_text(target.read_text() + f"\n{planted}  # planted by the test\n")

    result = lint_imports(tmp_path)

    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert planted.split()[-1] in result.stdout


def test_no_runtime_import_cycle_in_bot() -> None:
    graph = grimp.build_graph("bot", exclude_type_checking_imports=True, cache_dir=None)
    cycles = [
        (importer, imported)
        for importer in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(importer))
        if graph.chain_exists(importer=imported, imported=importer)
    ]
    assert cycles == []
