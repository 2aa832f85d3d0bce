"""vCard in and out: each client's quirks (fixtures in interop_files/, made for these tests), the
round trip, re-import without duplicates, birthdays as yearly reminders, bad input, and khard
reading the exported vdir."""

from __future__ import annotations

import base64
import random
import shutil
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import remind
from core.interop import files as interop
from core.interop import vcard
from core.interop.report import Dropped, ImportRefused, Skip
from core.model import InvalidInput, Kind, Relation, State

FILES = Path(__file__).parent / "interop_files"
NOW = datetime(2027, 1, 10, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _region(monkeypatch):
    monkeypatch.setenv("NEURONS_PHONE_REGION", "PT")


def cards(name: str) -> list:
    """Each card of a fixture as attrs, or the Skip that says why it cannot be read."""
    out = []
    for card in vcard.split_cards((FILES / name).read_bytes()):
        try:
            out.append(card if isinstance(card, Skip) else vcard.to_attrs(card, "PT"))
        except Skip as skip:
            out.append(skip)
    return out


def contacts(memory) -> dict[str, object]:
    return {n.attrs["name"]: n for n in memory.list(Kind.CONTACT, limit=500)}


# -- reading each client's cards -------------------------------------------------------------------


def test_google_groups_labels_and_escapes():
    ana, marco = cards("google.vcf")
    assert ana["name"] == "Ana Sofia Ribeiro"
    assert ana["n"] == {"family": "Ribeiro", "given": "Ana", "additional": "Sofia"}
    assert ana["aliases"] == ["Sofi"]
    assert ana["phones"] == ["+351912345678", "+351210001234"]  # E.164 from "+351 912 345 678"
    assert ana["phone_labels"] == {"+351912345678": "cell", "+351210001234": "Landline at the flat"}
    assert ana["emails"] == ["ana.ribeiro@example.org"]
    assert ana["addresses"] == [
        {
            "street": "Rua das Flores 12, 3º Esq",
            "locality": "Lisboa",
            "code": "1200-195",
            "country": "Portugal",
            "label": "home",
        }
    ]
    assert (ana["org"], ana["org_units"], ana["job_title"]) == (
        "Ribeiro & Filhos, Lda",
        ["Contabilidade"],
        "Accountant",
    )
    assert ana["note"] == "Prefers calls after 6, not before.\nHas a dog called Biscoito."
    assert ana["birthday"] == "1988-06-12" and ana["tags"] == ["myContacts", "Family"]
    assert ana["urls"] == ["https://ribeiro.example.org"] and "uid" not in ana
    assert marco["birthday"] == "--02-29"


def test_apple_folding_labels_omitted_year_and_photo():
    (chidi,) = cards("apple.vcf")
    assert chidi["name"] == "Dr Chidi Okafor" and chidi["n"]["prefix"] == "Dr"
    assert chidi["phone_labels"]["+442079460321"] == "cell"  # _$!<Mobile>!$_
    assert chidi["phone_labels"]["020 7946 0999"] == "home,fax"  # _$!<HomeFAX>!$_, kept as written
    assert chidi["email_labels"] == {"chidi.okafor@example.co.uk": "work"}
    assert chidi["birthday"] == "--11-03"  # X-APPLE-OMIT-YEAR=1604
    assert chidi["note"].endswith("(there is none).") and "San José" in chidi["note"]  # unfolded
    assert chidi["photo"].startswith("data:image/jpeg;base64,iVBOR")
    assert chidi["uid"] == "4F1C8A2E-0B7D-4E59-9C61-2A3B4C5D6E7F"
    # the custom date with its label and the social profile are kept verbatim
    assert "item4.X-ABDATE;TYPE=pref:2015-09-19" in chidi["vcard_extra"]
    assert "item4.X-ABLABEL:_$!<Anniversary>!$_" in chidi["vcard_extra"]
    assert any(x.startswith("X-SOCIALPROFILE;TYPE=mastodon") for x in chidi["vcard_extra"])


def test_android_21_quoted_printable_charset_and_bare_types():
    joao, kathe = cards("android21.vcf")
    assert joao["name"] == "João Gonçalves"
    assert joao["note"] == "Primo da Ana\nMora em Braga, perto da Sé e gosta de francesinhas."  # soft break
    assert joao["phones"] == ["+351912345679", "+351253000111"]  # a local number in the region
    assert joao["phone_labels"] == {"+351912345679": "cell,pref", "+351253000111": "home"}
    assert kathe["name"] == "Käthe Müller"  # no FN: from N, in ISO-8859-1
    assert kathe["phone_labels"] == {"+49301234567": "work,voice"}


def test_cardbook_40_uri_tel_yearless_birthday_anniversary_non_latin():
    eleni, taro, sara = cards("cardbook.vcf")
    assert eleni["name"] == "Ελένη Παπαδοπούλου" and eleni["aliases"] == ["Lena", "Leni"]
    assert eleni["phones"] == ["+306912345678"] and eleni["phone_labels"] == {"+306912345678": "cell,voice"}
    assert eleni["birthday"] == "--06-12" and eleni["anniversary"] == "2010-07-04"
    assert (
        eleni["note"]
        == "Cousin of Dimitris, lives in Thessaloniki.\nSpeaks Greek, English, and some Portuguese."
    )
    assert eleni["photo"] == "https://photos.example.gr/eleni.jpg"
    assert eleni["tags"] == ["family", "greece"]
    assert taro["name"] == "山田 太郎" and taro["org"] == "株式会社サンプル"
    assert sara["name"] == "سارة الأحمد" and sara["anniversary"] == "2018-03-21"  # X-ANNIVERSARY


def test_nextcloud_two_addresses_and_data_uri_photo():
    (priya,) = cards("nextcloud.vcf")
    assert [a["label"] for a in priya["addresses"]] == ["home", "work"]
    assert priya["addresses"][1]["extended"] == "Floor 4"
    assert priya["photo"].startswith("data:image/png;base64,")
    assert priya["anniversary"] == "2012-12-12"


def test_broken_cards_are_named_and_the_rest_read():
    found = cards("broken.vcf")
    good = [c["name"] for c in found if isinstance(c, dict)]
    why = {s.item: s.why for s in found if isinstance(s, Skip) and not isinstance(s, Dropped)}
    # a value that is not UTF-8 is read as Windows-1252 (what Outlook writes), the card kept, and said
    assert good == ["Good Before", "Bad Bytes", "Good After"]
    assert why == {
        "card at line 6 (nameless@example.org)": "it has no name (neither FN nor N)",
        "card at line 11 (Broken Line)": "line 14: a line without ':' is not a vCard property",
        "card at line 26 (Cut Off)": "it ends before END:VCARD: the file is truncated",
    }
    assert [(s.item, s.why) for s in found if isinstance(s, Dropped)] == [
        (
            "card at line 16 (Bad Bytes)",
            "line 19: NOTE is not valid utf-8 (byte 4 of its value): read as Windows-1252 (Western European)",
        )
    ]


def test_a_charset_no_codec_knows_loses_that_parameter_not_the_card():
    lines = [b"BEGIN:VCARD", b"VERSION:3.0", b"FN;CHARSET=unknown:Jos\xc3\xa9", b"EMAIL:jose@example.org"]
    data = b"\r\n".join([*lines, b"END:VCARD", b""])
    found = vcard.split_cards(data)
    (card,) = [c for c in found if not isinstance(c, Skip)]
    attrs = vcard.to_attrs(card, "PT")
    assert (attrs["name"], attrs["emails"]) == ("José", ["jose@example.org"])
    assert [d.why for d in found if isinstance(d, Dropped)] == [
        "line 3: FN names an unknown CHARSET 'unknown': read as UTF-8"
    ]


# -- writing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["4.0", "3.0"])
def test_written_cards_read_back_the_same(version):
    for name in ("google.vcf", "apple.vcf", "android21.vcf", "cardbook.vcf", "nextcloud.vcf"):
        for attrs in (c for c in cards(name) if isinstance(c, dict)):
            text = vcard.from_attrs(attrs, uid=attrs.get("uid", "x-1"), version=version)
            assert all(len(line.encode()) <= vcard.FOLD_AT for line in text.split("\r\n"))
            (again,) = [vcard.to_attrs(c, "PT") for c in vcard.split_cards(text.encode())]
            expected = {**attrs, "uid": attrs.get("uid", "x-1")}
            expected["vcard_written"] = again["vcard_written"]  # Neurons' own form of the lines
            assert again["vcard_written"]["version"] == version
            if version == "3.0":
                expected.setdefault("n", again["n"])  # 3.0 requires N: one is made from FN
            assert again == expected, (name, version)


def test_40_and_30_differ_where_the_versions_do():
    attrs = {
        "name": "Ana Silva",
        "phones": ["+351912345678"],
        "phone_labels": {"+351912345678": "cell"},
        "birthday": "--06-12",
        "anniversary": "2010-07-04",
        "photo": "data:image/png;base64,AAAA",
    }
    v4 = vcard.from_attrs(attrs, uid="u", version="4.0")
    v3 = vcard.from_attrs(attrs, uid="u", version="3.0")
    assert "VERSION:4.0" in v4 and "TEL;VALUE=uri;TYPE=cell:tel:+351912345678" in v4
    assert "BDAY:--0612" in v4 and "ANNIVERSARY:20100704" in v4
    assert "VERSION:3.0" in v3 and "TEL;TYPE=CELL:+351912345678" in v3
    assert "BDAY:--06-12" in v3 and "X-ANNIVERSARY:2010-07-04" in v3
    assert "PHOTO;ENCODING=b;TYPE=PNG:AAAA" in v3


@pytest.mark.parametrize(
    ("name", "n"),
    [
        ("Dr Okafor", "N:Okafor;;;Dr;"),
        ("Dr. Ngozi Okafor", "N:Okafor;Ngozi;;Dr.;"),
        ("Sra. Ana Silva", "N:Silva;Ana;;Sra.;"),
        ("Prof Dr Klaus Weber", "N:Weber;Klaus;;Prof Dr;"),
        ("M. Dupont", "N:Dupont;;;M.;"),
        ("Mme Claire Dupont", "N:Dupont;Claire;;Mme;"),
        ("M Dupont", "N:Dupont;M;;;"),  # without its period, M is an initial
        ("Ana Silva", "N:Silva;Ana;;;"),
    ],
)
def test_a_title_before_a_name_is_written_as_its_honorific_prefix(name, n):
    vobject = pytest.importorskip("vobject")
    written = vcard.from_attrs({"name": name}, uid="u", version="3.0")
    assert n in written.split("\r\n")
    read = vobject.readOne(written)
    assert (read.fn.value, read.n.value.family) == (name, n[2:].split(";")[0])
    assert read.n.value.prefix == n.split(";")[3]
    # and read back here as the same name
    again = vcard.to_attrs(next(c for c in vcard.split_cards(written.encode()) if not isinstance(c, Skip)))
    assert again["name"] == name


def test_folding_never_splits_a_character():
    line = "NOTE:" + "ação " * 40
    folded = vcard.fold(line)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == line


# -- importing into a memory -------------------------------------------------------------------


def test_import_creates_contacts_aliases_and_birthday_reminders(memory):
    report = interop.import_path(memory, FILES / "google.vcf", now=NOW)
    assert report.to_json() == {
        "format": "vcard",
        "created": 2,
        "updated": 0,
        "unchanged": 0,
        "skipped": [],
        "birthday_reminders": 2,
    }
    ana = contacts(memory)["Ana Sofia Ribeiro"]
    assert ana.attrs["aliases"] == ["Sofi"]
    assert "Accountant" in ana.body and "Biscoito" in ana.body
    # a nickname names the contact in later captures
    later = memory.capture("lunch with Sofi on friday", kind="note")
    assert ana.id in {e.other(later.id) for e in memory.edges(later.id)}
    birthdays = {n.attrs["birthday_of"]: n for n in memory.list(Kind.REMINDER, limit=50)}
    mine = birthdays[str(ana.id)]
    assert mine.body == "Ana Sofia Ribeiro's birthday (born 1988)"
    assert mine.attrs["rrule"] == "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=12"
    due = remind.parse_time(mine.attrs["due_at"]).astimezone(remind.local_zone())
    assert (due.year, due.month, due.day, due.hour) == (2027, 6, 12, 9)
    assert [(e.relation, e.to_id) for e in memory.edges(mine.id)] == [(Relation.CONCERNS, ana.id)]


def test_an_impossible_birthday_is_kept_as_text_and_said_in_the_report(memory, tmp_path):
    book = tmp_path / "book.vcf"
    book.write_text(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Tom Okafor\r\nN:Okafor;Tom;;;\r\nBDAY:2027-02-30\r\nEND:VCARD\r\n"
    )
    report = interop.import_path(memory, book, now=NOW)
    tom = contacts(memory)["Tom Okafor"]
    # not stored as a date (no 30 February), and no yearly reminder for it
    assert "birthday" not in tom.attrs and report.birthdays == 0
    # kept as the card wrote it, so that an export gives it back
    assert tom.attrs["vcard_extra"] == ["BDAY:2027-02-30"]
    assert report.dropped == [
        {
            "item": "card at line 1 (Tom Okafor)",
            "why": "line 5: BDAY 2027-02-30 is a day no calendar has: kept as text, not as a birthday",
        }
    ]
    assert "imported card at line 1 (Tom Okafor), but line 5: BDAY 2027-02-30" in report.text()


def test_29_february_repeats_on_the_last_day_of_february(embedded_memory):
    interop.import_path(embedded_memory, FILES / "google.vcf", now=NOW)
    marco = contacts(embedded_memory)["Marco Bianchi"]
    (reminder,) = [
        n for n in embedded_memory.list(Kind.REMINDER, limit=50) if n.attrs["birthday_of"] == str(marco.id)
    ]
    series = remind.Series.of(reminder.attrs)
    start = remind.parse_time(reminder.attrs["due_at"])
    days = [
        o.astimezone(remind.local_zone()).date().isoformat()
        for o in remind.occurrences(series, start, datetime(2032, 12, 31, tzinfo=UTC))
    ]
    assert days == ["2027-02-28", "2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"]


def test_reimport_is_idempotent_and_changes_update_with_the_old_value_superseded(memory, tmp_path):
    interop.import_path(memory, FILES / "google.vcf", now=NOW)
    interop.import_path(memory, FILES / "cardbook.vcf", now=NOW)
    before = memory.count()
    again = interop.import_path(memory, FILES / "google.vcf", now=NOW)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 2)
    assert memory.count() == before
    # Google has no UIDs: the changed card is found by its email; the new number replaces the old
    changed = (FILES / "google.vcf").read_bytes().replace(b"+351 912 345 678", b"+351 934 000 111")
    (tmp_path / "google.vcf").write_bytes(changed.replace(b"TITLE:Accountant", b"TITLE:Partner"))
    report = interop.import_path(memory, tmp_path / "google.vcf", now=NOW)
    assert (report.created, report.updated, report.unchanged) == (0, 1, 1)
    ana = contacts(memory)["Ana Sofia Ribeiro"]
    assert ana.attrs["phones"] == ["+351934000111", "+351210001234"] and ana.attrs["job_title"] == "Partner"
    (old,) = [n for e, n in memory.neighbours(ana.id) if e.relation is Relation.SUPERSEDES]
    assert old.state is State.ARCHIVED
    assert old.attrs["superseded"] == {"phones": ["+351912345678"], "job_title": "Accountant"}
    assert old.id in {n.id for n in memory.search("912345678")}  # the old number is findable
    # a 4.0 card with a UID is found by it, even after its email changed
    moved = (FILES / "cardbook.vcf").read_bytes().replace(b"eleni@example.gr", b"eleni@new.example.gr")
    (tmp_path / "cardbook.vcf").write_bytes(moved)
    report = interop.import_path(memory, tmp_path / "cardbook.vcf", now=NOW)
    assert (report.created, report.updated, report.unchanged) == (0, 1, 2)
    assert contacts(memory)["Ελένη Παπαδοπούλου"].attrs["emails"] == ["eleni@new.example.gr"]
    assert memory.count() == before + 2  # two superseded notes, no duplicate contact


