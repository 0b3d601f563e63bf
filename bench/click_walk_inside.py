"""Runs the bot with a recorder of the calls between its modules (for `bench.click_walk`).

Started as the bot process (``python -m bench.click_walk_inside``). With ``WALK_REPO``
set, the bot is imported from that checkout instead of this one, so an older commit
can be walked by today's bench. Every call from one ``bot.*`` module into another
(or into ``bot.*`` from outside it) is kept with its wall-clock time and whether the
module called was already on the stack; a coroutine resumed by the event loop is not a
call. The calls are written to ``WALK_OUT`` as
JSON lines when the process exits.
"""

from __future__ import annotations

import atexit
import dis
import json
import os
import runpy
import sys
import time
from types import CodeType, FrameType
from typing import Any

Call = tuple[float, str, str, str, bool]
"""(time, caller module, callee module, callee function, whether the callee module
was already on the stack: a call back up into a module that is waiting below)."""

calls: list[Call] = []
first_resume: dict[CodeType, int] = {}


def resume_offset(code: CodeType) -> int:
    """Where a frame of ``code`` stands when it is entered: at its first RESUME. A
    coroutine resumed later stands further on."""
    offset = first_resume.get(code)
    if offset is None:
        offset = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
        first_resume[code] = offset
    return offset


def module_of(frame: FrameType | None) -> str:
    return "" if frame is None else str(frame.f_globals.get("__name__", ""))


def record(frame: FrameType, event: str, _arg: Any) -> None:
    if event != "call":
        return
    callee = module_of(frame)
    if not callee.startswith("bot.") or frame.f_code.co_name == "<module>":
        return
    if frame.f_lasti > resume_offset(frame.f_code):
        return
    caller = module_of(frame.f_back)
    if caller != callee:
        calls.append((time.time(), caller, callee, frame.f_code.co_name, on_stack(frame, callee)))


def on_stack(frame: FrameType, module: str) -> bool:
    """Whether a frame of ``module`` waits below ``frame``'s caller (an awaiting
    coroutine counts: its frame is the awaiter's ``f_back`` while it runs)."""
    below = frame.f_back
    while below is not None:
        if module_of(below) == module:
            return True
        below = below.f_back
    return False


def write_calls() -> None:
    sys.setprofile(None)
    with open(os.environ["WALK_OUT"], "w") as out:
        for call in calls:
            out.write(json.dumps(call) + "\n")


def main() -> None:
    repo = os.environ.get("WALK_REPO")
    if repo:
        sys.path.insert(0, repo)
    atexit.register(write_calls)
    sys.setprofile(record)
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
