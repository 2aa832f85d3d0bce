"""The repeats the date grammar reads (core/when: find_when's rrule), judged on other projects'
test cases and on a frozen set of our own, and said back by say_rule in the person's language."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from dateutil.relativedelta import relativedelta

from core.remind.series import Series, next_occurrence
from core.when import find_when
from core.when.parse import title_without
from core.when.spoken import say_rule

CORPUS = Path(__file__).parent / "when_corpus" / "repeats"
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# what a case's rule is compared on; COUNT, UNTIL and the start date are not (see recurrent_en.md)
COMPARED = ("BYDAY", "BYMONTHDAY", "BYMONTH", "BYYEARDAY", "BYWEEKNO", "BYSETPOS")


def rule_parts(rule: str) -> dict[str, str]:
    parts = dict(
        piece.partition("=")[::2] for piece in rule.upper().removeprefix("RRULE:").split(";") if piece
    )
    parts.setdefault("INTERVAL", "1")
    return parts


def _same(key: str, ours: str | None, theirs: str) -> bool:
    if ours is None:
        return False
    if key in ("BYDAY", "BYMONTHDAY", "BYWEEKNO", "BYSETPOS", "BYMONTH", "BYYEARDAY"):
        return {v.lstrip("+") for v in ours.split(",")} == {v.lstrip("+") for v in theirs.split(",")}
    return ours == theirs


def rule_agrees(when, expect: str, time: str | None = None) -> bool:
    """`when`'s repeat is the rule `expect` says by its frequency, interval, days (BYDAY,
    BYMONTHDAY, BYMONTH...) and, when `time` ("19:00") is given, its time of day. A part the
    rule leaves to its first occurrence (DTSTART) is that occurrence's: "once a week" read as
    FREQ=WEEKLY from a Tuesday is every Tuesday, "every year on 3 June" FREQ=YEARLY from 3 June."""
    if when is None or not when.rrule:
        return False
    ours, theirs = rule_parts(when.rrule), rule_parts(expect)
    if (ours.get("FREQ"), ours["INTERVAL"]) != (theirs["FREQ"], theirs["INTERVAL"]):
        return False
    due = when.due
    implied = {}
    if ours["FREQ"] == "WEEKLY" and "BYDAY" not in ours:
        implied["BYDAY"] = RRULE_DAYS[due.weekday()]
    if ours["FREQ"] in ("MONTHLY", "YEARLY") and not {"BYDAY", "BYMONTHDAY", "BYYEARDAY"} & set(ours):
        implied["BYMONTHDAY"] = str(due.day)
    if ours["FREQ"] == "YEARLY" and "BYMONTH" not in ours:
        implied["BYMONTH"] = str(due.month)
    for key in COMPARED:
        if key in theirs and not _same(key, ours.get(key, implied.get(key)), theirs[key]):
            return False
    return time is None or due.strftime("%H:%M") == time


def case_reads(corpus: dict, case: list) -> bool:
    text, region, expect, *time = case
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=ZoneInfo(corpus["zone"]))
    return rule_agrees(find_when(text, now, region=region), expect, time[0] if time else None)


def negative_reads_no_repeat(corpus: dict, case: list) -> bool:
    text, region = case
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=ZoneInfo(corpus["zone"]))
    when = find_when(text, now, region=region)
    return when is None or not when.rrule


# recurrent's own tests (recurrent_en.json, its conventions in recurrent_en.md), rrule.js's,
# cronstrue's and ice_cube's descriptions, Nextcloud Calendar's summaries and AOSP Calendar's
# descriptions in five languages read backwards (their .md) and a frozen set of repeats in pt, es,
# de and fr written before the grammar was tuned to it: read as they expect, at least as many as
# now (floors: raise them as the grammar learns).
RULE_FLOORS = {
    "aosp_calendar_en_pt_es_de_fr": 414,
    "cronstrue_en_pt_es_de_fr": 191,
    "ice_cube_en_pt_es_de_fr": 152,
    "nextcloud_calendar_en_pt_es_de_fr": 389,
    "recurrent_en": 173,
    "people_pt_es_de_fr": 64,
    "people_repeats_2": 70,
    "people_repeats_3": 65,
    "people_repeats_4": 60,
    "people_repeats_5": 60,
    "people_repeats_6": 50,
    "php_rrule_en_pt_es_de_fr": 277,
    "rrulejs_en": 19,
    "tickle_en": 38,
    "nickel_en": 29,
    "vikunja_quick_add_en": 68,
}


def load(name: str) -> dict:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(RULE_FLOORS))
def test_other_projects_repeats_read_at_least_as_well_as_before(name):
    corpus = load(name)
    assert corpus["licence"] and corpus["taken"] and corpus["source"]
    read = sum(case_reads(corpus, case) for case in corpus["cases"])
    assert read >= RULE_FLOORS[name], f"{read} of {len(corpus['cases'])}"
    wrongly = [case[0] for case in corpus.get("negatives", []) if not negative_reads_no_repeat(corpus, case)]
    assert not wrongly  # "Once in a while.", "Every time i hear that": no repeat


@pytest.mark.parametrize("name", sorted(RULE_FLOORS))
def test_every_rule_the_judges_read_is_said_in_words_and_comes_again(name):
    """Each repeat read from a judge's phrases is said back in the person's language (never
    "repeats (custom)") and the one recurrence engine finds its next occurrence."""
    corpus = load(name)
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=ZoneInfo(corpus["zone"]))
    for text, region, *_ in corpus["cases"]:
        when = find_when(text, now, region=region)
        if when is None or not when.rrule:
            continue
        said = say_rule(when.rrule, region[:2])
        assert said and "(" not in said, (text, when.rrule, said)
        after = next_occurrence(Series(when.rrule, now.tzinfo), when.due, when.due)
        assert after is not None and after > when.due, (text, when.rrule)


# -- the classes of repeats people say, each in the five languages ---------------------------------

TZ = ZoneInfo("Europe/Lisbon")
SATURDAY = datetime(2026, 12, 5, 10, 0, tzinfo=TZ)  # Saturday 5 December 2026, 10:00


def at(day: str, hm: str = "09:00") -> datetime:
    return datetime.fromisoformat(f"{day}T{hm}").replace(tzinfo=TZ)


def read_as(text: str, region: str, due: datetime, rule: str, said: str) -> None:
    """`text` is the repeat `rule` from `due`, said back by say_rule in the person's language as
    `said`, and the one recurrence engine finds its next occurrence after `due`."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and (when.rrule, when.due) == (rule, due), when and (when.rrule, when.due)
    assert say_rule(when.rrule, region[:2]) == said
    after = next_occurrence(Series(rule, TZ), due, due)
    assert after is not None and after > due


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "stretch every 15 minutes",
            "en_US",
            at("2026-12-05", "10:15"),
            "FREQ=MINUTELY;INTERVAL=15",
            "every 15 minutes",
        ),
        ("drink water every hour", "en_GB", at("2026-12-05", "11:00"), "FREQ=HOURLY", "every hour"),
        ("check the oven hourly", "en_GB", at("2026-12-05", "11:00"), "FREQ=HOURLY", "every hour"),
        ("every other hour", "en_GB", at("2026-12-05", "12:00"), "FREQ=HOURLY;INTERVAL=2", "every 2 hours"),
        ("beber água de hora em hora", "pt_PT", at("2026-12-05", "11:00"), "FREQ=HOURLY", "de hora a hora"),
        (
            "alongar a cada 20 minutos",
            "pt_PT",
            at("2026-12-05", "10:20"),
            "FREQ=MINUTELY;INTERVAL=20",
            "a cada 20 minutos",
        ),
        (
            "estirar cada 15 minutos",
            "es_ES",
            at("2026-12-05", "10:15"),
            "FREQ=MINUTELY;INTERVAL=15",
            "cada 15 minutos",
        ),
        ("cada hora", "es_ES", at("2026-12-05", "11:00"), "FREQ=HOURLY", "cada hora"),
        (
            "alle 2 Stunden lüften",
            "de_DE",
            at("2026-12-05", "12:00"),
            "FREQ=HOURLY;INTERVAL=2",
            "alle 2 Stunden",
        ),
        ("stündlich", "de_DE", at("2026-12-05", "11:00"), "FREQ=HOURLY", "stündlich"),
        (
            "toutes les 10 minutes",
            "fr_FR",
            at("2026-12-05", "10:10"),
            "FREQ=MINUTELY;INTERVAL=10",
            "toutes les 10 minutes",
        ),
        (
            "boire de l'eau toutes les heures",
            "fr_FR",
            at("2026-12-05", "11:00"),
            "FREQ=HOURLY",
            "toutes les heures",
        ),
    ],
)
def test_repeats_by_the_clock_start_one_step_from_now(text, region, due, rule, said):
    """Every hour, every N minutes: the first one step from now (to the minute), as the clock
    goes. "in 15 minutes" and "the meeting lasted 2 hours" stay no repeat."""
    read_as(text, region, due, rule, said)
    assert find_when("in 15 minutes", SATURDAY).rrule is None
    assert find_when("the meeting lasted 2 hours", SATURDAY) is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("biweekly sync", "en_US", at("2026-12-06"), "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
        ("every fortnight", "en_GB", at("2026-12-06"), "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
        (
            "réunion tous les quinze jours",
            "fr_FR",
            at("2026-12-06"),
            "FREQ=WEEKLY;INTERVAL=2",
            "toutes les 2 semaines",
        ),
        ("Papiermüll vierzehntägig", "de_DE", at("2026-12-06"), "FREQ=WEEKLY;INTERVAL=2", "alle 2 Wochen"),
        ("arroser un jour sur deux", "fr_FR", at("2026-12-06"), "FREQ=DAILY;INTERVAL=2", "tous les 2 jours"),
        ("regar dia sim, dia não", "pt_PT", at("2026-12-06"), "FREQ=DAILY;INTERVAL=2", "a cada 2 dias"),
        ("regar un día sí y otro no", "es_ES", at("2026-12-06"), "FREQ=DAILY;INTERVAL=2", "cada 2 días"),
        ("bilan annuellement", "fr_FR", at("2026-12-06"), "FREQ=YEARLY", "tous les ans"),
    ],
)
def test_fortnights_and_every_other_day_said_as_idioms_repeat(text, region, due, rule, said):
    read_as(text, region, due, rule, said)


