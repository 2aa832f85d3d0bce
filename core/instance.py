"""One app per data dir, and talking to it over its local socket (no Qt: the CLI uses this too).

The running desktop app holds the **instance lock** of its data dir and listens on a Unix socket
beside it, in a private directory ($XDG_RUNTIME_DIR/neurons, else /tmp/neurons-<uid>, mode 0700,
owned by us). Both are named by a hash of the data dir's resolved path, so the path stays short.

Protocol: one JSON object per line. The client sends one request and reads one reply. One
thread takes connections and their request lines (an idle connection is dropped after IDLE_S,
the oldest first when MAX_WAITING wait) and answers each on a thread of its own; a client that
finds the queue full retries briefly ("busy"). Every
request carries `"protocol": PROTOCOL` and every reply answers with the server's; a peer that
speaks another version is refused with a message saying which side to update (an old CLI and a
new app never misread each other):

    {"op": "ping"}                                   -> {"ok": true, "pid": 123, "version": "..."}
    {"op": "show"}                                   -> {"ok": true}       (raise the main window)
    {"op": "quick_capture", "text": "..."}           -> {"ok": true}       (open the capture box)
    {"op": "command", "argv": ["list", "--json", "--"]}
                                                     -> {"ok": true, "code": 0, "stdout": "...", "stderr": ""}
                                                        (any `neurons` command, run on the app's memory)
    {"op": "status"}                                 -> {"ok": true, ...what the app shows...}
    {"op": "quit"}                                   -> {"ok": true}
    anything refused                                 -> {"ok": false, "error": "a sentence"}

Whatever reads or writes the memory is a command, one door: `neurons ...` forwards its whole
command line (see core/commands) and a second launch of the desktop with --capture forwards
`capture -- TEXT`, both through `command(data_dir, argv)`: the command's answer, or None when no
app runs. (Protocol 1 also had "capture", "search" and "ask": a client of it is refused.)

Only the process holding the instance lock removes a socket file (one left by a crash): a client
that cannot connect just reports that no instance runs.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import selectors
import socket
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core import __version__
from core.model import NeuronsError
from core.validate import parse_json

# The version of the protocol below; bump it when a request or reply changes meaning.
# 2: "capture", "search" and "ask" are commands (op "command"), no ops of their own.
PROTOCOL = 2
# A request or reply line may hold a 2 MB body, JSON-escaped.
MAX_LINE = 16 * 1024 * 1024
CONNECT_TIMEOUT_S = 2.0
# A client that finds the app's queue of new connections full retries for this long ("busy").
BUSY_RETRY_S = 3.0
# The app's queue of connections not yet accepted (the kernel caps it at net.core.somaxconn).
BACKLOG = socket.SOMAXCONN
# Connections that have not sent their request line yet: at most this many are kept (the oldest
# goes first), each for at most IDLE_S (a client sends its line at once).
MAX_WAITING = 256
IDLE_S = 5.0
# How long a client waits for the reply: a capture may wait for the app to finish opening its store.
REPLY_TIMEOUT_S = 90.0


class InstanceError(NeuronsError):
    """The running app refused a request or could not be reached properly."""


class NoAnswer(InstanceError):
    """The app had the whole request but no answer came back (it was killed, or took too long):
    it may or may not have done it. A capture sent with a key is retried with the same key."""


def _log():
    """The logger, imported when something is logged: a forwarded `neurons` command stays light."""
    import logging  # noqa: PLC0415 - a forwarded command does not import it

    return logging.getLogger(__name__)


# -- where ---------------------------------------------------------------------------------------

# "<dir>/neurons/<20 hex>.sock" within the 107 usable bytes of an AF_UNIX address
MAX_RUNTIME_DIR = 107 - len("/neurons/") - 20 - len(".sock")


def runtime_dir() -> Path:
    """A private directory for sockets: created 0700, and refused unless it is ours."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    # a socket's path must fit in sun_path (108 bytes): a very long runtime dir is passed over
    if xdg and Path(xdg).is_dir() and len(os.fsencode(xdg)) <= MAX_RUNTIME_DIR:
        base = Path(xdg) / "neurons"
    else:
        import tempfile  # noqa: PLC0415 - only without a runtime dir

        base = Path(tempfile.gettempdir()) / f"neurons-{os.getuid()}"
    try:
        base.mkdir(mode=0o700, parents=False, exist_ok=True)
    except FileNotFoundError:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(base)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise InstanceError(f"{base} is not a directory owned by this user; refusing to use it")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(base, 0o700)
    return base


def _key(data_dir: Path | str) -> str:
    resolved = Path(data_dir).expanduser().resolve()
    return hashlib.sha256(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:20]


def socket_path(data_dir: Path | str) -> Path:
    return runtime_dir() / f"{_key(data_dir)}.sock"


def lock_path(data_dir: Path | str) -> Path:
    return runtime_dir() / f"{_key(data_dir)}.lock"


# -- the client side -----------------------------------------------------------------------------


