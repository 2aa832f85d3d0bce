"""Reading a captured text: its kind, due date and title, the contacts it mentions, the older
neuron it replaces, the card details it gives (`read` -> `Understanding`)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import phonenumbers

from core.capture.cards import Update, digits_of, listed
from core.capture.changes import CHANGE_CUES, changed_from, stated
from core.capture.names import NameIndex, contact_names
from core.model import Edge, Kind, Neuron, Relation
from core.store.reader import Reader
from core.when import REMINDER_CUES, When, find_when, fold, local_now, title_without

DERIVED_MENTION = "capture:mention"


DERIVED_NEW_DETAIL = "capture:new-detail"


DERIVED_MOVED = "capture:moved"


DERIVED_SAME_PERSON = "capture:same-person"


# A note naming nobody that speaks of someone by a pronoun ("she keeps the same pills", "ela tem de
# voltar lá", "er sucht eine Wohnung") is about the one person the capture just before it was
# about: a `concerns` link, "capture:referred".
DERIVED_REFERRED = "capture:referred"


# ... when that capture came at most this long before (a run of notes jotted one after another;
# a pronoun a day later could be anyone).
REFER_BACK_SECONDS = 30 * 60


# Third-person pronouns in the five languages, the ones that name a person (not "it", not a
# "they" that is also a formal "you" alone): German "sie"/"ihr" are kept, "sein" (also "to be") not.
THIRD_PERSON = re.compile(
    r"(?<!\w)(?:she|her|hers|herself|he|him|his|himself"
    r"|ela|ele|dela|dele|nela|nele|lhe"
    r"|ella|él"
    r"|sie|er|ihr|ihm|ihn|ihre|ihrem|ihren|ihrer|seine|seinem|seinen|seiner"
    r"|elle|lui)(?!\w)",
    re.I,
)


# A note giving a new value of what an older note holds ("Lia is 15 an hour now"): the link says
# which kind of value changed, "capture:changed:rate" (core/capture/changes.py).
DERIVED_CHANGED = "capture:changed"


# A quick capture is a contact when, once the name, phones and emails are taken out, at most this
# many words are left ("plumber", "landlord, flat 5").
CONTACT_MAX_OTHER_WORDS = 4


# ... and a reminder when it has a date/time and at most this many words (longer text with only a
# day in it is a note about that day), or a clear due time (a day and a time of day) at any length.
REMINDER_MAX_WORDS = 12


# A moved appointment replaces an older reminder that shares at least this many content words.
MOVED_MIN_SHARED_WORDS = 2


# A number written without its country code, when the region is not known (no NEURONS_PHONE_REGION,
# no country in the locale): digits in groups, read as they are since no numbering plan applies
# (pairs too: "06 12 34 56 78").
PHONE_WITHOUT_REGION = re.compile(
    r"(?<![\w/])(?:\+\d{1,3}[\s.-]?)?(?:\(?\d{2,5}\)?[\s.-]?){1,5}\d{2,4}(?![\w/])"
)


# A date written in figures ("2026-12-05", "05.06.2026"), which digit groups alone could take for
# a number.
NUMERIC_DATE = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2})")


# The look-behind starts a match only where a run of address characters starts: without it a
# long run with no '@' is rescanned from each of its characters (100,000 of them took 115 s).
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


NEW_DETAIL_CUES = re.compile(
    r"\b(new|changed|updated|now)\b.{0,30}\b(number|mobile|phone|email|"
    r"address|cell)\b|\b(number|mobile|phone|email)\b.{0,20}\b(is now|changed)\b",
    re.I,
)


MOVED_CUES = re.compile(
    r"\b(moved|rescheduled|postponed|brought forward|pushed back|changed to|"
    r"now on|now at|instead)\b",
    re.I,
)


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


POSSESSIVE = re.compile(r"['’]s?$")


_STOP = frozenset(
    """a an the and or of to in on at for with by from is are was were be been it its
    this that my me i you he she we they his her our their there here so but if as up""".split()
)


@dataclass
class Understanding:
    kind: Kind
    attrs: dict[str, Any]
    mentions: list[uuid.UUID] = field(default_factory=list)  # contacts named in the text
    referred: list[uuid.UUID] = field(default_factory=list)  # ... or spoken of by a pronoun only
    replaces: list[tuple[uuid.UUID, str]] = field(default_factory=list)  # (older id, derived_by)
    updates: list[Update] = field(default_factory=list)  # contact cards the text gives new details
    now: datetime | None = None

    def edges_for(self, neuron: Neuron) -> list[Edge]:
        targets = [(cid, Relation.CONCERNS, DERIVED_MENTION) for cid in self.mentions]
        targets += [
            (cid, Relation.CONCERNS, DERIVED_REFERRED) for cid in self.referred if cid not in self.mentions
        ]
        targets += [(old, Relation.SUPERSEDES, how) for old, how in self.replaces]
        return [
            Edge(
                id=uuid.uuid4(),
                from_id=neuron.id,
                to_id=to,
                relation=relation,
                valid_from=self.now,
                derived_by=how,
            )
            for to, relation, how in targets
            if to != neuron.id
        ]


def phones_in(text: str, region: str | None = None) -> list[str]:
    """The phone numbers in a text as written, in every form libphonenumber's matcher reads for
    `region` ("06 12 34 56 78" in France, "+44 (0)20 7946 0958" anywhere): valid numbers only,
    so dates, times and sums are not numbers. With no region, also digit groups without a
    country code (whose numbering plan cannot be known)."""
    found: list[tuple[int, int, str]] = [
        (m.start, m.end, m.raw_string)
        for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID)
    ]
    if region is None:
        for m in PHONE_WITHOUT_REGION.finditer(text):
            digits = re.sub(r"\D", "", m.group(0))
            taken = any(start < m.end() and m.start() < end for start, end, _ in found)
            if (
                not taken
                and 7 <= len(digits) <= 15
                and not re.fullmatch(r"(19|20)\d{2}", digits)
                and not NUMERIC_DATE.fullmatch(m.group(0).strip())
            ):
                found.append((m.start(), m.end(), m.group(0).strip()))
    return [raw for _start, _end, raw in sorted(found)]


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 2}


def parse_contact(text: str, region: str | None = None) -> dict[str, Any] | None:
    """name/phones/emails of a contact card typed in one line, or None if it is not one."""
    emails = EMAIL.findall(text)
    rest = EMAIL.sub(" ", text)
    phones = phones_in(rest, region)
    for p in phones:
        rest = rest.replace(p, " ")
    if not emails and not phones:
        return None
    words = _WORD.findall(rest)
    name_words: list[str] = []
    for w in words:
        if w[:1].isupper() and len(name_words) < 4:
            name_words.append(w)
        else:
            break
    if not name_words or any(POSSESSIVE.search(w) for w in name_words):
        return None  # "Ana's new number is ...": a detail of Ana, not a card named "Ana's"
    others = [w for w in words[len(name_words) :] if w.lower() not in _STOP]
    if len(others) > CONTACT_MAX_OTHER_WORDS:
        return None
    attrs: dict[str, Any] = {"name": " ".join(name_words)}
    if phones:
        attrs["phones"] = phones
    if emails:
        attrs["emails"] = emails
    return attrs


def infer_kind(text: str, now: datetime, region: str | None = None) -> tuple[Kind, dict[str, Any]]:
    """What a capture with no kind is, with the attrs its text gives (`region`: whose way of
    writing phone numbers without a country code)."""
    words = _WORD.findall(text)
    cue = REMINDER_CUES.search(fold(text))
    if not cue:
        contact = parse_contact(text, region)
        if contact is not None:
            return Kind.CONTACT, contact
    when = find_when(text, now)
    if when is not None and (
        cue
        or when.rrule
        or (len(words) <= REMINDER_MAX_WORDS and not when.loose)
        or _clear_due_time(when, now)
    ):
        return Kind.REMINDER, _when_attrs(when, now)
    if cue:
        return Kind.REMINDER, {}
    return Kind.NOTE, {}


def _clear_due_time(when: When, now: datetime) -> bool:
    """A day and a time of day still to come ("on Monday at a quarter to 6"): something to do or
    be at, however long the text around it."""
    return when.explicit_day and when.explicit_time and when.due > now


def _when_attrs(when: When, now: datetime) -> dict[str, Any]:
    attrs: dict[str, Any] = {"due_at": when.due.isoformat()}
    rule = _repeats(when, now)
    if rule:
        attrs["rrule"] = rule
    return attrs


def _repeats(when: When, now: datetime) -> str | None:
    """The rule a reminder repeats by. A rule the time words do not say themselves comes from a
    yearly day's name ("Tom's birthday on the 19th"); at a time of day it is an event on that day
    ("Tom's birthday party on the 19th at 8pm"), which happens once, as calendars keep it."""
    if not when.rrule or not when.explicit_time:
        return when.rrule
    said = find_when(when.words, now)
    return when.rrule if said is not None and said.rrule else None


def reminder_title(text: str, now: datetime) -> str | None:
    """A reminder's title: its text without the cue and the time words ("remind me to stretch in
    1 minute" -> "Stretch"); None when that is the text itself. The body keeps every word."""
    when, cue = find_when(text, now), REMINDER_CUES.search(fold(text))
    title = title_without(text, when, cue) if when is not None or cue is not None else ""
    return title if title and title != text.strip() else None


