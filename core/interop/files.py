"""Formats in and out: JSON (`neurons-export/1`, the default), vCard, iCalendar, a Markdown vault.

    import_path(memory, path, fmt=None, all_or_nothing=False, progress=None) -> Report
    export_path(memory, path, fmt=None, kind=None, vcard_version="4.0") -> dict

The format comes from the extension (.json, .vcf/.vcard, .ics/.ical, .md) or, for a folder, from
what it holds (a vdir of .vcf or .ics files, or a vault of .md files). An export to a folder (an
existing one, or a path ending in "/") writes one file per item: UID.vcf / UID.ics as vdirsyncer,
khard, todoman and khal read them, or one .md per neuron.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
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
from core.model import InvalidInput, Kind, Neuron, State
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
        best = max(counts, key=lambda fmt: counts[fmt])
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
    return _inside(root, _candidates(root, fmt))[0]


def _candidates(root: Path, fmt: str) -> list[Path]:
    if fmt == "markdown":
        return markdown.files(root)
    return sorted(p for p in root.iterdir() if p.suffix.lower() in FOLDER_FILES[fmt])


def _inside(root: Path, paths: list[Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """(the files that are within `root`, [(name, why)] of those that lead elsewhere): a symbolic
    link to a file outside the folder the person chose is not read."""
    real_root = root.resolve()
    inside, outside = [], []
    for p in paths:
        try:
            real = p.resolve(strict=True)
        except (OSError, RuntimeError):  # a dangling link, or a loop of them
            outside.append((p.relative_to(root).as_posix(), "it is a link that leads nowhere"))
            continue
        if not real.is_file():
            continue
        if real != real_root and real_root not in real.parents:
            outside.append(
                (
                    p.relative_to(root).as_posix(),
                    f"it is a link to {real}, outside the folder you chose: Neurons reads only "
                    "what is inside it",
                )
            )
            continue
        inside.append(p)
    return inside, outside


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
    sources, outside = _inside(path, _candidates(path, fmt)) if path.is_dir() else ([path], [])
    if not sources:
        why = f" (only links to elsewhere, such as {outside[0][0]})" if outside else ""
        raise InvalidInput(f"{path} holds no {' or '.join(FOLDER_FILES[fmt])} files{why}")
    plan = Plan(memory, fmt, now)
    for name, why in outside:
        plan.report.skip(name, why)
    if path.is_dir():
        plan.report.missing = missing_from_manifest(path)
    report = progress or (lambda done, total: None)
    if fmt == "markdown":
        _import_vault(plan, path if path.is_dir() else path.parent, sources, report)
    else:
        # every file read first, so the plan reads what their items could match in one go
        read = [(source, _entries(plan, fmt, source)) for source in sources]
        plan.read()
        found = 0
        for i, (source, entries) in enumerate(read):
            where = source.name if path.is_dir() or len(sources) > 1 else ""
            found += _import_file(plan, entries, where, report, (i, len(sources)))
        if found == 0 and not plan.report.skipped:
            kind = "vCard (BEGIN:VCARD)" if fmt == "vcard" else "task or event (BEGIN:VTODO, BEGIN:VEVENT)"
            raise InvalidInput(f"{path.name} holds no {kind}: is it {NAMES[fmt]} file?")
    return plan.commit(all_or_nothing)


def _named(where: str, item: str) -> str:
    return f"{where}, {item}" if where else item


# an item of a file, with its card's attrs (or why they cannot be read; None: not a card)
Entry = tuple[vcard.Card | ical.Item | Skip, dict[str, Any] | Skip | InvalidInput | None]


def _entries(plan: Plan, fmt: str, source: Path) -> list[Entry]:
    """A file's items, each with its card's attrs (or why they cannot be read); what each
    could match is wanted by the plan."""
    data = _read(source)
    out: list[Entry] = []
    for entry in vcard.split_cards(data) if fmt == "vcard" else ical.read(data, plan.now):
        attrs: dict[str, Any] | Skip | InvalidInput | None = None
        if isinstance(entry, vcard.Card):
            try:
                attrs = vcard.to_attrs(entry, plan.region)
            except (Skip, InvalidInput) as exc:
                attrs = exc
            else:
                plan.want_card(attrs)
        elif not isinstance(entry, Skip):
            plan.want_reminder(entry.uid)
        out.append((entry, attrs))
    return out


def _import_file(
    plan: Plan, entries: list[Entry], where: str, report: Progress, position: tuple[int, int]
) -> int:
    done, files = position
    for i, (entry, attrs) in enumerate(entries):
        if isinstance(entry, ical.Dropped):  # one value lost, the item itself imported
            plan.report.drop(_named(where, entry.item), entry.why)
        elif isinstance(entry, Skip):
            plan.report.skip(_named(where, entry.item), entry.why)
        elif isinstance(entry, vcard.Card):
            label = _named(where, entry.describe())
            with plan.item(label):
                if isinstance(attrs, Skip):
                    raise Skip(_named(where, attrs.item), attrs.why)
                if isinstance(attrs, InvalidInput):
                    raise attrs
                assert attrs is not None
                plan.contact(label, attrs, written_at=vcard.written_at(entry))
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
    ours: dict[str, tuple[Neuron, list] | Skip | InvalidInput] = {}
    for p in pages:  # what each page could match, read in one go
        if not p.ours:
            plan.want_note(p.path)
            continue
        try:
            neuron, written = ours[p.path] = markdown.neuron_of(p)
        except (Skip, InvalidInput) as exc:
            ours[p.path] = exc
            continue
        plan.want_neuron(neuron.id)
        for link in written:
            try:
                plan.want_neuron(uuid.UUID(str(link.get("to"))))
            except ValueError:
                pass
    plan.read()
    by_stem: dict[str, uuid.UUID] = {}
    links: list[tuple[markdown.Page, uuid.UUID, list | None]] = []
    for p in pages:
        with plan.item(p.path):
            if p.ours:
                read = ours[p.path]
                if isinstance(read, (Skip, InvalidInput)):
                    raise read
                neuron, own = read
                plan.neuron(neuron)
            else:
                body, attrs, created = markdown.hand_written(p)
                neuron, own = plan.note(p.path, body, attrs, created), None
            by_stem.setdefault(p.stem.lower(), neuron.id)
            if not p.ours:  # an Obsidian alias names the note in links too
                for alias in neuron.attrs.get("aliases") or []:
                    by_stem.setdefault(str(alias).lower(), neuron.id)
            links.append((p, neuron.id, own))
    own_ids = []
    for _, _, own in links:
        for link in own or []:
            try:
                own_ids.append(uuid.UUID(str(link.get("id"))))
            except ValueError:
                pass
    plan.want_links((nid for _, nid, _ in links), own_ids)
    plan.read()
    made = 0
    for i, (p, nid, own) in enumerate(links):
        if own is not None:
            wanted: list = list(enumerate(own))
        else:
            wanted = [
                (target, relation)
                for name, relation in markdown.wiki_links(p)
                if (target := by_stem.get(name)) is not None and target != nid
            ]
        if len(wanted) > markdown.MAX_LINKS_PER_NOTE:
            plan.report.drop(
                p.path,
                f"it links to {len(wanted):,} notes; its first {markdown.MAX_LINKS_PER_NOTE:,} are "
                f"linked (at most {markdown.MAX_LINKS_PER_NOTE:,} links a note)",
            )
            wanted = wanted[: markdown.MAX_LINKS_PER_NOTE]
        room = markdown.MAX_IMPORT_LINKS - made
        if len(wanted) > room:
            plan.report.drop(
                p.path,
                (
                    "none of its links are made"
                    if room == 0
                    else f"{len(wanted) - room:,} of its links are not made"
                )
                + f": this import made {markdown.MAX_IMPORT_LINKS:,} links, the most one import makes",
            )
            wanted = wanted[:room]
        made += len(wanted)
        if own is not None:
            for n, link in wanted:
                where = f"{p.path}, link {n + 1}"
                try:
                    edge = markdown.edge_of(nid, link, where)
                except (Skip, InvalidInput) as exc:
                    plan.report.skip(where, getattr(exc, "why", str(exc)))
                    continue
                if plan.has_link(edge.id):
                    continue
                if not plan.holds(edge.to_id):
                    plan.report.skip(
                        where, f"it points at {edge.to_id}, which is in neither the vault nor the memory"
                    )
                    continue
                plan.link(edge.from_id, edge.to_id, edge.relation, edge=edge)
        else:
            for target, relation in wanted:
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
    force: bool = False,
) -> dict[str, Any]:
    """Write the memory (or one kind of it) to a file, or to a folder one file per item.

    Only files that do not exist, or that Neurons wrote itself, are written (a folder keeps a
    manifest of what Neurons exported there, MANIFEST); a symbolic link is never written
    through. Anything else is refused before a file is written; `force` replaces files of an
    earlier export that were changed since."""
    if fmt not in (None, *FORMATS):
        raise InvalidInput(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    as_folder = str(path).endswith(("/", os.sep)) or (Path(path).is_dir() and not Path(path).is_symlink())
    path = Path(path).expanduser()
    fmt = fmt or (EXTENSIONS.get(path.suffix.lower(), "json") if not as_folder else "json")
    if fmt not in FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if vcard_version not in vcard.VERSIONS:
        raise InvalidInput(f"vCard version {vcard_version!r}: use one of {', '.join(vcard.VERSIONS)}")
    kind = Kind.parse(kind) if kind else KIND_OF.get(fmt)
    if fmt in KIND_OF and kind is not KIND_OF[fmt]:
        raise InvalidInput(f"{NAMES[fmt]} export holds {KIND_OF[fmt].value}s only")
    per_item = as_folder or fmt == "markdown"
    # refused before the memory is even read: a target Neurons may not write
    _refuse_a_link(path.parent / path.name.rstrip("/"), "folder" if per_item else "file")
    if not per_item:
        _refuse_a_file_of_another(path, fmt)
    neurons, edges = memory.snapshot(whole_store=True)
    if kind is not None:
        neurons = [n for n in neurons if n.kind is kind]
        ids = {n.id for n in neurons}
        edges = [e for e in edges if e.from_id in ids and e.to_id in ids]
    if fmt in KIND_OF:  # trashed items do not go to other apps
        neurons = [n for n in neurons if n.state is not State.TRASHED]
    if fmt == "vcard" and not neurons:  # an empty .vcf is no address book: no file at all
        raise InvalidInput("there are no contacts to export: nothing was written")
    files = _render(memory, fmt, neurons, edges, per_item, vcard_version, path)
    if per_item:
        _write_folder(path, files, force)
    else:
        ((name, text),) = files.items()
        _write(path, text, new=not os.path.lexists(path))
    return {"format": fmt, "path": str(path), "items": len(neurons), "files": len(files)}


# -- what an export may write ----------------------------------------------------------------------

# The manifest of a folder Neurons exported to: each file it wrote there, with its SHA-256.
MANIFEST = ".neurons-export.json"
MANIFEST_FORMAT = "neurons-export-manifest/1"
# What a single file Neurons wrote starts with (looked for in its first bytes).
OWN_MARKS = {
    "json": b'"format": "neurons-export/1"',
    "vcard": b"PRODID:-//Neurons//",
    "ics": b"PRODID:-//Neurons//",
}
OWN_MARK_WITHIN = 64 * 1024


def _refuse_a_link(path: Path, what: str) -> None:
    if path.is_symlink():
        raise InvalidInput(
            f"{path} is a symbolic link (to {os.readlink(path)}): Neurons never writes through "
            f"one; give the {what} itself; nothing was written"
        )


def _refuse_a_file_of_another(path: Path, fmt: str) -> None:
    """A single-file export replaces only a regular file Neurons wrote (by its first bytes)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise os_error(exc, path, "look at") from None
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInput(f"{path} exists and is not a file: choose another name; nothing was written")
    try:
        with open(path, "rb") as f:
            head = f.read(OWN_MARK_WITHIN)
    except OSError as exc:
        raise os_error(exc, path, "read") from None
    if OWN_MARKS[fmt] not in head:
        raise InvalidInput(
            f"{path} exists and Neurons did not write it: choose another name (Neurons never "
            "replaces a file it did not make); nothing was written"
        )


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(root: Path, *, on_disk_only: bool = False) -> dict[str, list[str]]:
    """{relative path: [SHA-256, ...]} of what Neurons exported to `root` before ({} if never).
    A file may have two: an export cut off midway leaves each file old or new. With
    `on_disk_only`, only the files it says are there ("files"), not those an export cut off was
    still writing ("writing": Neurons' own if they are there, but maybe never written)."""
    file = root / MANIFEST
    if not os.path.lexists(file):
        return {}
    if file.is_symlink() or not file.is_file():
        raise InvalidInput(f"{file} is not a manifest Neurons wrote: nothing was written")
    try:
        data = parse_json(file.read_text(encoding="utf-8"), f"cannot read {file}")
    except (OSError, UnicodeDecodeError):
        data = None
    ours = isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT
    files = data.get("files") if ours else None
    writing = (data.get("writing") or {}) if ours and not on_disk_only else {}
    if not all(
        isinstance(part, dict)
        and all(isinstance(v, list) and all(isinstance(d, str) for d in v) for v in part.values())
        for part in (files, writing)
    ):
        raise InvalidInput(f"{file} is not a manifest Neurons wrote: nothing was written")
    assert isinstance(files, dict) and isinstance(writing, dict)
    return {**writing, **{n: sorted({*d, *writing.get(n, [])}) for n, d in files.items()}}


