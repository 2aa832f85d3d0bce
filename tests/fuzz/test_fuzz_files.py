"""Fuzz what Neurons reads from files and from an MCP client: backups, config.json and
raw MCP lines. Properties: a backup is read whole or refused with CorruptBackup (a restore of a
refused one leaves the store as it was); config.json is read or refused with one ConfigError;
every MCP line that is a request with a usable id is either passed to the SDK (which answers it)
or answered here with that id, and nothing else is ever answered with an id."""

from __future__ import annotations

import gzip
import json
import uuid

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from mcp_types import jsonrpc_message_adapter

from core import backup, config
from core import mcp as neurons_mcp
from core.backup import CorruptBackup
from core.memory import Memory
from core.model import Identity, NeuronsError
from core.settings import Settings
from core.store import Store
from core.store import snapshot as snap
from tests.conftest import ROOT
from tests.fuzz.strategies import anything, instants, json_values, texts

MODEL = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"
UUIDS = [str(uuid.uuid4()) for _ in range(3)]


def _valid_backup(draw) -> dict:
    """A backup as Neurons writes one: a device's neurons, a link between them, maybe a profile."""
    device, user = str(draw(st.uuids())), str(draw(st.uuids()))
    as_profile = draw(st.booleans())
    when = "2026-01-01T09:00:00+00:00"
    neurons = [
        {
            "id": str(draw(st.uuids())),
            "device_id": None if as_profile else device,
            "user_id": user if as_profile else None,
            "kind": draw(st.sampled_from(["note", "reminder", "contact"])),
            "body": draw(st.text(min_size=1, max_size=30)),
            "attrs": draw(
                st.one_of(st.just({}), st.dictionaries(st.text(max_size=5), json_values, max_size=2))
            ),
            "state": "active",
            "created_at": when,
            "updated_at": when,
        }
        for _ in range(draw(st.integers(2, 3)))
    ]
    edges = [
        {
            "id": str(draw(st.uuids())),
            "device_id": neurons[0]["device_id"],
            "user_id": neurons[0]["user_id"],
            "from_node_id": neurons[0]["id"],
            "to_node_id": neurons[1]["id"],
            "relation_type": "relates_to",
            "weight": 1.0,
            "valid_from": when,
            "valid_to": None,
            "created_at": when,
            "derived_by": None,
        }
    ]
    profiles = (
        [{"user_id": user, "name": "Ana", "claimed_device": device, "created_at": when}] if as_profile else []
    )
    tables = {"neurons": neurons, "neurons_edges": edges, "profiles": profiles}
    return {
        "format": backup.FORMAT,
        "device_id": device,
        "owner": {"user_id": user} if as_profile else {"device_id": device},
        "stamp": {},
        "counts": {t: len(rows) for t, rows in tables.items()},
        **tables,
    }


@st.composite
def backups(draw) -> bytes:
    """A backup file: one Neurons would write, with one hostile change (a value anywhere, a
    field gone, a count that lies), or broken bytes."""
    data = _valid_backup(draw)
    change = draw(st.sampled_from(["none", "value", "drop", "header", "count"]))
    table = draw(st.sampled_from(["neurons", "neurons_edges", "profiles"]))
    rows = data[table]
    if change in ("value", "drop") and rows:
        row = rows[draw(st.integers(0, len(rows) - 1))]
        field = draw(st.sampled_from(sorted(row)))
        if change == "value":
            row[field] = draw(st.one_of(anything, instants, st.sampled_from(UUIDS)))
        else:
            del row[field]
    elif change == "header":
        data[draw(st.sampled_from(["format", "device_id", "owner", "counts"]))] = draw(anything)
    elif change == "count":
        data["counts"][table] = draw(anything)
    text = json.dumps(data, allow_nan=True).encode()
    packed = gzip.compress(text, mtime=0)
    return draw(
        st.one_of(
            st.just(packed),
            st.just(packed),
            st.just(packed[: draw(st.integers(0, len(packed)))]),  # cut short
            st.binary(max_size=200),
            st.just(gzip.compress(draw(st.binary(max_size=200)))),
            st.just(packed + draw(st.binary(min_size=1, max_size=8))),  # trailing bytes
        )
    )


