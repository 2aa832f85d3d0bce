"""XLM-R's unigram tokenizer, exactly as `tokenizers` runs it from the model's tokenizer.json, in a few MB.

`tokenizers` holds a 250,002-piece unigram vocabulary in a trie of hash maps: +267 MB resident, more
than the whole model. Here the pieces live in a marisa trie mapped read-only from the model folder
(`pieces.marisa`, ~1 MB), their ids and scores in one numpy table (`pieces.npy`, 2 MB), and the
rest of the pipeline -- the special tokens, the normaliser, the metaspace pre-tokenizer -- is run by
`tokenizers` itself from `tokenizer-frame.json`: tokenizer.json with its model left out. The best
segmentation of each word is found as `tokenizers` finds it (its `Unigram::encode_optimized`: the same
scores in float64, the same order of candidates, the same tie-breaking, the same fused unknowns), so
the ids are the same; the exporter checks that on a corpus before it publishes a model, and the
tests check it on every language's text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

FRAME = "tokenizer-frame.json"
TRIE = "pieces.marisa"
TABLE = "pieces.npy"
UNK_PENALTY = 10.0  # tokenizers' K_UNK_PENALTY: an unknown character scores the lowest piece minus this
_TABLE_DTYPE = np.dtype([("id", "<i4"), ("score", "<f4")])


def write(folder: Path, tokenizer_json: str) -> dict[str, Any]:
    """Write the three files of the compact tokenizer for `tokenizer_json` (a unigram tokenizer.json)
    into `folder`; returns the spec the manifest keeps (file names, special ids, longest piece)."""
    import marisa_trie  # noqa: PLC0415 - loaded with the model

    full = json.loads(tokenizer_json)
    model = full["model"]
    if model.get("type") != "Unigram" or model.get("byte_fallback"):
        raise ValueError("not a unigram tokenizer without byte fallback")
    vocab = model["vocab"]
    pieces = [p for p, _ in vocab]
    trie = marisa_trie.Trie(pieces)
    table = np.zeros(len(trie), dtype=_TABLE_DTYPE)
    for index, (piece, score) in enumerate(vocab):  # a piece given twice: tokenizers keeps the last
        key = trie.key_id(piece)
        table[key] = (index, score)
        if float(np.float32(score)) != score:
            raise ValueError(f"piece {piece!r}: score {score!r} is not a float32")
    trie.save(str(folder / TRIE))
    np.save(folder / TABLE, table, allow_pickle=False)
    specials = {t["content"]: t["id"] for t in full.get("added_tokens", [])}
    frame = dict(full)
    frame["model"] = {"type": "WordLevel", "vocab": specials, "unk_token": pieces[model["unk_id"]]}
    frame["post_processor"] = None
    frame["truncation"] = frame["padding"] = None
    (folder / FRAME).write_text(json.dumps(frame, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {
        "kind": "unigram",
        "frame": FRAME,
        "trie": TRIE,
        "table": TABLE,
        "unk": model["unk_id"],
        "longest_piece": max(len(p) for p in pieces),
    }


class UnigramTokenizer:
    """`ids(text)`: the token ids of tokenizer.json's pipeline, without the special tokens it adds
    around them (the caller adds and truncates, as for every model)."""

    def __init__(self, folder: Path, spec: dict[str, Any]):
        import marisa_trie  # noqa: PLC0415 - loaded with the model
        from tokenizers import Tokenizer  # noqa: PLC0415 - loaded with the model

        frame = Tokenizer.from_str((folder / spec["frame"]).read_text(encoding="utf-8"))
        self._normalizer = frame.normalizer
        self._pre = frame.pre_tokenizer
        specials = {t.content: i for i, t in frame.get_added_tokens_decoder().items() if t.special}
        if any(t.normalized for t in frame.get_added_tokens_decoder().values() if t.special):
            raise ValueError("special tokens matched after normalisation are not supported")
        self._specials = specials
        # the special tokens are found in the raw text first, longest first (none is a prefix of another)
        self._split = (
            re.compile("(" + "|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)) + ")")
            if specials
            else None
        )
        self._trie = marisa_trie.Trie()
        self._trie.mmap(str(folder / spec["trie"]))
        table = np.load(folder / spec["table"], allow_pickle=False)
        if table.dtype != _TABLE_DTYPE or len(table) != len(self._trie):
            raise ValueError("the piece table does not match the trie")
        self._ids = table["id"]
        self._scores = table["score"].astype(np.float64)
        self._unk = int(spec["unk"])
        self._unk_score = float(self._scores.min()) - UNK_PENALTY
        self._longest = int(spec["longest_piece"])

    def ids(self, text: str) -> list[int]:
        out: list[int] = []
        parts = self._split.split(text) if self._split is not None else [text]
        for i, part in enumerate(parts):
            if i % 2:  # a special token, as it was written
                out.append(self._specials[part])
            elif part:
                for word, _ in self._pre.pre_tokenize_str(self._normalizer.normalize_str(part)):
                    out += self._word(word)
        return out

    def _word(self, word: str) -> list[int]:
        """tokenizers' Unigram::encode_optimized over one pre-tokenized word, in characters."""
        n = len(word)
        best = [0.0] * (n + 1)
        start: list[int] = [-1] * (n + 1)  # where the best path to here starts its last token
        token: list[int] = [0] * (n + 1)  # that token's id (self._unk for an unknown character)
        trie, ids, scores, unk, longest = self._trie, self._ids, self._scores, self._unk, self._longest
        for i in range(n):
            here = best[i]
            single = False
            for piece, key in trie.iter_prefixes_with_ids(word[i : i + longest]):
                end = i + len(piece)
                score = here + scores[key]
                if start[end] < 0 or score > best[end]:
                    best[end], start[end], token[end] = score, i, int(ids[key])
                if end == i + 1:
                    single = True
            if not single:
                score = here + self._unk_score
                if start[i + 1] < 0 or score > best[i + 1]:
                    best[i + 1], start[i + 1], token[i + 1] = score, i, unk
        out: list[int] = []
        end = n
        while end > 0:
            tid = token[end]
            if not (tid == unk and out and out[-1] == unk):  # consecutive unknowns fuse into one
                out.append(tid)
            end = start[end]
        out.reverse()
        return out
