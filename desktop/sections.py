"""The window's sections: their keys, labels, titles and what each shows when empty."""

from __future__ import annotations

from core.model import Kind

# (key, label, empty-state text); None marks a heading
SIDEBAR: list[tuple[str, str, str] | tuple[None, str, str]] = [
    ("results", "Answers", "Nothing matches. Try other words, or fewer."),
    ("missed", "Missed", "Nothing was missed."),
    (None, "Reminders", ""),
    ("overdue", "Overdue", "Nothing overdue. Well done."),
    ("upcoming", "Upcoming", "No reminders coming up.\nPress Ctrl+N and type “call Ana tomorrow at 10”."),
    ("done", "Done", "Nothing done yet."),
    (None, "Memory", ""),
    ("notes", "Notes", "No notes yet.\nPress Ctrl+N to capture a thought."),
    ("contacts", "Contacts", "No contacts yet.\nCapture “Ana Lopes, ana@example.com” as a contact."),
    ("archive", "Archive", "The archive is empty."),
    ("trash", "Trash", "The trash is empty."),
]
TITLES = {
    "results": "Answers",
    "missed": "Missed while Neurons was closed",
    "overdue": "Overdue",
    "upcoming": "Upcoming reminders",
    "done": "Done reminders",
    "notes": "Notes",
    "contacts": "Contacts",
    "archive": "Archive",
    "trash": "Trash",
}
# The kind a section lists (the others list any kind: by state, by id or by question).
SECTION_KIND = {
    "overdue": Kind.REMINDER,
    "upcoming": Kind.REMINDER,
    "done": Kind.REMINDER,
    "notes": Kind.NOTE,
    "contacts": Kind.CONTACT,
}
# The sections the View menu and Ctrl+1..7 go to, in order.
SECTION_KEYS = [k for k, _, _ in SIDEBAR if k not in (None, "results", "missed")]
LABELS = {k: label for k, label, _ in SIDEBAR if k}
