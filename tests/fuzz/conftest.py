"""The fuzz suite (hypothesis): capture text, --attrs, the import format, the instance protocol,
backups, config.json and raw MCP lines (test_fuzz_files.py).

Properties, on real engines: no traceback (only a NeuronsError, whose message is for a person),
a refusal leaves the store exactly as it was, what is accepted reads back and exports. Examples
are derandomized so CI runs the same cases every time; the example counts keep the suite to a
few minutes.
"""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import HealthCheck, settings

from core.memory import Memory
from core.model import Identity

settings.register_profile(
    "neurons",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
settings.load_profile("neurons")


@pytest.fixture
def fresh(embedded_store):
    """A maker of empty memories (one fresh identity per hypothesis example) on the real store."""
    return lambda: Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False)


def snapshot(memory: Memory) -> str:
    """Everything the identity holds, as its export (without the time it was made)."""
    data = memory.export()
    data.pop("exported_at")
    return json.dumps(data, sort_keys=True, allow_nan=False)
