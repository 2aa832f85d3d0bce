"""iCalendar (RFC 5545) in and out: VTODO and VEVENT as reminders.

Components are read one by one (so one bad task never spoils the rest) with the `icalendar`
parser; times keep their meaning: a TZID becomes the reminder's IANA `tz` (Windows names and
X-LIC-LOCATION are understood), a UTC time gets tz "UTC", a floating time follows the local wall
clock (`floating`), an all-day date fires at ALL_DAY_AT on that day. RRULE, EXDATE, RDATE (and
moved or cancelled instances, RECURRENCE-ID) become the series core/remind fires; VALARM
triggers become `alarm_offsets`. Properties Neurons does not model are kept verbatim in
attrs["ical_extra"] and written back on export; what the file said in a form of its own is kept in
attrs["ical_written"] (the calendar's PRODID, the DESCRIPTION line as written), and a sync writes
it back while what it says is unchanged. Export writes one VTIMEZONE per zone used.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
from icalendar.parser import Contentline
from icalendar.prop import vDDDTypes
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from core import remind
from core.interop.report import LEGACY, Dropped, Skip, legacy_text
from core.interop.vcard import fold
from core.model import InvalidInput, Neuron, State

PRODID = "-//Neurons//Neurons//EN"
# A VTIMEZONE is the IANA zone whose offsets agree with it on this share of the days sampled.
OFFSETS_AGREE = 0.9
# An all-day task or event reminds at this wall-clock time of its day.
ALL_DAY_AT = time(9, 0)
COMPONENTS = ("VTODO", "VEVENT")
# Properties read into attrs; the rest of a component is kept verbatim.
MODELED = frozenset(
    """UID SUMMARY DESCRIPTION DUE DTSTART DTEND DURATION RRULE EXDATE RDATE STATUS
    COMPLETED PRIORITY CATEGORIES LOCATION DTSTAMP CREATED LAST-MODIFIED SEQUENCE RECURRENCE-ID""".split()
)


@dataclass
class Item:
    """One task or event as a reminder: what the plan stores."""

    uid: str
    label: str
    body: str
    attrs: dict[str, Any]
    state: State


# -- reading ---------------------------------------------------------------------------------------


@dataclass
class _Block:
    name: str
    line: int
    text: bytes  # UTF-8 once parsed (a legacy encoding re-encoded, unreadable lines left out)
    notes: list[str] = field(default_factory=list)  # what parsing it dropped or read another way


def _blocks(data: bytes) -> tuple[list[_Block | Skip], dict[str, str], dict[str, bytes]]:
    """The VTODO/VEVENT blocks of a file (or why one cannot be read), the X-LIC-LOCATION of each
    VTIMEZONE (TZID -> IANA name) and each VTIMEZONE's text. Lines end at CRLF, LF or a lone CR;
    an END that does not match ends the component it is in (the rest of the file still reads)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    # spaces after a value are no part of it (phpicalendar ends every line with one, and
    # "RRULE:FREQ=MONTHLY;BYDAY=1MO " or "DURATION:PT10M " would not read); a folded line keeps its own
    lines = [
        line if after[:1] in (b" ", b"\t") else line.rstrip(b" \t")
        for line, after in zip(lines, [*lines[1:], b""], strict=True)
    ]
    out: list[_Block | Skip] = []
    zones: dict[str, str] = {}
    definitions: dict[str, bytes] = {}
    stack: list[tuple[str, int]] = []
    start = 0
    for number, line in enumerate(lines, 1):
        upper = line.strip().upper()
        if upper.startswith(b"BEGIN:"):
            name = upper[6:].decode("ascii", "replace")
            if not stack and name in COMPONENTS:  # a task or event on its own, as some apps save one
                stack.append(("VCALENDAR", number))
            elif not stack and name != "VCALENDAR":
                out.append(Skip(f"{name} at line {number}", "it is outside a VCALENDAR"))
            if len(stack) == 1:
                start = number
            stack.append((name, number))
        elif upper.startswith(b"END:") and stack:
            name = upper[4:].decode("ascii", "replace")
            if name not in [n for n, _ in stack]:
                continue  # an END of nothing open: a stray line, not the end of anything
            unended = []
            while stack[-1][0] != name:  # a component left open inside: ends with this one
                unended.append(stack.pop()[0])
            opened, at = stack.pop()
            if len(stack) == 1 and opened in COMPONENTS and stack[0][1] == at:
                stack.pop()  # the end of a task or event that stood on its own
                out.append(_Block(opened, at, b"\n".join(lines[at - 1 : number])))
                continue
            if len(stack) == 1:
                # what it left open ends with it, as if the file had said so there
                ends = [f"END:{n}".encode() for n in unended]
                text = b"\n".join([*lines[start - 1 : number - 1], *ends, lines[number - 1]])
                if opened in COMPONENTS:
                    out.append(_Block(opened, start, text))
                elif opened == "VTIMEZONE":
                    zones.update(_zone_location(text))
                    tzid = re.search(rb"(?m)^TZID[^:\n]*:(.+?)\s*$", text)
                    if tzid:
                        definitions[_tzid(tzid.group(1))] = text
                else:
                    out.append(
                        Skip(
                            f"{opened} at line {start}", "only tasks (VTODO) and events (VEVENT) are imported"
                        )
                    )
    if len(stack) > 1:
        name, at = stack[1]
        out.append(Skip(f"{name} at line {at}", f"it is not finished (no END:{name}): the file is truncated"))
    elif stack and not any(isinstance(o, _Block) for o in out):
        out.append(Skip("the calendar", "it is not finished (no END:VCALENDAR): the file is truncated"))
    return out, zones, definitions


def _zone_location(text: bytes) -> dict[str, str]:
    found = dict(re.findall(rb"(?m)^(TZID|X-LIC-LOCATION):(.+?)\s*$", text))
    if b"TZID" in found and b"X-LIC-LOCATION" in found:
        return {_tzid(found[b"TZID"]): found[b"X-LIC-LOCATION"].decode(errors="replace")}
    return {}


