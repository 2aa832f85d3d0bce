"""Finding contacts in text: full name, first name, alias, "Dr <surname>", a typo of a name.

One `NameIndex` over an identity's contacts serves capture (mentions -> concerns edges) and recall
(is this question about a person? which one?). Plain Python over rapidfuzz: an identity has
hundreds of contacts, not millions.
"""

from __future__ import annotations

import bisect
import re
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, process

from core.capture.kinship import WORDS, relations_of
from core.when.words import alt, fold

# A typo of a name counts when at least this similar (rapidfuzz ratio, 0-100) and long enough.
FUZZY_MIN_RATIO = 85
FUZZY_MIN_LENGTH = 5
# Names that are also everyday words match only when written with a capital letter.
COMMON_WORD_NAMES = frozenset(
    """
    will may mark bill rose grace hope joy faith summer dawn june april august art pat sue
    jack ray frank rich lily iris ruby amber jade sky river rob bob sunny holly ivy max
    """.split()
)
# Kinship words used as aliases ("Mum", "Dad") name the person's own relative only when written
# as a name: capitalised, and not someone else's ("his mum", "Jonah's dad").
KINSHIP = frozenset(
    """
    mum mom mam mummy mommy mother dad daddy father papa pa ma mama nan nana gran granny grandma
    grandpa grandad granddad auntie aunt uncle sis bro
    """.split()
)
NOT_MINE = frozenset("his her their your our its".split())
# "my mother", "minha mãe", "mi madre", "meine Mutter", "ma mère": a family word after one of
# these names the person's own relative, whatever language the contact's alias is in
MY = frozenset("my minha meu minhas meus mi mis mein meine meiner meinem meinen ma mon".split())
_KIN_RE = re.compile(rf"(?<![\w-])(?:{alt(WORDS)})(?![\w-])")
# "o meu contabilista", "mi jefe", "el jefe", "der Chef", "le plombier", "fui ao oftalmologista",
# "beim Zahnarzt", "chez le kiné": a one-word role a contact
# is known by (an alias, "o contabilista"; or what its card says after the name, "Carlos Ruiz -
# jefe", "Dani (mi pareja)") names them after a possessive or one of these articles, alone or
# with a preposition (not English "a", "the": "a dentist" is anyone's; "the accountant" is an
# alias phrase of its own; nor those that are English words too: "do", "no", "am")
ROLE_ARTICLES = frozenset(
    """o os el la los las der die das den dem le les ao aos à da das na nas pelo pela al del zum zur
    beim vom im au aux du""".split()
)
_CARD_ROLE = re.compile(r"\s[-–—]\s+([^()]+?)\s*$|\(([^()]+)\)")
TITLES = ("dr", "doctor", "mr", "mrs", "ms", "miss", "prof", "professor", "uncle", "aunt", "auntie")

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


# The texts whose names the index remembers (one question reads its own a few times).
RECENT_FINDS = 8


@dataclass(frozen=True)
class Found:
    contact_id: uuid.UUID
    text: str  # the words of the text that named the contact
    start: int
    end: int
    exact: bool  # False: a typo (fuzzy)
    strength: int  # 3 full name or alias phrase, 2 first name / title+surname, 1 fuzzy


@dataclass
class _Contact:
    id: uuid.UUID
    name: str
    phrases: list[tuple[str, int]] = field(default_factory=list)  # (phrase lowercase, strength)


def contact_names(attrs: dict[str, Any], body: str) -> tuple[str, list[str]]:
    """(display name, aliases) of a contact's attrs, falling back to its body's first line."""
    name = str(attrs.get("name") or "").strip()
    if not name:
        first = body.strip().splitlines()[0] if body.strip() else ""
        name = re.split(r"\s[-–—(,]|\s\+|\s\d", first, maxsplit=1)[0].strip()[:80]
    aliases = attrs.get("aliases") or []
    if isinstance(aliases, str):
        aliases = [aliases]
    return name, [str(a).strip() for a in aliases if str(a).strip()]


def _roles(aliases: list[str], body: str) -> set[str]:
    """The one-word roles a contact is known by (folded): an alias less its article or possessive
    ("o contabilista", "my sister"), what its card's first line says after a dash or in brackets
    ("Carlos Ruiz - jefe", "Dani (mi pareja)"); none of more than one word ("la de contabilidad")."""
    first = body.strip().splitlines()[0] if body.strip() else ""
    said = [a or b for a, b in _CARD_ROLE.findall(first)]
    out = set()
    for text in [*aliases, *said]:
        ws = [w.lower() for w, _, _ in _words(text)]
        while ws and (ws[0] in MY or ws[0] in ROLE_ARTICLES or ws[0] in ("the", "a", "an")):
            ws.pop(0)
        if len(ws) == 1 and len(ws[0]) >= 3 and not ws[0].isdigit():
            out.add(fold(ws[0]))
    return out


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def _strip_possessive(word: str) -> str:
    return re.sub(r"['’]s$", "", word)


