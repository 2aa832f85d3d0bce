"""A repeat rule said in the person's language: `say_rule("FREQ=DAILY;INTERVAL=2")` -> "every 2
days"; "FREQ=MONTHLY;BYMONTHDAY=1" in Portuguese -> "todos os meses no dia 1". The one place a rule
becomes words: the CLI, the window, notifications and exports' human text all use it, so a raw
RRULE never reaches a screen. What it cannot say in words it says as "repeats (custom)".
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from dateutil.relativedelta import relativedelta

from core.when.languages import LANGUAGES as ALL_LANGUAGES

# Per language (core/when/languages): the names of the days, of each frequency alone and with an
# interval, and the phrases around days of the week and of the month; and times in words for the
# command line (the window uses Qt's locale data for the names).
WORDS: dict[str, dict] = {lang.code: lang.rule_words for lang in ALL_LANGUAGES if lang.rule_words}
CLOCK_WORDS: dict[str, dict] = {lang.code: lang.clock_words for lang in ALL_LANGUAGES if lang.clock_words}
LANGUAGES = tuple(WORDS)
_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_WORKDAYS = ("MO", "TU", "WE", "TH", "FR")
_WEEKEND = ("SA", "SU")
# parts the reminder's due time already says (the day of a yearly rule, the hour of a daily one)
_SAID_BY_THE_DUE_TIME = {"FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST", "BYMONTH", "BYMONTHDAY", "BYHOUR",
                         "BYMINUTE", "BYSECOND"}  # fmt: skip


def say_when(moment: datetime, now: datetime, lang: str = "en") -> str:
    """A moment in the reader's local time, in words: "today 14:30", "tomorrow 09:00", "Fri 21 Mar
    16:30" within the week, "21 Mar 16:30" this year, "21 Mar 2027" beyond."""
    words = CLOCK_WORDS[lang if lang in CLOCK_WORDS else "en"]
    local, today = moment.astimezone(now.tzinfo), now.date()
    days = (local.date() - today).days
    hm = local.strftime("%H:%M")
    if days in (-1, 0, 1):
        return f"{words[{-1: 'yesterday', 0: 'today', 1: 'tomorrow'}[days]]} {hm}"
    month = words["months"][local.month - 1]
    if -6 <= days <= 6:
        return f"{words['days'][local.weekday()]} {local.day} {month} {hm}"
    if local.year == today.year:
        return f"{local.day} {month} {hm}"
    return f"{local.day} {month} {local.year}"


MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip


def say_window(start: datetime, end: datetime, now: datetime, overdue: bool = False) -> str:
    """A window in the app's words, for a question asked in another language: "tomorrow", "on
    Tue 8 Dec", "next week", "in March", "from 7 Dec to 20 Dec", "overdue"."""
    if overdue:
        return "overdue"
    words = CLOCK_WORDS["en"]
    today = now.date()

    def day(d: date, weekday: bool = True) -> str:
        said = f"{d.day} {words['months'][d.month - 1]}"
        if weekday and abs((d - today).days) <= 6:
            said = f"{words['days'][d.weekday()]} {said}"
        return said if d.year == today.year else f"{said} {d.year}"

    first, last = start.date(), (end - timedelta(microseconds=1)).date()
    if start == now and end.time() == time(0):  # "till the end of the month"
        return f"until {day(last)}"
    if start.time() != time(0) or end.time() != time(0):  # a part of a day, or up to now
        hours = f"{start:%H:%M}" if start.time() != time(0) else ""
        until = "now" if end == now else f"{end:%H:%M}" if first == end.date() else day(end.date())
        on = {-1: "yesterday", 0: "today", 1: "tomorrow"}.get((first - today).days) or f"on {day(first)}"
        if first == last and hours:
            return f"{on} from {hours} to {until}"
        return f"since {day(first)}" if until == "now" else f"from {day(first)} to {until}"
    if first == last:
        return {-1: "yesterday", 0: "today", 1: "tomorrow"}.get((first - today).days) or f"on {day(first)}"
    monday = today - timedelta(days=today.weekday())
    if first.weekday() == 0 and (last - first).days == 6:
        weeks = {0: "this week", 7: "next week", -7: "last week"}
        return weeks.get((first - monday).days) or f"the week of {day(first, weekday=False)}"
    if first.day == 1 and last == first + relativedelta(months=1) - timedelta(days=1):
        month = MONTH_NAMES[first.month - 1]
        return f"in {month}" if first.year == today.year else f"in {month} {first.year}"
    if (first.month, first.day, last.month, last.day) == (1, 1, 12, 31) and first.year == last.year:
        return f"in {first.year}"
    return f"from {day(first, weekday=False)} to {day(last, weekday=False)}"