WORKDAYS = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "stand-up from Monday to Friday at 8",
            "en_US",
            at("2026-12-07", "08:00"),
            WORKDAYS,
            "every weekday",
        ),
        (
            "every Mon-Wed",
            "en_GB",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE",
            "every Monday, Tuesday and Wednesday",
        ),
        (
            "shop open saturdays through tuesdays at 10",
            "en_GB",
            at("2026-12-06", "10:00"),
            "FREQ=WEEKLY;BYDAY=MO,TU,SA,SU",
            "every Monday, Tuesday, Saturday and Sunday",
        ),
        (
            "correr de segunda a sexta às 7h30",
            "pt_PT",
            at("2026-12-07", "07:30"),
            WORKDAYS,
            "todos os dias úteis",
        ),
        (
            "aulas de terça a quinta às 18h",
            "pt_PT",
            at("2026-12-08", "18:00"),
            "FREQ=WEEKLY;BYDAY=TU,WE,TH",
            "às terças, quartas e quintas",
        ),
        (
            "de martes a jueves a las 8",
            "es_ES",
            at("2026-12-08", "08:00"),
            "FREQ=WEEKLY;BYDAY=TU,WE,TH",
            "los martes, miércoles y jueves",
        ),
        (
            "von Montag bis Freitag um 8 Uhr Deutschkurs",
            "de_DE",
            at("2026-12-07", "08:00"),
            WORKDAYS,
            "werktags",
        ),
        ("montags bis freitags um 8", "de_DE", at("2026-12-07", "08:00"), WORKDAYS, "werktags"),
        ("du lundi au vendredi à 7h30 bus", "fr_FR", at("2026-12-07", "07:30"), WORKDAYS, "en semaine"),
        ("de lundi à vendredi", "fr_FR", at("2026-12-07"), WORKDAYS, "en semaine"),
        (
            "every 2 weeks from Monday to Wednesday",
            "en_GB",
            at("2026-12-07"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE",
            "every 2 weeks on Monday, Tuesday and Wednesday",
        ),
    ],
)
def test_a_range_of_weekdays_said_as_a_habit_repeats_on_each(text, region, due, rule, said):
    """With "every", in the plural, with a time after it or said alone; a stay in a sentence
    ("from Monday to Friday") stays the day it starts."""
    read_as(text, region, due, rule, said)
    for text, region in (
        ("Ana is in Porto from Monday to Friday", "en_GB"),
        ("je suis à Lyon du lundi au vendredi", "fr_FR"),
    ):
        when = find_when(text, SATURDAY, region=region)
        assert when is not None and when.rrule is None and when.due == at("2026-12-07"), text


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("revisão de 3 em 3 meses", "pt_PT", at("2026-12-06"), "FREQ=MONTHLY;INTERVAL=3", "a cada 3 meses"),
        ("de seis em seis meses", "pt_PT", at("2026-12-06"), "FREQ=MONTHLY;INTERVAL=6", "a cada 6 meses"),
        (
            "alongar de 15 em 15 minutos",
            "pt_PT",
            at("2026-12-05", "10:15"),
            "FREQ=MINUTELY;INTERVAL=15",
            "a cada 15 minutos",
        ),
        ("regar de dos en dos días", "es_ES", at("2026-12-06"), "FREQ=DAILY;INTERVAL=2", "cada 2 días"),
    ],
)
def test_a_step_said_twice_repeats_by_that_step(text, region, due, rule, said):
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "reunião quinzenal às segundas",
            "pt_PT",
            at("2026-12-07"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
            "a cada 2 semanas, às segundas",
        ),
        (
            "biweekly on Tuesdays",
            "en_US",
            at("2026-12-08"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
            "every 2 weeks on Tuesday",
        ),
        ("once a fortnight", "en_GB", at("2026-12-06"), "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
        (
            "toutes les deux semaines le mardi et le jeudi",
            "fr_FR",
            at("2026-12-08"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH",
            "toutes les 2 semaines, le mardi et le jeudi",
        ),
        (
            "every week on Monday and Thursday",
            "en_GB",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "every Monday and Thursday",
        ),
        (
            "quincenal los lunes",
            "es_ES",
            at("2026-12-07"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
            "cada 2 semanas, los lunes",
        ),
        (
            "Training vierzehntägig am Montag",
            "de_DE",
            at("2026-12-07"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
            "alle 2 Wochen montags",
        ),
    ],
)
def test_a_step_of_weeks_keeps_the_days_said_beside_it(text, region, due, rule, said):
    """Every other week on its days, whichever is said first (the step or the days)."""
    read_as(text, region, due, rule, said)


WEEKEND = "FREQ=WEEKLY;BYDAY=SA,SU"


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("ligar à mãe toda segunda-feira", "pt_PT", at("2026-12-07"), "FREQ=WEEKLY;BYDAY=MO", "às segundas"),
        ("backup toda semana", "pt_PT", at("2026-12-06"), "FREQ=WEEKLY", "todas as semanas"),
        (
            "pagar a renda todo dia 8",
            "pt_PT",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYMONTHDAY=8",
            "todos os meses no dia 8",
        ),
        ("futebol nos fins de semana", "pt_PT", at("2026-12-06"), WEEKEND, "aos fins de semana"),
        (
            "lavar o carro semana sim, semana não",
            "pt_PT",
            at("2026-12-06"),
            "FREQ=WEEKLY;INTERVAL=2",
            "a cada 2 semanas",
        ),
        ("run weekends at 10", "en_GB", at("2026-12-06", "10:00"), WEEKEND, "every weekend"),
        ("Oma an jedem Wochenende besuchen", "de_DE", at("2026-12-06"), WEEKEND, "an Wochenenden"),
        (
            "Miete jeden 1. des Monats",
            "de_DE",
            at("2027-01-01"),
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "monatlich am 1.",
        ),
        ("leer a diario", "es_ES", at("2026-12-06"), "FREQ=DAILY", "todos los días"),
    ],
)
def test_every_said_in_the_singular_and_weekends_as_each_language_says_them(text, region, due, rule, said):
    """pt "toda semana", "todo dia 8"; but "toda a semana" is the whole week and "I love
    weekends" no habit."""
    read_as(text, region, due, rule, said)
    for text, region in (("trabalhei toda a semana", "pt_PT"), ("I love weekends", "en_GB")):
        assert find_when(text, SATURDAY, region=region) is None, text


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "Thanksgiving every year on the fourth Thursday in November",
            "en_US",
            at("2027-11-25"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH",
            "every year on the fourth Thursday in November",
        ),
        (
            "every fourth Thursday in November",
            "en_US",
            at("2027-11-25"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH",
            "every year on the fourth Thursday in November",
        ),
        (
            "todos os anos na última sexta-feira de novembro",
            "pt_PT",
            at("2027-11-26"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=-1FR",
            "todos os anos, na última sexta-feira de novembro",
        ),
        (
            "cada año el último viernes de noviembre",
            "es_ES",
            at("2027-11-26"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=-1FR",
            "todos los años, el último viernes de noviembre",
        ),
        (
            "jedes Jahr am letzten Freitag im November",
            "de_DE",
            at("2027-11-26"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=-1FR",
            "jährlich am letzten Freitag im November",
        ),
        (
            "chaque année le dernier vendredi de novembre",
            "fr_FR",
            at("2027-11-26"),
            "FREQ=YEARLY;BYMONTH=11;BYDAY=-1FR",
            "tous les ans, le dernier vendredi de novembre",
        ),
        ("every July 4th", "en_US", at("2027-07-04"), "FREQ=YEARLY", "every year"),
        ("cada 25 de diciembre", "es_ES", at("2026-12-25"), "FREQ=YEARLY", "todos los años"),
        ("tous les 25 décembre", "fr_FR", at("2026-12-25"), "FREQ=YEARLY", "tous les ans"),
    ],
)
def test_a_yearly_repeat_keeps_the_weekday_of_its_month(text, region, due, rule, said):
    """A weekday of a month (the fourth Thursday of November) falls on another date each year:
    the rule says it, and the next one is that weekday (25 Nov 2027, 23 Nov 2028). Every and a
    date ("every July 4th") is every year; the date alone is once."""
    read_as(text, region, due, rule, said)
    if "BYDAY=4TH" in rule:
        assert next_occurrence(Series(rule, TZ), due, due) == at("2028-11-23")
    assert find_when("the fourth Thursday in November", SATURDAY).rrule is None
    assert find_when("July 4th", SATURDAY).rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("Tuesdays", "en_GB", at("2026-12-08"), "FREQ=WEEKLY;BYDAY=TU", "every Tuesday"),
        (
            "tuesdays and thursdays",
            "en_US",
            at("2026-12-08"),
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "every Tuesday and Thursday",
        ),
        ("les mardis", "fr_FR", at("2026-12-08"), "FREQ=WEEKLY;BYDAY=TU", "le mardi"),
        ("terças e quintas", "pt_PT", at("2026-12-08"), "FREQ=WEEKLY;BYDAY=TU,TH", "às terças e quintas"),
    ],
)
def test_plural_weekdays_said_alone_repeat(text, region, due, rule, said):
    """Alone (a repeat field, a note that is only that), plural weekdays are a habit; in a
    sentence ("I hate Mondays", "j'adore les mardis") they are not."""
    read_as(text, region, due, rule, said)
    for text, region in (("I hate Mondays", "en_GB"), ("j'adore les mardis", "fr_FR")):
        assert find_when(text, SATURDAY, region=region) is None, text
    for text, region in (
        ("Ana came on Tuesday", "en_GB"),
        ("a Ana veio na terça", "pt_PT"),
        ("Tuesday", "en_GB"),
    ):
        when = find_when(text, SATURDAY, region=region)
        assert when is not None and when.rrule is None, text  # a weekday named is a day, not a habit


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "water the cactus every 4th day",
            "en_US",
            at("2026-12-06"),
            "FREQ=DAILY;INTERVAL=4",
            "every 4 days",
        ),
        ("every 3rd month", "en_GB", at("2026-12-06"), "FREQ=MONTHLY;INTERVAL=3", "every 3 months"),
        (
            "at 10 am on 15th of every month",
            "en_US",
            at("2026-12-15", "10:00"),
            "FREQ=MONTHLY;BYMONTHDAY=15",
            "every month on the 15th",
        ),
        (
            "invoices at the end of each month",
            "en_GB",
            at("2026-12-31"),
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "every month on the last day",
        ),
        (
            "pay rent at the beginning of each month",
            "en_GB",
            at("2027-01-01"),
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "every month on the 1st",
        ),
        (
            "faturas no fim de cada mês",
            "pt_PT",
            at("2026-12-31"),
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "todos os meses no último dia",
        ),
        (
            "facturas a fin de cada mes",
            "es_ES",
            at("2026-12-31"),
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "todos los meses el último día",
        ),
        (
            "Rechnungen am Ende jedes Monats",
            "de_DE",
            at("2026-12-31"),
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "monatlich am letzten Tag",
        ),
        (
            "factures à la fin de chaque mois",
            "fr_FR",
            at("2026-12-31"),
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "tous les mois le dernier jour",
        ),
        (
            "loyer au début de chaque mois",
            "fr_FR",
            at("2027-01-01"),
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "tous les mois le 1er",
        ),
    ],
)
def test_steps_in_ordinals_and_the_ends_of_each_month_repeat(text, region, due, rule, said):
    """ "every 3rd month" is every 3 months; the end (the beginning) of each month its last
    (first) day; "the end of the month" alone stays one day."""
    read_as(text, region, due, rule, said)
    when = find_when("the end of the month", SATURDAY)
    assert when is not None and when.rrule is None


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("2nd to the last Friday of each month", "en_GB", "every month on the second to last Friday"),
        ("na penúltima sexta-feira de cada mês", "pt_PT", "todos os meses, na penúltima sexta-feira"),
        ("el penúltimo viernes de cada mes", "es_ES", "todos los meses, el penúltimo viernes"),
        ("am vorletzten Freitag jedes Monats", "de_DE", "monatlich am vorletzten Freitag"),
        ("l'avant-dernier vendredi de chaque mois", "fr_FR", "tous les mois, l’avant-dernier vendredi"),
    ],
)
def test_the_second_to_last_weekday_of_each_month_repeats(text, region, said):
    read_as(text, region, at("2026-12-18"), "FREQ=MONTHLY;BYDAY=-2FR", said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("Yoga jeden Sonntagabend", "de_DE", at("2026-12-06", "19:00"), "FREQ=WEEKLY;BYDAY=SU", "sonntags"),
        ("todas as manhãs de segunda a sexta", "pt_PT", at("2026-12-07"), WORKDAYS, "todos os dias úteis"),
        ("tous les matins du lundi au vendredi", "fr_FR", at("2026-12-07"), WORKDAYS, "en semaine"),
        ("uma vez por semana às sextas", "pt_PT", at("2026-12-11"), "FREQ=WEEKLY;BYDAY=FR", "às sextas"),
    ],
)
def test_parts_of_days_and_counts_keep_the_days_said_with_them(text, region, due, rule, said):
    """A part of the day on some days is those days at that part; once a week on Fridays is
    on Fridays."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("on the 1st and 15th of every month", "en_US", "every month on the 1st and 15th"),
        ("nos dias 1 e 15 de cada mês", "pt_PT", "todos os meses no dia 1 e 15"),
        ("los días 1 y 15 de cada mes", "es_ES", "todos los meses el día 1 y 15"),
        ("am 1. und 15. jedes Monats", "de_DE", "monatlich am 1. und 15."),
        ("le 1er et le 15 de chaque mois", "fr_FR", "tous les mois le 1er et le 15"),
    ],
)
def test_several_days_of_each_month_repeat_on_each(text, region, said):
    """Every month on the days listed; "the 4th and 10th of the month" alone is once."""
    read_as(text, region, at("2026-12-15"), "FREQ=MONTHLY;BYMONTHDAY=1,15", said)
    assert find_when("the 4th and 10th of the month", SATURDAY).rrule is None


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("first Friday of every other month", "en_GB", "every 2 months on the first Friday"),
        ("na primeira sexta-feira de cada dois meses", "pt_PT", "a cada 2 meses, na primeira sexta-feira"),
        ("le premier vendredi tous les deux mois", "fr_FR", "tous les 2 mois, le premier vendredi"),
        ("alle zwei Monate am ersten Freitag", "de_DE", "alle 2 Monate am ersten Freitag"),
    ],
)
def test_a_step_of_months_keeps_the_weekday_said_beside_it(text, region, said):
    read_as(text, region, at("2027-01-01"), "FREQ=MONTHLY;INTERVAL=2;BYDAY=1FR", said)


@pytest.mark.parametrize(
    "text",
    ["every fourth of the month from jan 1", "pay rent every fifth of the month from January"],
)
def test_a_monthly_day_in_words_before_a_date_it_starts_on_stays_monthly(text):
    # two readings of the same words overlapped and were counted twice, so "from jan 1" made the
    # reading in words (every year) look longer than the one in figures (every month on the 4th)
    when = find_when(text, SATURDAY, region="en_US")
    assert when is not None and when.rrule is not None and when.rrule.startswith("FREQ=MONTHLY;BYMONTHDAY=")


@pytest.mark.parametrize(
    "text,region,due,rule",
    [
        ("every 4th of the month from jan 1", "en_US", at("2027-01-04"), "FREQ=MONTHLY;BYMONTHDAY=4"),
        ("every Monday starting December 10", "en_GB", at("2026-12-14"), "FREQ=WEEKLY;BYDAY=MO"),
        (
            "todas as segundas a partir de 10 de dezembro",
            "pt_PT",
            at("2026-12-14"),
            "FREQ=WEEKLY;BYDAY=MO",
        ),
        ("todo dia 4 a partir de 1 de janeiro", "pt_PT", at("2027-01-04"), "FREQ=MONTHLY;BYMONTHDAY=4"),
        ("cada lunes a partir del 10 de diciembre", "es_ES", at("2026-12-14"), "FREQ=WEEKLY;BYDAY=MO"),
        ("jeden Montag ab dem 10. Dezember", "de_DE", at("2026-12-14"), "FREQ=WEEKLY;BYDAY=MO"),
        ("jeden 4. des Monats ab 1. Januar", "de_DE", at("2027-01-04"), "FREQ=MONTHLY;BYMONTHDAY=4"),
        ("tous les lundis à partir du 10 décembre", "fr_FR", at("2026-12-14"), "FREQ=WEEKLY;BYDAY=MO"),
        (
            "le 4 de chaque mois à partir du 1er janvier",
            "fr_FR",
            at("2027-01-04"),
            "FREQ=MONTHLY;BYMONTHDAY=4",
        ),
    ],
)
def test_a_repeat_from_a_start_date_is_first_due_on_its_first_day_from_then(text, region, due, rule):
    """The start named is not always one of the rule's days: "every Monday from Thursday 10
    December" is first due Monday 14, the engine's next one a week later."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and (when.rrule, when.due) == (rule, due), when and (when.rrule, when.due)
    assert next_occurrence(Series(rule, TZ), due, due) == due + (
        timedelta(days=7) if "WEEKLY" in rule else relativedelta(months=1)
    )
    when = find_when("every Monday from Monday 14 December", SATURDAY, region="en_GB")
    assert when is not None and when.due == at("2026-12-14")


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("At 11:30 AM, Monday through Friday", "en_US", at("2026-12-07", "11:30"), WORKDAYS, "every weekday"),
        ("stand-up at 9:30, Monday to Friday", "en_GB", at("2026-12-07", "09:30"), WORKDAYS, "every weekday"),
        (
            "às 7h30 de segunda a sexta",
            "pt_PT",
            at("2026-12-07", "07:30"),
            WORKDAYS,
            "todos os dias úteis",
        ),
        (
            "Às 13:52, de quarta-feira a sábado",
            "pt_PT",
            at("2026-12-05", "13:52"),
            "FREQ=WEEKLY;BYDAY=WE,TH,FR,SA",
            "às quartas, quintas, sextas e sábados",
        ),
        (
            "clase a las 18h de lunes a jueves",
            "es_ES",
            at("2026-12-07", "18:00"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH",
            "los lunes, martes, miércoles y jueves",
        ),
        ("um 8 Uhr Montag bis Freitag", "de_DE", at("2026-12-07", "08:00"), WORKDAYS, "werktags"),
        ("Um 23:00, Montag bis Freitag", "de_DE", at("2026-12-07", "23:00"), WORKDAYS, "werktags"),
        ("à 7h30 du lundi au vendredi", "fr_FR", at("2026-12-07", "07:30"), WORKDAYS, "en semaine"),
    ],
)
def test_a_range_of_weekdays_after_a_time_of_day_repeats_on_each(text, region, due, rule, said):
    """The time said first ("at 9:30, Monday to Friday") as well as after; a stay stays one day,
    even with a time elsewhere in the sentence."""
    read_as(text, region, due, rule, said)
    for text, region in (
        ("Ana lands at 9 and is in Porto from Monday to Friday", "en_GB"),
        ("je suis à Lyon du lundi au vendredi", "fr_FR"),
    ):
        when = find_when(text, SATURDAY, region=region)
        assert when is not None and when.rrule is None, text


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "Every hour, Monday through Saturday",
            "en_US",
            at("2026-12-05", "11:00"),
            "FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR,SA",
            "every hour, every Monday, Tuesday, Wednesday, Thursday, Friday and Saturday",
        ),
        (
            "hourly on weekdays",
            "en_GB",
            at("2026-12-07"),
            "FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR",
            "every hour, every weekday",
        ),
        (
            "every 30 minutes on Mondays",
            "en_GB",
            at("2026-12-07"),
            "FREQ=MINUTELY;INTERVAL=30;BYDAY=MO",
            "every 30 minutes, every Monday",
        ),
        (
            "de hora em hora nos dias úteis",
            "pt_PT",
            at("2026-12-07"),
            "FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR",
            "de hora a hora, todos os dias úteis",
        ),
        (
            "cada 30 minutos los lunes",
            "es_ES",
            at("2026-12-07"),
            "FREQ=MINUTELY;INTERVAL=30;BYDAY=MO",
            "cada 30 minutos, los lunes",
        ),
        (
            "Jede Stunde, Montag bis Freitag",
            "de_DE",
            at("2026-12-07"),
            "FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR",
            "stündlich, werktags",
        ),
        (
            "alle 30 Minuten montags",
            "de_DE",
            at("2026-12-07"),
            "FREQ=MINUTELY;INTERVAL=30;BYDAY=MO",
            "alle 30 Minuten, montags",
        ),
        (
            "toutes les heures en semaine",
            "fr_FR",
            at("2026-12-07"),
            "FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR",
            "toutes les heures, en semaine",
        ),
    ],
)
def test_a_step_of_the_clock_keeps_the_days_said_beside_it(text, region, due, rule, said):
    """Every hour on some days: from the first of those days (at 09:00, as a day without a time),
    or the next step today when today is one. "hourly on weekdays" was every weekday, once; a
    weekday as an end ("every hour until Friday") is no day of the rule."""
    read_as(text, region, due, rule, said)
    when = find_when("remind me every hour until Friday", SATURDAY, region="en_GB")
    assert when is not None and when.rrule == "FREQ=HOURLY"


