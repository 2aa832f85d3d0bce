"""The one set of patterns of the date grammar: how the words of core/when/languages combine.

`Grammar(languages)` compiles every pattern capture text (parse.py) and questions (window.py) are
read with, from the merged tables of those languages; `GRAMMAR` is the one of the five languages
Neurons reads. No word of any language is written here: only how words of a table sit beside
numbers, punctuation and each other (a check in tests/core/test_when.py keeps it so). All patterns
run on folded text (core.when.language.fold).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from core.when.holidays import DAYS, SEASON_DAYS, Span
from core.when.language import Language, fold, merge
from core.when.languages import LANGUAGES

# -- building blocks ---------------------------------------------------------------------------

WORD_START = r"(?<!\w)"
WORD_START_NOT_ELIDED = r"(?<![\w'])"  # not glued to an elision either ("l'an": not "an")
WORD_END = r"(?!\w)"
SPACE = r"\s+"
DAY_NUMBER = r"\d{1,2}"
YEAR_NUMBER = r"\d{4}"
DECIMAL = r"\d+(?:[.,]\d+)?"
FRACTION = r"\d+/\d+"
NOTHING = r"(?!)"
DASHES = ("-", "–")


def any_of(words: Iterable[str]) -> str:
    """A regex alternation of the words, longest first; a space in a word is any run of them. No
    words: a pattern that matches nothing (a language without the table).

    Between the longest and the shortest word, the words are written as a tree of their shared
    beginnings ("mon(?:day|th)"): re tries a list's alternatives one by one wherever a text is
    read, most of the cost of reading the times of a store's notes. The tree matches what the
    list matches, in the same order (`_tree`), and a pattern written right beside the alternation
    reads every word (the alternation is a group: a pattern written beside it binds to all the
    words, never to the first or the last alone, as "quinze" once did to "heures")."""
    unique = sorted(dict.fromkeys(words), key=len, reverse=True)
    if not unique:
        return NOTHING
    middle = _tree(unique) if len(unique) > 2 else None
    return f"(?:{middle if middle is not None else '|'.join(_written(w) for w in unique)})"


def _written(word: str) -> str:
    return "".join(_token(c) for c in word)


def _token(c: str) -> str:
    """A letter as re reads it (a letter or figure stands for itself: re.escape's slow path
    only for the rest)."""
    return c if c.isalnum() else SPACE if c == " " else re.escape(c)


_SPACED_ONCE = re.compile(r"\S+(?: \S+)*")


def _tree(words: list[str]) -> str | None:
    """The words (longest first) as a tree of their shared beginnings, or None when it could match
    otherwise than their list. It matches the same: two words that both match at a place share
    their beginning up to where the shorter ends (two branches of the tree never match the same
    character: they are different letters, not one letter to re.IGNORECASE, and no letter is a
    blank), and there the tree tries the longer one first, as the list does; a space ends only
    where the next letter starts (no word starts or ends with one, or has two in a row)."""
    letters = {c for w in words for c in w if c != " "}
    if not all(_SPACED_ONCE.fullmatch(w) for w in words) or len({c.lower() for c in letters}) < len(letters):
        return None
    others = [c for c in letters if not c.isascii()]  # "ſ" is "s" to re.IGNORECASE, "ß" is itself
    if any(re.fullmatch(re.escape(a), b, re.I) for a in others for b in letters if b != a):
        return None
    root: dict[str, dict] = {}
    for w in words:
        node = root
        for c in w:
            node = node.setdefault(c, {})
        node[""] = {}  # a word ends here
    return "|".join(_from(c, child) for c, child in root.items())


def _from(c: str, node: dict[str, dict]) -> str:
    """The letter c and what follows it in the tree."""
    out = [_token(c)]
    while len(node) == 1 and "" not in node:  # one way on
        ((c, node),) = node.items()
        out.append(_token(c))
    return "".join(out) + _after(node)


def _after(node: dict[str, dict]) -> str:
    """What follows a shared beginning; a word that ends there is its empty choice, tried last
    (`?` is greedy). Letters that end words there as one class: less for re to parse."""
    ends = "" in node
    letters = [c for c in node if c]
    if not letters:
        return ""
    if len(letters) > 1 and all(c != " " and node[c].keys() == {""} for c in letters):
        body, one = "[" + "".join(_token(c) for c in letters) + "]", True
    else:
        tails = [_from(c, node[c]) for c in letters]
        if len(tails) > 1:
            body, one = f"(?:{'|'.join(tails)})", True
        else:
            body, one = tails[0], len(tails[0]) == len(_token(letters[0])) and letters[0] != " "
    if not ends:
        return body
    return body + "?" if one else f"(?:{body})?"


def optional_words(words: Iterable[str]) -> str:
    """Any of the words followed by its space, or nothing; an elided word ("l'", "d'") needs none."""
    words = list(words)
    spaced = [w for w in words if not w.endswith("'")]
    elided = [w for w in words if w.endswith("'")]
    choices = [f"(?:{any_of(spaced)}){SPACE}"] if spaced else []
    if elided:
        choices.append(f"(?:{any_of(elided)})")
    return f"(?:{'|'.join(choices)})?" if choices else ""


def compile_folded(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


def reminder_cue(w: Language) -> re.Pattern[str]:
    """Text that asks for a reminder ("remind me", "lembra-me"), folded, at its start."""
    return compile_folded(rf"^\s*(?:{any_of(w.reminder_cues)})\b")


def group(m: re.Match[str], name: str) -> str | None:
    """The text of a template's slot `name` in a match: the templates of one pattern each number
    their slots (`day_0`, `day_1`…) as a regex names a group once."""
    value = m.groupdict().get(name)
    if value is not None:
        return value
    for key in _slot_groups(m.re, name):
        value = m.group(key)
        if value is not None:
            return value
    return None


def group_start(m: re.Match[str], name: str) -> int:
    """Where the slot `name` (see `group`) starts in the text; -1 when it took no part."""
    for key in (name, *_slot_groups(m.re, name)):
        if key in m.re.groupindex and m.group(key) is not None:
            return m.start(key)
    return -1


@cache
def _slot_groups(pattern: re.Pattern[str], name: str) -> tuple[str, ...]:
    return tuple(k for k in pattern.groupindex if k.startswith(name + "_") and k[len(name) + 1 :].isdigit())


# -- templates ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    inner: str  # what the slot reads
    after: str = ""  # read after it, outside its group (a suffix)
    captured: bool = True


def template(text: str, slots: dict[str, Slot], number: int) -> str:
    """The regex of one template (see core/when/language.py): words, `[a|b]`, `(a|b)`, `{slot}`."""
    tokens = _tokens(text)
    out, required_seen = "", False
    for pieces in tokens:
        body = "".join(_piece(p, slots, number) for p in pieces)
        optional = len(pieces) == 1 and pieces[0].startswith("[")
        if optional:
            inner = _piece("(" + pieces[0][1:-1] + ")", slots, number)
            out += f"(?:{SPACE}{inner})?" if required_seen else f"(?:{inner}{SPACE})?"
        else:
            out += (SPACE if required_seen else "") + body
            required_seen = True
    return out


def _tokens(text: str) -> list[list[str]]:
    """The template's words (split at spaces outside brackets), each a list of its pieces."""
    tokens: list[list[str]] = []
    pieces: list[str] = []
    depth, current = 0, ""
    for c in text.strip() + " ":
        if depth == 0 and c == " ":
            if current:
                pieces.append(current)
            if pieces:
                tokens.append(pieces)
            pieces, current = [], ""
            continue
        if depth == 0 and c in "[({":
            if current:
                pieces.append(current)
            current = ""
        current += c
        depth += 1 if c in "[({" else -1 if c in "])}" else 0
        if depth == 0 and c in "])}":
            pieces.append(current)
            current = ""
    return tokens


def _piece(piece: str, slots: dict[str, Slot], number: int) -> str:
    if piece.startswith("{"):
        name, _, limited = piece[1:-1].partition("=")
        slot = slots[name]
        inner = any_of(limited.split("|")) if limited else slot.inner
        if not slot.captured:
            return f"(?:{inner}){slot.after}" if inner else slot.after
        return f"(?P<{name}_{number}>{inner}){slot.after}"
    if piece.startswith("["):
        return f"(?:{any_of(piece[1:-1].split('|'))})?"
    if piece.startswith("("):
        return f"(?:{any_of(piece[1:-1].split('|'))})"
    return re.escape(piece)


def templates(forms: Iterable[str], slots: dict[str, Slot]) -> str:
    """The alternation of several templates (their slots numbered apart); none: nothing matches."""
    return "|".join(f"(?:{template(t, slots, i)})" for i, t in enumerate(forms)) or NOTHING


# -- the grammar ---------------------------------------------------------------------------------


_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _own_words(languages: tuple[Language, ...]) -> dict[str, frozenset[str]]:
    """For each language, the single words of its tables that no other language's tables hold."""
    words: dict[str, set[str]] = {}
    for lang in languages:
        found: set[str] = set()
        for f in fields(Language):
            value = getattr(lang, f.name)
            said_back = f.name in ("code", "name", "rule_words", "clock_words")  # not read in a text
            if said_back or not isinstance(value, (tuple, dict)):
                continue
            for phrase in value:
                if isinstance(phrase, str):
                    found.update(_WORD.findall(fold(phrase)))
        words[lang.code] = found
    return {
        code: frozenset(own - set().union(*(other for c, other in words.items() if c != code)))
        for code, own in words.items()
    }


def _weekday_forms(
    languages: tuple[Language, ...], table: Callable[[Language], dict[str, int]]
) -> dict[str, dict[str, int]]:
    """Each language's `table` of weekday forms, folded: form -> {its language: the weekday}. A
    form two languages write is each one's ("sab": pt and es)."""
    forms: dict[str, dict[str, int]] = {}
    for lang in languages:
        for form, weekday in table(lang).items():
            forms.setdefault(fold(form), {})[lang.code] = weekday
    return forms


# tables whose words are numbers ("vingt-cinq" is 25 there, and minutes in `minute_amounts`)
_NUMBER_TABLES = frozenset({"numbers", "day_numbers", "hour_words", "hour_words_24", "month_ordinals"})


