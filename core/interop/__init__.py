"""Formats in and out of a memory: the JSON export (json.py); vCard, iCalendar and Markdown beside it.

Each module only turns files into plain neurons and edges (and back); Memory does the writing.
"""
