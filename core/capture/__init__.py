"""Capture that understands: text -> kind, due dates, mentions of contacts, derived edges.

Contract used by Memory.capture and Memory.preview: `read(reader, text, kind, attrs, now) ->
Understanding`, whose `edges_for(neuron)` Memory inserts in the same transaction as the neuron.
Capture only reads (through core.store.reader's narrow protocol); every write is Memory's. No LLM:
patterns for dates and contact details, the contacts' names for mentions. Every derived edge says
what derived it (`derived_by`), so the person can close it.

The rooms: `understand.py` reads a text, `cards.py` a contact card's details and their updates,
`offers.py` what the person accepts (`same_person_offers`: two contacts that look like one person;
`supersede_offers`: older neurons a new one may replace), `changes.py` a note that gives a new
value of what an older note holds (a rate, a fee, a room, an address, a price, a day), `names.py`
and `kinship.py` the names of people. This face hands on what the rest of the house imports.
"""

from __future__ import annotations

from core.capture.cards import (
    CHANGED_HERE,
    FIELD_WORDS,
    Update,
    contact_values,
    shown,
    stamped,
    superseded_note,
    updated_body,
    updated_card,
)
from core.capture.changes import Change, changed_from
from core.capture.offers import Offer, same_person_offers, supersede_offers
from core.capture.understand import (
    DERIVED_CHANGED,
    DERIVED_MENTION,
    DERIVED_MOVED,
    DERIVED_NEW_DETAIL,
    DERIVED_REFERRED,
    DERIVED_SAME_PERSON,
    Understanding,
    earlier_mentions,
    infer_kind,
    parse_contact,
    read,
    reminder_title,
)

__all__ = [
    "CHANGED_HERE",
    "Change",
    "DERIVED_CHANGED",
    "DERIVED_MENTION",
    "DERIVED_MOVED",
    "DERIVED_NEW_DETAIL",
    "DERIVED_REFERRED",
    "DERIVED_SAME_PERSON",
    "FIELD_WORDS",
    "Offer",
    "Understanding",
    "earlier_mentions",
    "Update",
    "changed_from",
    "contact_values",
    "infer_kind",
    "parse_contact",
    "read",
    "reminder_title",
    "same_person_offers",
    "shown",
    "stamped",
    "supersede_offers",
    "superseded_note",
    "updated_body",
    "updated_card",
]