HALF_HOUR = "FREQ=MINUTELY;INTERVAL=30"


@pytest.mark.parametrize(
    "text,region,rule,said",
    [
        ("stretch every half hour", "en_US", HALF_HOUR, "every 30 minutes"),
        ("check the bread every quarter hour", "en_GB", "FREQ=MINUTELY;INTERVAL=15", "every 15 minutes"),
        ("a cada meia hora", "pt_PT", HALF_HOUR, "a cada 30 minutos"),
        ("beber água de meia em meia hora", "pt_PT", HALF_HOUR, "a cada 30 minutos"),
        ("cada media hora", "es_ES", HALF_HOUR, "cada 30 minutos"),
        ("jede halbe Stunde lüften", "de_DE", HALF_HOUR, "alle 30 Minuten"),
        ("halbstündlich", "de_DE", HALF_HOUR, "alle 30 Minuten"),
        ("toutes les demi-heures", "fr_FR", HALF_HOUR, "toutes les 30 minutes"),
        ("tous les quarts d'heure", "fr_FR", "FREQ=MINUTELY;INTERVAL=15", "toutes les 15 minutes"),
    ],
)
def test_every_half_hour_and_quarter_hour_repeat_by_the_clock(text, region, rule, said):
    """The half hour and the quarter hour as units of a repeat; "in half an hour" stays once."""
    step = timedelta(minutes=int(rule.rpartition("=")[2]))
    read_as(text, region, SATURDAY + step, rule, said)
    for text, region in (
        ("in half an hour", "en_GB"),
        ("daqui a meia hora", "pt_PT"),
        ("dans une demi-heure", "fr_FR"),
    ):
        when = find_when(text, SATURDAY, region=region)
        assert when is not None and when.rrule is None and when.due == SATURDAY + timedelta(minutes=30), text


@pytest.mark.parametrize(
    "text,region,rule,said",
    [
        ("annual checkup", "en_US", "FREQ=YEARLY", "every year"),
        ("consulta mensal", "pt_PT", "FREQ=MONTHLY", "todos os meses"),
        ("revisão anual do carro", "pt_PT", "FREQ=YEARLY", "todos os anos"),
        ("reunión semanal", "es_ES", "FREQ=WEEKLY", "todas las semanas"),
        ("cuota mensual", "es_ES", "FREQ=MONTHLY", "todos los meses"),
        ("das wöchentliche Meeting", "de_DE", "FREQ=WEEKLY", "wöchentlich"),
        ("ein monatlicher Termin", "de_DE", "FREQ=MONTHLY", "monatlich"),
        ("réunion mensuelle", "fr_FR", "FREQ=MONTHLY", "tous les mois"),
        ("visite annuelle", "fr_FR", "FREQ=YEARLY", "tous les ans"),
    ],
)
def test_a_frequency_said_as_an_adjective_repeats_in_each_of_its_forms(text, region, rule, said):
    """ "weekly meeting", "bilan annuel" were read; the feminine, plural and declined forms
    ("réunion mensuelle", "das wöchentliche Meeting") and "annual" were not."""
    read_as(text, region, at("2026-12-06"), rule, said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("renew the licence biennially", "en_US", "every 2 years"),
        ("revisão do extintor bienalmente", "pt_PT", "a cada 2 anos"),
        ("inspección bienalmente", "es_ES", "cada 2 años"),
        ("zweijährlich zur Vorsorge", "de_DE", "alle 2 Jahre"),
    ],
)
def test_a_frequency_of_two_years_in_one_word_repeats_every_other_year(text, region, said):
    """ "biennially" was no repeat, though "biannually" (twice a year) was."""
    read_as(text, region, at("2026-12-06"), "FREQ=YEARLY;INTERVAL=2", said)


@pytest.mark.parametrize(
    "text,region,rule,due",
    [
        (
            "alarm every weekday at 7:30",
            "en_US",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            at("2026-12-07", "07:30"),
        ),
        ("wake up every day at 6:45", "en_GB", "FREQ=DAILY", at("2026-12-06", "06:45")),
        ("despertador todos os dias às 7", "pt_PT", "FREQ=DAILY", at("2026-12-06", "07:00")),
        ("alarma todos los días a las 7", "es_ES", "FREQ=DAILY", at("2026-12-06", "07:00")),
        ("Wecker jeden Tag um 6", "de_DE", "FREQ=DAILY", at("2026-12-06", "06:00")),
        ("réveil tous les jours à 7", "fr_FR", "FREQ=DAILY", at("2026-12-06", "07:00")),
        ("set an alarm every day at 6", "en_GB", "FREQ=DAILY", at("2026-12-06", "06:00")),
        ("l'alarme tous les jours à 6", "fr_FR", "FREQ=DAILY", at("2026-12-06", "06:00")),
        ("alarme todos os dias às 7", "pt_PT", "FREQ=DAILY", at("2026-12-06", "07:00")),
    ],
)
def test_a_repeated_alarm_or_waking_is_at_its_bare_hour_in_the_morning(text, region, rule, due):
    """A repeat's bare hour 1-7 is the afternoon ("every day at 7:30" 19:30), but an alarm, a
    waking, a "Wecker" says the morning; without a repeat the day says it ("set an alarm for today
    at 7 o'clock", said after noon, is 19:00 to lingua_franca's tests), and pm still says pm."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and (when.rrule, when.due) == (rule, due)
    assert find_when("every day at 7:30", SATURDAY, region="en_US").due == at("2026-12-05", "19:30")
    assert find_when("alarm every day at 7:30pm", SATURDAY, region="en_US").due == at("2026-12-05", "19:30")
    assert find_when("alarm today at 7", SATURDAY, region="en_US").due == at("2026-12-05", "19:00")
    assert find_when("rever o acordo todas as sextas às 3", SATURDAY, region="pt_PT").due.hour == 15


@pytest.mark.parametrize(
    "text,region",
    [
        ("test the fire alarm every Monday at 5", "en_GB"),
        ("check the smoke alarm batteries every month on the 1st at 4", "en_US"),
        ("revisar la alarma de incendios todos los lunes a las 5", "es_ES"),
        ("testar o alarme de incêndio todas as segundas às 5", "pt_PT"),
        ("tester l'alarme incendie tous les lundis à 5", "fr_FR"),
    ],
)
def test_an_alarm_that_is_a_device_leaves_a_repeats_bare_hour_in_the_afternoon(text, region):
    """ "alarm" says a waking only starting the reminder ("alarm every weekday", "set an alarm"):
    after a noun or a verb it may be a device, and a fire alarm tested at 5 is 17:00, as any
    repeat's bare 5."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule and when.due.hour in (16, 17), when


