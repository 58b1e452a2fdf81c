"""The library's result objects behind the CLI: what `kb rule`, `kb check`, `kb show`, `kb card` and
`kb list` print as JSON comes from these (the CLI only prints or renders them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.checks import CheckCoverage, CheckResult, CheckRun, check_coverage, check_targets
from kb.errors import CheckError, NotFoundError
from kb.model import Entry, Kind, Lang, Problem, Relation, RuleLink, Variant
from kb.outdated import Level, Reason, levels_shown
from tests.test_coverage import entry
from kb.corpus import Corpus

CORPUS = Corpus.default()

CHECKS = Path(__file__).resolve().parent.parent / "corpus" / "checks"


@pytest.fixture(scope="module")
def rules():

    return CORPUS.rules


def ruling(eid: str, text: str, card: str, date: str, *, clause: str | None = None,
           variants: tuple[Variant, ...] = ()) -> Entry:
    v = Variant(text, text, Lang.EN, date, "seed", 1, Relation.CANONICAL, 1.0, card)
    links = (RuleLink(clause, 0.9, None, ""),) if clause else ()
    return Entry(eid, Kind.RULING, text, (card,), date, date, (v, *variants), links)


# --- kb rule ---------------------------------------------------------------------------------------

def test_clause_report_follows_a_renumbered_clause_and_diffs_each_rewording(rules) -> None:
    from kb.cr.query import clause_report

    report = clause_report(rules, "708.2a")
    assert report.numbers == ("707.2a", "708.2a") and report.version == rules.current.date
    first, *later = report.history
    assert first.change == "added" and first.after is None and first.diff is None
    rewrite = next(h for h in later if h.date == "2018-07-13")
    assert rewrite.change == "reworded" and rewrite.number == "707.2a"
    # the change happened after the corpus's CR before 2018-07-13, which the row names
    before = report.history[report.history.index(rewrite) - 1]
    assert rewrite.after == before.date
    # the word diff turns the version before into this one
    runs = rewrite.diff or []
    assert " ".join(w for op, w in runs if op != "insert").split() == before.text.split()
    assert " ".join(w for op, w in runs if op != "delete").split() == rewrite.text.split()
    assert any(op == "insert" for op, _ in runs)
    assert all(h.diff is None for h in report.history if h.change == "unchanged")
    data = report.to_json()
    assert data["numbers"] == ["707.2a", "708.2a"] and data["at"] is None
    assert data["history"][report.history.index(rewrite)]["diff"] == rewrite.diff


def test_clause_report_at_a_date_gives_the_number_and_text_then(rules) -> None:
    from kb.cr.query import clause_report

    then = clause_report(rules, "708.2a", at="2015-01-01").at
    assert then is not None and then.number == "707.2a" and then.version <= "2015-01-01"
    assert then.text == rules.clause("708.2a", at="2015-01-01").text and then.diff_to_current
    assert clause_report(rules, "708.2a", at=rules.current.date).at.diff_to_current is None  # type: ignore[union-attr]


def test_clause_report_before_a_clause_existed_says_not_yet_and_a_date_too_early_reads_the_oldest_cr(rules) -> None:
    from kb.cr.query import clause_report

    then = clause_report(rules, "702.168a", at="2015-01-01").at  # disguise came in 2024
    assert then is not None and then.number is None and then.text is None
    # tryout31 #7: an error before; the oldest CR is read, and the gap says it is not the one in force
    early = clause_report(rules, "708.2a", at="1990-01-01").at
    assert early is not None and (early.date, early.version, early.number) == ("1990-01-01", "2014-09-25", "707.2a")
    assert early.gap is not None and early.gap.before_oldest and not early.gap.ran_model


def test_section_diff_json_counts_every_change_by_kind(rules) -> None:
    diff = rules.diff("2014-09-25", "2026-01-16", "708")
    data = diff.to_json()
    assert data["section"] == "708" and data["section_before"] == "707"
    kinds = [c["change"] for c in data["changes"]]
    assert data["summary"] == {k: kinds.count(k) for k in dict.fromkeys(kinds)} and sum(data["summary"].values()) == len(kinds)
    for c in data["changes"]:
        # a word diff where the text changed: reworded, or its references renumbered (tryout48 D7)
        assert (c["diff"] is not None) == ("reworded" in c["change"] or "references" in c["change"])


def test_linked_rulings_without_a_kb_say_how_to_get_one(tmp_path: Path) -> None:
    linked = store.linked_rulings(tmp_path, "708.8")
    assert linked.rows is None and linked.total == 0 and "no KB in" in (linked.note or "")
    assert linked.to_json() == {"rulings": None, "rulings_total": 0, "rulings_note": linked.note,
                                "rulings_in_subclauses": None}


def test_linked_rulings_are_limited_but_counted_in_full(tmp_path: Path) -> None:
    store.write(tmp_path, [ruling("a", "One.", "Lightform", "2014-11-24", clause="708.8"),
                           ruling("b", "Two.", "Lightform", "2014-11-24", clause="708.8"),
                           ruling("c", "Three.", "Lightform", "2014-11-24", clause="110.5")], report={}, meta={})
    linked = store.linked_rulings(tmp_path, "708.8", limit=1)
    assert linked.total == 2 and linked.note is None and [r.id for r in linked.rows or []] in (["a"], ["b"])
    assert {r.id for r in store.linked_rulings(tmp_path, "708.8").rows or []} == {"a", "b"}


def test_linked_rulings_of_a_damaged_kb_say_what_is_wrong(tmp_path: Path) -> None:
    store.write(tmp_path, [ruling("a", "One.", "Lightform", "2014-11-24", clause="708.8")], report={}, meta={})
    store.db_path(tmp_path).write_bytes(b"not a database" * 100)
    linked = store.linked_rulings(tmp_path, "708.8")
    assert linked.rows is None and linked.note and "see the rulings linked" in linked.note


# --- kb check --------------------------------------------------------------------------------------

def test_check_run_counts_pass_fail_not_applicable_and_unattached_apart() -> None:
    run = CheckRun([CheckResult("p", None, "f", True), CheckResult("f", "r-1", "f", False, ["wrong"]),
                    CheckResult("n", None, "f", False, not_applicable="older rules"),
                    CheckResult("u", None, "f", False, unattached="quotes no ruling"),
                    # a failure counts as one even when the check is attached to no ruling too
                    CheckResult("fu", None, "f", False, ["wrong"], unattached="quotes no ruling")], rules="2014-01-01")
    assert run.passed == 1 and [r.id for r in run.failed] == ["f", "fu"]
    assert [r.id for r in run.not_applicable] == ["n"] and [r.id for r in run.unattached] == ["u"]
    assert not run.ok and "problems" not in run.to_json()
    assert run.to_json()["summary"] == {"total": 5, "passed": 1, "failed": 2, "not_applicable": 1, "unattached": 1,
                                         "nothing_checked": False}
    with_problem = CheckRun([CheckResult("p", None, "f", True)], [Problem("x.yaml", 3, "bad")])
    assert not with_problem.ok and with_problem.to_json()["problems"] == ["x.yaml:3: bad"]
    assert CheckRun([CheckResult("p", None, "f", True)]).ok
    # every check n/a: nothing was verified, and that is no success (try-out 53 D8)
    all_na = CheckRun([CheckResult("n", None, "f", False, not_applicable="older rules")], rules="2014-11-24")
    assert all_na.nothing_checked and not all_na.ok and all_na.to_json()["summary"]["nothing_checked"] is True
    assert not CheckRun([]).nothing_checked


def test_check_targets_runs_a_file_and_never_opens_the_kb_for_it(tmp_path: Path) -> None:
    def no_kb():  # entry ids are what needs the KB
        raise AssertionError("opened the KB")

    run = check_targets([str(CHECKS / "forms.yaml")], open_kb=no_kb, home=tmp_path, corpus=CORPUS)
    assert run.results and all(r.file.endswith("forms.yaml") for r in run.results) and run.problems == []


@pytest.mark.parametrize(("targets", "error", "message"), [
    (["nowhere.yaml"], NotFoundError, "no check file"),
    ([str(CHECKS / "forms.yaml"), "r-1"], CheckError, "not both"),
])
def test_check_targets_refuses_bad_targets(tmp_path: Path, targets, error, message) -> None:
    with pytest.raises(error, match=message):
        check_targets(targets, open_kb=lambda: store.load(tmp_path), home=tmp_path, corpus=CORPUS)


def test_check_targets_by_entry_runs_only_that_entrys_checks(tmp_path: Path) -> None:
    from kb.checks import load_checks, match_entries

    checks, _ = load_checks([CHECKS / "forms.yaml"], CORPUS.cards)
    quote = checks[0].ruling
    store.write(tmp_path, [ruling("r-form", quote, "Lightform", "2014-11-24"),
                           ruling("r-other", "Unrelated.", "Lightform", "2014-11-24")], report={}, meta={})
    kb = store.load(tmp_path)
    mine = {c for c, e in match_entries(kb.entries, checks)[0].items() if e == "r-form"}
    run = check_targets(["r-form"], open_kb=lambda: kb, home=tmp_path, corpus=CORPUS)
    assert mine and {r.id for r in run.results} == mine and {r.entry for r in run.results} == {"r-form"}
    with pytest.raises(NotFoundError, match="no checks for entry r-other"):
        check_targets(["r-other"], open_kb=lambda: kb, home=tmp_path, corpus=CORPUS)


def test_check_coverage_lists_face_down_rulings_without_a_check() -> None:
    covered = check_coverage([entry("a", "708.8", checks=("c",)), entry("b", "702.37b"), entry("c", "110.5")])
    assert isinstance(covered, CheckCoverage) and (covered.covered, covered.total) == (1, 2)
    assert covered.to_json()["missing"] == [{"id": "b", "cards": ["Lightform"], "clauses": ["702.37b"], "text": "t"}]


# --- kb show, kb list, kb card ---------------------------------------------------------------------

def test_entry_view_has_the_entry_its_checks_and_clause_texts_only_when_asked(tmp_path: Path) -> None:
    from kb.checks import load_checks
    from kb.views import entry_view

    checks, _ = load_checks([CHECKS / "forms.yaml"], CORPUS.cards)
    e = ruling("r-form", checks[0].ruling, "Lightform", "2014-11-24", clause="708.8")
    e = Entry(e.id, e.kind, e.text, e.cards, e.first_date, e.last_date, e.variants, e.rules, (checks[0].id,))
    store.write(tmp_path, [e], report={}, meta={})
    kb = store.load(tmp_path)
    view = entry_view(kb, "r-fo", CORPUS, clause_texts=True)  # a unique prefix
    assert view.entry.id == "r-form" and [c.id for c in view.checks] == [checks[0].id]
    assert [r.id for r in view.results] == [checks[0].id] and view.results[0].entry == "r-form"
    assert "face-down" in view.clause_texts["708.8"].lower() or "face down" in view.clause_texts["708.8"].lower()
    assert entry_view(kb, "r-form", CORPUS).clause_texts == {}
    data = view.to_json()
    assert data["id"] == "r-form" and data["check_results"] == [r.to_json() for r in view.results]
    assert data["outdated"] == [] and "moved_from" not in data


def test_entry_list_json_summarises_each_entry() -> None:
    from kb.views import EntryList

    de = Variant("Du.", "Du.", Lang.DE, None, "b", 1, Relation.TRANSLATION, 0.9, "Lightform")
    e = ruling("r-1", "You.", "Lightform", "2014-11-24", variants=(de,))
    assert EntryList.of([e]).to_json() == [{"id": "r-1", "kind": "ruling", "text": "You.", "cards": ["Lightform"],
                                        "first_date": "2014-11-24", "last_date": "2014-11-24",
                                        "langs": ["de", "en"], "variants": 2, "official": True, "own_page": None, "remark": False,
                                        "shown_own_page": None}]


@pytest.mark.parametrize("name", ["Rageform", "Wutform", "Forma de ira", "Ragefrom"])
def test_find_card_by_any_language_or_a_small_typo(name: str) -> None:
    from kb.views import find_card

    card = find_card(name, CORPUS)
    assert card.name == "Rageform" and card.names[Lang.DE] == "Wutform"


def test_find_card_refuses_a_name_nothing_is_close_to() -> None:
    from kb.views import find_card

    with pytest.raises(NotFoundError, match="unknown card"):
        find_card("Qqqqzzzz Xxxxyyyy", CORPUS)


def test_card_view_lists_rulings_first_by_this_cards_own_dates(tmp_path: Path) -> None:
    from kb.views import CardInfo, card_view

    shared_other = Variant("Shared.", "Shared.", Lang.EN, "2010-01-01", "s", 1, Relation.CANONICAL, 1.0, "Other")
    shared_mine = Variant("Shared.", "Shared.", Lang.EN, "2016-05-05", "s", 2, Relation.DUPLICATE, 1.0, "Rageform")
    shared = Entry("r-shared", Kind.RULING, "Shared.", ("Other", "Rageform"), "2010-01-01", "2016-05-05",
                   (shared_other, shared_mine))
    store.write(tmp_path, [shared, ruling("r-late", "Late.", "Rageform", "2018-01-01"),
                           ruling("r-early", "Early.", "Rageform", "2015-01-01")], report={}, meta={})
    view = card_view(CardInfo("Rageform", None, {}), store.load(tmp_path))
    assert [(e.id, dates) for e, dates in view.entries] == [
        ("r-early", ["2015-01-01"]), ("r-shared", ["2016-05-05"]), ("r-late", ["2018-01-01"])]
    data = view.to_json()
    assert data["names"] == {"en": "Rageform"} and data["oracle"] is None
    assert [e["card_dates"] for e in data["entries"]] == [["2015-01-01"], ["2016-05-05"], ["2018-01-01"]]


def test_a_cards_entries_read_from_columns_say_what_the_decoded_entries_say(kb_home: Path, small_corpus: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`kb card` reads its entries' columns and the card's copies' dates, not whole entries (a shared
    ruling holds thousands of copies at 100k rulings): the same languages, dates and order, card by card."""
    from kb.build import rebuild
    from kb.search.embed import FakeEmbedder

    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    rebuild(home=kb_home, embedder=FakeEmbedder())
    kb = store.load(kb_home)
    cards = kb.cards()
    assert len(cards) > 5
    for card in cards:
        decoded = kb.select(card=card)
        rows = kb.card_entries(card)
        assert [(r.id, r.kind, r.text, r.first_date) for r in rows] == [
            (e.id, e.kind, e.text, e.first_date) for e in decoded]
        assert [r.langs for r in rows] == [tuple(sorted({v.lang.value for v in e.variants})) for e in decoded]
        assert [r.card_dates for r in rows] == [
            tuple(sorted({v.date for v in e.variants if v.card == card and v.date})) for e in decoded], card
    assert {lang for c in cards for r in kb.card_entries(c) for lang in r.langs} > {"en"}
    kb.close()


