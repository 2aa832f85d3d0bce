"""vCard 2.1, 3.0 and 4.0 in, 4.0 (or 3.0) out: contacts as Google, Apple, Android, Thunderbird/
CardBook and Nextcloud write them.

A reader of our own (vobject writes 3.0 only and misreads 2.1 quoted-printable soft breaks): bytes
are split into cards, unfolded (RFC 6350 folding and 2.1 soft line breaks), each line decoded by
its CHARSET/ENCODING, then the properties Neurons models become contact attrs (see `to_attrs`);
the others are kept verbatim in attrs["vcard_extra"] and written back on export. What a 3.0 or
4.0 card said in its own form is kept in attrs["vcard_written"] (its version, PRODID, and each
number, address, email and date line as written): a sync writing a card back in its own version
keeps those lines while their values and labels are unchanged, so a phone sees only what was
edited.
"""

from __future__ import annotations

import json
import quopri
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from core.interop import phones
from core.interop.report import LEGACY, Dropped, Skip, legacy_text
from core.validate import MAX_BODY_BYTES, MAX_CARD_BYTES

VERSIONS = ("4.0", "3.0")
FOLD_AT = 75  # octets per line, RFC 6350 3.2
# vCard TYPE values (RFC 6350 and 2426); any other label is written as an Apple X-ABLabel group.
STANDARD_TYPES = frozenset(
    """home work pref voice fax cell video pager textphone text msg bbs
    modem car isdn pcs internet x400 dom intl postal parcel other main iphone""".split()
)
# Apple's built-in labels, as the TYPE they stand for.
APPLE_LABELS = {
    "mobile": "cell",
    "home": "home",
    "work": "work",
    "homefax": "home,fax",
    "workfax": "work,fax",
    "pager": "pager",
    "main": "main",
    "other": "other",
    "iphone": "iphone",
    "otherfax": "fax",
}
# Properties read into attrs (everything else is kept verbatim); X-ABLABEL only with one of them.
MODELED = frozenset(
    """BEGIN END VERSION FN N NICKNAME TEL EMAIL ADR ORG TITLE ROLE NOTE CATEGORIES
    PHOTO URL BDAY ANNIVERSARY X-ANNIVERSARY UID PRODID REV""".split()
)
ADR_PARTS = ("po_box", "extended", "street", "locality", "region", "code", "country")
N_PARTS = ("family", "given", "additional", "prefix", "suffix")
_APPLE_LABEL = re.compile(r"^_\$!<(.*)>!\$_$")
# The year Apple and CardBook write for a date without one (3.0 has no year-less date).
NO_YEAR = "1604"
DATED = ("BDAY", "ANNIVERSARY", "X-ANNIVERSARY")  # the card's days, read by `_date`
_DATE = re.compile(r"^(?:(\d{4})|--)-?(\d{2})-?(\d{2})(?:T.*)?$")


class CardError(ValueError):
    """A line of a card cannot be read (the card is then skipped, named)."""


@dataclass
class Prop:
    group: str | None
    name: str  # upper case
    params: dict[str, list[str]]  # upper-case names; TYPE values lower case
    value: str  # decoded text, still vCard-escaped
    note: str | None = None  # how the value was read when not as it said (a legacy encoding)
    raw: str | None = None  # the unfolded line as the card wrote it (None: read another way)

    @property
    def types(self) -> list[str]:
        return [t for t in self.params.get("TYPE", []) if t]


@dataclass
class Card:
    line: int  # where it starts in the file (1-based)
    props: list[Prop] = field(default_factory=list)
    version: str = "3.0"
    notes: list[str] = field(default_factory=list)  # values read another way than they said

    def first(self, name: str) -> Prop | None:
        return next((p for p in self.props if p.name == name), None)

    def all(self, name: str) -> list[Prop]:
        return [p for p in self.props if p.name == name]

    def describe(self) -> str:
        """How a message names this card: its name, else an email or UID, and where it is."""
        for name in ("FN", "N", "EMAIL", "TEL", "UID"):
            prop = self.first(name)
            if prop and unescape(prop.value).strip(" ;"):
                return f"card at line {self.line} ({unescape(prop.value).strip(' ;')[:60]})"
        return f"card at line {self.line}"


# -- reading -------------------------------------------------------------------------------------


