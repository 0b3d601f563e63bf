"""The Compose files start what the README says: bots that wait for a healthy Redis and
report their own health, and, scaled out, every shard served exactly once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILES = ["docker-compose.yml", "docker-compose.scale.yml"]


def services(name: str) -> dict[str, dict[str, Any]]:
    compose = yaml.safe_load((ROOT / name).read_text())
    found: dict[str, dict[str, Any]] = compose["services"]
    return found


def bots(name: str) -> dict[str, dict[str, Any]]:
    return {key: service for key, service in services(name).items() if "build" in service}


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_bot_waits_for_a_healthy_redis_and_has_a_healthcheck(name: str) -> None:
    assert bots(name)
    for service in bots(name).values():
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "/healthz" in " ".join(service["healthcheck"]["test"])
        assert service["environment"]["METRICS_PORT"] in service["healthcheck"]["test"][-1]
    assert "healthcheck" in services(name)["redis"]


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_bots_settings_are_valid(name: str) -> None:
    for service in bots(name).values():
        Settings.model_validate({k.lower(): v for k, v in service["environment"].items()})


def test_the_scaled_out_bots_serve_every_shard_exactly_once() -> None:
    served: list[int] = []
    counts = set()
    for service in bots("docker-compose.scale.yml").values():
        settings = Settings.model_validate(
            {k.lower(): v for k, v in service["environment"].items()}
        )
        assert settings.shard_ids is not None
        served += settings.shard_ids
        counts.add(settings.shard_count)
    assert counts == {2}
    assert sorted(served) == [0, 1]