def _tzid(value: bytes) -> str:
    """A VTIMEZONE's TZID as the TZID parameters that name it read: the property is text, so
    Outlook escapes its commas ("TZID:Kuala Lumpur\\, Singapore") where the parameter quotes them."""
    return re.sub(r"\\([,;\\])", r"\1", value.decode(errors="replace"))


class Zones:
    """The IANA zone of each TZID a file uses: itself, its trailing Area/City (Evolution's and
    Lightning's "/freeassociation.sourceforge.net/Tzfile/Europe/Lisbon"), a Windows name (CLDR's
    mapping, as icalendar ships it), its VTIMEZONE's X-LIC-LOCATION, else the IANA zone whose
    offsets the file's own VTIMEZONE gives over the year ("Mitteleuropäische Zeit")."""

    def __init__(self, locations: dict[str, str], definitions: dict[str, bytes]):
        self.locations, self.definitions = locations, definitions
        self.known: dict[tuple[str, int], str | None] = {}
        # built once per file, not once per year a time falls in: a VTIMEZONE's rules walk from
        # its DTSTART (1601 in Outlook's) and the IANA zones load from disk, ~0.4 s a year each
        self.built: dict[str, Any] = {}
        self.candidates: list[ZoneInfo] = []

    def iana(self, tzid: str, year: int = 2000) -> str | None:
        key = (tzid, year)
        if key not in self.known:
            self.known[key] = _named(tzid, self.locations) or self._by_offsets(tzid, year)
        return self.known[key]

    def _by_offsets(self, tzid: str, year: int) -> str | None:
        if tzid not in self.built:
            self.built[tzid] = _built(self.definitions.get(tzid))
        if self.built[tzid] is None:
            return None
        if not self.candidates:
            self.candidates = [ZoneInfo(name) for name in _candidates()]
        return _by_offsets(self.built[tzid], self.candidates, year)


def _named(tzid: str, locations: dict[str, str]) -> str | None:
    parts = tzid.strip().strip('"').strip("/").split("/")
    for name in (
        tzid.strip(),
        "/".join(parts[-3:]),
        "/".join(parts[-2:]),
        WINDOWS_TO_OLSON.get(tzid.strip()),
        locations.get(tzid),
    ):
        if name:
            try:
                ZoneInfo(name)
                return name
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return None


def _built(definition: bytes | None) -> Any:
    """A VTIMEZONE as a tzinfo (None: the file has none, or icalendar cannot build it)."""
    if definition is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed: Any = icalendar.Timezone.from_ical(definition.decode("utf-8", "replace"))
            return parsed.to_tz(lookup_tzid=False)
    except Exception:  # noqa: BLE001 (a definition icalendar cannot build: the TZID stays unknown)
        return None


def _by_offsets(own: Any, candidates: list[ZoneInfo], year: int) -> str | None:
    """The IANA zone whose UTC offsets match a VTIMEZONE's on the 1st and 15th of every month of
    `year` and the next (the canonical zones of CLDR's Windows mapping first, then the others), or
    agree on at least OFFSETS_AGREE of those days (a definition whose rules have since changed)."""
    samples = [datetime(y, m, d, 12) for y in (year, year + 1) for m in range(1, 13) for d in (1, 15)]
    try:
        wanted = [own.utcoffset(t) for t in samples]
    except Exception:  # noqa: BLE001 (rules icalendar built but cannot compute: the TZID stays unknown)
        return None
    best, score = None, 0
    for zone in candidates:
        agree = sum(zone.utcoffset(t) == w for t, w in zip(samples, wanted, strict=True))
        if agree == len(samples):
            return zone.key
        if agree > score:
            best, score = zone.key, agree
    if best is not None and score >= OFFSETS_AGREE * len(samples):
        return best  # a definition of older rules ("Canberra, Melbourne, Sydney" before 2008)
    if len(set(wanted)) == 1 and wanted[0] is not None:  # a fixed offset: Etc/GMT-h (signs reversed)
        hours, rest = divmod(int(wanted[0].total_seconds()), 3600)
        if not rest and -12 <= hours <= 14:
            return "UTC" if hours == 0 else f"Etc/GMT{-hours:+d}"
    return None


@lru_cache(maxsize=1)
def _candidates() -> tuple[str, ...]:
    from zoneinfo import available_timezones  # noqa: PLC0415 (read once, only when a file needs it)

    canonical = list(dict.fromkeys(WINDOWS_TO_OLSON.values()))
    rest = sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))
    return tuple(dict.fromkeys(z for z in canonical + rest if _exists(z)))


def _exists(name: str) -> bool:
    try:
        ZoneInfo(name)
        return True
    except (ZoneInfoNotFoundError, ValueError):
        return False


def read(data: bytes, now: datetime) -> list[Item | Skip]:
    """Every task and event of a calendar file as a reminder, or the reason it is skipped; a value
    that cannot be read is dropped (a `Dropped` says which and why) and the rest of the item kept.
    Several copies of one UID: the highest SEQUENCE (then the last) is the item. Occurrences a
    calendar changed (RECURRENCE-ID) stay overrides of their series; one whose series the file
    does not hold is an item of its own."""
    blocks, locations, definitions = _blocks(data)
    zones = Zones(locations, definitions)
    head = _calendar_head(data)
    written = {"head": head} if head else {}
    out: list[Item | Skip] = []
    masters: dict[str, tuple[_Block, Any]] = {}
    overrides: list[tuple[_Block, Any]] = []
    for block in blocks:
        if isinstance(block, Skip):
            out.append(block)
            continue
        try:
            comp = _parse(block)
        except Skip as exc:
            out.append(exc)
            continue
        uid = _text(comp, "UID") or _content_uid(block)
        if comp.get("RECURRENCE-ID") is not None:
            overrides.append((block, comp))
            continue
        if uid in masters and _sequence(masters[uid][1]) > _sequence(comp):
            continue  # an older copy of what the file already holds
        masters[uid] = (block, comp)
    by_uid: dict[str, list[tuple[_Block, Any]]] = {}
    for block, comp in overrides:
        by_uid.setdefault(_text(comp, "UID") or _content_uid(block), []).append((block, comp))
    for uid, (block, comp) in masters.items():
        found = by_uid.pop(uid, [])
        notes: list[str] = [*block.notes, *(n for b, _ in found for n in b.notes)]
        try:
            out.append(_item(block, comp, uid, zones, now, notes, found, written=written))
        except Skip as exc:
            out.append(exc)
        out.extend(Dropped(_label(block, comp), why) for why in notes)
    for uid, found in by_uid.items():  # overrides of a series the file does not hold: events of their own
        for block, comp in found:
            notes = list(block.notes)
            try:
                rid = _raw_value(comp, "RECURRENCE-ID")
                out.append(_item(block, comp, f"{uid}/{rid}", zones, now, notes, [], standalone=True))
            except Skip as exc:
                out.append(exc)
            out.extend(Dropped(_label(block, comp), why) for why in notes)
    return out


