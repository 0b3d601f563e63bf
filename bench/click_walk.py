"""The path of one click through the bot's modules, measured by running it.

Starts Redis, the fake Discord and the bot (through `bench.click_walk_inside`, which
records every call from one ``bot.*`` module into another), gets a three-person
Geschenkt game going with every private panel open, and then times one steady-state
move ("No thanks" by the player to act) until Discord is idle again: the answer, the
table's redraw, the panels refreshed. The calls made in that window are the walk.

It prints the modules in the order the click enters them, how many distinct modules
it enters, and the revisits: calls back up into a module that is still waiting below
on the stack (A calls B, and B, or something B called, calls A again). A path without
revisits goes one way down and comes back by returning. Modules anyone may use
(`bot.i18n`, `bot.names`, `bot.texts`, `bot.metrics`, `bot.logs`, `bot.pacing`,
`bot.workers`, `bot.config`) are left out: they are helpers, not steps of the path.

    python -m bench.click_walk [--repo DIR] [--json PATH]

``--repo DIR`` walks the bot of another checkout (an older commit, say) with this
bench, so two walks can be compared.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import ENGLISH_SERVER, parser, print_machine, write_json
from bench.interactions import Clicker, play_geschenkt
from tests.harness.fake_discord import FakeDiscord
from tests.harness.fixtures import BotProcess, RedisServer, bot_env

HELPERS = (
    "bot.i18n",
    "bot.names",
    "bot.texts",
    "bot.metrics",
    "bot.logs",
    "bot.pacing",
    "bot.workers",
    "bot.config",
)
Call = tuple[float, str, str, str, bool]
PANEL_EDITS_DONE = 2.5
"""Seconds of a quiet fake Discord after which the click is over: the bot coalesces the
panels' edits for a second (`bot.play.panels.EDIT_DELAY_SECONDS`)."""


def on_the_path(module: str) -> bool:
    return module.startswith("bot.") and not module.startswith(HELPERS)


async def walk_one_click(workdir: Path, repo: str | None) -> list[Call]:
    """The calls between modules while one move is answered and shown."""
    redis = RedisServer(workdir / "redis")
    fake = FakeDiscord(guild_locale=ENGLISH_SERVER, channel_names=["table"], check_spec=False)
    await fake.start()
    calls_path = workdir / "calls.jsonl"
    # The resume after the start and the sweep for lost follow-ups don't come from a
    # click: the walk waits for the first and puts the second off.
    env = {"LOG_LEVEL": "INFO", "WALK_OUT": str(calls_path), "FOLLOWUP_SWEEP_SECONDS": "3600"}
    if repo:
        env["WALK_REPO"] = repo
    process = BotProcess(
        "bench.click_walk_inside",
        fake,
        bot_env(fake, redis.start(), env),
        workdir / "bot.log",
        expect_commands=True,
        ready_timeout=60.0,
    )
    try:
        await process.start()
        clicker = Clicker(fake, lambda: process.running)
        players = fake.users[:3]
        channel = fake.channel_ids[0]
        await play_geschenkt(clicker, channel, players, 1)
        await resumed(process)
        await fake.wait_idle(1.0, timeout=30.0)
        started = time.time()
        await play_geschenkt(clicker, channel, players, 1, moves_before=1)
        await fake.wait_idle(PANEL_EDITS_DONE, timeout=30.0)
        ended = time.time()
    finally:
        await process.stop()
        await fake.stop()
        redis.stop()
    calls = [read_call(line) for line in calls_path.read_text().splitlines()]
    return [call for call in calls if started <= call[0] <= ended]


async def resumed(process: BotProcess, timeout: float = 30.0) -> None:
    """Wait until the bot has looked at the stored games after its start (`TableBot`)."""
    deadline = time.monotonic() + timeout
    while "stored games after start" not in process.output():
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not resume its stored games")
        await asyncio.sleep(0.1)


def read_call(line: str) -> Call:
    when, caller, callee, function, back_up = json.loads(line)
    return float(when), str(caller), str(callee), str(function), bool(back_up)


def entries(calls: list[Call]) -> list[str]:
    """The modules on the path in the order the click enters them (a module calling
    itself again, or a helper in between, is not a new entry)."""
    entered: list[str] = []
    for _, _, callee, _, _ in calls:
        if on_the_path(callee) and (not entered or entered[-1] != callee):
            entered.append(callee)
    return entered


def revisits(calls: list[Call]) -> Counter[str]:
    """Calls back up into a module waiting below, as "caller > callee" with their count."""
    return Counter(
        f"{caller} > {callee}"
        for _, caller, callee, _, back_up in calls
        if back_up and on_the_path(caller) and on_the_path(callee)
    )


def summary(calls: list[Call]) -> dict[str, Any]:
    entered = entries(calls)
    return {
        "entered_in_order": entered,
        "modules": len(set(entered)),
        "hops": len(entered),
        "revisits": dict(revisits(calls).most_common()),
    }


def report(result: dict[str, Any]) -> None:
    print(f"modules entered: {result['modules']}; hops: {result['hops']}")
    print("in order: " + " > ".join(m.removeprefix("bot.") for m in result["entered_in_order"]))
    back_up = result["revisits"]
    print(f"revisits: {sum(back_up.values())}")
    for hop, n in back_up.items():
        print(f"  {hop.replace('bot.', '')}: {n}")


def main() -> None:
    arguments = parser(__doc__.splitlines()[0])
    arguments.add_argument("--repo", help="walk the bot of this checkout instead")
    args = arguments.parse_args()
    print_machine()
    with tempfile.TemporaryDirectory(prefix="click-walk-") as workdir:
        calls = asyncio.run(walk_one_click(Path(workdir), args.repo))
    result = summary(calls)
    report(result)
    write_json(args.json, "click_walk", {"repo": args.repo or ".", **result})


if __name__ == "__main__":
    main()
