-- A link, or a synced item, names only neurons its writer can see. A foreign key is checked by
-- the database as the table's owner, past row-level security: without this, a second database
-- role could link its own neuron to one of the first role's ids (a link into a memory it cannot
-- read), and learn from the answer whether that id exists. These triggers look the neurons up as
-- the writing role, under its row-level security, and refuse one it does not see with the same
-- error as an id nobody has: an id of another role and an id of no one cannot be told apart.
-- (On the embedded engine the one role sees every row: the same as the foreign key.)
CREATE FUNCTION neurons_seen_ends() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM neurons WHERE id = NEW.from_node_id)
       OR NOT EXISTS (SELECT 1 FROM neurons WHERE id = NEW.to_node_id) THEN
        RAISE EXCEPTION 'a link names a neuron that is not in this memory'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER edges_seen_ends BEFORE INSERT OR UPDATE OF from_node_id, to_node_id ON neurons_edges
FOR EACH ROW EXECUTE FUNCTION neurons_seen_ends();

CREATE FUNCTION neurons_seen_item() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.neuron_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM neurons WHERE id = NEW.neuron_id) THEN
        RAISE EXCEPTION 'a synced item names a neuron that is not in this memory'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER sync_items_seen_neuron BEFORE INSERT OR UPDATE OF neuron_id ON sync_items
FOR EACH ROW EXECUTE FUNCTION neurons_seen_item();
