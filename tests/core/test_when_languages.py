"""The date grammar's idioms in Portuguese, Spanish, German and French (core/when/languages/*.py):
each class of phrase in every language that has it, with a frozen clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.when import find_when, title_without

TZ = ZoneInfo("Europe/Lisbon")
SATURDAY = datetime(2026, 12, 5, 10, 0, tzinfo=TZ)  # Saturday 5 December 2026, 10:00
WEDNESDAY = datetime(2026, 12, 9, 10, 0, tzinfo=TZ)


def at(day: str, hm: str = "09:00") -> datetime:
    return datetime.fromisoformat(f"{day}T{hm}").replace(tzinfo=TZ)


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("daqui a alguns dias", "pt_PT", at("2026-12-08")),
        ("dentro de poucos meses", "pt_BR", at("2027-03-05")),
        ("en algunos días", "es_ES", at("2026-12-08")),
        ("dentro de unos pocos minutos", "es_ES", SATURDAY + timedelta(minutes=3)),
        ("in einigen Tagen", "de_DE", at("2026-12-08")),
        ("in ein paar Minuten", "de_DE", SATURDAY + timedelta(minutes=2)),
        ("dans quelques jours", "fr_FR", at("2026-12-08")),
        ("dans quelques mois", "fr_FR", at("2027-03-05")),
    ],
)
def test_a_few_units_from_now_are_three(text, region, due):
    """ "a few days" is 3 of them, as in English; "ein paar" 2 (a couple)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("d'ici 5 minutes", "fr_FR", SATURDAY + timedelta(minutes=5)),
        ("d'ici deux semaines", "fr_FR", at("2026-12-19")),
        ("de aquí a tres días", "es_ES", at("2026-12-08")),
        ("binnen zwei Tagen", "de_DE", at("2026-12-07")),
        ("innerhalb von 10 Minuten", "de_DE", SATURDAY + timedelta(minutes=10)),
        ("daqui a 10 minutos", "pt_PT", SATURDAY + timedelta(minutes=10)),
    ],
)
def test_in_so_many_units_in_each_languages_words(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    # "d'ici" before a day or a month is still that day or month
    assert find_when("d'ici juin", SATURDAY, region="fr_FR").due == at("2027-06-01")


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("pagar a renda no dia primeiro", "pt_PT", at("2027-01-01")),
        ("dia primeiro às 10", "pt_BR", at("2027-01-01", "10:00")),
        ("pagar el alquiler el primero", "es_ES", at("2027-01-01")),
        ("el día primero a las 10", "es_ES", at("2027-01-01", "10:00")),
        ("payer le loyer le premier.", "fr_FR", at("2027-01-01")),
        ("le premier à 10h", "fr_FR", at("2027-01-01", "10:00")),
        ("Miete am ersten, bitte", "de_DE", at("2027-01-01")),
        ("am ersten Mai", "de_DE", at("2027-05-01")),
        ("am zweiten Juni um 10 Uhr", "de_DE", at("2027-06-02", "10:00")),
    ],
)
def test_the_first_of_the_month_in_words(text, region, due):
    """text2num writes ordinals in figures from the third on: "the first" was read in no language
    alone, and in German not even before a month."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [("el primero en llegar", "es_ES"), ("le premier jour", "fr_FR"), ("am ersten Tag", "de_DE")],
)
def test_first_before_a_noun_is_no_day(text, region):
    assert find_when(text, SATURDAY, region=region) is None


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("na tarde de sexta", "pt_BR", at("2026-12-11", "15:00")),
        ("na noite de sábado", "pt_PT", at("2026-12-12", "20:00")),
        ("na manhã de segunda", "pt_PT", at("2026-12-14", "09:00")),
        ("la tarde del viernes", "es_ES", at("2026-12-11", "15:00")),
        ("la noche del sábado", "es_ES", at("2026-12-12", "20:00")),
        ("el viernes en la noche", "es_MX", at("2026-12-11", "20:00")),
        ("l'après-midi de vendredi", "fr_FR", at("2026-12-11", "15:00")),
    ],
)
def test_a_part_of_the_day_before_the_day_it_is_part_of(text, region, due):
    """ "na tarde de sexta" was Friday at 09:00: the afternoon dropped."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("na próxima semana na sexta", "pt_PT", at("2026-12-18")),
        ("semana que vem, sexta-feira", "pt_BR", at("2026-12-18")),
        ("la semana que viene el viernes", "es_ES", at("2026-12-18")),
        ("la próxima semana el lunes", "es_ES", at("2026-12-14")),
        ("nächste Woche Freitag", "de_DE", at("2026-12-18")),
        ("nächste Woche am Montag um 10", "de_DE", at("2026-12-14", "10:00")),
        ("la semaine prochaine vendredi", "fr_FR", at("2026-12-18")),
        ("next week Friday", "en_GB", at("2026-12-18")),
    ],
)
def test_next_week_and_then_a_weekday_is_that_weeks(text, region, due):
    """ "nächste Woche Freitag" said on a Wednesday was this Friday, two days on."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("pagar a renda no fim de mês", "pt_PT", at("2026-12-31", "18:00")),
        ("fin de mes", "es_ES", at("2026-12-31", "18:00")),
        ("pagar a finales de mes", "es_ES", at("2026-12-31", "18:00")),
        ("fin de mois", "fr_FR", at("2026-12-31", "18:00")),
        ("rapport fin de journée", "fr_FR", at("2026-12-09", "18:00")),
        ("Ende des Monats", "de_DE", at("2026-12-31", "18:00")),
    ],
)
def test_the_end_of_a_month_without_its_article(text, region, due):
    """ "fin de mes" was nothing (only "fin del mes" was read); the weekend stays the weekend."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("fin de semana", WEDNESDAY, region="es_ES").due == at("2026-12-12")
    assert find_when("fim de semana", WEDNESDAY, region="pt_PT").due == at("2026-12-12")


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Freitag der 18.", "de_DE", at("2026-12-18")),
        ("am Freitag, dem 18.", "de_DE", at("2026-12-18")),
        ("Freitag, den 18", "de_DE", at("2026-12-18")),
        ("am Freitag den 18 um 10 Uhr", "de_DE", at("2026-12-18", "10:00")),
        ("Dienstag der 8.", "de_DE", at("2027-06-08")),  # the next Tuesday that is an 8th
        ("sexta-feira dia 18", "pt_PT", at("2026-12-18")),
        ("el viernes 18 a las 10", "es_ES", at("2026-12-18", "10:00")),
        ("vendredi le 18", "fr_FR", at("2026-12-18")),
    ],
)
def test_a_weekday_with_its_day_of_the_month(text, region, due):
    """ "Freitag der 18." and "am Freitag, dem 18." were this Friday, the 11th."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    # a clock after it is no day: "Freitag den 18 Uhr" is Friday at six
    assert find_when("Freitag den 18 Uhr", WEDNESDAY, region="de_DE").due == at("2026-12-11", "18:00")


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Reformationstag", "de_DE", at("2027-10-31")),
        ("Buß- und Bettag", "de_DE", at("2027-11-17")),
        ("Heilige Drei Könige", "de_AT", at("2027-01-06")),
        ("Jueves Santo", "es_ES", at("2027-03-25")),
        ("Dia de São Jorge", "pt_BR", at("2027-04-23")),
        ("Saint-Étienne", "fr_FR", at("2026-12-26")),
    ],
)
def test_a_regions_holidays_by_the_names_the_holidays_package_gives(text, region, due):
    """The `holidays` package's names of the country's regions' holidays (Reformationstag in
    five German states, Jueves Santo in all but one Spanish region) were not read: only the
    nation's were."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("no início de março", "pt_PT", at("2027-03-01")),
        ("em meados de janeiro", "pt_BR", at("2027-01-11")),
        ("no fim de janeiro às 10", "pt_PT", at("2027-01-21", "10:00")),
        ("a mediados de enero", "es_ES", at("2027-01-11")),
        ("a finales de enero", "es_ES", at("2027-01-21")),
        ("Mitte Januar um 10", "de_DE", at("2027-01-11", "10:00")),
        ("Ende Mai", "de_DE", at("2027-05-21")),
        ("début mars", "fr_FR", at("2027-03-01")),
        ("fin janvier", "fr_FR", at("2027-01-21")),
        ("meados de dezembro", "pt_PT", at("2026-12-11")),  # this year's, still ahead
        ("fim de novembro", "pt_PT", at("2027-11-21")),  # this year's is over
    ],
)
def test_a_part_of_a_month_is_due_when_it_begins(text, region, due):
    """ "Ende Januar", "mi-janvier", "a finales de enero" were nothing (questions read them as
    windows); the part is due on its first day, as a range is."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("daqui a hora e meia", "pt_PT"),
        ("em hora e meia", "pt_BR"),
        ("en hora y media", "es_ES"),
        ("in anderthalb Stunden", "de_DE"),
        ("in eineinhalb Stunden", "de_DE"),
        ("dans une heure et demie", "fr_FR"),
    ],
)
def test_an_hour_and_a_half_from_now_without_its_article(text, region):
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == WEDNESDAY + timedelta(minutes=90), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "hm"),
    [
        ("sábado ao fim da manhã", "pt_PT", "11:00"),
        ("sábado no início da tarde", "pt_PT", "14:00"),
        ("sábado à hora do jantar", "pt_BR", "20:00"),
        ("el sábado a media tarde", "es_ES", "16:00"),
        ("el sábado a última hora de la tarde", "es_ES", "18:00"),
        ("el sábado a la hora de comer", "es_ES", "14:00"),
        ("am Samstag am späten Nachmittag", "de_DE", "18:00"),
        ("Samstag zur Mittagszeit", "de_DE", "12:00"),
        ("samedi en fin de matinée", "fr_FR", "11:00"),
        ("samedi en fin d'après-midi", "fr_FR", "18:00"),
        ("samedi à l'heure du déjeuner", "fr_FR", "12:00"),
        ("samedi en début de matinée", "fr_FR", "07:00"),
        ("samedi après le déjeuner", "fr_FR", "13:00"),
        ("samedi pendant le déjeuner", "fr_FR", "12:00"),
        ("samedi après le travail", "fr_FR", "18:00"),
        ("samedi en fin d'aprem", "fr_FR", "18:00"),
    ],
)
def test_early_late_parts_of_the_day_and_meals(text, region, hm):
    """ "ao fim da manhã" and "en fin de matinée" were the day's end (18:00), "en fin
    d'après-midi" and "a media tarde" nothing but the day."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == at("2026-12-12", hm), when and when.due
    assert find_when("hoje ao fim do dia", WEDNESDAY, region="pt_PT").due == at("2026-12-09", "18:00")


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("O prazo final é agora, ok", "pt_BR"),
        ("O prazo para entregar o relatório à Ana é agora", "pt_PT"),
        ("La fecha límite para entregar el informe es ahora.", "es_ES"),
        ("Die Deadline für den Bericht an Ana ist jetzt!", "de_DE"),
        ("La deadline pour le rapport d'Ana c'est maintenant", "fr_FR"),
    ],
)
def test_now_after_is_at_a_clauses_end_is_this_moment_in_any_sentence(text, region):
    """ "now" counted only in a text of at most four words: "o prazo final é agora, ok" was
    nothing. A state that holds from now on ("Ana ist jetzt Ärztin") stays no time."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == WEDNESDAY, when and when.due
    assert find_when("Ana ist jetzt Ärztin im Krankenhaus in Lissabon", WEDNESDAY, region="de_DE") is None
    assert find_when("A Ana é agora médica no hospital de Santa Maria", WEDNESDAY, region="pt_PT") is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("um fünf nach halb acht", at("2026-12-05", "19:35")),
        ("um fünf vor halb acht", at("2026-12-05", "19:25")),
        ("morgen um zehn vor halb neun", at("2026-12-06", "08:20")),
        ("um viertel 9", at("2026-12-05", "20:15")),
    ],
)
def test_german_minutes_around_half_past_and_the_southern_quarter(text, due):
    """ "fünf nach halb acht" was 7:30, the five minutes dropped; "viertel 9" (8:15) nothing."""
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("renovar o passaporte no próximo ano", "pt_PT", at("2027-01-01")),
        ("no ano que vem", "pt_BR", at("2027-01-01")),
        ("el próximo año", "es_ES", at("2027-01-01")),
        ("el año que viene", "es_ES", at("2027-01-01")),
        ("nächstes Jahr", "de_DE", at("2027-01-01")),
        ("kommendes Jahr", "de_DE", at("2027-01-01")),
        ("l'année prochaine", "fr_FR", at("2027-01-01")),
        ("em março do próximo ano", "pt_PT", at("2027-03-01")),
        ("en mai l'année prochaine", "fr_FR", at("2027-05-01")),
    ],
)
def test_next_year_is_its_first_day_as_next_month_is(text, region, due):
    """ "next year" was nothing in every language while "next month" was its 1st; a month said
    with it is that month of next year ("en mai l'année prochaine" was nothing too)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("vinte e dois de abril", "pt_PT", at("2027-04-22")),
        ("vinte e três de maio às 10", "pt_BR", at("2027-05-23", "10:00")),
        ("dia vinte e oito", "pt_PT", at("2026-12-28")),
        ("el veintitrés de mayo", "es_ES", at("2027-05-23")),
        ("le vingt et un avril", "fr_FR", at("2027-04-21")),
        ("am dreiundzwanzigsten Mai", "de_DE", at("2027-05-23")),
    ],
)
def test_a_day_in_words_of_several_words_is_the_whole_number(text, region, due):
    """ "vinte e dois de abril" was 2 April: the table's "dois de abril" covered more of the text
    than text2num's "22", written in the place of the three words."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("le vingt-cinq mars", "fr_FR", at("2027-03-25")),
        ("rendez-vous le vingt-cinq avril à 10h", "fr_FR", at("2027-04-25", "10:00")),
        ("dentiste le vingt-cinq juin", "fr_FR", at("2027-06-25")),
        # still minutes where the hour is said
        ("à dix heures vingt-cinq", "fr_FR", at("2026-12-05", "10:25")),
        ("à onze heures moins vingt-cinq", "fr_FR", at("2026-12-05", "10:35")),
    ],
)
def test_a_day_in_words_a_table_of_minutes_also_holds_is_the_whole_number(text, region, due):
    """ "vingt-cinq", 25 minutes to the tables, was left in words, so "le vingt-cinq avril" was
    5 April ("cinq avril") and "le vingt-cinq mars" nothing; a word its table reads as the number
    text2num writes is that number."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("le 3ème jour de mars", "fr_FR", at("2027-03-03")),
        ("le 3e jour d'avril à 10h", "fr_FR", at("2027-04-03", "10:00")),
        ("le vingt-cinquième jour de mars", "fr_FR", at("2027-03-25")),
        ("the 25th day of March", "en_US", at("2027-03-25")),
        ("the twenty-fifth day of March", "en_US", at("2027-03-25")),
    ],
)
def test_a_day_of_the_month_as_the_nth_day_of_a_named_month(text, region, due):
    """ "le 3e jour d'avril à 10h" was tomorrow at 10, "the 25th day of March" the 25th of this
    month, "le vingt-cinquième jour de mars" nothing (an ordinal in words past the table's)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("Aug 9 96", "en_US", at("1996-08-09")),
        ("Aug 9, 96", "en_US", at("1996-08-09")),
        ("3rd Feb 82", "en_GB", at("1982-02-03")),
        ("may 1st 01", "en_US", at("2001-05-01")),
        ("21-APR-16", "en_US", at("2016-04-21")),
        ("30-Mar-27", "en_GB", at("2027-03-30")),
        ("3 de agosto 96", "pt_PT", at("1996-08-03")),
        ("el 3 de agosto 96", "es_ES", at("1996-08-03")),
        ("le 3 août 96", "fr_FR", at("1996-08-03")),
        # not a year: what a clock can be, a count with its noun, the hour after it
        ("Aug 9 30 people", "en_US", at("2027-08-09")),
        ("dinner Aug 9 07 pm", "en_US", at("2027-08-09", "19:00")),
        ("Aug 9 at 10", "en_US", at("2027-08-09", "10:00")),
    ],
)
def test_two_figures_after_a_date_are_its_year_where_no_clock_is(text, region, due):
    """Two figures no clock has (25-99, or with a leading zero), after a month's dash or a comma,
    are the date's year, nearest today ("Aug 9 96" is 1996); what an hour can be stays the hour."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("2 weeks and 6 days from Monday", "en_US", at("2026-12-27")),
        ("3 years, 2 weeks and 5 days from tomorrow", "en_GB", at("2029-12-25")),
        ("2 semanas e 6 dias depois de segunda", "pt_PT", at("2026-12-27")),
        ("2 semanas y 6 días después del lunes", "es_ES", at("2026-12-27")),
        ("1 hour and 30 minutes before noon", "en_US", at("2026-12-05", "10:30")),
        ("two weeks after yesterday", "en_US", at("2026-12-18")),
        ("a week before yesterday", "en_GB", at("2026-11-27")),
        ("2 days after the day before yesterday", "en_US", at("2026-12-05")),
        ("3 dias depois de ontem", "pt_PT", at("2026-12-07")),
        ("3 días después de ayer", "es_ES", at("2026-12-07")),
        ("2 dias a partir desta sexta", "pt_PT", at("2026-12-13")),
    ],
)
def test_an_offset_from_a_day_counts_every_amount_and_from_yesterday(text, region, due):
    """ "2 weeks and 6 days from Monday": all of the amounts from that day (not the last one alone);
    "two weeks after yesterday", "3 dias depois de ontem": from the day before today."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("1 set", "pt_BR", at("2027-09-01")),
        ("reunião 5 out às 10", "pt_PT", at("2027-10-05", "10:00")),
        ("consulta 5 out", "en_US", at("2027-10-05")),  # the text's words are Portuguese
        ("Dom 15Set", "pt_PT", at("2027-09-15")),
        ("11 ago", "es_ES", at("2027-08-11")),
        ("el 11 ago a las 10", "en_GB", at("2027-08-11", "10:00")),
        # in an English text they are English words
        ("2 days ago", "es_ES", None),
        ("5 out", "en_US", None),
        ("set the alarm for 5 out of 10", "pt_PT", None),
    ],
)
def test_short_months_that_are_english_words_are_months_in_a_text_of_their_language(text, region, due):
    """pt "set", "out", es "ago" are months in a Portuguese or Spanish text (the language most of its
    words are in, else the region's); in an English one they stay words."""
    when = find_when(text, SATURDAY, region=region)
    assert (when.due if when else None) == due


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("friday 1 pm", "en_US", at("2026-12-11", "13:00")),
        ("Friday 7 o'clock", "en_GB", at("2026-12-11", "19:00")),
        ("viernes 1 pm", "es_ES", at("2026-12-11", "13:00")),
        ("sexta-feira 3 pm", "pt_PT", at("2026-12-11", "15:00")),
        # a day of the month after its weekday stays one
        ("Friday 18th", "en_US", at("2026-12-18")),
        ("sexta 18", "pt_PT", at("2026-12-18")),
    ],
)
def test_a_number_after_a_weekday_with_am_pm_or_oclock_is_its_hour(text, region, due):
    """ "Friday 1 pm" is Friday at 13:00, not Friday the 1st."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("compra facas no 13º dia de maio", "pt_PT", at("2027-05-13")),
        ("10º dia de março", "pt_BR", at("2027-03-10")),
        ("gasta dinheiro no maio dia 13", "pt_PT", at("2027-05-13")),
        ("el 13º día de mayo", "es_ES", at("2027-05-13")),
        ("mayo día 13", "es_ES", at("2027-05-13")),
    ],
)
def test_the_nth_day_of_a_month_and_a_month_then_its_day(text, region, due):
    """ "o 13º dia de maio", "maio dia 13", "mayo día 13": 13 May (not the 13th of this month)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("morgen um 4 Uhr 15", "de_DE", at("2026-12-06", "04:15")),
        ("Montag um 7 Uhr 30", "de_DE", at("2026-12-07", "07:30")),
        ("demain à 4h et quart", "fr_FR", at("2026-12-06", "04:15")),
        ("lundi à 7h moins le quart", "fr_FR", at("2026-12-07", "06:45")),
        ("amanhã às 4h e meia", "pt_PT", at("2026-12-06", "04:30")),
        ("mañana a las 7h y cuarto", "es_ES", at("2026-12-06", "07:15")),
        # its part of the day still says which half
        ("morgen um 8 Uhr 30 abends", "de_DE", at("2026-12-06", "20:30")),
        ("demain à 3h et quart de l'après-midi", "fr_FR", at("2026-12-06", "15:15")),
    ],
)
def test_an_hour_marked_on_the_24_hour_clock_keeps_it_with_minutes_after(text, region, due):
    """ "4 Uhr", "4h" are 04:00; so are they with minutes after them ("4 Uhr 15", "4h et quart"),
    not 16:15 as "4 and a quarter" alone."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("mercredi à 7 heures", at("2026-12-09", "07:00")),
        ("jeudi à 3 heures 45", at("2026-12-10", "03:45")),
        ("demain à 4 heures et quart", at("2026-12-06", "04:15")),
        ("lundi à 19 heures", at("2026-12-07", "19:00")),
        ("demain à 3 heures de l'après-midi", at("2026-12-06", "15:00")),
    ],
)
def test_french_heures_after_an_hour_in_figures_is_the_24_hour_clock_as_h_is(text, due):
    when = find_when(text, SATURDAY, region="fr_FR")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("heute Abend um 8 Uhr", "de_DE", at("2026-12-05", "20:00")),
        ("ce soir à 8h", "fr_FR", at("2026-12-05", "20:00")),
        ("ce soir à 8 heures 30", "fr_FR", at("2026-12-05", "20:30")),
        ("esta noite às 9h", "pt_PT", at("2026-12-05", "21:00")),
        ("esta noche a las 9h", "es_ES", at("2026-12-05", "21:00")),
    ],
)
def test_a_marked_hour_tonight_is_the_evenings(text, region, due):
    """ "heute Abend um 8 Uhr" is 20:00: the evening says which half of the day, as it does for
    "tonight at 8"."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "minutes"),
    [
        ("dans 1 heure et quart", "fr_FR", 75),
        ("dans une heure trente", "fr_FR", 90),
        ("dans 2 heures moins 12", "fr_FR", 108),
        ("dans 3 heures moins le quart", "fr_FR", 165),
        ("in 1 Stunde 30", "de_DE", 90),
        ("in einer Stunde und zwanzig", "de_DE", 80),
        ("in einer dreiviertel Stunde", "de_DE", 45),
        ("daqui a 1 hora e um quarto", "pt_PT", 75),
        ("dentro de 2 horas menos 10", "es_ES", 110),
    ],
)
def test_minutes_said_after_an_amount_of_hours_count(text, region, minutes):
    """ "dans 1 heure et quart" is 75 minutes from now, as "dans 1h15" is (not one hour)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(minutes=minutes), when and when.due
    # a count of something else after the hours is not their minutes
    people = find_when("dans 2 heures 5 personnes", SATURDAY, region="fr_FR")
    assert people is not None and people.due == SATURDAY + timedelta(hours=2)


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("visite 2 semaines et 6 jours après samedi", "fr_FR", at("2027-01-01")),
        ("1 an et 2 mois après le 3 mars", "fr_FR", at("2028-05-03")),
        ("Besuch 2 Wochen und 6 Tage nach Samstag", "de_DE", at("2027-01-01")),
        ("2 semanas e 3 dias depois de amanhã", "pt_PT", at("2026-12-23")),
        ("2 semanas y 3 días después del sábado", "es_ES", at("2026-12-29")),
    ],
)
def test_several_amounts_count_from_the_day_named_after_them(text, region, due):
    """ "2 semaines et 6 jours après samedi" is 20 days after the next Saturday, not 6."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Friseurtermin 5 Tage von heute", at("2026-12-10")),
        ("2 Tage von Freitag", at("2026-12-13")),
        ("Geburtstag 5 Jahre von heute", at("2031-12-05")),
        # "von ... bis" is a range, not a step from its first day
        ("Urlaub 3 Wochen von Montag bis Freitag", at("2026-12-07")),
    ],
)
def test_german_von_a_day_after_an_amount_counts_from_that_day(text, due):
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("am 2ten Juni", at("2027-06-02")),
        ("Abgabe am 21sten März", at("2027-03-21")),
        ("der 3te Mai", at("2027-05-03")),
        ("Treffen am 8ten um 10 Uhr", at("2026-12-08", "10:00")),
    ],
)
def test_a_german_ordinal_in_figures_with_its_ending_is_the_day(text, due):
    """ "am 2ten Juni" is "am 2. Juni" written with the ordinal's ending."""
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("appeler Ana cette nuit", "fr_FR", at("2026-12-05", "22:00")),
        ("demain dans la nuit", "fr_FR", at("2026-12-06", "22:00")),
        ("à 3h de la nuit", "fr_FR", at("2026-12-06", "03:00")),
        ("Ana anrufen heute Nacht", "de_DE", at("2026-12-05", "22:00")),
    ],
)
def test_the_night_as_a_part_of_the_day(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("une bonne nuit de sommeil", SATURDAY, region="fr_FR") is None


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("tonight at 2am", "en_GB"),
        ("heute Nacht um 2 Uhr", "de_DE"),
        ("à 2h cette nuit", "fr_FR"),
    ],
)
def test_the_small_hours_of_tonight_said_by_day_are_the_night_ahead(text, region):
    """Said at 10:00, "tonight at 2am" is the coming night's 02:00, not this morning's (gone)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == at("2026-12-06", "02:00"), when and when.due
    early = find_when(text, SATURDAY.replace(hour=1), region=region)
    assert early is not None and early.due == at("2026-12-05", "02:00"), early and early.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Jeu 15:12", "fr_FR", at("2026-12-10", "15:12")),
        ("rdv chez le dentiste mer. à 15h", "fr_FR", at("2026-12-09", "15:00")),
        ("rdv chez le dentiste mer. à 15h", "en_GB", at("2026-12-09", "15:00")),  # French words
        ("lun. 10h30", "fr_FR", at("2026-12-07", "10:30")),
        ("dîner ven 20h", "fr_FR", at("2026-12-11", "20:00")),
        # not a day: an English text, or one without French words for an English writer; a count
        ("call Sam at 5pm", "fr_FR", at("2026-12-05", "17:00")),
        ("dim the lights at 8", "fr_FR", at("2026-12-05", "20:00")),
        ("Jeu 15:12", "en_GB", at("2026-12-05", "15:12")),
    ],
)
def test_french_weekday_short_forms_are_days_in_a_french_text(text, region, due):
    """ "jeu", "mer", "sam", "dim" are also a game, the sea, a name and an English word: a day only
    before a time or a day number, in a text whose words are French (without any telling, when the
    person writes dates in French)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("le jeu 3 fois", SATURDAY, region="fr_FR") is None


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("5.8. - 16.8.2025", "de_DE", at("2025-08-05")),
        ("Samstag 5.8. - Mittwoch 16.8.2028", "de_DE", at("2028-08-05")),
        ("Urlaub 22.12. bis 3.1.2028", "de_DE", at("2027-12-22")),
        ("du 5/8 au 16/8/2028", "fr_FR", at("2028-08-05")),
        ("de 22/12 a 3/1/2028", "pt_PT", at("2027-12-22")),
        ("8/5 - 8/16/2028", "en_US", at("2028-08-05")),
    ],
)
def test_a_numeric_dates_range_start_takes_the_year_written_at_its_end(text, region, due):
    """ "5.8. - 16.8.2025" starts on 5 August 2025 (not the next 5 August); a range into the next
    year starts in the year before its end's."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Flug am 15.04. um 7:45", "de_DE", at("2027-04-15", "07:45")),
        ("vuelo el 15/04 a las 7:45", "es_ES", at("2027-04-15", "07:45")),
        ("voo dia 15/04 às 7:45", "pt_PT", at("2027-04-15", "07:45")),
        ("vol le 15/04 à 7:45", "fr_FR", at("2027-04-15", "07:45")),
        ("consulta amanhã às 4:30", "pt_BR", at("2026-12-06", "04:30")),
        # a part of the day still says which half
        ("morgen um 7:45 abends", "de_DE", at("2026-12-06", "19:45")),
        ("heute Abend um 7:45", "de_DE", at("2026-12-05", "19:45")),
        # typed on the 12-hour clock: English even where forms print 24 hours, and es_MX
        ("flight 15/04 at 7:45", "en_GB", at("2027-04-15", "19:45")),
        ("flight 04/15 at 7:45", "en_US", at("2027-04-15", "19:45")),
        ("vuelo el 15/04 a las 7:45", "es_MX", at("2027-04-15", "19:45")),
    ],
)
def test_a_clock_in_figures_is_as_written_where_the_24_hour_clock_is(text, region, due):
    """Where the region writes the 24-hour clock (Babel's short time pattern), "7:45" is 07:45, as
    "19:45" is the evening's; not the afternoon a bare hour with a day is elsewhere."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("lundi en huit", at("2026-12-14")),
        ("samedi en huit", at("2026-12-12")),  # said on a Saturday: a week today
        ("réunion jeudi en 8 à 15h", at("2026-12-17", "15:00")),
        ("dimanche en quinze", at("2026-12-20")),
        ("samedi en 15", at("2026-12-19")),
    ],
)
def test_a_weekday_eight_or_fifteen_days_on_is_a_week_or_two_after_it(text, due):
    """ "lundi en huit" is the Monday a week after the coming one (a week today when said on that
    weekday), "en quinze" two weeks after; they were the coming Monday."""
    when = find_when(text, SATURDAY, region="fr_FR")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("renouveler le passeport en mars", "fr_FR", at("2027-03-01")),
        ("au mois de mars", "fr_FR", at("2027-03-01")),
        ("le mois de mars", "fr_FR", at("2027-03-01")),
        ("bilan mars 2027", "fr_FR", at("2027-03-01")),
        ("renovar o passaporte em março", "pt_PT", at("2027-03-01")),
        ("renew the passport in march", "en_US", at("2027-03-01")),
        # not months: a short form after a lead, a word without one
        ("a drawing by jan", "en_US", None),
        ("the scratch mars the table", "en_US", None),
    ],
)
def test_a_months_whole_name_that_is_also_a_word_is_a_month_after_its_lead_or_before_its_year(
    text, region, due
):
    """A month's name that is another word too ("mars", "março", "march") was a month only beside
    a day number or with a capital: "en mars" and "mars 2027" were nothing."""
    when = find_when(text, SATURDAY, region=region)
    assert (when and when.due) == due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("le premier week-end de septembre", "fr_FR", at("2027-09-04")),
        ("le deuxième week-end d'octobre", "fr_FR", at("2027-10-09")),
        ("the last weekend of May", "en_US", at("2027-05-29")),
        ("o primeiro fim de semana de setembro", "pt_PT", at("2027-09-04")),
        ("el último fin de semana de mayo", "es_ES", at("2027-05-29")),
        ("das erste Wochenende im September", "de_DE", at("2027-09-04")),
    ],
)
def test_the_nth_weekend_of_a_month_is_its_saturday(text, region, due):
    """A weekend is its Saturday, so the first weekend of September is its first Saturday; it was
    this weekend, the 1st or the 21st ("end" in "week-end de septembre")."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("à la fin du mois de mars", "fr_FR"),
        ("no fim do mês de março", "pt_PT"),
        ("end of the month of March", "en_US"),
    ],
)
def test_the_end_of_the_month_of_a_named_month_is_that_months(text, region):
    """ "fin du mois de mars" was the end of this month, the month named after it dropped."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == at("2027-03-31", "18:00"), when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("à partir du 8", at("2026-12-08")),
        ("à partir du 15 à 10h", at("2026-12-15", "10:00")),
        ("congés du 13 au 18", at("2026-12-13")),
        ("le bus du 8h", at("2026-12-06", "08:00")),  # an hour, not a day
    ],
)
def test_french_du_before_a_bare_number_is_a_day(text, due):
    """ "à partir du 8" was nothing, "à partir du 15 à 10h" today at 15:00, "du 13 au 18" today
    from 13:00 to 18:00."""
    when = find_when(text, SATURDAY, region="fr_FR")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Mo.", "de_DE", at("2026-12-07")),
        ("Zahnarzt Fr. 14 Uhr", "de_DE", at("2026-12-11", "14:00")),
        ("Zahnarzt Fr. 14 Uhr", "en_GB", at("2026-12-11", "14:00")),  # German words: "Uhr"
        ("Termin am Do.", "de_DE", at("2026-12-10")),
        ("So. 10:30 Brunch", "de_DE", at("2026-12-06", "10:30")),
        ("Elternabend Di, 19 Uhr", "de_DE", at("2026-12-08", "19:00")),
        ("Di 9:30 Physio", "de_DE", at("2026-12-08", "09:30")),
        # not a day: "so" the word, "Fr." Frau, a dot that ends a sentence
        ("so gegen 15 Uhr vorbeikommen", "de_DE", at("2026-12-05", "15:00")),
    ],
)
def test_german_weekday_short_forms_are_days_with_their_dot_or_before_a_time(text, region, due):
    """ "Mo.", "Fr. 14 Uhr", "am Do.": the short forms written with their dot (or a comma) are days
    before a time or a day number, after "am", or as the whole text; without it only before a time,
    and never "so" ("so gegen 15 Uhr" is about three)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("Fr. Müller anrufen", SATURDAY, region="de_DE") is None
    assert find_when("Das machen wir so.", SATURDAY, region="de_DE") is None
    assert find_when("Mo.", SATURDAY, region="en_GB") is None  # no German word, an English writer


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("15:20 am Nachmittag", "de_DE", at("2026-12-05", "15:20")),
        ("um 3 am Nachmittag", "de_DE", at("2026-12-05", "15:00")),
        ("Konzert um 19:30 am Fr, 11. Dez.", "de_DE", at("2026-12-11", "19:30")),
        ("Anruf 8:15 am Montag", "de_DE", at("2026-12-07", "08:15")),
        ("um 9 am 20. Dezember", "de_DE", at("2026-12-20", "09:00")),
        # the English mark stays one
        ("call at 7 am", "en_GB", at("2026-12-06", "07:00")),
        ("flight at 6 am on the 20th", "en_GB", at("2026-12-20", "06:00")),
    ],
)
def test_german_am_before_a_day_or_a_part_of_it_is_the_preposition_not_a_morning(text, region, due):
    """ "am" after a clock is the German "on the" before what it leads (a weekday, a part of the day,
    a day number): "15:20 am Nachmittag" is 15:20, "um 19:30 am Fr" is the evening."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "hm"),
    [
        ("Samstag am frühen Morgen", "07:00"),
        ("Samstag frühmorgens", "07:00"),
        ("Samstag bei Tagesanbruch", "06:00"),
        ("Samstag im Morgengrauen", "06:00"),
        ("Samstag am frühen Vormittag", "08:00"),
        ("Samstag nach dem Mittagessen", "13:00"),
        ("Samstag spätnachmittags", "18:00"),
        ("Samstag um 5 am späten Nachmittag", "17:00"),
    ],
)
def test_german_early_and_late_parts_of_the_day_and_dawn(text, hm):
    """ "am frühen Morgen" is the morning's start (07:00, as "early morning"), dawn 06:00, "nach
    dem Mittagessen" 13:00; "frühen" before "Morgen" makes it the morning, not tomorrow."""
    when = find_when(text, WEDNESDAY, region="de_DE")
    assert when is not None and when.due == at("2026-12-12", hm), when and when.due
    early = find_when("Joggen am frühen Morgen", WEDNESDAY.replace(hour=5), region="de_DE")
    assert early is not None and early.due == at("2026-12-09", "07:00"), early and early.due
    assert find_when("Ich komme später", WEDNESDAY, region="de_DE") is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("in zweieinhalb Stunden", SATURDAY + timedelta(minutes=150)),
        ("in drei ein halb Stunden", SATURDAY + timedelta(minutes=210)),
        ("in eineinhalb Std.", SATURDAY + timedelta(minutes=90)),
        ("in 2 Std", SATURDAY + timedelta(hours=2)),
        ("in einer Stunde und eine Viertelstunde", SATURDAY + timedelta(minutes=75)),
        ("in drei Viertelstunden", SATURDAY + timedelta(minutes=45)),
        ("in zirka 20 Minuten", SATURDAY + timedelta(minutes=20)),
        ("in knapp einer halben Stunde", SATURDAY + timedelta(minutes=30)),
        ("in fast zwei Wochen", at("2026-12-19")),
    ],
)
def test_german_halves_quarter_hours_and_hedged_amounts_from_now(text, due):
    """ "zweieinhalb" (the half glued to its number), "Std.", "Viertelstunde" as a unit, and the
    hedges before an amount ("zirka", "knapp", "fast"): the amount from now."""
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("übernächsten Montag", at("2026-12-14")),
        ("Zahnarzt übernächsten Samstag um 10", at("2026-12-19", "10:00")),
        ("Donnerstag nach dem nächsten", at("2026-12-17")),
        ("übernächste Woche", at("2026-12-14")),
        ("übernächsten Monat", at("2027-02-01")),
        ("übernächsten März", at("2028-03-01")),
    ],
)
def test_german_the_one_after_next(text, due):
    """ "übernächsten Montag" is a week after next Monday; "übernächste Woche" the week after next
    week, "übernächsten März" the March after the coming one."""
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Urlaub 07.-10.01.2027", at("2027-01-07")),
        ("Messe 3.-5.3.", at("2027-03-03")),
        ("Kurs 14.-16.12. um 9 Uhr", at("2026-12-14", "09:00")),
    ],
)
def test_german_day_numbers_joined_by_a_dash_to_a_date_start_a_range(text, due):
    """ "07.-10.08.2027": the range is due on its first day, as "07. - 10.08.2027" is."""
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Stiefel putzen am Nikolaustag", at("2026-12-06")),
        ("Weihnachtstag bei Oma", at("2026-12-25")),
    ],
)
def test_german_st_nicholas_and_christmas_day(text, due):
    when = find_when(text, SATURDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due
    assert find_when("Nikolaus anrufen", SATURDAY, region="de_DE") is None  # a name


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("dentista sex 15h", "pt_PT", at("2026-12-11", "15:00")),
        ("consulta seg. às 10", "pt_BR", at("2026-12-07", "10:00")),
        ("jantar sáb 12 dez", "pt_PT", at("2026-12-12")),
        ("missa dom 11h", "pt_PT", at("2026-12-06", "11:00")),
        ("cita con el médico jue 16:30", "es_ES", at("2026-12-10", "16:30")),
        ("reunión mié. a las 10", "es_ES", at("2026-12-09", "10:00")),
        ("cena vie 21h", "es_ES", at("2026-12-11", "21:00")),
        ("lun 9:15 entrega del informe", "es_ES", at("2026-12-07", "09:15")),
        # not a day: an English text, the sea
        ("call dom at 5pm", "en_GB", at("2026-12-05", "17:00")),
        ("vamos al mar a las 10", "es_ES", at("2026-12-05", "22:00")),
    ],
)
def test_portuguese_and_spanish_weekday_short_forms_are_days_in_a_text_of_theirs(text, region, due):
    """ "sex", "dom", "qua", "vie" are other words too: a short weekday is a day only before a time or
    a day number, in a text written in its language; Spanish "mar" stays the sea."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("sex", SATURDAY, region="pt_PT") is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("reunião 2ª feira às 10", at("2026-12-07", "10:00")),
        ("dentista na 6ª-feira", at("2026-12-11")),
        ("aula 4ª f. às 18h", at("2026-12-09", "18:00")),
        ("na próxima 3ª feira", at("2026-12-08")),
    ],
)
def test_a_portuguese_weekday_written_with_its_ordinal(text, due):
    """ "2ª feira" is Monday, "6ª f." Friday; "a 2ª vez" alone is the second time."""
    when = find_when(text, SATURDAY, region="pt_PT")
    assert when is not None and when.due == due, when and when.due
    assert find_when("é a 2ª vez que ligo", SATURDAY, region="pt_PT") is None


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("voo amanhã às 4 da madrugada", "pt_PT", at("2026-12-06", "04:00")),
        ("no dia 9 às 6 da madrugada", "pt_BR", at("2026-12-09", "06:00")),
        ("el lunes a las 5 de la madrugada", "es_ES", at("2026-12-07", "05:00")),
        ("salida el día 9 a las 3 de la madrugada", "es_ES", at("2026-12-09", "03:00")),
        ("partimos amanhã de madrugada", "pt_PT", at("2026-12-06", "05:00")),
    ],
)
def test_the_small_hours_before_dawn_are_the_morning(text, region, due):
    """ "da madrugada", "de la madrugada": the hours before dawn, never the afternoon a bare hour
    with a day is; alone, 05:00."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("jantar amanhã às oito menos um quarto", "pt_PT", at("2026-12-06", "07:45")),
        ("comboio segunda às nove menos dez", "pt_PT", at("2026-12-07", "08:50")),
        ("tren mañana a las ocho menos cuarto", "es_ES", at("2026-12-06", "07:45")),
        ("cita el lunes a las nueve menos diez", "es_ES", at("2026-12-07", "08:50")),
        ("train demain à huit heures moins le quart", "fr_FR", at("2026-12-06", "07:45")),
        # the hour said is of the afternoon with a day, a part of the day says which, alone its next
        ("amanhã às sete menos um quarto", "pt_PT", at("2026-12-06", "18:45")),
        ("mañana a la una menos cuarto", "es_ES", at("2026-12-06", "12:45")),
        ("amanhã às oito menos um quarto da noite", "pt_PT", at("2026-12-06", "19:45")),
        ("a las ocho menos cuarto", "es_ES", at("2026-12-05", "19:45")),
    ],
)
def test_minutes_before_an_hour_in_words_are_on_the_half_of_the_day_of_the_hour_said(text, region, due):
    """ "amanhã às oito" is 08:00, so "amanhã às oito menos um quarto" is 07:45, not 19:45: the hour
    said, not the one before it, says which half of the day."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("o último dia de outubro de 2028", "pt_PT", at("2028-10-31")),
        ("a primeira sexta-feira de março de 2028", "pt_BR", at("2028-03-03")),
        ("el último día de febrero del 2028", "es_ES", at("2028-02-29")),
        ("el primer lunes de mayo de 2028", "es_ES", at("2028-05-01")),
    ],
)
def test_a_position_in_a_month_of_a_year_joined_by_its_word(text, region, due):
    """ "de 2028", "del 2028" after the month: that year's, not the coming one."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("ligar à Ana imediatamente", "pt_PT"),
        ("pagar a renda neste momento", "pt_BR"),
        ("llamar al banco inmediatamente", "es_ES"),
        ("en este preciso momento", "es_ES"),
    ],
)
def test_now_in_portuguese_and_spanish_words_is_this_moment_in_a_short_text(text, region):
    """ "imediatamente", "neste momento", "en este momento": now, as "agora" and "ahora" are; in a
    longer sentence a word of it ("neste momento a Ana vive no Porto")."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY, when and when.due
    assert find_when("neste momento a Ana vive no Porto", SATURDAY, region="pt_PT") is None


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("renovar o cartão em março", "pt_PT", at("2027-03-01")),
        ("pagar o IRS até março", "pt_BR", at("2027-03-01")),
    ],
)
def test_a_month_that_is_another_word_unaccented_is_a_month_with_its_accent(text, region, due):
    """ "março" folds to "marco" (a landmark; "Marco" a name): written with its "ç" it is the month,
    lower case too; without it, only capitalised."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    for plain in ("jantar com o marco em casa", "o marco da estrada"):
        assert find_when(plain, SATURDAY, region=region) is None, plain


