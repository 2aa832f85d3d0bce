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
from core.store.store import migrations

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
    stamp = embedded_memory.reader.change_stamp()
    note = embedded_memory.capture("the embedded engine is a superuser: no roles", kind="note")
    assert embedded_memory.reader.change_stamp() > stamp  # its one role's counter
    profile = embedded_memory.claim("Embedded")
    assert [n.id for n in profile.list()] == [note.id]
    assert [r.neuron.id for r in profile.ask("the embedded engine")][:1] == [note.id]


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


def _write_a_memory(conn, device: uuid.UUID, ids: dict[str, uuid.UUID], body: str) -> None:
    """A row in every table that takes an id: two neurons, a link, a sync account, a collection
    and a synced item, under the given ids."""
    conn.execute(
        "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', %s), (%s, %s, 'note', %s)",
        (ids["note"], device, body, ids["other"], device, body + " too"),
    )
    conn.execute(
        "INSERT INTO neurons_edges (id, device_id, from_node_id, to_node_id, relation_type)"
        " VALUES (%s, %s, %s, %s, 'relates_to')",
        (ids["edge"], device, ids["note"], ids["other"]),
    )
    conn.execute(
        "INSERT INTO sync_accounts (id, device_id, url, given_url, username)"
        " VALUES (%s, %s, 'https://dav.example/', 'dav.example', %s)",
        (ids["account"], device, body),
    )
    conn.execute(
        "INSERT INTO sync_collections (id, account_id, href, name, kind, position, supports_sync)"
        " VALUES (%s, %s, 'https://dav.example/t/', %s, 'note', 0, true)",
        (ids["collection"], ids["account"], body),
    )
    conn.execute(
        "INSERT INTO sync_items (collection_id, href, neuron_id, etag) VALUES (%s, 'n.ics', %s, %s)",
        (ids["collection"], ids["note"], body),
    )


def _memory_seen(conn) -> dict[str, set]:
    return {
        "neurons": {tuple(r) for r in conn.execute("SELECT id, body FROM neurons").fetchall()},
        "edges": {tuple(r) for r in conn.execute("SELECT id, from_node_id, to_node_id FROM neurons_edges")},
        "accounts": {tuple(r) for r in conn.execute("SELECT id, username FROM sync_accounts")},
        "collections": {tuple(r) for r in conn.execute("SELECT id, account_id, name FROM sync_collections")},
        "items": {tuple(r) for r in conn.execute("SELECT collection_id, neuron_id, etag FROM sync_items")},
    }


def test_a_second_role_cannot_tell_whether_the_first_roles_ids_exist(roles):
    """Every key is the role's own: an id the first role holds is as free to the second as an id
    nobody holds, in every table that takes one, so trying it tells nothing, and each role
    keeps its own rows under it."""
    dev_a, dev_b = uuid.uuid4(), uuid.uuid4()
    ids = {name: uuid.uuid4() for name in ("note", "other", "edge", "account", "collection")}
    fresh = {name: uuid.uuid4() for name in ids}
    with _connect(roles["mate_a"]) as a:
        a.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_a,))
        _acting_as(a, dev_a)
        _write_a_memory(a, dev_a, ids, "ana")
        before = _memory_seen(a)
    with _connect(roles["mate_b"]) as b:
        b.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_b,))
        _acting_as(b, dev_b)
        _write_a_memory(b, dev_b, ids, "bea")  # the first role's ids
        _write_a_memory(b, dev_b, fresh, "bob")  # ids nobody holds: the same answer
        seen_b = _memory_seen(b)
        assert {body for _, body in seen_b["neurons"]} == {"bea", "bea too", "bob", "bob too"}
        assert (ids["note"], "bea") in seen_b["neurons"]
        assert (ids["collection"], ids["note"], "bea") in seen_b["items"]
        # and changing or deleting under those ids touches only its own rows
        b.execute("UPDATE neurons SET body = 'bea, changed' WHERE id = %s", (ids["note"],))
        b.execute("DELETE FROM sync_accounts WHERE id = %s", (ids["account"],))
    with _connect(roles["mate_a"]) as a:
        _acting_as(a, dev_a)
        assert _memory_seen(a) == before


