"""A contact card's details: the phones and emails it holds, a new one a text gives it
(`Update`), the card and text with it, and the archived note keeping what the card lost."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.model import Kind, Neuron, State


@dataclass(frozen=True)
class Update:
    """A new phone number or email for a known contact, offered as an update of their card."""

    contact_id: uuid.UUID
    name: str
    field: str  # "phones" | "emails"
    value: str

    @property
    def label(self) -> str:
        return (
            f"Update {self.name.split()[0] if self.name else 'contact'}: "
            f"{'phone' if self.field == 'phones' else 'email'} {self.value}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "contact_id": str(self.contact_id),
            "name": self.name,
            "field": self.field,
            "value": self.value,
            "label": self.label,
        }


def digits_of(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-9:]


# How a person reads each contact field whose old value is kept when the card changes.
FIELD_WORDS = {
    "name": "name",
    "aliases": "nickname",
    "phones": "phone",
    "emails": "email",
    "addresses": "address",
    "org": "organisation",
    "job_title": "job title",
    "role": "role",
    "birthday": "birthday",
    "anniversary": "anniversary",
    "note": "note",
    "urls": "web page",
}


# attrs key of a contact: when the person last changed each field ({"phones": ISO instant}), so
# that a value they changed is never replaced by an older one from a file or a server.
CHANGED_HERE = "changed_here"


def stamped(before: dict[str, Any], after: dict[str, Any], now: datetime) -> dict[str, Any]:
    """`after` with today's date for each field the person changed from `before`."""
    changed = [k for k in FIELD_WORDS if before.get(k) != after.get(k)]
    if not changed:
        return after
    dates = dict(after.get(CHANGED_HERE) or {})
    dates.update({k: now.isoformat() for k in changed})
    return {**after, CHANGED_HERE: dates}


def shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(shown(v) for v in value)
    if isinstance(value, dict):
        return " ".join(str(v) for k, v in value.items() if k != "label")
    return str(value)


def superseded_note(card: Neuron, lost: dict[str, Any], now: datetime) -> Neuron:
    """An archived note holding what a contact card lost when it changed (the card supersedes
    it), so the old number or address stays findable without competing with the current one."""
    name = card.attrs.get("name") or card.title
    parts = [f"{FIELD_WORDS.get(k, k)} {shown(v)}" for k, v in lost.items()]
    return Neuron(
        id=uuid.uuid4(),
        kind=Kind.NOTE,
        state=State.ARCHIVED,
        body=f"{name}, until {now:%Y-%m-%d}: " + "; ".join(parts),
        attrs={"superseded": lost, "contact": str(card.id)},
        created_at=now,
        updated_at=now,
    )


def updated_card(card: Neuron, update: Update) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the card's attrs with the update's value in place of the first value of its field, what
    the card loses): "Ana's new number is …" replaces her number, other numbers stay."""
    single = {"phones": "phone", "emails": "email"}[update.field]
    held = listed(card.attrs, update.field, single)
    attrs = dict(card.attrs)
    attrs.pop(single, None)
    attrs[update.field] = [update.value, *held[1:]]
    return attrs, ({update.field: held[:1]} if held else {})


# A phone number as people write one in a text: digits with spaces, dashes, dots or brackets.
PHONE_IN_TEXT = re.compile(r"\+?\d[\d\s\-./()]{5,}\d")


def updated_body(card: Neuron, update: Update) -> str:
    """The card's text with the value the update replaces written as the new one ("Ana Lima
    +351 911 …" says her new number), however the old number was spaced; else as it was."""
    single = {"phones": "phone", "emails": "email"}[update.field]
    held = listed(card.attrs, update.field, single)
    if not held:
        return card.body
    if update.field == "emails":
        return re.sub(re.escape(held[0]), lambda _m: update.value, card.body, flags=re.I)
    old = digits_of(held[0])

    def swapped(match: re.Match[str]) -> str:
        digits = digits_of(match.group())
        return update.value if len(digits) >= 7 and digits == old else match.group()

    return PHONE_IN_TEXT.sub(swapped, card.body)


def contact_values(attrs: dict[str, Any], field: str) -> list[str]:
    """A card's phones or emails (`field`), the primary first: its list, else the single value
    an older card holds."""
    return listed(attrs, field, {"phones": "phone", "emails": "email"}[field])


def listed(attrs: dict[str, Any], plural: str, single: str) -> list[str]:
    values = attrs.get(plural) or attrs.get(single) or []
    return [str(v) for v in (values if isinstance(values, list) else [values])]
