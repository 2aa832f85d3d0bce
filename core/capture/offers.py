"""Offers the person accepts: two contacts that look like one person (`same_person_offers`)
and older neurons a new one may replace (`supersede_offers`); Memory.accept_same_person and
Memory.mark_superseded accept them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from core.capture.cards import digits_of, listed
from core.capture.names import contact_names
from core.capture.understand import read
from core.model import Neuron, Relation
from core.store.reader import Reader

# Two contacts look like one person when their names are this similar (rapidfuzz token ratio).
SAME_PERSON_NAME_RATIO = 90


@dataclass
class Offer:
    a: Neuron
    b: Neuron
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "a": str(self.a.id),
            "b": str(self.b.id),
            "a_title": self.a.title,
            "b_title": self.b.title,
            "reason": self.reason,
        }


def _looks_like_one(a: Neuron, b: Neuron) -> str | None:
    na, aa = contact_names(a.attrs, a.body)
    nb, ab = contact_names(b.attrs, b.body)
    pa = {digits_of(p) for p in listed(a.attrs, "phones", "phone") if len(digits_of(p)) >= 7}
    pb = {digits_of(p) for p in listed(b.attrs, "phones", "phone") if len(digits_of(p)) >= 7}
    if pa & pb:
        return "same phone number"
    ea = {e.lower() for e in listed(a.attrs, "emails", "email")}
    eb = {e.lower() for e in listed(b.attrs, "emails", "email")}
    if ea & eb:
        return "same email"
    names_a = {x.lower() for x in [na, *aa] if x}
    names_b = {x.lower() for x in [nb, *ab] if x}
    if names_a & names_b:
        return "same name"
    if na and nb and fuzz.token_sort_ratio(na.lower(), nb.lower()) >= SAME_PERSON_NAME_RATIO:
        return "nearly the same name"
    # "Olly B" and Oliver Brandt (alias Olly): a shared first name or alias and the same initial
    ta, tb = na.lower().split(), nb.lower().split()
    if (
        len(ta) >= 2
        and len(tb) >= 2
        and ta[-1][:1] == tb[-1][:1]
        and (
            (len(ta[-1]) == 1 or len(tb[-1]) == 1)
            and ({ta[0]} | {x.lower().split()[0] for x in aa if x.split()})
            & ({tb[0]} | {x.lower().split()[0] for x in ab if x.split()})
        )
    ):
        return "same first name and initial"
    return None


def same_person_offers(reader: Reader, contact_id: uuid.UUID | None = None) -> list[Offer]:
    """Pairs of contacts that look like one person and are not linked as such yet."""
    contacts = reader.contacts()
    linked = reader.links([c.id for c in contacts], relations=[Relation.SAME_PERSON])
    done = {frozenset((link.seed, link.neuron.id)) for link in linked}
    offers = []
    for i, a in enumerate(contacts):
        for b in contacts[i + 1 :]:
            if contact_id is not None and contact_id not in (a.id, b.id):
                continue
            if frozenset((a.id, b.id)) in done:
                continue
            reason = _looks_like_one(a, b)
            if reason:
                offers.append(Offer(a, b, reason))
    return offers


def supersede_offers(reader: Reader, neuron: Neuron) -> list[Offer]:
    """Older neurons a neuron may replace: the contact whose phone/email it changes, the reminder
    it moves. Capture links the clear cases itself; this lists them for the person to confirm."""
    u = read(reader, neuron.body, neuron.kind, dict(neuron.attrs), now=neuron.created_at, exclude=neuron.id)
    olds = reader.neurons([old for old, _ in u.replaces])
    return [Offer(neuron, olds[old], how) for old, how in u.replaces if old in olds]
