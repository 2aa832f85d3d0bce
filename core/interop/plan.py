"""An import, planned against what the memory holds, then written in one transaction.

Each item of a file (a card, a task, a Markdown file) is planned on its own: it creates, updates or
leaves a neuron unchanged, or it is skipped with the reason (nothing of a skipped item is kept).
Matching, so a re-import never duplicates:

- contacts: the card's UID (or the neuron id an export wrote as UID), then an email, then a phone
  number in E.164 when the names agree too (a shared landline is not one person); two cards that
  both have UIDs, different ones, are two people even when they share an address.
- reminders: the UID (or the neuron id an export wrote).
- Markdown: the neuron id of the front matter; a hand-written note by its path in the vault.

A changed contact is updated in place; the values it loses are kept in an archived note that the
contact `supersedes`, so they stay findable. Each birthday is a yearly reminder that `concerns`
its contact; 29 February repeats on the last day of February (the 28th in common years, the day
people who were born on it usually celebrate, before the month is out).
"""

from __future__ import annotations

import bisect
import calendar
import functools
import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from core import remind
from core.capture import CHANGED_HERE, FIELD_WORDS, superseded_note
from core.capture import shown as shown_value
from core.interop import phones
from core.interop.report import ImportRefused, Report, Skip
from core.model import Edge, InvalidInput, Kind, Neuron, Relation, State
from core.validate import clean_attrs, clean_text

if TYPE_CHECKING:
    from core.memory import Memory

# A phone number alone matches a contact when the names are at least this alike (rapidfuzz
# token-set ratio): "Ana Silva" and "Ana M. Silva" are, "Ana Silva" and "João Silva" are not.
PHONE_MATCH_NAME_RATIO = 70
# Contact attrs a card sets (a card matched by UID is their source: a field it no longer has goes).
CARD_FIELDS = (
    "name",
    "n",
    "aliases",
    "phones",
    "phone_labels",
    "emails",
    "email_labels",
    "addresses",
    "org",
    "org_units",
    "job_title",
    "role",
    "note",
    "tags",
    "urls",
    "photo",
    "birthday",
    "anniversary",
    "uid",
    "vcard_extra",
    "vcard_written",
)
# How a card wrote what it said (vcard.py): a card that says the same in another form changes nothing.
FORM = ("vcard_written",)
# What a superseded note calls a field it keeps.
# State that reminders gather as they fire; a re-import keeps it.
RUNTIME = ("notified_at", "snoozed_until", "done_at")
SERIES_FIELDS = (
    "dtstart",
    "rrule",
    "more_rrules",
    "exdates",
    "rdates",
    "overrides",
    "tz",
    "floating",
    "all_day",
)
MEANING_FIELDS = (
    "floating",
    "all_day",
    "alarm_offsets",
    "priority",
    "tags",
    "location",
    "duration_seconds",
    "ical_component",
    "ical_extra",
    "ical_alarms",
    "more_rrules",
    "overrides",
    "sequence",
)  # not "created" and "last_modified": when a file says it was written is not what it says
BIRTHDAY_AT = (9, 0)  # birthdays remind at 09:00 on the day, local time
DERIVED_IMPORT = "import"


