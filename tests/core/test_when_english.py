"""English single instants as strangers write them (core/when/languages/en.py and the focused
readings of core/when/parse.py): each test a class of phrases, read at a Saturday morning."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from core.when import find_when, title_without

TZ = ZoneInfo("Europe/Lisbon")
SATURDAY = datetime(2026, 12, 5, 10, 0, tzinfo=TZ)


def at(day: str, hm: str = "09:00") -> datetime:
    return datetime.fromisoformat(f"{day}T{hm}").replace(tzinfo=TZ)


def read(text: str, region: str = "en_US") -> datetime | None:
    when = find_when(text, SATURDAY, region=region)
    return when.due if when else None


@pytest.mark.parametrize(
    "text,due",
    [
        ("ten thirty am", at("2026-12-05", "10:30")),
        ("seven thirty p.m.", at("2026-12-05", "19:30")),
        ("nine fifty nine a m", at("2026-12-06", "09:59")),
        ("call at three twenty", at("2026-12-05", "15:20")),
        ("tomorrow at seven forty-five pm", at("2026-12-06", "19:45")),
        ("at 3 15", at("2026-12-05", "15:15")),
        ("eleven fifteen am", at("2026-12-05", "11:15")),
        # not a clock: a day and month after the hour, minutes counted, people
        ("at 3 15 March", at("2027-03-15", "15:00")),
        ("dinner at 8 20 people", at("2026-12-05", "20:00")),
    ],
)
def test_an_hour_and_its_minutes_said_apart_in_words_or_figures(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("2027-04-22T10:30:00", at("2027-04-22", "10:30")),
        ("call 2027-04-22T08:05 about it", at("2027-04-22", "08:05")),
        ("2027-04-22T10:30:15", at("2027-04-22", "10:30:15")),
    ],
)
def test_an_iso_date_and_time_joined_by_t(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("end of next week", at("2026-12-11", "18:00")),  # its Friday
        ("by the end of next month", at("2027-01-31", "18:00")),
        ("end of the following month", at("2027-01-31", "18:00")),
        ("end of next year", at("2027-12-31", "18:00")),
        ("end of this month", at("2026-12-31", "18:00")),
    ],
)
def test_the_end_of_the_next_period(text, due):
    assert read(text) == due


def test_the_end_of_the_next_month_in_portuguese():
    assert read("fim do mês que vem", "pt_PT") == at("2027-01-31", "18:00")


@pytest.mark.parametrize(
    "text,region",
    [
        ("tonight at midnight", "en_US"),
        ("midnight tonight", "en_US"),
        ("call by midnight today", "en_US"),
        ("hoje à meia-noite", "pt_PT"),
        ("ce soir à minuit", "fr_FR"),
    ],
)
def test_midnight_today_is_the_one_that_ends_it(text, region):
    """Today's 00:00 is gone by the time anyone says it: the midnight of today or tonight is the
    one at its end."""
    assert read(text, region) == at("2026-12-06", "00:00")


@pytest.mark.parametrize(
    "text,due",
    [
        ("the second Tuesday of next month", at("2027-01-12")),
        ("the first Friday of next month at 10am", at("2027-01-01", "10:00")),
        ("the last day of next month", at("2027-01-31")),
        ("the last day of the year", at("2026-12-31")),
        ("the first day of the year", at("2027-01-01")),  # this year's is gone: the next one's
        ("the last Monday of next year", at("2027-12-27")),
        ("the last Friday of this month", at("2026-12-25")),
    ],
)
def test_a_day_as_a_part_of_this_or_the_next_month_or_year(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("tomorrow at ten", at("2026-12-06", "10:00")),
        ("the fifth of January at ten", at("2027-01-05", "10:00")),
        ("Friday at five", at("2026-12-11", "17:00")),
        ("meet tomorrow at two", at("2026-12-06", "14:00")),
        # not an hour: words after it, or no day said
        ("tomorrow look at two options", at("2026-12-06")),
        ("tomorrow at one point", at("2026-12-06")),
    ],
)
def test_an_hour_in_words_after_at_ends_the_text_after_its_day(text, due):
    """Every hour word reads alike ("at ten" as "at seven"), once a day is said before it and
    nothing follows; "at two options" stays words."""
    assert read(text) == due
    assert read("at two options") is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("an hour and a half from now", at("2026-12-05", "11:30")),
        ("in an hour and a half", at("2026-12-05", "11:30")),
        ("two hours and thirty minutes from now", at("2026-12-05", "12:30")),
        ("2 hours, 15 minutes from now", at("2026-12-05", "12:15")),
        ("1 day and 2 hours from now", at("2026-12-06", "12:00")),
        ("2 weeks and 3 days from now", at("2026-12-22")),
    ],
)
def test_every_amount_of_a_step_from_now_adds_up(text, due):
    """Not the last amount alone ("thirty minutes from now": 10:30) nor the first ("an hour")."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("the day after Christmas", at("2026-12-26")),
        ("the day before New Year's Eve", at("2026-12-30")),
        ("the week after Easter", at("2027-04-04")),
        ("the day after tomorrow at 5", at("2026-12-07", "17:00")),
    ],
)
def test_one_step_said_with_the_counts_from_the_day_named_after_it(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["I saw her the day after", "the day before the meeting"])
def test_one_step_said_with_the_and_no_day_after_it_is_no_time(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text,due",
    [
        # a weekday's name inside a feast's is the feast, not the coming weekday
        ("Cyber Monday", at("2027-11-29")),
        ("Ash Wednesday", at("2027-02-10")),
        ("Palm Sunday", at("2027-03-21")),
        ("Whit Monday", at("2027-05-17")),
        # fixed days of the year, and the US election's Tuesday
        ("April Fools' Day", at("2027-04-01")),
        ("Earth Day", at("2027-04-22")),
        ("Canada Day at noon", at("2027-07-01", "12:00")),
        ("Election Day", at("2027-11-02")),
        # other calendars' feasts, as the holidays package keeps them; not New Year's Day
        ("Lunar New Year", at("2027-02-06")),
        ("Chinese New Year", at("2027-02-06")),
        ("Diwali", at("2027-10-29")),
        ("Yom Kippur", at("2027-10-11")),
        ("Eid al-Fitr", at("2027-03-09")),
    ],
)
def test_feasts_by_their_english_names(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text", ["call the bank right now!", "I need to send the form right away", "pay the rent asap", "asap"]
)
def test_now_in_words_that_say_nothing_else_ending_a_text_of_any_length(text):
    assert read(text) == SATURDAY


