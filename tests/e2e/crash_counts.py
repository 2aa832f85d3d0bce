"""What the crash suite did, for the summary line at the end of the run (tests/conftest.py)."""

KILLS = {"cli": 0, "engine": 0, "app": 0}
ACKED = {"cli": 0, "engine": 0, "app": 0}
LOST = {"cli": 0, "engine": 0, "app": 0}
