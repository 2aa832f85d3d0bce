"""Sync when things go wrong: a wrong password, a certificate this machine does not trust, plain
http to another machine, a server that goes away mid-sync (resume, no duplicates), a `neurons
sync` killed with SIGKILL, an item the server holds that Neurons cannot read, hostile XML, no
secure keyring, an edit made while a pull is planned. Against a real Radicale."""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from core import cli, commands
from core.memory import Memory
from core.model import Kind, State
from core.settings import Settings
from core.store import sync_sql
from core.sync import accounts, dav, engine
from tests.conftest import ROOT
from tests.core.dav_server import Cutter, Phone, Radicale, free_port
from tests.core.test_sync import neurons, of_kind, todo

FUTURE = datetime(2031, 3, 10, 15, 0, tzinfo=UTC)


@pytest.fixture
def memory(embedded_memory):
    """These cases are about the network and the server: the embedded engine is enough."""
    return embedded_memory


def add(memory, url: str, user: str, password: str, monkeypatch, *extra: str) -> dict:
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    try:
        return neurons(memory, "sync", "add", url, "--user", user, "--all", *extra)
    finally:
        monkeypatch.delenv("NEURONS_SYNC_PASSWORD")


def one_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, text
    return lines[0]


# -- refusals ---------------------------------------------------------------------------------------


def test_a_wrong_password_is_one_clear_line_and_exit_2(radicale, kept, tmp_path, capsys, monkeypatch):
    user, _ = radicale.new_user()
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "not-it")
    code = cli.main(["--data-dir", str(tmp_path / "d"), "sync", "add", radicale.url, "--user", user, "--all"])
    err = capsys.readouterr().err
    assert code == 2
    assert "refused the user name or password" in one_line(err) and user in err
    assert not kept.items  # a refused password is never kept


def test_a_password_changed_on_the_server_fails_the_sync_with_one_line(radicale, kept, memory, monkeypatch):
    user, password = radicale.new_user()
    Phone(radicale.url, user, password).task_list()
    assert add(memory, radicale.url, user, password, monkeypatch)["code"] == 0
    (key,) = kept.items
    kept.items[key] = "an old password"
    out = neurons(memory, "sync")
    assert out["code"] == 2 and "refused the user name or password" in one_line(out["stderr"])
    assert "refused" in memory.sync_accounts()[0].last_error


def test_a_server_whose_certificate_is_not_trusted_is_refused(tmp_path, kept, memory, monkeypatch):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    server = Radicale(tmp_path / "tls", tls=(cert, key))
    try:
        user, password = server.new_user()
        with pytest.raises(dav.TLSRefusedError, match="certificate this machine does not trust"):
            add(memory, server.url, user, password, monkeypatch)
        assert not kept.items
        # the same server, once this machine trusts its certificate: it is the trust, not TLS
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        principal = accounts.find(server.url, user, password)
        assert principal.url.startswith(server.url)
    finally:
        server.stop()
    with pytest.raises(commands.UsageError):  # and there is no way around it
        commands.parse(["sync", "add", server.url, "--insecure"])


def test_plain_http_to_another_machine_is_refused_before_any_request(kept, memory, monkeypatch):
    with pytest.raises(dav.TLSRefusedError, match="unencrypted"):
        add(memory, "http://dav.example.com/", "ana", "pw", monkeypatch)
    with pytest.raises(dav.SyncError, match="never put the password"):
        add(memory, "https://ana:pw@dav.example.com/", "ana", "pw", monkeypatch)


def test_a_server_that_cannot_be_reached(kept, memory, monkeypatch):
    with pytest.raises(dav.UnreachableError, match="cannot reach 127.0.0.1"):
        add(memory, f"http://127.0.0.1:{free_port()}/", "ana", "pw", monkeypatch)


