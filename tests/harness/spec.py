"""Check REST bodies against Discord's own OpenAPI spec (`tests/harness/specs/openapi.json`).

The fake validates every JSON request body the bot sends and every JSON response it gives
against the operation the spec describes for that method and path. Requests are checked
the way Discord accepts them, a little looser than the spec is written: a snowflake may
be an integer where the spec says a string of digits (discord.py sends some as ints), and
a boolean may be a ``"true"``/``"false"``/``"1"``/``"0"`` string. Responses are checked as
written: whatever the fake answers must be something Discord could answer.

Every body is checked by jsonschema-rs (every schema of the spec compiled once per
process, a few microseconds a body); only a body it refuses is checked again by the
pure-Python `jsonschema`, whose errors say best what is wrong. Python's checks alone
took most of the test process's time in a game played end to end.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

SPEC_PATH = Path(__file__).resolve().parent / "specs" / "openapi.json"
API_PREFIX = "/api/v10"
MAX_PROBLEMS = 3
"""Problems reported per body (the first is the most relevant, by jsonschema's best_match)."""

_LENIENT_BOOLEAN = {"type": "string", "pattern": "^(?i:true|false|1|0)$"}
_LENIENT_SNOWFLAKE = {"type": "integer", "minimum": 0}

Json = dict[str, Any]


@dataclass(frozen=True)
class Operation:
    """One method of one path of the spec."""

    method: str
    template: str
    spec: Json


@dataclass
class SpecCounts:
    """How many bodies were checked against the spec, and how many broke it (those a
    self-test provoked on purpose, and took back with `FakeDiscord.pop_violations`, apart)."""

    requests: int = 0
    responses: int = 0
    request_violations: int = 0
    response_violations: int = 0
    provoked: int = 0
    """Violations among those that a test provoked and took back: not the bot's."""

    def add(self, other: SpecCounts) -> None:
        self.requests += other.requests
        self.responses += other.responses
        self.request_violations += other.request_violations
        self.response_violations += other.response_violations
        self.provoked += other.provoked

    @property
    def violations(self) -> int:
        """Violations nobody provoked on purpose (each one failed its test)."""
        return self.request_violations + self.response_violations - self.provoked

    def __str__(self) -> str:
        violations = self.violations
        provoked = f" (and {self.provoked} provoked by the harness's self-tests)" * bool(
            self.provoked
        )
        return (
            f"{self.requests} requests and {self.responses} responses checked against "
            f"Discord's OpenAPI spec, {violations} violation{'' if violations == 1 else 's'}"
            f"{provoked}"
        )


SESSION_COUNTS = SpecCounts()
"""Every fake's counts in this process, summed when each fake stops (for a session summary;
under xdist the controller sums the workers', see `tests.harness.fixtures.SpecSummary`)."""


def _walk(node: Any) -> Iterator[Json]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _lenient(spec: Json) -> Json:
    """A copy of the spec that also takes integer snowflakes and string booleans."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], _LENIENT_SNOWFLAKE]}
    for node in list(_walk(spec)):
        kind = node.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        if "boolean" in kinds:
            strict = dict(node)
            node.clear()
            node["anyOf"] = [strict, _LENIENT_BOOLEAN]
    return spec


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = [
        "[^/]+" if part.startswith("{") and part.endswith("}") else re.escape(part)
        for part in template.split("/")
    ]
    return re.compile("/".join(parts) + "$")


class Spec:
    """Discord's spec, ready to check bodies; one per process (`load`)."""

    def __init__(self, spec: Json) -> None:
        self.spec = spec
        lenient = _lenient(spec)
        self._strict = Draft202012Validator(spec)
        self._lenient = Draft202012Validator(lenient)
        self._fast_strict = jsonschema_rs.validator_map_for(spec, validate_formats=False)
        self._fast_lenient = jsonschema_rs.validator_map_for(lenient, validate_formats=False)
        # Literal segments win (``@original`` over ``{message_id}``): fewest parameters first.
        templates = sorted(spec["paths"], key=lambda t: (t.count("{"), t))
        self._routes = [(_template_pattern(t), t) for t in templates]

    def operation(self, method: str, path: str) -> Operation | None:
        """The spec's operation for a request path (with or without ``/api/v10``)."""
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX) :]
        for pattern, template in self._routes:
            if pattern.match(path):
                found = self.spec["paths"][template].get(method.lower())
                return None if found is None else Operation(method.upper(), template, found)
        return None

    def request_problems(self, operation: Operation, body: Any) -> list[str]:
        """Why Discord would refuse ``body`` for ``operation`` (empty: it accepts it)."""
        content = (operation.spec.get("requestBody") or {}).get("content") or {}
        schema = (content.get("application/json") or {}).get("schema")
        if schema is None:
            return [f"{operation.method} {operation.template} takes no JSON body"]
        where = _pointer("paths", operation.template, operation.method.lower(), "requestBody")
        if self._fast_lenient[f"{where}/{JSON_SCHEMA}"].is_valid(body):
            return []
        return self._problems(self._lenient, schema, body)

    def response_problems(self, operation: Operation, status: int, body: Any) -> list[str]:
        """Why ``body`` is no answer Discord could give (empty: it could)."""
        responses: Json = operation.spec.get("responses") or {}
        code = str(status) if str(status) in responses else f"{status // 100}XX"
        response = responses.get(code)
        if response is None:
            return [f"{operation.method} {operation.template} never answers {status}"]
        where = _pointer("paths", operation.template, operation.method.lower(), "responses", code)
        ref = response.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[1]
            response = self.spec["components"]["responses"][name]
            where = _pointer("components", "responses", name)
        schema = ((response.get("content") or {}).get("application/json") or {}).get("schema")
        if schema is None:
            return [f"{operation.method} {operation.template} answers {status} without a body"]
        if self._fast_strict[f"{where}/{JSON_SCHEMA}"].is_valid(body):
            return []
        return self._problems(self._strict, schema, body)

    @staticmethod
    def _problems(root: Draft202012Validator, schema: Json, body: Any) -> list[str]:
        validator = root.evolve(schema=schema)
        errors = list(validator.iter_errors(body))
        if not errors:
            return []
        first = best_match(errors)
        rest = [e for e in errors if e is not first][: MAX_PROBLEMS - 1]
        return [_describe(error) for error in (first, *rest)]


JSON_SCHEMA = "content/application~1json/schema"
"""Where a request body's or a response's JSON schema sits, as a JSON pointer's tail."""


def _pointer(*parts: str) -> str:
    """The URI fragment of a place in the spec (jsonschema-rs's key for its schema)."""
    return "#/" + "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def _describe(error: ValidationError) -> str:
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message if len(error.message) <= 300 else error.message[:300] + "…"
    return f"body{where}: {message}"


@cache
def load(path: Path = SPEC_PATH) -> Spec:
    """The vendored spec, parsed once per process."""
    spec: Json = json.loads(path.read_text())
    return Spec(spec)
