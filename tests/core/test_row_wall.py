"""Row-level security as a wall between database roles: the policies key on
`current_user` (migration 007), so a second role with table rights sees and changes none of
another role's rows, whatever session settings it sets. Plain SQL as two real roles on the real
server Postgres the fixtures start; then the app itself, connected as the second role."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import Store
from core.store import queries as q
from core.store.errors import StoreError

pytestmark = pytest.mark.server


def _as(dsn: str, user: str) -> str:
    parts = conninfo_to_dict(dsn)
    parts["user"] = user
    return make_conninfo(**parts)


@pytest.fixture
def roles(server_store, server_dsn, server_admin_dsn):
    """Two login roles that are neither superuser, BYPASSRLS nor owner of the tables, each
    given the table rights a person's role gets (as docs/guide/profiles-and-servers.md tells the admin)."""
    tag = uuid.uuid4().hex[:8]
    names = (f"mate_a_{tag}", f"mate_b_{tag}")
    with psycopg.connect(server_admin_dsn, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE ROLE "{name}" LOGIN NOSUPERUSER NOBYPASSRLS')
    with psycopg.connect(server_dsn, autocommit=True) as owner:  # the tables' owner grants
        for name in names:
            owner.execute(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON neurons, neurons_edges, profiles,"
                f' sync_accounts, sync_collections, sync_items TO "{name}"'
            )
            owner.execute(f'GRANT SELECT ON schema_version TO "{name}"')
            owner.execute(f'GRANT USAGE, SELECT ON SEQUENCE neurons_change_seq TO "{name}"')
    return {name[:6]: _as(server_dsn, name) for name in names}


def _connect(dsn: str) -> psycopg.Connection:
    return psycopg.connect(dsn, autocommit=True)


def _acting_as(conn, device: uuid.UUID, scope: str = "") -> None:
    conn.execute(
        "SELECT set_config('neurons.device_id', %s, false), set_config('neurons.scope', %s, false)",
        (str(device), scope),
    )


def test_a_second_role_cannot_read_or_change_the_first_roles_rows(roles):
    dev_a, dev_b, note_a = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with _connect(roles["mate_a"]) as a:
        a.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_a,))
        _acting_as(a, dev_a)
        a.execute(
            "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'a''s secret')",
            (note_a, dev_a),
        )
        profile_a = uuid.uuid4()
        a.execute("SELECT neurons_claim_owner(current_user, %s)", (profile_a,))
        a.execute("INSERT INTO profiles (user_id, name) VALUES (%s, 'Ana')", (profile_a,))
        a.execute(
            "INSERT INTO sync_accounts (id, device_id, url, given_url, username)"
            " VALUES (%s, %s, 'https://dav.example/', 'dav.example', 'ana')",
            (uuid.uuid4(), dev_a),
        )
    with _connect(roles["mate_b"]) as b:
        b.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_b,))
        _acting_as(b, dev_b)
        b.execute(
            "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'b')",
            (uuid.uuid4(), dev_b),
        )
        # what 004 trusted: the session's own settings
        for settings in ((dev_b, "all"), (dev_a, ""), (dev_a, "all")):
            _acting_as(b, *settings)
            assert b.execute("SELECT count(*) FROM neurons WHERE device_id = %s", (dev_a,)).fetchone()[0] == 0
            assert b.execute("SELECT count(*) FROM neurons WHERE id = %s", (note_a,)).fetchone()[0] == 0
            assert b.execute("UPDATE neurons SET body = 'taken' WHERE id = %s", (note_a,)).rowcount == 0
            assert b.execute("DELETE FROM neurons WHERE device_id = %s", (dev_a,)).rowcount == 0
            assert (
                b.execute("SELECT count(*) FROM profiles WHERE user_id = %s", (profile_a,)).fetchone()[0] == 0
            )
        _acting_as(b, dev_b, "all")
        owners = {r[0] for r in b.execute("SELECT DISTINCT device_id FROM neurons").fetchall()}
        assert owners == {dev_b}
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            b.execute(
                "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'x')",
                (uuid.uuid4(), dev_a),
            )
        # the mapping: b cannot take a's owners, act for a, or write the table itself
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="belongs to another database role"):
            b.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_a,))
        a_name = conninfo_to_dict(roles["mate_a"])["user"]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="may not act for the role"):
            b.execute("SELECT neurons_claim_owner(%s, %s)", (a_name, uuid.uuid4()))
        for statement in (
            "INSERT INTO neurons_owners (owner_id, role_name) VALUES (%s, current_user)",
            "UPDATE neurons_owners SET role_name = current_user WHERE owner_id = %s",
            "DELETE FROM neurons_owners WHERE owner_id = %s",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                b.execute(statement, (dev_a,))
        assert {r[0] for r in b.execute("SELECT owner_id FROM neurons_owners").fetchall()} == {dev_b}
    with _connect(roles["mate_a"]) as a:
        _acting_as(a, dev_a)
        assert a.execute("SELECT body FROM neurons WHERE id = %s", (note_a,)).fetchone()[0] == "a's secret"


def test_the_app_connected_as_a_role_sees_only_that_roles_memory(roles, tmp_path, sentence_model):
    def store(name: str) -> Store:
        return Store(Settings(data_dir=tmp_path / name, dsn=roles[name], embed_in_background=False))

    with store("mate_a") as sa, store("mate_b") as sb:
        a = Memory(sa, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        a.capture("a note of the first role", kind="note")
        mine = a.claim("Ana")
        mine.capture("a note of Ana's profile", kind="note")
        b = Memory(sb, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        b.capture("a note of the second role", kind="note")
        # cross-owner work (the vector filler's queue, the store check) sees the role's own rows
        with sb.reading(every_owner=True) as cur:
            assert q.count_neurons(cur) == 1
        assert sb.check()["ok"]
        with sb.reading() as cur:
            facts = q.row_security(cur)
        assert facts["enforced"] and not facts["owns_tables"] and facts["owners"] == 1
        assert b.fill_vectors() == 1  # its own note; the other role's are not its to see
        # acting as the other role's identities is refused, in a sentence
        for identity in (a.identity, mine.identity):
            with pytest.raises(StoreError, match="belongs to another database role"):
                Memory(sb, identity, owns_store=False, model=sentence_model).list()
        with pytest.raises(Exception, match="no profile"):
            b.join(mine.identity.user_id, bring_own=False)
    with store("mate_a") as sa:
        seen = Memory(sa, mine.identity, owns_store=False, model=sentence_model).list()
        assert {n.body for n in seen} == {"a note of the first role", "a note of Ana's profile"}


def test_the_embedded_engine_keeps_working(embedded_memory):
    note = embedded_memory.capture("the embedded engine is a superuser: no roles", kind="note")
    profile = embedded_memory.claim("Embedded")
    assert [n.id for n in profile.list()] == [note.id]


def test_a_second_role_cannot_link_to_the_first_roles_neurons_or_learn_they_exist(roles):
    """A foreign key is checked past row-level security: another role's id is refused as an id
    of no one is, in a link or a synced item, made or changed."""
    dev_a, dev_b, note_a, note_b = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with _connect(roles["mate_a"]) as a:
        a.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_a,))
        _acting_as(a, dev_a)
        a.execute(
            "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'a')", (note_a, dev_a)
        )
    with _connect(roles["mate_b"]) as b:
        b.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_b,))
        _acting_as(b, dev_b)
        other = uuid.uuid4()
        b.execute(
            "INSERT INTO neurons (id, device_id, kind, body)"
            " VALUES (%s, %s, 'note', 'b'), (%s, %s, 'note', 'c')",
            (note_b, dev_b, other, dev_b),
        )
        link = (
            "INSERT INTO neurons_edges (id, device_id, from_node_id, to_node_id, relation_type)"
            " VALUES (%s, %s, %s, %s, 'relates_to')"
        )

        def refusal(statement: str, params: tuple) -> str:
            with pytest.raises(psycopg.errors.ForeignKeyViolation) as refused:
                b.execute(statement, params)
            return str(refused.value).replace(str(note_a), "ID").replace(str(nobody), "ID")

        nobody = uuid.uuid4()
        for ends in ((note_b, note_a), (note_a, note_b)):
            said = refusal(link, (uuid.uuid4(), dev_b, *ends))
            assert said == refusal(link, (uuid.uuid4(), dev_b, *(nobody if e == note_a else e for e in ends)))
        edge = uuid.uuid4()
        b.execute(link, (edge, dev_b, note_b, other))  # its own two neurons: linked
        move = "UPDATE neurons_edges SET to_node_id = %s WHERE id = %s"
        assert refusal(move, (note_a, edge)) == refusal(move, (nobody, edge))
        account, collection = uuid.uuid4(), uuid.uuid4()
        b.execute(
            "INSERT INTO sync_accounts (id, device_id, url, given_url, username)"
            " VALUES (%s, %s, 'https://dav.example/', 'dav.example', 'b')",
            (account, dev_b),
        )
        b.execute(
            "INSERT INTO sync_collections (id, account_id, href, name, kind, position, supports_sync)"
            " VALUES (%s, %s, 'https://dav.example/t/', 'Tasks', 'reminder', 0, true)",
            (collection, account),
        )
        item = "INSERT INTO sync_items (collection_id, href, neuron_id) VALUES (%s, %s, %s)"
        assert refusal(item, (collection, "x.ics", note_a)) == refusal(item, (collection, "x.ics", nobody))
        b.execute(item, (collection, "b.ics", note_b))
        assert b.execute("SELECT count(*) FROM neurons_edges").fetchone()[0] == 1
    with _connect(roles["mate_a"]) as a:  # nothing of b's reaches a's neuron
        _acting_as(a, dev_a, "all")
        assert a.execute("SELECT body FROM neurons WHERE id = %s", (note_a,)).fetchone()[0] == "a"
