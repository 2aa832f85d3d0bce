"""Fuzz capture text, --attrs and the export format on the real embedded engine: each call either
succeeds (and what it saved reads back and exports) or raises a NeuronsError and changes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from core.model import InvalidInput, NeuronsError
from core.validate import parse_json
from tests.fuzz.conftest import snapshot
from tests.fuzz.strategies import attrs_values, exports, texts

NOW = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)


def as_json_reads_it(value):
    """Numbers as JSON readers see them (jsonb keeps 1e16 as 10000000000000000: the same number)."""
    return json.loads(json.dumps(value, allow_nan=False), parse_int=float)


def refused_or_kept(memory, call):
    """Run `call`; a refusal must be a NeuronsError that left the store as it was."""
    before = snapshot(memory)
    try:
        return call()
    except NeuronsError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        assert snapshot(memory) == before
        return None


@given(text=texts, kind=st.sampled_from([None, "note", "reminder", "contact"]))
@settings(max_examples=80)
def test_capture_text(fresh, text, kind):
    memory = fresh()
    saved = refused_or_kept(memory, lambda: memory.capture(text, kind=kind, created_at=NOW))
    if saved is not None:
        assert memory.get(saved.id).body == text
        json.dumps(snapshot(memory), allow_nan=False)  # its export is valid JSON


@given(attrs=attrs_values)
@settings(max_examples=80)
def test_capture_attrs(fresh, attrs):
    memory = fresh()
    saved = refused_or_kept(memory, lambda: memory.capture("with attrs", kind="note", attrs=attrs))
    if saved is not None:
        assert as_json_reads_it(memory.get(saved.id).attrs) == as_json_reads_it(attrs or {})
        edited = refused_or_kept(memory, lambda: memory.edit(saved.id, attrs=attrs))
        assert edited is not None and as_json_reads_it(edited.attrs) == as_json_reads_it(attrs or {})


@given(value=attrs_values, indent=st.sampled_from([None, 1]))
def test_attrs_as_typed_on_the_command_line(value, indent):
    """--attrs text: parse_json either gives back exactly what was written or refuses with a
    sentence (NaN, Infinity, huge numbers, too deep), never another exception."""
    text = json.dumps(value, indent=indent)  # allow_nan: NaN/Infinity literals are typed too
    try:
        parsed = parse_json(text, "--attrs")
    except InvalidInput as exc:
        assert str(exc).startswith("--attrs")
        return
    assert json.dumps(parsed, allow_nan=False) == json.dumps(value, allow_nan=False)


@given(depth=st.integers(30, 20000), kind=st.sampled_from(["[", '{"a":']))
@settings(max_examples=20)
def test_deep_nesting(fresh, depth, kind):
    closer = "]" if kind == "[" else "}"
    text = '{"x": ' + kind * depth + ("1" if kind != "[" else "") + closer * depth + "}"
    memory = fresh()
    try:
        attrs = parse_json(text, "--attrs")
    except InvalidInput:
        return
    refused_or_kept(memory, lambda: memory.capture("deep", kind="note", attrs=attrs))


@given(data=exports())
@settings(max_examples=120)
def test_import(fresh, data):
    memory = fresh()
    counts = refused_or_kept(memory, lambda: memory.import_(data))
    if counts is not None:
        exported = memory.export()
        again = fresh()
        assert again.import_(json.loads(json.dumps(exported, allow_nan=False)))["neurons"] == len(
            exported["neurons"]
        )
        assert snapshot(again) == snapshot(memory)
