"""A restore says whose memory the backup holds and makes the data dir act as that owner (as
`profile join` would), or refuses before changing anything; doctor notices a data dir that acts
as an owner the database lacks. Real embedded stores, one per data dir; the
commands as the CLI and the running app's socket run them."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from core import backup, commands, config, instance
from core.commands.profile import create_profile
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT, copy_data_dir, run_cli

MODEL = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"


def opened(data_dir: Path) -> Memory:
    return Memory.open(Settings.from_env(data_dir=data_dir, model_dir=MODEL, embed_in_background=False))


def run(data_dir: Path, *argv: str, as_json: bool = True) -> dict:
    """A command as the CLI runs it when no app holds the data dir."""
    with opened(data_dir) as memory:
        done = commands.execute(memory, [argv[0], *(["--json"] if as_json else []), *argv[1:]])
    as_data = as_json and done["code"] == 0
    return {**done, "data": json.loads(done["stdout"]) if as_data else None}


def bodies(data_dir: Path) -> set[str]:
    with opened(data_dir) as memory:
        return {n.body for n in memory.list()}


def test_a_profiles_backup_restored_in_an_anonymous_data_dir_makes_it_act_as_that_profile(
    tmp_path, made_data_dir
):
    theirs, mine = (copy_data_dir(made_data_dir, tmp_path / name) for name in ("ana", "fresh"))
    with opened(theirs) as ana:
        ana.capture("Ana's note from before the profile", kind="note")
        made = create_profile(ana, "Ana")
    with opened(theirs) as again:  # the data dir acts as the profile now
        again.capture("Ana's note as the profile", kind="note")
        path = str(again.backup().path)
    with opened(mine) as fresh:
        fresh.capture("this machine's own note", kind="note")
    done = run(mine, "restore", path, as_json=False)
    assert done["code"] == 0, done["stderr"]
    assert f"the memory of profile Ana ({made['id']}), which this data dir now acts as" in done["stdout"]
    assert "it acted as its anonymous device); 2 neurons are its" in done["stdout"]
    before = done["stderr"].strip().removeprefix("the memory as it was before is in ")
    assert config.load(mine).profile_id == uuid.UUID(made["id"])
    assert bodies(mine) == {"Ana's note from before the profile", "Ana's note as the profile"}
    shown = run(mine, "profile", "show")["data"]
    assert (shown["id"], shown["name"]) == (made["id"], "Ana")
    assert run(mine, "doctor")["code"] == 0
    # the data dir's own note is in the backup taken first
    assert "this machine's own note" in {n["body"] for n in backup.load(before)["neurons"]}


def test_an_anonymous_backup_restored_where_a_profile_was_leaves_the_profile(tmp_path, made_data_dir):
    anon, prof = (copy_data_dir(made_data_dir, tmp_path / name) for name in ("anon", "prof"))
    with opened(anon) as memory:
        memory.capture("an anonymous device's note", kind="note")
        path = str(memory.backup().path)
    with opened(prof) as memory:
        create_profile(memory, "Rosa")
    with opened(prof) as memory:
        memory.capture("Rosa's note", kind="note")
    done = run(prof, "restore", path)
    assert done["code"] == 0, done["stderr"]
    assert done["data"]["adopted"] and done["data"]["owner"] is None
    assert config.load(prof).profile_id is None
    assert bodies(prof) == {"an anonymous device's note"}
    assert run(prof, "profile", "show")["data"]["profile"] is None
    assert run(prof, "doctor")["code"] == 0
    # restoring the data dir's own backup again changes nobody's identity
    again = run(prof, "restore", path)
    assert again["code"] == 0 and not again["data"]["adopted"]


def test_the_running_app_refuses_another_owners_backup_before_changing_anything(tmp_path, made_data_dir):
    theirs, mine = (copy_data_dir(made_data_dir, tmp_path / name) for name in ("ana", "app"))
    with opened(theirs) as ana:
        create_profile(ana, "Ana")
    with opened(theirs) as ana:
        ana.capture("Ana's note", kind="note")
        path = str(ana.backup().path)
    with opened(mine) as memory:
        memory.capture("the app's own note", kind="note")
        lock = instance.InstanceLock(mine)
        assert lock.try_acquire()
        server = instance.InstanceServer(mine, lambda m: commands.execute(memory, m["argv"]), lock)
        server.start()
        try:
            done = run_cli("restore", path, data_dir=mine)
        finally:
            server.stop()
            lock.release()
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "holds the memory of profile Ana" in done.stderr and "quit the Neurons app" in done.stderr
        assert "nothing was restored" in done.stderr
        assert {n.body for n in memory.list()} == {"the app's own note"}
    assert config.load(mine).profile_id is None


def test_doctor_notices_a_data_dir_acting_as_an_owner_the_database_lacks(fresh_data_dir):
    data = fresh_data_dir
    with opened(data) as memory:
        memory.capture("a note", kind="note")
    missing = uuid.uuid4()
    config.save(data, config.Config(profile_id=missing, profile_name="Gone"))
    done = run_cli("doctor", data_dir=data)
    assert done.returncode == 1, done.stderr
    assert f"this data dir acts as profile {missing}, which this database does not hold" in done.stderr
    assert "Traceback" not in done.stderr
