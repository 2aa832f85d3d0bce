"""The two-way sync cases of test_sync.py again, against Xandikos instead of Radicale: a second
real server, written apart from the first (git-backed, strict about RFC 6578), so that what
passes is what the protocol says rather than what one server lets through."""

from __future__ import annotations

import pytest

from core.model import Kind, State
from core.store import sync_sql
from tests.core.test_sync import (  # noqa: F401 - fixtures, and cases collected here against Xandikos
    account,
    memory,
    of_kind,
    sync,
    test_a_conflicting_edit_keeps_both_texts,
    test_a_recurring_series_with_exceptions_and_its_zone,
    test_a_reminder_captured_here_appears_as_a_vtodo_with_its_due_time,
    test_contacts_go_out_in_the_version_the_server_prefers_and_a_first_sync_merges_by_email,
    test_deletes_both_ways,
    test_done_on_either_side_is_done_on_both,
    test_the_newer_edit_here_wins_and_goes_to_the_server,
    test_time_zones_both_ways,
    test_two_machines_editing_seconds_apart_keep_the_newer_edit_on_both,
    test_what_the_phone_makes_appears_and_a_second_sync_moves_nothing,
    todo,
)


@pytest.fixture
def radicale(xandikos):
    """The server the imported cases call `radicale`: here, a Xandikos of this test's own."""
    return xandikos


def test_a_token_xandikos_no_longer_knows_restarts_with_a_full_listing(account, memory):  # noqa: F811 - the fixtures imported above
    """Xandikos answers a token it does not know with 412 and DAV:valid-sync-token (RFC 6578 3.2):
    after a collection is restored, the sync lists it again whole instead of failing for good."""
    account.tasks.save_todo(todo("kept", "A kept task", "DUE:20310310T150000Z\r\n"))
    account.tasks.save_todo(todo("gone", "A task deleted meanwhile", "DUE:20310310T150000Z\r\n"))
    sync(memory)
    tasks = next(c for c in memory.sync_accounts()[0].collections if c.kind is Kind.REMINDER)
    with memory.store.transaction(memory.identity) as cur:  # as a restored collection leaves it
        sync_sql.save_token(cur, memory.identity, tasks.id, "http://xandikos.org/ns/sync/unknown")
    account.delete(f"{account.tasks.url}gone.ics")
    out = sync(memory)  # exit 0, or sync() says why
    assert out["deleted"] == 1 and out["errors"] == []
    assert {n.title: n.state for n in of_kind(memory, Kind.REMINDER)} == {
        "A kept task": State.ACTIVE,
        "A task deleted meanwhile": State.TRASHED,
    }
