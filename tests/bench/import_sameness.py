"""Whether two versions of the importer's plan make the same stores and reports: every calendar and
address book of tests/corpus/ and of the interop fixtures (tests/core/interop_files/), and a
Markdown vault, imported into a store that already holds rows they match and rows they do not,
by this checkout and by an earlier commit (its `core` taken with `git archive`), each in a process
of its own on a fresh embedded store.

Each folder of files is an identity of its own. Before its files are imported it holds notes
that share their uids and files but are no contacts or reminders, contacts made by hand with a
card's email or phone (one named alike, one not), a reminder that is the birthday of no one; and
another identity holds the same files imported once (what it holds is never matched). Then each
file is imported, some of what came in is edited as a person would (a name, a number, a text,
a field marked as changed here, a trash), and each file is imported again. A vault exported from
one identity, with notes written by hand beside it, goes into that identity twice (its ids
match; the second time the notes written by hand, and their links, are stored too) and into a
new one (refused: the ids are taken). Every report, then every neuron and link of every identity (all but
the times the engine sets: an update's `updated_at`, a link's `created_at`), are compared; ids
are the same on both sides (uuid4 drawn from one seeded generator, used in the same order).

    python -m tests.bench.import_sameness [--before REV] [--limit N] [FOLDER...]

Prints what differs and the counts; asserts nothing. Not collected by pytest; a sample of it
runs in tests/core/test_interop_plan_reads.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
FIXTURES = ROOT / "tests" / "core" / "interop_files"
NOW = "2026-12-01T12:00:00+00:00"
EDITED_AT = "2026-11-20T08:00:00+00:00"  # a person's edit, between the two imports
SEED = 20261206


def folders(wanted: list[str], limit: int | None) -> dict[str, list[str]]:
    """{folder: [file]} of the corpus and the fixtures, each folder's files sorted."""
    out: dict[str, list[str]] = {}
    for path in sorted([*CORPUS.rglob("*"), *FIXTURES.iterdir()]):
        if path.suffix.lower() not in (".ics", ".vcf") or not path.is_file():
            continue
        name = "fixtures" if path.parent == FIXTURES else path.relative_to(CORPUS).parts[0]
        if wanted and name not in wanted:
            continue
        out.setdefault(name, []).append(str(path))
    if limit:
        out = {k: v[:limit] for k, v in out.items()}
    return out


# -- the child: one checkout's imports ---------------------------------------------------------------


def _seeded_uuids() -> None:
    """uuid4 from one seeded generator: the same calls give the same ids on both sides."""
    rng = random.Random(SEED)
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)  # type: ignore[assignment]


def _identity(name: str) -> Any:
    from core.model import Identity  # noqa: PLC0415 - the checkout's own

    return Identity(device_id=uuid.uuid5(uuid.NAMESPACE_URL, f"neurons-sameness:{name}"))


def _seed(memory: Any, paths: list[str], now: datetime) -> None:
    """Rows the files match and rows they must not, written as an import writes them."""
    from core.interop import ical, vcard  # noqa: PLC0415 - the checkout's own, in its process
    from core.interop.report import Skip  # noqa: PLC0415 - the checkout's own, in its process
    from core.model import Kind, Neuron  # noqa: PLC0415 - the checkout's own, in its process

    rows: list[Any] = []
    for n, path in enumerate(paths):
        data = Path(path).read_bytes()
        if path.lower().endswith(".vcf"):
            for i, card in enumerate(vcard.split_cards(data)):
                if isinstance(card, Skip):
                    continue
                try:
                    attrs = vcard.to_attrs(card, None)
                except Exception:  # noqa: BLE001 - a card the importer refuses: nothing to seed
                    continue
                name = str(attrs.get("name") or "")
                emails, numbers = attrs.get("emails") or [], attrs.get("phones") or []
                if (i + n) % 3 == 0 and (emails or numbers):  # the same person, entered by hand
                    hand = {"name": name + " M.", **({"emails": emails[:1]} if emails else {})}
                    hand |= {"phones": numbers[:1]} if numbers else {}
                    rows.append(Neuron(id=uuid.uuid4(), kind=Kind.CONTACT, body=name, attrs=hand))
                if (i + n) % 4 == 1 and numbers:  # another person on the same landline
                    other = {"name": "Zacarias Quintanilha", "phones": numbers[-1:]}
                    rows.append(Neuron(id=uuid.uuid4(), kind=Kind.CONTACT, body="Zacarias", attrs=other))
                if (i + n) % 5 == 2 and attrs.get("uid"):  # a note that names the card's uid
                    rows.append(
                        Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=name, attrs={"uid": attrs["uid"]})
                    )
        else:
            for i, item in enumerate(ical.read(data, now)):
                if isinstance(item, Skip) or i % 3:
                    continue
                rows.append(
                    Neuron(
                        id=uuid.uuid4(),
                        kind=Kind.NOTE,
                        body=item.body,
                        attrs={"uid": item.uid, "file": item.uid},
                    )
                )
    rows.append(Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body="a note of nothing", attrs={"tags": ["x"]}))
    rows.append(
        Neuron(
            id=uuid.uuid4(),
            kind=Kind.REMINDER,
            body="someone's birthday",
            attrs={"birthday_of": str(uuid.uuid4()).upper(), "due_at": now.isoformat()},
        )
    )
    for i, row in enumerate(rows):
        row.created_at = row.updated_at = datetime(2026, 1, 1, tzinfo=UTC).replace(
            second=i % 60, minute=i // 60 % 60
        )
    memory.apply_import(rows, [], [])


