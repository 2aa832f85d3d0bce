"""The one recurrence engine: a series as RFC 5545 defines it, and the clock it follows.

Reminders (when one fires), questions' time windows (what is due in a week) and iCalendar import
and export all read a series here, so they agree. Pure: it imports only core.model and libraries.

A series is
- its anchor (DTSTART; None for a reminder made here, whose current due_at is the start and whose
  COUNT counts what is left) and the zone whose wall clock it follows (a reminder's `tz`, else the
  local zone);
- the occurrences of its rules (one RRULE, or several: their union), plus `rdates`, minus
  `exdates` (matched as instants: the importer reads them in the anchor's value type and zone);
- its overrides (RECURRENCE-ID): one occurrence moved to its own time (or cancelled), with its own
  title and duration; RANGE=THISANDFUTURE moves every later one by as much.

The local zone is looked up here once (tzlocal caches it; `reload_local_zone` reads it again).
"""

from __future__ import annotations

import heapq
import logging
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import MAXYEAR, UTC, date, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil import parser as dateparser
from dateutil.rrule import DAILY, MONTHLY, WEEKLY, YEARLY, rrule, rruleset, rrulestr, weekday

from core.model import InvalidInput

log = logging.getLogger(__name__)

# A rule is walked at most this many occurrences: a per-second rule without end is refused after
# this much work (a fraction of a second), not after walking from its start to now.
MAX_STEPS = 25_000
# Names of UTC itself (a calendar writes these times with "Z").
UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu"})


# -- time ----------------------------------------------------------------------------------------


def local_zone() -> tzinfo:
    """The zone a person's clock shows (tzlocal keeps it once read)."""
    try:
        import tzlocal  # noqa: PLC0415 (optional at run time: without it, the offset of now)

        return tzlocal.get_localzone()
    except Exception:  # noqa: BLE001 (tzlocal raises several kinds when no zone is configured)
        return datetime.now().astimezone().tzinfo or UTC


def reload_local_zone() -> None:
    """The system's time zone changed: read it again (tzlocal keeps the first one it found)."""
    try:
        import tzlocal  # noqa: PLC0415 (as above)

        tzlocal.reload_localzone()
    except Exception:  # nothing configured to reload: local_zone() falls back by itself
        log.debug("the local time zone could not be read again", exc_info=True)


