"""`neurons mcp`: this memory as the memory of a local AI assistant, over the Model Context
Protocol on stdin/stdout (the official `mcp` SDK, 2.x: `mcp.server.mcpserver.MCPServer`).

Every tool is a `neurons` command line (core/commands), run where the CLI would run it:

- while the desktop app owns the data dir, on the app's Memory through its instance socket
  (op "command"): the window shows what the assistant saved, and there is one writer;
- otherwise on a Memory of our own, opened at the first call and closed again after
  IDLE_RELEASE_S without one (and at exit), so the app can always start: when it does, the next
  call finds it and goes through it.

stdout carries nothing but the protocol (the SDK points fd 1 at stderr while it serves, so a
stray print or a child's output cannot corrupt it); logs go to stderr. There is no network
listener. No tool deletes, trashes or archives anything. Bad input is a tool error (`is_error`)
with the sentence a person would read on the command line; the store is left as it was.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import inspect
import json
import logging
import os
import re
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import ErrorData, JSONRPCError, JSONRPCNotification, jsonrpc_message_adapter
from pydantic import Field

from core import __version__, instance
from core.model import Kind, Neuron, NeuronsError
from core.settings import Settings, data_dir_from
from core.validate import parse_limit

log = logging.getLogger(__name__)

# Our own Memory is closed after this long without a call, so a desktop app started meanwhile
# can take the data dir (it waits up to core.opening.APP_WAIT_S = 30 s for it).
IDLE_RELEASE_S = 15.0
# The commands that answer a question from the recall index (the quick step is made after one).
ASKING = ("ask", "about")
# A capture whose answer from the app was lost is sent again (same key) this many times in all,
# this long apart (as core/cli.py does).
CAPTURE_TRIES = 3
CAPTURE_RETRY_S = 0.5
# How long a call waits for a data dir held by a short-lived `neurons` command.
OPEN_RETRY_S = 10.0
# Results carry this much of each body; `show` gives the whole text.
BODY_PREVIEW = 1000
MAX_LIMIT = 50

INSTRUCTIONS = """\
Neurons is the user's own memory of notes, reminders and contacts, kept offline on this computer
(the user sees the same memory in the Neurons app). Use it to remember things for the user and to
look them up again.
- Save with `capture`, in the user's words: a reminder carries its time in the text ("remind me
  to call Ana tomorrow at 3pm", "every Monday at 9 water the plants"); a contact is a name with a
  phone or email; people named in a note are linked to their contacts automatically.
