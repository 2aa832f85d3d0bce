"""A repeat rule said in the person's language: `say_rule("FREQ=DAILY;INTERVAL=2")` -> "every 2
days"; "FREQ=MONTHLY;BYMONTHDAY=1" in Portuguese -> "todos os meses no dia 1". The one place a rule
becomes words: the CLI, the window, notifications and exports' human text all use it, so a raw
RRULE never reaches a screen. What it cannot say in words it says as "repeats (custom)".
"""

from __future__ import annotations

import re
from datetime import datetime

LANGUAGES = ("en", "pt", "es", "de", "fr")
_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_WORKDAYS = ("MO", "TU", "WE", "TH", "FR")
# parts the reminder's due time already says (the day of a yearly rule, the hour of a daily one)
_SAID_BY_THE_DUE_TIME = {"FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST", "BYMONTH", "BYMONTHDAY", "BYHOUR",
                         "BYMINUTE", "BYSECOND"}  # fmt: skip

# Per language: the names of the days, of each frequency alone and with an interval, and the
# phrases around days of the week and of the month.
WORDS: dict[str, dict] = {
    "en": {
        "days": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        "every": {"DAILY": "every day", "WEEKLY": "every week", "MONTHLY": "every month",
                  "YEARLY": "every year", "HOURLY": "every hour", "MINUTELY": "every minute"},
        "every_n": {"DAILY": "every {n} days", "WEEKLY": "every {n} weeks", "MONTHLY": "every {n} months",
                    "YEARLY": "every {n} years", "HOURLY": "every {n} hours",
                    "MINUTELY": "every {n} minutes"},
        "weekly_on": "every {days}", "weekly_n_on": "every {n} weeks on {days}", "workdays": "every weekday",
        "and": " and ", "monthday": "{every} on the {day}", "last_day": "{every} on the last day",
        "nth_day": "{every} on the {nth} {day}", "ordinals": {1: "first", 2: "second", 3: "third",
        4: "fourth", 5: "fifth", -1: "last", -2: "second to last"},
        "count": "{rule}, {n} times", "until": "{rule}, until {date}", "custom": "repeats (custom)",
    },
    "pt": {
        "days": ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado",
                 "domingo"),
        "plural": ("segundas", "terças", "quartas", "quintas", "sextas", "sábados", "domingos"),
        "every": {"DAILY": "todos os dias", "WEEKLY": "todas as semanas", "MONTHLY": "todos os meses",
                  "YEARLY": "todos os anos", "HOURLY": "de hora a hora", "MINUTELY": "todos os minutos"},
        "every_n": {"DAILY": "a cada {n} dias", "WEEKLY": "a cada {n} semanas", "MONTHLY": "a cada {n} meses",
                    "YEARLY": "a cada {n} anos", "HOURLY": "a cada {n} horas",
                    "MINUTELY": "a cada {n} minutos"},
        "weekly_on": "às {days}", "weekly_n_on": "a cada {n} semanas, às {days}",
        "workdays": "todos os dias úteis",
        "and": " e ", "monthday": "{every} no dia {day}", "last_day": "{every} no último dia",
        "nth_day": "{every}, {nth} {day}", "ordinals": {1: "na primeira", 2: "na segunda", 3: "na terceira",
        4: "na quarta", 5: "na quinta", -1: "na última", -2: "na penúltima"},
        "count": "{rule}, {n} vezes", "until": "{rule}, até {date}", "custom": "repete (personalizado)",
    },
    "es": {
        "days": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
        "plural": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábados", "domingos"),
        "every": {"DAILY": "todos los días", "WEEKLY": "todas las semanas", "MONTHLY": "todos los meses",
                  "YEARLY": "todos los años", "HOURLY": "cada hora", "MINUTELY": "cada minuto"},
        "every_n": {"DAILY": "cada {n} días", "WEEKLY": "cada {n} semanas", "MONTHLY": "cada {n} meses",
                    "YEARLY": "cada {n} años", "HOURLY": "cada {n} horas", "MINUTELY": "cada {n} minutos"},
        "weekly_on": "los {days}", "weekly_n_on": "cada {n} semanas, los {days}",
        "workdays": "todos los días laborables", "and": " y ", "monthday": "{every} el día {day}",
        "last_day": "{every} el último día", "nth_day": "{every}, el {nth} {day}",
        "ordinals": {1: "primer", 2: "segundo", 3: "tercer", 4: "cuarto", 5: "quinto", -1: "último",
                     -2: "penúltimo"},
        "count": "{rule}, {n} veces", "until": "{rule}, hasta el {date}",
        "custom": "se repite (personalizado)",
    },
    "de": {
        "days": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
        "plural": ("montags", "dienstags", "mittwochs", "donnerstags", "freitags", "samstags", "sonntags"),
        "every": {"DAILY": "täglich", "WEEKLY": "wöchentlich", "MONTHLY": "monatlich", "YEARLY": "jährlich",
                  "HOURLY": "stündlich", "MINUTELY": "jede Minute"},
        "every_n": {"DAILY": "alle {n} Tage", "WEEKLY": "alle {n} Wochen", "MONTHLY": "alle {n} Monate",
                    "YEARLY": "alle {n} Jahre", "HOURLY": "alle {n} Stunden", "MINUTELY": "alle {n} Minuten"},
        "weekly_on": "{days}", "weekly_n_on": "alle {n} Wochen {days}", "workdays": "werktags",
        "and": " und ",
        "monthday": "{every} am {day}.", "last_day": "{every} am letzten Tag",
        "nth_day": "{every} am {nth} {day}", "ordinals": {1: "ersten", 2: "zweiten", 3: "dritten",
        4: "vierten", 5: "fünften", -1: "letzten", -2: "vorletzten"},
        "count": "{rule}, {n}-mal", "until": "{rule}, bis {date}", "custom": "wiederholt (eigene Regel)",
    },
    "fr": {
        "days": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        "every": {"DAILY": "tous les jours", "WEEKLY": "toutes les semaines", "MONTHLY": "tous les mois",
                  "YEARLY": "tous les ans", "HOURLY": "toutes les heures", "MINUTELY": "toutes les minutes"},
        "every_n": {"DAILY": "tous les {n} jours", "WEEKLY": "toutes les {n} semaines",
                    "MONTHLY": "tous les {n} mois", "YEARLY": "tous les {n} ans",
                    "HOURLY": "toutes les {n} heures",
                    "MINUTELY": "toutes les {n} minutes"},
        "weekly_on": "le {days}", "weekly_n_on": "toutes les {n} semaines, le {days}",
        "workdays": "en semaine",
        "and": " et le ", "monthday": "{every} le {day}", "last_day": "{every} le dernier jour",
        "nth_day": "{every}, le {nth} {day}", "ordinals": {1: "premier", 2: "deuxième", 3: "troisième",
        4: "quatrième", 5: "cinquième", -1: "dernier", -2: "avant-dernier"},
        "count": "{rule}, {n} fois", "until": "{rule}, jusqu’au {date}", "custom": "se répète (personnalisé)",
    },
}  # fmt: skip