def request(
    data_dir: Path | str, message: dict[str, Any], *, timeout: float = REPLY_TIMEOUT_S
) -> dict[str, Any] | None:
    """Send one request to the running app; its reply, or None when no app listens.

    Raises InstanceError when the app was reached but refused or did not answer.
    """
    try:
        path = socket_path(data_dir)
    except (OSError, InstanceError) as exc:
        _log().warning("no instance socket: %s", exc)
        return None
    if not path.exists():
        return None
    sock = _connect(path)
    if sock is None:
        return None  # a socket left by a crashed app: nobody listens
    try:
        sock.settimeout(timeout)
        try:
            sock.sendall(json.dumps({**message, "protocol": PROTOCOL}, ensure_ascii=False).encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError):
            # The app went away before it had the whole line (a request ends with its newline):
            # it did nothing with it, so it is as if no app listened and the caller does it itself.
            return None
        try:
            line = _read_line(sock)
        except (TimeoutError, OSError) as exc:
            raise NoAnswer(f"the running Neurons app did not answer: {exc}") from None
    finally:
        sock.close()
    if line is None:
        raise NoAnswer("the running Neurons app closed the connection without answering")
    reply = _decode(line, "the running Neurons app's answer")
    if not isinstance(reply, dict):
        raise InstanceError("the running Neurons app answered something that is not an object")
    if reply.get("protocol") != PROTOCOL:
        raise InstanceError(
            f"the running Neurons app speaks instance protocol {reply.get('protocol', 'none')}, "
            f"this command {PROTOCOL}: quit the app and start the same version as this command"
        )
    if not reply.get("ok"):
        raise InstanceError(str(reply.get("error") or "the running Neurons app refused the request"))
    return reply


