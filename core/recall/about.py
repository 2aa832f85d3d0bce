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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from core.capture.names import NameIndex, contact_names
from core.model import EXPANDING_RELATIONS, Neuron, Relation
from core.recall.index import Entry, RecallIndex
from core.recall.ranking import SUPERSEDED_AFTER
from core.recall.result import ASKING_FOR_EVERYTHING, Result, content_words
from core.store.reader import Reader

# Below this pg_trgm similarity a name resolves to nobody.
RESOLVE_MIN_SIMILARITY = 0.3
# Two candidates closer than this in similarity are both offered (ambiguous).
AMBIGUITY_MARGIN = 0.1

# Order of a person's answer: the contact, its twins, what is linked to them, what names them,
# what is one hop further. Within a tier: newest first.
TIER_CONTACT, TIER_TWIN, TIER_LINKED, TIER_LINKED_CONTACT, TIER_NAMED, TIER_ORG, TIER_HOP = (
    7,
    6,
    5,
    4,
    3,
    2,
    1,
)
# Ways of asking about someone that hold no topic ("what's new with my sister?"), in the five
# languages
ABOUT_IDIOMS = re.compile(
    r"\bwhat(?:'s|’s| is)\s+(?:new|up|happening|the latest)\b|\bhow(?:'s|’s| is| are)\b"
    r"|\bthe latest\b|\bnews\b"
    # "o que há de novo com a mana?", "como está a Mãe?", "que é feito do Rui?", "novidades da Ana"
    r"|\b(?:o\s+)?que\s+h[aá]\s+de\s+novo\b|\bnovidades?\b|\bcomo\s+(?:est[aá]|vai|anda)\b"
    r"|\bque\s+[eé]\s+feito\b|\bo\s+que\s+se\s+passa\b"
    # "¿qué hay de mi jefe?", "¿qué sabes de mi hermano?", "¿qué tal mi madre?", "novedades"
    r"|\bqu[eé]\s+(?:hay|sabes|tal|es|pasa)\b|\bnovedad(?:es)?\b|\bc[oó]mo\s+(?:est[aá]|va|le\s+va)\b"
    # "was gibt's Neues von meiner Schwester?", "wie geht's Oma?", "Neuigkeiten von Lena"
    r"|\bwas\s+gibt(?:['’]s|\s+es)\s+neues\b|\bneuigkeiten\b|\bwie\s+geht(?:['’]s|\s+es)\b|\bwas\s+macht\b"
    # "quoi de neuf avec ma sœur ?", "comment va ma belle-mère ?", "des nouvelles de Paul"
    r"|\bquoi\s+de\s+neuf\b|\bnouvelles?\b|\bcomment\s+va\b",
    re.I,
)
# Ways of asking for a person's whole file, said loosely ("pull up Rosa", "info on my sister",
# "Rosa - what's in here", "the rundown on the accountant"), in the five languages: no topic.
ASKING_ABOUT = re.compile(
    r"\b(?:pull|bring|dig|look)\s+(?:up|out)\b|\b(?:give|show)\s+me\b|\bopen\b"
    r"|\b(?:notes?|details?|info(?:rmation)?|records?|files?|profile|summary|overview|rundown|lowdown|low-down"
    r"|scoop|dirt)\b|\bon\s+file\b|\bwhat(?:'s|’s|\s+is)\s+(?:in\s+)?(?:here|there)\b"
    r"|\bfala(?:-me)?\b|\bconta(?:-me)?\b|\bmostra(?:-me)?\b|\bdados\b|\binforma[cç](?:[aã]o|[oõ]es)\b|\bficha\b"
    r"|\bh[aá]blame\b|\bcu[eé]ntame\b|\bmu[eé]strame\b|\bdatos\b|\binformaci[oó]n\b"
    r"|\bzeig(?:e)?(?:\s+mir)?\b|\berz[aä]hl(?:e)?(?:\s+mir)?\b|\binfos?\b|\binformationen\b|\bdaten\b|\bakte\b"
    r"|\bmontre(?:-moi)?\b|\bparle(?:-moi)?\b|\binformations?\b|\bfiche\b|\bdossier\b|\bdonn[eé]es\b",
    re.I,
)
_Id = TypeVar("_Id", uuid.UUID, int)  # a neuron's id, or its slot in the index

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
            lines = [f'"{self.name}" could be several people:']
            lines += [f"  {c.title}  ({c.id})" for c in self.candidates]
            lines.append("ask again with the full name")
            return "\n".join(lines)
        if self.contact is None:
            if not self.timeline:
                return f'no contact matches "{self.name}", and nothing is written about it'
            return f'"{self.name}": what is written about it or linked to it\n\n' + self._lines()
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