def test_a_captured_contact_is_matched_by_its_phone_number(embedded_memory):
    typed = embedded_memory.capture("Ana Ribeiro 912 345 678", kind="contact")
    report = interop.import_path(embedded_memory, FILES / "google.vcf", now=NOW)
    assert (report.created, report.updated) == (1, 1)
    ana = embedded_memory.get(typed.id)
    assert ana.attrs["name"] == "Ana Sofia Ribeiro" and ana.body == "Ana Ribeiro 912 345 678"
    assert ana.attrs["emails"] == ["ana.ribeiro@example.org"]
    # the same number under another person's name is not the same person
    other = embedded_memory.capture("Rui Costa 934 000 222", kind="contact")
    card = b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Marta Lopes\r\nTEL:+351 934 000 222\r\nEND:VCARD\r\n"
    path = Path(embedded_memory.store.settings.data_dir).parent / f"{uuid.uuid4().hex}.vcf"
    path.write_bytes(card)
    assert interop.import_path(embedded_memory, path, now=NOW).created == 1
    assert embedded_memory.get(other.id).attrs["name"] == "Rui Costa"


def test_bad_cards_are_skipped_by_name_and_all_or_nothing_writes_nothing(memory):
    before = memory.snapshot()
    with pytest.raises(
        ImportRefused,
        match=r"nothing was imported: card at line 6 \(nameless@example.org\): "
        r"it has no name \(neither FN nor N\) \(and 2 more\)",
    ):
        interop.import_path(memory, FILES / "broken.vcf", all_or_nothing=True, now=NOW)
    assert memory.snapshot() == before
    report = interop.import_path(memory, FILES / "broken.vcf", now=NOW)
    assert (report.created, len(report.skipped)) == (3, 3)
    assert {s["item"] for s in report.skipped} == {
        "card at line 6 (nameless@example.org)",
        "card at line 11 (Broken Line)",
        "card at line 26 (Cut Off)",
    }
    # its NOTE is not UTF-8: read as Windows-1252 (Outlook's), and the report says so
    assert [d["item"] for d in report.dropped] == ["card at line 16 (Bad Bytes)"]
    assert sorted(contacts(memory)) == ["Bad Bytes", "Good After", "Good Before"]


