"""Memory: the one façade every caller uses (CLI, desktop, scheduler, eval, tests).

Each call is scoped to the Memory's Identity and runs in one transaction: it either happens whole
and is on disk when it returns, or raises a NeuronsError and leaves the store as it was.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import datetime, timezone
from typing import Any, Callable

from core import __version__
from core.model import (
    Edge, Identity, InvalidInput, Kind, Neuron, NotFound, Relation, State,
)
from core.settings import Settings
from core.store import Store, open_store
from core.store import queries as q

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 2 * 1024 * 1024
EMBED_THREADS = 1  # leave the other core to the GUI and the engine
EXPORT_FORMAT = "neurons-export/1"


def clean_text(text: Any, *, what: str = "text", allow_empty: bool = False) -> str:
    """Refuse what Postgres or a person cannot keep faithfully; keep everything else as typed."""
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be a string, not {type(text).__name__}")
    if "\x00" in text:
        raise InvalidInput(f"{what} contains a NUL byte (\\x00), which cannot be stored; remove it")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{what} contains an unpaired surrogate at position {exc.start}; it is not valid Unicode"
        ) from None
    if size > MAX_BODY_BYTES:
        raise InvalidInput(f"{what} is {size:,} bytes; the limit is {MAX_BODY_BYTES:,}")
    if not allow_empty and not text.strip():
        raise InvalidInput(f"{what} is empty")
    return text


def clean_attrs(attrs: Any) -> dict[str, Any]:
    if attrs is None:
        return {}
    if not isinstance(attrs, dict):
        raise InvalidInput("attrs must be a JSON object")

    def walk(value: Any, path: str) -> None:
        if isinstance(value, str):
            clean_text(value, what=f"attrs{path}", allow_empty=True)
        elif isinstance(value, dict):
            for k, v in value.items():
                clean_text(str(k), what=f"an attrs key at {path or '/'}", allow_empty=True)
                walk(v, f"{path}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")
        elif not (value is None or isinstance(value, (bool, int, float))):
            raise InvalidInput(f"attrs{path} holds a {type(value).__name__}, which JSON cannot")

    walk(attrs, "")
    return attrs


def parse_uuid(value: Any, what: str = "id") -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidInput(f"{what} {value!r} is not a valid id") from None


# One model per process, loaded on first use: model dir -> Embedder, or the reason it failed.
_EMBEDDERS: dict[Any, Any] = {}
_EMBEDDERS_LOCK = threading.Lock()


def _load_embedder(model_dir):
    from core.embed import Embedder, ModelUnavailable  # noqa: PLC0415

    with _EMBEDDERS_LOCK:
        if model_dir not in _EMBEDDERS:
            try:
                _EMBEDDERS[model_dir] = Embedder.load(model_dir, threads=EMBED_THREADS)
            except ModelUnavailable as exc:
                _EMBEDDERS[model_dir] = str(exc)
                log.warning("meaning search is off, keyword search still works: %s", exc)
        found = _EMBEDDERS[model_dir]
    return None if isinstance(found, str) else found


class Memory:
    def __init__(self, store: Store, identity: Identity | None = None, *, owns_store: bool = True):
        self.store = store
        self.identity = identity or Identity(device_id=store.device_id())
        self._owns_store = owns_store
        self.filler = None  # the background EmbeddingFiller, when started
        self.listeners: list[Callable[[str, uuid.UUID], None]] = []

    @classmethod
    def open(cls, settings: Settings | None = None, identity: Identity | None = None) -> Memory:
        memory = cls(open_store(settings or Settings.from_env()), identity)
        if memory.store.settings.embed_in_background:
            memory.start_background()
        return memory

    def as_identity(self, identity: Identity) -> Memory:
        """Another identity's view over the same store (the store stays with this Memory)."""
        return Memory(self.store, identity, owns_store=False)

    # -- vectors (core/embed) ---------------------------------------------------------------------

    def embedder(self):
        """The loaded sentence model, shared by queries and the filler; None when unavailable."""
        return _load_embedder(self.store.settings.model_dir)

    @property
    def _embedder_error(self) -> str | None:
        found = _EMBEDDERS.get(self.store.settings.model_dir)
        return found if isinstance(found, str) else None

    def _new_filler(self):
        from core.embed import EmbeddingFiller, ModelUnavailable, variant_name  # noqa: PLC0415

        model = variant_name("fp32")

        fetched: dict[uuid.UUID, str] = {}

        def fetch(n: int):
            with self.store.reading(every_owner=True) as cur:
                rows = q.pending_embeddings(cur, model, n)
            fetched.clear()
            fetched.update(rows)
            return rows

        def save(rows, name: str) -> None:
            with self.store.transaction(every_owner=True) as cur:
                q.save_embeddings(cur, rows, name, texts=fetched)

        def count() -> int:
            with self.store.reading(every_owner=True) as cur:
                return q.count_pending_embeddings(cur, model)

        def load():
            embedder = self.embedder()
            if embedder is None:
                raise ModelUnavailable(self._embedder_error or "the embedding model is unavailable")
            return embedder

        return EmbeddingFiller(fetch, save, load, count_pending=count)

    def start_background(self) -> None:
        """Fill missing vectors on a background thread; captures wake it."""
        if self.filler is None:
            self.filler = self._new_filler()
            self.filler.start()

    def fill_vectors(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every neuron (of any identity) still without a current vector; returns how many."""
        return self._new_filler().run_until_idle(progress)

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Compute every vector of the store again (after a model change, or to repair). Vectors
        are derived data the store keeps for all identities, like the filler's queue; an
        interrupted reindex is finished by the background filler."""
        if self.embedder() is None:
            from core.embed import ModelUnavailable  # noqa: PLC0415

            raise ModelUnavailable(self._embedder_error or "the embedding model is unavailable")
        with self.store.transaction(every_owner=True) as cur:
            q.clear_embeddings(cur)
        return self.fill_vectors(progress)

    def close(self) -> None:
        if self.filler is not None:
            self.filler.stop(timeout=30)  # let a batch in flight finish before the store closes
            self.filler = None
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _changed(self, what: str, neuron_id: uuid.UUID) -> None:
        if self.filler is not None and what in ("captured", "edited"):
            self.filler.wake()
        for listener in list(self.listeners):
            try:
                listener(what, neuron_id)
            except Exception:  # a listener must never undo a committed write
                log.exception("listener failed on %s %s", what, neuron_id)

    # -- neurons -------------------------------------------------------------------------------

    def capture(
        self, text: str, kind: Kind | str | None = None, attrs: dict[str, Any] | None = None, *,
        created_at: datetime | None = None, derive: bool = True,
    ) -> Neuron:
        """Save a neuron now (never waits for the model). With no kind, it is inferred from the text."""
        text = clean_text(text)
        attrs = dict(clean_attrs(attrs))
        if created_at is not None and created_at.tzinfo is None:
            raise InvalidInput("created_at needs a time zone offset")
        understanding = None
        if kind is None or derive:
            from core import capture as understand  # noqa: PLC0415 - keeps start-up light

            understanding = understand.read(self, text, Kind.parse(kind) if kind else None, attrs,
                                            now=created_at)
            kind, attrs = understanding.kind, understanding.attrs
        neuron = Neuron(id=uuid.uuid4(), kind=Kind.parse(kind), body=text, attrs=attrs,
                        created_at=created_at)
        with self.store.transaction(self.identity) as cur:
            q.insert_neurons(cur, self.identity, [neuron])
            if understanding is not None and derive:
                q.insert_edges(cur, self.identity, understanding.edges_for(neuron))
            saved = q.get_neurons(cur, self.identity, [neuron.id])[neuron.id]
        self._changed("captured", saved.id)
        return saved

    def get(self, neuron_id: uuid.UUID | str) -> Neuron:
        nid = parse_uuid(neuron_id)
        with self.store.reading(self.identity) as cur:
            found = q.get_neurons(cur, self.identity, [nid])
        if nid not in found:
            raise NotFound(f"no neuron {nid}")
        return found[nid]

    def get_many(self, ids: list[uuid.UUID]) -> dict[uuid.UUID, Neuron]:
        with self.store.reading(self.identity) as cur:
            return q.get_neurons(cur, self.identity, ids)

    def edit(self, neuron_id: uuid.UUID | str, text: str | None = None,
             attrs: dict[str, Any] | None = None) -> Neuron:
        nid = parse_uuid(neuron_id)
        if text is not None:
            text = clean_text(text)
        if attrs is not None:
            attrs = clean_attrs(attrs)
        with self.store.transaction(self.identity) as cur:
            neuron = q.update_neuron(cur, self.identity, nid, body=text, attrs=attrs)
        if neuron is None:
            raise NotFound(f"no neuron {nid}")
        self._changed("edited", nid)
        return neuron

    def update_attrs(self, neuron_id: uuid.UUID | str, **changes: Any) -> Neuron:
        """Merge keys into attrs (None removes a key), e.g. update_attrs(id, due_at=...)."""
        current = self.get(neuron_id)
        attrs = dict(current.attrs)
        for key, value in changes.items():
            if value is None:
                attrs.pop(key, None)
            else:
                attrs[key] = value.isoformat() if isinstance(value, datetime) else value
        return self.edit(current.id, attrs=attrs)

    def set_state(self, neuron_id: uuid.UUID | str, state: State | str) -> Neuron:
        """done, archived, trashed; `restored` is State.ACTIVE. Done reminders record done_at."""
        nid, state = parse_uuid(neuron_id), State.parse(state)
        with self.store.transaction(self.identity) as cur:
            current = q.get_neurons(cur, self.identity, [nid]).get(nid)
            if current is None:
                raise NotFound(f"no neuron {nid}")
            attrs = None
            if current.kind is Kind.REMINDER:
                attrs = dict(current.attrs)
                if state is State.DONE:
                    attrs["done_at"] = datetime.now(timezone.utc).isoformat()
                else:
                    attrs.pop("done_at", None)
            neuron = q.update_neuron(cur, self.identity, nid, state=state, attrs=attrs)
        self._changed("state", nid)
        return neuron

    def done(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.DONE)

    def archive(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.ARCHIVED)

    def trash(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.TRASHED)

    def restore(self, neuron_id: uuid.UUID | str) -> Neuron:
        return self.set_state(neuron_id, State.ACTIVE)

    def list(self, kind: Kind | str | None = None, states: list[State | str] | None = None, *,
             limit: int = 100, offset: int = 0, order: str = "recent") -> list[Neuron]:
        if order not in ("recent", "updated", "due", "name"):
            raise InvalidInput(f"unknown order {order!r}")
        with self.store.reading(self.identity) as cur:
            return q.list_neurons(
                cur, self.identity, kind=Kind.parse(kind) if kind else None,
                states=[State.parse(s) for s in (states or [State.ACTIVE])],
                limit=limit, offset=offset, order=order,
            )

    def count(self) -> int:
        with self.store.reading(self.identity) as cur:
            return q.count_neurons(cur, self.identity)

    def search(self, text: str, limit: int = 20) -> list[Neuron]:
        """Keyword search alone (fast, no model): the fallback when the model is unavailable."""
        text = clean_text(text, what="query", allow_empty=True)
        with self.store.reading(self.identity) as cur:
            return [n for n, _ in q.keyword_search(cur, self.identity, text, limit)]

    # -- edges ---------------------------------------------------------------------------------

    def link(self, from_id: uuid.UUID | str, to_id: uuid.UUID | str,
             relation: Relation | str = Relation.RELATES_TO, *, valid_from: datetime | None = None,
             weight: float = 1.0, derived_by: str | None = None) -> Edge:
        a, b, rel = parse_uuid(from_id, "from id"), parse_uuid(to_id, "to id"), Relation.parse(relation)
        if a == b:
            raise InvalidInput("a neuron cannot be linked to itself")
        if valid_from is not None and valid_from.tzinfo is None:
            raise InvalidInput("valid_from needs a time zone offset")
        edge = Edge(id=uuid.uuid4(), from_id=a, to_id=b, relation=rel, weight=float(weight),
                    valid_from=valid_from, derived_by=derived_by)
        with self.store.transaction(self.identity) as cur:
            found = q.get_neurons(cur, self.identity, [a, b])
            for nid in (a, b):
                if nid not in found:
                    raise NotFound(f"no neuron {nid} to link")
            existing = q.find_open_edge(cur, self.identity, a, b, rel)
            if existing is not None:
                return existing
            q.insert_edges(cur, self.identity, [edge])
            saved = q.get_edge(cur, self.identity, edge.id)
        self._changed("linked", a)
        return saved

    def unlink(self, edge_id: uuid.UUID | str, at: datetime | None = None) -> Edge:
        """Close a link: it stops being true at `at` (now); edges are never deleted."""
        eid = parse_uuid(edge_id, "edge id")
        with self.store.transaction(self.identity) as cur:
            edge = q.close_edge(cur, self.identity, eid, at)
            if edge is None:
                existing = q.get_edge(cur, self.identity, eid)
                if existing is None:
                    raise NotFound(f"no link {eid}")
                return existing  # already closed
        self._changed("unlinked", edge.from_id)
        return edge

    def edges(self, neuron_id: uuid.UUID | str, open_only: bool = False) -> list[Edge]:
        with self.store.reading(self.identity) as cur:
            return q.edges_of(cur, self.identity, [parse_uuid(neuron_id)], open_only=open_only)

    def neighbours(self, neuron_id: uuid.UUID | str, open_only: bool = True) -> list[tuple[Edge, Neuron]]:
        nid = parse_uuid(neuron_id)
        with self.store.reading(self.identity) as cur:
            edges = q.edges_of(cur, self.identity, [nid], open_only=open_only)
            others = q.get_neurons(cur, self.identity, [e.other(nid) for e in edges])
        return [(e, others[e.other(nid)]) for e in edges if e.other(nid) in others]

    # -- recall (core/recall) --------------------------------------------------------------------

    def ask(self, question: str, limit: int = 10, **options: Any):
        from core import recall  # noqa: PLC0415

        return recall.ask(self, clean_text(question, what="question"), limit=limit, **options)

    def about(self, name: str, limit: int = 50, **options: Any):
        from core import recall  # noqa: PLC0415

        return recall.about(self, clean_text(name, what="name"), limit=limit, **options)

    # -- export, import, profiles ----------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        self.store.require_sound(self.identity)
        with self.store.reading(self.identity) as cur:
            neurons = q.all_neurons(cur, self.identity)
            edges = q.all_edges(cur, self.identity)
        return {
            "format": EXPORT_FORMAT,
            "app_version": __version__,
            "exported_at": datetime.now(timezone.utc).isoformat(),
            "neurons": [n.to_json() for n in neurons],
            "edges": [e.to_json() for e in edges],
        }

    def import_(self, data: Any) -> dict[str, int]:
        """Import an export; all or nothing. Rows whose ids exist already are skipped."""
        from core.portable import parse_export  # noqa: PLC0415

        neurons, edges = parse_export(data)
        with self.store.transaction(self.identity) as cur:
            taken = q.existing_ids(cur, self.identity, "neurons", [n.id for n in neurons])
            mine = q.get_neurons(cur, self.identity, list(taken))
            if taken - set(mine):
                raise InvalidInput(f"{len(taken - set(mine))} neuron ids of the file belong to "
                                   "another identity in this store; nothing was imported")
            new_neurons = [n for n in neurons if n.id not in taken]
            known = {n.id for n in neurons} | set(mine)
            for e in edges:
                if e.from_id not in known or e.to_id not in known:
                    raise InvalidInput(f"link {e.id} points at a neuron the file does not hold")
            taken_edges = q.existing_ids(cur, self.identity, "neurons_edges", [e.id for e in edges])
            new_edges = [e for e in edges if e.id not in taken_edges]
            q.insert_neurons(cur, self.identity, new_neurons)
            q.insert_edges(cur, self.identity, new_edges)
        if self.filler is not None:
            self.filler.wake()
        return {"neurons": len(new_neurons), "edges": len(new_edges),
                "skipped": len(neurons) - len(new_neurons) + len(edges) - len(new_edges)}

    def claim(self, profile_name: str) -> Memory:
        """Create a local profile that takes over every row of this device, in one transaction."""
        name = clean_text(profile_name, what="profile name").strip()
        if self.identity.device_id is None:
            raise InvalidInput("only an anonymous device's rows can be claimed")
        user = Identity(user_id=uuid.uuid4())
        with self.store.transaction(self.identity) as cur:
            q.claim_device(cur, self.identity.device_id, user.user_id, name)
        return self.as_identity(user)

    # -- health ----------------------------------------------------------------------------------

    def doctor(self) -> dict[str, Any]:
        from core.embed import model_status  # noqa: PLC0415

        model = model_status(self.store.settings.model_dir)
        with self.store.reading(every_owner=True) as cur:
            facts = q.engine_facts(cur)
            total = q.count_neurons(cur)
            pending = q.count_pending_embeddings(cur, model.get("name"))
            security = q.row_security(cur) if self.store.kind == "server" else None
        check = self.store.check(self.identity if self.store.kind == "server" else None)
        lock = self.store.lock.read_record() if self.store.lock else None
        engine = self.store.engine
        return {
            "engine": self.store.kind,
            "data_dir": str(self.store.settings.data_dir),
            "identity": str(self.identity),
            "lock": lock,
            "engine_pid": engine.pid if engine else None,
            "node": _node_path() if engine else None,
            "postgres": facts["version"],
            "schema_version": facts["schema"],
            "extensions": facts["extensions"],
            "neurons": total,
            "store_check": check,
            "row_security": security,
            "pending_vectors": pending,
            "model": model,
            "opened_in_s": round(self.store.opened_in_s, 3),
        }


def _node_path() -> str | None:
    from core.store.embedded import node_executable  # noqa: PLC0415

    try:
        return node_executable()
    except Exception as exc:  # doctor reports; it never fails on what it examines
        return f"unavailable: {exc}"