@given(raw=backups())
@settings(max_examples=150)
def test_a_backup_is_read_whole_or_refused(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz-backup") / "neurons-20260101-000000Z.json.gz"
    path.write_bytes(raw)
    try:
        checked = backup.load(path)
    except CorruptBackup as exc:
        assert str(exc) and "\n" not in str(exc) and "Traceback" not in str(exc)
        event("refused")
        return
    event("read")
    assert backup.owner_of(checked)[1]  # whose memory it holds can always be said


@pytest.fixture(scope="module")
def own_store(tmp_path_factory):
    """A store of its own: a restore replaces every row of the store it runs on."""
    with Store(Settings(data_dir=tmp_path_factory.mktemp("fuzz-restore") / "data", model_dir=MODEL)) as store:
        memory = Memory(store, Identity(device_id=store.device_id()), owns_store=False)
        memory.capture("kept through every refused restore", kind="note")
        yield memory


@given(raw=backups())
@settings(max_examples=25)
def test_a_refused_restore_changes_nothing(own_store, tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz-restore-file") / "candidate.json.gz"
    path.write_bytes(raw)
    try:
        backup.load(path)
    except CorruptBackup:
        pass
    else:
        return  # a well-formed one would replace the memory: the properties above cover it
    with own_store.store.reading(every_owner=True) as cur:
        before = {t: rows for t, (_, rows) in snap.read(cur).items()}
    with pytest.raises(NeuronsError):
        own_store.restore_backup(str(path))
    with own_store.store.reading(every_owner=True) as cur:
        assert {t: rows for t, (_, rows) in snap.read(cur).items()} == before


# config.json as Neurons writes it (a dsn, a profile with its id, name and pending flag), with
# hostile values in any of its places; JSON that is not a config; nesting; bytes
valid_configs = st.fixed_dictionaries(
    {},
    optional={
        "dsn": st.one_of(st.text(max_size=30), anything),
        "profile": st.one_of(
            st.fixed_dictionaries(
                {"id": st.one_of(st.uuids().map(str), anything)},
                optional={"name": st.one_of(st.text(max_size=10), anything), "pending": anything},
            ),
            anything,
        ),
    },
)
configs = st.one_of(
    valid_configs.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    valid_configs.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    anything.map(lambda v: json.dumps(v, allow_nan=True).encode()),
    st.integers(1, 300_000).map(lambda n: b"[" * n + b"]" * n),
    st.binary(max_size=100),
)


@given(raw=configs)
@settings(max_examples=150)
def test_config_json_is_read_or_refused_in_one_sentence(tmp_path_factory, raw):
    data_dir = tmp_path_factory.mktemp("fuzz-config")
    (data_dir / "config.json").write_bytes(raw)
    try:
        saved = config.load(data_dir)
    except config.ConfigError as exc:
        assert "\n" not in str(exc) and str(data_dir / "config.json") in str(exc)
        event("refused")
        return
    event("read")
    assert saved.dsn is None or isinstance(saved.dsn, str)
    assert isinstance(saved.to_json(), dict)
    Settings.from_env(data_dir=data_dir)  # and what opens a store reads it the same


ids = st.one_of(
    st.integers(-(2**70), 2**70),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.floats(),
    st.just({"a": 1}),
)


@st.composite
def raw_lines(draw) -> str:
    """A line an MCP client might write: a request (or notification, or response) with one
    hostile change, a batch, deep nesting, a lone surrogate, or no JSON at all."""
    message: dict = {"jsonrpc": "2.0", "id": draw(st.integers(0, 10**6)), "method": "ping", "params": {}}
    change = draw(st.sampled_from(["none", "value", "drop", "notification", "response"]))
    if change == "value":
        key = draw(st.sampled_from(["jsonrpc", "id", "method", "params"]))
        message[key] = draw(ids if key == "id" else anything)
    elif change == "drop":
        del message[draw(st.sampled_from(sorted(message)))]
    elif change == "notification":
        del message["id"]
        message["method"] = "notifications/initialized"
    elif change == "response":
        del message["method"], message["params"]
        message["result"] = draw(anything)
    line = json.dumps(message, allow_nan=True)
    shape = draw(st.sampled_from(["plain", "plain", "plain", "batch", "deep", "deeper", "surrogate", "cut"]))
    if shape == "batch":
        line = f"[{line}]"
    elif shape in ("deep", "deeper"):
        depth = 300 if shape == "deep" else 50_000
        line = line[:-1] + (', "x": ' if len(message) else '"x": ') + "[" * depth + "]" * depth + "}"
    elif shape == "surrogate":
        line = line[:-1] + (', "x": "\\ud800"}' if len(message) else '"x": "\\ud800"}')
    elif shape == "cut":
        line = line[: draw(st.integers(0, max(0, len(line) - 1)))]
    return draw(st.one_of(st.just(line), st.just(line), st.just(line), texts))


@given(line=raw_lines())
@settings(max_examples=300)
def test_every_mcp_request_with_an_id_is_answered(line):
    refusals = neurons_mcp._refusals(line)
    event("passed to the SDK" if refusals is None else f"{len(refusals)} answered here")
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        data = None
    if refusals is None:  # passed on: the SDK reads it as a message (and answers a request)
        jsonrpc_message_adapter.validate_json(line, by_name=False)
        if isinstance(data, dict) and "id" in data and "method" in data:
            assert neurons_mcp._usable_id(data["id"]) is not None
        return
    for answer_id, code, message in refusals:
        assert code in (neurons_mcp.PARSE_ERROR, neurons_mcp.INVALID_REQUEST) and message
        assert answer_id is None or isinstance(answer_id, (str, int))
    if isinstance(data, dict) and "method" in data and neurons_mcp._usable_id(data.get("id")) is not None:
        assert [r[0] for r in refusals] == [data["id"]]  # answered with its own id
    if isinstance(data, dict) and "method" in data and "id" not in data:
        assert refusals == []  # a notification is never answered
    if isinstance(data, dict) and "method" not in data and ("result" in data or "error" in data):
        assert refusals == []  # nor a response
