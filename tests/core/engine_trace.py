"""Round trips to a store's engine, and the statements sent, read from libpq's own trace of its
connection (tests of both engines use it)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator

from psycopg import pq


@contextlib.contextmanager
def _traced(store) -> Iterator[list[str]]:
    """The lines of libpq's trace of the store's connection in the block, filled when it ends."""
    lines: list[str] = []
    with tempfile.TemporaryFile() as trace:
        pgconn = store.conn.pgconn
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield lines
        finally:
            pgconn.untrace()
            trace.seek(0)
            lines.extend(trace.read().decode(errors="replace").splitlines())


@contextlib.contextmanager
def round_trips(store) -> Iterator[list[int]]:
    """How many times the store's connection sent its engine something and then waited for its
    answer in the block, read from libpq's own trace of the connection: a run of messages sent
    (F) followed by messages received (B) is one round trip, whether it ends with ReadyForQuery
    or, in pipeline mode, with a flush."""
    counted: list[int] = []
    with _traced(store) as lines:
        yield counted
    trips, last = 0, None
    for line in lines:
        way = line.split("\t", 1)[0]
        if way == "F" and last != "F":
            trips += 1
        if way in ("F", "B"):
            last = way
    counted.append(trips)


@contextlib.contextmanager
def statements_sent(store) -> Iterator[list[str]]:
    """The text of each statement the store's connection sent its engine in the block, as libpq
    traced it (a Parse or a Query message)."""
    sent: list[str] = []
    with _traced(store) as lines:
        yield sent
    for line in lines:
        fields = line.split("\t")
        if fields[0] == "F" and len(fields) > 3 and fields[2] in ("Parse", "Query"):
            sent.append(fields[3])