def _names_of(entry: Entry) -> list[str]:
    attrs, body = entry.contact or ({}, "")
    name, aliases = contact_names(attrs, body)
    return [name, *aliases]


def _own_orgs(cards: list[Entry], orgs: dict[str, int]) -> set[str]:
    """The organisations of `cards` only one contact belongs to (`orgs`: how many contacts give
    each): such an organisation names that contact too."""
    attrs = [e.contact[0] for e in cards if e.contact]
    return {
        str(a["org"]).strip() for a in attrs if a.get("org") and orgs.get(str(a["org"]).strip().lower()) == 1
    }


def names_ahead(idx: RecallIndex) -> list[str]:
    """Every phrase a person's answer may look for (`names_to_look_for`), for anyone: each
    contact's names and aliases, what names one contact without doubt, and the organisations
    only one contact belongs to (the caller holds the index's lock). Their lexemes analysed
    ahead, the first answer about anyone the index finds reads the store once."""
    cards = [e for e in map(idx.entry, idx.contact_slots()) if e is not None and e.contact]
    phrases = _naming_phrases(cards, idx.names().contacts.values())
    return sorted(phrases | _own_orgs(cards, idx.org_counts()))


def _naming_phrases(cards: list[Entry], known: Iterable[Any]) -> set[str]:
    """The cards' names and aliases, and what names one of the `known` contacts without doubt (a
    first name no other contact has: "Rosa" says Rosa Martins)."""
    spoken = {ph for c in known for ph, strength in c.phrases if strength >= 2}
    return {ph for e in cards for ph in _names_of(e) if len(ph) >= 2} | spoken


def resolve(reader: Reader, idx: RecallIndex, name: str) -> tuple[list[uuid.UUID], bool]:
    """(contacts, ambiguous): the ids of the contacts `name` designates, best first (their rows
    are read with the answer's, not before)."""
    ids, ambiguous = resolve_in_index(idx, name)
    if ids:
        return ids, ambiguous
    similar = reader.contacts_like(name, RESOLVE_MIN_SIMILARITY)
    if not similar:
        return [], False
    top_sim = similar[0][1]
    close = [n.id for n, sim in similar if sim >= top_sim - AMBIGUITY_MARGIN]
    return close, len(close) > 1


def resolve_in_index(idx: RecallIndex, name: str) -> tuple[list[uuid.UUID], bool]:
    """`resolve` by the contacts' names the index holds: nobody when none answers to `name`."""
    with idx.reading():
        found = idx.names().find(name)
    if not found:
        return [], False
    best = max(f.strength for f in found)
    ids = list(dict.fromkeys(f.contact_id for f in found if f.strength == best))
    return ids, len(ids) > 1


def _about_people(
    reader: Reader, idx: RecallIndex, people: list[uuid.UUID], limit: int, orgs: dict[str, int] | None = None
) -> tuple[list[Result], list[Neuron]]:
    """Everything about `people` (one person, twins, or several asked together), best tier
    first -- for several, what is about all of them right after their cards; within a tier, what
    is about them alone before what names others too, then newest first. Links and names are
    followed in the index; only the rows of the answer are read."""
    about = _gathered(idx, people, limit, orgs, reader.phrase_lexemes)
    assert about is not None  # (the reader reads the lexemes it lacks)
    return about.answer(reader.neurons(about.wanted()))


def _gathered(idx: RecallIndex, people: list[uuid.UUID], limit: int, orgs: dict[str, int] | None, lexemes_of):
    """`people`'s answer gathered in the index, its rows not yet read; None when
    `lexemes_of(phrases)` gives None (their names' lexemes are not known without a read)."""
    about = _Gathering(idx, people)
    with idx.reading():
        about.linked_and_twins()
        phrases, own_orgs = about.names_to_look_for(orgs or {})
    lexemes = lexemes_of(phrases + own_orgs)
    if lexemes is None:
        return None
    with idx.reading():
        if about.generation != idx.generation:  # the index read the store meanwhile: its slots
            about = _Gathering(idx, people)
            about.linked_and_twins()
        about.naming(lexemes, phrases, own_orgs)
        about.one_hop()
        if len(people) > 1:
            about.about_all(lexemes)
        about.rank(limit)
    return about


