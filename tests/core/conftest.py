"""Fixtures of tests/core beyond the shared ones: the sync tests' CalDAV/CardDAV server and keyring."""

from tests.core.dav_server import hostile, kept, radicale, xandikos  # noqa: F401 - fixtures
