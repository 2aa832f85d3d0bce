"""Capture that understands: kinds, due dates, contacts, mentions, same_person and supersedes."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType

from core import capture
from core.capture.names import NameIndex
from core.model import InvalidInput, Kind, Relation
from core.remind import Series
from core.when import find_when
from tests.core.engine_trace import statements_sent

LONDON = ZoneInfo("Europe/London")
# Wednesday 11 June 2025, 19:30 in London
NOW = datetime(2025, 6, 11, 19, 30, tzinfo=LONDON)


# -- dates (pure) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, due, rrule",
    [
        ("remind me to call Ana tomorrow at 3", datetime(2025, 6, 12, 15, 0), None),
        ("dentist Thu 9:30", datetime(2025, 6, 12, 9, 30), None),
        ("pay rent every 1st", datetime(2025, 7, 1, 9, 0), "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("bins out every Tuesday 7pm", datetime(2025, 6, 17, 19, 0), "FREQ=WEEKLY;BYDAY=TU"),
        ("call Mum tonight", datetime(2025, 6, 11, 20, 0), None),
        ("Anj's birthday 27 June", datetime(2025, 6, 27, 9, 0), "FREQ=YEARLY"),
        ("renew passport 3 March", datetime(2026, 3, 3, 9, 0), None),
        ("standup at 10:15am", datetime(2025, 6, 12, 10, 15), None),
        ("water plants in 3 days", datetime(2025, 6, 14, 9, 0), None),
    ],
)
def test_due_dates(text, due, rrule):
    when = find_when(text, NOW)
    assert when is not None, text
    assert when.due == due.replace(tzinfo=LONDON)
    assert when.due.utcoffset() is not None
    assert when.rrule == rrule


def test_no_date_in_plain_text():
    assert find_when("the boiler is losing pressure again", NOW) is None
    assert find_when("you may want to read it", NOW) is None


def test_occurrences_of_a_recurring_reminder():
    start = datetime(2024, 6, 25, 9, tzinfo=LONDON)
    yearly = Series("FREQ=YEARLY", LONDON)  # the one engine reminders and questions share
    assert list(yearly.between(NOW, NOW + timedelta(days=30), due=start)) == [
        datetime(2025, 6, 25, 9, tzinfo=LONDON)
    ]
    assert list(yearly.between(NOW, NOW + timedelta(days=5), due=start)) == []


# -- kinds -----------------------------------------------------------------------------------------


def test_kinds_are_inferred(memory):
    r = memory.capture("remind me to call Ana tomorrow at 3", created_at=NOW)
    assert r.kind is Kind.REMINDER
    due = datetime.fromisoformat(r.attrs["due_at"])
    assert due == datetime(2025, 6, 12, 15, 0, tzinfo=LONDON) and due.utcoffset() is not None
    rent = memory.capture("pay rent every 1st", created_at=NOW)
    assert rent.kind is Kind.REMINDER and rent.attrs["rrule"] == "FREQ=MONTHLY;BYMONTHDAY=1"
    c = memory.capture("Ana Silva +351 912 345 678 ana@example.com")
    assert c.kind is Kind.CONTACT
    assert c.attrs == {"name": "Ana Silva", "phones": ["+351 912 345 678"], "emails": ["ana@example.com"]}
    n = memory.capture("the boiler is losing pressure again, topped it up twice")
    assert n.kind is Kind.NOTE and n.attrs == {}
    long_note = memory.capture(
        "Dad's knee op is 11 April at Leicester General. Mum wants me up "
        "there the weekend after, to help out around the house",
        created_at=NOW,
    )
    assert long_note.kind is Kind.NOTE


def test_the_person_overrides(memory):
    n = memory.capture("dentist Thu 9:30", kind="note")
    assert n.kind is Kind.NOTE
    r = memory.capture(
        "dentist Thu 9:30", kind="reminder", attrs={"due_at": "2025-07-01T08:00:00+01:00"}, created_at=NOW
    )
    assert r.attrs["due_at"] == "2025-07-01T08:00:00+01:00"


# -- mentions --------------------------------------------------------------------------------------


def _edges(memory, neuron, relation):
    return [e for e in memory.edges(neuron.id) if e.relation is relation and e.from_id == neuron.id]


def test_mentions_link_to_contacts(memory):
    graham = memory.capture(
        "Graham Pike landlord", kind="contact", attrs={"name": "Graham Pike", "aliases": ["the landlord"]}
    )
    drk = memory.capture(
        "Dr Hana Kowalczyk - GP", kind="contact", attrs={"name": "Hana Kowalczyk", "aliases": ["Dr K"]}
    )
    for text in (
        "boiler losing pressure, tell Graham",
        "email the landlord about it",
        "ask Grahm about the deposit",
        "Graham Pike says the rent goes up",
    ):
        n = memory.capture(text)
        edges = _edges(memory, n, Relation.CONCERNS)
        assert [e.to_id for e in edges] == [graham.id], text
        assert edges[0].derived_by == capture.DERIVED_MENTION
    n = memory.capture("Dr K rings between 10 and 12", kind="note")
    assert [e.to_id for e in _edges(memory, n, Relation.CONCERNS)] == [drk.id]
    n = memory.capture("Dr Kowalczyk ordered bloods")
    assert [e.to_id for e in _edges(memory, n, Relation.CONCERNS)] == [drk.id]
    guy = memory.capture("Guy Moreau", kind="contact", attrs={"name": "Guy Moreau"})
    n = memory.capture("Dr Guy says rest the knee")
    assert [e.to_id for e in _edges(memory, n, Relation.CONCERNS)] == [guy.id]
    plain = memory.capture("grahamstown is far away")  # no word boundary match, no capital typo
    assert _edges(memory, plain, Relation.CONCERNS) == []
    quiet = memory.capture("tell Graham", derive=False)
    assert memory.edges(quiet.id) == []


def test_shared_first_name_is_not_linked(memory):
    memory.capture("Dan Kerr", kind="contact", attrs={"name": "Dan Kerr"})
    memory.capture("Dan Brown", kind="contact", attrs={"name": "Dan Brown"})
    n = memory.capture("Dan has a car")
    assert _edges(memory, n, Relation.CONCERNS) == []
    k = memory.capture("Dan Kerr has a car")
    assert len(_edges(memory, k, Relation.CONCERNS)) == 1


def test_name_index_forms():
    ids = [uuid.uuid4() for _ in range(3)]
    index = NameIndex(
        [
            (ids[0], {"name": "Sue Whitfield", "aliases": ["Jonah's mum"]}, ""),
            (ids[1], {"name": "Jonah Whitfield", "aliases": ["J"]}, ""),
            (ids[2], {"name": "Will Smith"}, ""),
        ]
    )
    assert [f.contact_id for f in index.find("Jonah's mum is coeliac")] == [ids[0]]
    assert [f.contact_id for f in index.find("J's birthday dinner")] == [ids[1]]
    assert index.find("j is a letter") == []
    assert index.find("I will call") == []  # a common word in lower case
    assert [f.contact_id for f in index.find("Will called")] == [ids[2]]


def test_a_name_in_the_genitive_names_its_person_when_the_memory_knows_the_name():
    """German (and Dutch, Scandinavian) write the genitive as -s with no apostrophe, and after
    an s only the apostrophe: "Anas Nummer", "Klaus Webers Adresse", "Klaus' Handy". The name
    is read when it is one of this memory's, the word itself is not, and it is no everyday word."""
    ana, klaus, andreas, bill = (uuid.uuid4() for _ in range(4))
    index = NameIndex(
        [
            (ana, {"name": "Ana Silva"}, ""),
            (klaus, {"name": "Klaus Weber"}, ""),
            (andreas, {"name": "Andreas Roth"}, ""),
            (bill, {"name": "Bill Evans"}, ""),
        ]
    )

    def named(text: str) -> list[uuid.UUID]:
        return [f.contact_id for f in index.find(text) if f.strength >= 2]

    assert named("Anas Telefonnummer") == [ana]
    assert named("Ana Silvas Nummer") == [ana]
    assert named("Klaus Webers Adresse") == [klaus]
    assert named("Klaus' Handynummer") == [klaus]
    assert named("Andreas Geburtstag") == [andreas]  # a name of its own, not Andrea's
    assert named("Bills to pay") == []  # an everyday word's plural
    assert named("anas in lower case") == []
    assert named("Silvas Laden") == []  # a surname alone is no name here


