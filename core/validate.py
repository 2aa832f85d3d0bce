"""Input validation, in one place: what Postgres or a person cannot keep faithfully is refused
with a message the person can act on; everything else is kept exactly as typed.

Memory, the import formats and the command line all check their input here, so one rule never
exists in two versions.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from core.model import InvalidInput

MAX_BODY_BYTES = 2 * 1024 * 1024


def clean_text(text: Any, *, what: str = "text", allow_empty: bool = False) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be a string, not {type(text).__name__}")
    if "\x00" in text:
        raise InvalidInput(f"{what} contains a NUL byte (\\x00), which cannot be stored; remove it")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} contains an unpaired surrogate at position {exc.start}; it is not valid Unicode"
        ) from None
    if size > MAX_BODY_BYTES:
        raise InvalidInput(f"{what} is {size:,} bytes; the limit is {MAX_BODY_BYTES:,}")
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{what} is empty")
    return text


def clean_attrs(attrs: Any) -> dict[str, Any]:
    """A JSON object whose every string is clean text and whose every value JSON can hold."""
    if attrs is None:
        return {}
    if not isinstance(attrs, dict):
        raise InvalidInput("attrs must be a JSON object")

    def walk(value: Any, path: str) -> None:
        if isinstance(value, str):
            clean_text(value, what=f"attrs{path}", allow_empty=True)
        elif isinstance(value, dict):
            for k, v in value.items():
                clean_text(str(k), what=f"an attrs key at {path or '/'}", allow_empty=True)
                walk(v, f"{path}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")
        elif not (value is None or isinstance(value, (bool, int, float))):
            raise InvalidInput(f"attrs{path} holds a {type(value).__name__}, which JSON cannot")

    walk(attrs, "")
    return attrs


def parse_uuid(value: Any, what: str = "id") -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidInput(f"{what} {value!r} is not a valid id") from None


def parse_instant(value: Any, where: str) -> datetime | None:
    """An ISO 8601 time with its offset (None stays None); anything else is a clear error."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise InvalidInput(f"{where}: {value!r} is not an ISO 8601 date") from None
    if parsed.tzinfo is None:
        raise InvalidInput(f"{where}: {value!r} has no time zone offset")
    return parsed


def aware(value: datetime | None, what: str) -> datetime | None:
    """A datetime given by a caller must carry its offset (a naive one is ambiguous)."""
    if value is not None and value.tzinfo is None:
        raise InvalidInput(f"{what} needs a time zone offset")
    return value


def number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{where}: {value!r} is not a number")
    return float(value)
