"""What a rules manager auditing old face-down rulings as a new user noticed (tryout30): each test pins one defect."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb import store
from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant

DATED = "If a face-down creature is removed from the game, it's turned face up."
UNDATED = "When a face-down creature comes into play, its abilities don't trigger."


def test_outdated_since_says_how_many_undated_wordings_it_leaves_out(kb_home: Path) -> None:
    """tryout30 D11: `kb outdated --since DATE` dropped the undated wordings (34 -> 28) without a word:
    they have no date to compare, and a rules manager read the shorter list as all there is."""
    from cli.main import app
    from kb.outdated import find_outdated

    def entry(id_: str, text: str, date: str | None) -> Entry:
        variant = Variant(text, text, Lang.EN, date, "faq.md", 3, Relation.CANONICAL, 1.0, None)
        return Entry(id_, Kind.RULING, text, (), date, date, (variant,))

    entries = [entry("r-dated", DATED, "2002-09-25"), entry("r-undated", UNDATED, None)]
    items = find_outdated(entries, terminology=Corpus.default().terminology)
    assert {i.variant.text for i in items} == {DATED, UNDATED}  # both use a term of before 2009
    store.write(kb_home, entries, report={}, meta={}, outdated=[item.to_store() for item in items])

    runner = CliRunner()
    listed = runner.invoke(app, ["outdated", "--since", "2000", "--json"])
    assert [w["text"] for w in json.loads(listed.stdout)] == [DATED]
    assert "leaves out 1 undated wording (no date to compare with)" in listed.stderr
    summary = runner.invoke(app, ["outdated", "--since", "2000", "--summary"])
    assert "leaves out 1 undated wording" in " ".join(summary.stderr.split())
    everything = runner.invoke(app, ["outdated", "--json"])
    assert len(json.loads(everything.stdout)) == 2 and "undated" not in everything.stderr


def test_the_review_list_says_how_many_wordings_are_older_than_every_cr_it_can_check(kb_home: Path) -> None:
    """tryout30 D6: a 2002 FAQ's rulings came out of `kb outdated --review` as if no rule had changed under
    them, though the KB's oldest CR is of 2014: an empty review list read as "unchanged", not "unknown"."""
    from cli.main import app
    from kb.cr.load import rule_dates
    from kb.paths import corpus_dir

    oldest = rule_dates(corpus_dir())[0]
    current = "Turning a permanent face up or face down doesn't change whether that permanent is tapped."

    def entry(id_: str, text: str, date: str) -> Entry:
        variant = Variant(text, text, Lang.EN, date, "faq.md", 3, Relation.CANONICAL, 1.0, None)
        return Entry(id_, Kind.RULING, text, (), date, date, (variant,))

    store.write(kb_home, [entry("r-old", current, "2002-09-25"), entry("r-new", current + " Really.", oldest)],
                report={}, meta={}, outdated=[])
    runner = CliRunner()
    review = runner.invoke(app, ["outdated", "--review"])
    said = " ".join(review.stderr.split())
    assert f"1 ruling wording is dated before the oldest CR the KB holds ({oldest})" in said
    assert "undated" not in said and "before the oldest CR" not in runner.invoke(app, ["outdated"]).stderr


def test_the_older_than_every_cr_note_follows_the_filters(kb_home: Path) -> None:
    """review40 #8: the note counted the wordings older than the oldest CR under --since 2024 (none of them
    is listed then) and under --kind superseded (no review list is shown)."""
    from cli.main import app

    text = "Turning a permanent face up or face down doesn't change whether that permanent is tapped."
    variant = Variant(text, text, Lang.EN, "2002-09-25", "faq.md", 3, Relation.CANONICAL, 1.0, None)
    store.write(kb_home, [Entry("r-old", Kind.RULING, text, (), "2002-09-25", "2002-09-25", (variant,))],
                report={}, meta={}, outdated=[])
    runner = CliRunner()
    assert "before the oldest CR" in runner.invoke(app, ["outdated", "--all"]).stderr
    assert "before the oldest CR" in runner.invoke(app, ["outdated", "--review", "--since", "2000"]).stderr
    for args in (["--review", "--since", "2024"], ["--all", "--kind", "superseded"]):
        assert "before the oldest CR" not in runner.invoke(app, ["outdated", *args]).stderr, args