def test_a_role_the_card_gives_names_its_one_person_after_a_possessive_or_an_article():
    """ "mi jefe" for "Carlos Ruiz - jefe", "o meu contabilista" for the alias "o contabilista",
    "der Klempner" for "Jan Wolf (Klempner)"; a role of more than one word makes none, a role
    two people share names neither, and a role said without "my" or an article names nobody."""
    carlos, paulo, jan, rocio, ana, rui = (uuid.uuid4() for _ in range(6))
    index = NameIndex(
        [
            (carlos, {"name": "Carlos Ruiz"}, "Carlos Ruiz - jefe"),
            (paulo, {"name": "Paulo Reis", "aliases": ["o contabilista"]}, ""),
            (jan, {"name": "Jan Wolf"}, "Jan Wolf (Klempner)"),
            (rocio, {"name": "Rocío Marín"}, "Rocío - la de contabilidad"),
            (ana, {"name": "Ana Lima"}, "Ana Lima - dentista"),
            (rui, {"name": "Rui Sá"}, "Rui Sá - dentista"),
        ]
    )

    def named(text: str) -> list[uuid.UUID]:
        return [f.contact_id for f in index.find(text) if f.strength >= 2]

    assert named("reunión con mi jefe") == [carlos]
    assert named("el jefe quiere el informe") == [carlos]
    assert named("o meu contabilista ligou") == [paulo]
    assert named("der Klempner kommt am Montag") == [jan]
    assert named("fui ao contabilista com os recibos") == [paulo]
    assert named("beim Klempner angerufen") == [jan]
    assert named("la contabilidad del mes") == []
    assert named("o dentista disse que sim") == []  # two of them
    assert named("jefe de cocina") == []


