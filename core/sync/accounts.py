"""Accounts: finding what a server holds, choosing what to sync, the password in the OS keyring.

A password is never written to a file: it is kept by the OS keyring (core/store/secrets.py), or,
where there is no secure keyring, given for one run in NEURONS_SYNC_PASSWORD.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from core.interop import vcard
from core.model import InvalidInput, Kind, NotFound
from core.store import secrets
from core.store.sync_sql import Account, Collection
from core.sync import dav
from core.sync.discover import Found, Principal, discover

if TYPE_CHECKING:
    from core.memory import Memory

PASSWORD_ENV = "NEURONS_SYNC_PASSWORD"


def find(url: str, username: str, password: str, redirects: str = dav.REFUSE) -> Principal:
    """What the server at `url` holds for this user (refuses a wrong password, an untrusted
    certificate, plain http to another machine, in one sentence each). `redirects`: what a
    redirect to another server does (dav.REDIRECT_CHOICES); the password never goes there."""
    with dav.Client(url, username, password, redirects=redirects) as client:
        return discover(client, dav.check_url(url))


def _matches(found: Found, name: str) -> bool:
    wanted = name.strip().casefold().rstrip("/")
    last = urlsplit(found.href).path.rstrip("/").rsplit("/", 1)[-1].casefold()
    return wanted in (found.name.casefold(), last, found.href.casefold().rstrip("/"))


def _pick(found: list[Found], names: list[str], what: str, fits) -> list[Found]:
    picked = []
    for name in names:
        hits = [f for f in found if fits(f) and _matches(f, name)]
        if not hits:
            offered = ", ".join(sorted(f.name for f in found if fits(f))) or "none"
            raise InvalidInput(f"the server has no {what} called {name!r} (it has: {offered})")
        picked += [h for h in hits if h not in picked]
    return picked


def is_calendar(found: Found) -> bool:
    return not found.address_book and bool({"VTODO", "VEVENT"} & set(found.components))


def is_journal(found: Found) -> bool:
    return not found.address_book and "VJOURNAL" in found.components


def choose(
    principal: Principal,
    *,
    every: bool = False,
    calendars: list[str] | None = None,
    addressbooks: list[str] | None = None,
    notes: str | None = None,
) -> list[Collection]:
    """The collections to sync: `every` calendar and address book, or those named (by display
    name, the last part of their address, or the address); `notes` names a calendar for notes."""
    found = principal.collections
    if every:
        chosen_calendars = [f for f in found if is_calendar(f)]
        chosen_books = [f for f in found if f.address_book]
    else:
        chosen_calendars = _pick(found, calendars or [], "calendar or task list", is_calendar)
        chosen_books = _pick(found, addressbooks or [], "address book", lambda f: f.address_book)
    journal = _pick(found, [notes], "calendar for notes", is_journal)[0] if notes else None
    if journal is not None and journal in chosen_calendars:
        if not every:
            raise InvalidInput(
                f"{journal.name!r} cannot hold both reminders and notes: choose another for notes"
            )
        chosen_calendars.remove(journal)
    # task lists first: the first one receives the reminders made in Neurons
    chosen_calendars.sort(key=lambda f: "VTODO" not in f.components)
    out: list[Collection] = []
    for f in chosen_calendars:
        component = "VTODO" if "VTODO" in f.components else "VEVENT"
        out.append(Collection(f.href, f.name, Kind.REMINDER, component, None, f.supports_sync, len(out)))
    for f in chosen_books:
        version = next((v for v in f.vcard_versions if v in vcard.VERSIONS), "3.0")
        out.append(Collection(f.href, f.name, Kind.CONTACT, None, version, f.supports_sync, len(out)))
    if journal is not None:
        out.append(
            Collection(
                journal.href, journal.name, Kind.NOTE, "VJOURNAL", None, journal.supports_sync, len(out)
            )
        )
    if not out:
        raise InvalidInput("nothing was chosen to sync: name a calendar or an address book, or say --all")
    return out


def add(
    memory: Memory,
    given_url: str,
    username: str,
    principal: Principal,
    chosen: list[Collection],
    redirects: str = dav.REFUSE,
) -> Account:
    account = Account(
        id=uuid.uuid4(),
        url=principal.url,
        given_url=given_url.strip(),
        username=username,
        redirects=redirects,
    )
    account.collections = chosen
    return memory.save_sync_account(account)


def _key(given_url: str) -> str:
    """The keyring names an account's password by the address typed to add it (and the user)."""
    return given_url.strip().rstrip("/")


def keep_password(given_url: str, username: str, password: str) -> bool:
    """Keep the password in the OS keyring; False when there is no secure one (nothing is kept)."""
    try:
        secrets.save_sync_password(_key(given_url), username, password)
    except secrets.KeyringUnavailable:
        return False
    return True


def kept_password(given_url: str, username: str) -> str | None:
    return secrets.sync_password(_key(given_url), username)


def password_of(account: Account) -> str | None:
    return kept_password(account.given_url, account.username)


def named(memory: Memory, url: str) -> list[Account]:
    """The accounts an address names: the principal's, the one typed when adding it, or its host."""
    wanted = url.strip().rstrip("/").casefold()
    found = memory.sync_accounts()
    exact = [a for a in found if wanted in (a.url.rstrip("/").casefold(), a.given_url.rstrip("/").casefold())]
    if exact:
        return exact
    return [a for a in found if (urlsplit(a.url).hostname or "").casefold() == wanted]


def remove(memory: Memory, url: str) -> Account:
    accounts = named(memory, url)
    if not accounts:
        raise NotFound(f"no sync account for {url}: see neurons sync status")
    if len(accounts) > 1:
        raise InvalidInput(f"{url} names {len(accounts)} accounts: give the address sync status shows")
    account = accounts[0]
    memory.remove_sync_account(account.id)
    secrets.forget_sync_password(_key(account.given_url), account.username)
    return account