def read(
    reader: Reader,
    text: str,
    kind: Kind | None,
    attrs: dict[str, Any],
    now: datetime | None = None,
    *,
    exclude: uuid.UUID | None = None,
    names: NameIndex | None = None,
    region: str | None = None,
    notes_sharing: Callable[[str], list[Neuron]] | None = None,
) -> Understanding:
    """What `text` is (kind, attrs, the people it names, what it replaces or updates). `names`:
    the contacts' NameIndex when the caller keeps one current (Recall.names); else built here.
    `region`: the country whose phone numbers are written without a country code.
    `notes_sharing`: `Reader.active_notes_sharing` as the caller answers it (Recall.notes_sharing);
    else the reader's."""
    when_now = now or local_now()
    attrs = dict(attrs)
    if kind is None:
        kind, found = infer_kind(text, when_now, region)
        attrs = {**found, **attrs}  # what the person gave wins
    elif kind is Kind.REMINDER and "due_at" not in attrs:
        when = find_when(text, when_now)
        if when is not None:
            attrs = {**_when_attrs(when, when_now), **attrs}
    elif kind is Kind.CONTACT and not attrs.get("name"):
        found = parse_contact(text, region) or {}
        attrs = {**found, **attrs}
        if not attrs.get("name"):  # "Dr Okafor" alone: its text names it
            name = contact_names({}, text)[0]
            if name:
                attrs["name"] = name
    if kind is Kind.REMINDER and not attrs.get("title"):
        title = reminder_title(text, when_now)
        if title:
            attrs["title"] = title
    u = Understanding(kind=kind, attrs=attrs, now=now)
    known: dict[uuid.UUID, Neuron] | None = None
    if names is None:
        contacts = reader.contacts()
        names = NameIndex((c.id, c.attrs, c.body) for c in contacts)
        known = {c.id: c for c in contacts}
    mentioned = names.find(text)
    by_id = (
        known
        if known is not None
        else (reader.neurons(list(dict.fromkeys(f.contact_id for f in mentioned))) if mentioned else {})
    )
    own_name = contact_names(attrs, text)[0].lower() if kind is Kind.CONTACT else None
    for f in mentioned:
        if f.contact_id not in by_id:
            continue
        if f.strength < 2 and f.exact:
            continue  # a first name two contacts share: ambiguous, not linked
        if (
            own_name
            and contact_names(by_id[f.contact_id].attrs, by_id[f.contact_id].body)[0].lower() == own_name
        ):
            continue  # the same name again: a same_person offer, not a mention
        if kind is Kind.CONTACT and own_name and f.start < len(own_name) + 2:
            continue  # a new contact's own name is not a mention of someone else
        u.mentions.append(f.contact_id)
    if kind is not Kind.CONTACT and not u.mentions:
        u.referred = referred_to(reader, text, when_now, exclude)
    # a new phone number or email for someone: the contact card it updates is superseded
    details = (phones_in(text, region), EMAIL.findall(text)) if kind is not Kind.CONTACT else ([], [])
    if NEW_DETAIL_CUES.search(text) and any(details):
        for cid in u.mentions:
            if cid != exclude:
                u.replaces.append((cid, DERIVED_NEW_DETAIL))
    if any(details):
        u.updates = _updates(text, u.mentions, by_id, *details, exclude=exclude)
    if kind is Kind.REMINDER and MOVED_CUES.search(text):
        old = _moved_from(reader, text, exclude)
        if old is not None:
            u.replaces.append((old, DERIVED_MOVED))
    if kind is Kind.NOTE:
        changed = _changed_from(notes_sharing or reader.active_notes_sharing, text, now, exclude)
        if changed is not None:
            u.replaces.append(changed)
    return u