class Plan:
    """An import's plan. It reads from the memory only what its items could match (by id, uid,
    file; every contact for an email, a phone or a card's content; the birthdays of the contacts
    read; the links of neurons it links), in batches: what a caller names first with `want_*`
    is read together by `read`, and a lookup of something not read yet reads it then. The first
    reading also checks that the identity's tables read whole (a table cut short stops the
    import before anything is written).

    A lookup finds what it would find if the whole memory had been read first, in the order of
    its creation, then every planned neuron in turn: of the neurons holding an id, email, phone
    or card, the first; of those holding a uid or a file (or a contact's birthday), the last.
    So the stored holders of a key are kept apart from the planned ones, each side in its order."""

    def __init__(self, memory: Memory, fmt: str, now: datetime | None = None, region: str | None = None):
        self.memory, self.now = memory, now or remind.utcnow()
        self.region = region if region is not None else phones.default_region()
        self.report = Report(fmt)
        self.view: dict[uuid.UUID, Neuron] = {}  # what was read, each as planned once it is
        self.edges: dict[uuid.UUID, Edge] = {}
        self.open_pairs: set[tuple[frozenset[uuid.UUID], Relation]] = set()
        self.created: dict[uuid.UUID, Neuron] = {}
        self.updated: dict[uuid.UUID, Neuron] = {}
        self.new_edges: list[Edge] = []
        self.made_here: set[uuid.UUID] = set()  # contacts this import creates (one per card)
        # the stored side: key -> (its holder's place in creation order, its id)
        self._stored: dict[uuid.UUID, tuple[datetime | None, uuid.UUID]] = {}
        self._stored_first: dict[str, tuple[Any, uuid.UUID]] = {}  # "id:..", "email:..", "card:.."
        self._stored_last: dict[str, tuple[Any, uuid.UUID]] = {}  # "contact:uid:..", "file:..", birthdays
        self._stored_phones: dict[str, list[tuple[Any, uuid.UUID]]] = {}  # a number's match key -> contacts
        # the planned side, in the order of planning
        self._planned_first: dict[str, uuid.UUID] = {}
        self._planned_last: dict[str, uuid.UUID] = {}
        self._planned_phones: dict[str, list[uuid.UUID]] = {}
        self._put_ids: set[uuid.UUID] = set()
        self._wanted = _Reads()
        self._done = _Reads()
        self._checked = False
        self._staged: list[Callable[[], None]] | None = None

    # -- what is read ---------------------------------------------------------------------------

    def want_card(self, attrs: dict[str, Any]) -> None:
        """Read, at the next `read`, what a card (as `contact` takes it) could match: by its
        uid, or, when it has emails, phones or no uid, every contact."""
        uid = str(attrs.get("uid") or "")
        if uid:
            self._want_key(f"contact:uid:{uid}")
            self._want_key(f"id:{uid.removeprefix('urn:uuid:')}")
        if not uid or attrs.get("emails") or attrs.get("phones"):
            self._wanted.contacts = True

    def want_reminder(self, uid: str) -> None:
        self._want_key(f"reminder:uid:{uid}")
        self._want_key(f"id:{uid}")

    def want_neuron(self, nid: uuid.UUID) -> None:
        self._wanted.ids.add(nid)

    def want_note(self, key: str) -> None:
        self._wanted.files.add(key)

    def want_links(self, ids: Iterable[uuid.UUID] = (), link_ids: Iterable[uuid.UUID] = ()) -> None:
        """Read the open links of these neurons (those read; a new one has none) and these links."""
        self._wanted.links_of.update(i for i in ids if i in self._stored)
        self._wanted.link_ids.update(link_ids)

    def read(self) -> None:
        """Read what was wanted and not read yet, in one reading (the first also checks the
        tables: see the class)."""
        w = self._wanted.less(self._done)
        self._wanted = _Reads()
        if w.empty and self._checked:
            return
        neurons, edges = self.memory.planning_reads(
            ids=w.ids,
            uids=w.uids,
            files=w.files,
            contacts=w.contacts,
            links_of=w.links_of,
            link_ids=w.link_ids,
            whole=not self._checked,
        )
        self._checked = True
        self._done.add(w)
        for n in sorted(neurons, key=_order):
            if n.id not in self._stored:
                self._stored[n.id] = _order(n)
                self.view[n.id] = n
                self._index_stored(n)
        for e in edges:
            self.edges.setdefault(e.id, e)
            if e.is_open:
                self.open_pairs.add((frozenset((e.from_id, e.to_id)), e.relation))

    def _want_key(self, key: str) -> None:
        if key.startswith("id:"):
            try:
                self._wanted.ids.add(uuid.UUID(key[3:]))
            except ValueError:  # no neuron's id: nothing to read
                pass
        elif key.startswith("file:"):
            self._wanted.files.add(key[5:])
        elif key.startswith(("email:", "phone:", "card:")):
            self._wanted.contacts = True
        else:
            kind, _, uid = key.partition(":uid:")
            self._wanted.uids.setdefault(Kind(kind), set()).add(uid)

    def _keys(self, n: Neuron) -> tuple[list[str], list[str], list[str]]:
        """(the keys of `n` whose first holder a lookup finds, those whose last, its phones' match keys)."""
        a = n.attrs
        first, last, numbers = [f"id:{n.id}"], [], []
        if a.get("uid"):
            last.append(f"{n.kind.value}:uid:{a['uid']}")
        if a.get("file"):
            last.append(f"file:{a['file']}")
        if n.kind is Kind.CONTACT:
            if not (a.get("uid") or _listed(a, "emails", "email") or _listed(a, "phones", "phone")):
                first.append(f"card:{_card_key(a)}")
            first += [f"email:{email.lower()}" for email in _listed(a, "emails", "email")]
            numbers = [phones.match_key(phone, self.region) for phone in _listed(a, "phones", "phone")]
        if n.kind is Kind.REMINDER and a.get("birthday_of"):
            try:
                last.append(f"birthday:{uuid.UUID(str(a['birthday_of']))}")
            except ValueError:  # edited by hand into something else: then it is no one's birthday
                pass
        return first, last, numbers

    def _index_stored(self, n: Neuron) -> None:
        place = self._stored[n.id]
        first, last, numbers = self._keys(n)
        for key in first:
            if key not in self._stored_first or place < self._stored_first[key][0]:
                self._stored_first[key] = (place, n.id)
        for key in last:
            if key not in self._stored_last or place > self._stored_last[key][0]:
                self._stored_last[key] = (place, n.id)
        for number in numbers:
            owners = self._stored_phones.setdefault(number, [])
            if (place, n.id) not in owners:
                bisect.insort(owners, (place, n.id))

    def _index(self, n: Neuron) -> None:
        """Index a planned neuron."""
        first, last, numbers = self._keys(n)
        for key in first:
            self._planned_first.setdefault(key, n.id)
        for key in last:
            self._planned_last[key] = n.id
        for number in numbers:
            owners = self._planned_phones.setdefault(number, [])
            if n.id not in owners:
                owners.append(n.id)

    def _holder(self, key: str) -> uuid.UUID | None:
        stored = self._stored_first.get(key)
        if stored is not None:
            return stored[1]
        planned = self._planned_first.get(key) or self._planned_last.get(key)
        if planned is not None:
            return planned
        stored = self._stored_last.get(key)
        return stored[1] if stored is not None else None

    def _phone_owners(self, number: str) -> list[uuid.UUID]:
        self._ensure(contacts=True)
        owners = [nid for _, nid in self._stored_phones.get(number, [])]
        return owners + [nid for nid in self._planned_phones.get(number, []) if nid not in owners]

    def _birthday_of(self, contact: uuid.UUID) -> uuid.UUID | None:
        # a stored contact's birthday reminders were read with it; a new one has none
        return self._holder(f"birthday:{contact}")

    def _ensure(self, ids: set[uuid.UUID] | None = None, contacts: bool = False) -> None:
        self._wanted.ids.update(ids or ())
        self._wanted.contacts |= contacts
        self.read()

    def holds(self, nid: uuid.UUID) -> bool:
        """Whether the memory (or the plan) holds this neuron."""
        self._ensure(ids={nid})
        return nid in self.view

    def has_link(self, edge_id: uuid.UUID) -> bool:
        """Whether the memory (or the plan) holds this link."""
        self._wanted.link_ids.add(edge_id)
        self.read()
        return edge_id in self.edges

    @contextmanager
    def item(self, label: str) -> Iterator[None]:
        """Plan one item: everything it puts is kept, or (on a Skip or bad input) none of it."""
        self._staged = []
        try:
            yield
        except Skip as exc:
            self.report.skip(exc.item, exc.why)
        except InvalidInput as exc:
            self.report.skip(label, str(exc))
        else:
            for apply in self._staged:
                apply()
        finally:
            self._staged = None

    def put(self, neuron: Neuron) -> Neuron:
        """Plan a neuron as it should be after the import (new, or an update of one by id)."""
        clean_text(neuron.body, what="the text")
        clean_attrs(neuron.attrs)
        self._put_ids.add(neuron.id)

        def apply() -> None:
            target = self.created if neuron.id in self.created or neuron.id not in self.view else self.updated
            target[neuron.id] = neuron
            self.view[neuron.id] = neuron
            self._index(neuron)

        self._stage(apply)
        return neuron

    def link(
        self, a: uuid.UUID, b: uuid.UUID, relation: Relation, *, how: str = "", edge: Edge | None = None
    ) -> None:
        """Plan a new link a -> b (none when an open one of that type joins them), or `edge`
        exactly as a file gives it."""
        if edge is None:
            if a == b or self.open_edge(a, b, relation):
                return
            edge = Edge(
                id=uuid.uuid4(), from_id=a, to_id=b, relation=relation, valid_from=self.now, derived_by=how
            )

        def apply() -> None:
            self.new_edges.append(edge)
            self.edges[edge.id] = edge
            if edge.is_open:
                self.open_pairs.add((frozenset((edge.from_id, edge.to_id)), edge.relation))

        self._stage(apply)

    def _stage(self, apply: Callable[[], None]) -> None:
        if self._staged is None:
            apply()
        else:
            self._staged.append(apply)

    def open_edge(self, a: uuid.UUID, b: uuid.UUID, relation: Relation) -> bool:
        # a stored link joins two stored neurons, and touches the first: its links are read then
        # (a neuron this plan makes has none)
        unknown = {x for x in (a, b) if x not in self._stored and x not in self._put_ids}
        if unknown:
            self._ensure(ids=unknown)
        if a in self._stored and b in self._stored and a not in self._done.links_of:
            self._wanted.links_of.add(a)
            self.read()
        return (frozenset((a, b)), relation) in self.open_pairs

    def find(self, *keys: str) -> Neuron | None:
        for key in keys:
            self._want_key(key)
        self.read()
        for key in keys:
            nid = self._holder(key)
            if nid is not None:
                return self.view[nid]
        return None

    def commit(self, all_or_nothing: bool = False) -> Report:
        """Write what was planned (one transaction); with all_or_nothing, any skip writes nothing."""
        if all_or_nothing and self.report.skipped:
            raise ImportRefused(self.report)
        self.read()  # (nothing read yet: the tables are checked before anything is written)
        self.memory.apply_import(list(self.created.values()), list(self.updated.values()), self.new_edges)
        return self.report

    # -- contacts ------------------------------------------------------------------------------

    def contact(self, label: str, attrs: dict[str, Any], written_at: datetime | None = None) -> None:
        """A card: create the contact, update the one it matches, or leave it unchanged; then
        its birthday reminder. `written_at`: when the card was written (its REV), None unknown."""
        existing = self._match_contact(attrs)
        how = f"{DERIVED_IMPORT}:vcard"
        if existing is not None and str(attrs.get("uid", "")).removeprefix("urn:uuid:") == str(existing.id):
            attrs = {k: v for k, v in attrs.items() if k != "uid"}  # our own export named it by id
        if existing is None:
            contact = self.put(
                Neuron(
                    id=uuid.uuid4(),
                    kind=Kind.CONTACT,
                    body=contact_body(attrs),
                    attrs=attrs,
                    created_at=self.now,
                    updated_at=self.now,
                )
            )
            self._stage(lambda: self.made_here.add(contact.id))
            outcome = "created"
        else:
            by_uid = bool(existing.attrs.get("uid")) and existing.attrs.get("uid") == attrs.get("uid")
            merged = dict(existing.attrs)
            if by_uid:
                for key in CARD_FIELDS:
                    merged.pop(key, None)
            merged.update(attrs)
            merged = self._keep_changed_here(existing, merged, written_at)
            if _but_form(merged) == _but_form(existing.attrs):  # said the same, written another way
                merged = dict(existing.attrs)
            # a body written from the card's fields is written again from the merged ones; one the
            # person wrote stays (so a second import of the same card finds nothing to change)
            written = not existing.body.strip() or existing.body == contact_body(existing.attrs)
            body = contact_body(merged) if written else existing.body
            contact = existing
            outcome = "unchanged"
            if merged != existing.attrs or body != existing.body:
                contact = self.put(
                    Neuron(
                        id=existing.id,
                        kind=Kind.CONTACT,
                        body=body,
                        attrs=merged,
                        state=existing.state,
                        created_at=existing.created_at,
                        updated_at=existing.updated_at,
                    )
                )
                self._supersede(existing, merged, how)
                outcome = "updated"
        if self._birthday(contact, how) and outcome == "unchanged":
            outcome = "updated"
        self.report.count(outcome)

    def match_contact(self, attrs: dict[str, Any]) -> Neuron | None:
        """The contact a card would update (what `contact` matches it to); None: a new one."""
        return self._match_contact(attrs)

    def _match_contact(self, attrs: dict[str, Any]) -> Neuron | None:
        uid = str(attrs.get("uid") or "")
        if uid:
            found = self.find(f"contact:uid:{uid}", f"id:{uid.removeprefix('urn:uuid:')}")
            if found is not None and found.kind is Kind.CONTACT:
                return found

        def other_card(found: Neuron) -> bool:  # two cards with their own UIDs are two people
            return bool(uid and found.attrs.get("uid") and found.attrs["uid"] != uid)

        if not (uid or attrs.get("emails") or attrs.get("phones")):
            # nothing that identifies a person: the same name and the same content are the same card
            found = self.find(f"card:{_card_key(attrs)}")
            if found is not None and found.kind is Kind.CONTACT:
                return found
        for email in attrs.get("emails") or []:
            found = self.find(f"email:{email.lower()}")
            if found is not None and not other_card(found):
                return found
        for phone in attrs.get("phones") or []:
            # of the contacts with this number, the one named most alike; never one another card
            # of this file made (two cards of one file are two people: a shared landline)
            owners = [self.view[i] for i in self._phone_owners(phones.match_key(phone, self.region))]
            alike = [
                found
                for found in owners
                if found.id not in self.made_here
                and not other_card(found)
                and _same_name(found.attrs.get("name"), attrs.get("name"))
            ]
            if alike:
                name = str(attrs.get("name") or "").lower()
                return max(
                    alike, key=lambda f: fuzz.token_sort_ratio(str(f.attrs.get("name") or "").lower(), name)
                )
        return None

    def _keep_changed_here(
        self, existing: Neuron, merged: dict[str, Any], written_at: datetime | None
    ) -> dict[str, Any]:
        """`merged` without a file's value in place of one the person changed after the file was
        written; when the file does not say when it was written, both (and the report says so)."""
        dates = dict(existing.attrs.get(CHANGED_HERE) or {})
        if not dates:
            return merged
        out = dict(merged)
        name = str(existing.attrs.get("name") or existing.title)
        for key, stamp in list(dates.items()):
            mine, theirs = existing.attrs.get(key), merged.get(key)
            if self._same_values(key, mine, theirs):
                continue
            try:
                changed = datetime.fromisoformat(str(stamp))
            except ValueError:  # edited by hand into something else: no date, the file decides
                changed = None
            if changed is None or (written_at is not None and written_at > changed):
                dates.pop(key)  # a newer value than the person's: the file's stands
                continue
            word = FIELD_WORDS.get(key, key)
            if mine in (None, "", []):  # the person took the value away: it stays away
                out.pop(key, None)
                why = (
                    f"its {word} was removed here on {changed:%Y-%m-%d}; "
                    f"the file's {shown_value(theirs)} was not taken"
                )
            elif theirs in (None, "", []):
                why = f"kept its {word} {shown_value(mine)}, changed here on {changed:%Y-%m-%d}"
                out[key] = mine
            elif written_at is not None:
                out[key] = mine
                why = (
                    f"kept its {word} {shown_value(mine)}, changed here after the file was written "
                    f"({written_at:%Y-%m-%d}); the file's {shown_value(theirs)} was not taken"
                )
            elif isinstance(mine, list) and isinstance(theirs, list):
                held = {self._phone_key(v) for v in mine} if key == "phones" else set()
                out[key] = [
                    *mine,
                    *(
                        v
                        for v in theirs
                        if v not in mine and (key != "phones" or self._phone_key(v) not in held)
                    ),
                ]
                why = (
                    f"kept both: {word} {shown_value(mine)} (changed here on {changed:%Y-%m-%d}) and "
                    f"{shown_value(theirs)} (from the file, which does not say when it was written)"
                )
            else:  # one value only: the person's stays, the file's is named
                out[key] = mine
                why = (
                    f"kept its {word} {shown_value(mine)} (changed here on {changed:%Y-%m-%d}); the file, "
                    f"which does not say when it was written, says {shown_value(theirs)}"
                )
            self._stage(functools.partial(self.report.keep, name, why))
        if dates:
            out[CHANGED_HERE] = dates
        else:
            out.pop(CHANGED_HERE, None)
        return out

    def _same_values(self, key: str, mine: Any, theirs: Any) -> bool:
        """Whether two values of a field are the same (phone numbers however they are written)."""
        if key != "phones" or not isinstance(mine, list) or not isinstance(theirs, list):
            return bool(mine == theirs)
        return [self._phone_key(p) for p in mine] == [self._phone_key(p) for p in theirs]

    def _phone_key(self, number: Any) -> str:
        return phones.match_key(str(number), self.region)

    def _supersede(self, old: Neuron, new_attrs: dict[str, Any], how: str) -> None:
        """Keep what a contact loses in an archived note it supersedes."""
        lost: dict[str, Any] = {}
        for key in FIELD_WORDS:
            before, after = old.attrs.get(key), new_attrs.get(key)
            if not before or before == after:
                continue
            if isinstance(before, list):
                if key == "phones":
                    kept = {phones.match_key(p, self.region) for p in after or []}
                    gone = [p for p in before if phones.match_key(str(p), self.region) not in kept]
                else:
                    gone = [v for v in before if v not in (after or [])]
                if gone:
                    lost[key] = gone
            else:
                lost[key] = before
        if not lost:
            return
        note = self.put(superseded_note(old, lost, self.now))
        self.link(old.id, note.id, Relation.SUPERSEDES, how=how)

    def _birthday(self, contact: Neuron, how: str) -> bool:
        """Create or move the contact's yearly birthday reminder; True when it changed one."""
        day = contact.attrs.get("birthday")
        if not day:
            return False
        year, month, dom = _birthday_parts(str(day))
        name = contact.attrs.get("name") or contact.title
        title = f"{name}'s birthday"
        rule = f"FREQ=YEARLY;BYMONTH={month};BYMONTHDAY={-1 if (month, dom) == (2, 29) else dom}"
        existing_id = self._birthday_of(contact.id)
        existing = self.view.get(existing_id) if existing_id else None
        body = title + (f" (born {year})" if year else "")
        if existing is not None and existing.attrs.get("rrule") == rule and existing.body == body:
            return False
        due = next_birthday(month, dom, self.now)
        attrs = {
            **(existing.attrs if existing else {}),
            "title": title,
            "birthday_of": str(contact.id),
            "due_at": due.isoformat(),
            "rrule": rule,
            "all_day": True,
        }
        for key in ("notified_at", "snoozed_until"):
            attrs.pop(key, None)
        if existing is not None:
            self.put(
                Neuron(
                    id=existing.id,
                    kind=Kind.REMINDER,
                    body=body,
                    attrs=attrs,
                    state=existing.state,
                    created_at=existing.created_at,
                    updated_at=existing.updated_at,
                )
            )
            return True
        reminder = self.put(
            Neuron(
                id=uuid.uuid4(),
                kind=Kind.REMINDER,
                body=body,
                attrs=attrs,
                created_at=self.now,
                updated_at=self.now,
            )
        )
        self.link(reminder.id, contact.id, Relation.CONCERNS, how=f"{DERIVED_IMPORT}:birthday")
        self.report.birthdays += 1
        return True

    # -- reminders -----------------------------------------------------------------------------

    def reminder(self, uid: str, body: str, attrs: dict[str, Any], state: State) -> None:
        existing = self.find(f"reminder:uid:{uid}", f"id:{uid}")
        if existing is not None and existing.kind is not Kind.REMINDER:
            existing = None
        if existing is None:
            self.put(
                Neuron(
                    id=uuid.uuid4(),
                    kind=Kind.REMINDER,
                    body=body,
                    attrs=attrs,
                    state=state,
                    created_at=self.now,
                    updated_at=self.now,
                )
            )
            self.report.count("created")
            return
        if existing.attrs.get("uid") != uid:
            attrs = {k: v for k, v in attrs.items() if k != "uid"}  # our own export named it by id
        if _meaning(existing.attrs) == _meaning(attrs) and existing.body == body and existing.state is state:
            self.report.count("unchanged")
            return
        merged = dict(attrs)
        if all(existing.attrs.get(k) == attrs.get(k) for k in SERIES_FIELDS) and "dtstart" in attrs:
            for key in ("due_at", *RUNTIME):  # the same series: keep where it has got to
                if key in existing.attrs:
                    merged[key] = existing.attrs[key]
        self.put(
            Neuron(
                id=existing.id,
                kind=Kind.REMINDER,
                body=body,
                attrs=merged,
                state=state,
                created_at=existing.created_at,
                updated_at=existing.updated_at,
            )
        )
        self.report.count("updated")

    # -- whole neurons (the Markdown vault) ----------------------------------------------------

    def neuron(self, neuron: Neuron) -> None:
        """A neuron with its own id (written by an export): created as it was, or updated."""
        self._ensure(ids={neuron.id})
        existing = self.view.get(neuron.id)
        if existing is None:
            self.put(neuron)
            self.report.count("created")
        elif (existing.kind, existing.body, existing.attrs, existing.state) == (
            neuron.kind,
            neuron.body,
            neuron.attrs,
            neuron.state,
        ):
            self.report.count("unchanged")
        elif existing.kind is not neuron.kind:
            raise InvalidInput(f"it is a {neuron.kind.value} here but a {existing.kind.value} in the memory")
        else:
            self.put(
                Neuron(
                    id=existing.id,
                    kind=existing.kind,
                    body=neuron.body,
                    attrs=neuron.attrs,
                    state=neuron.state,
                    created_at=existing.created_at,
                    updated_at=existing.updated_at,
                )
            )
            self.report.count("updated")

    def note(self, key: str, body: str, attrs: dict[str, Any], created_at: datetime | None) -> Neuron:
        """A hand-written note, found again by `key` (its path in the vault)."""
        existing = self.find(f"file:{key}")
        attrs = {**attrs, "file": key}
        if existing is None:
            self.report.count("created")
            return self.put(
                Neuron(
                    id=uuid.uuid4(),
                    kind=Kind.NOTE,
                    body=body,
                    attrs=attrs,
                    created_at=created_at or self.now,
                    updated_at=self.now,
                )
            )
        if existing.body == body and existing.attrs == {**existing.attrs, **attrs}:
            self.report.count("unchanged")
            return existing
        self.report.count("updated")
        return self.put(
            Neuron(
                id=existing.id,
                kind=existing.kind,
                body=body,
                attrs={**existing.attrs, **attrs},
                state=existing.state,
                created_at=existing.created_at,
                updated_at=existing.updated_at,
            )
        )


