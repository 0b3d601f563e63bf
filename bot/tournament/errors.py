"""The one error the tournament functions raise: a refusal with a reason code."""

from __future__ import annotations


class TournamentError(Exception):
    """A refused change (a second join, a result for a finished table, …).

    ``code`` names the reason for the code that shows it (the Discord side picks a
    translated text by it); ``params`` are the facts it may show; ``str(error)`` is an
    English sentence for logs and tests. Not a `bot.engines.base.GameError`: those are
    translation templates that the catalogue must list, and these reach people only
    through the cog's own texts.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
