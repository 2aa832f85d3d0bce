"""Inputs a hostile or careless person produces: text that mixes the parsers' cue words with long
runs of address, digit and punctuation characters; JSON at and beyond the edges of what readers
keep; export files with wrong types in every field."""

from __future__ import annotations

import uuid

from hypothesis import strategies as st

CUES = [
    "tomorrow",
    "at 5pm",
    "every monday",
    "on may 3",
    "remind me",
    "birthday",
    "Ana Silva",
    "ana@example.org",
    "+351 912 345 678",
    "next week",
    "in 3 days",
    "@",
    ".",
    "-",
    "'s",
    "Dr",
    "(",
    ")",
    "2026-05-01",
    "1st of March",
    "EVERY",
    "\n",
    "\t",
    " ",
    "é",
    "日本",
    "🙂",
]

pieces = st.one_of(
    st.sampled_from(CUES),
    st.text(max_size=12),
    st.builds(
        lambda c, n: c * n,
        st.sampled_from(["a", "1", ".", "-", "@", " ", "a.", "1 ", "on may "]),
        st.integers(1, 400),
    ),
)
texts = st.lists(pieces, max_size=12).map(" ".join)

finite_or_not = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(10**30), max_value=10**30)
)
json_leaves = st.one_of(st.none(), st.booleans(), finite_or_not, st.text(max_size=20))
json_values = st.recursive(
    json_leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
attrs_values = st.one_of(st.dictionaries(st.text(max_size=10), json_values, max_size=5), json_values)

instants = st.one_of(
    st.none(),
    st.text(max_size=30),
    st.integers(),
    st.floats(),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "2026-05-01T10:00:00",
            "2026-05-01T10:00:00+00:00",
            "0001-01-02T00:00:00+00:00",
            "2026-13-01T00:00:00Z",
            "9999-12-30T23:59:59+00:00",
            "1970-01-01T00:00:00-23:59",
        ]
    ),
)
anything = st.one_of(json_values, st.text(max_size=40), instants)


def _neuron(ids):
    return st.fixed_dictionaries(
        {
            "id": st.one_of(st.sampled_from(ids), st.just(str(uuid.uuid4())), anything),
            "kind": st.one_of(st.sampled_from(["note", "reminder", "contact"]), anything),
            "body": st.one_of(texts, anything),
            "attrs": st.one_of(attrs_values, st.just({})),
            "state": st.one_of(st.sampled_from(["active", "done", "archived", "trashed"]), anything),
            "created_at": instants,
            "updated_at": instants,
        }
    )


def _edge(ids):
    return st.fixed_dictionaries(
        {
            "id": st.one_of(st.just(str(uuid.uuid4())), anything),
            "from_id": st.one_of(st.sampled_from(ids), anything),
            "to_id": st.one_of(st.sampled_from(ids), anything),
            "relation_type": st.one_of(
                st.sampled_from(["relates_to", "concerns", "same_person", "supersedes"]), anything
            ),
            "weight": st.one_of(st.just(1.0), finite_or_not, anything),
            "valid_from": instants,
            "valid_to": instants,
            "created_at": instants,
            "derived_by": st.one_of(st.none(), st.text(max_size=10), anything),
        }
    )


@st.composite
def exports(draw):
    """An export file's content: mostly well formed, with hostile values in any field."""
    ids = [str(uuid.uuid4()) for _ in range(3)]
    neurons = draw(st.lists(_neuron(ids), max_size=4))
    edges = draw(st.lists(_edge(ids), max_size=3))
    data = {
        "format": draw(st.one_of(st.just("neurons-export/1"), anything)),
        "neurons": neurons,
        "edges": edges,
    }
    return draw(st.one_of(st.just(data), anything))