def _text(comp: Any, name: str) -> str:
    value = comp.get(name)
    if isinstance(value, list):
        value = value[0] if value else None
    return str(value).strip() if value is not None else ""


def _raw_value(comp: Any, name: str) -> str:
    prop = comp.get(name)
    prop = prop[0] if isinstance(prop, list) else prop
    return prop.to_ical().decode() if hasattr(prop, "to_ical") else str(prop)


def _sequence(comp: Any) -> int:
    try:
        return int(str(comp.get("SEQUENCE", 0)).strip() or 0)
    except ValueError:
        return 0


def _content_uid(block: _Block) -> str:
    """A stable identity for a component without UID (RFC 5545 requires one; Thunderbird's own
    sample has none): from what it says, so importing the file again finds it again."""
    lines = sorted(
        ln.strip()
        for ln in block.text.decode("utf-8", "replace").replace("\r", "").split("\n")
        if ln.strip() and not ln.upper().startswith(("DTSTAMP", "BEGIN", "END"))
    )
    return "neurons-" + hashlib.sha256("\n".join(lines).encode()).hexdigest()[:32]


def _label(block: _Block, comp: Any = None) -> str:
    """How a message names a component: its summary, else its UID, and where it is."""
    if comp is not None:
        name = _text(comp, "SUMMARY") or _text(comp, "UID")
    else:  # not parsed (yet): the summary or UID as far as the bytes can be read
        found = re.search(rb"(?mi)^SUMMARY[;:][^:\r\n]*?:?([^\r\n]*)$", block.text) or re.search(
            rb"(?mi)^UID[;:][^:\r\n]*?:?([^\r\n]*)$", block.text
        )
        name = found.group(1).decode("utf-8", "replace").strip() if found else ""
    return f"{block.name} {name[:60]!r} (line {block.line})" if name else f"{block.name} at line {block.line}"


def _parse(block: _Block) -> Any:
    """The component of a block. Text that is not UTF-8 is read as Windows-1252 (Thunderbird's
    Latin-1 sample, Outlook); a line icalendar cannot read (RFC 2445's own "DTSTAMP:19970901T1300Z")
    is left out with a note, and the rest of the component read."""
    try:
        text = block.text.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = block.line + block.text[: exc.start].count(b"\n")
        text = legacy_text(block.text)
        block.notes.append(f"line {line} is not valid UTF-8: {LEGACY}")
    for _ in range(MAX_UNREADABLE_LINES + 1):
        try:
            with warnings.catch_warnings():  # icalendar guesses path-style TZIDs aloud; Zones reads them
                warnings.simplefilter("ignore")
                comp = icalendar.Component.from_ical(text)
            block.text = text.encode("utf-8")
            return comp
        except ValueError as exc:
            why = str(exc).splitlines()[0][:200]
            lines = re.sub(r"\r?\n[ \t]", "", text.replace("\r\n", "\n")).split("\n")
            bad = _unreadable_line(lines)
            if bad is None or len(block.notes) >= MAX_UNREADABLE_LINES:
                raise Skip(_label(block), why) from None
            name = re.split(r"[;:]", lines[bad], maxsplit=1)[0]
            block.notes.append(f"{name} cannot be read ({why}): dropped")
            text = "\n".join(lines[:bad] + lines[bad + 1 :])
    raise Skip(_label(block), "too many lines cannot be read")


# A component with more lines than this that icalendar cannot read is skipped whole.
MAX_UNREADABLE_LINES = 5


def _unreadable_line(lines: list[str]) -> int | None:
    """The first property line icalendar cannot read on its own (in the component it is in);
    None when each reads (the fault is the component's shape, not one value)."""
    stack: list[str] = []
    for i, line in enumerate(lines):
        upper = line.strip().upper()
        if upper.startswith("BEGIN:"):
            stack.append(upper[6:])
            continue
        if upper.startswith("END:"):
            if stack:
                stack.pop()
            continue
        if not stack or not line.strip() or upper.startswith(("UID", "SUMMARY")):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                icalendar.Component.from_ical(f"BEGIN:{stack[-1]}\r\n{line}\r\nEND:{stack[-1]}\r\n")
        except ValueError:
            return i
    return None


def iana(tzid: str, zones: dict[str, str]) -> str:
    """The IANA name of a TZID (see Zones), or a ValueError."""
    name = _named(tzid, zones)
    if name is None:
        raise ValueError(f"unknown time zone {tzid!r} (not an IANA or Windows name)")
    return name


@dataclass
class _Value:
    """A DTSTART-like value as written: a date, a floating wall time, or a time in a zone."""

    value: datetime | date
    zone: str | None  # IANA name ("UTC" for a Z time); None: floating or a date

    @property
    def floating(self) -> bool:
        return isinstance(self.value, datetime) and self.zone is None