class _Gathering:
    """What is about some people, gathered tier by tier (the caller holds the index's lock for
    each step), as the index's slots (no id made a neuron found): `found` is slot -> (tier, how
    it was found, the slot it was found from). Once ranked, the answer's ids (`ranking`) and
    what each was found from (`chosen`)."""

    def __init__(self, idx: RecallIndex, people: list[uuid.UUID]):
        self.idx, self.people = idx, people
        self.generation = idx.generation  # the slots below are this generation's
        self.found: dict[int, tuple[int, str, int | None]] = {}
        self.first: list[tuple[int, int, str]] = []  # the people's own links (`linked`)
        self.twins: list[uuid.UUID] = []
        self.selves: set[int] = set()  # the people and their twins
        self.counts: dict[int, int] = {}  # how many of what is about them link to a hop
        self.others: dict[int, set[int]] = {}  # the other people a neuron about them concerns
        self.shared: dict[int, set[uuid.UUID]] = {}  # of several people, those it is about
        self.ranking: list[uuid.UUID] = []  # the answer's ids, in its order (`rank`)
        # the answer's ids: (tier, how it was found, the id it was found from, hops to it)
        self.chosen: dict[uuid.UUID, tuple[int, str, uuid.UUID | None, int]] = {}
        self.slots: dict[uuid.UUID, int | None] = {}  # each id's slot, looked up once
        for p in people:
            slot = self.slot(p)
            if slot is not None:
                self.put(slot, TIER_CONTACT, "the contact")

    def put(self, slot: int, tier: int, how: str, seed: int | None = None) -> None:
        old = self.found.get(slot)
        if old is None or tier > old[0]:
            self.found[slot] = (tier, how, seed)

    def slot(self, nid: uuid.UUID) -> int | None:
        """The slot of a live neuron of the index (None for any other id), looked up once."""
        try:
            return self.slots[nid]
        except KeyError:
            slot = self.slots[nid] = self.idx.slot(nid)
            return slot

    def linked(self, seeds: list[int]) -> list[tuple[int, int, str]]:
        """(seed, the other end, the relation) of the open edges of `seeds` to live neurons."""
        found = self.idx.linked_slots(seeds)
        return [
            (seeds[at], other, relation)
            for at, other, relation in zip(found.owners, found.others, found.relations, strict=True)
            if other >= 0
        ]

    def linked_and_twins(self) -> None:
        """Their same_person twins, and what is linked to them or to a twin."""
        people = {s: p for p in self.people if (s := self.slot(p)) is not None}
        self.first = first = self.linked(list(people))
        twins = list(
            dict.fromkeys(
                other
                for _, other, relation in first
                if relation == Relation.SAME_PERSON and other not in people
            )
        )
        self.twins = self.idx.ids_at(twins)
        self.selves = set(people) | set(twins)
        second = self.linked(twins) if twins else []
        found, contact = self.found, self.idx.cols["contact"]
        for seed, other, _ in first:
            if other in self.selves and other not in people:
                self.put(other, TIER_TWIN, "same person as", seed)
        for seed, other, _ in first + second:
            old = found.get(other)
            if old is not None and old[0] >= TIER_TWIN:
                continue
            self.put(
                other,
                TIER_LINKED_CONTACT if contact[other] else TIER_LINKED,
                "linked to",
                seed if seed in found else None,
            )

    def names_to_look_for(self, orgs: dict[str, int]) -> tuple[list[str], list[str]]:
        """The names of their cards and twins', and the organisations only one contact belongs
        to (such an organisation names that contact too)."""
        selves = [*self.people, *self.twins]
        cards = [e for e in (self.idx.live(i) for i in selves) if e is not None and e.contact]
        known = self.idx.names().contacts
        phrases = _naming_phrases(cards, (known[i] for i in selves if i in known))
        return sorted(phrases), sorted(_own_orgs(cards, orgs))

    def naming(self, lexemes: dict[str, Any], phrases: list[str], own_orgs: list[str]) -> None:
        """What names them, or their own organisation."""
        idx = self.idx
        for slot in idx.holding_slots([ls for ph in phrases for ls in lexemes.get(ph, ())], self.found):
            self.put(slot, TIER_NAMED, "mentions them")
        if own_orgs:
            for slot in idx.holding_slots([ls for o in own_orgs for ls in lexemes.get(o, ())], self.found):
                self.put(slot, TIER_ORG, f"mentions {own_orgs[0]}")

    def one_hop(self) -> None:
        """One hop out from what is about them (the history too); other people named beside them
        are not facts about them, but what concerns others too is counted."""
        found = self.found
        around = [s for s, (t, _, _) in found.items() if t in (TIER_LINKED, TIER_NAMED, TIER_ORG, TIER_TWIN)]
        selves = self.selves
        contact = self.idx.cols["contact"]
        hop = self.idx.linked_slots(around, ABOUT_HOP_RELATIONS)
        for at, other in zip(hop.owners, hop.others, strict=True):
            if other < 0:
                continue
            seed = around[at]
            is_contact = bool(contact[other])
            if is_contact and other not in selves:
                self.others.setdefault(seed, set()).add(other)
            if other in found or is_contact:
                continue
            self.counts[other] = self.counts.get(other, 0) + 1
            self.put(other, TIER_HOP, "linked from", seed if seed in found else None)

    def about_all(self, lexemes: dict[str, Any]) -> None:
        """Several people asked about together ("what did Nuno do for Mãe?"): which of them each
        neuron is about (linked, or naming them), so what is about all of them comes first."""
        idx = self.idx
        people = {s: p for p in self.people if (s := self.slot(p)) is not None}
        for seed, other, _ in self.first:
            self.shared.setdefault(other, set()).add(people[seed])
        naming_of: dict[tuple, set[int]] = {}  # people of one name name the same neurons
        for p in self.people:
            person = idx.live(p)
            names = tuple(
                ls
                for ph in (_names_of(person) if person else [])
                if len(ph) >= 2
                for ls in lexemes.get(ph, ())
            )
            if names not in naming_of:
                naming_of[names] = idx.slots_holding(names) & self.found.keys()
            for slot in naming_of[names]:
                self.shared.setdefault(slot, set()).add(p)

    def rank(self, limit: int) -> None:
        """The first `limit` in the answer's order, the superseded rule kept (a card stays), and
        the ids of those and of what they were found from."""
        found, counts = self.found, self.counts
        slots = list(found)
        place = {s: i for i, s in enumerate(slots)}

        def each(values: dict[int, Any], size) -> np.ndarray:
            out = np.zeros(len(slots), dtype=np.int64)
            for s, value in values.items():
                if s in place:
                    out[place[s]] = size(value)
            return out

        tiers = np.fromiter((found[s][0] for s in slots), dtype=np.int64, count=len(slots))
        created = self.idx.cols["created"][np.asarray(slots, dtype=np.int64)]
        # best first: the cards (and twins), what is about more of them, the tier, what names
        # fewer others, more hops to it, newest; a tie keeps the order they were found in
        order = np.lexsort(
            (
                -created,
                -each(counts, int),
                each(self.others, len),
                -tiers,
                -each(self.shared, len),
                -np.where(tiers >= TIER_TWIN, tiers, 0),
            )
        )
        ranked = [slots[i] for i in order.tolist()]
        replaced = self.outdated(slots)
        chosen = _outdated_after(ranked, {s for s in replaced if found[s][0] < TIER_TWIN})[:limit]
        seeds = [seed for s in chosen if (seed := found[s][2]) is not None]
        need = list(dict.fromkeys([*chosen, *seeds]))
        ids = dict(zip(need, self.idx.ids_at(need), strict=True))
        self.ranking = [ids[s] for s in chosen]
        self.chosen = {}
        for s in chosen:
            tier, how, seed = found[s]
            self.chosen[ids[s]] = (tier, how, None if seed is None else ids[seed], counts.get(s, 0))

    def outdated(self, slots: list[int]) -> set[int]:
        """Those of `slots` a live neuron supersedes (`outdated` on the slots)."""
        asked = set(slots)
        replaced: set[int] = set()
        found = self.idx.linked_slots(slots, [Relation.SUPERSEDES])
        for at, other, going in zip(found.owners, found.others, found.outs, strict=True):
            here = slots[at]
            if other < 0 or other == here:
                continue
            if not going:
                replaced.add(here)
            elif other in asked:
                replaced.add(other)
        return replaced

    def wanted(self) -> list[uuid.UUID]:
        """The rows the answer reads: its own, of what each was found from, and the twins'."""
        chosen = self.chosen
        seeds = (seed for nid in self.ranking if (seed := chosen[nid][2]) is not None)
        return list(dict.fromkeys([*self.ranking, *seeds, *self.twins]))

    def answer(self, rows: dict[uuid.UUID, Neuron]) -> tuple[list[Result], list[Neuron]]:
        """The answer from the rows it read (`wanted`), each with why."""
        chosen = self.chosen
        results = []
        for nid in self.ranking:
            if nid not in rows:
                continue
            tier, how, seed, hops = chosen[nid]
            why = (
                f"{how} {rows[seed].title}"
                if seed in rows
                else ("linked" if seed or how.startswith("linked") else how)
            )
            results.append(Result(rows[nid], float(tier) + hops * 0.01, why))
        return results, [rows[t] for t in self.twins if t in rows]