def referred_to(reader: Reader, text: str, at: datetime, exclude: uuid.UUID | None) -> list[uuid.UUID]:
    """The person a text naming nobody speaks of by a pronoun: the one the capture just before it
    (REFER_BACK_SECONDS at most) is about -- named there, or itself referred to; none when that
    capture is about nobody or about several people."""
    if not THIRD_PERSON.search(text):
        return []  # most notes: no store read
    before = reader.latest_before(at, at - timedelta(seconds=REFER_BACK_SECONDS))
    if before is None or before.id == exclude:
        return []
    people = {
        link.neuron.id
        for link in reader.links([before.id], [Relation.CONCERNS])
        if link.neuron.kind is Kind.CONTACT
    }
    return list(people) if len(people) == 1 else []


def _changed_from(
    notes_sharing: Callable[[str], list[Neuron]], text: str, now: datetime | None, exclude: uuid.UUID | None
) -> tuple[uuid.UUID, str] | None:
    """The older note whose value this note gives anew ("Lia is 15 an hour now" after "Lia
    babysat, 10/h"), and why: `DERIVED_CHANGED` and the kind of value."""
    if not CHANGE_CUES.search(fold(text)) or stated(text) is None:
        return None  # most notes: no store read
    older = [
        (n.id, n.body)
        for n in notes_sharing(text)
        if n.id != exclude and (now is None or n.created_at is None or n.created_at < now)
    ]
    change = changed_from(text, older)
    return None if change is None else (change.older, f"{DERIVED_CHANGED}:{change.kind}")


