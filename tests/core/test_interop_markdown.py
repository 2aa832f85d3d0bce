"""The Markdown vault: a whole memory round-trips into an empty data dir unchanged, and a vault
written by hand in Obsidian or Basic Memory imports as notes with their links and tags."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.interop import files as interop
from core.interop import markdown
from core.memory import Memory
from core.model import Kind, Neuron, Relation, State
from core.settings import Settings, default_model_dir
from core.store import Store

FILES = Path(__file__).parent / "interop_files"
NOW = datetime(2027, 1, 10, 12, 0, tzinfo=UTC)


@pytest.fixture
def empty_memory(tmp_path):
    """A memory in a data dir of its own, empty (a person's new computer)."""
    store = Store(Settings(data_dir=tmp_path / "new-data", model_dir=default_model_dir()))
    memory = Memory(store)
    yield memory
    memory.close()


def rich_memory(memory) -> None:
    """Something of everything: kinds, states, attrs, open and closed links of each type."""
    interop.import_path(memory, FILES / "google.vcf", now=NOW)
    interop.import_path(memory, FILES / "apple.vcf", now=NOW)
    interop.import_path(memory, FILES / "thunderbird.ics", now=NOW)
    ana = next(n for n in memory.list(Kind.CONTACT) if n.attrs["name"] == "Ana Sofia Ribeiro")
    note = memory.capture(
        "Lunch with Ana at Cervejaria Ramiro: she recommends the clams.\n"
        "Trailing spaces here   \n\n## Links\n\nthis heading is part of the text",
        kind="note",
        attrs={"tags": ["food", "lisbon"], "id": "a clashing key"},
    )
    stretch = memory.capture("Stretch every day at 9", kind="reminder")
    done = memory.capture(
        "Return the library books", kind="reminder", attrs={"due_at": "2027-02-01T10:00:00+00:00"}
    )
    memory.done(done.id)
    gone = memory.capture("an old idea about bees 🐝", kind="note")
    memory.trash(gone.id)
    memory.link(note.id, stretch.id, Relation.RELATES_TO, valid_from=NOW - timedelta(days=3), weight=0.5)
    closed = memory.link(stretch.id, gone.id, Relation.RELATES_TO)
    memory.unlink(closed.id, at=NOW)
    memory.link(gone.id, ana.id, Relation.CONCERNS)
    typed = memory.capture("Sofi R. sofi@example.org", kind="contact")
    memory.link(typed.id, ana.id, Relation.SAME_PERSON)
    newer = memory.capture("Ana's new email is ana@ribeiro.example", kind="note")
    memory.link(newer.id, ana.id, Relation.SUPERSEDES)


def state_of(memory):
    neurons, edges = memory.snapshot()
    return (
        {n.id: (n.kind, n.body, n.attrs, n.state, n.created_at, n.updated_at) for n in neurons},
        {
            e.id: (
                e.from_id,
                e.to_id,
                e.relation,
                e.weight,
                e.valid_from,
                e.valid_to,
                e.created_at,
                e.derived_by,
            )
            for e in edges
        },
    )


def test_a_whole_memory_round_trips_through_a_vault_into_an_empty_data_dir(
    embedded_memory, empty_memory, tmp_path
):
    rich_memory(embedded_memory)
    written = interop.export_path(embedded_memory, tmp_path / "vault", "markdown")
    neurons, edges = state_of(embedded_memory)
    assert written["files"] == len(neurons) > 10 and len(edges) > 5
    report = interop.import_path(empty_memory, tmp_path / "vault")
    assert report.to_json() == {
        "format": "markdown",
        "created": len(neurons),
        "updated": 0,
        "unchanged": 0,
        "skipped": [],
    }
    assert state_of(empty_memory) == (neurons, edges)
    again = interop.import_path(empty_memory, tmp_path / "vault")
    assert (again.created, again.updated, again.unchanged) == (0, 0, len(neurons))
    assert state_of(empty_memory) == (neurons, edges)


def test_the_vault_reads_as_markdown(embedded_memory, tmp_path):
    rich_memory(embedded_memory)
    interop.export_path(embedded_memory, tmp_path / "vault", "markdown")
    vault = tmp_path / "vault"
    # and the manifest of what Neurons wrote there (it never replaces a file it did not make)
    assert {p.name for p in vault.iterdir()} == {"Notes", "Reminders", "Contacts", ".neurons-export.json"}
    ana = (vault / "Contacts" / "Ana Sofia Ribeiro.md").read_text()
    assert (
        ana.startswith("---\nid: ") and "\nkind: contact\n" in ana and "\nphones:\n- '+351912345678'\n" in ana
    )
    lunch = next(p for p in (vault / "Notes").iterdir() if p.name.startswith("Lunch with Ana")).read_text()
    assert "\ntags:\n- food\n- lisbon\n" in lunch
    assert "\nattrs:\n  id: a clashing key\n" in lunch  # an attr named like our own keys
    links = lunch[lunch.rindex("\n## Links\n") :]
    assert "- concerns [[Ana Sofia Ribeiro]] · since " in links  # the mention capture linked
    # a reminder is named by its title: its text without the time words (capture's)
    assert "- relates_to [[Stretch]] · since 2027-01-07\n" in links
    stretch = (vault / "Reminders" / "Stretch.md").read_text()
    assert "(closed)" in stretch and "rrule: FREQ=DAILY" in stretch
    choir = (vault / "Reminders" / "Choir practice.md").read_text()
    assert "tz: Europe/Lisbon" in choir and "exdates:" in choir


def test_hand_written_notes_import_with_links_and_tags(embedded_memory, tmp_path):
    vault = tmp_path / "Obsidian Vault"
    (vault / "People").mkdir(parents=True)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "workspace.md").write_text("not a note")
    (vault / "Trip to Porto.md").write_text(
        "# Trip to Porto\n\nWith [[Ana Sofia]] in May, see [[Packing list|the list]] and [[Nowhere]].\n"
        "#travel #2027 #family/cousins\n\n```\n[[Not a link]] #notatag\n```\n"
    )
    (vault / "Packing list.md").write_text(
        "---\ntags: [travel, lists]\naliases:\n  - Packing\ncreated: 2026-11-02\nrating: 4\n---\n"
        "- [ ] passport\n- [ ] charger\n\nBack to the [trip](Trip%20to%20Porto.md).\n"
    )
    (vault / "People" / "Ana Sofia.md").write_text(
        "---\ntitle: Ana Sofia\ntype: person\npermalink: people/ana-sofia\ntags:\n- friends\n---\n\n"
        "## Observations\n- [fact] likes #hiking\n\n## Relations\n- concerns [[Trip to Porto]]\n"
        "- works_at [[Acme]]\n"
    )
    (vault / "Broken.md").write_text("---\ntags: [unclosed\n---\ntext\n")
    (vault / "Latin.md").write_bytes("Caf\xe9 notes".encode("latin-1"))

    report = interop.import_path(embedded_memory, vault)
    assert (report.created, report.updated, report.unchanged) == (3, 0, 0)
    assert [s["item"] for s in report.skipped] == ["Broken.md", "Latin.md"]
    assert report.skipped[1]["why"] == "line 1 is not valid UTF-8"
    assert report.skipped[0]["why"].startswith("its front matter is not valid YAML")
    notes = {n.attrs["title"]: n for n in embedded_memory.list(Kind.NOTE)}
    assert set(notes) == {"Trip to Porto", "Packing list", "Ana Sofia"}
    trip, packing, ana = notes["Trip to Porto"], notes["Packing list"], notes["Ana Sofia"]
    assert trip.attrs["tags"] == ["travel", "family/cousins"]  # not #2027, not the code block's
    assert trip.body.startswith("# Trip to Porto\n\nWith [[Ana Sofia]]")
    assert packing.attrs["tags"] == ["travel", "lists"] and packing.attrs["aliases"] == ["Packing"]
    assert packing.attrs["properties"] == {"rating": 4}
    assert packing.created_at == datetime(2026, 11, 2).astimezone()
    assert ana.attrs["tags"] == ["friends", "hiking"] and ana.attrs["file"] == "People/Ana Sofia.md"
    links = {(frozenset((e.from_id, e.to_id)), e.relation) for e in embedded_memory.edges(trip.id)}
    assert links == {
        (frozenset((trip.id, ana.id)), Relation.RELATES_TO),
        (frozenset((trip.id, packing.id)), Relation.RELATES_TO),  # one link, linked both ways
        (frozenset((ana.id, trip.id)), Relation.CONCERNS),
    }
    again = interop.import_path(embedded_memory, vault)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert len(embedded_memory.edges(trip.id)) == 3
    (vault / "Packing list.md").write_text((vault / "Packing list.md").read_text() + "- [ ] sunscreen\n")
    assert interop.import_path(embedded_memory, vault).updated == 1


