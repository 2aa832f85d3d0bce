"""iCalendar (RFC 5545) in and out: VTODO and VEVENT as reminders.

Components are read one by one (so one bad task never spoils the rest) with the `icalendar`
parser; times keep their meaning: a TZID becomes the reminder's IANA `tz` (Windows names and
X-LIC-LOCATION are understood), a UTC time gets tz "UTC", a floating time follows the local wall
clock (`floating`), an all-day date fires at ALL_DAY_AT on that day. RRULE, EXDATE, RDATE (and
moved or cancelled instances, RECURRENCE-ID) become the series core/remind fires; VALARM
triggers become `alarm_offsets`. Properties Neurons does not model are kept verbatim in
attrs["ical_extra"] and written back on export. Export writes one VTIMEZONE per zone used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
from icalendar.prop import vDDDTypes
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from core import remind
from core.interop.report import Skip
from core.interop.vcard import fold
from core.model import InvalidInput, Neuron, State

PRODID = "-//Neurons//Neurons//EN"
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
    text: bytes


def _blocks(data: bytes) -> tuple[list[_Block | Skip], dict[str, str]]:
    """The VTODO/VEVENT blocks of a file (or why one cannot be read) and the X-LIC-LOCATION of
    each VTIMEZONE (TZID -> IANA name)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    out: list[_Block | Skip] = []
    zones: dict[str, str] = {}
    stack: list[tuple[str, int]] = []
    start = 0
    for number, line in enumerate(lines, 1):
        upper = line.strip().upper()
        if upper.startswith(b"BEGIN:"):
            name = upper[6:].decode("ascii", "replace")
            if not stack and name != "VCALENDAR":
                out.append(Skip(f"{name} at line {number}", "it is outside a VCALENDAR"))
            if len(stack) == 1:
                start = number
            stack.append((name, number))
        elif upper.startswith(b"END:") and stack:
            name = upper[4:].decode("ascii", "replace")
            opened, at = stack.pop()
            if name != opened:
                out.append(Skip(f"{opened} at line {at}", f"it ends with END:{name}: the file is malformed"))
                stack.clear()
                continue
            if len(stack) == 1:
                text = b"\n".join(lines[start - 1 : number])
                if opened in COMPONENTS:
                    out.append(_Block(opened, start, text))
                elif opened == "VTIMEZONE":
                    zones.update(_zone_location(text))
                else:
                    out.append(
                        Skip(
                            f"{opened} at line {start}", "only tasks (VTODO) and events (VEVENT) are imported"
                        )
                    )
    if stack:
        name, at = stack[-1]
        where = f"{name} at line {at}" if len(stack) > 1 else "the calendar"
        out.append(Skip(where, f"it is not finished (no END:{name}): the file is truncated"))
    return out, zones


def _zone_location(text: bytes) -> dict[str, str]:
    found = dict(re.findall(rb"(?m)^(TZID|X-LIC-LOCATION):(.+?)\s*$", text))
    if b"TZID" in found and b"X-LIC-LOCATION" in found:
        return {found[b"TZID"].decode(errors="replace"): found[b"X-LIC-LOCATION"].decode(errors="replace")}
    return {}


def read(data: bytes, now: datetime) -> list[Item | Skip]:
    """Every task and event of a calendar file as a reminder, or the reason it is skipped.
    Instances that move or cancel one occurrence (RECURRENCE-ID) fold into their series."""
    blocks, zones = _blocks(data)
    items: list[Item | Skip] = []
    overrides: list[tuple[_Block, Any]] = []
    for block in blocks:
        if isinstance(block, Skip):
            items.append(block)
            continue
        try:
            comp = _parse(block)
            if comp.get("RECURRENCE-ID") is not None:
                overrides.append((block, comp))
                continue
            items.append(_item(block, comp, zones, now))
        except Skip as exc:
            items.append(exc)
    by_uid = {i.uid: i for i in items if isinstance(i, Item)}
    for block, comp in overrides:
        try:
            _fold_override(block, comp, zones, by_uid)
        except Skip as exc:
            items.append(exc)
    return items


