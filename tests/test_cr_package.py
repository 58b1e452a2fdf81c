"""kb/cr as a package: clause lineage on small made-up versions, and the disk cache of the aligned CR
across the move of its classes from kb/cr.py into modules of kb/cr/."""

from __future__ import annotations

import pickle
import pkgutil
from pathlib import Path

import pytest

import kb.cr
import kb.errors
from kb.cr.lineage import align
from kb.cr.load import cache_inputs, load_rules
from kb.cr.numbers import parent_of
from kb.cr.parse import Clause, GlossaryEntry, RulesVersion
from kb.cr.query import RulesCorpus
from kb.cr.text import similarity
from kb.store.cache import key_of
from kb.corpus import Corpus

CORPUS = Corpus.default()

TITLES = {"7": "Additional Rules", "708": "Face-Down Spells and Permanents", "708.2": "Face-down spells and "
          "permanents have no characteristics other than those listed by the ability or rules that allowed "
          "them to be face down."}
TURNED = "If a face-up permanent is turned face down by a spell or ability, it becomes a 2/2 face-down creature."


def version(date: str, texts: dict[str, str], complete: bool = True) -> RulesVersion:
    clauses = {n: Clause(n, t, (), parent_of(n), date) for n, t in texts.items()}
    return RulesVersion(date, clauses, {}, complete)


def same_rule(lineage: dict[tuple[str, str], int], a: tuple[str, str], b: tuple[str, str]) -> bool:
    return lineage[a] == lineage[b]


def test_a_section_moved_down_keeps_its_lineage_and_its_old_number_starts_a_new_one():
    old = version("2020-01-01", {**TITLES, "708.2a": TURNED})
    moved = {"709" if n == "708" else n.replace("708.", "709."): t for n, t in TITLES.items()}
    new = version("2021-01-01", {**moved, "709.2a": TURNED, "708": "Day and Night", "708.1": "Some permanents "
                                 "have a day side and a night side, and it becomes day or night as the game goes on."})
    lineage, members = align([old, new])
    for before, after in [("708", "709"), ("708.2", "709.2"), ("708.2a", "709.2a")]:
        assert same_rule(lineage, ("2020-01-01", before), ("2021-01-01", after))
    assert members[lineage[("2021-01-01", "708")]] == [("2021-01-01", "708")]  # a new rule: no past
    assert members[lineage[("2021-01-01", "708.1")]] == [("2021-01-01", "708.1")]


REWORDED = "A permanent that is face up and then turned face down is a 2/2 creature with no name or types."
UNRELATED = "Each player draws a card at the beginning of the game after mulligans are taken."


def test_a_reworded_clause_in_place_keeps_its_lineage_an_unrelated_one_does_not():
    assert 0.25 <= similarity(TURNED, REWORDED) < 0.5  # weak alone; accepted under the same parent
    assert similarity(TURNED, UNRELATED) < 0.25
    old = version("2020-01-01", {**TITLES, "708.2a": TURNED})
    reworded = version("2021-01-01", {**TITLES, "708.2a": REWORDED})
    replaced = version("2021-01-01", {**TITLES, "708.2a": UNRELATED})
    lineage, _ = align([old, reworded])
    assert same_rule(lineage, ("2020-01-01", "708.2a"), ("2021-01-01", "708.2a"))
    lineage, _ = align([old, replaced])
    assert not same_rule(lineage, ("2020-01-01", "708.2a"), ("2021-01-01", "708.2a"))


@pytest.mark.parametrize("middle_complete, alive", [(False, True), (True, False)])
def test_only_a_complete_version_ends_the_lineages_it_lacks(middle_complete, alive):
    other = "Whenever a face-down permanent is turned face up, its copiable values become its face-up values."
    first = version("2020-01-01", {**TITLES, "708.2a": TURNED, "708.2b": other})
    middle = version("2021-01-01", {**TITLES, "708.2a": TURNED}, complete=middle_complete)
    last = version("2022-01-01", {**TITLES, "708.2a": TURNED, "708.2b": other})
    lineage, _ = align([first, middle, last])
    assert same_rule(lineage, ("2020-01-01", "708.2b"), ("2022-01-01", "708.2b")) is alive


