"""The `neurons` command. Its --json output is a stable interface other tools script against."""

from __future__ import annotations

import argparse
import io
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from core import __version__
from core.model import Kind, Neuron, NeuronsError, Relation, State
from core.settings import Settings


# Where a command writes its answer: stdout, or a buffer when the running app answers a
# forwarded command (per thread, so the app's other threads keep their stdout).
_answer = threading.local()


def _out():
    return getattr(_answer, "stream", None) or sys.stdout


def say(*parts: Any, **kw: Any) -> None:
    print(*parts, file=_out(), **kw)


def _print_json(data: Any) -> None:
    _out().write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def _neuron_json(memory, neuron: Neuron) -> dict[str, Any]:
    return neuron.to_json(edges=memory.edges(neuron.id))


def _line(neuron: Neuron) -> str:
    when = neuron.attrs.get("due_at") or (neuron.created_at.isoformat(timespec="minutes")
                                          if neuron.created_at else "")
    return f"{neuron.id}  {neuron.kind.value:<8} {neuron.state.value:<8} {when[:16]:<16}  {neuron.title}"


def _read_text(args: argparse.Namespace) -> str:
    if args.text == "-" or args.text is None:
        return sys.stdin.read()
    return args.text


def cmd_capture(memory, args):
    attrs = json.loads(args.attrs) if args.attrs else None
    neuron = memory.capture(_read_text(args), kind=args.kind, attrs=attrs)
    if args.json:
        _print_json(_neuron_json(memory, neuron))
    else:
        say(neuron.id, flush=True)


def cmd_show(memory, args):
    neuron = memory.get(args.id)
    if args.json:
        _print_json(_neuron_json(memory, neuron))
        return
    say(_line(neuron))
    say(neuron.body)
    if neuron.attrs:
        say(json.dumps(neuron.attrs, ensure_ascii=False, indent=2))
    for edge, other in memory.neighbours(neuron.id, open_only=False):
        status = "open" if edge.is_open else f"closed {edge.valid_to:%Y-%m-%d}"
        say(f"  {edge.relation.value:<12} {status:<17} {other.id}  {other.title}")


def cmd_list(memory, args):
    states = [State.parse(s) for s in args.state] if args.state else [State.ACTIVE]
    neurons = memory.list(kind=args.kind, states=states, limit=args.limit,
                          order="due" if args.kind == "reminder" else "recent")
    if args.json:
        _print_json([_neuron_json(memory, n) for n in neurons])
    else:
        for n in neurons:
            say(_line(n))


def cmd_edit(memory, args):
    attrs = json.loads(args.attrs) if args.attrs else None
    neuron = memory.edit(args.id, text=args.text, attrs=attrs)
    _print_json(_neuron_json(memory, neuron)) if args.json else say(neuron.id)


def cmd_state(memory, args):
    neuron = memory.set_state(args.id, args.state_value)
    _print_json(_neuron_json(memory, neuron)) if args.json else say(f"{neuron.id} {neuron.state.value}")


def cmd_link(memory, args):
    edge = memory.link(args.from_id, args.to_id, args.relation)
    _print_json(edge.to_json()) if args.json else say(edge.id)


def cmd_unlink(memory, args):
    edge = memory.unlink(args.edge_id)
    _print_json(edge.to_json()) if args.json else say(f"{edge.id} closed {edge.valid_to}")


def cmd_export(memory, args):
    from core import interop  # noqa: PLC0415

    if args.path == "-":
        if args.format not in (None, "json") or args.kind:
            raise NeuronsError("only the whole memory as JSON goes to stdout: give a PATH")
        _out().write(json.dumps(memory.export(), ensure_ascii=False, indent=1) + "\n")
        return
    done = interop.export_path(memory, args.path, args.format, kind=args.kind,
                               vcard_version=args.vcard_version)
    _print_json(done) if args.json else say(
        f"exported {done['items']} items as {done['format']} to {done['path']} ({done['files']} files)")


def cmd_import(memory, args):
    from core import interop  # noqa: PLC0415

    if args.path == "-":  # a JSON export on stdin (it cannot name its format otherwise)
        try:
            data = json.loads(sys.stdin.read())
        except json.JSONDecodeError as exc:
            raise NeuronsError(f"cannot read stdin: not valid JSON ({exc})") from None
        counts = memory.import_(data)
        report = interop.Report("json", created=counts["neurons"],
                                unchanged=len(data.get("neurons", [])) - counts["neurons"])
    else:
        report = interop.import_path(memory, args.path, args.format, all_or_nothing=args.all_or_nothing,
                                     progress=_progress_bar() if sys.stderr.isatty() else None)
    _print_json(report.to_json()) if args.json else say(report.text())


def _progress_bar():
    def progress(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        end = "\n" if done >= total else ""
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end=end, file=sys.stderr,
              flush=True)

    return progress


def cmd_doctor(memory, args):
    report = memory.doctor()
    if args.json:
        _print_json(report)
        return
    for key, value in report.items():
        say(f"{key:>16}: {json.dumps(value, default=str) if isinstance(value, (dict, list)) else value}")