@pytest.mark.parametrize(
    ("text", "region", "minutes"),
    [
        ("llámame dentro de 1/4 de hora", "es_ES", 15),
        ("salimos en 3/4 de hora", "es_ES", 45),
        ("ligo-te daqui a 1/2 hora", "pt_PT", 30),
        ("o táxi chega em 3/4 de hora", "pt_BR", 45),
    ],
)
def test_a_fraction_of_an_hour_in_figures_is_minutes_not_a_date(text, region, minutes):
    """ "1/4 de hora" is a quarter of an hour from now, not the 1st of April."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(minutes=minutes), when and when.due
    assert find_when("reunión el 3/4 a las 10", SATURDAY, region=region).due == at("2027-04-03", "10:00")


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("rendez-vous chez le notaire dans huit jours", "fr_FR", at("2026-12-12")),
        ("relancer le client dans quinze jours", "fr_FR", at("2026-12-19")),
        ("entregar o relatório daqui a oito dias", "pt_PT", at("2026-12-12")),
        ("voltar ao médico daqui a quinze dias", "pt_PT", at("2026-12-19")),
        ("revisión dentro de quince días", "es_ES", at("2026-12-19")),
        ("Termin beim Amt in acht Tagen", "de_DE", at("2026-12-12")),
        ("quinze dias depois de amanhã", "pt_PT", at("2026-12-20")),  # two weeks after tomorrow
        # counted: in figures, in another number, in English, German fifteen
        ("voltar daqui a 15 dias", "pt_PT", at("2026-12-20")),
        ("dans trois jours", "fr_FR", at("2026-12-08")),
        ("in eight days", "en_GB", at("2026-12-13")),
        ("in fünfzehn Tagen", "de_DE", at("2026-12-20")),
    ],
)
def test_eight_and_fifteen_days_in_words_are_one_and_two_weeks_where_people_count_so(text, region, due):
    """ "dans huit jours", "daqui a quinze dias", "in acht Tagen": a week and two weeks, the day
    itself counted, as "tous les quinze jours" already repeats every two weeks; they were read as
    eight and fifteen days."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "seconds"),
    [
        ("check the oven in half a minute", "en_GB", 30),
        ("ping me in 1/2 a minute", "en_US", 30),
        ("stand-up in 1/2 an hour", "en_US", 1800),
        ("tirar o bolo daqui a meio minuto", "pt_PT", 30),
        ("apagar el fuego en medio minuto", "es_ES", 30),
        ("Nudeln abgießen in einer halben Minute", "de_DE", 30),
        ("retourner la crêpe dans une demi-minute", "fr_FR", 30),
    ],
)
def test_half_a_minute_or_an_hour_said_as_one_phrase_is_that_long_from_now(text, region, seconds):
    """ "half a minute", "meio minuto", "einer halben Minute", "une demi-minute" are 30 seconds, as
    "half an hour" is 30 minutes; "1/2 a minute" is no date (the 2nd of January)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(seconds=seconds), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "seconds"),
    [
        ("call back in 3 and a 1/2 hours", "en_US", 3.5 * 3600),
        ("leave in an hour and a quarter", "en_GB", 75 * 60),
        ("the train is in an hour and three quarters", "en_GB", 105 * 60),
        ("desligar o forno daqui a 7 minutos e meio", "pt_PT", 450),
        ("sair daqui a duas horas e três quartos", "pt_PT", 165 * 60),
        ("sacar el pan en 12 minutos y medio", "es_ES", 750),
        ("salir en dos horas y tres cuartos", "es_ES", 165 * 60),
    ],
)
def test_a_half_or_quarters_after_an_amount_and_its_unit_count(text, region, seconds):
    """The half after a masculine unit ("7 minutos e meio", "12 minutos y medio"), and the quarters
    after hours in English and in "tres cuartos" were dropped: now part of the amount."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(seconds=seconds), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "seconds"),
    [
        ("in 2 hours and a quarter and 20 seconds", "en_GB", 8120),
        ("in 4 minutes and half a minute", "en_US", 270),
        ("daqui a 2 horas e um quarto, e 40 segundos", "pt_PT", 8140),
        ("daqui a uma hora e 10 minutos e meio", "pt_BR", 4230),
        ("en 3 horas y cuarto, y 5 segundos", "es_ES", 11705),
        ("en una hora y media y medio minuto", "es_ES", 5430),
        ("dans 1 heure et quart et 15 secondes", "fr_FR", 4515),
        ("in 1 Stunde 20 Minuten und eine halbe Minute", "de_DE", 4830),
    ],
)
def test_amounts_after_a_quarter_a_half_or_a_fraction_still_count(text, region, seconds):
    """A duration goes on after "and a quarter", after a half or with a fraction of a unit; the
    seconds at its end were dropped."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(seconds=seconds), when and when.due


def test_a_number_of_days_after_hours_is_no_minutes_of_those_hours():
    """ "and 3 days" after hours is more of the step, never 3 minutes."""
    when = find_when("in 2 hours and 3 days", SATURDAY, region="en_GB")
    assert when is not None and when.due != SATURDAY + timedelta(hours=2, minutes=3), when.due
    people = find_when("in 2 hours and 5 people", SATURDAY, region="en_GB")
    assert people is not None and people.due == SATURDAY + timedelta(hours=2), people.due


@pytest.mark.parametrize(
    ("text", "region", "seconds"),
    [
        ("a quarter of an hour", "en_GB", 900),
        ("meia hora", "pt_PT", 1800),
        ("media hora", "es_ES", 1800),
        ("eine halbe Stunde", "de_DE", 1800),
        ("anderthalb Stunden", "de_DE", 5400),
        ("une demi-heure", "fr_FR", 1800),
        ("half an hour and 5 minutes", "en_US", 2100),
    ],
)
def test_a_text_that_is_only_a_fraction_of_an_hour_is_that_long_from_now(text, region, seconds):
    """As "5 minutes" and "una hora" alone are: "meia hora", "une demi-heure" were nothing."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(seconds=seconds), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "seconds"),
    [
        ("sortir les pâtes dans 9 min 30", "fr_FR", 570),
        ("Eier raus in 4 Minuten 30", "de_DE", 270),
        ("in anderthalb Minuten", "de_DE", 90),
        ("tirar o café daqui a 3 minutos e 20", "pt_PT", 200),
        ("in 6 minutes 45", "en_GB", 405),
    ],
)
def test_seconds_after_an_amount_of_minutes_count(text, region, seconds):
    """ "dans 9 min 30" is nine and a half minutes, as "dans 1 heure 30" is 90 minutes; a count of
    something else after the minutes is not their seconds."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == SATURDAY + timedelta(seconds=seconds), when and when.due
    people = find_when("dans 3 minutes 4 personnes", SATURDAY, region="fr_FR")
    assert people is not None and people.due == SATURDAY + timedelta(minutes=3), people.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("consulta qui, 16h", "pt_PT", at("2026-12-10", "16:00")),
        ("jantar sex. 8pm", "pt_BR", at("2026-12-11", "20:00")),
        ("reunión jue., 11:30", "es_ES", at("2026-12-10", "11:30")),
        ("cena vie, 9 PM", "es_MX", at("2026-12-11", "21:00")),
        ("Termin Mi., 4 PM", "de_DE", at("2026-12-09", "16:00")),
        ("rdv jeu., 14h", "fr_FR", at("2026-12-10", "14:00")),
        ("dîner ven, 7 pm", "fr_CA", at("2026-12-11", "19:00")),
        # not a day: an English text's word beside an English clock
        ("call dom at 5pm", "pt_PT", at("2026-12-05", "17:00")),
    ],
)
def test_a_short_weekday_with_a_comma_or_before_an_am_pm_clock_is_that_day(text, region, due):
    """Calendars print "dom., 3PM", "So., 3PM", "jeu., 14h": the comma after a short weekday, and am/pm
    after its hour in a text of another language than English, still make it the day."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("2027-abr-22", "pt_PT", at("2027-04-22")),
        ("2027-Apr-22 10:00", "en_US", at("2027-04-22", "10:00")),
        ("vacunas 2027-dic-03", "es_ES", at("2027-12-03")),
        ("2027/mai/06", "fr_FR", at("2027-05-06")),
        ("2027 Apr 22", "en_GB", at("2027-04-22")),
    ],
)
def test_a_year_then_a_months_short_name_and_its_day_joined_by_dashes(text, region, due):
    """ "2027-Apr-22", as logs and some calendars print a date: the year, the month's name, the day."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("vaccin le 9 3 27", "fr_FR", at("2027-03-09")),
        ("le 18 06 à 14h", "fr_FR", at("2027-06-18", "14:00")),
        ("passeport à renouveler le 23 11.", "fr_CA", at("2027-11-23")),
        ("visite 21 09 2027", "fr_FR", at("2027-09-21")),
        ("contrôle technique le 05 01 2028, 9h", "fr_CH", at("2028-01-05", "09:00")),
    ],
)
def test_a_day_and_month_apart_with_spaces_as_french_writes_them(text, region, due):
    """ "le 9 3 27", "21 09 2027": a day, a month and a year apart; with a four-figure year, or after
    "le" at the end of a clause (before a time or a comma), in the region's order."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text",
    [
        "appeler le cabinet au 01 45 67 89 10",
        "appeler le 06 12 34 56 78",
        "virement le 20 000 euros",
        "il a gagné le 3 2 contre Lyon",
        "note 12 15 sur 20",
        "à 10 30",
    ],
)
def test_figures_apart_that_are_a_phone_number_an_amount_or_a_score_are_no_date(text):
    when = find_when(text, SATURDAY, region="fr_FR")
    assert when is None or when.due.date() == SATURDAY.date(), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due", "title"),
    [
        # a range of weekdays: due on the first, no word of the range left in the title
        ("yoga retreat from Tuesday through Thursday", "en_US", at("2026-12-08"), "Yoga retreat"),
        ("fair Thu - Sat", "en_GB", at("2026-12-10"), "Fair"),
        ("feira de terça a quinta", "pt_PT", at("2026-12-08"), "Feira"),
        ("feria del martes al jueves", "es_ES", at("2026-12-08"), "Feria"),
        ("Messe von Dienstag bis Donnerstag", "de_DE", at("2026-12-08"), "Messe"),
        ("salon du mardi au jeudi", "fr_FR", at("2026-12-08"), "Salon"),
        # a range of days of a month, its end a day alone
        ("trip from Jan 20 to the 24th", "en_US", at("2027-01-20"), "Trip"),
        ("course from March 2 - 6", "en_US", at("2027-03-02"), "Course"),
        # a range of clocks, its end with its mark; from noon or midnight
        ("dentista amanhã das 14h às 16h", "pt_PT", at("2026-12-06", "14:00"), "Dentista"),
        ("dentiste demain de 14h à 16h", "fr_FR", at("2026-12-06", "14:00"), "Dentiste"),
        ("shift tomorrow from midnight to noon", "en_US", at("2026-12-06", "00:00"), "Shift"),
    ],
)
def test_the_end_of_a_range_leaves_the_title_with_its_start(text, region, due, title):
    """The whole range leaves the reminder's title; its start is when it is due."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert title_without(text, when, None) == title


@pytest.mark.parametrize(
    ("text", "region", "title"),
    [
        ("dinner Friday - 4 people", "en_US", "Dinner - 4 people"),
        ("call Ana on Monday to discuss the budget", "en_US", "Call Ana to discuss the budget"),
        ("jantar na sexta a 4 pessoas", "pt_PT", "Jantar a 4 pessoas"),
    ],
)
def test_a_number_or_a_word_after_a_day_is_no_range_end(text, region, title):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and title_without(text, when, None) == title


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("reunião das 15 às 17", at("2026-12-05", "15:00")),
        ("consulta amanhã das 9 às 11", at("2026-12-06", "09:00")),
    ],
)
def test_portuguese_das_opens_a_range_of_bare_hours_due_at_its_start(text, due):
    when = find_when(text, SATURDAY, region="pt_PT")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        # the n-th weekday of next or this month, "of" left out or in its article
        ("book club the second Thursday next month", "en_US", at("2027-01-14")),
        ("review last Tuesday this month", "en_GB", at("2026-12-29")),
        ("clube do livro na segunda quinta-feira do próximo mês", "pt_PT", at("2027-01-14")),
        ("revisão na última terça-feira deste mês", "pt_PT", at("2026-12-29")),
        ("club de lectura el segundo jueves del próximo mes", "es_ES", at("2027-01-14")),
        ("club de lecture le deuxième jeudi du mois prochain", "fr_FR", at("2027-01-14")),
    ],
)
def test_the_nth_weekday_of_next_or_this_month_without_of(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        # a day of next month, "of" left out or in its article, or the month said first
        ("rent 30th next month", "en_US", at("2027-01-30")),
        ("next month on the 3rd: renew the passport", "en_GB", at("2027-01-03")),
        ("renda dia 30 do próximo mês", "pt_PT", at("2027-01-30")),
        ("alquiler el 30 del mes que viene", "es_ES", at("2027-01-30")),
        ("loyer le 30 du mois prochain", "fr_FR", at("2027-01-30")),
    ],
)
def test_a_day_of_next_month_without_of(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"), [("room 12 next month", "en_US"), ("sala 12 do próximo mês", "pt_PT")]
)
def test_a_number_alone_before_next_month_is_no_day_of_it(text, region):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == at("2027-01-01"), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("backup 20261222T1030", "en_US", at("2026-12-22", "10:30")),
        ("Lieferung 20261222T083015Z bestätigt", "de_DE", at("2026-12-22", "08:30")),
        ("export 20261222T1430+0100", "fr_FR", at("2026-12-22", "13:30")),
        ("registo 20261222T101500.25-0300", "pt_PT", at("2026-12-22", "13:15")),
        ("copia 20261222T0130-0500", "es_ES", at("2026-12-22", "06:30")),
        ("log 20261222T21:26:01.123456", "en_GB", at("2026-12-22", "21:26")),
    ],
)
def test_a_timestamp_in_iso_basic_form_is_its_date_and_clock_in_its_zone(text, region, due):
    """ "20261222T1030" (ISO 8601's basic form, as logs and calendar files write it): the date and
    the clock, to the minute, in the zone written after it."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due.replace(second=0, microsecond=0) == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("order 20261222 shipped", "en_US"),
        ("pedido 202612221030", "pt_PT"),
        ("Rechnung 20261222T10 offen", "de_DE"),
        ("ref 20261222T1030X", "fr_FR"),
    ],
)
def test_a_run_of_figures_without_its_clock_after_a_t_is_no_date(text, region):
    when = find_when(text, SATURDAY, region=region)
    assert when is None or when.due.date() == SATURDAY.date(), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("renew the passport 2027 04 22", "en_US", at("2027-04-22")),
        ("renovar passaporte 2027 04 22", "pt_PT", at("2027-04-22")),
        ("cita 2027 04 22 a las 10:00", "es_ES", at("2027-04-22", "10:00")),
        ("Termin 2027 04 22 um 10:30", "de_DE", at("2027-04-22", "10:30")),
        ("rdv 2027 04 02 à 10h", "fr_FR", at("2027-04-02", "10:00")),
    ],
)
def test_a_year_month_and_day_apart_with_spaces_in_that_order(text, region, due):
    """ "2027 04 22": year, month and day apart, as forms and logs print them; read the same in
    every region."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("dentist 04 09 27", "en_US", at("2027-04-09")),
        ("dentist 04 09 27", "en_GB", at("2027-09-04")),
        ("consulta 22 04 27", "pt_BR", at("2027-04-22")),
        ("vacuna 05 11 27", "es_ES", at("2027-11-05")),
        ("Zahnarzt 22 04 27 um 10 Uhr", "de_DE", at("2027-04-22", "10:00")),
        ("vaccin 09 03 27", "fr_FR", at("2027-03-09")),
    ],
)
def test_a_day_month_and_two_figure_year_apart_with_a_leading_zero(text, region, due):
    """ "04 09 27": day, month and year apart, two figures each, as forms print them: the region's
    order, as with slashes."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("17 02", "en_US"),
        ("17 02", "pt_PT"),
        ("Ana chegou 17 02", "pt_BR"),
        ("llegó 17 02", "es_ES"),
        ("Zug 17 02", "de_DE"),
        ("arrivée 17 02", "fr_FR"),
        ("final score 11 09", "en_GB"),
        ("ganhou 3 1 ontem", "pt_PT"),
        ("ligar 21 345 67 89", "pt_PT"),
        ("call 06 12 34 56 78", "en_GB"),
        ("paid 11 09 11 09", "en_US"),
        ("transferencia 20 000", "es_ES"),
        ("Konto 11 09 2 000", "de_DE"),
    ],
)
def test_a_day_and_month_apart_alone_a_phone_number_an_amount_or_a_score_are_no_date(text, region):
    """ "17 02" with nothing around it is a clock in a message, a score or part of a number more
    often than a date: no date without a year (or French "le" at a clause's end)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is None or when.due.date() == SATURDAY.date(), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("jantar 9:15 noite", "pt_PT", at("2026-12-05", "21:15")),
        ("reunião 4:20 tarde", "pt_BR", at("2026-12-05", "16:20")),
        ("cena 9 noche", "es_ES", at("2026-12-05", "21:00")),
        ("cena 8:40 noche", "es_AR", at("2026-12-05", "20:40")),
        ("Termin 4:45 nachm.", "de_AT", at("2026-12-05", "16:45")),
        ("Termin 5 nachm.", "de_CH", at("2026-12-05", "17:00")),
        ("rendez-vous 8 soir", "fr_CH", at("2026-12-05", "20:00")),
        ("appel 5 après-midi", "fr_FR", at("2026-12-05", "17:00")),
        ("train 4:10 de l'ap.m.", "fr_CH", at("2026-12-05", "16:10")),
    ],
)
def test_a_day_period_written_after_a_clock_says_its_half_of_the_day(text, region, due):
    """The day periods regional formats write after a clock ("tarde", "nachm.", "du soir"), with
    or without their article, read as the part of the day they name."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("Zug 12:15 nachts", "de_DE"),
        ("comboio 12:15 madrugada", "pt_PT"),
        ("train 12:15 at night", "en_GB"),
        ("vol 12 h 15 du mat.", "fr_CA"),
    ],
)
def test_twelve_with_its_minutes_at_night_is_after_midnight(text, region):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == at("2026-12-06", "00:15"), when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("cita 4:50 p. m.", "es_ES", at("2026-12-05", "16:50")),
        ("cita 11 a. m.", "es_CO", at("2026-12-05", "11:00")),
        ("rendez-vous 7 h p.m.", "fr_CA", at("2026-12-05", "19:00")),
        ("rendez-vous 12 h a.m.", "fr_CA", at("2026-12-06", "00:00")),
    ],
)
def test_am_and_pm_as_regional_formats_write_them(text, region, due):
    """Spanish "a. m."/"p. m." (with a space), and a mark after Quebec's "7 h"."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("consulta quinta, 16:40", "pt_PT", at("2026-12-10", "16:40")),
        ("reunião segunda, às 9h", "pt_BR", at("2026-12-07", "09:00")),
        ("jantar terça, 20:30", "pt_PT", at("2026-12-08", "20:30")),
    ],
)
def test_a_portuguese_weekday_word_with_a_comma_before_its_clock_is_the_day(text, region, due):
    """ "segunda", "quinta", "sexta" are days before a clock (they are also "second", "farm",
    "sixth"), and a comma between them, as calendars print it, changes nothing."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        # a list of days, each with its time: due at the first, as said
        ("call the bank today at noon and tomorrow at 9", "en_US", at("2026-12-05", "12:00")),
        ("dentist tomorrow at noon and Tuesday at 9am", "en_US", at("2026-12-06", "12:00")),
        ("ligar ao banco hoje ao meio-dia e amanhã às 9h", "pt_PT", at("2026-12-05", "12:00")),
        ("natación mañana a las 18 y el jueves a las 19", "es_ES", at("2026-12-06", "18:00")),
        ("Bank anrufen heute um 12 Uhr und morgen um 9 Uhr", "de_DE", at("2026-12-05", "12:00")),
        ("appeler la banque aujourd'hui à midi et demain à 9h", "fr_FR", at("2026-12-05", "12:00")),
        # a time said once for the list, and one day with its time after "and": read whole
        ("guitar Monday and Wednesday at 4pm", "en_US", at("2026-12-07", "16:00")),
        ("call Ana tomorrow and Rui at 5", "en_US", at("2026-12-06", "17:00")),
    ],
)
def test_a_list_of_days_is_due_at_its_first(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due", "title"),
    [
        # the start a bare hour, the end with its minutes: due at the start, not at the end
        ("physio Monday 4-5:15", "en_GB", at("2026-12-07", "16:00"), "Physio"),
        ("piano tomorrow 8-9:45", "en_US", at("2026-12-06", "08:00"), "Piano"),
        # either clock with its hour letter ("14h", "15h45"), after "from" or joined by a dash
        ("fisioterapia segunda das 16h às 17h15", "pt_PT", at("2026-12-07", "16:00"), "Fisioterapia"),
        ("piano amanhã 9h-10h45", "pt_BR", at("2026-12-06", "09:00"), "Piano"),
        ("fisioterapia el lunes de 16h a 17h15", "es_ES", at("2026-12-07", "16:00"), "Fisioterapia"),
        ("kiné lundi de 16h à 17h15", "fr_FR", at("2026-12-07", "16:00"), "Kiné"),
        ("piano demain 9h15-10h", "fr_FR", at("2026-12-06", "09:15"), "Piano"),
        ("Physio Montag von 16 bis 17:15 Uhr", "de_DE", at("2026-12-07", "16:00"), "Physio"),
    ],
)
def test_a_range_of_clocks_whose_end_has_minutes_is_due_at_its_start(text, region, due, title):
    """A meeting "10-11:30" or "das 10h às 11h30" starts at 10: the end's minutes never make the
    end the time, and the whole range leaves the title."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert title_without(text, when, None) == title


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("call at 8.13.14 pm", "en_US", at("2026-12-05", "20:13:14")),
        ("alarm 06.45.30 A.M.", "en_GB", at("2026-12-06", "06:45:30")),
        # two figures each, that could be a date (12 May 2030, 31 December 2013), before am/pm
        ("12.05.30 pm", "en_GB", at("2026-12-05", "12:05:30")),
        ("12.31.13 a.m.", "en_US", at("2026-12-06", "00:31:13")),
        ("a las 8.15.30 p. m.", "es_MX", at("2026-12-05", "20:15:30")),
        ("llamar 9.05.10 a. m.", "es_ES", at("2026-12-06", "09:05:10")),
    ],
)
def test_a_clock_with_dots_and_its_seconds_before_am_or_pm(text, region, due):
    """Three figures with dots before am/pm are a clock to the second, not a date."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("12.05.30", "en_GB", at("2030-05-12")),
        ("Termin 12.06.27 am Montag", "de_DE", at("2027-06-12")),
        ("rdv le 12.06.27", "fr_FR", at("2027-06-12")),
    ],
)
def test_three_figures_with_dots_without_am_or_pm_stay_a_date(text, region, due):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due