def missing_from_manifest(root: Path) -> list[str]:
    """The files an export's manifest in `root` says are there and are not (an export cut off,
    files removed since); [] without a manifest Neurons can read."""
    try:
        listed = _read_manifest(root, on_disk_only=True)
    except InvalidInput:
        return []
    return sorted(name for name in listed if not os.path.lexists(root / name))


def _write_folder(root: Path, files: dict[str, str], force: bool) -> None:
    """Write every file or none: each is new, or one this folder's manifest says Neurons wrote
    (unchanged since, or `force`); no file or folder on the way is a symbolic link."""
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, root, "create") from None
    manifest = _read_manifest(root)
    foreign: list[str] = []
    changed: list[str] = []
    replacing: set[str] = set()
    folders: set[str] = set()
    for name in files:
        for folder in Path(name).parents:
            if str(folder) != "." and str(folder) not in folders:
                folders.add(str(folder))
                _refuse_a_link(root / folder, "folder")
                if (root / folder).exists() and not (root / folder).is_dir():
                    foreign.append(str(folder))
        target = root / name
        try:
            info = os.lstat(target)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise os_error(exc, target, "look at") from None
        if not stat.S_ISREG(info.st_mode) or name not in manifest:
            foreign.append(name)
        elif _digest(target.read_bytes()) not in manifest[name]:
            changed.append(name)
            replacing.add(name)
        else:
            replacing.add(name)
    if foreign:
        raise InvalidInput(
            f"{root / foreign[0]}{_and_more(foreign)} already exists and Neurons did not write it: "
            "Neurons never replaces a file it did not make; export into an empty or new folder "
            "(nothing was written)"
        )
    if changed and not force:
        raise InvalidInput(
            f"{root / changed[0]}{_and_more(changed)} changed since Neurons exported it here: "
            "--force replaces what Neurons exported with the memory as it is now (nothing was written)"
        )
    texts = {name: text.encode("utf-8") for name, text in files.items()}
    digests = {name: _digest(raw) for name, raw in texts.items()}
    # first a manifest that says what is on disk ("files") and what this export is writing, both
    # versions of each ("writing"): an export cut off midway leaves only files Neurons can tell
    # are its own, and a manifest that never claims a file it did not write
    there = {n: d for n, d in manifest.items() if os.path.lexists(root / n)}
    _write_manifest(root, there, {n: sorted({*manifest.get(n, []), d}) for n, d in digests.items()})
    for name, raw in texts.items():  # each file whole or not at all; one sync at the end
        _write(root / name, raw, sync=False, new=name not in replacing)
    _write_manifest(root, {**there, **{n: [d] for n, d in digests.items()}})
    if hasattr(os, "sync"):
        os.sync()


