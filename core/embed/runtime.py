"""The lean embedding runtime: onnxruntime + tokenizers + numpy, nothing else.

This module must never import torch, transformers or sentence_transformers (a test checks it): the
desktop app ships only the exported ONNX model (see `core.embed.export`) and this code.

What it reproduces, exactly, is the sentence-transformers pipeline of the exported model, as its
manifest describes it: the model's prefix before the text ("query: " before a question, "passage: "
before what is stored, for e5; none for MiniLM), its tokenizer (truncation at max_seq_length tokens
incl. the special ones around the text, padding to the longest in a batch), transformer -> last
hidden state, mean pooling over the attention mask, L2 normalisation. The manifest also says the
band the model's cosines live in (`Embedder.calibration`, read by recall's fusion).

The default model is multilingual-e5-small (en, pt, es, de, fr and ~90 more languages); the previous
one, all-MiniLM-L6-v2 (English), still loads, so a store's old vectors are never compared with new ones
(every vector records its model's name, see `Embedder.name`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.embed.digests import Digests, stat_key
from core.embed.mapped import MappedTable, map_table
from core.model import NeuronsError
from core.settings import default_model_dir

log = logging.getLogger(__name__)

MODEL_NAME = "multilingual-e5-small"  # the default model
MINILM = "all-MiniLM-L6-v2"  # the model before it (English only)
MODELS = (MODEL_NAME, MINILM)
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 2
DIM = 384  # every model's width: the store's vectors are vector(384)
VARIANTS = {"fp32": "model.onnx", "int8": "model_int8.onnx"}
QUERY, PASSAGE = "query", "passage"  # what a text is to the model: a question, or what is stored

# Batching: sort by token length, then fill batches up to a token budget, between 8 and 32 texts.
MIN_BATCH = 8
MAX_BATCH = 32
TOKEN_BUDGET = MAX_BATCH * 64  # 32 texts of <= 64 tokens, 8 texts of 256 tokens

_HASH_CHUNK = 1 << 20


class ModelUnavailable(NeuronsError):
    """The embedding model is missing, incomplete or corrupt; semantic search is off until fixed."""


class ModelClosed(ModelUnavailable):
    """This loaded model was closed (let go when idle, or its Memory closed); get it again."""


def _fix_hint() -> str:
    return "re-create it with `python -m core.embed.export` (add --int8 for the int8 variant)"


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def read_manifest(model_dir: str | Path) -> dict[str, Any]:
    """The manifest of an exported model folder, or ModelUnavailable saying what is wrong."""
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        raise ModelUnavailable(f"the embedding model folder {model_dir} does not exist: {_fix_hint()}")
    path = model_dir / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelUnavailable(
            f"the embedding model in {model_dir} has no {MANIFEST}: {_fix_hint()}"
        ) from None
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise ModelUnavailable(
            f"the embedding model manifest {path} is unreadable ({e}): {_fix_hint()}"
        ) from None
    if (
        not isinstance(manifest, dict)
        or manifest.get("format") != MANIFEST_FORMAT
        or not isinstance(manifest.get("files"), dict)
        or manifest.get("model") not in MODELS
        or manifest.get("dim") != DIM
        or not isinstance(manifest.get("tokenizer"), dict)
    ):
        raise ModelUnavailable(
            f"the embedding model manifest {path} is not a manifest of format {MANIFEST_FORMAT} "
            f"of one of {', '.join(MODELS)}: {_fix_hint()}"
        )
    for rel, entry in manifest["files"].items():
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("sha256"), str)
            or not isinstance(entry.get("size"), int)
            or Path(rel).is_absolute()
            or ".." in Path(rel).parts
        ):
            raise ModelUnavailable(
                f"the embedding model manifest {path} has a bad entry {rel!r}: {_fix_hint()}"
            )
    external = manifest.get("external", [])
    listed = manifest["files"]
    if not isinstance(external, list) or not all(isinstance(r, str) and r in listed for r in external):
        raise ModelUnavailable(
            f"the embedding model manifest {path} names data files it does not list: {_fix_hint()}"
        )
    return manifest


def verify_files(
    model_dir: str | Path,
    manifest: dict[str, Any],
    names: Iterable[str] | None = None,
    *,
    full: bool = True,
    cached: bool = True,
    digests: Digests | None = None,
) -> None:
    """Check files against the manifest: presence and size always, sha256 when `full`.

    `cached` trusts a full hash `digests` knows (of this process, or recorded by an earlier
    one: core/embed/digests.py) while the file's stat is identical; otherwise the file is hashed
    again. A hash that matched is kept in `digests`, one that failed never is.
    Raises ModelUnavailable naming the first bad file.
    """
    model_dir = Path(model_dir)
    files = manifest["files"]
    for rel in names if names is not None else sorted(files):
        entry = files.get(rel)
        if entry is None:
            raise ModelUnavailable(f"the embedding model in {model_dir} does not list {rel}: {_fix_hint()}")
        path = model_dir / rel
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise ModelUnavailable(f"the embedding model file {path} is missing: {_fix_hint()}") from None
        except OSError as e:
            raise ModelUnavailable(
                f"the embedding model file {path} cannot be read ({e}): {_fix_hint()}"
            ) from None
        if size != entry["size"]:
            raise ModelUnavailable(
                f"the embedding model file {path} is corrupt (size {size}, "
                f"expected {entry['size']}): {_fix_hint()}"
            )
        if full:
            try:
                _check_digest(path, entry["sha256"], digests if cached else None, digests)
            except OSError as e:
                raise ModelUnavailable(
                    f"the embedding model file {path} cannot be read ({e}): {_fix_hint()}"
                ) from None
    if digests is not None:
        digests.save()


def _check_digest(path: Path, expected: str, trusted: Digests | None, keep: Digests | None) -> None:
    """The file's sha256 is `expected`: known from `trusted` for this very stat, or hashed in
    full (and kept in `keep` if it matched, and the file was not changed while it was read)."""
    key = stat_key(path)
    if trusted is not None and trusted.known(key) == expected:
        return
    digest = _sha256_file(path)
    if digest != expected:
        raise ModelUnavailable(f"the embedding model file {path} is corrupt (sha256 mismatch): {_fix_hint()}")
    if keep is not None and stat_key(path) == key:
        keep.matched(key, digest)


def _variant_file(manifest: dict[str, Any], model_dir: Path, variant: str) -> str:
    if variant not in VARIANTS:
        raise ModelUnavailable(
            f"unknown embedding model variant {variant!r}: use one of {', '.join(VARIANTS)}"
        )
    rel = (manifest.get("variants") or {}).get(variant)
    if not rel or rel not in manifest["files"]:
        how = (
            f"export it with `python -m core.embed.export --model {MINILM} --int8`"
            if manifest.get("model") == MINILM
            else f"{manifest.get('model')} has none (its weights are 4-bit already)"
        )
        raise ModelUnavailable(f"the {variant} variant of the embedding model is not in {model_dir}: {how}")
    return rel


def variant_name(variant: str, model: str = MODEL_NAME) -> str:
    """The model name stored beside each vector: a vector is only comparable to ones of the same name."""
    return model if variant == "fp32" else f"{model}-{variant}"


def runtime_files(manifest: dict[str, Any]) -> list[str]:
    """The files the runtime itself reads (besides the onnx of the chosen variant): the tokenizer's,
    and those beside the onnx that hold some of its tensors (e5's token table since recipe 3)."""
    spec = manifest["tokenizer"]
    if spec.get("kind") == "unigram":
        tokenizer = [spec["frame"], spec["trie"], spec["table"]]
    else:
        tokenizer = [spec.get("file", "tokenizer.json")]
    return [*tokenizer, *manifest.get("external", ())]


@dataclass(frozen=True)
class Calibration:
    """The band a model's cosines live in: `floor` reads as unrelated, `floor + span` as the same
    meaning. Recall's fusion reads every cosine through it (core/recall/ranking.py)."""

    floor: float = 0.0
    span: float = 1.0


def model_status(
    model_dir: str | Path | None = None, variant: str = "fp32", digests: Digests | None = None
) -> dict[str, Any]:
    """Is the model usable? Without loading it: manifest + sizes, and sha256 cached by file stat.

    Returns {"name", "sha256", "ready", "error"}; never raises for a broken or missing model.
    """
    if model_dir is None:
        model_dir = default_model_dir()
    model_dir = Path(model_dir)
    status: dict[str, Any] = {
        "name": variant_name(variant, _model_of(model_dir)) if variant in VARIANTS else variant,
        "sha256": None,
        "ready": False,
        "error": None,
    }
    try:
        manifest = read_manifest(model_dir)
        rel = _variant_file(manifest, model_dir, variant)
        status["sha256"] = manifest["files"][rel]["sha256"]
        verify_files(
            model_dir, manifest, [rel, *runtime_files(manifest)], full=True, cached=True, digests=digests
        )
    except ModelUnavailable as e:
        status["error"] = str(e)
        return status
    status["ready"] = True
    return status


def model_name(model_dir: str | Path, variant: str = "fp32") -> str:
    """The name the vectors of the model in `model_dir` are stored under, from its manifest alone
    (without verifying or loading it): what the filler looks for and a question compares with."""
    return variant_name(variant, _model_of(Path(model_dir)))


def _model_of(model_dir: Path) -> str:
    """The name of the model a folder holds, as far as its manifest says (the default's otherwise)."""
    try:
        return str(read_manifest(model_dir)["model"])
    except ModelUnavailable:
        return MODEL_NAME


@dataclass(frozen=True)
class _Batch:
    indices: np.ndarray  # positions in the caller's list
    ids: np.ndarray
    mask: np.ndarray
    type_ids: np.ndarray


class _Tokens:
    """A model's tokenizer: `encode(texts)` -> the ids of each text with the special tokens around
    them, truncated to max_seq_length as sentence-transformers truncates."""

    def __init__(self, encode):
        self.encode = encode


def _load_tokenizer(model_dir: Path, manifest: dict[str, Any], max_len: int) -> _Tokens:
    spec = manifest["tokenizer"]
    try:
        if spec.get("kind") == "unigram":
            from core.embed.unigram import UnigramTokenizer  # noqa: PLC0415 - loads with a model, not with the app

            unigram = UnigramTokenizer(model_dir, spec)
            bos, eos = int(spec["bos"]), int(spec["eos"])
            return _Tokens(lambda texts: [[bos, *unigram.ids(t)[: max_len - 2], eos] for t in texts])
        tok_path = model_dir / spec.get("file", "tokenizer.json")
        tok_bytes = tok_path.read_bytes()
        if hashlib.sha256(tok_bytes).hexdigest() != manifest["files"][tok_path.name]["sha256"]:
            raise ModelUnavailable(
                f"the embedding model file {tok_path} is corrupt (sha256 mismatch): {_fix_hint()}"
            )
        from tokenizers import Tokenizer  # noqa: PLC0415 - loads with a model, not with the app

        tokenizer = Tokenizer.from_str(tok_bytes.decode("utf-8"))
        # MiniLM's tokenizer.json ships truncation 128 and fixed padding 128; sentence-transformers
        # uses max_seq_length (256) and pads to the longest in the batch, which we do by hand.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_len, strategy="longest_first")
        return _Tokens(
            lambda texts: [e.ids for e in tokenizer.encode_batch(list(texts), add_special_tokens=True)]
        )
    except ModelUnavailable:
        raise
    except Exception as e:  # noqa: BLE001 - a file that reads but is not the tokenizer it should be
        raise ModelUnavailable(
            f"the tokenizer in {model_dir} cannot be loaded ({e}): {_fix_hint()}"
        ) from None


class Embedder:
    """A loaded model: `embed(texts)` -> (n, 384) float32, L2-normalised. Thread-safe.

    It owns the onnxruntime session and the mapped token table the session reads (its mapping,
    array and OrtValue). `close()` frees them in that order, at once or, with embeds in flight,
    as the last of them returns; an embed after it raises ModelClosed. Nothing waits for the
    garbage collector: the owner (SentenceModel) closes it when it lets it go."""

    def __init__(
        self,
        *,
        model_dir: Path,
        manifest: dict[str, Any],
        variant: str,
        session: Any,
        tokenizer: _Tokens,
        threads: int,
        table: MappedTable | None = None,
    ):
        self.model_dir = model_dir
        self.manifest = manifest
        self.variant = variant
        self.threads = threads
        self.max_seq_length = int(manifest["max_seq_length"])
        self.prefixes: dict[str, str] = {QUERY: "", PASSAGE: "", **(manifest.get("prefixes") or {})}
        self.calibration = Calibration(**(manifest.get("cosine") or {}))
        self._session = session
        self._table = table  # read by the session, so it outlives it (see close)
        self._tokenizer = tokenizer
        self._onnx = manifest["variants"][variant]
        self._input_names = {i.name for i in session.get_inputs()}
        self._guard = threading.Lock()  # over the three below
        self._running = 0  # embed() calls in flight
        self._closed = False
        self.last_used = time.monotonic()  # when an embed() last started or ended

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        threads: int = 1,
        variant: str = "fp32",
        digests: Digests | None = None,
        *,
        rehash: bool = True,
    ) -> Embedder:
        """Verify the exported model against its manifest and load it; ModelUnavailable if unusable.
        `rehash=False` trusts a sha256 `digests` knows while the file's stat is identical (a
        reload after the model was released, a start after one that hashed it)."""
        if model_dir is None:
            model_dir = default_model_dir()
        model_dir = Path(model_dir)
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int, not {threads!r}")
        manifest = read_manifest(model_dir)
        rel = _variant_file(manifest, model_dir, variant)
        max_len = manifest.get("max_seq_length")
        if not isinstance(max_len, int) or max_len < 2 or manifest.get("dim") != DIM:
            raise ModelUnavailable(
                f"the embedding model manifest in {model_dir} is inconsistent: {_fix_hint()}"
            )
        # A full sha256 of what we load (the onnx, the file beside it holding its token table,
        # the tokenizer's) unless `digests` knows it for the file's identical stat, then the onnx
        # is loaded by path: loaded from bytes, onnxruntime keeps a copy resident for good.
        checked = [rel, *runtime_files(manifest)]
        verify_files(model_dir, manifest, checked, full=True, cached=not rehash, digests=digests)
        tokenizer = _load_tokenizer(model_dir, manifest, max_len)

        import onnxruntime as ort  # noqa: PLC0415 - loads with a model, not with the app

        ort.disable_telemetry_events()  # and its events too (the package turned it off at load)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.log_severity_level = 3
        # A desktop app embeds in bursts: do not keep idle worker threads spinning on a core.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # No arena: it keeps the largest batch's activations for the life of the process; freed,
        # they go back to the system (core/resident.py).
        opts.enable_cpu_mem_arena = False
        # The token table stays in a mapping of the file (core/embed/mapped.py), not in memory
        # twice (docs/performance.md, "Why the settings").
        table = map_table(model_dir / rel, manifest.get("mapped") or ()) if variant == "fp32" else None
        if table is not None and table.file is not None and table.file not in checked:
            table.close()  # never a file the manifest does not vouch for
            raise ModelUnavailable(
                f"the embedding model {model_dir / rel} reads {table.file}, which its manifest "
                f"does not list: {_fix_hint()}"
            )
        if table is not None:
            for name, array in table.arrays.items():
                table.values[name] = ort.OrtValue.ortvalue_from_numpy(array)
                opts.add_initializer(name, table.values[name])
        try:
            session = ort.InferenceSession(
                str(model_dir / rel), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        except Exception as e:  # noqa: BLE001 - onnxruntime's own errors: a model file it cannot load
            if table is not None:
                table.close()
            raise ModelUnavailable(
                f"the embedding model {model_dir / rel} cannot be loaded ({e}): {_fix_hint()}"
            ) from None
        embedder = cls(
            model_dir=model_dir,
            manifest=manifest,
            variant=variant,
            session=session,
            tokenizer=tokenizer,
            threads=threads,
            table=table,
        )
        del session, table  # the embedder holds the only references: close() frees them
        if not {"input_ids", "attention_mask"} <= embedder._input_names:
            names = sorted(embedder._input_names)
            embedder.close()
            raise ModelUnavailable(f"the embedding model {model_dir / rel} has unexpected inputs {names}")
        return embedder

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Free the session, then the token table it reads (OrtValue, array, mapping). With an
        embed() in flight on another thread, that embed frees them as it returns. Idempotent."""
        with self._guard:
            self._closed = True
            if self._running:
                return
        self._free()

    def _free(self) -> None:
        with self._guard:
            session, self._session = self._session, None
            table, self._table = self._table, None
        if session is not None:
            alive = weakref.ref(session)
            del session
            held = alive()
            if held is not None:
                # Held elsewhere, against this class's contract: the table must outlive it, so it
                # goes with the session (its attributes are freed after the native session).
                log.error(
                    "the embedding session is still referenced after close(); its token "
                    "table stays mapped until it goes"
                )
                held._neurons_token_table = table
                return
        if table is not None:
            table.close()

    def _enter(self) -> Any:
        with self._guard:
            if self._closed:
                raise ModelClosed(
                    f"the embedding model {self.name} was closed (let go when idle "
                    "or with its memory): ask its SentenceModel for it again"
                )
            self._running += 1
            self.last_used = time.monotonic()
            return self._session

    def _leave(self) -> None:
        with self._guard:
            self._running -= 1
            self.last_used = time.monotonic()
            last = self._closed and not self._running
            if not last and self._table is not None:
                self._table.shed()  # the token table's rows just read go back (~1 us, refaulted cheaply)
        if last:
            self._free()

    @property
    def name(self) -> str:
        return variant_name(self.variant, self.manifest["model"])

    @property
    def sha256(self) -> str:
        return self.manifest["files"][self._onnx]["sha256"]

    @property
    def dim(self) -> int:
        return DIM

    def __repr__(self) -> str:
        return f"Embedder({self.name}, {self.model_dir}, threads={self.threads})"

    def _batches(self, texts: Sequence[str]) -> list[_Batch]:
        encodings = self._tokenizer.encode(texts)
        lengths = np.fromiter((len(e) for e in encodings), dtype=np.int64, count=len(encodings))
        order = np.argsort(-lengths, kind="stable")  # longest first: each batch pads to its first
        batches: list[_Batch] = []
        start = 0
        while start < len(order):
            longest = int(lengths[order[start]])
            size = max(MIN_BATCH, min(MAX_BATCH, TOKEN_BUDGET // max(longest, 1)))
            idx = order[start : start + size]
            ids = np.zeros((len(idx), longest), dtype=np.int64)
            mask = np.zeros((len(idx), longest), dtype=np.int64)
            type_ids = np.zeros((len(idx), longest), dtype=np.int64)
            for row, i in enumerate(idx):
                e = encodings[i]
                ids[row, : len(e)] = e
                mask[row, : len(e)] = 1
            batches.append(_Batch(idx, ids, mask, type_ids))
            start += size
        return batches

    def embed(self, texts: Sequence[str], kind: str = PASSAGE) -> np.ndarray:
        """(len(texts), 384) float32, each row L2-normalised: what is stored (`kind=PASSAGE`) or
        questions (`QUERY`), each behind the model's prefix for it. Empty and blank strings are fine."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings; use embed_one() for a single text")
        texts = list(texts)
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"embed() takes strings, item {i} is {type(t).__name__}")
        prefix = self.prefixes[kind]
        if prefix:
            texts = [prefix + t for t in texts]
        session = self._enter()  # ModelClosed after close(); until _leave, close() only marks it
        try:
            for b in self._batches(texts):
                feeds = {"input_ids": b.ids, "attention_mask": b.mask}
                if "token_type_ids" in self._input_names:
                    feeds["token_type_ids"] = b.type_ids
                hidden = session.run(None, feeds)[0]  # (batch, seq, 384)
                m = b.mask.astype(np.float32)[:, :, None]
                summed = (hidden * m).sum(axis=1)
                counts = np.clip(m.sum(axis=1), 1e-9, None)
                pooled = summed / counts
                norms = np.linalg.norm(pooled, axis=1, keepdims=True)
                out[b.indices] = pooled / np.clip(norms, 1e-12, None)
        finally:
            del session
            self._leave()
        return out

    def embed_one(self, text: str, kind: str = PASSAGE) -> np.ndarray:
        """(384,) float32, L2-normalised."""
        return self.embed([text], kind)[0]


__all__ = [
    "DIM",
    "MINILM",
    "PASSAGE",
    "QUERY",
    "Calibration",
    "MODEL_NAME",
    "Embedder",
    "ModelClosed",
    "ModelUnavailable",
    "model_name",
    "model_status",
    "read_manifest",
    "variant_name",
    "verify_files",
]
