"""The words of dates and times in English, Portuguese, Spanish, German and French.

Written out here, never read from the process locale: a GUI on a German desktop reads English as
the CLI does. Every entry is folded (lower case, accents dropped, see `fold`), so "mañana",
"manana" and "MAÑANA" are one word. Each table maps a word to its value; `alt(table)` turns it
into a regex alternation, longest first.
"""

from __future__ import annotations

import re
import unicodedata


def _fold_char(c: str) -> str:
    if c in "’‘`´":
        return "'"
    return (unicodedata.normalize("NFD", c)[0].lower() or c)[0]


def fold(text: str) -> str:
    """Lower case without accents, one character for one: spans found in the folded text are
    spans of the original."""
    if text.isascii():
        return text.lower().replace("`", "'")
    return "".join(_fold_char(c) for c in text)


def alt(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


MONTHS = {
    # English
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
    # Português
    "janeiro": 1,
    "fevereiro": 2,
    "marco": 3,
    "abril": 4,
    "maio": 5,
    "junho": 6,
    "julho": 7,
    "agosto": 8,
    "setembro": 9,
    "outubro": 10,
    "novembro": 11,
    "dezembro": 12,
    # Español
    "enero": 1,
    "febrero": 2,
    "marzo": 3,
    "mayo": 5,
    "junio": 6,
    "julio": 7,
    "septiembre": 9,
    "setiembre": 9,
    "octubre": 10,
    "noviembre": 11,
    "diciembre": 12,
    # Deutsch
    "januar": 1,
    "jänner": 1,
    "februar": 2,
    "marz": 3,
    "mai": 5,
    "juni": 6,
    "juli": 7,
    "oktober": 10,
    "dezember": 12,
    # Français
    "janvier": 1,
    "fevrier": 2,
    "mars": 3,
    "avril": 4,
    "juin": 6,
    "juillet": 7,
    "aout": 8,
    "septembre": 9,
    "octobre": 10,
    "novembre": 11,
    "decembre": 12,
}
# Month words that are also everyday words or names: a month only beside a day number, a year,
# or a preposition ("in May", "em março" -- not "Marco", "may I", "a long march").
AMBIGUOUS_MONTHS = frozenset(
    {
        "may",
        "mar",
        "march",
        "jun",
        "aug",
        "august",
        "marco",
        "sep",
        "dec",
        "jan",
        "oct",
        "nov",
        "apr",
        "feb",
        "mai",
        "mars",
    }
)

WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "weds": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
    "segunda-feira": 0,
    "segunda": 0,
    "terca-feira": 1,
    "terca": 1,
    "quarta-feira": 2,
    "quarta": 2,
    "quinta-feira": 3,
    "quinta": 3,
    "sexta-feira": 4,
    "sexta": 4,
    "sabado": 5,
    "domingo": 6,
    "lunes": 0,
    "martes": 1,
    "miercoles": 2,
    "jueves": 3,
    "viernes": 4,
    "montag": 0,
    "dienstag": 1,
    "mittwoch": 2,
    "donnerstag": 3,
    "freitag": 4,
    "samstag": 5,
    "sonnabend": 5,
    "sonntag": 6,
    "lundi": 0,
    "mardi": 1,
    "mercredi": 2,
    "jeudi": 3,
    "vendredi": 4,
    "samedi": 5,
    "dimanche": 6,
}
# Weekday words that are also other words ("sun", "sat", "wed"; pt "segunda" = second, "quinta"
# = farm): a day only after a preposition or a "next/last", or with the "-feira".
AMBIGUOUS_WEEKDAYS = frozenset(
    {"mon", "tue", "wed", "thu", "fri", "sat", "sun", "segunda", "terca", "quarta", "quinta", "sexta", "thur"}
)
# German plural adverbs of weekdays: "montags" = every Monday
WEEKDAY_ADVERBS = {
    "montags": 0,
    "dienstags": 1,
    "mittwochs": 2,
    "donnerstags": 3,
    "freitags": 4,
    "samstags": 5,
    "sonntags": 6,
}
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty-five": 45,
    "couple of": 2,
    "a couple of": 2,
    "few": 3,
    "a few": 3,
    "um": 1,
    "uma": 1,
    "dois": 2,
    "duas": 2,
    "tres": 3,
    "quatro": 4,
    "cinco": 5,
    "seis": 6,
    "sete": 7,
    "oito": 8,
    "nove": 9,
    "dez": 10,
    "quinze": 15,
    "vinte": 20,
    "trinta": 30,
    "un": 1,
    "una": 1,
    "uno": 1,
    "dos": 2,
    "cuatro": 4,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
    "quince": 15,
    "veinte": 20,
    "treinta": 30,
    "ein": 1,
    "eine": 1,
    "einer": 1,
    "einem": 1,
    "einen": 1,
    "zwei": 2,
    "drei": 3,
    "vier": 4,
    "funf": 5,
    "sechs": 6,
    "sieben": 7,
    "acht": 8,
    "neun": 9,
    "zehn": 10,
    "zwanzig": 20,
    "dreissig": 30,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "vingt": 20,
    "trente": 30,
}

