"""`bot.ai.budget.cyclic_gc_paused`: a search runs without the cyclic garbage collector,
which is back as it was afterwards, whatever happens in the search."""

from __future__ import annotations

import gc

import pytest

from bot.ai.budget import cyclic_gc_paused


def test_the_collector_is_off_inside_and_back_on_after() -> None:
    assert gc.isenabled()
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_back_on_after_a_search_that_failed() -> None:
    with pytest.raises(RuntimeError), cyclic_gc_paused():
        raise RuntimeError("the search failed")
    assert gc.isenabled()


def test_a_collector_switched_off_by_someone_else_stays_off() -> None:
    gc.disable()
    try:
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
