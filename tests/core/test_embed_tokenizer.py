"""The compact unigram tokenizer (core/embed/unigram.py) gives tokenizer.json's ids, on every language.

The reference is `tokenizers` itself reading the exported tokenizer.json (the one sentence-transformers
reads too), with its whole 250,002-piece vocabulary. The texts are others' as much as ours: the
Universal Declaration of Human Rights in 35 languages (tests/embed_corpus), the shared development
memories (LoCoMo's conversations, dev-personal), our held-out memories in five languages, the
vocabulary's own pieces glued together, and random Unicode.
"""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from core.embed.export import export_model
from core.embed.unigram import UnigramTokenizer
from core.settings import default_model_dir

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "eval"


@pytest.fixture(scope="module")
def model_dir() -> Path:
    return export_model(default_model_dir(), echo=None).out_dir


@pytest.fixture(scope="module")
def reference(model_dir):
    return Tokenizer.from_file(str(model_dir / "tokenizer.json"))


@pytest.fixture(scope="module")
def compact(model_dir) -> UnigramTokenizer:
    manifest = json.loads((model_dir / "manifest.json").read_text())
    return UnigramTokenizer(model_dir, manifest["tokenizer"])


def _same(reference, compact, texts: list[str]) -> None:
    want = [e.ids for e in reference.encode_batch(texts, add_special_tokens=False)]
    for text, ids in zip(texts, want, strict=True):
        assert compact.ids(text) == ids, f"{text[:80]!r}"


def _eval_texts(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        t
        for s in data["spaces"]
        for t in [n["text"] for n in s["neurons"]] + [q["text"] for q in s["queries"]]
    ]


def test_the_declaration_in_35_languages(reference, compact):
    lines = (ROOT / "tests" / "embed_corpus" / "udhr.txt").read_text(encoding="utf-8").splitlines()
    texts = [line.split(":", 1)[1] for line in lines if ":" in line]
    assert len({line.split(":")[0] for line in lines}) == 35
    _same(reference, compact, texts)
    # the same sentences decomposed (NFD, as some systems write accents) and in full-width forms
    _same(reference, compact, [unicodedata.normalize("NFD", t) for t in texts])
    _same(reference, compact, [t.upper() for t in texts] + [t.replace(" ", "  \t") for t in texts])


@pytest.mark.parametrize(
    "path",
    [
        SHARED / "locomo-dev.json",
        SHARED / "dev-personal.json",
        ROOT / "tests" / "eval" / "own-personal.json",
        ROOT / "tests" / "eval" / "multilingual.json",
        ROOT / "tests" / "eval" / "multilingual-meaning.json",
    ],
    ids=lambda p: p.stem,
)
def test_the_eval_memories(reference, compact, path):
    texts = _eval_texts(path)
    assert len(texts) > 50
    _same(reference, compact, texts)


def test_the_vocabulary_glued_together(reference, compact, model_dir):
    """Every 25th piece alone, and random runs of pieces written as one word or as words: the
    segmentation's choices and its ties, over the whole vocabulary."""
    vocab = json.loads(Tokenizer.from_file(str(model_dir / "tokenizer.json")).to_str())["model"]["vocab"]
    pieces = [p for p, _ in vocab]
    rng = random.Random(21)
    texts = [p.replace("▁", " ") for p in pieces[::25]]
    for _ in range(3000):
        run = rng.sample(pieces, rng.randint(2, 6))
        texts.append("".join(p.replace("▁", "") for p in run))
        texts.append("".join(p.replace("▁", " ") for p in run))
    _same(reference, compact, texts)


SPECIALS = ["<s>", "</s>", "<pad>", "<unk>", "<mask>"]


def test_special_tokens_and_odd_text(reference, compact):
    texts = [
        "",
        " ",
        "   ",
        "\t\n",
        "\x00",
        "\x07bell",
        "\u200b\u200b",
        "\ufeffbom",
        "\u2581\u2581 metaspace in the text",
        "<s>",
        "<s><s></s>",
        "a<s>b",
        " <mask> ",
        "x <pad>y</s >",
        "<unk> and <UNK>",
        "<<s>>",
        "ﬁ ﬀ ① ＡＢＣ ㋿ ～ ꟲ",
        "e\u0301 a\u0300 n\u0303 (combining)",
        "🏃‍♀️👨‍👩‍👧‍👦🇵🇹 emoji sequences",
        "\U0001f600" * 40,
        "x" * 2000,
        "ab " * 700,
        "日本語とEnglishとportuguês",
        "\ud7ff\ue000\uffff",
    ]
    texts += [f"{a}{b}" for a in SPECIALS for b in SPECIALS]
    _same(reference, compact, texts)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(
            st.text(min_size=0, max_size=40),
            st.text(alphabet=st.characters(codec="utf-8", categories=["L", "M", "N", "P", "Z"]), max_size=40),
            st.sampled_from(SPECIALS + [" ", "▁", "\u0301", "ß", "İ", "ﬁ"]),
        ),
        max_size=6,
    )
)
def test_random_unicode(reference, compact, parts):
    text = "".join(parts)
    _same(reference, compact, [text])