def local_zone_name() -> str:
    """The local zone's IANA name ("UTC" when it is UTC or has no name)."""
    name = getattr(local_zone(), "key", None)
    return "UTC" if name is None or name in UTC_NAMES else name


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(value: object, *, what: str = "time") -> datetime | None:
    """An attrs time value -> an aware datetime (a value without offset is read as local time)."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip())
        except ValueError:
            try:
                dt = dateparser.parse(value)
            except (ValueError, OverflowError):
                raise InvalidInput(f"{what} {value!r} is not a date and time") from None
    else:
        raise InvalidInput(f"{what} {value!r} is not a date and time")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=local_zone())
    return dt


def iso(dt: datetime) -> str:
    """Full precision (seconds alone could make a stored time earlier than the moment it records)."""
    return dt.isoformat()


def zone(name: object) -> tzinfo:
    """The IANA zone `name` (None: the local zone); an unknown name is a clear error."""
    if name is None or name == "":
        return local_zone()
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"unknown time zone {name!r}: use an IANA name like Europe/Lisbon") from None


# -- rules -----------------------------------------------------------------------------------------

_COUNT = re.compile(r"(?i)(?<![A-Z])COUNT=(\d+)")
_UNTIL = re.compile(r"(?i)(?<![A-Z])UNTIL=(\d{8})(T\d{6})?(Z?)")


def rule_text(rrule: str) -> str:
    """The RRULE part of a rule as people and capture write it ("RRULE:" prefix and DTSTART lines
    are accepted; the reminder's due_at is always the start)."""
    lines = [ln.strip() for ln in str(rrule).replace("\\n", "\n").splitlines() if ln.strip()]
    rules = [ln for ln in lines if not ln.upper().startswith(("DTSTART", "EXDATE", "RDATE"))]
    if len(rules) != 1:
        raise InvalidInput(f"the repeat rule {rrule!r} must hold exactly one RRULE")
    text = rules[0]
    return text[6:] if text.upper().startswith("RRULE:") else text


def _aware_until(text: str, wall: tzinfo, all_day: bool = False) -> str:
    """A floating or date-only UNTIL read in the series' zone, as UTC (what dateutil needs with an
    aware start): UNTIL=20260320 ends an all-day series with that day, a timed one as that day
    begins (as dateutil and recurring-ical-events read it)."""

    def utc(m: re.Match) -> str:
        if m.group(3):
            return m.group(0)
        day, clock = m.group(1), m.group(2) or ("T235959" if all_day else "T000000")
        local = datetime.strptime(day + clock, "%Y%m%dT%H%M%S").replace(tzinfo=wall)
        return "UNTIL=" + local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    return _UNTIL.sub(utc, text)


def _reduce_count(rrule: str, by: int) -> str:
    match = _COUNT.search(rrule)
    if not match or by <= 0:
        return rrule
    left = int(match.group(1)) - by
    return rrule[: match.start(1)] + str(max(left, 1)) + rrule[match.end(1) :]


# -- the series ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Override:
    """One occurrence a calendar changed (RECURRENCE-ID `of`): moved to `start`, or cancelled
    (start None), with its own title and duration; `and_after` (RANGE=THISANDFUTURE): every later
    occurrence moves by as much too."""

    of: datetime
    start: datetime | None
    title: str | None = None
    duration_seconds: int | None = None
    and_after: bool = False

    @classmethod
    def of_attrs(cls, value: dict[str, Any]) -> Override:
        of = parse_time(value.get("recurrence_id"), what="an override's recurrence_id")
        if of is None:
            raise InvalidInput("an override needs its recurrence_id")
        seconds = value.get("duration_seconds")
        return cls(
            of=of,
            start=parse_time(value.get("start"), what="an override's start"),
            title=str(value["title"]) if value.get("title") else None,
            duration_seconds=int(seconds) if isinstance(seconds, (int, float)) else None,
            and_after=bool(value.get("this_and_future")),
        )


@dataclass(frozen=True)
class Series:
    """A reminder's recurrence: its rules (none when it only has rdates), the zone whose wall clock
    it follows, its anchor (None: the current due_at, and a COUNT counts what is left), its
    exceptions, added dates and overrides."""

    rrule: str | None
    zone: tzinfo
    anchor: datetime | None = None
    exdates: tuple[datetime, ...] = ()
    rdates: tuple[datetime, ...] = ()
    more_rules: tuple[str, ...] = ()
    overrides: tuple[Override, ...] = ()
    all_day: bool = False  # its occurrences are days (an UNTIL date includes its day)
    # the rules as dateutil read them for the last start they were walked from (the parse was
    # most of a short walk, and a question's window walks every recurring reminder): no part of
    # the series' value
    _read: dict[datetime, _Read] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @classmethod
    def of(cls, attrs: dict[str, Any]) -> Series | None:
        """The series of a reminder's attrs; None for a one-off reminder."""
        if not attrs.get("rrule") and not attrs.get("rdates"):
            return None
        more = attrs.get("more_rrules") or []
        overrides = attrs.get("overrides") or []
        if not isinstance(more, list) or not isinstance(overrides, list):
            raise InvalidInput("more_rrules and overrides must be lists")
        return cls(
            rrule=attrs.get("rrule") or None,
            zone=zone(attrs.get("tz")),
            anchor=parse_time(attrs.get("dtstart"), what="dtstart"),
            exdates=tuple(_times_list(attrs.get("exdates"), "exdates")),
            rdates=tuple(_times_list(attrs.get("rdates"), "rdates")),
            more_rules=tuple(str(r) for r in more if r),
            overrides=tuple(Override.of_attrs(o) for o in overrides if isinstance(o, dict)),
            all_day=bool(attrs.get("all_day")),
        )

    @classmethod
    def plain(
        cls,
        rrule: str,
        tz: str | None = None,
        exdates: Iterable[datetime] = (),
        rdates: Iterable[datetime] = (),
    ) -> Series:
        return cls(rrule, zone(tz), None, tuple(exdates), tuple(rdates))

    def has(self, moment: datetime, due: datetime | None = None) -> bool:
        """Whether `moment` is one of the rule's occurrences (before any override moves it)."""
        return moment in _rule(self, self.anchor or due or moment)

    def between(self, start: datetime, end: datetime, due: datetime | None = None) -> Iterator[datetime]:
        """The occurrences in [start, end), of the series starting at its anchor (else `due`):
        the walk from the anchor's, without the part that cannot reach the window (`_near`)."""
        anchor = self.anchor or due or start
        _rule(self, anchor)  # first: a rule that cannot be read raises as the walk does
        if _earliest(self, anchor) >= end:
            return
        near = _near(self, anchor, start, end)
        walk = near if isinstance(near, list) else (occ for _, occ in _pairs(self, anchor, near))
        for occ in walk:
            if occ >= end:
                return
            if occ >= start and (self.anchor is not None or occ >= anchor):
                yield occ


def walked_between(
    series: Series, start: datetime, end: datetime, due: datetime | None = None
) -> list[datetime]:
    """`Series.between` as the plain walk from the anchor finds it (what the shortcuts must keep;
    the tests compare them)."""
    out = []
    for _, occ in _numbered(series, due or series.anchor or start, plain=True):
        if occ >= end:
            break
        if occ >= start:
            out.append(occ)
    return out


def occurrence_between(
    series: Series | None, due: datetime, start: datetime, end: datetime
) -> datetime | None:
    """When something due at `due` (repeating by `series`, if any) is due in [start, end): the
    occurrence that falls there, its exceptions and moved ones counted as the scheduler fires
    them; a rule that cannot be walked, its due time alone; None when nothing falls there."""
    if series is not None:
        try:
            return next(series.between(start, end, due=due), None)
        except InvalidInput:
            pass
    return due if start <= due < end else None


def _times_list(values: object, what: str) -> list[datetime]:
    if values in (None, ""):
        return []
    if not isinstance(values, list):
        raise InvalidInput(f"{what} must be a list of times")
    return [t for t in (parse_time(v, what=what) for v in values) if t is not None]


class _Read:
    """A series' rules as dateutil read them from one start, and what windows derive from them
    (each made once, when first needed). A walk gets a set of its own (`walked`): dateutil's
    set sorts its date lists in place as it starts, which another thread's walk would see."""

    __slots__ = ("dates", "excluded", "pieces", "added", "rules")

    def __init__(self, rules: rruleset) -> None:
        self.rules: list[Any] = list(rules._rrule)  # type: ignore[attr-defined]  # dateutil's own lists
        self.added: list[datetime] = sorted(rules._rdate)  # type: ignore[attr-defined]  # the start too
        self.excluded: list[datetime] = sorted(rules._exdate)  # type: ignore[attr-defined]
        self.pieces: list[Any] | None = None  # its rules, a yearly one by month where exact
        self.dates: list[datetime] | None = None  # its start and added dates, less the excluded

    def walked(self, rules: list[Any] | None = None) -> rruleset:
        """A set of these rules (or `rules`) and dates."""
        out = rruleset()
        for one in self.rules if rules is None else rules:
            out.rrule(one)
        for when in self.added:
            out.rdate(when)
        for when in self.excluded:
            out.exdate(when)
        return out


def _read(series: Series, start: datetime) -> _Read:
    kept = series._read.get(start)
    if kept is None:
        kept = _Read(_rule(series, start, plain=True))
        series._read.clear()  # one start at a time: a series made here moves on with its due_at
        series._read[start] = kept
    return kept


def _rule(series: Series, start: datetime, *, plain: bool = False) -> rruleset:
    """The dateutil set of the series anchored at `start` in its zone's wall time (kept on the
    series for the last start; `plain`: read again)."""
    if not plain:
        return _read(series, start).walked()
    local = start.astimezone(series.zone)
    rules = rruleset()
    rules.rdate(local)  # the start is always the first occurrence (RFC 5545 3.8.5.3), unless excluded
    for text in (series.rrule, *series.more_rules):
        if not text:
            continue
        try:
            rule = _aware_until(rule_text(text), series.zone, series.all_day)
            with warnings.catch_warnings():  # COUNT with UNTIL: dateutil honours both, and says so
                warnings.simplefilter("ignore", DeprecationWarning)
                one = rrulestr(rule, dtstart=local)
            if _can_occur(one):
                rules.rrule(one)  # type: ignore[arg-type]  # one rule: an rrule
        except (ValueError, TypeError) as exc:
            raise InvalidInput(f"the repeat rule {text!r} is not valid RFC 5545: {exc}") from None
    for when in series.rdates:
        rules.rdate(when.astimezone(series.zone))
    for when in series.exdates:
        rules.exdate(when.astimezone(series.zone))
    return rules


# The most days each month has (February in a leap year).
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _can_occur(rule: Any) -> bool:
    """Whether a dateutil rrule's months and days of the month meet on some date: one that never
    can (BYMONTH=2;BYMONTHDAY=30) has no occurrence, which dateutil would search for until the
    year 9999 (seconds to minutes, on every look)."""
    months = getattr(rule, "_bymonth", None) or range(1, 13)
    days = (getattr(rule, "_bymonthday", None) or ()) + (getattr(rule, "_bynmonthday", None) or ())
    if not days:
        return True
    return any(abs(day) <= _MONTH_DAYS[month - 1] for month in months for day in days)


def validate_rrule(rrule: str, start: datetime | None = None, tz: str | None = None) -> str:
    """Check a rule (raise InvalidInput with a readable message); return its RRULE text."""
    rule = _rule(Series.plain(rrule, tz), start or utcnow())
    try:
        next(iter(rule), None)
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"the repeat rule {rrule!r} is not valid RFC 5545: {exc}") from None
    return rule_text(rrule)


