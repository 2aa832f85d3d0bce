"""`neurons sync`: two-way sync with the person's CalDAV/CardDAV server (core/sync).

    neurons sync                                  sync every account now
    neurons sync add URL [--user NAME] [--all | --calendar NAME... --addressbook NAME...]
                         [--notes CALENDAR] [--password-stdin]
                         [--redirects refuse|follow-without-password]
    neurons sync status                           what each account syncs, and when it last did
    neurons sync remove URL

The password comes from a prompt, --password-stdin, or NEURONS_SYNC_PASSWORD (for one run), and
is kept in the OS keyring, never in a file. Finding the server and asking which calendars to use
happen here, in the terminal; the account is then saved (and a sync runs) in the desktop app
when it has the data dir open, like every other command (a password no keyring keeps goes
with the command line over the app's private socket, for that one run).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any
from urllib.parse import urlsplit

from core.commands.base import Answer, command
from core.model import InvalidInput, Kind

PASSWORD_ENV = "NEURONS_SYNC_PASSWORD"  # (core/sync/accounts.py names it too)


def _arguments(p) -> None:
    p.add_argument(
        "action",
        nargs="?",
        choices=["add", "status", "remove"],
        help="add URL: a server to sync with; status; remove URL (none: sync now)",
    )
    p.add_argument("url", nargs="?", metavar="URL", help="the server's address (add, remove)")
    p.add_argument("--user", help="add: the user name on the server (asked when not given)")
    p.add_argument("--all", action="store_true", help="add: every calendar, task list and address book")
    p.add_argument(
        "--calendar", action="append", metavar="NAME", help="add: a calendar or task list (again for more)"
    )
    p.add_argument(
        "--addressbook", action="append", metavar="NAME", help="add: an address book (again for more)"
    )
    p.add_argument(
        "--notes",
        metavar="CALENDAR",
        help="add: a calendar for notes (without it notes stay on this machine)",
    )
    p.add_argument(
        "--redirects",
        metavar="refuse|follow-without-password",
        help="add: a redirect to another server stops the sync (refuse, the default) or is followed "
        "without the password, which goes only to URL's server",
    )
    p.add_argument(
        "--password-stdin",
        action="store_true",
        help=f"add: read the password from stdin (else {PASSWORD_ENV} or a prompt)",
    )
    # how a password the keyring does not keep travels to the running app (over its private
    # socket, never in a file or a process list); set by _prepare, never by the person
    p.add_argument("--password-given", dest="password", default=None, help=argparse.SUPPRESS)


def _prepare(args) -> None:
    """On the person's side: the password (never sent to the app when the keyring keeps it), and
    for `add` the server's collections and the choice among them, asked in the terminal."""
    args.password = os.environ.get(PASSWORD_ENV) or None
    if args.action in ("add", "remove") and not args.url:
        raise InvalidInput(f"neurons sync {args.action} needs the server's address (URL)")
    if args.action != "add":
        return
    from core.sync import REDIRECT_CHOICES, REFUSE, accounts, dav  # noqa: PLC0415 - only `sync add` talks to the server

    args.redirects = args.redirects or REFUSE
    if args.redirects not in REDIRECT_CHOICES:
        raise InvalidInput(f"--redirects is {' or '.join(REDIRECT_CHOICES)}, not {args.redirects!r}")
    dav.check_url(args.url)
    args.user = args.user or _user_of(args.url)
    if args.password_stdin:
        args.password = sys.stdin.readline().rstrip("\r\n")
    elif not args.password:
        if not sys.stdin.isatty():
            raise InvalidInput(f"give the password: --password-stdin or {PASSWORD_ENV}")
        args.password = getpass.getpass(f"Password for {args.user}: ")
    if not args.password:
        raise InvalidInput("the password is empty")
    principal = accounts.find(args.url, args.user, args.password, args.redirects)
    if not (args.all or args.calendar or args.addressbook):
        _ask(args, principal)
    accounts.choose(
        principal, every=args.all, calendars=args.calendar, addressbooks=args.addressbook, notes=args.notes
    )
    if accounts.keep_password(args.url, args.user, args.password):
        args.password = None  # the keyring has it: the app (or this process) reads it there


def _user_of(url: str) -> str:
    user = urlsplit(url).username
    if user:
        return user
    if not sys.stdin.isatty():
        raise InvalidInput("give the user name on the server: --user NAME")
    answer = input("User name on the server: ").strip()
    if not answer:
        raise InvalidInput("nothing was added: the user name is empty")
    return answer


def _ask(args, principal) -> None:
    """Which calendars and address books to sync, asked in the terminal."""
    from core.sync.accounts import is_calendar, is_journal  # noqa: PLC0415 - keeps forwarding light

    offered = [f for f in principal.collections if is_calendar(f) or f.address_book]
    if not offered:
        raise InvalidInput("the server holds no calendar, task list or address book for this user")
    if not sys.stdin.isatty():
        names = ", ".join(f.name for f in offered)
        raise InvalidInput(
            f"say what to sync: --all, --calendar NAME or --addressbook NAME (the server has: {names})"
        )
    print("The server holds:", file=sys.stderr)
    for i, f in enumerate(offered, 1):
        print(f"  {i}. {f.name} ({f.what})", file=sys.stderr)
    reply = input("Sync which? (numbers separated by spaces; Enter: all of them) ").split()
    try:
        picked = [offered[int(n) - 1] for n in reply] if reply else offered
    except (ValueError, IndexError):
        raise InvalidInput("nothing was added: answer with the numbers shown") from None
    args.calendar = [f.href for f in picked if not f.address_book]
    args.addressbook = [f.href for f in picked if f.address_book]
    journals = [f for f in principal.collections if is_journal(f) and f not in picked]
    if journals and not args.notes:
        for i, f in enumerate(journals, 1):
            print(f"  {i}. {f.name}", file=sys.stderr)
        number = input("Keep notes in one of these too? (its number; Enter: notes stay here) ").strip()
        if number:
            try:
                args.notes = journals[int(number) - 1].href
            except (ValueError, IndexError):
                raise InvalidInput("nothing was added: answer with a number shown") from None