# unit -> (kind, amount): kind is "minutes" or "days"/"months"/"years" (calendar steps)
UNITS = {
    "s": ("seconds", 1),
    "sec": ("seconds", 1),
    "secs": ("seconds", 1),
    "second": ("seconds", 1),
    "seconds": ("seconds", 1),
    "segundo": ("seconds", 1),
    "segundos": ("seconds", 1),
    "sekunde": ("seconds", 1),
    "sekunden": ("seconds", 1),
    "seconde": ("seconds", 1),
    "secondes": ("seconds", 1),
    "min": ("minutes", 1),
    "mins": ("minutes", 1),
    "minute": ("minutes", 1),
    "minutes": ("minutes", 1),
    "minuto": ("minutes", 1),
    "minutos": ("minutes", 1),
    "minuten": ("minutes", 1),
    "m": ("minutes", 1),
    "h": ("minutes", 60),
    "hr": ("minutes", 60),
    "hrs": ("minutes", 60),
    "hour": ("minutes", 60),
    "hours": ("minutes", 60),
    "hora": ("minutes", 60),
    "horas": ("minutes", 60),
    "stunde": ("minutes", 60),
    "stunden": ("minutes", 60),
    "heure": ("minutes", 60),
    "heures": ("minutes", 60),
    "day": ("days", 1),
    "days": ("days", 1),
    "dia": ("days", 1),
    "dias": ("days", 1),
    "tag": ("days", 1),
    "tage": ("days", 1),
    "tagen": ("days", 1),
    "jour": ("days", 1),
    "jours": ("days", 1),
    "week": ("days", 7),
    "weeks": ("days", 7),
    "semana": ("days", 7),
    "semanas": ("days", 7),
    "woche": ("days", 7),
    "wochen": ("days", 7),
    "semaine": ("days", 7),
    "semaines": ("days", 7),
    "fortnight": ("days", 14),
    "month": ("months", 1),
    "months": ("months", 1),
    "mes": ("months", 1),
    "meses": ("months", 1),
    "monat": ("months", 1),
    "monate": ("months", 1),
    "monaten": ("months", 1),
    "mois": ("months", 1),
    "year": ("years", 1),
    "years": ("years", 1),
    "ano": ("years", 1),
    "anos": ("years", 1),
    "jahr": ("years", 1),
    "jahre": ("years", 1),
    "jahren": ("years", 1),
    "an": ("years", 1),
    "ans": ("years", 1),
    "annee": ("years", 1),
    "annees": ("years", 1),
}
HALF_HOUR = (
    "half an hour",
    "half hour",
    "meia hora",
    "media hora",
    "einer halben stunde",
    "halben stunde",
    "une demi-heure",
    "une demi heure",
    "demi-heure",
)
# "in 10 minutes", "em 10 minutos", "daqui a 10 minutos", "dentro de 10 minutos", "en 10
# minutos", "in 10 Minuten", "dans 10 minutes"
IN_WORDS = ("in", "em", "daqui a", "dentro de", "en", "dans", "within")
AGO_BEFORE = ("ha", "hace", "vor", "il y a")  # "há 2 dias", "hace 2 días", "vor 2 Tagen"
AGO_AFTER = ("ago", "atras")  # "2 days ago", "2 dias atrás"