def _edit(memory: Any) -> None:
    """What a person does between two imports: a name, a number, a text, a trash."""
    from core.capture import CHANGED_HERE  # noqa: PLC0415 - the checkout's own, in its process
    from core.model import Kind, State  # noqa: PLC0415 - the checkout's own, in its process

    neurons, _ = memory.snapshot()
    changed = []
    for i, n in enumerate(sorted(neurons, key=lambda n: str(n.id))):
        attrs = dict(n.attrs)
        if n.kind is Kind.CONTACT and i % 3 == 0:
            attrs["name"] = str(attrs.get("name") or "") + " Jr."
            if i % 2:
                attrs["phones"] = [*(attrs.get("phones") or []), "+351 912 000 111"]
            attrs[CHANGED_HERE] = {**(attrs.get(CHANGED_HERE) or {}), "name": EDITED_AT}
        elif n.kind is Kind.CONTACT and i % 3 == 1 and attrs.get("emails"):
            attrs["emails"] = [e.upper() for e in attrs["emails"]]
        elif n.kind is Kind.REMINDER and i % 4 == 0:
            n.body += " (moved)"
        elif n.kind is Kind.REMINDER and i % 4 == 1 and attrs.get("uid"):
            attrs.pop("uid")
        elif i % 7 == 3:
            n.state = State.TRASHED
        else:
            continue
        n.attrs = attrs
        changed.append(n)
    memory.apply_import([], changed, [])


def _dump(memory: Any) -> dict[str, Any]:
    neurons, edges = memory.snapshot()
    return {
        "neurons": sorted(
            json.dumps(
                [str(n.id), n.kind.value, n.body, n.attrs, n.state.value, str(n.created_at)],
                sort_keys=True,
                default=str,
            )
            for n in neurons
        ),
        "edges": sorted(
            json.dumps(
                [
                    str(e.id),
                    str(e.from_id),
                    str(e.to_id),
                    e.relation.value,
                    e.weight,
                    str(e.valid_from),
                    str(e.valid_to),
                    e.derived_by,
                ],
                default=str,
            )
            for e in edges
        ),
    }


def _vault(root: Path, memory: Any) -> Path:
    """A Markdown vault of `memory` (the export's), with notes written by hand beside it."""
    from core.interop import files  # noqa: PLC0415 - the checkout's own, in its process

    vault = root / "vault"
    files.export_path(memory, str(vault) + "/", "markdown")
    pages = sorted(vault.rglob("*.md"))
    names = [p.stem for p in pages[:5]]
    (vault / "Hand").mkdir()
    for i in range(6):
        links = " ".join(f"[[{n}]]" for n in names[i % 3 :][:2])
        (vault / "Hand" / f"Written {i}.md").write_text(
            f"# Written {i}\n\nAbout things. {links} [[Written {(i + 1) % 6}]]\n"
        )
    (vault / "Hand" / "Aliased.md").write_text(
        "---\naliases: [Other name]\ntags: [t]\n---\nText [[Written 0]]\n"
    )
    return vault