@pytest.mark.parametrize(
    "text", ["Ana lives in Porto now and likes it", "right now I am reading a book about Lisbon"]
)
def test_now_inside_a_longer_sentence_is_a_word_of_it(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("tomorrow 0930 - 1045", at("2026-12-06", "09:30")),  # was 09:00
        ("19 dec 0930-1045", at("2026-12-19", "09:30")),
        ("meeting 1400-1500", at("2026-12-05", "14:00")),
        ("3-4p", at("2026-12-05", "15:00")),  # was 16:00
        ("10 - 11 at night", at("2026-12-05", "22:00")),  # was 23:00
    ],
)
def test_a_range_of_clocks_starts_at_its_first_in_the_half_its_end_says(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["from 2010 to 2015", "sales 2010-2015"])
def test_two_years_are_no_range_of_clocks(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("april fools at 5pm", at("2027-04-01", "17:00")),
        ("saint patricks day", at("2027-03-17")),
        ("all hallows eve", at("2027-10-31")),
        ("victoria day", at("2027-05-24")),
        ("canadian thanksgiving", at("2027-10-11")),  # not the US's, in November
        ("holy saturday", at("2027-03-27")),  # not the coming Saturday
        ("kwanzaa", at("2026-12-26")),
    ],
)
def test_feasts_as_people_type_them(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["tommorrow at 5", "tomorow at 5", "tommorow at 5"])
def test_tomorrow_misspelt_as_people_type_it(text):
    assert read(text) == at("2026-12-06", "17:00")


