"""The Discord side of playing: commands, clicks, saving, follow-ups and the messages a
table shows. Plain composed services, not discord.py Cogs (see docs/architecture.md)."""
