"""core.remind without Qt: when reminders fire, recurrence, and the state they leave (both engines)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import tzlocal

import core.memory
from core import remind
from core.model import InvalidInput, Kind, Neuron, State

T = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def reminder(**attrs) -> Neuron:
    return Neuron(
        id=uuid.uuid4(),
        kind=Kind.REMINDER,
        body="r",
        attrs={k: (remind.iso(v) if isinstance(v, datetime) else v) for k, v in attrs.items()},
    )


def test_fires_at_due_then_never_again():
    r = reminder(due_at=T)
    assert remind.next_alarm(r).fire_at == T
    assert remind.due([r], T - timedelta(seconds=1)) == []
    assert [a.id for a in remind.due([r], T)] == [r.id]
    shown = reminder(due_at=T, notified_at=T + timedelta(seconds=3))
    assert remind.next_alarm(shown) is None


def test_snooze_moves_the_fire_time():
    r = reminder(due_at=T, notified_at=T, snoozed_until=T + timedelta(minutes=10))
    assert remind.next_alarm(r).fire_at == T + timedelta(minutes=10)
    assert remind.is_overdue(r, T + timedelta(minutes=5)) is False
    assert remind.is_overdue(r, T + timedelta(minutes=11)) is True


def test_notified_with_microseconds_is_not_before_its_fire_time():
    fire = T + timedelta(microseconds=300_000)
    r = reminder(due_at=fire, notified_at=fire + timedelta(microseconds=200_000))
    assert remind.next_alarm(r) is None


def test_recurring_fires_at_next_occurrence_after_shown():
    r = reminder(due_at=T, rrule="FREQ=DAILY", notified_at=T)
    assert remind.next_alarm(r).fire_at == T + timedelta(days=1)


def test_a_recurring_reminder_never_shown_whose_next_days_passed_too_shows_once():
    r = reminder(due_at=T, rrule="FREQ=DAILY")  # the app was closed (or asleep) 3 days
    now = T + timedelta(days=3, hours=1)
    changes, alarm = remind.notified(r, now)
    assert alarm.due_at == T + timedelta(days=3) and changes["due_at"] == remind.iso(T + timedelta(days=3))
    after = reminder(**{**r.attrs, **{k: v for k, v in changes.items() if v is not None}})
    assert remind.next_alarm(after).fire_at == T + timedelta(days=4)  # not the 2nd day, again


def test_inactive_or_dateless_or_other_kinds_never_fire():
    assert remind.next_alarm(reminder()) is None
    done = reminder(due_at=T)
    done.state = State.DONE
    assert remind.next_alarm(done) is None
    note = Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body="n", attrs={"due_at": remind.iso(T)})
    assert remind.next_alarm(note) is None


def test_a_bad_stored_value_is_skipped_not_fatal(caplog):
    bad = reminder(due_at="not a date")
    good = reminder(due_at=T)
    assert [a.id for a in remind.due([bad, good], T)] == [good.id]
    assert "cannot be scheduled" in caplog.text
    odd_rule = reminder(due_at=T, rrule="FREQ=SOMETIMES", notified_at=T)
    assert remind.next_alarm(odd_rule) is None


def test_rules_are_validated_with_a_sentence():
    assert remind.validate_rrule("RRULE:FREQ=WEEKLY;BYDAY=MO", T) == "FREQ=WEEKLY;BYDAY=MO"
    with pytest.raises(InvalidInput, match="not valid RFC 5545"):
        remind.validate_rrule("FREQ=FORTNIGHTLY", T)
    assert remind.next_occurrence("FREQ=WEEKLY;UNTIL=20260320T000000Z", T, T + timedelta(days=20)) is None


def test_recurrence_keeps_the_local_wall_clock(monkeypatch):
    lisbon = ZoneInfo("Europe/Lisbon")
    monkeypatch.setattr(tzlocal, "get_localzone", lambda: lisbon)  # the one place the zone is read
    start = datetime(2026, 3, 27, 9, 0, tzinfo=lisbon)  # the Friday before summer time
    nxt = remind.next_occurrence("FREQ=DAILY", start, start + timedelta(days=2))
    assert nxt.astimezone(lisbon).hour == 9  # 9:00 on Monday, now UTC+1
    assert nxt.utcoffset() == timedelta(hours=1)


def test_missed_means_due_before_start_and_never_shown():
    a = reminder(due_at=T - timedelta(hours=2))
    b = reminder(due_at=T - timedelta(hours=1), notified_at=T - timedelta(minutes=59))
    c = reminder(due_at=T + timedelta(hours=1))
    assert [x.id for x in remind.missed([a, b, c], T)] == [a.id]


def test_a_showing_closed_unseen_is_missed_until_shown_again_or_answered():
    shown = T - timedelta(minutes=59)
    unseen = {"due_at": T - timedelta(hours=1), "notified_at": shown, "unseen_at": shown.timestamp()}
    closed = reminder(**unseen)
    assert [a.id for a in remind.missed([closed], T)] == [closed.id]
    assert remind.due([closed], T) == []  # the running app does not show it again
    snoozed = reminder(**unseen, snoozed_until=T + timedelta(minutes=10))
    done = reminder(**{**unseen, "due_at": T + timedelta(days=1)}, rrule="FREQ=DAILY")
    again = reminder(**{**unseen, "notified_at": T - timedelta(minutes=5)})
    assert remind.missed([snoozed, done, again], T) == []


# -- state changes through Memory (both engines) ----------------------------------------------


def test_a_notification_closed_unseen_is_said_again_once_at_the_next_start(memory):
    r = memory.capture("renew the permit", kind="reminder", attrs={"due_at": remind.iso(T)})
    before = memory.get(r.id)
    assert memory.mark_unseen(r.id) is None  # never shown: nothing to mark
    assert memory.get(r.id).attrs == before.attrs
    memory.mark_notified(r.id, T + timedelta(seconds=2))
    assert remind.missed(memory.reminders(), T + timedelta(hours=1)) == []
    assert memory.mark_unseen(r.id) is not None
    start = T + timedelta(hours=1)
    assert [a.id for a in remind.missed(memory.reminders(), start)] == [r.id]
    assert memory.mark_notified(r.id, start) is not None  # said at the start
    assert remind.missed(memory.reminders(), start + timedelta(hours=1)) == []
    memory.mark_unseen(r.id)  # the start's notice closed unseen too: said at the next
    memory.snooze(r.id, start, until=start + timedelta(hours=3))  # then answered
    assert remind.missed(memory.reminders(), start + timedelta(hours=1)) == []


def test_mark_notified_once_and_done(memory):
    r = memory.capture("pay rent", kind="reminder", attrs={"due_at": remind.iso(T)})
    assert memory.mark_notified(r.id, T - timedelta(seconds=1)) is None  # not yet due
    alarm = memory.mark_notified(r.id, T + timedelta(seconds=2))
    assert alarm is not None and alarm.id == r.id
    assert memory.mark_notified(r.id, T + timedelta(seconds=3)) is None  # never twice
    done = memory.complete(r.id, T + timedelta(minutes=1))
    assert done.state is State.DONE and "done_at" in done.attrs


def test_recurring_complete_and_catch_up(memory):
    r = memory.capture(
        "water plants", kind="reminder", attrs={"due_at": remind.iso(T), "rrule": "FREQ=DAILY"}
    )
    # a week away: the shown occurrence is the latest one, not seven of them
    alarm = memory.mark_notified(r.id, T)
    assert alarm is not None
    later = T + timedelta(days=7, hours=3)
    alarm = memory.mark_notified(r.id, later)
    assert alarm.due_at == T + timedelta(days=7)
    assert remind.parse_time(memory.get(r.id).attrs["due_at"]) == T + timedelta(days=7)
    moved = memory.complete(r.id, later)
    assert moved.state is State.ACTIVE
    assert remind.parse_time(moved.attrs["due_at"]) == T + timedelta(days=8)
    assert "done_at" in moved.attrs


def test_count_counts_what_is_left(memory):
    r = memory.capture(
        "three lessons", kind="reminder", attrs={"due_at": remind.iso(T), "rrule": "FREQ=WEEKLY;COUNT=3"}
    )
    first = memory.complete(r.id, T)
    assert first.attrs["rrule"] == "FREQ=WEEKLY;COUNT=2"
    second = memory.complete(r.id, T + timedelta(weeks=1))
    assert second.attrs["rrule"] == "FREQ=WEEKLY;COUNT=1"
    assert second.state is State.ACTIVE
    last = memory.complete(r.id, T + timedelta(weeks=2))
    assert last.state is State.DONE


def test_snooze_and_reschedule(memory):
    r = memory.capture("stretch", kind="reminder", attrs={"due_at": remind.iso(T)})
    memory.mark_notified(r.id, T)
    s = memory.snooze(r.id, T)
    assert remind.parse_time(s.attrs["snoozed_until"]) == T + remind.SNOOZE_DEFAULT
    assert remind.next_alarm(s).fire_at == T + remind.SNOOZE_DEFAULT
    moved = memory.reschedule(r.id, T + timedelta(days=1), "FREQ=WEEKLY")
    assert "snoozed_until" not in moved.attrs and "notified_at" not in moved.attrs
    assert moved.attrs["rrule"] == "FREQ=WEEKLY"
    with pytest.raises(InvalidInput):
        memory.reschedule(r.id, None, "FREQ=DAILY")
    with pytest.raises(InvalidInput):
        memory.snooze(r.id, T, until=datetime(2026, 3, 3, 9, 0))


def test_active_reminders_pages_through_everything(memory, monkeypatch):
    monkeypatch.setattr(core.memory, "REMINDER_PAGE", 3)
    ids = {memory.capture(f"r{i}", kind="reminder", attrs={"due_at": remind.iso(T)}).id for i in range(7)}
    memory.capture("a note", kind="note")
    assert {n.id for n in memory.reminders()} == ids