@pytest.mark.parametrize(
    "text,region,rule",
    [
        ("natación un miércoles sí y otro no", "es_ES", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"),
        ("miércoles sí, miércoles no", "es_ES", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"),
        ("taller miércoles por medio", "es_AR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"),
        ("una semana sí y otra no", "es_ES", "FREQ=WEEKLY;INTERVAL=2"),
        ("semana sí, semana no", "es_ES", "FREQ=WEEKLY;INTERVAL=2"),
        ("un mes sí y otro no", "es_ES", "FREQ=MONTHLY;INTERVAL=2"),
        ("natação uma quarta sim, outra não", "pt_PT", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"),
        ("um dia sim, outro não", "pt_PT", "FREQ=DAILY;INTERVAL=2"),
        ("uma semana sim, outra não", "pt_BR", "FREQ=WEEKLY;INTERVAL=2"),
        ("mês sim, mês não", "pt_PT", "FREQ=MONTHLY;INTERVAL=2"),
    ],
)
def test_one_yes_and_the_next_no_repeats_every_other_one(text, region, rule):
    """es "un día sí y otro no" and pt "dia sim, dia não" were read; the same alternation of a
    weekday, a week or a month (and es "miércoles por medio", as "semana por medio") was not."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule == rule, when and when.rrule
    if "BYDAY=WE" in rule:
        assert when.due == at("2026-12-09")


@pytest.mark.parametrize(
    "text,due,rule",
    [
        ("marché le samedi matin", at("2026-12-12"), "FREQ=WEEKLY;BYDAY=SA"),
        ("piscine le lundi soir", at("2026-12-07", "19:00"), "FREQ=WEEKLY;BYDAY=MO"),
        ("cours de dessin le mercredi après-midi", at("2026-12-09", "15:00"), "FREQ=WEEKLY;BYDAY=WE"),
        ("foot le jeudi soir à 20h", at("2026-12-10", "20:00"), "FREQ=WEEKLY;BYDAY=TH"),
    ],
)
def test_french_weekday_with_its_article_and_a_part_of_the_day_is_a_habit(text, due, rule):
    """ "le samedi matin" is every Saturday morning, as "les samedis matin"; with a date it is
    that day ("le samedi 12 décembre au matin"), and "samedi matin" without the article the coming
    one."""
    when = find_when(text, SATURDAY, region="fr_FR")
    assert when is not None and (when.rrule, when.due) == (rule, due), when and (when.rrule, when.due)
    for single in ("réunion le samedi 12 décembre au matin", "réunion samedi matin"):
        assert find_when(single, SATURDAY, region="fr_FR").rrule is None


BUT_SUNDAY = "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR,SA"
BUT_WEEKENDS = "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"


@pytest.mark.parametrize(
    "text,region,rule,said",
    [
        (
            "every day except Sundays",
            "en_US",
            BUT_SUNDAY,
            "every Monday, Tuesday, Wednesday, Thursday, Friday and Saturday",
        ),
        ("daily except on weekends", "en_GB", BUT_WEEKENDS, "every weekday"),
        (
            "todos os dias exceto ao domingo",
            "pt_PT",
            BUT_SUNDAY,
            "às segundas, terças, quartas, quintas, sextas e sábados",
        ),
        ("todos os dias menos aos sábados e domingos", "pt_PT", BUT_WEEKENDS, "todos os dias úteis"),
        (
            "todos los días excepto los domingos",
            "es_ES",
            BUT_SUNDAY,
            "los lunes, martes, miércoles, jueves, viernes y sábados",
        ),
        ("todos los días salvo los fines de semana", "es_ES", BUT_WEEKENDS, "todos los días laborables"),
        (
            "jeden Tag außer sonntags",
            "de_DE",
            BUT_SUNDAY,
            "montags, dienstags, mittwochs, donnerstags, freitags und samstags",
        ),
        ("täglich außer am Wochenende", "de_DE", BUT_WEEKENDS, "werktags"),
        ("tous les jours sauf le week-end", "fr_FR", BUT_WEEKENDS, "en semaine"),
        ("tous les jours sauf les samedis et dimanches", "fr_FR", BUT_WEEKENDS, "en semaine"),
    ],
)
def test_every_day_except_some_days_repeats_on_the_others(text, region, rule, said):
    """ "daily except on weekends" was every weekend, "jeden Tag außer sonntags" every Sunday:
    the days excepted are left out of a daily repeat (and of a list of weekdays); "except" that is
    not about a repeat stays no repeat."""
    read_as(text, region, at("2026-12-07"), rule, said)
    when = find_when("weekdays except Wednesday", SATURDAY, region="en_GB")
    assert when is not None and when.rrule == "FREQ=WEEKLY;BYDAY=MO,TU,TH,FR"
    assert find_when("the shop is open except Sundays", SATURDAY, region="en_GB") is None


OTHER_WEEKEND = "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU"
BOTH_DAYS = {
    "en": "every 2 weeks on Saturday and Sunday",
    "pt": "a cada 2 semanas, às sábados e domingos",
    "es": "cada 2 semanas, los sábados y domingos",
    "de": "alle 2 Wochen samstags und sonntags",
    "fr": "toutes les 2 semaines, le samedi et le dimanche",
}


@pytest.mark.parametrize(
    "text,region,rule",
    [
        ("every other weekend", "en_US", OTHER_WEEKEND),
        ("alternate weekends", "en_GB", OTHER_WEEKEND),
        ("every 4 weeks on weekends", "en_GB", "FREQ=WEEKLY;INTERVAL=4;BYDAY=SA,SU"),
        ("fim de semana sim, fim de semana não", "pt_PT", OTHER_WEEKEND),
        ("a cada dois fins de semana", "pt_PT", OTHER_WEEKEND),
        ("cada dos fines de semana", "es_ES", OTHER_WEEKEND),
        ("un fin de semana sí y otro no", "es_ES", OTHER_WEEKEND),
        ("jedes zweite Wochenende", "de_DE", OTHER_WEEKEND),
        ("un week-end sur deux", "fr_FR", OTHER_WEEKEND),
    ],
)
def test_every_other_weekend_repeats_on_both_its_days_every_so_many_weeks(text, region, rule):
    """A step of weekends (no repeat before, or every week) is a step of weeks on the weekend's
    Saturday and Sunday, as "every weekend" is; said on a Saturday morning after nine, this
    weekend's Sunday is the first."""
    step = rule.split("INTERVAL=")[1].split(";")[0]
    read_as(text, region, at("2026-12-06"), rule, BOTH_DAYS[region[:2]].replace("2", step))
    assert find_when("I love weekends", SATURDAY, region="en_GB") is None


@pytest.mark.parametrize(
    "text,region,due,said",
    [
        ("renew the insurance every January", "en_US", at("2027-01-01"), "every year"),
        ("each March", "en_GB", at("2027-03-01"), "every year"),
        ("todo mês de março", "pt_PT", at("2027-03-01"), "todos os anos"),
        ("cada enero", "es_ES", at("2027-01-01"), "todos los años"),
        ("cada mes de marzo", "es_ES", at("2027-03-01"), "todos los años"),
        ("jeden Januar", "de_DE", at("2027-01-01"), "jährlich"),
        ("chaque janvier", "fr_FR", at("2027-01-01"), "tous les ans"),
        ("tous les mois de mars", "fr_FR", at("2027-03-01"), "tous les ans"),
    ],
)
def test_every_month_named_repeats_every_year_from_its_first_day(text, region, due, said):
    """ "every January" was no repeat, "cada mes de marzo" every month: it is every year, from
    the first of that month; with a day ("every July 4th") that day."""
    read_as(text, region, due, "FREQ=YEARLY", said)
    assert find_when("every march of the penguins", SATURDAY, region="en_US") is None
    when = find_when("every July 4th", SATURDAY, region="en_US")
    assert when is not None and when.due == at("2027-07-04")


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "book club on the 1st and 3rd Tuesday of every month",
            "en_US",
            at("2026-12-15"),
            "FREQ=MONTHLY;BYDAY=1TU,3TU",
            "every month on the first and third Tuesday",
        ),
        (
            "2nd and last fri of each month",
            "en_US",
            at("2026-12-11"),
            "FREQ=MONTHLY;BYDAY=2FR,-1FR",
            "every month on the second and last Friday",
        ),
        (
            "monthly on the first and third Friday",
            "en_GB",
            at("2026-12-18"),
            "FREQ=MONTHLY;BYDAY=1FR,3FR",
            "every month on the first and third Friday",
        ),
        (
            "na primeira e terceira sexta-feira de cada mês",
            "pt_PT",
            at("2026-12-18"),
            "FREQ=MONTHLY;BYDAY=1FR,3FR",
            "todos os meses, na primeira e na terceira sexta-feira",
        ),
        (
            "el primer y tercer viernes de cada mes",
            "es_ES",
            at("2026-12-18"),
            "FREQ=MONTHLY;BYDAY=1FR,3FR",
            "todos los meses, el primer y tercer viernes",
        ),
        (
            "am ersten und dritten Freitag jedes Monats",
            "de_DE",
            at("2026-12-18"),
            "FREQ=MONTHLY;BYDAY=1FR,3FR",
            "monatlich am ersten und dritten Freitag",
        ),
        (
            "le premier et le troisième vendredi de chaque mois",
            "fr_FR",
            at("2026-12-18"),
            "FREQ=MONTHLY;BYDAY=1FR,3FR",
            "tous les mois, le premier et le troisième vendredi",
        ),
    ],
)
def test_several_positions_of_a_weekday_each_month_repeat_on_each(text, region, due, rule, said):
    """ "the first and third Friday of each month" was the third Friday alone; the first one
    still to come (the first Friday of December has gone by on the 5th). Of "the month" alone it
    repeats too, as one position of "the month" does ("the third Friday of the month")."""
    read_as(text, region, due, rule, said)
    for one_or_two in ("the third Friday of the month", "the first and third Friday of the month"):
        when = find_when(one_or_two, SATURDAY, region="en_GB")
        assert when is not None and when.rrule and when.rrule.startswith("FREQ=MONTHLY;BYDAY="), when


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "mondays and thursdays from jan 1 to march 25th",
            "en_US",
            at("2027-01-04"),
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "every Monday and Thursday",
        ),
        (
            "yoga tuesdays starting next week",
            "en_GB",
            at("2026-12-08"),
            "FREQ=WEEKLY;BYDAY=TU",
            "every Tuesday",
        ),
        ("les lundis à partir du 11 janvier", "fr_FR", at("2027-01-11"), "FREQ=WEEKLY;BYDAY=MO", "le lundi"),
        (
            "aulas às terças a partir de 12 de janeiro",
            "pt_PT",
            at("2027-01-12"),
            "FREQ=WEEKLY;BYDAY=TU",
            "às terças",
        ),
        ("los lunes desde el 11 de enero", "es_ES", at("2027-01-11"), "FREQ=WEEKLY;BYDAY=MO", "los lunes"),
        ("montags ab dem 11. Januar", "de_DE", at("2027-01-11"), "FREQ=WEEKLY;BYDAY=MO", "montags"),
    ],
)
def test_plural_weekdays_with_a_start_or_an_end_after_them_repeat(text, region, due, rule, said):
    """ "Mondays from 4 January", "les lundis à partir du 11 janvier": a habit from (or until) a
    date, as with a time after them; "Ana works Mondays from home" and "I hate Mondays" stay
    notes."""
    read_as(text, region, due, rule, said)
    for text, region in (("Ana works Mondays from home", "en_GB"), ("I hate Mondays", "en_GB")):
        assert find_when(text, SATURDAY, region=region) is None, text


MWF = "FREQ=WEEKLY;BYDAY=MO,WE,FR"


@pytest.mark.parametrize(
    "text,region,due,said",
    [
        (
            "gym Monday, Wednesday and Friday at 7",
            "en_GB",
            at("2026-12-07", "19:00"),
            "every Monday, Wednesday and Friday",
        ),
        ("ginásio segundas, quartas e sextas", "pt_PT", at("2026-12-07"), "às segundas, quartas e sextas"),
        ("gimnasio lunes, miércoles y viernes", "es_ES", at("2026-12-07"), "los lunes, miércoles y viernes"),
        (
            "Fitness Montag, Mittwoch und Freitag",
            "de_DE",
            at("2026-12-07"),
            "montags, mittwochs und freitags",
        ),
        ("sport lundi, mercredi et vendredi", "fr_FR", at("2026-12-07"), "le lundi, mercredi et le vendredi"),
    ],
)
def test_three_weekdays_listed_are_a_weekly_habit(text, region, due, said):
    """Three weekdays or more named together are a habit (no one lists three days of one week for
    a reminder); two ("Ana visits Monday and Tuesday") stay the first of them."""
    read_as(text, region, due, MWF, said)
    when = find_when("Ana visits Monday and Tuesday", SATURDAY, region="en_GB")
    assert when is not None and when.rrule is None and when.due == at("2026-12-07")