def _pairs(
    series: Series, start: datetime, rules: rruleset | None = None
) -> Iterator[tuple[datetime, datetime]]:
    """(the occurrence the rules give, where it happens) in order of the latter: a moved one at its
    new time (the heap keeps the order when it moves past others), a cancelled one left out.
    `rules`: the series' set, or one that starts nearer a window (`_near`)."""
    rules = _rule(series, start) if rules is None else rules
    # an override changes an occurrence the series has (not one excluded, nor one its rule lost)
    by_original = {o.of: o for o in series.overrides if o.of in rules}
    moved = sorted((o.start, o.of) for o in by_original.values() if o.start is not None and not o.and_after)
    heapq.heapify(moved)
    shift = timedelta(0)
    steps = 0
    for occ in rules:
        steps += 1
        if steps > MAX_STEPS:
            raise InvalidInput(f"the repeat rule {series.rrule!r} has too many occurrences to walk")
        override = by_original.get(occ)
        if override is not None and override.and_after:
            shift = (override.start - occ) if override.start is not None else shift
            at = override.start if override.start is not None else occ
        elif override is not None:
            continue  # moved (it comes from the heap) or cancelled
        else:
            at = occ + shift
        while moved and moved[0][0] <= at:
            when, of = heapq.heappop(moved)
            yield of, when
        yield occ, at
    while moved:
        when, of = heapq.heappop(moved)
        yield of, when