@dataclass(frozen=True)
class TableWords:
    """The single words of the tables, folded: which words a number in words may stand for."""

    every: dict[str, frozenset[str]]  # by language: of any table
    not_numbers: dict[str, frozenset[str]]  # by language: of its tables other than numbers'
    # in any language, what the tables other than numbers' read each word as: its number
    # ("vingt-cinq": {25} minutes; "quarto": {15, 4}) or its table's name
    values: dict[str, frozenset[object]]


def _table_words(languages: tuple[Language, ...]) -> TableWords:
    every: dict[str, frozenset[str]] = {}
    not_numbers: dict[str, frozenset[str]] = {}
    values: dict[str, set[object]] = {}
    for lang in languages:
        found: set[str] = set()
        other: set[str] = set()
        for f in fields(Language):
            table = getattr(lang, f.name)
            if not isinstance(table, (dict, tuple)):
                continue
            for w in table:
                if not isinstance(w, str) or " " in w:
                    continue
                found.add(fold(w))
                if f.name not in _NUMBER_TABLES:
                    other.add(fold(w))
                    said = table[w] if isinstance(table, dict) else w
                    values.setdefault(fold(w), set()).add(said if isinstance(said, int) else f.name)
        every[lang.code], not_numbers[lang.code] = frozenset(found), frozenset(other)
    return TableWords(every, not_numbers, {w: frozenset(v) for w, v in values.items()})


