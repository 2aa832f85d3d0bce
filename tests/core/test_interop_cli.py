"""The import/export command line, as other tools script it: the entry point in this process
(`cli`), a real `neurons` process (`run_cli`) for the summary a person reads and in a terminal."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.bench.bench_interop import vcards
from tests.conftest import ROOT, cli, on_a_terminal, run_cli

FILES = Path(__file__).parent / "interop_files"
REGION = {"NEURONS_PHONE_REGION": "PT"}


def cli_json(*args: str, data_dir: Path) -> object:
    done = cli(*args, "--json", data_dir=data_dir, env=REGION)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_import_prints_the_contract_and_reimport_changes_nothing(tmp_path, fresh_data_dir):
    data = fresh_data_dir
    first = cli_json("import", str(FILES / "google.vcf"), data_dir=data)
    assert first == {
        "format": "vcard",
        "created": 2,
        "updated": 0,
        "unchanged": 0,
        "skipped": [],
        "birthday_reminders": 2,  # both cards have a birthday: each a yearly reminder
    }
    again = cli_json("import", str(FILES / "google.vcf"), "--format", "vcard", data_dir=data)
    assert again == {
        "format": "vcard",
        "created": 0,
        "updated": 0,
        "unchanged": 2,
        "skipped": [],
    }
    tasks = cli_json("import", str(FILES / "broken.ics"), data_dir=data)
    assert (tasks["format"], tasks["created"]) == ("ics", 5)  # a UID-less task gets one from its content
    assert tasks["skipped"] == [
        {"item": "VTODO at line 27", "why": "it is not finished (no END:VTODO): the file is truncated"}
    ]
    assert tasks["dropped"] == [
        {
            "item": "VTODO 'Call the rover' (line 13)",
            "why": "unknown time zone 'Mars/Olympus_Mons' (the file does not define it): read as local time",
        },
        {
            "item": "VTODO 'Caf\u00e9' (line 18)",
            "why": "line 20 is not valid UTF-8: read as Windows-1252 (Western European)",
        },
    ]
    said = run_cli("import", str(FILES / "google.vcf"), data_dir=tmp_path / "other", env=REGION)
    assert said.stdout == "vcard: 2 created, 0 updated, 0 unchanged, 0 skipped; 2 birthday reminders made\n"
    text = cli("import", str(FILES / "broken.ics"), data_dir=data, env=REGION)
    assert text.returncode == 0 and text.stdout.startswith(
        "ics: 0 created, 0 updated, 5 unchanged, 1 skipped\n"
    )
    assert "  imported VTODO 'Call the rover' (line 13), but unknown time zone" in text.stdout


def test_all_or_nothing_and_bad_paths_are_clear_errors(tmp_path, fresh_data_dir):
    data = fresh_data_dir
    refused = cli("import", str(FILES / "broken.vcf"), "--all-or-nothing", data_dir=data)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith("neurons: nothing was imported: card at line 6 (nameless@example.org)")
    assert cli_json("list", data_dir=data) == []
    for args, message in [
        (("import", str(tmp_path / "missing.vcf")), "cannot read"),
        (("import", str(FILES)), None),  # a folder of mixed files: the most common kind wins
        (("import", str(tmp_path / "notes.txt")), "cannot read"),
        (("export", str(tmp_path / "c.vcf"), "--kind", "note"), "a vCard export holds contacts only"),
    ]:
        done = cli(*args, data_dir=data)
        if message is None:
            assert done.returncode == 0, done.stderr
        else:
            assert done.returncode == 2 and message in done.stderr, (args, done.stderr)


def test_export_formats_layouts_and_versions(tmp_path, fresh_data_dir):
    data = fresh_data_dir
    cli_json("import", str(FILES / "cardbook.vcf"), data_dir=data)
    cli_json("import", str(FILES / "nextcloud-tasks.ics"), data_dir=data)
    vdir = cli_json(
        "export", f"{tmp_path}/contacts/", "--format", "vcard", "--vcard-version", "3.0", data_dir=data
    )
    assert vdir == {"format": "vcard", "path": str(tmp_path / "contacts"), "items": 3, "files": 3}
    card = (tmp_path / "contacts" / "9b2f6c1e-3d4a-4b5c-8d7e-0f1a2b3c4d5e.vcf").read_text()
    assert "VERSION:3.0" in card and "FN:Ελένη Παπαδοπούλου" in card
    one = cli_json("export", str(tmp_path / "tasks.ics"), data_dir=data)  # the extension says ics
    assert one == {"format": "ics", "path": str(tmp_path / "tasks.ics"), "items": 6, "files": 1}
    plain = run_cli("export", str(tmp_path / "all.json"), "--kind", "contact", data_dir=data)
    assert plain.returncode == 0 and plain.stderr.startswith("exported 3 items as json to ")
    exported = json.loads((tmp_path / "all.json").read_text())
    assert exported["format"] == "neurons-export/1" and {n["kind"] for n in exported["neurons"]} == {
        "contact"
    }


def test_a_markdown_vault_carries_a_memory_to_an_empty_data_dir(tmp_path, fresh_data_dir):
    old, new = fresh_data_dir, tmp_path / "new"  # the new one made by the import
    cli_json("import", str(FILES / "google.vcf"), data_dir=old)
    cli_json("import", str(FILES / "thunderbird.ics"), data_dir=old)
    assert (
        run_cli(
            "capture", "Lunch with Ana Sofia Ribeiro next week", "--kind", "note", data_dir=old
        ).returncode
        == 0
    )
    cli_json("export", str(tmp_path / "vault"), "--format", "markdown", data_dir=old)
    report = cli_json("import", str(tmp_path / "vault"), data_dir=new)
    assert report["format"] == "markdown" and report["skipped"] == []

    def memory(data_dir):
        done = run_cli("export", data_dir=data_dir)
        dump = json.loads(done.stdout)
        return (sorted(dump["neurons"], key=lambda n: n["id"]), sorted(dump["edges"], key=lambda e: e["id"]))

    neurons, edges = memory(old)
    assert report["created"] == len(neurons) and memory(new) == (neurons, edges)


def test_a_long_import_shows_how_far_it_got_on_a_terminal_only(tmp_path):
    """stderr on a real pseudo-terminal: "importing… N of M" redrawn, then cleared; through a pipe
    (a script, a log): not a byte of it."""
    book = tmp_path / "big.vcf"
    book.write_bytes(vcards(2500, random.Random(3)))
    command = [sys.executable, "-m", "core.cli", "--data-dir", str(tmp_path / "data"), "import", str(book)]
    done, shown = on_a_terminal(command)
    assert done.returncode == 0 and done.stdout.startswith(b"vcard: 2500 created")
    assert b"importing\xe2\x80\xa6 " in shown and b" of 2,500" in shown and shown.endswith(b"\r\x1b[K")
    piped = subprocess.run(command, capture_output=True, cwd=ROOT, timeout=300)
    assert piped.returncode == 0 and piped.stdout.startswith(b"vcard: 0 created") and piped.stderr == b""