def _label(block: _Block, comp: Any = None) -> str:
    """How a message names a component: its summary, else its UID, and where it is."""
    if comp is not None:
        name = str(comp.get("SUMMARY") or comp.get("UID") or "").strip()
    else:  # not parsed (yet): the summary or UID as far as the bytes can be read
        found = re.search(rb"(?mi)^SUMMARY[;:][^:\r\n]*?:?([^\r\n]*)$", block.text) or re.search(
            rb"(?mi)^UID[;:][^:\r\n]*?:?([^\r\n]*)$", block.text
        )
        name = found.group(1).decode("utf-8", "replace").strip() if found else ""
    return f"{block.name} {name[:60]!r} (line {block.line})" if name else f"{block.name} at line {block.line}"


def _parse(block: _Block):
    try:
        text = block.text.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = block.line + block.text[: exc.start].count(b"\n")
        raise Skip(_label(block), f"line {line} is not valid UTF-8") from None
    try:
        return icalendar.Component.from_ical(text)
    except ValueError as exc:
        raise Skip(_label(block), str(exc).splitlines()[0][:200]) from None


def iana(tzid: str, zones: dict[str, str]) -> str:
    """The IANA name of a TZID: itself, its trailing Area/City ("/mozilla.org/.../Europe/Lisbon"),
    a Windows name ("W. Europe Standard Time") or its VTIMEZONE's X-LIC-LOCATION."""
    tail = "/".join(tzid.strip("/").split("/")[-2:])
    for name in (tzid, tail, WINDOWS_TO_OLSON.get(tzid), zones.get(tzid)):
        if name:
            try:
                ZoneInfo(name)
                return name
            except (ZoneInfoNotFoundError, ValueError):
                continue
    raise ValueError(f"unknown time zone {tzid!r} (not an IANA or Windows name)")


def _when(prop, zones, label) -> tuple[datetime | date, str | None, bool]:
    """(value, IANA zone or None, floating) of a DUE/DTSTART/EXDATE-like value, as written."""
    raw = prop.to_ical().decode() if hasattr(prop, "to_ical") else str(prop)
    return _value(raw.split(",")[0], prop.params.get("TZID"), zones, label)


def _value(raw: str, tzid: str | None, zones, label) -> tuple[datetime | date, str | None, bool]:
    try:
        value = vDDDTypes.from_ical(raw.split("/")[0])  # an RDATE period counts from its start
    except ValueError:
        raise Skip(label, f"{raw!r} is not a date or time") from None
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            return value, "UTC", False
        if tzid:
            try:
                name = iana(str(tzid), zones)
            except ValueError as exc:
                raise Skip(label, str(exc)) from None
            return value.replace(tzinfo=ZoneInfo(name)), name, False
        return value.replace(tzinfo=remind.local_zone()), None, True
    if isinstance(value, date):
        return value, None, False
    raise Skip(label, f"{raw!r} is not a date or time")


def _at(value: datetime | date, zone_name: str | None) -> datetime:
    """A value as an aware time; a date is ALL_DAY_AT on that day in the series' zone."""
    if isinstance(value, datetime):
        return value
    return datetime.combine(value, ALL_DAY_AT, tzinfo=remind.zone(zone_name))


def _dates(comp, name: str, zones, label, zone_name: str | None) -> list[str]:
    found = comp.get(name)
    if found is None:
        return []
    out = []
    for prop in found if isinstance(found, list) else [found]:
        for raw in prop.to_ical().decode().split(","):
            value, _, _ = _value(raw, prop.params.get("TZID"), zones, label)
            out.append(_at(value, zone_name).astimezone(remind.zone(zone_name)).isoformat())
    return out


