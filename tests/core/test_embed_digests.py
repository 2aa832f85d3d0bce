"""The model files' sha256 trusted across starts by their stat (core/embed/digests.py): a start
after one that hashed the real model reads none of its bytes to hash them; a file edited since,
its mtime put back, is hashed again and refused; a record that is garbled, too large, a link or
lying is not believed. Each SentenceModel here is a start: a new one, as a new process makes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core.embed import SentenceModel, runtime
from core.embed.digests import RECORD, RECORD_LIMIT
from core.settings import default_model_dir

MODEL = default_model_dir()
SHA = "0" * 64


@pytest.fixture
def record(tmp_path, monkeypatch) -> Path:
    """Neurons' cache dir (where the record lives) in the test's own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "neurons" / RECORD


@pytest.fixture
def hashed(monkeypatch) -> list[Path]:
    """The files whose bytes are read to hash them, in order."""
    files: list[Path] = []
    real = runtime._sha256_file
    monkeypatch.setattr(runtime, "_sha256_file", lambda path: files.append(path) or real(path))
    return files


def start(folder: Path = MODEL) -> SentenceModel:
    model = SentenceModel(folder)
    assert model.get() is not None, model.error
    model.close()
    return model


def test_a_second_start_does_not_hash_the_model_again(record, hashed):
    start()
    assert {p.name for p in hashed} >= {"model.onnx", "token_table.bin"}
    assert record.stat().st_mode & 0o777 == 0o600
    hashed.clear()
    start()
    assert hashed == []


def test_a_file_edited_since_is_hashed_again_even_with_its_mtime_put_back(record, hashed, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(MODEL, folder)
    start(folder)
    hashed.clear()
    start(folder)
    assert hashed == []  # trusted while nothing changed
    frame = folder / "tokenizer-frame.json"  # a file the runtime reads (e5's tokenizer)
    before = frame.stat()
    data = frame.read_bytes()
    frame.write_bytes(data[:-2] + b"  ")  # the same size
    os.utime(frame, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert frame.stat().st_mtime_ns == before.st_mtime_ns
    for _ in range(2):  # refused, and the failed hash is not recorded: refused again
        model = SentenceModel(folder)
        assert model.get() is None and "corrupt" in (model.error or "")
        assert frame in hashed
        hashed.clear()
    frame.write_bytes(data)  # put back as it was: trusted again only once hashed in full
    start(folder)
    assert frame in hashed


@pytest.mark.parametrize(
    "planted",
    ["garbled", "too large", "wrong types", "a wrong hash for the file's stat", "a link"],
)
def test_a_record_not_believed_means_the_full_hash(record, hashed, tmp_path, planted):
    start()
    entries = json.loads(record.read_text())["files"]
    if planted == "garbled":
        record.write_bytes(b'{"format": 1, "files": [{"path": ')
    elif planted == "too large":
        record.write_text(json.dumps({"format": 1, "files": entries, "pad": "x" * RECORD_LIMIT}))
    elif planted == "wrong types":
        for entry in entries:
            entry["size"] = str(entry["size"])
        record.write_text(json.dumps({"format": 1, "files": entries}))
    elif planted == "a wrong hash for the file's stat":
        for entry in entries:
            entry["sha256"] = SHA
        record.write_text(json.dumps({"format": 1, "files": entries}))
    else:
        elsewhere = tmp_path / "elsewhere.json"
        record.rename(elsewhere)
        record.symlink_to(elsewhere)
    hashed.clear()
    start()  # loads, hashing every file in full
    assert {p.name for p in hashed} >= {"model.onnx", "token_table.bin"}
    hashed.clear()
    start()  # the record written again, whole
    assert hashed == []
