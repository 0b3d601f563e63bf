"""The operations tests are about the real start-up and shutdown of ``python -m bot``
(exit codes, signals, what is left running, what reaches the log), so their bots are
new interpreters, not forks of the test process's zygote."""

import pytest


@pytest.fixture(scope="session")
def bot_zygote() -> None:
    """No zygote here: every bot is started as ``python -m bot``."""
    return None
