"""What a contact card shows beside the fields one edits: every other field a vCard brought
(addresses, the phones' and e-mails' labels, anniversary, spouse...), in words, to read and copy."""

from __future__ import annotations

import logging
from typing import Any

from core.interop.vcard import ADR_PARTS, CardError, parse_line, unescape

log = logging.getLogger(__name__)

# What the card says for a kept vCard property (its name without "X-" otherwise, in words).
EXTRA_WORDS = {
    "X-SPOUSE": "Spouse",
    "X-ASSISTANT": "Assistant",
    "X-MANAGER": "Manager",
    "X-ABRELATEDNAMES": "Related",
    "X-ABDATE": "Date",
    "IMPP": "Chat",
    "GENDER": "Gender",
    "TZ": "Time zone",
    "GEO": "Location",
    "LANG": "Language",
    "X-PHONETIC-FIRST-NAME": "Name, as said",
    "X-PHONETIC-LAST-NAME": "Surname, as said",
}
# Kept for the export, said nothing to a person: ids, sort keys, labels of other lines, media.
UNSAID = frozenset(
    """X-ABLABEL X-ABUID X-ABSHOWAS X-ABADR CLIENTPIDMAP X-EVOLUTION-FILE-AS X-MOZILLA-HTML SOURCE
    KEY SOUND LOGO KIND XML MEMBER SORT-STRING X-ABPERSON X-ABGROUP""".split()
)
# Fields shown as they are, in the order of a card (the editable ones are the pane's).
SHOWN = [
    ("job_title", "Job title"),
    ("role", "Role"),
    ("org_units", "Department"),
    ("anniversary", "Anniversary"),
]


def text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def labelled(values: list[str], labels: dict[str, str]) -> str:
    """'cell +351 911 …  ·  work +351 213 …' when the card says what each is ('' otherwise)."""
    if not any(labels.get(v) for v in values):
        return ""
    return "  ·  ".join(f"{labels[v]} {v}" if labels.get(v) else v for v in values)


def address(parts: dict[str, Any]) -> str:
    return ", ".join(str(parts[k]) for k in ADR_PARTS if parts.get(k))


def rows(attrs: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) of every field of a card the pane does not edit, as a person reads them."""
    out: list[tuple[str, str]] = []
    for key, label in SHOWN:
        if attrs.get(key):
            out.append((label, text(attrs[key])))
    for parts in attrs.get("addresses") or []:
        if isinstance(parts, dict) and address(parts):
            kind = str(parts.get("label") or "")
            out.append((f"Address ({kind})" if kind else "Address", address(parts)))
    for url in attrs.get("urls") or []:
        out.append(("Web", str(url)))
    for line in attrs.get("vcard_extra") or []:
        said = extra(str(line))
        if said is not None:
            out.append(said)
    return out


def extra(line: str) -> tuple[str, str] | None:
    """A kept vCard line in words ('X-SPOUSE:Rui' -> ('Spouse', 'Rui')); None for what says
    nothing to a person."""
    try:
        prop = parse_line(line.encode("utf-8"))
    except CardError as exc:
        log.debug("a kept vCard line is not read: %s", exc)
        return None
    if prop.name in UNSAID or not prop.value.strip():
        return None
    if prop.name == "RELATED":
        kind = prop.types[0] if prop.types else "related"
        label = kind.replace("-", " ").capitalize()
    else:
        label = EXTRA_WORDS.get(prop.name) or prop.name.removeprefix("X-").replace("-", " ").capitalize()
    value = unescape(prop.value).strip()
    if prop.name in ("IMPP", "RELATED"):
        value = value.split(":", 1)[-1] if value.startswith(("xmpp:", "skype:", "urn:", "sip:")) else value
    return label, value