# --- the disk cache of load_rules ----------------------------------------------------------------

CR = """7. Additional Rules

708. Face-Down Spells and Permanents

708.2a If a face-up permanent is turned face down, it becomes a 2/2 creature.
"""


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "CR-20240101.txt").write_text(CR, encoding="utf-8")
    return tmp_path


def cache_file(corpus: Path) -> Path:
    """Where load_rules keeps its pickle for `corpus` (KB_HOME is a temp folder per test)."""
    from kb.paths import home

    return home() / "cache" / f"rules-{key_of(cache_inputs(corpus))}.pickle"


def test_the_rules_cache_is_keyed_by_every_module_of_the_package(corpus):
    """A change to any module (say the lineage code) must not read an alignment the old code made."""
    folder = Path(kb.cr.__file__).parent
    modules = {folder / f"{m.name}.py" for m in pkgutil.iter_modules(kb.cr.__path__)}
    assert {"lineage.py", "parse.py", "query.py"} <= {p.name for p in modules}
    assert modules | {Path(kb.cr.__file__)} <= set(cache_inputs(corpus))


def test_a_cache_pickled_when_the_classes_lived_in_kb_cr_py_still_loads(corpus, monkeypatch):
    """Before the split, the pickle named `kb.cr.RulesCorpus`, `kb.cr.Clause`...; kb.cr re-exports them."""
    marker = RulesCorpus(load_rules(corpus).versions, {("1999-01-01", "1"): 42}, {42: [("1999-01-01", "1")]})
    for cls in (RulesCorpus, RulesVersion, Clause, GlossaryEntry):
        monkeypatch.setattr(cls, "__module__", "kb.cr")
    data = pickle.dumps(marker, protocol=pickle.HIGHEST_PROTOCOL)
    monkeypatch.undo()
    assert b"kb.cr.parse" not in data and b"kb.cr.query" not in data
    cache_file(corpus).write_bytes(data)
    loaded = load_rules(corpus)
    assert type(loaded) is RulesCorpus and loaded.lineage == marker.lineage  # read, not recomputed


@pytest.mark.parametrize("module, name", [("kb.cr_gone", "RulesCorpus"), ("kb.cr", "OldRulesCorpus")])
def test_a_cache_naming_classes_that_no_longer_exist_is_recomputed(corpus, module, name):
    fresh = load_rules(corpus)
    cache_file(corpus).write_bytes(f"c{module}\n{name}\n(tR.".encode())  # protocol 0: GLOBAL, MARK, TUPLE, REDUCE
    loaded = load_rules(corpus)
    assert loaded.lineage == fresh.lineage and loaded.current.numbers() == ["7", "708", "708.2a"]
    assert pickle.loads(cache_file(corpus).read_bytes()).lineage == fresh.lineage  # and rewritten