def test_a_file_that_is_not_a_vcard_is_refused_and_a_huge_card_named(embedded_memory, tmp_path):
    junk = tmp_path / "photo.vcf"
    junk.write_bytes(bytes(range(256)) * 1000)
    with pytest.raises(InvalidInput, match=r"photo.vcf holds no vCard \(BEGIN:VCARD\)"):
        interop.import_path(embedded_memory, junk, now=NOW)
    # 50 MB: a card with a 50 MB inline photo is more than a neuron holds: it is skipped, by name
    big = tmp_path / "big.vcf"
    photo = b"A" * (50 * 1024 * 1024)
    big.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Small One\r\nEND:VCARD\r\n"
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big Photo\r\nPHOTO;ENCODING=b;TYPE=JPEG:"
        + photo
        + b"\r\nEND:VCARD\r\n"
    )
    report = interop.import_path(embedded_memory, big, now=NOW)
    assert report.created == 1 and sorted(contacts(embedded_memory)) == ["Small One"]
    assert report.skipped == [
        {
            "item": "card at line 5 (Big Photo)",
            "why": "it is 52.4 MB; the largest card Neurons imports is 2.4 MB (a photo of at most 2.1 MB)",
        }
    ]


# -- exporting, and a real client reading it -------------------------------------------------------


