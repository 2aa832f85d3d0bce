"""A small WebDAV/CalDAV/CardDAV client on the standard library: http.client, ssl, ElementTree.

Why not the `caldav` package: it would add about 44 MB to the install (lxml, niquests, qh3,
urllib3-future, dnspython, ...) and covers CalDAV only, while sync needs a dozen requests of
WebDAV, CalDAV and CardDAV alike (PROPFIND, REPORT sync-collection and multiget, GET, PUT and
DELETE with preconditions).

Every failure is a sentence a person can act on: the server cannot be reached (`UnreachableError`),
refused the name or password (`WrongPasswordError`), presented a certificate this machine does not
trust (`TLSRefusedError`: there is no way around it, by design), or answered something else
(`ServerError`). A write whose precondition failed (the item changed or exists on the server)
raises `PreconditionError`, which the engine handles itself.
"""

from __future__ import annotations

import base64
import http.client
import ipaddress
import re
import ssl
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urljoin, urlsplit

from core import __version__
from core.model import NeuronsError
from core.sync import FOLLOW, REDIRECT_CHOICES, REFUSE

DAV = "DAV:"
CALDAV = "urn:ietf:params:xml:ns:caldav"
CARDDAV = "urn:ietf:params:xml:ns:carddav"
CALSERVER = "http://calendarserver.org/ns/"
NAMESPACES = {"d": DAV, "c": CALDAV, "a": CARDDAV, "cs": CALSERVER}
# How long one request may take to connect or to go quiet before the server counts as unreachable.
TIMEOUT_S = 30.0
# The largest answer read (a multistatus of many items); a bigger one is refused, not read.
MAX_RESPONSE_BYTES = 128 * 1024 * 1024
MAX_REDIRECTS = 5
USER_AGENT = f"Neurons/{__version__}"


class SyncError(NeuronsError):
    """A sync could not talk to the server as it should; the message says why."""


class UnreachableError(SyncError):
    """The network or the server is down: try again later."""


class WrongPasswordError(SyncError):
    pass


class TLSRefusedError(SyncError):
    pass


class ServerError(SyncError):
    def __init__(self, message: str, status: int = 0):
        super().__init__(message)
        self.status = status


class PreconditionError(SyncError):
    """If-Match / If-None-Match failed: the item changed on the server (or exists already)."""


class ElsewhereError(SyncError):
    """The server sent Neurons to another one (scheme, host or port): the password does not go there."""


class MovedError(ServerError):
    """A collection answered with a redirect: it is not followed, nor taken as its new address."""


class InvalidTokenError(SyncError):
    """The server no longer knows the sync token: start again from an empty one."""


REDIRECTS = (301, 302, 303, 307, 308)
PERMANENT = (301, 308)


def q(namespace: str, name: str) -> str:
    return f"{{{namespace}}}{name}"


@dataclass
class Response:
    """One <response> of a multistatus: its href (absolute URL), HTTP status and found props."""

    href: str
    status: int
    props: dict[str, ET.Element] = field(default_factory=dict)

    def text(self, name: str) -> str | None:
        prop = self.props.get(name)
        return (prop.text or "").strip() if prop is not None else None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_url(url: str) -> str:
    """An http(s) URL Neurons may send a password to: https, or http on this machine only."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SyncError(f"{url!r} is not a server address: give one like https://dav.example.com")
    if parts.password is not None:
        raise SyncError(
            "never put the password in the address: Neurons asks for it and keeps it in the keyring"
        )
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise TLSRefusedError(
            f"{parts.hostname} is reached over plain http, which would send your password unencrypted: "
            "use its https:// address (only a server on this machine may use http)"
        )
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1]).geturl()


def origin(url: str) -> tuple[str, str, int]:
    """Where a URL's requests go: scheme, host and port (the default one when none is written)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or (443 if scheme == "https" else 80)


def _shown(url: str) -> str:
    scheme, host, port = origin(url)
    return f"{scheme}://{host}:{port}" if scheme in ("http", "https") else f"{scheme}:"


