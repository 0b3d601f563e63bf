"""Discord's payload limits as pure functions, so they can be unit-tested with crafted payloads.

Each checker returns a list of human-readable problems; an empty list means Discord would accept it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

Json = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_OPTION_TEXT = 100
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

DUPLICATE_CUSTOM_ID = "duplicate custom_id"
"""How a problem about two components with one custom_id begins."""

ACTION_ROW = 1
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_DISPLAY = 10
LINK_STYLE = 5
PREMIUM_STYLE = 6

_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def embed_problems(embeds: Sequence[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for index, embed in enumerate(embeds):
        where = f"embeds[{index}]"
        title = _length(embed.get("title"))
        description = _length(embed.get("description"))
        footer = _length((embed.get("footer") or {}).get("text"))
        author = _length((embed.get("author") or {}).get("name"))
        fields: Sequence[Mapping[str, Any]] = embed.get("fields") or []
        for label, size, limit in (
            ("title", title, MAX_EMBED_TITLE),
            ("description", description, MAX_EMBED_DESCRIPTION),
            ("footer.text", footer, MAX_FOOTER),
            ("author.name", author, MAX_AUTHOR),
        ):
            if size > limit:
                problems.append(f"{where}.{label} is {size} chars (max {limit})")
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(f"{where} has {len(fields)} fields (max {MAX_EMBED_FIELDS})")
        total += title + description + footer + author
        for field_index, field in enumerate(fields):
            name, value = _length(field.get("name")), _length(field.get("value"))
            if name > MAX_FIELD_NAME:
                problems.append(f"{where}.fields[{field_index}].name is {name} chars")
            if value > MAX_FIELD_VALUE:
                problems.append(f"{where}.fields[{field_index}].value is {value} chars")
            total += name + value
    if total > MAX_EMBED_TOTAL:
        problems.append(f"embeds total {total} chars (max {MAX_EMBED_TOTAL})")
    return problems


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, depth first, including row/container children and section accessories."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory:
            yield from walk_components([accessory])


def _interactive_problems(component: Mapping[str, Any], where: str) -> list[str]:
    problems: list[str] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None and len(custom_id) > MAX_CUSTOM_ID:
        problems.append(f"{where}.custom_id is {len(custom_id)} chars (max {MAX_CUSTOM_ID})")
    if kind == BUTTON:
        label = component.get("label")
        if label is not None and len(label) > MAX_BUTTON_LABEL:
            problems.append(f"{where}.label is {len(label)} chars (max {MAX_BUTTON_LABEL})")
        style = component.get("style")
        if style == LINK_STYLE:
            if not component.get("url") or custom_id is not None:
                problems.append(f"{where}: link buttons need a url and no custom_id")
        elif style != PREMIUM_STYLE and not custom_id:
            problems.append(f"{where}: button without custom_id")
        if not label and not component.get("emoji") and style != PREMIUM_STYLE:
            problems.append(f"{where}: button needs a label or an emoji")
    elif kind in SELECT_TYPES:
        if not custom_id:
            problems.append(f"{where}: select without custom_id")
        placeholder = component.get("placeholder")
        if placeholder is not None and len(placeholder) > MAX_SELECT_PLACEHOLDER:
            problems.append(f"{where}.placeholder is {len(placeholder)} chars")
        options: Sequence[Mapping[str, Any]] = component.get("options") or []
        if kind == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            problems.append(f"{where} has {len(options)} options (1..{MAX_SELECT_OPTIONS})")
        for option_index, option in enumerate(options):
            for key in ("label", "value", "description"):
                if _length(option.get(key)) > MAX_SELECT_OPTION_TEXT:
                    problems.append(f"{where}.options[{option_index}].{key} is too long")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not 0 <= low <= high <= MAX_SELECT_OPTIONS or (kind == 3 and high > len(options)):
            problems.append(f"{where}: min_values={low} max_values={high} out of range")
    return problems


def component_problems(components: Sequence[Mapping[str, Any]], *, v2: bool = False) -> list[str]:
    problems: list[str] = []
    if v2:
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            problems.append(f"{count} components (max {MAX_V2_COMPONENTS} with components v2)")
        text = sum(
            _length(c.get("content")) for c in walk_components(components) if c.get("type") == 10
        )
        if text > MAX_V2_TEXT:
            problems.append(f"text displays total {text} chars (max {MAX_V2_TEXT})")
    else:
        if len(components) > MAX_ACTION_ROWS:
            problems.append(f"{len(components)} action rows (max {MAX_ACTION_ROWS})")
        for row_index, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                problems.append(f"components[{row_index}] is type {row.get('type')}, not a row")
                continue
            children: Sequence[Mapping[str, Any]] = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children or len(children) > MAX_ROW_BUTTONS:
                problems.append(f"components[{row_index}] has {len(children)} items (1..5)")
            if selects and len(children) > 1:
                problems.append(f"components[{row_index}]: a select must be alone in its row")
    seen: set[str] = set()
    for index, component in enumerate(walk_components(components)):
        problems.extend(_interactive_problems(component, f"component #{index}"))
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(
                    f"{DUPLICATE_CUSTOM_ID} {custom_id!r} (COMPONENT_CUSTOM_ID_DUPLICATED)"
                )
            seen.add(custom_id)
    return problems


def message_problems(message: Mapping[str, Any], *, attachments: int = 0) -> list[str]:
    """Problems with a complete message (content, embeds, components, flags) with n attachments."""
    problems: list[str] = []
    content = message.get("content") or ""
    embeds: Sequence[Mapping[str, Any]] = message.get("embeds") or []
    components: Sequence[Mapping[str, Any]] = message.get("components") or []
    v2 = bool((message.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} chars (max {MAX_CONTENT})")
    if v2 and (content or embeds):
        problems.append("components v2 messages cannot have content or embeds")
    problems.extend(embed_problems(embeds))
    problems.extend(component_problems(components, v2=v2))
    if attachments > MAX_ATTACHMENTS:
        problems.append(f"{attachments} attachments (max {MAX_ATTACHMENTS})")
    if not (content or embeds or components or attachments or message.get("poll")):
        problems.append("cannot send an empty message")
    return problems


def _option_problems(options: Sequence[Mapping[str, Any]], where: str) -> list[str]:
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where} has {len(options)} options (max 25)")
    names = [o.get("name", "") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where} has duplicate option names")
    required_seen_optional = False
    for option in options:
        name = option.get("name", "")
        here = f"{where} {name}"
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"{here}: invalid name")
        if not 1 <= len(option.get("description", "")) <= 100:
            problems.append(f"{here}: description must be 1..100 chars")
        if len(option.get("choices") or []) > 25:
            problems.append(f"{here}: more than 25 choices")
        if option.get("type") in (1, 2):
            problems.extend(_option_problems(option.get("options") or [], here))
        elif option.get("required"):
            if required_seen_optional:
                problems.append(f"{here}: required options must come before optional ones")
        else:
            required_seen_optional = True
    return problems


def command_problems(commands: Sequence[Mapping[str, Any]]) -> list[str]:
    """Problems with a bulk command overwrite (PUT .../commands)."""
    problems: list[str] = []
    if len(commands) > 100:
        problems.append(f"{len(commands)} commands (max 100)")
    keys = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(keys)) != len(keys):
        problems.append("duplicate command names")
    for command in commands:
        name = command.get("name", "")
        if command.get("type", 1) == 1:
            if not _COMMAND_NAME.match(name) or name != name.lower():
                problems.append(f"/{name}: invalid name")
            if not 1 <= len(command.get("description", "")) <= 100:
                problems.append(f"/{name}: description must be 1..100 chars")
        problems.extend(_option_problems(command.get("options") or [], f"/{name}"))
    return problems


ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
MAX_THREAD_NAME = 100
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""Minutes of inactivity after which a thread archives: the only values Discord takes
(Channel resource, "Start Thread from Message" / "Start Thread without Message" /
"Modify Channel (Thread)", and the spec's ``ThreadAutoArchiveDuration``)."""
MAX_SLOWMODE = 21_600


