"""Contacts in the window: rows show the primary phone and e-mail, to copy;
the card shows every field a vCard brought, one Phones and one Emails; a new number accepted
from a capture shows in the row and the card's text."""

from __future__ import annotations

import pathlib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from core.interop import vcard
from core.model import Kind
from desktop.detail import card
from desktop.look import theme
from tests.desktop.conftest import WAIT_MS, settle
from tests.desktop.test_window import open_detail, wait_rows

MARTA = {
    "name": "Marta Reis",
    "phones": ["+351 911 111 111", "+351 213 000 000"],
    "phone_labels": {"+351 911 111 111": "cell", "+351 213 000 000": "work"},
    "emails": ["marta@example.pt"],
    "org": "Câmara de Lisboa",
}


def row_of(window, neuron):
    return next(r for r in window.rows.rows() if r.neuron.id == neuron.id)


def test_rows_show_the_primary_phone_and_email_not_the_word_contact(app, embedded_memory, clock, qtbot):
    marta = embedded_memory.capture("Marta Reis", kind="contact", attrs=MARTA)
    rui = embedded_memory.capture("Rui Costa", kind="contact", attrs={"name": "Rui Costa"})
    window = app.window
    window.show_section("contacts", by_person=True)
    wait_rows(qtbot, window, lambda ids: str(marta.id) in ids and str(rui.id) in ids)
    sub, _ = theme.subtitle(row_of(window, marta).neuron, clock.now())
    assert "+351 911 111 111" in sub and "marta@example.pt" in sub and "213" not in sub
    assert theme.subtitle(row_of(window, rui).neuron, clock.now())[0] != "contact"
    window.set_question("Marta Reis")  # the answers' rows too
    qtbot.waitUntil(lambda: window.section == "results" and bool(window.rows.rows()), timeout=WAIT_MS)
    settle(qtbot, app)
    assert "+351 911 111 111" in theme.subtitle(row_of(window, marta).neuron, clock.now())[0]


