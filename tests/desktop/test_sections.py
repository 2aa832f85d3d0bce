"""The sidebar's sections as one table: every Section has its row, title and empty text; the
View menu's sections each have their shortcut; a name said as a string still reads (StrEnum)."""

from __future__ import annotations

from desktop.items.sections import EMPTY, LABELS, SECTION_KEYS, SIDEBAR, TITLES, Section
from desktop.look import keys


def test_every_section_has_a_row_a_title_and_an_empty_text():
    rows = [key for key, _, _ in SIDEBAR if key is not None]
    assert sorted(rows) == sorted(Section) and len(rows) == len(set(rows))
    assert set(TITLES) == set(LABELS) == set(EMPTY) == set(Section)
    assert all(EMPTY[s] for s in Section)


def test_the_view_menus_sections_are_bound_in_the_keys_table_in_order():
    assert SECTION_KEYS == [
        Section.OVERDUE,
        Section.UPCOMING,
        Section.DONE,
        Section.NOTES,
        Section.CONTACTS,
        Section.ARCHIVE,
        Section.TRASH,
    ]
    bound = [k.name for k in keys.SHORTCUTS if k.name.startswith("section_")]
    assert bound == [f"section_{s}" for s in SECTION_KEYS]


def test_a_section_said_as_its_name_is_the_same_section():
    assert Section("notes") is Section.NOTES and Section.NOTES == "notes"
    assert TITLES["notes"] == TITLES[Section.NOTES]  # (keys hash as their values)


def test_the_window_goes_to_a_section_by_member_or_name(app, qtbot):
    app.window.show_section(Section.CONTACTS)
    assert app.window.section is Section.CONTACTS
    app.window.show_section("trash")
    assert app.window.section is Section.TRASH and app.window.list_title.text() == "Trash"