SUNDAY = datetime(2026, 12, 6, 10, 0, tzinfo=TZ)  # Sunday 6 December 2026, 10:00


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        # weeks from Sunday (CLDR's for the US, Brazil, Portugal, Mexico, Canada): today began this
        # week, next week's Wednesday is ten days on
        ("Wednesday of next week", "en_US", at("2026-12-16")),
        ("quarta da semana que vem", "pt_BR", at("2026-12-16")),
        ("el miércoles de la semana que viene", "es_MX", at("2026-12-16")),
        ("mercredi de la semaine prochaine", "fr_CA", at("2026-12-16")),
        # weeks from Monday: today ends this week, next week's Wednesday is three days on
        ("Wednesday of next week", "en_GB", at("2026-12-09")),
        ("el miércoles de la próxima semana", "es_ES", at("2026-12-09")),
        ("nächste Woche Mittwoch", "de_DE", at("2026-12-09")),
        ("mercredi de la semaine prochaine", "fr_FR", at("2026-12-09")),
    ],
)
def test_a_weekday_of_next_week_counts_weeks_as_the_region_does(text, region, due):
    when = find_when(text, SUNDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("consulta ter 19", "pt_PT", at("2027-01-19")),
        ("reunião qua., 20", "pt_BR", at("2027-01-20")),
        ("reunião sex., 15 às 10h", "pt_BR", at("2027-01-15", "10:00")),
        ("revisión vie 15", "es_ES", at("2027-01-15")),
        ("junta mié., 20", "es_MX", at("2027-01-20")),
        ("junta sáb 16 a las 11", "es_ES", at("2027-01-16", "11:00")),
        ("Termin Mi., 20.", "de_DE", at("2027-01-20")),
        ("Friseur Fr 15.", "de_AT", at("2027-01-15")),
        ("Termin Di. 19, um 9 Uhr", "de_CH", at("2027-01-19")),
        ("coiffeur mar. 19", "fr_FR", at("2027-01-19")),
        ("réunion jeu 14, à 10h", "fr_CA", at("2027-01-14", "10:00")),
        ("coiffeur mer. 20", "fr_BE", at("2027-01-20")),
    ],
)
def test_a_short_weekday_with_a_day_number_is_the_next_such_day(text, region, due):
    """ "jue 22", "Do., 22.", "ven. 11" as calendars print them: the next date with that day number
    that falls on that weekday (Tuesday the 19th is in January, not this December's Saturday), its
    words all taken."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert title_without(text, when, None) == text.split()[0].capitalize()


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("consulta qui., 14 de jan.", "pt_PT"),
        ("revisión jue 14 ene", "es_ES"),
        ("Termin Do., 14. Jan.", "de_DE"),
        ("coiffeur jeu. 14 janv.", "fr_FR"),
    ],
)
def test_a_short_weekday_before_a_date_with_its_month_is_taken_with_it(text, region):
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == at("2027-01-14") and when.ambiguous is None
    assert title_without(text, when, None) == text.split()[0].capitalize()
    # a weekday the date does not fall on leaves the date, said as doubtful
    friday = {"pt": "sex.,", "es": "vie", "de": "Fr.,", "fr": "ven."}[region[:2]]
    wrong = find_when(text.replace(text.split()[1], friday), SATURDAY, region=region)
    assert wrong is not None and wrong.due == at("2027-01-14") and wrong.ambiguous


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("vou ter 22 anos", "pt_PT"),  # "ter" (Tuesday) is "to have"
        ("dom 12 pessoas", "pt_BR"),  # "dom" (Sunday) is a gift
        ("el mar 22 grados", "es_ES"),  # the sea, not March nor martes
        ("dom 12 personas", "es_ES"),
        ("so 22 Leute", "de_DE"),  # "So" is Sunday only with its dot
        ("I do 22 pushups", "de_DE"),  # "Do" (Thursday) in an English text
        ("la mer 22 degrés", "fr_FR"),  # the sea, not mercredi
        ("le jeu 12 joueurs", "fr_FR"),  # a game, not jeudi
    ],
)
def test_a_short_weekday_that_is_another_word_before_a_number_among_words_stays_a_word(text, region):
    assert find_when(text, SATURDAY, region=region) is None


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("renovar o passaporte 32-01-15", "pt_PT", at("2032-01-15")),
        ("caduca 35-06-30", "es_MX", at("2035-06-30")),
        ("Ablauf 40-12-05 um 10 Uhr", "de_DE", at("2040-12-05", "10:00")),
        ("échéance 33-02-08", "fr_CA", at("2033-02-08")),
        ("échéance 33/11/28", "fr_FR", at("2033-11-28")),
        ("passport expires 34-11-05", "en_US", at("2034-11-05")),
    ],
)
def test_a_two_figure_year_first_that_no_day_or_month_can_be_is_the_year(text, region, due):
    """ "87-01-11" as fr_CA's short date writes it (yy-MM-dd): a first figure over 31 (or 00) can only
    be a year, so the date reads one way in every region; "90-60-90" names no month and stays no date."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due == due, when and when.due
    assert find_when("medidas 90-60-90", SATURDAY, region=region) is None


