-- Where the vector filler's queue was last found empty, per model (core/memory.py): no neuron of
-- change number <= upto lacked a vector of that model then, and none can since (every write of a
-- neuron takes a new change number). A start looks only at what was written after it: the whole
-- table is a scan, ~1 s at 100k neurons on the embedded engine. Only the embedded engine keeps it
-- (a server's transactions commit out of their change numbers' order); it is derived data, like
-- the vectors, so no owner and no policy: the roles of a server are not given it.
CREATE TABLE vectors_clean (
    model   text PRIMARY KEY,
    upto    bigint NOT NULL
);
REVOKE ALL ON vectors_clean FROM PUBLIC;
