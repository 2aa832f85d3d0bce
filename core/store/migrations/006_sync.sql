-- Two-way sync with the person's CalDAV/CardDAV server (core/sync): the accounts, the collections
-- chosen on each, and per item what Neurons and the server last agreed on. Passwords are never
-- here: the OS keyring keeps them (core/store/secrets.py).
CREATE TABLE sync_accounts (
    id          uuid PRIMARY KEY,
    device_id   uuid,
    user_id     uuid,
    url         text NOT NULL,       -- the principal, as discovered
    given_url   text NOT NULL,       -- what the person typed
    username    text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    tried_at    timestamptz,         -- the last sync that was started
    synced_at   timestamptz,         -- the last sync that finished
    last_error  text,                -- why the last one did not finish (NULL: it did)
    CONSTRAINT sync_accounts_one_owner CHECK ((device_id IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX sync_accounts_once ON sync_accounts ((coalesce(device_id, user_id)), url, username);

CREATE TABLE sync_collections (
    id            uuid PRIMARY KEY,
    account_id    uuid NOT NULL REFERENCES sync_accounts (id) ON DELETE CASCADE,
    href          text NOT NULL,     -- absolute URL
    name          text NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('note', 'reminder', 'contact')),
    component     text,              -- VTODO, VEVENT or VJOURNAL; NULL for an address book
    vcard_version text,              -- the version the address book prefers
    position      int NOT NULL,      -- the first of a kind receives what is new in Neurons
    supports_sync boolean NOT NULL,  -- RFC 6578 sync-collection (else ETags are compared)
    sync_token    text,              -- the token of the last pull that finished
    UNIQUE (account_id, href)
);

CREATE TABLE sync_items (
    collection_id uuid NOT NULL REFERENCES sync_collections (id) ON DELETE CASCADE,
    href          text NOT NULL,
    etag          text,              -- the server's version when both sides last agreed
    neuron_id     uuid REFERENCES neurons (id) ON DELETE CASCADE,  -- NULL: unreadable, skipped until it changes
    fingerprint   text,              -- digest of the neuron as written then (another: changed here)
    seen_seq      bigint,            -- the neuron's change_seq then (the same: nothing to compare)
    PRIMARY KEY (collection_id, href)
);
CREATE UNIQUE INDEX sync_items_neuron ON sync_items (neuron_id) WHERE neuron_id IS NOT NULL;

-- Row-level security (as 004): an account is its owner's; its collections and items are seen
-- through it.
ALTER TABLE sync_accounts ENABLE ROW LEVEL SECURITY;
ALTER TABLE sync_accounts FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_collections ENABLE ROW LEVEL SECURITY;
ALTER TABLE sync_collections FORCE ROW LEVEL SECURITY;
ALTER TABLE sync_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE sync_items FORCE ROW LEVEL SECURITY;

CREATE POLICY sync_accounts_device ON sync_accounts
    USING (device_id = nullif(current_setting('neurons.device_id', true), '')::uuid);
CREATE POLICY sync_accounts_user ON sync_accounts
    USING (user_id = nullif(current_setting('neurons.user_id', true), '')::uuid);
CREATE POLICY sync_accounts_all ON sync_accounts
    USING (current_setting('neurons.scope', true) = 'all');
CREATE POLICY sync_collections_owner ON sync_collections
    USING (EXISTS (SELECT 1 FROM sync_accounts a WHERE a.id = account_id));
CREATE POLICY sync_items_owner ON sync_items
    USING (EXISTS (SELECT 1 FROM sync_collections c WHERE c.id = collection_id));