def _connect(path: Path) -> socket.socket | None:
    """A connection to the app's socket; None when nobody listens there. A full queue of new
    connections (EAGAIN: a burst of clients) is "busy": tried again for BUSY_RETRY_S, then an
    InstanceError saying so."""
    deadline, delay = time.monotonic() + BUSY_RETRY_S, 0.005
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(CONNECT_TIMEOUT_S)
        try:
            sock.connect(str(path))
            return sock
        except BlockingIOError:
            sock.close()
            if time.monotonic() > deadline:
                raise InstanceError(
                    "the running Neurons app is too busy to take this request (its queue of "
                    f"connections stayed full for {BUSY_RETRY_S:.0f} s): try again in a moment"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
        except OSError as exc:
            sock.close()
            if exc.errno in (errno.ECONNREFUSED, errno.ENOENT) or isinstance(exc, TimeoutError):
                return None
            raise


def is_running(data_dir: Path | str) -> bool:
    try:
        return request(data_dir, {"op": "ping"}, timeout=5) is not None
    except InstanceError:
        return True  # something answers there, even if badly


def command(
    data_dir: Path | str, argv: list[str], *, timeout: float = REPLY_TIMEOUT_S
) -> dict[str, Any] | None:
    """Run a `neurons` command line on the running app's memory: its answer {"code", "stdout",
    "stderr"}, or None when no app listens (the caller runs it itself)."""
    reply = request(data_dir, {"op": "command", "argv": argv}, timeout=timeout)
    if reply is None:
        return None
    if not isinstance(reply.get("code"), int) or not isinstance(reply.get("stdout"), str):
        raise InstanceError("the running Neurons app did not answer the command")
    return {"code": reply["code"], "stdout": reply["stdout"], "stderr": str(reply.get("stderr") or "")}


def _decode(line: bytes, what: str) -> Any:
    """One protocol line as JSON, or an InstanceError/InvalidInput saying what is wrong with it
    (never NaN, huge numbers or a nesting too deep to parse: see core.validate.parse_json)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise InstanceError(f"{what} is not UTF-8 text") from None
    return parse_json(text, what)


def _read_line(sock: socket.socket) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks) if chunks else None
        newline = chunk.find(b"\n")
        if newline >= 0:
            chunks.append(chunk[:newline])
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_LINE:
            raise InstanceError("a message on the instance socket is too long")


# -- the app side --------------------------------------------------------------------------------


class InstanceLock:
    """Held for the app's lifetime (flock: the kernel frees it if the process dies)."""

    def __init__(self, data_dir: Path | str):
        self.data_dir = Path(data_dir)
        self.path = lock_path(data_dir)
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


Handler = Callable[[dict[str, Any]], dict[str, Any]]


class InstanceServer:
    """Listens on the data dir's socket; each request is answered by `handler` on its own thread.

    The handler returns the reply's fields (`ok` is added) or raises: a NeuronsError's message is
    sent back as the error; anything else is logged and reported briefly.
    """

    def __init__(self, data_dir: Path | str, handler: Handler, lock: InstanceLock):
        if not lock.held:
            raise InstanceError("the instance lock must be held to listen")
        self.data_dir = Path(data_dir)
        self.handler = handler
        self.path = socket_path(data_dir)
        self._sock: socket.socket | None = None
        self._wake: socket.socket | None = None  # written to by stop(): the serving thread ends
        self._waker: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        # We hold the lock, so a socket file here is a crashed instance's: remove it.
        try:
            self.path.unlink()
            _log().info("removed the stale instance socket %s", self.path)
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        sock.listen(BACKLOG)
        sock.setblocking(False)
        self._sock = sock
        self._wake, self._waker = socket.socketpair()
        self._thread = threading.Thread(target=self._serve, name="neurons-instance", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._waker is not None:
            with contextlib.suppress(OSError):
                self._waker.send(b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
        for end in (self._wake, self._waker):
            if end is not None:
                end.close()
        self._wake = self._waker = None

    def _serve(self) -> None:
        """One thread takes connections and their request lines (a selector: an idle client
        costs a descriptor, not a thread); each whole line is answered on a thread of its own."""
        listener, wake = self._sock, self._wake
        if listener is None or wake is None:
            return
        waiting: dict[socket.socket, tuple[bytearray, float]] = {}  # oldest first
        with selectors.DefaultSelector() as selector:
            selector.register(listener, selectors.EVENT_READ, "accept")
            selector.register(wake, selectors.EVENT_READ, "wake")
            try:
                while not self._stopping.is_set():
                    oldest = next(iter(waiting.values()), None)
                    timeout = max(0.0, oldest[1] + IDLE_S - time.monotonic()) if oldest else None
                    for key, _ in selector.select(timeout):
                        if key.data == "wake":
                            return
                        if key.data == "accept":
                            self._accept(listener, selector, waiting)
                        elif isinstance(key.fileobj, socket.socket):
                            self._receive(selector, waiting, key.fileobj)
                    now = time.monotonic()
                    while waiting and next(iter(waiting.values()))[1] + IDLE_S <= now:
                        self._drop(selector, waiting, next(iter(waiting)))
            finally:
                for conn in list(waiting):
                    self._drop(selector, waiting, conn)

    def _accept(self, listener: socket.socket, selector, waiting: dict) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM) and waiting:
                    self._make_room(selector, waiting)  # out of descriptors: the oldest idle goes
                    continue
                if self._stopping.is_set():
                    return
                _log().warning("instance socket accept failed: %s", exc)
                time.sleep(0.05)  # out of descriptors with none of ours to free: let others finish
                return
            conn.setblocking(False)
            if len(waiting) >= MAX_WAITING:
                self._make_room(selector, waiting)
            waiting[conn] = (bytearray(), time.monotonic())
            selector.register(conn, selectors.EVENT_READ, "line")
            self._receive(selector, waiting, conn)  # a client sends its line at once: often here

    def _make_room(self, selector, waiting: dict) -> None:
        """Let the oldest waiting connection go, unless its line has come meanwhile."""
        oldest = next(iter(waiting))
        self._receive(selector, waiting, oldest)
        if oldest in waiting:
            self._drop(selector, waiting, oldest)

    def _receive(self, selector, waiting: dict, conn: socket.socket) -> None:
        buffer, _ = waiting[conn]
        try:
            chunk = conn.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        newline = chunk.find(b"\n")
        if not chunk or (newline < 0 and len(buffer) + len(chunk) > MAX_LINE):
            self._drop(selector, waiting, conn)  # closed before a request, or one too long
            return
        if newline < 0:
            buffer += chunk
            return
        line = bytes(buffer + chunk[:newline])
        selector.unregister(conn)
        del waiting[conn]
        conn.setblocking(True)
        threading.Thread(
            target=self._answer, args=(conn, line), name="neurons-instance-request", daemon=True
        ).start()

    @staticmethod
    def _drop(selector, waiting: dict, conn: socket.socket) -> None:
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(conn)
        waiting.pop(conn, None)
        conn.close()

    def _answer(self, conn: socket.socket, line: bytes) -> None:
        with conn:
            try:
                conn.settimeout(30)
                message = _decode(line, "the request")
                if not isinstance(message, dict) or not isinstance(message.get("op"), str):
                    raise InstanceError("a request is a JSON object with an 'op'")
                if message.get("protocol") != PROTOCOL:
                    raise InstanceError(
                        f"this Neurons app speaks instance protocol {PROTOCOL}, the request "
                        f"{message.get('protocol', 'none')}: use the command of the same version"
                    )
                if message["op"] == "ping":
                    reply = {"pid": os.getpid(), "version": __version__}
                else:
                    reply = self.handler(message)
                reply = {"ok": True, **(reply or {})}
            except NeuronsError as exc:
                reply = {"ok": False, "error": str(exc)}
            except ValueError as exc:
                reply = {"ok": False, "error": f"not a valid request: {exc}"}
            except Exception as exc:  # noqa: BLE001 - the app keeps serving; the client learns it failed
                _log().exception("instance request failed")
                reply = {"ok": False, "error": f"the app failed: {type(exc).__name__}: {exc}"}
            reply["protocol"] = PROTOCOL
            try:
                conn.sendall(json.dumps(reply, ensure_ascii=False, default=str).encode() + b"\n")
            except OSError:
                _log().warning("the client left before its reply was sent")


__all__ = [
    "PROTOCOL",
    "InstanceError",
    "InstanceLock",
    "InstanceServer",
    "NoAnswer",
    "command",
    "is_running",
    "lock_path",
    "request",
    "runtime_dir",
    "socket_path",
]