@command(
    "sync",
    "sync reminders and contacts with your CalDAV/CardDAV server (add, status, remove)",
    arguments=_arguments,
    prepare=_prepare,
)
def sync(memory, args) -> Answer:
    from core.sync import REFUSE, accounts  # noqa: PLC0415 - keeps forwarding light

    password = getattr(args, "password", None)
    if args.action == "add":
        redirects = args.redirects or REFUSE
        principal = accounts.find(args.url, args.user, password or _kept(args), redirects)
        chosen = accounts.choose(
            principal,
            every=args.all,
            calendars=args.calendar,
            addressbooks=args.addressbook,
            notes=args.notes,
        )
        account = accounts.add(memory, args.url, args.user, principal, chosen, redirects)
        return _added(account, kept=password is None)
    if args.action == "remove":
        account = accounts.remove(memory, args.url)
        return Answer(
            {"removed": account.url},
            f"no longer syncing with {account.url}; what it brought stays in your memory",
        )
    if args.action == "status":
        return _status(memory)
    return _sync_now(memory, password)


def _kept(args) -> str:
    """The password `add` kept in the keyring a moment ago (on the person's side)."""
    from core.sync import accounts  # noqa: PLC0415 - keeps forwarding light

    password = accounts.kept_password(args.url, args.user)
    if password is None:
        raise InvalidInput(
            f"the keyring holds no password for {args.user}: run neurons sync add in a terminal"
        )
    return password


def _added(account, kept: bool) -> Answer:
    chosen = ", ".join(f"{c.name} ({_what(c)})" for c in account.collections)
    note = "the app syncs it now and every 15 minutes; or run neurons sync"
    if not kept:
        note = (
            "no secure keyring here, so the password was not kept: give it in "
            f"{PASSWORD_ENV} to each neurons sync"
        )
    return Answer(_account_json(account), f"syncing with {account.url} as {account.username}: {chosen}", note)


def _what(collection) -> str:
    if collection.kind is Kind.CONTACT:
        return "contacts"
    if collection.kind is Kind.NOTE:
        return "notes"
    return "reminders" if collection.component == "VTODO" else "events"


def _account_json(account) -> dict[str, Any]:
    return {
        "url": account.url,
        "user": account.username,
        "redirects": account.redirects,
        "collections": [
            {
                "name": c.name,
                "href": c.href,
                "holds": _what(c),
                "vcard_version": c.vcard_version,
                "last_error": c.last_error,
            }
            for c in account.collections
        ],
        "synced_at": account.synced_at.isoformat() if account.synced_at else None,
        "tried_at": account.tried_at.isoformat() if account.tried_at else None,
        "last_error": account.last_error,
    }


def _status(memory) -> Answer:
    from core.sync import REFUSE  # noqa: PLC0415 - keeps forwarding light

    found = memory.sync_accounts()
    data = {"accounts": [_account_json(a) for a in found]}
    if not found:
        return Answer(data, "no sync accounts: add one with neurons sync add URL")
    lines = []
    for a in found:
        when = a.synced_at.astimezone().strftime("%Y-%m-%d %H:%M") if a.synced_at else "never"
        lines.append(f"{a.username} at {a.url}: last synced {when}")
        if a.redirects != REFUSE:
            lines.append("  redirects to another server are followed without the password")
        for c in a.collections:
            lines.append(f"  {c.name}: {_what(c)}")
            if c.last_error:
                lines.append(f"    its last sync failed: {c.last_error}")
        if a.last_error:
            lines.append(f"  the last try failed: {a.last_error}")
    return Answer(data, "\n".join(lines))


def _sync_now(memory, password: str | None) -> Answer:
    from core.sync import accounts, engine  # noqa: PLC0415 - keeps forwarding light

    outcomes = engine.sync_all(memory, (lambda _a: password) if password else accounts.password_of)
    data = {"accounts": [o.to_json() for o in outcomes]}
    if not outcomes:
        return Answer(data, "", "no sync accounts: add one with neurons sync add URL")
    lines, notes = [], []
    for o in outcomes:
        if o.failed:
            notes.append(f"{o.url}: {o.failed}")
            continue
        conflicts = f", {o.conflicts} conflict{'s' if o.conflicts != 1 else ''}" if o.conflicts else ""
        lines.append(f"{o.url}: {o.pulled} pulled, {o.pushed} pushed, {o.deleted} deleted{conflicts}")
        notes += o.said + o.errors
    # every failure counts: an account, a collection, one item the server refused
    return Answer(
        data, "\n".join(lines), "\n".join(notes), code=2 if any(o.failures for o in outcomes) else 0
    )