TODAY = ("today", "hoje", "hoy", "heute", "aujourd'hui", "aujourdhui")
TONIGHT = ("tonight", "this evening", "esta noite", "hoje a noite", "esta noche", "heute abend", "ce soir")
TOMORROW = ("tomorrow", "tmrw", "tmw", "amanha", "manana", "morgen", "demain")
AFTER_TOMORROW = (
    "day after tomorrow",
    "the day after tomorrow",
    "depois de amanha",
    "pasado manana",
    "ubermorgen",
    "apres-demain",
    "apres demain",
)
YESTERDAY = ("yesterday", "ontem", "ayer", "gestern", "hier")
BEFORE_YESTERDAY = (
    "day before yesterday",
    "the day before yesterday",
    "anteontem",
    "antes de ontem",
    "anteayer",
    "antes de ayer",
    "vorgestern",
    "avant-hier",
    "avant hier",
)

# next / last / this, before the unit ("next week", "próxima semana", "nächste Woche") or after it
# ("semana que vem", "la semana pasada", "la semaine prochaine", "samedi dernier").
NEXT_PRE = (
    "next",
    "the next",
    "coming",
    "this coming",
    "proxima",
    "proximo",
    "a proxima",
    "o proximo",
    "na proxima",
    "no proximo",
    "la proxima",
    "el proximo",
    "nachste",
    "nachsten",
    "nachster",
    "nachstes",
    "kommende",
    "kommenden",
    "prochain",
    "prochaine",
    "proximos",
    "proximas",
    "os proximos",
    "as proximas",
    "los proximos",
    "las proximas",
)
NEXT_POST = ("que vem", "que viene", "prochain", "prochaine", "proxima", "proximo")
LAST_PRE = (
    "last",
    "the last",
    "past",
    "the past",
    "previous",
    "the previous",
    "ultima",
    "ultimo",
    "a ultima",
    "o ultimo",
    "la ultima",
    "el ultimo",
    "letzte",
    "letzten",
    "letzter",
    "letztes",
    "vergangene",
    "vergangenen",
    "dernier",
    "derniere",
    "ultimos",
    "ultimas",
    "os ultimos",
    "as ultimas",
    "los ultimos",
    "las ultimas",
)
LAST_POST = ("passada", "passado", "pasada", "pasado", "dernier", "derniere", "passe", "passee")
THIS_PRE = (
    "this",
    "esta",
    "este",
    "nesta",
    "neste",
    "diese",
    "diesen",
    "dieser",
    "dieses",
    "ce",
    "cette",
    "cet",
)

WEEK = ("week", "semana", "woche", "semaine")
WEEKEND = (
    "weekend",
    "week-end",
    "week end",
    "fim de semana",
    "fim-de-semana",
    "fin de semana",
    "finde",
    "wochenende",
)
MONTH = ("month", "mes", "monat", "mois")
YEAR = ("year", "ano", "jahr", "annee")

