"""The corpus check: every calendar and address book of tests/corpus/ (other projects' test files,
each with its source and licence beside it) read as an import reads it, judged by readers we did
not write.

For every file:
- reading it ends in items and reasons, never a traceback (a refusal is a reason);
- no library warning is printed while reading it;
- each recurring series (a VEVENT or VTODO with RRULE or RDATE) keeps, over its first year, the
  occurrences recurring-ical-events reads in the source (the independent reading), and the
  export keeps them too;
- the export is read by icalendar, vobject and recurring-ical-events (a vCard export, 4.0 and
  3.0, by vobject and by our own reader again, with the same values);
- through a real store (`store_check`): importing it again adds nothing.

Each series is tagged with the features of its source (an override on its own start, a floating
EXDATE in a zoned series, several RRULEs...), so the counts say which class a difference falls in.

    .venv/bin/python -m tests.corpus.check          # the counts, as a table
    .venv/bin/python -m tests.corpus.check --store  # with the re-import through an embedded store
    .venv/bin/python -m tests.corpus.check -v       # every differing series and every traceback

The same functions run in tests/core/test_interop_corpus.py. The script uses only what the
importer and exporter expose (ical.read, ical.calendar, vcard.split_cards/to_attrs/from_attrs,
remind.Series.of and remind.occurrences), so it measures old code and new alike.
"""

from __future__ import annotations

import argparse
import logging
import re
import traceback
import uuid
import warnings
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import icalendar
import recurring_ical_events
import vobject

from core import remind
from core.interop import ical, vcard
from core.interop.report import Skip
from core.model import Kind, Neuron

CORPUS = Path(__file__).parent
# The moment reminders are brought to (as_of); the series are compared from their own start.
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# A series is compared over its first year (and a month before its start, where an occurrence
# moved earlier, or an RDATE before DTSTART, lands).
SPAN = timedelta(days=365)
BEFORE = timedelta(days=31)
# Series that come from no real client but from a parser's stress tests: recurring-ical-events'
# own reading of them takes minutes (a rule per second) or is undefined.
TOO_MANY = 2000


def files(folders: Iterable[str] = ()) -> list[Path]:
    """Every calendar and address book of the corpus (of `folders` only, when named)."""
    wanted = set(folders)
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.suffix.lower() in (".ics", ".vcf")
        and p.is_file()
        and (not wanted or p.relative_to(CORPUS).parts[0] in wanted)
    )


# -- the reasons an item is skipped, in classes --------------------------------------------------

REASONS = [
    ("no UID", r"has no UID"),
    ("override without its series", r"which the file does not hold"),
    ("unknown time zone", r"unknown time zone"),
    ("mismatched END", r"ends with END:"),
    ("truncated", r"not finished|truncated|ends before END"),
    ("not UTF-8", r"not valid UTF-8|is not valid [\w-]+ \(byte"),
    ("a line icalendar cannot read", r"cannot be read \("),
    ("bad date or time", r"is not a date|not a date or time"),
    ("bad repeat rule", r"repeat rule|RRULE"),
    ("duplicate date-time line", r"lines: the first is kept"),
    ("zone read as local time", r"read as local time"),
    ("repeats without a start", r"repeats but has no"),
    ("not a task or event", r"only tasks \(VTODO\)"),
    ("outside a VCALENDAR", r"outside a VCALENDAR"),
    ("card without a name", r"has no name"),
    ("bad card line", r"^line \d+:"),
    ("bad value", r"."),
]


def reason_class(why: str) -> str:
    return next(name for name, pattern in REASONS if re.search(pattern, why))


# -- the source's series and their features --------------------------------------------------------


def _prop_list(comp: Any, name: str) -> list[Any]:
    found = comp.get(name)
    if found is None:
        return []
    return found if isinstance(found, list) else [found]


def _dt(comp: Any, name: str) -> Any:
    prop = comp.get(name)
    if isinstance(prop, list):
        prop = prop[0] if prop else None
    return getattr(prop, "dt", None)


