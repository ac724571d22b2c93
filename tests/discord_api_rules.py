"""What Discord accepts as a request body: its OpenAPI description plus the limits it omits.

Shared by ``tests/bot/test_openapi.py`` (bodies recorded by simcord) and the loopback
Discord in ``tests/loopback`` (bodies as they arrive over HTTP). The schema is chosen by
route; ``path`` is always relative to the API base (``/channels/1/messages``, without
``/api/v10``). Discord's description is ``tests/support/discord/openapi.json`` (its source,
licence and checksum in the README beside it, with the rules it does not encode).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]
from jsonschema.validators import extend  # type: ignore[import-untyped]

__all__ = [
    "SCHEMA_NAMES",
    "SPEC",
    "check_request",
    "message_rules",
    "schemas_for_request",
    "validators",
]

SPEC = Path(__file__).parent / "support" / "discord" / "openapi.json"

COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON = 1, 2

SCHEMA_NAMES = (
    "CreateMessageInteractionCallbackRequest",
    "ModalInteractionCallbackRequest",
    "UpdateMessageInteractionCallbackRequest",
    "IncomingWebhookRequestPartial",
    "IncomingWebhookUpdateRequestPartial",
    "MessageCreateRequest",
    "MessageEditRequestPartial",
    "ApplicationCommandUpdateRequest",
)


@functools.cache
def validators() -> dict[str, Draft202012Validator]:
    """Return a validator per schema name, built once (the spec is 1 MB)."""
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    components = spec["components"]
    # Discord takes a snowflake as a JSON string or integer; the spec allows only strings,
    # but discord.py sends the ids of uploaded attachments as integers (their index).
    snowflake = components["schemas"]["SnowflakeType"]
    components["schemas"]["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0}]
    }
    schemas = components["schemas"]
    fast = extend(
        Draft202012Validator,
        {
            "oneOf": _remember_passes(_one_of_by_type(schemas)),
            "anyOf": _remember_passes(Draft202012Validator.VALIDATORS["anyOf"]),
        },
    )
    return {
        name: fast({"$ref": f"#/components/schemas/{name}", "components": components})
        for name in SCHEMA_NAMES
    }


# Checking the bot's messages is most of a whole-game test's time, almost all of it in the
# spec's component unions: ``oneOf`` tries every branch (button, the five selects, …) for
# every component, and every edit of a table repeats most of its message. The two
# keywords below give the same verdicts, faster.


def _one_of_by_type(schemas: dict[str, Any]) -> Callable[..., Iterator[Any]]:
    """Return ``oneOf`` that leaves out the branches an object's ``type`` rules out.

    A branch that is a named schema requiring ``type`` from an ``enum`` cannot match an
    object whose ``type`` is not in it; exactly one valid branch among all is then exactly
    one among the rest. When no branch is left, every branch is tried, to report it."""
    one_of = Draft202012Validator.VALIDATORS["oneOf"]

    def types(branch: Any) -> Any:
        if not isinstance(branch, dict):  # a boolean schema
            return None
        target = schemas.get(str(branch.get("$ref", "")).removeprefix("#/components/schemas/"))
        if not isinstance(target, dict) or "type" not in target.get("required", ()):
            return None
        return (target.get("properties") or {}).get("type", {}).get("enum")

    def checked(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if isinstance(instance, dict) and "type" in instance:
            kind = instance["type"]
            kept = [b for b in branches if (allowed := types(b)) is None or kind in allowed]
            if kept:
                branches = kept
        return one_of(validator, branches, instance, schema)

    return checked


def _remember_passes(keyword: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    """Return ``keyword`` remembering the instances that passed it: a pass is the same for
    the same subschema and instance (the spec's subschemas live as long as the cached
    validators, so an ``id`` names one); a failure is checked again, to report it."""
    passed: set[tuple[int, str]] = set()

    def checked(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[Any]:
        key = (id(branches), json.dumps(instance, sort_keys=True))
        if key in passed:
            return
        failed = False
        for error in keyword(validator, branches, instance, schema):
            failed = True
            yield error
        if not failed:
            passed.add(key)

    return checked


def schemas_for_request(
    method: str, path: str, body: Any
) -> list[tuple[str, Any, dict[str, Any] | None]]:
    """Return ``(schema name, body, message)`` for each part of the request to validate;
    ``message`` is the message payload the extra rules apply to. No body: nothing.

    Raises ``AssertionError`` for a body on a GET or DELETE, a body of the wrong shape, an
    interaction callback type the bot is not expected to send, or a route with a body that
    no schema is chosen for."""
    parts = path.strip("/").split("/")
    if method in ("GET", "DELETE"):
        assert body is None, f"{method} {path} with a body"
        return []
    route = f"{method} {path}"
    if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
        assert isinstance(body, list), route
        return [("ApplicationCommandUpdateRequest", command, None) for command in body]
    assert isinstance(body, dict), route
    if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
        kind = body.get("type")
        data = body.get("data")
        if kind in (4, 5):
            return [("CreateMessageInteractionCallbackRequest", body, data)]
        if kind in (6, 7):
            return [("UpdateMessageInteractionCallbackRequest", body, data)]
        if kind == 9:  # a form (modal) a control opened
            return [("ModalInteractionCallbackRequest", body, None)]
        raise AssertionError(f"{route}: interaction callback type {kind} not expected")
    if parts[0] == "webhooks" and method == "POST" and len(parts) == 3:
        return [("IncomingWebhookRequestPartial", body, body)]
    if parts[0] == "webhooks" and method == "PATCH" and parts[3:4] == ["messages"]:
        return [("IncomingWebhookUpdateRequestPartial", body, body)]
    if parts[0] == "channels" and parts[2:3] == ["messages"]:
        if method == "POST" and len(parts) == 3:
            return [("MessageCreateRequest", body, body)]
        if method == "PATCH" and len(parts) == 4:
            return [("MessageEditRequestPartial", body, body)]
    raise AssertionError(f"no schema chosen for {route}")


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])


def message_rules(message: dict[str, Any]) -> list[str]:
    """Return the limits the spec does not encode that ``message`` breaks."""
    problems: list[str] = []
    components = message.get("components") or []
    flags = int(message.get("flags") or 0)
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    if flags & COMPONENTS_V2:
        if content or embeds:
            problems.append("content or embeds on a Components V2 message")
    elif len(components) > 5:
        problems.append(f"{len(components)} action rows (at most 5)")
    for row in components:
        if row.get("type") == ACTION_ROW and len(row.get("components") or []) > 5:
            problems.append(f"{len(row['components'])} buttons in a row (at most 5)")
    custom_ids = [c["custom_id"] for c in _walk(components) if c.get("custom_id") is not None]
    if len(custom_ids) != len(set(custom_ids)):
        problems.append(f"custom ids repeated within the message: {custom_ids}")
    for custom_id in custom_ids:
        if not 1 <= len(custom_id) <= 100:
            problems.append(f"custom id of {len(custom_id)} characters: {custom_id!r}")
    for button in _walk(components):
        if button.get("type") == BUTTON and len(button.get("label") or "") > 80:
            problems.append(f"button label over 80 characters: {button['label']!r}")
    if len(content) > 2000:
        problems.append(f"content of {len(content)} characters (at most 2000)")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (at most 10)")
    total = 0
    for embed in embeds:
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (at most 25)")
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
        total += len((embed.get("footer") or {}).get("text") or "")
        total += len((embed.get("author") or {}).get("name") or "")
    if total > 6000:
        problems.append(f"embeds of {total} characters in all (at most 6000)")
    return problems


def check_request(
    method: str,
    path: str,
    body: Any,
    schemas: dict[str, Draft202012Validator] | None = None,
) -> list[str]:
    """Return what is wrong with one request body (``schemas`` default: ``validators()``)."""
    schemas = validators() if schemas is None else schemas
    problems = []
    for name, part, message in schemas_for_request(method, path, body):
        error = best_match(schemas[name].iter_errors(part))
        if error is not None:
            where = "/".join(map(str, error.absolute_path))
            problems.append(f"{method} {path}: {name} at {where}: {error.message}")
        if message is not None:
            problems += [f"{method} {path}: {p}" for p in message_rules(message)]
    return problems