def outdated(idx: RecallIndex, ids: list[uuid.UUID]) -> set[uuid.UUID]:
    """Those of `ids` a live neuron supersedes (the caller holds the index's lock)."""
    asked = set(ids)
    return {
        link.to_id
        for link in idx.links(ids, [Relation.SUPERSEDES])
        if link.to_id in asked and link.from_id != link.to_id and link.from_id in idx
    }


def defer_outdated(idx: RecallIndex, results: list[Result]) -> list[Result]:
    """The superseded rule on an answer made of a person's and what is like it: an outdated
    neuron (not a card) gives way to SUPERSEDED_AFTER current ones."""
    with idx.reading():
        old = outdated(idx, [r.neuron.id for r in results if r.neuron.kind.value != "contact"])
    order = _outdated_after([r.neuron.id for r in results], old)
    by_id = {r.neuron.id: r for r in results}
    return [by_id[i] for i in order]


def _outdated_after(ranked: list[_Id], outdated: set[_Id]) -> list[_Id]:
    """The superseded rule on a person's answer: what a newer neuron replaced is never among the
    first SUPERSEDED_AFTER; below that it keeps its place."""
    if not outdated.intersection(ranked):
        return ranked
    head = [nid for nid in ranked if nid not in outdated][:SUPERSEDED_AFTER]
    chosen = set(head)
    return head + [nid for nid in ranked if nid not in chosen]