class Hostile(http.server.BaseHTTPRequestHandler):
    def do_PROPFIND(self):
        body = (
            b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            b'<multistatus xmlns="DAV:"><response><href>/</href>&lol2;</response></multistatus>'
        )
        self.send_response(207)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_hostile_xml_is_refused(kept, memory, monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = dav.Client(f"http://127.0.0.1:{server.server_port}/", "ana", "pw")
        with pytest.raises(dav.ServerError, match="DTD"):
            client.propfind(client.url, [dav.q(dav.DAV, "current-user-principal")])
    finally:
        server.shutdown()


# -- cut off --------------------------------------------------------------------------------------


@pytest.fixture
def cut(radicale, kept, memory, monkeypatch):
    """An account reached through a relay that can make the server go away."""
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.tasks = phone.task_list()
    relay = Cutter(radicale.port)
    assert add(memory, relay.url, user, password, monkeypatch)["code"] == 0
    relay.phone = phone
    yield relay
    relay.close()


def uids_on(phone) -> list[str]:
    return sorted(str(t.icalendar_component["UID"]) for t in phone.tasks.todos(include_completed=True))


def test_a_server_that_goes_away_mid_push_resumes_without_duplicates(cut, memory):
    made = [
        memory.capture(f"Errand {i}", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
        for i in range(30)
    ]
    cut.cut_after("PUT", 12)
    out = neurons(memory, "sync")
    assert out["code"] == 2 and "closed the connection" in one_line(out["stderr"])
    assert len(uids_on(cut.phone)) == 12
    cut.restore()
    out = neurons(memory, "sync", "--json")
    assert out["code"] == 0
    assert json.loads(out["stdout"])["accounts"][0]["pushed"] == 18
    assert uids_on(cut.phone) == sorted(str(n.id) for n in made)  # each once
    assert len(of_kind(memory, Kind.REMINDER)) == 30
    again = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert (again["pulled"], again["pushed"]) == (0, 0)


def test_a_server_that_goes_away_mid_pull_resumes_without_duplicates(cut, memory, monkeypatch):
    monkeypatch.setattr(engine, "PULL_BATCH", 20)
    for i in range(engine.PULL_BATCH + 5):
        text = todo(f"phone-{i}", f"Phone task {i}", "DUE:20310310T150000Z\r\n")
        cut.phone.put(f"{cut.phone.tasks.url}phone-{i}.ics", text)
    cut.cut_after("REPORT", 2)  # the change list and the first batch come; then it is gone
    out = neurons(memory, "sync")
    assert out["code"] == 2
    assert len(of_kind(memory, Kind.REMINDER)) == engine.PULL_BATCH  # the first batch, whole
    cut.restore()
    out = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert out["pulled"] == 5
    titles = [n.title for n in of_kind(memory, Kind.REMINDER)]
    assert len(titles) == len(set(titles)) == engine.PULL_BATCH + 5
    assert json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]["pulled"] == 0


@pytest.mark.slow
def test_a_sync_killed_with_sigkill_resumes_without_duplicates(radicale, kept, fresh_data_dir, monkeypatch):
    """A real `neurons sync` process killed mid-push (after the server took some writes it never
    recorded): the next sync finds them by UID, and nothing is there twice or lost."""
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.tasks = phone.task_list()
    relay = Cutter(radicale.port)
    data_dir = fresh_data_dir
    model = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"
    settings = Settings(data_dir=data_dir, embed_in_background=False, model_dir=model)
    with Memory.open(settings) as memory:
        assert add(memory, relay.url, user, password, monkeypatch)["code"] == 0
        due = {"due_at": FUTURE.isoformat()}
        ids = {
            str(memory.capture(f"Task {i}", kind="reminder", attrs=due, derive=False).id) for i in range(40)
        }
    child = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), "sync"],
        cwd=ROOT,
        env={**os.environ, "NEURONS_SYNC_PASSWORD": password},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    relay.cut_after("PUT", 25, on_cut=lambda: os.kill(child.pid, signal.SIGKILL))
    child.wait(120)
    assert child.returncode == -signal.SIGKILL
    relay.restore()
    on_server = uids_on(phone)
    assert 0 < len(on_server) <= 25
    with Memory.open(settings) as memory:
        monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
        out = neurons(memory, "sync", "--json")
        assert out["code"] == 0, out
        assert sorted(uids_on(phone)) == sorted(ids)
        assert len(of_kind(memory, Kind.REMINDER)) == 40
        again = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
        assert (again["pulled"], again["pushed"], again["conflicts"]) == (0, 0, 0)
    relay.close()


# -- what cannot be read, kept or written -----------------------------------------------------------


def test_an_item_neurons_cannot_read_is_said_once_and_the_rest_syncs(radicale, kept, memory, monkeypatch):
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    tasks = phone.task_list()
    tasks.save_todo(todo("fine", "A fine task", "DUE:20310310T150000Z\r\n"))
    # a series with nothing to start from (RFC 5545 lets a server keep it; Neurons cannot fire it)
    broken = todo("broken", "A broken task", "RRULE:FREQ=DAILY\r\n")
    phone.put(f"{tasks.url}broken.ics", broken)
    add(memory, radicale.url, user, password, monkeypatch)
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    first = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert first["pulled"] == 1 and len(first["errors"]) == 1 and "A broken task" in first["errors"][0]
    assert [n.title for n in of_kind(memory, Kind.REMINDER)] == ["A fine task"]
    again = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert again["errors"] == [] and again["pulled"] == 0


def test_without_a_secure_keyring_the_password_is_never_written(radicale, memory, tmp_path, monkeypatch):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        user, password = radicale.new_user()
        Phone(radicale.url, user, password).task_list()
        out = add(memory, radicale.url, user, password, monkeypatch)
        assert out["code"] == 0 and "password was not kept" in out["stderr"]
        out = neurons(memory, "sync")
        assert out["code"] == 2 and "no password" in one_line(out["stderr"])
        monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)  # for one run
        assert neurons(memory, "sync")["code"] == 0
    finally:
        keyring.set_keyring(previous)
    data_dir = Path(memory.store.settings.data_dir)
    for path in data_dir.rglob("*"):
        if path.is_file() and path.stat().st_size < 50_000_000:
            assert password.encode() not in path.read_bytes(), path


def test_an_edit_made_while_a_pull_is_planned_is_never_overwritten(radicale, kept, memory, monkeypatch):
    user, password = radicale.new_user()
    Phone(radicale.url, user, password).task_list()
    add(memory, radicale.url, user, password, monkeypatch)
    item = memory.capture("Pack the bags", kind="reminder", derive=False)
    [collection] = memory.sync_accounts()[0].collections
    [local] = [x for x in memory.sync_locals([Kind.REMINDER]) if x.neuron.id == item.id]
    planned = sync_sql.Pulled(collection.id, updated=[local.neuron], expected={item.id: local.seq})
    planned.updated[0].body = "Pack the bags (server)"
    memory.edit(item.id, "Pack the bags and the tent")  # meanwhile, here
    with pytest.raises(sync_sql.ChangedMeanwhileError):
        memory.apply_sync(planned, lambda n: "x")
    assert memory.get(item.id).body == "Pack the bags and the tent"
    assert memory.get(item.id).state is State.ACTIVE