@pytest.mark.parametrize(
    "text,due",
    [
        ("end of april", at("2027-04-30", "18:00")),  # was today
        ("by the end of March", at("2027-03-31", "18:00")),
        ("end of April 2028", at("2028-04-30", "18:00")),
        ("at the end of December", at("2026-12-31", "18:00")),
    ],
)
def test_the_end_of_a_named_month_is_its_last_day(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("the 15th of next month at 3pm", at("2027-01-15", "15:00")),  # was 1 January
        ("on the tenth of next month", at("2027-01-10")),
        ("the 20th of this month", at("2026-12-20")),
    ],
)
def test_a_day_of_this_or_next_month_by_its_number(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("December 25 next year", at("2027-12-25")),  # not this 25 December
        ("the 31st of December next year at 10am", at("2027-12-31", "10:00")),
        ("on 20 December of next year", at("2027-12-20")),
    ],
)
def test_a_date_said_next_year_is_in_the_next_year(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("3 years, 2 weeks and 5 days", at("2029-12-24")),
        ("3 years 2 weeks 5 days", at("2029-12-24")),
        ("+2 months, 5 days", at("2027-02-10")),
        ("1 hour 30 minutes", at("2026-12-05", "11:30")),
    ],
)
def test_a_text_that_is_only_a_duration_of_several_amounts(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("4pm + 3 days", at("2026-12-08", "16:00")),
        ("next tuesday +10 days", at("2026-12-18")),
        ("2027-01-29 -10days", at("2027-01-19")),
        ("now + 40minutes", at("2026-12-05", "10:40")),
        # no step: a phone number, a range of amounts
        ("call +351 912 000 999 tomorrow", at("2026-12-06")),
        ("table for 3 - 4 days from tomorrow", at("2026-12-10")),
    ],
)
def test_a_step_written_with_its_sign_moves_the_time_before_it(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,title",
    [("call Ana ten thirty am", "Call Ana"), ("call Ana seven thirty pm tomorrow", "Call Ana")],
)
def test_a_clock_in_words_leaves_none_of_its_words_in_the_title(text, title):
    when = find_when(text, SATURDAY, region="en_US")
    assert when is not None and title_without(text, when, None) == title


@pytest.mark.parametrize(
    "text,due",
    [
        ("tomorrow after work", at("2026-12-06", "18:00")),
        ("at dinner tomorrow", at("2026-12-06", "19:00")),
        ("in the early morning", at("2026-12-06", "07:00")),
        ("tomorrow late afternoon", at("2026-12-06", "17:00")),
        ("at 8 late morning", at("2026-12-06", "08:00")),  # was 20:00
        ("Friday after lunch", at("2026-12-11", "13:00")),
        ("late at night", at("2026-12-05", "22:00")),
    ],
)
def test_parts_of_the_day_by_meals_work_and_early_or_late(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("Dec 25 '27", at("2027-12-25")),  # not this 25 December
        ("Dec 25, '28 at 3pm", at("2028-12-25", "15:00")),
        ("25 Dec ’27", at("2027-12-25")),
    ],
)
def test_two_figures_after_an_apostrophe_are_the_year(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("at 17-59", at("2026-12-05", "17:59")),  # was 17:00
        ("5-59 pm", at("2026-12-05", "17:59")),
        ("at 5-30 pm", at("2026-12-05", "17:30")),
    ],
)
def test_an_hour_and_minutes_joined_by_a_hyphen(text, due):
    assert read(text) == due
    assert read("12-31") is None  # no hour has such minutes without "at" or pm: no clock


