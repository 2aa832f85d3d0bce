"""The command layer: one definition per command, the same on the command line, through the
running app's socket, and in-process; the instance protocol refuses a peer of another version."""

from __future__ import annotations

import json
import socket
import threading
import uuid

import pytest

from core import commands, instance
from core.changes import AFFECTS, Affects, Change, started_by
from core.model import Kind
from core.vocabulary import Action, Origin

# Fixed ids, not fresh ones: every xdist worker must collect the same test names.
COMMAND_LINES = [
    ["capture", "-starts with a dash", "--kind", "note", "--attrs", '{"tags": ["x"]}'],
    ["capture", "plain", "--json"],
    ["list", "--kind", "reminder", "--state", "done", "--state", "active", "--limit", "5"],
    ["show", str(uuid.UUID(int=1)), "--json"],
    ["edit", str(uuid.UUID(int=2)), "--text", "--not an option"],
    ["done", str(uuid.UUID(int=3))],
    ["link", str(uuid.UUID(int=4)), str(uuid.UUID(int=5)), "--relation", "concerns"],
    ["ask", "what about -x?", "--limit", "3", "--mode", "keyword"],
    ["about", "Ana"],
    ["export", "/tmp/x.json"],
    ["doctor", "--json"],
]


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=lambda a: a[0])
def test_a_forwarded_command_line_parses_back_to_the_same_command(argv):
    cmd, args = commands.parse(argv)
    again_cmd, again = commands.parse(commands.forwarded_argv(args))
    assert again_cmd is cmd
    assert vars(again) == vars(args)


WITH_GLOBALS = [
    ["--data-dir", "/tmp/d", "list", "--json"],
    ["--json", "-v", "--dsn=postgresql://x/y", "ask", "q", "--limit", "2"],
    ["--data-dir=/tmp/d", "capture", "--", "-x"],
    ["--data", "/tmp/d", "show", str(uuid.UUID(int=6))],  # an abbreviation: the whole parser
    ["--data-dir", "list", "ask", "q"],  # 'list' is the dir: the command is ask
    ["-v", "--help"],
    ["list", "--help"],
    ["--help", "list"],
    ["nosuch"],
    ["list", "--limit", "x"],
    ["--version"],
    [],
]


def _outcome(parse_args, argv, capsys):
    """What a parse answers: its namespace, or the message / help it ends with."""
    try:
        result = ("args", vars(parse_args(argv)))
    except commands.UsageError as exc:
        result = ("error", str(exc))
    except commands.Printed as shown:  # --help and --version: the text, never this process's stdout
        result = ("printed", shown.text, shown.code)
    return result, capsys.readouterr()


@pytest.mark.parametrize("argv", COMMAND_LINES + WITH_GLOBALS, ids=lambda a: " ".join(a)[:40])
def test_the_quick_parse_answers_as_the_whole_parser(argv, capsys):
    """parse() builds only the named command's parser: the same namespace, errors and help."""

    def whole(argv):
        args = commands.build_parser().parse_args(argv)
        for name, default in commands.GLOBALS.items():
            args.__dict__.setdefault(name, default)
        return args

    assert _outcome(lambda a: commands.parse(a)[1], argv, capsys) == _outcome(whole, argv, capsys)


def test_forwarded_commands_are_parsed_again_by_the_app(embedded_memory):
    bad = commands.execute(embedded_memory, ["list", "--limit", "many"])
    assert bad["code"] == 2 and "invalid int value" in bad["stderr"] and not bad["stdout"]
    assert commands.execute(embedded_memory, ["eval", "x.json"])["code"] == 2  # never in the app
    done = commands.execute(embedded_memory, ["capture", "--json", "--", "-dash first"])
    assert done["code"] == 0, done
    assert json.loads(done["stdout"])["body"] == "-dash first"


def test_every_command_is_registered_once_with_help():
    registry = commands.load()
    assert {
        "capture",
        "show",
        "list",
        "edit",
        "done",
        "archive",
        "trash",
        "restore",
        "link",
        "unlink",
        "export",
        "import",
        "doctor",
        "unlock",
        "ask",
        "about",
        "reindex",
        "eval",
    } <= set(registry)
    assert all(cmd.help for cmd in registry.values())


def test_changes_say_what_changed_and_who_started_it(embedded_memory):
    seen: list[Change] = []
    embedded_memory.listeners.append(seen.append)
    with started_by(Origin.WINDOW):
        note = embedded_memory.capture("tea with Rosa", kind="note")
    embedded_memory.trash(note.id)
    assert [(c.action, c.ids, c.kinds, c.origin) for c in seen] == [
        (Action.CAPTURED, (note.id,), frozenset({Kind.NOTE}), Origin.WINDOW),
        (Action.STATE, (note.id,), frozenset({Kind.NOTE}), None),
    ]
    assert all(c.action in Action and c.origin in (*Origin, None) for c in seen)  # members, not words


