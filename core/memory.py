"""Memory: the one façade every caller uses (CLI, desktop, scheduler, eval, MCP, tests).

Each call is scoped to the Memory's Identity and runs in one transaction: it either happens whole
and is on disk when it returns, or raises a NeuronsError and leaves the store as it was. The
rooms behind it only read (capture, recall: through `self.reader`) or only compute (remind);
every write is a method here. Listeners get one `Change` per committed write.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import logging
import re
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from core import backup as backups
from core import backup_elsewhere as elsewhere
from core import capture, config, remind
from core.capture import Offer, Update
from core.changes import AFFECTS, Change, current_origin
from core.embed import DIM, EmbeddingFiller, SentenceModel
from core.interop import phones
from core.interop.json import build_export, parse_export
from core.model import (
    Edge,
    Edit,
    Identity,
    InvalidInput,
    Kind,
    Neuron,
    NeuronsError,
    NotFound,
    Relation,
    State,
)
from core.recall import About, Asking, Recall, Result, saved
from core.settings import Settings, check_install
from core.store import Store, open_store, queries, recall_sql, secrets, sync_sql
from core.store.embedded import node_executable
from core.store.errors import StoreError
from core.store.reader import StoreReader
from core.store.store import saved_device_id
from core.validate import (
    MAX_WEIGHT,
    aware,
    clean_attrs,
    clean_key,
    clean_text,
    number,
    optional_text,
    parse_limit,
    parse_uuid,
    times_in,
)
from core.vocabulary import Action, Fusion, Mode

log = logging.getLogger(__name__)

# The recall indexes kept between runs, one file per engine and identity, in the data dir.
SAVED_INDEX_DIR = "recall"
# Reminders are read from the store in pages of this size.
REMINDER_PAGE = 500
# A short id that several ids start with lists at most this many of them.
ID_CANDIDATES = 5
# A new contact links at most this many earlier neurons per word of its name that name it.
EARLIER_MENTIONS_LIMIT = 200
PROFILE_NAME_MAX = 200
# The ids of captures given an idempotency key: uuid5 of the identity and the key in this space.
CAPTURE_KEYS = uuid.UUID("5d0c6a3e-8f51-4b0e-9d7a-2f6b1c4e9a10")


# How far the store's clean mark (migration 009) may trail the filler's last empty look before it
# is written again: a start then reads at most that many change numbers' rows for nothing.
CLEAN_MARK_EVERY = 1000


@dataclass(frozen=True)
class VectorProgress:
    """How far the neurons' vectors are from all being of the current model."""

    pending: int  # without a vector of the current model
    total: int  # neurons in the store (while upgrading; else at least those since the clean mark)
    old: int  # of the pending ones, those with another (older) model's vector: an upgrade's backlog

    @property
    def upgrading(self) -> bool:
        return self.old > 0


