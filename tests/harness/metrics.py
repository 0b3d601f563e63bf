"""Reading a bot process's Prometheus ``/metrics`` in tests."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families


async def metric_sample(http: aiohttp.ClientSession, port: int, name: str, **labels: str) -> float:
    """One sample of the bot's /metrics (0 when that series isn't there yet); the page
    itself must be served as Prometheus text."""
    async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and all(found.labels.get(k) == v for k, v in labels.items()):
                return float(found.value)
    return 0.0