# -- same_person and supersedes --------------------------------------------------------------------


def test_same_person_offers(memory):
    oliver = memory.capture(
        "Oliver Brandt", kind="contact", attrs={"name": "Oliver Brandt", "aliases": ["Olly"]}
    )
    olly = memory.capture("Olly B (WhatsApp)", kind="contact", attrs={"name": "Olly B"})
    memory.capture("Ana Silva", kind="contact", attrs={"name": "Ana Silva", "phones": ["+351 912 345 678"]})
    memory.capture("Ana S", kind="contact", attrs={"name": "Ana S", "phones": ["912345678"]})
    memory.capture("Rebecca Adeyemi", kind="contact", attrs={"name": "Rebecca Adeyemi"})
    offers = memory.same_person_offers()
    pairs = {frozenset((o.a.title, o.b.title)): o.reason for o in offers}
    assert pairs == {
        frozenset(("Oliver Brandt", "Olly B")): "same first name and initial",
        frozenset(("Ana Silva", "Ana S")): "same phone number",
    }
    edge = memory.accept_same_person(oliver.id, olly.id)
    assert edge.relation is Relation.SAME_PERSON and edge.derived_by == capture.DERIVED_SAME_PERSON
    assert len(memory.same_person_offers()) == 1


def test_new_phone_supersedes_the_contact(memory):
    kostas = memory.capture(
        "Kostas plumber 07700 900455",
        kind="contact",
        attrs={"name": "Kostas Georgiou", "aliases": ["Kostas", "the plumber"]},
    )
    n = memory.capture("Kostas has a new number: 07700 900782. the 455 one is dead")
    assert n.kind is Kind.NOTE
    sup = _edges(memory, n, Relation.SUPERSEDES)
    assert [e.to_id for e in sup] == [kostas.id] and sup[0].derived_by == capture.DERIVED_NEW_DETAIL
    assert memory.get(kostas.id).state.value == "active"  # the old one is kept