- Look up with `ask` (a question in natural language, e.g. "what did I promise Ana?" or "what is
  due this week?") or `about` (everything about one person). `upcoming` lists reminders due soon.
- Every result carries an `id`: pass it to `show`, `done`, `snooze` or `link`. Times are
  ISO 8601. Each answer says `why` it was found; say so when it matters.
- Nothing can be deleted or trashed from here: tell the user to do that in the app."""

IdArg = Annotated[str, Field(description="a neuron's id, as returned by capture, ask, about or upcoming")]


# How a command line runs on a Memory: core.commands.execute (handed in by the `mcp` command,
# so that this module does not import the command layer that imports it).
Execute = Callable[[Any, list[str]], dict[str, Any]]


class Door:
    """Where a command line runs: the running app, else a Memory of our own (opened lazily,
    released when idle or when the app appears)."""

    def __init__(self, data_dir: str | Path | None, dsn: str | None, execute: Execute):
        self.data_dir = data_dir_from(data_dir)
        self.dsn = dsn  # an explicit server DSN never goes through the app (as on the CLI)
        self.execute = execute
        self._memory = None
        self._busy = 0
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._closed = False
        self._nearest_for = None  # the Memory the quick step was made for
        self.nearest_thread: threading.Thread | None = None

    def run(self, argv: list[str]) -> tuple[Any, str]:
        """Run `neurons ARGV --json`: (its JSON data, its note). Raises NeuronsError. A capture
        goes with an idempotency key: when the app's answer is lost (it was killed, or did not
        answer), it is sent again with the same key, or run here once no app is left, and saved
        once either way (as `neurons capture` does)."""
        keyed = argv[0] == "capture" and "--key" not in argv
        argv = [argv[0], "--json", *(["--key", uuid.uuid4().hex] if keyed else []), *argv[1:]]
        for tried in range(1, CAPTURE_TRIES + 1):
            if self.dsn is not None or not instance.is_running(self.data_dir):
                break
            self._release()  # the app needs the data dir we may hold
            try:
                reply = instance.request(self.data_dir, {"op": "command", "argv": argv})
            except instance.NoAnswer:
                if not keyed or tried == CAPTURE_TRIES:
                    raise
                time.sleep(CAPTURE_RETRY_S)
                continue
            if reply is not None:
                return _answer(reply)
            break
        with self._using() as memory:
            answer = _answer(self.execute(memory, argv))
        if argv[0] in ASKING:
            self._prepare_nearest(memory)
        return answer

    def _prepare_nearest(self, memory) -> None:
        """After the first question on a Memory of our own: the quick step of the search by
        meaning made on a thread of its own (core/recall/nearest.py; nothing below its size), so
        the questions after it do not scan every vector. A question meanwhile scans exactly."""
        with self._lock:
            if self._nearest_for is memory:
                return
            self._nearest_for = memory

        def make() -> None:
            try:
                memory.prepare_nearest()
            except Exception as exc:  # noqa: BLE001 - the questions scan exactly, as without it
                log.warning("the quick search by meaning could not be prepared: %s", exc)

        self.nearest_thread = threading.Thread(target=make, name="neurons-mcp-nearest", daemon=True)
        self.nearest_thread.start()

    @contextlib.contextmanager
    def _using(self) -> Iterator[Any]:
        with self._lock:
            if self._closed:
                raise NeuronsError("the MCP session is ending")
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._memory is None:
                self._memory = self._open()
            self._busy += 1
            memory = self._memory
        try:
            yield memory
        finally:
            with self._lock:
                self._busy -= 1
                if self._busy == 0 and not self._closed:
                    self._timer = threading.Timer(IDLE_RELEASE_S, self._release)
                    self._timer.daemon = True
                    self._timer.start()

    def _open(self):
        from core.memory import Memory  # noqa: PLC0415 - forwarding loads no driver

        settings = Settings.from_env(data_dir=self.data_dir, dsn=self.dsn, embed_in_background=False)
        memory = Memory.open(settings, wait_s=OPEN_RETRY_S)
        log.info("opened %s (%s engine)", self.data_dir, memory.store.kind)
        return memory

    def _release(self) -> None:
        """Close our Memory when no call uses it (the lock is free again)."""
        with self._lock:
            if self._memory is not None and self._busy == 0:
                memory, self._memory = self._memory, None
                memory.close()
                log.info("released %s", self.data_dir)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            memory, self._memory = self._memory, None
        if memory is not None:
            memory.close()


def _answer(reply: dict[str, Any]) -> tuple[Any, str]:
    """A command's reply ({"code", "stdout", "stderr"}) -> (data, note), or its error raised."""
    stderr = str(reply.get("stderr") or "").strip()
    message = stderr.removeprefix("neurons: ")
    if int(reply.get("code", 1)) != 0:
        raise NeuronsError(message or "the command failed")
    stdout = str(reply.get("stdout") or "")
    return (json.loads(stdout) if stdout.strip() else None), message


# -- what the assistant reads ------------------------------------------------------------------------


def _brief(neuron: dict[str, Any], *, why: str | None = None) -> dict[str, Any]:
    """One neuron as a model reads it: id, kind, title, the times that matter, the text."""
    attrs = neuron.get("attrs") or {}
    body = str(neuron.get("body") or "")
    title = Neuron(uuid.UUID(neuron["id"]), Kind(neuron["kind"]), body, attrs).title
    out: dict[str, Any] = {"id": neuron["id"], "kind": neuron["kind"], "title": title}
    if why is not None:
        out["why"] = why
    out["state"] = neuron.get("state")
    for key in ("due_at", "rrule", "snoozed_until", "done_at"):
        if attrs.get(key):
            out["repeats" if key == "rrule" else key] = attrs[key]
    out["created_at"] = neuron.get("created_at")
    out["body"] = body[:BODY_PREVIEW]
    if len(body) > BODY_PREVIEW:
        out["body_truncated"] = True
    if neuron.get("kind") == "contact":
        out["details"] = {k: v for k, v in attrs.items() if k != "title"}
    return out


