"""One sync of one account: for each chosen collection, pull what changed on the server, then push
what changed here.

**Pull.** RFC 6578 sync-collection from the last token where the server offers it (the whole
list when that token is a week old, or after a write the server refused as changed there), else
every item's ETag compared with the last agreement. What changed is fetched (multiget), read by
core/interop and planned like an import (core/interop/plan.py: a contact's lost phone number is
kept in an archived note, a reminder keeps where its series has got to), then written in one
Memory call per batch with what each item now agrees on; the sync token is saved with the last
batch only, so a pull cut short starts again from the old one and finds the items it wrote
already agreed (nothing twice). An item the server deleted trashes its neuron (restorable).

**Push.** A neuron whose fingerprint (core/sync/items.py) changed since the last agreement is
written over the version it agreed on (If-Match), a new one is created where none is
(If-None-Match: *), a trashed one is deleted there. Each write is recorded after the server took
it (in batches): a write whose record was lost to a crash is found by the next pull, by its UID.

**Conflicts** (changed on both sides since the last agreement): the newer version stays the item,
the other becomes an archived neuron the item supersedes, and the sync says so once. A trash here
wins over an edit there (the trash keeps the edit).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from core import remind
from core.changes import started_by
from core.interop.plan import Plan, contact_body
from core.interop.report import Skip
from core.model import Edge, InvalidInput, Kind, Neuron, Relation, State
from core.store.sync_sql import KEEP_TOKEN, Account, Agreed, ChangedMeanwhileError, Collection, Local, Pulled
from core.sync import dav, items
from core.vocabulary import Origin

if TYPE_CHECKING:
    from core.memory import Memory

log = logging.getLogger(__name__)

# Items fetched, planned and written together (one multiget, one transaction).
PULL_BATCH = 200
# Server writes recorded together (a crash loses at most these records; the next pull finds them).
PUSH_RECORD_EVERY = 100
# A pull batch whose neurons keep changing while it is planned gives up after this many tries.
PLAN_TRIES = 3
DERIVED_CONFLICT = "sync:conflict"
# How long a sync waits for another one of the same memory to finish.
WAIT_FOR_OTHER_S = 600.0
# How far ahead of this machine's clock an item's time may be and still count (else it is not trusted).
CLOCK_SKEW = timedelta(minutes=5)
# Answers to a sync-collection REPORT that, from a server that offers it, can only mean it refuses
# the token it was given (or the report itself: 501): the whole list is asked for instead.
SYNC_REFUSALS = (400, 403, 409, 410, 412, 418, 422, 501)
# How long a sync token is trusted after the last sync that finished: DAViCal forgets a token a week
# after the collection next changes, and answers a forgotten one with every item it holds, as if
# that were what changed (RFC 6578 wants 403 or 412): what was deleted meanwhile would never be
# said. Past this, the whole list is asked for (one listing; only what changed is fetched).
TOKEN_TRUSTED = timedelta(days=6)
# Failures of the whole account (the server, the network, the password): the sync stops there.
ACCOUNT_FAILURES = (dav.UnreachableError, dav.WrongPasswordError, dav.TLSRefusedError)


@dataclass
class Outcome:
    """What one account's sync did (the `neurons sync --json` contract, plus what to say)."""

    url: str
    pulled: int = 0
    pushed: int = 0
    deleted: int = 0
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)  # each a failure: an item or a collection
    said: list[str] = field(default_factory=list)  # one sentence per conflict
    failed: str | None = None  # why the account could not be synced at all
    unreachable: bool = False

    def to_json(self) -> dict:
        return {
            "url": self.url,
            "pulled": self.pulled,
            "pushed": self.pushed,
            "deleted": self.deleted,
            "conflicts": self.conflicts,
            "errors": [*([self.failed] if self.failed else []), *self.errors],
            "failures": self.failures,
        }

    @property
    def failures(self) -> int:
        """What did not sync: the account (when it could not be synced at all) and each item or
        collection that failed."""
        return (1 if self.failed else 0) + len(self.errors)


def receivers(accounts: Iterable[Account]) -> set[uuid.UUID]:
    """The collections that receive what is new in Neurons: for each kind, the first writable one
    of the first account that has one (a task list for reminders, not an event calendar)."""
    chosen: dict[Kind, uuid.UUID] = {}
    for account in accounts:
        for c in account.collections:
            if c.kind is Kind.REMINDER and c.component != "VTODO":
                continue
            chosen.setdefault(c.kind, c.id)
    return set(chosen.values())


