"""The README's set-up, verbatim: `cp .env.example .env`, fill in `DISCORD_TOKEN`,
`python -m bot`. The settings must accept the copied file as it is (its empty lines
mean "not set"), and so must Docker Compose's services, which read the same file."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from tests.harness.fixtures import REPO_ROOT
from tests.ops.processes import MARKER, none_left
from tests.ops.test_deploy_files import COMPOSE_FILES, bots

SETTING_NAMES = {name.upper() for name in Settings.model_fields}


def example_values() -> dict[str, str]:
    """The ``NAME=value`` lines of `.env.example`, as Compose's ``env_file`` reads them."""
    values: dict[str, str] = {}
    for line in (REPO_ROOT / ".env.example").read_text().splitlines():
        if match := re.fullmatch(r"([A-Z_]+)=(.*)", line.strip()):
            values[match[1]] = match[2]
    return values


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_example_names_only_real_settings() -> None:
    assert set(example_values()) <= SETTING_NAMES
    assert "DISCORD_TOKEN" in example_values()


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_compose_services_accept_the_copied_example(name: str) -> None:
    for service in bots(name).values():
        merged = {**example_values(), "DISCORD_TOKEN": "a-token", **service["environment"]}
        settings = Settings.model_validate({k.lower(): v for k, v in merged.items()})
        assert settings.discord_token is not None
        assert settings.redis_url == service["environment"]["REDIS_URL"]


async def test_the_copied_example_with_a_token_gets_past_the_settings(tmp_path: Path) -> None:
    """Run in a fresh folder holding only the copied `.env`, with the token filled in,
    the bot goes past its settings and stops where it first needs Discord, which here
    is a local port nobody listens on (nothing leaves this machine)."""
    shutil.copy(REPO_ROOT / ".env.example", tmp_path / ".env")
    env_file = tmp_path / ".env"
    env_file.write_text(
        env_file.read_text().replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=a-token\n", 1)
    )
    assert "DISCORD_TOKEN=a-token" in env_file.read_text()
    api = f"http://127.0.0.1:{closed_port()}/api/v10"
    run = {MARKER: secrets.token_hex(8), "DATA_DIR": str(tmp_path / "data")}
    env = {key: value for key, value in os.environ.items() if key not in SETTING_NAMES}
    env.update(DISCORD_API_BASE_URL=api, NO_PROXY="127.0.0.1", **{MARKER: run[MARKER]})

    exited = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )

    lines = (exited.stdout + exited.stderr).strip().splitlines()
    assert exited.returncode == 3, lines
    assert lines[-1].startswith(f"Discord can't be reached at {api}")
    assert not any(line.startswith("Invalid setting") for line in lines)
    assert (tmp_path / "data").is_dir()  # the embedded Redis ran where `.env` says
    assert await none_left(run) == {}