def _props(comp: Any, name: str) -> list[Any]:
    found = comp.get(name)
    if found is None:
        return []
    return found if isinstance(found, list) else [found]


def _values(prop: Any, zones: Zones, notes: list[str], what: str) -> list[_Value]:
    """Each value of a date-time property (a list, as EXDATE and RDATE hold), as written; a value
    that cannot be read is dropped with a note. A TZID no one knows, with no VTIMEZONE to read
    offsets from, is read as local time (with a note)."""
    try:
        raw = prop.to_ical().decode() if hasattr(prop, "to_ical") else str(prop)
        params = getattr(prop, "params", {})
    except Exception:  # noqa: BLE001 (icalendar raises its own kinds for a broken property)
        notes.append(f"{what} cannot be read: dropped")
        return []
    tzid = params.get("TZID")
    out = []
    for part in raw.split(","):
        part = part.strip().split("/")[0]  # an RDATE period counts from its start
        if not part:
            continue
        try:
            value = vDDDTypes.from_ical(part)
        except ValueError:
            value = _lenient(part)
            if value is None:
                notes.append(f"{what} {part!r} is not a date or time: dropped")
                continue
        if isinstance(value, datetime) and value.tzinfo is not None:
            out.append(_Value(value, "UTC"))
        elif isinstance(value, datetime) and tzid:
            name = zones.iana(str(tzid), value.year)
            if name is None:
                why = (
                    f"its VTIMEZONE matches no IANA zone in {value.year}"
                    if str(tzid) in zones.definitions
                    else "the file does not define it"
                )
                notes.append(f"unknown time zone {str(tzid)!r} ({why}): read as local time")
            out.append(_Value(value.replace(tzinfo=ZoneInfo(name)), name) if name else _Value(value, None))
        elif isinstance(value, (datetime, date)):
            out.append(_Value(value, None))
    return out


def _lenient(text: str) -> datetime | date | None:
    """What Google and others write outside the grammar: a date with a Z ("20131210Z")."""
    m = re.fullmatch(r"(\d{8})Z", text)
    if m:
        return datetime.strptime(m.group(1), "%Y%m%d").date()
    return None


def _first(comp: Any, name: str, zones: Zones, notes: list[str]) -> _Value | None:
    """A single-valued date-time (DTSTART, DUE...); a second line of it is dropped with a note."""
    props = _props(comp, name)
    if len(props) > 1:
        notes.append(f"it has {len(props)} {name} lines: the first is kept")
    for prop in props[:1]:
        found = _values(prop, zones, notes, name)
        if found:
            return found[0]
    return None


def _time(value: object) -> datetime:
    """A stored time that must be there (a series' start, an override's)."""
    found = remind.parse_time(value)
    if found is None:
        raise InvalidInput("a time the series needs is missing")
    return found


