"""A question's time words as a date window: "next week", "since Monday", "so far this month",
"the first half of March", "Monday to Sunday", "over Christmas", "Labor Day weekend last year",
"amanhã", "la semana pasada", "bis Ende des Monats", "samedi dernier" ...

`find_window(question, now)` -> (TimeWindow | None, the question without its time words). The
window says which dates it is about: due dates ("what's on", anything ahead), capture dates
("what did I note down"), done dates ("what did I get done"), or any of them. A window around an
event ("the week Mãe moved in", "while we were in Toronto") carries the
event's words in `anchor`; recall finds the event and places the window (`TimeWindow.around`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

from core.when import words as W
from core.when.holidays import NAMED, SEASONS, weekend_of

# dates are written the same in a capture and in a question: one set of patterns
from core.when.parse import DAY_MONTH, MONTH_DAY
from core.when.parse import ISO_DATE as ISO

# An event's window: the week around it (3 days before, 4 after), its day, its weekend, the days
# it lasted. ("after X" is not one: measured, the event's words find the wrong X too often.)
ANCHOR_BEFORE_DAYS = {"week": 3, "day": 0, "weekend": 1, "while": 1}
ANCHOR_AFTER_DAYS = {"week": 4, "day": 1, "weekend": 2, "while": 3}


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime  # exclusive
    label: str  # the words that made it
    dates: str  # "due" | "created" | "done" | "any"
    overdue: bool = False
    anchor: str | None = None  # the event's words, when the window is around an event
    anchor_kind: str | None = None  # "week" | "day" | "weekend" | "while"
    named: str | None = None  # a holiday's or season's name: a topic word too

    def holds(self, when: datetime | None) -> bool:
        return when is not None and self.start <= when < self.end

    def around(self, first: datetime, last: datetime | None = None) -> TimeWindow:
        """The window of an event found at `first` (to `last`, for an event of several days)."""
        kind = self.anchor_kind or "week"
        day = datetime.combine(first.date(), time(0), tzinfo=first.tzinfo)
        end_day = datetime.combine((last or first).date(), time(0), tzinfo=first.tzinfo)
        return replace(
            self,
            start=day - timedelta(days=ANCHOR_BEFORE_DAYS[kind]),
            end=end_day + timedelta(days=ANCHOR_AFTER_DAYS[kind]),
        )


# -- the cues of a question ------------------------------------------------------------------------


def _cues(*words: str) -> re.Pattern:
    return re.compile(rf"(?<!\w)(?:{W.alt([W.fold(w) for w in words])})(?!\w)")


DUE_CUES = _cues(
    "due",
    "on",
    "to do",
    "todo",
    "need to",
    "have to",
    "got to",
    "remind",
    "deadline",
    "coming up",
    "upcoming",
    "scheduled",
    "planned",
    "appointment",
    "appointments",
    "happening",
    "agenda",
    "have on",
    "what's on",
    "tenho",
    "tenho de",
    "tenho que",
    "preciso",
    "marcado",
    "marcada",
    "compromisso",
    "compromissos",
    "consulta",
    "consultas",
    "pendente",
    "tengo",
    "tengo que",
    "pendiente",
    "cita",
    "citas",
    "toca",
    "steht",
    "ansteht",
    "muss",
    "termin",
    "termine",
    "erledigen",
    "j'ai",
    "dois",
    "rendez-vous",
    "prevu",
    "a faire",
)
CREATED_CUES = _cues(
    "note",
    "noted",
    "notes",
    "wrote",
    "write",
    "written",
    "saved",
    "save",
    "captured",
    "capture",
    "added",
    "jotted",
    "jot",
    "logged",
    "escrevi",
    "anotei",
    "apontei",
    "notei",
    "guardei",
    "registei",
    "registrei",
    "escribi",
    "anote",
    "apunte",
    "guarde",
    "notiert",
    "aufgeschrieben",
    "geschrieben",
    "gespeichert",
    "ecrit",
    "enregistre",
)
# done: the person's own finishing, not a finished thing ("her finished screenplay")
DONE_CUES = _cues(
    "get done",
    "got done",
    "gotten done",
    "ticked off",
    "checked off",
    "crossed off",
    "have i done",
    "have we done",
    "i've done",
    "did i finish",
    "did i complete",
    "have i finished",
    "have i completed",
    "i finished",
    "i completed",
    "accomplished",
    "conclui",
    "terminei",
    "despachei",
    "termine",
    "complete",
    "acabe",
    "erledigt",
    "abgehakt",
    "geschafft",
    "j'ai fini",
    "j'ai termine",
    "accompli",
)
PAST_CUES = _cues(
    "did",
    "was",
    "were",
    "had",
    "happened",
    "went",
    "got",
    "ago",
    "last",
    "noted",
    "wrote",
    "said",
    "been",
    "fiz",
    "fizemos",
    "foi",
    "fomos",
    "aconteceu",
    "estive",
    "tive",
    "passada",
    "passado",
    "escrevi",
    "hice",
    "hicimos",
    "fue",
    "fuimos",
    "paso",
    "estuve",
    "tuve",
    "pasada",
    "pasado",
    "war",
    "waren",
    "hatte",
    "gewesen",
    "passiert",
    "gemacht",
    "notiert",
    "fait",
    "etait",
    "ete",
    "avons",
    "dernier",
    "derniere",
)
FUTURE_CUES = _cues(
    "next",
    "coming",
    "will",
    "going to",
    "plan",
    "planned",
    "before",
    "proxima",
    "proximo",
    "vou",
    "vamos",
    "que vem",
    "que viene",
    "voy",
    "nachste",
    "nachsten",
    "werde",
    "prochain",
    "prochaine",
    "vais",
    "allons",
)

# -- the regex pieces (on folded text) -------------------------------------------------------------

_B, _E = r"(?<![\w'])", r"(?![\w])"
_NEXT, _LAST, _THIS = W.alt(W.NEXT_PRE), W.alt(W.LAST_PRE), W.alt(W.THIS_PRE)
_NEXTP, _LASTP = W.alt(W.NEXT_POST), W.alt(W.LAST_POST)
_ART = r"(?:the|a|o|la|el|le|l'|die|der|das|dem|den|da|do|de la|del|du|de)"
_MONTH, _WD = W.alt(W.MONTHS), W.alt(W.WEEKDAYS)
_NUM = rf"(?:\d{{1,3}}|{W.alt(W.NUMBERS)})"
_DAYUNITS = W.alt([u for u, (k, _) in W.UNITS.items() if k in ("days", "months", "years")])
_HOLIDAYS = W.alt(NAMED)
_SEASONS = W.alt(SEASONS)
# holiday names that are everyday words too: only capitalised
_AMBIGUOUS_NAMES = frozenset(
    W.fold(n)
    for n in (
        "assumption",
        "ascension",
        "natal",
        "reyes",
        "noel",
        "fallas",
        "falles",
        "el pilar",
        "the fourth",
        "festas",
        "fiestas",
        "les fetes",
        "reveillon",
        "nye",
        "midsummer",
        "the holidays",
        "entrudo",
    )
)

_UNIT_OF = {
    **{w: "week" for w in W.WEEK},
    **{w: "month" for w in W.MONTH},
    **{w: "year" for w in W.YEAR},
    "monats": "month",
    "monatsende": "month",
    "jahres": "year",
    "wochenende": "week",
    "fin de mes": "month",
}
_PERIOD_UNIT = W.alt(list(_UNIT_OF))


def _r(p: str) -> re.Pattern:
    return re.compile(p)


OVERDUE = _r(
    rf"{_B}(?:overdue|past due|late (?=reminders|things|tasks)|atrasad[oa]s?|em atraso|"
    rf"vencid[oa]s?|uberfallig\w*|en retard){_E}"
)
SO_FAR = _r(
    rf"{_B}(?:so far (?:this |in )?(?P<a>{_PERIOD_UNIT})|(?:this|esta|este|neste|nesta|diese[nrs]?|ce|cette)\s+"
    rf"(?P<b>{_PERIOD_UNIT})\s+(?:so far|ate agora|hasta ahora|bisher|jusqu'ici|jusqu'a present)"
    rf"|en lo que (?:va|llevamos) de(?:l)?\s+(?:la\s+)?(?P<c>{_PERIOD_UNIT})"
    rf"|(?:since the (?:start|beginning) of|desde o (?:inicio|comeco) d[oa]|desde (?:el )?(?:inicio|principio) de(?:l)?(?: la)?|"
    rf"seit (?:anfang|beginn) (?:des|der|dieses|dieser)|depuis le debut (?:de la|du|de l'|de cette|de ce))\s+"
    rf"(?:(?:this|the|este|esta|dieses|dieser)\s+)?(?P<d>{_PERIOD_UNIT})"
    rf"|(?P<e>week|month|year)[- ]to[- ]date){_E}"
)
UNTIL_END = _r(
    rf"{_B}(?:(?:the\s+)?rest of (?:the |this )?(?P<a>{_PERIOD_UNIT})"
    rf"|before the (?P<b>{_PERIOD_UNIT}) is (?:out|over|up|done)|before the (?P<c>{_PERIOD_UNIT}) ends"
    rf"|(?:between now and|by|before|until|till) (?:the )?end of (?:the |this )?(?P<d>{_PERIOD_UNIT})"
    rf"|(?:ate|antes d)[oa]? (?:ao |o )?(?:fim|final) d[oa] (?P<e>{_PERIOD_UNIT})"
    rf"|antes de que (?:acabe|termine|se acabe) (?:la |el )?(?P<f>{_PERIOD_UNIT})"
    rf"|(?:antes de|hasta)(?: el)? (?:fin|final) de(?:l)? (?:la |el )?(?P<g>{_PERIOD_UNIT})"
    rf"|bis (?:zum )?ende (?:der |des |dieser |diesen |dieses )?(?P<h>{_PERIOD_UNIT})|bis zum (?P<i>monatsende|wochenende)"
    rf"|(?:avant|d'ici|jusqu'a) la fin (?:de la |du |de ce |de cette |de l')?(?P<j>{_PERIOD_UNIT})){_E}"
)
HALF = _r(
    rf"{_B}(?:the\s+)?(?P<part>first half|second half|1st half|2nd half|first fortnight|second fortnight|"
    rf"early|mid|late|beginning|end|start|primeira quinzena|segunda quinzena|primera quincena|segunda quincena|"
    rf"inicio|comeco|meados|finais|fim|principios|mediados|finales|erste halfte|zweite halfte|anfang|mitte|ende|"
    rf"premiere quinzaine|deuxieme quinzaine|seconde quinzaine|premiere moitie|deuxieme moitie|debut|mi|fin)"
    rf"[- ]?(?:of\s+|d[eo]\s+|des\s+|de\s+l'|im\s+)?(?P<mon>{_MONTH})(?:\s+(?:de\s+)?(?P<y>\d{{4}}))?{_E}"
)
WEEKDAY = _r(
    rf"{_B}(?:(?P<pre>{_NEXT}|{_LAST}|{_THIS}|on|na|no|el|am|le|a|o|ce|this past)\s+)?"
    rf"(?P<day>{_WD})(?P<feira>-feira)?(?:\s+(?P<post>{_NEXTP}|{_LASTP}))?{_E}"
)
_DAYREF = rf"(?:{_WD})(?:-feira)?"
_TO = r"(?:to|until|till|through|thru|-|–|a|ao|as|ate|hasta|al|bis|bis zum|zum|au|and|e|y|und|et)"
RANGE = _r(
    rf"{_B}(?:(?:from|de|desde|von|du|between|entre)\s+)?(?:(?:o|a|el|la|am|le)\s+)?(?P<a>{_WD})(?:-feira)?"
    rf"\s*{_TO}\s+(?:(?:o|a|el|la|am|le)\s+)?(?P<b>{_WD})(?:-feira)?{_E}"
)
MONTH_RANGE = _r(
    rf"{_B}(?:(?:from|de|desde|von|du|between|entre)\s+)?(?P<a>{_MONTH})\s*{_TO}\s+(?P<b>{_MONTH})(?:\s+(?:de\s+)?(?P<y>\d{{4}}))?{_E}"
)
MONTH = _r(
    rf"{_B}(?:(?P<pre>{_NEXT}|{_LAST}|{_THIS}|in|em|en|im|during|durante|since|of|de|do|back in|"
    rf"early|late|mid|over|throughout)\s+)?(?P<mon>{_MONTH})\.?(?:\s+(?P<post>{_NEXTP}|{_LASTP}|(?:de\s+)?\d{{4}}))?{_E}"
)
HOLIDAY = _r(
    rf"{_B}(?:(?P<q1>{_NEXT}|{_LAST}|{_THIS}|last year's|this year's|next year's)\s+)?(?:{_ART}\s+)?"
    rf"(?P<name>{_HOLIDAYS})(?:'s)?(?:\s+(?P<wk>{W.alt(W.WEEKEND)}))?"
    rf"(?:\s+(?P<q2>last year|this year|next year|(?:do|del|de l') ?(?:ano|annee) (?:passad[oa]|pasado|derniere)|"
    rf"letztes jahr|l'an dernier|l'an passe|(?:de |del |of )?\d{{4}}))?{_E}"
)
SEASON = _r(
    rf"{_B}(?P<q>{_NEXT}|{_LAST}|{_THIS}|in|in the|over the|during the|this past|durante o|durante el|"
    rf"no|en el|em|im|en|cet|ce|l'|a|o)\s+(?P<name>{_SEASONS})(?:\s+(?P<q2>{_LASTP}|{_NEXTP}|last year|(?:de )?\d{{4}}))?{_E}"
)
NEXT_N = _r(
    rf"{_B}(?:(?:in|within|over|during|for|nos|nas|en|in den|dans)\s+)?(?:(?:the|los|las|os|as|les)\s+)?"
    rf"(?:(?P<dir>{_NEXT}|{_LAST})\s+(?P<n>{_NUM})\s+(?P<u>{_DAYUNITS})|(?P<n2>{_NUM})\s+(?P<dir2>prochains|prochaines|derniers|dernieres)\s+(?P<u2>{_DAYUNITS})"
    rf"|(?:ces|these)\s+(?P<n3>{_NUM})\s+(?P<dir3>derniers|dernieres|prochains|prochaines)\s+(?P<u3>{_DAYUNITS})){_E}"
)
AGO = _r(
    rf"{_B}(?:(?:{W.alt(W.AGO_BEFORE)})\s+(?P<n>{_NUM})\s+(?P<u>{_DAYUNITS})|(?P<n2>{_NUM})\s+(?P<u2>{_DAYUNITS})\s+(?:{W.alt(W.AGO_AFTER)})){_E}"
)
DAYWORD = _r(
    rf"{_B}(?:(?P<after>{W.alt(W.AFTER_TOMORROW)})|(?P<before>{W.alt(W.BEFORE_YESTERDAY)})|"
    rf"(?P<today>{W.alt(W.TODAY)}|{W.alt(W.TONIGHT)}|this morning|this afternoon|esta manha|esta tarde|"
    rf"esta manana|heute morgen|heute fruh|heute nachmittag|ce matin|cet apres-midi)|"
    rf"(?P<tomorrow>(?<!la )(?<!am )(?<!heute )(?:{W.alt(W.TOMORROW)}))|(?P<yesterday>{W.alt(W.YESTERDAY)})){_E}"
)
_WEEKEND = W.alt(W.WEEKEND)
WEEKEND = _r(
    rf"{_B}(?:(?P<pre>{_NEXT}|{_LAST}|{_THIS}|this past|at the|on the|over the|at|on|over|the|o|no|el|este|am|ce|le)\s+)?"
    rf"(?:{_WEEKEND})(?:\s+(?P<post>{_NEXTP}|{_LASTP}))?{_E}"
)


def _period(unit_words: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    nxt = _r(rf"{_B}(?:(?:{_NEXT})\s+(?:{unit_words})|(?:{_ART}\s+)?(?:{unit_words})\s+(?:{_NEXTP})){_E}")
    last = _r(
        rf"{_B}(?:(?:{_LAST}|this past)\s+(?:{unit_words})|(?:{_ART}\s+)?(?:{unit_words})\s+(?:{_LASTP})){_E}"
    )
    this = _r(rf"{_B}(?:{_THIS})\s+(?:{unit_words}){_E}")
    return nxt, last, this


WEEK_RE = _period(W.alt(W.WEEK))
MONTH_RE = _period(W.alt(W.MONTH))
YEAR_RE = _period(W.alt(W.YEAR))

SINCE = _r(rf"{_B}(?:since|ever since|desde|seit|depuis)\s+")
_FINITE = _r(
    r"\b(?:was|were|am|is|are|had|went|stayed|lived|visited|estava|estavamos|estive|estivemos|"
    r"fomos|fui|estaba|estabamos|estuve|estuvimos|fuimos|fui|war|waren|etais|etions|etait|etaient)\b"
)
RANGE_AFTER = _r(rf"\s*(?:{_TO})\s")
BEFORE = _r(rf"{_B}(?:before|antes d[eao]s?|antes del?|vor|avant)\s+")
AFTER = _r(rf"{_B}(?:after|depois d[eao]s?|despues del?|nach|apres)\s+")
ANCHOR = _r(
    rf"{_B}(?:(?:the\s+)?(?P<u>week|day|weekend|night)\s+(?:that\s+|when\s+|of\s+)?"
    rf"|(?:a\s+|na\s+|no\s+)?(?P<upt>semana|dia|fim de semana)\s+(?:em\s+)?que\s+"
    rf"|(?:la\s+)?(?P<ues>semana|dia|fin de semana)\s+(?:en\s+)?(?:que|cuando)\s+"
    rf"|(?:die\s+|in der\s+|an dem\s+)?(?P<ude>woche|tag|wochenende),?\s+(?:als|in der|an dem)\s+"
    rf"|(?:la\s+|le\s+)?(?P<ufr>semaine|jour|week-end)\s+ou\s+"
    rf"|(?P<w>while|whilst|when we were|enquanto|mientras|wahrend|pendant que)\s+)(?P<ev>\S.*)$"
)


# -- reading one period ----------------------------------------------------------------------------


@dataclass
class _Found:
    start: datetime
    end: datetime
    tense: str  # "past" | "future" | "any" | "overdue"
    span: tuple[int, int]
    named: str | None = None


class _Reader:
    def __init__(self, question: str, now: datetime):
        self.original = question
        self.text = W.fold(question)
        self.now = now
        self.tz = now.tzinfo
        self.today = self._day(now.date())
        self.monday = self.today - timedelta(days=self.today.weekday())
        self.future = bool(
            FUTURE_CUES.search(self.text) or (DUE_CUES.search(self.text) and not PAST_CUES.search(self.text))
        )
        self.past = bool(PAST_CUES.search(self.text)) and not self.future
        self.french = bool(re.search(r"\b(?:j'ai|qu'|est|ce|on|ai|as|a|avons|hier soir)\b", self.text))

    def _day(self, d: date) -> datetime:
        return datetime.combine(d, time(0), tzinfo=self.tz)

    def _month(self, year: int, month: int) -> datetime:
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        return self._day(date(year, month, 1))

    def capital(self, i: int) -> bool:
        return self.original[i : i + 1].isupper()

    # each reader returns a _Found for a match of its pattern (or None: not a time after all)

    def overdue(self, m):
        return _Found(datetime.min.replace(tzinfo=self.tz) + timedelta(days=1), self.now, "overdue", m.span())

    def _unit_start_end(self, word: str) -> tuple[datetime, datetime]:
        unit = _UNIT_OF.get(re.sub(r"\s+", " ", word), "week")
        if unit == "week":
            return self.monday, self.monday + timedelta(days=7)
        if unit == "month":
            return self._month(self.now.year, self.now.month), self._month(self.now.year, self.now.month + 1)
        return self._day(date(self.now.year, 1, 1)), self._day(date(self.now.year + 1, 1, 1))

    def so_far(self, m):
        start, _ = self._unit_start_end(next(g for g in m.groups() if g))
        return _Found(start, self.now, "past", m.span())

    def until_end(self, m):
        _, end = self._unit_start_end(next(g for g in m.groups() if g))
        return _Found(self.now, end, "future", m.span())

    def _month_year(self, month: int, year: str | None, which: str | None) -> int:
        if year:
            return int(re.sub(r"\D", "", year))
        now = self.now
        if which == "next":
            return now.year if month > now.month else now.year + 1
        if which == "last":
            return now.year if month < now.month else now.year - 1
        if which == "this" or month == now.month:
            return now.year
        if self.future:
            return now.year if month > now.month else now.year + 1
        return now.year if month < now.month else now.year - 1

    def half(self, m):
        mon = W.MONTHS[m.group("mon")]
        year = self._month_year(mon, m.group("y"), None)
        first = self._month(year, mon)
        end = self._month(year, mon + 1)
        part = re.sub(r"\s+", " ", m.group("part"))
        cut = {
            "first half": (0, 15),
            "1st half": (0, 15),
            "first fortnight": (0, 15),
            "primeira quinzena": (0, 15),
            "primera quincena": (0, 15),
            "erste halfte": (0, 15),
            "premiere quinzaine": (0, 15),
            "premiere moitie": (0, 15),
            "early": (0, 10),
            "beginning": (0, 10),
            "start": (0, 10),
            "inicio": (0, 10),
            "comeco": (0, 10),
            "principios": (0, 10),
            "anfang": (0, 10),
            "debut": (0, 10),
            "mid": (10, 20),
            "meados": (10, 20),
            "mediados": (10, 20),
            "mitte": (10, 20),
            "mi": (10, 20),
        }
        if part in cut:
            a, b = cut[part]
            return _Found(first + timedelta(days=a), first + timedelta(days=b), "any", m.span())
        if part in ("late", "end", "finais", "fim", "finales", "ende", "fin"):
            return _Found(first + timedelta(days=20), end, "any", m.span())
        return _Found(first + timedelta(days=15), end, "any", m.span())  # the second half

    def _weekday(self, name: str, which: str | None) -> datetime:
        wd = W.WEEKDAYS[name]
        if which == "last" or (which is None and self.past):
            return self.today - timedelta(days=(self.today.weekday() - wd) % 7 or 7)
        if which == "next":
            return self.today + timedelta(days=(wd - self.today.weekday()) % 7 or 7)
        return self.today + timedelta(days=(wd - self.today.weekday()) % 7)

    def _which(self, pre: str | None, post: str | None) -> str | None:
        pre, post = pre or "", post or ""
        if re.fullmatch(_NEXT, pre) or re.fullmatch(_NEXTP, post):
            return "next"
        if re.fullmatch(_LAST, pre) or re.fullmatch(_LASTP, post) or pre == "this past":
            return "last"
        if re.fullmatch(_THIS, pre):
            return "this"
        return None

    def weekday(self, m):
        day = m.group("day")
        if day in W.AMBIGUOUS_WEEKDAYS and not (
            m.group("pre")
            or m.group("post")
            or m.group("feira")
            or (len(day) == 3 and self.capital(m.start("day")))
        ):
            return None
        start = self._weekday(day, self._which(m.group("pre"), m.group("post")))
        return _Found(start, start + timedelta(days=1), "any", m.span())

    def range(self, m):
        a, b = W.WEEKDAYS[m.group("a")], W.WEEKDAYS[m.group("b")]
        rest = self.text[m.end() :]
        week = None
        for which, pattern in zip(("next", "last", "this"), WEEK_RE, strict=True):
            found = pattern.match(rest.lstrip(" ,"))
            if found:
                week = which
                end = m.end() + (len(rest) - len(rest.lstrip(" ,"))) + found.end()
                break
        else:
            end = m.end()
        if week == "next":
            start = self.monday + timedelta(days=7 + a)
        elif week == "last":
            start = self.monday - timedelta(days=7 - a)
        elif week == "this":
            start = self.monday + timedelta(days=a)
        else:
            start = self._weekday(m.group("a"), None)
        stop = start + timedelta(days=(b - a) % 7 + 1)
        return _Found(start, stop, "any", (m.start(), end))

    def month_range(self, m):
        a, b = W.MONTHS[m.group("a")], W.MONTHS[m.group("b")]
        if {m.group("a"), m.group("b")} & W.AMBIGUOUS_MONTHS and not (
            self.capital(m.start("a")) and self.capital(m.start("b"))
        ):
            return None
        ya = self._month_year(a, m.group("y"), None)
        yb = ya if b >= a else ya + 1
        return _Found(self._month(ya, a), self._month(yb, b + 1), "any", m.span())

    def _date(self, y: int | None, mon: int, d: int, span) -> _Found | None:
        try:
            start = self._day(date(y or self.now.year, mon, d))
        except ValueError:
            return None
        if y is None and self.future and start < self.today:
            start = start.replace(year=start.year + 1)
        elif y is None and not self.future and start > self.now:
            start = start.replace(year=start.year - 1)
        return _Found(start, start + timedelta(days=1), "any", span)

    def day_month(self, m):
        if self.purpose(m):
            return None
        return self._date(
            int(m.group("y")) if m.group("y") else None, W.MONTHS[m.group("mon")], int(m.group("d")), m.span()
        )

    def iso(self, m):
        return self._date(int(m.group("y")), int(m.group("m")), int(m.group("d")), m.span())

    def month(self, m):
        if self.purpose(m) or re.search(r"\d\s*$", self.text[max(0, m.start() - 8) : m.start()]):
            return None
        word, pre = m.group("mon"), m.group("pre") or ""
        if word in W.AMBIGUOUS_MONTHS and not (pre or m.group("post")) and not self.capital(m.start("mon")):
            return None
        if word == "may" and not (pre or m.group("post")):
            return None  # "may I ..." -- a month only as "in May", "last May"
        post = m.group("post") or ""
        year = post if re.search(r"\d", post) else None
        mon = W.MONTHS[word]
        which = self._which(pre, None if year else post)
        y = self._month_year(mon, year, which)
        tense = "past" if which == "last" else "future" if which == "next" else "any"
        return _Found(self._month(y, mon), self._month(y, mon + 1), tense, m.span())

    def _occurrence(self, at, which: str | None, year: str | None) -> tuple[date, int]:
        """The occurrence of a yearly named day meant: the year given, last/next/this, or
        the nearest one in the question's tense (ongoing counts)."""
        y = self.now.year
        if year:
            return at(int(re.sub(r"\D", "", year)))
        if which == "this":
            return at(y)
        today = self.now.date()
        if which == "next" or (which is None and self.future):
            for yy in (y - 1, y, y + 1):
                first, days = at(yy)
                if first + timedelta(days=days) > today:
                    return first, days
        for yy in (y + 1, y, y - 1, y - 2):
            first, days = at(yy)
            if (first + timedelta(days=days) <= today) if which == "last" else (first <= today):
                return first, days
        return at(y)

    def holiday(self, m):
        name = re.sub(r"\s+", " ", m.group("name"))
        if name in _AMBIGUOUS_NAMES and not self.capital(m.start("name")) or self.purpose(m):
            return None
        q1, q2 = m.group("q1") or "", m.group("q2") or ""
        year = None
        if re.search(r"\d{4}", q2):
            year = q2
        elif "last year" in q1 or re.search(r"last year|passad|pasado|derniere|letztes|dernier|passe", q2):
            year = str(self.now.year - 1)
        elif "this year" in q1 or "this year" in q2:
            year = str(self.now.year)
        elif "next year" in q1 or "next year" in q2:
            year = str(self.now.year + 1)
        which = None if year else self._which(q1, None)
        first, days = self._occurrence(NAMED[name], which, year)
        if m.group("wk"):
            first, days = weekend_of(first, days)
        start = self._day(first)
        return _Found(
            start,
            start + timedelta(days=days),
            "any",
            m.span(),
            named=self.original[m.start("name") : m.end("name")],
        )

    def season(self, m):
        if self.purpose(m):
            return None
        q, q2 = m.group("q") or "", m.group("q2") or ""
        at = SEASONS[m.group("name")]
        which = self._which(q, q2 if not re.search(r"\d", q2) else None)
        year = q2 if re.search(r"\d{4}", q2) else None
        if "last year" in q2:
            year = str(self.now.year - 1)
        first, days = self._occurrence(at, which, year)
        start = self._day(first)
        return _Found(start, start + timedelta(days=days), "any", m.span())

    def _step(self, unit: str, n: int) -> relativedelta:
        kind, amount = W.UNITS[unit]
        step: dict[str, Any] = {kind: n * amount}
        return relativedelta(**step)

    def next_n(self, m):
        n = int(_count(m.group("n") or m.group("n2") or m.group("n3")))
        unit = m.group("u") or m.group("u2") or m.group("u3")
        direction = m.group("dir") or m.group("dir2") or m.group("dir3")
        if re.fullmatch(_LAST, direction) or direction in ("derniers", "dernieres"):
            return _Found(self.today - self._step(unit, n), self.now, "past", m.span())
        return _Found(self.now, self.now + self._step(unit, n), "future", m.span())

    def ago(self, m):
        n = int(_count(m.group("n") or m.group("n2")))
        unit = m.group("u") or m.group("u2")
        kind, amount = W.UNITS[unit]
        if kind == "days" and amount == 1:
            start = self.today - timedelta(days=n)
            return _Found(start, start + timedelta(days=1), "past", m.span())
        if kind == "days":  # weeks
            start = self.monday - timedelta(days=7 * n)
            return _Found(start, start + timedelta(days=7), "past", m.span())
        if kind == "months":
            start = self._month(self.now.year, self.now.month - n)
            return _Found(start, self._month(start.year, start.month + 1), "past", m.span())
        start = self._day(date(self.now.year - n, 1, 1))
        return _Found(start, self._day(date(self.now.year - n + 1, 1, 1)), "past", m.span())

    def dayword(self, m):
        t = self.today
        if m.group("after"):
            return _Found(t + timedelta(days=2), t + timedelta(days=3), "future", m.span())
        if m.group("before"):
            return _Found(t - timedelta(days=2), t - timedelta(days=1), "past", m.span())
        if m.group("today"):
            return _Found(t, t + timedelta(days=1), "any", m.span())
        if m.group("tomorrow"):
            return _Found(t + timedelta(days=1), t + timedelta(days=2), "future", m.span())
        if m.group("yesterday") == "hier" and not self.french:
            return None  # German "hier" is "here"; French "hier" comes with French words
        return _Found(t - timedelta(days=1), t, "past", m.span())

    def weekend(self, m):
        which = self._which(m.group("pre"), m.group("post"))
        sat = self.monday + timedelta(days=5)
        if which == "next":
            sat += timedelta(days=7)
        elif which == "last" or (which is None and self.past and self.today < sat):
            sat -= timedelta(days=7)
        return _Found(sat, sat + timedelta(days=2), "any", m.span())

    def periods(self):
        """(pattern, reader) of every simple period, in order of precedence."""

        def unit_rules(rules, starts, purposeful=False):
            """`purposeful`: "goals for this year" is about the year, not in it."""
            out = []
            for pattern, (start, end, tense) in zip(rules, starts, strict=True):
                out.append(
                    (
                        pattern,
                        lambda m, s=start, e=end, t=tense: (
                            None if purposeful and self.purpose(m) else _Found(s, e, t, m.span())
                        ),
                    )
                )
            return out

        month0 = self._month(self.now.year, self.now.month)
        year0 = self._day(date(self.now.year, 1, 1))
        return [
            (HOLIDAY, self.holiday),
            (SEASON, self.season),
            (NEXT_N, self.next_n),
            (AGO, self.ago),
            (DAYWORD, self.dayword),
            (WEEKEND, self.weekend),
            *unit_rules(
                WEEK_RE,
                [
                    (self.monday + timedelta(days=7), self.monday + timedelta(days=14), "future"),
                    (self.monday - timedelta(days=7), self.monday, "past"),
                    (self.monday, self.monday + timedelta(days=7), "any"),
                ],
            ),
            *unit_rules(
                MONTH_RE,
                [
                    (
                        self._month(self.now.year, self.now.month + 1),
                        self._month(self.now.year, self.now.month + 2),
                        "future",
                    ),
                    (self._month(self.now.year, self.now.month - 1), month0, "past"),
                    (month0, self._month(self.now.year, self.now.month + 1), "any"),
                ],
            ),
            *unit_rules(
                YEAR_RE,
                [
                    (
                        self._day(date(self.now.year + 1, 1, 1)),
                        self._day(date(self.now.year + 2, 1, 1)),
                        "future",
                    ),
                    (self._day(date(self.now.year - 1, 1, 1)), year0, "past"),
                    (year0, self._day(date(self.now.year + 1, 1, 1)), "any"),
                ],
                purposeful=True,
            ),
            (ISO, self.iso),
            (DAY_MONTH, self.day_month),
            (MONTH_DAY, self.day_month),
            (MONTH, self.month),
            (WEEKDAY, self.weekday),
        ]

    def purpose(self, m) -> bool:
        """ "goals for this year", "food for Christmas", "prenda para o Natal": the period is what
        the question is about, not when it happened. So is "rent from July" in a question not
        in the past: the day a fact takes effect."""
        before = self.text[max(0, m.start() - 40) : m.start()]  # the words just before: linear
        if re.search(r"(?:^|\s)(?:for|para|pour|fur)\s+(?:the\s+|o\s+|a\s+|el\s+|le\s+|la\s+)?$", before):
            return True
        return (
            bool(re.search(r"(?:^|\s)(?:from|starting|a partir de|desde|ab|a partir du|des)\s+$", before))
            and not self.past
            and not RANGE_AFTER.match(self.text[m.end() :])
        )

    def first(self, at: int | None = None, *, past: bool | None = None) -> _Found | None:
        """The first simple period of the text (or the one starting right at `at`; `past`: read
        it as a time gone by, as after "since")."""
        if past is not None:
            saved = (self.past, self.future)
            self.past, self.future = past, not past
            try:
                return self.first(at)
            finally:
                self.past, self.future = saved
        for pattern, read in self.periods():
            if at is not None:
                m = pattern.match(self.text, at)
                found = read(m) if m else None
                if found:
                    return found
                continue
            for m in pattern.finditer(self.text):
                found = read(m)
                if found:
                    return found
        return None