def split_cards(data: bytes) -> list[Card | Skip]:
    """Every card of a file, or the reason one cannot be read (the others still are); after a card,
    a `Dropped` for each value it read another way than the card said (bytes that are not UTF-8).
    A card larger than MAX_CARD_BYTES is skipped by its size before its lines are parsed."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    out: list[Card | Skip] = []
    current: list[tuple[int, bytes]] | None = None
    start = size = 0
    for number, line in _logical_lines(raw):
        upper = line.strip().upper() if len(line) < 64 else b""
        if upper == b"BEGIN:VCARD":
            if current is not None:
                out.append(Skip(_name(start, current), "it has no END:VCARD before the next card"))
            current, start, size = [], number, 0
        elif upper == b"END:VCARD":
            if current is None:
                continue
            if size > MAX_CARD_BYTES:
                out.append(Skip(_name(start, current), _too_large(size)))
            else:
                card = _card(start, current)
                out.append(card)
                if isinstance(card, Card):
                    out.extend(Dropped(card.describe(), note) for note in card.notes)
            current = None
        elif current is not None and line.strip():
            size += len(line)
            if size <= MAX_CARD_BYTES:
                current.append((number, line))
            elif size - len(line) <= MAX_CARD_BYTES:  # it will be skipped: keep what names it
                current[:] = [(n, x) for n, x in current if _names_a_card(x)]
            if size > MAX_CARD_BYTES and _names_a_card(line):
                current.append((number, line))
    if current is not None:
        out.append(Skip(_name(start, current), "it ends before END:VCARD: the file is truncated"))
    return out


def _too_large(size: int) -> str:
    return (
        f"it is {size / 1e6:.1f} MB; the largest card Neurons imports is {MAX_CARD_BYTES / 1e6:.1f} MB "
        f"(a photo of at most {MAX_BODY_BYTES / 1e6:.1f} MB)"
    )


def _names_a_card(line: bytes) -> bool:
    """A short FN, N, EMAIL, TEL or UID line: what a message about a skipped card names it by."""
    return len(line) < 1024 and re.match(rb"(?i)([\w-]+\.)?(FN|N|EMAIL|TEL|UID)[;:]", line) is not None


def _name(start: int, lines: list[tuple[int, bytes]]) -> str:
    """How a message names an unfinished card (from what can be read of it)."""
    found = _card(start, lines)
    return found.describe() if isinstance(found, Card) else f"card at line {start}"


def _logical_lines(raw: list[bytes]) -> Iterable[tuple[int, bytes]]:
    """Unfold: a line starting with a space or tab continues the previous one; so does the line
    after a quoted-printable value ending in '=' (vCard 2.1 soft line break). In linear time: the
    pieces of a line are joined once, however many lines it was folded into."""
    number = 0
    parts: list[bytes] | None = None
    last = b""  # the last piece that is not empty (where a soft break's '=' is)
    quoted_printable = False
    for i, line in enumerate(raw, 1):
        if parts is not None and line[:1] in (b" ", b"\t"):
            piece = line[1:]
        elif parts is not None and quoted_printable and last.endswith(b"="):
            for k in range(len(parts) - 1, -1, -1):  # drop the '=' from the piece that has it
                if parts[k]:
                    parts[k] = parts[k][:-1]
                    break
            piece = line.lstrip(b" \t")
            last = last[:-1]
        else:
            if parts is not None:
                yield number, b"".join(parts)
            number, parts, last = i, [line], line
            quoted_printable = _quoted_printable(line)
            continue
        parts.append(piece)
        if piece:
            last = piece
        if not quoted_printable and len(parts) == 2 and b":" not in parts[0]:
            quoted_printable = _quoted_printable(b"".join(parts))  # a folded head (rare)
    if parts is not None:
        yield number, b"".join(parts)


def _quoted_printable(line: bytes) -> bool:
    colon = line.find(b":")
    return b"QUOTED-PRINTABLE" in (line if colon < 0 else line[:colon]).upper()


def _card(start: int, lines: list[tuple[int, bytes]]) -> Card | Skip:
    card = Card(line=start)
    for number, line in lines:
        try:
            prop = parse_line(line)
        except CardError as exc:
            return Skip(card.describe(), f"line {number}: {exc}")
        if prop.note is None and b"QUOTED-PRINTABLE" not in line.upper():
            prop.raw = line.decode("utf-8", "replace")
        card.props.append(prop)
        if prop.note:
            card.notes.append(f"line {number}: {prop.note}")
        elif prop.name in DATED and _DATE.match(prop.value.strip()) and _date(prop) is None:
            what = "birthday" if prop.name == "BDAY" else "anniversary"
            card.notes.append(
                f"line {number}: {prop.name} {prop.value.strip()} is a day no calendar has: "
                f"kept as text, not as a {what}"
            )
    version = card.first("VERSION")
    card.version = version.value.strip() if version else "3.0"
    return card


def parse_line(line: bytes) -> Prop:
    head, sep, value = _split_unquoted(line, b":")
    if not sep:
        raise CardError("a line without ':' is not a vCard property")
    parts = _split_quoted(head.decode("utf-8", "replace"), ";")
    name = parts[0].strip()
    group = None
    if "." in name:
        group, name = name.rsplit(".", 1)
    if not re.fullmatch(r"[A-Za-z0-9-]+", name or ""):
        raise CardError(f"{name!r} is not a property name")
    params: dict[str, list[str]] = {}
    for param in parts[1:]:
        key, eq, val = param.partition("=")
        key = key.strip().upper()
        if not eq:  # vCard 2.1: ";CELL", ";QUOTED-PRINTABLE"
            key, val = (
                ("ENCODING", key) if key in ("QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT") else ("TYPE", key)
            )
        values = [v.strip().strip('"') for v in _split_quoted(val, ",")]
        if key == "TYPE":
            values = [v.lower() for v in values]
        params.setdefault(key, []).extend(values)
    encoding = (params.get("ENCODING") or [""])[0].upper()
    charset = (params.get("CHARSET") or ["utf-8"])[0]
    if encoding == "QUOTED-PRINTABLE":
        value = quopri.decodestring(value)
        params.pop("ENCODING")
    text, note = _decoded(value, charset, name.upper())
    params.pop("CHARSET", None)
    return Prop(group, name.upper(), params, text, note)


def _decoded(value: bytes, charset: str, name: str) -> tuple[str, str | None]:
    """A value's text in its CHARSET, and how it was read when not so."""
    try:
        return value.decode(charset), None
    except LookupError:  # a CHARSET no codec has ("unknown"): that parameter, not the card, is lost
        text, note = _decoded(value, "utf-8", name)
        return text, note or f"{name} names an unknown CHARSET {charset!r}: read as UTF-8"
    except UnicodeDecodeError as exc:
        # what Outlook and older phones write without a CHARSET (vCard 2.1's default is no UTF-8)
        return legacy_text(
            value
        ), f"{name} is not valid {charset} (byte {exc.start + 1} of its value): {LEGACY}"


