"""Computer players that no level plays any more, kept to measure the new ones against.

`bench.ai` plays each game's ``hard`` before issue 28 as the opponent ``previous``
(``--pairing hard:previous``); they all live here:

- `bench.previous.draughts`: draughts' ``hard`` that searched on `Position`s.
- `bench.previous.escalation`: Escalation's ``hard`` of endgame rollouts for chips.
- `bench.previous.geschenkt`: Geschenkt's ``hard`` of rollouts through the engine.
- `bench.previous.take`: TAKE's ``hard`` that searched only its own turn.

They import from `bot.ai` (the helpers they share with the levels that play), never the
reverse.
"""
