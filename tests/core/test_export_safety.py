"""Exports write only files that do not exist or that Neurons wrote itself:
never a person's own note that shares a name, never through a symbolic link, never one vCard's
file for another's UID. On the real embedded store; the command line's answer in a real process."""

from __future__ import annotations

import json
import os

import pytest

from core.files import write_private
from core.interop import files
from core.interop.files import MANIFEST, _file_name, export_path, import_path
from core.model import InvalidInput
from tests.conftest import cli


@pytest.fixture
def mem(embedded_memory):
    embedded_memory.capture("Ana Silva ana@example.org +351 912 345 678", kind="contact")
    embedded_memory.capture("call Ana about the boat", kind="note")
    return embedded_memory


def test_a_vault_note_of_the_same_name_is_never_replaced(mem, tmp_path):
    vault = tmp_path / "Vault"
    (vault / "Contacts").mkdir(parents=True)
    own = vault / "Contacts" / "Ana Silva.md"
    own.write_text("my own note about Ana\n")
    for force in (False, True):  # --force is for what Neurons exported, never a person's files
        with pytest.raises(InvalidInput, match="Ana Silva.md already exists and Neurons did not write it"):
            export_path(mem, vault, "markdown", force=force)
    assert own.read_text() == "my own note about Ana\n"
    assert sorted(p.name for p in vault.rglob("*")) == ["Ana Silva.md", "Contacts"]


def test_the_command_line_refuses_in_one_line(tmp_path, fresh_data_dir):
    data, vault = fresh_data_dir, tmp_path / "Vault"
    assert cli("capture", "Ana Silva ana@example.org", "--kind", "contact", data_dir=data).returncode == 0
    (vault / "Contacts").mkdir(parents=True)
    (vault / "Contacts" / "Ana Silva.md").write_text("mine\n")
    done = cli("export", str(vault), "--format", "markdown", data_dir=data)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"neurons: {vault}/Contacts/Ana Silva.md already exists and Neurons")
    assert done.stderr.endswith("(nothing was written)\n")
    link = tmp_path / "out.json"
    link.symlink_to(vault / "Contacts" / "Ana Silva.md")
    done = cli("export", str(link), data_dir=data)
    assert done.returncode == 2 and "is a symbolic link" in done.stderr, done.stderr
    assert (vault / "Contacts" / "Ana Silva.md").read_text() == "mine\n"


def test_a_folder_neurons_exported_to_is_updated_and_a_changed_file_needs_force(mem, tmp_path):
    vault = tmp_path / "out"
    export_path(mem, f"{vault}/", "markdown")
    manifest = json.loads((vault / MANIFEST).read_text())
    assert sorted(manifest["files"]) == sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))
    export_path(mem, vault, "markdown")  # its own files, unchanged since: replaced
    card = vault / "Contacts" / "Ana Silva.md"
    card.write_text(card.read_text() + "\nmy edit\n")
    with pytest.raises(InvalidInput, match="changed since Neurons exported it here: --force replaces"):
        export_path(mem, vault, "markdown")
    assert card.read_text().endswith("my edit\n")
    export_path(mem, vault, "markdown", force=True)
    assert "my edit" not in card.read_text()
    # the manifest is no note of the vault: a re-import finds the memory as it was
    assert import_path(mem, vault).unchanged == 2


def test_a_symbolic_link_is_never_written_through(mem, tmp_path):
    victim = tmp_path / "someone-elses.txt"
    victim.write_text("not yours\n")
    victim.chmod(0o644)
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    with pytest.raises(InvalidInput, match="is a symbolic link .* nothing was written"):
        export_path(mem, link)
    assert victim.read_text() == "not yours\n" and oct(victim.stat().st_mode & 0o777) == "0o644"
    # nor a folder on the way into an export folder, nor the folder itself
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Contacts").symlink_to(elsewhere)
    with pytest.raises(InvalidInput, match="Contacts is a symbolic link"):
        export_path(mem, vault, "markdown")
    (tmp_path / "linked").symlink_to(elsewhere)
    with pytest.raises(InvalidInput, match="linked is a symbolic link"):
        export_path(mem, f"{tmp_path / 'linked'}/", "vcard")
    assert list(elsewhere.iterdir()) == []
    # nor a planted temp file: Neurons' temp name is created new, never opened
    target = tmp_path / "mine.json"
    (tmp_path / f"mine.json.{os.getpid()}.tmp").symlink_to(victim)
    write_private(target, "x")
    assert victim.read_text() == "not yours\n" and target.read_text() == "x"


def test_a_single_file_is_replaced_only_when_neurons_wrote_it(mem, tmp_path):
    for name in ("memory.json", "cards.vcf", "tasks.ics"):
        kind = {"memory.json": None, "cards.vcf": "contact", "tasks.ics": "reminder"}[name]
        export_path(mem, tmp_path / name, kind=kind)
        export_path(mem, tmp_path / name, kind=kind)  # ours: replaced
    theirs = tmp_path / "notes.json"
    theirs.write_text('{"mine": true}\n')
    cards = tmp_path / "theirs.vcf"
    cards.write_text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\nEND:VCARD\r\n")
    for path in (theirs, cards):
        with pytest.raises(InvalidInput, match="exists and Neurons did not write it"):
            export_path(mem, path)
    assert theirs.read_text() == '{"mine": true}\n' and "Someone" in cards.read_text()