@dataclass
class _Reads:
    """What a plan asks the memory for (or has read)."""

    ids: set[uuid.UUID] = field(default_factory=set)
    uids: dict[Kind, set[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    contacts: bool = False
    links_of: set[uuid.UUID] = field(default_factory=set)
    link_ids: set[uuid.UUID] = field(default_factory=set)

    @property
    def empty(self) -> bool:
        return not (self.ids or self.uids or self.files or self.contacts or self.links_of or self.link_ids)

    def less(self, done: _Reads) -> _Reads:
        return _Reads(
            ids=self.ids - done.ids,
            uids={k: left for k, u in self.uids.items() if (left := u - done.uids.get(k, set()))},
            files=self.files - done.files,
            contacts=self.contacts and not done.contacts,
            links_of=self.links_of - done.links_of,
            link_ids=self.link_ids - done.link_ids,
        )

    def add(self, other: _Reads) -> None:
        self.ids |= other.ids
        for kind, uids in other.uids.items():
            self.uids.setdefault(kind, set()).update(uids)
        self.files |= other.files
        self.contacts |= other.contacts
        self.links_of |= other.links_of
        self.link_ids |= other.link_ids


def _order(n: Neuron) -> tuple[datetime | None, uuid.UUID]:
    """A stored neuron's place in the memory's order of creation (a snapshot's)."""
    return (n.created_at, n.id)


def _but_form(attrs: dict[str, Any]) -> dict[str, Any]:
    """What a card's attrs say, less how the card wrote it."""
    return {k: v for k, v in attrs.items() if k not in FORM}


def contact_body(attrs: dict[str, Any]) -> str:
    """The text of an imported contact: its name, where it works, its note."""
    lines = [str(attrs.get("name") or "")]
    work = " · ".join(str(attrs[k]) for k in ("org", "job_title") if attrs.get(k))
    if work:
        lines.append(work)
    if attrs.get("note"):
        lines.append(str(attrs["note"]))
    return "\n".join(lines)


def _listed(attrs: dict[str, Any], plural: str, single: str) -> list[str]:
    values = attrs.get(plural) or attrs.get(single) or []
    return [str(v) for v in (values if isinstance(values, list) else [values]) if v]


def _card_key(attrs: dict[str, Any]) -> str:
    """A card without UID, email or phone, known by its name and everything else it says."""
    fields = {k: attrs.get(k) for k in CARD_FIELDS if attrs.get(k) and k != "uid"}
    return json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str)


def _same_name(a: Any, b: Any) -> bool:
    if not a or not b:
        return True
    return fuzz.token_set_ratio(str(a).lower(), str(b).lower()) >= PHONE_MATCH_NAME_RATIO


def next_birthday(month: int, day: int, now: datetime) -> datetime:
    """The first BIRTHDAY_AT on that day (29 February: the last day of February) after `now`."""
    zone = remind.local_zone()
    year = now.astimezone(zone).year
    while True:
        last = calendar.monthrange(year, month)[1]
        when = datetime(year, month, min(day, last), *BIRTHDAY_AT, tzinfo=zone)
        if when > now:
            return when
        year += 1


def _birthday_parts(day: str) -> tuple[int | None, int, int]:
    if day.startswith("--"):
        month, dom = day[2:].split("-")
        return None, int(month), int(dom)
    year, month, dom = day.split("-")
    return int(year), int(month), int(dom)


def _meaning(attrs: dict[str, Any]) -> dict[str, Any]:
    """What a calendar says about a reminder, however it is written (not what firing it has done
    since): its start as an instant, its rule, zone and exceptions, the rest as stored."""
    start = attrs.get("dtstart") or attrs.get("due_at")
    out = {k: attrs.get(k) for k in MEANING_FIELDS}
    out["start"] = remind.parse_time(start) if start else None
    out["rrule"] = remind.rule_text(attrs["rrule"]) if attrs.get("rrule") else None
    for key in ("exdates", "rdates"):
        out[key] = sorted(remind.parse_time(v) for v in attrs.get(key) or [])
    zone = attrs.get("tz") or (None if attrs.get("floating") else remind.local_zone_name())
    out["tz"] = "UTC" if zone in remind.UTC_NAMES else zone
    return out
