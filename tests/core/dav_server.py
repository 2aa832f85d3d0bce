"""A real CalDAV/CardDAV server for the sync tests (Radicale on 127.0.0.1, its own htpasswd and
folder, a free port) and a phone that talks to it (the `caldav` client, and plain HTTP for
address books, which caldav does not cover).

Each test gets a user of its own (the htpasswd file is read on every request), so tests share one
server per module and never see each other's collections.
"""

from __future__ import annotations

import itertools
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urljoin

import caldav
import keyring
import pytest
from keyring.backend import KeyringBackend

_users = itertools.count()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Radicale:
    def __init__(self, root: Path, tls: tuple[Path, Path] | None = None):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.users = root / "users"
        self.users.write_text("")
        self.port = free_port()
        self.tls = tls
        config = [
            "[server]",
            f"hosts = 127.0.0.1:{self.port}",
            f"ssl = {'True' if tls else 'False'}",
        ]
        if tls:
            config += [f"certificate = {tls[0]}", f"key = {tls[1]}"]
        config += [
            "[auth]",
            "type = htpasswd",
            f"htpasswd_filename = {self.users}",
            "htpasswd_encryption = plain",
            "delay = 0",
            "[storage]",
            f"filesystem_folder = {root / 'collections'}",
            "[logging]",
            "level = error",
        ]
        (root / "config").write_text("\n".join(config) + "\n")
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}/"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "radicale", "--config", str(self.root / "config")],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "log", "ab"),
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.process.poll() is not None:
                raise RuntimeError((self.root / "log").read_text())
            time.sleep(0.05)
        raise RuntimeError("radicale did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:  # it waits for connections a relay still holds
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def new_user(self) -> tuple[str, str]:
        name = f"user{next(_users)}-{os.getpid()}"
        password = uuid.uuid4().hex
        with self.users.open("a") as f:
            f.write(f"{name}:{password}\n")
        return name, password


class Phone:
    """A phone on the same server: the caldav client for calendars, HTTP for address books."""

    def __init__(self, url: str, user: str, password: str):
        self.client = caldav.DAVClient(url=url, username=user, password=password)
        self.principal = self.client.principal()
        self.home = str(self.principal.url)

    def task_list(self, name: str = "Tasks", cal_id: str = "tasks", components=("VTODO",)):
        return self.principal.make_calendar(
            name=name, cal_id=cal_id, supported_calendar_component_set=list(components)
        )

    def put(self, url: str, text: str) -> None:
        """Save an item as a phone does, without the caldav client's checks (and faster)."""
        content = "text/vcard" if url.endswith(".vcf") else "text/calendar"
        response = self.client.request(url, "PUT", text, {"Content-Type": f"{content}; charset=utf-8"})
        assert response.status in (201, 204), response.status

    def calendar(self, cal_id: str):
        return self.client.calendar(url=self.home + cal_id + "/")

    def address_book(self, name: str = "Contacts", book_id: str = "contacts") -> str:
        url = self.home + book_id + "/"
        body = (
            '<?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" '
            'xmlns:a="urn:ietf:params:xml:ns:carddav"><d:set><d:prop><d:resourcetype>'
            f"<d:collection/><a:addressbook/></d:resourcetype><d:displayname>{name}</d:displayname>"
            "</d:prop></d:set></d:mkcol>"
        )
        response = self.client.request(url, "MKCOL", body, {"Content-Type": "application/xml"})
        assert response.status in (200, 201), response.status
        return url

    def put_card(self, book: str, name: str, vcf: str, etag: str | None = None) -> str:
        headers = {"Content-Type": "text/vcard; charset=utf-8"}
        if etag:
            headers["If-Match"] = etag
        response = self.client.request(book + name, "PUT", vcf, headers)
        assert response.status in (200, 201, 204), response.status
        return response.headers.get("ETag")

    def cards(self, book: str) -> dict[str, str]:
        """{url: vCard text} of every card in the book."""
        body = (
            '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:">'
            "<d:prop><d:getetag/></d:prop></d:propfind>"
        )
        response = self.client.request(book, "PROPFIND", body, {"Depth": "1"})
        root = urljoin(book, "/")
        urls = [urljoin(root, h) for h in re.findall(r"<href>([^<]+\.vcf)</href>", response.raw)]
        return {url: self.client.request(url, "GET").raw for url in urls}

    def delete(self, url: str) -> None:
        response = self.client.request(url, "DELETE")
        assert response.status in (200, 204), response.status


class Cutter:
    """A TCP relay in front of the server that goes away after `after` requests of a method:
    every connection is dropped and new ones are refused until `restore()`."""

    def __init__(self, target_port: int):
        self.target = target_port
        self.port = free_port()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen(64)
        self.method: bytes | None = None
        self.after = 0
        self.seen = 0
        self.cut = False
        self.on_cut = None
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.running = True
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def cut_after(self, method: str, count: int, on_cut=None) -> None:
        with self.lock:
            self.method, self.after, self.seen, self.cut, self.on_cut = (
                method.encode(),
                count,
                0,
                False,
                on_cut,
            )

    def restore(self) -> None:
        with self.lock:
            self.method, self.cut = None, False

    def close(self) -> None:
        self.running = False
        self.listener.close()
        for s in list(self.open):
            s.close()

    def _serve(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                if self.cut:
                    client.close()
                    continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.open += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, requests: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if requests and self._counts(data):
                    self._go_away()
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.close()
                except OSError:
                    pass

    def _counts(self, data: bytes) -> bool:
        """Whether this request is one too many (the server is gone from then on)."""
        with self.lock:
            if self.cut:
                return True
            if self.method and data.startswith(self.method + b" "):
                self.seen += 1
                if self.seen > self.after:
                    self.cut = True
                    return True
        return False

    def _go_away(self) -> None:
        for s in list(self.open):
            try:
                s.close()
            except OSError:
                pass
        callback, self.on_cut = self.on_cut, None
        if callback is not None:
            callback()


@pytest.fixture(scope="module")
def radicale(tmp_path_factory):
    server = Radicale(tmp_path_factory.mktemp("radicale"))
    yield server
    server.stop()


class MemoryKeyring(KeyringBackend):
    """The tests' keyring: there is no secure OS keyring on a headless machine."""

    priority = 1  # type: ignore[assignment]

    def __init__(self):
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.items.get((service, username))

    def set_password(self, service, username, password):
        self.items[(service, username)] = password

    def delete_password(self, service, username):
        self.items.pop((service, username), None)


@pytest.fixture
def kept():
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