def _results(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**_brief(r["neuron"], why=r.get("why")), "score": r.get("score")} for r in items]


def _limit(value: int) -> list[str]:
    return ["--limit", str(parse_limit(value, maximum=MAX_LIMIT))]


def nothing_to_look_for(question: str, now: datetime | None = None) -> bool:
    """A question of common words only ("what is it?"), with no time in it: nothing to search."""
    from core.recall.result import content_words  # noqa: PLC0415 - forwarding loads no driver
    from core.when import find_window, local_now  # noqa: PLC0415 - forwarding loads no driver

    window, topic = find_window(question, now or local_now())
    return window is None and not content_words(topic)


# -- the server --------------------------------------------------------------------------------------


def build(door: Door):
    """The MCP server of this memory's tools (not started)."""
    parameters: dict[str, set[str]] = {}  # each tool's argument names, filled as they register
    server = MCPServer(
        "neurons",
        title="Neurons",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        middleware=[_RefuseUnknownArguments(parameters)],
    )

    def tool(*, read_only: bool, idempotent: bool = False):
        def register(fn):
            @functools.wraps(fn)
            def run(**kwargs):
                try:
                    return fn(**kwargs)
                except NeuronsError as exc:
                    raise ToolError(str(exc)) from None

            parameters[fn.__name__] = set(inspect.signature(fn).parameters)
            server.add_tool(
                run,
                name=fn.__name__,
                description=inspect.cleandoc(fn.__doc__ or ""),
                annotations=ToolAnnotations(
                    read_only_hint=read_only,
                    destructive_hint=False,
                    idempotent_hint=idempotent or read_only,
                    open_world_hint=False,
                ),
                structured_output=True,
            )
            return fn

        return register

    @tool(read_only=False)
    def capture(
        text: Annotated[
            str,
            Field(
                description="what to remember, in the user's words; a reminder "
                'carries its time in the text ("remind me to call Ana '
                'tomorrow at 3pm"), a contact its phone or email'
            ),
        ],
        kind: Annotated[
            Literal["note", "reminder", "contact"] | None,
            Field(description="force the kind; leave it out to let Neurons read it from the text"),
        ] = None,
    ) -> dict[str, Any]:
        """Save a note, a reminder or a contact in the user's memory, exactly as the app's quick
        capture does: Neurons reads the kind, the due time and repeat rule of a reminder, and
        links the people named to their contacts. Returns the saved neuron: its `id`, `kind`,
        `title`, `due_at` (reminders), and `links` (what it was linked to, and why)."""
        data, _ = door.run(["capture", *(["--kind", kind] if kind else []), "--", text])
        return {**_brief(data), "links": _links(data)}

    @tool(read_only=True)
    def ask(
        question: Annotated[
            str,
            Field(
                description='a question in natural language, e.g. "what '
                'did I promise Ana?", "what is due this week?", '
                '"wifi password"'
            ),
        ],
        limit: Annotated[int, Field(description=f"how many results at most (1-{MAX_LIMIT})")] = 10,
    ) -> dict[str, Any]:
        """Search the user's memory the way the app's search box does: by words and by meaning,
        within the time the question names ("last week", "tomorrow"), and one step along links
        (a note about a person is found from that person). Returns `results`, best first, each
        with `id`, `kind`, `title`, `why` it was found (matched the words, matched the meaning,
        in the window, linked from ...), `score`, `due_at` for reminders, and the text."""
        extra = _limit(limit)
        if question.strip() and nothing_to_look_for(question):
            raise ToolError(
                f"the question {question!r} has only common words and no time: ask "
                "about a person, a thing, a topic or a time"
            )
        data, note = door.run(["ask", *extra, "--", question])
        return {"question": question, "results": _results(data), **({"note": note} if note else {})}

    @tool(read_only=True)
    def about(
        name: Annotated[str, Field(description='a person\'s name or alias, e.g. "Ana" or "Ana Silva"')],
        limit: Annotated[int, Field(description=f"how many timeline entries at most (1-{MAX_LIMIT})")] = 20,
    ) -> dict[str, Any]:
        """Everything the user's memory holds about one person: their contact (phones, emails,
        birthday...), the contacts that are the same person, and a timeline of every note and
        reminder that mentions or concerns them, each with `why`. When the name fits several
        people, `candidates` lists them and nothing else: ask the user which one is meant, then
        call again with the full name."""
        extra = _limit(limit)
        data, note = door.run(["about", *extra, "--", name])
        out: dict[str, Any] = {
            "name": name,
            "contact": _brief(data["contact"]) if data["contact"] else None,
            "same_person_as": [_brief(t) for t in data["twins"]],
            "candidates": [_brief(c) for c in data["candidates"]],
            "timeline": _results(data["timeline"]),
        }
        if out["candidates"] and out["contact"] is None:
            out["ambiguous"] = f"{len(out['candidates'])} people answer to {name!r}: ask which one"
        elif out["contact"] is None:
            out["note"] = f"no contact is called {name!r}" + (
                "; these neurons mention the name" if out["timeline"] else ""
            )
        if note:
            out["note"] = f"{out.get('note', '')}; {note}".strip("; ")
        return out

    @tool(read_only=True)
    def upcoming(
        days: Annotated[float, Field(description="how many days ahead to look (default 7)")] = 7,
    ) -> dict[str, Any]:
        """The user's active reminders that are overdue (listed first, oldest first) or due in
        the next `days` days (soonest first). Each has `id`, `title`, `due_at`, `fires_at` (when
        it will notify: a snoozed one later than due), `repeats` (an RFC 5545 rule), `overdue`
        and `why`. `now` is the current time, for reading the rest."""
        data, _ = door.run(["upcoming", "--days", repr(float(days))])
        return data

    @tool(read_only=False, idempotent=True)
    def done(id: IdArg) -> dict[str, Any]:
        """Mark a reminder (or a note) done, as the app's Done button does: a one-off reminder
        is done and will not notify again; a repeating one moves to its next time (`due_at`,
        `state` stays active). Returns the neuron as it is now and `why`."""
        data, _ = door.run(["done", "--", id])
        return _changed(data)

    @tool(read_only=False)
    def snooze(
        id: IdArg,
        until: Annotated[
            str | None,
            Field(
                description="when to notify again: ISO 8601, e.g. "
                "2026-05-04T09:00 (local time) or with an offset, or "
                'words: "tomorrow 9am", "in 2 hours"'
            ),
        ] = None,
        minutes: Annotated[float | None, Field(description="or: in this many minutes (default 10)")] = None,
    ) -> dict[str, Any]:
        """Put a reminder off: it notifies again at `until` (or in `minutes`, default 10) and not
        before. Only active reminders snooze. Returns the reminder with `snoozed_until`."""
        if until is not None and minutes is not None:
            raise ToolError("give either until or minutes, not both")
        when = (
            ["--until", until]
            if until is not None
            else ["--minutes", repr(float(minutes))]
            if minutes is not None
            else []
        )
        data, _ = door.run(["snooze", *when, "--", id])
        return _changed(data)

    @tool(read_only=True)
    def show(id: IdArg) -> dict[str, Any]:
        """One neuron in full: its whole text, all its attributes (a contact's phones and
        emails, a reminder's due time and rule) and every link, open or closed, with the
        `other_id` and `other_title` at its other end."""
        data, _ = door.run(["show", "--", id])
        return {
            **_brief(data),
            "body": data["body"],
            "attrs": data["attrs"],
            "updated_at": data["updated_at"],
            "links": _links(data),
        }

    @tool(read_only=False, idempotent=True)
    def link(
        from_id: IdArg,
        to_id: IdArg,
        relation: Annotated[
            Literal["relates_to", "concerns", "same_person", "supersedes"],
            Field(
                description="relates_to: the two belong together; concerns: "
                "from_id is about the person to_id; same_person: two contacts "
                "are one person; supersedes: from_id replaces the outdated "
                "to_id"
            ),
        ] = "relates_to",
    ) -> dict[str, Any]:
        """Link two neurons, so that finding one finds the other (ask follows links one step).
        Linking the same pair twice returns the existing link. Returns the link's `id`."""
        data, _ = door.run(["link", "--relation", relation, "--", from_id, to_id])
        return data

    @server.resource(
        "neurons://neuron/{id}",
        name="neuron",
        mime_type="application/json",
        description="one neuron of the user's memory, with its links (as `show`)",
    )
    def neuron_resource(id: str) -> str:
        try:
            data, _ = door.run(["show", "--", id])
        except NeuronsError as exc:
            if "no neuron" in str(exc) or "not a valid id" in str(exc):
                raise ResourceNotFoundError(str(exc)) from None
            raise ResourceError(str(exc)) from None
        return json.dumps(data, ensure_ascii=False)

    return server