# --- kb outdated -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("reason", "review", "both", "levels"), [
    (None, False, False, {Level.OUTDATED}),
    (None, True, False, {Level.REVIEW}),
    (None, False, True, {Level.OUTDATED, Level.REVIEW}),
    (Reason.SUPERSEDED, False, False, {Level.OUTDATED}),
    (Reason.RULE_CHANGED, False, False, {Level.OUTDATED, Level.REVIEW}),  # else it would list nothing
    (Reason.RULE_CHANGED, True, False, {Level.REVIEW}),
])
def test_levels_shown(reason, review, both, levels) -> None:
    assert levels_shown(reason, review=review, both=both) == levels


def test_a_misspelled_name_is_the_closest_card_with_a_note_for_card_and_every_card_option() -> None:
    """`kb card Lightfrom` forgives the typo; `--card Lightfrom` did not (tryout23): one lookup for
    both, whose note says which card the name was read as (never a filter to a guess in silence)."""
    from kb.views import find_card

    guessed = find_card("Lightfrom", CORPUS)
    assert guessed.name == "Lightform"
    assert guessed.closest_note("Lightfrom") == "no card is named 'Lightfrom'; showing the closest, Lightform"
    assert find_card("Lichtform", CORPUS).closest_note("Lichtform") is None  # a German name is a name
    with pytest.raises(NotFoundError, match=r"unknown card 'Qqqqzzzz Xxxxyyyy' \(English, German or Spanish"):
        find_card("Qqqqzzzz Xxxxyyyy", CORPUS)