@pytest.mark.parametrize(
    "text,region",
    [
        ("Ana is in Porto from Monday to Friday", "en_GB"),
        ("I hate Mondays", "en_GB"),
        ("Ana works Mondays from home", "en_GB"),
        ("the shop is open except Sundays", "en_GB"),
        ("Ana visits Monday and Tuesday", "en_GB"),
        ("a Ana está no Porto de segunda a sexta", "pt_PT"),
        ("odeio as segundas", "pt_PT"),
        ("adoro as sextas", "pt_PT"),
        ("Ana está en Oporto de lunes a viernes", "es_ES"),
        ("odio los lunes", "es_ES"),
        ("me encantan los domingos", "es_ES"),
        ("Ana ist von Montag bis Freitag in Porto", "de_DE"),
        ("ich hasse Montage", "de_DE"),
        ("der Laden ist außer sonntags offen", "de_DE"),
        ("je suis à Lyon du lundi au vendredi", "fr_FR"),
        ("je déteste les lundis", "fr_FR"),
        ("le magasin est ouvert sauf le dimanche", "fr_FR"),
    ],
)
def test_a_sentence_that_only_mentions_days_is_no_repeat(text, region):
    """A stay from one day to another, a feeling about a weekday, two days named, a shop's hours:
    at most the day they name, never a habit ("odio los lunes" was every Monday, "Ana está en
    Oporto de lunes a viernes" every weekday)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is None or when.rrule is None, (text, when.rrule)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("every Monday, Tuesday, and Friday", "en_US", "every Monday, Tuesday and Friday"),
        ("gym Mondays, Tuesdays, and Fridays at 9", "en_US", "every Monday, Tuesday and Friday"),
        ("todas as segundas, terças, e sextas", "pt_PT", "às segundas, terças e sextas"),
        ("jeden Montag, Dienstag, und Freitag", "de_DE", "montags, dienstags und freitags"),
    ],
)
def test_a_list_of_weekdays_with_a_comma_before_its_and_keeps_its_last_day(text, region, said):
    """ "every Monday, Tuesday, and Friday": the comma before "and" (the Oxford comma, cronstrue's
    "nur jeden Montag, Dienstag, und Sonntag") dropped the last day."""
    read_as(text, region, at("2026-12-07"), "FREQ=WEEKLY;BYDAY=MO,TU,FR", said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("the third to last Friday of every month", "en_GB", "every month on the third to last Friday"),
        ("na antepenúltima sexta-feira de cada mês", "pt_PT", "todos os meses, na antepenúltima sexta-feira"),
        ("el antepenúltimo viernes de cada mes", "es_ES", "todos los meses, el antepenúltimo viernes"),
        ("am drittletzten Freitag jedes Monats", "de_DE", "monatlich am drittletzten Freitag"),
        ("l'antépénultième vendredi de chaque mois", "fr_FR", "tous les mois, l’antépénultième vendredi"),
    ],
)
def test_the_third_to_last_weekday_of_each_month_repeats(text, region, said):
    """As the second to last: the Fridays of December 2026 are the 4th, 11th, 18th and 25th."""
    read_as(text, region, at("2026-12-11"), "FREQ=MONTHLY;BYDAY=-3FR", said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("every 20th and 30th of aug", "en_US", "every year"),
        ("cada 20 y 30 de agosto", "es_ES", "todos los años"),
        ("jeden 20. und 30. August", "de_DE", "jährlich"),
        ("tous les 20 et 30 août", "fr_FR", "tous les ans"),
    ],
)
def test_several_days_of_a_named_month_repeat_every_year(text, region, said):
    """ "every 20th and 30th of aug" was every month on the 20th, "cada 20 y 30 de agosto" no
    repeat: every year on those days of that month."""
    read_as(text, region, at("2027-08-20"), "FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=20,30", said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("long run every weekend", "en_US", "every weekend"),
        ("call grandma on weekends", "en_GB", "every weekend"),
        ("caminhada todos os fins de semana", "pt_PT", "aos fins de semana"),
        ("limpiar la casa todos los fines de semana", "es_ES", "todos los fines de semana"),
        ("Wanderung jedes Wochenende", "de_DE", "an Wochenenden"),
        ("marché tous les week-ends", "fr_FR", "tous les week-ends"),
        ("weekends", "en_GB", "every weekend"),
        ("Wochenmarkt wöchentlich am Wochenende", "de_DE", "an Wochenenden"),
        ("feira semanalmente no fim de semana", "pt_PT", "aos fins de semana"),
        ("futebol nos finais de semana", "pt_BR", "aos fins de semana"),
        ("mercado semanalmente en fin de semana", "es_ES", "todos los fines de semana"),
    ],
)
def test_every_weekend_repeats_on_its_saturday_and_its_sunday(text, region, said):
    """ "every weekend" was its Saturday alone: both days, as recurrent and ice_cube read it
    ("Weekly on Weekends": BYDAY=SA,SU); said on a Saturday after nine, tomorrow first, and on
    a Sunday evening the next Saturday; "weekly" with "the weekend" after it is the same. "this
    weekend" stays one day, no repeat, and "I love weekends" none."""
    read_as(text, region, at("2026-12-06"), WEEKEND, said)
    sunday_evening = datetime(2026, 12, 6, 20, 0, tzinfo=TZ)
    when = find_when(text, sunday_evening, region=region)
    assert when is not None and when.due == at("2026-12-12")
    when = find_when("this weekend", SATURDAY, region="en_GB")
    assert when is not None and when.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "water filter monthly on the 5th and 20th",
            "en_US",
            at("2026-12-20"),
            "FREQ=MONTHLY;BYMONTHDAY=5,20",
            "every month on the 5th and 20th",
        ),
        (
            "invoices every 2 months on the 10th, 20th, and 28th days",
            "en_GB",
            at("2026-12-10"),
            "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=10,20,28",
            "every 2 months on the 10th, 20th and 28th",
        ),
        (
            "pagar as contas mensalmente nos dias 8 e 22",
            "pt_PT",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYMONTHDAY=8,22",
            "todos os meses no dia 8 e 22",
        ),
        (
            "revisión mensualmente los días 3º y 17º",
            "es_ES",
            at("2026-12-17"),
            "FREQ=MONTHLY;BYMONTHDAY=3,17",
            "todos los meses el día 3 y 17",
        ),
        (
            "Ablesen monatlich am 8. und 22. Tag",
            "de_DE",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYMONTHDAY=8,22",
            "monatlich am 8. und 22.",
        ),
        (
            "relevé mensuel les 8, 18 et 28 du mois",
            "fr_FR",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYMONTHDAY=8,18,28",
            "tous les mois le 8, 18 et le 28",
        ),
        (
            "backup on day 9 of the month, every 3 months",
            "en_GB",
            at("2026-12-09"),
            "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=9",
            "every 3 months on the 9th",
        ),
    ],
)
def test_days_of_the_month_beside_a_monthly_rule_repeat_on_each(text, region, due, rule, said):
    """ "monthly on the 5th and 20th" was the 5th alone, "Mensalmente no 1º, 15º e 30º dias do
    mês" no day at all: each day listed (with its ordinal's mark, a comma before the last "and",
    "days" after) beside "monthly" or "every N months". Figures that are not days stay out."""
    read_as(text, region, due, rule, said)
    when = find_when("buy 2 and 3 apples monthly", SATURDAY, region="en_GB")
    assert when is not None and when.rrule == "FREQ=MONTHLY"


MON_THU = "FREQ=WEEKLY;BYDAY=MO,TH"


@pytest.mark.parametrize(
    "text,region,hm,said",
    [
        ("swim on Mondays and on Thursdays at 7", "en_GB", "19:00", "every Monday and Thursday"),
        ("natação às segundas e às quintas às 7h", "pt_PT", "07:00", "às segundas e quintas"),
        ("natación semanalmente los lunes y los jueves", "es_ES", "09:00", "los lunes y jueves"),
        ("Schwimmen jeden Montag und am Donnerstag", "de_DE", "09:00", "montags und donnerstags"),
        ("piscine les lundis et les jeudis à 7h", "fr_FR", "07:00", "le lundi et le jeudi"),
    ],
)
def test_weekdays_listed_each_with_its_article_keep_every_day(text, region, hm, said):
    """ "los lunes y los martes", "les lundis et les jeudis": the lead said again before the
    next day of the list lost that day (and "les lundis et les jeudis" kept only Thursday). A
    feeling about them stays no repeat."""
    read_as(text, region, at("2026-12-07", hm), MON_THU, said)
    when = find_when("odio los lunes y los jueves", SATURDAY, region="es_ES")
    assert when is None or when.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "service the boiler yearly in April and October",
            "en_US",
            at("2027-04-01"),
            "FREQ=YEARLY;BYMONTH=4,10",
            "every year in April and in October",
        ),
        (
            "walk daily during March and May",
            "en_GB",
            at("2027-03-01"),
            "FREQ=DAILY;BYMONTH=3,5",
            "every day in March and in May",
        ),
        (
            "protetor solar todos os dias em julho e agosto",
            "pt_PT",
            at("2027-07-01"),
            "FREQ=DAILY;BYMONTH=7,8",
            "todos os dias de julho e de agosto",
        ),
        (
            "revisar el coche anualmente en abril y octubre",
            "es_ES",
            at("2027-04-01"),
            "FREQ=YEARLY;BYMONTH=4,10",
            "todos los años de abril y de octubre",
        ),
        (
            "Reifen wechseln jährlich im April und Oktober",
            "de_DE",
            at("2027-04-01"),
            "FREQ=YEARLY;BYMONTH=4,10",
            "jährlich im April und im Oktober",
        ),
        (
            "arroser tous les jours en juillet et août",
            "fr_FR",
            at("2027-07-01"),
            "FREQ=DAILY;BYMONTH=7,8",
            "tous les jours de juillet et d’août",
        ),
        (
            "ski every Saturday in January and February",
            "en_GB",
            at("2027-01-02"),
            "FREQ=WEEKLY;BYDAY=SA;BYMONTH=1,2",
            "every Saturday in January and in February",
        ),
    ],
)
def test_a_repeat_kept_to_the_months_said_after_it_repeats_in_those_months(text, region, due, rule, said):
    """ "yearly in June and July" was every year from 1 June, "daily in January and April" every
    day: the months said after a repeat keep it to them (BYMONTH), from the first of them to come.
    Months said without a repeat stay a date."""
    read_as(text, region, due, rule, said)
    when = find_when("trip in June and July", SATURDAY, region="en_GB")
    assert when is not None and when.rrule is None


@pytest.mark.parametrize(
    "text,rule,said",
    [
        ("point quotidien avec l'équipe", "FREQ=DAILY", "tous les jours"),
        ("Quotidien", "FREQ=DAILY", "tous les jours"),
        ("revue hebdomadaire", "FREQ=WEEKLY", "toutes les semaines"),
    ],
)
def test_french_frequency_adjectives_repeat_but_not_as_nouns(text, rule, said):
    """ "quotidien" in the masculine was no repeat ("quotidienne" was); a frequency's word made a
    noun by the word before it ("au quotidien", "mon quotidien", "un hebdomadaire", "le
    mensuel") is none."""
    read_as(text, "fr_FR", at("2026-12-06"), rule, said)
    for noun in (
        "la vie au quotidien",
        "mon quotidien est chargé",
        "acheter un hebdomadaire",
        "lire le mensuel",
    ):
        when = find_when(noun, SATURDAY, region="fr_FR")
        assert when is None or when.rrule is None, noun


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "programmers' day yearly on the 256th day of the year",
            "en_US",
            at("2027-09-13"),
            "FREQ=YEARLY;BYYEARDAY=256",
            "every year on the 256th day of the year",
        ),
        (
            "the 50th and 150th days of every year",
            "en_GB",
            at("2027-02-19"),
            "FREQ=YEARLY;BYYEARDAY=50,150",
            "every year on the 50th and 150th day of the year",
        ),
        (
            "balanço anualmente no dia 340 do ano",
            "pt_PT",
            at("2026-12-06"),
            "FREQ=YEARLY;BYYEARDAY=340",
            "todos os anos no dia 340 do ano",
        ),
        (
            "el día 256 de cada año",
            "es_ES",
            at("2027-09-13"),
            "FREQ=YEARLY;BYYEARDAY=256",
            "todos los años el día 256 del año",
        ),
        (
            "Bericht jährlich am 100. Tag des Jahres",
            "de_DE",
            at("2027-04-10"),
            "FREQ=YEARLY;BYYEARDAY=100",
            "jährlich am 100. Tag des Jahres",
        ),
        (
            "bilan le 100ème jour de chaque année",
            "fr_FR",
            at("2027-04-10"),
            "FREQ=YEARLY;BYYEARDAY=100",
            "tous les ans, le jour 100 de l’année",
        ),
    ],
)
def test_days_of_the_year_repeat_every_year_on_each(text, region, due, rule, said):
    """ "yearly on the 30th day of the year" was every year from tomorrow, "31st day of every
    year" the same: each day of the year said (to 365) beside a yearly rule or "of every year",
    the first still to come. A day of "the year" alone stays once."""
    read_as(text, region, due, rule, said)
    when = find_when("the 30th day of the year", SATURDAY, region="en_GB")
    assert when is None or when.rrule is None


