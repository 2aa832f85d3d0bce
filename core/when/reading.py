"""The text a date is read from (`Text`): folded once, the parts already read blanked out so no
word is read twice, its numbers in words written in figures and aligned back to the words said
(`in_figures`), and its language."""

from __future__ import annotations

import re

from core.when.language import fold
from core.when.patterns import Grammar
from core.when.region import LANGUAGE_CODES, Region


def spaced(words: str) -> str:
    return re.sub(r"\s+", " ", words)


_ISO_TIME = re.compile(r"(?<=\d{4}-\d\d-\d\d)[^\W\d_](?=\d\d:\d\d)")  # the T of 2027-04-22T10:30:00


def _stamps(folded: str, g: Grammar) -> str:
    """The folded text with its timestamps' T and basic form as the grammar reads them, each at
    its own length: "20270422T103000Z" is "2027042210:30   z" (read to the minute)."""

    def basic(m: re.Match) -> str:
        return f"{m.group('day')}{m.group('h')}:{m.group('mi')}".ljust(len(m.group(0)))

    return g.basic_stamp.sub(basic, _ISO_TIME.sub(" ", folded))


class Text:
    """The folded text with the parts already read blanked out, so no word is read twice; numbers
    and ordinals in words the tables do not know are in figures ("am dritten Juni": "am 3. Juni")."""

    def __init__(self, text: str, grammar: Grammar, region: Region, said: str | None = None):
        self.original = text
        # `said`: the text with its numbers in figures; an ISO date's "T" before its time a space
        self.folded = _stamps(fold(said or text), grammar)
        # where `said` pads a number in figures to the length of its words
        self.padding = frozenset(
            i for i, (a, b) in enumerate(zip(said or "", text, strict=False)) if a == " " and not b.isspace()
        )
        self.spans: list[tuple[int, int]] = []
        self.g = grammar
        self.region = region
        self.ambiguous: str | None = None
        self.month_said = True  # the date read named its month (not "sexta dia 20")
        self.date_weekday: int | None = None  # a weekday read within the date's words
        self.glued_part: str | None = None  # the part of the day a weekday is written with ("Montagabend")
        self.no_day: str | None = None  # a date no calendar has, in the app's words ("30 February")
        self.offset_end: int | None = None  # where "two weeks from" ends: the day it counts from follows
        self.offset_from_now = False  # "5 minutes before now": the offset counts from this moment
        self.offset_base = 0  # "two weeks after yesterday": the days from today the offset counts from
        self.offset_one = False  # "the day after": counts only from a day named after it
        self.offset_weekday: int | None = None  # "after last Thursday": the weekday gone it counts from
        self.relative_days: int | None = None  # where "in 2 weeks", a step of whole days, starts
        self.month_alone = False  # the date read is a month alone ("in July")
        self.today_part: str | None = None  # the part of the day "this morning" names (a parts key)

    def search(self, pattern: re.Pattern, accept=None):
        for m in pattern.finditer(self.folded):
            if accept is None or accept(m):
                return m
        return None

    def take(self, m: re.Match) -> None:
        self.take_span(*m.span())

    def take_span(self, s: int, e: int) -> None:
        while s < e and self.folded[s].isspace():
            s += 1
        padding = self.padding  # the words a number in figures stands for ("ten thirty am": "   10 30 am")
        while s > 0 and ((s - 1) in padding or ((s - 2) in padding and self.original[s - 1].isspace())):
            s -= 1
        self.spans.append((s, e))
        self.folded = self.folded[:s] + " " * (e - s) + self.folded[e:]

    def blank(self, m: re.Match) -> None:
        """Words that name no time (a day no calendar has): read by nothing else, and kept."""
        s, e = m.span()
        self.folded = self.folded[:s] + " " * (e - s) + self.folded[e:]

    def capital(self, i: int) -> bool:
        return self.original[i : i + 1].isupper()

    def accented(self, i: int) -> bool:
        """The person wrote the letter at i with its accent ("à", not "a")."""
        c = self.original[i : i + 1]
        return bool(c) and fold(c) != c.lower()


_TOKEN = re.compile(r"\S+")


_SPACES = re.compile(r"\s*")


def past_spaces(text: str, i: int) -> int:
    """Where the next word after i starts."""
    spaces = _SPACES.match(text, i)
    return spaces.end() if spaces else i