def _split_unquoted(data: bytes, sep: bytes) -> tuple[bytes, bytes, bytes]:
    """Split at the first `sep` outside double quotes (found by bytes.find: a 16 MB value is
    scanned in C, not byte by byte)."""
    at = 0
    while True:
        found = data.find(sep, at)
        if found < 0:
            return data, b"", b""
        quote = data.find(b'"', at, found)
        if quote < 0:
            return data[:found], sep, data[found + 1 :]
        closing = data.find(b'"', quote + 1)
        if closing < 0:
            return data, b"", b""
        at = closing + 1


def _split_quoted(text: str, sep: str) -> list[str]:
    """Split on `sep` outside double quotes (parameters: TYPE="cell,voice";PREF=1)."""
    out: list[str] = []
    buf: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == sep and not quoted:
            out.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    out.append("".join(buf))
    return out


def unescape(text: str) -> str:
    text = text.replace("\r\n", "\n")
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), text)


def split_escaped(text: str, sep: str) -> list[str]:
    """Split on `sep` where it is not escaped; the parts stay escaped."""
    out, buf, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            buf.append(text[i : i + 2])
            i += 2
            continue
        if ch == sep:
            out.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
        i += 1
    out.append("".join(buf))
    return out


def _components(value: str) -> list[str]:
    return [unescape(part) for part in split_escaped(value, ";")]


def _list(value: str) -> list[str]:
    return [unescape(part).strip() for part in split_escaped(value, ",") if unescape(part).strip()]


# -- a card as contact attrs -----------------------------------------------------------------------


