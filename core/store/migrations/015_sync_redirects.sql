-- What each sync account does with a redirect to another server (scheme, host or port), as the
-- person chose at `sync add`: stop there ('refuse'), or follow it without the password. The
-- password itself goes only to the server added, whatever the choice (core/sync/dav.py).
ALTER TABLE sync_accounts ADD COLUMN redirects text NOT NULL DEFAULT 'refuse'
    CHECK (redirects IN ('refuse', 'follow-without-password'));