def about(reader: Reader, idx: RecallIndex, name: str, limit: int = 50) -> About:
    """A person's answer in one round trip to the store when it did not change since the index
    last looked and their names were analysed before: the answer found in the index, then its
    rows read with the change stamp, which says whether the index was current (`_foreseen`).
    Else in two: the change stamp read with what the answer will ask of the store (`_ahead`),
    then the answer's rows -- with no transaction around them where the engine allows it."""
    with reader.session(alone=True):
        foreseen = _foreseen(reader, idx, name, limit)
        if foreseen is not None:
            seen, person = foreseen
            stamp, rows = reader.neurons_at_stamp(person.wanted())
            if stamp <= seen:
                return person.answer(rows)
        phrases, like = _ahead(idx, name)
        idx.refresh(reader, reader.look_ahead(phrases, like, RESOLVE_MIN_SIMILARITY))
        people, ambiguous = resolve(reader, idx, name)
        asked = _Person.of(idx, name, people, ambiguous, limit, reader.phrase_lexemes)
        assert asked is not None  # (the reader reads the lexemes it lacks)
        return asked.answer(reader.neurons(asked.wanted()))


def _foreseen(reader: Reader, idx: RecallIndex, name: str, limit: int) -> tuple[int, _Person] | None:
    """(the change number the index had seen, the answer it gives) when the index alone finds
    who `name` is and the reader knows their names' lexemes; else None (the store is asked)."""
    with idx.reading():
        seen = idx.seen_seq
        if seen is None:
            return None
        people, ambiguous = resolve_in_index(idx, name)
        if not people:
            return None
        person = _Person.of(idx, name, people, ambiguous, limit, reader.kept_lexemes)
    return None if person is None else (seen, person)


