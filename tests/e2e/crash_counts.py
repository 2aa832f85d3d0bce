"""What the crash suite and the kill tier did, for the summary line at the end of the run
(tests/conftest.py); the kill tier adds its operations (import, export, move-to, reindex, sync)."""

KILLS = {"cli": 0, "engine": 0, "app": 0}
ACKED = {"cli": 0, "engine": 0, "app": 0}
LOST = {"cli": 0, "engine": 0, "app": 0}