# clock words: "at 3", "às 15h", "a las 18h", "um 9 Uhr", "à 9h"
AT = ("at", "@", "as", "a", "ao", "pelas", "a las", "a la", "sobre las", "um", "gegen", "vers")
NOON = ("noon", "midday", "meio-dia", "meio dia", "mediodia", "mittag", "mittags", "midi")
MIDNIGHT = ("midnight", "meia-noite", "meia noite", "medianoche", "mitternacht", "minuit")
# parts of the day -> hour; also the afternoon/evening words that make "at 3" 15:00
PARTS = {
    "morning": 9,
    "in the morning": 9,
    "this morning": 9,
    "de manha": 9,
    "pela manha": 9,
    "por la manana": 9,
    "de la manana": 9,
    "morgens": 9,
    "fruh": 9,
    "am morgen": 9,
    "le matin": 9,
    "du matin": 9,
    "ce matin": 9,
    "lunchtime": 12,
    "lunch": 12,
    "a hora de almoco": 12,
    "ao almoco": 12,
    "afternoon": 15,
    "in the afternoon": 15,
    "this afternoon": 15,
    "a tarde": 15,
    "da tarde": 15,
    "de tarde": 15,
    "por la tarde": 15,
    "de la tarde": 15,
    "nachmittags": 15,
    "am nachmittag": 15,
    "l'apres-midi": 15,
    "de l'apres-midi": 15,
    "cet apres-midi": 15,
    "apres-midi": 15,
    "evening": 19,
    "in the evening": 19,
    "a noite": 20,
    "da noite": 20,
    "de noite": 20,
    "por la noche": 20,
    "de la noche": 20,
    "abends": 19,
    "am abend": 19,
    "le soir": 19,
    "soir": 19,
    "matin": 9,
    "du soir": 19,
    "night": 20,
    "at night": 20,
}
# parts that stand alone beside other time words ("tomorrow morning", "morning at 8", "demain soir")
BARE_PARTS = frozenset({"morning", "afternoon", "evening", "night", "matin", "soir", "apres-midi"})
PM_PARTS = frozenset(p for p, h in PARTS.items() if h >= 15)
AM_PARTS = frozenset(p for p, h in PARTS.items() if h < 12)

# -- clock phrases: "half past 4", "4 e meia", "6 menos cuarto", "halb 6", "6h moins le quart" --

# The hours a clock phrase names (1-12, read on the 12-hour clock like "at 4").
HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "uma": 1, "duas": 2, "dois": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8,
    "nove": 9, "dez": 10, "onze": 11, "doze": 12,
    "una": 1, "dos": 2, "cuatro": 4, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11,
    "doce": 12,
    "eins": 1, "ein": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7,
    "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12,
    "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9,
    "dix": 10, "douze": 12,  # "onze" is the Portuguese one
}  # fmt: skip
# The minutes a phrase names before or after the hour.
MINUTE_WORDS = {
    "half": 30, "a half": 30, "quarter": 15, "a quarter": 15, "five": 5, "ten": 10, "twenty": 20,
    "twenty-five": 25, "twenty five": 25,
    "meia": 30, "um quarto": 15, "quarto": 15, "cinco": 5, "dez": 10, "quinze": 15, "vinte": 20,
    "vinte e cinco": 25, "trinta": 30,
    "media": 30, "cuarto": 15, "diez": 10, "veinte": 20, "veinticinco": 25,
    "viertel": 15, "zehn": 10, "zwanzig": 20, "funf": 5,
    "demie": 30, "demi": 30, "quart": 15, "le quart": 15, "cinq": 5, "dix": 10, "vingt": 20,
    "vingt-cinq": 25,
}  # fmt: skip
# "{minutes} past {hour}": en, de ("Viertel nach 4", "20 nach 3")
MINUTES_PAST = ("past", "after", "nach")
# "{minutes} to {hour}": en ("quarter to 6"), de ("Viertel vor 6"), pt ("um quarto para as 6"),
# es ("cuarto para las 6")
MINUTES_TO = ("to", "till", "til", "vor", "para as", "para a", "para las", "para la")
# "{hour} and {minutes}": pt ("4 e meia"), es ("4 y media"), fr ("4h et demie", "4 heures et quart")
HOUR_AND = ("e", "y", "et")
# "{hour} less {minutes}": es ("6 menos cuarto"), fr ("6h moins le quart"), pt ("6 menos um quarto")
HOUR_LESS = ("menos", "moins")
# words that may stand between an hour and the rest: "4 horas e meia", "6 heures moins le quart"
HOUR_MARKS = ("h", "hora", "horas", "heure", "heures", "uhr", "o'clock")
# German: minutes after the hour before the one named ("halb 6" is 5:30, "dreiviertel 6" 5:45)
BEFORE_HOUR = {"halb": 30, "dreiviertel": 45, "drei viertel": 45}