@pytest.mark.parametrize(
    "text,region,due",
    [
        ("piquenique na segunda-feira de Páscoa", "pt_PT", "2027-03-29"),
        ("excursión el lunes de Pentecostés", "es_ES", "2027-05-17"),
        ("pique-nique le lundi de Pentecôte", "fr_FR", "2027-05-17"),
        ("Ausflug am Pfingstmontag", "de_AT", "2027-05-17"),
        ("picnic on Whit Monday", "en_GB", "2027-05-17"),
    ],
)
def test_the_monday_after_a_movable_feast_is_that_monday_not_the_feast(text, region, due):
    """ "lundi de Pentecôte", "segunda-feira de Páscoa": the Monday, never the feast's Sunday the
    name holds ("Pentecôte" alone)."""
    when = find_when(text, SATURDAY, region=region)
    assert when is not None and when.due.date().isoformat() == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("le lendemain du 13 février", "fr_FR", at("2027-02-14")),
        ("dîner le lendemain de Noël", "fr_FR", at("2026-12-26")),
        ("la veille du 13 février", "fr_FR", at("2027-02-12")),
        ("le surlendemain du 13 février", "fr_FR", at("2027-02-15")),
        ("el día siguiente al 13 de febrero", "es_ES", at("2027-02-14")),
        ("el día después de Navidad", "es_ES", at("2026-12-26")),
        ("el día antes del 13 de febrero", "es_ES", at("2027-02-12")),
        ("o dia seguinte ao 13 de fevereiro", "pt_PT", at("2027-02-14")),
        ("no dia depois do Natal", "pt_PT", at("2026-12-26")),
        ("no dia anterior ao 13 de fevereiro", "pt_BR", at("2027-02-12")),
        ("am Tag nach Weihnachten", "de_DE", at("2026-12-26")),
        ("am Tag vor dem 13. Februar", "de_DE", at("2027-02-12")),
    ],
)
def test_the_day_after_or_before_a_day_is_one_step_from_it(text, region, due):
    """ "the day after Christmas" in every language: a step of one day from the day named after it
    (it was that day itself)."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("hoje à meia-noite e três", "pt_BR", at("2026-12-10", "00:03")),
        ("hoje à meia-noite e meia", "pt_PT", at("2026-12-10", "00:30")),
        ("hoy a las doce de la noche", "es_ES", at("2026-12-10", "00:00")),
        ("hoy a las doce y tres de la noche", "es_ES", at("2026-12-10", "00:03")),
        ("hoy a la medianoche y cuarto", "es_ES", at("2026-12-10", "00:15")),
        ("aujourd'hui à minuit et quart", "fr_FR", at("2026-12-10", "00:15")),
        ("heute um viertel nach zwölf in der Nacht", "de_DE", at("2026-12-10", "00:15")),
    ],
)
def test_minutes_after_the_midnight_of_today_are_after_the_midnight_today_ends_at(text, region, due):
    """ "today at midnight and three": the midnight today ends at, as "today at midnight" (they
    were read this morning's, gone)."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("bis Ende nächster Woche", at("2026-12-18", "18:00")),
        ("Ende dieser Woche", at("2026-12-11", "18:00")),
        ("Ende nächsten Monats", at("2027-01-31", "18:00")),
        ("Bericht bis Ende dieses Jahres", at("2026-12-31", "18:00")),
    ],
)
def test_the_end_of_this_or_next_period_without_an_article_in_german(text, due):
    """ "Ende nächster Woche" is the end of next week, as "Ende der nächsten Woche" (was next
    week's Monday, or nothing)."""
    when = find_when(text, WEDNESDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("Freitag in zwei Wochen", "de_DE", at("2026-12-25")),
        ("am Montag in einer Woche", "de_DE", at("2026-12-21")),
        ("morgen in zwei Wochen", "de_DE", at("2026-12-24")),
        ("vendredi dans deux semaines", "fr_FR", at("2026-12-25")),
        ("demain dans une semaine", "fr_FR", at("2026-12-17")),
        ("el viernes en dos semanas", "es_ES", at("2026-12-25")),
        ("mañana dentro de una semana", "es_ES", at("2026-12-17")),
        ("na sexta-feira daqui a duas semanas", "pt_PT", at("2026-12-25")),
        ("amanhã daqui a uma semana", "pt_BR", at("2026-12-17")),
    ],
)
def test_a_day_named_before_in_so_many_days_or_weeks_is_where_they_count_from(text, region, due):
    """ "Friday in two weeks": two weeks after the coming Friday (was two weeks from today, a
    Wednesday); "tomorrow in a week", the day after a week from now."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [("sexta desta semana", at("2026-12-11")), ("reunião quinta dessa semana", at("2026-12-10"))],
)
def test_a_short_portuguese_weekday_of_this_week_is_that_day(text, due):
    """ "sexta desta semana": "this week" says the short "sexta" is the day (was nothing), as
    "sexta que vem" or "sexta-feira desta semana" do."""
    when = find_when(text, WEDNESDAY, region="pt_BR")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "region", "due"),
    [
        ("signe le contrat 2 semaines après jeudi dernier", "fr_FR", at("2026-12-17")),
        ("2 Wochen nach letztem Donnerstag", "de_DE", at("2026-12-17")),
        ("dos semanas después del jueves pasado", "es_ES", at("2026-12-17")),
        ("duas semanas depois da última quinta-feira", "pt_PT", at("2026-12-17")),
        ("two weeks after last Thursday", "en_US", at("2026-12-17")),
    ],
)
def test_an_offset_from_a_past_weekday_counts_from_it(text, region, due):
    """ "2 weeks after last Thursday" (Thursday 3 December, said on Wednesday the 9th): from that
    Thursday (it counted from today), as "two weeks after yesterday" does."""
    when = find_when(text, WEDNESDAY, region=region)
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [("Freitag kommender Woche", at("2026-12-18")), ("bis Ende kommender Woche", at("2026-12-18", "18:00"))],
)
def test_kommender_is_next_as_kommende_and_naechster(text, due):
    """ "Freitag kommender Woche" was this week's Friday: "kommender" was no word of next."""
    when = find_when(text, WEDNESDAY, region="de_DE")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    ("text", "due"),
    [("mange l'an prochain", at("2027-01-01")), ("Noël l'an prochain", at("2027-12-25"))],
)
def test_l_an_prochain_is_next_year_as_l_annee_prochaine(text, due):
    """ "l'an prochain" was nothing ("an" is no year's word alone: English's article)."""
    when = find_when(text, WEDNESDAY, region="fr_FR")
    assert when is not None and when.due == due, when and when.due