def test_a_second_role_imports_the_first_roles_export_as_a_copy_of_its_own(roles, tmp_path, sentence_model):
    """A file of another role's memory (its ids) imports whole, as it would into a new store:
    nothing says that those ids are taken in this database."""

    def store(name: str) -> Store:
        return Store(Settings(data_dir=tmp_path / name, dsn=roles[name], embed_in_background=False))

    with store("mate_a") as sa:
        a = Memory(sa, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        first = a.capture("the boiler is checked every spring", kind="note")
        second = a.capture("the plumber's number is in the blue folder", kind="note")
        a.link(first.id, second.id)
        exported = a.export()
    with store("mate_b") as sb:
        b = Memory(sb, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        assert b.import_(exported) == {"neurons": 2, "edges": 1, "skipped": 0}
        assert b.import_(exported) == {"neurons": 0, "edges": 0, "skipped": 3}
        assert {n.id for n in b.list()} == {first.id, second.id}
        b.edit(first.id, text="the boiler is checked every autumn")
    with store("mate_a") as sa:
        a = Memory(sa, a.identity, owns_store=False, model=sentence_model)
        assert a.get(first.id).body == "the boiler is checked every spring"


def _readable_counters(conn) -> dict[str, int]:
    """Every sequence this role may read, with its last value."""
    names = [
        r[0]
        for r in conn.execute(
            "SELECT c.oid::regclass::text FROM pg_class c WHERE c.relkind = 'S'"
            " AND (has_sequence_privilege(c.oid, 'SELECT') OR has_sequence_privilege(c.oid, 'USAGE'))"
        ).fetchall()
    ]
    return {name: conn.execute(f"SELECT last_value FROM {name}").fetchone()[0] for name in names}


def test_no_number_a_second_role_reads_moves_when_the_first_role_writes(roles):
    """The change numbers a role's rows take, and every counter it may read, count its own
    writes only: another role's many writes move none of them."""
    dev_a, dev_b = uuid.uuid4(), uuid.uuid4()
    with _connect(roles["mate_b"]) as b, _connect(roles["mate_a"]) as a:
        b.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_b,))
        _acting_as(b, dev_b)
        mine = (
            "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'b')"
            " RETURNING change_seq"
        )
        one = b.execute(mine, (uuid.uuid4(), dev_b)).fetchone()[0]
        counters = _readable_counters(b)
        a.execute("SELECT neurons_claim_owner(current_user, %s)", (dev_a,))
        _acting_as(a, dev_a)
        for _ in range(20):
            a.execute(
                "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'a')",
                (uuid.uuid4(), dev_a),
            )
        a.execute("UPDATE neurons SET body = 'a, again' WHERE device_id = %s", (dev_a,))
        assert _readable_counters(b) == counters
        two = b.execute(mine, (uuid.uuid4(), dev_b)).fetchone()[0]
        assert two == one + 1
        assert two in _readable_counters(b).values()  # its own counter, which it reads


