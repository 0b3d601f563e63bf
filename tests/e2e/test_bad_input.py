"""Bad input gets a clear private answer and changes nothing: options a client could not
have sent, buttons forged onto the wrong message, moves far too long to echo."""

from __future__ import annotations

from typing import Any

from bot.storage.clients import client_for_url
from bot.storage.tables import GameStore
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.models import FakeInteraction, FakeUser

_SUBCOMMAND, _STRING, _INTEGER = 1, 3, 4
Json = dict[str, Any]


async def forged_command(
    driver: Driver, user: FakeUser, group: str, sub: str, options: list[dict[str, Any]]
) -> FakeInteraction:
    """``/group sub`` with raw option values, as an old or forged client might send them
    (the driver's own `slash` checks values the way Discord's client does)."""
    command = driver.fake.find_command(group)
    data = {
        "id": command["id"],
        "name": group,
        "type": 1,
        "options": [{"name": sub, "type": _SUBCOMMAND, "options": options}],
    }
    interaction = driver.fake.create_interaction(
        type=2, user=user, channel_id=driver.channel, data=data
    )
    await driver.fake.send_interaction(interaction)
    await driver.fake.wait_for(
        lambda: interaction.answered or interaction.failure, timeout=5, what="the answer"
    )
    await driver.settle()
    return interaction


def swap_custom_ids(components: list[Json], old: str, new: str) -> list[Json]:
    """``components`` with ``old`` replaced by ``new`` in every custom_id."""
    swapped = []
    for component in components:
        copy = dict(component)
        if "custom_id" in copy:
            copy["custom_id"] = str(copy["custom_id"]).replace(old, new)
        if "components" in copy:
            copy["components"] = swap_custom_ids(list(copy["components"]), old, new)
        swapped.append(copy)
    return swapped


def private_answer(driver: Driver, interaction: FakeInteraction) -> str:
    """The text of the ephemeral answer to ``interaction``."""
    messages = [driver.fake.messages[m] for m in interaction.touched]
    texts = [m.text for m in messages if m.ephemeral_to == interaction.user.id]
    assert texts, f"{interaction.describe()} got no private answer"
    return texts[0]


async def test_out_of_range_options_are_refused_in_words(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice = driver.user("alice")
    cases = [
        ("geschenkt", [{"name": "turn_time", "type": _INTEGER, "value": -5}], "between 0 and"),
        ("geschenkt", [{"name": "turn_time", "type": _INTEGER, "value": 10**12}], "between"),
        ("escalation", [{"name": "deals", "type": _INTEGER, "value": 99}], "between 1 and 10"),
        ("draughts", [{"name": "colour", "type": _STRING, "value": "purple"}], "one of"),
        ("take", [{"name": "jokers", "type": _INTEGER, "value": 3}], "not an option"),
    ]
    for group, options, refusal in cases:
        interaction = await forged_command(driver, alice, group, "start", options)
        assert refusal in private_answer(driver, interaction), (group, options)
    public = [m for m in driver.messages() if not m.ephemeral]
    assert public == [], "no lobby may open on a refused option"


async def test_a_panel_button_on_the_public_table_is_refused(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd, chloe = driver.users[:3]
    await driver.slash(alice, "geschenkt start")
    lobby = driver.table()
    await driver.click(bernd, lobby, "Join")
    await driver.click(chloe, lobby, "Join")
    await driver.click(alice, lobby, "Start")
    table = driver.table()
    before = (table.text, table.labels)
    # A client that shows a panel's button on the public table (the custom_id is what
    # Discord sends back, so the fake's copy of the message is changed).
    table.components = swap_custom_ids(table.components, ":act.take", ":do.take")
    interaction = (await driver.click(alice, table, "Take")).interaction
    assert "private panel" in private_answer(driver, interaction)
    assert (table.text, table.labels) == before


async def test_an_overlong_move_is_refused_and_the_table_matches_the_store(
    driver: Driver, bot_process: BotFactory, redis_server: str
) -> None:
    await bot_process("bot")
    alice, bernd = driver.users[:2]
    await driver.slash(alice, "draughts start", colour="white")
    await driver.click(bernd, driver.table(), "Join")
    await driver.click(alice, driver.table(), "Start")
    padded = "c3-c4" + " " * 2_095
    interaction = await forged_command(
        driver, alice, "draughts", "move", [{"name": "move", "type": _STRING, "value": padded}]
    )
    answer = private_answer(driver, interaction)
    assert "too long" in answer and len(answer) < 300
    store = GameStore(client_for_url(redis_server))
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None and stored.table.state is not None
    assert stored.table.state["plies"] == 0, "the padded move must not be applied"
    await driver.slash(alice, "draughts move", move="c3-c4")
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None and stored.table.state is not None
    assert stored.table.state["plies"] == 1
    await store.client.aclose()


async def test_a_flood_of_clicks_is_slowed_while_other_tables_play_on(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot", env={"CLICKS_PER_TEN_SECONDS": "5"})
    alice, dmitri, emma = driver.user("alice"), driver.user("dmitri"), driver.user("emma")
    answers = [(await driver.slash(alice, "geschenkt rules")).message.text for _ in range(7)]
    assert all("Example" in text for text in answers[:5]), answers[:5]
    assert all("slow down" in text for text in answers[5:]), answers[5:]
    other = driver.fake.channel_ids[1]
    lobby = (await driver.slash(dmitri, "geschenkt start", channel=other)).message
    joined = await driver.click(emma, lobby, "Join")
    assert emma.display_name in joined.message.text


async def test_a_click_for_another_channels_game_is_refused_in_words(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, chloe = driver.user("alice"), driver.user("chloe")
    first, second = driver.fake.channel_ids[:2]
    here = (await driver.slash(alice, "geschenkt start", channel=first)).message
    await driver.slash(chloe, "escalation start", channel=second)
    # The first channel's Join button, arriving as if clicked in the second channel.
    join = next(b for b in here.buttons if b.get("label") == "Join")
    interaction = driver.fake.create_interaction(
        type=3,
        user=alice,
        channel_id=second,
        data={"custom_id": join["custom_id"], "component_type": 2},
        message_id=here.id,
    )
    await driver.fake.send_interaction(interaction)
    await driver.fake.wait_for(lambda: interaction.answered, timeout=5, what="the answer")
    await driver.settle()
    assert "has ended" in private_answer(driver, interaction)
    assert "Alice" not in driver.table(second).text


async def test_a_server_at_its_table_cap_is_told_so(
    driver: Driver, bot_process: BotFactory
) -> None:
    await bot_process("bot", env={"MAX_TABLES_PER_SERVER": "1"})
    alice = driver.user("alice")
    first, second = driver.fake.channel_ids[:2]
    await driver.slash(alice, "geschenkt start", channel=first)
    refused = await driver.slash(alice, "geschenkt start", channel=second)
    assert "as many tables going as it may (1)" in refused.message.text
    assert refused.message.ephemeral_to == alice.id
