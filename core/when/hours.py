"""The clock a text says: hours in figures and in words ("9am", "15h", "half past 4", "halb 6",
"6h moins le quart"), ranges of hours, parts of the day, and which of the 24 hours a bare hour is
(the rules are listed in parse.py's docstring)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.when.language import fold
from core.when.patterns import Grammar
from core.when.reading import Text, spaced

TONIGHT_HOUR = 20  # "tonight" without a time


AFTERNOON_UNTIL = 7  # with a day named, a bare hour 1..7 is the afternoon ("tomorrow at 3": 15:00)


NIGHT_FROM = 20  # a part of the day from this hour is the night ("in der Nacht", "at night")


SMALL_HOURS_UNTIL = 6  # without one, a bare 1..6 is too: nobody means 04:30 without saying "am"


TONIGHT_SMALL_HOURS_UNTIL = 5  # "tonight at 1..4" are the night's small hours; "tonight at 5" 17:00


@dataclass
class Clock:
    h: int
    m: int
    exact: bool  # read on a 24-hour clock as written
    ampm: str | None  # "am" | "pm" from the words around it
    padded: bool = False  # "09:00", "09h": written on a 24-hour clock for sure
    s: int = 0  # seconds ("10:30:15")
    part: str | None = None  # no clock said, only this part of the day (its hour is h)
    midnight: bool = False  # said as a word ("midnight", "meia-noite")
    # minutes before the hour said ("oito menos um quarto", "quarter to 8": h is 7): the hour said
    # says which half of the day, as it does alone ("amanhã às oito" 08:00, so 07:45)
    before_said: bool = False

    def wake(self) -> None:
        """An alarm or a waking said with a repeat ("alarm every weekday at 7:30", "Wecker jeden
        Tag um 6"): its bare hour is the morning's, not the afternoon a repeat's 1-7 is."""
        if self.ampm is None and 1 <= self.h <= 11 and not self.padded and self.part is None:
            self.ampm = "am"

    def hint(self, part: str, g: Grammar) -> None:
        """A part of the day said beside it ("tomorrow morning at 8", "tous les soirs à 9h")
        says which half of the day an hour up to 12 means (not "09h", not 15:00)."""
        if self.ampm is None and 1 <= self.h <= 12 and not self.padded:
            self.ampm = _ampm(g, None, part, self.h)


def _phrase_ok(g: Grammar, m: re.Match) -> bool:
    """A clock phrase with a number for the minutes ("20 past 3") is a time only with "at", am/pm,
    a part of the day or an hour mark ("5 to 6 people" is not; "dia 5 e 10" is not)."""
    minutes = m.group("m1") or m.group("m2") or m.group("m4")
    hour = m.group("h1") or m.group("h2") or m.group("h3") or _hour_word_of(g, m.group("h4")) or ""
    if hour.isdigit() and not 0 < int(hour) < 24:
        return False
    if m.group("before") and spaced(m.group("before")) in g.words.after_hour and hour.isdigit():
        return bool(m.group("at"))  # "at half 8"; "half 2 cups" is no time
    if minutes and minutes.isdigit():
        marked = bool(g.marked_hour.search(m.group(0)))
        counted = bool(g.counted_minutes.search(m.group(0)))  # "15 minuten vor 12"
        named = spaced(hour) in g.noon_words | g.midnight_words  # "5 para meio dia"
        return int(minutes) < 60 and bool(
            m.group("at")
            or m.group("ap")
            or m.group("ap2")
            or m.group("ap3")
            or m.group("part")
            or marked
            or counted
            or named
        )
    return True


_FIGURES = re.compile(r"\d{1,2}")


def _phrase_clock(g: Grammar, m: re.Match) -> Clock:
    """ "half past 4" -> 4:30, "quarter to 6" -> 5:45, "halb 6" -> 5:30 (on the 12-hour clock
    unless the hour is past 12)."""

    def number(word: str, table: dict[str, int]) -> int:
        if word.isdigit():
            return int(word)
        word = spaced(word)
        return 12 if word in g.noon_words else 24 if word in g.midnight_words else table[word]

    w = g.words
    hours = {**w.hour_words, **w.hour_words_24}
    hour = spaced(m.group("h1") or m.group("h2") or m.group("h3") or _hour_word_of(g, m.group("h4")) or "")
    named = hour in g.noon_words | g.midnight_words  # "a quarter to noon": on the 24-hour clock
    before = False  # minutes before the hour said
    if m.group("h3") and spaced(m.group("before")) in w.after_hour:  # "half eight": 8:30
        h, mi = number(m.group("h3"), hours), w.after_hour[spaced(m.group("before"))]
    elif m.group("h3"):
        h, mi, before = number(m.group("h3"), hours) - 1, w.before_hour[spaced(m.group("before"))], True
    elif m.group("h1"):
        h, mi = number(m.group("h1"), hours), number(m.group("m1"), w.minute_amounts)
        if g.minutes_to.fullmatch(m.group("dir")):
            h, mi, before = h - 1, 60 - mi, True
    elif m.group("h2"):
        h, mi = number(m.group("h2"), hours), number(m.group("m2"), w.minute_amounts)
        if g.hour_less.fullmatch(m.group("join")):
            h, mi, before = h - 1, 60 - mi, True
    else:  # "quinze heures trente": as written, on the 24-hour clock past 12
        h, mi = number(hour, hours), number(m.group("m4"), w.minute_amounts)
    if named:
        return Clock(h % 24, mi % 60, True, None)
    # the hour in figures with its 24-hour mark ("4 Uhr 15", "4h et quart") is read as written,
    # as "4 Uhr" and "4h" are
    said = next((k for k in ("h1", "h2", "h4") if m.group(k) and m.group(k)[:1].isdigit()), None)
    figures = _FIGURES.match(m.string, m.start(said)) if said else None
    marked = figures is not None and g.mark_24.match(m.string, figures.end()) is not None
    h = 12 if h == 0 and not marked else h
    ap = _ampm(g, m.group("ap") or m.group("ap2") or m.group("ap3"), m.group("part"), h)
    return Clock(h, mi % 60, (h > 12 or marked) and ap is None, ap, before_said=before)


def said_clock(t: Text) -> Clock | None:
    """The time of day: a clock ("14:30", "at 9", "half past 4", noon) or a part of the day ("in
    the morning", "tomorrow evening"), the part saying which half of the day a clock means."""
    taken = len(t.spans)
    clock = _numeric_clock(t)
    part = _part_of_day(t, t.spans[taken][0] if clock is not None and len(t.spans) > taken else None)
    part = part or t.glued_part
    if clock is None:
        return Clock(t.g.words.parts[part], 0, True, None, part=part) if part else None
    if part:
        clock.hint(part, t.g)
    return clock


def _part_of_day(t: Text, clock_at: int | None) -> str | None:
    """A part of the day said with its preposition ("in the morning"), as an adverb ("abends"), or
    beside other time words ("tomorrow morning", "morning at 8")."""
    w = t.g.words

    def beside_time_words(m: re.Match) -> bool:
        s, e = m.span("part")
        if m.group("part") not in w.bare_parts:
            return False
        after_time = any(end <= s and _adjacent(t.g, t.folded[end:s]) for _, end in t.spans)
        before_time = any(start >= e and _adjacent(t.g, t.folded[e:start]) for start, _ in t.spans)
        before_clock = clock_at is not None and e <= clock_at and _adjacent(t.g, t.folded[e:clock_at])
        return after_time or before_time or before_clock

    m = t.search(
        t.g.part_of_day,
        accept=lambda m: (
            " " in m.group(0).strip()
            or "'" in m.group("part")  # with its elided article, as "le soir" ("l'après-midi")
            or m.group("part") in w.part_adverbs
            or beside_time_words(m)
        ),
    )
    if not m:
        return None
    t.take(m)
    return spaced(m.group("part"))


def _adjacent(g: Grammar, between: str) -> bool:
    """Nothing between a part of the day and other time words, or just "of" ("the evening of 7 July")."""
    between = between.strip()
    return not between or between in g.words.of_a_month


def _after_at(g: Grammar, m: re.Match) -> bool:
    """The match is said after "at" ("at 10 to 3", "@ 15 to 7pm")."""
    before = m.string[: m.start()].rstrip().rsplit(" ", 1)[-1]
    return m.group(0).lstrip().startswith(g.words.at) or before in g.words.at


def range_ends(t: Text) -> None:
    """The end of a range whose start was read ("from Monday to Wednesday", "das 15h às 17h", "Feb
    12 to the 15th", "from midnight to noon") is taken with the word that opens it: the start is when
    it is due, and the whole range leaves the text (a reminder's title keeps no "to Wednesday")."""
    for s, e in sorted(t.spans):
        m = t.g.range_end.match(t.folded, e)
        if m is None or not m.group(0).strip():
            continue
        t.take_span(e, m.end())
        lead = t.g.range_lead.search(t.folded, 0, s)
        if lead:
            t.take_span(*lead.span())


def _clock_range(t: Text) -> Clock | None:
    """The first clock of a range ("between 6 and 8 AM", "zwischen 6 und 8h", "9:30 - 10:45"),
    in the half of the day the second says ("11 - 1pm": 11am). Without "from"/"between" only
    with a mark of hours or minutes, or as bare hours right after their day ("today 3-5"; "5-6"
    alone is not a time; "5 and 6" never is)."""
    g = t.g

    def ok(m: re.Match) -> bool:
        h1, h2 = int(m.group("h1") or 12), int(m.group("h2"))
        if m.group("noon1"):  # "from noon to 2pm", "entre midi et 2": said, and a later hour
            return h2 < 24 and int(m.group("m2") or 0) < 60 and bool(m.group("from"))
        if h1 >= 24 or h2 >= 24 or int(m.group("m1") or 0) >= 60 or int(m.group("m2") or 0) >= 60:
            return False
        said = bool(m.group("from"))
        if not said and g.minutes_to.fullmatch(spaced(m.group("to"))) and _after_at(g, m):
            return False  # "at 10 to 3 pm": ten minutes to three, not a range
        marked = bool(
            m.group("ap")
            or m.group("ap1")
            or m.group("uhr")
            or m.group("hh")
            or m.group("letter2")
            or m.group("part")
            or _lettered(m)
        )
        glued = [bool(m.group(mm) and not m.group(sep)) for mm, sep in (("m1", "sep1"), ("m2", "sep2"))]
        if all(glued) and 19 <= h1 <= 20 and 19 <= h2 <= 20 and not marked:
            return False  # "from 2010 to 2015": years
        if any(glued) and not (said or marked):  # "0930 - 1045"
            return all(glued)
        if g.range_and(spaced(m.group("to"))):  # "5 and 6" is two numbers
            return said
        if "." in m.group(0):  # "05.08 - 16.08" may be dates: a range of clocks only said so
            return said or marked
        if said or marked or bool(m.group("m1") and m.group("m2")):
            return True
        # "today 3-5", "Friday 9-11", "tomorrow 10-11:30": the first a bare hour, the earlier, right
        # after their day
        bare = not m.group("m1") and 0 < h1 < h2 <= 12
        return bare and g.day_before_hours.search(fold(t.original), 0, m.start()) is not None

    m = t.search(g.clock_range, accept=ok)
    if not m:
        return None
    t.take(m)
    if m.group("noon1"):
        return Clock(12, 0, True, None)
    h1, h2 = int(m.group("h1")), int(m.group("h2"))
    ap = _ampm(g, m.group("ap1"), None) or _ampm(g, m.group("ap") or m.group("letter2"), m.group("part"), h2)
    if ap and not m.group("ap1") and h1 % 12 > h2 % 12:
        ap = "am" if ap == "pm" else "pm"  # "11 - 1pm": 11am
    exact = ap is None and (
        h1 >= 13 or h1 == 0 or bool(m.group("uhr") or m.group("hh")) or h2 >= 13 or _lettered(m)
    )
    padded = m.group("h1").startswith("0")
    return Clock(h1, int(m.group("m1") or 0), exact or padded, ap, padded=padded)


def _lettered(m: re.Match) -> bool:
    """Whether a range's clock carries its hour letter ("10h", "11h30"): a clock on the 24 hours."""
    return bool(m.group("hh1") or any(m.group(sep) and m.group(sep) not in ":." for sep in ("sep1", "sep2")))


def _dotted_clock(t: Text, m: re.Match) -> bool:
    """Whether "15.30" is a clock: with its mark ("Uhr", "pm", "in the afternoon") or "at", in a
    region that writes its clock so (en_DK, en_FI), or right after the date it is on ("22/04/2027,
    15.30": a second date cannot follow the first)."""
    if m.group("uhr") or m.group("ap") or m.group("part") or m.group(0).strip().startswith(t.g.words.at):
        return True
    return t.region.clock_dot or any(
        end <= m.start() and not t.original[end : m.start()].strip(" ,") for _, end in t.spans
    )


def _numeric_clock(t: Text) -> Clock | None:
    g = t.g
    ranged = _clock_range(t)
    if ranged is not None:
        return ranged
    m = t.search(g.clock_phrase, accept=lambda m: _phrase_ok(g, m))
    if m:
        t.take(m)
        return _phrase_clock(g, m)
    m = t.search(
        g.clock_hm,
        accept=lambda m: (
            int(m.group("h")) < 24
            and int(m.group("m")) < 60
            and not (m.group("sep") == "." and not _dotted_clock(t, m))
            # "at 17-59", "5-59 pm": minutes no hour can be (not "10-12", a range; not "12-31")
            and not (
                m.group("sep") == "-"
                and not (
                    int(m.group("m")) >= 24
                    and (m.group("ap") or m.group("letter") or m.group(0).strip().startswith(g.words.at))
                )
            )
        ),
    )
    if m:
        t.take(m)
        h, mi = int(m.group("h")), int(m.group("m"))
        ap = _ampm(g, m.group("ap") or m.group("letter"), m.group("part"), h)  # "3:15p", "12:30 nachts"
        exact = (
            m.group("h").startswith("0")
            or h >= 13
            or h == 0
            or m.group("sep") not in ":."
            or bool(m.group("uhr"))
            or t.region.clock_24h  # "Flug um 7:45": where the 24-hour clock is written, as written
        ) and ap is None
        return Clock(
            h,
            mi,
            exact,
            ap,
            padded=m.group("h").startswith("0"),
            s=int(m.group("sec") or m.group("dsec") or 0),
        )
    m = t.search(g.clock_hhmm, accept=lambda m: _hhmm_ok(t, m))
    if m:
        t.take(m)
        h, mi = int(m.group("h")), int(m.group("m"))
        ap = _ampm(g, m.group("ap"), m.group("part"), h)
        padded = m.group("h").startswith("0")
        exact = ap is None and (h >= 13 or h == 0 or padded or bool(m.group("uhr")))
        return Clock(h, mi, exact, ap, padded=padded)
    m = t.search(g.clock_h_suffix, accept=lambda m: _hour_of(g, m.group("h") or m.group("hw")) < 24)
    if m:
        t.take(m)
        if m.group("spaced"):  # "6 de la mañana", "3 in the afternoon"
            h = _hour_of(g, m.group("hw"))
            return Clock(h, 0, h >= 13, _ampm(g, None, m.group("spaced"), h))
        h = int(m.group("h"))
        ap = _ampm(g, m.group("ap") or m.group("ap2") or m.group("ap3"), m.group("part"), h)
        if (m.group("ap") or m.group("ap3")) and not 1 <= h <= 12:
            return None
        if m.group("oclock"):  # "3 o'clock": on the 12-hour clock, as "at 3"
            return Clock(h, 0, h >= 13 or h == 0, ap)
        return Clock(h, 0, ap is None, ap, padded=m.group("h").startswith("0"))
    m = t.search(g.clock_h_letter, accept=lambda m: 1 <= int(m.group("h")) <= 12)
    if m:
        t.take(m)
        return Clock(int(m.group("h")), 0, False, _ampm(g, m.group("letter"), None))
    m = t.search(g.clock_at, accept=lambda m: _at_ok(t, m))
    if m:
        h = _hour_of(g, m.group("h") or m.group("hw") or m.group("hw24"))
        t.take(m)
        ap = _ampm(g, m.group("ap"), m.group("part"), h)
        return Clock(h, 0, (h >= 13 or h == 0) and ap is None, ap)
    m = t.search(g.clock_word)
    if m:
        t.take(m)
        noon = spaced(m.group("w")) in g.words.noon
        return Clock(12 if noon else 0, 0, True, None, midnight=not noon)
    return None


_BARE_HOUR = re.compile(r"(?<![\w:.,/+-])(?P<h>\d{1,2})(?=\s+\Z)")


PART_HOUR_REACH = 3  # a bare hour before a part of the day is that part's within these hours


def hour_before_part(t: Text, part: Clock | None) -> Clock | None:
    """A bare hour right before the day and the part of the day read ("call mum 11 tonight", "7
    demain matin", "9 heute Abend"), in that part's half of the day; only an hour that part has
    ("table for 4 tonight" is no 16:00)."""
    part_hour = part.h if part is not None else TONIGHT_HOUR
    for start, _ in sorted(t.spans):
        m = _BARE_HOUR.search(t.folded, 0, start)
        if m is None or not 1 <= int(m.group("h")) <= 12:
            continue
        said = Clock(int(m.group("h")), 0, False, None)
        if part is not None and part.part is not None:
            said.hint(part.part, t.g)
        hour = clock_hour(said, with_day=True, evening=part is None or part_hour >= NIGHT_FROM)
        if min(abs(hour - part_hour), 24 - abs(hour - part_hour)) > PART_HOUR_REACH:
            continue
        t.take(m)
        return Clock(hour, 0, True, None)
    return None


def _hhmm_ok(t: Text, m: re.Match) -> bool:
    """ "330 p.m." (on the 12-hour clock), "1430 Uhr", "at 730 in the evening", "at 1030", "at 3 15"
    and "ten thirty am" (in figures, the hour and minutes apart): figures without a colon; after
    "at" alone not what reads as a year ("at 2026") nor a number of a street ("at 1030 Main
    Street": a capital after it)."""
    h, mi = int(m.group("h")), int(m.group("m"))
    if mi >= 60:
        return False
    if m.group("ap"):
        return 1 <= h <= 12
    if h >= 24:
        return False
    if m.group("uhr") or m.group("part"):
        return True
    if m.group("gap"):  # "at 3 15": the hour and its minutes apart
        return bool(m.group("at")) and 0 < h
    named_after = re.match(r"\s+[^\W\d_]", t.original[m.end() :]) and t.capital(m.end() + 1)
    return bool(m.group("at")) and not 19 <= h <= 20 and not named_after


def _hour_word_of(g: Grammar, said: str | None) -> str | None:
    """The hour of "quinze heures", "9 Uhr" (the words before the mark)."""
    if said is None:
        return None
    found = g.hour_in_words.match(said)
    return found.group(0) if found else said


def _hour_of(g: Grammar, word: str) -> int:
    """An hour in figures or words ("three", "quinze")."""
    if word.isdigit():
        return int(word)
    word = spaced(word)
    return g.words.hour_words.get(word) or g.words.hour_words_24[word]


LAST_WORDS = re.compile(r"\s*[.!?]?\s*\Z")


def _at_ok(t: Text, m: re.Match) -> bool:
    """ "at 3", "às 15h": an hour. In words ("at three") only with what says it is one: o'clock,
    am/pm or a part of the day after it, an article of hours before it ("às três", "a las
    tres"), or a day read before it and nothing after it ("tomorrow at ten"; not "at two
    options", "dîner à deux demain"); pt "a",
    "as" are "at" only written "à", "às" (or with that after them)."""
    said = bool(m.group("mark") or m.group("part") or m.group("ap"))
    if _hour_of(t.g, m.group("h") or m.group("hw") or m.group("hw24")) >= 24:
        return False
    at = spaced(m.group("at"))
    if at in t.g.words.at_needs_accent and not (t.accented(m.start("at")) or said):
        return False
    if m.group("hw") and not said:
        # or as the text's last words after the day ("tomorrow at ten", "5 June at eleven")
        after_day = any(end <= m.start() for _, end in t.spans)
        last = after_day and LAST_WORDS.match(t.original, m.end()) is not None
        return bool(t.g.hour_articles.fullmatch(at.split(" ")[-1])) or last
    return True


def _ampm(g: Grammar, ap: str | None, part: str | None, h: int | None = None) -> str | None:
    """ "am"/"pm" as the mark or the part of the day says; at night (a part from NIGHT_FROM) 12
    and the small hours are the morning's ("12 Uhr in der Nacht" is midnight, "1 at night" 01:00)."""
    if ap:
        return "pm" if g.after_noon_words.fullmatch(spaced(fold(ap))) else "am"
    if part:
        part = spaced(part)
        night = g.clock_parts.get(part, 0) >= NIGHT_FROM
        if night and h is not None and (h == 12 or h < SMALL_HOURS_UNTIL):
            return "am"
        return "pm" if part in g.pm_parts else "am" if part in g.am_parts else None
    return None


def clock_hour(c: Clock, *, with_day: bool, evening: bool) -> int:
    """The 24-hour hour of a clock read with a day (`with_day`) or tonight (`evening`)."""
    if c.ampm == "pm":
        return c.h % 12 + 12
    if c.ampm == "am":
        return c.h % 12
    if evening and c.h < 12 and not c.padded and not c.midnight:
        if 1 <= c.h < TONIGHT_SMALL_HOURS_UNTIL:
            return c.h  # "tonight at 2": the night's small hours (14:00 is no night)
        return c.h + 12  # "heute Abend um 8 Uhr", "ce soir à 8h": 20:00 (not "08h")
    if c.exact:
        return c.h
    said = c.h % 12 + 1 if c.before_said else c.h
    if with_day and 1 <= said <= AFTERNOON_UNTIL:
        return c.h % 12 + 12
    return c.h