def features(master: Any, overrides: list[Any], masters: int) -> set[str]:
    """The classes of the issue a source series belongs to."""
    found: set[str] = set()
    start = _dt(master, "DTSTART")
    timed = isinstance(start, datetime)
    zoned = timed and start.tzinfo is not None
    for prop in _prop_list(master, "EXDATE"):
        for value in getattr(prop, "dts", []):
            v = value.dt
            if zoned and isinstance(v, datetime) and v.tzinfo is None:
                found.add("floating EXDATE in a zoned series")
            if timed and not isinstance(v, datetime):
                found.add("DATE EXDATE on a timed series")
    if len(_prop_list(master, "RRULE")) > 1:
        found.add("several RRULEs")
    if master.name == "VTODO" and master.get("DTSTART") is not None and master.get("DUE") is not None:
        found.add("VTODO with DTSTART and DUE")
    if masters > 1:
        found.add("same UID twice")
    for o in overrides:
        rid = o.get("RECURRENCE-ID")
        if rid is not None and str(rid.params.get("RANGE", "")).upper() == "THISANDFUTURE":
            found.add("RANGE=THISANDFUTURE")
        rid_dt, o_start = getattr(rid, "dt", None), _dt(o, "DTSTART")
        if rid_dt is not None and o_start is not None and _key(rid_dt) == _key(o_start):
            found.add("override on its own start")
        if rid_dt is not None and start is not None and _key(rid_dt) == _key(start) and o_start is not None:
            if _instant(o_start) < _instant(start):
                found.add("first occurrence moved earlier")
    tzid = next((p.params.get("TZID") for p in [master.get("DTSTART")] if p is not None), None)
    if tzid and "/" not in str(tzid) or tzid and str(tzid).startswith("/"):
        found.add("zone named by the file (Windows, path-style, own VTIMEZONE)")
    return found or {"plain"}


def _instant(value: Any) -> datetime:
    """An occurrence start as a moment for ordering: a date or floating time in the local zone."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=remind.local_zone())
    return datetime(value.year, value.month, value.day, tzinfo=remind.local_zone())


def _key(value: Any) -> tuple[str, str]:
    """An occurrence start as calendars compare it: a date, a floating wall time, or a UTC moment."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return ("floating", value.replace(microsecond=0).isoformat())
        return ("utc", value.astimezone(UTC).replace(microsecond=0).isoformat())
    return ("date", value.isoformat())


def rie_series(cal: Any, uid: str, start: datetime) -> set[tuple[str, str]]:
    """What recurring-ical-events shows of `uid` in the series' first year (cancelled ones not),
    read from a calendar of that UID's components and the file's zones alone (the same reading,
    without expanding every other series of the file each time)."""
    lo, hi = start - BEFORE, start + SPAN
    own = icalendar.Calendar()
    for comp in cal.subcomponents if cal.name == "VCALENDAR" else [cal]:  # a bare VEVENT file too
        if comp.name == "VTIMEZONE" or str(comp.get("UID", "")).strip() == uid:
            own.add_component(comp)
    query = recurring_ical_events.of(own, components=["VEVENT", "VTODO"])
    out = set()
    for comp in query.between(lo.date() - timedelta(days=2), hi.date() + timedelta(days=2)):
        if str(comp.get("STATUS", "")).upper() == "CANCELLED":
            continue
        value = _dt(comp, "DTSTART") if comp.get("DTSTART") is not None else _dt(comp, "DUE")
        if value is not None and lo <= _instant(value) < hi:
            out.add(_key(value))
    return out


def our_series(attrs: dict[str, Any], start: datetime) -> set[tuple[str, str]]:
    """What our engine fires of an imported series over the same span, in the same terms."""
    series = remind.Series.of(attrs)
    lo, hi = start - BEFORE, start + SPAN
    if series is None:  # its rule was dropped: it happens once, at its start
        once = remind.parse_time(attrs.get("dtstart") or attrs.get("due_at"))
        if once is None or not lo <= once < hi:
            return set()
        if attrs.get("all_day"):
            return {("date", once.astimezone(remind.zone(attrs.get("tz"))).date().isoformat())}
        if attrs.get("floating"):
            return {("floating", once.astimezone(remind.local_zone()).replace(tzinfo=None).isoformat())}
        return {_key(once)}
    out = set()
    for occ in remind.occurrences(series, lo, hi):  # an anchored series is walked from its anchor
        if not lo <= occ < hi:
            continue
        if attrs.get("all_day"):
            out.add(("date", occ.astimezone(series.zone).date().isoformat()))
        elif attrs.get("floating"):
            out.add(("floating", occ.astimezone(remind.local_zone()).replace(tzinfo=None).isoformat()))
        else:
            out.add(_key(occ))
    return out


