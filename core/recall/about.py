"""about(name): resolve a person, then everything linked to them and one hop out, as a timeline.

Resolution: the contacts' names, first names, aliases ("the dentist", "Dr K"), then a typo (pg_trgm
similarity). Two different people who answer to the name are returned as `candidates` to ask back.
Gathering: the contact, its same_person twins, every neuron linked to them (concerns, relates_to,
supersedes: a newer fact about them is about them), every neuron that names them in its text, and
one hop out from those along relates_to/concerns/same_person.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.capture.names import NameIndex, contact_names
from core.model import EXPANDING_RELATIONS, Kind, Neuron, Relation
from core.recall.search import Result, content_words
from core.store import recall_sql
from core.store.queries import neuron_from_row

if TYPE_CHECKING:
    from core.memory import Memory

# Below this pg_trgm similarity a name resolves to nobody.
RESOLVE_MIN_SIMILARITY = 0.3
# Two candidates closer than this in similarity are both offered (ambiguous).
AMBIGUITY_MARGIN = 0.1

# Order of a person's answer: the contact, its twins, what is linked to them, what names them,
# what is one hop further. Within a tier: newest first.
TIER_CONTACT, TIER_TWIN, TIER_LINKED, TIER_LINKED_CONTACT, TIER_NAMED, TIER_ORG, TIER_HOP = (
    7, 6, 5, 4, 3, 2, 1)
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


def resolve(memory: Memory, name: str) -> tuple[list[Neuron], bool]:
    """(contacts, ambiguous): the contacts `name` designates, best first."""
    with memory.store.reading(memory.identity) as cur:
        rows = recall_sql.contacts(cur, memory.identity)
    contacts = {r["id"]: neuron_from_row(r) for r in rows}
    index = NameIndex((c.id, c.attrs, c.body) for c in contacts.values())
    found = index.find(name)
    if found:
        best = max(f.strength for f in found)
        top = [contacts[f.contact_id] for f in found if f.strength == best]
        return top, len(top) > 1
    with memory.store.reading(memory.identity) as cur:
        rows = recall_sql.find_contacts(cur, memory.identity, name, RESOLVE_MIN_SIMILARITY)
    if not rows:
        return [], False
    top_sim = rows[0]["sim"]
    close = [neuron_from_row(r) for r in rows if r["sim"] >= top_sim - AMBIGUITY_MARGIN]
    return close, len(close) > 1


def org_counts(contacts) -> dict[str, int]:
    """How many contacts give each organisation (lower case)."""
    counts: dict[str, int] = {}
    for attrs in contacts:
        org = str((attrs or {}).get("org") or "").strip().lower()
        if org:
            counts[org] = counts.get(org, 0) + 1
    return counts


def _gather(memory: Memory, people: list[Neuron], limit: int,
            orgs: dict[str, int] | None = None) -> tuple[list[Result], list[Neuron]]:
    """Everything about `people` (one person, or twins), best tier first; within a tier, what is
    about them alone before what names several people, then newest first."""
    entries: dict[uuid.UUID, tuple[int, Neuron, str]] = {}

    def put(n: Neuron, tier: int, why: str) -> None:
        old = entries.get(n.id)
        if old is None or tier > old[0]:
            entries[n.id] = (tier, n, why)

    for p in people:
        put(p, TIER_CONTACT, "the contact")
    ids = [p.id for p in people]
    twins: list[Neuron] = []
    with memory.store.reading(memory.identity) as cur:
        first = recall_sql.links_of(cur, memory.identity, ids)
        twin_ids = [r["id"] for r in first if r["e_relation_type"] == Relation.SAME_PERSON.value
                    and r["id"] not in ids]
        second = recall_sql.links_of(cur, memory.identity, twin_ids) if twin_ids else []
        for r in first:
            if r["id"] in twin_ids:
                n = neuron_from_row(r)
                twins.append(n)
                put(n, TIER_TWIN, f"same person as {entries[r['seed']][1].title}")
        for r in first + second:
            n = neuron_from_row(r)
            if n.id in entries and entries[n.id][0] >= TIER_TWIN:
                continue
            seed = entries[r["seed"]][1] if r["seed"] in entries else None
            tier = TIER_LINKED_CONTACT if n.kind is Kind.CONTACT else TIER_LINKED
            put(n, tier, f"linked to {seed.title}" if seed else "linked")
        phrases = sorted({ph for p in [*people, *twins] if p.kind is Kind.CONTACT
                          for ph in _names_of(p) if len(ph) >= 2})
        named = recall_sql.mentions(cur, memory.identity, phrases, exclude=list(entries), limit=200)
        for r in named:
            put(neuron_from_row(r), TIER_NAMED, "mentions them")
        # an organisation only one contact belongs to names that contact too
        own_orgs = sorted({str(p.attrs.get("org")).strip() for p in [*people, *twins]
                           if p.attrs.get("org") and (orgs or {}).get(str(p.attrs["org"]).strip().lower()) == 1})
        if own_orgs:
            for r in recall_sql.mentions(cur, memory.identity, own_orgs, exclude=list(entries), limit=200):
                put(neuron_from_row(r), TIER_ORG, f"mentions {own_orgs[0]}")
        around = [i for i, (t, _, _) in entries.items()
                  if t in (TIER_LINKED, TIER_NAMED, TIER_ORG, TIER_TWIN)]
        hops = recall_sql.links_of(cur, memory.identity, around, relations=ABOUT_HOP_RELATIONS)
    counts: dict[uuid.UUID, int] = {}
    others: dict[uuid.UUID, set] = {}  # the other people a neuron about them concerns
    selves = set(ids) | {t.id for t in twins}
    for r in hops:
        if r["kind"] == Kind.CONTACT.value and r["id"] not in selves:
            others.setdefault(r["seed"], set()).add(r["id"])
        if r["id"] in entries or r["kind"] == Kind.CONTACT.value:
            continue  # other people named beside them are not facts about them
        counts[r["id"]] = counts.get(r["id"], 0) + 1
        seed = entries.get(r["seed"])
        put(neuron_from_row(r), TIER_HOP, f"linked from {seed[1].title}" if seed else "linked")
    ranked = sorted(entries.values(), key=lambda e: (
        -e[0], len(others.get(e[1].id, ())), -counts.get(e[1].id, 0),
        -(e[1].created_at.timestamp() if e[1].created_at else 0.0)))
    results = [Result(n, float(tier) + (counts.get(n.id, 0) * 0.01), why) for tier, n, why in ranked]
    return results[:limit], twins


def about(memory: Memory, name: str, limit: int = 50) -> About:
    people, ambiguous = resolve(memory, name)
    if not people:
        return About(name=name, contact=None)
    if ambiguous:
        # twins are one person, not an ambiguity
        first = people[0]
        with memory.store.reading(memory.identity) as cur:
            links = recall_sql.links_of(cur, memory.identity, [first.id], relations=[Relation.SAME_PERSON])
        same = {r["id"] for r in links} | {first.id}
        if not all(p.id in same for p in people):
            return About(name=name, contact=None, candidates=people)
        people = [first]
    with memory.store.reading(memory.identity) as cur:
        orgs = org_counts(r["attrs"] for r in recall_sql.contacts(cur, memory.identity))
    results, twins = _gather(memory, people[:1], limit, orgs)
    timeline = sorted(results, key=lambda r: r.neuron.created_at.timestamp()
                      if r.neuron.created_at else 0.0, reverse=True)
    return About(name=name, contact=people[0], timeline=timeline, twins=twins)


def about_intent(memory: Memory, question: str, names: NameIndex, limit: int,
                 orgs: dict[str, int] | None = None) -> list[Result] | None:
    """If the question only names people ("what do you know about Ana?"), their answer; else None."""
    found = names.find(question)
    if not found:
        return None
    rest = question
    for f in sorted(found, key=lambda f: -f.start):
        rest = rest[:f.start] + " " + rest[f.end:]
    if content_words(rest):
        return None
    best = max(f.strength for f in found)
    ids = list(dict.fromkeys(f.contact_id for f in found if f.strength == best))
    contacts = memory.get_many(ids)
    people = [contacts[i] for i in ids if i in contacts]
    if not people:
        return None
    results, _ = _gather(memory, people, limit, orgs)
    return results