def say_reading(
    due: datetime, rrule: str | None, now: datetime, ambiguous: str | None = None, lang: str = "en"
) -> str:
    """What the grammar read, to be seen before it counts: "Thu 22 Apr 10:00", the year when it is
    not this one, the repeat in words, and the doubt the grammar had (When.ambiguous)."""
    words = CLOCK_WORDS[lang if lang in CLOCK_WORDS else "en"]
    local = due.astimezone(now.tzinfo)
    said = f"{words['days'][local.weekday()]} {local.day} {words['months'][local.month - 1]}"
    if local.year != now.year:
        said += f" {local.year}"
    said += local.strftime(" %H:%M:%S" if local.second else " %H:%M")
    if rrule:
        said += f", {say_rule(rrule, lang)}"
    if ambiguous:
        said += f" ({ambiguous})"
    return said


def _parts(rrule: str) -> dict[str, str]:
    text = str(rrule).strip()
    lines = [ln for ln in text.replace("\\n", "\n").splitlines() if ln.strip()]
    rule = next((ln for ln in lines if not ln.upper().startswith(("DTSTART", "EXDATE", "RDATE"))), "")
    rule = rule.strip().upper().removeprefix("RRULE:")
    parts: dict[str, str] = {}
    for piece in rule.split(";"):
        key, _, value = piece.partition("=")
        if key and value:
            parts[key.strip()] = value.strip()
    return parts


def _day_list(lang: str, codes: list[str], *, plural: bool) -> str | None:
    words = WORDS[lang]
    if not all(c in _DAYS for c in codes):
        return None
    names = words["plural"] if plural and "plural" in words else words["days"]
    said = [names[_DAYS.index(c)] for c in codes]
    return _listed(said, words["and"])


def _listed(said: list[str], joiner: str) -> str:
    """ "a, b and c": the last joined by `joiner` (the language's "and", with its spaces)."""
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + joiner + said[-1]


def _monthday(lang: str, day: int) -> str:
    if lang == "en":
        suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
        return f"{day}{suffix}"
    if lang == "fr" and day == 1:
        return "1er"
    return str(day)


def _monthday_list(lang: str, days: list[int]) -> str:
    said = [_monthday(lang, d) + ("." if lang == "de" else "") for d in days[:-1]]
    return _listed([*said, _monthday(lang, days[-1])], WORDS[lang]["and"])


def _ordinal(words: dict, n: int, weekday: int) -> str:
    """The ordinal `n` said before the weekday (0 = Monday): pt "no último domingo" but "na
    última sexta" (the days' genders, when the language has them)."""
    if weekday in words.get("masculine_days", ()):
        return words["ordinals_masculine"][n]
    return words["ordinals"][n]