# -- one file ------------------------------------------------------------------------------------------


@dataclass
class FileResult:
    path: Path
    kind: str  # "ics" or "vcf"
    items: int = 0
    skipped: Counter = field(default_factory=Counter)  # reason class -> count
    dropped: Counter = field(default_factory=Counter)  # values dropped, the item kept: reason -> count
    traceback: str | None = None
    warnings: list[str] = field(default_factory=list)
    series: int = 0  # recurring series in the source that recurring-ical-events reads
    series_lost: int = 0  # of those, skipped by our import
    compared: int = 0
    differ: list[tuple[str, set[str], str]] = field(default_factory=list)  # uid, features, what
    export_differ: list[str] = field(default_factory=list)
    export_unread: list[str] = field(default_factory=list)  # reader: why
    by_feature: Counter = field(default_factory=Counter)  # feature -> series compared
    differ_by_feature: Counter = field(default_factory=Counter)
    alarms_lost: int = 0  # VALARM actions other than DISPLAY that the export flattens
    rie_unreadable: bool = False

    @property
    def name(self) -> str:
        return self.path.relative_to(CORPUS).as_posix()


def check_file(path: Path, now: datetime = NOW) -> FileResult:
    result = FileResult(path, "vcf" if path.suffix.lower() == ".vcf" else "ics")
    data = path.read_bytes()
    _forget_other_files_zones()
    with warnings.catch_warnings(record=True) as caught, _LogCapture() as logged:
        warnings.simplefilter("always")
        try:
            if result.kind == "vcf":
                _check_cards(data, result)
            else:
                _check_calendar(data, result, now)
        except Exception:  # noqa: BLE001 -- the finding itself: an import must never end in one
            result.traceback = traceback.format_exc(limit=6)
    result.warnings = [f"{w.category.__name__}: {w.message}" for w in caught] + logged.lines
    return result


