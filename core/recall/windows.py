"""Time windows in recall: which neurons a question's window holds (their due, written and done
dates all count, as the window's `dates` says), and placing a window around an event.

A window holds a neuron when
- `due`: a reminder's due date, or the next occurrence of a recurring one, falls in it (a done
  reminder is no longer due);
- `created`: it was written in it;
- `done`: a reminder was done in it, or a note was written in it ("fixed the tap");
- `any`: any of these.
A note that only *says* it is about a time in the window ("our road trip last year") is near it
(`says`): a weaker sign, weighed apart.
- `overdue`: an active, one-off reminder due before now.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import numpy as np

from core.model import InvalidInput, State
from core.when import TimeWindow, find_window, fold, words
from core.when.holidays import NAMED, SEASONS

# An event a window is placed around ("the week Mãe moved in") is the best match of its words
# if that fused score reaches ANCHOR_MIN_SCORE; "while ..." spans every match within
# ANCHOR_SHARE of the best, written within ANCHOR_SPAN_DAYS of it.
ANCHOR_MIN_SCORE = 0.3
ANCHOR_SHARE = 0.85
ANCHOR_SPAN_DAYS = 10


# A note that says when what it tells happened ("went to the support group yesterday", "our road
# trip last year") is in a window by that time too, not only by when it was written. Only notes
# with a time word are read (a quick test first: most notes have none).
_TIME_WORD = re.compile(
    r"(?<![\w'])(?:"
    + words.alt(
        [
            *words.TODAY,
            *words.TOMORROW,
            *words.YESTERDAY,
            *words.LAST_PRE,
            *words.NEXT_PRE,
            *words.AGO_BEFORE,
            *words.AGO_AFTER,
            *words.WEEKEND,
            *words.MONTHS,
            *words.WEEKDAYS,
            *NAMED,
            *SEASONS,
            "since",
        ]
    )
    + r")(?![\w])"
)


def said(text: str | None, written: datetime) -> tuple[float, float] | None:
    """The time a note says it is about, read against when it was written, as POSIX seconds."""
    if not text or not _TIME_WORD.search(fold(text)):
        return None
    window, _ = find_window(text, written)
    if window is None or window.anchor or window.overdue:
        return None
    return window.start.timestamp(), window.end.timestamp()


def says(entry, window: TimeWindow) -> bool:
    """Whether a note says it is about a time in the window (a weaker sign than its dates)."""
    return (
        entry.said is not None
        and entry.said[0] < window.end.timestamp()
        and entry.said[1] > window.start.timestamp()
    )


def due_in(entry, window: TimeWindow) -> datetime | None:
    """The due date (or the occurrence of a recurring reminder, its exceptions and moved ones
    counted, as the scheduler fires them) that falls in the window."""
    if entry.kind != "reminder" or entry.due is None:
        return None
    if window.dates != "created" and entry.state == State.DONE.value:
        return None
    if entry.series is not None:
        try:
            return next(entry.series.between(window.start, window.end, due=entry.due), None)
        except InvalidInput:  # a rule that cannot be walked: its due date alone
            pass
    return entry.due if window.holds(entry.due) else None


def holds(entry, window: TimeWindow) -> bool:
    if window.overdue:
        return (
            entry.kind == "reminder"
            and entry.state == State.ACTIVE.value
            and entry.due is not None
            and entry.due < window.end
            and not entry.rrule
        )
    if window.dates == "done":
        return window.holds(entry.done) or (entry.kind == "note" and window.holds(entry.created_at))
    if window.dates in ("due", "any") and due_in(entry, window) is not None:
        return True
    if window.dates == "any" and window.holds(entry.done):
        return True
    return window.dates in ("created", "any") and window.holds(entry.created_at)


def when_in(entry, window: TimeWindow) -> float:
    """The moment that put the neuron in the window, for ordering a window's answer."""
    due = due_in(entry, window) if window.dates in ("due", "any") else None
    if due is not None:
        return due.timestamp()
    if window.dates in ("done", "any") and window.holds(entry.done):
        return entry.done.timestamp()
    return entry.created


def slots(idx, window: TimeWindow) -> list[int]:
    """The index slots whose neuron the window holds (numpy narrows, then each is checked)."""
    created, due, done, recurring, said_from, said_to = idx.date_arrays()
    start, end = window.start.timestamp(), window.end.timestamp()
    near = ((created >= start) & (created < end)) | ((done >= start) & (done < end))
    if window.dates == "any":
        near |= (said_from < end) & (said_to > start)
    if window.dates != "created":
        near |= ((due >= start) & (due < end)) | (recurring & (due < end))
    if window.overdue:
        near |= due < end
    out = []
    for slot in np.nonzero(near)[0].tolist():
        entry = idx.entries[slot]
        if entry is not None and (holds(entry, window) or window.dates == "any" and says(entry, window)):
            out.append(slot)
    return out


def place(window: TimeWindow, fused: np.ndarray, idx) -> TimeWindow | None:
    """The window around the event `window.anchor` names, from `fused` (the event words' score
    of every slot); None when nothing matches the event well enough."""
    scores = np.where(idx.non_contacts(), np.nan_to_num(fused, nan=0.0), 0.0)
    if scores.size == 0:
        return None
    best = int(np.argmax(scores))
    if scores[best] < ANCHOR_MIN_SCORE or idx.entries[best] is None:
        return None
    moment = idx.entries[best].created_at
    if window.anchor_kind != "while":
        return window.around(moment)
    span = timedelta(days=ANCHOR_SPAN_DAYS)
    times = [
        idx.entries[s].created_at
        for s in np.nonzero(scores >= ANCHOR_SHARE * scores[best])[0]
        if idx.entries[s] is not None and abs(idx.entries[s].created_at - moment) <= span
    ]
    return window.around(min(times), max(times))