def _write_manifest(
    root: Path, files: dict[str, list[str]], writing: dict[str, list[str]] | None = None
) -> None:
    body: dict[str, Any] = {"format": MANIFEST_FORMAT, "files": dict(sorted(files.items()))}
    if writing:
        body["writing"] = dict(sorted(writing.items()))
    _write(root / MANIFEST, json.dumps(body, ensure_ascii=False, indent=1) + "\n", sync=False)


def _and_more(names: list[str]) -> str:
    return f" (and {len(names) - 1} more)" if len(names) > 1 else ""


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
    """A vdir file name from a UID (as vdirsyncer: unsafe characters become '_'). A UID that
    had to change (or be shortened) gets a digest of itself, so two UIDs never share a name:
    `a/b` is a_b-<digest>, `a_b` stays a_b."""
    bare = uid.removeprefix("urn:uuid:")
    name = re.sub(r"[^\w.@+-]", "_", bare)
    name = "_" + name[1:] if name.startswith(".") else name
    if name == bare and 0 < len(name) <= 200:
        return name
    return f"{name[:180] or 'item'}-{hashlib.sha256(uid.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


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


def _write(path: Path, data: str | bytes, sync: bool = True, new: bool = False) -> None:
    """Write a whole file or none (atomically), readable by its owner only: it is a person's
    memory. A `new` file must still not exist when it is put in place (nothing is replaced)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, path) from None
    try:
        write_private(path, data, durable=sync, replace=not new)
    except FileExistsError:
        raise InvalidInput(
            f"{path} appeared while Neurons was exporting: Neurons never replaces a file it did "
            "not make; export again"
        ) from None
