"""Named days and periods -- holidays, seasons -- in five languages, computed for any year.

A calendar of our own (the `holidays` package costs ~0.5 s to import and knows no seasons):
fixed dates, Easter-based feasts (dateutil's Easter), and "the nth weekday of a month" rules.
`NAMED` maps a folded name to a function year -> (first day, number of days).
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date, timedelta

from dateutil.easter import easter

from core.when.words import fold

Span = tuple[date, int]


def _fixed(month: int, day: int, days: int = 1) -> Callable[[int], Span]:
    return lambda y: (date(y, month, day), days)


def _easter(offset: int, days: int = 1) -> Callable[[int], Span]:
    return lambda y: (easter(y) + timedelta(days=offset), days)


def _nth(month: int, weekday: int, n: int, days: int = 1, shift: int = 0) -> Callable[[int], Span]:
    """The nth `weekday` of `month` (n = -1: the last), plus `shift` days."""

    def at(y: int) -> Span:
        if n > 0:
            first = date(y, month, 1)
            d = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        else:
            last = date(y, month, calendar.monthrange(y, month)[1])
            d = last - timedelta(days=(last.weekday() - weekday) % 7)
        return d + timedelta(days=shift), days

    return at


MO, TH, SU = 0, 3, 6

_TABLE: list[tuple[tuple[str, ...], Callable[[int], Span]]] = [
    (
        (
            "christmas eve",
            "xmas eve",
            "consoada",
            "vespera de natal",
            "noite de natal",
            "nochebuena",
            "heiligabend",
            "heiliger abend",
            "heiligen abend",
            "reveillon de noel",
            "veille de noel",
        ),
        _fixed(12, 24),
    ),
    (
        ("christmas day", "dia de natal", "dia de navidad", "erster weihnachtstag", "jour de noel"),
        _fixed(12, 25),
    ),
    (("boxing day", "zweiter weihnachtstag", "st stephen's day"), _fixed(12, 26)),
    (("christmas", "xmas", "natal", "navidad", "navidades", "weihnachten", "noel"), _fixed(12, 24, 3)),
    (
        (
            "new year's eve",
            "new years eve",
            "nye",
            "passagem de ano",
            "passagem do ano",
            "nochevieja",
            "silvester",
            "saint-sylvestre",
            "saint sylvestre",
            "reveillon",
        ),
        _fixed(12, 31),
    ),
    (("new year's day", "new years day", "dia de ano novo", "neujahrstag", "jour de l'an"), _fixed(1, 1)),
    (
        ("new year's", "new years", "new year", "ano novo", "ano nuevo", "neujahr", "nouvel an"),
        lambda y: (date(y - 1, 12, 31), 2),
    ),
    (
        ("the holidays", "holiday season", "the festive season", "festas", "fiestas", "les fetes"),
        lambda y: (date(y - 1, 12, 24), 9),
    ),
    (
        (
            "epiphany",
            "dia de reis",
            "dia de reyes",
            "reyes",
            "dreikonigstag",
            "heilige drei konige",
            "epiphanie",
            "fete des rois",
        ),
        _fixed(1, 6),
    ),
    (
        (
            "valentine's day",
            "valentine's",
            "valentines day",
            "valentines",
            "dia dos namorados",
            "san valentin",
            "valentinstag",
            "saint-valentin",
            "saint valentin",
        ),
        _fixed(2, 14),
    ),
    (
        (
            "carnival",
            "carnaval",
            "mardi gras",
            "shrove tuesday",
            "pancake day",
            "fasching",
            "karneval",
            "entrudo",
        ),
        _easter(-50, 4),
    ),
    (
        (
            "st patrick's day",
            "st patrick's",
            "st. patrick's",
            "saint patrick's",
            "st paddy's",
            "st patricks",
            "paddy's day",
        ),
        _fixed(3, 17),
    ),
    (("fallas", "falles"), _fixed(3, 15, 5)),
    (("holy week", "semana santa", "karwoche", "semaine sainte"), _easter(-7, 8)),
    (("good friday", "sexta-feira santa", "viernes santo", "karfreitag", "vendredi saint"), _easter(-2)),
    (("easter monday", "ostermontag", "lundi de paques", "lunes de pascua"), _easter(1)),
    (
        ("easter sunday", "domingo de pascoa", "domingo de pascua", "ostersonntag", "dimanche de paques"),
        _easter(0),
    ),
    (("easter", "pascoa", "pascua", "ostern", "paques"), _easter(-2, 4)),
    (("dia da liberdade",), _fixed(4, 25)),
    (
        (
            "may day",
            "labour day",
            "dia do trabalhador",
            "dia del trabajo",
            "dia del trabajador",
            "tag der arbeit",
            "fete du travail",
            "primeiro de maio",
            "premier mai",
        ),
        _fixed(5, 1),
    ),
    (
        ("ascension day", "ascension", "christi himmelfahrt", "himmelfahrt", "vatertag", "ascensao"),
        _easter(39),
    ),
    (("pentecost", "whitsun", "pfingsten", "pentecote", "pentecostes"), _easter(49, 2)),
    (("corpus christi", "fronleichnam", "corpo de deus"), _easter(60)),
    (("memorial day",), _nth(5, MO, -1)),
    (("mother's day", "mothers day"), _nth(5, SU, 2)),
    (("dia da mae",), _nth(5, SU, 1)),
    (("dia de la madre",), _nth(5, SU, 1)),
    (("muttertag",), _nth(5, SU, 2)),
    (("fete des meres",), _nth(5, SU, -1)),
    (("father's day", "fathers day", "fete des peres"), _nth(6, SU, 3)),
    (("dia do pai", "dia del padre"), _fixed(3, 19)),
    (("dia de portugal", "dia de camoes"), _fixed(6, 10)),
    (("santo antonio", "santos populares"), _fixed(6, 12, 2)),
    (("juneteenth",), _fixed(6, 19)),
    (
        ("sao joao", "san juan", "noche de san juan", "saint-jean", "johannistag", "midsummer"),
        _fixed(6, 23, 2),
    ),
    (("fourth of july", "4th of july", "the fourth", "independence day"), _fixed(7, 4)),
    (("bastille day", "fete nationale", "quatorze juillet"), _fixed(7, 14)),
    (
        ("assumption", "assuncao", "asuncion", "maria himmelfahrt", "mariae himmelfahrt", "assomption"),
        _fixed(8, 15),
    ),
    (("labor day",), _nth(9, MO, 1)),
    (("tag der deutschen einheit", "einheitsfeiertag"), _fixed(10, 3)),
    (("nou d'octubre", "9 d'octubre"), _fixed(10, 9)),
    (("dia de la hispanidad", "fiesta nacional de espana", "el pilar"), _fixed(10, 12)),
    (("halloween",), _fixed(10, 31)),
    (
        (
            "all saints",
            "all saints' day",
            "dia de todos os santos",
            "todos os santos",
            "dia de todos los santos",
            "todos los santos",
            "allerheiligen",
            "toussaint",
        ),
        _fixed(11, 1),
    ),
    (("all souls", "dia de finados", "dia de muertos", "dia de los muertos", "allerseelen"), _fixed(11, 2)),
    (
        (
            "armistice",
            "armistice day",
            "remembrance day",
            "veterans day",
            "martinstag",
            "sankt martin",
            "sao martinho",
            "san martin",
            "saint-martin",
        ),
        _fixed(11, 11),
    ),
    (("thanksgiving",), _nth(11, TH, 4, days=4)),
    (("black friday",), _nth(11, TH, 4, shift=1)),
    (("martin luther king day", "mlk day"), _nth(1, MO, 3)),
    (("presidents' day", "presidents day"), _nth(2, MO, 3)),
    (("early may bank holiday",), _nth(5, MO, 1)),
    (("spring bank holiday",), _nth(5, MO, -1)),
    (("august bank holiday", "summer bank holiday"), _nth(8, MO, -1)),
]

NAMED: dict[str, Callable[[int], Span]] = {fold(n): f for names, f in _TABLE for n in names}

# Seasons of the northern hemisphere (meteorological), named only after in/this/last/next/over...
SEASONS: dict[str, Callable[[int], Span]] = {
    fold(n): f
    for names, f in [
        (("spring", "primavera", "fruhling", "fruhjahr", "printemps"), lambda y: (date(y, 3, 1), 92)),
        (("summer", "verao", "verano", "sommer", "ete"), lambda y: (date(y, 6, 1), 92)),
        (("autumn", "fall", "outono", "otono", "herbst", "automne"), lambda y: (date(y, 9, 1), 91)),
        (("winter", "inverno", "invierno", "hiver"), lambda y: (date(y, 12, 1), 90)),
    ]
    for n in names
}


def weekend_of(first: date, days: int) -> Span:
    """The long weekend a holiday makes ("Labor Day weekend"): the Saturday to Monday of a
    Monday holiday, Friday to Sunday of a Friday one, and so on."""
    wd = first.weekday()
    if wd == 0:
        return first - timedelta(days=2), 3
    if wd in (3, 4):
        return first, 7 - wd
    if wd == 5:
        return first, 2
    if wd == 6:
        return first - timedelta(days=1), 2
    return first - timedelta(days=wd + 2), wd + 3  # Tuesday, Wednesday: from the Saturday before
