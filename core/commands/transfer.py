"""Commands that move a memory in and out: export, import."""

from __future__ import annotations

import json
import os
from pathlib import Path

from core.commands.base import Answer, command
from core.model import NeuronsError


def _absolute_file(args) -> None:
    """A path the running app can open too (it has its own working directory)."""
    if args.file and args.file != "-":
        args.file = str(Path(args.file).expanduser().resolve())


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (a whole file or none), readable by its owner only."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


@command("export", "write every neuron and link of this identity as JSON",
         arguments=lambda p: p.add_argument("file", nargs="?", default="-"), prepare=_absolute_file)
def export(memory, args) -> Answer:
    data = memory.export()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.file and args.file != "-":
        write_private(Path(args.file), text)
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
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise NeuronsError(f"cannot read {args.file}: invalid JSON: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise NeuronsError(f"cannot read {args.file}: {exc}") from None
    counts = memory.import_(data)
    return Answer(counts, f"imported {counts['neurons']} neurons and {counts['edges']} links "
                          f"({counts['skipped']} already there)")