def sync_account(
    memory: Memory,
    account: Account,
    password: str,
    *,
    receiving: set[uuid.UUID],
    now: datetime | None = None,
    client: dav.Client | None = None,
) -> Outcome:
    """Sync every chosen collection of the account; a failure of the account is its `failed`."""
    now = now or remind.utcnow()
    outcome = Outcome(account.url)
    own = client is None
    client = client or dav.Client(account.url, account.username, password, redirects=account.redirects)
    synced = account.synced_at
    tokens_trusted = synced is not None and remind.utcnow() - synced < TOKEN_TRUSTED
    try:
        with started_by(Origin.SYNC):
            for collection in account.collections:
                errors_before = len(outcome.errors)
                try:
                    CollectionSync(
                        memory, client, collection, outcome, collection.id in receiving, now, tokens_trusted
                    ).run()
                except ACCOUNT_FAILURES:
                    raise
                except dav.SyncError as exc:  # this collection only: the others still sync
                    gone = isinstance(exc, dav.ServerError) and exc.status in (404, 410)
                    why = f"it is no longer on the server ({exc})" if gone else str(exc)
                    outcome.errors.append(f"{collection.name}: {why}")
                errors = outcome.errors[errors_before:]
                memory.sync_collection_tried(collection.id, "; ".join(errors) if errors else None)
    except dav.SyncError as exc:
        outcome.failed = str(exc)
        outcome.unreachable = isinstance(exc, dav.UnreachableError)
    finally:
        if own:
            client.close()
    memory.sync_tried(account.id, remind.utcnow(), outcome.failed)
    return outcome


def sync_all(
    memory: Memory,
    password_of: Callable[[Account], str | None],
    *,
    now: datetime | None = None,
    wait_s: float = WAIT_FOR_OTHER_S,
) -> list[Outcome]:
    """Sync every account (one sync of a memory at a time: a second waits for the first)."""
    lock = memory.sync_lock
    if not lock.acquire(timeout=wait_s):
        raise dav.SyncError("another sync of this memory is still running: try again in a moment")
    try:
        accounts = memory.sync_accounts()
        receiving = receivers(accounts)
        outcomes = []
        for account in accounts:
            password = password_of(account)
            if password is None:
                outcome = Outcome(account.url, failed=_no_password(account))
                memory.sync_tried(account.id, remind.utcnow(), outcome.failed)
            else:
                outcome = sync_account(memory, account, password, receiving=receiving, now=now)
            outcomes.append(outcome)
        return outcomes
    finally:
        lock.release()


def _no_password(account: Account) -> str:
    return (
        f"no password for {account.username} at {account.url}: the keyring holds none "
        "(run neurons sync add again, or give NEURONS_SYNC_PASSWORD)"
    )


