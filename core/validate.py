"""Input validation, in one place: what Postgres or a person cannot keep faithfully is refused
with a message the person can act on; everything else is kept exactly as typed.

Memory, the import formats and the command line all check their input here, so one rule never
exists in two versions.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from datetime import UTC, datetime
from typing import Any, overload

from core.model import InvalidInput

MAX_BODY_BYTES = 2 * 1024 * 1024
# The largest contact card an import reads (unfolded): a photo of MAX_BODY_BYTES and room for the
# rest of the card. A larger card is skipped, named, before its lines are parsed.
MAX_CARD_BYTES = MAX_BODY_BYTES + 256 * 1024
# Instants both engines store and read back: Postgres keeps far more, but Python's datetime (which
# psycopg reads them into, in the session's time zone) stops at the years 1 and 9999 -- hence a
# day's margin at each end, wider than any time zone's offset.
MIN_INSTANT = datetime(1, 1, 2, tzinfo=UTC)
MAX_INSTANT = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=UTC)
# Numbers in attrs: what every JSON reader keeps exactly (a 64-bit integer, a finite double).
MAX_INT_BITS = 63
MAX_INT_DIGITS = 19
# Nesting of attrs (an object of lists of objects...): deep enough for any real use.
MAX_ATTRS_DEPTH = 32
# The most rows one listing or answer may ask for.
MAX_LIMIT = 1_000_000
# A link's weight (stored as a 4-byte real): a relative strength, never near the real's range.
MAX_WEIGHT = 1_000_000.0


# Characters that reorder or hide text without being seen: right-to-left and left-to-right
# embeddings, overrides and isolates, zero-width spaces and the byte-order mark. Kept as typed;
# shown as their code point wherever a title is shown (as editors do). The joiners (U+200C, U+200D)
# and the direction marks are left alone: scripts and emoji need them.
_INVISIBLE = re.compile("[\u200b\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def visible(text: str) -> str:
    """`text` for showing: each character that reorders or hides text as <U+202E>."""
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def clean_text(text: Any, *, what: str = "text", allow_empty: bool = False) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be a string, not {type(text).__name__}")
    if "\x00" in text:
        raise InvalidInput(f"{what} contains a NUL byte (\\x00), which cannot be stored; remove it")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        if "\udc80" <= bad <= "\udcff":  # a byte that was not UTF-8, as Python reads argv and files
            raise InvalidInput(
                f"{what} is not valid UTF-8 (byte 0x{ord(bad) - 0xDC00:02x} at position {exc.start}): "
                "is the terminal or file in another encoding?"
            ) from None
        raise InvalidInput(
            f"{what} contains an unpaired surrogate at position {exc.start}; it is not valid Unicode"
        ) from None
    if size > MAX_BODY_BYTES:
        raise InvalidInput(f"{what} is {size:,} bytes; the limit is {MAX_BODY_BYTES:,}")
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{what} is empty")
    return text


# A capture's idempotency key (`neurons capture --key`): what a client sends so that a retry of
# the same capture is saved once. Short text without control characters.
MAX_KEY_CHARS = 200
_KEY_CONTROL = re.compile("[\x00-\x1f\x7f]")


def clean_key(key: Any) -> str:
    """An idempotency key as given, or InvalidInput saying what is wrong with it."""
    key = clean_text(key, what="the key")
    if len(key) > MAX_KEY_CHARS:
        raise InvalidInput(f"the key is {len(key):,} characters; the limit is {MAX_KEY_CHARS}")
    if _KEY_CONTROL.search(key):
        raise InvalidInput("the key contains a control character; use letters, digits and punctuation")
    return key


def clean_attrs(attrs: Any) -> dict[str, Any]:
    """A JSON object whose every string is clean text, every number one that JSON readers keep
    (finite, a 64-bit integer) and whose nesting stays within MAX_ATTRS_DEPTH."""
    if attrs is None:
        return {}
    if not isinstance(attrs, dict):
        raise InvalidInput("attrs must be a JSON object")
    stack: list[tuple[Any, str, int]] = [(attrs, "", 0)]  # no recursion: depth is checked first
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            clean_text(value, what=f"attrs{path}", allow_empty=True)
        elif isinstance(value, (dict, list)):
            if depth >= MAX_ATTRS_DEPTH:
                raise InvalidInput(f"attrs{path} is nested more than {MAX_ATTRS_DEPTH} levels deep")
            if isinstance(value, dict):
                for k, v in value.items():
                    clean_text(str(k), what=f"an attrs key at {path or '/'}", allow_empty=True)
                    stack.append((v, f"{path}.{k}", depth + 1))
            else:
                stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, (bool, type(None))):
            continue
        elif isinstance(value, (int, float)):
            number(value, f"attrs{path}")
        else:
            raise InvalidInput(f"attrs{path} holds a {type(value).__name__}, which JSON cannot")
    return attrs


def parse_json(text: str, what: str) -> Any:
    """JSON text as a person or a file gives it, refusing what JSON readers reject or cannot
    hold: NaN and Infinity, numbers too large, nesting deeper than the parser can follow."""

    def constant(name: str):
        raise InvalidInput(f"{what}: {name} is not a number that JSON can hold")

    def floating(literal: str) -> float:
        return number(float(literal), what)

    def integer(literal: str) -> int:
        if len(literal.lstrip("-")) > MAX_INT_DIGITS:
            raise InvalidInput(f"{what}: a number of {len(literal.lstrip('-')):,} digits is too large")
        value = int(literal)
        number(value, what)
        return value

    try:
        return json.loads(text, parse_constant=constant, parse_float=floating, parse_int=integer)
    except InvalidInput:
        raise
    except RecursionError:
        raise InvalidInput(f"{what}: nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{what}: invalid JSON: {exc}") from None


def parse_uuid(value: Any, what: str = "id") -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidInput(f"{what} {value!r} is not a valid id") from None


def parse_instant(value: Any, where: str) -> datetime | None:
    """An ISO 8601 time with its offset (None stays None), within what both engines read back;
    anything else is a clear error."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise InvalidInput(f"{where}: {value!r} is not an ISO 8601 date") from None
    if parsed.tzinfo is None:
        raise InvalidInput(f"{where}: {value!r} has no time zone offset")
    return within_range(parsed, where)