@pytest.mark.parametrize(
    "text", ["festa no dia dos anos da Ana", "Dia dos Avós", "comprar prenda para o dia dos pais"]
)
def test_portuguese_dia_dos_is_the_day_of_the_not_the_second(text):
    """ "dia dos anos" (a birthday), "Dia dos Avós": "dos" is "of the" in Portuguese, Spanish's
    two only in a Spanish text (they were all 2 January)."""
    when = find_when(text, WEDNESDAY, region="pt_PT")
    assert when is None or when.due.day != 2, when and when.due


@pytest.mark.parametrize(
    "text,region",
    [
        ("end of story", "en_GB"),
        ("Ana said that was the end of it", "en_GB"),
        ("we watched the end of the film", "en_US"),
        ("am Ende des Films hat Ana geweint", "de_DE"),
        ("à la fin du film", "fr_FR"),
        ("no fim do filme", "pt_PT"),
        ("al final de la película", "es_ES"),
    ],
)
def test_the_end_of_something_that_is_no_day_is_no_time(text, region):
    """ "the end of" with no period and no day after it ("the end of it", "am Ende des Films") was
    today at 18:00, a note made a reminder; "the end of tomorrow", "end of day" still are."""
    assert find_when(text, SATURDAY, region=region) is None
    assert find_when("report by the end of tomorrow", SATURDAY, region="en_GB").due == at(
        "2026-12-06", "18:00"
    )
    assert find_when("finish it by end of day", SATURDAY, region="en_GB").due == at("2026-12-05", "18:00")
    assert find_when("en fin de journée", SATURDAY, region="fr_FR").due == at("2026-12-05", "18:00")
    assert find_when("bis zum Ende des Tages", SATURDAY, region="de_DE").due == at("2026-12-05", "18:00")