def test_uids_never_share_a_file_name(embedded_memory, tmp_path):
    assert _file_name("a/b") != _file_name("a_b") == "a_b"
    assert _file_name("urn:uuid:1234") == "1234"
    assert _file_name("x" * 300) != _file_name("x" * 301)
    assert not _file_name(".hidden").startswith(".")
    vcf = tmp_path / "two.vcf"
    vcf.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a/b\r\nFN:Slash Person\r\nEMAIL:s@example.org\r\nEND:VCARD\r\n"
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a_b\r\nFN:Under Person\r\nEMAIL:u@example.org\r\nEND:VCARD\r\n"
    )
    import_path(embedded_memory, vcf)
    folder = tmp_path / "people"
    folder.mkdir()
    (folder / "a_b.vcf").write_text("BEGIN:VCARD\r\nFN:unrelated\r\nEND:VCARD\r\n")
    with pytest.raises(InvalidInput, match="a_b.vcf already exists and Neurons did not write it"):
        export_path(embedded_memory, folder, "vcard")
    assert "unrelated" in (folder / "a_b.vcf").read_text()
    fresh = tmp_path / "fresh"
    export_path(embedded_memory, f"{fresh}/", "vcard")
    names = sorted(p.name for p in fresh.glob("*.vcf"))
    assert len(names) == 2 and "a_b.vcf" in names
    assert b"UID:a_b\r\n" in (fresh / "a_b.vcf").read_bytes()
    export_path(embedded_memory, fresh, "vcard")  # the same names the second time
    assert sorted(p.name for p in fresh.glob("*.vcf")) == names


def test_an_export_cut_off_midway_leaves_only_files_neurons_can_tell_are_its_own(mem, tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    export_path(mem, vault, "markdown")
    mem.capture("a second note, so the next export changes files", kind="note")
    mem.edit(mem.list(kind="note")[0].id, text="call Ana about the boat, on Friday")
    calls = {"n": 0}
    real = files._write

    def dying(path, data, sync=True, new=False):
        if path.name != MANIFEST:
            calls["n"] += 1
            if calls["n"] == 2:
                raise KeyboardInterrupt  # as if the process were stopped here
        real(path, data, sync, new)

    monkeypatch.setattr(files, "_write", dying)
    with pytest.raises(KeyboardInterrupt):
        export_path(mem, vault, "markdown")
    monkeypatch.setattr(files, "_write", real)
    export_path(mem, vault, "markdown")  # no --force needed: every file there is Neurons'


def test_a_cut_off_export_leaves_a_manifest_that_names_only_what_is_on_disk(mem, tmp_path, monkeypatch):
    for i in range(6):
        mem.capture(f"note number {i} of a vault cut off midway", kind="note")
    vault = tmp_path / "vault"
    calls = {"n": 0}
    real = files._write

    def dying(path, data, sync=True, new=False):
        if path.name != MANIFEST:
            calls["n"] += 1
            if calls["n"] == 3:
                raise KeyboardInterrupt  # as if the process were stopped here
        real(path, data, sync, new)

    monkeypatch.setattr(files, "_write", dying)
    with pytest.raises(KeyboardInterrupt):
        export_path(mem, vault, "markdown")
    monkeypatch.setattr(files, "_write", real)
    manifest = json.loads((vault / MANIFEST).read_text())
    assert all((vault / name).exists() for name in manifest["files"])
    assert len(manifest.get("writing", {})) == 8  # what it was writing, claimed as no file on disk
    report = import_path(mem, vault)
    assert report.missing == []


def test_an_import_of_a_folder_whose_manifest_names_missing_files_says_so(mem, tmp_path, fresh_data_dir):
    for i in range(4):
        mem.capture(f"note number {i} of a vault that lost files", kind="note")
    vault = tmp_path / "vault"
    export_path(mem, vault, "markdown")
    notes = sorted(vault.rglob("*.md"))
    for lost in notes[:3]:
        lost.unlink()  # as an export cut off before it wrote them left the folder
    result = cli("import", str(vault), data_dir=fresh_data_dir)
    assert result.returncode == 1, result.stderr
    assert "missing: the folder's export manifest names 3 files that are not in it" in result.stdout
    assert "Traceback" not in result.stderr


def test_an_export_of_no_contacts_writes_no_empty_file(tmp_path, fresh_data_dir):
    result = cli("export", str(tmp_path / "contacts.vcf"), data_dir=fresh_data_dir)
    assert result.returncode == 2, result.stderr
    assert "no contacts to export" in result.stderr and "nothing was written" in result.stderr
    assert not (tmp_path / "contacts.vcf").exists()