def test_moved_appointment_supersedes_the_old_reminder(memory):
    old = memory.capture(
        "crown prep, Hoe Street Dental 25 Mar 8:40",
        kind="reminder",
        created_at=datetime(2025, 3, 4, 17, 35, tzinfo=LONDON),
    )
    new = memory.capture(
        "crown prep moved to Fri 28 Mar 15:15",
        kind="reminder",
        created_at=datetime(2025, 3, 10, 12, 10, tzinfo=LONDON),
    )
    assert [e.to_id for e in _edges(memory, new, Relation.SUPERSEDES)] == [old.id]
    offers = memory.supersede_offers(new.id)
    assert [o.b.id for o in offers] == [old.id]
    other = memory.capture("haircut moved to Saturday", created_at=NOW)
    assert _edges(memory, other, Relation.SUPERSEDES) == []


def test_an_accepted_update_brings_the_card_up_to_date(memory):
    ana = memory.capture("Ana Lima", kind="contact", attrs={"name": "Ana Lima", "phone": "+351 911 111 111"})
    text = "Ana's new number is +351 912 000 999"
    offered = memory.preview(text).updates
    assert [(u.contact_id, u.field, u.value) for u in offered] == [(ana.id, "phones", "+351 912 000 999")]
    note = memory.capture(text, accept=offered)
    card = memory.get(ana.id)
    assert card.attrs["phones"] == ["+351 912 000 999"] and "phone" not in card.attrs
    links = memory.neighbours(note.id)
    assert [(e.relation.value, n.id) for e, n in links] == [("concerns", ana.id)]  # not superseding it
    kept = [n for e, n in memory.neighbours(ana.id) if e.relation.value == "supersedes"]
    assert len(kept) == 1 and "+351 911 111 111" in kept[0].body
    answer = memory.ask("Ana Lima phone number")
    found = [r.neuron.id for r in answer]
    assert found.index(ana.id) < found.index(kept[0].id)  # the current card above the old number
    assert answer[found.index(kept[0].id)].why == "replaced by Ana Lima"


def test_an_update_the_text_does_not_offer_is_refused(memory):
    ana = memory.capture("Ana Lima", kind="contact", attrs={"name": "Ana Lima"})
    before = memory.count()
    offer = capture.Update(ana.id, "Ana Lima", "phones", "+351 900 000 000")
    with pytest.raises(InvalidInput, match="nothing was saved"):
        memory.capture("lunch with Ana", accept=[offer])
    assert memory.count() == before and "phones" not in memory.get(ana.id).attrs


def test_a_reminder_title_follows_an_edit_of_its_text(memory):
    r = memory.capture("remind me to stretch in 10 minutes")
    assert r.title == "Stretch"
    edited = memory.edit(r.id, text="remind me to water the plants in 10 minutes")
    assert edited.title == "Water the plants" and edited.attrs["due_at"] == r.attrs["due_at"]
    plain = memory.edit(r.id, text="water the plants")
    assert plain.title == "water the plants" and "title" not in plain.attrs
    own = memory.edit(r.id, text="remind me to call Bo at 5", attrs={**plain.attrs, "title": "Bo!"})
    assert own.title == "Bo!"


@pytest.mark.parametrize(
    ("body", "text", "after"),
    [
        ("Marta Reis +351 911 111 111", "Marta's new number is +351 912 000 999", "Marta Reis {}"),
        ("Marta Reis, mobile 911-111-111", "Marta's new number is +351 912 000 999", "Marta Reis, mobile {}"),
        ("Marta Reis (marta@old.pt)", "Marta's new email is marta@new.pt", "Marta Reis ({})"),
        ("Marta Reis", "Marta's new number is +351 912 000 999", "Marta Reis"),
    ],
)
def test_an_accepted_update_brings_the_cards_text_up_to_date_too(memory, body, text, after):
    """The card's text once said the old number while Phones had the new one."""
    field, old = ("emails", "marta@old.pt") if "email" in text else ("phones", "+351 911 111 111")
    marta = memory.capture(body, kind="contact", attrs={"name": "Marta Reis", field: [old]})
    offered = memory.preview(text).updates
    assert [u.contact_id for u in offered] == [marta.id]
    memory.capture(text, accept=offered)
    assert memory.get(marta.id).body == after.format(offered[0].value)


# -- phone numbers as each country writes them ------------------------------------------------------