class _LogCapture(logging.Handler):
    """Library log records at WARNING and above (what a person would see printed)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(("core", "tests")):
            self.lines.append(f"{record.name}: {record.getMessage()}")

    def __enter__(self) -> _LogCapture:
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self)


# values an item could not keep as written, the item kept (none before the round-trip fixes)
_DROPPED: Any = getattr(ical, "Dropped", ())


def _neuron(item: ical.Item) -> Neuron:
    stamp = datetime(2026, 1, 1, tzinfo=UTC)
    return Neuron(uuid.uuid4(), Kind.REMINDER, item.body, item.attrs, item.state, stamp, stamp)


def _check_calendar(data: bytes, result: FileResult, now: datetime) -> None:
    entries = ical.read(data, now)
    items = [e for e in entries if isinstance(e, ical.Item)]
    dropped = _DROPPED  # values lost while the item was kept
    for e in entries:
        if dropped and isinstance(e, dropped):
            result.dropped[reason_class(e.why)] += 1
        elif isinstance(e, Skip):
            result.skipped[reason_class(e.why)] += 1
    result.items = len(items)
    try:
        source = icalendar.Calendar.from_ical(data)
        recurring_ical_events.of(source, components=["VEVENT", "VTODO"]).at(2000)
    except Exception:  # noqa: BLE001 -- recurring-ical-events cannot read the source: nothing to judge against
        result.rie_unreadable = True
        source = None
    exported = ical.calendar([_neuron(i) for i in items], now) if items else None
    back = _read_export(exported, result) if exported else None
    if source is None:
        return
    comps: dict[str, list[Any]] = {}
    for comp in source.walk():
        if comp.name in ("VEVENT", "VTODO") and str(comp.get("UID", "")).strip():
            comps.setdefault(str(comp.get("UID")).strip(), []).append(comp)
    ours: dict[str, ical.Item] = {}
    for item in items:
        ours.setdefault(item.uid, item)
    for uid, group in comps.items():
        masters = [c for c in group if c.get("RECURRENCE-ID") is None]
        overrides = [c for c in group if c.get("RECURRENCE-ID") is not None]
        recurring = [m for m in masters if m.get("RRULE") is not None or m.get("RDATE") is not None]
        if not recurring or str(recurring[-1].get("STATUS", "")).upper() == "CANCELLED":
            continue
        master = recurring[-1]
        start_value = _dt(master, "DTSTART") if master.get("DTSTART") is not None else _dt(master, "DUE")
        if start_value is None:
            continue
        start = _instant(start_value)
        try:
            theirs = rie_series(source, uid, start)
        except Exception:  # noqa: BLE001 -- recurring-ical-events cannot expand this one
            continue
        if len(theirs) > TOO_MANY:
            continue
        result.series += 1
        found = ours.get(uid)
        if found is None:
            result.series_lost += 1
            continue
        tags = features(master, overrides, len(masters))
        result.compared += 1
        result.by_feature.update(tags)
        mine = our_series(found.attrs, start)
        if mine != theirs:
            missing, extra = sorted(theirs - mine)[:3], sorted(mine - theirs)[:3]
            result.differ.append((uid, tags, f"missing {missing} extra {extra}"))
            result.differ_by_feature.update(tags)
        if back is not None:
            try:
                again = rie_series(back, uid, start)
            except Exception as exc:  # noqa: BLE001 -- the export's series cannot be expanded
                result.export_unread.append(f"recurring-ical-events: {exc}")
                continue
            if again != theirs:
                result.export_differ.append(uid)
    for comp in source.walk("VALARM") if items else []:
        if str(comp.get("ACTION", "DISPLAY")).upper() not in ("DISPLAY", "NONE", ""):
            if back is None or not any(
                str(a.get("ACTION", "")).upper() == str(comp.get("ACTION")).upper()
                for a in back.walk("VALARM")
            ):
                result.alarms_lost += 1


def _forget_other_files_zones() -> None:
    """icalendar keeps every VTIMEZONE it parses, by TZID, for the whole process and resolves a
    TZID a later file does not define with it (sabre's tests define "foo", khal's names "foo"
    without defining it): each file is read, by the importer and then by the judges, as a process
    of its own would read it."""
    icalendar.timezone.tzp.use(icalendar.timezone.tzp.name)


def _read_export(text: str, result: FileResult) -> Any:
    back = None
    try:
        back = icalendar.Calendar.from_ical(text)
    except Exception as exc:  # noqa: BLE001 -- what a client reading our export would meet
        result.export_unread.append(f"icalendar: {exc}")
    try:
        list(vobject.readComponents(text))
    except Exception as exc:  # noqa: BLE001 -- as above
        result.export_unread.append(f"vobject: {exc}")
    if back is not None:
        try:
            recurring_ical_events.of(back, components=["VEVENT", "VTODO"]).at(2000)
        except Exception as exc:  # noqa: BLE001 -- as above
            result.export_unread.append(f"recurring-ical-events: {exc}")
            back = None
    return back


def _check_cards(data: bytes, result: FileResult) -> None:
    cards = vcard.split_cards(data)
    attrs_list = []
    for card in cards:
        if _DROPPED and isinstance(card, _DROPPED):
            result.dropped[reason_class(card.why)] += 1
            continue
        if isinstance(card, Skip):
            result.skipped[reason_class(card.why)] += 1
            continue
        try:
            attrs_list.append(vcard.to_attrs(card))
        except Skip as exc:
            result.skipped[reason_class(exc.why)] += 1
    result.items = len(attrs_list)
    for version in vcard.VERSIONS:
        for attrs in attrs_list:
            text = vcard.from_attrs(attrs, uid=str(attrs.get("uid") or uuid.uuid4()), version=version)
            try:
                list(vobject.readComponents(text))
            except Exception as exc:  # noqa: BLE001 -- a client reading our export would meet this
                result.export_unread.append(f"vobject {version}: {exc}")
            (again,) = vcard.split_cards(text.encode())
            if isinstance(again, Skip):
                result.export_unread.append(f"our reader {version}: {again.why}")
                continue
            back = vcard.to_attrs(again)
            for key in ("name", "emails", "phones", "birthday", "note", "org"):
                if back.get(key) != attrs.get(key):
                    result.export_differ.append(f"{version} {key}: {attrs.get(key)!r} -> {back.get(key)!r}")


# -- through a store -----------------------------------------------------------------------------------


def changeful(paths: Iterable[Path]) -> list[Path]:
    """The files whose items a second import could find differently: cards (matched by UID,
    email, phone or name and content), copies of one UID, overrides, UID-less components."""
    out = []
    for p in paths:
        data = p.read_bytes()
        if (
            p.suffix == ".vcf"
            or any(word in data for word in (b"RECURRENCE-ID", b"SEQUENCE"))
            or data.count(b"BEGIN:VEVENT") + data.count(b"BEGIN:VTODO") > data.count(b"UID:")
        ):
            out.append(p)
    return out


def store_check(memory: Any, paths: Iterable[Path], now: datetime = NOW) -> dict[str, tuple[int, int]]:
    """Import each file twice into `memory`: {file: (created, updated) by the second import} for
    every file whose second import is not all unchanged (a traceback counts as (-1, -1))."""
    from core.interop import files as interop  # noqa: PLC0415 (the store is needed only here)

    out = {}
    for path in paths:
        try:
            interop.import_path(memory, path, now=now)
            again = interop.import_path(memory, path, now=now)
        except Exception as exc:  # noqa: BLE001 -- a refusal with a reason is fine; what else is a finding
            if type(exc).__name__ in ("InvalidInput", "ImportRefused"):
                continue
            out[path.relative_to(CORPUS).as_posix()] = (-1, -1)
            continue
        if again.created or again.updated:
            out[path.relative_to(CORPUS).as_posix()] = (again.created, again.updated)
    return out


# -- the table -----------------------------------------------------------------------------------------


def summary(results: list[FileResult]) -> dict[str, Any]:
    skipped: Counter = Counter()
    dropped: Counter = Counter()
    compared: Counter = Counter()
    differ: Counter = Counter()
    for r in results:
        skipped.update(r.skipped)
        dropped.update(r.dropped)
        compared.update(r.by_feature)
        differ.update(r.differ_by_feature)
    return {
        "files": len(results),
        "calendars": sum(r.kind == "ics" for r in results),
        "address books": sum(r.kind == "vcf" for r in results),
        "items": sum(r.items for r in results),
        "skipped": dict(sorted(skipped.items(), key=lambda kv: -kv[1])),
        "values dropped, the item kept": dict(sorted(dropped.items(), key=lambda kv: -kv[1])),
        "tracebacks": [r.name for r in results if r.traceback],
        "files with library warnings": [r.name for r in results if r.warnings],
        "recurring series": sum(r.series for r in results),
        "series not imported": sum(r.series_lost for r in results),
        "series compared": sum(r.compared for r in results),
        "series that differ": sum(len(r.differ) for r in results),
        "files with a differing series": sum(bool(r.differ) for r in results),
        "export series that differ": sum(len(r.export_differ) for r in results if r.kind == "ics"),
        "exports a reader cannot read": sum(bool(r.export_unread) for r in results),
        "vCard values changed by the export": sum(len(r.export_differ) for r in results if r.kind == "vcf"),
        "alarm actions lost": sum(r.alarms_lost for r in results),
        "by class (compared, differ)": {k: (compared[k], differ[k]) for k in sorted(compared)},
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--store", action="store_true", help="also import every file twice into an embedded store")
    p.add_argument("folders", nargs="*", help="only these folders of the corpus (e.g. eds thunderbird)")
    args = p.parse_args(argv)
    results = [check_file(path) for path in files(args.folders)]
    for key, value in summary(results).items():
        if isinstance(value, dict):
            print(f"{key}:")
            for k, v in value.items():
                print(f"    {k}: {v}")
        elif isinstance(value, list):
            print(f"{key}: {len(value)}" + (f"  {value}" if args.verbose else ""))
        else:
            print(f"{key}: {value}")
    if args.verbose:
        for r in results:
            for uid, tags, what in r.differ:
                print(f"DIFFER {r.name} {uid[:50]} {sorted(tags)} {what}")
            for why in r.export_unread:
                print(f"UNREAD {r.name} {why[:160]}")
            if r.traceback:
                print(f"TRACEBACK {r.name}\n{r.traceback}")
            for w in r.warnings[:2]:
                print(f"WARNING {r.name} {w[:160]}")
    if args.store:
        import tempfile  # noqa: PLC0415 (only with --store)

        from core.memory import Memory  # noqa: PLC0415 (only with --store)
        from core.settings import Settings  # noqa: PLC0415 (only with --store)
        from core.store import Store  # noqa: PLC0415 (only with --store)

        with (
            tempfile.TemporaryDirectory() as tmp,
            Memory(Store(Settings(data_dir=Path(tmp) / "d"))) as memory,
        ):
            again = store_check(memory, files(args.folders))
        print(f"files a re-import changes: {len(again)}")
        for name, (created, updated) in sorted(again.items()):
            print(f"    {name}: {created} created, {updated} updated")


if __name__ == "__main__":
    main()
