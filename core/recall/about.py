"""about(name): resolve a person, then everything linked to them and one hop out, as a timeline.

Resolution: the contacts' names, first names, aliases ("the dentist", "Dr K"), then a typo (pg_trgm
similarity). Two different people who answer to the name are returned as `candidates` to ask back.
Gathering: the contact, its same_person twins, every neuron linked to them (concerns, relates_to,
supersedes: a newer fact about them is about them), every neuron that names them in its text, and
one hop out from those along relates_to/concerns/same_person.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from core.capture.names import NameIndex, contact_names, org_counts
from core.model import EXPANDING_RELATIONS, Kind, Neuron, Relation
from core.recall.result import Result, content_words
from core.store.reader import Reader

# Below this pg_trgm similarity a name resolves to nobody.
RESOLVE_MIN_SIMILARITY = 0.3
# Two candidates closer than this in similarity are both offered (ambiguous).
AMBIGUITY_MARGIN = 0.1

# Order of a person's answer: the contact, its twins, what is linked to them, what names them,
# what is one hop further. Within a tier: newest first.
TIER_CONTACT, TIER_TWIN, TIER_LINKED, TIER_LINKED_CONTACT, TIER_NAMED, TIER_ORG, TIER_HOP = (
    7, 6, 5, 4, 3, 2, 1)
# Ways of asking about someone that hold no topic ("what's new with my sister?")
ABOUT_IDIOMS = re.compile(r"\bwhat(?:'s|’s| is)\s+(?:new|up|happening|the latest)\b|\bhow(?:'s|’s| is| are)\b"
                          r"|\bthe latest\b|\bnews\b", re.I)
# One hop out from what is about them: the usual links, and the history (supersedes).
ABOUT_HOP_RELATIONS = (*EXPANDING_RELATIONS, Relation.SUPERSEDES)


@dataclass
class About:
    name: str
    contact: Neuron | None
    candidates: list[Neuron] = field(default_factory=list)
    timeline: list[Result] = field(default_factory=list)
    twins: list[Neuron] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "contact": self.contact.to_json() if self.contact else None,
            "twins": [t.to_json() for t in self.twins],
            "candidates": [c.to_json() for c in self.candidates],
            "timeline": [r.to_json() for r in self.timeline],
        }

    def render(self) -> str:
        if self.contact is None and self.candidates:
            lines = [f"\"{self.name}\" could be several people:"]
            lines += [f"  {c.title}  ({c.id})" for c in self.candidates]
            lines.append("ask again with the full name")
            return "\n".join(lines)
        if self.contact is None:
            return f"no contact matches \"{self.name}\"" + (
                "" if not self.timeline else "; neurons that mention it:\n" + self._lines())
        head = [self.contact.title]
        for key in ("aliases", "phones", "phone", "emails", "email", "org", "birthday"):
            value = self.contact.attrs.get(key)
            if value:
                head.append(f"  {key}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
        if self.twins:
            head.append("  same person as: " + ", ".join(t.title for t in self.twins))
        return "\n".join(head) + ("\n\n" + self._lines() if self.timeline else "\n\n(nothing else yet)")

    def _lines(self) -> str:
        out = []
        for r in self.timeline:
            when = r.neuron.created_at.strftime("%Y-%m-%d") if r.neuron.created_at else "          "
            out.append(f"{when}  {r.neuron.kind.value:<8} {r.neuron.title}   [{r.why}]")
        return "\n".join(out)


def _names_of(n: Neuron) -> list[str]:
    name, aliases = contact_names(n.attrs, n.body)
    return [name, *aliases]


def resolve(reader: Reader, name: str) -> tuple[list[Neuron], bool]:
    """(contacts, ambiguous): the contacts `name` designates, best first."""
    contacts = {c.id: c for c in reader.contacts()}
    index = NameIndex((c.id, c.attrs, c.body) for c in contacts.values())
    found = index.find(name)
    if found:
        best = max(f.strength for f in found)
        top = [contacts[f.contact_id] for f in found if f.strength == best]
        return top, len(top) > 1
    similar = reader.contacts_like(name, RESOLVE_MIN_SIMILARITY)
    if not similar:
        return [], False
    top_sim = similar[0][1]
    close = [n for n, sim in similar if sim >= top_sim - AMBIGUITY_MARGIN]
    return close, len(close) > 1


def _gather(reader: Reader, people: list[Neuron], limit: int,
            orgs: dict[str, int] | None = None) -> tuple[list[Result], list[Neuron]]:
    """Everything about `people` (one person, twins, or several asked together), best tier
    first -- for several, what is about all of them right after their cards; within a tier, what
    is about them alone before what names others too, then newest first."""
    entries: dict[uuid.UUID, tuple[int, Neuron, str]] = {}

    def put(n: Neuron, tier: int, why: str) -> None:
        old = entries.get(n.id)
        if old is None or tier > old[0]:
            entries[n.id] = (tier, n, why)

    for p in people:
        put(p, TIER_CONTACT, "the contact")
    ids = [p.id for p in people]
    twins: list[Neuron] = []
    with reader.session():
        first = reader.links(ids)
        twin_ids = [link.neuron.id for link in first
                    if link.edge.relation is Relation.SAME_PERSON and link.neuron.id not in ids]
        second = reader.links(twin_ids) if twin_ids else []
        for link in first:
            if link.neuron.id in twin_ids:
                twins.append(link.neuron)
                put(link.neuron, TIER_TWIN, f"same person as {entries[link.seed][1].title}")
        for link in first + second:
            n = link.neuron
            if n.id in entries and entries[n.id][0] >= TIER_TWIN:
                continue
            seed = entries[link.seed][1] if link.seed in entries else None
            tier = TIER_LINKED_CONTACT if n.kind is Kind.CONTACT else TIER_LINKED
            put(n, tier, f"linked to {seed.title}" if seed else "linked")
        phrases = sorted({ph for p in [*people, *twins] if p.kind is Kind.CONTACT
                          for ph in _names_of(p) if len(ph) >= 2})
        for n in reader.naming(phrases, exclude=list(entries), limit=200):
            put(n, TIER_NAMED, "mentions them")
        # an organisation only one contact belongs to names that contact too
        own_orgs = sorted({str(p.attrs.get("org")).strip() for p in [*people, *twins]
                           if p.attrs.get("org") and (orgs or {}).get(str(p.attrs["org"]).strip().lower()) == 1})
        if own_orgs:
            for n in reader.naming(own_orgs, exclude=list(entries), limit=200):
                put(n, TIER_ORG, f"mentions {own_orgs[0]}")
        around = [i for i, (t, _, _) in entries.items()
                  if t in (TIER_LINKED, TIER_NAMED, TIER_ORG, TIER_TWIN)]
        hops = reader.links(around, relations=ABOUT_HOP_RELATIONS)
    counts: dict[uuid.UUID, int] = {}
    others: dict[uuid.UUID, set] = {}  # the other people a neuron about them concerns
    selves = set(ids) | {t.id for t in twins}
    for link in hops:
        n = link.neuron
        if n.kind is Kind.CONTACT and n.id not in selves:
            others.setdefault(link.seed, set()).add(n.id)
        if n.id in entries or n.kind is Kind.CONTACT:
            continue  # other people named beside them are not facts about them
        counts[n.id] = counts.get(n.id, 0) + 1
        seed = entries.get(link.seed)
        put(n, TIER_HOP, f"linked from {seed[1].title}" if seed else "linked")
    # several people asked about together ("what did Nuno do for Mãe?"): what is about all of
    # them first, after their cards
    shared: dict[uuid.UUID, set[uuid.UUID]] = {}
    if len(people) > 1:
        for link in first:
            if link.seed in ids:
                shared.setdefault(link.neuron.id, set()).add(link.seed)
        for p in people:
            words = [w.lower() for w in _names_of(p) if len(w) >= 2]
            for _, n, _ in entries.values():
                if any(w in n.body.lower() for w in words):
                    shared.setdefault(n.id, set()).add(p.id)
    ranked = sorted(entries.values(), key=lambda e: (
        -(e[0] if e[0] >= TIER_TWIN else 0), -len(shared.get(e[1].id, ())), -e[0],
        len(others.get(e[1].id, ())), -counts.get(e[1].id, 0),
        -(e[1].created_at.timestamp() if e[1].created_at else 0.0)))
    results = [Result(n, float(tier) + (counts.get(n.id, 0) * 0.01), why) for tier, n, why in ranked]
    return results[:limit], twins


def about(reader: Reader, name: str, limit: int = 50) -> About:
    people, ambiguous = resolve(reader, name)
    if not people:
        return About(name=name, contact=None)
    if ambiguous:
        # twins are one person, not an ambiguity
        first = people[0]
        links = reader.links([first.id], relations=[Relation.SAME_PERSON])
        same = {link.neuron.id for link in links} | {first.id}
        if not all(p.id in same for p in people):
            return About(name=name, contact=None, candidates=people)
        people = [first]
    orgs = org_counts(c.attrs for c in reader.contacts())
    results, twins = _gather(reader, people[:1], limit, orgs)
    timeline = sorted(results, key=lambda r: r.neuron.created_at.timestamp()
                      if r.neuron.created_at else 0.0, reverse=True)
    return About(name=name, contact=people[0], timeline=timeline, twins=twins)


def about_intent(reader: Reader, question: str, names: NameIndex, limit: int,
                 orgs: dict[str, int] | None = None) -> list[Result] | None:
    """If the question only names people ("what do you know about Ana?"), their answer; else None."""
    found = names.find(question)
    if not found:
        return None
    rest = question
    for f in sorted(found, key=lambda f: -f.start):
        rest = rest[:f.start] + " " + rest[f.end:]
    if content_words(ABOUT_IDIOMS.sub(" ", rest)):
        return None
    best = max(f.strength for f in found)
    # every person named without doubt (a full name, an alias, a first name of one contact);
    # only weaker evidence (a typo, a shared first name) when there is nothing better
    floor = min(best, 2)
    ids = list(dict.fromkeys(f.contact_id for f in found if f.strength >= floor))
    contacts = reader.neurons(ids)
    people = [contacts[i] for i in ids if i in contacts]
    if not people:
        return None
    results, _ = _gather(reader, people, limit, orgs)
    return results