def _at(value: datetime | date, zone_name: str | None) -> datetime:
    """A value as an aware time; a date is ALL_DAY_AT on that day in the series' zone."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=remind.zone(zone_name))
    return datetime.combine(value, ALL_DAY_AT, tzinfo=remind.zone(zone_name))


class _Anchor:
    """A series' start, and how its exceptions, added dates and overrides are read: in the start's
    value type and zone (a DATE EXDATE on a timed series is that day's occurrence; a floating one
    in a zoned series is a wall time there; a timed one on an all-day series is its day)."""

    def __init__(self, start: _Value):
        self.start = start
        self.zone = start.zone if isinstance(start.value, datetime) else None
        self.timed = isinstance(start.value, datetime)

    def moment(self, v: _Value) -> datetime:
        zone = remind.zone(self.zone)
        if not self.timed:  # all day: the value's day as written (Outlook: midnight in its zone)
            day = v.value.date() if isinstance(v.value, datetime) else v.value
            return datetime.combine(day, ALL_DAY_AT, tzinfo=zone)
        if not isinstance(v.value, datetime):  # a date on a timed series: that day's occurrence
            wall = self.start.value.timetz() if isinstance(self.start.value, datetime) else ALL_DAY_AT
            return datetime.combine(v.value, wall.replace(tzinfo=None), tzinfo=zone)
        if v.zone is None:  # a floating time: the series' wall clock
            return v.value.replace(tzinfo=zone)
        return v.value


def _item(
    block: _Block,
    comp: Any,
    uid: str,
    zones: Zones,
    now: datetime,
    notes: list[str],
    overrides: list[tuple[_Block, Any]],
    standalone: bool = False,
    written: dict[str, Any] | None = None,
) -> Item:
    label = _label(block, comp)
    summary = _text(comp, "SUMMARY")
    description = _text(comp, "DESCRIPTION")
    title = summary or (description.splitlines()[0][:120] if description else "")
    title = title or ("Untitled event" if block.name == "VEVENT" else "Untitled task")
    if not description or description == title:
        body = title
    elif description.lower().startswith(title.lower()):
        body = description  # the title is the text's own start (a reminder's title, as capture makes it)
    else:
        body = f"{title}\n\n{description}"
    attrs: dict[str, Any] = {"uid": uid, "title": title}
    if block.name == "VEVENT":
        attrs["ical_component"] = "VEVENT"
    # the anchor is DTSTART; DUE only when there is none (RFC 5545 3.8.2.4, 3.8.5.3)
    start = _first(comp, "DTSTART", zones, notes)
    due = _first(comp, "DUE", zones, notes) if block.name == "VTODO" else None
    anchor = start or due
    zone_name = None
    if anchor is not None:
        at = _at(anchor.value, anchor.zone)
        zone_name = anchor.zone
        if zone_name:
            attrs["tz"] = zone_name
        if anchor.floating:
            attrs["floating"] = True
        if not isinstance(anchor.value, datetime):
            attrs["all_day"] = True
        attrs["due_at"] = at.isoformat()
        if block.name == "VEVENT" or (start is not None and due is not None):
            _duration(comp, attrs, at, due, zones, notes)
    rules = [r for r in _rules(comp, notes)]
    if rules and anchor is not None and not standalone:
        attrs["rrule"] = rules[0]
        if rules[1:]:
            attrs["more_rrules"] = rules[1:]
    if anchor is not None and not standalone:
        series = _Anchor(anchor)
        for name, key in (("EXDATE", "exdates"), ("RDATE", "rdates")):
            values = [
                series.moment(v).isoformat()
                for prop in _props(comp, name)
                for v in _values(prop, zones, notes, name)
            ]
            if values:
                attrs[key] = values
        kept = [_override(b, c, series, zones, notes) for b, c in overrides]
        if kept and ("rrule" in attrs or "rdates" in attrs):
            attrs["overrides"] = [o for o in kept if o is not None]
    elif (rules or comp.get("RDATE") is not None) and not standalone:
        # a series with nothing to start from: RFC 5545 lets a server keep it; nothing can fire it
        raise Skip(label, "it repeats but has no DTSTART or DUE to start from")
    if "rrule" in attrs or "rdates" in attrs:
        attrs["dtstart"] = attrs["due_at"]  # the series' anchor: its rule is never rewritten
    if "rrule" in attrs:
        try:
            for text in [attrs["rrule"], *attrs.get("more_rrules", [])]:
                remind.validate_rrule(text, remind.parse_time(attrs["due_at"]), attrs.get("tz"))
        except InvalidInput as exc:
            notes.append(f"{exc}: the rule is dropped")
            for key in ("rrule", "more_rrules", "exdates", "overrides"):
                attrs.pop(key, None)
            if "rdates" not in attrs:
                attrs.pop("dtstart", None)
    if attrs.get("overrides"):
        _keep_overrides_of_occurrences(attrs, notes)
    offsets = _alarms(comp, attrs, notes)
    if offsets:
        attrs["alarm_offsets"] = offsets
        raw_alarms = _raw_alarms(block)
        if raw_alarms:
            attrs["ical_alarms"] = raw_alarms
    priority = _text(comp, "PRIORITY")
    if priority.isdigit() and int(priority) > 0:
        attrs["priority"] = int(priority)
    elif priority and not priority.isdigit():  # 0 is "undefined" (RFC 5545 3.8.1.9): nothing to keep
        notes.append(f"PRIORITY {priority!r} is not a number: dropped")
    tags = _categories(comp)
    if tags:
        attrs["tags"] = tags
    location = _text(comp, "LOCATION")
    if location:
        attrs["location"] = location
    sequence = _sequence(comp)
    if sequence:
        attrs["sequence"] = sequence
    for name, key in (("CREATED", "created"), ("LAST-MODIFIED", "last_modified")):
        stamp = _first(comp, name, zones, notes)
        if stamp is not None and isinstance(stamp.value, datetime):
            attrs[key] = _at(stamp.value, "UTC").astimezone(UTC).isoformat()
    state = State.ACTIVE
    status = _text(comp, "STATUS").upper()
    if status == "COMPLETED" or comp.get("COMPLETED") is not None:
        state = State.DONE
        done = _first(comp, "COMPLETED", zones, notes)
        if done is not None:
            attrs["done_at"] = _at(done.value, "UTC").astimezone(UTC).isoformat()
    elif status == "CANCELLED":
        state = State.ARCHIVED
    extra = [_raw(block, name) for name in _unmodeled(comp)]
    if extra:
        attrs["ical_extra"] = [line for lines in extra for line in lines]
    attrs.update(_own_form(block, description, written))
    if state is State.ACTIVE and "due_at" in attrs:
        try:
            attrs.update(remind.as_of(attrs, now))
            if block.name == "VEVENT" and remind.ended(attrs, now):
                state = State.DONE  # an event that is over (a task past due stays to do)
        except InvalidInput as exc:
            raise Skip(label, str(exc)) from None
    return Item(uid, label, body, attrs, state)


def _own_form(block: _Block, description: str, written: dict[str, Any] | None) -> dict[str, Any]:
    """{"ical_written": how the file wrote what Neurons rewrites} (the calendar's lines, and the
    DESCRIPTION line with what it says: see `_description_as_written`), or {}."""
    own = dict(written or {})
    said = _raw(block, "DESCRIPTION")
    if description and said:
        own["description"] = [description, said[0]]
    return {"ical_written": own} if own else {}


def _keep_overrides_of_occurrences(attrs: dict[str, Any], notes: list[str]) -> None:
    """An override of an occurrence the series does not have (past its UNTIL, excluded) changes
    nothing: it is dropped, with a note."""
    try:
        series = remind.Series.of({k: v for k, v in attrs.items() if k != "overrides"})
        if series is None:
            return
        kept = []
        for o in attrs["overrides"]:
            if series.has(_time(o["recurrence_id"])):
                kept.append(o)
            else:
                notes.append(f"a change of {o['recurrence_id']}, not an occurrence of the series: dropped")
    except InvalidInput:
        return
    if kept:
        attrs["overrides"] = kept
    else:
        attrs.pop("overrides")


def _rules(comp: Any, notes: list[str]) -> list[str]:
    out = []
    for prop in _props(comp, "RRULE"):
        try:
            text = prop.to_ical().decode().strip()
        except Exception:  # noqa: BLE001 (icalendar raises its own kinds for a broken property)
            text = ""
        if text:
            out.append(text)
        else:
            notes.append("an empty or unreadable RRULE: dropped")
    return out


def _override(block: _Block, comp: Any, series: _Anchor, zones: Zones, notes: list[str]) -> dict | None:
    """One occurrence the calendar changed: which (its RECURRENCE-ID, read as the series reads its
    start), its own time (None: cancelled), title, duration, and when it was done."""
    rid = _first(comp, "RECURRENCE-ID", zones, notes)
    if rid is None:
        return None
    out: dict[str, Any] = {"recurrence_id": series.moment(rid).isoformat()}
    prop = comp.get("RECURRENCE-ID")
    prop = prop[0] if isinstance(prop, list) else prop
    if str(getattr(prop, "params", {}).get("RANGE", "")).upper() == "THISANDFUTURE":
        out["this_and_future"] = True
    start = _first(comp, "DTSTART", zones, notes) or _first(comp, "DUE", zones, notes)
    cancelled = _text(comp, "STATUS").upper() == "CANCELLED"
    out["start"] = None if cancelled else (series.moment(start) if start else series.moment(rid)).isoformat()
    if not cancelled and (_text(comp, "STATUS").upper() == "COMPLETED" or comp.get("COMPLETED") is not None):
        # one occurrence done (jtx Board, Nextcloud Tasks): kept, so writing the series back
        # does not undo it on the phone
        done = _first(comp, "COMPLETED", zones, notes)
        out["done_at"] = _at(done.value, "UTC").astimezone(UTC).isoformat() if done else out["start"]
    if _text(comp, "SUMMARY"):
        out["title"] = _text(comp, "SUMMARY")
    seconds: dict[str, Any] = {}
    _duration(comp, seconds, _time(out["start"] or out["recurrence_id"]), None, zones, notes)
    if seconds:
        out["duration_seconds"] = seconds["duration_seconds"]
    return out


def _duration(comp, attrs, start: datetime, due: _Value | None, zones: Zones, notes: list[str]) -> None:
    seconds = None
    try:
        if comp.get("DURATION") is not None:
            seconds = comp["DURATION"].dt.total_seconds()
    except Exception:  # noqa: BLE001 (icalendar raises its own kinds for a broken DURATION)
        notes.append("DURATION cannot be read: dropped")
    if seconds is None:
        end = due or _first(comp, "DTEND", zones, notes)
        if end is not None:
            seconds = (_at(end.value, end.zone or attrs.get("tz")) - start).total_seconds()
    if seconds is not None and seconds > 0:
        attrs["duration_seconds"] = int(seconds)


def _alarms(comp, attrs, notes: list[str]) -> list[int]:
    """VALARM triggers as seconds from each occurrence (an absolute trigger, from the first one)."""
    offsets = []
    for alarm in comp.walk("VALARM"):
        if _text(alarm, "ACTION").upper() == "NONE":
            continue  # Apple's placeholder for "no alarm" (with a trigger in 1976)
        try:
            trigger = alarm.get("TRIGGER")
            if trigger is None:
                continue
            value = trigger.dt
        except Exception:  # noqa: BLE001 (a broken TRIGGER: that alarm is dropped)
            notes.append("an alarm's TRIGGER cannot be read: dropped")
            continue
        if isinstance(value, timedelta):
            if str(trigger.params.get("RELATED", "START")).upper() == "END":
                value += timedelta(seconds=attrs.get("duration_seconds", 0))
            offsets.append(int(value.total_seconds()))
        elif isinstance(value, datetime) and "due_at" in attrs:
            aware = value if value.tzinfo else value.replace(tzinfo=UTC)
            offsets.append(int((aware - _time(attrs["due_at"])).total_seconds()))
    return sorted(set(offsets))


def _raw_alarms(block: _Block) -> list[str]:
    """The VALARM components as the file wrote them (their actions, sounds and addresses go back
    out on export)."""
    text = re.sub(r"\n[ \t]", "", block.text.decode("utf-8").replace("\r\n", "\n"))
    found = [m.group(0) for m in re.finditer(r"(?ms)^BEGIN:VALARM\s*$.*?^END:VALARM\s*$", text)]
    return [a for a in found if _readable_alarm(a)]


def _readable_alarm(text: str) -> bool:
    """Whether an alarm's TRIGGER can be read (one that cannot is not written back out)."""
    try:
        alarm = icalendar.Component.from_ical(text)
        return _text(alarm, "ACTION").upper() != "NONE" and isinstance(
            getattr(alarm["TRIGGER"], "dt", None), (timedelta, datetime)
        )
    except Exception:  # noqa: BLE001 (icalendar raises its own kinds for a broken property)
        return False