@pytest.mark.parametrize(
    ("text", "region", "rule"),
    [
        ("arroser le jardin tous les huit jours", "fr_FR", "FREQ=WEEKLY"),
        ("trocar a água a cada oito dias", "pt_PT", "FREQ=WEEKLY"),
        ("reunión cada quince días", "es_ES", "FREQ=WEEKLY;INTERVAL=2"),
        ("de quinze em quinze dias, limpar o filtro", "pt_PT", "FREQ=WEEKLY;INTERVAL=2"),
        ("Blumen gießen alle acht Tage", "de_DE", "FREQ=WEEKLY"),
        # counted: in figures, another number, English
        ("a cada 15 dias", "pt_PT", "FREQ=DAILY;INTERVAL=15"),
        ("tous les trois jours", "fr_FR", "FREQ=DAILY;INTERVAL=3"),
        ("every eight days", "en_GB", "FREQ=DAILY;INTERVAL=8"),
    ],
)
def test_every_eight_or_fifteen_days_in_words_repeats_every_one_or_two_weeks(text, region, rule):
    """The repeat reads "tous les huit jours", "cada quince días" as the instant reads "dans
    huit jours": a week and two weeks where people count so; they repeated every 8 and 15 days."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule == rule, when and when.rrule


WED_SAT = "FREQ=WEEKLY;BYDAY=WE,SA"


@pytest.mark.parametrize(
    "text,region,said",
    [
        ("choir on Wednesday and Saturdays at 10", "en_GB", "every Wednesday and Saturday"),
        ("coro todas as quartas-feiras e sábados às 10h", "pt_PT", "às quartas e sábados"),
        ("coro às terças-feiras e sábados às 10h", "pt_PT", "às terças e sábados"),
        ("coro todos los miércoles y sábados a las 10", "es_ES", "los miércoles y sábados"),
        ("coro los martes y sábados a las 10", "es_ES", "los martes y sábados"),
        ("Chor mittwochs und samstags um 10 Uhr", "de_DE", "mittwochs und samstags"),
        ("chorale les mercredis et samedis à 10h", "fr_FR", "le mercredi et le samedi"),
    ],
)
def test_a_day_without_a_plural_before_a_plural_one_keeps_both_with_a_time(text, region, said):
    """ "los miércoles y sábados a las 10" kept Saturday alone: "miércoles" and "martes" say no
    plural of their own, and pt "quartas-feiras" has its plural before its suffix. Every day of the
    list repeats, at that time. One "segunda-feira às 10h" stays once."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due.strftime("%H:%M") == "10:00", when
    tuesday = "martes" in text or "terças" in text
    assert when.rrule == ("FREQ=WEEKLY;BYDAY=TU,SA" if tuesday else WED_SAT), when.rrule
    assert say_rule(when.rrule, region[:2]) == said
    once = find_when("dentista segunda-feira às 10h", SATURDAY, region="pt_PT")
    assert once is not None and once.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "board games on the first Monday and the last Friday of every month",
            "en_GB",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO,-1FR",
            "every month on the first Monday and last Friday",
        ),
        (
            "every other month on the second Sunday and the last Saturday",
            "en_US",
            at("2026-12-13"),
            "FREQ=MONTHLY;INTERVAL=2;BYDAY=2SU,-1SA",
            "every 2 months on the second Sunday and last Saturday",
        ),
        (
            "jogos na primeira segunda-feira e no último sábado de cada mês",
            "pt_PT",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO,-1SA",
            "todos os meses, na primeira segunda-feira e no último sábado",
        ),
        (
            "juegos el primer lunes y el último viernes de cada mes",
            "es_ES",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO,-1FR",
            "todos los meses, el primer lunes y último viernes",
        ),
        (
            "Spieleabend monatlich am ersten Montag und letzten Freitag",
            "de_DE",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO,-1FR",
            "monatlich am ersten Montag und letzten Freitag",
        ),
        (
            "jeux le premier lundi et le dernier vendredi de chaque mois",
            "fr_FR",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO,-1FR",
            "tous les mois, le premier lundi et le dernier vendredi",
        ),
    ],
)
def test_positions_each_with_its_own_weekday_repeat_every_month_on_each(text, region, due, rule, said):
    """ "the first Monday and the last Friday of each month" kept the first Monday alone (or the
    last Friday); each position keeps its weekday, every month or every N months said beside it,
    said back with each day (pt "no último sábado": the day's gender). Of "the month" alone it
    stays once."""
    read_as(text, region, due, rule, said)
    when = find_when("the first Monday and the last Friday of the month", SATURDAY, region="en_GB")
    assert when is not None and when.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("reunión diaria a las 8:30", "es_ES", at("2026-12-06", "08:30"), "FREQ=DAILY", "todos los días"),
        ("pastillas diarias a las 22:00", "es_MX", at("2026-12-05", "22:00"), "FREQ=DAILY", "todos los días"),
        ("reunião diária às 8h30", "pt_BR", at("2026-12-06", "08:30"), "FREQ=DAILY", "todos os dias"),
        ("comprimidos diários às 22h", "pt_PT", at("2026-12-05", "22:00"), "FREQ=DAILY", "todos os dias"),
        ("regar día por medio", "es_AR", at("2026-12-06"), "FREQ=DAILY;INTERVAL=2", "cada 2 días"),
        (
            "limpieza semana por medio",
            "es_AR",
            at("2026-12-06"),
            "FREQ=WEEKLY;INTERVAL=2",
            "cada 2 semanas",
        ),
        (
            "facture un mois sur deux",
            "fr_FR",
            at("2026-12-06"),
            "FREQ=MONTHLY;INTERVAL=2",
            "tous les 2 mois",
        ),
        ("révision un an sur deux", "fr_FR", at("2026-12-06"), "FREQ=YEARLY;INTERVAL=2", "tous les 2 ans"),
    ],
)
def test_daily_as_an_adjective_and_every_other_as_an_idiom_repeat(text, region, due, rule, said):
    """es "diaria", pt "diário" (the adjective of "diariamente"), es "día por medio" and fr "un
    mois sur deux" were read as nothing. The noun stays no repeat: "el diario", "no diário"."""
    read_as(text, region, due, rule, said)
    for text, region in (("leer el diario el lunes", "es_ES"), ("escrever no meu diário amanhã", "pt_PT")):
        when = find_when(text, SATURDAY, region=region)
        assert when is not None and when.rrule is None, (text, when)


@pytest.mark.parametrize(
    "text,region,rule,said",
    [
        (
            "rent on the second to last day of each month",
            "en_GB",
            "-2",
            "every month on the second to last day",
        ),
        ("renda no penúltimo dia de cada mês", "pt_PT", "-2", "todos os meses, no penúltimo dia"),
        ("alquiler el penúltimo día de cada mes", "es_ES", "-2", "todos los meses, el penúltimo día"),
        ("Miete am vorletzten Tag jedes Monats", "de_DE", "-2", "monatlich am vorletzten Tag"),
        ("loyer l'avant-dernier jour de chaque mois", "fr_FR", "-2", "tous les mois, l’avant-dernier jour"),
        (
            "backup every month on the third to last day",
            "en_US",
            "-3",
            "every month on the third to last day",
        ),
    ],
)
def test_a_day_counted_from_the_end_of_each_month_is_due_this_month(text, region, rule, said):
    """ "the second to last day of each month" was first due on 30 January (the month's last day
    was taken for it, then the rule's next day after that) and said "repeats (custom)": now 30
    December (29 for the third to last), said back in words."""
    due = at("2026-12-30") if rule == "-2" else at("2026-12-29")
    read_as(text, region, due, f"FREQ=MONTHLY;BYMONTHDAY={rule}", said)


@pytest.mark.parametrize(
    "text,region,said",
    [
        (
            "market every month on the 5th and 20th in June and July",
            "en_GB",
            "every month on the 5th and 20th in June and in July",
        ),
        (
            "feira mensalmente nos dias 5 e 20 em junho e julho",
            "pt_PT",
            "todos os meses no dia 5 e 20 de junho e de julho",
        ),
        (
            "mercado mensualmente los días 5 y 20 en junio y julio",
            "es_ES",
            "todos los meses el día 5 y 20 de junio y de julio",
        ),
        (
            "Markt monatlich am 5. und 20. im Juni und Juli",
            "de_DE",
            "monatlich am 5. und 20. im Juni und im Juli",
        ),
        (
            "marché tous les mois le 5 et le 20 en juin et juillet",
            "fr_FR",
            "tous les mois le 5 et le 20 de juin et de juillet",
        ),
    ],
)
def test_days_of_each_month_kept_to_the_months_said_after_them(text, region, said):
    """Days of the month and the months after them: the months were lost ("BYMONTHDAY" was taken
    for a BYMONTH already there), so the repeat ran every month of the year."""
    read_as(text, region, at("2027-06-05"), "FREQ=MONTHLY;BYMONTHDAY=5,20;BYMONTH=6,7", said)