def _example_numbers():
    """libphonenumber's own example numbers (its metadata's, not ours) for every region it knows,
    each in the region's national grouping, internationally and in E.164."""
    formats = (PhoneNumberFormat.NATIONAL, PhoneNumberFormat.INTERNATIONAL, PhoneNumberFormat.E164)
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE):
            example = phonenumbers.example_number_for_type(region, kind)
            if example is not None:
                for style in formats:
                    yield region, phonenumbers.format_number(example, style), example


def _e164(written: str, region: str) -> str:
    return phonenumbers.format_number(phonenumbers.parse(written, region), PhoneNumberFormat.E164)


def test_a_card_typed_with_any_regions_example_number_is_a_contact():
    missed = []
    cases = list(_example_numbers())
    for region, written, example in cases:
        attrs = capture.parse_contact(f"Ana Silva {written} ana.silva@example.org", region) or {}
        read = [_e164(p, region) for p in attrs.get("phones", [])]
        if read != [phonenumbers.format_number(example, PhoneNumberFormat.E164)]:
            missed.append((region, written))
    assert len(cases) > 1000 and missed == []


@pytest.mark.parametrize(
    ("region", "card", "number"),
    [
        ("ES", "Pilar Gómez +34 612 34 56 78 pilar@example.es", "+34612345678"),
        ("FR", "Claire Martin 06 12 34 56 78 claire@example.fr", "+33612345678"),
        ("PT", "Claire Martin +33 6 12 34 56 78", "+33612345678"),
        ("PT", "Oliver Reed +44 (0)20 7946 0958", "+442079460958"),
    ],
)
def test_numbers_as_europe_writes_them_make_a_contact_later_captures_link_to(
    memory, monkeypatch, region, card, number
):
    monkeypatch.setenv("NEURONS_PHONE_REGION", region)
    contact = memory.capture(card)
    assert contact.kind is Kind.CONTACT
    (written,) = contact.attrs["phones"]
    assert _e164(written, region) == number
    first = contact.attrs["name"].split()[0]
    later = memory.capture(f"lunch with {contact.attrs['name']} about the flat")
    assert [n.id for e, n in memory.neighbours(later.id) if e.relation is Relation.CONCERNS] == [contact.id]
    assert first in later.body


def test_dates_times_and_sums_are_not_phone_numbers():
    for text in (
        "on 31/12/2026 at 10:30",
        "paid 1 250 000 in 2026",
        "room 1204, 3-5 June",
        "on 2026-12-05",
        "am 05.06.2026",
    ):
        assert capture.parse_contact(f"Ana Silva {text}", "PT") is None
        assert capture.parse_contact(f"Ana Silva {text}", None) is None


def test_a_contact_typed_as_a_name_alone_is_named_so_its_card_has_one(memory):
    """ "Dr Okafor" saved as a contact (no number, no e-mail to read it by) is named by its text,
    so an exported card says who it is (FN:Dr Okafor, not an empty FN)."""
    from core.interop.vcard import from_attrs  # noqa: PLC0415 - only this test writes a card

    okafor = memory.capture("Dr Okafor", kind="contact")
    assert okafor.attrs["name"] == "Dr Okafor"
    card = from_attrs(okafor.attrs, uid=str(okafor.id), version="3.0")
    assert "FN:Dr Okafor" in card and "N:Okafor;;;Dr;" in card


def test_a_number_in_pairs_is_read_where_the_region_is_not_known(memory, monkeypatch):
    """A locale that names no country ("C.UTF-8") gives no numbering plan: digits in groups
    still make a number, pairs too ("06 12 34 56 78", as France writes them)."""
    monkeypatch.delenv("NEURONS_PHONE_REGION", raising=False)
    for name in ("LC_ALL", "LC_TELEPHONE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    contact = memory.capture("Camille Martin 06 12 34 56 78")
    assert contact.kind is Kind.CONTACT and contact.attrs["phones"] == ["06 12 34 56 78"]


# -- a capture's kind by its meaning ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "due"),
    [
        (
            "recoger el abrigo de invierno de la tintorería de la calle mayor el lunes a las 6 menos cuarto",
            datetime(2025, 6, 16, 17, 45),
        ),
        (
            "pick up the winter coat from the dry cleaner's on the high street on Monday at a quarter to 6",
            datetime(2025, 6, 16, 17, 45),
        ),
        (
            "levar o casaco de inverno à lavandaria da rua de cima na segunda-feira às 17h45 sem falta",
            datetime(2025, 6, 16, 17, 45),
        ),
    ],
)
def test_a_long_capture_with_a_clear_due_time_is_a_reminder(text, due):
    assert len(text.split()) > 12
    kind, attrs = capture.infer_kind(text, NOW)
    assert kind is Kind.REMINDER and datetime.fromisoformat(attrs["due_at"]) == due.replace(tzinfo=LONDON)