def test_an_edited_front_matter_is_named_when_it_cannot_be_read(embedded_memory, tmp_path):
    note = embedded_memory.capture("a note to edit", kind="note")
    interop.export_path(embedded_memory, tmp_path / "v", "markdown")
    path = tmp_path / "v" / "Notes" / "a note to edit.md"
    path.write_text(path.read_text().replace("state: active", "state: sleeping"))
    report = interop.import_path(embedded_memory, tmp_path / "v")
    assert report.skipped == [
        {
            "item": "Notes/a note to edit.md",
            "why": "unknown state 'sleeping': use one of active, done, archived, trashed",
        }
    ]
    assert embedded_memory.get(note.id).state is State.ACTIVE


def test_file_names_are_unique_and_safe():
    same = [Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=t) for t in ("A/B: c?", "a/b: C?", "", "x" * 300)]
    names = list(markdown.file_names(same).values())
    assert names[:2] == ["Notes/A B c.md", "Notes/a b C (2).md"]
    assert names[2].startswith("Notes/note ") and len(Path(names[3]).stem) == markdown.MAX_NAME


def _dense_vault(root: Path, notes: int) -> Path:
    """`notes` hand-written notes, each linking to every other (a 1,000-note one is 12 MB and
    asked for 499,500 links)."""
    root.mkdir()
    for i in range(notes):
        links = " ".join(f"[[Note {j}]]" for j in range(notes) if j != i)
        (root / f"Note {i}.md").write_text(f"Note number {i}.\n\n{links}\n", encoding="utf-8")
    return root