@pytest.mark.parametrize(
    "lang,said",
    [
        ("en", "every month on the first Monday"),
        ("pt", "todos os meses, na primeira segunda-feira"),
        ("de", "monatlich am ersten Montag"),
    ],
)
def test_a_position_a_server_wrote_twice_is_said_once(lang, said):
    """A rule from another calendar may list one position twice ("BYDAY=1MO,1MO"): it is that one
    position, said once (it was "the  and first Monday")."""
    assert say_rule("FREQ=MONTHLY;BYDAY=1MO,1MO", lang) == said


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("book club on the fifth Friday of every month", "en_GB", at("2027-01-29"), "FREQ=MONTHLY;BYDAY=5FR",
         "every month on the fifth Friday"),
        ("jantar todos os meses no quinto sábado", "pt_PT", at("2027-01-30"), "FREQ=MONTHLY;BYDAY=5SA",
         "todos os meses, no quinto sábado"),
        ("cena cada mes el quinto martes", "es_ES", at("2026-12-29"), "FREQ=MONTHLY;BYDAY=5TU",
         "todos los meses, el quinto martes"),
        ("Stammtisch jeden Monat am fünften Mittwoch", "de_DE", at("2026-12-30"), "FREQ=MONTHLY;BYDAY=5WE",
         "monatlich am fünften Mittwoch"),
        ("dîner tous les mois le cinquième jeudi", "fr_FR", at("2026-12-31"), "FREQ=MONTHLY;BYDAY=5TH",
         "tous les mois, le cinquième jeudi"),
        ("reunión mensualmente el primero jueves", "es_ES", at("2027-01-07"), "FREQ=MONTHLY;BYDAY=1TH",
         "todos los meses, el primer jueves"),
    ],
)  # fmt: skip
def test_the_fifth_weekday_of_a_month_repeats_in_the_months_that_have_one(text, region, due, rule, said):
    """ "the fifth Friday of every month" was every month on the 5th: a month's fifth weekday,
    from the first month that has one; es "el primero jueves", as a calendar app writes it, is
    the first."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("mum's visit yearly in May on the second Sunday", "en_GB", at("2027-05-09"),
         "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU", "every year on the second Sunday in May"),
        ("fair every year in January and July on the last Friday", "en_US", at("2027-01-29"),
         "FREQ=YEARLY;BYMONTH=1,7;BYDAY=-1FR", "every year on the last Friday in January and in July"),
        ("review annually on the first Monday of the month in March", "en_US", at("2027-03-01"),
         "FREQ=YEARLY;BYMONTH=3;BYDAY=1MO", "every year on the first Monday in March"),
        ("festa todos os anos em junho no último sábado", "pt_PT", at("2027-06-26"),
         "FREQ=YEARLY;BYMONTH=6;BYDAY=-1SA", "todos os anos, no último sábado de junho"),
        ("feria cada año en octubre el segundo jueves", "es_ES", at("2027-10-14"),
         "FREQ=YEARLY;BYMONTH=10;BYDAY=2TH", "todos los años, el segundo jueves de octubre"),
        ("Fest jedes Jahr im September am dritten Samstag", "de_DE", at("2027-09-18"),
         "FREQ=YEARLY;BYMONTH=9;BYDAY=3SA", "jährlich am dritten Samstag im September"),
        ("brocante tous les ans en avril, le premier dimanche", "fr_FR", at("2027-04-04"),
         "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "tous les ans, le premier dimanche d’avril"),
    ],
)  # fmt: skip
def test_a_yearly_weekday_of_a_month_said_apart_from_its_month_repeats_on_it(text, region, due, rule, said):
    """ "yearly in May on the second Sunday" was every year from 1 May (the weekday lost): the
    n-th weekday of the months said apart from it, every year, said back with its months (a
    masculine day's own ordinal in Portuguese: "no último sábado"). Two positions are not cut to
    the first of them."""
    read_as(text, region, due, rule, said)
    two = find_when(
        "yearly on the first Monday and the last Friday of the month in May", SATURDAY, region="en_GB"
    )
    assert two is not None and "BYDAY=1MO" not in (two.rrule or "")


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("stocktake yearly in week 14", "en_GB", at("2027-04-05"), "FREQ=YEARLY;BYWEEKNO=14;BYDAY=MO",
         "every year in week 14"),
        ("audit in weeks 10 and 40 of every year", "en_US", at("2027-03-08"),
         "FREQ=YEARLY;BYWEEKNO=10,40;BYDAY=MO", "every year in weeks 10 and 40"),
        ("inventário todos os anos na semana 30", "pt_PT", at("2027-07-26"),
         "FREQ=YEARLY;BYWEEKNO=30;BYDAY=MO", "todos os anos na semana 30"),
        ("inventario cada año en la semana 8", "es_ES", at("2027-02-22"),
         "FREQ=YEARLY;BYWEEKNO=8;BYDAY=MO", "todos los años en la semana 8"),
        ("Inventur jährlich in KW 2 und 27", "de_DE", at("2027-01-11"),
         "FREQ=YEARLY;BYWEEKNO=2,27;BYDAY=MO", "jährlich in den Kalenderwochen 2 und 27"),
        ("Inventur jedes Jahr in der 33. Woche", "de_DE", at("2027-08-16"),
         "FREQ=YEARLY;BYWEEKNO=33;BYDAY=MO", "jährlich in Kalenderwoche 33"),
        ("inventaire tous les ans la semaine 45", "fr_FR", at("2027-11-08"),
         "FREQ=YEARLY;BYWEEKNO=45;BYDAY=MO", "tous les ans, la semaine 45"),
    ],
)  # fmt: skip
def test_weeks_of_the_year_by_their_numbers_repeat_every_year_on_their_monday(text, region, due, rule, said):
    """ "yearly in week 14" was every year from tomorrow: the weeks of the year said by their
    numbers (ISO weeks), beside a yearly rule or "of every year", every year on each one's
    Monday, the first still to come. A week's number alone stays no repeat."""
    read_as(text, region, due, rule, said)
    for alone in ("meeting in week 3 of the project", "a semana 20 foi dura"):
        when = find_when(alone, SATURDAY, region="en_GB")
        assert when is None or when.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("backup yearly on the first, the 90th and the 180th days of the year", "en_GB", at("2027-01-01"),
         "FREQ=YEARLY;BYYEARDAY=1,90,180", "every year on the 1st, 90th and 180th day of the year"),
        ("relatório todos os anos no primeiro e no 200º dia do ano", "pt_PT", at("2027-01-01"),
         "FREQ=YEARLY;BYYEARDAY=1,200", "todos os anos no dia 1 e 200 do ano"),
        ("informe cada año el segundo y el 150º día del año", "es_ES", at("2027-01-02"),
         "FREQ=YEARLY;BYYEARDAY=2,150", "todos los años el día 2 y 150 del año"),
        ("Bericht jährlich am ersten und 300. Tag des Jahres", "de_DE", at("2027-01-01"),
         "FREQ=YEARLY;BYYEARDAY=1,300", "jährlich am 1. und 300. Tag des Jahres"),
        ("bilan tous les ans le premier et le 60e jour de l'année", "fr_FR", at("2027-01-01"),
         "FREQ=YEARLY;BYYEARDAY=1,60", "tous les ans, le jour 1er et le 60 de l’année"),
    ],
)  # fmt: skip
def test_days_of_the_year_said_with_ordinals_in_words_repeat_on_each(text, region, due, rule, said):
    """ "yearly on the first, the 90th and the 180th days of the year" lost its first day (an
    ordinal in words): each day of the list, in figures or in words, every year."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("rent every 2 months on day 5", "en_GB", at("2027-02-05"), "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=5",
         "every 2 months on the 5th"),
        ("water plants monthly on day 12", "en_US", at("2026-12-12"), "FREQ=MONTHLY;BYMONTHDAY=12",
         "every month on the 12th"),
        ("Miete monatlich am Tag 3", "de_DE", at("2027-01-03"), "FREQ=MONTHLY;BYMONTHDAY=3",
         "monatlich am 3."),
        ("Abrechnung alle 3 Monate an den Tagen 1 und 15", "de_DE", at("2026-12-15"),
         "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15", "alle 3 Monate am 1. und 15."),
        ("loyer tous les mois les 5 et 20", "fr_FR", at("2026-12-20"), "FREQ=MONTHLY;BYMONTHDAY=5,20",
         "tous les mois le 5 et le 20"),
        ("alquiler cada 2 meses el día 8", "es_ES", at("2026-12-08"), "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=8",
         "cada 2 meses el día 8"),
    ],
)  # fmt: skip
def test_days_of_the_month_said_after_their_word_keep_a_monthly_repeat_on_them(text, region, due, rule, said):
    """ "monthly on day 12", "am Tag 3", "an den Tagen 1 und 15", "les 5 et 20", "el día 8" beside
    a step of months were every month from tomorrow: those days of the month. A day's number
    without a lead or "of the month" after it stays no day of the month."""
    read_as(text, region, due, rule, said)
    when = find_when("monthly review, day 3 of the sprint", SATURDAY, region="en_GB")
    assert when is not None and when.rrule == "FREQ=MONTHLY"


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        ("payroll on the last working day of every month", "en_GB", at("2026-12-31"),
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "every month on the last weekday"),
        ("hike every 2 months on the first weekend day", "en_US", at("2027-02-06"),
         "FREQ=MONTHLY;INTERVAL=2;BYDAY=SA,SU;BYSETPOS=1", "every 2 months on the first weekend day"),
        ("salário no último dia útil de cada mês", "pt_PT", at("2026-12-31"),
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "todos os meses, no último dia útil"),
        ("nómina mensualmente el primer día laborable", "es_ES", at("2027-01-01"),
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", "todos los meses, el primer día laborable"),
        ("Gehalt am letzten Werktag jedes Monats", "de_DE", at("2026-12-31"),
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "monatlich am letzten Werktag"),
        ("randonnée tous les mois le dernier jour de week-end", "fr_FR", at("2026-12-27"),
         "FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=-1", "tous les mois, le dernier jour de week-end"),
    ],
)  # fmt: skip
def test_a_position_among_working_or_weekend_days_repeats_every_month(text, region, due, rule, said):
    """ "the last working day of every month" was every month from tomorrow: the first or last
    weekday (or weekend day) of each month (BYSETPOS), said back in the person's language. Said
    without a monthly rule, it stays no repeat."""
    read_as(text, region, due, rule, said)
    when = find_when("call Ana on the first working day after the holidays", SATURDAY, region="en_GB")
    assert when is None or when.rrule is None


@pytest.mark.parametrize(
    "text,region,due,rule,said,title",
    [
        ("stretch everyday at 8", "en_US", at("2026-12-06", "08:00"), "FREQ=DAILY", "every day", "stretch"),
        ("meditate everyday.", "en_GB", at("2026-12-06"), "FREQ=DAILY", "every day", "meditate"),
        (
            "Everyday at 7pm call mom",
            "en_US",
            at("2026-12-05", "19:00"),
            "FREQ=DAILY",
            "every day",
            "call mom",
        ),
        (
            "rapport journalier à 17h",
            "fr_FR",
            at("2026-12-05", "17:00"),
            "FREQ=DAILY",
            "tous les jours",
            "rapport",
        ),
        ("tâches journalières à 9h", "fr_CA", at("2026-12-06"), "FREQ=DAILY", "tous les jours", "tâches"),
        ("arroser journalièrement", "fr_BE", at("2026-12-06"), "FREQ=DAILY", "tous les jours", "arroser"),
        (
            "regar cotidianamente às 8h",
            "pt_PT",
            at("2026-12-06", "08:00"),
            "FREQ=DAILY",
            "todos os dias",
            "regar",
        ),
        (
            "leer cotidianamente a las 22",
            "es_ES",
            at("2026-12-05", "22:00"),
            "FREQ=DAILY",
            "todos los días",
            "leer",
        ),
        ("tagtäglich um 7 Uhr laufen", "de_DE", at("2026-12-06", "07:00"), "FREQ=DAILY", "täglich", "laufen"),
    ],
)
def test_daily_in_one_word_or_as_an_adjective_repeats_every_day(text, region, due, rule, said, title):
    """ "everyday" in one word, fr "journalier" / "journalièrement", pt and es "cotidianamente", de
    "tagtäglich" were no repeat ("every day", "quotidien", "täglich" were); the words leave the title.
    Before a noun "everyday" is an adjective ("everyday clothes") and "le journalier" a noun: none."""
    read_as(text, region, due, rule, said)
    when = find_when(text, SATURDAY, region=region)
    assert title_without(text, when, None).strip(" .").lower() == title
    for other, region in (
        ("buy everyday clothes tomorrow", "en_US"),
        ("everyday life is hard", "en_GB"),
        ("le journalier arrive à 9h", "fr_FR"),
    ):
        when = find_when(other, SATURDAY, region=region)
        assert when is None or when.rrule is None, other


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "Yoga wöchentlich am Di., Do. um 18 Uhr",
            "de_DE",
            at("2026-12-08", "18:00"),
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "dienstags und donnerstags",
        ),
        (
            "alle 2 Wochen am Mo, Mi",
            "de_AT",
            at("2026-12-07"),
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
            "alle 2 Wochen montags und mittwochs",
        ),
        (
            "natation chaque semaine le lun., mer. à 7h",
            "fr_FR",
            at("2026-12-07", "07:00"),
            "FREQ=WEEKLY;BYDAY=MO,WE",
            "le lundi et le mercredi",
        ),
        (
            "inglés semanalmente el mar, jue a las 19",
            "es_ES",
            at("2026-12-08", "19:00"),
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "los martes y jueves",
        ),
        (
            "pilates a cada ter., qui. às 8h",
            "pt_BR",
            at("2026-12-08", "08:00"),
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "às terças e quintas",
        ),
        (
            "bins every Mon., Thu. at 7pm",
            "en_US",
            at("2026-12-07", "19:00"),
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "every Monday and Thursday",
        ),
        (
            "gym weekly on Tue. and Fri.",
            "en_GB",
            at("2026-12-08"),
            "FREQ=WEEKLY;BYDAY=TU,FR",
            "every Tuesday and Friday",
        ),
    ],
)
def test_weekdays_listed_by_their_short_forms_keep_a_weekly_repeat_on_each(text, region, due, rule, said):
    """Short weekday forms listed after a weekly rule or "every" ("am Di., Do.", "le lun., mer.",
    "el mar, jue", "a cada ter., qui.", "every Mon., Thu.") were dropped or kept to the first; each
    is read in the text's language (es "mar" only in such a list: alone it is the sea), and a short
    form that is one date stays one ("Termin am Di. um 10")."""
    read_as(text, region, due, rule, said)
    for other, region in (("ir al mar, jue a las 10", "es_ES"), ("Termin am Di. um 10", "de_DE")):
        when = find_when(other, SATURDAY, region=region)
        assert when is not None and when.rrule is None, other


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "tous les premiers lundis du mois à 9h",
            "fr_FR",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO",
            "tous les mois, le premier lundi",
        ),
        (
            "Mensuel (tous les troisièmes jeudis)",
            "fr_BE",
            at("2026-12-17"),
            "FREQ=MONTHLY;BYDAY=3TH",
            "tous les mois, le troisième jeudi",
        ),
        (
            "los primeros lunes de cada mes a las 9",
            "es_ES",
            at("2026-12-07"),
            "FREQ=MONTHLY;BYDAY=1MO",
            "todos los meses, el primer lunes",
        ),
        (
            "misa los últimos domingos de cada mes",
            "es_MX",
            at("2026-12-27"),
            "FREQ=MONTHLY;BYDAY=-1SU",
            "todos los meses, el último domingo",
        ),
        (
            "feira nos últimos sábados de cada mês",
            "pt_PT",
            at("2026-12-26"),
            "FREQ=MONTHLY;BYDAY=-1SA",
            "todos os meses, no último sábado",
        ),
    ],
)
def test_a_plural_position_of_a_plural_weekday_repeats_every_month(text, region, due, rule, said):
    """fr "tous les premiers lundis", es "los primeros lunes", pt "nos últimos sábados": the
    ordinal in the plural before the plural weekday was read as nothing or as every month on
    today's date."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "pay rent on the 1st of the month",
            "en_US",
            at("2027-01-01"),
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "every month on the 1st",
        ),
        (
            "book club on the second Tuesday of the month at 7pm",
            "en_GB",
            at("2026-12-08", "19:00"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "every month on the second Tuesday",
        ),
        (
            "pagar a renda no dia 5 do mês",
            "pt_BR",
            at("2027-01-05"),
            "FREQ=MONTHLY;BYMONTHDAY=5",
            "todos os meses no dia 5",
        ),
        (
            "reunião no segundo domingo do mês",
            "pt_PT",
            at("2026-12-13"),
            "FREQ=MONTHLY;BYDAY=2SU",
            "todos os meses, no segundo domingo",
        ),
        (
            "cuota el 15 del mes a las 9",
            "es_ES",
            at("2026-12-15"),
            "FREQ=MONTHLY;BYMONTHDAY=15",
            "todos los meses el día 15",
        ),
        (
            "club el tercer jueves del mes",
            "es_MX",
            at("2026-12-17"),
            "FREQ=MONTHLY;BYDAY=3TH",
            "todos los meses, el tercer jueves",
        ),
        ("Miete am 1. des Monats", "de_DE", at("2027-01-01"), "FREQ=MONTHLY;BYMONTHDAY=1", "monatlich am 1."),
        (
            "Stammtisch am zweiten Dienstag im Monat",
            "de_CH",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "monatlich am zweiten Dienstag",
        ),
        ("loyer le 5 du mois", "fr_FR", at("2027-01-05"), "FREQ=MONTHLY;BYMONTHDAY=5", "tous les mois le 5"),
        (
            "atelier le dernier samedi du mois",
            "fr_CA",
            at("2026-12-26"),
            "FREQ=MONTHLY;BYDAY=-1SA",
            "tous les mois, le dernier samedi",
        ),
    ],
)
def test_a_day_of_the_month_without_every_repeats_every_month(text, region, due, rule, said):
    """ "the month" with its article and no particular month is each month: "on the 1st of the
    month", "no segundo domingo do mês", "el 15 del mes", "am zweiten Dienstag im Monat", "le
    dernier samedi du mois" were one date. A month named or counted from now stays one date."""
    read_as(text, region, due, rule, said)
    for other, region in (
        ("on the second Tuesday of next month", "en_US"),
        ("on the 15th of this month", "en_GB"),
        ("the first Monday of March", "en_US"),
        ("dia 5 do mês que vem", "pt_BR"),
        ("el 30 del mes que viene", "es_ES"),
        ("am 1. des nächsten Monats", "de_DE"),
        ("le 30 du mois prochain", "fr_FR"),
        ("the end of the month", "en_US"),
    ):
        when = find_when(other, SATURDAY, region=region)
        assert when is not None and when.rrule is None, other


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "Chor jeden Dienstag- und Donnerstagabend",
            "de_DE",
            at("2026-12-08", "19:00"),
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "dienstags und donnerstags",
        ),
        (
            "Sport montags- und mittwochsabends",
            "de_AT",
            at("2026-12-07", "19:00"),
            "FREQ=WEEKLY;BYDAY=MO,WE",
            "montags und mittwochs",
        ),
        (
            "Putzen montags-, dienstags- und freitagsvormittags",
            "de_CH",
            at("2026-12-07", "10:00"),
            "FREQ=WEEKLY;BYDAY=MO,TU,FR",
            "montags, dienstags und freitags",
        ),
    ],
)
def test_german_days_sharing_the_ending_after_their_hyphen_repeat_on_each(text, region, due, rule, said):
    """The hyphen that stands for a shared ending ("Dienstag- und Donnerstagabend", "montags- und
    mittwochsabends") kept only the last day; each day is read, with the part of the day they
    share. Without "jeden" or the adverb it is one day, the first, with that part."""
    read_as(text, region, due, rule, said)
    when = find_when("Termin Dienstag- und Freitagvormittag", SATURDAY, region="de_DE")
    assert when is not None and (when.rrule, when.due) == (None, at("2026-12-08", "10:00"))
    assert title_without(when.text, when, None) == "Termin und Freitagvormittag"  # as a list's rest


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "cada año el 15 de enero y julio",
            "es_ES",
            at("2027-01-15"),
            "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=15",
            "todos los años de enero y de julio",
        ),
        (
            "impuesto anualmente el 20 de enero, abril y octubre",
            "es_MX",
            at("2027-01-20"),
            "FREQ=YEARLY;BYMONTH=1,4,10;BYMONTHDAY=20",
            "todos los años de enero, de abril y de octubre",
        ),
        (
            "anualmente el segundo martes de marzo, septiembre",
            "es_ES",
            at("2027-03-09"),
            "FREQ=YEARLY;BYMONTH=3,9;BYDAY=2TU",
            "todos los años, el segundo martes de marzo y de septiembre",
        ),
        (
            "yearly on the 10th of June and December",
            "en_GB",
            at("2026-12-10"),
            "FREQ=YEARLY;BYMONTH=6,12;BYMONTHDAY=10",
            "every year in June and in December",
        ),
        (
            "todos os anos a 1 de maio e novembro",
            "pt_PT",
            at("2027-05-01"),
            "FREQ=YEARLY;BYMONTH=5,11;BYMONTHDAY=1",
            "todos os anos de maio e de novembro",
        ),
        (
            "jährlich am 15. Januar und Juli",
            "de_DE",
            at("2027-01-15"),
            "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=15",
            "jährlich im Januar und im Juli",
        ),
        (
            "tous les ans le 15 janvier et juillet",
            "fr_FR",
            at("2027-01-15"),
            "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=15",
            "tous les ans de janvier et de juillet",
        ),
    ],
)
def test_months_listed_after_a_yearly_date_repeat_in_each(text, region, due, rule, said):
    """Months listed after a yearly date's month ("el 15 de enero y julio", "on the 10th of June
    and December", "el segundo martes de marzo, septiembre") kept only the first month; each is a
    month of the one yearly rule (the day is the due date's, as for one month)."""
    read_as(text, region, due, rule, said)
    when = find_when("cada año el 15 de enero", SATURDAY, region="es_ES")
    assert when is not None and when.rrule == "FREQ=YEARLY"


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "backup on the last weekday of the year",
            "en_US",
            at("2026-12-31"),
            "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "every year on the last weekday",
        ),
        (
            "budget on the first working day of each year",
            "en_GB",
            at("2027-01-01"),
            "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
            "every year on the first weekday",
        ),
        (
            "Inventur jährlich am letzten Werktag im Dezember",
            "de_DE",
            at("2026-12-31"),
            "FREQ=YEARLY;BYMONTH=12;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "jährlich am letzten Werktag im Dezember",
        ),
        (
            "cierre el último día laborable de cada año",
            "es_ES",
            at("2026-12-31"),
            "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "todos los años, el último día laborable",
        ),
        (
            "balanço no primeiro dia útil de cada ano",
            "pt_BR",
            at("2027-01-01"),
            "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
            "todos os anos, no primeiro dia útil",
        ),
        (
            "vœux le premier jour ouvré de l'année",
            "fr_FR",
            at("2027-01-01"),
            "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
            "tous les ans, le premier jour ouvré",
        ),
    ],
)
def test_a_position_among_working_days_of_the_year_repeats_every_year(text, region, due, rule, said):
    """ "the last weekday of the year", "the first working day of each year", "jährlich am letzten
    Werktag im Dezember": a set position under a yearly rule was every year on today's date or
    nothing; the engine steps it (Friday 1 January 2027 the first working day)."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "bake sale monthly, every second Saturday",
            "en_US",
            at("2026-12-12"),
            "FREQ=MONTHLY;BYDAY=2SA",
            "every month on the second Saturday",
        ),
        (
            "mensalmente, em cada segunda terça-feira",
            "pt_PT",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "todos os meses, na segunda terça-feira",
        ),
        (
            "mensualmente, cada segundo martes",
            "es_ES",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "todos los meses, el segundo martes",
        ),
        (
            "monatlich, jeden zweiten Dienstag",
            "de_DE",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "monatlich am zweiten Dienstag",
        ),
        (
            "tous les mois, chaque deuxième mardi",
            "fr_FR",
            at("2026-12-08"),
            "FREQ=MONTHLY;BYDAY=2TU",
            "tous les mois, le deuxième mardi",
        ),
    ],
)
def test_every_nth_weekday_beside_a_monthly_rule_is_that_weekday_of_each_month(text, region, due, rule, said):
    """Beside "monthly", "every second Saturday" ("em cada segunda terça-feira", "jeden zweiten
    Dienstag") is that weekday of each month (AOSP Calendar's "Monthly (on every second Sunday)");
    it was every other week, or pt "cada segunda" every Monday. Alone it stays every other week."""
    read_as(text, region, due, rule, said)
    when = find_when("jeden zweiten Dienstag", SATURDAY, region="de_DE")
    assert when is not None and when.rrule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"


@pytest.mark.parametrize(
    "text,region,due,rule,said",
    [
        (
            "todos los días de lunes a viernes",
            "es_ES",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "todos los días laborables",
        ),
        (
            "Zeitung täglich von Montag bis Freitag",
            "de_DE",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "werktags",
        ),
        (
            "tous les jours du lundi au vendredi",
            "fr_FR",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "en semaine",
        ),
        (
            "daily Monday to Friday at 9",
            "en_GB",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "every weekday",
        ),
        (
            "todos os dias da semana (de segunda a sexta)",
            "pt_BR",
            at("2026-12-07"),
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "todos os dias úteis",
        ),
    ],
)
def test_every_day_of_a_range_of_weekdays_repeats_on_those_days(text, region, due, rule, said):
    """A daily word with a range of weekdays after it ("todos los días de lunes a viernes",
    "täglich von Montag bis Freitag", "tous les jours du lundi au vendredi") was every day."""
    read_as(text, region, due, rule, said)


@pytest.mark.parametrize(
    "text,region,rule,hm",
    [
        ("water the plants every day at 11", "en_GB", "FREQ=DAILY", "11:00"),
        ("stand-up every weekday at 9:45", "en_US", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "09:45"),
        ("regar as plantas todos os dias às 11", "pt_PT", "FREQ=DAILY", "11:00"),
        ("regar las plantas todos los días a las 11", "es_ES", "FREQ=DAILY", "11:00"),
        ("Blumen gießen jeden Tag um 11", "de_DE", "FREQ=DAILY", "11:00"),
        ("arroser les plantes tous les jours à 11 heures", "fr_FR", "FREQ=DAILY", "11:00"),
        ("piano every day at 4", "en_GB", "FREQ=DAILY", "16:00"),
    ],
)
@pytest.mark.parametrize("said", ["08:10", "14:20", "23:40"])
def test_a_repeats_bare_hour_is_the_same_whenever_it_was_said(text, region, rule, hm, said):
    """A bare hour in a repeat is read as with a day (8-12 the morning, 1-7 the afternoon), never as
    the next time the clock shows it: said at 14:20, "every day at 11" is not 23:00 for ever."""
    now = at("2026-12-05", said)
    when = find_when(text, now, region=region)
    assert when is not None and when.rrule == rule, when and when.rrule
    assert when.due.strftime("%H:%M") == hm and when.due > now, when.due


@pytest.mark.parametrize(
    "text,region,day",
    [
        ("water bill on the first of every month", "en_GB", 1),
        ("backups on the second of each month", "en_US", 2),
        ("conta da água no dia um de cada mês", "pt_PT", 1),
        ("factura del agua el primero de cada mes", "es_ES", 1),
        ("Wasserrechnung am Ersten jedes Monats", "de_DE", 1),
        ("facture d'eau le premier de chaque mois", "fr_FR", 1),
        ("loyer le deux de chaque mois", "fr_FR", 2),
    ],
)
def test_a_day_of_every_month_in_words_repeats_on_that_day(text, region, day):
    """A day written as a word before "of every month" is the month's day, not a monthly repeat
    from whatever day it was said ("the first of every month" was every month on the 6th)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule == f"FREQ=MONTHLY;BYMONTHDAY={day}", when and when.rrule
    assert when.due.day == day


@pytest.mark.parametrize(
    "text,region",
    [
        ("the first of next month", "en_GB"),
        ("le premier du mois prochain", "fr_FR"),
        ("the first of March", "en_GB"),
    ],
)
def test_a_day_in_words_of_a_particular_month_stays_one_date(text, region):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule is None and when.due.day == 1


@pytest.mark.parametrize(
    "text,region,rule",
    [
        ("book club every second and fourth Thursday", "en_GB", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
        ("book club every 2nd and 4th Thursday", "en_US", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
        ("the first and third Friday of the month", "en_US", "FREQ=MONTHLY;BYDAY=1FR,3FR"),
        ("Buchclub jeden zweiten und vierten Donnerstag im Monat", "de_DE", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
        ("club le deuxième et le quatrième jeudi du mois", "fr_FR", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
        ("club cada segundo y cuarto jueves", "es_ES", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
    ],
)
def test_every_listed_positions_of_a_weekday_repeat_on_them_each_month(text, region, rule):
    """Positions of a weekday listed after "every" ("every 2nd and 4th Thursday": was the 2nd of
    each month) or before "of the month" with no "every" (was nothing) are those weekdays of each
    month, as "of every month" was; one position after "every" is still a step of weeks."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.rrule == rule, when and when.rrule
    assert (
        find_when("every second Thursday", SATURDAY, region="en_GB").rrule
        == "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH"
    )
