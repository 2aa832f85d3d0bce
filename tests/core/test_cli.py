"""The `neurons` command: its JSON is an interface, keep it stable. Its entry point runs in this
process (`cli`), each command opening the store as a process would; a piped capture and the first
capture of a data dir run as real child processes (`run_cli`)."""

from __future__ import annotations

import json
import re
import socket
import sys

import pytest

from tests.conftest import cli, on_a_terminal, run_cli


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli") / "data"


def cli_json(*args, data_dir):
    done = cli(*args, "--json", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_capture_show_list_edit_done_link_unlink(data_dir):
    plain = run_cli("capture", "Call the plumber about the leak", "--kind", "note", data_dir=data_dir)
    assert plain.returncode == 0, plain.stderr
    note_id = plain.stdout.strip()
    assert len(note_id) == 36

    contact = cli_json(
        "capture",
        "Ana Silva",
        "--kind",
        "contact",
        "--attrs",
        '{"name": "Ana Silva", "phones": ["+351 912 345 678"]}',
        data_dir=data_dir,
    )
    assert set(contact) == {"id", "kind", "body", "attrs", "state", "created_at", "updated_at", "edges"}
    assert contact["attrs"]["phones"] == ["+351 912 345 678"]

    edge = cli_json("link", note_id, contact["id"], "--relation", "concerns", data_dir=data_dir)
    shown = cli_json("show", note_id, data_dir=data_dir)
    assert set(shown) == {"id", "kind", "body", "attrs", "state", "created_at", "updated_at", "edges"}
    [e] = shown["edges"]
    assert {"relation_type", "other_id", "valid_from", "valid_to"} <= set(e)
    assert e["other_id"] == contact["id"] and e["relation_type"] == "concerns" and e["valid_to"] is None

    edited = cli_json("edit", note_id, "--text", "Call the plumber about the kitchen leak", data_dir=data_dir)
    assert edited["body"] == "Call the plumber about the kitchen leak"
    assert cli_json("done", note_id, data_dir=data_dir)["state"] == "done"
    closed = cli_json("unlink", edge["id"], data_dir=data_dir)
    assert closed["valid_to"] is not None

    listed = cli_json("list", data_dir=data_dir)
    assert [n["id"] for n in listed] == [contact["id"]]  # the done note is not active
    assert cli_json("list", "--state", "done", data_dir=data_dir)[0]["id"] == note_id


def test_capture_says_the_due_time_it_read(data_dir):
    """A reminder's due time as read, on stderr (stdout stays the id a script reads); a note, none."""
    done = cli("capture", "dentist on 22/04 at 10", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 36
    assert re.search(r"due Thu 22 Apr( \d{4})? 10:00", done.stderr), done.stderr
    note = cli("capture", "Call the plumber about the leak", "--kind", "note", data_dir=data_dir)
    assert "due" not in note.stderr


def test_capture_says_a_date_no_calendar_has_is_no_day(data_dir):
    """ "30. Februar" is said to be no day, not silently saved with no date or another one; the
    --due of an edit refuses it with the same words."""
    done = cli("capture", "Zahnarzt am 30. Februar um 10", data_dir=data_dir)
    assert done.returncode == 0 and "30 February is no day: saved without a due time" in done.stderr
    assert "due_at" not in cli_json("show", done.stdout.strip(), data_dir=data_dir)["attrs"]
    refused = cli("edit", done.stdout.strip(), "--due", "31 de abril", data_dir=data_dir)
    assert refused.returncode == 2 and "31 April is no day" in refused.stderr


def test_the_data_dirs_date_region_reads_numeric_dates(data_dir):
    """`config set date-region` is kept in the data dir and read by every command after it: 05/06
    is May 6 in the US, said with its doubt; an unknown region is refused and nothing is kept;
    NEURONS_DATE_REGION still wins."""
    from core import config  # noqa: PLC0415 - only this test

    plain = {"NEURONS_DATE_REGION": "", "LC_ALL": "pt_PT.UTF-8"}
    refused = run_cli("config", "set", "date-region", "xx_YY", data_dir=data_dir, env=plain)
    assert refused.returncode == 2 and "not a region" in refused.stderr
    assert config.load(data_dir).date_region is None
    assert run_cli("config", "set", "date-region", "en_US", data_dir=data_dir, env=plain).returncode == 0
    assert config.load(data_dir).date_region == "en_US"
    done = run_cli("capture", "dentist 05/06 at 10", data_dir=data_dir, env=plain)
    assert re.search(r"due \w+ 6 May( \d{4})? 10:00 \(05/06 read month first", done.stderr), done.stderr
    pt = {**plain, "NEURONS_DATE_REGION": "pt_PT"}
    env_wins = run_cli("capture", "vet 05/06 at 10", data_dir=data_dir, env=pt)
    assert re.search(r"due \w+ 5 Jun( \d{4})? 10:00 \(05/06 read day first", env_wins.stderr), env_wins.stderr
    assert run_cli("config", "unset", "date-region", data_dir=data_dir, env=plain).returncode == 0
    assert config.load(data_dir).date_region is None


def test_stdin_capture_and_clear_errors(data_dir):
    piped = run_cli("capture", "-", "--kind", "note", data_dir=data_dir, input="from a pipe ✨\n")
    assert piped.returncode == 0, piped.stderr
    assert cli_json("show", piped.stdout.strip(), data_dir=data_dir)["body"] == "from a pipe ✨\n"
    for args, message in [
        (("capture", "", "--kind", "note"), "empty"),
        (("show", "123"), "neither an id nor its first"),
        (("show", "00000000-0000-0000-0000-000000000000"), "no neuron"),
        (("capture", "x", "--attrs", "{broken"), "invalid JSON"),
        (("import", "/nonexistent.json"), "cannot read"),
    ]:
        done = cli(*args, data_dir=data_dir)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_export_import_and_doctor(data_dir, tmp_path, fresh_data_dir):
    out = tmp_path / "export.json"
    assert cli("export", str(out), data_dir=data_dir).returncode == 0
    exported = json.loads(out.read_text())
    assert exported["format"] == "neurons-export/1" and exported["neurons"]
    other = fresh_data_dir  # a store no one has used
    counts = cli_json("import", str(out), data_dir=other)
    assert counts == {
        "format": "json",
        "created": len(exported["neurons"]),
        "updated": 0,
        "unchanged": 0,
        "skipped": [],
    }
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "neurons-export/1", "neurons": [')
    done = cli("import", str(broken), data_dir=other)
    assert done.returncode == 2 and "cannot read" in done.stderr

    report = cli_json("doctor", data_dir=other)
    assert report["engine"] == "embedded" and report["data_dir"] == str(other)
    assert {"pid", "started_at", "host"} <= set(report["lock"])
    assert report["neurons"] == len(exported["neurons"])
    assert {"name", "sha256", "ready"} <= set(report["model"])
    assert report["pending_vectors"] == report["neurons"] or report["model"]["ready"] is False
    assert {"vector", "pg_trgm"} <= set(report["extensions"])


def test_ask_and_about_json(fresh_data_dir):
    data = fresh_data_dir
    ana = cli_json(
        "capture", "Ana Silva", "--kind", "contact", "--attrs", '{"name": "Ana Silva"}', data_dir=data
    )
    lunch = cli_json("capture", "lunch at the Lebanese place on Friday", "--kind", "note", data_dir=data)
    cli_json("link", lunch["id"], ana["id"], "--relation", "concerns", data_dir=data)
    answers = cli_json("ask", "Lebanese lunch", data_dir=data)
    assert answers[0]["id"] == lunch["id"]
    assert {"id", "kind", "title", "score", "why", "neuron"} <= set(answers[0])
    about = cli_json("about", "Ana", data_dir=data)
    assert about["contact"]["id"] == ana["id"]
    assert lunch["id"] in [r["id"] for r in about["timeline"]]


def test_a_new_memory_says_what_it_is_doing_on_a_terminal_only(tmp_path):
    """The first command on a new data dir waits while the engine makes its database: on a
    terminal it says so ("making a new memory in …"), then clears the line; through a pipe (a
    script, a log) not a byte of it, and the store it made answers the next command."""
    data = tmp_path / "data"
    command = [
        sys.executable,
        "-m",
        "core.cli",
        "--data-dir",
        str(data),
        "capture",
        "the spare key is with Maria",
    ]
    done, shown = on_a_terminal(command)
    assert done.returncode == 0
    assert shown.startswith(f"neurons: making a new memory in {data}".encode()) and shown.endswith(
        b"\r\x1b[K"
    )
    again = run_cli("capture", "the boiler is serviced in May", data_dir=data)  # exists now: silent
    piped = run_cli("capture", "call the bank", data_dir=tmp_path / "other")
    assert again.returncode == 0 and again.stderr == "" and piped.returncode == 0 and piped.stderr == ""
    listed = run_cli("list", "--json", data_dir=data)
    assert len(json.loads(listed.stdout)) == 2


def test_the_entry_point_in_this_process_answers_as_a_process_does(tmp_path):
    """`cli` (the entry point here) and `run_cli` (a child process) give the same exit code,
    stdout and stderr: for a usage error, --version, a refusal, a warning logged on taking over a
    dead owner's lock, and a capture read from stdin."""
    data = tmp_path / "data"
    assert run_cli("capture", "kept", "--kind", "note", data_dir=data).returncode == 0
    dead_owner = json.dumps(
        {"pid": 2**22 + 1, "host": socket.gethostname(), "command": "neurons", "acquired_at": "then"}
    )
    for args, given in [
        (("bogus",), None),
        (("--version",), None),
        (("list", "--limit", "-1"), None),
        (("list", "--json"), None),
        (("capture", "-", "--kind", "note", "--json"), "from a pipe\n"),
    ]:
        answers = []
        for run in (cli, run_cli):
            (tmp_path / "data.lock.json").write_text(dead_owner)  # a pid above any pid_max: dead
            answers.append(run(*args, data_dir=data, input=given))
        here, there = answers
        if args[0] == "capture":  # a new neuron each time: the same fields, another id and time
            assert here.returncode == there.returncode == 0, (here.stderr, there.stderr)
            assert set(json.loads(here.stdout)) == set(json.loads(there.stdout))
        else:
            assert (here.returncode, here.stdout, here.stderr) == (
                there.returncode,
                there.stdout,
                there.stderr,
            )
    assert "taking over the stale lock" in here.stderr