# -- walking to a window ---------------------------------------------------------------------------
#
# A question's window walks every recurring reminder; dateutil walks a rule from its start, a
# period at a time (a yearly rule looks at each day of each year). What cannot reach the window
# is left out, exactly: the window's answer is the plain walk's (`walked_between`, which the
# tests compare on every series of the calendar corpus and the repeat judges).

# How far before a window (in wall time) a rule's walk starts, for an instant of the window read
# in wall time across a change of the clock.
_MARGIN = timedelta(days=2)


def _earliest(series: Series, anchor: datetime) -> datetime:
    """No occurrence of the series is earlier: a series made here never goes before its start,
    a calendar's before its start, an added date or where an override moves one (a later one
    moved with it by RANGE=THISANDFUTURE moves as far, from a later occurrence)."""
    if series.anchor is None:
        return anchor
    return min((anchor, *series.rdates, *(o.start for o in series.overrides if o.start is not None)))


def _near(series: Series, anchor: datetime, start: datetime, end: datetime) -> rruleset | list[datetime]:
    """The series' set from `anchor` with each rule that cannot fall in [start, end) left out
    and each other rule started at the last of its periods before the window, where that is
    exact; the start, added and excluded dates kept (when no rule is left, those dates alone, in
    order, as the set gives them). An override could bring an occurrence from anywhere before
    it, so none is left out and none is started past one."""
    read = _read(series, anchor)
    kept = read.rules
    if not kept:
        return read.walked()
    zone_ = series.zone
    try:
        before = start.astimezone(zone_) - _MARGIN
        after = end.astimezone(zone_) + _MARGIN
        for o in series.overrides:
            before = min(before, *(t.astimezone(zone_) - _MARGIN for t in (o.of, o.start) if t is not None))
    except OverflowError:  # a window at the ends of the calendar: the plain walk
        return read.walked()
    months = _months(before.date(), after.date()) if not series.overrides else None
    out: list[Any] = []
    try:  # a rule's parts read where dateutil (2.7 to 2.9) keeps them
        if read.pieces is None:
            read.pieces = [piece for rule in kept for piece in _by_month(rule)]
        for one in read.pieces:
            if months is not None and one._bymonth is not None and not months & set(one._bymonth):
                continue  # every occurrence is in one of its months (BYMONTH, or its start's)
            out.append(_started_near(one, before.replace(tzinfo=None)))
    except AttributeError:  # a dateutil that keeps them elsewhere: the plain walk, never a wrong one
        return read.walked()
    if not out:
        if read.dates is None:  # as the set yields them: in order, once each, the excluded left out
            excluded = set(read.excluded)
            read.dates = sorted(t for t in set(read.added) if t not in excluded)
        return read.dates
    return read.walked(out)