# "every morning", "todas as noites", "jeden Abend", "tous les soirs": every day at that part
EVERY_PART = {
    "every morning": "morning", "each morning": "morning", "every evening": "evening",
    "each evening": "evening", "every night": "night", "each night": "night",
    "every afternoon": "afternoon", "nightly": "night",
    "todas as manhas": "de manha", "cada manha": "de manha", "todas as tardes": "a tarde",
    "todas as noites": "a noite", "cada noite": "a noite",
    "todas las mananas": "por la manana", "cada manana": "por la manana",
    "todas las tardes": "por la tarde", "cada tarde": "por la tarde",
    "todas las noches": "por la noche", "cada noche": "por la noche",
    "jeden morgen": "morgens", "jeden vormittag": "morgens", "jeden nachmittag": "nachmittags",
    "jeden abend": "abends", "jede nacht": "abends",
    "tous les matins": "le matin", "chaque matin": "le matin", "tous les soirs": "le soir",
    "chaque soir": "le soir", "tous les apres-midi": "l'apres-midi",
    "chaque apres-midi": "l'apres-midi",
}  # fmt: skip

# -- the weeks of a month: "the last Friday of the month", "o último dia do mês" -----------------

# ordinal -> RRULE position (-1: the last)
MONTH_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "last": -1,
    "primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3,
    "quarto": 4, "quarta": 4, "ultimo": -1, "ultima": -1,
    "primer": 1, "primera": 1, "tercer": 3, "tercera": 3, "cuarto": 4, "cuarta": 4,
    "erste": 1, "ersten": 1, "erster": 1, "zweite": 2, "zweiten": 2, "zweiter": 2, "dritte": 3,
    "dritten": 3, "dritter": 3, "vierte": 4, "vierten": 4, "vierter": 4, "letzte": -1,
    "letzten": -1, "letzter": -1,
    "premier": 1, "premiere": 1, "deuxieme": 2, "seconde": 2, "troisieme": 3,
    "quatrieme": 4, "dernier": -1, "derniere": -1,
}  # fmt: skip
# a day of the month: "the last day", "o último dia", "el último día", "der letzte Tag", "le dernier jour"
MONTH_DAY_WORDS = ("day", "dia", "tag", "jour")
# "of the month", "do mês", "del mes", "des Monats", "im Monat", "du mois"
OF_THE_MONTH = (
    "of the month", "of each month", "of every month", "do mes", "de cada mes", "de todos os meses",
    "del mes", "des monats", "jedes monats", "im monat", "du mois", "de chaque mois", "de cada mes",
)  # fmt: skip
# "every month on the last day", "todos os meses no último dia", "jeden Monat am letzten Tag"
EVERY_MONTH = (
    "every month", "each month", "monthly", "todos os meses", "todo mes", "cada mes",
    "todos los meses", "jeden monat", "monatlich", "tous les mois", "chaque mois",
)  # fmt: skip
# the ones that make it repeat
OF_EVERY_MONTH = (
    "of each month", "of every month", "de cada mes", "de todos os meses", "jedes monats",
    "de chaque mois",
)  # fmt: skip
# "every other Wednesday", "quarta sim, quarta não" -> every second week on that day
EVERY_OTHER_DAY = (
    "every other", "every second", "every 2nd", "a cada duas", "a cada dois", "de duas em duas",
    "cada dos", "cada otro", "jeden zweiten", "jede zweite", "alle zwei wochen am",
    "un sur deux", "tous les deux", "toutes les deux",
)  # fmt: skip

# "no repeat", "no due time": what clears a field ("--repeat none", "--due nunca")
NONE_WORDS = ("none", "never", "no", "nothing", "nunca", "nenhum", "nenhuma", "ninguno", "ninguna",
              "nie", "keine", "keiner", "jamais", "aucun", "aucune")  # fmt: skip

