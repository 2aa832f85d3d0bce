-- Each database role has its own keys and its own change numbers: nothing a second role may try
-- or read tells it whether another role's ids exist or how much another role writes.
--
-- Keys. An id was unique across the whole database, so a role that inserted a row under an id
-- it knew learnt from the unique violation whether another role held it. Now every row names
-- its role (holder: the role that wrote it, which row-level security keeps to the writing role)
-- and every key and link includes it: (id, holder). Another role's id is as free to a role as an
-- id nobody holds, and is a row of its own under it. Within one role nothing changes: its ids
-- are unique, its links and synced items name its own neurons (the foreign keys now say so too).
-- Identities (device and profile ids) stay one per database, each of one role (007): a role told
-- that an identity is another role's is what tells a person to ask the admin for it.
--
-- Change numbers. They came from one sequence every role read, and a role's own rows showed the
-- gaps other roles' writes left between its numbers. Now each role has a counter of its own
-- (neurons_counters: a sequence only it and the admin read), its rows take their numbers from it,
-- and neurons_change_stamp() is the last one it handed out. The recall index, the vector
-- filler and sync read only the role's own rows, so its own count is all they compare. The role
-- that applies this keeps the old sequence as its counter (the embedded engine's one role too);
-- roles that hold identities already start above its value now (what they could read until
-- now), so their saved indexes' stamps do not go back; a role new after this starts at 1.
--
-- The admin gives an identity to another role as before (UPDATE neurons_owners SET role_name
-- = ...): its rows, links, sync accounts and their items go with it, take numbers of the new
-- role's counter, which first moves above the old role's (a number a synced item last saw is
-- never handed out again to that neuron).
--
-- Names, not oids: the holder is a regrole (an oid on disk, a role's name in a dump), so a
-- dump restored in another cluster keeps each row with its role of the same name.

ALTER TABLE neurons ADD COLUMN holder regrole NOT NULL DEFAULT quote_ident(current_user)::regrole;
ALTER TABLE neurons_edges ADD COLUMN holder regrole NOT NULL DEFAULT quote_ident(current_user)::regrole;
ALTER TABLE sync_accounts ADD COLUMN holder regrole NOT NULL DEFAULT quote_ident(current_user)::regrole;
ALTER TABLE sync_collections ADD COLUMN holder regrole NOT NULL DEFAULT quote_ident(current_user)::regrole;
ALTER TABLE sync_items ADD COLUMN holder regrole NOT NULL DEFAULT quote_ident(current_user)::regrole;

-- The counters: one sequence per role, named after the role's oid, read (SELECT,
-- USAGE) by that role alone; the admin owns them all. Each role sees its own mapping only.
CREATE TABLE neurons_counters (
    holder      regrole PRIMARY KEY,
    counter     regclass NOT NULL
);
REVOKE ALL ON neurons_counters FROM PUBLIC;
GRANT SELECT ON neurons_counters TO PUBLIC;
ALTER TABLE neurons_counters ENABLE ROW LEVEL SECURITY;
CREATE POLICY counters_own ON neurons_counters FOR SELECT
    USING (holder = (SELECT quote_ident(current_user)::regrole));
INSERT INTO neurons_counters (holder, counter)
VALUES (quote_ident(current_user)::regrole, 'neurons_change_seq');

-- The counter of `who` (made, starting at `start`, when it has none). Run by the admin: this
-- migration, neurons_claim_owner, the giving of an identity.
CREATE FUNCTION neurons_make_counter(who name, start bigint) RETURNS regclass
LANGUAGE plpgsql AS $$
DECLARE
    made regclass;
    whose regrole := to_regrole(quote_ident(who));
    seq text;
BEGIN
    IF whose IS NULL THEN
        RETURN NULL;  -- a role dropped since: nothing of its can be written
    END IF;
    seq := 'neurons_changes_' || whose::oid;
    SELECT counter INTO made FROM neurons_counters WHERE holder = whose;
    IF made IS NOT NULL THEN
        RETURN made;
    END IF;
    LOCK TABLE neurons_counters IN SHARE ROW EXCLUSIVE MODE;  -- one maker at a time
    SELECT counter INTO made FROM neurons_counters WHERE holder = whose;
    IF made IS NOT NULL THEN
        RETURN made;
    END IF;
    EXECUTE format('CREATE SEQUENCE %I.%I START WITH %s', current_schema(), seq, greatest(start, 1));
    made := format('%I.%I', current_schema(), seq)::regclass;
    EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s TO %I', made, who);
    INSERT INTO neurons_counters (holder, counter) VALUES (whose, made);
    RETURN made;
END
$$;
REVOKE ALL ON FUNCTION neurons_make_counter(name, bigint) FROM PUBLIC;

-- The roles that hold identities now start above what the shared sequence has handed out.
SELECT neurons_make_counter(role_name,
                            (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END
                             FROM neurons_change_seq))
FROM (SELECT DISTINCT role_name FROM neurons_owners WHERE role_name <> current_user) AS held;

-- Nobody but the admin reads the shared sequence now: it is the admin's counter.
DO $$
DECLARE
    grantee name;
BEGIN
    REVOKE ALL ON SEQUENCE neurons_change_seq FROM PUBLIC;
    FOR grantee IN
        SELECT DISTINCT r.rolname FROM pg_class c, aclexplode(c.relacl) AS acl
        JOIN pg_roles r ON r.oid = acl.grantee
        WHERE c.oid = 'neurons_change_seq'::regclass AND acl.grantee <> c.relowner
    LOOP
        EXECUTE format('REVOKE ALL ON SEQUENCE neurons_change_seq FROM %I', grantee);
    END LOOP;
END
$$;

-- A neuron's or a link's change number, from the counter of the role whose row it is. (As the
-- writing role: it reads its own mapping and draws from its own counter.)
CREATE OR REPLACE FUNCTION neurons_touch() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    counter regclass;
BEGIN
    SELECT c.counter INTO counter FROM neurons_counters c WHERE c.holder = NEW.holder;
    IF counter IS NULL THEN
        RAISE EXCEPTION 'the database role % has no change counter: open this memory once with Neurons as that role (it claims its identity first)', NEW.holder
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.change_seq := nextval(counter);
    RETURN NEW;
END
$$;

-- The last change number the connected role's counter handed out (0 before the first).
CREATE FUNCTION neurons_change_stamp() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    counter regclass;
    last bigint;
    called boolean;
BEGIN
    SELECT c.counter INTO counter FROM neurons_counters c
    WHERE c.holder = quote_ident(current_user)::regrole;
    IF counter IS NULL THEN
        RETURN 0;
    END IF;
    EXECUTE format('SELECT last_value, is_called FROM %s', counter) INTO last, called;
    RETURN CASE WHEN called THEN last ELSE 0 END;
END
$$;

-- The keys, with the holder. Old keys and links go first; then every row takes the role of its
-- identity (as the table owner, past the policies, for this transaction only).
ALTER TABLE neurons_edges DROP CONSTRAINT neurons_edges_from_node_id_fkey,
                          DROP CONSTRAINT neurons_edges_to_node_id_fkey,
                          DROP CONSTRAINT neurons_edges_pkey;
ALTER TABLE sync_items DROP CONSTRAINT sync_items_neuron_id_fkey,
                       DROP CONSTRAINT sync_items_collection_id_fkey,
                       DROP CONSTRAINT sync_items_pkey;
DROP INDEX sync_items_neuron;
ALTER TABLE sync_collections DROP CONSTRAINT sync_collections_account_id_fkey,
                             DROP CONSTRAINT sync_collections_account_id_href_key,
                             DROP CONSTRAINT sync_collections_pkey;
ALTER TABLE sync_accounts DROP CONSTRAINT sync_accounts_pkey;
ALTER TABLE neurons DROP CONSTRAINT neurons_pkey;

ALTER TABLE neurons NO FORCE ROW LEVEL SECURITY;
ALTER TABLE neurons_edges NO FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_accounts NO FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_collections NO FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_items NO FORCE ROW LEVEL SECURITY;

UPDATE neurons n SET holder = to_regrole(quote_ident(o.role_name))
FROM neurons_owners o
WHERE o.owner_id = coalesce(n.device_id, n.user_id)
  AND to_regrole(quote_ident(o.role_name)) IS NOT NULL AND n.holder <> to_regrole(quote_ident(o.role_name));
UPDATE neurons_edges e SET holder = to_regrole(quote_ident(o.role_name))
FROM neurons_owners o
WHERE o.owner_id = coalesce(e.device_id, e.user_id)
  AND to_regrole(quote_ident(o.role_name)) IS NOT NULL AND e.holder <> to_regrole(quote_ident(o.role_name));
UPDATE sync_accounts a SET holder = to_regrole(quote_ident(o.role_name))
FROM neurons_owners o
WHERE o.owner_id = coalesce(a.device_id, a.user_id)
  AND to_regrole(quote_ident(o.role_name)) IS NOT NULL AND a.holder <> to_regrole(quote_ident(o.role_name));
UPDATE sync_collections c SET holder = a.holder FROM sync_accounts a
WHERE a.id = c.account_id AND c.holder <> a.holder;
UPDATE sync_items i SET holder = c.holder FROM sync_collections c
WHERE c.id = i.collection_id AND i.holder <> c.holder;
-- A link or a synced item that names another role's neuron (made before 012 stopped it) is no
-- part of either memory: its own role never saw that end.
DELETE FROM neurons_edges e
WHERE NOT EXISTS (SELECT 1 FROM neurons n WHERE n.id = e.from_node_id AND n.holder = e.holder)
   OR NOT EXISTS (SELECT 1 FROM neurons n WHERE n.id = e.to_node_id AND n.holder = e.holder);
DELETE FROM sync_items i
WHERE i.neuron_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM neurons n WHERE n.id = i.neuron_id AND n.holder = i.holder);

