"""The window's sections: their names, labels, titles and what each shows when empty."""

from __future__ import annotations

from core.model import Choice, Kind


class Section(Choice):
    """A list the window shows (the sidebar's rows; `ops.section` loads each)."""

    RESULTS = "results"  # the answers to the ask box
    MISSED = "missed"  # came due while Neurons was closed, or its notification closed unanswered
    OVERDUE = "overdue"
    UPCOMING = "upcoming"
    DONE = "done"
    NOTES = "notes"
    CONTACTS = "contacts"
    ARCHIVE = "archive"
    TRASH = "trash"


# (section, label, empty-state text); None marks a heading
SIDEBAR: list[tuple[Section, str, str] | tuple[None, str, str]] = [
    (Section.RESULTS, "Answers", "Nothing matches. Try other words, or fewer."),
    (Section.MISSED, "Missed", "Nothing was missed."),
    (None, "Reminders", ""),
    (Section.OVERDUE, "Overdue", "Nothing overdue. Well done."),
    (
        Section.UPCOMING,
        "Upcoming",
        "No reminders coming up.\nPress Ctrl+N and type “call Ana tomorrow at 10”.",
    ),
    (Section.DONE, "Done", "Nothing done yet."),
    (None, "Memory", ""),
    (Section.NOTES, "Notes", "No notes yet.\nPress Ctrl+N to capture a thought."),
    (
        Section.CONTACTS,
        "Contacts",
        "No contacts yet.\nCapture “Ana Lopes, ana@example.com” as a contact.",
    ),
    (Section.ARCHIVE, "Archive", "The archive is empty."),
    (Section.TRASH, "Trash", "The trash is empty."),
]
TITLES = {
    Section.RESULTS: "Answers",
    Section.MISSED: "Missed reminders",  # each row says why: closed, or its notification closed
    Section.OVERDUE: "Overdue",
    Section.UPCOMING: "Upcoming reminders",
    Section.DONE: "Done reminders",
    Section.NOTES: "Notes",
    Section.CONTACTS: "Contacts",
    Section.ARCHIVE: "Archive",
    Section.TRASH: "Trash",
}
# The kind a section lists (the others list any kind: by state, by id or by question).
SECTION_KIND = {
    Section.OVERDUE: Kind.REMINDER,
    Section.UPCOMING: Kind.REMINDER,
    Section.DONE: Kind.REMINDER,
    Section.NOTES: Kind.NOTE,
    Section.CONTACTS: Kind.CONTACT,
}
# The sections the View menu and Ctrl+1..7 go to, in order.
SECTION_KEYS = [k for k, _, _ in SIDEBAR if k is not None and k not in (Section.RESULTS, Section.MISSED)]
LABELS = {k: label for k, label, _ in SIDEBAR if k is not None}
EMPTY = {k: text for k, _, text in SIDEBAR if k is not None}  # what an empty list says
