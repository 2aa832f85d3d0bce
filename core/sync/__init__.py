"""Two-way sync of reminders and contacts (and, when chosen, notes) with the person's own CalDAV and
CardDAV server -- Radicale, Nextcloud, Baïkal, Fastmail, iCloud -- so a phone (DAVx5 on Android,
iOS Reminders and Contacts) shows and changes them too.

    dav.py       a small WebDAV client on the standard library (http.client, ssl, ElementTree)
    discover.py  RFC 6764 well-known URLs, then PROPFIND: the principal, its calendars and address books
    items.py     a neuron as a server resource and back, through core/interop's iCalendar and vCard
    engine.py    one sync: pull (RFC 6578 sync-collection, else ETags), then push; conflicts keep both
    accounts.py  adding, listing and removing accounts; the password in the OS keyring

Nothing here runs on a GUI thread or holds the store while it waits for the network: a pull is
planned, then written in one Memory call; each write to the server is recorded after it happened,
and an interrupted sync resumes from what the store and the server both hold (an item pushed but
not yet recorded is found again by its UID).

This package's __init__ imports nothing, so that core.memory may use its plain types.
"""

# What a person chooses at `sync add` for a redirect to another server (scheme, host or port):
# stop there, or follow it without the password, which goes only to the server added.
REFUSE, FOLLOW = "refuse", "follow-without-password"
REDIRECT_CHOICES = (REFUSE, FOLLOW)