# The attrs a reminder keeps its times in: ISO 8601 with an offset, or the scheduler cannot read them.
TIME_ATTRS = ("due_at", "snoozed_until", "done_at", "notified_at", "dtstart")


def times_in(attrs: dict[str, Any]) -> dict[str, Any]:
    """Refuse attrs whose times cannot be read back ("due_at": "tomorrow 6pm" would silently drop
    the reminder from every agenda): each must be ISO 8601 with its offset."""
    for key in TIME_ATTRS:
        value = attrs.get(key)
        if value is not None:
            if not isinstance(value, str):
                raise InvalidInput(f"attrs.{key} must be an ISO 8601 time, not {type(value).__name__}")
            parse_instant(value, f"attrs.{key}")
    return attrs


@overload
def aware(value: datetime, what: str) -> datetime: ...
@overload
def aware(value: None, what: str) -> None: ...
def aware(value: datetime | None, what: str) -> datetime | None:
    """A datetime given by a caller must carry its offset (a naive one is ambiguous) and lie
    within what both engines read back."""
    if value is not None and value.tzinfo is None:
        raise InvalidInput(f"{what} needs a time zone offset")
    return value if value is None else within_range(value, what)


def within_range(value: datetime, where: str) -> datetime:
    try:
        utc = value.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not MIN_INSTANT <= utc <= MAX_INSTANT:
        raise InvalidInput(
            f"{where}: {value.isoformat()} is not between the years 1 and 9999 (in UTC) that Neurons can keep"
        )
    return value


def number(value: Any, where: str, *, limit: float | None = None) -> float:
    """A finite number (an integer of at most 64 bits), within ±`limit` when given."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{where}: {value!r} is not a number")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise InvalidInput(f"{where}: a number of {value.bit_length():,} bits is too large")
    if not math.isfinite(value):
        raise InvalidInput(f"{where}: {value!r} is not a finite number")
    if limit is not None and abs(value) > limit:
        raise InvalidInput(f"{where}: {value!r} is outside -{limit:g} to {limit:g}")
    return float(value)


def optional_text(value: Any, what: str) -> str | None:
    return None if value is None else clean_text(value, what=what)


def parse_limit(value: Any, what: str = "limit", maximum: int = MAX_LIMIT) -> int:
    """How many rows to return: a whole number from 1 to `maximum` (MAX_LIMIT; a door may keep
    its callers to fewer, as MCP does)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        shown = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "that"
        raise InvalidInput(f"{what} must be a whole number from 1 to {maximum:,}, not {shown}")
    return value