def test_a_densely_linked_vault_keeps_a_bounded_number_of_links_and_says_so(
    embedded_memory, tmp_path, monkeypatch
):
    monkeypatch.setattr(markdown, "MAX_LINKS_PER_NOTE", 10)
    monkeypatch.setattr(markdown, "MAX_IMPORT_LINKS", 200)
    report = interop.import_path(embedded_memory, _dense_vault(tmp_path / "vault", 40), now=NOW)
    assert report.created == 40
    _, edges = embedded_memory.snapshot()
    # 10 a note until the import's 200 were asked for (a link back to a note already linked is
    # the same link: fewer are made)
    assert 150 < len(edges) <= 200
    per_note: dict[uuid.UUID, int] = {}
    for e in edges:
        per_note[e.from_id] = per_note.get(e.from_id, 0) + 1
    assert max(per_note.values()) == 10
    capped = [d for d in report.dropped if "links" in d["why"]]
    assert capped[0] == {
        "item": "Note 0.md",
        "why": "it links to 39 notes; its first 10 are linked (at most 10 links a note)",
    }
    assert capped[-1]["why"] == (
        "none of its links are made: this import made 200 links, the most one import makes"
    )
    assert len(capped) == 40 + 20  # each over 10; and notes 20 to 39, once the import had 200
