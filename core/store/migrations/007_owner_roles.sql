-- Row-level security keyed on the database role. 004's policies trusted session
-- settings any connected role can set (SET neurons.scope = 'all' read every identity's rows).
-- Now every owner (a device id or a profile id) belongs to one database role, in
-- neurons_owners, which only the role that owns the schema (the admin: the one that runs these
-- migrations) writes. A restrictive policy keeps each role to the rows of its own owners,
-- whatever it sets; within them 004's policies still narrow a transaction to the identity it
-- names (neurons.scope = 'all' now widens it to the role's owners only).
--
-- An owner id nobody has used yet goes to the first role that acts as it, through
-- neurons_claim_owner(): the one way a role other than the admin adds to the table, and it
-- refuses an id that belongs to another role. Every owner the store holds already belongs to
-- the role that applies this migration (the admin gives owners to other roles with
-- UPDATE neurons_owners SET role_name = ...). A mapping is never deleted: an owner nobody held
-- would be free for any role to claim, rows and all.
--
-- What this does not stop: the role that owns the tables (it can turn row security off),
-- superusers and BYPASSRLS roles (they skip every policy), and anyone who logs in as a role.

CREATE TABLE neurons_owners (
    owner_id    uuid PRIMARY KEY,
    role_name   name NOT NULL,
    since       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX neurons_owners_role ON neurons_owners (role_name, owner_id);

INSERT INTO neurons_owners (owner_id, role_name)
SELECT DISTINCT owner_id, current_user FROM (
    SELECT coalesce(device_id, user_id) FROM neurons
    UNION SELECT coalesce(device_id, user_id) FROM neurons_edges
    UNION SELECT user_id FROM profiles
    UNION SELECT claimed_device FROM profiles WHERE claimed_device IS NOT NULL
    UNION SELECT coalesce(device_id, user_id) FROM sync_accounts
) AS held (owner_id)
ON CONFLICT DO NOTHING;

-- Each role reads its own mappings (the policies below look them up as the querying role);
-- the admin, owner of the table, reads and writes them all (row security is not forced on it).
REVOKE ALL ON neurons_owners FROM PUBLIC;
GRANT SELECT ON neurons_owners TO PUBLIC;
ALTER TABLE neurons_owners ENABLE ROW LEVEL SECURITY;
CREATE POLICY owners_own ON neurons_owners FOR SELECT USING (role_name = current_user);

CREATE FUNCTION neurons_owners_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'an owner''s mapping is never deleted (its rows would be free for any role to claim): give it to another role with UPDATE neurons_owners SET role_name = ...'
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER neurons_owners_kept BEFORE DELETE ON neurons_owners
FOR EACH ROW EXECUTE FUNCTION neurons_owners_kept();

-- Make `owner` one of the role `who`'s owners (the caller passes current_user; a session may
-- only name a role it is a member of). Runs as the admin, so it can write the table; refuses an
-- owner that belongs to another role.
CREATE FUNCTION neurons_claim_owner(who name, owner uuid) RETURNS void
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
END
$$;
-- a definer function must not find another table of that name first (pg_temp is searched
-- before the schema unless it is named last)
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION neurons_claim_owner(name, uuid) SET search_path = %I, pg_temp',
                   current_schema());
END
$$;

-- A restrictive policy beside 004's: a transaction's rows must be of owners its role holds.
-- When it names its owners (the app's every call), that is checked once per statement -- every
-- named owner is the role's -- and 004's policies choose the rows as before (same plans, same
-- indexes); under neurons.scope = 'all' (store-wide work) each row's owner is looked up. (The
-- settings are read in subqueries: once per statement, not once per row.)
CREATE POLICY neurons_role ON neurons AS RESTRICTIVE
    USING (CASE WHEN (SELECT current_setting('neurons.scope', true)) = 'all'
                THEN coalesce(device_id, user_id) IN (SELECT owner_id FROM neurons_owners WHERE role_name = current_user)
                ELSE (SELECT count(*) FROM neurons_owners WHERE role_name = current_user AND owner_id IN (
                          nullif(current_setting('neurons.device_id', true), '')::uuid,
                          nullif(current_setting('neurons.user_id', true), '')::uuid))
                     = (SELECT (nullif(current_setting('neurons.device_id', true), '') IS NOT NULL)::int
                             + (nullif(current_setting('neurons.user_id', true), '') IS NOT NULL)::int)
           END);
CREATE POLICY edges_role ON neurons_edges AS RESTRICTIVE
    USING (CASE WHEN (SELECT current_setting('neurons.scope', true)) = 'all'
                THEN coalesce(device_id, user_id) IN (SELECT owner_id FROM neurons_owners WHERE role_name = current_user)
                ELSE (SELECT count(*) FROM neurons_owners WHERE role_name = current_user AND owner_id IN (
                          nullif(current_setting('neurons.device_id', true), '')::uuid,
                          nullif(current_setting('neurons.user_id', true), '')::uuid))
                     = (SELECT (nullif(current_setting('neurons.device_id', true), '') IS NOT NULL)::int
                             + (nullif(current_setting('neurons.user_id', true), '') IS NOT NULL)::int)
           END);

-- A sync account (006) is its owner's the same way; its collections and items are seen through it.
CREATE POLICY sync_accounts_role ON sync_accounts AS RESTRICTIVE
    USING (CASE WHEN (SELECT current_setting('neurons.scope', true)) = 'all'
                THEN coalesce(device_id, user_id) IN (SELECT owner_id FROM neurons_owners WHERE role_name = current_user)
                ELSE (SELECT count(*) FROM neurons_owners WHERE role_name = current_user AND owner_id IN (
                          nullif(current_setting('neurons.device_id', true), '')::uuid,
                          nullif(current_setting('neurons.user_id', true), '')::uuid))
                     = (SELECT (nullif(current_setting('neurons.device_id', true), '') IS NOT NULL)::int
                             + (nullif(current_setting('neurons.user_id', true), '') IS NOT NULL)::int)
           END);

-- A profile's row (its name, the device it was claimed from) is its role's too.
ALTER TABLE profiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE profiles FORCE ROW LEVEL SECURITY;
CREATE POLICY profiles_role ON profiles
    USING (user_id IN (SELECT owner_id FROM neurons_owners WHERE role_name = current_user));