def outside(collection: str, href: str) -> str | None:
    """Why an item address a server gave is not an item of `collection` (None: it is one).

    Neurons writes to and deletes only what is directly inside the collection it syncs, on the
    same server: not another host, not `..` climbing out, not `file:`, not a subfolder."""
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F or ch in BAD_TEXT for ch in href):
        return "its address holds control characters"
    if origin(href) != origin(collection):
        return f"its address is on another server ({_shown(href)})"
    base, parts = urlsplit(collection).path.rstrip("/") + "/", urlsplit(href)
    if parts.query or parts.fragment:
        return "its address has a query"
    if not parts.path.startswith(base):
        return "its address is outside the collection"
    name = parts.path[len(base) :]
    if not name or "/" in name or name in (".", ".."):
        return "its address is not an item of the collection"
    return None


def normal_href(base: str, href: str) -> str:
    """An href as one key: absolute, percent-decoded."""
    return unquote(urljoin(base, href.strip()))


def _wire(url: str) -> str:
    """A decoded URL's path as it goes on the wire."""
    parts = urlsplit(url)
    return quote(parts.path or "/", safe="/:@!$&'()*+,;=~-._")


# What stands in, once an answer is read, for text XML cannot hold: a control character (a vertical
# tab in a vCard, raw or as &#11;) or bytes that are not UTF-8 (Latin-1 in a UTF-8 answer). Two
# noncharacters, which no item means to hold: the item that has one is skipped with its reason,
# the rest of the answer is read.
CONTROL_MARK, ENCODING_MARK = "\ufdd0", "\ufdd1"
BAD_TEXT = (CONTROL_MARK, ENCODING_MARK)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufdd0\ufdd1]")
_CONTROL_REF = re.compile(
    r"&#(?:0*(?:[0-8]|1[1-2]|1[4-9]|2\d|3[01])|x0*(?:[0-8]|[bBcC]|[eEfF]|1[0-9a-fA-F]));"
)


def _tolerant(data: bytes) -> bytes:
    """An answer with what XML cannot hold marked (see CONTROL_MARK), so one bad item does not make
    the whole answer unreadable."""
    text = _CONTROL.sub(CONTROL_MARK, data.decode("utf-8", errors="surrogateescape"))
    text = re.sub(r"[\udc80-\udcff]+", ENCODING_MARK, _CONTROL_REF.sub(CONTROL_MARK, text))
    return text.encode("utf-8")


def parse_xml(data: bytes, where: str) -> ET.Element:
    """An XML answer; one that declares a DTD or entities is refused (a multistatus needs none)."""
    head = data[:4096].upper()
    if b"<!DOCTYPE" in head or b"<!ENTITY" in data.upper():
        raise ServerError(f"{where} answered XML with a DTD, which Neurons does not read")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        first = exc
    declared = re.match(rb"\s*<\?xml[^>]*encoding=[\"']([\w.-]+)", data)
    if declared and declared.group(1).lower() not in (b"utf-8", b"utf8"):  # read as declared, or not
        raise ServerError(f"{where} answered XML that cannot be read ({first})") from None
    try:
        return ET.fromstring(_tolerant(data))
    except ET.ParseError:
        raise ServerError(f"{where} answered XML that cannot be read ({first})") from None