ALTER TABLE neurons FORCE ROW LEVEL SECURITY;
ALTER TABLE neurons_edges FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_accounts FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_collections FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_items FORCE ROW LEVEL SECURITY;

-- The id leads each key: the app looks rows up by id.
ALTER TABLE neurons ADD PRIMARY KEY (id, holder);
ALTER TABLE neurons_edges ADD PRIMARY KEY (id, holder),
    ADD CONSTRAINT neurons_edges_from_node_id_fkey FOREIGN KEY (from_node_id, holder)
        REFERENCES neurons (id, holder),
    ADD CONSTRAINT neurons_edges_to_node_id_fkey FOREIGN KEY (to_node_id, holder)
        REFERENCES neurons (id, holder);
ALTER TABLE sync_accounts ADD PRIMARY KEY (id, holder);
ALTER TABLE sync_collections ADD PRIMARY KEY (id, holder),
    ADD CONSTRAINT sync_collections_account_id_href_key UNIQUE (account_id, href, holder),
    ADD CONSTRAINT sync_collections_account_id_fkey FOREIGN KEY (account_id, holder)
        REFERENCES sync_accounts (id, holder) ON DELETE CASCADE;
ALTER TABLE sync_items ADD PRIMARY KEY (collection_id, href, holder),
    ADD CONSTRAINT sync_items_collection_id_fkey FOREIGN KEY (collection_id, holder)
        REFERENCES sync_collections (id, holder) ON DELETE CASCADE,
    ADD CONSTRAINT sync_items_neuron_id_fkey FOREIGN KEY (neuron_id, holder)
        REFERENCES neurons (id, holder) ON DELETE CASCADE;
