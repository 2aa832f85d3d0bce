"""Fill a data dir with a realistic memory (a memory-eval/1 space) for trying the app and for the
README's screenshot:

    python -m desktop.demo --data-dir /tmp/neurons-demo [--dataset ../shared/eval/dev-personal.json]
    neurons-desktop --data-dir /tmp/neurons-demo --screenshot resources/screenshot.png

Every neuron goes in through Memory.capture (with its kind, attrs and creation time; derive off,
so the dataset's own links are the links) and every link through Memory.link. Times are moved so
the space's "now" is today: its reminders are then upcoming or just overdue, as in real use. Past
reminders are marked done (as their person would have), except the last few days' (overdue) and
recurring ones, which roll forward to their next occurrence. (Dates written inside the texts,
"Wed 18 June", keep their original words.)
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core import remind
from core.memory import Memory
from core.model import Kind
from core.settings import Settings

DEFAULT_DATASET = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "dev-personal.json"
KEEP_OVERDUE = timedelta(days=7)


def load(memory: Memory, space: dict, now: datetime | None = None) -> dict[str, int]:
    now = now or datetime.now(UTC)
    # whole days, so times of day stay as written ("9am" is still 09:00)
    shift = timedelta(days=(now.date() - datetime.fromisoformat(space["now"]).date()).days)

    def moved(value: str | None) -> str | None:
        return (datetime.fromisoformat(value) + shift).isoformat() if value else None

    ids: dict[str, str] = {}
    done = 0
    for item in space["neurons"]:
        kind = Kind(item["kind"])
        attrs = dict(item.get("attrs") or {})
        if kind is Kind.REMINDER and attrs.get("due_at"):
            attrs["due_at"] = moved(attrs["due_at"])
        neuron = memory.capture(
            item["text"],
            kind=kind,
            attrs=attrs,
            created_at=datetime.fromisoformat(item["created_at"]) + shift,
            derive=False,
        )
        ids[item["id"]] = str(neuron.id)
        if kind is Kind.REMINDER and attrs.get("due_at"):
            due = datetime.fromisoformat(attrs["due_at"])
            if attrs.get("rrule"):
                if due < now:  # a birthday from last year: its next one
                    nxt = remind.next_occurrence(attrs["rrule"], due, now)
                    if nxt is not None:
                        memory.update_attrs(neuron.id, due_at=nxt.isoformat())
            elif due < now - KEEP_OVERDUE:
                memory.done(neuron.id)
                memory.update_attrs(neuron.id, done_at=due.isoformat())  # done when it was due
                done += 1
            elif due < now:
                memory.update_attrs(neuron.id, notified_at=due.isoformat())  # shown, not done
    links = 0
    for edge in space.get("edges") or []:
        valid_from = moved(edge.get("valid_from"))
        made = memory.link(
            ids[edge["from"]],
            ids[edge["to"]],
            edge["type"],
            valid_from=datetime.fromisoformat(valid_from) if valid_from else None,
        )
        links += 1
        if edge.get("valid_to"):
            memory.unlink(made.id, at=datetime.fromisoformat(edge["valid_to"]) + shift)
    return {"neurons": len(ids), "links": links, "done": done}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m desktop.demo", description=__doc__.splitlines()[0])
    p.add_argument("--data-dir", required=True)
    p.add_argument("--dsn")
    p.add_argument("--dataset", default=str(DEFAULT_DATASET))
    p.add_argument("--space", type=int, default=0, help="which space of the file (default: the first)")
    args = p.parse_args(argv)
    data = json.loads(Path(args.dataset).read_text(encoding="utf-8"))
    space = data["spaces"][args.space]
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn, embed_in_background=False)
    with Memory.open(settings) as memory:
        if memory.count():
            print(
                f"{settings.data_dir} already holds {memory.count()} neurons; use an empty data dir",
                file=sys.stderr,
            )
            return 2
        counts = load(memory, space)
    print(
        f"imported {counts['neurons']} neurons and {counts['links']} links "
        f"({counts['done']} past reminders marked done) into {settings.data_dir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