def test_a_long_capture_about_a_day_without_a_time_stays_a_note():
    text = "we talked about the trip to Porto on Monday and decided to book the hotel with the kids"
    assert capture.infer_kind(text, NOW)[0] is Kind.NOTE


@pytest.mark.parametrize("text", ["renew the domain on 31/12", "pay the gardener at the end of the month"])
def test_a_short_task_with_a_day_is_a_reminder(text):
    assert find_when(text, NOW) is not None  # the grammar reads both days (numeric dates, month ends)
    assert capture.infer_kind(text, NOW)[0] is Kind.REMINDER


@pytest.mark.parametrize(
    "text", ["Ana moved to Porto in May", "nasci em julho", "o meu aniversário é em agosto", "Umzug im Juli"]
)
def test_a_month_alone_does_not_make_a_note_a_reminder(text):
    """ "in May" is a date the grammar reads (the Due field, "remind me in July"), but a month alone
    is too loose to turn a short note into a reminder, or a yearly one on the 1st."""
    assert find_when(text, NOW) is not None
    assert capture.infer_kind(text, NOW) == (Kind.NOTE, {})
    kind, attrs = capture.infer_kind("remind me in July to renew the passport", NOW)
    assert kind is Kind.REMINDER and attrs["due_at"].startswith("2025-07-01T09:00")


def test_a_birthday_party_happens_once_a_birthday_every_year():
    kind, party = capture.infer_kind("Tom's birthday party on the 19th at 8pm", NOW)
    assert kind is Kind.REMINDER and "rrule" not in party
    assert datetime.fromisoformat(party["due_at"]) == datetime(2025, 6, 19, 20, 0, tzinfo=LONDON)
    assert capture.infer_kind("Tom's birthday on the 19th", NOW)[1]["rrule"] == "FREQ=YEARLY"
    assert capture.infer_kind("dinner every year on 19 June at 8pm", NOW)[1]["rrule"] == "FREQ=YEARLY"


def test_a_birthday_party_captured_as_a_reminder_happens_once(memory):
    party = memory.capture("Tom's birthday party on the 19th at 8pm", kind="reminder")
    assert party.attrs["due_at"] and "rrule" not in party.attrs


def test_a_new_contact_links_the_notes_that_mentioned_them_before(memory):
    lunch = memory.capture("lunch with Klaus Berger about the Hamburg office", created_at=NOW)
    coffee = memory.capture("coffee with Klaus on Friday", created_at=NOW)
    other = memory.capture("the Hamburg office moves in May", created_at=NOW)
    klaus = memory.capture("Klaus Berger +49 30 901820 klaus@example.de", created_at=NOW + timedelta(hours=1))
    assert klaus.kind is Kind.CONTACT
    mentions = {n.id: e for e, n in memory.neighbours(klaus.id) if e.relation is Relation.CONCERNS}
    assert set(mentions) == {lunch.id, coffee.id} and other.id not in mentions
    edge = mentions[lunch.id]
    assert edge.from_id == lunch.id and edge.derived_by == "capture:mention" and edge.valid_from is not None