def _categories(comp) -> list[str]:
    tags: list[str] = []
    for prop in _props(comp, "CATEGORIES"):
        tags.extend(str(c).strip() for c in getattr(prop, "cats", [prop]) if str(c).strip())
    return list(dict.fromkeys(tags))


def _unmodeled(comp) -> list[str]:
    return list(dict.fromkeys(name for name in comp.keys() if name.upper() not in MODELED))


def _raw(block: _Block, name: str) -> list[str]:
    """The unfolded lines of property `name` as the file wrote them (top level of the block)."""
    text = block.text.decode("utf-8")
    lines = re.sub(r"\r?\n[ \t]", "", text.replace("\r\n", "\n")).split("\n")
    depth, out = 0, []
    for line in lines:
        upper = line.upper()
        if upper.startswith("BEGIN:"):
            depth += 1
        elif upper.startswith("END:"):
            depth -= 1
        elif depth == 1 and re.match(rf"(?i){re.escape(name)}[;:]", line):
            out.append(line)
    return out


# -- writing ---------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _vtimezone(name: str) -> str:
    return icalendar.Timezone.from_tzinfo(ZoneInfo(name)).to_ical().decode()


def calendar(reminders: Iterable[Neuron], now: datetime | None = None, *, as_written: bool = False) -> str:
    """One VCALENDAR holding every reminder, with one VTIMEZONE per zone used. `as_written` (a
    sync writing back the one item it read): the calendar's own lines (PRODID, CALSCALE) and its
    DESCRIPTION line as the file wrote them, while what it says is unchanged."""
    parts, zones, head = [], set(), None
    for neuron in reminders:
        text, zone_name = component(neuron, now, as_written=as_written)
        head = own_head(neuron.attrs) if as_written else None
        parts.append(text)
        if zone_name:
            zones.add(zone_name)
    own = head or [f"PRODID:{PRODID}", "CALSCALE:GREGORIAN"]
    top = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + "".join(fold(line) + "\r\n" for line in own)
    return top + "".join(_vtimezone(z) for z in sorted(zones)) + "".join(parts) + "END:VCALENDAR\r\n"


