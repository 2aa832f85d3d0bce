"""What a contact card shows beside the fields one edits: every other field a vCard brought
(addresses, the phones' and e-mails' labels, anniversary, spouse...), in words, to read and copy."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

# What the card says for a kept vCard property, by its name without a vendor's prefix (else that
# name in words). Evolution, Outlook, KAddressBook write the same fields under their own prefix.
VENDORS = ("X-EVOLUTION-", "X-MS-", "X-KADDRESSBOOK-", "X-MOZILLA-", "X-GOOGLE-", "X-")
EXTRA_WORDS = {
    "SPOUSE": "Spouse",
    "ASSISTANT": "Assistant",
    "MANAGER": "Manager",
    "ANNIVERSARY": "Anniversary",
    "BDAY": "Birthday",  # a birthday in words ("circa 1800"), kept as written
    "ABRELATEDNAMES": "Related",
    "ABDATE": "Date",
    "IMPP": "Chat",
    "IMADDRESS": "Chat",
    "GENDER": "Gender",
    "TZ": "Time zone",
    "GEO": "Location",
    "LANG": "Language",
    "FBURL": "Free/busy",
    "CALURI": "Calendar",
    "CALADRURI": "Invitations to",
    "PHONETIC-FIRST-NAME": "Name, as said",
    "PHONETIC-MIDDLE-NAME": "Middle name, as said",
    "PHONETIC-LAST-NAME": "Surname, as said",
}
CHATS = {"AIM", "ICQ", "JABBER", "SKYPE", "MSN", "YAHOO", "SIP", "GADUGADU", "GROUPWISE", "TWITTER"}
# Kept for the export, said nothing to a person: ids, sort keys, a program's own data, labels of
# other lines, media, the address label that repeats the address, a card inside the card.
UNSAID = frozenset(
    """X-ABLABEL X-ABUID X-ABSHOWAS X-ABADR CLIENTPIDMAP X-EVOLUTION-FILE-AS X-MOZILLA-HTML SOURCE
    KEY SOUND LOGO KIND XML MEMBER SORT-STRING X-ABPERSON X-ABGROUP CLASS MAILER LABEL AGENT
    X-MS-OL-DESIGN X-MS-OL-DEFAULT-POSTAL-ADDRESS X-ID X-ETAG ETAG X-EVOLUTION-LIST
    X-EVOLUTION-LIST-SHOW-ADDRESSES""".split()
)
UNSAID_PREFIXES = ("X-COUCHDB-", "X-FC", "X-MS-OL-")
# Address types that say how it is used, not whose it is.
ADDRESS_NOISE = {"pref", "postal", "parcel", "dom", "intl"}


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


def labelled(values: list[str], labels: dict[str, str], shown: list[str] | None = None) -> str:
    """'cell 911 …  ·  work +44 20 …' when the card says what each is ('' otherwise); `shown`:
    the values as the card shows them (labels are keyed by the stored ones)."""
    if not any(labels.get(v) for v in values):
        return ""
    said = shown or values
    return "  ·  ".join(f"{labels[v]} {s}" if labels.get(v) else s for v, s in zip(values, said, strict=True))


def address(parts: dict[str, Any]) -> str:
    from core.interop.vcard import ADR_PARTS  # noqa: PLC0415 - loaded after the window's first paint

    return ", ".join(str(parts[k]) for k in ADR_PARTS if parts.get(k))


def rows(attrs: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) of every field of a card the pane does not edit, as a person reads them."""
    out: list[tuple[str, str]] = []
    for key, label in SHOWN:
        if attrs.get(key):
            out.append((label, text(attrs[key])))
    for parts in attrs.get("addresses") or []:
        if isinstance(parts, dict) and address(parts):
            kinds = [k for k in str(parts.get("label") or "").split(",") if k and k not in ADDRESS_NOISE]
            out.append((f"Address ({', '.join(kinds)})" if kinds else "Address", address(parts)))
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
    from core.interop.vcard import CardError, parse_line, unescape  # noqa: PLC0415 - loaded after the window's first paint

    try:
        prop = parse_line(line.encode("utf-8"))
    except CardError as exc:
        log.debug("a kept vCard line is not read: %s", exc)
        return None
    value = unescape(prop.value).strip()
    if (
        prop.name in UNSAID
        or prop.name.startswith(UNSAID_PREFIXES)
        or not value
        or value.startswith(("<", "BEGIN:"))
    ):
        return None
    if prop.name == "RELATED":
        kind = prop.types[0] if prop.types else "related"
        return kind.replace("-", " ").capitalize(), _uri_free(value)
    name = next((prop.name.removeprefix(v) for v in VENDORS if prop.name.startswith(v)), prop.name)
    if name in CHATS:
        return f"Chat ({name.capitalize()})", _uri_free(value)
    label = EXTRA_WORDS.get(name) or name.replace("-", " ").capitalize()
    return label, _uri_free(value) if name in ("IMPP", "IMADDRESS") else value


def _uri_free(value: str) -> str:
    """'xmpp:ana@example.org' -> 'ana@example.org' (the scheme says nothing to a person)."""
    scheme, sep, rest = value.partition(":")
    return (
        rest
        if sep and scheme.lower() in ("xmpp", "skype", "sip", "aim", "icq", "msnim", "ymsgr", "urn", "tel")
        else value
    )
