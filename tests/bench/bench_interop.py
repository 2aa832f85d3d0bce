"""Import and export benchmark (printed, never asserted): 5,000 contacts and 2,000 reminders, or
(the 100k tier) 20,000 contacts and a vault of 100,000 notes.

    .venv/bin/python -m tests.bench.bench_interop [--contacts 5000] [--reminders 2000] [--notes 0]
    .venv/bin/python -m tests.bench.bench_interop --contacts 20000 --notes 100000

Generates a vCard file (3.0, as Google writes it: phones, emails, notes, two in three with a
birthday) and an iCalendar file (tasks and events: zones, daily/weekly rules with EXDATEs,
all-day dates, alarms), then times, on a fresh embedded data dir: the import, the re-import of the
same file (all unchanged), the export as one file and as a vdir, and the Markdown vault of the
whole memory out and into a second, empty data dir. With --notes: a vault of that many notes as
people write them (folders, #tags, [[links]] to other notes, a name of the contacts here and
there) imported after the contacts, and what the recall index then takes to catch up with it
(its rows and their links read from the store; the vectors come later, from the filler).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from core.interop import files
from core.memory import Memory
from core.settings import Settings
from core.store import Store

FIRST = "Ana João Maria Pedro Sofia Rui Inês Tiago Marta Luís Chidi Priya Eleni Marco Käthe Yuki".split()
LAST = "Silva Santos Ferreira Pereira Oliveira Costa Rodrigues Martins Okafor Natarajan Bianchi".split()
ZONES = ["Europe/Lisbon", "Europe/Berlin", "America/New_York", "Asia/Tokyo", None]


def vcards(n: int, rng: random.Random) -> bytes:
    cards = []
    for i in range(n):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        lines = [
            "BEGIN:VCARD",
            "VERSION:3.0",
            f"FN:{first} {last} {i}",
            f"N:{last} {i};{first};;;",
            f"TEL;TYPE=CELL:+351 91{i % 10} {i:06d}"[:30],
            f"EMAIL;TYPE=INTERNET:{first.lower()}.{i}@example.org",
            f"NOTE:Met at event {i % 50}\\, likes topic {i % 17}.\\nSecond line.",
        ]
        if i % 3:
            lines.append(f"BDAY:{1950 + i % 60}-{1 + i % 12:02d}-{1 + i % 28:02d}")
        if i % 7 == 0:
            lines += [f"item1.TEL:+44 20 7946 {i % 10000:04d}", "item1.X-ABLabel:_$!<Work>!$_"]
        cards.append("\r\n".join(lines + ["END:VCARD"]))
    return ("\r\n".join(cards) + "\r\n").encode()


def calendar(n: int, rng: random.Random) -> bytes:
    out = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN"]
    for i in range(n):
        zone = ZONES[i % len(ZONES)]
        when = f"2027{1 + i % 12:02d}{1 + i % 28:02d}T{8 + i % 12:02d}3000"
        start = f";TZID={zone}:{when}" if zone else f":{when}"
        kind = "VEVENT" if i % 4 == 0 else "VTODO"
        lines = [
            f"BEGIN:{kind}",
            f"UID:bench-{i}",
            "DTSTAMP:20260101T000000Z",
            f"SUMMARY:Reminder {i} about topic {i % 31}",
            f"DTSTART{start}",
        ]
        if kind == "VTODO":
            lines.append(f"DUE{start}")
        if i % 5 == 0:
            lines += [
                "RRULE:FREQ=WEEKLY;COUNT=20",
                f"EXDATE{start.replace(when, when[:6] + '28' + when[8:])}",
            ]
        elif i % 5 == 1:
            lines.append("RRULE:FREQ=DAILY;UNTIL=20271231T000000Z")
        if i % 3 == 0:
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"]
        if i % 11 == 0:
            lines += ["STATUS:COMPLETED", "COMPLETED:20270101T100000Z"]
        out += lines + [f"END:{kind}"]
    return ("\r\n".join(out + ["END:VCALENDAR"]) + "\r\n").encode()


WORDS = (
    "garden budget meeting dentist flight plumber recipe birthday school invoice holiday "
    "running book movie project doctor insurance car train concert coffee"
).split()


def vault(root: Path, n: int, contacts: int, rng: random.Random) -> None:
    """n Markdown notes in folders of 1,000, each with a few #tags and [[links]] to others."""
    for i in range(n):
        folder = root / f"Area {i // 1000:03d}"
        if i % 1000 == 0:
            folder.mkdir(parents=True)
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40)))
        links = " ".join(f"[[Note {rng.randrange(n)}]]" for _ in range(rng.randint(0, 3)))
        person = (
            f" Talked with {rng.choice(FIRST)} {rng.choice(LAST)} {rng.randrange(contacts)}."
            if i % 5 == 0
            else ""
        )
        tags = f"#{rng.choice(WORDS)} #{rng.choice(WORDS)}"
        (folder / f"Note {i}.md").write_text(
            f"# Note {i}\n\n{words.capitalize()}.{person}\n\n{tags}\n\n{links}\n"
        )


