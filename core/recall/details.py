"""A question for a person's detail ("what's Ana's number", "Klaus phone number", "qual é o
e-mail da Rita"): the field it asks for (`asked_field`), the people whose field it is
(`detail_asked`), and their cards put first in the answer, with the current value (`cards_first`).

A card is where the current value lives: a value it lost is kept in an archived note the card
supersedes, so the card first means no superseded value ranks above the current one."""

from __future__ import annotations

import re
import uuid

from core.capture.names import NameIndex
from core.recall.result import Result, content_words
from core.store.reader import Reader
from core.when import fold

# The field a question asks for ("plumber phone number" -> the phone), in the five languages
# (folded: no accents). A cue of several words is looked for in the text, one word among its words.
ASKED_FIELDS = {
    "phones": ("phone", "number", "mobile", "cell", "call", "telefone", "telemovel", "numero", "telefono",
               "movil", "celular", "telefon", "handy", "nummer", "telephone", "portable", "phonenumber",
               "telefonnummer", "handynummer", "rufnummer", "mobilnummer", "tel", "tlm", "contacto",
               "contato"),
    "emails": ("email", "e-mail", "mail", "correo", "courriel", "adresse mail", "emailadresse",
               "e-mail-adresse", "mailadresse", "adresse electronique", "endereco eletronico",
               "endereco electronico", "direccion electronica"),
    "addresses": ("address", "where does", "lives", "morada", "endereco", "direccion", "adresse", "wohnt",
                  "anschrift", "domicilio", "mora", "vive", "habite", "wohnadresse"),
    "birthday": ("birthday", "born", "aniversario", "cumpleanos", "geburtstag", "anniversaire", "bday",
                 "nascimento", "nacimiento", "naissance", "faz anos", "geburtsdatum"),
}  # fmt: skip

# Cues that ask for a field only beside it, never alone ("call Ana" asks nothing of her card).
# ("o contacto da Ana" is her number: her card, the contact, answers it)
_NOT_ALONE = frozenset({"call", "lives", "born", "tel", "tlm", "mora", "vive", "habite"})

# Words a detail question may hold beside a name and a field ("Ana's new number", "her work
# e-mail", "the full address"): anything else names a topic ("Ana's order number").
QUALIFIERS = frozenset(
    """new current latest old previous home work private personal office full postal street
    mobile cell landline direct number phone whatsapp contact details give send tell
    novo nova atual actual neue neuen aktuelle nouveau nouvelle actuel
    electronico electronica electronique date fecha data""".split()
)


# French and Italian elision before a name ("d'Ana", "l'adresse de Jean")
_ELIDED = re.compile(r"\b([dlDL])['’](?=[^\W\d_])")


def asked_field(question: str) -> str | None:
    """The field of a contact card the question asks for ("phones", "emails", "addresses",
    "birthday"), or None."""
    text = fold(_ELIDED.sub(r"\1 ", question))  # "l'anniversaire": its word
    words = set(re.findall(r"[\w'-]+", text))
    for field, cues in ASKED_FIELDS.items():
        if any((c in words) if " " not in c else (c in text) for c in cues):
            return field
    return None


_CUES = frozenset(c for cues in ASKED_FIELDS.values() for c in cues if " " not in c)
# ... and their parts, as a question's content words come ("e-mail": "e", "mail")
_CUE_PARTS = _CUES | {part for c in _CUES for part in c.split("-")}


def _field_words(text: str) -> set[str]:
    """The words of `text` that are cues of a field on their own."""
    text = _ELIDED.sub(r"\1 ", text)
    words = {w[:-1] if w.endswith("s") and w[:-1] in _CUES else w for w in re.findall(r"[\w'-]+", fold(text))}
    return {w for w in words if w in _CUES and w not in _NOT_ALONE}


def detail_asked(question: str, names: NameIndex) -> list[uuid.UUID]:
    """The people whose detail the question asks for ("what's Ana's number": Ana), in the order
    named; [] when it asks for no field, names no one without doubt, or asks about something
    more than their detail ("Ana's order number")."""
    if not _field_words(question):
        return []
    question = _ELIDED.sub(r"\1 ", question)  # "le numéro d'Ana": Ana
    found = [f for f in names.find(question) if f.strength >= 2]
    if not found:
        return []
    rest = question
    for f in sorted(found, key=lambda f: -f.start):
        rest = rest[: f.start] + " " + rest[f.end :]
    named = {fold(w).lower() for f in found for w in re.findall(r"[\w'’-]+", f.text)}
    allowed = _CUE_PARTS | QUALIFIERS | named
    left = [
        w
        for w in map(fold, content_words(rest))
        if w not in allowed and w.removesuffix("s") not in allowed and len(w) > 1
    ]
    return list(dict.fromkeys(f.contact_id for f in found)) if not left else []


def holds(attrs: dict, field: str | None) -> bool:
    """Whether a card's attrs hold a value of `field` (any field when None)."""
    if field is None:
        return True
    single = {"phones": "phone", "emails": "email", "addresses": "address", "birthday": "bday"}[field]
    return bool(attrs.get(field) or attrs.get(single))


def cards_first(
    reader: Reader, results: list[Result], people: list[uuid.UUID], limit: int, field: str | None = None
) -> list[Result]:
    """The answer with the cards of `people` that hold the `field` asked for first (read when
    the answer lacks them), never folded as loosely related, then the rest in its order, `limit`
    in all. A card without the field leaves the answer as it is: its value is written elsewhere."""
    by_id = {r.neuron.id: r for r in results}
    missing = [p for p in people if p not in by_id]
    rows = reader.neurons(missing) if missing else {}
    best = max((r.score for r in results), default=0.0)
    cards = []
    for p in people:
        found = by_id.get(p)
        neuron = found.neuron if found is not None else rows.get(p)
        if (
            neuron is None
            or neuron.kind.value != "contact"
            or neuron.state.value != "active"
            or not holds(neuron.attrs, field)
        ):
            continue
        parts = found.parts if found is not None else {}
        cards.append(Result(neuron, max(best, found.score if found else 0.0), "the contact asked for", parts))
    if not cards:
        return results
    kept = {c.neuron.id for c in cards}
    return (cards + [r for r in results if r.neuron.id not in kept])[:limit]
