-- Why the last sync of each collection failed (NULL: it did not), for `neurons sync status`: one
-- collection's failure no longer stops the account's others, so the account's last_error alone
-- cannot say it.
ALTER TABLE sync_collections ADD COLUMN last_error text;
