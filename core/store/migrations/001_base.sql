-- The base schema: neurons, their edges, local profiles (docs/architecture.md, "The rooms": core/store/).
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE neurons (
    id              uuid PRIMARY KEY,
    device_id       uuid,
    user_id         uuid,
    kind            text NOT NULL CHECK (kind IN ('note', 'reminder', 'contact')),
    body            text NOT NULL,
    attrs           jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(attrs) = 'object'),
    state           text NOT NULL DEFAULT 'active'
                    CHECK (state IN ('active', 'done', 'archived', 'trashed')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- tsvector has a 1 MB limit: index the first 100k characters of very long bodies
    tsv             tsvector GENERATED ALWAYS AS (
                        to_tsvector('english', left(body, 100000))
                        || jsonb_to_tsvector('simple', attrs - 'due_at' - 'rrule' - 'done_at'
                             - 'snoozed_until' - 'notified_at', '["string"]')
                    ) STORED,
    embedding       vector(384),
    embedding_model text,
    CONSTRAINT neurons_one_owner CHECK ((device_id IS NULL) <> (user_id IS NULL))
);

CREATE INDEX neurons_device_kind ON neurons (device_id, kind, state) WHERE device_id IS NOT NULL;
CREATE INDEX neurons_user_kind ON neurons (user_id, kind, state) WHERE user_id IS NOT NULL;
CREATE INDEX neurons_attrs ON neurons USING gin (attrs);
CREATE INDEX neurons_tsv ON neurons USING gin (tsv);
CREATE INDEX neurons_embedding ON neurons USING hnsw (embedding vector_cosine_ops);
CREATE INDEX neurons_pending_embedding ON neurons (created_at) WHERE embedding IS NULL;

CREATE TABLE neurons_edges (
    id              uuid PRIMARY KEY,
    device_id       uuid,
    user_id         uuid,
    from_node_id    uuid NOT NULL REFERENCES neurons (id),
    to_node_id      uuid NOT NULL REFERENCES neurons (id),
    relation_type   text NOT NULL
                    CHECK (relation_type IN ('relates_to', 'concerns', 'same_person', 'supersedes')),
    weight          real NOT NULL DEFAULT 1.0,
    valid_from      timestamptz NOT NULL DEFAULT now(),
    valid_to        timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    derived_by      text,  -- NULL: made by the person; else the rule that derived it
    CONSTRAINT edges_one_owner CHECK ((device_id IS NULL) <> (user_id IS NULL)),
    CONSTRAINT edges_not_self CHECK (from_node_id <> to_node_id),
    CONSTRAINT edges_valid_span CHECK (valid_to IS NULL OR valid_to >= valid_from)
);

CREATE INDEX edges_from ON neurons_edges (from_node_id);
CREATE INDEX edges_to ON neurons_edges (to_node_id);
CREATE INDEX edges_user_relation ON neurons_edges (user_id, relation_type) WHERE user_id IS NOT NULL;
CREATE INDEX edges_device_relation ON neurons_edges (device_id, relation_type) WHERE device_id IS NOT NULL;

CREATE TABLE profiles (
    user_id         uuid PRIMARY KEY,
    name            text NOT NULL,
    claimed_device  uuid,
    created_at      timestamptz NOT NULL DEFAULT now()
);
