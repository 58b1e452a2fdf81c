"""The Comprehensive Rules corpus: parsing, clause identity across versions, history, matching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb import cr
from kb.errors import NotFoundError
from kb.corpus import Corpus

CORPUS = Corpus.default()

DATA = Path(__file__).parent / "data"
HISTORY = json.loads((DATA / "facedown_history.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rules() -> cr.RulesCorpus:
    return CORPUS.rules


SAMPLE = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

Contents

7. Additional Rules
708. Face-Down Spells and Permanents
Glossary
Credits

7. Additional Rules

708. Face-Down Spells and Permanents

708.1. Some cards allow spells and permanents to be face down.

708.2. Face-down spells have no characteristics.

708.2a If a face-up permanent is turned face down, it becomes a 2/2 creature.

Example: A face-down Lightform is a 2/2 creature.

Glossary

Manifest
A keyword action that puts a card onto the battlefield face down.

Credits

Thanks.
"""


def test_parse_skips_contents_and_reads_examples_and_glossary():
    version = cr.parse_rules(SAMPLE)
    assert version.date == "2026-01-16"
    assert version.numbers() == ["7", "708", "708.1", "708.2", "708.2a"]
    assert version.clauses["708"].text == "Face-Down Spells and Permanents"
    assert version.clauses["708.2a"].examples == ("A face-down Lightform is a 2/2 creature.",)
    assert version.clauses["708.2a"].parent == "708.2"
    assert list(version.glossary) == ["Manifest"]
    assert "Thanks" not in str(version.glossary)


@pytest.mark.parametrize("number, parent", [("708.2a", "708.2"), ("708.2", "708"), ("708", "7"), ("7", None)])
def test_parent_chain(number, parent):
    assert cr.parent_of(number) == parent


def test_corpus_has_full_texts_and_extracts(rules):
    assert rules.dates == ["2014-09-25", "2015-01-23", "2018-07-13", "2024-02-02", "2024-11-08",
                           "2025-11-14", "2026-01-16"]
    assert [v.complete for v in rules.versions] == [True, True, True, False, True, False, True]
    assert rules.current.date == "2026-01-16"
    assert len(rules.current.clauses) > 3000
    assert "Manifest" in rules.current.glossary
    # headings appear once, from the body: the contents line would have no clause under it
    assert rules.current.clauses["708"].text == "Face-Down Spells and Permanents"
    assert rules.clause("702.37").text == "Morph"


@pytest.mark.parametrize("version", HISTORY["versions"], ids=lambda v: v["effective"])
def test_facedown_section_matches_reference(rules, version):
    parsed = rules.version(version["effective"]).section(version["facedown_section"])
    got = {c.number: cr.normalise(c.text) for c in parsed if c.number != version["facedown_section"]}
    want = {n: cr.normalise(t) for n, t in version["facedown_clauses"].items()}
    assert got == want


NAMED = ["Face-Down Spells and Permanents", "Copying Objects", "Double-Faced Cards", "Manifest",
         "Cloak", "Manifest Dread", "Morph", "Disguise", "Transform"]


@pytest.mark.parametrize("version", HISTORY["versions"], ids=lambda v: v["effective"])
def test_derived_rule_numbers_match_reference(rules, version):
    current = HISTORY["versions"][-1]["rule_numbers"]
    ours = rules.version(version["effective"])
    for name in NAMED:
        want = version["rule_numbers"][name]
        got = rules.number_at(current[name], version["effective"])
        if want is not None and want not in ours:
            continue  # an extract without that rule
        if got is not None and got not in ours:
            got = None  # the complete CR in force has it, the extract of that date doesn't
        assert got == want, name


def test_manifest_number_chain_is_derived(rules):
    chain = rules.history("701.40").numbers()
    assert chain == ["701.31", "701.33", "701.34", "701.40"]
    # the same chain as the reference over every archived CR, minus the numbers of CRs the corpus
    # doesn't hold (701.32 was in force only from 2016-11 to 2018-06)
    reference: list[str] = []
    for v in HISTORY["all_rule_numbers"]:
        n = v["rule_numbers"]["Manifest"]
        if n and (not reference or reference[-1] != n):
            reference.append(n)
    assert reference == ["701.31", "701.32", "701.33", "701.34", "701.40"]
    assert [n for n in reference if n in chain] == chain
    assert rules.history("701.40").first_seen == "2015-01-23"