def uid_of(neuron: Neuron) -> str:
    return str(neuron.attrs.get("uid") or neuron.id)


def _calendar_head(data: bytes) -> list[str]:
    """The calendar's own lines as written (PRODID, CALSCALE, X-WR-CALNAME...: what is outside
    its components), VERSION left out; none when it has no PRODID (RFC 5545 requires one)."""
    text = re.sub(r"\r?\n[ \t]", "", data.decode("utf-8", "replace").replace("\r\n", "\n"))
    depth, out = 0, []
    for line in text.split("\n"):
        upper = line.strip().upper()
        if upper.startswith("BEGIN:"):
            depth += 1
        elif upper.startswith("END:"):
            depth -= 1
        elif depth == 1 and line.strip() and not upper.startswith("VERSION"):
            out.append(line.rstrip("\r"))
    return out if any(line.upper().startswith("PRODID") for line in out) else []


def own_head(attrs: dict[str, Any]) -> list[str] | None:
    """The calendar lines (PRODID and the rest) of the file a reminder came from; None: it
    came from none, or they cannot be written back."""
    written = attrs.get("ical_written")
    head = written.get("head") if isinstance(written, dict) else None
    if not isinstance(head, list) or not head:
        return None
    lines = [str(line) for line in head]
    return lines if all(re.match(r"[A-Za-z0-9-]+[;:]", line) for line in lines) else None


def _description_as_written(attrs: dict[str, Any], description: str) -> str | None:
    """The DESCRIPTION line as the file wrote it, while it still says `description`."""
    written = attrs.get("ical_written")
    said = written.get("description") if isinstance(written, dict) else None
    if isinstance(said, list) and len(said) == 2 and said[0] == description.strip():
        line = str(said[1])
        return line if re.match(r"(?i)DESCRIPTION[;:]", line) and "\n" not in line else None
    return None


def component(
    neuron: Neuron, now: datetime | None = None, *, as_written: bool = False
) -> tuple[str, str | None]:
    """(the VTODO or VEVENT text, with one RECURRENCE-ID component per override after it, and the
    zone it needs a VTIMEZONE for)."""
    a = neuron.attrs
    # an event needs its start (RFC 5545 3.6.1): one without is written as the task it is here
    event = a.get("ical_component") == "VEVENT" and bool(a.get("dtstart") or a.get("due_at"))
    comp = icalendar.Event() if event else icalendar.Todo()
    comp.add("uid", uid_of(neuron))
    comp.add("dtstamp", (now or datetime.now(UTC)).astimezone(UTC))
    created = remind.parse_time(a["created"]) if a.get("created") else neuron.created_at
    modified = remind.parse_time(a["last_modified"]) if a.get("last_modified") else neuron.updated_at
    if created:
        comp.add("created", created.astimezone(UTC))
    if modified:
        comp.add("last-modified", modified.astimezone(UTC))
    if a.get("sequence"):
        comp.add("sequence", int(a["sequence"]))
    title = neuron.title
    comp.add("summary", title)
    description = (
        neuron.body[len(title) + 2 :]
        if neuron.body.startswith(title + "\n\n")
        else ("" if neuron.body.strip() == title else neuron.body)
    )
    description_line = _description_as_written(a, description) if description and as_written else None
    if description and description_line is None:
        comp.add("description", description)
    zone_name = None
    start = (
        remind.parse_time(a.get("dtstart") or a.get("due_at"))
        if (a.get("dtstart") or a.get("due_at"))
        else None
    )
    overrides: list[str] = []
    if start is not None:
        zone_name = None if a.get("floating") else (a.get("tz") or remind.local_zone_name())
        zone_name = "UTC" if zone_name in remind.UTC_NAMES else zone_name
        shown = _shown(start, zone_name, a)
        length = timedelta(seconds=int(a["duration_seconds"])) if a.get("duration_seconds") else None
        if event:
            comp.add("dtstart", shown)
            if length:
                comp.add("duration", length)
            elif a.get("all_day"):
                comp.add("dtend", shown + timedelta(days=1))
        else:
            if a.get("rrule") or a.get("rdates") or length:
                comp.add("dtstart", shown)
            comp.add("due", _shown(start + length, zone_name, a) if length else shown)
        for rule in [a.get("rrule"), *(a.get("more_rrules") or [])]:
            if rule:
                comp.add("rrule", icalendar.vRecur.from_ical(remind.rule_text(rule)))
        for key, prop in (("exdates", "exdate"), ("rdates", "rdate")):
            values = [_shown(_time(v), zone_name, a) for v in a.get(key) or []]
            if values:
                comp.add(prop, values)
        overrides = [_override_text(neuron, o, zone_name, now) for o in a.get("overrides") or []]
    if neuron.state is State.DONE and not event:
        comp.add("status", "COMPLETED")
        done = remind.parse_time(a.get("done_at")) if a.get("done_at") else neuron.updated_at
        if done:
            comp.add("completed", done.astimezone(UTC))
    elif neuron.state is State.ARCHIVED:
        comp.add("status", "CANCELLED")
    elif not event:
        comp.add("status", "NEEDS-ACTION")
    if a.get("priority"):
        comp.add("priority", int(a["priority"]))
    tags = [str(t) for t in a.get("tags") or [] if isinstance(t, (str, int, float))]  # never an object's repr
    if tags:
        comp.add("categories", tags)
    if a.get("location") and isinstance(a["location"], (str, int, float)):
        comp.add("location", str(a["location"]))
    alarms = ""
    if a.get("ical_alarms") and a.get("alarm_offsets") == _alarm_offsets_of(a):
        # the file's own alarms, actions (AUDIO, EMAIL) and all, while their times are unchanged
        alarms = "".join(
            str(text).replace("\r\n", "\n").replace("\n", "\r\n").rstrip("\r\n") + "\r\n"
            for text in a["ical_alarms"]
        )
    else:
        for offset in a.get("alarm_offsets") or []:
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", title)
            alarm.add("trigger", timedelta(seconds=int(offset)))
            comp.add_component(alarm)
    text = comp.to_ical().decode()
    kept = [*([description_line] if description_line else []), *(a.get("ical_extra") or [])]
    extra = "".join(fold(_content_line(str(line))) + "\r\n" for line in kept) + alarms
    end = f"END:{'VEVENT' if event else 'VTODO'}\r\n"
    if extra:
        text = text[: -len(end)] + extra + end
    if start is not None and a.get("all_day"):
        zone_name = None  # dates carry no zone
    return text + "".join(overrides), zone_name if zone_name != "UTC" else None


