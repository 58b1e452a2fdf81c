"""kb/search/index.py corpus_hash: what an index on disk is checked against, so it must not change
with the way it is computed (an index built before would be refused and rebuilt)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search.index import corpus_hash


def _as_written(entries: list[Entry]) -> str:
    """corpus_hash's definition: one JSON line per entry of its id, kind and sorted (language, text)."""
    h = hashlib.sha256()
    for e in entries:
        texts = sorted({(Lang.EN.value, e.text)} | {(v.lang.value, v.text) for v in e.variants})
        h.update(json.dumps([e.id, e.kind.value, texts], ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


@pytest.mark.parametrize("seed", range(5))
def test_corpus_hash_is_its_definition_for_any_languages_and_characters(seed: int) -> None:
    rng = random.Random(seed)
    words = ["face-down", "verdeckt", "boca abajo", "“Morph”", "Æther", "ß", "\u2014", "\\", '"', "\t"]

    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))

    entries = [Entry(id=f"r-{i:04x}", kind=rng.choice(list(Kind)), text=text(), cards=(), first_date=None,
                     last_date=None,
                     variants=tuple(Variant(text=text(), original="", lang=rng.choice(list(Lang)), date=None,
                                            source="page.txt", line=1, relation=Relation.CANONICAL,
                                            similarity=1.0, card=None)
                                    for _ in range(rng.randint(0, 4))))
               for i in range(rng.randint(1, 60))]
    assert corpus_hash(entries) == _as_written(entries)