def earlier_mentions(
    contact: Neuron, earlier: list[Neuron], known: list[Neuron], now: datetime | None
) -> list[Edge]:
    """The `concerns` links a new contact's earlier mentions would have had, had the contact been
    known when they were written ("lunch with Klaus" before Klaus's card): from each neuron of
    `earlier` that names the contact as capture would (`known`: the other contacts, so a first
    name two people share stays unlinked), dated `now` like a mention found at capture."""
    others = [c for c in known if c.id != contact.id]  # a reader may already see the new card
    names = NameIndex((c.id, c.attrs, c.body) for c in [*others, contact])
    edges = []
    for n in earlier:
        if n.id == contact.id or n.kind is Kind.CONTACT:
            continue  # a card names its own person: a same-person offer, not a mention
        found = [f for f in names.find(n.body) if f.contact_id == contact.id]
        if found and not (found[0].strength < 2 and found[0].exact):
            edges.append(
                Edge(
                    id=uuid.uuid4(),
                    from_id=n.id,
                    to_id=contact.id,
                    relation=Relation.CONCERNS,
                    valid_from=now,
                    derived_by=DERIVED_MENTION,
                )
            )
    return edges


def _updates(
    text: str,
    mentions: list[uuid.UUID],
    by_id: dict[uuid.UUID, Neuron],
    phones: list[str],
    emails: list[str],
    exclude: uuid.UUID | None,
) -> list[Update]:
    """The card a text gives a detail of -- the person named in the possessive ("Ana's number"),
    else the one person named -- and each phone or email that card does not hold yet."""
    named = [cid for cid in mentions if cid != exclude and cid in by_id]
    owners = [cid for cid in named if _possessive_of(text, by_id[cid])] or (named if len(named) == 1 else [])
    if not owners or not (NEW_DETAIL_CUES.search(text) or _possessive_of(text, by_id[owners[0]])):
        return []
    card = by_id[owners[0]]
    name = contact_names(card.attrs, card.body)[0]
    held_phones = {digits_of(p) for p in listed(card.attrs, "phones", "phone")}
    held_emails = {e.lower() for e in listed(card.attrs, "emails", "email")}
    return [Update(card.id, name, "phones", p) for p in phones if digits_of(p) not in held_phones] + [
        Update(card.id, name, "emails", e) for e in emails if e.lower() not in held_emails
    ]


def _possessive_of(text: str, contact: Neuron) -> bool:
    name, aliases = contact_names(contact.attrs, contact.body)
    words = [w for n in [name, *aliases] for w in n.split()[:1] if w]
    return any(re.search(rf"\b{re.escape(w)}['’]s\b", text, re.I) for w in words)


def _moved_from(reader: Reader, text: str, exclude: uuid.UUID | None) -> uuid.UUID | None:
    """The older active reminder a "moved to ..." reminder replaces: the newest that shares words."""
    rest = MOVED_CUES.sub(" ", text)
    mine = _content(rest)
    for r in reader.active_reminders_sharing(rest):  # newest first
        if r.id != exclude and len(mine & _content(r.body)) >= MOVED_MIN_SHARED_WORDS:
            return r.id
    return None
