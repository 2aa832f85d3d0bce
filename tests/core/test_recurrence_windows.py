"""A question's window over a recurring series (core/remind/series.py: `Series.between`) finds what
the plain walk from the series' start finds (`walked_between`), on series we did not write: every
recurring series of the calendar corpus (tests/corpus/, read by our importer) and every repeat the
date grammar reads from the repeat judges (tests/core/when_corpus/repeats/), over windows before,
at and long after their start, across changes of the clock, at month ends and on leap days. And
the walk does not grow with the series' age (dateutil's work counted, never timed)."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from dateutil import rrule as dateutil_rrule

from core import remind
from core.interop import ical
from core.model import InvalidInput
from core.remind import Override, Series
from core.remind.series import (
    _numbered,
    latest_not_after,
    next_after,
    next_occurrence,
    occurrence_between,
    parse_time,
    walked_between,
)
from core.when import find_when
from tests.corpus import check

REPEATS = Path(__file__).parent / "when_corpus" / "repeats"
LISBON = ZoneInfo("Europe/Lisbon")
# Rules by the hour or finer are walked from their start either way: their windows stay near it.
FINE = ("FREQ=HOURLY", "FREQ=MINUTELY", "FREQ=SECONDLY")
YEAR = timedelta(days=365)


@cache
def corpus_series() -> list[tuple[str, Series, datetime]]:
    """(what, series, due) of every recurring series our importer reads from the corpus."""
    return list(_corpus_series())


def _corpus_series() -> Iterator[tuple[str, Series, datetime]]:
    for path in check.files():
        if path.suffix.lower() != ".ics":
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            entries = ical.read(path.read_bytes(), check.NOW)
        for item in entries:
            if not isinstance(item, ical.Item):
                continue
            try:
                series = Series.of(item.attrs)
                due = parse_time(item.attrs.get("due_at") or item.attrs.get("dtstart"))
            except InvalidInput:
                continue
            if series is not None and due is not None:
                yield f"{path.name} {item.uid}", series, due


def repeat_series(name: str) -> Iterator[tuple[str, Series, datetime]]:
    """(what, series, due) of every repeat the grammar reads from one judge's phrases: as a
    reminder made here (from its due_at) and as a calendar's (anchored there)."""
    corpus = json.loads((REPEATS / f"{name}.json").read_text(encoding="utf-8"))
    tz = ZoneInfo(corpus["zone"])
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=tz)
    seen = set()
    for text, region, *_ in corpus["cases"]:
        when = find_when(text, now, region=region)
        if when is None or not when.rrule or (when.rrule, when.due) in seen:
            continue  # many phrases say one repeat
        seen.add((when.rrule, when.due))
        yield text, Series(when.rrule, tz), when.due
        yield f"{text} (anchored)", Series(when.rrule, tz, anchor=when.due), when.due


@cache
def clock_changes(tz: ZoneInfo, year: int) -> tuple[datetime, ...]:
    """The days of `year` on which the zone's clock changes, at midnight local time."""
    out = []
    day = datetime(year, 1, 1, tzinfo=tz)
    for _ in range(366):
        after = day + timedelta(days=1)
        if after.year != year:
            break
        if day.utcoffset() != (after + timedelta(hours=23)).utcoffset():
            out.append(day)
        day = after
    return tuple(out)


