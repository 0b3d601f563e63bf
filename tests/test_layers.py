"""The import contract of docs/architecture.md holds, and it can fail: `lint-imports`
passes on the bot and refuses a copy with one upward import planted; and no runtime
import cycle is left in `bot/`."""

from __future__ import annotations

import ast
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
        ("storage/keys.py", "import bot.play.verbs"),  # storage reaching into Discord
        ("engines/cards.py", "import redis"),  # an engine touching Redis
        ("play/verbs.py", "import redis"),  # Redis outside bot.storage
        ("play/history.py", "import bot.engines.draughts"),  # a generic module naming a game
        ("render/cards.py", "import discord"),  # a render worker loading Discord
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


GENERIC_DISCORD_MODULES = [
    *sorted((ROOT / "bot" / "play").glob("*.py")),
    ROOT / "bot" / "adapters" / "base.py",
    ROOT / "bot" / "adapters" / "spec.py",
    ROOT / "bot" / "bot.py",
]


def test_no_generic_discord_module_branches_on_a_game_name() -> None:
    """What import-linter can't see: a generic module comparing with a game's name
    (as `play/history.py` once did for draughts' download) instead of asking the
    game's adapter."""
    from bot.games import GAMES

    names = {spec.name for spec in GAMES}
    found = [
        f"{path.name}:{node.lineno} {node.value!r}"
        for path in GENERIC_DISCORD_MODULES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in names
    ]
    assert found == []