def test_the_rules_and_the_clause_matcher_follow_kb_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: caches keyed by None kept the first corpus after KB_CORPUS changed."""
    repo = Path(__file__).resolve().parent.parent
    text = (repo / "corpus" / "rules" / "CR-20180713.txt").read_text(encoding="utf-8")
    old = text.split("707.2. ", 1)[1].split(chr(10), 1)[0]
    new = "Zebra quokka wombat platypus narwhal axolotl pangolin okapi tapir capybara."
    (tmp_path / "a" / "rules").mkdir(parents=True)
    (tmp_path / "a" / "rules" / "CR-20180713.txt").write_text(text, encoding="utf-8")
    (tmp_path / "b" / "rules").mkdir(parents=True)
    (tmp_path / "b" / "rules" / "CR-20180713.txt").write_text(text.replace(old, new), encoding="utf-8")
    quote = new
    seen = []
    for name in ("a", "b", "a"):
        monkeypatch.setenv("KB_CORPUS", str(tmp_path / name))
        corpus = Corpus.default()
        seen.append((corpus.rules.current.clauses["707.2"].text.startswith(new),
                     (corpus.match_clause(quote) or ("",))[0] == "707.2"))
    assert seen == [(False, False), (True, True), (False, False)]


def test_the_current_cr_is_parsed_once_then_read_from_the_cache(corpus, monkeypatch):
    """`kb show` read the current CR (for its links' texts) by parsing the whole text on every call."""
    import kb.cr.load as load

    first = load.load_current(corpus)

    def unparsed(text: str, date: str) -> RulesVersion:
        raise AssertionError("the current CR was parsed again")

    monkeypatch.setattr(load, "parse_rules", unparsed)
    again = load.load_current(corpus)
    assert again.numbers() == first.numbers() and again.clauses["708.2a"].text == first.clauses["708.2a"].text
    (corpus / "rules" / "CR-20240101.txt").write_text(CR.replace("708.2a", "708.2b"), encoding="utf-8")
    with pytest.raises(AssertionError, match="parsed again"):  # a changed text is parsed anew
        load.load_current(corpus)


def test_kb_rule_reads_a_current_clauses_report_from_the_cache_not_the_cr_versions():
    """`kb rule 708.2a` unpickled every CR version (~0.15 s a call at any KB size): a current clause's
    report comes from the cache file of every clause's report, equal to the one derived from the rules;
    a number the current CR lacks (an older CR's, an unknown one) is still derived and explained."""
    from kb.cr.query import clause_report

    Corpus.default().clause_report("708.2a")  # makes the cache file
    fresh = Corpus.default()
    stored = fresh.clause_report("708.2a")
    assert "rules" not in fresh.__dict__, "the CR versions were loaded for a current clause"
    rules = fresh.rules
    assert all(fresh.clause_report(n) == clause_report(rules, n) for n in rules.current.clauses)
    assert stored == clause_report(rules, "708.2a") and stored.history
    dated = Corpus.default()
    assert dated.clause_report("708.8", "2014-11-24").at is not None and "rules" in dated.__dict__
    with pytest.raises(kb.errors.NotFoundError, match="nearest"):
        Corpus.default().clause_report("708.99")


def test_kb_show_reads_the_clause_texts_from_the_cache_not_the_current_cr(monkeypatch):
    """`kb show` unpickled the whole current CR (~0.05 s a call) to quote the few clauses an entry
    links to: their texts come from the clause file, equal to the current CR's, without loading it."""
    from kb.cr import load

    Corpus.default().clause_texts(["708.2a"])  # makes the cache file
    fresh = Corpus.default()
    for module in (load, kb.cr):
        monkeypatch.setattr(module, "load_current", lambda *a: pytest.fail("the current CR was loaded"))
    assert fresh.clause_texts(["708.2a", "708.99", "708.2a"]) == {"708.2a": fresh.rules.current.clauses["708.2a"].text}
    current = fresh.rules.current.clauses
    assert fresh.clause_texts(list(current)) == {n: c.text for n, c in current.items()}
    assert "rules" in fresh.__dict__  # (loaded above for the comparison, not by clause_texts)


def test_the_clause_reports_follow_the_cr_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules").mkdir()
    path = tmp_path / "rules" / "CR-20240101.txt"
    path.write_text(CR, encoding="utf-8")
    monkeypatch.setenv("KB_CORPUS", str(tmp_path))
    assert "2/2 creature" in Corpus.default().clause_report("708.2a").text
    path.write_text(CR.replace("2/2 creature", "2/2 face-down creature"), encoding="utf-8")
    assert "2/2 face-down creature" in Corpus.default().clause_report("708.2a").text
