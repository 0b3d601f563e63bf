"""TAKE's hand panel is a message Discord accepts whatever card is picked: every
component keeps a custom_id of its own (the fake refuses a duplicate with 400/50035, as
Discord does), also when the picked card could be discarded and Confirm is that discard."""

from __future__ import annotations

from bot.engines.cards import Card
from bot.engines.take import ENGINE
from bot.render.embeds import card_label
from bot.storage.tables import GameStore
from tests.e2e.game_driver import HAND, says
from tests.harness.driver import Driver
from tests.harness.fixtures import BotFactory
from tests.harness.limits import walk_components
from tests.harness.models import FakeMessage


def custom_ids(message: FakeMessage) -> list[str]:
    return [c["custom_id"] for c in walk_components(message.components) if "custom_id" in c]


async def test_every_card_picked_alone_redraws_a_panel_discord_accepts(
    driver: Driver, store: GameStore, bot_process: BotFactory
) -> None:
    await bot_process("bot")
    alice, bernd = driver.user("alice"), driver.user("bernd")
    table = (await driver.slash(alice, "take start")).message
    await driver.click(bernd, table, "Join")
    await driver.click(alice, table, "Start")
    stored = await store.load(driver.fake.guild_id, driver.channel)
    assert stored is not None and stored.table.state is not None
    state = ENGINE.State.model_validate(stored.table.state)
    (player,) = ENGINE.to_act(state)
    user = alice if str(alice.id) == player else bernd
    panel = (await driver.click(user, table, HAND)).message
    await driver.click(user, panel, says(user, "Draw from the stock"))
    pick_cards = says(user, "Pick cards")
    await driver.wait_for(
        lambda: any(s.get("placeholder") == pick_cards for s in panel.selects),
        what="the panel to offer the cards",
    )
    (cards,) = [s for s in panel.selects if s.get("placeholder") == pick_cards]
    values = [option["value"] for option in cards["options"]]
    discards_confirmed = 0
    for value in values:
        await driver.choose(user, panel, pick_cards, [value])
        assert driver.fake.violations == [], f"the panel for {value} was refused"
        ids = custom_ids(panel)
        assert len(ids) == len(set(ids)), ids
        (shown,) = [s for s in panel.selects if s.get("placeholder") == pick_cards]
        assert [o["value"] for o in shown["options"] if o.get("default")] == [value]
        label = card_label(Card.parse(value.split(".")[0]))
        discard = says(user, "Discard {cards} (ends your turn)", cards=label)
        if says(user, "Confirm: {move}", move=discard)[:80] in panel.labels:
            discards_confirmed += 1
            assert says(user, "Discard {card}", card=label) not in panel.labels
    assert discards_confirmed, "no single card could be discarded: the bug's case was not met"