CREATE UNIQUE INDEX sync_items_neuron ON sync_items (neuron_id, holder) WHERE neuron_id IS NOT NULL;

-- A role writes rows of its own holder only (a row it wrote under another role's name would
-- meet that role's keys), and sees only those. Read once per statement.
CREATE POLICY neurons_holder ON neurons AS RESTRICTIVE
    USING (holder = (SELECT quote_ident(current_user)::regrole)) WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole));
CREATE POLICY edges_holder ON neurons_edges AS RESTRICTIVE
    USING (holder = (SELECT quote_ident(current_user)::regrole)) WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole));
CREATE POLICY sync_accounts_holder ON sync_accounts AS RESTRICTIVE
    USING (holder = (SELECT quote_ident(current_user)::regrole)) WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole));
CREATE POLICY sync_collections_holder ON sync_collections AS RESTRICTIVE
    USING (holder = (SELECT quote_ident(current_user)::regrole)) WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole));
CREATE POLICY sync_items_holder ON sync_items AS RESTRICTIVE
    USING (holder = (SELECT quote_ident(current_user)::regrole)) WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole));

-- 007's claim, now also making the claiming role's counter (at 1: every row it numbers is new).
CREATE OR REPLACE FUNCTION neurons_claim_owner(who name, owner uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    holder name;
BEGIN
    IF owner IS NULL THEN
        RETURN;
    END IF;
    IF NOT pg_has_role(session_user, who, 'MEMBER') THEN
        RAISE EXCEPTION 'the database role % may not act for the role %', session_user, who
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT role_name INTO holder FROM neurons_owners WHERE owner_id = owner;
    IF holder IS NULL THEN
        INSERT INTO neurons_owners (owner_id, role_name) VALUES (owner, who) ON CONFLICT DO NOTHING;
        SELECT role_name INTO holder FROM neurons_owners WHERE owner_id = owner;
    END IF;
    IF holder <> who THEN
        RAISE EXCEPTION 'the memory % belongs to another database role than %: connect as that role, or ask the database''s admin to give it to this one', owner, who
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM neurons_make_counter(who, 1);
END
$$;

-- Giving an identity to another role (the admin's UPDATE of neurons_owners): its rows go with
-- it. Runs as the admin, the tables' owner, which lifts the forced policies for this
-- transaction (the tables are held meanwhile). Neurons and accounts change holder in place;
-- their links, collections and items are taken out and written back under the new holder
-- (every key and link holds at each step).
CREATE FUNCTION neurons_owner_given() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    giver regrole := to_regrole(quote_ident(OLD.role_name));
    taker regrole := to_regrole(quote_ident(NEW.role_name));
    gone regclass;
    came regclass;
    high bigint;
    edges jsonb;
    collections jsonb;
    items jsonb;
BEGIN
    IF NEW.owner_id <> OLD.owner_id THEN
        RAISE EXCEPTION 'an identity''s id does not change: give it to another role with UPDATE neurons_owners SET role_name = ...'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.role_name = OLD.role_name THEN
        RETURN NEW;
    END IF;
    IF taker IS NULL THEN
        RAISE EXCEPTION 'there is no database role %', NEW.role_name USING ERRCODE = 'undefined_object';
    END IF;
    came := neurons_make_counter(NEW.role_name, 1);
    SELECT counter INTO gone FROM neurons_counters WHERE holder = giver;
    IF gone IS NOT NULL THEN
        EXECUTE format('SELECT last_value FROM %s', gone) INTO high;
        EXECUTE format('SELECT setval(%L, greatest(last_value, %s)) FROM %s', came, high, came);
    END IF;
    ALTER TABLE neurons NO FORCE ROW LEVEL SECURITY;
    ALTER TABLE neurons_edges NO FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_accounts NO FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_collections NO FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_items NO FORCE ROW LEVEL SECURITY;

    SELECT coalesce(jsonb_agg(to_jsonb(i) || jsonb_build_object('holder', taker::text)), '[]') INTO items
    FROM sync_items i JOIN sync_collections c ON c.id = i.collection_id AND c.holder = i.holder
    JOIN sync_accounts a ON a.id = c.account_id AND a.holder = c.holder
    WHERE coalesce(a.device_id, a.user_id) = NEW.owner_id;
    SELECT coalesce(jsonb_agg(to_jsonb(c) || jsonb_build_object('holder', taker::text)), '[]') INTO collections
    FROM sync_collections c JOIN sync_accounts a ON a.id = c.account_id AND a.holder = c.holder
    WHERE coalesce(a.device_id, a.user_id) = NEW.owner_id;
    SELECT coalesce(jsonb_agg(to_jsonb(e) || jsonb_build_object('holder', taker::text)), '[]') INTO edges
    FROM neurons_edges e WHERE coalesce(e.device_id, e.user_id) = NEW.owner_id;
    DELETE FROM sync_collections c USING sync_accounts a
    WHERE a.id = c.account_id AND a.holder = c.holder AND coalesce(a.device_id, a.user_id) = NEW.owner_id;
    DELETE FROM neurons_edges WHERE coalesce(device_id, user_id) = NEW.owner_id;

    UPDATE neurons SET holder = taker WHERE coalesce(device_id, user_id) = NEW.owner_id;
    UPDATE sync_accounts SET holder = taker WHERE coalesce(device_id, user_id) = NEW.owner_id;

    INSERT INTO sync_collections
    SELECT (jsonb_populate_record(NULL::sync_collections, x)).* FROM jsonb_array_elements(collections) AS x;
    INSERT INTO sync_items
    SELECT (jsonb_populate_record(NULL::sync_items, x)).* FROM jsonb_array_elements(items) AS x;
    INSERT INTO neurons_edges
    SELECT (jsonb_populate_record(NULL::neurons_edges, x)).* FROM jsonb_array_elements(edges) AS x;

    ALTER TABLE neurons FORCE ROW LEVEL SECURITY;
    ALTER TABLE neurons_edges FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_accounts FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_collections FORCE ROW LEVEL SECURITY;
    ALTER TABLE sync_items FORCE ROW LEVEL SECURITY;
    RETURN NEW;
END
$$;
CREATE TRIGGER neurons_owner_given AFTER UPDATE ON neurons_owners
FOR EACH ROW EXECUTE FUNCTION neurons_owner_given();

-- the definer function must not find another table of that name first (as 007)
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION neurons_claim_owner(name, uuid) SET search_path = %I, pg_temp',
                   current_schema());
END
$$;
