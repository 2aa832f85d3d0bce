"""A real CalDAV/CardDAV server for the sync tests (Radicale on 127.0.0.1, its own htpasswd and
folder, a free port) and a phone that talks to it (the `caldav` client, and plain HTTP for
address books, which caldav does not cover).

Each test gets a user of its own (the htpasswd file is read on every request), so tests share one
server per module and never see each other's collections.
"""

from __future__ import annotations

import base64
import http.server
import itertools
import json
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


def _not_running(process: subprocess.Popen | None) -> None:
    """A second start while the first server runs would find the port open (the first one's) and
    return, and the first process would be left running after stop: refused instead."""
    if process is not None and process.poll() is None:
        raise RuntimeError("the server is running already: stop it before starting it again")


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
        _not_running(self.process)
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

    def password_of(self, user: str) -> str:
        return dict(line.split(":", 1) for line in self.users.read_text().splitlines())[user]


class Xandikos:
    """Xandikos, a second real server (git-backed, strict about RFC 6578: an unknown sync token is
    412 with DAV:valid-sync-token). It serves one principal and does Basic authentication only
    over TLS, so here it runs on loopback without it (it ignores the password): one server per
    test, each with its own folder."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        _not_running(self.process)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "xandikos.web", "-d", str(self.root / "data"), "--autocreate",
             "--current-user-principal", "/user/", "-l", "127.0.0.1", "-p", str(self.port),
             "--no-detect-systemd", "--state-dir", str(self.root / "state")],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "log", "ab"),
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.process.poll() is not None:
                raise RuntimeError((self.root / "log").read_text())
            time.sleep(0.05)
        raise RuntimeError("xandikos did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def new_user(self) -> tuple[str, str]:
        return "user", uuid.uuid4().hex

    def password_of(self, user: str) -> str:
        return "any"  # not asked for (see above)


class Phone:
    """A phone on the same server: the caldav client for calendars, HTTP for address books."""

    def __init__(self, url: str, user: str, password: str):
        self.client = caldav.DAVClient(url=url, username=user, password=password)
        self.principal = self.client.principal()
        self.home = str(self.principal.url)
        self.calendar_home = str(self.principal.calendar_home_set.url)
        body = (
            '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" '
            'xmlns:a="urn:ietf:params:xml:ns:carddav"><d:prop><a:addressbook-home-set/></d:prop></d:propfind>'
        )
        found = re.search(
            r"addressbook-home-set[^>]*>\s*<(?:\w+:)?href>([^<]+)<",
            self.client.request(self.home, "PROPFIND", body, {"Depth": "0"}).raw,
        )
        self.book_home = urljoin(self.home, found.group(1)) if found else self.home

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
        return self.client.calendar(url=self.calendar_home + cal_id + "/")

    def address_book(self, name: str = "Contacts", book_id: str = "contacts") -> str:
        url = self.book_home + book_id + "/"
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
        urls = [urljoin(root, h) for h in re.findall(r"<(?:\w+:)?href>([^<]+\.vcf)</", response.raw)]
        return {url: self.client.request(url, "GET", headers={"Accept": "text/vcard"}).raw for url in urls}

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


@pytest.fixture
def xandikos(tmp_path):
    server = Xandikos(tmp_path / "xandikos")
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


class HostileDav:
    """A small CalDAV/CardDAV server of the tests' own that answers as a careless or hostile one
    may: one principal /p/ with a task list /p/tasks/ and an address book /p/book/, whose item
    listings, sync tokens, redirects and write answers a test sets. It records every request
    (method, path, the Authorization header) and keeps what is PUT."""

    COLLECTIONS = {"/p/tasks/": "calendar", "/p/book/": "addressbook"}

    def __init__(self):
        self.items: dict[str, bytes] = {}  # path: what a multiget or GET answers for it
        self.listing: dict[str, list[str]] = {c: [] for c in self.COLLECTIONS}  # raw hrefs, as sent
        self.token = "token-1"
        # the status for a token this server does not know (None: it answers with every item it
        # holds, as if that were what changed, as DAViCal does)
        self.refuse_token: int | None = 412
        self.tokens_given: list[str] = []  # the sync token of each sync-collection REPORT, in order
        self.redirect: dict[str, str] = {}  # path: Location
        self.status: dict[tuple[str, str], int] = {}  # (method, path): the status to answer
        self.seen: list[tuple[str, str, str | None]] = []
        self.sync_collection = True  # offers RFC 6578 (else a client lists items by their ETags)
        self.sync_collection_refused: int | None = None  # offers it, yet answers it with this status
        # (method, path, what the request holds: "depth:N" or a word of its body): a recorded answer
        # given as it is, a 207 (another server's words, tests/core/caldav_library)
        self.recorded: dict[tuple[str, str, str], bytes] = {}
        handler = type("Handler", (_HostileHandler,), {"dav": self})
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def send_discovery_to(self, location: str) -> None:
        """The root and both well-known addresses answer with a redirect to `location`."""
        for path in ("/", "/.well-known/caldav", "/.well-known/carddav"):
            self.redirect[path] = location

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def put(self, collection: str, name: str, data: bytes | str) -> None:
        """An item the server holds and lists (by its plain href)."""
        self.items[collection + name] = data.encode() if isinstance(data, str) else data
        self.listing[collection].append(collection + name)

    def written(self) -> list[tuple[str, str]]:
        """(method, path) of every PUT and DELETE the server received."""
        return [(m, p) for m, p, _ in self.seen if m in ("PUT", "DELETE")]


def _x(data: bytes) -> bytes:
    return data.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")


class _HostileHandler(http.server.BaseHTTPRequestHandler):
    dav: HostileDav
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _answer(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _start(self) -> tuple[str, bytes] | None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = self.path
        self.dav.seen.append((self.command, path, self.headers.get("Authorization")))
        if path in self.dav.redirect:
            self._answer(301, b"", {"Location": self.dav.redirect[path]})
            return None
        status = self.dav.status.get((self.command, path))
        if status is not None:
            self._answer(status, b"no")
            return None
        for (method, where, holds), answer in self.dav.recorded.items():
            depth = f"depth:{self.headers.get('Depth')}"
            if (method, where) == (self.command, path) and (holds == depth or holds.encode() in body):
                self._answer(207, answer, {"Content-Type": "application/xml; charset=utf-8"})
                return None
        return path, body

    def _multistatus(self, responses: list[bytes], extra: bytes = b"") -> None:
        body = (
            b'<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" '
            b'xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="urn:ietf:params:xml:ns:carddav">'
            + b"".join(responses)
            + extra
            + b"</d:multistatus>"
        )
        self._answer(207, body, {"Content-Type": "application/xml; charset=utf-8"})

    @staticmethod
    def _ok(href: str, props: bytes) -> bytes:
        return (
            f"<d:response><d:href>{href}</d:href><d:propstat><d:prop>".encode()
            + props
            + b"</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        )

    def do_PROPFIND(self):
        started = self._start()
        if started is None:
            return
        path, _ = started
        principal = b"<d:current-user-principal><d:href>/p/</d:href></d:current-user-principal>"
        if path in self.dav.COLLECTIONS and self.headers.get("Depth") == "1":  # its items, by ETag
            kind = b"c:calendar" if self.dav.COLLECTIONS[path] == "calendar" else b"a:addressbook"
            found = [self._ok(path, b"<d:resourcetype><d:collection/><" + kind + b"/></d:resourcetype>")]
            for href in self.dav.listing[path]:
                etag = f'<d:getetag>"{abs(hash(self.dav.items.get(href, b"")))}"</d:getetag>'
                found.append(self._ok(href, etag.encode()))
            self._multistatus(found)
            return
        if path != "/p/" and path not in self.dav.COLLECTIONS:
            self._multistatus([self._ok(path, principal)])
            return
        homes = (
            b"<c:calendar-home-set><d:href>/p/</d:href></c:calendar-home-set>"
            b"<a:addressbook-home-set><d:href>/p/</d:href></a:addressbook-home-set>"
        )
        found = [self._ok("/p/", principal + homes + b"<d:resourcetype><d:collection/></d:resourcetype>")]
        reports = (
            b"<d:supported-report-set><d:supported-report><d:report><d:sync-collection/></d:report>"
            b"</d:supported-report></d:supported-report-set>"
            if self.dav.sync_collection
            else b""
        )
        if self.headers.get("Depth") == "1":
            found.append(
                self._ok(
                    "/p/tasks/",
                    b"<d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Tasks"
                    b'</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/>'
                    b"</c:supported-calendar-component-set>" + reports,
                )
            )
            found.append(
                self._ok(
                    "/p/book/",
                    b"<d:resourcetype><d:collection/><a:addressbook/></d:resourcetype>"
                    b"<d:displayname>Contacts</d:displayname>" + reports,
                )
            )
        self._multistatus(found)

    def do_REPORT(self):
        started = self._start()
        if started is None:
            return
        path, body = started
        if b"sync-collection" in body and self.dav.sync_collection_refused:
            self._answer(self.dav.sync_collection_refused, b"sync-collection is not implemented here")
            return
        if b"sync-collection" in body:
            token = re.search(rb"<d:sync-token>([^<]*)<", body)
            given = token.group(1).decode() if token else ""
            self.dav.tokens_given.append(given)
            if given and given != self.dav.token and self.dav.refuse_token:
                error = b'<?xml version="1.0"?><d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>'
                error = b"I'm a teapot" if self.dav.refuse_token == 418 else error
                self._answer(self.dav.refuse_token, error, {"Content-Type": "application/xml"})
                return
            found = [
                self._ok(
                    href, f'<d:getetag>"{abs(hash(self.dav.items.get(href, b"")))}"</d:getetag>'.encode()
                )
                for href in self.dav.listing.get(path, [])
            ]
            self._multistatus(found, f"<d:sync-token>{self.dav.token}</d:sync-token>".encode())
            return
        data = b"a:address-data" if path == "/p/book/" else b"c:calendar-data"
        found = []
        for href in re.findall(rb"<d:href>([^<]*)</d:href>", body):
            wanted = href.decode()
            for listed in [wanted, *self.dav.listing.get(path, [])]:
                if listed in self.dav.items and (
                    listed == wanted or listed.endswith(wanted.rsplit("/", 1)[-1])
                ):
                    item = self.dav.items[listed]
                    etag = f'<d:getetag>"{abs(hash(item))}"</d:getetag>'.encode()
                    found.append(self._ok(wanted, etag + b"<" + data + b">" + _x(item) + b"</" + data + b">"))
                    break
        self._multistatus(found)

    def do_PUT(self):
        started = self._start()
        if started is None:
            return
        path, body = started
        self.dav.items[path] = body
        self._answer(201, b"", {"ETag": f'"{abs(hash(body))}"'})

    def do_DELETE(self):
        if self._start() is not None:
            self._answer(204)

    def do_GET(self):
        started = self._start()
        if started is not None:
            self._answer(200 if started[0] in self.dav.items else 404, self.dav.items.get(started[0], b""))


@pytest.fixture
def hostile():
    server = HostileDav()
    yield server
    server.close()


class Recorder:
    """Another server, in a process of its own (tests/core/recording_server.py), that writes down
    every request it receives with every header: where a hostile server sends Neurons."""

    def __init__(self, root: Path, answer: str):
        root.mkdir(parents=True, exist_ok=True)
        self.log = root / "requests.jsonl"
        self.log.touch()
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("recording_server.py")), str(self.log), answer],
            stdout=subprocess.PIPE,
            stderr=open(root / "stderr", "ab"),
            text=True,
        )
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def requests(self) -> list[dict]:
        """What reached it: method, path, headers ([name, value] pairs) and body of each request."""
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def raw(self) -> str:
        return self.log.read_text()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def never_given_the_password(recorder: Recorder, user: str = "ana", password: str = "secret") -> None:
    """Neither a credential header nor the password, plain or as Basic's base64, reached `recorder`."""
    names = {name.lower() for r in recorder.requests() for name, _ in r["headers"]}
    assert not names & {"authorization", "cookie", "proxy-authorization"}, names
    raw = recorder.raw()
    assert password not in raw and base64.b64encode(f"{user}:{password}".encode()).decode() not in raw
