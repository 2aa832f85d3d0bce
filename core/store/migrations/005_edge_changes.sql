-- Edges take change numbers from the same sequence as neurons (003), so the in-process recall
-- index keeps the open edges too and follows one hop without a round trip: the change stamp a
-- question reads already says whether a link was made, closed or claimed since the last look.
ALTER TABLE neurons_edges ADD COLUMN change_seq bigint;
UPDATE neurons_edges SET change_seq = nextval('neurons_change_seq');
CREATE INDEX edges_change ON neurons_edges (change_seq);

CREATE TRIGGER edges_touch BEFORE INSERT OR UPDATE ON neurons_edges
FOR EACH ROW EXECUTE FUNCTION neurons_touch();
