"""Local sentence embeddings: the lean ONNX runtime and the background filler.

Importing this package loads only numpy (onnxruntime and tokenizers load with the model); the
exporter (`python -m core.embed.export`, needs torch) is deliberately not imported here.
"""

import os

# onnxruntime's telemetry keeps a device id under ~/.cache/Microsoft/DeveloperTools/ as soon as
# it is imported: off before any module of this package can import it (Neurons writes nothing
# outside its data dir, its config and its cache, and sends nothing anywhere)
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

from core.embed.model import SentenceModel
from core.embed.runtime import (
    DIM,
    MINILM,
    MODEL_NAME,
    PASSAGE,
    QUERY,
    Calibration,
    Embedder,
    ModelUnavailable,
    model_name,
    model_status,
    variant_name,
)
from core.embed.worker import EmbeddingFiller

__all__ = [
    "DIM",
    "MINILM",
    "MODEL_NAME",
    "PASSAGE",
    "QUERY",
    "Calibration",
    "Embedder",
    "EmbeddingFiller",
    "ModelUnavailable",
    "SentenceModel",
    "model_name",
    "model_status",
    "variant_name",
]