def test_708_2a_history_shows_the_2018_rewrite(rules):
    history = rules.history("708.2a")
    assert history.numbers() == ["707.2a", "708.2a"]
    changes = {s.date: s.change for s in history.steps}
    assert changes["2018-07-13"] == "reworded"
    old = rules.clause("708.2a", at="2015-06-01")
    assert old.number == "707.2a" and "no expansion symbol" not in old.text
    assert "doesn't list any characteristics" in rules.clause("708.2a", at="2018-07-13").text


@pytest.mark.parametrize("current, at, then", [
    ("708.8", "2014-11-24", "707.8"),
    ("701.40", "2014-11-24", None),  # manifest didn't exist yet
    ("701.40", "2015-01-23", "701.31"),
    ("701.40b", "2018-07-13", "701.33b"),
    ("110.5", "2018-07-13", "110.6"),
    ("704.5m", "2014-11-24", "704.5n"),
    ("712.15", "2018-07-13", "711.9"),
    ("116.2b", "2014-11-24", "115.2b"),
    ("708.12", "2018-07-13", None),
    ("708.8", "2018-09-01", "707.8"),  # soon after the CR of 2018-07-13: its number
    # long after it, and the corpus's next CR with the clause (2024-02-02) numbers it otherwise: 708
    # was the face-down section from 2021-07-23, manifest 701.34 from 2020: the KB can't tell (try-out 31 D2)
    ("708.8", "2022-08-10", None),
    ("701.40b", "2022-08-10", None),
    ("701.40b", "2024-09-01", "701.34b"),  # the extract of 2024-02-02 and the CR of 2024-11-08 agree
    ("100.1", "2022-08-10", "100.1"),  # the same number before and after the gap
])
def test_number_in_force_at_a_date(rules, current, at, then):
    assert rules.number_at(current, at) == then


@pytest.mark.parametrize("current, not_before", [
    ("508.2", "513.2"),  # declare attackers' priority clause is not the end step's of 2015 (tryout46 D1)
    ("507.2", "511.2"),  # beginning of combat, not end of combat
    ("504.2", "503.2"),  # draw step, not upkeep
    ("510.3", "504.3"),  # combat damage, not the draw step
])
def test_a_steps_boilerplate_sentence_is_not_followed_into_another_step(rules, current, not_before):
    """The steps' "Second, the active player gets priority" sentences differ by one ordinal: a clause
    of 2018 whose step was restructured is no continuation of another step's clause of 2015."""
    numbers = rules.history(current).numbers()
    assert not_before not in numbers and numbers[0] == current


_STEPS_OLD = """503. Upkeep Step

503.1. First, the active player's permanents with abilities that trigger at the beginning of upkeep trigger.

503.2. Second, the active player gets priority. Players may cast spells and activate abilities.

504. Draw Step

504.1. First, the active player draws a card.

504.2. Second, the active player gets priority. Players may cast spells and activate abilities.

507. Beginning of Combat Step

507.1. First, in a multiplayer game, the active player chooses an opponent.

507.2. Second, the active player gets priority. Players may cast spells and activate abilities.

508. Declare Attackers Step

508.1. First, the active player declares attackers.

508.2. Second, any abilities that triggered on attackers being declared go on the stack.

508.3. Third, the active player gets priority. Players may cast spells and activate abilities.

511. End of Combat Step

511.1. First, all abilities that trigger at the beginning of the end of combat step go on the stack.

511.2. Second, the active player gets priority. Players may cast spells and activate abilities.

100. General

100.4. Each player may also have a sideboard.

100.4a In constructed play, a sideboard may have no more than fifteen cards.

100.5. There is no maximum deck size."""

_STEPS_NEW = """508. Declare Attackers Step

508.1. First, the active player declares attackers.

508.2. Second, the active player gets priority. (See rule 117, "Timing and Priority.")

511. End of Combat Step

511.1. The end of combat step has no turn-based actions. Once it begins, the active player gets priority.

100. General

100.4. Each player may also have a sideboard.

100.5. There is no maximum deck size.

100.5a In constructed play, a sideboard may have no more than fifteen cards, in any format."""


def test_only_distinctive_words_follow_a_clause_into_another_parent():
    """Across parents, a clause continues an older one only on words few clauses share: the steps'
    priority sentence (in five steps) stays out of another step; a reworded rule that moved keeps
    its history."""
    versions = [cr.parse_rules(_full_cr("2015-01-01", _STEPS_OLD), "2015-01-01"),
                cr.parse_rules(_full_cr("2018-01-01", _STEPS_NEW), "2018-01-01")]
    lineage, _ = cr.align(versions)
    old_steps = {lineage[("2015-01-01", n)] for n in ("503.2", "504.2", "507.2", "508.3", "511.2")}
    assert lineage[("2018-01-01", "508.2")] not in old_steps
    assert lineage[("2018-01-01", "100.5a")] == lineage[("2015-01-01", "100.4a")]