def in_figures(text: str, grammar: Grammar, region: Region) -> str:
    """The text with numbers and ordinals in words written in figures by text2num ("twenty-four",
    "dritten", "vinte e dois"), each in the place of its words and no longer (padded with spaces),
    so a span of the result is the span of the text. The region's language first, then the others.
    A single word is left as it is when a table of the grammar reads it otherwise ("quarto" is a
    quarter of an hour in "um quarto para as 6", never the 4th; "sexta" is Friday; not "vingt-cinq",
    25 minutes to its table as to text2num), or, for another language than the region's, when it is
    a word of the region's language ("once" in English)."""
    return in_figures_and_spans(text, grammar, region)[0]


def in_figures_and_spans(text: str, grammar: Grammar, region: Region) -> tuple[str, list[tuple[int, int]]]:
    """in_figures' text, and the spans of the words it wrote in figures."""
    try:
        from text_to_num import alpha2digit  # noqa: PLC0415 - only where a text is read
    except ImportError:
        return text, []
    if not re.search(r"[^\W\d_]{3}", text):
        return text, []
    tables = grammar.table_words
    written: list[tuple[int, int]] = []
    other_meaning = frozenset().union(*tables.not_numbers.values())
    languages = (region.language, *(code for code in LANGUAGE_CODES if code != region.language))
    current = text
    for language in languages:
        said = alpha2digit(current, language)
        if said == current:
            continue
        kept = other_meaning
        if language != region.language:
            kept |= tables.every.get(region.language, frozenset())
        before = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(current)]
        after = [m.group(0) for m in _TOKEN.finditer(said)]
        for i1, i2, j1, j2 in reversed(_replaced([w for w, _, _ in before], after)):
            figures = " ".join(after[j1:j2])
            start, end = before[i1][1], before[i2 - 1][2]
            word = fold(before[i1][0]).strip(".,;:!?")
            same = figures.isdigit() and tables.values.get(word) == frozenset({int(figures)})
            single = i2 - i1 == 1 and word in kept and not same
            if single or not grammar.figures.fullmatch(fold(figures)) or len(figures) > end - start:
                continue
            current = current[:start] + figures.rjust(end - start) + current[end:]
            written.append((start, end))
    return current, written


REPLACED_REACH = 24  # the most words one number in words takes ("two million eight hundred and…": 13)


def _replaced(before: list[str], after: list[str]) -> list[tuple[int, int, int, int]]:
    """The runs of `before`'s words that `after` (the same words, some numbers in words written
    in figures) replaced: (i1, i2, j1, j2) as difflib's "replace" opcodes, in one pass. difflib
    finds them in quadratic time or worse on a long text with many such words (a Portuguese
    note naming weekdays: "segunda", "terça" are ordinals too); each run here ends at the nearest
    word the two agree on again (or where both end), within REPLACED_REACH words."""
    runs = []
    i = j = 0
    while i < len(before) and j < len(after):
        if before[i] == after[j]:
            i, j = i + 1, j + 1
            continue
        resync = None
        for reach in range(2, 2 * REPLACED_REACH + 1):  # the nearest first
            for bi in range(i + 1, min(i + reach, i + REPLACED_REACH) + 1):
                ai = j + reach - (bi - i)
                if ai <= j or ai > j + REPLACED_REACH:
                    continue
                both_end = bi == len(before) and ai == len(after)
                if both_end or (bi < len(before) and ai < len(after) and before[bi] == after[ai]):
                    resync = (bi, ai)
                    break
            if resync:
                break
        if resync is None:
            break  # nothing agrees again nearby: no more is read as written in figures
        runs.append((i, resync[0], j, resync[1]))
        i, j = resync
    return runs


def number_of(g: Grammar, word: str) -> float:
    w = fold(word).strip()
    if re.fullmatch(r"\d+(?:[.,]\d+)?", w):
        return float(w.replace(",", "."))
    if re.fullmatch(r"\d+/\d+", w):  # "in 1/4 h"
        top, bottom = (int(x) for x in w.split("/"))
        return top / bottom if bottom else 0.0
    return float(g.words.numbers.get(spaced(w), 1))


_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def text_language(folded: str, g: Grammar, region: Region) -> str:
    """The language a text is in: the one most of its words only that language's tables hold are
    of (short forms that are other languages' words not counted); the region's when there are
    none, or in a tie."""
    counts = dict.fromkeys(g.own_words, 0)
    for word in _WORD.findall(folded):
        if word not in g.short_forms:
            owner = next((lang for lang, own in g.own_words.items() if word in own), None)
            if owner is not None:
                counts[owner] += 1
    best = max(counts.values(), default=0)
    leaders = [code for code, n in counts.items() if n == best]
    return leaders[0] if best and len(leaders) == 1 else region.language