def to_attrs(card: Card, region: str | None = None) -> dict[str, Any]:
    """The contact attrs of a card (raises Skip when it has no name: neither FN nor N)."""
    labels = {
        p.group.lower(): _label(unescape(p.value)) for p in card.props if p.group and p.name == "X-ABLABEL"
    }
    modeled_groups = {p.group.lower() for p in card.props if p.group and p.name in MODELED}
    attrs: dict[str, Any] = {}
    n = card.first("N")
    if n is not None:
        parts = dict(zip(N_PARTS, (" ".join(_list(c)) for c in split_escaped(n.value, ";")), strict=False))
        parts = {k: v for k, v in parts.items() if v}
        if parts:
            attrs["n"] = parts
    fn = card.first("FN")
    name = unescape(fn.value).strip() if fn else ""
    if not name and "n" in attrs:
        name = " ".join(
            attrs["n"].get(k, "") for k in ("prefix", "given", "additional", "family", "suffix")
        ).strip()
        name = re.sub(r"\s+", " ", name)
    if not name:
        raise Skip(card.describe(), "it has no name (neither FN nor N)")
    attrs["name"] = name
    aliases = [a for p in card.all("NICKNAME") for a in _list(p.value)]
    if aliases:
        attrs["aliases"] = aliases
    _labelled(
        attrs,
        "phones",
        "phone_labels",
        card.all("TEL"),
        labels,
        lambda p: phones.normalise(unescape(p.value), region),
    )
    _labelled(
        attrs,
        "emails",
        "email_labels",
        card.all("EMAIL"),
        labels,
        lambda p: unescape(p.value).strip().removeprefix("mailto:"),
    )
    addresses = []
    for p in card.all("ADR"):
        parts = {k: v.strip() for k, v in zip(ADR_PARTS, _components(p.value), strict=False) if v.strip()}
        label = _prop_label(p, labels)
        if label:
            parts["label"] = label
        if set(parts) - {"label"}:
            addresses.append(parts)
    if addresses:
        attrs["addresses"] = addresses
    org = card.first("ORG")
    if org is not None:
        units = [c.strip() for c in _components(org.value)]
        if units and units[0]:
            attrs["org"] = units[0]
        if [u for u in units[1:] if u]:
            attrs["org_units"] = [u for u in units[1:] if u]
    # a job title is "job_title": attrs["title"] is what a neuron is called in lists
    for prop, key in (("TITLE", "job_title"), ("ROLE", "role"), ("NOTE", "note")):
        texts = [unescape(p.value).strip() for p in card.all(prop) if unescape(p.value).strip()]
        if texts:
            attrs[key] = "\n\n".join(texts)
    tags = [t for p in card.all("CATEGORIES") for t in _list(p.value)]
    if tags:
        attrs["tags"] = list(dict.fromkeys(tags))
    urls = [unescape(p.value).strip() for p in card.all("URL") if p.value.strip()]
    if urls:
        attrs["urls"] = urls
    photo = card.first("PHOTO")
    if photo is not None and photo.value.strip():
        attrs["photo"] = _photo(photo)
    extra = [
        p
        for p in card.props
        if p.name not in MODELED
        and not (p.name == "X-ABLABEL" and p.group and p.group.lower() in modeled_groups)
    ]
    for prop, key in (("BDAY", "birthday"), ("ANNIVERSARY", "anniversary"), ("X-ANNIVERSARY", "anniversary")):
        for p in card.all(prop):
            day = _date(p)
            if day is None:
                extra.append(p)  # "circa 1800", a text date: kept as it was
            elif key not in attrs:
                attrs[key] = day
    uid = card.first("UID")
    if uid is not None and uid.value.strip():
        attrs["uid"] = unescape(uid.value).strip()
    written = _as_written(card, attrs, labels, region)
    if written:
        attrs["vcard_written"] = written
    if extra:
        # kept as the version we write says: a quoted-printable value's line breaks as \n, and a
        # 2.1 value's commas (2.1 escapes none) escaped, so that a 3.0 or 4.0 reader keeps one value
        attrs["vcard_extra"] = [
            content_line(p.group, p.name, p.params, _escaped_for_export(p.value, card.version)) for p in extra
        ]
    return attrs


