"""End-to-end fixtures: the crash suite's counts, printed at the end of the run."""

from __future__ import annotations

from tests.e2e.crash_counts import ACKED, KILLS, LOST
from tests.e2e.test_bundle import bare_env, bundle, offline  # noqa: F401 - test_mcp_app uses them too


def pytest_terminal_summary(terminalreporter):
    if not any(KILLS.values()):
        return
    parts = ", ".join(f"{who} {KILLS[who]}" for who in KILLS)
    terminalreporter.write_line(
        f"crash suite: {sum(KILLS.values())} kill -9s ({parts}); {sum(ACKED.values())} "
        f"acknowledged captures, {sum(LOST.values())} lost"
    )