def windows(series: Series, due: datetime, rng: random.Random) -> list[tuple[datetime, datetime]]:
    """Windows a question could ask, in the series' zone: before its start, at it, now, years on
    (a day, a week, a month, a year), across a change of the clock, at a month's end, on 29
    February."""
    tz = series.zone
    start = (series.anchor or due).astimezone(tz)
    fine = any(f in (series.rrule or "").upper() for f in FINE)
    far = timedelta(days=2) if fine else YEAR * 8
    out = [
        (start - timedelta(days=400), start - timedelta(days=10)),
        (start - timedelta(days=1), start + timedelta(days=3)),
        (start, start + timedelta(hours=1)),
    ]
    if not fine:  # one by the minute walks from its start to now past the engine's bound
        out.append((check.NOW - timedelta(days=30), check.NOW + timedelta(days=7)))
    for length in rng.sample([timedelta(days=1), timedelta(days=7), timedelta(days=31), YEAR], 2):
        at = start + rng.random() * far
        out.append((at, at + length))
    year = start.year + (0 if fine else rng.randint(0, 8))
    for change in clock_changes(tz, year) if isinstance(tz, ZoneInfo) else ():
        out.append((change, change + timedelta(days=1)))
        out.append((change + timedelta(hours=rng.randint(0, 23)), change + timedelta(days=2)))
    month = datetime(year, rng.randint(1, 12), 1, tzinfo=tz)
    month_end = (month + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    out.append((month_end, month_end + timedelta(days=2)))
    leap = 2028 if fine or start.year < 2028 else 2028 + 4 * ((start.year - 2028) // 4 + 1)
    out.append((datetime(leap, 2, 28, 12, tzinfo=tz), datetime(leap, 3, 1, 12, tzinfo=tz)))
    return out


def differences(found: Iterator[tuple[str, Series, datetime]], seed: int) -> tuple[int, list[str]]:
    rng = random.Random(seed)
    compared, differ = 0, []
    for what, series, due in found:
        for start, end in windows(series, due, rng):
            try:
                walked = walked_between(series, start, end, due)
            except InvalidInput:  # no answer to keep (the walk gives up): the due time alone
                continue
            compared += 1
            shortcut = list(series.between(start, end, due))
            if shortcut != walked:
                differ.append(f"{what} {series.rrule} [{start}, {end}): {shortcut[:3]} != {walked[:3]}")
    return compared, differ


def test_every_corpus_series_has_the_same_occurrences_in_each_window():
    compared, differ = differences(corpus_series(), seed=5)
    assert compared > 2000
    assert not differ, "\n".join(differ[:10])


# -- a calendar's series brought to a moment (an import, a done, the next firing) -----------------


def walked_to(
    series: Series, start: datetime, now: datetime
) -> tuple[datetime, datetime | None, datetime | None]:
    """As the plain walk from the series' anchor finds them (what the shortcuts must keep): the
    latest occurrence after `start` not after `now` (else `start`), the first after `now`, the
    first after both."""
    latest, following = start, None
    for _, occ in _numbered(series, start, plain=True):
        if occ > now and following is None:
            following = occ
        if occ > max(start, now):
            return latest, following, occ
        if occ > start:
            latest = occ
    return latest, following, None


def moments(series: Series, due: datetime, rng: random.Random) -> list[datetime]:
    """Moments an import, a done or a firing could look from: before the series' start, just
    after it, today, years on, and on a day a zone's clock changes."""
    tz = series.zone
    start = (series.anchor or due).astimezone(tz)
    out = [start - timedelta(days=10), start + timedelta(seconds=1), check.NOW]
    out.append(start + rng.random() * YEAR * 8)
    changes = clock_changes(tz, start.year + rng.randint(0, 8)) if isinstance(tz, ZoneInfo) else ()
    return out + [change + timedelta(hours=rng.randint(0, 23)) for change in changes[:1]]


def test_every_corpus_series_is_brought_to_a_moment_as_its_plain_walk_brings_it():
    """Where an import brings a calendar's series (its latest occurrence by now), whether it has
    ended, and where a done moves it: what the plain walk from its start finds (each distinct
    series once: a file of 1,321 yearly birthdays holds far fewer distinct ones)."""
    rng = random.Random(11)
    compared, differ, seen = 0, [], set()
    for what, series, due in corpus_series():
        if series.anchor is None or series in seen:
            continue
        seen.add(series)
        for now in moments(series, due, rng):
            try:
                walked = walked_to(series, due, now)
            except InvalidInput:  # no answer to keep (the walk gives up)
                continue
            compared += 1
            after = next_after(series, due, now)
            latest = latest_not_after(series, due, now)[0]
            found = (latest, next_occurrence(series, due, now), after and after[0])
            if found != walked:
                differ.append(f"{what} {series.rrule} at {now}: {found} != {walked}")
    assert compared > 4_000
    assert not differ, "\n".join(differ[:10])


def test_an_import_brings_a_series_ten_years_old_to_now_without_walking_from_its_start(looked_at):
    started = datetime(2016, 5, 4, 8, 30, tzinfo=LISBON)
    attrs = {"due_at": started.isoformat(), "dtstart": started.isoformat(), "rrule": "FREQ=DAILY"}
    attrs["tz"] = "Europe/Lisbon"
    now = datetime(2026, 6, 1, 12, tzinfo=LISBON)
    moved = remind.as_of(attrs, now)
    assert moved["due_at"] == datetime(2026, 6, 1, 8, 30, tzinfo=LISBON).isoformat()
    assert not remind.ended({**attrs, **moved}, now)
    assert looked_at[0] < 50  # not the ~3,650 days since it began, twice


@pytest.mark.parametrize("name", sorted(p.stem for p in REPEATS.glob("*.json")))
def test_every_repeat_the_judges_say_has_the_same_occurrences_in_each_window(name):
    compared, differ = differences(repeat_series(name), seed=len(name))
    assert compared > 100
    assert not differ, "\n".join(differ[:10])


def test_overrides_and_added_dates_near_a_window_keep_their_occurrences():
    """An occurrence moved into the window from long before it, one moved out, a later one moved
    with RANGE=THISANDFUTURE, an added date and an excluded one: as the plain walk finds them."""
    anchor = datetime(2015, 3, 2, 9, 0, tzinfo=LISBON)
    series = Series(
        "FREQ=WEEKLY;BYDAY=MO,TH",
        LISBON,
        anchor=anchor,
        exdates=(datetime(2024, 6, 3, 9, 0, tzinfo=LISBON),),
        rdates=(datetime(2024, 6, 8, 18, 0, tzinfo=LISBON),),
        overrides=(
            Override(
                of=datetime(2016, 1, 4, 9, 0, tzinfo=LISBON), start=datetime(2024, 6, 5, 7, 0, tzinfo=LISBON)
            ),
            Override(of=datetime(2024, 6, 6, 9, 0, tzinfo=LISBON), start=None),
            Override(
                of=datetime(2024, 6, 10, 9, 0, tzinfo=LISBON),
                start=datetime(2024, 6, 10, 11, 0, tzinfo=LISBON),
                and_after=True,
            ),
        ),
    )
    for start, end in [
        (datetime(2024, 6, 1, tzinfo=LISBON), datetime(2024, 6, 30, tzinfo=LISBON)),
        (datetime(2024, 6, 9, tzinfo=LISBON), datetime(2024, 6, 12, tzinfo=LISBON)),
        (datetime(2030, 1, 1, tzinfo=LISBON), datetime(2030, 1, 8, tzinfo=LISBON)),
        (datetime(2016, 1, 1, tzinfo=LISBON), datetime(2016, 1, 10, tzinfo=LISBON)),
    ]:
        assert list(series.between(start, end)) == walked_between(series, start, end)
    assert datetime(2024, 6, 5, 7, 0, tzinfo=LISBON) in series.between(
        datetime(2024, 6, 1, tzinfo=LISBON), datetime(2024, 6, 30, tzinfo=LISBON)
    )


# -- the work does not grow with the series' age ---------------------------------------------------


@pytest.fixture
def looked_at(monkeypatch) -> list[int]:
    """How many occurrences dateutil's rules produce (each one a period of days looked at)."""
    seen = [0]
    plain = dateutil_rrule.rrule._iter

    def counted(self):
        for occ in plain(self):
            seen[0] += 1
            yield occ

    monkeypatch.setattr(dateutil_rrule.rrule, "_iter", counted)
    return seen


def test_a_daily_series_ten_years_old_is_not_walked_from_its_start(looked_at):
    started = datetime(2016, 5, 4, 8, 30, tzinfo=LISBON)
    daily = Series("FREQ=DAILY", LISBON)
    start, end = datetime(2026, 6, 1, tzinfo=LISBON), datetime(2026, 6, 8, tzinfo=LISBON)
    found = list(daily.between(start, end, due=started))
    assert [d.day for d in found] == [1, 2, 3, 4, 5, 6, 7]
    assert looked_at[0] < 20  # not the ~3,650 days since it began


def test_a_series_is_not_walked_for_a_window_before_its_start_or_outside_its_months(looked_at):
    birthday = Series("FREQ=YEARLY", LISBON)
    due = datetime(2024, 6, 25, 9, 0, tzinfo=LISBON)
    before = (datetime(2022, 6, 1, tzinfo=LISBON), datetime(2022, 7, 1, tzinfo=LISBON))
    march = (datetime(2031, 3, 1, tzinfo=LISBON), datetime(2031, 4, 1, tzinfo=LISBON))
    assert occurrence_between(birthday, due, *before) is None
    assert occurrence_between(birthday, due, *march) is None
    assert looked_at[0] == 0


def test_a_series_is_read_once_for_many_windows(monkeypatch):
    import core.remind.series as engine  # noqa: PLC0415 - the parse counted where the engine calls it

    parsed = [0]
    plain = engine.rrulestr

    def counted(*args, **kwargs):
        parsed[0] += 1
        return plain(*args, **kwargs)

    monkeypatch.setattr(engine, "rrulestr", counted)
    weekly = Series("FREQ=WEEKLY;BYDAY=TU", LISBON)
    due = datetime(2025, 1, 7, 9, 0, tzinfo=LISBON)
    for month in range(1, 13):
        start = datetime(2026, month, 1, tzinfo=LISBON)
        assert occurrence_between(weekly, due, start, start + timedelta(days=7)) is not None
    assert parsed[0] == 1


def test_a_daily_series_begun_long_ago_is_found_in_todays_window():
    """Begun before anyone could walk it (past the engine's bound on a walk), it is still found:
    its walk starts near the window."""
    daily = Series("FREQ=DAILY", UTC, anchor=datetime(1930, 1, 1, 7, 0, tzinfo=UTC))
    start = datetime(2026, 12, 6, tzinfo=UTC)
    assert occurrence_between(daily, daily.anchor, start, start + timedelta(days=1)) == start.replace(hour=7)


def test_a_dateutil_that_keeps_a_rules_parts_elsewhere_gets_the_plain_walk(monkeypatch):
    import core.remind.series as engine  # noqa: PLC0415 - the walk's shortcut taken away where the engine calls it

    def elsewhere(one):
        raise AttributeError("'rrule' object has no attribute '_bymonth'")

    monkeypatch.setattr(engine, "_by_month", elsewhere)
    weekly = Series("FREQ=WEEKLY;BYDAY=MO,TH", LISBON)
    due = datetime(2019, 3, 7, 18, 0, tzinfo=LISBON)
    start, end = datetime(2026, 3, 1, tzinfo=LISBON), datetime(2026, 4, 15, tzinfo=LISBON)
    found = list(weekly.between(start, end, due=due))
    assert found == walked_between(weekly, start, end, due=due)
    assert len(found) == 13