def _changed(data: dict[str, Any]) -> dict[str, Any]:
    """A reminder after done or snooze: when it notifies next, and why."""
    return {**_brief(data, why=data.get("why")), "fires_at": data.get("fires_at")}


def _links(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": e["id"],
            "relation": e["relation_type"],
            "other_id": e.get("other_id"),
            "other_title": e.get("other_title"),
            "open": e.get("valid_to") is None,
            "derived_by": e.get("derived_by"),
        }
        for e in data.get("edges") or []
    ]


class _RefuseUnknownArguments:
    """A tool call with an argument the tool does not take is an error the model can read
    (the SDK would drop it silently, and the model would think it counted)."""

    def __init__(self, parameters: dict[str, set[str]]):
        self.parameters = parameters

    async def __call__(self, ctx, call_next):
        params = ctx.params if ctx.method == "tools/call" else None
        if isinstance(params, Mapping) and isinstance(params.get("arguments"), Mapping):
            known = self.parameters.get(str(params.get("name")))
            unknown = sorted(set(params["arguments"]) - known) if known is not None else []
            if known is not None and unknown:
                text = (
                    f"{params['name']} takes no argument {', '.join(map(repr, unknown))}; "
                    f"its arguments are {', '.join(sorted(known))}"
                )
                return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
        return await call_next(ctx)


