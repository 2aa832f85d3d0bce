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

from core.model import State
from core.remind.series import occurrence_between
from core.when import TimeWindow, fold, words
from core.when.holidays import NAMED, SEASONS
from core.when.window import said_window

# An event a window is placed around ("the week Mãe moved in") is the best match of its words
# if that fused score reaches ANCHOR_MIN_SCORE; "while ..." spans every match within
# ANCHOR_SHARE of the best, written within ANCHOR_SPAN_DAYS of it.
ANCHOR_MIN_SCORE = 0.3
ANCHOR_SHARE = 0.85
ANCHOR_SPAN_DAYS = 10


# A note that says when what it tells happened ("went to the support group yesterday", "our road
# trip last year") is in a window by that time too, not only by when it was written. Only notes
# with a time word are read (a quick test first: most notes have none).
_TIME_WORDS = [
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
# (the alternation as a tree: one search of it over a note is quicker than any test word by word)
_TIME_WORD = re.compile(r"(?<![\w'])(?:" + words.alt(_TIME_WORDS) + r")(?![\w])")


def said(text: str | None, written: datetime) -> tuple[float, float] | None:
    """The time a note says it is about, read against when it was written, as POSIX seconds."""
    if not text or not _TIME_WORD.search(fold(text)):
        return None
    span = said_window(text, written)
    return None if span is None else (span[0].timestamp(), span[1].timestamp())


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
    return occurrence_between(entry.series, entry.due, window.start, window.end)


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


def masks(idx, window: TimeWindow) -> tuple[np.ndarray, np.ndarray]:
    """Over every slot of the index at once: whether the window holds its neuron (`holds`), and,
    for a window of any dates, whether the neuron only says it is about a time in it (`says`).
    Decided in numpy -- at 100k neurons a window like "last year" holds tens of thousands, one
    by one that was most of such a question's time -- save a recurring reminder's occurrences,
    which `holds` reads one reminder at a time."""
    created, due, done, recurring, said_from, said_to = idx.date_arrays()
    reminder, note, active, done_state = idx.kind_masks()
    start, end = window.start.timestamp(), window.end.timestamp()

    def within(moments: np.ndarray) -> np.ndarray:
        return (moments >= start) & (moments < end)

    near = within(created) | within(done)
    if window.dates == "any":
        near |= (said_from < end) & (said_to > start)
    if window.dates != "created":
        near |= within(due) | (recurring & (due < end))
    if window.overdue:
        near |= due < end
    # `holds`, rule by rule, for a neuron without a repeat rule (+inf: no such date)
    if window.overdue:
        held = reminder & active & (due < end) & ~recurring
    elif window.dates == "done":
        held = within(done) | (note & within(created))
    else:
        held = np.zeros(created.size, dtype=bool)
        if window.dates in ("due", "any"):
            held |= reminder & ~done_state & within(due)
        if window.dates == "any":
            held |= within(done)
        if window.dates in ("created", "any"):
            held |= within(created)
    held &= near
    said_only = near & (said_from < end) & (said_to > start) if window.dates == "any" else np.zeros_like(held)
    for slot in np.nonzero(near & recurring)[0].tolist():
        entry = idx.entry(slot)
        held[slot] = entry is not None and holds(entry, window)
    said_only &= ~held
    return held, said_only


def slots(idx, window: TimeWindow) -> list[int]:
    """The index slots whose neuron the window holds, or says it is about a time in it."""
    held, said_only = masks(idx, window)
    return np.nonzero(held | said_only)[0].tolist()


def moments(idx, window: TimeWindow, slots: np.ndarray) -> np.ndarray:
    """`when_in` of each of `slots` (held by the window), at once; recurring ones one by one."""
    created, due, done, recurring, _, _ = idx.date_arrays()
    reminder, _, _, done_state = idx.kind_masks()
    start, end = window.start.timestamp(), window.end.timestamp()
    out = created[slots].copy()
    if window.dates in ("done", "any"):
        out = np.where((done[slots] >= start) & (done[slots] < end), done[slots], out)
    if window.dates in ("due", "any"):
        hit = reminder[slots] & ~done_state[slots] & (due[slots] >= start) & (due[slots] < end)
        out = np.where(hit, due[slots], out)
    for i in np.nonzero(recurring[slots])[0].tolist():
        out[i] = when_in(idx.entry(int(slots[i])), window)
    return out


def place(window: TimeWindow, fused: np.ndarray, idx) -> TimeWindow | None:
    """The window around the event `window.anchor` names, from `fused` (the event words' score
    of every slot); None when nothing matches the event well enough."""
    scores = np.where(idx.non_contacts(), np.nan_to_num(fused, nan=0.0), 0.0)
    if scores.size == 0:
        return None
    best = int(np.argmax(scores))
    found = idx.entry(best)
    if scores[best] < ANCHOR_MIN_SCORE or found is None:
        return None
    moment = found.created_at
    if window.anchor_kind != "while":
        return window.around(moment)
    span = timedelta(days=ANCHOR_SPAN_DAYS)
    near = [idx.entry(int(s)) for s in np.nonzero(scores >= ANCHOR_SHARE * scores[best])[0]]
    times = [e.created_at for e in near if e is not None and abs(e.created_at - moment) <= span]
    return window.around(min(times), max(times))