def test_export_round_trip_through_a_vdir(memory, tmp_path):
    for name in ("google.vcf", "apple.vcf", "cardbook.vcf", "nextcloud.vcf", "android21.vcf"):
        interop.import_path(memory, FILES / name, now=NOW)
    written = interop.export_path(memory, f"{tmp_path}/vdir/", "vcard")
    assert written == {"format": "vcard", "path": str(tmp_path / "vdir"), "items": 9, "files": 9}
    names = sorted(p.name for p in (tmp_path / "vdir").iterdir())
    assert "4F1C8A2E-0B7D-4E59-9C61-2A3B4C5D6E7F.vcf" in names  # UID.vcf
    again = interop.import_path(memory, tmp_path / "vdir", now=NOW)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 9)
    one_file = interop.export_path(memory, tmp_path / "all.vcf", vcard_version="3.0")
    assert one_file["format"] == "vcard" and (tmp_path / "all.vcf").read_text().count("VERSION:3.0") == 9


@pytest.mark.skipif(shutil.which("khard") is None, reason="khard is not installed (packaging/setup.sh test)")
def test_khard_reads_the_exported_vdir(embedded_memory, tmp_path):
    for name in ("google.vcf", "cardbook.vcf", "nextcloud.vcf", "apple.vcf"):
        interop.import_path(embedded_memory, FILES / name, now=NOW)
    interop.export_path(embedded_memory, f"{tmp_path}/contacts/", "vcard")
    config = tmp_path / "khard.conf"
    config.write_text(
        f"[addressbooks]\n[[people]]\npath = {tmp_path / 'contacts'}\n[general]\ndefault_action = list\n"
    )

    def khard(*args: str) -> str:
        done = subprocess.run(
            ["khard", "-c", str(config), *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    listed = khard("list", "--parsable")
    for name in (
        "Ana Sofia Ribeiro",
        "Ελένη",
        "山田",
        "Priya Natarajan",
        "Chidi Okafor",
    ):  # khard orders names its way
        assert name in listed
    shown = khard("show", "--format", "yaml", "uid:urn:uuid:9b2f6c1e-3d4a-4b5c-8d7e-0f1a2b3c4d5e")
    assert "+306912345678" in shown and "eleni@example.gr" in shown and "Lena" in shown
    birthdays = khard("birthdays", "--parsable")  # khard shows a yearless birthday in 1900
    assert "1988.06.12\tAna Sofia Ribeiro" in birthdays and "06.12\tΕλένη" in birthdays
    assert "11.03\tChidi Okafor" in birthdays
    assert "+351912345678" in khard("phone", "--parsable", "Ribeiro")


def test_a_card_without_uid_finds_a_contact_by_email_and_two_uids_stay_two_people(embedded_memory, tmp_path):
    interop.import_path(embedded_memory, FILES / "apple.vcf", now=NOW)
    google = tmp_path / "google.vcf"
    google.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Chidi Okafor\r\n"
        b"EMAIL;TYPE=INTERNET:chidi.okafor@example.co.uk\r\nTITLE:Surgeon\r\nEND:VCARD\r\n"
    )
    report = interop.import_path(embedded_memory, google, now=NOW)
    assert (report.created, report.updated) == (0, 1)
    (chidi,) = embedded_memory.list(Kind.CONTACT)
    assert (
        chidi.attrs["job_title"] == "Surgeon" and chidi.attrs["uid"] == "4F1C8A2E-0B7D-4E59-9C61-2A3B4C5D6E7F"
    )
    other = tmp_path / "work.vcf"
    other.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:0d3c2b1a-0000-4000-8000-000000000001\r\n"
        b"FN:Hospital reception\r\nEMAIL:chidi.okafor@example.co.uk\r\nEND:VCARD\r\n"
    )
    assert interop.import_path(embedded_memory, other, now=NOW).created == 1


