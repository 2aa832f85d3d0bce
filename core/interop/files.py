"""Formats in and out: JSON (`neurons-export/1`, the default), vCard, iCalendar, a Markdown vault.

    import_path(memory, path, fmt=None, all_or_nothing=False, progress=None) -> Report
    export_path(memory, path, fmt=None, kind=None, vcard_version="4.0") -> dict

The format comes from the extension (.json, .vcf/.vcard, .ics/.ical, .md) or, for a folder, from
what it holds (a vdir of .vcf or .ics files, or a vault of .md files). An export to a folder (an
existing one, or a path ending in "/") writes one file per item: UID.vcf / UID.ics as vdirsyncer,
khard, todoman and khal read them, or one .md per neuron.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from core import remind
from core.files import os_error, write_private
from core.interop import ical, markdown, vcard
from core.interop.plan import Plan
from core.interop.report import ImportRefused, Report, Skip
from core.memory import Memory
from core.model import InvalidInput, Kind, State
from core.validate import parse_json

FORMATS = ("json", "vcard", "ics", "markdown")
EXTENSIONS = {
    ".json": "json",
    ".vcf": "vcard",
    ".vcard": "vcard",
    ".ics": "ics",
    ".ical": "ics",
    ".md": "markdown",
    ".markdown": "markdown",
}
FOLDER_FILES = {"vcard": (".vcf", ".vcard"), "ics": (".ics", ".ical"), "markdown": (".md",)}
KIND_OF = {"vcard": Kind.CONTACT, "ics": Kind.REMINDER}
NAMES = {"json": "a JSON", "vcard": "a vCard", "ics": "an iCalendar", "markdown": "a Markdown"}
# A file larger than this is refused before it is read (a calendar or address book is far smaller).
MAX_FILE_BYTES = 256 * 1024 * 1024
Progress = Callable[[int, int], None]

__all__ = ["FORMATS", "ImportRefused", "Report", "detect_format", "export_path", "import_path"]


def detect_format(path: Path) -> str:
    if path.is_dir():
        counts = {fmt: sum(1 for p in _folder_files(path, fmt)) for fmt in FOLDER_FILES}
        best = max(counts, key=counts.get)
        if counts[best] == 0:
            raise InvalidInput(f"{path} holds no .vcf, .ics or .md files to import")
        return best
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None:
        raise InvalidInput(
            f"cannot tell the format of {path.name} from its extension: give --format ({', '.join(FORMATS)})"
        )
    return fmt


def _folder_files(root: Path, fmt: str) -> list[Path]:
    if fmt == "markdown":
        return markdown.files(root)
    return sorted(p for p in root.iterdir() if p.is_file() and p.suffix.lower() in FOLDER_FILES[fmt])


def _read(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InvalidInput(
                f"{path.name} is {size / 1e6:,.0f} MB; the largest file Neurons "
                f"imports is {MAX_FILE_BYTES / 1e6:,.0f} MB"
            )
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None


# -- import ----------------------------------------------------------------------------------------


def import_path(
    memory: Memory,
    path: str | Path,
    fmt: str | None = None,
    *,
    all_or_nothing: bool = False,
    progress: Progress | None = None,
    now: datetime | None = None,
) -> Report:
    """Import a file or folder; nothing is written unless the whole plan can be. `now` is the
    moment reminders are brought to (tests pin it)."""
    path = Path(path).expanduser()
    if not path.exists():
        raise InvalidInput(f"cannot read {path}: no such file or folder")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt == "json":
        return _import_json(memory, path)
    sources = _folder_files(path, fmt) if path.is_dir() else [path]
    if not sources:
        raise InvalidInput(f"{path} holds no {' or '.join(FOLDER_FILES[fmt])} files")
    plan = Plan(memory, fmt, now)
    report = progress or (lambda done, total: None)
    if fmt == "markdown":
        _import_vault(plan, path if path.is_dir() else path.parent, sources, report)
    else:
        found = 0
        for i, source in enumerate(sources):
            where = source.name if path.is_dir() or len(sources) > 1 else ""
            found += _import_file(plan, fmt, source, where, report, (i, len(sources)))
        if found == 0 and not plan.report.skipped:
            kind = "vCard (BEGIN:VCARD)" if fmt == "vcard" else "task or event (BEGIN:VTODO, BEGIN:VEVENT)"
            raise InvalidInput(f"{path.name} holds no {kind}: is it {NAMES[fmt]} file?")
    return plan.commit(all_or_nothing)


def _named(where: str, item: str) -> str:
    return f"{where}, {item}" if where else item


def _import_file(
    plan: Plan, fmt: str, source: Path, where: str, report: Progress, position: tuple[int, int]
) -> int:
    data = _read(source)
    if fmt == "vcard":
        entries = vcard.split_cards(data)
    else:
        entries = ical.read(data, plan.now)
    done, files = position
    for i, entry in enumerate(entries):
        if isinstance(entry, ical.Dropped):  # one value lost, the item itself imported
            plan.report.drop(_named(where, entry.item), entry.why)
        elif isinstance(entry, Skip):
            plan.report.skip(_named(where, entry.item), entry.why)
        elif fmt == "vcard":
            label = _named(where, entry.describe())
            with plan.item(label):
                try:
                    attrs = vcard.to_attrs(entry, plan.region)
                except Skip as exc:
                    raise Skip(_named(where, exc.item), exc.why) from None
                plan.contact(label, attrs)
        else:
            label = _named(where, entry.label)
            with plan.item(label):
                plan.reminder(entry.uid, entry.body, entry.attrs, entry.state)
        if files > 1:
            report(done + 1, files)
        else:
            report(i + 1, len(entries))
    return len(entries)


def _import_vault(plan: Plan, root: Path, sources: list[Path], report: Progress) -> None:
    pages: list[markdown.Page] = []
    for i, source in enumerate(sources):
        rel = source.relative_to(root).as_posix()
        try:
            pages.append(markdown.page(rel, _read(source)))
        except Skip as exc:
            plan.report.skip(exc.item, exc.why)
        report(i + 1, 2 * len(sources))
    by_stem: dict[str, uuid.UUID] = {}
    links: list[tuple[markdown.Page, uuid.UUID, list]] = []
    for p in pages:
        with plan.item(p.path):
            if p.ours:
                neuron, own = markdown.neuron_of(p)
                plan.neuron(neuron)
            else:
                body, attrs, created = markdown.hand_written(p)
                neuron, own = plan.note(p.path, body, attrs, created), None
            by_stem.setdefault(p.stem.lower(), neuron.id)
            if not p.ours:  # an Obsidian alias names the note in links too
                for alias in neuron.attrs.get("aliases") or []:
                    by_stem.setdefault(str(alias).lower(), neuron.id)
            links.append((p, neuron.id, own))
    for i, (p, nid, own) in enumerate(links):
        if own is not None:
            for n, link in enumerate(own):
                where = f"{p.path}, link {n + 1}"
                try:
                    edge = markdown.edge_of(nid, link, where)
                except (Skip, InvalidInput) as exc:
                    plan.report.skip(where, getattr(exc, "why", str(exc)))
                    continue
                if edge.id in plan.edges:
                    continue
                if edge.to_id not in plan.view:
                    plan.report.skip(
                        where, f"it points at {edge.to_id}, which is in neither the vault nor the memory"
                    )
                    continue
                plan.link(edge.from_id, edge.to_id, edge.relation, edge=edge)
        else:
            for name, relation in markdown.wiki_links(p):
                target = by_stem.get(name)
                if target is not None and target != nid:
                    plan.link(nid, target, relation, how="import:markdown")
        report(len(links) + i + 1, 2 * len(links))


def _import_json(memory: Memory, path: Path) -> Report:
    try:
        text = _read(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"cannot read {path.name}: not valid JSON ({exc})") from None
    data = parse_json(text, f"cannot read {path.name}")
    counts = memory.import_(data)
    return Report("json", created=counts["neurons"], unchanged=len(data["neurons"]) - counts["neurons"])


# -- export ----------------------------------------------------------------------------------------


def export_path(
    memory: Memory,
    path: str | Path,
    fmt: str | None = None,
    *,
    kind: Kind | str | None = None,
    vcard_version: str = "4.0",
) -> dict[str, Any]:
    """Write the memory (or one kind of it) to a file, or to a folder one file per item."""
    if fmt not in (None, *FORMATS):
        raise InvalidInput(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    as_folder = str(path).endswith(("/", os.sep)) or Path(path).is_dir()
    path = Path(path).expanduser()
    fmt = fmt or (EXTENSIONS.get(path.suffix.lower(), "json") if not as_folder else "json")
    if fmt not in FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if vcard_version not in vcard.VERSIONS:
        raise InvalidInput(f"vCard version {vcard_version!r}: use one of {', '.join(vcard.VERSIONS)}")
    kind = Kind.parse(kind) if kind else KIND_OF.get(fmt)
    if fmt in KIND_OF and kind is not KIND_OF[fmt]:
        raise InvalidInput(f"{NAMES[fmt]} export holds {KIND_OF[fmt].value}s only")
    neurons, edges = memory.snapshot()
    if kind is not None:
        neurons = [n for n in neurons if n.kind is kind]
        ids = {n.id for n in neurons}
        edges = [e for e in edges if e.from_id in ids and e.to_id in ids]
    if fmt in KIND_OF:  # trashed items do not go to other apps
        neurons = [n for n in neurons if n.state is not State.TRASHED]
    files = _render(memory, fmt, neurons, edges, as_folder or fmt == "markdown", vcard_version, path)
    if fmt == "markdown" or as_folder:
        path.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():  # each file whole or not at all; one sync at the end
            _write(path / name, text, sync=False)
        if hasattr(os, "sync"):
            os.sync()
    else:
        ((name, text),) = files.items()
        _write(path, text)
    return {"format": fmt, "path": str(path), "items": len(neurons), "files": len(files)}


def _render(
    memory: Memory, fmt: str, neurons, edges, per_item: bool, version: str, path: Path
) -> dict[str, str]:
    if fmt == "json":
        data = memory.export()
        ids = {str(n.id) for n in neurons}
        edge_ids = {str(e.id) for e in edges}
        data["neurons"] = [n for n in data["neurons"] if n["id"] in ids]
        data["edges"] = [e for e in data["edges"] if e["id"] in edge_ids]
        text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
        return {"neurons-export.json" if per_item else path.name: text}
    if fmt == "markdown":
        return markdown.vault(neurons, edges)
    if fmt == "vcard":
        cards = [
            (n, vcard.from_attrs(n.attrs, uid=_card_uid(n), version=version, rev=_rev(n))) for n in neurons
        ]
        if per_item:
            return _per_item(cards, _card_uid, ".vcf")
        return {path.name: "".join(text for _, text in cards)}
    now = remind.utcnow()
    if per_item:
        return _per_item([(n, ical.calendar([n], now)) for n in neurons], ical.uid_of, ".ics")
    return {path.name: ical.calendar(neurons, now)}


def _card_uid(n) -> str:
    return str(n.attrs.get("uid") or f"urn:uuid:{n.id}")


def _rev(n) -> str | None:
    return n.updated_at.strftime("%Y%m%dT%H%M%SZ") if n.updated_at else None


def _file_name(uid: str) -> str:
    """A vdir file name from a UID (what vdirsyncer does: unsafe characters become '_')."""
    return re.sub(r"[^\w.@+-]", "_", uid.removeprefix("urn:uuid:"))[:200] or "item"


def _per_item(texts: list, uid_of: Callable, suffix: str) -> dict[str, str]:
    """{UID.vcf: text}; two items with one UID (a JSON import can bring them) both get a file."""
    files: dict[str, str] = {}
    seen: set[str] = set()  # case-insensitively: the folder may be on such a file system
    for neuron, text in texts:
        name = _file_name(uid_of(neuron))
        if (name + suffix).lower() in seen:
            name += f"-{str(neuron.id)[:8]}"
        seen.add((name + suffix).lower())
        files[name + suffix] = text
    return files


def _write(path: Path, text: str, sync: bool = True) -> None:
    """Write a whole file or none (atomically), readable by its owner only: it is a person's memory."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, path) from None
    write_private(path, text, durable=sync)