def _as_written(card: Card, attrs: dict[str, Any], labels: dict[str, str], region) -> dict[str, Any]:
    """The card's own form of what Neurons rewrites (3.0 and 4.0 cards only: Neurons writes no
    2.1): its version, its PRODID, and the lines of each number, email, address and date as the
    card wrote them (with the X-ABLabel of their group), keyed by the value and label read from
    them (`_key`); the first line of each key is kept."""
    if card.version not in VERSIONS:
        return {}
    out: dict[str, Any] = {"version": card.version}
    prodid = card.first("PRODID")
    if prodid is not None and prodid.raw:
        out["prodid"] = prodid.raw
    lines: dict[str, list[str]] = {}

    def keep(key: str, prop: Prop) -> None:
        if prop.raw is None or key in lines:
            return
        grouped = [
            p.raw
            for p in card.props
            if prop.group and p.group and p.group.lower() == prop.group.lower() and p.name == "X-ABLABEL"
        ]
        if all(grouped):
            lines[key] = [prop.raw, *(g for g in grouped if g)]

    for p in card.all("TEL"):
        keep(_key("TEL", phones.normalise(unescape(p.value), region), _prop_label(p, labels)), p)
    for p in card.all("EMAIL"):
        keep(_key("EMAIL", unescape(p.value).strip().removeprefix("mailto:"), _prop_label(p, labels)), p)
    for p in card.all("ADR"):
        parts = {k: v.strip() for k, v in zip(ADR_PARTS, _components(p.value), strict=False) if v.strip()}
        label = _prop_label(p, labels)
        if label:
            parts["label"] = label
        keep(_key("ADR", parts), p)
    for prop, key in (("BDAY", "birthday"), ("ANNIVERSARY", "anniversary"), ("X-ANNIVERSARY", "anniversary")):
        for p in card.all(prop):
            day = _date(p)
            if day is not None and attrs.get(key) == day:
                keep(_key(key, day), p)
    if lines:
        out["lines"] = lines
    return out


def _key(name: str, value: Any, label: str = "") -> str:
    """What a kept line stands for: its property, the value read from it and its label."""
    return json.dumps([name, value, label], sort_keys=True, ensure_ascii=False)


def own_version(attrs: dict[str, Any]) -> str | None:
    """The version of the card a contact came from, when Neurons can write it back in it."""
    written = attrs.get("vcard_written")
    version = written.get("version") if isinstance(written, dict) else None
    return version if version in VERSIONS else None


def written_at(card: Card) -> datetime | None:
    """When the card was last written (its REV; a time without a zone is UTC), else None."""
    rev = card.first("REV")
    if rev is None:
        return None
    try:
        when = datetime.fromisoformat(unescape(rev.value).strip())
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _escaped_for_export(value: str, version: str) -> str:
    value = re.sub(r"\r\n|\r|\n", r"\\n", value)
    return re.sub(r"(?<!\\),", r"\\,", value) if version.startswith("2") else value


def _label(text: str) -> str:
    match = _APPLE_LABEL.match(text.strip())
    if match:
        inner = match.group(1)
        return APPLE_LABELS.get(inner.lower(), inner)
    return text.strip()


def _prop_label(prop: Prop, labels: dict[str, str]) -> str:
    if prop.group and prop.group.lower() in labels:
        return labels[prop.group.lower()]
    types = [t for t in prop.types if t not in ("internet", "x400")]
    return ",".join(types)


def _labelled(attrs, key, labels_key, props: list[Prop], labels, value_of) -> None:
    values, labelled = [], {}
    for p in props:
        value = value_of(p)
        if not value or value in values:
            continue
        values.append(value)
        label = _prop_label(p, labels)
        if label:
            labelled[value] = label
    if values:
        attrs[key] = values
    if labelled:
        attrs[labels_key] = labelled


def _photo(prop: Prop) -> str:
    """A URI, or inline data (2.1/3.0 ENCODING=b or BASE64) as a data: URI."""
    value = re.sub(r"\s+", "", prop.value) if prop.params.get("ENCODING") else prop.value.strip()
    encoding = (prop.params.get("ENCODING") or [""])[0].lower()
    if encoding in ("b", "base64"):
        kind = next((t for t in prop.types if t not in ("pref",)), "jpeg")
        return f"data:image/{kind};base64,{value}"
    return value


def _date(prop: Prop) -> str | None:
    """YYYY-MM-DD, or --MM-DD without a year: the 4.0 form, and the placeholder year 1604 that
    Apple (with X-APPLE-OMIT-YEAR) and CardBook (without it) write for a birthday without one."""
    match = _DATE.match(prop.value.strip())
    if not match:
        return None
    year, month, day = match.group(1), int(match.group(2)), int(match.group(3))
    omit = next(iter(prop.params.get("X-APPLE-OMIT-YEAR") or []), None)
    if year and (omit and year == omit or year == NO_YEAR):
        year = None
    try:
        date(int(year) if year else 2000, month, day)  # 2000: a leap year, so --02-29 is a date
    except ValueError:
        return None
    return f"{year}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"