def test_attrs_given_as_objects_are_never_written_as_a_python_repr():
    attrs = {
        "name": "Rui Costa",
        "emails": [{"value": "rui@example.com"}, "rui@work.example"],
        "tags": [{"name": "family"}, "friends"],
        "urls": {"home": "https://rui.example"},
    }
    text = vcard.from_attrs(attrs, uid="rui", version="4.0")
    assert "{" not in text and "'" not in text, text
    assert "EMAIL:rui@work.example" in text and "CATEGORIES:friends" in text


def _book_with_a_photo(photo_bytes: int, contacts_around: int = 50) -> bytes:
    """An address book as phones write it: `contacts_around` small cards and one with an inline
    JPEG of `photo_bytes` (base64, folded at 75 octets)."""
    raw = random.Random(7).randbytes(photo_bytes)
    encoded = base64.b64encode(raw).decode("ascii")
    folded = "\r\n ".join(encoded[i : i + 74] for i in range(0, len(encoded), 74))
    cards = [
        f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person {i}\r\nTEL:+35191000{i:04d}\r\nEND:VCARD\r\n"
        for i in range(contacts_around)
    ]
    photo = (
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Photo Person\r\nEMAIL:photo@example.org\r\n"
        f"PHOTO;ENCODING=b;TYPE=JPEG:{folded}\r\nEND:VCARD\r\n"
    )
    cards.insert(contacts_around // 2, photo)
    return "".join(cards).encode("ascii")


def test_a_big_photo_imports_with_its_book_and_stays_out_of_the_search_text(memory, tmp_path):
    book = tmp_path / "book.vcf"
    book.write_bytes(_book_with_a_photo(800 * 1024))
    report = interop.import_path(memory, book, now=NOW)
    assert (report.created, report.skipped) == (51, [])
    found = contacts(memory)
    assert len(found) == 51
    assert found["Photo Person"].attrs["photo"].startswith("data:image/jpeg;base64,")
    with memory.store.reading(memory.identity) as cur:
        cur.execute(
            "SELECT tsvector_to_array(tsv) AS lexemes FROM neurons WHERE id = %s",
            (found["Photo Person"].id,),
        )
        lexemes = set(cur.fetchone()["lexemes"])
    # its name and e-mail, none of the photo
    assert {"photo", "person", "photo@example.org"} <= lexemes and len(lexemes) < 10


def test_a_card_over_the_limit_is_skipped_with_its_reason_and_the_rest_imported(memory, tmp_path):
    book = tmp_path / "book.vcf"
    book.write_bytes(_book_with_a_photo(3 * 1024 * 1024))
    report = interop.import_path(memory, book, now=NOW)
    assert report.created == 50
    ((skipped,),) = [report.skipped]
    assert skipped["item"].startswith("card at line") and "Photo Person" in skipped["item"]
    assert skipped["why"].startswith("it is 4.2 MB; the largest card Neurons imports is 2.4 MB")
    assert "Photo Person" not in contacts(memory)


def _changed_by_the_person(memory, tmp_path, rev: str | None):
    """Ana's number changed by a capture the person accepted, then a card with the old number."""
    ana = memory.capture("Ana Silva +351 912 345 678 ana.silva@example.org", kind="contact")
    assert memory.get(ana.id).attrs["emails"] == ["ana.silva@example.org"]
    text = "Ana's new number is +351 966 000 111"
    memory.capture(text, accept=memory.preview(text).updates)
    assert memory.get(ana.id).attrs["phones"] == ["+351 966 000 111"]
    card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Silva\r\nTEL;TYPE=CELL:+351 912 345 678\r\n"
    card += (
        "EMAIL:ana.silva@example.org\r\nTITLE:Architect\r\n"
        + (f"REV:{rev}\r\n" if rev else "")
        + "END:VCARD\r\n"
    )
    (tmp_path / "google.vcf").write_text(card)
    return ana, interop.import_path(memory, tmp_path / "google.vcf")


def test_an_older_card_never_brings_back_a_number_the_person_changed(memory, tmp_path):
    ana, report = _changed_by_the_person(memory, tmp_path, rev="20200101T000000Z")
    card = memory.get(ana.id)
    assert card.attrs["phones"] == ["+351 966 000 111"]  # the person's, not the file's
    assert card.attrs["job_title"] == "Architect"  # what else the card says is taken
    assert "phone" in report.text() and "changed here after the file was written" in report.text()
    assert report.to_json()["kept"][0]["item"] == "Ana Silva"


def test_a_newer_card_replaces_a_number_the_person_changed_before_it(memory, tmp_path):
    ana, _report = _changed_by_the_person(memory, tmp_path, rev="20990101T000000Z")
    assert memory.get(ana.id).attrs["phones"] == ["+351912345678"]


def test_a_card_of_unknown_age_keeps_both_numbers_and_says_so(memory, tmp_path):
    ana, report = _changed_by_the_person(memory, tmp_path, rev=None)
    assert memory.get(ana.id).attrs["phones"] == ["+351 966 000 111", "+351912345678"]
    assert "kept both" in report.text() and "does not say when it was written" in report.text()


def test_how_a_card_was_written_stays_out_of_the_search_text(memory, tmp_path):
    book = tmp_path / "book.vcf"
    book.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:4.0\r\nPRODID:-//Zyxwvu Phone//EN\r\nFN:Written Person\r\n"
        b"TEL;TYPE=cell:912 345 678\r\nEMAIL;TYPE=INTERNET:written@example.org\r\nEND:VCARD\r\n"
    )
    assert interop.import_path(memory, book, now=NOW).created == 1
    person = contacts(memory)["Written Person"]
    assert "Zyxwvu" in str(person.attrs["vcard_written"])  # kept, to write the card back as it came
    with memory.store.reading(memory.identity) as cur:
        cur.execute("SELECT tsvector_to_array(tsv) AS lexemes FROM neurons WHERE id = %s", (person.id,))
        lexemes = set(cur.fetchone()["lexemes"])
    assert {"written", "person", "written@example.org"} <= lexemes
    assert "zyxwvu" not in lexemes and "phone" not in lexemes