def _count(word: str) -> float:
    w = re.sub(r"\s+", " ", word)
    return float(w) if w.isdigit() else float(W.NUMBERS.get(w, 1))


def _read(r: _Reader) -> tuple[_Found, str | None] | tuple[None, None]:
    """The question's window: compound forms first (since, before, after, ranges), then one
    simple period."""
    for pattern, read in (
        (OVERDUE, r.overdue),
        (SO_FAR, r.so_far),
        (UNTIL_END, r.until_end),
        (HALF, r.half),
        (RANGE, r.range),
        (MONTH_RANGE, r.month_range),
    ):
        for m in pattern.finditer(r.text):
            found = read(m)
            if found:
                return found, None
    for cue, kind in ((SINCE, "since"), (BEFORE, "before"), (AFTER, "after")):
        for m in cue.finditer(r.text):
            inner = r.first(at=m.end(), past=True if kind == "since" else None)
            if inner is None:
                continue
            span = (m.start(), inner.span[1])
            if kind == "since":
                return _Found(inner.start, r.now, "past", span, inner.named), None
            if kind == "before" and inner.start > r.now:
                return _Found(r.now, inner.start, "future", span, inner.named), None
            if kind == "after":
                return _Found(inner.end, inner.end + timedelta(days=14), "any", span, inner.named), None
    found = r.first()
    if found:
        return found, None
    anchor = ANCHOR.search(r.text)
    if anchor and anchor.group("w") and not _FINITE.search(anchor.group("ev")):
        anchor = None  # "while surfing", "while camping": an activity, not a stretch of time
    if anchor and len(re.findall(r"\w{3,}", anchor.group("ev"))) >= 1:
        kind = (
            "while"
            if anchor.group("w")
            else {
                "week": "week",
                "semana": "week",
                "woche": "week",
                "semaine": "week",
                "weekend": "weekend",
                "fim de semana": "weekend",
                "fin de semana": "weekend",
                "wochenende": "weekend",
                "week-end": "weekend",
            }.get(
                next(
                    g
                    for g in (
                        anchor.group("u"),
                        anchor.group("upt"),
                        anchor.group("ues"),
                        anchor.group("ude"),
                        anchor.group("ufr"),
                    )
                    if g
                ),
                "day",
            )
        )
        return _Found(r.now, r.now, "any", anchor.span()), kind + ":" + str(anchor.start("ev"))
    return None, None