def _item(block: _Block, comp, zones: dict[str, str], now: datetime) -> Item:
    label = _label(block, comp)
    uid = str(comp.get("UID", "")).strip()
    if not uid:
        raise Skip(
            label, "it has no UID (RFC 5545 requires one; without it a re-import could not find it again)"
        )
    summary = str(comp.get("SUMMARY", "")).strip()
    description = str(comp.get("DESCRIPTION", "")).strip()
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
    start_prop = comp.get("DUE") if block.name == "VTODO" and comp.get("DUE") else comp.get("DTSTART")
    zone_name = None
    if start_prop is not None:
        value, zone_name, floating = _when(start_prop, zones, label)
        start = _at(value, zone_name)
        if zone_name:
            attrs["tz"] = zone_name
        if floating:
            attrs["floating"] = True
        if not isinstance(value, datetime):
            attrs["all_day"] = True
        attrs["due_at"] = start.isoformat()
        if block.name == "VEVENT":
            _duration(comp, attrs, start, zones, label)
    rule = comp.get("RRULE")
    if rule is not None:
        rule = rule[0] if isinstance(rule, list) else rule
        attrs["rrule"] = rule.to_ical().decode()
    for name, key in (("EXDATE", "exdates"), ("RDATE", "rdates")):
        values = _dates(comp, name, zones, label, zone_name)
        if values:
            attrs[key] = values
    if ("rrule" in attrs or "rdates" in attrs) and "due_at" not in attrs:
        raise Skip(label, "it repeats but has no DTSTART or DUE to start from")
    if "rrule" in attrs or "rdates" in attrs:
        attrs["dtstart"] = attrs["due_at"]  # the series' anchor: its rule is never rewritten
    if "rrule" in attrs:
        try:
            remind.validate_rrule(attrs["rrule"], remind.parse_time(attrs["due_at"]), attrs.get("tz"))
        except InvalidInput as exc:
            raise Skip(label, str(exc)) from None
    offsets = _alarms(comp, attrs)
    if offsets:
        attrs["alarm_offsets"] = offsets
    priority = comp.get("PRIORITY")
    if priority is not None and str(priority).strip().isdigit() and int(str(priority)) > 0:
        attrs["priority"] = int(str(priority))
    tags = _categories(comp)
    if tags:
        attrs["tags"] = tags
    location = str(comp.get("LOCATION", "")).strip()
    if location:
        attrs["location"] = location
    state = State.ACTIVE
    status = str(comp.get("STATUS", "")).upper()
    if status == "COMPLETED" or comp.get("COMPLETED") is not None:
        state = State.DONE
        done = comp.get("COMPLETED")
        if done is not None:
            value, _, _ = _when(done, zones, label)
            attrs["done_at"] = _at(value, "UTC").astimezone(UTC).isoformat()
    elif status == "CANCELLED":
        state = State.ARCHIVED
    extra = [_raw(block, name) for name in _unmodeled(comp)]
    if extra:
        attrs["ical_extra"] = [line for lines in extra for line in lines]
    if state is State.ACTIVE and "due_at" in attrs:
        attrs.update(remind.as_of(attrs, now))
        if block.name == "VEVENT" and remind.ended(attrs, now):
            state = State.DONE  # an event that is over (a task past due stays to do)
    return Item(uid, label, body, attrs, state)


def _duration(comp, attrs, start: datetime, zones, label) -> None:
    if comp.get("DURATION") is not None:
        seconds = comp["DURATION"].dt.total_seconds()
    elif comp.get("DTEND") is not None:
        value, zone_name, _ = _when(comp["DTEND"], zones, label)
        seconds = (_at(value, zone_name or attrs.get("tz")) - start).total_seconds()
    else:
        return
    if seconds > 0:
        attrs["duration_seconds"] = int(seconds)


def _alarms(comp, attrs) -> list[int]:
    """VALARM triggers as seconds from each occurrence (an absolute trigger, from the first one)."""
    offsets = []
    for alarm in comp.walk("VALARM"):
        trigger = alarm.get("TRIGGER")
        if trigger is None:
            continue
        value = trigger.dt
        if isinstance(value, timedelta):
            if str(trigger.params.get("RELATED", "START")).upper() == "END":
                value += timedelta(seconds=attrs.get("duration_seconds", 0))
            offsets.append(int(value.total_seconds()))
        elif isinstance(value, datetime) and (due := remind.parse_time(attrs.get("due_at"))) is not None:
            aware = value if value.tzinfo else value.replace(tzinfo=UTC)
            offsets.append(int((aware - due).total_seconds()))
    return sorted(set(offsets))


def _categories(comp) -> list[str]:
    found = comp.get("CATEGORIES")
    if found is None:
        return []
    tags: list[str] = []
    for prop in found if isinstance(found, list) else [found]:
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