def serve(data_dir: str | Path | None, dsn: str | None, execute: Execute) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin (or a signal ends the process)."""
    door = Door(data_dir, dsn, execute)
    try:
        anyio.run(_serve_stdio, build(door))
        log.info("the client ended the session")
    finally:
        # A client that closed our stdin sends SIGTERM when we are not gone within moments
        # (the SDK's: 2 s); closing the store takes about that long, and must not be cut short.
        with _signals_held():
            door.close()
        log.info("released %s", door.data_dir)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in held.items():
            signal.signal(sig, handler)


# -- the wire: every request that has an id gets an answer ---------------------------------------------

# A line longer than this is not read into memory: it is answered as a parse error.
MAX_LINE = 16 * 1024 * 1024
# How much of a line that is not JSON is searched for the id of the request it was meant to be.
ID_SCAN = 1024 * 1024
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


async def _serve_stdio(server) -> None:
    """MCPServer.run_stdio_async, with stdin read through `_Screen`: the SDK drops a line it
    cannot validate without a word, so a client would wait for that answer forever."""
    wire, restore = _claim_stdin()
    try:
        screen = _Screen(wire)
        async with stdio_server(stdin=screen) as (read_stream, write_stream):  # type: ignore[arg-type]
            screen.replies = write_stream
            lowlevel = server._lowlevel_server  # what run_stdio_async serves (SDK 2.x)
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
    finally:
        restore()


def _claim_stdin():
    """The wire's stdin on a private descriptor, fd 0 pointed at the null device while we serve
    (as the SDK does for the streams it claims): a handler or child reading stdin reads EOF."""
    private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)

    def restore() -> None:
        os.dup2(private, 0)

    return os.fdopen(private, "rb", closefd=False), restore


class _Screen:
    """Lines of the wire for the SDK's reader: a valid JSON-RPC message passes; anything else
    is answered here (a JSON-RPC error with the request's id when it has one, else id null)."""

    def __init__(self, wire):
        self.wire = wire
        self.replies = None  # the SDK's write stream, set once it exists

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        while True:
            raw = await anyio.to_thread.run_sync(self._read_line, abandon_on_cancel=True)
            if raw is None:
                raise StopAsyncIteration
            if raw is _OVERLONG:
                await self._answer(
                    [(None, PARSE_ERROR, f"Parse error: a message longer than {MAX_LINE:,} bytes")]
                )
                continue
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            refusals = _refusals(line)
            if refusals is None:
                return line
            await self._answer(refusals)

    def _read_line(self):
        line = self.wire.readline(MAX_LINE + 1)
        if not line:
            return None
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := self.wire.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass
            return _OVERLONG
        return line

    async def _answer(self, refusals: list[tuple[Any, int, str]]) -> None:
        if self.replies is None:  # (set as soon as the SDK's streams exist, before a line is read)
            raise RuntimeError("the MCP screen has no stream to answer on")
        for request_id, code, message in refusals:
            log.warning("answered a malformed line (%s): %s", request_id, message)
            error = JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))
            await self.replies.send(SessionMessage(error))