def test_section_diff_between_2014_and_today(rules):
    diff = rules.diff("2014-09-25", "2026-01-16", "708")
    kinds = {(c.before.number if c.before else None, c.after.number if c.after else None): c.kind
             for c in diff.changes}
    assert diff.section_a == "707"
    assert kinds[("707.8", "708.8")] == "renumbered"
    assert kinds[("707.2a", "708.2a")] == "renumbered+reworded"
    assert kinds[(None, "708.12")] == "added"
    assert kinds[("707.2a", "708.2a")] is cr.ChangeKind.RENUMBERED_REWORDED and kinds[("707.2a", "708.2a")].reworded
    assert not kinds[("707.8", "708.8")].reworded


def test_a_cross_reference_renumbered_is_no_rewording_in_a_diff_or_a_history(rules):
    # tryout48 D7: 707.2 -> 708.2 was "renumbered+reworded" for "See rule 706" -> "707" (copying, renumbered)
    diff = rules.diff("2018-07-13", "2026-01-16", "708")
    kinds = {(c.before.number if c.before else None, c.after.number if c.after else None): c.kind
             for c in diff.changes}
    assert kinds[("707.2", "708.2")] is cr.ChangeKind.RENUMBERED_REFERENCES_RENUMBERED
    assert kinds[("707.10", "708.10")] is cr.ChangeKind.RENUMBERED_REFERENCES_RENUMBERED
    assert kinds[("707.9", "708.9")] is cr.ChangeKind.RENUMBERED_REWORDED  # "... merged permanents" added
    assert not kinds[("707.2", "708.2")].reworded and kinds[("707.2", "708.2")].text_changed
    shown = diff.to_json()
    assert shown["summary"]["renumbered+references renumbered"] == 2
    assert next(c["diff"] for c in shown["changes"] if c["after"] == "708.2") is not None
    # the history reads it the same, through the face-down extract of 2024-02-02, which holds no rule 707
    step = next(s for s in rules.history("708.2").steps if s.date == "2024-02-02")
    assert step.change is cr.ChangeKind.RENUMBERED_REFERENCES_RENUMBERED


_CITES_2020 = """701. Keyword Actions

701.5. Manifest

701.5a To manifest a card, put it onto the battlefield face down as a 2/2 creature.

701.6. Proliferate

701.6a To proliferate, choose any number of permanents and players with counters and give each another counter.

708. Face-Down Spells and Permanents

708.1. Some cards allow spells and permanents to be face down. See rule 701.5, "Manifest."

708.2. A face-down permanent can be turned face up by its controller. See rule 701.5a."""

_CITES_2022 = """701. Keyword Actions

701.5. Amass

701.5a To amass N, put N +1/+1 counters on an Army you control, creating a 0/0 Army token first if you have none.

701.6. Manifest

701.6a To manifest a card, put it onto the battlefield face down as a 2/2 creature.

701.7. Proliferate

701.7a To proliferate, choose any number of permanents and players with counters and give each another counter.

708. Face-Down Spells and Permanents

708.1. Some cards allow spells and permanents to be face down. See rule 701.6, "Manifest."

708.2. A face-down permanent can be turned face up by its controller. See rule 701.7a."""


def test_a_cross_reference_to_another_rule_is_a_rewording():
    versions = [cr.parse_rules(_full_cr("2020-01-01", _CITES_2020), "2020-01-01"),
                cr.parse_rules(_full_cr("2022-01-01", _CITES_2022), "2022-01-01")]
    lineage, members = cr.align(versions)
    rules = cr.RulesCorpus(versions, lineage, members)
    kinds = {c.after.number: c.kind for c in rules.diff("2020-01-01", "2022-01-01", "708").changes if c.after}
    assert kinds["708.1"] is cr.ChangeKind.REFERENCES_RENUMBERED  # manifest: 701.5 then, 701.6 now
    assert kinds["708.2"] is cr.ChangeKind.REWORDED  # 701.5a (manifest) then, 701.7a (proliferate) now


@pytest.mark.parametrize("number, nearest", [
    ("708.99", "708.9, 708.12"),
    ("708.2z", "708.2a, 708.2b"),
    ("708.13", "708.11, 708.12"),
])
def test_unknown_clause_names_the_nearest(rules, number, nearest):
    with pytest.raises(NotFoundError, match=f"no clause {number} in the CR of 2026-01-16; nearest: {nearest}$"):
        rules.clause(number)