# Times in words, for the command line (the window uses Qt's locale data for the names).
CLOCK_WORDS: dict[str, dict] = {
    "en": {"today": "today", "tomorrow": "tomorrow", "yesterday": "yesterday",
           "days": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
           "months": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                      "Dec")},
    "pt": {"today": "hoje", "tomorrow": "amanhã", "yesterday": "ontem",
           "days": ("seg", "ter", "qua", "qui", "sex", "sáb", "dom"),
           "months": ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")},
    "es": {"today": "hoy", "tomorrow": "mañana", "yesterday": "ayer",
           "days": ("lun", "mar", "mié", "jue", "vie", "sáb", "dom"),
           "months": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov",
                      "dic")},
    "de": {"today": "heute", "tomorrow": "morgen", "yesterday": "gestern",
           "days": ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"),
           "months": ("Jan", "Feb", "März", "Apr", "Mai", "Juni", "Juli", "Aug", "Sept", "Okt", "Nov",
                      "Dez")},
    "fr": {"today": "aujourd’hui", "tomorrow": "demain", "yesterday": "hier",
           "days": ("lun", "mar", "mer", "jeu", "ven", "sam", "dim"),
           "months": ("janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov",
                      "déc")},
}  # fmt: skip


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
    names = words.get("plural") if plural and "plural" in words else words["days"]
    said = [names[_DAYS.index(c)] for c in codes]
    joiner = words["and"]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + joiner + said[-1]


def _monthday(lang: str, day: int) -> str:
    if lang == "en":
        suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
        return f"{day}{suffix}"
    if lang == "fr" and day == 1:
        return "1er"
    return str(day)


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
    if byday and freq == "WEEKLY":
        if not all(d in _DAYS for d in byday):
            return words["custom"]
        byday = sorted(set(byday), key=_DAYS.index)
        if n == 1 and byday == list(_WORKDAYS):
            said = words["workdays"]
        else:
            days = _day_list(lang, byday, plural=True) or words["custom"]
            said = (words["weekly_on"] if n == 1 else words["weekly_n_on"]).format(days=days, n=n)
    elif byday and freq == "MONTHLY" and len(byday) == 1:
        m = re.fullmatch(r"([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)", byday[0])
        pos = int(m.group(1) or p.get("BYSETPOS", "0") or 0) if m else 0
        if not m or pos not in words["ordinals"]:
            return words["custom"]
        said = words["nth_day"].format(
            every=every, nth=words["ordinals"][pos], day=words["days"][_DAYS.index(m.group(2))]
        )
    elif byday:
        return words["custom"]
    elif "BYMONTHDAY" in p and freq == "MONTHLY":
        try:
            day = int(p["BYMONTHDAY"])
        except ValueError:
            return words["custom"]
        if day == -1:
            said = words["last_day"].format(every=every)
        elif 0 < day <= 31:
            said = words["monthday"].format(every=every, day=_monthday(lang, day))
        else:
            return words["custom"]
    elif set(p) - _SAID_BY_THE_DUE_TIME:
        return words["custom"]
    if "COUNT" in p and p["COUNT"].isdigit():
        said = words["count"].format(rule=said, n=int(p["COUNT"]))
    if "UNTIL" in p:
        found = re.match(r"(\d{4})(\d{2})(\d{2})", p["UNTIL"])
        if found:
            until = datetime(int(found.group(1)), int(found.group(2)), int(found.group(3)))
            said = words["until"].format(rule=said, date=until.strftime("%Y-%m-%d"))
    return said