class Grammar:
    """Every pattern of capture text and of questions, for a set of languages."""

    def __init__(self, languages: tuple[Language, ...], own: Language | None = None):
        """`own`: the language a text is in, whose short month names that are other languages'
        words ("set", "out", "ago") are months too."""
        self.languages = languages
        w = merge(languages)
        if own is not None and own.own_text_months:
            w = replace(w, months={**w.months, **{fold(k): v for k, v in own.own_text_months.items()}})
        self.words = w
        self.holidays: dict[str, Callable[[int], Span]] = {n: DAYS[d] for n, d in w.holidays.items()}
        self.seasons: dict[str, Callable[[int], Span]] = {n: SEASON_DAYS[s] for n, s in w.seasons.items()}
        # the words of each language's tables no other language's hold: which language a text is in
        self.own_words = _own_words(languages)
        self.table_words = _table_words(languages)
        # a weekday's short form -> {its language: the weekday}: "Jeu 15:12", "mer. à 15h", "sex
        # 15h"; and those read only with their dot, de "Mo.", "Fr."
        self.abbreviation_of = _weekday_forms(languages, lambda lang: lang.weekday_abbreviations)
        self.dotted_of = _weekday_forms(languages, lambda lang: lang.dotted_weekdays)
        self.listed_of = _weekday_forms(languages, lambda lang: lang.listed_weekdays)
        # each language's own month words: "mar" is English's, the sea and martes in Spanish
        self.months_of = {
            lang.code: frozenset(fold(k) for k in (*lang.months, *lang.own_text_months)) for lang in languages
        }
        # a day in words of one language is another's word (es "dos", two; pt "dos", of the)
        self.day_numbers_of = {lang.code: frozenset(fold(k) for k in lang.day_numbers) for lang in languages}
        # short forms that are other languages' words ("jeu", "set", "ago"), and the am/pm marks
        # every language's clocks are printed with ("So., 3PM", "hoy a las 1:00 PM"): not counted as
        # the words that say which language a text is in
        self.short_forms = (
            frozenset(self.abbreviation_of)
            | frozenset(self.dotted_of)
            | {fold(k) for lang in languages for k in lang.own_text_months}
            | {fold(k) for lang in languages for k in (*lang.before_noon_marks, *lang.after_noon_marks)}
        )
        # the parts of the day a clock is written with: the parts, and the day periods read only there
        self.clock_parts = {**w.parts, **w.clock_periods}
        self.pm_parts = frozenset(p for p, h in self.clock_parts.items() if h >= 15)
        self.am_parts = frozenset(p for p, h in self.clock_parts.items() if h < 12)
        # The patterns are compiled on first use, in two groups: a question's (window.py: ~0.1 s of
        # CPU), then capture text's (parse.py: ~0.45 s for the five languages). Not at import, where
        # they held the desktop's window back; a first question waits only for its own.
        self._merged = w
        self._compiling = threading.Lock()
        self._questions_pending = True
        self._pending = True

    if not TYPE_CHECKING:  # (mypy still checks every pattern's name against `_capture`'s)

        def __getattr__(self, name: str) -> Any:
            """A pattern not compiled yet: its group compiled (a question's first), then that one."""
            if name.startswith("__") or not self.__dict__.get("_pending"):
                raise AttributeError(name)
            if self.__dict__.get("_questions_pending"):
                self.compile_questions()
                if name in self.__dict__:
                    return self.__dict__[name]
            self.compile()
            return object.__getattribute__(self, name)

    def compile_questions(self) -> None:
        """The patterns a question's time words are read with (`find_window`), compiled now (once;
        another thread asking meanwhile waits for them)."""

        def made_questions(made: Grammar) -> None:
            made._dates(self._merged)
            made._questions(self._merged)

        with self._compiling:
            if self._questions_pending:
                self._put(made_questions)
                self._questions_pending = False

    def compile(self) -> None:
        """Every pattern, compiled now (once; another thread asking meanwhile waits for them)."""
        self.compile_questions()
        with self._compiling:
            if self._pending:
                self._put(lambda made: made._capture(self._merged))
                self._pending = False

    def _put(self, build: Callable[[Grammar], None]) -> None:
        """A group's patterns made on a copy and then put here together: a thread never sees a
        pattern half made (what the copy holds already stays as it is)."""
        made = object.__new__(Grammar)
        made.__dict__.update(self.__dict__, _questions_pending=False, _pending=False)
        build(made)
        self.__dict__.update({k: v for k, v in made.__dict__.items() if k not in self.__dict__})

    # -- capture text (parse.py) -------------------------------------------------------------------

    def _noon_mark(self, w: Language) -> str:
        """The am/pm marks; a mark that is a language's preposition too (de "am": "15:20 am
        Nachmittag", "um 19:30 am Fr, 20. Sept.") is the preposition before what it leads there (a
        weekday, a part of the day, the weekend, a day number)."""
        marks = (*w.before_noon_marks, *w.after_noon_marks)
        led = []
        for lang in self.languages:
            leads = {fold(x) for x in (*lang.weekday_lead, *lang.date_lead, *lang.part_lead)} & set(marks)
            if leads:
                words = (
                    *lang.weekdays,
                    *lang.weekday_abbreviations,
                    *lang.dotted_weekdays,
                    *lang.bare_parts,
                    *(word for part in lang.parts for word in part.split() if word not in leads),
                    *lang.weekend,
                )
                led.append(
                    rf"(?:{any_of(leads)})\s+(?:(?:{any_of(fold(x) for x in words)}){WORD_END}|\d{{1,2}}\.)"
                )
        return (rf"(?!{'|'.join(led)})" if led else "") + rf"(?:{any_of(marks)})"

    def _dates(self, w: Language) -> tuple[str, str, str, str, str, str]:
        """What both groups read: a date in figures or words ("2027-05-08", "8 May", "May 8") and
        the words that say next, last and this. Their pieces (the month, a day's suffix, an
        ordinal, a year's joiner, a year, a day number) are handed to `_capture`."""
        b, e, c = WORD_START, WORD_END, compile_folded
        month = any_of(w.months)
        day_suffix = rf"(?:{any_of(w.day_suffixes)})"
        ordinal = rf"(?:{any_of(w.ordinal_suffixes)})"
        self.iso_date = c(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\d-])")
        year_joined = rf"(?:{any_of(w.year_joiners)})"
        # a year after a month's name, not a clock in figures ("3. Januar 1430 Uhr", "19 dec 0930-1045");
        # two figures after an apostrophe ("Dec 25 '27"), after the month's dash ("21-Apr-16"), or that
        # no clock has ("Aug 9 96", "3 Feb 82", "may 1st 01") and no word follows ("Aug 9 30 people")
        year = (
            rf"['’‘]?(?P<y>[1-9]\d{{3}}|(?<=['’‘])\d\d(?!\d)|(?<=[^\W\d_.][-/])\d\d(?!\d)"
            rf"|(?<=[\s,])(?:2[5-9]|[3-9]\d|0\d)(?![\d.]|\s+[^\W\d]))"
            rf"(?!\s*(?:{any_of(w.hour_suffix_words)})(?!\w)|[-:]\d)"
        )
        day_number = rf"(?:\d{{1,2}}|(?P<dw>{any_of(w.day_numbers)})(?!\w))"  # "the first of March"
        # not a clock's minutes: "at 10:30 sep 17" is no 30 September
        self.day_month = c(
            rf"{b}(?<!\d:)(?:(?P<lead>{any_of(w.date_lead)})\s+){{0,4}}(?P<d>{day_number}){day_suffix}?"
            # "8/May/2027", "8-May"; not a range's spaced dash ("29 - September 2")
            rf"(?:\s*(?P<joined>{any_of(w.day_month_joiners)})(?:\s+|(?<=')(?=\w))|[-/]\s*|\s*)"
            rf"(?P<mon>{month})\.?(?:(?:,?\s*|[-/])(?:{year_joined}\s+)?{year})?{e}"
        )
        self.month_day = c(
            rf"{b}(?:(?:{any_of(w.month_day_lead)})\s+)?(?P<mon>{month})\.?(?:/|\s*)"  # "May/8"
            rf"{optional_words(w.month_day_articles)}"
            rf"(?P<d>{day_number}){ordinal}?(?![\d:])"
            # "June 11-16, 2026": the range's end before its year
            rf"(?:\s*[-–]\s*\d{{1,2}}{ordinal}?(?=,?\s*(?:{year_joined}\s+)?[1-9]\d{{3}}))?"
            rf"(?:,?\s*(?:{year_joined}\s+)?{year})?{e}"
        )
        self.next_before, self.last_before, self.this_before = (
            any_of(w.next_before),
            any_of(w.last_before),
            any_of(w.this_before),
        )
        self.next_after, self.last_after = any_of(w.next_after), any_of(w.last_after)
        self.is_next_before = compile_folded(rf"(?:{self.next_before})").fullmatch
        self.is_next_weeks_before = compile_folded(rf"(?:{any_of(w.next_weeks_before)})").fullmatch
        self.is_last_before = compile_folded(rf"(?:{self.last_before})").fullmatch
        self.is_this_before = compile_folded(rf"(?:{self.this_before})").fullmatch
        self.is_next_after = compile_folded(rf"(?:{self.next_after})").fullmatch
        self.is_last_after = compile_folded(rf"(?:{self.last_after})").fullmatch
        return month, day_suffix, ordinal, year_joined, year, day_number

    def _capture(self, w: Language) -> None:
        b, e, c = WORD_START, WORD_END, compile_folded
        noon_mark = self._noon_mark(w)
        after_next_pre = any_of(w.after_next_before)
        month, day_suffix, ordinal, year_joined, year, day_number = self._dates(w)
        day = any_of(w.weekdays)
        amount = rf"(?:{FRACTION}|{DECIMAL}|{any_of(w.numbers)})"
        about = optional_words(w.about)
        and_a_half = any_of(w.and_a_half)
        # "in 2 and a half hours"; glued to a number in words: de "zweieinhalb Stunden"
        half = rf"(?:(?:\s+|(?<=[^\W\d_]))(?P<half>{and_a_half}))?"
        half_ahead = rf"(?:(?:\s+|(?<=[^\W\d_]))(?P<half_ahead>{and_a_half}))?"
        unit_half = rf"(?:\s+(?P<unit_half>{any_of(w.unit_and_a_half)}))?"
        # "in 2h", "in 2 h"; a number in words only spaced ("in an d…" is not). One way to match
        # only: two ways for the same spaces make a failed search of many amounts take 2**n steps
        glue = r"(?:(?<=\d)\s*|(?<!\d)\s+)"
        weekday_suffix = rf"(?:{any_of(w.weekday_suffixes)})"
        plural = rf"(?:{any_of(w.plural_endings)})"
        hour_letter = any_of(w.hour_letters)
        self.relative = c(
            rf"{b}(?:{any_of(w.in_words)})\s+{about}(?:(?P<fraction>{any_of(w.hour_fractions)})|"
            rf"(?P<n>{amount}){half}(?:\s+(?:{any_of(w.more)}))?{glue}(?P<unit>{any_of(w.units)}){unit_half}"
            rf"(?P<glued_minutes>\d{{2}})?){e}"  # "in 1h30"
        )
        # "dans 1 heure et quart", "dans 2 heures moins 12", "in 1 Stunde 30", "dans une heure trente":
        # the minutes after an amount of hours (in figures or alone only at a clause's end or with
        # their noun: "in 2 hours and 5 people" is no 2:05)
        minutes = rf"(?:{any_of(w.minute_amounts)}|[1-5]?\d)"
        noun_or_end = rf"(?:\s+(?:{any_of(w.minute_nouns)}){e}|(?=\s*(?:[,.;:!?)]|$)))"
        self.minutes_after_hours = c(
            rf"\s+(?:(?P<join>{any_of((*w.hour_and, *w.and_words))}|{any_of(w.hour_less)})\s+"
            rf"(?:(?P<m>{any_of(w.minute_amounts)})(?:\s+(?:{any_of(w.minute_nouns)}))?{e}|"
            rf"(?P<m_figures>[1-5]?\d){noun_or_end})|(?P<m_alone>{minutes}){noun_or_end})"
        )
        # "in 1 hour and 30 minutes", "em 1 hora e 30 minutos": the next amount of the same step, a
        # half after its unit ("1 hora y 30 minutos y medio") or a fraction ("and half a minute")
        self.more_amount = c(
            rf"\s*(?:,\s*)?(?:(?:{any_of(w.and_words)})\s+)?(?:(?P<fraction>{any_of(w.hour_fractions)})|"
            rf"(?P<n>{amount}){glue}(?P<unit>{any_of(w.units)}){unit_half}){e}"
        )
        # "4pm + 3 days", "next tuesday +10 days", "2023-12-29 -10days": a step written with its sign
        # after the time it moves ("-" glued to the number, so "3 - 4 days" is no step back)
        self.signed_step = c(
            rf"(?:(?<=\s)|^)(?:(?P<plus>\+)\s*|-(?=\d))(?P<n>\d+){glue}(?P<unit>{any_of(w.units)}){e}"
        )
        # "2 minutes from now": read only when the text says "from now" (a number starts a lot of words)
        self.from_now = c(rf"{b}(?:{any_of(w.from_now)}){e}")
        # ("an hour and a half from now", "2 hours and 30 minutes from now": all of the amounts)
        more_amounts = (
            rf"(?:\s*(?:,\s*)?(?:(?:{any_of(w.and_words)})\s+)?{amount}{glue}(?:{any_of(w.units)}){e})*"
        )
        self.relative_ahead = c(
            rf"{b}(?:(?P<fraction_ahead>{any_of(w.hour_fractions)})|"
            rf"{about}(?P<n_ahead>{amount}){half_ahead}{glue}(?P<unit_ahead>{any_of(w.units)})"
            rf"(?:\s+(?P<unit_half_ahead>{any_of(w.unit_and_a_half)}))?(?P<more_ahead>{more_amounts}))"
            rf"\s+(?:{any_of(w.from_now)}){e}"
        )
        # "two weeks from tomorrow", "3 days after Friday", "2 months before 02/02": an amount from
        # the day the words after it name (today when they name none)
        # "day after Christmas": one step said with no article, for the units that allow it
        bare = rf"|(?P<bare>)(?=(?:{any_of(w.offset_one_units)})\s)" if w.offset_one_units else ""
        # "le lendemain du 13": a step said in one word (no amount, unit or direction of its own)
        self.offset = c(
            rf"{b}(?:(?:(?P<n>{amount}){glue}|(?P<one>{any_of(w.offset_one)}){glue}{bare})(?P<unit>{any_of(w.units)})"
            rf"\s+(?P<dir>{any_of(w.offset_after)}|{any_of(w.offset_before)})|(?P<word>{any_of(w.offset_words)}))(?=\s)"
        )
        self.in_before = c(rf"{b}(?:{any_of(w.in_words)})\s+$")  # "in" before an offset's amount
        self.is_offset_before = compile_folded(rf"(?:{any_of(w.offset_before)})").fullmatch
        # the amounts said before an offset's last one: they add up ("2 weeks and" 6 days from Saturday)
        and_word = rf"(?:(?:{any_of(w.and_words)})\s+)?"
        self.offset_lead = c(rf"{b}(?:{amount}{glue}(?:{any_of(w.units)})(?:\s*,)?\s+{and_word})+$")
        # "3 Wochen von Montag bis Freitag", "3 weeks from Monday to Friday": a range, not a step
        self.is_range_from = compile_folded(rf"(?:{any_of(w.day_range_from)})").fullmatch
        self.word_then_range_to = compile_folded(rf"\s*\S+\s+(?:{any_of(w.day_range_to)}){e}")
        # "5 minutes", "1 week", "uma hora": a text that is nothing but a duration is that long from now
        self.duration_alone = c(
            # not figures with a leading zero: "0600h" is a clock, never 600 hours
            rf"^\s*(?:\+\s*)?{about}(?:(?P<fraction_alone>{any_of(w.hour_fractions)})|(?!0\d)(?P<n>{amount}){half}"
            rf"{glue}(?P<unit>{any_of(w.units)}){unit_half})"  # "half an hour", "meia hora"
            rf"(?P<more_ahead>{more_amounts})\s*[,.]?\s*$"  # "3 years, 2 weeks and 5 days"
        )
        self.now_word = c(rf"{b}(?:{any_of(w.now_words)}){e}")
        # a time's zone after it: an offset ("13:00+01:00", "22:11:35 -0500") or UTC ("3pm UTC",
        # "12:00:00Z")
        marks = any_of((*w.before_noon_marks, *w.after_noon_marks))
        self.time_zone = c(
            # "13:00+01:00", "T08:00-04:00", "08:00:00-04:00", "08:00-04:00"; the clock before a
            # "-" is kept to tell "11:30-13:30" (a range of clocks: parse.py) from a zone
            r"(?:(?<=\d\d:\d\d)|(?<=\d\d:\d\d:\d\d))\s*(?P<offset>\+\d\d:?\d\d)(?![\d:])"
            # (after a date's dash, seconds, or a basic timestamp's date: parse.py's "2027042201:30")
            r"|(?:(?<=\d-\d\d\D\d\d:\d\d)|(?<=\d\d:\d\d:\d\d)|(?<=\d{10}:\d\d))\s*(?P<west_said>-\d\d:?\d\d)(?![\d:])"
            r"|(?<=(?P<ch>\d\d):(?P<cm>\d\d))\s*(?P<west>-\d\d:?\d\d)(?![\d:])"
            rf"|(?:\d|(?<![^\W\d])(?:{marks}))\s*(?P<utc>{any_of(w.utc_words)}){e}"
        )
        self.now_predicate = c(rf"{b}(?:{any_of(w.now_predicates)})(?=\s*(?:[,.;:!?)]|$)){e}")
        self.end_words = {
            **{u: "day" for u, value in w.units.items() if value == ("days", 1)},
            **dict.fromkeys(w.end_of_day, "day"),
            **{u: "week" for u in w.week},
            **{u: "month" for u in w.month},
            **{u: "year" for u in w.year},
            **{u: p for u, p in w.period_words.items() if p in ("week", "month", "year")},  # de "des Monats"
        }
        self.end_of_words = w.end_of_words
        # "end of the month", "end of next week", "fim do mês que vem": the period, this one or the next
        this_or_next = rf"(?:{any_of(w.next_before)}|{any_of(w.this_before)})"
        self.end_of = c(
            rf"{b}(?:(?:{any_of(w.end_of)}|(?:{any_of(w.end_of_bare)})(?=\s+{this_or_next}\s))"
            rf"(?:\s+{optional_words(w.articles)}"
            rf"(?:(?P<next>{any_of(w.next_before)})\s+|(?:{any_of(w.this_before)})\s+)?"
            # "end of April (2028)", "fin du mois de mars"
            rf"(?:(?:(?:{any_of(w.month)})\s+(?:{any_of(w.of_a_month)})\s*)?(?P<mon>{month})(?:,?\s+(?P<y>\d{{4}}))?(?![\w/.-]\d)"
            rf"|(?P<what>{any_of(self.end_words)})(?:\s+(?P<next_after>{any_of(w.next_after)}))?))?"
            rf"|(?P<abbr>{any_of(w.end_of_words)})){e}"
        )
        # a timestamp in ISO 8601's basic form, "20270422T1030", "20270422T103000.5-0300",
        # "20270422T10:30Z": parse.py writes its clock as the extended form's within the same
        # length ("2027042210:30"), its seconds and their fraction blanked; only with its "T" and
        # minutes (a run of figures alone is no date)
        utc = any_of(w.utc_words)
        self.basic_stamp = c(
            r"(?<![\w.+-])(?P<day>(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))[^\W\d_]"
            r"(?P<h>[01]\d|2[0-3])(?P<colon>:?)(?P<mi>[0-5]\d)(?:(?:(?P=colon)[0-5]\d)?[.,]\d+|(?P=colon)[0-5]\d)?"
            rf"(?=(?:{utc})(?![^\W_])|[^\w:.,]|[.,](?!\d)|$)"
        )
        # its date before the clock parse.py wrote ("2027042210:30")
        self.basic_date = c(
            r"(?<![\w.+-])(?P<y>(?:19|20)\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?=\d\d:\d\d)"
        )
        self.dotted_date = c(r"(?<![\w.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})?(?![\d])")
        # 22/04, 4/22, 22/4/27, 22-04-2027, 22.04.2027, 22.04.: which figure is the day is the
        # region's choice when both could be (parse.py); "-" and "." only with a year or the "."
        # after the month (22.04 alone is a time), never inside a longer figure or a fraction's unit;
        # after a day number's dash only ("07.-10.08.2027": a range)
        self.numeric_date = c(
            r"(?<![\w/.:,])(?:(?<!-)|(?<=\d\.-))(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})"
            r"(?:(?P=sep)(?P<y>\d{4}|\d{2})(?!\d)|(?<=\.\d)\.|(?<=\.\d\d)\.|(?<=/\d)|(?<=/\d\d))"
            # "12.31.13 A.M.": three figures with dots before am/pm are a clock and its seconds
            rf"(?![\w/])(?!(?<=\.\d\d)\s*(?:{noon_mark})(?!\w))"
        )
        # "20 02 2027", "le 20 2 27", "le 17 02": day, month (and year) apart, as French writes them;
        # with a four-figure year, or after the lead word at a clause's end; never a run of figures
        # (a phone number: "le 06 12 34 56 78", an amount: "le 20 000")
        spaced_led = any_of(w.spaced_date_lead) if w.spaced_date_lead else "(?!)"
        self.spaced_date = c(
            rf"(?<![\w/.:,+-])(?<!\d\s)(?:(?P<lead>{spaced_led})\s+)?(?P<a>\d{{1,2}})\s+(?P<b>\d{{1,2}})"
            rf"(?:\s+(?P<y>(?:19|20)\d\d|\d\d))?(?![\w/]|[.:,-]\d|\s+\d)"
            rf"(?P<end>(?=\s*(?:[,.;!?)]|$)|\s+(?:{any_of(w.at)})\s))?"
        )
        # "2027 04 22": a year, month and day apart in that order, as logs and forms print them; a
        # four-figure year and two figures each, never inside a run of figures
        self.spaced_year_first = c(
            r"(?<![\w/.:,+-])(?<!\d\s)(?P<y>(?:19|20)\d\d)\s(?P<m>0[1-9]|1[0-2])\s(?P<d>0[1-9]|[12]\d|3[01])"
            r"(?![\w/]|[.:,-]\d|\s+\d)"
        )
        # "am 19.12", "le 19.12": day.month without the final dot after a date's lead word (alone,
        # 22.04 is a time)
        self.lead_dotted_date = c(
            rf"{b}(?:{any_of(w.dotted_date_lead)})\s+(?P<a>\d{{1,2}})\.(?P<b>\d{{1,2}})(?P<y>(?!))?"
            rf"(?![\w/.:,]|\s*(?:{any_of(w.hour_suffix_words)}){e})"
        )
        # "22-04", "22.04", "04-22" without a year: a date only where the region writes it so
        # (Region.day_month_sep), never inside a longer figure, a range or before an hour's word
        self.own_day_month = c(
            rf"(?<![\w/.:+-])(?<!\d,)(?P<a>\d{{1,2}})(?P<sep>[.-])(?P<b>\d{{1,2}})(?P<y>(?!))?"
            rf"(?![\w/:+-]|[.,]\d|\s*(?:{any_of((*w.hour_suffix_words, *w.hour_letters))}){e})"
        )
        # 2027/04/22, 2027.04.22
        self.year_first_date = c(
            r"(?<![\d./-])(?P<y>\d{4})(?P<sep>[/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?![\d])"
        )
        # what text2num writes for a number in words: "22", "24th", "3.", "1er", "22º" (parse.in_figures)
        self.figures = c(rf"(?:\d+(?:{any_of((*w.ordinal_suffixes, *w.day_suffixes))})?[,.]?\s?)+")
        # "June 2027", "junho de 2027", "im Juni 2027": a month of a year (its first day)
        self.month_year = c(rf"{b}(?P<mon>{month})\.?,?\s+(?:{year_joined}\s+)?{year}(?![\d/.:-]\d){e}")
        # "in July", "bis Juli", "d'ici juillet": a month alone after its lead word (not "July" alone)
        self.month_alone = c(rf"{b}(?:{any_of(w.month_alone_lead)})\s+(?P<mon>{month})\.?(?![\w/.-]\d)")
        clock_marks = rf"(?:{noon_mark}|{any_of(w.clock_words_after)})"
        # a part of the day with its preposition after a number: "Monday 6 in the morning" is 06:00
        led_parts = [p for p in w.parts if p.split(" ")[0] in {lead.split(" ")[0] for lead in w.part_lead}]
        if led_parts:
            clock_marks = rf"(?:{clock_marks}|{any_of(led_parts)})"
        # "2018 March 18", "2009 May 22nd", "2027-feb-14": a year before its month and day
        self.year_month_day = c(
            rf"{b}(?P<y>[12]\d{{3}})(?:,?\s+|(?P<dash>[-/]))(?P<mon>{month})\.?(?:\s+|(?P=dash))"
            rf"(?P<d>{day_number}){ordinal}?(?![\d:]){e}"
        )
        slots = {
            "day": Slot(DAY_NUMBER),
            "ordinal": Slot(ordinal, captured=False),
            "day_suffix": Slot(day_suffix, captured=False),
            "day_word": Slot(any_of(w.day_numbers)),  # "dia primeiro", "le premier": a day in words
            # the end of a clause, or a time after it: "le premier." but not "le premier jour"
            "clause_end": Slot("", rf"(?=\s*(?:[,.;:!?)]|$)|\s+(?:{any_of(w.at)})\s)", captured=False),
            # "le 16" but not "le 16h", "le 16:30", "le 31/10", "Friday 1 pm", "viernes 7 o'clock"
            "not_a_time": Slot(
                "", rf"(?!\s*(?:{hour_letter}|:|\d|{clock_marks}(?!\w))|[/.-]\d)", captured=False
            ),
            "weekday": Slot(day, rf"{weekday_suffix}?{plural}?"),
            "any_weekday": Slot(day, rf"{weekday_suffix}?{plural}?", captured=False),
            "every": Slot(any_of(w.every), captured=False),
            # "he came 3rd", "my 5th": a rank or a count, no day of the month
            "not_a_rank": Slot(
                "", "".join(rf"(?<!{WORD_START}{re.escape(x)}\s)" for x in w.rank_lead), captured=False
            ),
        }
        self.day_of_month = c(rf"{b}(?:{templates(w.day_of_month_forms, slots)}){e}")
        weekday_lead = any_of((*w.weekday_lead, *w.weekday_lead_in_captures))
        nxt, last, this = self.next_before, self.last_before, self.this_before
        self.weekday = c(
            rf"{b}(?:(?P<pre>{nxt}|{last}|{this}|{weekday_lead})\s+|(?P<after_next_pre>{after_next_pre})\s+)?"
            rf"(?P<day>{day})(?P<glued>{any_of(w.bare_parts)})?"  # de "Montagmorgen", "Freitagabend"
            rf"(?P<suffix>{weekday_suffix})?(?:\s+(?P<post>{self.next_after}|{self.last_after})"
            rf"|\s+(?P<after_next>{any_of(w.after_next)})|\s+(?P<weeks_later>{any_of(w.weeks_later)}))?{e}"
        )
        # "Jeu 15:12", "mer. à 15h", "sam 12 déc", "dom., 3PM": a weekday's short form (its dot, a
        # comma) before a time or a day
        self.weekday_abbreviation = c(
            rf"{b}(?P<day>{any_of(self.abbreviation_of)})\.?,?(?=\s+(?:(?:{any_of(w.at)})\s+\d|"
            rf"\d{{1,2}}\s*(?:[:.]|{any_of(w.hour_letters)}|(?:{any_of(w.hour_marks)}|{noon_mark}){e})"
            rf"|\d{{1,2}}\.?\s+(?:{month}){e}))"
        )
        # "Mo.", "am Fr.", "Fr. 14 Uhr", "Sa, 21. Sept": a short form with its dot or a comma
        self.weekday_dotted = c(
            rf"{b}(?:(?P<lead>{any_of(w.weekday_lead)})\s+)?(?P<day>{any_of(self.dotted_of)})(?:\.\s*,?|,)"
            rf"(?P<before>(?=\s*(?:(?:{any_of(w.at)})\s+\d|\d{{1,2}}\s*(?:[:.]|{any_of(w.hour_letters)}|"
            rf"(?:{any_of(w.hour_marks)}|{noon_mark}){e})|\d{{1,2}}\.?\s*(?:{month}){e})))?"
        )
        # what may follow a day number a weekday that is another word too is said with ("sat 22",
        # "jue 22", "Do., 22.", "qui., 22 às 10"): the end of its clause, a time's "at" or a clock;
        # not a noun ("we sat 22 people") nor a part of the day ("vie 8 de la mañana" is a clock)
        clock_after = rf"\s+\d{{1,2}}\s*(?:(?:[:.]|{hour_letter})\d\d|{hour_letter}{e})"
        self.day_number_end = c(rf"(?:\s*(?:[,;!?)]|$)|\s+(?:{any_of(w.at)})\s|{clock_after})")
        # "jue 22", "qui., 22", "Do., 22.", "ven. 11 à 15h": a weekday's short form (its dot, a comma)
        # and a day number (a month after it is read as a date first)
        short_weekday = any_of({**self.abbreviation_of, **self.dotted_of})
        self.short_weekday_day = c(
            rf"{b}(?P<day>{short_weekday})(?P<mark>\.?\s*,?)\s+(?P<d>\d{{1,2}})\.?(?![\d.:/-]\d)"
        )
        # "jue., 22 abr.", "qui, 22 de abril", "am Fr, 20. Sept.": the short form (and its lead) just
        # before a date read
        self.short_weekday_before = c(
            rf"{b}(?:(?:{any_of(w.weekday_lead)})\s+)?(?P<day>{short_weekday})(?P<mark>\.?\s*,?)\s*$"
        )
        # "next July", "el próximo julio", "juillet prochain", "julho que vem": the coming one
        article = optional_words(w.month_articles)
        self.month_next = c(
            rf"{b}{article}(?:(?:{nxt})\s+(?P<nm1>{month})|(?P<nm2>{month})\s+(?:{self.next_after})"
            rf"|(?P<after_next_pre>{after_next_pre})\s+(?P<nm3>{month})){e}"
        )
        self.after_tomorrow = c(rf"{b}(?:{any_of(w.after_tomorrow)}){e}")
        # "this morning", "esta manhã", "heute Nachmittag": today at that part's hour (the part the
        # phrase ends with, as the parts table has it)
        self.today_part = c(rf"{b}(?P<w>{any_of(w.today_parts)}){e}")
        self.today_part_of = {
            phrase: next((k for k in w.parts if k.split()[-1] == phrase.split()[-1]), None)
            for phrase in w.today_parts
        }
        self.past_day = c(rf"{b}(?:{any_of((*w.yesterday, *w.before_yesterday))}){e}")
        not_after = "".join(rf"(?<!{re.escape(x)}\s)" for x in w.not_tomorrow_after)
        self.tomorrow = c(rf"{b}{not_after}(?:{any_of(w.tomorrow)}){e}")
        self.tonight = c(rf"{b}(?:{any_of(w.tonight)}){e}")
        self.today = c(rf"{b}(?:{any_of(w.today)}){e}")
        week, weekend, month_word = any_of(w.week), any_of(w.weekend), any_of(w.month)
        # "next week", "the week after next" (the one after it)
        after_next = any_of(w.after_next)
        self.next_week = c(
            rf"{b}(?:(?:{nxt})\s+(?:{week})|{optional_words(w.week_articles)}(?:{week})\s+(?:{self.next_after})"
            rf"|{optional_words(w.articles)}(?:{week})\s+(?P<after_next>{after_next})"
            rf"|(?P<after_next_pre>{after_next_pre})\s+(?:{week})){e}"
        )
        # "Wednesday of next week", "quarta da semana que vem", "mardi de la semaine prochaine"
        self.weekday_next_week = c(
            rf"{b}(?:(?P<pre>{weekday_lead})\s+)?(?P<day>{day}){weekday_suffix}?,?\s+"
            rf"{optional_words(w.weekday_of_week)}(?:(?:{nxt})\s+(?:{week})|"
            rf"{optional_words(w.week_articles)}(?:{week})\s+(?:{self.next_after})){e}"
        )
        # after a weekday: "(sexta) desta semana", "(martes) de esta semana"
        self.of_this_week = c(rf"{optional_words(w.weekday_of_week)}(?:{this})\s+(?:{week}){e}")
        # the other way round: "next week Friday", "nächste Woche am Freitag", "la semaine prochaine
        # vendredi", "na próxima semana, na sexta"
        self.next_week_weekday = c(
            rf"{b}(?:(?:{nxt})\s+(?:{week})|{optional_words(w.week_articles)}(?:{week})\s+(?:{self.next_after}))"
            rf",?\s+(?:(?:{weekday_lead})\s+)?(?P<day>{day}){weekday_suffix}?{e}"
        )
        self.weekend = c(
            rf"{b}(?:(?P<pre>{nxt}|{this}|{any_of(w.weekend_lead)})\s+)?"
            rf"(?:{weekend})(?:\s+(?P<post>{self.next_after}))?{e}"
        )
        self.next_month = c(
            rf"{b}(?:(?:{nxt})\s+(?:{month_word})|{optional_words(w.month_articles)}(?:{month_word})\s+"
            rf"(?:{self.next_after})|{optional_words(w.articles)}(?:{month_word})\s+"
            rf"(?P<after_next>{after_next})|(?P<after_next_pre>{after_next_pre})\s+(?:{month_word})){e}"
        )
        # "November 10th next year", "10 de novembro do ano que vem": a date's year is the next
        self.next_year_after = c(
            rf"\s*,?\s+(?:(?:{any_of(w.of_a_month)})\s+)?{optional_words(w.articles)}"
            rf"(?:(?:{nxt})\s+(?:{any_of(w.year)})|(?:{any_of(w.year)})\s+(?:{self.next_after})){e}"
        )
        # "of" right before what follows ("the fifth of| the month"): searched up to a match's start
        self.of_before = c(rf"{b}(?:{any_of(w.of_a_month)})\s+$")
        # "the 10th of next month", "the 15th of this month": that day of it
        # "of" may be left out or be in its article: "the 28th next month", "dia 28 do próximo mês", "le 28
        # du mois prochain"; or the month said first: "next month on the 28th". Without "of", the day is
        # an ordinal or comes after its article ("room 12 next month" is no date)
        lead = any_of((*w.position_articles, *w.day_articles, *w.month_day_articles))

        def day_then(n: int) -> str:
            return (
                rf"{b}(?P<lead{n}>(?:(?:{lead})\s+){{1,4}})?(?P<d{n}>\d{{1,2}})(?P<suf{n}>{day_suffix})?\s+"
                rf"(?:(?P<of{n}>{any_of(w.of_a_month)})\s+)?"
            )

        self.day_of_this_month = c(
            rf"{day_then(1)}{optional_words(w.articles)}(?:(?P<next>{nxt})\s+|(?:{this})\s+)(?:{month_word}){e}"
            rf"|{day_then(2)}{optional_words((*w.articles, *w.month_articles))}(?:{month_word})\s+"
            rf"(?P<next_after>{self.next_after}){e}"
            rf"|{b}(?P<next3>{nxt})\s+(?:{month_word}),?\s+"
            rf"(?:(?:{any_of(w.position_articles)})\s+){{0,4}}(?P<d3>\d{{1,2}}){day_suffix}{e}"
        )
        year_word = any_of(w.year)  # "next year", "l'année prochaine": its first day, as next month
        self.next_year = c(  # or as said after a date, alone: "l'an prochain" ("an" alone is no year)
            rf"{b}(?:(?:{nxt})\s+(?:{year_word})|{optional_words(w.month_articles)}(?:{year_word})\s+"
            rf"(?:{self.next_after})|(?:{any_of(w.next_year_after)})){e}"
        )

        parts = any_of(w.parts)
        clock_parts = any_of(self.clock_parts)  # after a clock: "3:30 tarde", "9 h 10 du soir"
        self.parts_words = parts
        self.part_here = c(rf"(?:{parts}){e}")  # "ao fim da manhã" is a part, not the day's end
        self.wake = c(  # "alarm clock", "despertador", "Wecker"; "(set an) alarm" starting the text
            rf"{b}(?:{any_of(w.wake_words)}){e}"
            rf"|^\W*(?:{optional_words(w.alarm_leads)}){{0,3}}(?:{any_of(w.alarm_words)}){e}"
        )
        ampm = rf"(?P<ap>{noon_mark})"
        at, hour_after = any_of(w.at), any_of(w.hour_suffix_words)
        letters = rf"(?P<letter>{any_of((*w.before_noon_letters, *w.after_noon_letters))})(?!\w)"
        self.clock_hm = c(
            rf"{b}(?:(?:{at})\s+)?(?P<h>\d{{1,2}})\s*(?P<sep>[:.-]|{hour_letter})\s*(?P<m>\d{{2}})"
            # its seconds after a colon; after a dot only before am/pm ("8.13.14 P.M."; "13.03.12" is a date)
            rf"(?::(?P<sec>\d{{2}})|(?<=\.\d\d)\.(?P<dsec>\d{{2}})(?=\s*(?:{noon_mark})(?!\w)))?(?!\d)(?:{letters}|\s*"
            rf"(?:{ampm}(?!\w)|(?P<uhr>{hour_after}){e}|(?:\s*(?P<part>{clock_parts}){e}))?)"
        )
        # "at 5 people", "at 3 kg", "at 2 hours": a count, not an hour ("à 15 heures" is one)
        counts = any_of(u for u in w.units if u not in w.clock_words_after)
        counted = rf"%|{ordinal}|{any_of(w.not_hour_after)}|{counts}"
        # "330 p.m.", "1430 Uhr", "at 1030", "at 730 in the evening": figures without a colon are a
        # time only with am/pm, an hour's word, a part of the day or "at" before them (not a count:
        # "at 1030 euros"); so are the hour and minutes apart ("at 3 15", "ten thirty am" once in
        # figures), but not before a month ("at 3 15 March")
        self.clock_hhmm = c(
            rf"{b}(?:(?P<at>{at})\s+{about})?"
            rf"(?P<h>\d{{1,2}})(?:(?P<gap>\s+)(?=\d{{2}}(?!\s*(?:{month}){e})))?"
            rf"(?P<m>\d{{2}})(?!\d|[:,/.]\d|\s*(?:{counted}){e})"
            rf"(?:\s*(?:{ampm}(?!\w)|(?P<uhr>{hour_after}){e}|(?P<part>{parts}){e}))?"
        )
        self.after_noon_words = compile_folded(rf"(?:{any_of((*w.after_noon_marks, *w.after_noon_letters))})")
        oclock = any_of(w.clock_words_after)
        marks_any = noon_mark
        # "6 de la mañana", "3 in the afternoon", and the day periods written after an hour ("9 soir")
        spaced_parts = any_of((*(p for p in w.parts if " " in p), *w.clock_periods))
        self.clock_h_suffix = c(
            rf"{b}(?:(?:{at})\s+)?(?P<h>\d{{1,2}})\s*(?:(?P<hh>{hour_letter}){e}|(?P<uhr>{hour_after}){e}|"
            rf"{ampm}(?!\w)|(?P<oclock>{oclock}){e}(?:\s*(?P<ap2>{marks_any})(?!\w))?)"
            rf"(?:\s*(?P<part>{clock_parts}){e}|\s+(?P<ap3>{marks_any})(?!\w))?"  # "3 h p.m."
            rf"|{b}(?P<hw>\d{{1,2}}|{any_of(w.hour_words)})\s+(?P<spaced>{spaced_parts}){e}"
        )
        self.clock_h_letter = c(  # "7p", "at 11a"
            rf"{b}(?:(?:{at})\s+)?(?P<h>\d{{1,2}})"
            rf"(?P<letter>{any_of((*w.before_noon_letters, *w.after_noon_letters))})(?!\w)"
        )
        self.clock_at = c(
            rf"{b}(?P<at>(?:{at})(?<!@)(?=\s)|@)\s*{about}(?:(?P<h>\d{{1,2}})|(?P<hw>{any_of(w.hour_words)})|"
            rf"(?P<hw24>{any_of(w.hour_words_24)})(?=\s*(?:{oclock})))(?![\d:.,/])"
            rf"(?!\s*(?:{counted}|(?:{any_of(w.day_month_joiners)})\s+(?:{month})){e})"
            rf"(?:\s*(?P<mark>{oclock}))?(?:\s*(?P<part>{clock_parts}){e}|\s*{ampm}(?!\w))?"
        )
        self.hour_articles = compile_folded(rf"(?:{any_of(w.hour_articles)})")
        # "half past 4", "quarter to 6", "20 past 3", "4 e meia", "6 menos cuarto", "halb 6", "6h moins
        # le quart", "viertel nach 4": a time of day in words (read on the 12-hour clock like "at 4")
        marks = any_of(w.hour_marks)
        hour_word = (  # "quinze" is an hour only as "quinze heures"
            rf"(?:\d{{1,2}}|{any_of((*w.hour_words, *w.noon, *w.midnight))}|"
            rf"{any_of(w.hour_words_24)}(?=\s*(?:{marks})))"
        )
        minute_word = rf"(?:{any_of(w.minute_amounts)}|\d{{1,2}})"
        marks = any_of(w.hour_marks)
        mark = rf"(?:\s*(?:{marks}))?"
        minute_noun = any_of(w.minute_nouns)
        self.clock_phrase = c(
            rf"{b}(?:(?P<at>{at})\s+)?(?:"
            rf"(?P<m1>{minute_word})\s+(?:(?:{minute_noun})\s+)?"
            rf"(?P<dir>{any_of(w.minutes_past)}|{any_of(w.minutes_to)})\s+"
            rf"{optional_words(w.hour_articles)}(?P<h1>{hour_word}){mark}"
            rf"|(?P<h2>{hour_word})(?:\s*(?P<ap3>{marks_any})(?!\w))?"
            rf"{mark}\s+"
            rf"(?P<join>{any_of(w.hour_and)}|{any_of(w.hour_less)})\s+"
            rf"(?P<m2>{minute_word})(?:\s+(?:{minute_noun}))?"
            rf"|(?P<before>{any_of((*w.before_hour, *w.after_hour))})\s+"
            rf"(?P<h3>{hour_word})(?:\s*(?:{hour_after}))?"
            # "quinze heures trente", "9 Uhr 30", "midi quinze": the minutes after the hour's mark
            rf"|(?P<h4>(?:\d{{1,2}}|{any_of((*w.hour_words, *w.hour_words_24))})\s*(?:{marks})|"
            rf"{any_of((*w.noon, *w.midnight))})"
            rf"\s+(?P<m4>{minute_word})"
            rf")(?:{ampm}(?!\w)|{e}(?:\s*(?:(?P<part>{clock_parts}){e}|"  # "am Nachmittag" before "am"
            rf"(?P<ap2>{noon_mark})(?!\w)))?)"
        )
        self.noon_words = frozenset(w.noon)
        self.noon_or_midnight = c(rf"{b}(?:{any_of((*w.noon, *w.midnight))}){e}")
        hour_names = (*w.hour_words, *w.hour_words_24, *w.noon, *w.midnight)
        self.hour_in_words = compile_folded(rf"\d{{1,2}}|{any_of(hour_names)}")
        self.midnight_words = frozenset(w.midnight)
        self.marked_hour = compile_folded(rf"\d\s*(?:{marks})\s")  # "4 horas e 10": an hour for sure
        # right after an hour in figures, the mark of the 24-hour clock ("4 Uhr 15", "4h et quart")
        self.mark_24 = compile_folded(rf"\s*(?:{any_of((*w.hour_letters, *w.hour_suffix_words))}){e}")
        self.counted_minutes = compile_folded(rf"\b(?:{minute_noun})\b")  # "15 minuten vor 12"
        self.minutes_to = compile_folded(rf"(?:{any_of(w.minutes_to)})")
        self.hour_less = compile_folded(rf"(?:{any_of(w.hour_less)})")
        self.clock_word = c(  # not the end of a word with a hyphen ("après-midi" is no noon)
            rf"(?<![\w-])(?:(?:{any_of(w.noon_lead)})\s+)?(?P<w>{any_of(w.noon)}|{any_of(w.midnight)}){e}"
        )
        self.part_of_day = c(rf"{b}(?:(?:{any_of(w.part_lead)})\s+)?(?P<part>{parts}){e}")
        # a range's start is when it is due: "from 5 to 16 Aug", "15-18 Nov", "5. bis zum 16.8."
        # (the day number before the date, read with its month), "between 6 and 8 AM", "zwischen 6
        # und 8h", "9.30 - 10.45" (the first clock, in the half of the day the second says)
        to = rf"(?:{any_of((*w.range_joiners, *DASHES))})"
        self.range_and = compile_folded(rf"(?:{any_of(w.and_words)})").fullmatch
        # "today and tomorrow", "at noon today and 5:45 tomorrow": a list of times (parse.py reads its first)
        self.list_and = c(rf"\s+(?:{any_of(w.and_words)})\s+")
        # a word its first side needs to name a day or a time of its own ("dia 5 e 10 de janeiro" is
        # one month's two days: the month is said once, after them); a reading costs more than this
        said = (*w.today, *w.tomorrow, *w.tonight, *w.weekdays, *w.months, *w.noon, *w.midnight)
        self.list_day = c(rf"{b}(?:{any_of(said)}){e}")
        # "10 August - 12 September 2013", "du 10 août au 12 septembre 2013": the way to the range's end
        joiners = (*DASHES, *(j for j in w.range_joiners if j not in w.and_words))  # "and": two dates
        self.range_to_end = compile_folded(rf"\s*(?:{any_of(joiners)})\s+|\s*[-–]\s*")
        # a weekday may name either end: "du samedi 13 au lundi 15 juillet"
        either_weekday = rf"(?:(?:{day}){weekday_suffix}?,?\s+)?"
        self.range_start_day = c(
            rf"(?<![\w.,/:-])(?:(?P<from>{any_of(w.range_from)})\s+{optional_words(w.day_articles)})?"
            rf"{either_weekday}(?P<d>\d{{1,2}}){day_suffix}?\s*(?P<to>{to})\s*{either_weekday}$"
        )
        # the end's mark says the range's half of the day: "3-4pm", "3-4p", "10 - 11 at night"
        end_letter = rf"(?P<letter2>{any_of((*w.before_noon_letters, *w.after_noon_letters))})(?!\w)"
        clock_end = (
            rf"(?P<h2>\d{{1,2}})(?:(?P<sep2>[:.]|{hour_letter})?(?P<m2>\d{{2}}))?(?!\d)"
            rf"(?:\s*(?:{ampm}(?!\w)|(?P<uhr>{hour_after}){e}|(?P<hh>{hour_letter}){e})|{end_letter}"
            rf"|\s*(?P<part>{clock_parts}){e})?"
        )
        # "das 10h às 11h30", "10h-11h30": either clock with its hour letter, alone or before minutes
        # "today 3-5", "Friday 9-11": a range of bare hours right after the day it is on
        self.day_before_hours = c(rf"{b}(?:{any_of((*w.today, *w.tomorrow, *w.weekdays))})\.?,?\s+$")
        self.clock_range = c(
            rf"{b}(?:(?P<from>{any_of(w.range_from)})\s+)?{optional_words(w.hour_articles)}"
            rf"(?:(?P<noon1>{any_of(w.noon)})|"  # "de midi à 14h", "between noon and 2pm": from 12:00
            rf"(?P<h1>\d{{1,2}})(?:(?P<sep1>[:.]|{hour_letter})?(?P<m1>\d{{2}}))?(?!\d)"
            rf"(?:\s*(?P<ap1>{noon_mark})(?!\w)|(?P<hh1>{hour_letter}){e})?)"
            rf"\s*(?P<to>{to})\s*{optional_words(w.hour_articles)}{clock_end}(?![\w/.:-]\d)"
        )
        # the end of a range whose start was read, taken out of the text with it (the start is when
        # it is due): a weekday ("from Monday to Wednesday"), a day of the month ("Feb 12 to the
        # 15th"), a clock with its mark ("das 15h às 17h"), noon or midnight ("from midnight to noon"),
        # an hour alone where the text ends ("3pm - 5."); "to 5 people" is no end
        joiners = (*DASHES, *(j for j in w.range_joiners if j not in w.and_words))
        end_weekday = rf"{optional_words(w.day_articles)}(?:{day}){weekday_suffix}?"
        text_end = r"(?=\s*(?:$|[,;!?)]|\.(?:\s|$)))"
        end_day = (
            rf"{optional_words((*w.day_articles, *w.month_day_articles))}\d{{1,2}}(?:{day_suffix}|{text_end})"
        )
        end_clock = (
            rf"{optional_words(w.hour_articles)}(?:\d{{1,2}}(?:(?:[:.]|{hour_letter})\d{{2}})?\s*(?:{noon_mark}|{hour_letter}|{hour_after})"
            rf"|{any_of((*w.noon, *w.midnight))})"
        )
        self.range_end = c(rf"\s*(?:{any_of(joiners)})\s*(?:{end_weekday}|{end_clock}|{end_day}){e}")
        range_lead = any_of((*w.range_from, *w.day_range_from))
        self.range_lead = c(rf"{b}(?:{range_lead})\s+{optional_words(w.day_articles)}$")

        # recurrences
        self.every_part = c(rf"{b}(?P<w>{any_of(w.every_part)}){e}")
        every = any_of(w.every)
        self.month_position = c(
            rf"{b}(?:(?P<every>{any_of(w.every_month)}),?\s+|(?P<each>{every})\s+)?"
            rf"(?:(?:{any_of(w.position_articles)})\s+){{0,4}}"
            rf"(?P<ord>{any_of(w.month_ordinals)})\s+(?:(?P<day>{day})(?:{plural})?{weekday_suffix}?|"
            rf"(?P<dayword>{any_of(w.month_day_words)}))(?:\s+(?P<of>{any_of(w.of_the_month)})(?!\s+(?:{any_of(w.next_after)}){e})|"
            # "the second Tuesday of next month", "the last day of the year"
            # "of" may be left out or be in its article: "the third Monday next month", "do próximo mês",
            # "du mois prochain", "nächsten Monats"
            rf"\s+(?:(?:{any_of(w.of_a_month)})\s+)?{optional_words(w.articles)}"
            rf"(?:(?P<next>{any_of(w.next_before)})\s+|(?:{any_of(w.this_before)})\s+)?"
            rf"(?P<period>{any_of(w.month)}|{any_of(w.year)})(?:\s+(?P<next_after>{any_of(w.next_after)}))?{e}|"
            rf"\s+{optional_words(w.of_a_month)}(?P<mon>{month})"
            # "October 2015", "de outubro de 2015", "de octubre del 2015"
            rf"(?:,?\s+(?:(?:{any_of(w.year_joiners)})\s+)?(?P<y>\d{{4}}))?)?{e}"
        )
        # "le premier week-end de septembre", "the last weekend of May": that weekend's Saturday
        self.weekend_of_month = c(
            rf"{b}(?:(?:{any_of(w.position_articles)})\s+){{0,4}}(?P<ord>{any_of(w.month_ordinals)})\s+"
            rf"(?:{any_of(w.weekend)})\s+(?:{any_of(w.of_a_month)})\s*(?P<mon>{month})(?:,?\s+(?P<y>\d{{4}}))?{e}"
        )
        self.every_other_weekday = c(rf"{b}(?:{templates(w.every_other_weekday_forms, slots)}){e}")
        self.calendar_units = any_of(w.calendar_units)
        self.every_n_units = c(
            rf"{b}(?:(?P<other>{any_of(w.every_other)})|(?:{every})\s+(?P<n>\d+|{any_of(w.numbers)}))\s+"
            rf"(?P<unit>{self.calendar_units}){e}"
        )
        # pt "segundas-feiras": the day's plural before its suffix, in the plural too
        days = rf"(?:{day}){plural}?{weekday_suffix}?"
        # a day of a list may say its lead again: "los lunes y los martes", "on Mondays and on Thursdays"
        again = optional_words(
            (*w.weekday_lead, *w.weekdays_lead, *w.day_articles, *w.except_lead, *w.days_alone_lead)
        )
        and_words = (
            rf"(?:,(?:\s*(?:{any_of(w.and_words)}){WORD_END})?|(?:{any_of(w.and_words)}))"  # "X, Y, and Z"
        )
        self.every_weekdays = c(
            rf"{b}(?:(?P<lead>{every})|(?P<plural_lead>{any_of(w.weekdays_lead)}))\s+"
            rf"(?P<days>{days}(?:\s*{and_words}\s*{again}{days})*){e}"
        )
        # "twice a month", "3 times a week", "uma vez por semana", "zweimal im Monat", "deux fois par mois"
        self.times_per = c(
            rf"{b}(?:(?P<tw>{any_of(w.times_words)})|(?P<n>{amount})\s*(?:{any_of(w.times_nouns)}))\s+"
            rf"(?:{any_of(w.per_words)})\s+(?P<unit>{self.calendar_units}){e}"
        )
        self.every_weekend = c(
            rf"{b}(?:(?:{every})\s+(?:{weekend}){plural}?|{any_of(w.weekends_every)}|"
            rf"(?P<timed>{any_of(w.weekends_timed)})){e}"
        )
        # "Monday evenings", "on Friday mornings", "segundas à noite" is a plural day and a part
        self.weekday_part_plural = c(
            rf"{b}(?:(?:{weekday_lead})\s+)?(?P<day>{day}){plural}?{weekday_suffix}?\s*"  # de "montagabends"
            rf"(?P<pp>{any_of(w.part_plurals)}){e}"
        )
        # fr "le samedi matin": a habit (not with a date after it: "le samedi 12 au matin")
        self.weekday_part_habit = c(
            rf"{b}(?:{any_of(w.habit_weekday_lead)})\s+(?P<day>{day})\s+"
            rf"(?P<part>{any_of(w.habit_weekday_parts)}){e}(?!\s*,?\s*\d)"
        )
        # "Tuesdays at 7pm", "les samedis à 10h": plural days without "every" (a time after them);
        # not a day whose short form ends as a plural does ("tues", "thurs", "weds": one day)
        singular = any_of(
            d for d in w.weekdays for p in w.plural_endings if d.endswith(p) and d[: -len(p)] in w.weekdays
        )
        self.plural_weekdays = c(
            rf"{b}(?P<days>(?!(?:{singular}){e})(?:{day})(?:{plural}){weekday_suffix}?"
            rf"(?:\s*{and_words}\s*{again}{days})*){e}"
        )
        # "every 2 weeks on Monday and Thursday": the days of the weeks
        self.on_days = c(
            rf"{b}(?:(?:{weekday_lead})\s+)?(?P<days>{days}(?:\s*{and_words}\s*{again}{days})*){e}"
        )
        # "Wöchentlich am Di., Do.", "le mar., jeu.", "a cada ter., qui.": weekdays by their short
        # forms (a dot or none) in a list; the text's language says which day each is (parse.py)
        short = any_of({*self.abbreviation_of, *self.dotted_of, *self.listed_of, *w.weekdays})
        self.short_days = c(
            rf"{b}(?:(?:(?P<every>{every})|{weekday_lead})\s+)?"
            rf"(?P<days>(?:{short})\.?(?:\s*{and_words}\s*(?:{short})\.?)*)(?!\w)"
        )
        self.short_day_words = compile_folded(rf"(?<!\w)(?:{short})(?P<dot>\.)?(?!\w)")
        self.day_words = compile_folded(day)
        self.plural_day = compile_folded(rf"(?:{plural}){WORD_END}")
        adverbs = any_of(w.weekday_adverbs)
        self.weekday_adverbs = c(rf"{b}(?P<days>(?:{adverbs})(?:\s*{and_words}\s*(?:{adverbs}))*){e}")
        self.adverb_words = compile_folded(adverbs)
        monthly = [
            *w.monthly_day_forms,
        ]
        self.monthly_day = c(
            rf"{b}(?:{templates(monthly, slots)}|(?:{any_of(w.every_month_before_day)}),?\s+"
            rf"(?:(?:{any_of(w.monthday_lead)})\s+)?(?:(?:{any_of(w.month_day_words)})\s+)?"
            rf"(?P<day_{len(monthly)}>\d{{1,2}}){day_suffix}?){e}"
        )
        self.every_unit = c(rf"{b}(?:{every})\s+(?P<unit>{self.calendar_units}){e}")
        # not right after a word that makes it a noun ("au quotidien", "un hebdomadaire")
        as_noun = "".join(rf"(?<!{WORD_START}{re.escape(word)} )" for word in w.freq_not_after)
        # "everyday" before a noun is an adjective ("everyday clothes"): a frequency only before a
        # time, punctuation or nothing ("stretch everyday at 8")
        adjective = "".join(rf"(?<!{re.escape(word)})" for word in w.freq_adjectives)
        then = rf"(?=\s*(?:$|[^\w\s]|\d|(?:{any_of(w.freq_adjective_then)}){WORD_END}))"
        apart = rf"(?:{adjective}|{then})" if w.freq_adjectives else ""
        self.freq_word = c(
            rf"{b}{as_noun}(?P<w>{any_of(w.freq_words)})(?:{any_of(w.freq_endings)})?{e}{apart}"
        )
        self.every_weekday = c(rf"{b}(?:{any_of(w.weekdays_every)}){e}")
        self.yearly = compile_folded(rf"\b(?:{any_of(w.yearly_words)})\b")
        self.reminder_cue = reminder_cue(w)

        # titles and fields
        self.due_filler = compile_folded(rf"^(?:{any_of(w.due_filler)}|,|-|\s)*$")
        self.title_lead = compile_folded(rf"^\s*(?:{any_of(w.title_lead)})\s+")
        self.dangling = compile_folded(any_of(w.dangling))

    # -- questions (window.py) ---------------------------------------------------------------------

    def _questions(self, w: Language) -> None:
        # the question's folded text is lower case: no re.I, which costs questions twice the time
        b, e, c = WORD_START_NOT_ELIDED, WORD_END, re.compile

        def cues(words: Iterable[str]) -> re.Pattern[str]:
            return c(rf"(?<!\w)(?:{any_of(words)})(?!\w)")

        self.due_cues = cues(w.due_cues)
        self.created_cues = cues(w.created_cues)
        self.done_cues = cues(w.done_cues)
        self.past_cues = cues(w.past_cues)
        self.future_cues = cues(w.future_cues)
        self.cue_particles = c(rf"\b(?:{any_of(w.cue_particles)})\b")

        nxt, last, this = self.next_before, self.last_before, self.this_before
        nextp, lastp = self.next_after, self.last_after
        article = rf"(?:{any_of(w.articles)})"
        month, weekday = any_of(w.months), any_of(w.weekdays)
        count = rf"(?:\d{{1,4}}|{any_of(w.numbers)})"
        glue = r"(?:(?<=\d)\s*|\s+)"  # "1d ago", "2 days ago"; a number in words only spaced
        day_units = any_of(u for u, (kind, _) in w.units.items() if kind in ("days", "months", "years"))
        self.period_unit = {
            **{u: "week" for u in w.week},
            **{u: "month" for u in w.month},
            **{u: "year" for u in w.year},
            **w.period_words,
        }
        period = any_of(self.period_unit)
        slots = {
            "unit": Slot(period),
            "anchor": Slot(any_of(w.anchor_units)),
            "while": Slot(any_of(w.while_words)),
            "since": Slot(any_of(w.since)),
            "event": Slot(r"\S.*"),
        }
        late = "|".join(
            rf"(?:{any_of([word])})(?=\s+(?:{any_of(nouns)})(?!\w))"
            for word, nouns in w.overdue_before.items()
        )
        self.overdue = c(rf"{b}(?:{any_of(w.overdue)}{'|' + late if late else ''}){e}")
        this_so_far = [f for f in w.so_far_forms]
        self.so_far = c(rf"{b}(?:{templates(this_so_far, slots)}){e}")
        self.until_end = c(rf"{b}(?:{templates(w.until_end_forms, slots)}){e}")
        year_joined = rf"(?:{any_of(w.year_joiners)})"
        self.month_half = c(
            rf"{b}{optional_words(w.month_part_lead)}(?P<part>{any_of(w.month_parts)})"
            rf"[- ]?{optional_words(w.month_part_joiners)}(?P<mon>{month})"
            rf"(?:\s+(?:{year_joined}\s+)?(?P<y>\d{{4}}))?{e}"
        )
        weekday_suffix = rf"(?:{any_of(w.weekday_suffixes)})"
        weekday_lead = any_of((*w.weekday_lead, *w.weekday_lead_in_questions))
        self.question_weekday = c(
            rf"{b}(?:(?P<pre>{nxt}|{last}|{this}|{weekday_lead})\s+)?"
            rf"(?P<day>{weekday})(?P<suffix>{weekday_suffix})?(?:\s+(?P<post>{nextp}|{lastp}))?{e}"
        )
        to = rf"(?:{any_of((*w.range_joiners, *DASHES))})"
        day_article = optional_words(w.day_articles)
        range_from = optional_words(w.range_from)
        self.weekday_range = c(
            rf"{b}{range_from}{day_article}(?P<a>{weekday}){weekday_suffix}?"
            rf"\s*{to}\s+{day_article}(?P<b>{weekday}){weekday_suffix}?{e}"
        )
        self.month_range = c(
            rf"{b}{range_from}(?P<a>{month})\s*{to}\s+(?P<b>{month})(?:\s+(?:{year_joined}\s+)?(?P<y>\d{{4}}))?{e}"
        )
        self.question_month = c(
            rf"{b}(?:(?P<pre>{nxt}|{last}|{this}|{any_of(w.month_lead)})\s+)?(?P<mon>{month})\.?"
            rf"(?:\s+(?P<post>{nextp}|{lastp}|(?:{year_joined}\s+)?\d{{4}}))?{e}"
        )
        before_year = any_of((*w.last_year_before, *w.this_year_before, *w.next_year_before))
        after_year = any_of((*w.last_year_after, *w.this_year_after, *w.next_year_after))
        self.holiday = c(
            rf"{b}(?:(?P<q1>{nxt}|{last}|{this}|{before_year})\s+)?(?:{article}\s+)?"
            rf"(?P<name>{any_of(self.holidays)})(?:{any_of(w.possessive_endings)})?(?:\s+(?P<wk>{any_of(w.weekend)}))?"
            rf"(?:\s+(?P<q2>{after_year}|(?:{year_joined}\s+)?\d{{4}}))?{e}"
        )
        self.season = c(
            rf"{b}(?P<q>{nxt}|{last}|{this}|{any_of(w.season_lead)})\s*(?<=[\s'])(?P<name>{any_of(self.seasons)})"
            rf"(?:\s+(?P<q2>{lastp}|{nextp}|{any_of(w.last_year_after)}|(?:{year_joined}\s+)?\d{{4}}))?{e}"
        )
        counted_next, counted_last = any_of(w.next_after_count), any_of(w.last_after_count)
        self.next_n = c(
            rf"{b}{optional_words(w.span_lead)}{optional_words(w.span_articles)}"
            rf"(?:(?P<dir>{nxt}|{last})\s+(?P<n>{count})\s+(?P<u>{day_units})"
            rf"|(?P<n2>{count})\s+(?P<dir2>{counted_next}|{counted_last})\s+(?P<u2>{day_units})"
            rf"|(?:{any_of(w.these)})\s+(?P<n3>{count})\s+(?P<dir3>{counted_last}|{counted_next})\s+(?P<u3>{day_units})"
            rf"|(?P<n4>{count})\s+(?P<u4>{day_units})\s+(?P<dir4>{nextp}|{lastp})){e}"  # "3 semanas que vem"
        )
        self.counted_last = compile_folded(rf"(?:{counted_last})")
        self.ago = c(
            rf"{b}(?:(?:{any_of(w.ago_before)})\s+{optional_words(w.about)}(?P<n>{count}){glue}(?P<u>{day_units})|"
            rf"{optional_words(w.about)}(?P<n2>{count}){glue}(?P<u2>{day_units})\s+(?:{any_of(w.ago_after)})){e}"
        )
        not_after = "".join(rf"(?<!{re.escape(x)}\s)" for x in w.not_tomorrow_after)
        self.dayword = c(
            rf"{b}(?:(?P<after>{any_of(w.after_tomorrow)})|(?P<before>{any_of(w.before_yesterday)})|"
            rf"(?P<today>{any_of(w.today)}|{any_of(w.tonight)}|{any_of(w.today_parts)})|"
            rf"(?P<tomorrow>{not_after}(?:{any_of(w.tomorrow)}))|(?P<yesterday>{any_of(w.yesterday)})){e}"
        )
        self.yesterday_only_with = {
            word: c(rf"\b(?:{any_of(confirming)})\b") for word, confirming in w.yesterday_only_with.items()
        }
        weekend_lead = any_of((*w.weekend_lead, *w.weekend_lead_in_questions))
        self.question_weekend = c(
            rf"{b}(?:(?P<pre>{nxt}|{last}|{this}|{weekend_lead})\s+)?"
            rf"(?:{any_of(w.weekend)})(?:\s+(?P<post>{nextp}|{lastp}))?{e}"
        )

        def period_patterns(unit_words: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
            following = rf"{optional_words(w.articles)}(?:{unit_words})\s+"  # "l'année dernière"
            return (
                c(rf"{b}(?:(?:{nxt})\s+(?:{unit_words})|{following}(?:{nextp})){e}"),
                c(rf"{b}(?:(?:{last})\s+(?:{unit_words})|{following}(?:{lastp})){e}"),
                c(rf"{b}(?:{this})\s+(?:{unit_words}){e}"),
            )

        self.week_periods = period_patterns(any_of(w.week))
        self.month_periods = period_patterns(any_of(w.month))
        self.year_periods = period_patterns(any_of(w.year))
        self.since = c(rf"{b}(?:{any_of(w.since)})\s+")
        self.finite = c(rf"\b(?:{any_of(w.finite_verbs)})\b")
        self.range_after = c(rf"\s*{to}\s")
        self.before = c(rf"{b}(?:{any_of(w.before)})\s+")
        self.just_before = c(rf"{b}(?P<near>{any_of(w.just_before)})\s+$")
        self.period_out = c(rf"\s+(?:{any_of(w.period_out)}){e}")
        self.after = c(rf"{b}(?:{any_of(w.after)})\s+")
        self.anchor = c(rf"{b}(?:{templates(w.anchor_forms, slots)})$")
        self.purpose = c(rf"(?:^|\s)(?:{any_of(w.purpose_words)})\s+{optional_words(w.articles)}$")
        self.takes_effect = c(rf"(?:^|\s)(?:{any_of(w.from_words)})\s+$")
        self.question_dangling = c(rf"\b(?:{any_of(w.dangling_in_questions)})\s*$")

    def which(self, before: str | None, after: str | None) -> str | None:
        """ "next", "last" or "this" as the words before and after a period say (None: neither)."""
        before, after = before or "", after or ""
        if self.is_next_before(before) or self.is_next_after(after):
            return "next"
        if self.is_last_before(before) or self.is_last_after(after):
            return "last"
        if self.is_this_before(before):
            return "this"
        return None

    def year_said(self, before: str, after: str) -> int | None:
        """-1, 0 or 1 for "last year's", "this year", "next year" around a named day, else None."""
        for shift, words in (
            (-1, (*self.words.last_year_before, *self.words.last_year_after)),
            (0, (*self.words.this_year_before, *self.words.this_year_after)),
            (1, (*self.words.next_year_before, *self.words.next_year_after)),
        ):
            if _spaced(before) in words or _spaced(after) in words:
                return shift
        return None


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


GRAMMAR = Grammar(LANGUAGES)
