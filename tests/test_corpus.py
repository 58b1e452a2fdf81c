"""Issue 16: one Corpus object reads the reference data, once, from one folder."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from kb.corpus import Corpus

REPO = Path(__file__).resolve().parent.parent


def test_only_the_corpus_object_resolves_the_corpus_folder() -> None:
    """No library module finds reference data on its own: `paths.corpus_dir()` is called by
    kb/corpus.py alone (and by kb/cards.py's regeneration script, not imported by the KB)."""
    callers = set()
    for path in sorted((REPO / "kb").rglob("*.py")) + sorted((REPO / "cli").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\bcorpus_dir\(\)", text.split('if __name__ == "__main__":')[0]):
            callers.add(path.relative_to(REPO).as_posix())
    assert callers <= {"kb/paths.py", "kb/corpus.py", "cli/common.py"}, callers


def test_two_corpora_do_not_share_what_they_read(tmp_path: Path) -> None:
    """A second corpus folder (a test's, a changed $KB_CORPUS) gets its own rules and glossary, not
    the first one's from a cache."""
    other = tmp_path / "corpus"
    shutil.copytree(REPO / "corpus" / "rules", other / "rules")
    text = (other / "rules" / "CR-20260116.txt").read_text(encoding="utf-8")
    old = text.split("708.2a ", 1)[1].split("\n", 1)[0]
    (other / "rules" / "CR-20260116.txt").write_text(text.replace(old, "Zebra quokka wombat narwhal okapi."),
                                                     encoding="utf-8")
    (other / "glossary.yaml").write_text("concepts:\n  - id: only-here\n    en: [quokka]\n", encoding="utf-8")
    bundled, mine = Corpus(REPO / "corpus"), Corpus(other)
    assert mine.current_rules.clauses["708.2a"].text.startswith("Zebra quokka")
    assert not bundled.current_rules.clauses["708.2a"].text.startswith("Zebra quokka")
    assert mine.match_clause("Zebra quokka wombat narwhal okapi.") == ("708.2a", 1.0)
    assert bundled.match_clause("Zebra quokka wombat narwhal okapi.") is None
    assert [c.id for c in mine.glossary.concepts] == ["only-here"]
    assert "only-here" not in {c.id for c in bundled.glossary.concepts}
    assert mine.glossary_digest == mine.glossary.digest != bundled.glossary_digest


def test_each_part_is_read_once_per_corpus() -> None:
    corpus = Corpus(REPO / "corpus")
    assert corpus.rules is corpus.rules and corpus.checks is corpus.checks and corpus.names is corpus.names
    assert corpus.current_rules is corpus.rules.current  # once the rules are read, not parsed again


def test_a_copy_of_the_names_table_leaves_the_corpus_table_as_it_is() -> None:
    from kb.model import Lang

    corpus = Corpus(REPO / "corpus")
    names = corpus.names.copy()
    names.add("Zebra Quokka", Lang.DE, "Zebra-Quokka")
    assert names.resolve("Zebra-Quokka") == "Zebra Quokka"
    assert corpus.names.resolve("Zebra-Quokka") is None


def test_the_cli_reads_the_corpus_kb_corpus_names_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli.common import reference

    monkeypatch.setenv("KB_CORPUS", str(REPO / "corpus"))
    first = reference()
    assert reference() is first  # one per command
    (tmp_path / "c").mkdir()
    monkeypatch.setenv("KB_CORPUS", str(tmp_path / "c"))
    assert reference().folder == tmp_path / "c"


def test_the_set_names_are_those_of_the_mtgjson_set_files_and_their_parts_after_a_colon(tmp_path: Path,
                                                                                         kb_home: Path) -> None:
    """review39 #5: `kb search` reads a set's name as no card's; the 2018 Oracle cards give only set codes."""
    folder = tmp_path / "corpus" / "mtgjson" / "v3"
    folder.mkdir(parents=True)
    (folder / "FRF.json").write_text('{"name": "Fate Reforged", "code": "FRF", "cards": []}', encoding="utf-8")
    (folder / "FRF.de.json").write_text('{"name": "Schicksalsschmiede", "cards": []}', encoding="utf-8")
    (folder.parent / "DSK.json").write_text('{"meta": {}, "data": {"name": "Duskmourn: House of Horror", "cards": []}}',
                                            encoding="utf-8")
    (folder.parent / "extract.json").write_text('{"source": "an extract", "cards": []}', encoding="utf-8")
    (folder.parent / "broken.json").write_text('{"name": "Broken", ', encoding="utf-8")
    names = Corpus(tmp_path / "corpus").set_names
    assert names == {"Fate Reforged", "Schicksalsschmiede", "Duskmourn: House of Horror", "House of Horror"}
    assert Corpus(tmp_path / "corpus").set_names == names  # from the cache
    assert "Murders at Karlov Manor" in Corpus.default().set_names


def _write_oracle(corpus: Path, *names: str) -> None:
    from kb.oracle import oracle_path

    path = oracle_path(corpus)
    path.parent.mkdir(parents=True, exist_ok=True)
    cards = [{"name": n, "type": "Creature — Test", "text": f"{n} does a thing."} for n in names]
    path.write_bytes(gzip.compress(json.dumps({"meta": {}, "cards": cards}).encode("utf-8")))


def test_the_oracle_cards_are_parsed_once_per_oracle_file_then_read_from_the_cache(
        tmp_path: Path, kb_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build read the Oracle file's JSON (~0.4 s of the index stage at 100k rulings): a second
    Corpus of the same file unpickles the cards the first parsed, and a changed file is parsed anew."""
    from kb import oracle

    corpus = tmp_path / "corpus"
    _write_oracle(corpus, "Zebra Quokka", "Wombat Narwhal")
    first = Corpus(corpus).oracle
    assert list(first.cards) == ["Zebra Quokka", "Wombat Narwhal"]

    def no_parse(folder: Path) -> None:
        raise AssertionError(f"the Oracle file of {folder} was parsed again")

    with monkeypatch.context() as mp:
        mp.setattr(oracle, "load_oracle", no_parse)
        again = Corpus(corpus).oracle
    assert again == first and again.get("wombat narwhal") is not None
    _write_oracle(corpus, "Okapi Lemur")
    assert list(Corpus(corpus).oracle.cards) == ["Okapi Lemur"]
