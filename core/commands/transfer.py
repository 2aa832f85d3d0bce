"""Commands that move a memory in and out: export, import."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from core.commands.base import Answer, command
from core.model import NeuronsError
from core.validate import parse_json

FORMATS = ["json", "vcard", "ics", "markdown"]


def _absolute_path(args) -> None:
    """A path the running app can open too (it has its own working directory); a trailing '/'
    (export one file per item) is kept. Symbolic links stay as given: an export refuses to
    write through one, an import looks at where they lead."""
    if args.path and args.path != "-":
        trailing = "/" if args.path.endswith(("/", os.sep)) else ""
        args.path = os.path.abspath(Path(args.path).expanduser()) + trailing


def _export_arguments(p) -> None:
    p.add_argument(
        "path",
        nargs="?",
        default="-",
        help="a file, or a folder (existing, or ending in /) "
        "for one file per item: UID.vcf, UID.ics, one .md per neuron ('-': JSON on stdout)",
    )
    p.add_argument("--format", choices=FORMATS, help="default: from the extension, else json")
    p.add_argument("--kind", choices=["note", "reminder", "contact"], help="only neurons of this kind")
    p.add_argument("--vcard-version", default="4.0", choices=["4.0", "3.0"], help="3.0 for old clients")
    p.add_argument(
        "--force",
        action="store_true",
        help="into a folder Neurons exported to before: replace its files even where they changed since",
    )


def _import_arguments(p) -> None:
    p.add_argument(
        "path",
        help="a file or a folder (a vdir of .vcf or .ics files, a vault of .md "
        "files); '-': a JSON export on stdin",
    )
    p.add_argument("--format", choices=FORMATS, help="default: from the extension or what the folder holds")
    p.add_argument(
        "--all-or-nothing", action="store_true", help="import nothing when any item cannot be imported"
    )


def _read_stdin(args) -> None:
    if args.path == "-":
        args.stdin = sys.stdin.read()
    else:
        _absolute_path(args)


@command(
    "export",
    "write the memory as JSON (default), vCard, iCalendar or a Markdown vault",
    arguments=_export_arguments,
    prepare=_absolute_path,
)
def export(memory, args) -> Answer:
    if args.path == "-":
        if args.format not in (None, "json") or args.kind:
            raise NeuronsError("only the whole memory as JSON goes to stdout: give a PATH")
        data = memory.export()
        return Answer(data, json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False))
    from core.interop.files import export_path  # noqa: PLC0415 - commands stay light to import

    done = export_path(
        memory, args.path, args.format, kind=args.kind, vcard_version=args.vcard_version, force=args.force
    )
    items, files = _counted(done["items"], "item"), _counted(done["files"], "file")
    return Answer(done, note=f"exported {items} as {done['format']} to {done['path']} ({files})")


def _counted(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


@command(
    "import",
    "read a JSON export, vCards, an iCalendar file or a Markdown vault",
    arguments=_import_arguments,
    prepare=_read_stdin,
    forwardable=lambda args: args.path != "-",
)
def import_(memory, args) -> Answer:
    from core.interop.files import import_path  # noqa: PLC0415 - keeps forwarding light
    from core.interop.report import Report  # noqa: PLC0415 - keeps forwarding light

    if args.path == "-":  # a JSON export on stdin: it cannot name another format
        data = parse_json(args.stdin, "cannot read stdin")
        counts = memory.import_(data)
        report = Report("json", created=counts["neurons"], unchanged=len(data["neurons"]) - counts["neurons"])
    else:
        import sys  # noqa: PLC0415 - as above

        progress = TerminalProgress(sys.stderr)
        try:
            report = import_path(
                memory, args.path, args.format, all_or_nothing=args.all_or_nothing, progress=progress
            )
        finally:
            progress.close()
    # files an export's manifest promised are not there: the import is not the whole of it
    return Answer(report.to_json(), report.text(), code=1 if report.missing else 0)


class TerminalProgress:
    """How far a long import has got, on a terminal: "importing… 1,200 of 5,000" on stderr,
    redrawn at most every REDRAW_S once it has taken SHOW_AFTER_S; nothing when stderr is not a
    terminal (a pipe, a log, the app's socket) or the import is quick."""

    SHOW_AFTER_S = 0.5
    REDRAW_S = 0.2

    def __init__(self, stream) -> None:
        import time  # noqa: PLC0415 - as above

        self.stream, self.clock = stream, time.monotonic
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.started = self.last = self.clock()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if not self.tty or now - self.started < self.SHOW_AFTER_S or now - self.last < self.REDRAW_S:
            return
        self.last, self.shown = now, True
        self.stream.write(f"\rimporting… {done:,} of {total:,}")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:  # the line is cleared: the report follows on stdout
            self.stream.write("\r\x1b[K")
            self.stream.flush()