def caught_up(memory: Memory) -> str:
    with memory.reader.session():
        return f"{memory.recall.index.refresh(memory.reader, None)} rows read"


def timed(label: str, fn, rows: list) -> object:
    t0 = time.perf_counter()
    value = fn()
    rows.append((label, time.perf_counter() - t0, value))
    return value


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--contacts", type=int, default=5000)
    p.add_argument("--reminders", type=int, default=2000)
    p.add_argument("--notes", type=int, default=0, help="also import a vault of this many notes")
    args = p.parse_args()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "contacts.vcf").write_bytes(vcards(args.contacts, rng))
        (root / "tasks.ics").write_bytes(calendar(args.reminders, rng))
        rows: list = []
        with Memory(Store(Settings(data_dir=root / "data"))) as memory:
            short = lambda r: (
                f"{r.created} created, {r.updated} updated, {r.unchanged} unchanged, {len(r.skipped)} skipped"
            )
            timed(
                f"import {args.contacts} contacts (.vcf)",
                lambda: short(files.import_path(memory, root / "contacts.vcf")),
                rows,
            )
            timed(
                "  again (all unchanged)",
                lambda: short(files.import_path(memory, root / "contacts.vcf")),
                rows,
            )
            if args.notes:
                vault(root / "notes", args.notes, args.contacts, rng)
                memory.recall.warm()  # the index is current before the vault comes in
                timed(
                    f"import a vault of {args.notes} notes (.md)",
                    lambda: short(files.import_path(memory, root / "notes")),
                    rows,
                )
                timed(
                    "  the recall index catches up (rows read)",
                    lambda: caught_up(memory),
                    rows,
                )
            timed(
                f"import {args.reminders} reminders (.ics)",
                lambda: short(files.import_path(memory, root / "tasks.ics")),
                rows,
            )
            timed(
                "  again (all unchanged)", lambda: short(files.import_path(memory, root / "tasks.ics")), rows
            )
            timed(
                "export contacts, one .vcf",
                lambda: files.export_path(memory, root / "out.vcf")["items"],
                rows,
            )
            timed(
                "export contacts, vdir",
                lambda: files.export_path(memory, f"{root}/vdir/", "vcard")["files"],
                rows,
            )
            timed(
                "export reminders, one .ics",
                lambda: files.export_path(memory, root / "out.ics")["items"],
                rows,
            )
            timed(
                "export reminders, vdir",
                lambda: files.export_path(memory, f"{root}/cal/", "ics")["files"],
                rows,
            )
            timed(
                "export the whole memory, Markdown vault",
                lambda: files.export_path(memory, root / "vault", "markdown")["files"],
                rows,
            )
            total = memory.count()
        with Memory(Store(Settings(data_dir=root / "empty"))) as fresh:
            timed(
                f"import the vault ({total} neurons) into an empty data dir",
                lambda: short(files.import_path(fresh, root / "vault")),
                rows,
            )
    width = max(len(r[0]) for r in rows)
    print(f"\n{'what':<{width}}  {'seconds':>8}  result")
    for label, seconds, value in rows:
        print(f"{label:<{width}}  {seconds:8.2f}  {value}")


if __name__ == "__main__":
    main()