# -- writing ---------------------------------------------------------------------------------------


def escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace("\r\n", "\n")
        .replace("\n", "\\n")
        .replace(",", "\\,")
        .replace(";", "\\;")
    )


def _param_value(value: str) -> str:
    return f'"{value}"' if re.search(r'[;:,"]', value) else value


def content_line(group: str | None, name: str, params: dict[str, list[str]], value: str) -> str:
    """One unfolded line; `value` is already escaped."""
    head = (f"{group}." if group else "") + name
    for key, values in params.items():
        if values:
            head += f";{key}=" + ",".join(_param_value(v) for v in values)
    return f"{head}:{value}"


def fold(line: str) -> str:
    """Lines of at most 75 octets; continuation lines start with a space; never splits a
    UTF-8 sequence."""
    data = line.encode("utf-8")
    if len(data) <= FOLD_AT:
        return line
    out, start, limit = [], 0, FOLD_AT
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:
            end -= 1
        out.append(data[start:end].decode("utf-8"))
        start, limit = end, FOLD_AT - 1
    return "\r\n ".join(out)


def from_attrs(
    attrs: dict[str, Any], *, uid: str, version: str = "4.0", rev: str | None = None, as_written: bool = False
) -> str:
    """One card (CRLF lines, folded) for a contact's attrs. `as_written` (a sync writing back the
    card it read): its PRODID, and its own lines for the values and labels still the same, when
    it is written in its own version."""
    if version not in VERSIONS:
        raise ValueError(f"vCard version {version!r}: use one of {', '.join(VERSIONS)}")
    v4 = version == "4.0"
    lines: list[str] = []
    extra = [str(x) for x in attrs.get("vcard_extra") or []]
    found = attrs.get("vcard_written")
    written: dict[str, Any] = found if as_written and isinstance(found, dict) else {}
    own = written.get("version") == version  # the card's own version: its own lines still fit
    lines_of = written.get("lines")
    kept: dict[str, Any] = lines_of if own and isinstance(lines_of, dict) else {}
    used = {
        m.group(1).lower()
        for m in (re.match(r"([^.:;]+)\.", x) for x in [*extra, *(str(x) for k in kept.values() for x in k)])
        if m
    }
    groups = (f"item{i}" for i in range(1, 10_000) if f"item{i}" not in used)

    def kept_lines(key: str) -> bool:
        """The card's own lines for what `key` stands for, when it had them (then True)."""
        found = kept.get(key)
        if not isinstance(found, list) or not found:
            return False
        lines.extend(str(x) for x in found)
        return True

    def add(
        name: str, value: str, params: dict[str, list[str]] | None = None, label: str = "", key: str = ""
    ) -> None:
        if key and kept_lines(key):
            return
        params = dict(params or {})
        group = None
        if label:
            types = [t.strip() for t in label.split(",") if t.strip()]
            if all(t.lower() in STANDARD_TYPES for t in types):
                params["TYPE"] = [t.lower() if v4 else t.upper() for t in types]
            else:
                group = next(groups)
        lines.append(content_line(group, name, params, value))
        if group:
            lines.append(content_line(group, "X-ABLabel", {}, escape(label)))

    lines.append(f"VERSION:{version}")
    if not written:
        lines.append("PRODID:-//Neurons//Neurons//EN")
    elif written.get("prodid"):  # the app that wrote the card (none said: none is added)
        lines.append(str(written["prodid"]))
    lines.append(f"UID:{uid}")
    name = str(attrs.get("name") or "")
    lines.append(f"FN:{escape(name)}")
    n = attrs.get("n") if isinstance(attrs.get("n"), dict) else None
    if n is None and not v4:  # 3.0 requires N: read from the name
        n = _n_of(name)
    if n is not None:
        lines.append("N:" + ";".join(escape(str(n.get(k, ""))) for k in N_PARTS))
    if attrs.get("aliases"):
        lines.append("NICKNAME:" + ",".join(escape(str(a)) for a in attrs["aliases"]))
    phone_labels = attrs.get("phone_labels") or {}
    region = phones.default_region()
    for phone in _strings(attrs.get("phones") or attrs.get("phone")):
        label = str(phone_labels.get(phone, ""))
        key = _key("TEL", phone, label)
        number = phones.e164(phone, region)  # a number typed "912 345 678" goes out as +351912345678
        if number and v4:
            add("TEL", f"tel:{number}", {"VALUE": ["uri"]}, label, key)
        else:
            add("TEL", escape(number or phone), None, label, key)
    email_labels = attrs.get("email_labels") or {}
    for email in _strings(attrs.get("emails") or attrs.get("email")):
        label = str(email_labels.get(email, ""))
        add("EMAIL", escape(email), None, label, _key("EMAIL", email, label))
    for adr in attrs.get("addresses") or []:
        if isinstance(adr, dict):
            add(
                "ADR",
                ";".join(escape(str(adr.get(k, ""))) for k in ADR_PARTS),
                None,
                str(adr.get("label", "")),
                _key("ADR", adr),
            )
    if attrs.get("org") or attrs.get("org_units"):
        lines.append(
            "ORG:" + ";".join(escape(str(u)) for u in [attrs.get("org", ""), *(attrs.get("org_units") or [])])
        )
    for key, prop in (("job_title", "TITLE"), ("role", "ROLE"), ("note", "NOTE")):
        if attrs.get(key):
            lines.append(f"{prop}:{escape(str(attrs[key]))}")
    for key, prop in (("birthday", "BDAY"), ("anniversary", "ANNIVERSARY" if v4 else "X-ANNIVERSARY")):
        if attrs.get(key) and not kept_lines(_key(key, attrs[key])):
            lines.append(f"{prop}:{_write_date(str(attrs[key]), v4)}")  # year-less: --MMDD, --MM-DD
    if _strings(attrs.get("tags")):
        lines.append("CATEGORIES:" + ",".join(escape(str(t)) for t in _strings(attrs["tags"])))
    for url in _strings(attrs.get("urls")):
        lines.append(f"URL:{url}")
    if attrs.get("photo"):
        lines.append(_write_photo(str(attrs["photo"]), v4))
    lines.extend(extra)
    if rev:
        lines.append(f"REV:{rev}")
    return "BEGIN:VCARD\r\n" + "".join(fold(ln) + "\r\n" for ln in lines) + "END:VCARD\r\n"