def test_a_contact_rows_phone_and_email_can_be_copied(app, embedded_memory, qtbot):
    marta = embedded_memory.capture("Marta Reis", kind="contact", attrs=MARTA)
    window = app.window
    window.show_section("contacts", by_person=True)
    wait_rows(qtbot, window, lambda ids: str(marta.id) in ids)
    window.rows.setFocus()
    window.rows.select_id(str(marta.id))
    QApplication.clipboard().clear()
    qtbot.keyClick(window.rows, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "+351 911 111 111"
    menu = window.rows.copy_menu(window.rows.currentItem())
    texts = [a.text() for a in menu.actions()]
    assert texts == ["Copy phone +351 911 111 111", "Copy e-mail marta@example.pt"]
    menu.actions()[1].trigger()
    assert QApplication.clipboard().text() == "marta@example.pt"


def test_the_card_shows_every_imported_field_and_one_phones_and_one_emails(app, embedded_memory, qtbot):
    attrs = {
        **MARTA,
        "phone": "+351 911 111 111",  # an old single value beside the list: shown once
        "addresses": [
            {"street": "Rua Augusta 10", "locality": "Lisboa", "code": "1100-053", "label": "home"}
        ],
        "anniversary": "2012-06-09",
        "birthday": "1985-04-02",
        "job_title": "Architect",
        "urls": ["https://marta.example.pt"],
        "vcard_extra": ["X-SPOUSE:Rui Reis", "RELATED;TYPE=child:Inês Reis"],
    }
    marta = embedded_memory.capture("Marta Reis", kind="contact", attrs=attrs)
    open_detail(qtbot, app, marta)
    detail = app.window.detail
    labels = [
        detail.form.itemAt(row, detail.form.ItemRole.LabelRole).widget().text()
        for row in range(detail.form.rowCount())
        if detail.form.itemAt(row, detail.form.ItemRole.LabelRole) is not None
    ]
    assert labels.count("Phones") == 1 and labels.count("Emails") == 1
    assert "Phone" not in labels and "Email" not in labels
    assert detail._fields["phones"].text() == "+351 911 111 111, +351 21 300 0000"  # grouped as written there
    shown = " | ".join(w.text() for w in detail.form_host.findChildren(QLabel))
    for text in (
        "cell",
        "work",
        "Rua Augusta 10",
        "Lisboa",
        "Anniversary",
        "Architect",
        "Spouse",
        "Rui Reis",
    ):
        assert text in shown, text
    assert "Inês Reis" in shown and "X-SPOUSE" not in shown and "vcard_extra" not in shown


def test_a_new_number_shows_in_the_row_and_the_cards_text(app, embedded_memory, clock, qtbot):
    marta = embedded_memory.capture(
        "Marta Reis +351 911 111 111",
        kind="contact",
        attrs={"name": "Marta Reis", "phones": ["+351 911 111 111"]},
    )
    window = app.window
    window.show_section("contacts", by_person=True)
    wait_rows(qtbot, window, lambda ids: str(marta.id) in ids)
    open_detail(qtbot, app, marta)
    text = "Marta's new number is +351 912 000 999"
    embedded_memory.capture(text, accept=embedded_memory.preview(text).updates)
    qtbot.waitUntil(lambda: "912 000 999" in window.detail.body.toPlainText(), timeout=WAIT_MS)
    assert "911" not in window.detail.body.toPlainText()
    assert window.detail._fields["phones"].text() == "+351 912 000 999"
    qtbot.waitUntil(
        lambda: "+351 912 000 999" in theme.subtitle(row_of(window, marta).neuron, clock.now())[0],
        timeout=WAIT_MS,
    )
    assert row_of(window, marta).neuron.kind is Kind.CONTACT


def test_the_cards_extra_fields_read_as_words_on_other_projects_vcards():
    """Judged on the vCards of other projects (tests/corpus: Evolution, Outlook, Gmail, DAVx5,
    ez-vcard, khard...): every field the card shows has a label in words, never a vCard name."""
    said: dict[str, str] = {}
    files = sorted(pathlib.Path(__file__).parents[1].glob("corpus/**/*.vcf"))
    assert len(files) >= 20
    for path in files:
        for parsed in vcard.split_cards(path.read_bytes()):
            if isinstance(parsed, vcard.Skip):
                continue
            try:
                attrs = vcard.to_attrs(parsed)
            except vcard.Skip:  # a card the import skips too (no name): it shows nothing
                continue
            for label, text in card.rows(attrs):
                assert label[:1].isupper() and "X-" not in label and "_" not in label, (path, label)
                assert text.strip() and not text.startswith(("<", "BEGIN:")), (path, label)
                said.setdefault(label, text)
    for label in ("Spouse", "Manager", "Assistant", "Anniversary", "Address (home)", "Chat", "Job title"):
        assert label in said, label


def test_imported_numbers_read_as_people_write_them_in_their_region(
    app, embedded_memory, clock, qtbot, monkeypatch
):
    """An import keeps numbers in E.164 ("+351912345678"); rows and the card show them grouped,
    a number of this region as its people write it, another with its country code."""
    monkeypatch.setenv("NEURONS_PHONE_REGION", "PT")
    attrs = {"name": "Marta Reis", "phones": ["+351912345678", "+442079460958"]}
    marta = embedded_memory.capture("Marta Reis", kind="contact", attrs=attrs)
    assert theme.subtitle(marta, clock.now())[0] == "912 345 678"
    open_detail(qtbot, app, marta)
    detail = app.window.detail
    assert detail._fields["phones"].text() == "912 345 678, +44 20 7946 0958"
    assert not detail._differs()  # shown another way, not edited
    window = app.window
    window.show_section("contacts", by_person=True)
    wait_rows(qtbot, window, lambda ids: str(marta.id) in ids)
    window.rows.setFocus()
    window.rows.select_id(str(marta.id))
    qtbot.keyClick(window.rows, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "912 345 678"