def _fill_pending(memory) -> None:
    """One-shot commands embed what is still waiting before answering (the app does it live)."""
    from core.embed import ModelUnavailable  # noqa: PLC0415

    try:
        memory.fill_vectors()
    except ModelUnavailable as exc:
        print(f"neurons: meaning search is off ({exc}); answering from keywords", file=sys.stderr)


def cmd_ask(memory, args):
    _fill_pending(memory)
    results = memory.ask(args.question, limit=args.limit, mode=args.mode)
    if args.json:
        _print_json([r.to_json() for r in results])
    else:
        for r in results:
            say(f"{r.score:6.3f}  {r.neuron.kind.value:<8} {r.neuron.title}   [{r.why}]")


def cmd_reindex(memory, args):
    def progress(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr,
              flush=True)

    total = memory.reindex(progress=progress)
    print(file=sys.stderr)
    _print_json({"reindexed": total}) if args.json else say(f"reindexed {total} neurons")


def cmd_about(memory, args):
    _fill_pending(memory)
    answer = memory.about(args.name, limit=args.limit)
    if args.json:
        _print_json(answer.to_json())
    else:
        say(answer.render())


COMMANDS = {
    "capture": cmd_capture, "show": cmd_show, "list": cmd_list, "edit": cmd_edit,
    "done": cmd_state, "archive": cmd_state, "trash": cmd_state, "restore": cmd_state,
    "link": cmd_link, "unlink": cmd_unlink, "export": cmd_export, "import": cmd_import,
    "doctor": cmd_doctor, "ask": cmd_ask, "about": cmd_about, "reindex": cmd_reindex,
}


