"""What used to end in a traceback now gets a one-line message, exit
status 2, and leaves the store as it was. The `neurons` command on a real data dir: its entry
point in this process (`cli`), and real processes (`run_cli`) for a data dir's first capture, the
mounts, another user and bytes that are not UTF-8 on the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from core.model import InvalidInput
from tests.conftest import ROOT, cli, run_cli


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("refusals") / "data"
    done = run_cli("capture", "Ana's birthday party on Saturday", "--kind", "note", data_dir=data)
    assert done.returncode == 0, done.stderr
    return data


def snapshot(data_dir) -> str:
    done = cli("export", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    data.pop("exported_at")
    return json.dumps(data, sort_keys=True)


def refused(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("neurons: "), done.stderr
    for word in words:
        assert word in lines[0], lines[0]


def export_file(tmp_path, neurons, edges=()) -> str:
    path = tmp_path / "import.json"
    path.write_text(
        json.dumps(
            {"format": "neurons-export/1", "neurons": list(neurons), "edges": list(edges)}, allow_nan=True
        )
    )
    return str(path)


def a_neuron(**fields):
    return {"id": str(uuid.uuid4()), "kind": "note", "body": "imported", **fields}


# -- case 2: instants both engines can read back ------------------------------------------------


@pytest.mark.parametrize("instant", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_an_instant_outside_what_the_engines_read_back_is_refused(data_dir, tmp_path, instant):
    before = snapshot(data_dir)
    refused(
        cli("import", export_file(tmp_path, [a_neuron(created_at=instant)]), data_dir=data_dir),
        "created_at",
        "between the years",
    )
    assert snapshot(data_dir) == before
    for args in (("list",), ("ask", "party"), ("export",)):
        done = cli(*args, data_dir=data_dir)
        assert done.returncode == 0, done.stderr


def test_memory_refuses_instants_it_could_not_read_back(memory):
    far = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14)))
    with pytest.raises(InvalidInput, match="between the years"):
        memory.capture("too early", kind="note", created_at=far)
    a = memory.capture("a", kind="note")
    b = memory.capture("b", kind="note")
    with pytest.raises(InvalidInput, match="between the years"):
        memory.link(a.id, b.id, valid_from=far)
    assert memory.count() == 2 and memory.edges(a.id) == []


# -- case 6: numbers JSON readers reject, absurd sizes and depths -------------------------------

DEEP = "[" * 10000 + "]" * 10000


@pytest.mark.parametrize(
    "attrs",
    [
        '{"x": NaN}',
        '{"x": Infinity}',
        '{"x": -Infinity}',
        '{"x": 1e400}',
        '{"x": ' + "9" * 5000 + "}",
        '{"x": ' + DEEP + "}",
    ],
)
def test_bad_attrs_are_refused(data_dir, attrs):
    before = snapshot(data_dir)
    refused(cli("capture", "with attrs", "--kind", "note", "--attrs", attrs, data_dir=data_dir), "attrs")
    assert snapshot(data_dir) == before


@pytest.mark.parametrize(
    "text",
    [
        f'{{"format": "neurons-export/1", "neurons": [{{"id": "{uuid.uuid4()}", "kind": "note", "body": "b",'
        ' "attrs": {"x": NaN}}], "edges": []}',
        f'{{"format": "neurons-export/1", "neurons": [{{"id": "{uuid.uuid4()}", "kind": "note", "body": "b",'
        ' "attrs": {"x": 1e400}}], "edges": []}',
        f'{{"format": "neurons-export/1", "neurons": [{{"id": "{uuid.uuid4()}", "kind": "note", "body": "b",'
        f' "attrs": {{"x": {"1" * 5000}}}}}], "edges": []}}',
        f'{{"format": "neurons-export/1", "neurons": [{{"id": "{uuid.uuid4()}", "kind": "note", "body": "b",'
        f' "attrs": {{"x": {DEEP}}}}}], "edges": []}}',
    ],
)
def test_bad_imported_attrs_are_refused(data_dir, tmp_path, text):
    before = snapshot(data_dir)
    path = tmp_path / "bad.json"
    path.write_text(text)
    refused(cli("import", str(path), data_dir=data_dir))
    assert snapshot(data_dir) == before


@pytest.mark.parametrize(
    "edge_fields,word",
    [
        ({"weight": int("4" * 400)}, "digits"),
        ({"weight": float("nan")}, "NaN"),
        ({"weight": float("inf")}, "Infinity"),
        ({"derived_by": {"rule": "x"}}, "derived_by"),
    ],
)
def test_bad_imported_links_are_refused(data_dir, tmp_path, edge_fields, word):
    before = snapshot(data_dir)
    a, b = a_neuron(), a_neuron()
    edge = {
        "id": str(uuid.uuid4()),
        "from_id": a["id"],
        "to_id": b["id"],
        "relation_type": "relates_to",
        **edge_fields,
    }
    refused(cli("import", export_file(tmp_path, [a, b], [edge]), data_dir=data_dir), word)
    assert snapshot(data_dir) == before


@pytest.mark.parametrize("limit", ["-1", "0", "99999999999999999999"])
def test_absurd_limits_are_refused(data_dir, limit):
    refused(cli("list", "--limit", limit, data_dir=data_dir), "limit")
    refused(cli("ask", "party", "--limit", limit, data_dir=data_dir), "limit")


def test_a_nan_weight_is_refused_by_memory(memory):
    a = memory.capture("a", kind="note")
    b = memory.capture("b", kind="note")
    for weight in (float("nan"), float("inf"), 10**400):
        with pytest.raises(InvalidInput, match="weight"):
            memory.link(a.id, b.id, weight=weight)
    assert memory.edges(a.id) == []


# -- case 6: data dirs Neurons may not write ----------------------------------------------------


def test_a_read_only_data_dir_is_a_sentence(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a file system needs root")
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200m", "tmpfs", str(mount)]).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        data = mount / "data"
        assert cli("capture", "kept", "--kind", "note", data_dir=data).returncode == 0
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        for args in (("list",), ("capture", "refused", "--kind", "note")):
            refused(run_cli(*args, data_dir=data), "read-only")
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_data_dir_owned_by_another_user_is_a_sentence(tmp_path):
    """Run as nobody on root's data dir: chmod and every write fail with EPERM/EACCES."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run a command as another user")
    data = tmp_path / "data"
    assert cli("capture", "root's", "--kind", "note", data_dir=data).returncode == 0
    os.chmod(tmp_path, 0o755)
    for parent in tmp_path.parents:
        if parent == parent.parent:
            break
        os.chmod(parent, os.stat(parent).st_mode | 0o005) if str(parent).startswith("/tmp/") else None
    env = {"HOME": str(tmp_path), "NEURONS_MODEL_DIR": "/nonexistent"}
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *run_cli_argv(data, "list")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=_root(),
        env={**os.environ, **env},
    )
    if "No module named" in done.stderr:
        pytest.skip("the venv is not readable by nobody here")
    refused(done, "permission denied")