class Client:
    """Requests to one server as one user (Basic authentication, over TLS unless on loopback)."""

    def __init__(
        self, url: str, username: str, password: str, timeout: float = TIMEOUT_S, *, redirects: str = REFUSE
    ):
        self.url = check_url(url)
        self.origin = origin(self.url)
        if redirects not in REDIRECT_CHOICES:
            raise SyncError(f"redirects are {' or '.join(REDIRECT_CHOICES)}, not {redirects!r}")
        self.redirects = redirects
        self.username = username
        self._auth = "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode("ascii")
        self.timeout = timeout
        self._conns: dict[tuple[str, str], http.client.HTTPConnection] = {}
        self._tls = ssl.create_default_context()

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request -------------------------------------------------------------------------------

    def _connection(self, scheme: str, netloc: str) -> http.client.HTTPConnection:
        key = (scheme, netloc)
        conn = self._conns.get(key)
        if conn is None:
            if scheme == "https":
                conn = http.client.HTTPSConnection(netloc, timeout=self.timeout, context=self._tls)
            else:
                conn = http.client.HTTPConnection(netloc, timeout=self.timeout)
            self._conns[key] = conn
        return conn

    def request(
        self,
        method: str,
        url: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        *,
        follow: bool = False,
    ) -> tuple[int, dict[str, str], bytes, str]:
        """(status, headers in lower case, body, final URL); `follow` follows redirects.

        The password goes only to the origin the person added (scheme, host, port). A redirect
        elsewhere stops there (ElsewhereError), or, when the person chose to follow them, is
        followed without it: from the first step elsewhere to the end of that chain, no
        Authorization header is sent, not even back on the origin."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        came_from, left = None, None  # where the chain left the origin, once it did
        for _ in range(MAX_REDIRECTS + 1):
            if origin(url) != self.origin and left is None:
                host = urlsplit(came_from or url).hostname
                if came_from is None or self.redirects != FOLLOW:
                    raise ElsewhereError(
                        f"{host} {'sends Neurons on' if came_from else 'names an address on'} another "
                        f"server ({_shown(url)}): Neurons sends your password only to {_shown(self.url)}; "
                        "if you trust that server, add its address instead"
                    )
                left = url
            url = check_url(url)
            status, answer, content = self._once(method, url, data, headers or {}, credentials=left is None)
            location = answer.get("location")
            if follow and status in REDIRECTS and location:
                came_from, url = url, urljoin(url, location.strip())
                continue
            if status == 401 and left is not None:
                raise ElsewhereError(
                    f"{urlsplit(url).hostname} ({_shown(url)}), where {urlsplit(came_from or url).hostname} "
                    f"sent Neurons, asks for a password: Neurons sends yours only to {_shown(self.url)}; "
                    "if you trust that server, add its address instead"
                )
            if status == 401:
                raise WrongPasswordError(
                    f"{urlsplit(url).hostname} refused the user name or password for {self.username!r}: "
                    "check them (neurons sync add URL --user NAME asks for the password again)"
                )
            return status, answer, content, url
        raise ServerError(f"{urlsplit(url).hostname} redirects too many times")

    def _once(self, method: str, url: str, data: bytes | None, headers: dict[str, str], *, credentials: bool):
        parts = urlsplit(url)
        host = parts.hostname or "?"
        path = _wire(url) + (f"?{parts.query}" if parts.query else "")
        sent = {"User-Agent": USER_AGENT, **headers}
        if credentials:
            sent["Authorization"] = self._auth
        for attempt in range(2):  # a kept-alive connection the server closed meanwhile: once more
            conn = self._connection(parts.scheme, parts.netloc)
            try:
                conn.request(method, path, body=data, headers=sent)
                response = conn.getresponse()
                content = response.read(MAX_RESPONSE_BYTES + 1)
            except ssl.SSLCertVerificationError as exc:
                conn.close()
                raise TLSRefusedError(
                    f"{host} presented a certificate this machine does not trust "
                    f"({exc.verify_message or exc.reason}): Neurons does not sync with a server it "
                    "cannot verify; if it is your own, add its certificate to the system's trusted ones"
                ) from None
            except ssl.SSLError as exc:
                conn.close()
                raise TLSRefusedError(
                    f"the secure connection to {host} failed ({exc.reason or exc}): Neurons does "
                    "not sync without one"
                ) from None
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as exc:
                conn.close()
                if attempt == 0 and method in ("PROPFIND", "REPORT", "GET"):
                    continue
                raise UnreachableError(f"{host} closed the connection ({exc.__class__.__name__})") from None
            except TimeoutError:
                conn.close()
                raise UnreachableError(f"{host} did not answer within {self.timeout:.0f} s") from None
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                reason = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
                raise UnreachableError(f"cannot reach {host}: {reason}") from None
            if len(content) > MAX_RESPONSE_BYTES:
                conn.close()
                raise ServerError(f"{host} answered more than {MAX_RESPONSE_BYTES // 2**20} MB at once")
            if response.will_close:
                conn.close()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, content
        raise UnreachableError(f"{host} closed the connection")

    def _expect(self, status: int, url: str, what: str, ok: tuple[int, ...]) -> None:
        if status in ok:
            return
        host = urlsplit(url).hostname
        if status == 403:
            raise ServerError(f"{host} does not let {self.username!r} {what}", status)
        if status == 404:
            raise ServerError(f"{host} has no {url} ({what})", status)
        if status >= 500 and status != 501:  # (501: it does not do that at all, now or later)
            raise UnreachableError(f"{host} failed to {what} (HTTP {status}): it will be tried again")
        raise ServerError(f"{host} refused to {what} (HTTP {status})", status)

    # -- WebDAV ------------------------------------------------------------------------------------

    def multistatus(
        self, method: str, url: str, body: str, depth: str, what: str, *, follow: bool = False
    ) -> tuple[list[Response], str, ET.Element]:
        """A PROPFIND or REPORT; `follow`: redirects are followed (finding the principal), else
        a redirect is a collection that moved (MovedError)."""
        status, answer, content, final = self.request(
            method,
            url,
            body,
            {"Depth": depth, "Content-Type": "application/xml; charset=utf-8"},
            follow=follow,
        )
        if status in REDIRECTS:
            raise _moved(url, status, answer.get("location"))
        if status in (403, 412) and b"valid-sync-token" in content:  # RFC 6578 3.2: either
            raise InvalidTokenError("the sync token expired")
        self._expect(status, final, what, (207,))
        root = parse_xml(content, urlsplit(final).hostname or "the server")
        return [_response(final, r) for r in root.findall(q(DAV, "response"))], final, root

    def propfind(
        self, url: str, props: list[str], depth: str = "0", *, follow: bool = True
    ) -> tuple[list[Response], str]:
        body = _propfind_body(props)
        found, final, _ = self.multistatus("PROPFIND", url, body, depth, "list what it holds", follow=follow)
        return found, final

    def get(self, url: str) -> tuple[bytes, str | None]:
        status, headers, content, final = self.request("GET", url)
        self._expect(status, final, "send an item", (200,))
        return content, headers.get("etag")

    def put(
        self, url: str, data: str, content_type: str, *, etag: str | None = None, new: bool = False
    ) -> str | None:
        """Write an item: over the version `etag` (If-Match), or only if none is there (`new`).
        Returns the new ETag, when the server says it."""
        headers = {"Content-Type": content_type}
        if new:
            headers["If-None-Match"] = "*"
        elif etag:
            headers["If-Match"] = etag
        status, answer, _, final = self.request("PUT", url, data, headers)
        if status == 412:
            raise PreconditionError(f"{url} changed on the server")
        self._expect(status, final, "save an item", (200, 201, 204))
        return answer.get("etag")

    def delete(self, url: str, etag: str | None) -> None:
        status, _, _, final = self.request("DELETE", url, None, {"If-Match": etag} if etag else {})
        if status == 412:
            raise PreconditionError(f"{url} changed on the server")
        if status in (404, 410):
            return  # gone already
        self._expect(status, final, "delete an item", (200, 204))

    # -- collections -------------------------------------------------------------------------------

    def changes(self, url: str, token: str | None) -> tuple[dict[str, str | None], str | None, bool]:
        """RFC 6578: what changed since `token` ({href: etag, or None for deleted}), the new token,
        and whether it was the whole list (an empty token)."""
        changed: dict[str, str | None] = {}
        whole = not token
        while True:
            body = (
                '<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">'
                f"<d:sync-token>{_escape(token or '')}</d:sync-token><d:sync-level>1</d:sync-level>"
                "<d:prop><d:getetag/></d:prop></d:sync-collection>"
            )
            found, final, root = self.multistatus("REPORT", url, body, "1", "list what changed")
            more = False
            collection = normal_href(final, urlsplit(final).path)
            for r in found:
                if r.href == collection:
                    more = more or r.status == 507  # truncated: ask again from the new token
                    continue
                changed[r.href] = None if r.status == 404 else (r.text(q(DAV, "getetag")) or "")
            new_token = (root.findtext(q(DAV, "sync-token")) or "").strip() or None
            if not more or not new_token or new_token == token:
                return changed, new_token, whole
            token = new_token

    def etags(self, url: str) -> dict[str, str | None]:  # "" : the server gave no ETag
        """Every item of a collection with its ETag (for servers without sync-collection)."""
        found, final = self.propfind(
            url, [q(DAV, "getetag"), q(DAV, "resourcetype")], depth="1", follow=False
        )
        collection = normal_href(final, urlsplit(final).path)
        out: dict[str, str | None] = {}
        for r in found:
            kind = r.props.get(q(DAV, "resourcetype"))
            if r.href == collection or (kind is not None and kind.find(q(DAV, "collection")) is not None):
                continue
            if r.status < 300:
                out[r.href] = r.text(q(DAV, "getetag")) or ""
        return out

    def multiget(
        self, url: str, hrefs: list[str], address_book: bool
    ) -> dict[str, tuple[str | None, bytes] | None]:
        """The data and ETag of each href (None: not there any more)."""
        ns, report, data = (
            (CARDDAV, "addressbook-multiget", "address-data")
            if address_book
            else (
                CALDAV,
                "calendar-multiget",
                "calendar-data",
            )
        )
        body = (
            f'<?xml version="1.0" encoding="utf-8"?><x:{report} xmlns:d="DAV:" xmlns:x="{ns}">'
            f"<d:prop><d:getetag/><x:{data}/></d:prop>"
            + "".join(f"<d:href>{_escape(_wire(h))}</d:href>" for h in hrefs)
            + f"</x:{report}>"
        )
        found, _, _ = self.multistatus("REPORT", url, body, "1", "send the items asked for")
        out: dict[str, tuple[str | None, bytes] | None] = {h: None for h in hrefs}
        for r in found:
            text = r.props.get(q(ns, data))
            if r.status < 300 and text is not None:
                out[r.href] = (r.text(q(DAV, "getetag")), (text.text or "").encode("utf-8"))
        return out


def _moved(url: str, status: int, location: str | None) -> MovedError:
    """A collection's redirect, said: Neurons keeps syncing the address it was added with."""
    to = urljoin(url, location.strip()) if location else "no address"
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in to):
        to = repr(to)
    how = "for good" if status in PERMANENT else "for now"
    return MovedError(
        f"it answers that it moved {how} to {to} (HTTP {status}): Neurons keeps syncing the address it was "
        "added with and never follows a calendar or address book to another; if it did move, remove "
        "the account and add it again",
        status,
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _propfind_body(props: list[str]) -> str:
    names = []
    for prop in props:
        namespace, _, name = prop[1:].partition("}")
        prefix = next(p for p, ns in NAMESPACES.items() if ns == namespace)
        names.append(f"<{prefix}:{name}/>")
    declared = " ".join(f'xmlns:{p}="{ns}"' for p, ns in NAMESPACES.items())
    return (
        f'<?xml version="1.0" encoding="utf-8"?><d:propfind {declared}>'
        f"<d:prop>{''.join(names)}</d:prop></d:propfind>"
    )


def _status(text: str | None) -> int:
    parts = (text or "").split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 200


def _response(base: str, element: ET.Element) -> Response:
    href = normal_href(base, element.findtext(q(DAV, "href")) or "")
    own = element.findtext(q(DAV, "status"))
    response = Response(href, _status(own) if own else 200)
    best = None
    for propstat in element.findall(q(DAV, "propstat")):
        status = _status(propstat.findtext(q(DAV, "status")))
        best = status if best is None or status < best else best
        if status >= 300:
            continue
        prop = propstat.find(q(DAV, "prop"))
        for child in prop if prop is not None else []:
            response.props[child.tag] = child
    if own is None and best is not None:
        response.status = best
    return response
