"""What an import did: counts per outcome and every skipped item with the reason (the `--json`
contract: {"format", "created", "updated", "unchanged", "skipped": [{"item", "why"}]}, and
"dropped": [{"item", "why"}] when an item was imported without a value it could not keep,
"birthday_reminders": N when it made yearly reminders for the contacts' birthdays, "missing":
[path] when the folder's export manifest names files that are not in it, "kept": [{"item",
"why"}] when an item's value was not taken because the person changed it here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.model import InvalidInput


class Skip(Exception):
    """One item of a file cannot be imported; the others still are."""

    def __init__(self, item: str, why: str):
        super().__init__(f"{item}: {why}")
        self.item, self.why = item, why


class Dropped(Skip):
    """One value of an item that could not be kept as written (dropped, or read another way, as
    `why` says); the rest of the item is imported."""


def legacy_text(data: bytes) -> str:
    """Bytes that are not UTF-8, as the Western European code page that Outlook and older phones
    write without saying so (Windows-1252; Latin-1 for the five bytes it leaves undefined)."""
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


LEGACY = "read as Windows-1252 (Western European)"


class ImportRefused(InvalidInput):
    """--all-or-nothing and some item was skipped: nothing was imported."""

    def __init__(self, report: Report):
        first = report.skipped[0]
        more = f" (and {len(report.skipped) - 1} more)" if len(report.skipped) > 1 else ""
        super().__init__(f"nothing was imported: {first['item']}: {first['why']}{more}")
        self.report = report


@dataclass
class Report:
    format: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    birthdays: int = 0  # yearly birthday reminders made for the contacts imported
    # values an item could not keep (a bad date, an unknown zone): the rest of it was imported
    dropped: list[dict[str, str]] = field(default_factory=list)
    # files the folder's export manifest names that are not in it (an export cut off)
    missing: list[str] = field(default_factory=list)
    # values the person changed here that a file's older (or undated) one did not replace
    kept: list[dict[str, str]] = field(default_factory=list)

    def skip(self, item: str, why: str) -> None:
        self.skipped.append({"item": item, "why": why})

    def drop(self, item: str, why: str) -> None:
        self.dropped.append({"item": item, "why": why})

    def keep(self, item: str, why: str) -> None:
        self.kept.append({"item": item, "why": why})

    def count(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": self.format,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": list(self.skipped),
        }
        if self.dropped:  # only when an item lost a value (the contract stays as it was otherwise)
            out["dropped"] = list(self.dropped)
        if self.kept:  # likewise, only when a value changed here was kept
            out["kept"] = list(self.kept)
        if self.birthdays:  # only when it made some, likewise
            out["birthday_reminders"] = self.birthdays
        if self.missing:  # likewise
            out["missing"] = list(self.missing)
        return out

    def text(self) -> str:
        made = f"; {self.birthdays} birthday reminder{'s' if self.birthdays != 1 else ''} made"
        lines = [
            f"{self.format}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {len(self.skipped)} skipped" + (made if self.birthdays else "")
        ]
        lines += [f"  skipped {s['item']}: {s['why']}" for s in self.skipped]
        lines += [f"  imported {d['item']}, but {d['why']}" for d in self.dropped]
        if self.missing:
            lines.append(
                f"  missing: the folder's export manifest names {len(self.missing):,} file"
                f"{'s' if len(self.missing) != 1 else ''} that are not in it (such as {self.missing[0]}): "
                "the export that wrote it was cut off, or files were removed; export again"
            )
        lines += [f"  {k['item']}: {k['why']}" for k in self.kept]
        return "\n".join(lines)