@pytest.mark.parametrize(
    "text,due",
    [
        ("tomorrow this afternoon", at("2026-12-06", "15:00")),  # was today's
        ("Friday this afternoon at 3", at("2026-12-11", "15:00")),
        ("this morning tomorrow", at("2026-12-06", "09:00")),
        ("this afternoon", at("2026-12-05", "15:00")),
    ],
)
def test_this_part_of_the_day_beside_another_day_is_that_days(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("the week after next", at("2026-12-14")),  # its Monday
        ("the month after next", at("2027-02-01")),
        ("the week after Easter", at("2027-04-04")),  # a step from a day, still
    ],
)
def test_the_week_or_month_after_next(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("6 months hence", at("2027-06-05")),
        ("3 fortnights hence", at("2027-01-16")),
        ("20 minutes hence", at("2026-12-05", "10:20")),
        ("3w later", at("2026-12-26")),
        ("3mo later", at("2027-03-05")),
        ("in 2 w", at("2026-12-19")),
        ("1w", at("2026-12-12")),
    ],
)
def test_an_amount_hence_and_weeks_and_months_in_one_or_two_letters(text, due):
    """ "N units hence" is N units from now, as "from now" and "later" are; "w" and "mo" are weeks
    and months as "d" and "y" are days and years."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("2027-04-22T13:00:00+03:00", at("2027-04-22", "11:00")),  # Lisbon is UTC+1 in April
        ("2027-04-22T08:00:00-04:00", at("2027-04-22", "13:00")),
        ("2027-01-10 16:11:35 -0500", at("2027-01-10", "21:11:35")),
        ("call on 2027-07-01 at 3pm UTC", at("2027-07-01", "16:00")),
        ("2027-04-22T12:00:00Z", at("2027-04-22", "13:00")),
        # an abbreviation of a zone stays as written: several zones share most of them
        ("call at 3pm CST", at("2026-12-05", "15:00")),
    ],
)
def test_a_time_written_with_its_offset_or_utc_is_that_moment_here(text, due):
    """ "13:00+03:00", "16:11:35 -0500", "3pm UTC": the moment that is, in the person's zone."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("The Deadline is 2028 March 18", at("2028-03-18")),
        ("2029 May 22nd", at("2029-05-22")),
        ("2030, Jan 3 at 10", at("2030-01-03", "10:00")),
    ],
)
def test_a_year_written_before_its_month_and_day(text, due):
    """ "2028 March 18": that date, not next 18 March."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("dentist thursday 8 in the morning", at("2026-12-10", "08:00")),
        ("call the plumber Tuesday 3 in the afternoon", at("2026-12-08", "15:00")),
        ("Sunday 10 in the evening, check the oven", at("2026-12-06", "22:00")),
        # a day of the month still: nothing of the clock after the number
        ("Monday 21 dentist", at("2026-12-21")),
        ("Monday the 21st in the morning", at("2026-12-21")),
    ],
)
def test_a_number_after_a_weekday_with_a_part_of_the_day_is_its_hour(text, due):
    """ "Thursday 8 in the morning" is Thursday at 08:00, as "Thursday 8 am" is, not the 8th."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("pick up Ana at 5 to 4 pm", at("2026-12-05", "15:55")),
        ("bus @ 25 to 7pm", at("2026-12-05", "18:35")),
        # without "at" a range still starts at its first hour
        ("gym from 10 to 3 pm", at("2026-12-06", "10:00")),
        ("shop open 11 to 5pm", at("2026-12-05", "11:00")),
    ],
)
def test_minutes_to_an_hour_in_figures_after_at_are_no_range(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("tonight at 1 feed the baby", at("2026-12-06", "01:00")),
        ("this evening at 4:15 the train leaves", at("2026-12-06", "04:15")),
        ("tonight at 5", at("2026-12-05", "17:00")),
        ("tonight at 11", at("2026-12-05", "23:00")),
    ],
)
def test_tonights_small_hours_are_the_night_ahead(text, due):
    """ "tonight at 2" is 02:00 of the night ahead (14:00 is no night); from 5 it is the evening."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("tmr pay rent", at("2026-12-06")),
        ("this upcoming Thursday", at("2026-12-10")),
        ("the upcoming Monday at 9", at("2026-12-07", "09:00")),
        ("the final Friday in January", at("2027-01-29")),
        ("tomorrow at mid-night", at("2026-12-06", "00:00")),
    ],
)
def test_more_english_words_for_tomorrow_the_coming_day_the_last_and_midnight(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("renew the lease march 2028", at("2028-03-01")),
        ("trip in april 2027", at("2027-04-01")),
        ("taxes due this April", at("2027-04-01")),
        ("dentist the 3rd of march in the year 2028", at("2028-03-03")),
        ("Jan 5 in 2028", at("2028-01-05")),
        ("the day after next at 6pm", at("2026-12-07", "18:00")),
        ("day after next", at("2026-12-07")),
    ],
)
def test_a_month_with_its_year_this_month_and_the_day_after_next(text, due):
    """A year in figures makes "march" a month ("may" still needs its capital); "this April" is
    the coming April's 1st, as "in April"; "in the year 2028" is the date's year; "the day after
    next" is the day after tomorrow."""
    assert read(text) == due


