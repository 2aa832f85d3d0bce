"""A Markdown vault in the style of Obsidian and Basic Memory, both ways.

Export: one `.md` per neuron (Notes/, Reminders/, Contacts/), named by its title; YAML front matter
holds id, kind, state, created, updated, every attr (due_at, rrule, tz, the contact fields...) and
`links` (every edge that starts here, with its dates, so nothing is lost); after the body, a
`## Links` section with one line per link (`- concerns [[Ana Silva]] · since 2025-01-02`), so a
Markdown reader's graph shows every edge.

Import: a file with our front matter (id and kind) comes back exactly as it was; any other file
is a note written by hand: its text, its tags (front matter and #tags), its aliases, and a
`relates_to` link for each [[wiki link]] or [text](other.md) link to another file of the vault
(a Basic Memory relation `- concerns [[X]]` keeps its type when Neurons knows it).
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import yaml

from core.interop.report import Skip
from core.model import Edge, Kind, Neuron, Relation, State
from core.validate import MAX_ATTRS_DEPTH, MAX_WEIGHT, number, parse_instant, parse_uuid

FOLDERS = {Kind.NOTE: "Notes", Kind.REMINDER: "Reminders", Kind.CONTACT: "Contacts"}
# Front matter keys of ours; an attr with one of these names goes under `attrs:`.
RESERVED = ("id", "kind", "state", "created", "updated", "links", "attrs")
LINKS_HEADING = "## Links"
MAX_NAME = 100
# Folders a vault keeps for its apps, never notes.
IGNORED_DIRS = (".obsidian", ".trash", ".git", ".basic-memory")
_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f]+')
_WIKI = re.compile(r"!?\[\[([^\]|#^]+)(?:[#^][^\]|]*)?(?:\|[^\]]*)?\]\]")
_MDLINK = re.compile(r"\]\(([^)\s]+\.md)\)")
_TAG = re.compile(r"(?<![\w/#&])#([^\W\d][\w/-]*)")
_RELATION_LINE = re.compile(r"^\s*[-*]\s+([a-z_]+)\s+\[\[([^\]|#^]+)")
_FENCE = re.compile(r"```.*?```", re.S)


# libyaml's C emitter and parser when PyYAML has them (ten times faster), else PyYAML's own.
if TYPE_CHECKING:  # the same interface either way
    _SafeDumper = yaml.SafeDumper
    _SafeLoader = yaml.SafeLoader
else:
    _SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Dumper(_SafeDumper):
    """Block style, and a multi-line string as a literal block (readable in the file)."""


def _str(dumper, value: str):
    # PyYAML falls back to a quoted scalar where a block cannot hold the text exactly
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _str)


# -- export ----------------------------------------------------------------------------------------


def title_of(neuron: Neuron) -> str:
    if neuron.kind is Kind.CONTACT and neuron.attrs.get("name"):
        return str(neuron.attrs["name"]).strip()
    return str(neuron.attrs.get("title") or neuron.title or "").strip()


def file_names(neurons: Iterable[Neuron]) -> dict[uuid.UUID, str]:
    """A unique (case-insensitively) vault path per neuron: Folder/Title.md."""
    names: dict[uuid.UUID, str] = {}
    taken: set[str] = set()
    for n in neurons:
        stem = re.sub(r"\s+", " ", _UNSAFE.sub(" ", title_of(n))).strip(" .")[:MAX_NAME].strip()
        stem = stem or f"{n.kind.value} {str(n.id)[:8]}"
        candidate, i = stem, 2
        while candidate.lower() in taken:
            candidate, i = f"{stem} ({i})", i + 1
        taken.add(candidate.lower())
        names[n.id] = f"{FOLDERS[n.kind]}/{candidate}.md"
    return names


def vault(neurons: list[Neuron], edges: list[Edge]) -> dict[str, str]:
    """Every neuron as a Markdown file: {vault path: text}."""
    names = file_names(neurons)
    out_edges: dict[uuid.UUID, list[Edge]] = {}
    for e in edges:
        out_edges.setdefault(e.from_id, []).append(e)
    return {names[n.id]: document(n, out_edges.get(n.id, []), names) for n in neurons}


def document(neuron: Neuron, edges: list[Edge], names: dict[uuid.UUID, str]) -> str:
    front: dict[str, Any] = {
        "id": str(neuron.id),
        "kind": neuron.kind.value,
        "state": neuron.state.value,
        "created": _iso(neuron.created_at),
        "updated": _iso(neuron.updated_at),
    }
    clashing = {k: v for k, v in neuron.attrs.items() if k in RESERVED}
    front.update({k: v for k, v in neuron.attrs.items() if k not in RESERVED})
    if clashing:
        front["attrs"] = clashing
    if edges:
        front["links"] = [_edge_json(e) for e in edges]
    text = (
        "---\n"
        + yaml.dump(front, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
        + "---\n"
        + neuron.body
        + "\n"
    )
    return text + links_section(edges, names)


def links_section(edges: list[Edge], names: dict[uuid.UUID, str]) -> str:
    if not edges:
        return ""
    lines = []
    for e in edges:
        target = Path(names.get(e.to_id, str(e.to_id))).stem
        since = e.valid_from.date().isoformat() if e.valid_from else ""
        when = f"{since} → {e.valid_to.date().isoformat()} (closed)" if e.valid_to else f"since {since}"
        lines.append(f"- {e.relation.value} [[{target}]] · {when}")
    return f"\n{LINKS_HEADING}\n\n" + "\n".join(lines) + "\n"


def _edge_json(e: Edge) -> dict[str, Any]:
    return {
        "id": str(e.id),
        "relation": e.relation.value,
        "to": str(e.to_id),
        "weight": e.weight,
        "valid_from": _iso(e.valid_from),
        "valid_to": _iso(e.valid_to),
        "created": _iso(e.created_at),
        "derived_by": e.derived_by,
    }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# -- import ----------------------------------------------------------------------------------------


@dataclass
class Page:
    """One file of a vault, read."""

    path: str  # relative to the vault, with forward slashes
    front: dict[str, Any] | None  # the front matter, None when there is none
    text: str  # what follows it

    @property
    def stem(self) -> str:
        return Path(self.path).stem

    @property
    def ours(self) -> bool:
        return self.front is not None and "id" in self.front and "kind" in self.front


def files(root: Path) -> list[Path]:
    """The vault's .md files, its app folders and hidden folders left out; a symbolic link is
    not followed (folder_files says which lead outside the vault)."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS and not d.startswith("."))
        found += [Path(folder) / n for n in names if n.endswith(".md")]
    return sorted(found)