def thread_problems(body: Mapping[str, Any], *, creating: bool) -> list[str]:
    """Problems with the JSON of a thread start (``creating``) or of a thread edit
    (``PATCH /channels/{thread}``): the name 1..100 characters (required to create),
    ``auto_archive_duration`` one of 60, 1440, 4320, 10080, ``rate_limit_per_user``
    0..21600 and a thread ``type`` of 10, 11 or 12. Discord answers 400/50035."""
    problems: list[str] = []
    name = body.get("name")
    if name is None:
        if creating:
            problems.append("name is required")
    elif not isinstance(name, str) or not 1 <= len(name) <= MAX_THREAD_NAME:
        length = len(name) if isinstance(name, str) else name
        problems.append(f"name is {length!r} chars (1..{MAX_THREAD_NAME})")
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
        problems.append(
            f"auto_archive_duration {duration!r} is not one of {AUTO_ARCHIVE_DURATIONS}"
        )
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None and not (isinstance(slowmode, int) and 0 <= slowmode <= MAX_SLOWMODE):
        problems.append(f"rate_limit_per_user {slowmode!r} outside 0..{MAX_SLOWMODE}")
    kind = body.get("type")
    if creating and kind is not None and kind not in THREAD_TYPES:
        problems.append(f"type {kind!r} is not a thread type {sorted(THREAD_TYPES)}")
    return problems
