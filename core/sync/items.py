"""A neuron as a server resource and back, through core/interop's iCalendar and vCard code.

Reminders are VTODOs (or VEVENTs, for those that came from an event calendar), contacts vCards of
the version they came in (else the one the address book prefers), notes VJOURNALs; what a person
did not change is written back as the server's item had it (core/interop keeps its form). A
neuron's *fingerprint* digests what the server would hold for it, less the lines that only say
when it was written (DTSTAMP, LAST-MODIFIED, REV): a neuron whose fingerprint changed since the
last agreement has changed here, and one that was only shown (a reminder fired) has not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from core import remind
from core.interop import ical, vcard
from core.interop.report import Skip
from core.model import InvalidInput, Kind, Neuron, State
from core.store.sync_sql import Collection
from core.sync import dav

# The clock of a neuron that has none (never the case for a stored one).
STAMP = datetime(2000, 1, 1, tzinfo=UTC)
_VOLATILE = re.compile(r"(?m)^(DTSTAMP|LAST-MODIFIED|REV|PRODID|SEQUENCE)[;:].*\r?\n(?:[ \t].*\r?\n)*")
CONTENT_TYPES = {Kind.CONTACT: "text/vcard; charset=utf-8"}
CALENDAR_TYPE = "text/calendar; charset=utf-8"


def uid_of(neuron: Neuron) -> str:
    """The UID a neuron has on a server: the one it came with, else one made of its id (as an
    export writes it)."""
    if neuron.kind is Kind.CONTACT:
        return str(neuron.attrs.get("uid") or f"urn:uuid:{neuron.id}")
    return ical.uid_of(neuron)


def text_of(neuron: Neuron, collection: Collection) -> str:
    """What the server holds for the neuron. It carries the neuron's own clock -- when it was last
    changed here, as LAST-MODIFIED and DTSTAMP, or a vCard's REV -- and a SEQUENCE above the one
    last read from the server, so that another machine or a phone comparing the two versions of
    an item edited on both sides keeps the newer."""
    changed = clock(neuron)
    if neuron.kind is Kind.CONTACT:
        return vcard.from_attrs(
            neuron.attrs,
            uid=uid_of(neuron),
            version=vcard.own_version(neuron.attrs) or collection.vcard_version or "3.0",
            rev=changed.strftime("%Y%m%dT%H%M%SZ"),
            as_written=True,
        )
    if neuron.kind is Kind.NOTE:
        return ical.journal(neuron, changed)
    written = _snoozed_as_due(neuron)
    sequence = int(written.attrs.get("sequence") or 0) + 1
    attrs = {**written.attrs, "last_modified": changed.isoformat(), "sequence": sequence}
    return ical.calendar([dataclasses.replace(written, attrs=attrs)], changed, as_written=True)


def clock(neuron: Neuron) -> datetime:
    """When the neuron last changed here, to the second (as iCalendar and vCard write it)."""
    return (neuron.updated_at or STAMP).astimezone(UTC).replace(microsecond=0)


def _snoozed_as_due(neuron: Neuron) -> Neuron:
    """A one-off reminder snoozed past its time is due then, for a phone (which has no snooze)."""
    a = neuron.attrs
    if not a.get("snoozed_until") or a.get("rrule") or a.get("rdates") or not a.get("due_at"):
        return neuron
    try:
        due, until = remind.parse_time(a["due_at"]), remind.parse_time(a["snoozed_until"])
    except InvalidInput:
        return neuron
    if due is None or until is None or until <= due:
        return neuron
    return dataclasses.replace(neuron, attrs={**a, "due_at": remind.iso(until)})


def content_type(collection: Collection) -> str:
    return CONTENT_TYPES.get(collection.kind, CALENDAR_TYPE)


def fingerprint(neuron: Neuron, collection: Collection) -> str:
    """What the server would hold for the neuron, digested (the lines of when it was written left
    out); a trashed neuron's says only that it is trashed."""
    if neuron.state is State.TRASHED:
        return "trashed"
    text = _VOLATILE.sub("", text_of(neuron, collection).replace("\r\n", "\n").replace("\n", "\r\n"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def new_href(collection: Collection, neuron: Neuron) -> str:
    """Where a neuron new to the server goes: its UID as the file name when that is plain."""
    uid = uid_of(neuron).removeprefix("urn:uuid:")
    name = uid if re.fullmatch(r"[A-Za-z0-9._@+-]{1,120}", uid) else hashlib.sha1(uid.encode()).hexdigest()
    suffix = ".vcf" if collection.kind is Kind.CONTACT else ".ics"
    return collection.href.rstrip("/") + "/" + quote(name, safe="@+") + suffix


# -- reading what the server holds -----------------------------------------------------------------


@dataclass
class Remote:
    """One server item as Neurons reads it."""

    href: str
    etag: str | None
    uid: str
    label: str
    body: str
    attrs: dict[str, Any]
    state: State
    modified: datetime | None  # when the server's version was written (LAST-MODIFIED, REV)


def read(collection: Collection, href: str, etag: str | None, data: bytes, now: datetime) -> Remote:
    """An item of the collection, or Skip with the reason it cannot be read."""
    where = href.rsplit("/", 1)[-1]
    if dav.CONTROL_MARK.encode() in data:
        raise Skip(where, "it holds a control character (such as a vertical tab), which it may not")
    if dav.ENCODING_MARK.encode() in data:
        raise Skip(where, "its text is not UTF-8 (another encoding, such as Latin-1, as the server sent it)")
    if collection.kind is Kind.CONTACT:
        cards = vcard.split_cards(data)
        if not cards:
            raise Skip(where, "it holds no vCard")
        card = cards[0]
        if isinstance(card, Skip):
            raise Skip(f"{card.item} in {where}", card.why)
        attrs = vcard.to_attrs(card)
        uid = str(attrs.get("uid") or "")
        if not uid:  # RFC 6352 requires one; the href names the item instead
            uid = attrs["uid"] = href
        rev = card.first("REV")
        return Remote(href, etag, uid, where, "", attrs, State.ACTIVE, _moment(rev.value if rev else None))
    items = ical.read_journals(data) if collection.kind is Kind.NOTE else ical.read(data, now)
    found = [i for i in items if isinstance(i, ical.Item)]
    if not found:
        skipped = next((i for i in items if isinstance(i, Skip)), None)
        if skipped is not None:
            raise Skip(f"{skipped.item} in {where}", skipped.why)
        raise Skip(where, f"it holds no {collection.component or 'item'}")
    item = found[0]
    stamp = re.search(rb"(?m)^LAST-MODIFIED[^:\r\n]*:(\S+)", data) or re.search(
        rb"(?m)^DTSTAMP[^:\r\n]*:(\S+)", data
    )
    return Remote(
        href,
        etag,
        item.uid,
        item.label,
        item.body,
        item.attrs,
        item.state,
        _moment(stamp.group(1).decode("ascii", "replace") if stamp else None),
    )


def _moment(value: str | None) -> datetime | None:
    """A LAST-MODIFIED or REV value as an instant (None when it is not one)."""
    if not value:
        return None
    text = value.strip()
    for pattern in ("%Y%m%dT%H%M%SZ", "%Y-%m-%dT%H:%M:%SZ", "%Y%m%dT%H%M%S"):
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=UTC)
        except ValueError:
            continue
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def copy_of(neuron: Neuron, now: datetime) -> Neuron:
    """The version of an item that a conflict leaves behind, as an archived neuron of its own
    (no UID: it is never synced or matched again)."""
    attrs = {k: v for k, v in neuron.attrs.items() if k not in ("uid", "birthday_of")}
    return Neuron(
        id=uuid.uuid4(),
        kind=neuron.kind,
        body=neuron.body,
        attrs=attrs,
        state=State.ARCHIVED,
        created_at=neuron.created_at or now,
        updated_at=now,
    )