def build_parser() -> argparse.ArgumentParser:
    # Global options are accepted before or after the command; SUPPRESS keeps a subcommand's
    # unset option from overwriting the value given before it.
    common = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    common.add_argument("--data-dir", help="the data directory (default: the platform's user data dir; "
                        "env NEURONS_DATA_DIR)")
    common.add_argument("--dsn", help="use a server Postgres instead (env NEURONS_DSN); the password "
                        "comes from the OS keyring")
    common.add_argument("--json", action="store_true", help="machine-readable output")
    common.add_argument("-v", "--verbose", action="store_true")
    p = argparse.ArgumentParser(prog="neurons", parents=[common],
                                description="Neurons: an offline memory of notes, reminders and contacts.")
    p.add_argument("--version", action="version", version=f"neurons {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name, help_text):
        return sub.add_parser(name, help=help_text, parents=[common])

    c = add("capture", "save a note, reminder or contact; prints its id")
    c.add_argument("text", nargs="?", help="the text ('-' or nothing: read stdin)")
    c.add_argument("--kind", choices=[k.value for k in Kind], help="override the inferred kind")
    c.add_argument("--attrs", help="JSON object of attributes")
    c = add("show", "show one neuron with its links")
    c.add_argument("id")
    c = add("list", "list neurons")
    c.add_argument("--kind", choices=[k.value for k in Kind])
    c.add_argument("--state", action="append", choices=[s.value for s in State])
    c.add_argument("--limit", type=int, default=100)
    c = add("edit", "change a neuron's text or attributes")
    c.add_argument("id")
    c.add_argument("--text")
    c.add_argument("--attrs", help="JSON object replacing the attributes")
    for name, state in (("done", State.DONE), ("archive", State.ARCHIVED),
                        ("trash", State.TRASHED), ("restore", State.ACTIVE)):
        c = add(name, f"mark a neuron {state.value}")
        c.add_argument("id")
        c.set_defaults(state_value=state)
    c = add("link", "link two neurons")
    c.add_argument("from_id")
    c.add_argument("to_id")
    c.add_argument("--relation", default=Relation.RELATES_TO.value, choices=[r.value for r in Relation])
    c = add("unlink", "close a link (it is kept, with the date it stopped being true)")
    c.add_argument("edge_id")
    formats = ["json", "vcard", "ics", "markdown"]
    c = add("export", "write the memory as JSON (default), vCard, iCalendar or a Markdown vault")
    c.add_argument("path", nargs="?", default="-", help="a file, or a folder (existing, or ending "
                   "in /) for one file per item: UID.vcf, UID.ics, one .md per neuron ('-': JSON to stdout)")
    c.add_argument("--format", choices=formats, help="default: from the extension, else json")
    c.add_argument("--kind", choices=[k.value for k in Kind], help="only neurons of this kind")
    c.add_argument("--vcard-version", default="4.0", choices=["4.0", "3.0"],
                   help="3.0 for old clients")
    c = add("import", "read a JSON export, vCards, an iCalendar file or a Markdown vault")
    c.add_argument("path", help="a file or a folder (a vdir of .vcf/.ics, a vault of .md); "
                   "'-': a JSON export on stdin")
    c.add_argument("--format", choices=formats, help="default: from the extension or the folder")
    c.add_argument("--all-or-nothing", action="store_true",
                   help="import nothing when any item cannot be imported")
    add("doctor", "show the data dir, lock, engine, extensions and model")
    add("unlock", "clear a stale data-dir lock left by a dead process")
    c = add("ask", "ask a question")
    c.add_argument("question")
    c.add_argument("--limit", type=int, default=10)
    c.add_argument("--mode", default="default", choices=["default", "keyword", "vector", "hybrid"],
                   help="default: everything; the others show what each part finds alone")
    c = add("about", "everything about a person")
    c.add_argument("name")
    c.add_argument("--limit", type=int, default=50)
    add("reindex", "compute the vector of every neuron again, with progress")
    c = add("eval", "score recall on a memory-eval/1 dataset (see shared/eval/FORMAT.md)")
    c.add_argument("dataset", help="path to the dataset JSON")
    c.add_argument("--modes", default="default,keyword,vector,hybrid",
                   help="comma-separated: default, keyword, vector, hybrid")
    c.add_argument("--edges", default="given", choices=["given", "derived", "both"])
    return p


def _on_signal(signum, frame):  # noqa: ARG001
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for name, default in (("data_dir", None), ("dsn", None), ("json", False), ("verbose", False)):
        if not hasattr(args, name):
            setattr(args, name, default)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    # SIGTERM/SIGINT unwind through `finally`, so the store checkpoints and stops its engine.
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    # A one-shot command does not start the background filler (the app does); ask and about fill
    # what is pending first.
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn, embed_in_background=False)
    try:
        if args.command == "unlock":
            return _unlock(settings)
        if args.command == "eval":
            from core.recall.evaluate import run_eval  # noqa: PLC0415

            return run_eval(args)
        if args.command == "capture" and not args.dsn and _forwarded(settings, args):
            return 0
        from core.memory import Memory  # noqa: PLC0415
        from core.store import LockHeld  # noqa: PLC0415

        try:
            memory = Memory.open(settings)
        except LockHeld:
            answered = None if args.dsn else _through_running_app(settings, args)
            if answered is None:
                raise
            return answered
        try:
            COMMANDS[args.command](memory, args)
        finally:
            memory.close()
    except NeuronsError as exc:
        print(f"neurons: {exc}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"neurons: invalid JSON: {exc}", file=sys.stderr)
        return 2
    return 0


def _forwarded(settings: Settings, args: argparse.Namespace) -> bool:
    """A running desktop app owns the data dir: hand the capture to it instead of failing."""
    from core.instance import forward_capture  # noqa: PLC0415

    attrs = json.loads(args.attrs) if args.attrs else None
    text = _read_text(args)
    args.text = text  # stdin is read once; a local capture reuses it
    neuron = forward_capture(settings.data_dir, text, args.kind, attrs)
    if neuron is None:
        return False
    if args.json:
        _print_json(neuron)
    else:
        say(neuron["id"], flush=True)
    return True


# Commands the running app answers for us (capture has its own request, forward_capture).
FORWARDABLE = set(COMMANDS) - {"capture"}


def _through_running_app(settings: Settings, args: argparse.Namespace) -> int | None:
    """The desktop app owns the data dir: let it run the command on its memory and answer."""
    from core.instance import request  # noqa: PLC0415

    if args.command not in FORWARDABLE:
        return None
    fields = {k: v for k, v in vars(args).items() if k not in ("data_dir", "dsn")}
    for key in ("file", "path"):  # the app runs elsewhere: paths travel absolute
        if isinstance(fields.get(key), str) and fields[key] != "-":
            trailing = "/" if fields[key].endswith("/") else ""
            fields[key] = str(Path(fields[key]).expanduser().resolve()) + trailing
    if fields.get("path") == "-" and args.command == "import":
        return None  # stdin cannot travel; the lock error says who to close
    reply = request(settings.data_dir, {"op": "cli", "args": fields})
    if reply is None:
        return None
    sys.stdout.write(reply.get("stdout", ""))
    sys.stderr.write(reply.get("stderr", ""))
    return int(reply.get("code", 0))


def answer_forwarded(memory, fields: dict[str, Any]) -> dict[str, Any]:
    """Run a forwarded command (`_through_running_app`) on the app's memory; its output and code."""
    args = argparse.Namespace(**{"json": False, **fields})
    if args.command not in FORWARDABLE:
        return {"code": 2, "stdout": "", "stderr": f"neurons: {args.command} cannot be forwarded\n"}
    buffer = io.StringIO()
    _answer.stream = buffer
    try:
        COMMANDS[args.command](memory, args)
        code, error = 0, ""
    except NeuronsError as exc:
        code, error = 2, f"neurons: {exc}\n"
    except json.JSONDecodeError as exc:
        code, error = 2, f"neurons: invalid JSON: {exc}\n"
    finally:
        _answer.stream = None
    return {"code": code, "stdout": buffer.getvalue(), "stderr": error}


def _unlock(settings: Settings) -> int:
    from core.store.lock import DataDirLock  # noqa: PLC0415

    record = DataDirLock(settings.data_dir).clear_stale()
    say("cleared the stale lock of pid %s" % record["pid"] if record else "no stale lock")
    return 0


if __name__ == "__main__":
    sys.exit(main())
