"""Speed and memory benchmarks (see docs/architecture.md: figures come from here, never from tests).

Each module runs as ``python -m bench.<name>``, prints a table with the targets beside
the figures, and with ``--json PATH`` also writes them as JSON. ``--quick`` makes a
smoke run of a few seconds.

- `bench.engines`: random playouts per second per engine (every `bot/engines/<name>.py`
  exposing ``ENGINE``) and player count, and the peer implementation on PyPI
  (``no-thanks``) for Geschenkt.
- `bench.render`: milliseconds and PNG bytes per table image.
- `bench.storage`: Redis bytes per stored game and for 1,000 live games, and the bot
  process's memory with 1,000 live games.
- `bench.interactions`: click -> callback latency at 1, 50 and 200 concurrent games
  against the local fake Discord, beside a null bot.
"""