def _content_line(line: str) -> str:
    """A kept property as RFC 5545 writes it (a parameter value with ';' or ':' quoted, as the
    file that gave it may not have), else as it was."""
    try:
        name, params, value = Contentline(line).parts()
        return str(Contentline.from_parts(name, params, value, sorted=False))
    except ValueError:
        return line


def _alarm_offsets_of(attrs: dict[str, Any]) -> list[int]:
    """The offsets the stored VALARMs give (to tell whether they still say what attrs say)."""
    text = (
        "BEGIN:VTODO\r\n" + "".join(str(t) + "\r\n" for t in attrs.get("ical_alarms") or []) + "END:VTODO\r\n"
    )
    try:
        return _alarms(icalendar.Component.from_ical(text), attrs, [])
    except ValueError:
        return []


def _override_text(
    neuron: Neuron, override: dict[str, Any], zone_name: str | None, now: datetime | None
) -> str:
    """One changed occurrence as a RECURRENCE-ID component (what Thunderbird, Google and Outlook
    write for a moved or cancelled one)."""
    a = neuron.attrs
    event = a.get("ical_component") == "VEVENT"
    comp = icalendar.Event() if event else icalendar.Todo()
    comp.add("uid", uid_of(neuron))
    comp.add("dtstamp", (now or datetime.now(UTC)).astimezone(UTC))
    rid = _shown(_time(override["recurrence_id"]), zone_name, a)
    comp.add(
        "recurrence-id",
        rid,
        parameters={"RANGE": "THISANDFUTURE"} if override.get("this_and_future") else {},
    )
    comp.add("summary", str(override.get("title") or neuron.title))
    start = remind.parse_time(override.get("start")) if override.get("start") else None
    shown = _shown(start, zone_name, a) if start else rid
    comp.add("dtstart", shown)
    if not event:
        comp.add("due", shown)
    if override.get("duration_seconds"):
        comp.add("duration", timedelta(seconds=int(override["duration_seconds"])))
    if start is None:
        comp.add("status", "CANCELLED")
    elif override.get("done_at") and not event:
        comp.add("status", "COMPLETED")
        done = remind.parse_time(override["done_at"])
        if done is not None:
            comp.add("completed", done.astimezone(UTC))
    return comp.to_ical().decode()


def _shown(when: datetime, zone_name: str | None, attrs: dict[str, Any]) -> datetime | date:
    """A stored time as the file writes it: a date (all day), a floating wall time, UTC or
    a time in the reminder's zone."""
    if zone_name is None:
        local = when.astimezone(remind.local_zone())
        return local.date() if attrs.get("all_day") else local.replace(tzinfo=None)
    zone = UTC if zone_name == "UTC" else ZoneInfo(zone_name)
    there = when.astimezone(zone)
    return there.date() if attrs.get("all_day") else there


# -- notes as journal entries (VJOURNAL): sync writes them to a calendar the person picked --------


def journal(neuron: Neuron, now: datetime | None = None) -> str:
    """One VCALENDAR holding a note as a VJOURNAL: its first line the summary, its text the
    description (read back by `read_journals`)."""
    comp = icalendar.Journal()
    comp.add("uid", uid_of(neuron))
    comp.add("dtstamp", (now or datetime.now(UTC)).astimezone(UTC))
    if neuron.created_at:
        comp.add("created", neuron.created_at.astimezone(UTC))
        comp.add("dtstart", neuron.created_at.astimezone(UTC))
    if neuron.updated_at:
        comp.add("last-modified", neuron.updated_at.astimezone(UTC))
    comp.add("summary", neuron.title)
    comp.add("description", neuron.body)
    if neuron.attrs.get("tags"):
        comp.add("categories", [str(t) for t in neuron.attrs["tags"]])
    comp.add("status", "CANCELLED" if neuron.state is State.ARCHIVED else "FINAL")
    head = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:{PRODID}\r\n"
    return head + comp.to_ical().decode() + "END:VCALENDAR\r\n"


def read_journals(data: bytes) -> list[Item | Skip]:
    """Every VJOURNAL of a calendar resource as a note (its description, else its summary)."""
    try:
        cal = icalendar.Calendar.from_ical(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return [Skip("the journal entry", str(exc).splitlines()[0][:200] if str(exc) else "unreadable")]
    out: list[Item | Skip] = []
    for comp in cal.walk("VJOURNAL"):
        summary = str(comp.get("SUMMARY", "")).strip()
        description = str(comp.get("DESCRIPTION", "")).strip()
        uid = str(comp.get("UID", "")).strip()
        label = f"VJOURNAL {(summary or uid)[:60]!r}"
        if not uid:
            out.append(Skip(label, "it has no UID"))
            continue
        if description.startswith(summary):
            body = description
        else:
            body = f"{summary}\n\n{description}" if summary and description else summary or description
        if not body:
            out.append(Skip(label, "it has no text"))
            continue
        attrs: dict[str, Any] = {"uid": uid}
        tags = _categories(comp)
        if tags:
            attrs["tags"] = tags
        state = State.ARCHIVED if str(comp.get("STATUS", "")).upper() == "CANCELLED" else State.ACTIVE
        out.append(Item(uid, label, body, attrs, state))
    return out