# recurrence: "every" words
EVERY = (
    "every",
    "each",
    "todos os",
    "todas as",
    "todos los",
    "todas las",
    "cada",
    "jeden",
    "jede",
    "jedes",
    "alle",
    "tous les",
    "toutes les",
    "chaque",
)
EVERY_OTHER = (
    "every other",
    "every second",
    "a cada dois",
    "a cada duas",
    "cada dos",
    "jeden zweiten",
    "jede zweite",
    "jedes zweite",
    "alle zwei",
    "un sur deux",
)
FREQ_WORDS = {
    "daily": "DAILY",
    "weekly": "WEEKLY",
    "monthly": "MONTHLY",
    "yearly": "YEARLY",
    "annually": "YEARLY",
    "diariamente": "DAILY",
    "semanalmente": "WEEKLY",
    "mensalmente": "MONTHLY",
    "mensualmente": "MONTHLY",
    "anualmente": "YEARLY",
    "taglich": "DAILY",
    "wochentlich": "WEEKLY",
    "monatlich": "MONTHLY",
    "jahrlich": "YEARLY",
    "quotidiennement": "DAILY",
    "tous les jours": "DAILY",
    "chaque jour": "DAILY",
    "todos os dias": "DAILY",
    "todos los dias": "DAILY",
    "cada dia": "DAILY",
    "jeden tag": "DAILY",
    "hebdomadaire": "WEEKLY",
    "mensuel": "MONTHLY",
    "annuel": "YEARLY",
}
WEEKDAYS_EVERY = (
    "every weekday",
    "weekdays",
    "on weekdays",
    "dias uteis",
    "todos os dias uteis",
    "dias laborables",
    "entre semana",
    "werktags",
    "an werktagen",
    "en semaine",
    "les jours de semaine",
)
YEARLY_WORDS = re.compile(
    r"\b(birthday|bday|anniversary|aniversario|cumpleanos|geburtstag|"
    r"jahrestag|anniversaire)\b"
)

# "remind me", "lembra-me", "recuérdame", "erinnere mich", "rappelle-moi": text that asks for a
# reminder (folded, at the start)
REMINDER_CUES = re.compile(
    r"^\s*(remind me|reminder|remember to|don'?t forget|do not forget|todo|to do|to-do|"
    r"lembra-me|lembrar|lembrete|nao esquecer|nao te esquecas|recordar|recuerdame|recordatorio|"
    r"no olvidar|no olvides|erinnere mich|erinnerung|nicht vergessen|denk dran|denk daran|"
    r"rappelle-moi|rappel|ne pas oublier|n'oublie pas|penser a)\b",
    re.I,
)


def _fold_keys() -> None:
    """Every table above holds folded words (written with accents where that reads better)."""
    g = globals()
    for name in (
        "MONTHS",
        "WEEKDAYS",
        "WEEKDAY_ADVERBS",
        "NUMBERS",
        "UNITS",
        "PARTS",
        "FREQ_WORDS",
        "HOUR_WORDS",
        "MINUTE_WORDS",
        "BEFORE_HOUR",
        "EVERY_PART",
        "MONTH_ORDINALS",
    ):
        g[name] = {fold(k): v for k, v in g[name].items()}
    for name in (
        "HALF_HOUR",
        "IN_WORDS",
        "AGO_BEFORE",
        "AGO_AFTER",
        "TODAY",
        "TONIGHT",
        "TOMORROW",
        "AFTER_TOMORROW",
        "YESTERDAY",
        "BEFORE_YESTERDAY",
        "NEXT_PRE",
        "NEXT_POST",
        "LAST_PRE",
        "LAST_POST",
        "THIS_PRE",
        "WEEK",
        "WEEKEND",
        "MONTH",
        "YEAR",
        "AT",
        "NOON",
        "MIDNIGHT",
        "EVERY",
        "EVERY_OTHER",
        "WEEKDAYS_EVERY",
        "MINUTES_PAST",
        "MINUTES_TO",
        "HOUR_AND",
        "HOUR_LESS",
        "HOUR_MARKS",
        "MONTH_DAY_WORDS",
        "OF_THE_MONTH",
        "OF_EVERY_MONTH",
        "EVERY_MONTH",
        "EVERY_OTHER_DAY",
        "NONE_WORDS",
    ):
        g[name] = tuple(fold(w) for w in g[name])
    g["AMBIGUOUS_MONTHS"] = frozenset(fold(w) for w in g["AMBIGUOUS_MONTHS"])
    g["PM_PARTS"] = frozenset(p for p, h in g["PARTS"].items() if h >= 15)
    g["AM_PARTS"] = frozenset(p for p, h in g["PARTS"].items() if h < 12)


_fold_keys()