@pytest.mark.parametrize("text", ["this December", "may 2027 be good", "the day after"])
def test_this_month_begun_a_verb_and_a_step_from_no_day_are_no_time(text):
    assert read(text) is None


def test_figures_with_a_leading_zero_are_no_amount_of_hours():
    """ "0600h" is a soldier's six o'clock, never 600 hours from now."""
    due = read("0600h")
    assert due is None or due.date() <= at("2026-12-06").date()


@pytest.mark.parametrize(
    "text,due",
    [
        ("leave 20 minutes before 4", at("2026-12-05", "15:40")),
        ("call 5 minutes before 11", at("2026-12-05", "10:55")),
        ("a quarter before 3 feed the cat", at("2026-12-05", "14:45")),
    ],
)
def test_minutes_before_a_bare_hour_are_that_many_to_it(text, due):
    """ "20 minutes before 4" is 15:40, as "20 to 4" is (an hour without am/pm, as "at 4")."""
    assert read(text) == due


@pytest.mark.parametrize("text", ["15 minutes before the meeting", "remind me 10 minutes before"])
def test_minutes_before_no_time_are_no_time(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("wed", at("2026-12-09")),
        ("tue.", at("2026-12-08")),
        ("tue 3pm", at("2026-12-08", "15:00")),
        ("call Ana sun 11am", at("2026-12-06", "11:00")),
        ("sat 9:30", at("2026-12-12", "09:30")),
    ],
)
def test_a_short_weekday_that_is_another_word_is_a_day_alone_or_before_a_clock(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["we sat by the fire", "the sun is out", "sun cream"])
def test_a_short_weekday_among_other_words_is_still_a_word(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("@2", at("2026-12-05", "14:00")),
        ("lunch @1", at("2026-12-05", "13:00")),
        ("standup tomorrow @9am", at("2026-12-06", "09:00")),
    ],
)
def test_an_at_sign_glued_to_the_hour_is_at(text, due):
    assert read(text) == due


def test_an_at_sign_inside_a_word_is_no_time():
    assert read("write to me@3") is None


@pytest.mark.parametrize(
    "text,due",
    [
        ("day after christmas", at("2026-12-26")),
        ("dinner day after friday at 8pm", at("2026-12-12", "20:00")),
        ("day after new year's day", at("2027-01-02")),
        ("day after tmrw", at("2026-12-07")),
    ],
)
def test_the_day_after_a_named_day_without_its_article(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["day after day", "I worked on it day after day", "12/19 - day after"])
def test_day_after_no_day_named_after_it_is_no_step(text):
    when = find_when(text, SATURDAY, region="en_US")
    assert when is None or when.due == at("2026-12-19")


@pytest.mark.parametrize(
    "text,due",
    [
        ("exam in three weeks from tomorrow", at("2026-12-27")),
        ("in 2 days after Friday", at("2026-12-13")),
        # a range after the amount keeps "in 3 weeks" from now
        ("in 3 weeks from Monday to Friday", at("2026-12-26")),
    ],
)
def test_in_before_an_offset_from_a_named_day_counts_from_that_day(text, due):
    assert read(text) == due


def test_in_before_an_offset_is_left_out_of_the_title():
    when = find_when("exam in three weeks from tomorrow", SATURDAY, region="en_US")
    assert title_without("exam in three weeks from tomorrow", when, None) == "Exam"


@pytest.mark.parametrize(
    "text,due",
    [
        ("today 3-5", at("2026-12-05", "15:00")),
        ("meeting friday 2-4", at("2026-12-11", "14:00")),
        ("dinner tomorrow 7 - 9", at("2026-12-06", "19:00")),
    ],
)
def test_a_range_of_bare_hours_right_after_its_day_starts_at_the_first(text, due):
    assert read(text) == due