def test_the_app_of_a_second_role_keeps_its_own_change_numbers(roles, tmp_path, sentence_model):
    """The recall index reads the role's own counter: it stays still while another role writes,
    and moves, and finds, with the role's own capture."""

    def store(name: str) -> Store:
        return Store(Settings(data_dir=tmp_path / name, dsn=roles[name], embed_in_background=False))

    with store("mate_a") as sa, store("mate_b") as sb:
        a = Memory(sa, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        b = Memory(sb, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        b.capture("the spare key is under the third flowerpot", kind="note")
        assert [r.neuron.body for r in b.ask("where is the spare key")][:1] == [
            "the spare key is under the third flowerpot"
        ]
        stamp = b.reader.change_stamp()
        for i in range(5):
            a.capture(f"the first role's note {i}", kind="note")
        assert b.reader.change_stamp() == stamp
        b.capture("the bicycle pump is in the cellar", kind="note")
        assert b.reader.change_stamp() == stamp + 1
        assert [r.neuron.body for r in b.ask("bicycle pump")][:1] == ["the bicycle pump is in the cellar"]


def test_a_second_role_asks_about_a_person_from_its_own_counter(roles, tmp_path, sentence_model):
    """About reads the change stamp in the same statement as its look-ahead: for a role that is
    not the admin that stamp is its own counter's, never the shared sequence it may not read."""

    def store(name: str) -> Store:
        return Store(Settings(data_dir=tmp_path / name, dsn=roles[name], embed_in_background=False))

    with store("mate_b") as sb:
        b = Memory(sb, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
        rosa = b.capture("Rosa Lima", kind="contact", attrs={"name": "Rosa Lima"})
        note = b.capture("Rosa Lima lent me the ladder", kind="note")
        answer = b.about("Rosa")
        assert answer.contact is not None and answer.contact.id == rosa.id
        assert note.id in {r.neuron.id for r in answer.timeline}


def test_the_admin_gives_an_identity_to_another_role_with_its_rows(
    roles, server_dsn, tmp_path, sentence_model
):
    """`UPDATE neurons_owners SET role_name = ...` (what the admin runs, as the docs say) moves
    the identity's neurons, links and sync account to the other role, under its keys and its
    counter: the other role's app lists, links and finds them; the first role has none left."""

    def store(name: str) -> Store:
        return Store(Settings(data_dir=tmp_path / name, dsn=roles[name], embed_in_background=False))

    device = uuid.uuid4()
    with store("mate_a") as sa:
        a = Memory(sa, Identity(device_id=device), owns_store=False, model=sentence_model)
        first = a.capture("the boiler is checked every spring", kind="note")
        second = a.capture("the plumber's number is in the blue folder", kind="note")
        a.link(first.id, second.id)
        with sa.transaction(a.identity) as cur:
            cur.execute(
                "INSERT INTO sync_accounts (id, device_id, url, given_url, username)"
                " VALUES (%s, %s, 'https://dav.example/', 'dav.example', 'ana')",
                (uuid.uuid4(), device),
            )
    b_name = conninfo_to_dict(roles["mate_b"])["user"]
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute("UPDATE neurons_owners SET role_name = %s WHERE owner_id = %s", (b_name, device))
    with store("mate_b") as sb:
        b = Memory(sb, Identity(device_id=device), owns_store=False, model=sentence_model)
        assert {n.id for n in b.list()} == {first.id, second.id}
        assert [(e.from_id, e.to_id) for e in b.edges(first.id)] == [(first.id, second.id)]
        assert [acc.username for acc in b.sync_accounts()] == ["ana"]
        assert first.id in [r.neuron.id for r in b.ask("boiler checked every spring")]
        moved = b.reader.change_stamp()
        third = b.capture("the boiler's manual is in the drawer", kind="note")
        assert b.reader.change_stamp() == moved + 1
        b.link(third.id, first.id)
        with sb.reading(every_owner=True) as cur:
            assert q.count_neurons(cur) == 3
    with store("mate_a") as sa:
        with sa.reading(every_owner=True) as cur:
            assert q.count_neurons(cur) == 0
        with pytest.raises(StoreError, match="belongs to another database role"):
            Memory(sa, Identity(device_id=device), owns_store=False, model=sentence_model).list()


def test_a_server_written_before_keys_per_role_keeps_each_roles_memory(server_admin_dsn, tmp_path):
    """A database two roles used with one key space and one shared counter, brought up to date
    by the admin: each role keeps every row it had, its counter goes on above the shared one (no
    saved stamp goes back), and the shared counter is no longer read by either."""
    tag = uuid.uuid4().hex[:8]
    admin_role, db = f"keys_admin_{tag}", f"keys_db_{tag}"
    names = {"a": f"keys_a_{tag}", "b": f"keys_b_{tag}"}
    with psycopg.connect(server_admin_dsn, autocommit=True) as su:
        su.execute(f'CREATE ROLE "{admin_role}" LOGIN NOSUPERUSER NOBYPASSRLS')
        for name in names.values():
            su.execute(f'CREATE ROLE "{name}" LOGIN NOSUPERUSER NOBYPASSRLS')
        su.execute(f'CREATE DATABASE "{db}" OWNER "{admin_role}"')
    parts = conninfo_to_dict(server_admin_dsn)
    parts["dbname"] = db
    with psycopg.connect(make_conninfo(**parts), autocommit=True) as su:
        su.execute("CREATE EXTENSION vector")
        su.execute("CREATE EXTENSION pg_trgm")
    parts["user"] = admin_role
    admin_dsn = make_conninfo(**parts)
    with psycopg.connect(admin_dsn, autocommit=True) as admin:  # the schema as it was
        admin.execute(
            "CREATE TABLE schema_version (version int PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for version, name, text in migrations():
            if version < 16:
                admin.execute(text)
                admin.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)", (version, name))
        for name in names.values():  # the grants the docs gave then
            admin.execute(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON neurons, neurons_edges, profiles,"
                f' sync_accounts, sync_collections, sync_items TO "{name}"'
            )
            admin.execute(f'GRANT SELECT ON schema_version TO "{name}"')
            admin.execute(f'GRANT USAGE, SELECT ON SEQUENCE neurons_change_seq TO "{name}"')
    dsn = {who: _as(admin_dsn, name) for who, name in names.items()}
    devices = {who: uuid.uuid4() for who in names}
    kinds = ("note", "other", "edge", "account", "collection")
    held = {who: {name: uuid.uuid4() for name in kinds} for who in names}
    before = {}
    for who in names:
        with _connect(dsn[who]) as conn:
            conn.execute("SELECT neurons_claim_owner(current_user, %s)", (devices[who],))
            _acting_as(conn, devices[who])
            _write_a_memory(conn, devices[who], held[who], who)
            before[who] = _memory_seen(conn)
    with _connect(dsn["a"]) as conn:
        shared = conn.execute("SELECT last_value FROM neurons_change_seq").fetchone()[0]

    Store(Settings(data_dir=tmp_path / "admin", dsn=admin_dsn, embed_in_background=False)).close()

    for who, other in (("a", "b"), ("b", "a")):
        with _connect(dsn[who]) as conn:
            _acting_as(conn, devices[who])
            assert _memory_seen(conn) == before[who]
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT last_value FROM neurons_change_seq")
            number = conn.execute(
                "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'new')"
                " RETURNING change_seq",
                (held[other]["note"], devices[who]),  # the other's id: a row of its own
            ).fetchone()[0]
            assert number > shared
            assert conn.execute("SELECT neurons_change_stamp()").fetchone()[0] == number
            conn.execute(  # a link from a neuron it had to the new one: its keys hold
                "INSERT INTO neurons_edges (id, device_id, from_node_id, to_node_id, relation_type)"
                " VALUES (%s, %s, %s, %s, 'relates_to')",
                (uuid.uuid4(), devices[who], held[who]["note"], held[other]["note"]),
            )
    with psycopg.connect(server_admin_dsn, autocommit=True) as su:
        su.execute(f'DROP DATABASE "{db}" WITH (FORCE)')
        for name in (*names.values(), admin_role):
            su.execute(f'DROP ROLE "{name}"')