@pytest.mark.parametrize("number", ["420.5e", "420", "780.2"])
def test_a_number_in_none_of_the_crs_names_the_oldest_and_no_other_rules_number(rules, number):
    # tryout48 D6: 420.5e (state-based actions in a pre-2009 CR) was told "nearest: 400.5, 400.7e", zone rules
    with pytest.raises(NotFoundError) as raised:
        rules.clause(number)
    message = str(raised.value)
    assert message == (f"no clause {number} in the CR of 2026-01-16, nor in any other CR the KB holds: its oldest "
                       f"CR is of 2014-09-25, and a number from a CR before it is one the KB can't look up")
    assert "nearest" not in message


def test_a_diffs_section_in_none_of_the_crs_says_so(rules):
    with pytest.raises(NotFoundError, match="no clause 420 in the CR of 2026-01-16, nor in any other CR the KB "
                                            "holds: its oldest CR is of 2014-09-25"):
        rules.diff("2018-07-13", "2026-01-16", "420")


def test_word_diff():
    assert cr.word_diff("a b c", "a x c") == [("equal", "a"), ("delete", "b"), ("insert", "x"), ("equal", "c")]


@pytest.mark.parametrize("text, number", [
    ("Layer 1b: Face-down spells and permanents have their characteristics modified as defined in rule 708.2.", "613.2b"),
    ("Some cards allow spells and permanents to be face down.", "708.1"),
    ("some cards allow spells and permanents to be face down", "708.1"),
    ("Turning a face-down creature face up is a special action. A player can take this action any time "
     "they have priority. See rule 708, \u201cFace-Down Spells and Permanents.\u201d", "116.2b"),
    ("If a face-down permanent or a face-down component of a merged permanent moves from the battlefield "
     "to any other zone, its owner must reveal it to all players as they move it.", "708.9"),
])
def test_match_clause_recognises_rule_texts(text, number):
    found = CORPUS.match_clause(text)
    assert found is not None and found[0] == number and 0.8 <= found[1] <= 1.0


@pytest.mark.parametrize("text", [
    "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.",
    "If a face-down permanent you control leaves the battlefield, you must reveal it. You must also "
    "reveal all face-down spells and permanents you control if you leave the game or if the game ends.",
    "At any time, you can look at a face-down permanent you control. You can't look at face-down "
    "permanents you don't control unless an effect allows you to or instructs you to.",
    "Search",
    "",
])
def test_match_clause_rejects_rulings(text):
    assert CORPUS.match_clause(text) is None


def test_every_seed_rule_text_matches_a_clause():
    """The rules-search seed pages quote 33 CR clauses (the other units are rulings). Speed is the
    benchmarks' business (bench/), not a timed assert that a loaded CI machine can break."""
    seeds = sorted((CORPUS.folder / "seeds").glob("00[34]_*.txt"))
    units = [u.strip() for p in seeds for u in p.read_text(encoding="utf-8").split("\n\n")]
    units = [u for u in units if u and u != "Search"]
    found = [CORPUS.match_clause(u) for u in units]
    assert sum(f is not None for f in found) == 33


def test_a_clause_first_seen_after_the_oldest_cr_is_dated_between_two_crs_not_added_on_one(rules):
    """The corpus's CRs are samples of those published (none between 2018-07-13 and 2024-11-08): a clause
    is first seen in one of them, it came in after the corpus's full CR before, and on a date between the
    two the KB can't tell whether it was in the rules. One clause of each first-seen date of the corpus."""
    from datetime import date, timedelta

    from kb.cr.query import clause_report

    firsts: dict[str, str] = {}
    for number in rules.current.clauses:
        firsts.setdefault(rules.history(number).first_seen, number)
    oldest = rules.versions[0].date
    assert len(firsts) > 3
    for first, number in sorted(firsts.items()):
        history = rules.history(number)
        if first == oldest:
            assert history.before is None
            continue
        lid = rules.lineage[(rules.current.date, number)]
        full = max(v.date for v in rules.versions if v.complete and v.date < first)
        # or a later face-down extract that holds the clause's part whole (RulesCorpus.lacks)
        before = max([full] + [v.date for v in rules.versions
                               if not v.complete and full < v.date < first and rules.lacks(v, lid)])
        assert history.before == before
        assert all(d != before for d, _ in rules.members[lid])
        between = (date.fromisoformat(before) + timedelta(days=1)).isoformat()
        report = clause_report(rules, number, at=between)
        assert report.first_seen_after == before and report.history[0].after == before, number
        assert report.first_seen_note.startswith(f"first seen in the CR of {first}: not in the CR of {before}")
        assert report.at is not None and report.at.number is None and report.at.unknown, (number, between)
        on_that_date = clause_report(rules, number, at=before).at
        assert on_that_date is not None and not on_that_date.unknown  # the full CR in force then lacks it