def run(items: dict[str, list[str]], out: Path) -> None:
    """Import `items` as the module says, in this process's checkout; write what came of it."""
    _seeded_uuids()
    from core.interop import files  # noqa: PLC0415 - the checkout's own, after the ids are seeded
    from core.memory import Memory  # noqa: PLC0415 - the checkout's own, in its process
    from core.settings import Settings  # noqa: PLC0415 - the checkout's own, in its process
    from core.store import Store  # noqa: PLC0415 - the checkout's own, in its process

    now = datetime.fromisoformat(NOW)
    reports: list[Any] = []
    dumps: dict[str, Any] = {}

    def imported(memory: Any, path: str | Path, label: str) -> None:
        try:
            got = files.import_path(memory, path, now=now).to_json()
        except Exception as exc:  # noqa: BLE001 - a refusal is a result too, compared as one
            got = f"{type(exc).__name__}: {exc}"
        reports.append([label, got])

    with tempfile.TemporaryDirectory(prefix="neurons-import-sameness-") as tmp:
        store = Store(Settings(data_dir=Path(tmp) / "data", embed_in_background=False))
        try:
            other = Memory(store, _identity("other"), owns_store=False)
            for name, paths in items.items():
                memory = Memory(store, _identity(name), owns_store=False)
                _seed(memory, paths, now)
                for path in paths:
                    imported(other, path, f"other {path}")
                    imported(memory, path, f"first {path}")
                _edit(memory)
                for path in paths:
                    imported(memory, path, f"again {path}")
                dumps[name] = _dump(memory)
            first = next(iter(items))
            source = Memory(store, _identity(first), owns_store=False)
            vault = _vault(Path(tmp), source)
            _edit(source)
            fresh = Memory(store, _identity("vault"), owns_store=False)
            # into its own identity twice (the second finds the notes written by hand, and their
            # links, stored), and into another one (refused: the ids are the first one's)
            for label, memory in (("same", source), ("same again", source), ("fresh", fresh)):
                imported(memory, vault, f"vault {label}")
            dumps[f"{first} after the vault"] = _dump(source)
            dumps["vault"] = _dump(fresh)
            dumps["other"] = _dump(other)
        finally:
            store.close()
    out.write_text(json.dumps({"reports": reports, "dumps": dumps}, sort_keys=True, default=str))


# -- the parent: both sides, compared ----------------------------------------------------------------


def _side(checkout: Path, items_file: Path, out: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    subprocess.run(
        [sys.executable, __file__, "--run", str(items_file), str(out)], cwd=checkout, env=env, check=True
    )
    return json.loads(out.read_text())


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Every difference between two sides' results, as lines."""
    out = []
    for (label, a), (_, b) in zip(old["reports"], new["reports"], strict=True):
        if a != b:
            out.append(f"report {label}:\n  before {a}\n  now    {b}")
    for name in sorted(set(old["dumps"]) | set(new["dumps"])):
        a, b = old["dumps"].get(name, {}), new["dumps"].get(name, {})
        for part in ("neurons", "edges"):
            gone = sorted(set(a.get(part, [])) - set(b.get(part, [])))
            came = sorted(set(b.get(part, [])) - set(a.get(part, [])))
            out += [f"{name} {part} only before: {x}" for x in gone[:5]]
            out += [f"{name} {part} only now: {x}" for x in came[:5]]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", default="main", help="the commit to compare with (default: main)")
    p.add_argument("--limit", type=int, help="only the first N files of each folder")
    p.add_argument("--run", nargs=2, help=argparse.SUPPRESS)  # the child: import, write the results
    p.add_argument("folders", nargs="*", help="only these folders (of tests/corpus, or 'fixtures')")
    args = p.parse_args()
    if args.run:
        run(json.loads(Path(args.run[0]).read_text()), Path(args.run[1]))
        return 0
    items = folders(args.folders, args.limit)
    with tempfile.TemporaryDirectory(prefix="neurons-import-sameness-") as tmp:
        before = Path(tmp) / "before"
        before.mkdir()
        archive = subprocess.run(
            ["git", "archive", args.before, "core"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        (Path(tmp) / "core.tar").write_bytes(archive)
        with tarfile.open(Path(tmp) / "core.tar") as tar:
            tar.extractall(before, filter="data")
        (before / "resources").symlink_to(ROOT / "resources")
        items_file = Path(tmp) / "items.json"
        items_file.write_text(json.dumps(items))
        old = _side(before, items_file, Path(tmp) / "old.json")
        new = _side(ROOT, items_file, Path(tmp) / "new.json")
    differ = compare(old, new)
    print("\n".join(differ))
    rows = sum(len(d["neurons"]) + len(d["edges"]) for d in new["dumps"].values())
    print(
        f"{sum(map(len, items.values()))} files in {len(items)} folders, {len(new['reports'])} imports, "
        f"{rows} neurons and links at the end ({args.before} and this checkout): {len(differ)} differences"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
