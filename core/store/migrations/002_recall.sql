-- Recall: what ask/about need beyond the base schema (docs/architecture.md, "How a question travels").

-- "Captured in the same sitting": the neuron just before / after another, per owner, by time.
CREATE INDEX neurons_device_created ON neurons (device_id, created_at, id) WHERE device_id IS NOT NULL;
CREATE INDEX neurons_user_created ON neurons (user_id, created_at, id) WHERE user_id IS NOT NULL;

-- Due dates live in attrs as ISO 8601 text written by people and importers: a malformed one must
-- not make a time-window question fail, so it reads as "no due date".
CREATE FUNCTION recall_ts(value text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    IF value IS NULL OR value !~ '^\s*\d{4}-\d{2}-\d{2}' THEN
        RETURN NULL;
    END IF;
    RETURN value::timestamptz;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$;
