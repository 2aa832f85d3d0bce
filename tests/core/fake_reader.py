"""An in-memory Reader: what capture and recall may read, without a database.

It stands in for core.store.reader.StoreReader in unit tests of the rooms behind the façade, so
they can be tested apart from the store (the real reader is tested through Memory on both
engines). Its lexemes are lower-case words, its similarity difflib's: close enough to the real
engines for the logic under test, not a model of Postgres.
"""

from __future__ import annotations

import contextlib
import difflib
import re
import uuid
from datetime import datetime

import numpy as np

from core.model import Edge, Identity, Kind, Neuron, Relation, State
from core.store.reader import Linked

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _vector_send(vec: np.ndarray) -> bytes:
    return len(vec).to_bytes(2, "big") + b"\x00\x00" + np.asarray(vec, dtype=">f4").tobytes()


class FakeReader:
    engine = "embedded"

    def __init__(self, identity: Identity | None = None):
        self.identity = identity or Identity(device_id=uuid.uuid4())
        self.rows: dict[uuid.UUID, tuple[int, Neuron]] = {}
        self.edges: list[Edge] = []
        self.edge_seq: dict[uuid.UUID, int] = {}
        self.seq = 0
        self.vectors: dict[uuid.UUID, tuple[np.ndarray, str]] = {}  # id -> (vector, its model)

    # -- filling it ---------------------------------------------------------------------------

    def add(
        self,
        body: str,
        kind: Kind = Kind.NOTE,
        attrs: dict | None = None,
        *,
        created_at: datetime,
        state: State = State.ACTIVE,
    ) -> Neuron:
        n = Neuron(uuid.uuid4(), kind, body, dict(attrs or {}), state, created_at, created_at)
        self.seq += 1
        self.rows[n.id] = (self.seq, n)
        return n

    def link(self, a: Neuron, b: Neuron, relation: Relation = Relation.RELATES_TO) -> Edge:
        e = Edge(uuid.uuid4(), a.id, b.id, relation)
        self.edges.append(e)
        self.seq += 1
        self.edge_seq[e.id] = self.seq
        return e

    # -- the Reader protocol ------------------------------------------------------------------

    def session(self, alone=False):
        return contextlib.nullcontext()

    def _live(self) -> list[Neuron]:
        return [n for _, n in self.rows.values() if n.state is not State.TRASHED]

    def neurons(self, ids):
        return {i: self.rows[i][1] for i in ids if i in self.rows}

    def neurons_at_stamp(self, ids):
        return self.seq, self.neurons(ids)

    def contacts(self):
        return [n for n in self._live() if n.kind is Kind.CONTACT]

    def active_reminders_sharing(self, text):
        return self._active_sharing(text, Kind.REMINDER)

    def active_notes_sharing(self, text):
        return self._active_sharing(text, Kind.NOTE)

    def latest_before(self, at, since):
        found = [
            n
            for n in self._live()
            if n.kind is not Kind.CONTACT and n.created_at is not None and since <= n.created_at <= at
        ]
        return max(found, key=lambda n: (n.created_at, n.id), default=None)

    def _active_sharing(self, text, kind):
        words = set(_words(text))
        found = [
            n
            for n in self._live()
            if n.kind is kind and n.state is State.ACTIVE and words & set(_words(n.body))
        ]
        return sorted(found, key=lambda n: n.created_at, reverse=True)

    def links(self, ids, relations=None):
        out = []
        for e in self.edges:
            if e.valid_to is not None or (relations is not None and e.relation not in relations):
                continue
            for seed in ids:
                if seed in (e.from_id, e.to_id):
                    other = self.rows.get(e.other(seed))
                    if other and other[1].state is not State.TRASHED:
                        out.append(Linked(seed, e, other[1]))
        return out

    def phrase_lexemes(self, phrases):
        return {p: [tuple(_words(p))] for p in phrases if _words(p)}

    def kept_lexemes(self, phrases):
        return self.phrase_lexemes(phrases)

    def contacts_like(self, name, min_similarity):
        scored = [
            (c, difflib.SequenceMatcher(None, name.lower(), str(c.attrs.get("name", c.body)).lower()).ratio())
            for c in self.contacts()
        ]
        return sorted([s for s in scored if s[1] >= min_similarity], key=lambda s: -s[1])

    def look_ahead(self, phrases, like=None, min_similarity=0.0):
        return self.seq

    def question_terms(self, text, filler):
        drop = set(_words(filler))
        return sorted({w for w in _words(text) if w not in drop})

    def change_stamp(self):
        return self.seq

    def stamp_and_terms(self, text, filler):
        return self.seq, self.question_terms(text, filler)

    def index_rows(self, since):
        rows = []
        for seq, n in self.rows.values():
            if since is not None and seq <= since:
                continue
            lexemes = sorted(
                set(_words(n.body + " " + " ".join(str(v) for v in n.attrs.values() if isinstance(v, str))))
            )
            rows.append(
                {
                    "id": n.id,
                    "mine": True,
                    "kind": n.kind.value,
                    "state": n.state.value,
                    "created_at": n.created_at,
                    "change_seq": seq,
                    "due": datetime.fromisoformat(n.attrs["due_at"]) if n.attrs.get("due_at") else None,
                    "done": datetime.fromisoformat(n.attrs["done_at"]) if n.attrs.get("done_at") else None,
                    "rrule": n.attrs.get("rrule"),
                    "contact_attrs": n.attrs if n.kind is Kind.CONTACT else None,
                    "contact_body": n.body if n.kind is Kind.CONTACT else None,
                    "note_head": n.body[:400] if n.kind is Kind.NOTE else None,
                    "lexemes": lexemes,
                    "dl": len(lexemes),
                    "embedding_model": self.vectors[n.id][1] if n.id in self.vectors else None,
                    # as vector_send writes it: dimensions, a spare int16, then big-endian float4s
                    "vec": _vector_send(self.vectors[n.id][0]) if n.id in self.vectors else None,
                }
            )
        return rows, (self.seq if since is None else None)

    def index_edges(self, since):
        rows = [
            {
                "id": e.id,
                "from_node_id": e.from_id,
                "to_node_id": e.to_id,
                "relation_type": e.relation.value,
                "weight": e.weight,
                "change_seq": seq,
                "keep": e.valid_to is None,
            }
            for e in self.edges
            if (seq := self.edge_seq[e.id]) > (since or 0)
        ]
        return rows, (self.seq if since is None else None)

    def keep_statistics(self, count):
        pass

    def origin(self):
        return {"engine": "fake", "reader": id(self)}