# -- one collection -------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one planned batch will have done once it is written (counted only then)."""

    pulled: int = 0
    conflicts: int = 0
    said: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class CollectionSync:
    def __init__(
        self,
        memory: Memory,
        client: dav.Client,
        collection: Collection,
        outcome: Outcome,
        receives_new: bool,
        now: datetime,
        token_trusted: bool = True,
    ):
        self.memory, self.client, self.c, self.outcome = memory, client, collection, outcome
        self.receives_new, self.now, self.token_trusted = receives_new, now, token_trusted
        self.tally = Tally()

    def fingerprint(self, neuron: Neuron) -> str:
        return items.fingerprint(neuron, self.c)

    def run(self) -> None:
        self.pull()
        self.push()

    # -- pull ----------------------------------------------------------------------------------

    def listing(self) -> tuple[dict[str, str | None], str | None, bool]:
        """What changed on the server ({href: etag, None: deleted}), the new sync token, and
        whether it is the whole list. A token refused (RFC 6578's 403 or 412, or without a reason:
        Nextcloud before 2024 answered 418 to a token that had seen a delete) restarts with the
        whole list; a server that offers sync-collection yet refuses it even then (what the
        caldav library's notes call ungraceful: Posteo, GMX) is listed by ETag. A token not trusted
        any more (TOKEN_TRUSTED) is not sent. Never a collection stuck for good."""
        if not self.c.supports_sync:
            return self.client.etags(self.c.href), None, True
        if self.c.sync_token and self.token_trusted:
            try:
                return self.client.changes(self.c.href, self.c.sync_token)
            except dav.InvalidTokenError:
                pass
            except dav.ServerError as exc:
                if exc.status not in SYNC_REFUSALS:
                    raise
        try:
            return self.client.changes(self.c.href, None)
        except dav.InvalidTokenError:
            pass
        except dav.ServerError as exc:
            if exc.status not in SYNC_REFUSALS:
                raise
        return self.client.etags(self.c.href), None, True

    def pull(self) -> None:
        agreed = self.memory.sync_agreed(self.c.id)
        listed, token, whole = self.listing()
        for href in list(listed):
            why = dav.outside(self.c.href, href)
            if why is not None:  # never read, written or deleted: said each time it is listed
                del listed[href]
                self.outcome.errors.append(f"{self.c.name}: an item was skipped, {why}: {href!r}")
        if whole:  # the whole list: what it does not hold was deleted
            for href in agreed:
                listed.setdefault(href, None)
        wanted = [
            h
            for h, etag in listed.items()
            if etag is not None and (h not in agreed or agreed[h].etag != etag or not etag)
        ]
        gone = [h for h, etag in listed.items() if etag is None and h in agreed]
        batches = [wanted[i : i + PULL_BATCH] for i in range(0, len(wanted), PULL_BATCH)] or [[]]
        for number, hrefs in enumerate(batches):
            last = number == len(batches) - 1
            fetched = self._fetch(hrefs)
            for attempt in range(PLAN_TRIES):
                pulled = self._plan(fetched, gone if last else [], agreed)
                pulled.token = token if last and self.c.supports_sync else KEEP_TOKEN
                idle = not (
                    pulled.created or pulled.updated or pulled.trashed or pulled.agreed or pulled.forgotten
                )
                if idle and (pulled.token is KEEP_TOKEN or pulled.token == self.c.sync_token):
                    break
                try:
                    self.memory.apply_sync(pulled, self.fingerprint)
                except ChangedMeanwhileError:
                    if attempt < PLAN_TRIES - 1:
                        agreed = self.memory.sync_agreed(self.c.id)
                        continue
                    self.outcome.errors.append(
                        f"{self.c.name}: items kept changing here while they were synced; "
                        "the next sync takes them"
                    )
                    return
                self.outcome.pulled += self.tally.pulled
                self.outcome.conflicts += self.tally.conflicts
                self.outcome.said += self.tally.said
                self.outcome.deleted += len(pulled.trashed)
                break
            self.outcome.errors += self.tally.errors
            if not last:
                agreed = self.memory.sync_agreed(self.c.id)

    def _fetch(self, hrefs: list[str]) -> list[items.Remote | tuple[str, str | None, Skip]]:
        if not hrefs:
            return []
        got = self.client.multiget(self.c.href, hrefs, self.c.kind is Kind.CONTACT)
        out: list[items.Remote | tuple[str, str | None, Skip]] = []
        for href in hrefs:
            found = got.get(href)
            if found is None:
                continue  # deleted between the listing and now: the next listing says so
            etag, data = found
            try:
                out.append(items.read(self.c, href, etag, data, self.now))
            except Skip as exc:
                out.append((href, etag, exc))
            except (InvalidInput, ValueError) as exc:
                out.append((href, etag, Skip(href.rsplit("/", 1)[-1], str(exc))))
        return out

    def _plan(self, fetched, gone: list[str], agreed: dict[str, Agreed]) -> Pulled:
        pulled = Pulled(self.c.id)
        self.tally = Tally()
        locals_ = self.memory.sync_locals([self.c.kind])  # before the plan's own read: see apply_sync
        by_id = {local.neuron.id: local for local in locals_}
        for href in gone:
            was = agreed[href]
            local = by_id.get(was.neuron_id) if was.neuron_id else None
            if local is not None and local.neuron.state is not State.TRASHED:
                pulled.trashed.append(local.neuron.id)
                pulled.expected[local.neuron.id] = local.seq
            pulled.forgotten.append(href)
        remotes = []
        for entry in fetched:
            if isinstance(entry, items.Remote):
                remotes.append(entry)
                continue
            href, etag, skip = entry
            self._unreadable(pulled, href, etag, agreed, f"{skip.item}: {skip.why}")
        if not remotes:
            return pulled
        plan = Plan(self.memory, "sync", self.now) if self.c.kind is not Kind.NOTE else None
        if plan is not None:  # what the batch's items could match, read in one go
            for remote in remotes:
                if self.c.kind is Kind.CONTACT:
                    plan.want_card(remote.attrs)
                else:
                    plan.want_reminder(remote.uid)
            plan.read()
        claimed = {local.neuron.id for local in locals_ if local.collection_id is not None}
        unsynced: dict[str, Local] = {}
        for local in locals_:
            if local.collection_id is None:
                n = local.neuron
                for uid in (str(n.attrs.get("uid") or ""), str(n.id), f"urn:uuid:{n.id}"):
                    if uid:
                        unsynced.setdefault(uid, local)
        for remote in remotes:
            a = agreed.get(remote.href)
            local = by_id.get(a.neuron_id) if a is not None and a.neuron_id else None
            if local is None:
                # not synced yet, yet this item: pushed by a sync cut off before it recorded the
                # write, or brought by an import of the same calendar
                found = unsynced.get(remote.uid)
                local = found if found is not None and found.neuron.id not in claimed else None
            if local is None:
                nid = self._create(plan, pulled, remote, claimed, agreed)
                if nid is not None:
                    claimed.add(nid)
                    pulled.agreed.append(Agreed(remote.href, remote.etag, nid))
                continue
            claimed.add(local.neuron.id)
            pulled.expected[local.neuron.id] = local.seq
            self._update(plan, pulled, remote, local, a)
        if plan is not None:
            pulled.created = list(plan.created.values()) + pulled.created
            pulled.updated = list(plan.updated.values()) + pulled.updated
            pulled.edges = plan.new_edges + pulled.edges
        return pulled

    def _unreadable(self, pulled: Pulled, href: str, etag, agreed: dict[str, Agreed], why: str) -> None:
        """An item Neurons cannot read: said once, then passed over until it changes."""
        if href not in agreed or agreed[href].etag != etag:
            self.tally.errors.append(f"{self.c.name}: {why}")
        pulled.agreed.append(Agreed(href, etag, None))

    def _as_neuron(self, remote: items.Remote, like: Neuron | None = None) -> Neuron:
        """The server's version as a neuron (to compare, or to keep as a conflict's copy)."""
        contact = self.c.kind is Kind.CONTACT
        return Neuron(
            id=like.id if like else uuid.uuid4(),
            kind=self.c.kind,
            body=contact_body(remote.attrs) if contact else remote.body,
            attrs=dict(remote.attrs),
            state=(like.state if like else State.ACTIVE) if contact else remote.state,
            created_at=like.created_at if like else self.now,
            updated_at=remote.modified or self.now,
        )

    def _create(
        self, plan: Plan | None, pulled: Pulled, remote: items.Remote, claimed: set[uuid.UUID], agreed
    ) -> uuid.UUID | None:
        """A neuron for an item new to Neurons (or the unsynced contact it matches); its id."""
        if plan is None:  # a note
            neuron = self._as_neuron(remote)
            pulled.created.append(neuron)
            self.tally.pulled += 1
            return neuron.id
        before, skipped = set(plan.created), len(plan.report.skipped)
        counted = plan.report.created + plan.report.updated
        with plan.item(remote.label):
            if self.c.kind is Kind.CONTACT:
                match = plan.match_contact(remote.attrs)
                if match is None or match.id not in claimed:
                    plan.contact(remote.label, remote.attrs)
                else:  # it looks like a contact synced from another item: a contact of its own
                    plan.put(self._as_neuron(remote))
            else:
                match = plan.find(f"reminder:uid:{remote.uid}", f"id:{remote.uid}")
                if match is None or (match.id not in claimed and match.kind is Kind.REMINDER):
                    plan.reminder(remote.uid, remote.body, remote.attrs, remote.state)
                else:
                    match = None
                    plan.put(self._as_neuron(remote))
        if len(plan.report.skipped) > skipped:  # refused (a text or attrs Neurons cannot keep)
            last = plan.report.skipped[-1]
            self._unreadable(pulled, remote.href, remote.etag, agreed, f"{last['item']}: {last['why']}")
            return None
        self.tally.pulled += max(plan.report.created + plan.report.updated - counted, 1)
        if match is not None and match.id not in claimed:
            return match.id
        made = [nid for nid, n in plan.created.items() if nid not in before and n.kind is self.c.kind]
        return made[0] if made else None

    def _changed_here(self, local: Local, a: Agreed | None) -> bool:
        if a is None or a.neuron_id != local.neuron.id:
            return True  # never agreed: only what it holds can tell
        if local.neuron.state is State.TRASHED:
            return a.fingerprint != "trashed"
        return local.seq != a.seen_seq and self.fingerprint(local.neuron) != a.fingerprint

    def _update(
        self, plan: Plan | None, pulled: Pulled, remote: items.Remote, local: Local, a: Agreed | None
    ) -> None:
        theirs = self._as_neuron(remote, like=local.neuron)
        if local.neuron.state is not State.TRASHED and self.fingerprint(theirs) == self.fingerprint(
            local.neuron
        ):
            # both sides hold the same (a write of ours coming back, the same change made twice)
            pulled.agreed.append(Agreed(remote.href, remote.etag, local.neuron.id))
            return
        if not self._changed_here(local, a):
            self._take(plan, pulled, remote, local)
            pulled.agreed.append(Agreed(remote.href, remote.etag, local.neuron.id))
            return
        title = local.neuron.title
        self.tally.conflicts += 1
        if local.neuron.state is State.TRASHED:  # the trash wins, and keeps the server's edit
            self._keep_beside(pulled, local.neuron.id, items.copy_of(local.neuron, self.now))
            self._take(plan, pulled, remote, local, keep_trashed=True)
            pulled.agreed.append(Agreed(remote.href, remote.etag, local.neuron.id, "", -1))
            self.tally.said.append(
                f"“{title}” was changed on the server after it was trashed here: it is deleted there, "
                "and the trash holds the server's version (restore it to bring it back)"
            )
            return
        # changed on both sides: the newer by the item's own clock stays the item, the other is
        # kept beside it; a time that cannot be trusted (none, or in the future) leaves the server's
        # as the item (both are kept either way)
        limit = self.now + CLOCK_SKEW
        there_at = remote.modified if remote.modified is not None and remote.modified <= limit else None
        here_at = local.neuron.updated_at
        here_at = here_at if here_at is not None and here_at <= limit else None
        server_newer = there_at is None or here_at is None or there_at >= here_at.replace(microsecond=0)
        if server_newer:
            self._keep_beside(pulled, local.neuron.id, items.copy_of(local.neuron, self.now))
            self._take(plan, pulled, remote, local)
            pulled.agreed.append(Agreed(remote.href, remote.etag, local.neuron.id))
        else:
            self._keep_beside(pulled, local.neuron.id, items.copy_of(theirs, self.now))
            # what is here goes to the server next (no fingerprint agrees with it)
            pulled.agreed.append(Agreed(remote.href, remote.etag, local.neuron.id, "", -1))
        kept = "the server's version" if server_newer else "the version here"
        self.tally.said.append(
            f"“{title}” was changed both here and on the server: {kept} is kept, being newer; "
            "the other is archived beside it"
        )

    def _take(
        self, plan: Plan | None, pulled: Pulled, remote: items.Remote, local: Local, keep_trashed=False
    ) -> None:
        """The server's version becomes the neuron (planned like an import of it)."""
        if plan is None:  # a note: its text and tags
            updated = Neuron(
                id=local.neuron.id,
                kind=Kind.NOTE,
                body=remote.body,
                attrs={**local.neuron.attrs, **remote.attrs},
                state=State.TRASHED if keep_trashed else remote.state,
                created_at=local.neuron.created_at,
                updated_at=local.neuron.updated_at,
            )
            if (updated.body, updated.attrs, updated.state) != (
                local.neuron.body,
                local.neuron.attrs,
                local.neuron.state,
            ):
                pulled.updated.append(updated)
                self.tally.pulled += 1
            return
        changed = plan.report.updated
        with plan.item(remote.label):
            if self.c.kind is Kind.CONTACT:
                plan.contact(remote.label, remote.attrs)
            else:
                plan.reminder(remote.uid, remote.body, remote.attrs, remote.state)
        if plan.report.updated > changed:
            self.tally.pulled += 1
        planned = plan.updated.get(local.neuron.id)
        if keep_trashed and planned is not None:
            planned.state = State.TRASHED

    def _keep_beside(self, pulled: Pulled, item: uuid.UUID, copy: Neuron) -> None:
        """A conflict's other version: an archived neuron the item supersedes."""
        pulled.created.append(copy)
        pulled.edges.append(
            Edge(
                id=uuid.uuid4(),
                from_id=item,
                to_id=copy.id,
                relation=Relation.SUPERSEDES,
                valid_from=self.now,
                derived_by=DERIVED_CONFLICT,
            )
        )

    # -- push ----------------------------------------------------------------------------------

    def push(self) -> None:
        agreed: list[Agreed] = []
        seen: dict[uuid.UUID, int] = {}
        forgotten: list[str] = []

        def record(force: bool = False) -> None:
            if force or len(agreed) + len(seen) + len(forgotten) >= PUSH_RECORD_EVERY:
                if agreed or seen or forgotten:
                    self.memory.record_pushed(self.c.id, list(agreed), dict(seen), list(forgotten))
                agreed.clear()
                seen.clear()
                forgotten.clear()

        content_type = items.content_type(self.c)
        refused = False
        try:
            for local in self.memory.sync_locals([self.c.kind]):
                neuron, a = local.neuron, local.agreed
                if local.collection_id == self.c.id and a is not None:
                    why = dav.outside(self.c.href, a.href)
                    if why is not None:  # agreed before addresses were checked: never written to
                        self.outcome.errors.append(f"{self.c.name}: “{neuron.title}” was not sent, {why}")
                        continue
                try:
                    if local.collection_id == self.c.id and a is not None:
                        if neuron.state is State.TRASHED:
                            self.client.delete(a.href, a.etag)
                            forgotten.append(a.href)
                            self.outcome.deleted += 1
                        elif local.seq != a.seen_seq:
                            fingerprint = self.fingerprint(neuron)
                            if fingerprint == a.fingerprint:
                                seen[neuron.id] = local.seq
                            else:
                                text = items.text_of(neuron, self.c)
                                etag = self.client.put(a.href, text, content_type, etag=a.etag)
                                agreed.append(Agreed(a.href, etag, neuron.id, fingerprint, local.seq))
                                self.outcome.pushed += 1
                    elif local.collection_id is None and self.receives_new and self._goes_out(neuron):
                        href = items.new_href(self.c, neuron)
                        text = items.text_of(neuron, self.c)
                        etag = self.client.put(href, text, content_type, new=True)
                        agreed.append(Agreed(href, etag, neuron.id, self.fingerprint(neuron), local.seq))
                        self.outcome.pushed += 1
                except dav.PreconditionError:
                    # changed there meanwhile (or there already, or deleted there): the next pull
                    # takes it up
                    refused = True
                    self.outcome.errors.append(
                        f"{self.c.name}: “{neuron.title}” was not sent: it changed on the server "
                        "meanwhile (the next sync compares both)"
                    )
                    continue
                except dav.ServerError as exc:  # this item only: the others are still sent
                    self.outcome.errors.append(f"{self.c.name}: the server refused “{neuron.title}” ({exc})")
                record()
        finally:
            record(force=True)  # what the server took is recorded, even when the sync stops here
            if refused and self.c.supports_sync:
                # the next pull lists the whole collection, so that a change the listed changes
                # left out (a delete, when DAViCal answered a token it forgot) is found there
                # rather than the write refused again at every sync
                self.memory.apply_sync(Pulled(self.c.id, token=None), self.fingerprint)

    def _goes_out(self, neuron: Neuron) -> bool:
        """Whether a neuron not synced yet is sent: an active one, not one Neurons derives (a
        contact's birthday: the phone shows the contact's own) nor an event from elsewhere."""
        if neuron.state is not State.ACTIVE:
            return False
        if neuron.kind is Kind.REMINDER:
            return not neuron.attrs.get("birthday_of") and neuron.attrs.get("ical_component") != "VEVENT"
        return True
