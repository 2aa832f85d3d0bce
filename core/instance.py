"""Talking to a running Neurons app over its local socket (no Qt here: the CLI uses it too).

Contract: `forward_capture(data_dir, text, kind, attrs) -> dict | None` returns the saved neuron's
JSON when a running instance took the capture, None when no instance runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def forward_capture(data_dir: Path, text: str, kind: str | None,
                    attrs: dict[str, Any] | None) -> dict[str, Any] | None:
    return None