@pytest.mark.parametrize("text", ["the score was 3-5", "5-6 people", "today 5-3"])
def test_bare_hours_with_no_day_before_them_or_backwards_are_no_range(text):
    when = find_when(text, SATURDAY, region="en_US")
    assert when is None or (when.due.hour, when.due.minute) == (9, 0)


@pytest.mark.parametrize(
    "text,due",
    [
        ("wake up at dawn", at("2026-12-06", "06:00")),
        ("run tomorrow at sunrise", at("2026-12-06", "06:00")),
    ],
)
def test_dawn_and_sunrise_are_early_morning(text, due):
    assert read(text) == due


@pytest.mark.parametrize(
    "text,title",
    [
        ("Christmas is on December 25th.", "Christmas"),
        ("the party is tonight", "The party"),
        ("taxes are due on April 15", "Taxes are due"),
        ("standup tomorrow @9am", "Standup"),
    ],
)
def test_a_copula_or_at_sign_left_hanging_by_the_date_leaves_the_title(text, title):
    when = find_when(text, SATURDAY, region="en_US")
    assert title_without(text, when, None) == title


@pytest.mark.parametrize(
    "text,due",
    [
        ("the first week of October", at("2027-10-01")),
        ("renew the passport the second week of january", at("2027-01-08")),
        ("in the third week of December", at("2026-12-15")),
        ("the 4th week of March 2028", at("2028-03-22")),
    ],
)
def test_a_week_of_a_month_is_due_on_its_first_day(text, due):
    assert read(text) == due


def test_a_week_of_something_else_is_no_time():
    assert read("the first week of the course") is None


@pytest.mark.parametrize("text", ["12/19 - day after tom", "party 12/19, day after"])
def test_a_date_before_day_after_that_names_no_day_is_still_read(text):
    assert read(text) == at("2026-12-19")


# said at 10:00 on each day of the week of Sunday 6 December 2026: this week's Friday is the 11th
WEEK = {
    name: datetime(2026, 12, 6 + n, 10, 0, tzinfo=TZ)
    for n, name in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))
}


@pytest.mark.parametrize(
    "said,region,friday",
    [
        # en_US weeks begin on Sunday: said on a Sunday, this week's Friday is still ahead
        ("sun", "en_US", "2026-12-18"),
        ("sun", "en_GB", "2026-12-11"),  # en_GB's begin on Monday: Sunday ends the week
        *(
            (day, region, "2026-12-18")
            for day in ("mon", "tue", "wed", "thu")
            for region in ("en_US", "en_GB")
        ),
        # not ahead this week (said on the Friday itself, or the Saturday): the coming one
        *((day, region, "2026-12-18") for day in ("fri", "sat") for region in ("en_US", "en_GB")),
    ],
)
@pytest.mark.parametrize("clock", ["", " at 3pm"])
def test_next_weekday_while_this_weeks_is_ahead_is_next_weeks(said, region, friday, clock):
    when = find_when(f"dentist next Friday{clock}", WEEK[said], region=region)
    assert when is not None and when.due == at(friday, "15:00" if clock else "09:00")


@pytest.mark.parametrize("said", ["sun", "mon", "tue", "wed", "thu"])
@pytest.mark.parametrize("region", ["en_US", "en_GB"])
@pytest.mark.parametrize("text", ["this Friday", "Friday", "on Friday", "this coming Friday"])
@pytest.mark.parametrize("clock", ["", " at 3pm"])
def test_this_weekday_and_a_bare_weekday_stay_the_coming_one(said, region, text, clock):
    when = find_when(f"dentist {text}{clock}", WEEK[said], region=region)
    assert when is not None and when.due == at("2026-12-11", "15:00" if clock else "09:00")


@pytest.mark.parametrize(
    "text,said,due",
    [
        ("next Saturday", "fri", "2026-12-19"),  # tomorrow is this week's: next week's
        ("next Monday", "fri", "2026-12-14"),  # this week's Monday is gone: the coming one
        ("next Sunday", "sat", "2026-12-13"),
        ("next wed at 9am", "mon", "2026-12-16"),
        # a week after the coming one, as Duckling and rustling read it: said Monday to
        # Thursday, the same day as "next Friday"
        ("Friday after next", "mon", "2026-12-18"),
        ("Friday after next", "sat", "2026-12-25"),
    ],
)
def test_next_weekday_on_other_days(text, said, due):
    when = find_when(text, WEEK[said], region="en_US")
    assert when is not None and when.due == at(due, "09:00")


