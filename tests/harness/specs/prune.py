"""Build ``openapi.json`` here: Discord's OpenAPI spec pruned to what the fake serves.

``openapi.json`` is not Discord's whole spec (1.2 MB) but a pruned copy of it: only the
paths and methods the fake Discord (`tests/harness/fake_discord.py`) answers, and the
schemas, responses and parameters they reach through ``$ref``; nothing in them is
changed. The source is Discord's official spec, github.com/discord/discord-api-spec
(MIT, see ``LICENSE`` beside this file), file ``specs/openapi.json``. To update it::

    python -m tests.harness.specs.prune path/to/discord-api-spec/specs/openapi.json

The commit of the spec it came from is noted in ``info.x-pruned-from`` when given as a
second argument.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = HERE / "openapi.json"

OPERATIONS: dict[str, tuple[str, ...]] = {
    "/gateway": ("get",),
    "/gateway/bot": ("get",),
    "/users/@me": ("get",),
    "/users/{user_id}": ("get",),
    "/oauth2/applications/@me": ("get",),
    "/applications/{application_id}/commands": ("get", "put"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("get", "put"),
    "/guilds/{guild_id}": ("get",),
    "/guilds/{guild_id}/members/{user_id}": ("get",),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("get", "patch", "delete"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("get", "patch", "delete"),
    "/channels/{channel_id}": ("get", "patch"),
    "/channels/{channel_id}/typing": ("post",),
    "/channels/{channel_id}/messages": ("get", "post"),
    "/channels/{channel_id}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/messages/{message_id}/threads": ("post",),
    "/channels/{channel_id}/threads": ("post",),
    "/channels/{channel_id}/thread-members": ("get",),
    "/channels/{channel_id}/thread-members/@me": ("put", "delete"),
    "/channels/{channel_id}/thread-members/{user_id}": ("get", "put", "delete"),
}
"""Every route of the fake, as the spec writes it, with the methods the fake serves."""


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def prune(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with only `OPERATIONS` and the components they reach."""
    paths: dict[str, Any] = {}
    for path, methods in OPERATIONS.items():
        item = spec["paths"][path]
        paths[path] = {k: v for k, v in item.items() if k in methods or k == "parameters"}
    kept: dict[str, dict[str, Any]] = {}
    pending = _refs(paths)
    while pending:
        ref = pending.pop()
        _, _, section, name = ref.split("/", 3)
        if name in kept.get(section, {}):
            continue
        node = spec["components"][section][name]
        kept.setdefault(section, {})[name] = node
        pending |= _refs(node)
    components = {
        section: {
            name: kept[section][name]
            for name in spec["components"][section]
            if name in kept.get(section, {})
        }
        for section in spec["components"]
        if section in kept
    }
    return {**spec, "paths": paths, "components": components}


def main(argv: list[str]) -> None:
    spec = json.loads(Path(argv[1]).read_text())
    pruned = prune(spec)
    if len(argv) > 2:
        pruned["info"] = {**pruned["info"], "x-pruned-from": argv[2]}
    TARGET.write_text(json.dumps(pruned, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv)