def test_every_action_says_what_it_affects(embedded_memory, tmp_path):
    """AFFECTS names each Action once (a new action without a row fails here), and what the
    window reloads by follows from it: a capture adds, a link touches edges only, a restore from
    a backup reloads everything."""
    assert set(AFFECTS) == set(Action)
    seen: list[Change] = []
    embedded_memory.listeners.append(seen.append)
    # the note does not name her: a card made after a note that names her links it by itself
    a = embedded_memory.capture("lunch on the terrace", kind="note")
    b = embedded_memory.capture("Rosa Lima", kind="contact")
    edge = embedded_memory.link(a.id, b.id, "concerns")
    embedded_memory.unlink(edge.id)
    embedded_memory.edit(a.id, "lunch on the terrace on Friday")
    actions = [c.action for c in seen]
    assert actions == [Action.CAPTURED, Action.CAPTURED, Action.LINKED, Action.UNLINKED, Action.EDITED]
    captured, _, linked, unlinked, edited = seen
    assert captured.affects.added and captured.affects.texts and not captured.edges_only
    assert linked.edges_only and unlinked.edges_only and not linked.affects.texts
    assert edited.affects.texts and not edited.affects.added and not edited.affects.everything
    assert AFFECTS[Action.RESTORED].everything and AFFECTS[Action.IMPORTED].everything
    assert AFFECTS[Action.ENGINE_RESTARTED] == Affects()  # nothing to reload: nothing was lost


def test_preview_says_what_a_capture_would_be_and_saves_nothing(embedded_memory):
    before = embedded_memory.count()
    u = embedded_memory.preview("remind me to call the bank tomorrow at 10")
    assert u.kind is Kind.REMINDER and "due_at" in u.attrs
    assert embedded_memory.count() == before


def test_the_instance_protocol_refuses_another_version(tmp_path):
    lock = instance.InstanceLock(tmp_path / "d")
    assert lock.try_acquire()
    server = instance.InstanceServer(tmp_path / "d", lambda message: {"seen": message["op"]}, lock)
    server.start()
    try:
        assert instance.request(tmp_path / "d", {"op": "x"})["seen"] == "x"
        # an older client sends no protocol: refused, with what to do
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(instance.socket_path(tmp_path / "d")))
            s.sendall(b'{"op": "x"}\n')
            reply = json.loads(s.makefile().readline())
        assert reply["ok"] is False and "protocol" in reply["error"]
        assert reply["protocol"] == instance.PROTOCOL
    finally:
        server.stop()
        lock.release()


def test_a_client_of_protocol_1_is_told_in_one_line_to_update(tmp_path):
    """Protocol 2 folded the ops "capture", "search" and "ask" into "command": an older client
    asking for them is refused before any handler runs, with one line saying what to do."""
    lock = instance.InstanceLock(tmp_path / "d")
    assert lock.try_acquire()
    handled = []
    server = instance.InstanceServer(tmp_path / "d", handled.append, lock)
    server.start()
    try:
        for old in ({"op": "search", "text": "milk"}, {"op": "capture", "text": "x", "kind": None}):
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(instance.socket_path(tmp_path / "d")))
                s.sendall(json.dumps({**old, "protocol": 1}).encode() + b"\n")
                reply = json.loads(s.makefile().readline())
            assert reply["ok"] is False and reply["protocol"] == instance.PROTOCOL == 2
            assert "\n" not in reply["error"] and "protocol 2, the request 1" in reply["error"]
        assert not handled
    finally:
        server.stop()
        lock.release()


def test_a_client_refuses_an_app_of_another_version(tmp_path, monkeypatch):
    """A peer that answers without (or with another) protocol is not misread."""
    path = tmp_path / "fake.sock"
    monkeypatch.setattr(instance, "socket_path", lambda data_dir: path)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(1)

    def old_app():
        conn, _ = listener.accept()
        with conn:
            conn.makefile().readline()
            conn.sendall(b'{"ok": true, "neuron": {}}\n')

    thread = threading.Thread(target=old_app)
    thread.start()
    try:
        with pytest.raises(instance.InstanceError, match="protocol none"):
            instance.request(tmp_path / "d", {"op": "capture", "text": "x"})
    finally:
        thread.join(5)
        listener.close()