@pytest.mark.parametrize(
    "text,due",
    [
        ("dentist tues at 9am", at("2026-12-08", "09:00")),
        ("call Ana thurs at 3pm", at("2026-12-10", "15:00")),
        ("weds at 5pm", at("2026-12-09", "17:00")),
        ("meeting next thurs at 10:30", at("2026-12-10", "10:30")),  # said on a Saturday
    ],
)
def test_a_short_weekday_that_ends_as_a_plural_does_is_one_day(text, due):
    """ "tues", "weds", "thurs" are Tuesday, Wednesday and Thursday, not "Tuesdays": one reminder."""
    when = find_when(text, SATURDAY, region="en_US")
    assert when is not None and when.due == due and when.rrule is None


@pytest.mark.parametrize("text,rule", [("gym Tuesdays at 7pm", "TU"), ("Thursdays at 6", "TH")])
def test_a_plural_weekday_with_a_time_still_repeats(text, rule):
    when = find_when(text, SATURDAY, region="en_US")
    assert when is not None and when.rrule == f"FREQ=WEEKLY;BYDAY={rule}"


@pytest.mark.parametrize(
    "text", ["we sat 22 people at the table", "the sun 10 times brighter", "wed 12 couples this year"]
)
def test_a_weekday_that_is_another_word_before_a_number_among_words_stays_a_word(text):
    """ "sat", "sun", "wed" before a number a noun follows are words; before a day number that ends
    its clause or a time, the day ("dentist sat 16", "sun 17, 10am")."""
    assert find_when(text, SATURDAY, region="en_US") is None
    assert find_when("dentist sat 16", SATURDAY, region="en_US").due == at("2027-01-16")
    assert find_when("dentist sun 17, 10am", SATURDAY, region="en_GB").due == at("2027-01-17", "10:00")


@pytest.mark.parametrize(
    "text,due",
    [
        ("Something at 10:00 sep 17th", at("2027-09-17", "10:00")),
        ("at 10:30 sep 17", at("2027-09-17", "10:30")),
        ("call at 9:15 december 23rd", at("2026-12-23", "09:15")),
        ("14:00 jan 5", at("2027-01-05", "14:00")),
    ],
)
def test_a_clocks_minutes_are_no_day_of_the_month_after_them(text, due):
    """ "10:30 sep 17" is 17 September at 10:30, not the 30th at 10:17."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text,due",
    [
        ("pay rent 17th", at("2026-12-17")),
        ("Lorem Ipsum 2nd", at("2027-01-02")),
        ("dentist 17th at 10:00", at("2026-12-17", "10:00")),
        ("dentist at 10:00 17th", at("2026-12-17", "10:00")),
        ("invoice due 31st.", at("2026-12-31")),
    ],
)
def test_an_ordinal_alone_ending_its_clause_is_that_day_of_the_month(text, due):
    """A figure with its ordinal's letters, at the end of its clause or before a time, is the next
    such day; before a noun it stays a word ("2nd floor", "5th time")."""
    assert read(text) == due


@pytest.mark.parametrize(
    "text",
    [
        "Renovation - 2nd Floor Bath",
        "Remark - 13th floor",
        "13th floor - remark",
        "my 5th time here",
        "Ana came 3rd.",
        "he finished 2nd",
        "it was her 40th",
        "our team ended 3rd.",
        "she won 1st at the fair",
    ],
)
def test_an_ordinal_before_a_noun_is_no_day(text):
    assert find_when(text, SATURDAY, region="en_US") is None


@pytest.mark.parametrize(
    "text,due",
    [("Friday in two weeks", at("2026-12-25")), ("tomorrow in a week", at("2026-12-13"))],
)
def test_a_day_named_before_in_so_many_weeks_is_where_they_count_from(text, due):
    """ "Friday in two weeks" is two weeks after the coming Friday (was two weeks from today)."""
    assert read(text) == due