def _strings(value: Any) -> list[str]:
    """The text values of an attr: a value given as an object (a dict, a list in a list) is not
    one, and is never written as Python would print it."""
    if value is None:
        return []
    return [str(v) for v in (value if isinstance(value, list) else [value]) if _scalar(v) and str(v)]


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


# Words that open a name as a title, not as the given name ("Dr Okafor" is Okafor, prefix Dr).
HONORIFICS = frozenset("dr dra mr mrs ms miss mx prof sr sra srta herr frau mme mlle".split())


def _honorific(word: str) -> bool:
    return word.rstrip(".").lower() in HONORIFICS or word == "M."  # "M" alone is an initial


def _n_of(name: str) -> dict[str, str]:
    """N's parts from a name as people write it: the titles it opens with as the honorific
    prefix, its last word as the family name and the words between as the given name."""
    words = name.split()
    titles = 0
    while titles < len(words) - 1 and _honorific(words[titles]):
        titles += 1
    prefix, rest = " ".join(words[:titles]), words[titles:]
    if len(rest) > 1:
        n = {"family": rest[-1], "given": " ".join(rest[:-1])}
    elif titles:  # "Dr Okafor": a title and a family name
        n = {"family": rest[0]}
    else:
        n = {"given": name}
    if prefix:
        n["prefix"] = prefix
    return n


def _write_date(value: str, v4: bool) -> str:
    """4.0 writes the basic form (19900612, --0612); 3.0 the extended one (1990-06-12, --06-12)."""
    if not v4:
        return value
    return "--" + value[2:].replace("-", "") if value.startswith("--") else value.replace("-", "")


def _write_photo(value: str, v4: bool) -> str:
    if v4 or not value.startswith("data:"):
        return f"PHOTO:{value}" if v4 else f"PHOTO;VALUE=uri:{value}"
    match = re.match(r"data:image/([\w.+-]+);base64,(.*)", value, re.S)
    if not match:
        return f"PHOTO;VALUE=uri:{value}"
    return f"PHOTO;ENCODING=b;TYPE={match.group(1).upper()}:{match.group(2)}"