def say_rule(rrule: str | None, lang: str = "en") -> str:
    """The rule in words ("" for none): "every 2 days", "todos os meses no dia 1", "montags"."""
    if not rrule:
        return ""
    lang = lang if lang in WORDS else "en"
    words = WORDS[lang]
    p = _parts(rrule)
    freq = p.get("FREQ", "")
    if freq not in words["every"]:
        return words["custom"]
    try:
        n = int(p.get("INTERVAL", "1"))
    except ValueError:
        return words["custom"]
    every = words["every"][freq] if n == 1 else words["every_n"][freq].format(n=n)
    said = every
    byday = [d for d in p.get("BYDAY", "").split(",") if d]
    months = p.get("BYMONTH", "").split(",")  # said after the rest, but by a yearly weekday's own words
    if byday and freq == "WEEKLY":
        if not all(d in _DAYS for d in byday):
            return words["custom"]
        byday = sorted(set(byday), key=_DAYS.index)
        if n == 1 and byday == list(_WORKDAYS):
            said = words["workdays"]
        elif n == 1 and byday == list(_WEEKEND):
            said = words["weekends"]
        else:
            days = _day_list(lang, byday, plural=True) or words["custom"]
            said = (words["weekly_on"] if n == 1 else words["weekly_n_on"]).format(days=days, n=n)
    elif byday and freq in ("DAILY", "HOURLY", "MINUTELY"):  # "every hour, every weekday"
        if not all(d in _DAYS for d in byday):
            return words["custom"]
        byday = sorted(set(byday), key=_DAYS.index)
        days = _day_list(lang, byday, plural=True) or words["custom"]
        on = words["workdays"] if byday == list(_WORKDAYS) else words["weekly_on"].format(days=days)
        said = on if freq == "DAILY" and n == 1 else f"{every}, {on}"  # every day but Sunday: those days
    elif byday and freq in ("MONTHLY", "YEARLY") and "BYSETPOS" in p:  # "every month on the last weekday"
        days = ",".join(sorted(set(byday), key=lambda d: _DAYS.index(d) if d in _DAYS else 9))
        pos = int(p["BYSETPOS"]) if p["BYSETPOS"].lstrip("-").isdigit() else 0
        if days not in words.get("set_days", {}) or pos not in words["ordinals"]:
            return words["custom"]
        nth = words.get("ordinals_masculine", words["ordinals"])[pos]
        said = words["nth_day"].format(every=every, nth=nth, day=words["set_days"][days])
        if freq == "YEARLY" and p.get("BYMONTH"):  # "every year on the last weekday in December"
            if not all(mon.isdigit() and 1 <= int(mon) <= 12 for mon in months):
                return words["custom"]
            in_months = [words["in_month"][int(mon) - 1] for mon in months]
            said += " " + _listed(in_months, words.get("and_nth", words["and"]))
            months = []  # said already
    elif byday and freq == "MONTHLY" and len(byday) > 1:  # "the first and third Friday"
        positions = [re.fullmatch(r"([+-]?\d)(MO|TU|WE|TH|FR|SA|SU)", d) for d in byday]
        pairs = [(int(f.group(1)), _DAYS.index(f.group(2))) for f in positions if f]
        if len(pairs) < len(byday) or not all(n in words["ordinals"] for n, _ in pairs):
            return words["custom"]
        if len({wd for _, wd in pairs}) == 1:  # "the first and third Friday"
            ns = sorted({n for n, _ in pairs}, key=lambda n: (n < 0, n))
            said_ns = [_ordinal(words, n, pairs[0][1]) for n in ns]
            joined = _listed(said_ns, words.get("and_nth", words["and"]))
            said = words["nth_day"].format(every=every, nth=joined, day=words["days"][pairs[0][1]])
        else:  # "the first Tuesday and the last Thursday": each position with its day
            said_pairs = [f"{_ordinal(words, n, wd)} {words['days'][wd]}" for n, wd in pairs[:-1]]
            # the last one's day is said by the phrase itself ("... and the last Thursday of")
            nth = _listed([*said_pairs, _ordinal(words, *pairs[-1])], words.get("and_nth", words["and"]))
            said = words["nth_day"].format(every=every, nth=nth, day=words["days"][pairs[-1][1]])
    elif byday and freq == "MONTHLY" and len(byday) == 1:
        m = re.fullmatch(r"([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)", byday[0])
        pos = int(m.group(1) or p.get("BYSETPOS", "0") or 0) if m else 0
        if not m or pos not in words["ordinals"]:
            return words["custom"]
        wd = _DAYS.index(m.group(2))
        said = words["nth_day"].format(every=every, nth=_ordinal(words, pos, wd), day=words["days"][wd])
    elif byday and freq == "YEARLY" and len(byday) == 1 and p.get("BYMONTH"):
        # "every year on the fourth Thursday in November", "... in January and July"
        m = re.fullmatch(r"([+-]?\d)(MO|TU|WE|TH|FR|SA|SU)", byday[0])
        if not m or int(m.group(1)) not in words["ordinals"]:
            return words["custom"]
        if not all(mon.isdigit() and 1 <= int(mon) <= 12 for mon in months):
            return words["custom"]
        wd = _DAYS.index(m.group(2))
        said = words["nth_day"].format(
            every=every, nth=_ordinal(words, int(m.group(1)), wd), day=words["days"][wd]
        )
        in_months = [words["in_month"][int(mon) - 1] for mon in months]
        said += " " + _listed(in_months, words.get("and_nth", words["and"]))
        months = []  # said already
    elif (
        freq == "YEARLY"
        and "BYWEEKNO" in p
        and byday in ([], ["MO"])
        and not set(p) - _SAID_BY_THE_DUE_TIME - {"BYWEEKNO", "BYDAY"}
    ):  # "every year in week 20": on its Monday
        weeks = p["BYWEEKNO"].split(",")
        if not all(w.isdigit() and 0 < int(w) <= 53 for w in weeks):
            return words["custom"]
        listed = _listed([str(w) for w in sorted({int(w) for w in weeks})], words["and"])
        said = words["weekno" if len(weeks) == 1 else "weeknos"].format(every=every, weeks=listed)
    elif byday:
        return words["custom"]
    elif "BYMONTHDAY" in p and freq == "MONTHLY":
        try:
            monthdays = [int(d) for d in p["BYMONTHDAY"].split(",")]
        except ValueError:
            return words["custom"]
        if monthdays == [-1]:
            said = words["last_day"].format(every=every)
        elif len(monthdays) == 1 and monthdays[0] in (-2, -3):  # "the second to last day"
            nth = words.get("ordinals_masculine", words["ordinals"])[monthdays[0]]
            said = words["nth_day"].format(every=every, nth=nth, day=words["day_noun"])
        elif all(0 < day <= 31 for day in monthdays):  # "every month on the 1st and 15th"
            said = words["monthday"].format(every=every, day=_monthday_list(lang, sorted(set(monthdays))))
        else:
            return words["custom"]
    elif "BYYEARDAY" in p and freq == "YEARLY" and not set(p) - _SAID_BY_THE_DUE_TIME - {"BYYEARDAY"}:
        yeardays = p["BYYEARDAY"].split(",")
        if not all(d.isdigit() and 0 < int(d) <= 366 for d in yeardays):
            return words["custom"]
        said = words["yearday"].format(
            every=every, day=_monthday_list(lang, sorted({int(d) for d in yeardays}))
        )
    elif set(p) - _SAID_BY_THE_DUE_TIME:
        return words["custom"]
    if len(months) > 1:  # "every day in January and in April"
        if not all(m.isdigit() and 1 <= int(m) <= 12 for m in months):
            return words["custom"]
        in_months = [words["in_month"][int(m) - 1] for m in months]
        said += " " + _listed(in_months, words.get("and_nth", words["and"]))
    if "COUNT" in p and p["COUNT"].isdigit():
        said = words["count"].format(rule=said, n=int(p["COUNT"]))
    if "UNTIL" in p:
        found = re.match(r"(\d{4})(\d{2})(\d{2})", p["UNTIL"])
        if found:
            until = datetime(int(found.group(1)), int(found.group(2)), int(found.group(3)))
            said = words["until"].format(rule=said, date=until.strftime("%Y-%m-%d"))
    return said