class _Person:
    """The answer about a name before its rows are read: nobody, the candidates to ask back, or
    a person's gathering."""

    def __init__(self, name: str, people: list[uuid.UUID], candidates: bool, gathering: _Gathering | None):
        self.name, self.people, self.candidates, self.gathering = name, people, candidates, gathering

    @classmethod
    def of(
        cls, idx: RecallIndex, name: str, people: list[uuid.UUID], ambiguous: bool, limit: int, lexemes_of
    ) -> _Person | None:
        """None when `lexemes_of` does not know the lexemes of their names."""
        if not people:
            return cls(name, [], False, None)
        if ambiguous:
            # twins are one person, not an ambiguity
            first = people[0]
            with idx.reading():
                same = {link.other for link in idx.links([first], [Relation.SAME_PERSON])}
            if not all(p in same | {first} for p in people):
                return cls(name, people, True, None)
        with idx.reading():
            orgs = idx.org_counts()
        gathering = _gathered(idx, [people[0]], limit, orgs, lexemes_of)
        return None if gathering is None else cls(name, people, False, gathering)

    def wanted(self) -> list[uuid.UUID]:
        """The rows the answer reads (the card's too: the answer's first row, unless cut)."""
        if self.gathering is None:
            return list(self.people)
        return list(dict.fromkeys([*self.gathering.wanted(), self.people[0]]))

    def answer(self, rows: dict[uuid.UUID, Neuron]) -> About:
        name, people = self.name, self.people
        if self.gathering is None:
            candidates = [rows[p] for p in people if p in rows] if self.candidates else []
            return About(name=name, contact=None, candidates=candidates)
        results, twins = self.gathering.answer(rows)
        # the card is the answer's first row; else it is read with the answer's rows
        contact = next((r.neuron for r in results if r.neuron.id == people[0]), None)
        if contact is None:
            contact = rows.get(people[0])
        if contact is None:
            return About(name=name, contact=None)
        return About(name=name, contact=contact, timeline=timeline(results), twins=twins)


def _ahead(idx: RecallIndex, name: str) -> tuple[list[str], str | None]:
    """What `about` will ask the store, as the index names it now: the phrases whose lexemes the
    person's answer looks for (their names, their own organisation); or, for a name no contact
    answers to in the index, that name, whose resembling contacts the store finds. Should the
    store have changed since, the answer asks again for what this missed."""
    with idx.reading():
        found = idx.names().find(name)
        if not found:
            return [], name
        best = max(f.strength for f in found)
        person = next(f.contact_id for f in found if f.strength == best)
        gathering = _Gathering(idx, [person])
        gathering.linked_and_twins()
        phrases, own_orgs = gathering.names_to_look_for(idx.org_counts())
    return phrases + own_orgs, None


def timeline(results: list[Result]) -> list[Result]:
    """An answer as a timeline: newest first."""
    return sorted(
        results, key=lambda r: r.neuron.created_at.timestamp() if r.neuron.created_at else 0.0, reverse=True
    )


def only_names(question: str, names: NameIndex) -> list:
    """The names a question gives when it asks about nothing else; [] when it holds a topic."""
    found = names.find(question)
    # every character a name covers becomes a space: several contacts answer to one name, and
    # one name holds another ("Ana" in "Ana Silva"), so cutting each span in turn cut the topic
    covered = bytearray(len(question))
    for f in found:
        covered[f.start : f.end] = b"\x01" * (f.end - f.start)
    rest = "".join(" " if hidden else ch for ch, hidden in zip(question, covered, strict=True))
    return (
        found
        if found
        and not content_words(
            ASKING_ABOUT.sub(" ", ASKING_FOR_EVERYTHING.sub(" ", ABOUT_IDIOMS.sub(" ", rest)))
        )
        else []
    )


def about_intent(
    reader: Reader,
    idx: RecallIndex,
    question: str,
    names: NameIndex,
    limit: int,
    orgs: dict[str, int] | None = None,
) -> list[Result] | None:
    """If the question only names people ("what do you know about Ana?"), their answer; else None."""
    found = only_names(question, names)
    if not found:
        return None
    best = max(f.strength for f in found)
    # every person named without doubt (a full name, an alias, a first name of one contact);
    # only weaker evidence (a typo, a shared first name) when there is nothing better
    floor = min(best, 2)
    with idx.reading():
        people = [
            i
            for i in dict.fromkeys(f.contact_id for f in found if f.strength >= floor)
            if idx.live(i) is not None
        ]
    if not people:
        return None
    results, _ = _about_people(reader, idx, people, limit, orgs)
    return results
