"""End-to-end fixtures (the bundle's, which test_mcp_app uses too). The crash suite's counts are
printed at the end of the run by tests/conftest.py, which also gathers them from parallel workers."""

from __future__ import annotations

from tests.e2e.test_bundle import bare_env, bundle, offline  # noqa: F401 - test_mcp_app uses them too