def test_a_rule_no_longer_in_the_rules_went_out_between_its_last_cr_and_the_next_full_one(rules):
    gone = [(d, n) for members in rules.members.values() for d, n in members[-1:] if d != rules.current.date]
    assert gone
    for last, number in gone:
        history = rules.history(number, at=last)
        assert history.current is None and history.last_seen == last
        assert history.gone_by == min(v.date for v in rules.versions if v.complete and v.date > last)


def _full_cr(date: str, body: str) -> str:
    return f"Comprehensive Rules\n\nContents\n\n7. Additional Rules\n\n7. Additional Rules\n\n{body}\n\nGlossary\n\nCredits\n"


_CR_2020 = """701. Keyword Actions

701.5. Manifest

701.5a To manifest a card, turn it face down.

708. Face-Down Spells and Permanents

708.1. Some cards allow spells and permanents to be face down.

708.2. Face-down permanents have no characteristics other than those listed."""

_EXTRACT_2021 = """# Magic: The Gathering Comprehensive Rules -- face-down extract

## Section 708. Face-Down Spells and Permanents (complete)

708. Face-Down Spells and Permanents

708.1. Some cards allow spells and permanents to be face down.

708.2. Face-down permanents have no characteristics other than those listed.

## Dread: no rule with this heading in this version

## Section 712. Double-Faced Cards -- only clauses mentioning face down

712.9. A double-faced card can't be turned face down.
"""

_CR_2022 = _CR_2020 + """

701.6. Dread

701.6a To dread, look at the top two cards of your library and manifest one.

708.3. Objects that are put onto the battlefield face down are turned face down before they enter.

712. Double-Faced Cards

712.9. A double-faced card can't be turned face down.

712.10. A double-faced card can't transform while face down."""


@pytest.fixture(scope="module")
def with_extract() -> cr.RulesCorpus:
    versions = [cr.parse_rules(_full_cr("2020-01-01", _CR_2020), "2020-01-01"),
                cr.parse_rules(_EXTRACT_2021, "2021-06-01"),
                cr.parse_rules(_full_cr("2022-01-01", _CR_2022), "2022-01-01")]
    lineage, members = cr.align(versions)
    return cr.RulesCorpus(versions, lineage, members)


def test_an_extract_names_the_parts_it_holds_whole_and_the_headings_it_has_no_rule_for(with_extract):
    extract = with_extract.version("2021-06-01")
    assert (extract.complete, extract.whole, extract.absent) == (False, ("708",), ("dread",))


@pytest.mark.parametrize("number, before", [
    ("708.3", "2021-06-01"),  # under a section the extract holds whole, which lacks it
    ("701.6", "2021-06-01"),  # the extract says the CR had no rule of its heading
    ("701.6a", "2021-06-01"),  # ... nor of its parent's
    ("712.10", "2020-01-01"),  # the extract's part on section 712 is not whole: its silence says nothing
])
def test_a_clause_an_extract_shows_absent_was_not_in_the_rules_of_its_date(with_extract, number, before):
    """Try-out 31 D3: the face-down extract of 2024-02-02 holds section 708 complete and says manifest dread is
    absent; the KB read it as partial, so 708.12 and manifest dread were dated from the full CR of 2018-07-13."""
    from kb.cr.query import clause_report

    assert with_extract.history(number).before == before
    report = clause_report(with_extract, number, at="2021-01-01")  # before the extract, which lacks it
    assert report.at is not None and report.at.number is None
    assert report.at.unknown is (before != "2021-06-01")


def test_the_bundled_extract_of_2024_02_02_dates_708_12_and_manifest_dread_after_it(rules):
    from kb.cr.query import clause_report

    assert rules.history("708.12").before == "2024-02-02"
    assert rules.history("701.62a").before == "2024-02-02"
    assert rules.history("702.143a").before == "2018-07-13"  # foretell: not in the extract's parts
    then = clause_report(rules, "708.12", at="2024-01-01").at
    assert then is not None and not then.unknown and then.lacking == "2024-02-02"
