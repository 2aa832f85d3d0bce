"""What used to end in a traceback (the deep backup is in test_bombs.py): a
config.json of nested brackets, `move-to` as a role that may not create pgvector, a server older
than Neurons needs. Each is now one sentence saying what to do, and the commands that do not need
config.json still work."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core import cli
from core.store import versions
from tests.conftest import run_cli


def one_line(capsys, code: int, expected_code: int = 2) -> str:
    out, err = capsys.readouterr()
    assert code == expected_code, (out, err)
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


def test_a_config_json_of_nested_brackets(tmp_path, capsys):
    data = tmp_path / "data"
    assert run_cli("capture", "a note", "--kind", "note", data_dir=data).returncode == 0
    (data / "config.json").write_text("[" * 200_000 + "]" * 200_000)
    for argv in (["list"], ["doctor"], ["config", "show"], ["config", "unset", "dsn"]):
        err = one_line(capsys, cli.main(["--data-dir", str(data), *argv]))
        assert f"{data / 'config.json'} is not a config Neurons can read (its JSON: nested too deeply" in err
        assert "move it aside" in err
    # what does not need it still works
    for argv in (["backups"], ["unlock"]):
        assert cli.main(["--data-dir", str(data), *argv]) == 0, capsys.readouterr()
    for broken in ('{"profile": [1, 2]}', '{"dsn": 5}', b"\xff\xfe"):
        (data / "config.json").write_bytes(broken if isinstance(broken, bytes) else broken.encode())
        assert "is not a config Neurons can read" in one_line(
            capsys, cli.main(["--data-dir", str(data), "list"])
        )


@pytest.mark.server
def test_move_to_as_a_role_that_may_not_create_pgvector(tmp_path, capsys, server_admin_dsn, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    tag = uuid.uuid4().hex[:8]
    role, database = f"plain_{tag}", f"novector_{tag}"
    with psycopg.connect(server_admin_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER NOBYPASSRLS')
        admin.execute(f'CREATE DATABASE "{database}" OWNER "{role}"')
    parts = conninfo_to_dict(server_admin_dsn)
    parts.update(user=role, dbname=database)
    data = tmp_path / "data"
    assert cli.main(["--data-dir", str(data), "capture", "a note to move", "--kind", "note"]) == 0
    capsys.readouterr()
    err = one_line(capsys, cli.main(["--data-dir", str(data), "move-to", make_conninfo(**parts)]))
    assert f"the database {database} on" in err and f"role {role} may not create it" in err
    assert 'ask the database\'s admin to run "CREATE EXTENSION vector;" in it as a superuser' in err
    assert "nothing was changed" in err
    assert cli.main(["--data-dir", str(data), "config", "show", "--json"]) == 0
    assert '"dsn"' not in capsys.readouterr().out  # still the embedded engine


@pytest.mark.server
def test_a_server_older_than_neurons_needs_is_named_with_the_version_it_needs(
    tmp_path, capsys, server_admin_dsn, monkeypatch
):
    """The real server's versions, compared against minimums set just past them: the refusal
    comes at connect time, before any schema update (pgvector 0.4 used to fail in the middle of
    the first one with the server's "access method hnsw does not exist")."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    tag = uuid.uuid4().hex[:8]
    role = f"plain_{tag}"
    dsns = {}
    with psycopg.connect(server_admin_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER NOBYPASSRLS')
        for kind in ("ready", "bare"):  # pgvector made in it by the admin, or not yet
            admin.execute(f'CREATE DATABASE "{kind}_{tag}" OWNER "{role}"')
            parts = {**conninfo_to_dict(server_admin_dsn), "dbname": f"{kind}_{tag}"}
            if kind == "ready":
                with psycopg.connect(make_conninfo(**parts), autocommit=True) as db:
                    db.execute("CREATE EXTENSION vector")
                    db.execute("CREATE EXTENSION pg_trgm")
            dsns[kind] = make_conninfo(**{**parts, "user": role})
        num, version = admin.execute(
            "SELECT current_setting('server_version_num')::int, current_setting('server_version')"
        ).fetchone()
        (pgvector,) = admin.execute(
            "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
        ).fetchone()

    def refused(kind: str) -> str:
        data = tmp_path / kind
        return one_line(capsys, cli.main(["--data-dir", str(data), "--dsn", dsns[kind], "list"]))

    def untouched(kind: str) -> bool:
        with psycopg.connect(dsns[kind]) as db:
            return db.execute("SELECT to_regclass('schema_version') IS NULL").fetchone()[0]

    monkeypatch.setattr(versions, "POSTGRES_MINIMUM", num // 10000 + 1)
    err = refused("ready")
    assert f"the server of the database ready_{tag} on" in err
    assert (
        f"runs PostgreSQL {version.split()[0]}; Neurons needs PostgreSQL {num // 10000 + 1} or newer" in err
    )
    assert "nothing was changed" in err and untouched("ready")

    monkeypatch.undo()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    newer = (*versions.release(pgvector)[:2], versions.release(pgvector)[2] + 1)
    monkeypatch.setattr(versions, "PGVECTOR_MINIMUM", newer)
    needed = "Neurons needs pgvector {} or newer".format(".".join(map(str, newer)))
    err = refused("ready")
    assert f"the database ready_{tag} on" in err and f"has pgvector {pgvector}; {needed}" in err
    assert '"ALTER EXTENSION vector UPDATE;"' in err and untouched("ready")
    err = refused("bare")  # not made yet: the one the server would make
    assert (
        f"the server of the database bare_{tag} on" in err
        and f"has pgvector {pgvector} installed; {needed}" in err
    )
    assert untouched("bare")

    monkeypatch.undo()  # the documented minimums: the real server passes
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert cli.main(["--data-dir", str(tmp_path / "ready"), "--dsn", dsns["ready"], "list"]) == 0, (
        capsys.readouterr()
    )
    assert not untouched("ready")
