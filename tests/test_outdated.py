"""Outdated variants of the bundled corpus, against expectations labelled by hand."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from typer.testing import CliRunner

from kb.build import compute_outdated
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.normalize import match_key
from kb.outdated import (CheckOutcome, Level, Reason, filter_items, find_outdated, group_wordings, substantive, summarize,
                          touched_words)
from kb.corpus import Corpus

CORPUS = Corpus.default()

# 2014 wordings that the 2018 rulings replaced, and translations of such wordings.
SUPERSEDED = [
    "ignoring any copy effects or type-changing effects",
    "unless an effect allows you to or instructs you to",
    "don't have names, they can't have the same name",
    "on the battlefield in order to confuse other players",
    "There are no cards in the Fate Reforged set",
    "Some older Magic sets feature double-faced cards",
    "Du kannst eine verdeckte bleibende Karte",
    "Du musst sicherstellen, dass deine verdeckten",
]
# Wordings that still stand: identical re-issues, rulings never reworded, translations of those.
NOT_SUPERSEDED = [
    "If the enchanted creature is turned face up",
    "doesn't change whether that permanent is tapped or untapped",
    "If a manifested creature would have morph if it were face up",
    "Da sich die bleibende Karte sowohl vor als auch nach dem Aufdecken",
    "Eine bleibende Karte, die aufgedeckt oder verdeckt wird",
    "Falls eine manifestierte Kreatur Morph",
    "If an effect tries to return a face-down creature to the battlefield",
    # still on the 2025 Lightform page beside the part split off from it ("If a double-faced card...")
    "Some previous Magic sets feature double-faced cards",
    # Colfenor's Plans' own ruling; the entry also holds Praetor's Grasp's (2011), which doesn't replace it
    "Playing a card exiled with Colfenor's Plans follows all the normal rules",
    # Khans of Tarkir's morph ruling; the 2024 disguise wording of the same entry is for other cards
    "by revealing what its morph cost is and paying that cost",
]


@pytest.fixture(scope="module")
def outdated(bundled_entries):
    entries, _ = bundled_entries
    return entries, compute_outdated(entries, CORPUS)


def reasons_for(outdated, quote):
    """Outdated items of the variants quoting `quote`."""
    entries, items = outdated
    key = match_key(quote)
    variants = [(e, i) for e in entries for i, v in enumerate(e.variants) if key in match_key(v.text)]
    assert variants, f"no variant quotes {quote!r}"
    flagged = {(item.entry, item.variant_index): item for item in items}
    return [flagged.get((e.id, i)) for e, i in variants]


@pytest.mark.parametrize("quote", SUPERSEDED)
def test_replaced_wordings_are_superseded(outdated, quote):
    # superseded for the cards that have the newer wording (other cards may still carry only this one)
    assert any(item is not None and Reason.SUPERSEDED in {r.kind for r in item.reasons}
               for item in reasons_for(outdated, quote)), quote


@pytest.mark.parametrize("quote", NOT_SUPERSEDED)
def test_standing_wordings_are_not_superseded(outdated, quote):
    for item in reasons_for(outdated, quote):
        assert item is None or Reason.SUPERSEDED not in {r.kind for r in item.reasons}, quote


def test_superseded_shows_a_word_diff_against_the_current_wording(outdated):
    item = next(i for i in reasons_for(outdated, "ignoring any copy effects or type-changing effects")
                if i is not None and Reason.SUPERSEDED in {r.kind for r in i.reasons})
    reason = next(r for r in item.reasons if r.kind is Reason.SUPERSEDED)
    assert ("delete", "copy effects or") in reason.diff
    assert "2018-07-13" in reason.detail

def test_converted_mana_cost_is_obsolete_terminology(outdated):
    items = reasons_for(outdated, "has a converted mana cost of 0")
    assert items and all(item is not None for item in items)
    for item in items:
        reason = next(r for r in item.reasons if r.kind is Reason.TERMINOLOGY)
        assert "2021-04-22" in reason.detail
        assert "mana value of 0" in item.suggested  # the wording reworded, once for all its reasons


def test_mana_value_wording_has_no_terminology_reason(outdated):
    for item in reasons_for(outdated, "has a mana value of 0"):
        assert item is None or Reason.TERMINOLOGY not in {r.kind for r in item.reasons}


@pytest.fixture(scope="module")
def history():
    from kb.outdated import rule_history_from

    return rule_history_from(CORPUS.rules)


# (clause, ruling date, ruling): the clause was reworded after the ruling, in words it doesn't rest on
UNTOUCHED = [
    # damage assignment order removed (2024): the ruling is about how often the ability triggers
    ("510.1c", "2014-11-24", "Arashin War Beast's ability will trigger only once per combat damage step, "
                             "no matter how many creatures are blocking it."),
    ("605.1", "2018-07-13", "You must follow the normal timing permissions and restrictions of each card you play."),
    # merged permanents added (2024)
    ("708.9", "2018-07-13", "If a face-down permanent you control leaves the battlefield, you must reveal it to all players."),
    # a sentence about special actions added (2024), plus his or her → their
    ("401.5", "2014-11-24", "If you're playing with the top card of your library revealed, you'll manifest one of the "
                            "cards, then the other one will be revealed, then you can choose to put that card on the "
                            "bottom of your library or leave it on top."),
]


@pytest.mark.parametrize("clause, date, ruling", UNTOUCHED)
def test_a_rule_change_away_from_what_the_ruling_says_does_not_touch_it(history, clause, date, ruling):
    number_then, then, now, changed_on = history(clause, date)
    assert changed_on, "the clause did change in substance after the ruling"
    assert touched_words(then, now, ruling, history.common_words) == []


def test_the_london_mulligan_touches_a_ruling_about_the_pregame_procedure(history):
    ruling = ("Even though your starting hand size is five, nothing else about the pregame procedure changes. "
              "If you don't take two or more mulligans in a multiplayer game, you won't be able to \"scry\" "
              "before the game starts.")
    _, then, now, changed_on = history("902.5a", "2016-08-23")
    assert changed_on and "size" in touched_words(then, now, ruling, history.common_words)


def test_words_only_added_to_a_rule_do_not_touch_a_ruling():
    then = "A player reveals the top card of their library."
    assert touched_words(then, then + " Battles protected by opponents count too.", "Opponents reveal the top card.") == []
    assert touched_words(then, "A player reveals the bottom card of their library.", "Reveal the top card.") == ["top"]


def test_a_joining_word_a_rule_dropped_does_not_touch_a_ruling():
    """tryout20: a ruling was sent for review "in words the ruling uses: however"."""
    then = "A face-down permanent has no name. However, its controller may look at it."
    now = "A face-down permanent has no name. Its controller may look at it."
    assert touched_words(then, now, "However, you may look at your face-down creature at any time.") == []
    assert touched_words(then, now.replace("look at", "reveal"), "However, you may look at it.") == ["look"]


def test_editorial_changes_are_not_substantive():
    before = 'A player can take this action any time he or she has priority. See rule 707, "Face-Down".'
    after = 'A player can take this action any time they have priority. See rule 708, "Face-Down".'
    assert substantive(before) == substantive(after)
    assert substantive("reveal it") != substantive("reveal it to all players")


def _entry(variants, checks=()):
    return Entry(id="r-test", kind=Kind.RULING, text=variants[0].text, cards=("Lightform",),
                 first_date="2014-11-24", last_date="2018-07-13", variants=tuple(variants), checks=checks)


def _v(text, date, relation=Relation.CANONICAL, lang=Lang.EN):
    return Variant(text, text, lang, date, "page.txt", 1, relation, 1.0, "Lightform")


def test_check_that_passes_then_and_fails_now_is_reported():
    entry = _entry([_v("Now wording.", "2018-07-13"), _v("Old wording.", "2014-11-24", Relation.REVISION)],
                   checks=("forms/old-behaviour",))

    def runner(e, at):
        return [CheckOutcome("forms/old-behaviour", at is not None and at < "2015-01-01")]

    items = find_outdated([entry], terminology=CORPUS.terminology, check_runner=runner)
    kinds = {(item.variant.date, r.kind) for item in items for r in item.reasons}
    assert ("2014-11-24", Reason.CHECK_FAILS) in kinds
    assert ("2018-07-13", Reason.CHECK_FAILS) not in kinds


def test_identical_reissue_is_not_superseded():
    entry = _entry([_v("Same words.", "2018-07-13"), _v("Same words.", "2014-11-24", Relation.DUPLICATE)])
    assert find_outdated([entry], terminology=CORPUS.terminology) == []


def _cv(text, date, card, source="page.txt", lang=Lang.EN):
    return Variant(text, text, lang, date, source, 1, Relation.DUPLICATE, 1.0, card)


DOG_WALKER = "Dog Walker's triggered ability creates the Dog tokens tapped. They aren't attacking even if Dog Walker is."


@pytest.mark.parametrize("older", [DOG_WALKER.replace("attacking even", "attacking, even"),  # a comma
                                   DOG_WALKER.upper(), DOG_WALKER.replace(" tapped.", "  tapped .")])
def test_a_wording_differing_only_in_punctuation_case_or_spacing_is_not_superseded(older):
    """tryout21 defect 2: the same sentence with a comma (a judge's page, 2024-01-20) and without
    (MTGJSON, 2024-02-02), one duplicate at similarity 1.00, and the older copy and its only German
    translation were marked superseded: an identical re-issue never is."""
    german = "Die ausgelöste Fähigkeit der Hundeausführerin erzeugt die Hund-Spielsteine getappt."
    entry = _entry([_cv(DOG_WALKER, "2024-02-02", "Dog Walker", "set.json"),
                    _cv(older, "2024-01-20", "Dog Walker"), _cv(german, "2024-01-20", "Dog Walker", lang=Lang.DE)])
    assert _find(entry) == []
    # a later (official) wording that differs in words, the entry's canonical text, still replaces both
    newer = _cv("Dog Walker's ability creates two tapped Dog tokens that aren't attacking.", "2025-01-01", "Dog Walker",
                "set2.json")
    flagged = {(i.variant.lang, i.variant.date) for i in _find(_entry([newer, *entry.variants]))}
    assert flagged == {(Lang.EN, "2024-02-02"), (Lang.EN, "2024-01-20"), (Lang.DE, "2024-01-20")}


def _find(entry, **kw):
    return find_outdated([entry], terminology=CORPUS.terminology, **kw)


@dataclass(frozen=True)
class _Reworded:
    """A RuleHistory of a clause reworded from `then` to `now` in the CR of 2024-11-08, whatever the
    ruling's date; it can't tell the CR before that one."""
    then: str
    now: str
    common_words: frozenset[str] = frozenset()

    def __call__(self, clause: str, at: str) -> tuple[str, str, str, list[str]]:
        return clause, self.then, self.now, ["2024-11-08"]

    def since(self, clause: str, date: str) -> None:
        return None

    def cited(self, number: str, at: str | None, ruling: str, by: tuple[str, str] | None = None) -> None:
        return None


def test_a_wording_is_superseded_only_for_the_cards_that_have_the_newer_one():
    entry = _entry([_cv("New words.", "2018-07-13", "Lightform"), _cv("Old words.", "2014-11-24", "Lightform"),
                    _cv("Old words.", "2014-11-24", "Arashin War Beast")])
    flagged = {(i.variant.card, i.variant.text) for i in _find(entry)}
    assert flagged == {("Lightform", "Old words.")}


def test_a_newer_wording_inside_an_older_one_does_not_supersede_it():
    entry = _entry([_cv("Some previous sets. If a card is manifested, it stays.", "2018-07-13", "Lightform"),
                    _cv("If a card is manifested, it stays.", "2024-09-20", "Lightform")])
    assert _find(entry) == []


def test_a_card_less_copy_is_superseded_only_where_every_card_replaced_it():
    entry = _entry([_cv("New words.", "2018-07-13", "Lightform"), _cv("Old words.", "2014-11-24", "Lightform"),
                    _cv("Old words.", "2014-11-24", "Arashin War Beast"), _cv("Old words.", None, None)])
    assert (None, "Old words.") not in {(i.variant.card, i.variant.text) for i in _find(entry)}
    only_lightform = _entry([_cv("New words.", "2018-07-13", "Lightform"), _cv("Old words.", "2014-11-24", "Lightform"),
                             _cv("Old words.", None, None)])
    assert (None, "Old words.") in {(i.variant.card, i.variant.text) for i in _find(only_lightform)}


def test_german_terms_flag_german_variants_only():
    entry = _entry([_cv("It has a mana value of 0.", "2021-04-22", "Lightform"),
                    _cv("Sie hat umgewandelte Manakosten von 0.", "2014-11-24", "Lightform", lang=Lang.DE),
                    _cv("Los en juego.", "2021-04-22", "Lightform", lang=Lang.DE)])
    terms = [(i.variant.lang, r.kind) for i in _find(entry) for r in i.reasons]
    assert terms == [(Lang.DE, Reason.TERMINOLOGY)]


def _items_three_copies():
    old = "It has a converted mana cost of 0."
    entry = _entry([_cv("It has a mana value of 0.", "2021-04-22", "Lightform"),
                    _cv(old, "2014-11-24", "Lightform", "a.json"), _cv(old, "2014-11-24", "Lightform", "b.json"),
                    _cv(old, "2014-11-24", "Cloudform", "a.json")])
    history = _Reworded("A face-down permanent has a mana value of 0.", "A face-down permanent has a mana value of 1.")

    from kb.model import RuleLink

    entry = Entry(**{**{f: getattr(entry, f) for f in entry.__dataclass_fields__},
                     "rules": (RuleLink("708.9", 1.0, "707.9", ""),)})
    return _find(entry, rule_history=history)


def test_copies_of_a_wording_fold_into_one_item_with_where_it_appears():
    wordings = group_wordings(_items_three_copies())
    (w,) = [w for w in wordings if "converted" in w.text]
    assert len(w.items) == 3 and w.cards == ["Cloudform", "Lightform"] and w.sources == ["a.json", "b.json"]
    assert w.to_json()["count"] == 3 and len(w.to_json()["appears"]) == 3
    assert w.level is Level.OUTDATED


def test_card_filter_takes_the_wordings_given_for_that_card():
    items = _items_three_copies()
    only = filter_items(items, card="Cloudform")
    assert {i.variant.card for i in only} == {"Cloudform"} and len(group_wordings(only)) == 1


def test_rule_change_alone_is_review_level_and_summary_counts_own_wordings():
    items = _items_three_copies()
    review = [i for i in items if i.kinds == ["rule-changed"]]
    assert review and all(i.level is Level.REVIEW for i in review)
    assert all(i.level is Level.OUTDATED for i in filter_items(items, levels={Level.OUTDATED}))
    summary = summarize(group_wordings(filter_items(items, levels={Level.OUTDATED})))
    assert summary["by_card"] == {"Lightform": 1, "Cloudform": 1} and summary["wordings"] == 1


def test_cli_outdated_one_item_per_wording_levels_card_and_summary(monkeypatch):
    from cli.main import app

    monkeypatch.setenv("KB_EMBEDDER", "fake")
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(app, ["outdated", *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    default = run("--json")
    assert default and {"entry", "text", "level", "reasons", "count", "cards", "sources", "appears"} <= set(default[0])
    assert len({(w["entry"], w["text"]) for w in default}) == len(default)
    assert all(w["level"] == "outdated" for w in default)
    review = run("--review", "--json")
    assert review and all(w["level"] == "review" and [r["kind"] for r in w["reasons"]] == ["rule-changed"]
                          for w in review)
    assert len(run("--all", "--json")) == len(default) + len(review)
    lightform = run("--card", "Lichtform", "--json")
    assert lightform and all("Lightform" in {a["card"] for a in w["appears"]} for w in lightform)
    assert len(lightform) < len(default)
    summary = run("--summary", "--json")
    assert summary["wordings"] == len(default) and summary["by_card"]["Lightform"] == len(lightform)
    assert summary["by_reason"]["superseded"] > 0 and summary["by_reason"]["terminology"] > 0
    # the text summary lists the most affected cards, not thousands of rows (issue 10, 100k rulings)
    monkeypatch.setattr("cli.render.SUMMARY_ROWS", 2)
    text = runner.invoke(app, ["outdated", "--summary"]).output
    top = sorted(summary["by_card"].items(), key=lambda kv: (-kv[1], kv[0]))
    assert top[0][0] in text and top[1][0] in text and top[2][0] not in text
    assert f"and {len(top) - 2} more cards; --json lists them all" in " ".join(text.split())
    assert runner.invoke(app, ["outdated", "--fail-on", "terminology"]).exit_code == 1
    only = run("--kind", "terminology", "--json")
    assert only and all(any(r["kind"] == "terminology" for r in w["reasons"]) for w in only)
    assert runner.invoke(app, ["outdated", "--kind", "nonsense"]).exit_code == 1


def test_a_rule_change_names_the_words_as_the_ruling_writes_them_not_their_stems():
    # Willbender (2018): the review note said "in words the ruling uses: howev"
    from kb.model import RuleLink

    ruling = "However, you can't change the target to an illegal target."
    entry = _entry([_cv(ruling, "2018-03-16", "Willbender")])
    entry = Entry(**{**{f: getattr(entry, f) for f in entry.__dataclass_fields__},
                     "rules": (RuleLink("608.2b", 1.0, "608.2b", ""),)})
    history = _Reworded("However, an illegal target is not changed.", "An illegal target isn't affected.")
    (item,) = _find(entry, rule_history=history)
    (reason,) = item.reasons
    # "however" is a joining word, no reason (tryout20); "change" is written as the ruling writes it
    assert reason.detail.endswith("in words the ruling uses: change")


TAPPED_2014 = "Turning a face-down permanent face up doesn't change whether it is tapped."
TAPPED_2018 = "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped."
TAPPED_NOTE = TAPPED_2018.replace("untapped.", "untapped, says my note.")
TAPPED_DE_2014 = "Das Aufdecken einer verdeckten bleibenden Karte ändert nicht, ob sie getappt ist."


def _official(source: str) -> bool:
    return source.startswith("corpus/")


def test_a_judges_newer_page_does_not_supersede_an_official_copy():
    """tryout21 defect 8, what was left: Cloudform's official 2014 wording (and its German) were
    "superseded" by one judge's hand-typed 2024 page, though the official wording stays the entry's
    text. An official copy is replaced only by an official wording; the page stays a revision."""
    entry = _entry([_cv(TAPPED_2018, "2018-07-13", "Lightform", "corpus/lightform.json"),
                    _cv(TAPPED_2014, "2014-11-24", "Cloudform", "corpus/cloudform.json"),
                    _cv(TAPPED_DE_2014, "2014-11-24", "Cloudform", "corpus/cloudform-de.txt", lang=Lang.DE),
                    _cv(TAPPED_NOTE, "2024-11-08", "Cloudform", "/judge/cloudform.txt")])
    assert _find(entry, is_official=_official) == []
    # without telling official sources apart, the page replaced both (what the KB said before)
    assert {i.variant.text for i in _find(entry)} == {TAPPED_2014, TAPPED_DE_2014}


def test_an_official_reissue_still_supersedes_an_official_wording_beside_a_judges_page():
    """The 2018 official reissue replaces the 2014 official wording and its translation, dated by
    the reissue and with its text (not the judge's later page); a judge's own older page is
    replaced by the judge's newer one as before."""
    mine_2016 = "A face-down permanent turned face up stays tapped if it was tapped, says my old note."
    entry = _entry([_cv(TAPPED_2018, "2018-07-13", "Cloudform", "corpus/cloudform-2018.json"),
                    _cv(TAPPED_2014, "2014-11-24", "Cloudform", "corpus/cloudform.json"),
                    _cv(TAPPED_DE_2014, "2014-11-24", "Cloudform", "corpus/cloudform-de.txt", lang=Lang.DE),
                    _cv(mine_2016, "2016-01-01", "Cloudform", "/judge/old.txt"),
                    _cv(TAPPED_NOTE, "2024-11-08", "Cloudform", "/judge/cloudform.txt")])
    found = {i.variant.text: i for i in _find(entry, is_official=_official)}
    assert set(found) == {TAPPED_2014, TAPPED_DE_2014, mine_2016}
    for official in (TAPPED_2014, TAPPED_DE_2014):
        assert found[official].current_text == TAPPED_2018
        assert "replaced on 2018-07-13" in found[official].reasons[0].detail
    assert found[mine_2016].current_text == TAPPED_NOTE and "replaced on 2024-11-08" in found[mine_2016].reasons[0].detail


def test_a_rule_change_the_corpus_cannot_date_after_the_ruling_is_not_said_to_come_after_it(history):
    """The corpus's CRs are samples (tryout26 #7): 103.5's 2018 rewording is first seen in the CR of
    2018-07-13, and the corpus's CR before is of 2015-01-23, so for a ruling of 2016-08-23 it may have
    come before the ruling; the London mulligan, first seen in 2024-11-08 after the CR of 2018-07-13,
    surely came after it."""
    from kb.model import RuleLink

    ruling = ("Even though your starting hand size is five, nothing else about the pregame procedure changes. "
              "If you don't take two or more mulligans in a multiplayer game, you won't be able to \"scry\" "
              "before the game starts.")
    assert history.since("103.5", "2018-07-13") == "2015-01-23"
    entry = _entry([_cv(ruling, "2016-08-23", "Lightform")])
    entry = Entry(**{**{f: getattr(entry, f) for f in entry.__dataclass_fields__},
                     "rules": (RuleLink("103.5", 1.0, "103.4", ""),)})
    (item,) = _find(entry, rule_history=history)
    (reason,) = item.reasons
    assert reason.detail.startswith(
        "103.5 (then 103.4) was reworded between the CRs of 2015-01-23 and 2018-07-13 (none between in the KB: "
        "maybe before 2016-08-23), and reworded after 2016-08-23 (CR of 2024-11-08) in words the ruling uses:")


def test_an_undated_copy_is_not_said_to_be_replaced_on_the_dated_wordings_date():
    """tryout27 D10: a judge's undated page (a card list generated in 2026) held the first half of
    the DSK manifest dread ruling of 2024-09-20. The KB said it "was replaced on 2024-09-20"; an
    undated copy may be newer than that: it is that a dated wording exists to quote instead."""
    whole = ("If your library contains only one card when you manifest dread, you'll look at that card and put it "
             "onto the battlefield face down. If your library contains no cards when you manifest dread, you won't "
             "do anything.")
    half = whole.split(" If your library contains no")[0]
    entry = _entry([_cv(whole, "2024-09-20", "Unsettling Twins", "corpus/dsk.json"),
                    _cv(half, None, None, "/judge/list.txt")])
    (item,) = _find(entry)
    assert item.variant.text == half and item.current_text == whole
    assert item.reasons[0].detail == "this wording is undated; a dated wording of this ruling exists (2024-09-20)"


# tryout30 D4: a nonland card "played" by its name was cast ("If you play Clone"): only the card's type
# tells it from a land played, so the build's outdated stage reads the corpus's cards
@pytest.mark.parametrize("old, card, suggested", [
    ("If you play Clone, it can copy a face-down creature and become a 2/2 with no abilities.", "Clone",
     "If you cast Clone, it can copy a face-down creature and become a 2/2 with no abilities."),
    ("Playing the Onslaught card Artificial Evolution on an amplify spell changes the creature type it checks.",
     "Artificial Evolution",
     "Casting the Onslaught card Artificial Evolution on an amplify spell changes the creature type it checks."),
    # review41 #5: a comma ends a known name when another known card follows it, not a longer name
    ("If you play Clone, Clone enters as a copy of a creature of your choice.", "Clone",
     "If you cast Clone, Clone enters as a copy of a creature of your choice."),
    ("When you play Clone, Vesuvan Doppelganger can't copy it until it resolves.", "Clone",
     "When you cast Clone, Vesuvan Doppelganger can't copy it until it resolves."),
])
def test_a_nonland_card_played_by_its_name_was_cast(old, card, suggested):
    entry = _entry([_cv(old, "2003-02-03", None)])
    [item] = compute_outdated([entry], CORPUS)
    [reason] = item.reasons
    assert reason.kind is Reason.TERMINOLOGY and card in reason.detail and "'cast a spell'" in reason.detail
    assert item.suggested == suggested


@pytest.mark.parametrize("text", [
    "You may play Forest from the top of your library.",  # a land is played
    "If you play Dryad Arbor, it's a land creature, so it's played, not cast.",  # a land creature too
    "In a game you play Two-Headed Giant, the team shares a life total.",  # the CR's variant, not the card
    "If you play Urza, Lord High Artificer, the face-down creature is no Construct.",  # a card the KB doesn't know
    "If you play Clone, Master of Forms, the face-down creature is no copy.",  # nor one whose name starts as a known card's
    "Any player may play Sliver cards any time.",  # a creature type, not a card's name
    # review41 #5: a set or product sharing a card's name (the sorcery Time Spiral, the enchantment Conspiracy)
    "Before the Time Spiral release, if you play Time Spiral booster drafts you open a card from the past.",
    "Players who play Conspiracy drafts may look at the cards drafted face up.",
    "If you play Future Sight Sealed, the face-down creature stays face down.",
])
def test_a_land_a_variant_or_an_unknown_name_played_is_no_obsolete_term(text):
    assert compute_outdated([_entry([_cv(text, "2003-02-03", None)])], CORPUS) == []