def run_cli_argv(data, *args):
    return [sys.executable, "-m", "core.cli", "--data-dir", str(data), *args]


def _root():
    return ROOT


def test_an_argument_that_is_not_utf8_is_called_so(data_dir):
    """Bytes a terminal in another encoding typed (Latin-1 'café'): Python holds them as lone
    surrogates, but what the person should read is which bytes are not UTF-8."""
    result = subprocess.run(
        [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), "capture", b"caf\xe9 at noon"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 2, result.stderr
    assert "unpaired surrogate" not in result.stderr
    assert "is not valid UTF-8 (byte 0xe9 at position 3)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_server_that_cannot_be_reached_is_said_in_one_line(tmp_path):
    result = cli("list", "--dsn", "postgresql://neurons@127.0.0.1:1/neurons", data_dir=tmp_path / "data")
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "cannot connect to the server database" in result.stderr
    assert "Connection refused" in result.stderr


def test_a_right_to_left_override_in_a_title_is_shown_not_obeyed(tmp_path):
    data = tmp_path / "data"
    typed = "invoice \u202egpj.exe and a zero\u200bwidth space"
    assert cli("capture", typed, "--kind", "note", data_dir=data).returncode == 0
    listed = cli("list", data_dir=data)
    assert listed.returncode == 0, listed.stderr
    assert "invoice \\u202egpj.exe and a zero\\u200bwidth space" in listed.stdout
    assert "\u202e" not in listed.stdout and "\u200b" not in listed.stdout
    # JSON's own escape: --json keeps the text exactly as typed
    shown = json.loads(cli("--json", "list", data_dir=data).stdout)
    assert typed in json.dumps(shown, ensure_ascii=False)