class Memory:
    def __init__(
        self,
        store: Store,
        identity: Identity | None = None,
        *,
        owns_store: bool = True,
        model: SentenceModel | None = None,
    ):
        self.store = store
        self.identity = identity or own_identity(store)
        self._owns_store = owns_store
        # one model per store's Memory, shared with its identity views (loaded on first use)
        self.model = model or SentenceModel(store.settings.model_dir)
        self._owns_model = model is None  # a given model is its giver's to close
        self.reader = StoreReader(store, self.identity)
        self.recall = Recall(self.reader, self.model.get, saved_at=self._saved_index())
        self.filler: EmbeddingFiller | None = None  # the background filler, when started
        self.listeners: list[Callable[[Change], None]] = []
        self.sync_lock = threading.Lock()  # one sync with a server at a time (core/sync)
        if owns_store:  # the owner tells its listeners when the store's engine had to restart
            store.restart_listeners.append(self._engine_restarted)

    @classmethod
    def open(
        cls,
        settings: Settings | None = None,
        identity: Identity | None = None,
        *,
        wait_s: float = 0.0,
        give_up: Callable[[], bool] | None = None,
        load_model: bool = False,
        store: Store | Callable[[], Store] | None = None,
        read_ahead: bool = False,
    ) -> Memory:
        """Open the data dir's store. The one wait for a data dir another process holds: with
        `wait_s`, a short command that holds it is waited for that long (or until `give_up()`)
        before LockHeld; the running app is never waited for (callers ask it first).
        `load_model`: the sentence model starts loading on a thread of its own meanwhile (it
        needs no store; the app's first question needs both). `store`: the data dir's store,
        opened already (the CLI starts its engine while it loads the rest), or a callable that
        gives it once open (core/opening.py: the model's load starts first); the Memory owns it.
        `read_ahead`: the recall index's file is read meanwhile (`_read_ahead`; the app's first
        question needs it), and used once the store vouches for it."""
        settings = settings or Settings.from_env()
        model = SentenceModel(settings.model_dir)
        if load_model:
            threading.Thread(target=model.get, name="neurons-load-model", daemon=True).start()
        try:
            ahead = _read_ahead(settings, model) if read_ahead and identity is None else None
            if callable(store):
                store = store()
            store = store or open_store(settings, wait_s=wait_s, give_up=give_up)
        except BaseException:
            model.close()  # (after a load in flight: its lock)
            raise
        memory = cls(store, identity, model=model)
        memory._owns_model = True
        memory.recall.ahead = ahead
        if memory.store.settings.embed_in_background:
            memory.start_background()
        return memory

    def as_identity(self, identity: Identity) -> Memory:
        """Another identity's view over the same store and model (both stay with this Memory)."""
        return Memory(self.store, identity, owns_store=False, model=self.model)

    # -- vectors (core/embed) ---------------------------------------------------------------------

    def embedder(self):
        """The loaded sentence model, shared by queries and the filler; None when unavailable."""
        return self.model.get()

    def _clean_upto(self, cur) -> int | None:
        """The change number up to which every neuron had a vector of the current model, as the
        store keeps it across runs (migration 009); None when unknown, and always on a server:
        its transactions may commit out of order, so it looks at everything."""
        if self.store.kind != "embedded":
            return None
        return queries.vectors_clean_upto(cur, self.model.name)

    def _new_filler(self) -> EmbeddingFiller:
        name = self.model.name  # rows whose vector is of another model (or none) are pending
        fetched: dict[uuid.UUID, str] = {}
        # On the embedded engine, once a look found nothing pending, later looks read only what
        # was written since (a neuron needs a vector only after a write, which takes a new change
        # number); the store keeps that mark, so a start reads only what was written since the
        # last run's empty look (every CLEAN_MARK_EVERY change numbers, not at every look).
        clean_upto: list[int | None] = [None]
        marked: list[int | None] = [None]  # the mark the store holds
        first = [True]

        def since(cur) -> int | None:
            if first[0]:
                first[0] = False
                clean_upto[0] = marked[0] = self._clean_upto(cur)
            return clean_upto[0]

        last: list[int | None] = [None]  # the stamp of a look that got every pending row

        def clean(stamp: int) -> None:
            clean_upto[0] = stamp
            if marked[0] is None or stamp - marked[0] >= CLEAN_MARK_EVERY:
                with self.store.transaction(every_owner=True) as cur:
                    queries.mark_vectors_clean(cur, name, stamp)
                marked[0] = stamp

        def fetch(n: int):
            with self.store.reading(every_owner=True) as cur:
                stamp = recall_sql.change_stamp(cur)
                rows = queries.pending_embeddings(cur, name, n, since=since(cur))
            embedded = self.store.kind == "embedded"
            last[0] = stamp if embedded and len(rows) < n else None
            if not rows and embedded:
                clean(stamp)
            fetched.clear()
            fetched.update(rows)
            return rows

        def save(rows, model_name: str) -> None:
            self.save_vectors(rows, model_name, texts=fetched)
            # the look's every pending row now has its vector (one edited since has a newer number)
            if last[0] is not None and model_name == name and {nid for nid, _ in rows} == set(fetched):
                clean(last[0])

        def count() -> int:
            with self.store.reading(every_owner=True) as cur:
                return queries.count_pending_embeddings(cur, name, since=since(cur))

        return EmbeddingFiller(fetch, save, self.model.require, count_pending=count)

    def save_vectors(
        self,
        rows: Sequence[tuple[uuid.UUID, Sequence[float]]],
        model: str,
        *,
        texts: dict[uuid.UUID, str] | None = None,
    ) -> None:
        """Store the vectors `model` gave these neurons, in one transaction (of any identity:
        vectors are derived data the store keeps for all, as the filler's queue is); with
        `texts`, only where the body is still the text that was embedded. The filler saves its
        batches here; a bulk build (tests/bench) its own vectors."""
        if not isinstance(model, str) or not model.strip():
            raise InvalidInput("a vector needs the name of the model that made it")
        for nid, vec in rows:
            arr = np.asarray(vec, dtype=np.float64)
            if arr.shape != (DIM,) or not np.isfinite(arr).all():
                raise InvalidInput(f"the vector of {nid} is not {DIM} finite numbers; nothing was saved")
        with self.store.transaction(every_owner=True) as cur:
            queries.save_embeddings(cur, rows, model, texts=texts)

    def start_background(self) -> None:
        """Fill missing vectors on a background thread; captures wake it."""
        if self.filler is None:
            self.filler = self._new_filler()
            self.filler.start()

    def fill_vectors(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every neuron (of any identity) still without a current vector; returns how many."""
        return self._new_filler().run_until_idle(progress)

    def pending_vectors(self) -> int:
        """How many neurons (of any identity) still wait for their vector."""
        with self.store.reading(every_owner=True) as cur:
            return queries.count_pending_embeddings(cur, self.model.name, since=self._clean_upto(cur))

    def vector_progress(self) -> VectorProgress:
        """Where the filling of vectors stands (of every identity): after a model upgrade, how many
        neurons still hold the old model's vector (a question does not use them meanwhile)."""
        with self.store.reading(every_owner=True) as cur:
            since = self._clean_upto(cur)
            counts = queries.vector_counts(cur, self.model.name, since=since)
            if since is not None and counts["other"]:  # an upgrade shows how far of all it came
                counts["total"] = queries.count_neurons(cur)
        return VectorProgress(counts["pending"], counts["total"], counts["other"])

    def prepare_nearest(self, progress: Callable[[int, int], None] | None = None) -> bool:
        """Make the quick step of the search by meaning for the model's vectors when the recall
        index is past its size and the step is missing or stale (core/recall/nearest.py), without
        loading the model; `progress(done, total)` hears how far once it takes a second."""
        return self.recall.prepare_nearest(self.model.name, progress)

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Compute every vector of the store again (after a model change, or to repair). Vectors
        are derived data the store keeps for all identities, like the filler's queue; an
        interrupted reindex is finished by the background filler."""
        self.model.require()
        with self.store.transaction(every_owner=True) as cur:
            queries.clear_embeddings(cur)
        return self.fill_vectors(progress)

    def _saved_index(self) -> Path:
        return saved_index(self.store.settings, self.identity)

    def close(self) -> None:
        if self.filler is not None:
            self.filler.stop(timeout=30)  # let a batch in flight finish before the store closes
            self.filler = None
        try:  # the next start reads only what changed after this
            self.recall.keep()
        except Exception:  # a cache: never in the way of closing
            log.warning("the recall index could not be saved", exc_info=True)
        if self._owns_model:
            self.model.close()
        if self._owns_store:
            with contextlib.suppress(ValueError):
                self.store.restart_listeners.remove(self._engine_restarted)
            self.store.close()

    def _engine_restarted(self, message: str) -> None:
        self._changed(Action.ENGINE_RESTARTED)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _changed(
        self, action: Action, neurons: list[Neuron] | None = None, ids: list[uuid.UUID] | None = None
    ) -> None:
        if self.filler is not None and AFFECTS[action].texts:
            self.filler.wake()
        change = Change(
            action,
            tuple(ids or [n.id for n in neurons or []]),
            frozenset(n.kind for n in neurons or []),
            current_origin(),
        )
        for listener in list(self.listeners):
            try:
                listener(change)
            except Exception:  # a listener must never undo a committed write
                log.exception("listener failed on %s", change)

    # -- neurons -------------------------------------------------------------------------------

    def preview(
        self,
        text: str,
        kind: Kind | str | None = None,
        attrs: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
    ) -> capture.Understanding:
        """What `capture(text, kind, attrs)` would make of the text, without saving anything."""
        text = clean_text(text)
        return capture.read(
            self.reader,
            text,
            Kind.parse(kind) if kind else None,
            dict(clean_attrs(attrs)),
            now=aware(now, "now"),
            names=self.recall.names(),
            region=phones.default_region(),
            notes_sharing=self.recall.notes_sharing,
        )

    def capture(
        self,
        text: str,
        kind: Kind | str | None = None,
        attrs: dict[str, Any] | None = None,
        *,
        created_at: datetime | None = None,
        derive: bool = True,
        accept: list[Update] | tuple[()] = (),
        key: str | None = None,
    ) -> Neuron:
        """Save a neuron now (never waits for the model). With no kind, it is inferred from the text.

        `key`: an idempotency key the client chose for this capture. A capture retried with the
        same key (its answer was lost: the app was killed, the connection timed out) is saved
        once: the retry is answered with the neuron the first one saved, for as long as that
        neuron is kept (in the trash too). The key names the neuron's id, per identity.

        `accept`: updates of contact cards the preview offered ("Update Ana: phone …") that the
        person kept: each card takes the new value in the same transaction, what it loses goes
        into an archived note the card supersedes, and the new neuron no longer supersedes it."""
        text = clean_text(text)
        attrs = dict(times_in(clean_attrs(attrs)))
        aware(created_at, "created_at")
        keyed = keyed_id(self.identity, clean_key(key)) if key is not None else None
        if keyed is not None and (earlier := self._saved_under(keyed, text)) is not None:
            return earlier
        understanding = None
        if kind is None or derive:
            understanding = capture.read(
                self.reader,
                text,
                Kind.parse(kind) if kind else None,
                attrs,
                now=created_at,
                names=self.recall.names(),
                region=phones.default_region(),
                notes_sharing=self.recall.notes_sharing,
            )
            kind, attrs = understanding.kind, understanding.attrs
        updates = [u for u in understanding.updates if u in accept] if understanding else []
        if len(updates) != len(accept):
            raise InvalidInput("an accepted update is not one this text offers; nothing was saved")
        if updates and understanding is not None:  # the card takes the new value instead of being replaced
            cards = {u.contact_id for u in updates}
            understanding.replaces = [(old, how) for old, how in understanding.replaces if old not in cards]
        neuron = Neuron(
            id=keyed or uuid.uuid4(), kind=Kind.parse(kind), body=text, attrs=attrs, created_at=created_at
        )
        try:
            with self.store.transaction(self.identity) as cur:
                queries.insert_neurons(cur, self.identity, [neuron])
                if understanding is not None and derive:
                    queries.insert_edges(cur, self.identity, understanding.edges_for(neuron))
                    if neuron.kind is Kind.CONTACT:  # what was written about them before their card
                        queries.insert_edges(cur, self.identity, self._earlier_mentions(cur, neuron))
                changed = self._apply_updates(cur, updates, created_at)
                saved = queries.get_neurons(cur, self.identity, [neuron.id])[neuron.id]
        except StoreError:
            # the same key's first capture committed meanwhile (a retry while it was still running)
            if keyed is not None and (earlier := self._saved_under(keyed, text)) is not None:
                return earlier
            raise
        self._changed(Action.CAPTURED, [saved])
        if changed:
            self._changed(Action.EDITED, changed)
        return saved

    def _saved_under(self, keyed: uuid.UUID, text: str) -> Neuron | None:
        """The neuron an earlier capture with the same key saved; None if none did. A key given
        to another text is refused: it would answer for a capture that is not this one."""
        earlier = self.reader.neurons([keyed]).get(keyed)
        if earlier is not None and earlier.body != text:
            raise InvalidInput(
                f"the key was given to another capture ({earlier.id}, {earlier.title!r}); "
                "nothing was saved: use a new key for a new capture"
            )
        return earlier

    def _earlier_mentions(self, cur, contact: Neuron) -> builtins.list[Edge]:
        """Links from the neurons that named a new contact before its card was made (found by
        its name's words, at most EARLIER_MENTIONS_LIMIT of them) to the card."""
        name = str(contact.attrs.get("name") or contact.title)
        # only the name's words: a name is no search syntax ("-", quotes, "or" would be read as
        # operators, and a long run of them overflows the engine's query stack)
        spoken = [name, *name.split()[:1], *(str(a) for a in contact.attrs.get("aliases") or [])]
        terms = dict.fromkeys(t for t in (" ".join(re.findall(r"\w+", s)) for s in spoken) if t)
        earlier: dict[uuid.UUID, Neuron] = {}
        for term in terms:
            for n, _score in queries.keyword_search(cur, self.identity, term, EARLIER_MENTIONS_LIMIT):
                if n.id != contact.id and n.kind is not Kind.CONTACT:
                    earlier[n.id] = n
        if not earlier:
            return []
        dated = contact.created_at or datetime.now(UTC)
        return capture.earlier_mentions(contact, list(earlier.values()), self.reader.contacts(), dated)

    def _apply_updates(self, cur, updates: list[Update], now: datetime | None) -> list[Neuron]:
        """Write accepted card updates inside the caller's transaction; the cards as written."""
        now = now or datetime.now(UTC)
        written: dict[uuid.UUID, Neuron] = {}
        for update in updates:
            card = written.get(update.contact_id) or queries.get_neurons(
                cur, self.identity, [update.contact_id]
            ).get(update.contact_id)
            if card is None:
                raise NotFound(f"no contact {update.contact_id} to update")
            attrs, lost = capture.updated_card(card, update)
            attrs = capture.stamped(card.attrs, attrs, now)
            body = capture.updated_body(card, update)
            written[card.id] = queries.update_neuron(
                cur,
                self.identity,
                card.id,
                body=body if body != card.body else None,
                attrs=clean_attrs(attrs),
            )
            if lost:
                note = capture.superseded_note(card, lost, now)
                queries.insert_neurons(cur, self.identity, [note])
                queries.insert_edges(
                    cur,
                    self.identity,
                    [
                        Edge(
                            id=uuid.uuid4(),
                            from_id=card.id,
                            to_id=note.id,
                            relation=Relation.SUPERSEDES,
                            valid_from=now,
                            derived_by=capture.DERIVED_NEW_DETAIL,
                        )
                    ],
                )
        return list(written.values())

    def get(self, neuron_id: uuid.UUID | str) -> Neuron:
        nid = parse_uuid(neuron_id)
        found = self.reader.neurons([nid])
        if nid not in found:
            raise NotFound(f"no neuron {nid}")
        return found[nid]

    def resolve(self, text: uuid.UUID | str, *, edge: bool = False) -> uuid.UUID:
        """The id a person typed: a whole id, or the start of one that only one neuron's (or
        link's) id starts with. Several: a clear list of them; none: NotFound."""
        if isinstance(text, uuid.UUID):
            return text
        prefix = str(text).strip().lower()
        what = "link" if edge else "neuron"
        if len(prefix) == 36:
            return parse_uuid(prefix, f"{what} id")
        if not re.fullmatch(r"[0-9a-f][0-9a-f-]{3,35}", prefix):
            raise InvalidInput(
                f"{what} id {text!r} is neither an id nor its first 4 or more characters (0-9, a-f)"
            )
        with self.store.reading(self.identity) as cur:
            found = queries.ids_starting(cur, self.identity, prefix, edges=edge, limit=ID_CANDIDATES + 1)
        if not found:
            raise NotFound(f"no {what} id starts with {prefix}")
        if len(found) == 1:
            return found[0].id
        shown = "; ".join(
            f"{str(x.id)[:12]} {x.relation.value if edge else x.kind.value} "
            + (f"{x.from_id} -> {x.to_id}" if edge else f"“{x.title}”")
            for x in found[:ID_CANDIDATES]
        )
        more = " and more" if len(found) > ID_CANDIDATES else ""
        raise InvalidInput(
            f"{len(found)}{'+' if more else ''} {what}s' ids start with {prefix}: {shown}{more}; "
            "type more of it"
        )

    def get_many(self, ids: list[uuid.UUID]) -> dict[uuid.UUID, Neuron]:
        return self.reader.neurons(ids)

    def edit(
        self,
        neuron_id: uuid.UUID | str,
        text: str | None = None,
        attrs: dict[str, Any] | None = None,
        *,
        merge: bool = False,
    ) -> Neuron:
        """A new text and/or attrs. `merge`: `attrs` are changes to the current ones (a None value
        removes the key), read and written in the one transaction; else they replace them."""
        nid = parse_uuid(neuron_id)
        if text is not None:
            text = clean_text(text)
        if attrs is not None:
            attrs = clean_attrs(attrs)
            if not merge:
                times_in(attrs)
        titled = merge and attrs is not None and "title" in attrs  # the caller says the title
        with self.store.transaction(self.identity) as cur:
            current = None
            if (merge and attrs is not None) or text is not None:
                current = queries.get_neurons(cur, self.identity, [nid]).get(nid)
            if merge and attrs is not None:
                if current is None:
                    raise NotFound(f"no neuron {nid}")
                merged = {**current.attrs, **attrs}
                attrs = times_in(clean_attrs({k: v for k, v in merged.items() if v is not None}))
            if text is not None and not titled:
                attrs = self._retitled(current, text, attrs)
            if text is None and titled and current is not None and attrs is not None:
                text = self._headed(current, attrs)
            neuron = queries.update_neuron(cur, self.identity, nid, body=text, attrs=attrs)
        if neuron is None:
            raise NotFound(f"no neuron {nid}")
        self._changed(Action.EDITED, [neuron])
        return neuron

    @staticmethod
    def _retitled(current: Neuron | None, text: str, attrs: dict[str, Any] | None) -> dict[str, Any] | None:
        """A reminder's title follows its new text, unless the caller gives another title
        (`current`: the row as the same transaction read it)."""
        if current is None or current.kind is not Kind.REMINDER:
            return attrs
        given = dict(current.attrs if attrs is None else attrs)
        if given.get("title") != current.attrs.get("title"):
            return attrs  # the caller set a title of its own
        title = capture.reminder_title(text, current.created_at or datetime.now(UTC))
        if title:
            given["title"] = title
        else:
            given.pop("title", None)
        return given if given != (current.attrs if attrs is None else attrs) else attrs

    @staticmethod
    def _headed(current: Neuron, attrs: dict[str, Any]) -> str | None:
        """A reminder's text headed by its new title, when it was headed by the old one (the
        title, or the title and a paragraph: a calendar's summary and description); else None."""
        if current.kind is not Kind.REMINDER:
            return None
        old, new = current.title, Neuron(current.id, current.kind, current.body, attrs).title
        if not old or not new or new == old:
            return None
        if current.body.strip() == old:
            return new
        if current.body.startswith(old + "\n\n"):
            return new + current.body[len(old) :]
        return None

    def update(self, neuron_id: uuid.UUID | str, edit: Edit) -> Neuron:
        """One save: a new text, attrs changes and a new schedule, written in one transaction
        (one Change, one undo step): a part refused leaves the neuron as it was."""
        nid = parse_uuid(neuron_id)
        text = clean_text(edit.text) if edit.text is not None else None
        with self.store.transaction(self.identity) as cur:
            current = queries.get_neurons(cur, self.identity, [nid]).get(nid)
            if current is None:
                raise NotFound(f"no neuron {nid}")
            changes: dict[str, Any] = dict(edit.attrs)
            if edit.schedule is not None:
                rule, tz = edit.schedule.rrule, current.attrs.get("tz")
                if rule and rule == current.attrs.get("rrule"):  # the day moved, the rule was kept
                    rule = remind.moved_rule(rule, remind.current_due(current), edit.schedule.due_at, tz)
                changes.update(remind.rescheduled(edit.schedule.due_at, rule, tz))
            attrs: dict[str, Any] | None = None
            if changes:
                attrs = _merged(current.attrs, changes)
                if current.kind is Kind.CONTACT:  # what the person changed, dated (imports keep it)
                    attrs = capture.stamped(current.attrs, attrs, datetime.now(UTC))
            if text is not None and "title" not in edit.attrs:  # else the caller says the title
                attrs = self._retitled(current, text, attrs)
            if text is None and "title" in edit.attrs and attrs is not None:
                text = self._headed(current, attrs)
            if text is None and attrs is None:
                return current
            neuron = queries.update_neuron(cur, self.identity, nid, body=text, attrs=attrs)
        if neuron is None:
            raise NotFound(f"no neuron {nid}")
        self._changed(Action.EDITED, [neuron])
        return neuron

    def update_attrs(self, neuron_id: uuid.UUID | str, **changes: Any) -> Neuron:
        """Merge keys into attrs (None removes a key), e.g. update_attrs(id, due_at=...)."""
        return self._merge_attrs(parse_uuid(neuron_id), lambda _current: changes)

    def _merge_attrs(
        self,
        nid: uuid.UUID,
        changes_of: Callable[[Neuron], dict[str, Any] | None],
    ) -> Neuron:
        """Read the row, compute the attrs to change from it, write them: one transaction."""
        with self.store.transaction(self.identity) as cur:
            current = queries.get_neurons(cur, self.identity, [nid]).get(nid)
            if current is None:
                raise NotFound(f"no neuron {nid}")
            changes = changes_of(current)
            if not changes:
                return current
            neuron = queries.update_neuron(cur, self.identity, nid, attrs=_merged(current.attrs, changes))
        self._changed(Action.EDITED, [neuron])
        return neuron

    def set_state(self, neuron_id: uuid.UUID | str, state: State | str) -> Neuron:
        """done, archived, trashed; `restored` is State.ACTIVE. Done reminders record done_at."""
        nid, target = parse_uuid(neuron_id), State.parse(state)
        with self.store.transaction(self.identity) as cur:
            current = queries.get_neurons(cur, self.identity, [nid]).get(nid)
            if current is None:
                raise NotFound(f"no neuron {nid}")
            attrs = None
            if current.kind is Kind.REMINDER:
                attrs = dict(current.attrs)
                if target is State.DONE:
                    attrs["done_at"] = datetime.now(UTC).isoformat()
                else:
                    attrs.pop("done_at", None)
            neuron = queries.update_neuron(cur, self.identity, nid, state=target, attrs=attrs)
        self._changed(Action.STATE, [neuron])
        return neuron

    def revert(self, before: Neuron, *, after: Neuron | None = None) -> Neuron:
        """Undo: write back the body, attrs and state `before` held, on the same row (never a
        copy). With `after` (what the call being undone returned), refuse when the row has
        changed since, rather than silently losing that later change."""
        nid = parse_uuid(before.id)
        with self.store.transaction(self.identity) as cur:
            current = queries.get_neurons(cur, self.identity, [nid]).get(nid)
            if current is None:
                raise NotFound(f"no neuron {nid}")
            if after is not None and current.updated_at != after.updated_at:
                raise InvalidInput(f"“{current.title}” changed since; nothing was undone")
            body = before.body if before.body != current.body else None
            neuron = queries.update_neuron(
                cur, self.identity, nid, body=body, attrs=clean_attrs(dict(before.attrs)), state=before.state
            )
        self._changed(Action.REVERTED, [neuron])
        return neuron

    def done(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.DONE)

    def archive(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.ARCHIVED)

    def trash(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.TRASHED)

    def restore(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.ACTIVE)

    # `list` below names this method: the signatures after it say `builtins.list`
    def list(
        self,
        kind: Kind | str | None = None,
        states: list[State | str] | None = None,
        *,
        limit: int = 100,
        offset: int = 0,
        order: str = "recent",
    ) -> builtins.list[Neuron]:
        if order not in ("recent", "updated", "due", "name"):
            raise InvalidInput(f"unknown order {order!r}")
        kind = Kind.parse(kind) if kind else None
        wanted = [State.parse(s) for s in (states or [State.ACTIVE])]
        limit = parse_limit(limit)
        with self.store.reading(self.identity) as cur:
            return queries.list_neurons(
                cur,
                self.identity,
                kind=kind,
                states=wanted,
                limit=limit,
                offset=offset,
                order=order,
            )

    def count(self) -> int:
        with self.store.reading(self.identity) as cur:
            return queries.count_neurons(cur, self.identity)

    def search(self, text: str, limit: int = 20) -> builtins.list[Neuron]:
        """Keyword search alone (fast, no model): the fallback when the model is unavailable."""
        text, limit = clean_text(text, what="query", allow_empty=True), parse_limit(limit)
        with self.store.reading(self.identity) as cur:
            return [n for n, _ in queries.keyword_search(cur, self.identity, text, limit)]

    # -- reminders (the rules are core/remind's) -----------------------------------------------

    def reminders(self) -> builtins.list[Neuron]:
        """Every active reminder of this identity."""
        out: list[Neuron] = []
        offset = 0
        while True:
            page = self.list(Kind.REMINDER, [State.ACTIVE], limit=REMINDER_PAGE, offset=offset, order="due")
            out.extend(page)
            if len(page) < REMINDER_PAGE:
                return out
            offset += REMINDER_PAGE

    @property
    def machine(self) -> str:
        """This install's device id: on a memory shared by several machines, each shows a
        reminder once (remind's `device`)."""
        return str(self.store.device_id())

    def mark_notified(self, neuron_id: uuid.UUID | str, now: datetime) -> remind.Alarm | None:
        """Record that the reminder was shown at `now`, if it is still due (read again in the
        transaction: another action may have handled it meanwhile). Returns what was shown."""
        shown: list[remind.Alarm] = []

        def changes(current: Neuron):
            found = remind.notified(current, now, self.machine)
            if found is None:
                return None
            shown.append(found[1])
            return found[0]

        saved = self._merge_attrs(parse_uuid(neuron_id), changes)
        if not shown:
            return None
        return remind.Alarm(saved, shown[0].fire_at, shown[0].due_at)

    def mark_unseen(self, neuron_id: uuid.UUID | str) -> Neuron | None:
        """Its notification was closed by the notification server, not by the person: the last
        showing counts as unseen, so the next start says it as missed (remind.closed_unseen).
        None (nothing written) when it was not shown or was answered since."""
        marked: list[bool] = []

        def changes(current: Neuron):
            found = remind.closed_unseen(current)
            marked.append(found is not None)
            return found

        saved = self._merge_attrs(parse_uuid(neuron_id), changes)
        return saved if marked and marked[0] else None

    def complete(self, neuron_id: uuid.UUID | str, now: datetime) -> Neuron:
        """Done: a one-off reminder is marked done; a recurring one moves to its next occurrence
        after `now` (and is marked done when its rule has none left)."""
        nid = parse_uuid(neuron_id)
        moved = remind.completed(self.get(nid), now)
        return self.done(nid) if moved is None else self._merge_attrs(nid, lambda _c: moved)

    def snooze(
        self,
        neuron_id: uuid.UUID | str,
        now: datetime,
        for_: timedelta = remind.SNOOZE_DEFAULT,
        until: datetime | None = None,
    ) -> Neuron:
        def checked(current: Neuron) -> dict[str, Any]:
            if not remind.is_reminder(current):
                raise InvalidInput(f"{current.id} is not an active reminder: only those snooze")
            return remind.snoozed(now, for_, until, due=remind.current_due(current))

        return self._merge_attrs(parse_uuid(neuron_id), checked)

    def upcoming(self, now: datetime, within: timedelta) -> builtins.list[Neuron]:
        """The overdue reminders, then those that fire within `within` of `now` (remind.agenda)."""
        return remind.agenda(self.reminders(), aware(now, "now"), now + within)

    def reschedule(self, neuron_id: uuid.UUID | str, due_at: datetime | None, rrule: str | None) -> Neuron:
        return self._merge_attrs(
            parse_uuid(neuron_id), lambda current: remind.rescheduled(due_at, rrule, current.attrs.get("tz"))
        )

    # -- edges ---------------------------------------------------------------------------------

    def link(
        self,
        from_id: uuid.UUID | str,
        to_id: uuid.UUID | str,
        relation: Relation | str = Relation.RELATES_TO,
        *,
        valid_from: datetime | None = None,
        weight: float = 1.0,
        derived_by: str | None = None,
    ) -> Edge:
        a, b, rel = parse_uuid(from_id, "from id"), parse_uuid(to_id, "to id"), Relation.parse(relation)
        if a == b:
            raise InvalidInput("a neuron cannot be linked to itself")
        aware(valid_from, "valid_from")
        edge = Edge(
            id=uuid.uuid4(),
            from_id=a,
            to_id=b,
            relation=rel,
            weight=number(weight, "weight", limit=MAX_WEIGHT),
            valid_from=valid_from,
            derived_by=optional_text(derived_by, "derived_by"),
        )
        with self.store.transaction(self.identity) as cur:
            found = queries.get_neurons(cur, self.identity, [a, b])
            for nid in (a, b):
                if nid not in found:
                    raise NotFound(f"no neuron {nid} to link")
            existing = queries.find_open_edge(cur, self.identity, a, b, rel)
            if existing is not None:
                return existing
            queries.insert_edges(cur, self.identity, [edge])
            saved = queries.get_edge(cur, self.identity, edge.id)
        assert saved is not None, "the edge was inserted in this transaction"
        self._changed(Action.LINKED, [found[a], found[b]])
        return saved

    def unlink(self, edge_id: uuid.UUID | str, at: datetime | None = None) -> Edge:
        """Close a link: it stops being true at `at` (now); edges are never deleted."""
        eid = parse_uuid(edge_id, "edge id")
        aware(at, "at")
        with self.store.transaction(self.identity) as cur:
            edge = queries.close_edge(cur, self.identity, eid, at)
            if edge is None:
                existing = queries.get_edge(cur, self.identity, eid)
                if existing is None:
                    raise NotFound(f"no link {eid}")
                return existing  # already closed
        self._changed(Action.UNLINKED, ids=[edge.from_id, edge.to_id])
        return edge

    def edges(self, neuron_id: uuid.UUID | str, open_only: bool = False) -> builtins.list[Edge]:
        with self.store.reading(self.identity) as cur:
            return queries.edges_of(cur, self.identity, [parse_uuid(neuron_id)], open_only=open_only)

    def neighbours(
        self, neuron_id: uuid.UUID | str, open_only: bool = True
    ) -> builtins.list[tuple[Edge, Neuron]]:
        nid = parse_uuid(neuron_id)
        with self.store.reading(self.identity) as cur:
            edges = queries.edges_of(cur, self.identity, [nid], open_only=open_only)
            others = queries.get_neurons(cur, self.identity, [e.other(nid) for e in edges])
        return [(e, others[e.other(nid)]) for e in edges if e.other(nid) in others]

    def same_person_offers(self, contact_id: uuid.UUID | str | None = None) -> builtins.list[Offer]:
        """Pairs of contacts that look like one person and are not linked as such yet."""
        return capture.same_person_offers(
            self.reader, parse_uuid(contact_id) if contact_id is not None else None
        )

    def accept_same_person(self, a: uuid.UUID | str, b: uuid.UUID | str) -> Edge:
        return self.link(a, b, Relation.SAME_PERSON, derived_by=capture.DERIVED_SAME_PERSON)

    def supersede_offers(self, neuron_id: uuid.UUID | str) -> builtins.list[Offer]:
        """Older neurons this one may replace (a changed phone or email, a moved appointment)."""
        return capture.supersede_offers(self.reader, self.get(neuron_id))

    def mark_superseded(self, newer: uuid.UUID | str, older: uuid.UUID | str) -> Edge:
        """The newer neuron replaces the older one; the older is kept, linked by supersedes."""
        return self.link(newer, older, Relation.SUPERSEDES, derived_by=capture.DERIVED_NEW_DETAIL)

    # -- recall (core/recall) --------------------------------------------------------------------

    def ask(
        self,
        question: str,
        limit: int = 10,
        *,
        mode: Mode | str = Mode.DEFAULT,
        now: datetime | None = None,
        fusion: Fusion | str = Fusion.RELATIVE,
        expand: bool = True,
    ) -> builtins.list[Result]:
        """What the memory knows about `question`, best first: `mode` one signal alone (for
        `neurons eval`), `now` the moment its time words are read from (aware; the local now when
        None), `fusion` how keyword and meaning are fused, `expand` whether links are followed."""
        question = clean_text(question, what="question")
        return self.recall.ask(question, Asking.of(limit, mode=mode, now=now, fusion=fusion, expand=expand))

    def about(self, name: str, limit: int = 50) -> About:
        return self.recall.about(clean_text(name, what="name"), limit=parse_limit(limit))

    # -- export, import, profiles ----------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        self.store.require_sound(self.identity)
        with self.store.reading(self.identity) as cur:
            neurons = queries.all_neurons(cur, self.identity)
            edges = queries.all_edges(cur, self.identity)
        return build_export(neurons, edges)

    def import_(self, data: Any) -> dict[str, int]:
        """Import an export; all or nothing. Rows whose ids exist already are skipped."""
        neurons, edges = parse_export(data)
        with self.store.transaction(self.identity) as cur:
            taken = queries.existing_ids(cur, self.identity, "neurons", [n.id for n in neurons])
            mine = queries.get_neurons(cur, self.identity, list(taken))
            if taken - set(mine):
                raise InvalidInput(
                    f"{len(taken - set(mine))} neuron ids of the file belong to "
                    "another identity in this store; nothing was imported"
                )
            new_neurons = [n for n in neurons if n.id not in taken]
            known = {n.id for n in neurons} | set(mine)
            for e in edges:
                if e.from_id not in known or e.to_id not in known:
                    raise InvalidInput(f"link {e.id} points at a neuron the file does not hold")
            taken_edges = queries.existing_ids(cur, self.identity, "neurons_edges", [e.id for e in edges])
            new_edges = [e for e in edges if e.id not in taken_edges]
            queries.insert_neurons(cur, self.identity, new_neurons)
            queries.insert_edges(cur, self.identity, new_edges)
        self._changed(Action.IMPORTED, new_neurons)
        return {
            "neurons": len(new_neurons),
            "edges": len(new_edges),
            "skipped": len(neurons) - len(new_neurons) + len(edges) - len(new_edges),
        }

    def snapshot(self, *, whole_store: bool = False) -> tuple[builtins.list[Neuron], builtins.list[Edge]]:
        """Every neuron and link of this identity, in one reading (what an export writes); a
        table that reads short of its index raises StoreDamaged rather than give part of it.
        `whole_store`: the store's whole check first (every table, every value: health.py), as
        an export does (it costs seconds at 100k neurons). An import reads less:
        `planning_reads`."""
        if whole_store:
            self.store.require_sound(self.identity)
        with self.store.reading(self.identity) as cur:
            neurons, edges = queries.all_neurons(cur, self.identity), queries.all_edges(cur, self.identity)
            self.store.require_counted(
                cur, {"neurons": len(neurons), "neurons_edges": len(edges)}, self.identity
            )
        return neurons, edges

    def planning_reads(
        self,
        *,
        ids: Iterable[uuid.UUID] = (),
        uids: dict[Kind, set[str]] | None = None,
        files: Iterable[str] = (),
        contacts: bool = False,
        links_of: Iterable[uuid.UUID] = (),
        link_ids: Iterable[uuid.UUID] = (),
        whole: bool = False,
    ) -> tuple[builtins.list[Neuron], builtins.list[Edge]]:
        """What an import could match, in one reading (core/interop/plan.py asks): the neurons
        with these ids, those of a kind with these uids, those with these files, every contact
        (`contacts`), and the birthday reminders of the contacts among them; the open links of
        `links_of`, the links `link_ids`. `whole`: also check that each table's rows of this
        identity read whole (a table file cut short raises StoreDamaged, as a snapshot would)."""
        with self.store.reading(self.identity) as cur:
            found = queries.get_neurons(cur, self.identity, ids)
            for kind, wanted in (uids or {}).items():
                found.update(
                    (n.id, n)
                    for n in queries.neurons_by_attr(cur, self.identity, "uid", sorted(wanted), kind)
                )
            found.update(
                (n.id, n) for n in queries.neurons_by_attr(cur, self.identity, "file", sorted(files))
            )
            if contacts:
                found.update((n.id, n) for n in queries.neurons_of_kind(cur, self.identity, Kind.CONTACT))
            people = [n.id for n in found.values() if n.kind is Kind.CONTACT]
            found.update((n.id, n) for n in queries.birthday_reminders(cur, self.identity, people))
            edges = {e.id: e for e in queries.edges_of(cur, self.identity, links_of)}
            edges.update((e.id, e) for e in queries.get_edges(cur, self.identity, link_ids))
            if whole:
                self.store.require_whole(cur, self.identity)
        return builtins.list(found.values()), builtins.list(edges.values())

    def apply_import(
        self, neurons: builtins.list[Neuron], updates: builtins.list[Neuron], edges: builtins.list[Edge]
    ) -> None:
        """Write a planned import (core/interop plans it) in one transaction, all or nothing:
        new neurons with their own ids and times, new body/attrs/state for neurons of this
        identity, new links. Nothing derives from the text here: the file says what links."""
        self._check_import(neurons, updates)
        with self.store.transaction(self.identity) as cur:
            self._write_import(cur, neurons, updates, edges)
        if neurons or updates or edges:
            self._imported(neurons, updates, edges)

    def _check_import(self, neurons: builtins.list[Neuron], updates: builtins.list[Neuron]) -> None:
        for n in [*neurons, *updates]:
            clean_text(n.body, what=f"the text of {n.id}")
            clean_attrs(n.attrs)

    def _write_import(
        self, cur, neurons: builtins.list[Neuron], updates: builtins.list[Neuron], edges: builtins.list[Edge]
    ) -> None:
        """An import's writes inside the caller's transaction (refused whole on a clash)."""
        taken = queries.existing_ids(cur, self.identity, "neurons", [n.id for n in neurons])
        if taken:
            raise InvalidInput(
                f"{len(taken)} neuron ids of the file are already in this store; nothing was imported"
            )
        mine = queries.get_neurons(cur, self.identity, [n.id for n in updates])
        if len(mine) != len({n.id for n in updates}):
            raise NotFound("a neuron the import updates is gone; nothing was imported")
        known = {n.id for n in neurons} | set(mine)
        ends = {nid for e in edges for nid in (e.from_id, e.to_id)} - known
        if ends - set(queries.get_neurons(cur, self.identity, list(ends))):
            raise InvalidInput(
                "a link of the import points at a neuron that is not there; nothing was imported"
            )
        if queries.existing_ids(cur, self.identity, "neurons_edges", [e.id for e in edges]):
            raise InvalidInput("link ids of the file are already in this store; nothing was imported")
        queries.insert_neurons(cur, self.identity, neurons)
        queries.update_neurons(cur, self.identity, updates)
        queries.insert_edges(cur, self.identity, edges)

    def _imported(
        self, neurons: builtins.list[Neuron], updates: builtins.list[Neuron], edges: builtins.list[Edge]
    ) -> None:
        self._changed(
            Action.IMPORTED,
            [*neurons, *updates],
            ids=[*(n.id for n in neurons), *(n.id for n in updates)] or [e.from_id for e in edges],
        )

    # -- sync with a CalDAV/CardDAV server (core/sync plans; these write) ------------------------
    # (builtins.list: in this class `list` is Memory.list)

    def sync_accounts(self) -> builtins.list[sync_sql.Account]:
        with self.store.reading(self.identity) as cur:
            return sync_sql.accounts(cur, self.identity)

    def save_sync_account(self, account: sync_sql.Account) -> sync_sql.Account:
        """Add the account (or, for one of the same URL and user, choose its collections anew)."""
        for c in account.collections:
            clean_text(c.name, what="a collection's name")
        with self.store.transaction(self.identity) as cur:
            sync_sql.save_account(cur, self.identity, account)
        return account

    def remove_sync_account(self, account_id: uuid.UUID) -> None:
        """Forget the account and what it agreed on; the neurons stay, as they are."""
        with self.store.transaction(self.identity) as cur:
            if not sync_sql.remove_account(cur, self.identity, account_id):
                raise NotFound(f"no sync account {account_id}")

    def sync_tried(self, account_id: uuid.UUID, at: datetime, error: str | None) -> None:
        with self.store.transaction(self.identity) as cur:
            sync_sql.account_tried(cur, self.identity, account_id, aware(at, "at") or at, error)

    def sync_collection_tried(self, collection_id: uuid.UUID, error: str | None) -> None:
        """Why a collection's last sync failed (None: it did not)."""
        with self.store.transaction(self.identity) as cur:
            sync_sql.collection_tried(cur, self.identity, collection_id, error)

    def sync_agreed(self, collection_id: uuid.UUID) -> dict[str, sync_sql.Agreed]:
        """What each item of a collection last agreed on, by href."""
        with self.store.reading(self.identity) as cur:
            return sync_sql.agreed(cur, self.identity, collection_id)

    def sync_locals(self, kinds: builtins.list[Kind]) -> builtins.list[sync_sql.Local]:
        """Every neuron of these kinds, with its change number and where it is synced."""
        with self.store.reading(self.identity) as cur:
            return sync_sql.locals_of(cur, self.identity, kinds)

    def apply_sync(self, pulled: sync_sql.Pulled, fingerprint: Callable[[Neuron], str]) -> None:
        """Write what a pull brought (core/sync plans it with core/interop) in one transaction:
        new and changed neurons, trashed ones, links, what each item now agrees on, the
        collection's sync token. `fingerprint` digests a neuron as written, for the items that
        agree on it. Refused whole (ChangedMeanwhileError) when a neuron the plan read has
        changed since: the caller plans again, so an edit made meanwhile is never overwritten."""
        self._check_import(pulled.created, pulled.updated)
        with self.store.transaction(self.identity) as cur:
            now = sync_sql.change_seqs(cur, self.identity, pulled.expected)
            moved = [nid for nid, seq in pulled.expected.items() if now.get(nid) != seq]
            if moved:
                raise sync_sql.ChangedMeanwhileError(f"{len(moved)} neurons changed while the sync read them")
            self._write_import(cur, pulled.created, pulled.updated, pulled.edges)
            for nid in pulled.trashed:
                queries.update_neuron(cur, self.identity, nid, state=State.TRASHED)
            self._agree(cur, pulled.collection_id, pulled.agreed, fingerprint)
            sync_sql.forget(cur, self.identity, pulled.collection_id, pulled.forgotten)
            if pulled.token is not sync_sql.KEEP_TOKEN:
                sync_sql.save_token(cur, self.identity, pulled.collection_id, pulled.token)
            trashed = queries.get_neurons(cur, self.identity, pulled.trashed)
        if pulled.created or pulled.updated or pulled.edges:
            self._imported(pulled.created, pulled.updated, pulled.edges)
        if trashed:
            self._changed(Action.STATE, list(trashed.values()))

    def _agree(
        self, cur, collection_id: uuid.UUID, agreed: builtins.list[sync_sql.Agreed], fingerprint
    ) -> None:
        """Record agreements; those without a fingerprint get the neuron's as it now is."""
        ids = [a.neuron_id for a in agreed if a.neuron_id is not None]
        neurons = queries.get_neurons(cur, self.identity, ids)
        seqs = sync_sql.change_seqs(cur, self.identity, ids)
        for a in agreed:
            if a.neuron_id is not None and a.neuron_id in neurons:
                if a.fingerprint is None:
                    a.fingerprint = fingerprint(neurons[a.neuron_id])
                if a.seen_seq is None:
                    a.seen_seq = seqs.get(a.neuron_id)
        sync_sql.agree(cur, self.identity, collection_id, agreed)

    def record_pushed(
        self,
        collection_id: uuid.UUID,
        agreed: builtins.list[sync_sql.Agreed],
        seen: dict[uuid.UUID, int],
        forgotten: builtins.list[str],
    ) -> None:
        """After writes to the server: what now agrees, the neurons that changed without changing
        what the server holds, the items deleted there. One transaction; no neuron changes."""
        with self.store.transaction(self.identity) as cur:
            sync_sql.agree(cur, self.identity, collection_id, agreed)
            sync_sql.seen(cur, self.identity, collection_id, seen)
            sync_sql.forget(cur, self.identity, collection_id, forgotten)

    # -- backups (core/backup.py) -----------------------------------------------------------------

    def backup(self, *, now: datetime | None = None) -> backups.Backup:
        """A backup of the whole store (every identity) in the data dir's backups/, now."""
        return backups.take(self.store, aware(now, "now"), self.identity)

    def backup_elsewhere(
        self, *, now: datetime | None = None, to: Path | None = None, passphrase: str | None = None
    ) -> elsewhere.Outcome:
        """Seal the newest backup of backups/ into the backup folder (`to`, else the one chosen in
        config.json) unless it holds it already, and read it back. With `to` a problem raises
        (elsewhere.ElsewhereProblem); else it is recorded and returned, never raised."""
        data_dir = self.store.settings.data_dir
        if self.store.kind != "embedded":
            return elsewhere.Outcome(None)
        when = aware(now, "now") or datetime.now().astimezone()
        return elsewhere.keep_up(data_dir, self.store.device_id(), when, to=to, passphrase=passphrase)

    def restore_backup(
        self, path: str, *, now: datetime | None = None, adopt: bool = True, passphrase: str | None = None
    ) -> dict[str, Any]:
        """Make the store hold exactly the backup at `path` (all or nothing; what it holds now is
        backed up first; a sealed one opens with `passphrase`, else the one kept for this data
        dir). A backup of another identity's memory makes this Memory act as that
        identity ("adopted": the caller remembers it in config.json), or with `adopt` False is
        refused before anything changes (backups.OwnerChangeError)."""
        if passphrase is None and backups.is_sealed(path):
            passphrase = secrets.backup_passphrase(self.store.settings.data_dir)
        result = backups.restore(
            self.store, path, aware(now, "now"), acting=self.identity, adopt=adopt, passphrase=passphrase
        )
        if result["adopted"]:
            owner = result["owner"]
            self.identity = (
                Identity(user_id=uuid.UUID(owner["id"]))
                if owner
                else Identity(device_id=self.store.device_id())
            )
            self.reader = StoreReader(self.store, self.identity)
        # rows left the store (of every identity): index anew, and no saved index holds
        for saved_index in (self.store.settings.data_dir / SAVED_INDEX_DIR).glob("*.idx"):
            saved_index.unlink(missing_ok=True)
        self.recall = Recall(self.reader, self.model.get, saved_at=self._saved_index())
        self._changed(Action.RESTORED)
        return result

    def claim(self, profile_name: str, user_id: uuid.UUID | None = None) -> Memory:
        """Create a local profile (with `user_id`, else a new id) that takes over every row of
        this device, in one transaction."""
        name = clean_text(profile_name, what="profile name").strip()
        if len(name) > PROFILE_NAME_MAX:
            raise InvalidInput(f"a profile name has at most {PROFILE_NAME_MAX} characters")
        if self.identity.device_id is None:
            raise InvalidInput("only an anonymous device's rows can be claimed")
        user_id = user_id or uuid.uuid4()
        user = Identity(user_id=user_id)
        with self.store.transaction(self.identity) as cur:
            queries.claim_device(cur, self.identity.device_id, user_id, name)
        self._changed(Action.CLAIMED)
        return self.as_identity(user)

    def join(self, profile_id: uuid.UUID | str, bring_own: bool) -> tuple[Memory, int]:
        """Act as a profile made on another machine (same database); with `bring_own`, this
        device's rows move into it in the same transaction, else they stay apart, the device's.
        Returns the profile's view and how many neurons moved."""
        pid = parse_uuid(profile_id, "profile id")
        if self.identity.device_id is None:
            raise InvalidInput("this data dir acts as a profile already")
        with self.store.transaction() as cur:
            if queries.profile(cur, pid) is None:
                raise NotFound(
                    f"no profile {pid} in this database: join from a data dir that uses "
                    "the same server as the machine that made it (neurons config set dsn)"
                )
            moved = queries.claim_into(cur, self.identity.device_id, pid)[0] if bring_own else 0
        self._changed(Action.CLAIMED)
        return self.as_identity(Identity(user_id=pid)), moved

    def has_profile(self, profile_id: uuid.UUID | str) -> bool:
        """Whether this database holds the profile (as this database role sees it)."""
        pid = parse_uuid(profile_id, "profile id")
        with self.store.reading() as cur:
            return queries.profile(cur, pid) is not None

    def profile(self) -> dict[str, Any] | None:
        """This identity's profile (id, name, created_at), None for an anonymous device."""
        if self.identity.user_id is None:
            return None
        with self.store.reading() as cur:
            row = queries.profile(cur, self.identity.user_id)
        if row is None:
            raise NotFound(
                f"this data dir acts as profile {self.identity.user_id}, which this "
                "database does not hold: is it the server the profile lives on?"
            )
        return {"id": str(row["user_id"]), "name": row["name"], "created_at": row["created_at"].isoformat()}

    def device_rows(self) -> int:
        """How many neurons this data dir's anonymous device still owns (kept apart)."""
        with self.store.reading() as cur:
            return queries.count_device_rows(cur, self.store.device_id())

    def adopt_profile(self, name: str) -> None:
        """Record this identity's profile in the store (a memory moved to another database)."""
        if self.identity.user_id is not None:
            with self.store.transaction(self.identity) as cur:  # on a server, the role takes it
                queries.ensure_profile(cur, self.identity.user_id, name, self.store.device_id())

    # -- health ----------------------------------------------------------------------------------

    def doctor(self) -> dict[str, Any]:
        model = self.model.status()
        with self.store.reading(every_owner=True) as cur:
            facts = queries.engine_facts(cur)
            total = queries.count_neurons(cur)
            pending = queries.count_pending_embeddings(cur, model.get("name"))
            security = queries.row_security(cur) if self.store.kind == "server" else None
            acting = queries.profile(cur, self.identity.user_id) if self.identity.user_id else None
        check = self.store.check(self.identity if self.store.kind == "server" else None)
        lock = self.store.lock.read_record() if self.store.lock else None
        engine = self.store.engine
        return {
            "engine": self.store.kind,
            "data_dir": str(self.store.settings.data_dir),
            "identity": str(self.identity),
            "config": _saved_config(self.store.settings.data_dir),
            "lock": lock,
            "engine_pid": engine.pid if engine else None,
            "node": _node_path() if engine else None,
            "postgres": facts["version"],
            "schema_version": facts["schema"],
            "extensions": facts["extensions"],
            "neurons": total,
            "store_check": check,
            "owner_check": _owner_check(self.identity, acting),
            "row_security": security,
            "pending_vectors": pending,
            "model": model,
            "opened_in_s": round(self.store.opened_in_s, 3),
            "install": _install_status(),
            "backup_elsewhere": _elsewhere_status(self.store.settings.data_dir),
            "unfinished_move": config.unfinished_move(self.store.settings.data_dir),
        }


def _merged(attrs: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`attrs` with `changes` applied (a None value removes the key, a time is stored ISO 8601),
    checked."""
    merged = dict(attrs)
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value.isoformat() if isinstance(value, datetime) else value
    return clean_attrs(merged)


def _owner_check(identity: Identity, profile: dict[str, Any] | None) -> dict[str, Any]:
    """Whether the database holds the identity this data dir acts as (a profile can go missing:
    a restore of a backup without it, a server that is not the profile's)."""
    if identity.user_id is None or profile is not None:
        return {"ok": True, "acts_as": str(identity)}
    return {
        "ok": False,
        "acts_as": str(identity),
        "problem": f"this data dir acts as profile {identity.user_id}, which this database does not "
        "hold, so it sees none of its rows: restore a backup that holds it (neurons backups), or "
        f"use the server it lives on and join it again (neurons profile join {identity.user_id})",
    }


def keyed_id(identity: Identity, key: str) -> uuid.UUID:
    """The id of the neuron a capture with this idempotency key saves (or saved) as `identity`."""
    return uuid.uuid5(CAPTURE_KEYS, f"{identity}\n{key}")


def saved_index(settings: Settings, identity: Identity) -> Path:
    """Where an identity's recall index is kept between runs (core/recall/saved.py)."""
    return settings.data_dir / SAVED_INDEX_DIR / f"{settings.engine}-{identity.column}-{identity.value}.idx"


def own_identity(store: Store) -> Identity:
    """Whom the data dir's rows belong to: the profile it acts as, else its anonymous device."""
    if store.settings.profile_pending:
        _settle_claim(store)
    identity = _identity(store.settings, store.device_id)
    assert identity is not None  # the store makes the device's id
    return identity


def _identity(settings: Settings, device: Callable[[], uuid.UUID | None]) -> Identity | None:
    profile = settings.profile_id
    if profile:
        return Identity(user_id=profile)
    device_id = device()
    return None if device_id is None else Identity(device_id=device_id)


def _read_ahead(settings: Settings, model: SentenceModel) -> saved.Ahead | None:
    """The recall index's file read, and what questions derive from it made, before the store
    answers (its engine starting): whose it is, as far as the data dir says without the store
    (none while a profile's claim is pending, or before the device has an id). The store checks
    it before it is used (`Recall.restore`); a failure here only loses the head start."""
    try:
        if settings.profile_pending:
            return None
        identity = _identity(settings, lambda: saved_device_id(settings))
        if identity is None:
            return None
        ahead = saved.read_ahead(saved_index(settings, identity), identity)
        if ahead.index is not None:
            ahead.index.prepare(model.name)
        return ahead
    except Exception:  # the store's own read follows
        log.warning("the search index could not be read ahead", exc_info=True)
        return None


def _settle_claim(store: Store) -> None:
    """config.json names a profile whose claim may not have committed (the process died between
    writing it and the claim's commit): the store says which, and config.json follows."""
    settings, profile_id = store.settings, store.settings.profile_id
    with store.reading(every_owner=True) as cur:
        committed = profile_id is not None and queries.profile(cur, profile_id) is not None
    saved = config.load(settings.data_dir)
    if committed:
        config.save(settings.data_dir, dataclasses.replace(saved, profile_pending=False))
    else:
        log.warning(
            "the profile %s was never made (its claim did not commit): this data dir "
            "stays its anonymous device",
            settings.profile_id,
        )
        config.save(
            settings.data_dir,
            dataclasses.replace(saved, profile_id=None, profile_name=None, profile_pending=False),
        )
        settings.profile_id = None
    settings.profile_pending = False


def _saved_config(data_dir) -> dict[str, Any] | str:
    try:
        return config.load(data_dir).to_json()
    except NeuronsError as exc:  # doctor reports; it never fails on what it examines
        return str(exc)


def _elsewhere_status(data_dir) -> str:
    """When the last backup outside the data dir read back whole, and what went wrong since."""
    try:
        chosen = config.load(data_dir).backup_dir
    except NeuronsError as exc:  # doctor reports; it never fails on what it examines
        return str(exc)
    state = elsewhere.status(data_dir)
    if chosen is None and state["last_ok"] is None:
        return "none: no backup folder is chosen (neurons config set backup-dir DIR)"
    last = state["last_ok"]
    said = (
        f"last one read back whole at {last['at']}: {last['path']} ({last['neurons']} neurons)"
        if last
        else "none has succeeded yet"
    )
    if chosen:
        said = f"to {chosen}; {said}"
    if state["problem"]:
        said += f"; failing since {state['problem']['since']}: {state['problem']['message']}"
    return said


def _install_status() -> str:
    try:
        check_install()
    except NeuronsError as exc:
        return str(exc)
    return "ok: Neurons' own core and desktop packages"


def _node_path() -> str | None:
    try:
        return node_executable()
    except Exception as exc:  # noqa: BLE001 - doctor reports; it never fails on what it examines
        return f"unavailable: {exc}"