def _months(first: date, last: date) -> set[int] | None:
    """The months of the days from `first` to `last` (None: every month)."""
    span = (last.year - first.year) * 12 + last.month - first.month
    if span >= 11:
        return None
    return {(first.month - 1 + k) % 12 + 1 for k in range(span + 1)}


def _started_near(one: Any, before: datetime) -> Any:  # dateutil's rrule, its parts read as it keeps them
    """`one` started at the last of its periods (INTERVAL days, weeks, months or years counted
    from its DTSTART) that begins by `before` (wall time), when that is a later period than its
    start's: each period's occurrences depend only on the period and the rule's parts, once the
    parts its DTSTART implied (the day, the weekday, the month, the time of day) are said. A
    COUNT numbers from the start (and a rule by the hour or finer has no such parts): not moved."""
    if one._count is not None or one._freq not in (YEARLY, MONTHLY, WEEKLY, DAILY):
        return one
    first: datetime = one._dtstart
    every = one._interval
    if one._freq == YEARLY:
        k = (before.year - first.year) // every
        day = date(first.year + k * every, 1, 1) if k > 0 else None
    elif one._freq == MONTHLY:
        k = ((before.year - first.year) * 12 + before.month - first.month) // every
        month = first.month - 1 + k * every
        day = date(first.year + month // 12, month % 12 + 1, 1) if k > 0 else None
    elif one._freq == WEEKLY:
        week = first.date() - timedelta(days=(first.weekday() - one._wkst) % 7)
        k = (before.date() - week).days // 7 // every
        day = week + timedelta(weeks=k * every) if k > 0 else None
    else:
        k = (before.date() - first.date()).days // every
        day = first.date() + timedelta(days=k * every) if k > 0 else None
    if day is None:
        return one
    return _explicit(one, datetime(day.year, day.month, day.day, tzinfo=first.tzinfo))


def _by_month(one: Any) -> list[Any]:
    """A yearly rule as one rule a month (each every 12 x INTERVAL months from its month's first
    period), where that is exact: its days are chosen within each month (BYMONTH, or its start's,
    with the days of the month or the weekdays, the nth ones counted in the month too), not
    within the year (BYSETPOS, BYWEEKNO, BYYEARDAY, BYEASTER), and no COUNT numbers them. dateutil
    looks at every day of a year for each year of a yearly rule; a month's rule, at one month."""
    if (
        one._freq != YEARLY
        or one._bymonth is None
        or one._count is not None
        or one._bysetpos
        or one._byweekno
        or one._byyearday
        or one._byeaster
    ):
        return [one]
    first: datetime = one._dtstart
    out = []
    for month in one._bymonth:
        year = first.year + (one._interval if month < first.month else 0)
        if year > MAXYEAR:
            continue  # dateutil ends there too
        start = first if month == first.month else datetime(year, month, 1, tzinfo=first.tzinfo)
        out.append(_explicit(one, start, freq=MONTHLY, interval=12 * one._interval, bymonth=(month,)))
    return out


def _explicit(one: Any, dtstart: datetime, **changed: Any) -> Any:
    """`one` from `dtstart`, every part its own DTSTART implied (the day, the weekday, the month,
    the time of day) said, so the new start implies none."""
    weekdays = [weekday(d) for d in one._byweekday or ()] + [weekday(d, n) for d, n in one._bynweekday or ()]
    parts: dict[str, Any] = {
        "freq": one._freq,
        "interval": one._interval,
        "wkst": one._wkst,
        "until": one._until,
        "bysetpos": one._bysetpos,
        "bymonth": one._bymonth,
        "bymonthday": (*one._bymonthday, *one._bynmonthday) or None,
        "byyearday": one._byyearday,
        "byeaster": one._byeaster,
        "byweekno": one._byweekno,
        "byweekday": weekdays or None,
        "byhour": one._byhour,
        "byminute": one._byminute,
        "bysecond": one._bysecond,
    }
    return rrule(dtstart=dtstart, **(parts | changed))


def _numbered(series: Series, start: datetime, *, plain: bool = False) -> Iterator[tuple[int, datetime]]:
    """The occurrences from the series' anchor (or `start`), numbered; a series made here never
    goes before its start (its due_at), a calendar's keeps what its file says comes earlier.
    `plain`: its rules read again, not kept ones (the reference the tests compare with)."""
    anchor = series.anchor or start
    index = 0
    rules = _rule(series, anchor, plain=True) if plain else None
    for _, occ in _pairs(series, anchor, rules):
        if series.anchor is None and occ < anchor:
            continue
        yield index, occ
        index += 1


def occurrences(series: Series, start: datetime, until: datetime) -> list[datetime]:
    """Every occurrence from `start` to `until` (inclusive): what a calendar shows in that span."""
    out = []
    for _, occ in _numbered(series, start):
        if occ > until:
            break
        if occ >= start:
            out.append(occ)
    return out


def next_occurrence(rrule: str | Series, start: datetime, after: datetime) -> datetime | None:
    """The first occurrence of the series starting at `start` strictly after `after`."""
    series = rrule if isinstance(rrule, Series) else Series.plain(rrule)
    if series.anchor is not None:
        return _first_from(series, after + _TICK)
    for _, occ in _numbered(series, start):
        if occ > after:
            return occ
    return None


def _moved(series: Series, index: int, start: datetime, occ: datetime) -> str | None:
    """The rule once the series moved on by `index` occurrences (from `start` to `occ`): an
    anchored series keeps its rule; an unanchored one starts at the new due_at with a COUNT
    reduced by what was left behind."""
    if series.anchor is not None or series.rrule is None:
        return series.rrule
    if index and _COUNT.search(series.rrule) and not _on_rule(series.rrule, series, start):
        index -= 1  # a due_at the skipped hour moved is not one of its rule's (`_keep_wall_time`)
    return _keep_wall_time(_reduce_count(series.rrule, index), series, start, occ)


def _on_rule(rule: str, series: Series, start: datetime) -> bool:
    """Whether `start` is the first occurrence of `rule` itself (not only its rdate)."""
    local = start.astimezone(series.zone)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        found = rrulestr(_aware_until(rule_text(rule), series.zone, series.all_day), dtstart=local)
    return next(iter(found), None) == local


_BY_TIME = re.compile(r"(?i)(?<![A-Z])(BYHOUR|BYMINUTE|BYSECOND)=|FREQ=(HOURLY|MINUTELY|SECONDLY)")


def _keep_wall_time(rule: str, series: Series, start: datetime, occ: datetime) -> str:
    """A series moved to an occurrence whose time the clock skipped (01:30 on the night 01:00
    becomes 02:00: RFC 5545 moves it forward by the gap, to 02:30) keeps its wall time for the
    ones after: its rule says the time of day `start` had (BYHOUR, BYMINUTE, BYSECOND), since
    the new due_at no longer does."""
    wall = start.astimezone(series.zone)
    day = occ.astimezone(UTC).astimezone(series.zone)
    meant = datetime.combine(day.date(), wall.time(), tzinfo=series.zone)
    skipped = meant.astimezone(UTC).astimezone(series.zone).replace(tzinfo=None) != meant.replace(tzinfo=None)
    count = _COUNT.search(rule)
    if series.all_day or not skipped or day.time() == wall.time() or _BY_TIME.search(rule):
        return rule
    if count is not None and int(count.group(1)) <= 1:
        return rule  # nothing comes after this one
    pinned = f"{rule};BYHOUR={wall.hour};BYMINUTE={wall.minute};BYSECOND={wall.second}"
    return _reduce_count(pinned, 1)  # the new due_at is no longer one of the rule's: the rdate


def next_after(series: Series, start: datetime, after: datetime) -> tuple[datetime, str | None] | None:
    """The first occurrence after both `start` and `after`, with the rule rewritten to start
    there (a COUNT reduced by the occurrences left behind); None when the series has ended."""
    if series.anchor is not None:
        found = _first_from(series, max(start, after) + _TICK)
        return None if found is None else (found, series.rrule)
    for index, occ in _numbered(series, start):
        if occ > start and occ > after:
            return occ, _moved(series, index, start, occ)
    return None


def latest_not_after(series: Series, start: datetime, now: datetime) -> tuple[datetime, str | None]:
    """The latest occurrence not after `now` (at least `start`), with the rule rewritten for it."""
    if series.anchor is not None:
        return _last_until(series, start, now), series.rrule
    best = (start, series.rrule)
    for index, occ in _numbered(series, start):
        if occ > now:
            break
        if occ > start:
            best = (occ, _moved(series, index, start, occ))
    return best


# A calendar's series (anchored: its rule is never rewritten, so no occurrence needs its number)
# is walked near the moment looked for, as a question's window is (`Series.between`), not from
# its start: importing 1,321 yearly birthdays from 2004 walked each from 2004 twice.
_TICK = timedelta(microseconds=1)  # the finest step of a time: "after t" is "from t + _TICK"
_FAR = datetime(MAXYEAR, 1, 1, tzinfo=UTC) - 2 * _MARGIN  # a window's end with room for its margin
_BACK = timedelta(days=7)  # the first look back for the latest occurrence (then 4x, 16x...)


def _first_from(series: Series, start: datetime) -> datetime | None:
    """An anchored series' first occurrence at or after `start`."""
    return next(series.between(start, _FAR), None)


def _last_until(series: Series, start: datetime, now: datetime) -> datetime:
    """An anchored series' latest occurrence after `start` and not after `now`, else `start`:
    looked for in windows back from `now`, each four times the last, until one reaches `start`."""
    end, span = now + _TICK, _BACK
    while True:
        since = start if end - start <= span else end - span
        found = [occ for occ in series.between(since, end) if occ > start]
        if found:
            return found[-1]
        if since <= start:
            return start
        span *= 4


@dataclass(frozen=True)
class Restated:
    """A calendar's series told again from its current occurrence on: what a CalDAV client needs
    to see that the ones before it are done (DTSTART moved there, each COUNT reduced by the
    occurrences left behind, the exceptions, added dates and overrides before it dropped) -- what
    tasks.org and todoman write when a recurring task is done, and what Thunderbird reads."""

    anchor: datetime
    rrule: str | None
    more_rules: tuple[str, ...]
    since: datetime  # the current occurrence as the rules give it (before an override moves it)


def restated(series: Series, current: datetime) -> Restated | None:
    """The series anchored at `current` (one of its occurrences, where it happens); None when it
    has no anchor to move (a series made here starts at its due_at already) or no rule occurrence
    is left at or after `current` to anchor the rules on."""
    if series.anchor is None or series.rrule is None:
        return None
    since = next((of for of, at in _pairs(series, series.anchor) if at == current), None)
    if since is None or since <= series.anchor:
        return None
    # the new DTSTART is an occurrence of the rules themselves (never an added date, whose day
    # would change a rule that takes its weekday or day of month from DTSTART)
    plain = Series(
        series.rrule, series.zone, series.anchor, more_rules=series.more_rules, all_day=series.all_day
    )
    anchor = next((occ for _, occ in _numbered(plain, series.anchor) if occ >= since), None)
    if anchor is None:
        return None
    rules = [
        _reduce_count(text, _before(series, text, anchor)) for text in (series.rrule, *series.more_rules)
    ]
    return Restated(anchor, rules[0], tuple(rules[1:]), since)


def _before(series: Series, text: str, anchor: datetime) -> int:
    """How many occurrences rule `text` of the series has before `anchor` (what its COUNT spent)."""
    if not _COUNT.search(text):
        return 0
    assert series.anchor is not None
    local = series.anchor.astimezone(series.zone)
    rule = _aware_until(rule_text(text), series.zone, series.all_day)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        found = rrulestr(rule, dtstart=local)
    if not _can_occur(found):
        return 0
    count = 0
    for occ in found:
        if occ >= anchor or count > MAX_STEPS:
            break
        count += 1
    return count


def first_on_rule(rrule: str, start: datetime) -> datetime | None:
    """The first occurrence of `rrule` itself at or after `start` (None when it has none): a repeat
    said with a start that is not one of its days ("every Monday from Thursday 10 December") is
    first due on its first day from then, not on the start (which RFC 5545 would count)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            rule = rrulestr(_aware_until(rule_text(rrule), start.tzinfo or UTC), dtstart=start)
        except (ValueError, TypeError):
            return None
    return rule.after(start, inc=True) if _can_occur(rule) else None


def first(series: Series, start: datetime) -> datetime | None:
    """The series' first occurrence (from its anchor, else `start`)."""
    return next((occ for _, occ in _numbered(series, start)), None)
