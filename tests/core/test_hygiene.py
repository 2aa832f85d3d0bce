"""Output and input hygiene: control characters never reach the terminal raw,
a vault import stays inside the folder the person chose, a failed `move-to` leaves no copy
behind, and a restore's safety backups never push out the backups they protect. Real engines,
the `neurons` commands run in this process."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core import backup, cli, commands, instance
from core.interop.files import import_path
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT

MODEL = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"
HOSTILE = "Ana \x1b]0;owned\x07\x1b[2J\x1b[31mSilva\x9b1m\r\x7f"


@pytest.fixture(autouse=True)
def no_app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))


def neurons(capsys, data, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    return code, out, err


RAW = ("\x1b", "\x07", "\x9b", "\r", "\x7f")


def test_control_characters_never_reach_the_terminal_raw(fresh_data_dir, capsys):
    data = fresh_data_dir
    code, out, _ = neurons(capsys, data, "capture", HOSTILE, "--kind", "contact")
    assert code == 0
    for argv in (["list"], ["show", out.strip()], ["ask", "Ana"]):
        code, shown, err = neurons(capsys, data, *argv)
        assert code == 0 and "Ana" in shown, (shown, err)
        assert not any(c in shown + err for c in RAW), repr(shown)
        assert "\\u001b]0;owned\\u0007" in shown  # shown, visibly, not acted on
    # --json keeps the text exact: what is escaped is JSON's own \\u escape
    code, shown, _ = neurons(capsys, data, "list", "--json")
    assert not any(c in shown for c in RAW)
    assert json.loads(shown)[0]["body"] == HOSTILE
    # and the same through the running app's socket
    with Memory.open(Settings(data_dir=data, model_dir=MODEL, embed_in_background=False)) as memory:
        lock = instance.InstanceLock(data)
        assert lock.try_acquire()
        server = instance.InstanceServer(data, lambda m: commands.execute(memory, m["argv"]), lock)
        server.start()
        try:
            code, shown, err = neurons(capsys, data, "list")
        finally:
            server.stop()
            lock.release()
    assert code == 0 and "Ana" in shown and not any(c in shown + err for c in RAW), repr(shown)


def test_a_vault_import_stays_inside_the_chosen_folder(embedded_memory, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("a secret outside the vault\n")
    (outside / "folder").mkdir()
    (outside / "folder" / "also.md").write_text("also outside\n")
    vault = tmp_path / "vault"
    (vault / "Notes").mkdir(parents=True)
    (vault / "Notes" / "mine.md").write_text("a note of the vault\n")
    (vault / "Notes" / "linked.md").symlink_to(outside / "secret.md")
    (vault / "Linked folder").symlink_to(outside / "folder")
    (vault / "Notes" / "inside-link.md").symlink_to(vault / "Notes" / "mine.md")
    (vault / "Notes" / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    report = import_path(embedded_memory, vault)
    bodies = {n.body for n in embedded_memory.list()}
    assert "a secret outside the vault" not in bodies and "also outside" not in bodies
    assert "a note of the vault" in bodies
    why = {s["item"]: s["why"] for s in report.skipped}
    assert "outside the folder you chose" in why["Notes/linked.md"], why
    assert "leads nowhere" in why["Notes/dangling.md"], why
    assert "Linked folder/also.md" not in why  # a linked folder is not even entered
    # a vdir of cards is held to the same rule
    cards = tmp_path / "cards"
    cards.mkdir()
    (outside / "card.vcf").write_text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Outside\r\nUID:x\r\nEND:VCARD\r\n")
    (cards / "card.vcf").symlink_to(outside / "card.vcf")
    (cards / "real.vcf").write_text("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Inside\r\nUID:y\r\nEND:VCARD\r\n")
    report = import_path(embedded_memory, cards)
    assert report.created == 1 and [s["item"] for s in report.skipped] == ["card.vcf"]


@pytest.mark.server
def test_failed_move_to_attempts_leave_no_copy_behind(
    fresh_data_dir, capsys, server_store, server_dsn, server_admin_dsn
):
    data = fresh_data_dir
    assert neurons(capsys, data, "capture", "a note that will not move", "--kind", "note")[0] == 0
    device = uuid.UUID((data / "device_id").read_text().strip())
    # the server gives this device's id to another database role first: the move is refused
    other = f"other_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_admin_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{other}" LOGIN')
    parts = conninfo_to_dict(server_dsn)
    with psycopg.connect(make_conninfo(**{**parts, "user": other}), autocommit=True) as conn:
        conn.execute("SELECT neurons_claim_owner(current_user, %s)", (device,))
    for _ in range(3):
        code, _, err = neurons(capsys, data, "move-to", server_dsn)
        assert code == 2 and "belongs to another database role" in err, err
    assert list(data.glob("before-move-*")) == []
    assert neurons(capsys, data, "list", "--json")[1].count('"id"') == 1  # still here


def test_safety_backups_never_push_out_the_backup_they_protect(fresh_data_dir):
    with Memory.open(Settings(data_dir=fresh_data_dir, model_dir=MODEL, embed_in_background=False)) as memory:
        memory.capture("the memory worth keeping", kind="note")
        kept = memory.backup()
        for i in range(backup.KEEP_RECENT + 3):  # a day of attempts, each over a changed memory
            memory.capture(f"captured before attempt {i}", kind="note")
            done = memory.restore_backup(str(kept.path))
            assert "-before-restore" in done["before"]
        listed = backup.listing(fresh_data_dir)
        assert kept.path in {b.path for b in listed}
        tiers = backup.tiers(listed, backup.datetime.now().astimezone())
        assert tiers[kept.path] == "recent"
        assert sum(b.safety for b in listed) == backup.KEEP_SAFETY
        # restoring again over a memory that is exactly a backup adds none
        before = len(listed)
        again = memory.restore_backup(str(kept.path))
        assert again["before"] == str(kept.path) and len(backup.listing(fresh_data_dir)) == before
        assert {n.body for n in memory.list()} == {"the memory worth keeping"}


def test_backups_taken_in_one_second_keep_their_order(tmp_path):
    """A day of quick restore attempts can take many safety backups in one second: their names
    count up (-1, -2 ... -10), and "-10" sorts before "-9" as text. The newest are kept."""
    data = tmp_path / "data"
    backup.folder(data).mkdir(parents=True)
    now = backup.datetime(2026, 1, 1, 12, tzinfo=backup.UTC)
    made = []
    for _ in range(backup.KEEP_SAFETY + 3):
        path = backup._free_name(backup.folder(data), now, backup.SAFETY)
        path.write_bytes(b"")
        made.append(path)
    listed = backup.listing(data)
    assert [b.path for b in listed] == made[::-1]
    kept = {path for path, tier in backup.tiers(listed, now).items() if tier == "before restore"}
    assert kept == set(made[-backup.KEEP_SAFETY :])
