"""A note that gives a new value of something an older note holds: "Lia is 15 an hour now" after
"Lia babysat Saturday night, 10/h", "New desk is 5C" after "Work desk moved to 4B", "Elm Road sold
for 428k" after "Elm Road asking price lowered to 435k". No LLM: the values a short note states
(a rate an hour or a month, a sum, a percentage, a code keyed in, a labelled number such as a
room or a parking space, a desk's code, an address, a weekday), each of a kind, and the words the
two notes share around them.

`changed_from(text, older)` -> the newest of `older` whose value of a kind the new note states
again, differently, about the same thing, and the kind (what the `supersedes` link says changed).
The new note says it changed ("now", "new", "went up", "agora", "subiu" ...), and the two share
a content word besides the value (a sum: two, since sums are everywhere). Both notes are short:
a long text tells a story, it rarely restates a fact.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from core.when import fold, words

# A note longer than this (in words) is not read for a changed value, new or old.
MAX_WORDS = 30

_NUM = r"-?\d+(?:[.,]\d+)?"

# a number said per hour / per month, in the languages capture reads
_PER_HOUR = (
    r"(?:/\s?h(?:r|our)?\b|\s?p/h\b|\s?an hour|\s?a hour|\s?per hour|\s?hourly|\s?(?:à|a|por|la|de la) hora"
    r"|\s?(?:pro|die|in der) stunde|\s?/\s?std\b|\s?(?:de l'|par |l')heure)"
)
_PER_MONTH = (
    r"(?:\s?/\s?(?:month|mo|mes|mês|monat|mois)\b|\s?a month|\s?per month|\s?monthly|\s?pcm\b"
    r"|\s?(?:por|ao|al|cada) (?:mês|mes)|\s?(?:im|pro) monat|\s?monatlich|\s?par mois|\s?mensuel)"
)
_CURRENCY = r"(?:[£$€]|\b(?:eur|euros?|gbp|usd|pounds?|dollars?|reais|r\$)\b)"
_SCALE = r"(?:\s?(?:k|m|mil|mio|million|thousand|grand)\b)"

RATE_HOUR = re.compile(rf"{_CURRENCY}?\s?({_NUM})\s?{_CURRENCY}?\s?(?:{_PER_HOUR})", re.I)
RATE_MONTH = re.compile(rf"{_CURRENCY}?\s?({_NUM})\s?{_CURRENCY}?{_SCALE}?\s?(?:{_PER_MONTH})", re.I)
SUM = re.compile(
    rf"(?:{_CURRENCY}\s?({_NUM}){_SCALE}?|\b({_NUM})\s?(?:{_CURRENCY}|{_SCALE}))",
    re.I,
)
# a number after what it numbers: "Room 3", "lugar 47", "platform 9", "gate B12"
LABELS = (
    "room", "desk", "seat", "bay", "locker", "gate", "platform", "table", "office", "flat", "suite",
    "lugar", "sala", "quarto", "mesa", "gabinete", "sitio", "sítio", "plaza", "habitación", "zimmer",
    "platz", "raum", "salle", "bureau", "chambre", "bureau",
)  # fmt: skip
LABELLED = re.compile(
    r"\b(" + "|".join(sorted(set(LABELS), key=len, reverse=True)) + r")\s?(?:no\.?|n\.?º|number|nº|#)?\s?"
    r"([a-z]?-?\d+[a-z]?)\b",
    re.I,
)
# a code someone keys in: "alarm code 7731#", "the gate is now 7316", "código do portão: 9902"
KEYED = re.compile(
    r"\b(?:codes?|pin|passcode|combination|keypad|código|codigo|clave|zugangscode|digicode)\b", re.I
)
KEYED_VALUE = re.compile(r"(?<![\w/-])(?<!\d[.,])(\d{3,8})#?(?![\w/%-]|[.,]\d)")
PERCENT = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?%")
CODE = re.compile(r"(?<![\w-])(\d{1,3}[A-Z])(?![\w-])")  # a desk's or a room's code: 4B, 12C
POSTCODE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|\d{4}-\d{3}|\d{5})\b")
STREET = re.compile(
    r"\b(\d+[a-z]?\s+(?:[A-Z][\w'’-]+\s+){1,3}(?:Road|Rd|Lane|Ln|Close|Street|St|Avenue|Ave|Drive|Dr|Way"
    r"|Place|Crescent|Court|Terrace|Gardens|Grove|Square|Boulevard|Blvd)"
    r"|(?:Rua|Avenida|Av\.|Travessa|Largo|Praça|Calle|Avenida|Plaza|Paseo|Rue|Boulevard|Avenue|Allée"
    r"|Chemin)\s+(?:(?:d[aoe]s?|de la|del|du)\s+)?[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*,?\s+\d+"
    r"|[A-Z][\w-]*(?:straße|strasse|weg|platz|allee|gasse)\s+\d+)\b"
)
_WEEKDAYS = {
    name: day
    for name, day in words.WEEKDAYS.items()
    if len(name) >= 5 and name not in words.ALL.ambiguous_weekdays
}
WEEKDAY = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _WEEKDAYS), key=len, reverse=True)) + r")s?\b")

# what a new note says when a fact changed (folded: no accents)
CHANGE_CUES = re.compile(
    fold(
        r"\b(now|new|changed?|changes|moved|moving|moves|goes up|going up|goes to|bumped|upped|went up"
        r"|gone up|up to|down to|raised|lowered|reduced|increased"
        r"|dropped|sold|instead|from now on|no longer|switched|agora|novo|nova|novos|novas|mudou|mudamos"
        r"|mudaram|subiu|subiram|baixou|baixaram|passou|passa a|vendid[oa]|ahora|nuev[oa]s?|cambi[oó]"
        r"|subi[oó]|baj[oó]|jetzt|neue?[rsn]?|geändert|umgezogen|erhöht|gesenkt|maintenant|nouveau|nouvelle"
        r"|changé|augmenté|baissé|déménagé)\b"
    ),
    re.I,
)

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_STOP = frozenset(
    fold(w)
    for w in """a an the and or of to in on at for with by from is are was were be been it its this that
    my me i you he she we they his her our their there here so but if as up out just now new old
    our paid pay spent bought got get has have had said says per hour month week year day today
    o os as um uma uns umas de do da dos das em no na nos nas por para com que e é foi ao aos à às
    pelo pela meu minha nosso nossa seu sua hoje mês mes hora agora novo nova mais
    el la los las un una del al y en con por para es fue mi su hoy ahora nuevo nueva
    der die das ein eine und im am zum zur mit für ist war mein dein heute jetzt neu neue
    le les un une des du et au aux avec pour est était mon ma mes aujourd hui maintenant nouveau""".split()
)


@dataclass(frozen=True)
class Stated:
    """The values a note states, by kind, and its content words."""

    values: dict[str, frozenset[str]]
    words: frozenset[str]


# kinds whose value alone says little (a sum, a bare number): the notes must share two words
WEAK = frozenset({"sum"})


def _number(raw: str) -> str:
    return raw.replace(",", ".").lstrip("0") or "0"


def stated(text: str) -> Stated | None:
    """What a short note states (None: no value of any kind, or too long to be a fact)."""
    if len(text.split()) > MAX_WORDS:
        return None
    values: dict[str, set[str]] = {}
    taken: list[tuple[int, int]] = []

    def add(kind: str, value: str, span: tuple[int, int]) -> None:
        if any(s < span[1] and span[0] < e for s, e in taken):
            return  # a number already read as a value of a stronger kind
        taken.append(span)
        values.setdefault(kind, set()).add(value)

    for m in RATE_HOUR.finditer(text):
        add("rate", _number(m.group(1)), m.span())
    for m in RATE_MONTH.finditer(text):
        add("monthly", _number(m.group(1)), m.span())
    for m in STREET.finditer(text):
        add("address", fold(re.sub(r"[\d\s,.]+", " ", m.group(1))).strip(), m.span())
    for m in POSTCODE.finditer(text):
        add("address", m.group(1).replace(" ", "").upper(), m.span())
    for m in LABELLED.finditer(text):
        add("place", f"{fold(m.group(1))}:{m.group(2).upper()}", m.span())
    for m in CODE.finditer(text):
        add("place", m.group(1), m.span())
    if KEYED.search(text):
        for m in KEYED_VALUE.finditer(text):
            add("code", m.group(1), m.span())
    for m in PERCENT.finditer(text):
        add("percent", _number(m.group(1)), m.span())
    for m in SUM.finditer(text):
        add("sum", _number(m.group(1) or m.group(2)), m.span())
    folded = fold(text)
    for m in WEEKDAY.finditer(folded):
        add("day", str(_WEEKDAYS[m.group(1)]), m.span())
    if not values:
        return None
    content = frozenset(
        w[:-1] if len(w) > 4 and w.endswith("s") else w
        for w in (fold(w) for w in _WORD.findall(text))
        if len(w) > 2 and w not in _STOP and w not in _WEEKDAYS and not CHANGE_CUES.fullmatch(w)
    )
    return Stated({k: frozenset(v) for k, v in values.items()}, content)


def changed_kind(new: Stated, old: Stated) -> str | None:
    """The kind of value the new note (one that says something changed) restates differently
    about what the old one is about."""
    shared = len(new.words & old.words)
    if shared == 0:
        return None
    for kind in ("rate", "monthly", "code", "percent", "place", "address", "day", "sum"):
        a, b = new.values.get(kind), old.values.get(kind)
        if not a or not b or not (a - b):
            continue
        if kind in WEAK and shared < 2:
            continue
        return kind
    return None


@dataclass(frozen=True)
class Change:
    older: uuid.UUID
    kind: str  # what changed: rate, monthly, code, percent, place, address, day, sum


def changed_from(text: str, older: Iterable[tuple[uuid.UUID, str]]) -> Change | None:
    """The newest of `older` ((id, text), newest first) whose value the new note changes."""
    if not CHANGE_CUES.search(fold(text)):
        return None  # a fact restated without saying it changed: two facts, perhaps both true
    new = stated(text)
    if new is None:
        return None
    for oid, body in older:
        old = stated(body)
        if old is None:
            continue
        kind = changed_kind(new, old)
        if kind is not None:
            return Change(oid, kind)
    return None