def page(rel: str, data: bytes) -> Page:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Skip(rel, f"line {line} is not valid UTF-8") from None
    text = text.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return Page(rel, None, text)
    end = re.search(r"^(---|\.\.\.)[ \t]*$", text[4:], re.M)
    if end is None:
        raise Skip(rel, "its front matter has no closing '---'")
    try:
        front = _front_matter(text[4 : 4 + end.start()], rel) or {}
    except yaml.YAMLError as exc:
        raise Skip(rel, f"its front matter is not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(front, dict):
        raise Skip(rel, "its front matter is not a set of 'key: value' lines")
    body = text[4 + end.end() :]
    return Page(
        rel, {str(k): jsonable(v) for k, v in front.items()}, body[1:] if body.startswith("\n") else body
    )


# The links an import makes: at most so many from one note (a map of content links to a few
# hundred), and in all (a vault of 1,000 notes each linking to all others asked for 499,500 links:
# 61 s and 654 MB; 3,000 such notes passed 4 GB). The rest are named in the import's report.
MAX_LINKS_PER_NOTE = 1_000
MAX_IMPORT_LINKS = 100_000


# What one note's front matter may hold once its YAML aliases are followed (a 259-byte alias
# bomb stands for billions of values), and how deep (attrs stop at MAX_ATTRS_DEPTH).
MAX_FRONT_VALUES = 100_000
MAX_FRONT_DEPTH = MAX_ATTRS_DEPTH + 2


def _front_matter(text: str, rel: str) -> Any:
    """The YAML of a front matter, measured as a graph of nodes before any value is made: what
    its aliases (`*name`) would expand to is counted, a node that contains itself refused."""
    loader = _SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _measure(root, rel)
        return loader.construct_document(root)
    finally:
        loader.dispose()


def _measure(root: yaml.Node, rel: str) -> None:
    sizes: dict[int, int] = {}
    entered: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, done = stack.pop()
        children = _children(node)
        if done:
            entered.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[id(node)] > MAX_FRONT_VALUES:
                raise Skip(
                    rel,
                    f"its front matter repeats itself through YAML aliases into more than "
                    f"{MAX_FRONT_VALUES:,} values, far more than a note holds",
                )
            continue
        if id(node) in sizes:
            continue
        if id(node) in entered:
            raise Skip(rel, "its front matter holds a YAML alias that contains itself")
        if depth > MAX_FRONT_DEPTH:
            raise Skip(rel, f"its front matter is nested more than {MAX_FRONT_DEPTH} levels deep")
        entered.add(id(node))
        stack.append((node, depth, True))
        stack.extend((c, depth + 1, False) for c in children if id(c) not in sizes)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def jsonable(value: Any) -> Any:
    """YAML's dates and odd keys as JSON values (what attrs hold)."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    return value


def neuron_of(p: Page) -> tuple[Neuron, list[dict[str, Any]]]:
    """A page we wrote, as the neuron it was, with its links (front matter dicts)."""
    front = dict(p.front or {})
    nid = parse_uuid(front.pop("id"), f"{p.path}: id")
    kind, state = Kind.parse(front.pop("kind")), State.parse(front.pop("state", "active"))
    created = parse_instant(front.pop("created", None), f"{p.path}: created")
    updated = parse_instant(front.pop("updated", None), f"{p.path}: updated")
    links = front.pop("links", None) or []
    if not isinstance(links, list) or not all(isinstance(x, dict) for x in links):
        raise Skip(p.path, "its 'links' are not a list of links")
    attrs = {**front, **(front.pop("attrs", None) or {})}
    attrs.pop("attrs", None)
    body = p.text
    heading = body.rfind(f"\n{LINKS_HEADING}\n")
    if links and heading >= 0:
        body = body[:heading]
    body = body[:-1] if body.endswith("\n") else body
    return Neuron(
        id=nid, kind=kind, body=body, attrs=attrs, state=state, created_at=created, updated_at=updated
    ), links


def edge_of(source: uuid.UUID, link: dict[str, Any], where: str) -> Edge:
    edge = Edge(
        id=parse_uuid(link.get("id"), f"{where}: id"),
        from_id=source,
        to_id=parse_uuid(link.get("to"), f"{where}: to"),
        relation=Relation.parse(link.get("relation")),
        weight=number(link.get("weight", 1.0), f"{where}: weight", limit=MAX_WEIGHT),
        valid_from=parse_instant(link.get("valid_from"), f"{where}: valid_from"),
        valid_to=parse_instant(link.get("valid_to"), f"{where}: valid_to"),
        created_at=parse_instant(link.get("created"), f"{where}: created"),
        derived_by=link.get("derived_by"),
    )
    if edge.to_id == source:
        raise Skip(where, "it links the neuron to itself")
    if edge.valid_to and edge.valid_from and edge.valid_to < edge.valid_from:
        raise Skip(where, "it ends before it starts")
    return edge


def hand_written(p: Page) -> tuple[str, dict[str, Any], datetime | None]:
    """(body, attrs, created) of a note written by hand."""
    front = dict(p.front or {})
    body = p.text.strip("\n") or p.stem
    attrs: dict[str, Any] = {"title": str(front.pop("title", None) or p.stem)}
    tags = _tags(front.pop("tags", None)) + _tags(front.pop("tag", None))
    tags += [t for t in _TAG.findall(_FENCE.sub(" ", p.text)) if t not in tags]
    if tags:
        attrs["tags"] = list(dict.fromkeys(tags))
    aliases = _tags(front.pop("aliases", None))
    if aliases:
        attrs["aliases"] = aliases
    created = None
    stamp = front.pop("created", None) or front.pop("date", None)
    if isinstance(stamp, str):
        try:
            created = datetime.fromisoformat(stamp)
            created = created if created.tzinfo else created.astimezone()
        except ValueError:
            front["created"] = stamp
    if front:
        attrs["properties"] = front
    return body, attrs, created


def _tags(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list) else re.split(r"[,\s]+", str(value))
    return [str(t).strip().lstrip("#") for t in items if str(t).strip().lstrip("#")]


def wiki_links(p: Page) -> list[tuple[str, Relation]]:
    """(target name, relation) for each link of a hand-written page, in order, once each."""
    text = _FENCE.sub(" ", p.text)
    found: dict[str, Relation] = {}
    for line in text.splitlines():
        typed = _RELATION_LINE.match(line)
        if typed and typed.group(1) in {r.value for r in Relation}:
            found.setdefault(typed.group(2).strip().lower(), Relation(typed.group(1)))
    for name in _WIKI.findall(text):
        found.setdefault(name.strip().lower(), Relation.RELATES_TO)
    for target in _MDLINK.findall(text):
        found.setdefault(Path(unquote(target)).stem.lower(), Relation.RELATES_TO)
    return list(found.items())