def test_a_note_saying_only_she_is_about_the_person_the_capture_before_was_about(memory):
    helena = memory.capture(
        "Helena Costa", kind="contact", attrs={"name": "Helena Costa", "aliases": ["Mãe"]}, created_at=NOW
    )
    at = NOW + timedelta(days=1)
    named = memory.capture("A Mãe foi ao cardiologista, pediu um holter", created_at=at)
    pronoun = memory.capture("ela tem de voltar lá a 16 de setembro", created_at=at + timedelta(minutes=2))
    chained = memory.capture("she keeps the same pills for now", created_at=at + timedelta(minutes=5))
    for n in (pronoun, chained):
        edges = _edges(memory, n, Relation.CONCERNS)
        assert [e.to_id for e in edges] == [helena.id], n.body
        assert edges[0].derived_by == capture.DERIVED_REFERRED
    assert [e.derived_by for e in _edges(memory, named, Relation.CONCERNS)] == [capture.DERIVED_MENTION]
    # a pronoun a day after, a note with none, a note after one about two people: about nobody
    later = memory.capture("she wants to stop the tablets", created_at=at + timedelta(days=1))
    plain = memory.capture("the holter goes back on Monday", created_at=at + timedelta(days=1, minutes=1))
    rui = memory.capture("Rui Costa", kind="contact", attrs={"name": "Rui Costa"}, created_at=at)
    both = memory.capture("lunch with Rui and Helena", created_at=at + timedelta(days=2))
    after_both = memory.capture("he paid for it", created_at=at + timedelta(days=2, minutes=1))
    assert {e.to_id for e in _edges(memory, both, Relation.CONCERNS)} == {rui.id, helena.id}
    for n in (later, plain, after_both):
        assert _edges(memory, n, Relation.CONCERNS) == [], n.body


def test_a_first_name_two_contacts_share_links_no_earlier_note(memory):
    memory.capture("Klaus Meyer", kind="contact", attrs={"name": "Klaus Meyer"}, created_at=NOW)
    coffee = memory.capture("coffee with Klaus on Friday", created_at=NOW)
    berger = memory.capture("Klaus Berger klaus@example.de", created_at=NOW + timedelta(hours=1))
    assert coffee.id not in {n.id for _, n in memory.neighbours(berger.id)}


def test_a_contact_whose_name_reads_as_search_syntax_is_captured(memory):
    """Its earlier mentions are looked up by the name's words: a run of dashes, quotes or "or"
    is no query for the engine (a long run of negations overflowed its query stack)."""
    note = memory.capture('lunch with Ana "or" Silva', created_at=NOW)
    dashes = memory.capture("-" * 33, kind="contact", created_at=NOW)
    assert dashes.kind is Kind.CONTACT
    ana = memory.capture('-Ana "or" Silva-', kind="contact", created_at=NOW + timedelta(hours=1))
    assert note.id in {n.id for _, n in memory.neighbours(ana.id)}


# -- a changed value: a note that gives anew what an older note holds ------------------------------


@pytest.mark.parametrize(
    "older, newer, kind",
    [
        ("Lia babysat Saturday night, 10/h, paid cash", "Lia is 15 an hour now", "rate"),
        ("Gym membership is £32 a month", "Gym went up to £38 a month from April", "monthly"),
        ("Work desk moved to 4B on the third floor", "New desk is 5C, fourth floor, by the window", "place"),
        ("Maya's swimming is in Room 3 on Wednesdays", "Swimming moved to Room 1 from this week", "place"),
        ("Address: 14 Cedar Close, Leeds LS6 2AB", "Moved! now at 7 Willow Lane, Leeds LS8 1QT", "address"),
        ("Bin collection is on Tuesdays", "Council changed bin day to Thursday", "day"),
        ("Elm Road listed, asking price 450k", "Elm Road asking price lowered to 435k", "sum"),
        ("A Marta cobra 12€ por hora", "A Marta agora cobra 15€ à hora", "rate"),
        ("Lugar de estacionamento: piso -2, lugar 47", "Novo lugar de estacionamento: lugar 12", "place"),
        ("Renda da casa: 850€ por mês", "Renda da casa nova: 920€ por mês", "monthly"),
        ("house alarm code 2580# (the kids know it)", "New alarm code 7731# - told Rangi", "code"),
        ("código do portão da garagem: 4471", "novo código do portão: 9902, o condomínio mudou", "code"),
        ("Mortgage fixed at 6.89% with Lisa", "Lisa says the mortgage goes to 5.59% now", "percent"),
    ],
)  # fmt: skip
def test_a_note_giving_a_new_value_of_an_older_notes_fact_replaces_it(older, newer, kind):
    old = uuid.uuid4()
    change = capture.changed_from(newer, [(old, older)])
    assert change is not None and (change.older, change.kind) == (old, kind)