def _dates_of(text: str, found: _Found, now: datetime) -> str:
    if found.tense == "overdue" or found.start >= now:
        return "due"
    if DONE_CUES.search(text):
        return "done"
    if CREATED_CUES.search(text):
        return "created"
    if DUE_CUES.search(text) and found.end > now and not PAST_CUES.search(text):
        return "due"
    return "any"


_DANGLING = re.compile(
    r"\b(?:between|from|until|till|and|since|before|after|de|desde|seit|depuis|"
    r"entre|von|du|the|on|in|at|over|during|for|na|no|em|en|el|la|am|im|le)\s*$",
    re.I,
)


def find_window(question: str, now: datetime) -> tuple[TimeWindow | None, str]:
    """The question's time words as a window, and the question without them."""
    r = _Reader(question, now)
    found, anchor = _read(r)
    if found is None:
        return None, question
    s, e = found.span
    label = question[s:e].strip(" ?.!,")
    dates = _dates_of(r.text, found, now)
    rest = question[:s] + " " + question[e:]
    if dates in ("created", "done"):  # "what did I note down": the act, not a topic
        cues = CREATED_CUES if dates == "created" else DONE_CUES
        folded = W.fold(rest)
        chars = list(rest)
        for m in cues.finditer(folded):
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
        rest = re.sub(r"\b(down|up|off)\b", " ", "".join(chars), flags=re.I)
    rest = re.sub(r"\s{2,}", " ", rest).strip(" ?.,!")
    previous = None
    while previous != rest:
        previous = rest
        rest = _DANGLING.sub("", rest).strip(" ?.,!")
    if anchor is not None:
        kind, at = anchor.split(":")
        event = question[int(at) :].strip(" ?.!")
        return TimeWindow(now, now, label, "any", anchor=event, anchor_kind=kind), rest
    if found.named:  # "before Easter": Easter is what the answer is about, too
        rest = f"{rest} {found.named}".strip()
    return TimeWindow(
        found.start, found.end, label, dates, overdue=found.tense == "overdue", named=found.named
    ), rest
