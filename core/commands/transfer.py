"""Commands that move a memory in and out: export, import."""

from __future__ import annotations

import json
from pathlib import Path

from core.commands.base import Answer, command
from core.files import write_private
from core.model import NeuronsError
from core.validate import parse_json


def _absolute_file(args) -> None:
    """A path the running app can open too (it has its own working directory)."""
    if args.file and args.file != "-":
        args.file = str(Path(args.file).expanduser().resolve())


@command("export", "write every neuron and link of this identity as JSON",
         arguments=lambda p: p.add_argument("file", nargs="?", default="-"), prepare=_absolute_file)
def export(memory, args) -> Answer:
    data = memory.export()
    text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False)
    if args.file and args.file != "-":
        write_private(Path(args.file), text, durable=True)
        return Answer({"file": args.file, "neurons": len(data["neurons"]), "edges": len(data["edges"])},
                      note=f"exported {len(data['neurons'])} neurons and {len(data['edges'])} links "
                           f"to {args.file}")
    return Answer(data, text)


@command("import", "read an export (all or nothing)", arguments=lambda p: p.add_argument("file"),
         prepare=_absolute_file, forwardable=lambda args: args.file != "-")
def import_(memory, args) -> Answer:
    import sys  # noqa: PLC0415

    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NeuronsError(f"cannot read {args.file}: {exc}") from None
    data = parse_json(raw, f"cannot read {args.file}")
    counts = memory.import_(data)
    return Answer(counts, f"imported {counts['neurons']} neurons and {counts['edges']} links "
                          f"({counts['skipped']} already there)")