@pytest.mark.parametrize(
    "older, newer",
    [
        # no word says it changed: two facts, perhaps both true
        ("Rich says the O2 sensor, $380 with labor", "Rich: rear bumper + parking sensor $2,150"),
        # about something else
        ("Paid the window cleaner £20", "Spent £60 on the plumber, new tap"),
        # a sum shares too little to be the same thing
        ("Dinner with Ana, £40", "Drinks with Ana now, £30"),
        # the same value again
        ("Gym membership is £32 a month", "Gym is now £32 a month"),
        # another kind of value
        ("Renda da casa: 850€ por mês", "Mudámos de casa, para a Rua das Flores 22"),
        # a story, not a fact
        ("Lia babysat Saturday night, 10/h", "Lia is 15 an hour now " + "and we talked about school " * 6),
    ],
)
def test_a_note_that_does_not_change_an_older_value_replaces_nothing(older, newer):
    assert capture.changed_from(newer, [(uuid.uuid4(), older)]) is None


def test_a_changed_rate_supersedes_the_older_note_and_the_old_value_gives_way(memory):
    then = datetime(2026, 1, 10, 23, 30, tzinfo=LONDON)
    old = memory.capture("Lia babysat Saturday night, 10/h, paid cash", kind="note", created_at=then)
    memory.capture("Lia's bike is in the shed", created_at=then + timedelta(days=1))
    new = memory.capture("Lia is 15 an hour now", created_at=then + timedelta(days=70))
    sup = _edges(memory, new, Relation.SUPERSEDES)
    assert [(e.to_id, e.derived_by) for e in sup] == [(old.id, f"{capture.DERIVED_CHANGED}:rate")]
    assert sup[0].valid_from == new.created_at  # dated: when the new value was noted
    # the old value is kept, but gives way in answers
    answer = [r.neuron.id for r in memory.ask("how much does Lia charge per hour?", now=NOW)]
    assert answer[0] == new.id and answer.index(old.id) > answer.index(new.id)
    # and capture without deriving links none
    again = memory.capture("Lia is 20 an hour now", created_at=then + timedelta(days=90), derive=False)
    assert _edges(memory, again, Relation.SUPERSEDES) == []


def test_the_notes_a_change_looks_through_are_the_stores_found_in_the_index(memory):
    """A note giving a value anew looks for the older note among the active notes sharing the
    most of its words, newest first: found in the recall index while it is held (under a server's
    row-level security the store's text search scans the table), the same notes in the same
    order as the store's statement gives them."""
    then = datetime(2026, 1, 10, 9, 0, tzinfo=LONDON)
    texts = [
        "Lia babysat Saturday night, 10/h, paid cash",
        "Lia's bike is in the shed",
        "the shed key hangs by the back door",
        "Lia babysat again, 10/h",
        "paid the window cleaner in cash",
        "Lia left her scarf here",
    ]
    notes = [
        memory.capture(t, kind="note", created_at=then + timedelta(hours=k)) for k, t in enumerate(texts)
    ]
    memory.archive(notes[2].id)
    memory.trash(notes[5].id)
    memory.capture("ask Lia about the shed on Saturday", kind="reminder", created_at=then)
    memory.capture("Lia Moreno - babysitter", kind="contact", attrs={"name": "Lia Moreno"})
    memory.recall.names()  # the index held, as after any capture
    for text in (
        "Lia is 15 an hour now",
        "the shed key is in the cash box now",
        "Lia",
        "nothing shares this",
    ):
        from_index = [n.id for n in memory.recall.notes_sharing(text)]
        assert from_index == [n.id for n in memory.reader.active_notes_sharing(text)], text
    with statements_sent(memory.store) as sent:
        seen = memory.preview("Lia is 15 an hour now", kind="note", now=then + timedelta(days=70))
    assert seen.replaces == [(notes[3].id, f"{capture.DERIVED_CHANGED}:rate")]
    assert not [s for s in sent if "@@" in s], sent
