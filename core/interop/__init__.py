"""Formats in and out of a memory: the JSON export (json.py); vCard (vcard.py), iCalendar
(ical.py) and a Markdown vault (markdown.py) beside it; files.py reads and writes paths.

Each format module only turns files into plain neurons and edges (and back); plan.py matches them
to what the memory holds, and Memory.apply_import does the writing in one transaction.
"""
