-- Change numbers: every insert or update of a neuron takes the next value of one sequence, so an
-- in-process recall index (core/recall/index.py) can read only what changed since it last looked.
CREATE SEQUENCE neurons_change_seq;
ALTER TABLE neurons ADD COLUMN change_seq bigint;
UPDATE neurons SET change_seq = nextval('neurons_change_seq');
CREATE INDEX neurons_change ON neurons (change_seq);

CREATE FUNCTION neurons_touch() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.change_seq := nextval('neurons_change_seq');
    RETURN NEW;
END
$$;

CREATE TRIGGER neurons_touch BEFORE INSERT OR UPDATE ON neurons
FOR EACH ROW EXECUTE FUNCTION neurons_touch();