_OVERLONG = object()


def _refusals(line: str) -> list[tuple[Any, int, str]] | None:
    """None when the SDK reads `line` as the message it is; else the errors to answer it with
    ([] for what must not be answered: a notification, a malformed response)."""
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:
        problem = str(exc)
    else:
        # the SDK reads a request whose id is not a string or an integer as a notification
        # (and answers nothing): it had an id, so it is answered
        if isinstance(message, JSONRPCNotification) and '"id"' in line:
            data = _json(line)
            if isinstance(data, dict) and "id" in data:
                return [(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")]
        return None
    data = _json(line)
    if data is _NOT_JSON:
        why = (
            problem.split("Invalid JSON: ", 1)[-1].split(" [type=")[0]
            if "Invalid JSON" in problem
            else "not JSON"
        )
        if "recursion limit" in why:
            why = f"nested too deeply to read ({why})"
        return [(_shallow_id(line), PARSE_ERROR, f"Parse error: {why}")]
    if isinstance(data, list):
        ids = [_usable_id(item.get("id")) for item in data if isinstance(item, dict) and "method" in item]
        why = "Invalid Request: MCP takes one message per line, not a batch"
        return [(i, INVALID_REQUEST, why) for i in ids if i is not None] or [(None, INVALID_REQUEST, why)]
    if not isinstance(data, dict):
        return [(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")]
    if "method" not in data and ("result" in data or "error" in data):
        log.warning("dropped a malformed response from the client: %s", problem.splitlines()[0])
        return []
    if "id" not in data and "method" in data:
        log.warning("dropped a malformed notification: %s", problem.splitlines()[0])
        return []
    return [
        (_usable_id(data.get("id")), INVALID_REQUEST, f"Invalid Request: {_what_is_wrong(data, problem)}")
    ]


_NOT_JSON = object()


def _json(line: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _usable_id(value: Any) -> str | int | None:
    """An id the answer can carry back (JSON-RPC: a string or an integer; else null)."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


def _what_is_wrong(data: dict[str, Any], problem: str) -> str:
    if data.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if "id" in data and _usable_id(data["id"]) is None:
        return "id must be a string or an integer"
    if not isinstance(data.get("method"), str):
        return "method must be a string"
    if "params" in data and not isinstance(data["params"], dict):
        return "params must be an object"
    if "surrogate" in problem or "hex escape" in problem:
        return "a string holds a lone surrogate (\\ud800-\\udfff), which is not Unicode"
    detail = next((ln.strip() for ln in problem.splitlines()[1:] if ln.strip()), "not a message of MCP")
    return detail.split(" [type=")[0]


def _shallow_id(line: str) -> str | int | None:
    """The top-level "id" of a line that does not parse (too deep, cut short): its tokens are
    followed at the outer object's level only."""
    depth, key, expect_key, last = 0, None, False, None
    for match in _TOKEN.finditer(line, 0, ID_SCAN):
        token = match.group()
        if token in "{[":
            depth += 1
            expect_key = depth == 1 and token == "{"
            continue
        if token in "}]":
            depth -= 1
            continue
        if depth != 1:
            continue
        if token == ",":
            expect_key = True
        elif token == ":":
            key, last = last, None
        elif expect_key:
            last, expect_key = token, False
        elif key == '"id"':
            return _usable_id(_json(token))
    return None