def _fold_override(block: _Block, comp, zones, by_uid: dict[str, Item]) -> None:
    """A moved or cancelled occurrence: the series leaves out the original time and, unless it
    was cancelled, adds the new one (what a calendar shows)."""
    label = _label(block, comp)
    uid = str(comp.get("UID", "")).strip()
    master = by_uid.get(uid)
    if master is None or "due_at" not in master.attrs:
        raise Skip(label, f"it changes one occurrence of {uid!r}, which the file does not hold")
    zone_name = master.attrs.get("tz")
    original, _, _ = _when(comp["RECURRENCE-ID"], zones, label)
    master.attrs.setdefault("exdates", []).append(
        _at(original, zone_name).astimezone(remind.zone(zone_name)).isoformat()
    )
    if str(comp.get("STATUS", "")).upper() != "CANCELLED":
        start = comp.get("DUE") or comp.get("DTSTART")
        if start is not None:
            moved, _, _ = _when(start, zones, label)
            master.attrs.setdefault("rdates", []).append(
                _at(moved, zone_name).astimezone(remind.zone(zone_name)).isoformat()
            )


# -- writing ---------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _vtimezone(name: str) -> str:
    return icalendar.Timezone.from_tzinfo(ZoneInfo(name)).to_ical().decode()


def calendar(reminders: Iterable[Neuron], now: datetime | None = None) -> str:
    """One VCALENDAR holding every reminder, with one VTIMEZONE per zone used."""
    parts, zones = [], set()
    for neuron in reminders:
        text, zone_name = component(neuron, now)
        parts.append(text)
        if zone_name:
            zones.add(zone_name)
    head = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:{PRODID}\r\nCALSCALE:GREGORIAN\r\n"
    return head + "".join(_vtimezone(z) for z in sorted(zones)) + "".join(parts) + "END:VCALENDAR\r\n"


def uid_of(neuron: Neuron) -> str:
    return str(neuron.attrs.get("uid") or neuron.id)


def component(neuron: Neuron, now: datetime | None = None) -> tuple[str, str | None]:
    """(the VTODO or VEVENT text, the zone it needs a VTIMEZONE for)."""
    a = neuron.attrs
    event = a.get("ical_component") == "VEVENT"
    comp = icalendar.Event() if event else icalendar.Todo()
    comp.add("uid", uid_of(neuron))
    comp.add("dtstamp", (now or datetime.now(UTC)).astimezone(UTC))
    if neuron.created_at:
        comp.add("created", neuron.created_at.astimezone(UTC))
    if neuron.updated_at:
        comp.add("last-modified", neuron.updated_at.astimezone(UTC))
    title = neuron.title
    comp.add("summary", title)
    description = (
        neuron.body[len(title) + 2 :]
        if neuron.body.startswith(title + "\n\n")
        else ("" if neuron.body.strip() == title else neuron.body)
    )
    if description:
        comp.add("description", description)
    zone_name = None
    start = (
        remind.parse_time(a.get("dtstart") or a.get("due_at"))
        if (a.get("dtstart") or a.get("due_at"))
        else None
    )
    if start is not None:
        zone_name = None if a.get("floating") else (a.get("tz") or remind.local_zone_name())
        zone_name = "UTC" if zone_name in remind.UTC_NAMES else zone_name
        shown = _shown(start, zone_name, a)
        if event:
            comp.add("dtstart", shown)
            if a.get("duration_seconds"):
                comp.add("duration", timedelta(seconds=int(a["duration_seconds"])))
            elif a.get("all_day"):
                comp.add("dtend", shown + timedelta(days=1))
        else:
            if a.get("rrule") or a.get("rdates"):
                comp.add("dtstart", shown)
            comp.add("due", shown)
        if a.get("rrule"):
            comp.add("rrule", icalendar.vRecur.from_ical(remind.rule_text(a["rrule"])))
        for key, prop in (("exdates", "exdate"), ("rdates", "rdate")):
            times = [remind.parse_time(v) for v in a.get(key) or []]
            values = [_shown(t, zone_name, a) for t in times if t is not None]
            if values:
                comp.add(prop, values)
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
    if a.get("tags"):
        comp.add("categories", [str(t) for t in a["tags"]])
    if a.get("location"):
        comp.add("location", str(a["location"]))
    for offset in a.get("alarm_offsets") or []:
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", title)
        alarm.add("trigger", timedelta(seconds=int(offset)))
        comp.add_component(alarm)
    text = comp.to_ical().decode()
    extra = "".join(fold(str(line)) + "\r\n" for line in a.get("ical_extra") or [])
    end = f"END:{'VEVENT' if event else 'VTODO'}\r\n"
    if extra:
        text = text[: -len(end)] + extra + end
    if start is not None and a.get("all_day"):
        zone_name = None  # dates carry no zone
    return text, zone_name if zone_name != "UTC" else None


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
