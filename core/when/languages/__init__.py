"""The languages Neurons reads dates in, one file each (core/when/language.py says what a file holds).

A new language is a new file here, with its `LANGUAGE`, and its name in the tuple below."""

from __future__ import annotations

from core.when.languages import de, en, es, fr, pt

LANGUAGES = (en.LANGUAGE, pt.LANGUAGE, es.LANGUAGE, de.LANGUAGE, fr.LANGUAGE)

__all__ = ["LANGUAGES"]