class NameIndex:
    def __init__(self, contacts: Iterable[tuple[uuid.UUID, dict[str, Any], str]]):
        self.contacts: dict[uuid.UUID, _Contact] = {}
        self._recent: dict[tuple[str, bool], list[Found]] = {}  # the last texts found, oldest first
        self._recent_lock = threading.Lock()  # the window's worker and the socket both ask
        self._kin: dict[str, set[uuid.UUID]] = {}  # relation -> contacts whose alias names it
        self._roles: dict[str, set[uuid.UUID]] = {}  # role word (folded) -> contacts known by it
        first_counts: dict[str, int] = {}
        for cid, attrs, body in contacts:
            name, aliases = contact_names(attrs or {}, body or "")
            c = _Contact(cid, name)
            tokens = [_strip_possessive(t).lower() for t, _, _ in _words(name)]
            if tokens:
                c.phrases.append((" ".join(tokens), 3))
            for alias in aliases:
                at = [_strip_possessive(t).lower() for t, _, _ in _words(alias)]
                if at:
                    c.phrases.append((" ".join(at), 3))
            if len(tokens) >= 2:
                first = tokens[0]
                if first not in TITLES:
                    c.phrases.append((first, 2))
                    first_counts[first] = first_counts.get(first, 0) + 1
                for title in TITLES[:7]:  # "Dr Kowalczyk", and the nickname form "Dr Hana"
                    c.phrases.append((f"{title} {tokens[-1]}", 2))
                    if first not in TITLES:
                        c.phrases.append((f"{title} {first}", 2))
            self.contacts[cid] = c
            roles = _roles(aliases, body or "")
            for role in roles:
                self._roles.setdefault(role, set()).add(cid)
            for alias in [name, *aliases, *roles]:
                for word in {alias, *alias.split()}:
                    for relation in relations_of(word):
                        self._kin.setdefault(relation, set()).add(cid)
        # a first name shared by two contacts names neither on its own (strength 1: a candidate)
        self._by_first: dict[str, list[tuple[list[str], uuid.UUID, int]]] = {}
        self._name_words: set[str] = set()  # the last word of every phrase (a genitive's stem)
        self._fuzzy: list[tuple[str, uuid.UUID]] = []
        for c in self.contacts.values():
            c.phrases = [(p, 1 if s == 2 and first_counts.get(p, 0) > 1 else s) for p, s in c.phrases]
            for phrase, strength in c.phrases:
                parts = phrase.split(" ")
                self._by_first.setdefault(parts[0], []).append((parts, c.id, strength))
                self._name_words.add(parts[-1])
                if len(parts) == 1 and len(phrase) >= FUZZY_MIN_LENGTH and strength >= 2:
                    self._fuzzy.append((phrase, c.id))
        self._fuzzy_phrases = [phrase for phrase, _ in self._fuzzy]

    def __len__(self) -> int:
        return len(self.contacts)

    def find(self, text: str, *, fuzzy: bool = True) -> list[Found]:
        """Every contact the text names, best evidence per contact, in order of appearance."""
        key = (text, fuzzy)
        with self._recent_lock:
            found = self._recent.get(key)
        if found is None:  # a question asks for the same text up to three times
            found = self._find(text, fuzzy)
            with self._recent_lock:
                self._recent[key] = found
                while len(self._recent) > RECENT_FINDS:
                    del self._recent[next(iter(self._recent))]
        return list(found)

    def _genitive(self, low: str, raw: str) -> str | None:
        """A name with the German (and Dutch, Scandinavian) genitive -s, no apostrophe ("Anas
        Nummer", "Peters E-Mail", "Klaus Webers Adresse"): the name it is of, when the word is
        no name of this memory itself and the name is one (and no everyday word: "Bills")."""
        if len(low) < 3 or not raw[:1].isupper() or not low.endswith("s") or low in self._by_first:
            return None
        stem = low[:-1]
        if stem in COMMON_WORD_NAMES or stem in KINSHIP or stem not in self._name_words:
            return None
        return stem

    def _find(self, text: str, fuzzy: bool) -> list[Found]:
        words = [(_strip_possessive(w).lower(), s, e, w) for w, s, e in _words(text)]
        genitives = [self._genitive(low, raw) for low, _s, _e, raw in words]
        best: dict[uuid.UUID, Found] = {}

        def offer(found: Found) -> None:
            old = best.get(found.contact_id)
            if old is None or (found.strength, found.exact) > (old.strength, old.exact):
                best[found.contact_id] = found

        def matches(i: int, parts: list[str]) -> bool:
            """The phrase's words from word i on; its last one may be in the genitive."""
            n = len(parts)
            if i + n > len(words) or [w[0] for w in words[i : i + n - 1]] != parts[:-1]:
                return False
            return parts[-1] in (words[i + n - 1][0], genitives[i + n - 1])

        for i, (low, s, _e, _raw) in enumerate(words):
            starts = self._by_first.get(low, [])
            stem = genitives[i]
            if stem is not None:
                starts = starts + [p for p in self._by_first.get(stem, []) if len(p[0]) == 1]
            for parts, cid, strength in starts:
                n = len(parts)
                if not matches(i, parts):
                    continue
                raw = text[s : words[i + n - 1][2]]
                before = words[i - 1][3] if i > 0 else ""
                if parts[0] in KINSHIP and (
                    not raw[:1].isupper() or before.lower() in NOT_MINE or re.search(r"['’]s$", before)
                ):
                    continue
                if self._acceptable(" ".join(parts), raw):
                    offer(Found(cid, raw, s, words[i + n - 1][2], True, strength))
        if self._kin:
            self._kin_words(text, words, offer)
        if self._roles:
            self._role_words(words, offer)
        if fuzzy and self._fuzzy:
            for low, s, e, raw in words:
                if len(low) < FUZZY_MIN_LENGTH - 1 or not raw[:1].isupper() or low in self._by_first:
                    continue
                # every phrase scored at once (in C), the close ones offered in the phrases' order
                close = process.extract(
                    low, self._fuzzy_phrases, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN_RATIO, limit=None
                )
                for at in sorted(i for _, _, i in close):
                    cid = self._fuzzy[at][1]
                    if cid not in best:
                        offer(Found(cid, raw, s, e, False, 1))
        found = list(best.values())
        # "Jonah's mum" names Sue, not Jonah: drop a name inside another contact's longer name
        # (decided span by span: many contacts may share one span, a first name)
        spans = {(f.start, f.end) for f in found}
        inside = {
            (s, e) for s, e in spans if any(os <= s and e <= oe and oe - os > e - s for os, oe in spans)
        }
        found = [f for f in found if (f.start, f.end) not in inside]
        return sorted(found, key=lambda f: (f.start, -f.strength))

    def _kin_words(self, text: str, words, offer) -> None:
        """ "my mother", "my sister", "my mother-in-law": the one contact whose alias names that
        relation in any language ("Mãe", "mana", "sogra")."""
        folded = fold(text)
        ends = [w[2] for w in words]
        for m in _KIN_RE.finditer(folded):
            raw = text[m.start() : m.end()]
            i = bisect.bisect_right(ends, m.start())
            prev = words[i - 1][3].lower() if i else ""
            if not (
                prev in MY or (raw[:1].isupper() and prev not in NOT_MINE and not re.search(r"['’]s$", prev))
            ):
                continue
            people = set().union(*(self._kin.get(r, set()) for r in relations_of(raw)))
            if len(people) == 1:
                offer(Found(next(iter(people)), raw, m.start(), m.end(), True, 2))

    def _role_words(self, words, offer) -> None:
        """ "o meu contabilista", "mi jefe", "el jefe": the one contact known by that role."""
        for i in range(1, len(words)):
            if words[i - 1][0] not in MY and words[i - 1][0] not in ROLE_ARTICLES:
                continue
            low, s, e, raw = words[i]
            people = self._roles.get(fold(low), set())
            if len(people) == 1:
                offer(Found(next(iter(people)), raw, s, e, True, 2))

    @staticmethod
    def _acceptable(phrase: str, raw: str) -> bool:
        if len(phrase) == 1:  # one-letter aliases ("J") only as a capital standing alone
            return _strip_possessive(raw).isupper()
        if phrase in COMMON_WORD_NAMES:
            return raw[:1].isupper()
        return True


def org_counts(contacts) -> dict[str, int]:
    """How many contacts (given by their attrs) name each organisation, lower case."""
    counts: dict[str, int] = {}
    for attrs in contacts:
        org = str((attrs or {}).get("org") or "").strip().lower()
        if org:
            counts[org] = counts.get(org, 0) + 1
    return counts
