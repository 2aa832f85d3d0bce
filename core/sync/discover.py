"""Finding a person's calendars and address books from the address they type (RFC 6764, 4791, 6352).

The address may be the server ("https://dav.example.com"), a principal or a collection: its
current-user-principal is asked for where it points, else at the well-known URLs
(/.well-known/caldav and /.well-known/carddav, which the server redirects); the principal's
calendar-home-set and addressbook-home-set are then listed one level deep. DNS SRV records are
not looked up (they need a DNS library; every server docs/guide/sync.md names answers the
well-known URLs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from core.sync import dav
from core.sync.dav import CALDAV, CALSERVER, CARDDAV, DAV, q

COMPONENTS = ("VTODO", "VEVENT", "VJOURNAL")


@dataclass
class Found:
    """A collection on the server, as discovery sees it."""

    href: str
    name: str
    address_book: bool
    components: tuple[str, ...] = ()  # of a calendar: what it may hold
    vcard_versions: tuple[str, ...] = ()  # of an address book: in the server's order
    supports_sync: bool = False
    writable: bool = True

    @property
    def what(self) -> str:
        if self.address_book:
            return "address book"
        if self.components == ("VJOURNAL",):
            return "journal"
        return "task list" if "VTODO" in self.components and "VEVENT" not in self.components else "calendar"


@dataclass
class Principal:
    url: str
    collections: list[Found] = field(default_factory=list)


def principal_of(client: dav.Client, url: str) -> str | None:
    try:
        found, final = client.propfind(url, [q(DAV, "current-user-principal")])
    except dav.ServerError:
        return None
    for r in found:
        prop = r.props.get(q(DAV, "current-user-principal"))
        href = prop.findtext(q(DAV, "href")) if prop is not None else None
        if href:
            return dav.normal_href(final, href)
    return None


def find_principal(client: dav.Client, url: str) -> str:
    root = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
    well_known = [urljoin(root, "/.well-known/caldav"), urljoin(root, "/.well-known/carddav")]
    bare = urlsplit(url).path in ("", "/")
    elsewhere: dav.ElsewhereError | None = None
    for candidate in [*well_known, url] if bare else [url, *well_known]:
        try:
            principal = principal_of(client, candidate)
        except dav.ElsewhereError as exc:
            # DAViCal's well-known redirect names the server as configured, not as typed
            # (127.0.0.1 for localhost): not followed, and the other addresses are still asked
            elsewhere = elsewhere or exc
            continue
        if principal:
            return principal
    if elsewhere is not None:
        raise elsewhere
    raise dav.SyncError(
        f"{urlsplit(url).hostname} does not answer as a CalDAV or CardDAV server at {url}: "
        "check the address (your server's help names it)"
    )


def discover(client: dav.Client, url: str) -> Principal:
    """The principal behind `url` and every calendar and address book in its homes."""
    principal = Principal(find_principal(client, url))
    found, final = client.propfind(
        principal.url, [q(CALDAV, "calendar-home-set"), q(CARDDAV, "addressbook-home-set")]
    )
    homes: list[str] = []
    for r in found:
        for name in (q(CALDAV, "calendar-home-set"), q(CARDDAV, "addressbook-home-set")):
            prop = r.props.get(name)
            for href in prop.findall(q(DAV, "href")) if prop is not None else []:
                home = dav.normal_href(final, href.text or "")
                if home not in homes:
                    homes.append(home)
    seen: set[str] = set()
    for home in homes:
        for collection in _list(client, home):
            if collection.href not in seen:
                seen.add(collection.href)
                principal.collections.append(collection)
    return principal


PROPS = [
    q(DAV, "resourcetype"),
    q(DAV, "displayname"),
    q(DAV, "supported-report-set"),
    q(DAV, "current-user-privilege-set"),
    q(CALDAV, "supported-calendar-component-set"),
    q(CARDDAV, "supported-address-data"),
    q(CALSERVER, "getctag"),
]


def _list(client: dav.Client, home: str) -> list[Found]:
    found, _ = client.propfind(home, PROPS, depth="1")
    out = []
    for r in found:
        kind = r.props.get(q(DAV, "resourcetype"))
        if kind is None or r.status >= 300 or dav.origin(r.href) != client.origin:
            continue  # (a collection on another server: the password does not go there)
        calendar = kind.find(q(CALDAV, "calendar")) is not None
        book = kind.find(q(CARDDAV, "addressbook")) is not None
        if not (calendar or book):
            continue
        reports = r.props.get(q(DAV, "supported-report-set"))
        sync = reports is not None and reports.find(f".//{q(DAV, 'sync-collection')}") is not None
        privileges = r.props.get(q(DAV, "current-user-privilege-set"))
        writable = privileges is None or any(
            privileges.find(f".//{q(DAV, p)}") is not None for p in ("write", "write-content", "all")
        )
        name = r.text(q(DAV, "displayname")) or urlsplit(r.href).path.rstrip("/").rsplit("/", 1)[-1]
        if book:
            data = r.props.get(q(CARDDAV, "supported-address-data"))
            versions = tuple(
                t.get("version", "3.0")
                for t in (data.findall(q(CARDDAV, "address-data-type")) if data is not None else [])
                if t.get("content-type", "text/vcard") == "text/vcard"
            )
            out.append(
                Found(
                    r.href,
                    name,
                    True,
                    vcard_versions=versions or ("3.0",),
                    supports_sync=sync,
                    writable=writable,
                )
            )
        else:
            comps = r.props.get(q(CALDAV, "supported-calendar-component-set"))
            names = tuple(
                c.get("name", "").upper()
                for c in (comps.findall(q(CALDAV, "comp")) if comps is not None else [])
            )
            # no set given: the calendar takes any component (RFC 4791 5.2.3)
            names = tuple(n for n in (names or COMPONENTS) if n in COMPONENTS)
            if names:
                out.append(
                    Found(r.href, name, False, components=names, supports_sync=sync, writable=writable)
                )
    return out
