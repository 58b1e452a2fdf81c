"""Rule links follow what a ruling is about (issue 12, item 5): the mechanic its own words name (not one it
gives as an example or contrasts with, not an older wording's), the keyword its words name over the
mechanic of its cards, and no clause of a card type it never names."""

from __future__ import annotations

import pytest

from kb.cr import links
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.corpus import Corpus

CORPUS = Corpus.default()


@pytest.fixture(scope="module")
def rules():
    return CORPUS.rules


@pytest.fixture(scope="module")
def card_texts():
    return CORPUS.card_texts


def entry(text: str, cards: tuple[str, ...] = (), older: str | None = None) -> Entry:
    """A ruling whose canonical wording is `text` (2024), with an `older` revision (2014) if given."""
    variants = [Variant(text, text, Lang.EN, "2024-02-02", "test", 1, Relation.CANONICAL, 1.0, cards[0] if cards else None)]
    if older:
        variants.append(Variant(older, older, Lang.EN, "2014-09-20", "test", 2, Relation.REVISION, 0.9,
                                cards[-1] if cards else None))
    return Entry("r1", Kind.RULING, text, cards, "2014-09-20" if older else "2024-02-02", "2024-02-02", tuple(variants))


def clauses(e: Entry, rules, card_texts) -> list[str]:
    [linked] = links.link_entries([e], rules, [], card_texts)
    return [r.clause for r in linked.rules]


@pytest.mark.parametrize("text, mechanics", [
    # a mechanic named in an example is not the ruling's
    ("If a face-down creature with megamorph is turned face up some other way (for example, if you manifest a card "
     "with megamorph and pay its mana cost), you won't put a +1/+1 counter on it.", {"megamorph", "morph"}),
    # nor one the ruling contrasts its subject with
    ("Unlike a face-down creature that was cast using a disguise or morph ability, a manifested creature may still "
     "be turned face up after it loses its abilities.", {"manifest"}),
])
def test_a_mechanic_named_as_an_example_or_a_contrast_is_not_the_rulings(text, mechanics):
    assert links.ruling_mechanics(text).named == mechanics


def test_a_megamorph_ruling_with_a_manifest_example_gets_no_manifest_clause(rules, card_texts):
    got = clauses(entry("If a face-down creature with megamorph is turned face up some other way (for example, if "
                        "you manifest a card with megamorph and pay its mana cost), you won't put a +1/+1 counter "
                        "on it.", ("Ainok Survivalist",)), rules, card_texts)
    assert got[0] == "702.37b" and not [c for c in got if c.startswith("701.40")], got


def test_a_manifest_ruling_that_says_turned_face_up_cites_manifests_turn_up_clause(rules, card_texts):
    got = clauses(entry("Unlike a face-down creature that was cast using a disguise or morph ability, a manifested "
                        "creature may still be turned face up after it loses its abilities if it's a creature card.",
                        ("Cloudform",)), rules, card_texts)
    assert got[0] == "701.40b", got


def test_turned_face_up_in_a_card_ruling_is_no_reason_for_its_cards_mechanic(rules, card_texts):
    """The words name no mechanic: the card's morph is context, not the subject (708.11, not 702.37e)."""
    got = clauses(entry("If a face-down Horde Ambusher blocks and is then turned face up, its first ability won't "
                        "trigger because it didn't have that ability when blockers were declared.",
                        ("Horde Ambusher",)), rules, card_texts)
    assert got and got[0] != "702.37e", got


def test_the_newest_wording_names_the_mechanic_not_an_older_revision(rules, card_texts):
    newest = ("Any time you have priority, you may turn the face-down creature face up by revealing what its "
              "disguise cost is and paying that cost. This is a special action.")
    older = newest.replace("disguise cost", "morph cost")
    got = clauses(entry(newest, ("Bubble Smuggler", "Abzan Guide"), older=older), rules, card_texts)
    assert got[0] == "702.168d" and "702.37e" not in got, got


def test_of_a_subsumed_mechanics_clause_a_shared_cue_takes_only_the_specific_one(rules, card_texts):
    """"special action" has a clause per mechanic: for a megamorph ruling megamorph's 702.37b, not also morph's
    702.37e, then the cue's general rule 116.2b."""
    got = clauses(entry("Turning a face-down creature with megamorph face up is a special action. It doesn't use the "
                        "stack.", ("Ainok Survivalist",)), rules, card_texts)
    assert got[:2] == ["702.37b", "116.2b"], got


@pytest.mark.parametrize("text, cards, clause", [
    ("To manifest dread, look at the top two cards of your library. Manifest one of them and put the other into "
     "your graveyard. The manifested card is a 2/2 face-down creature with no name.", ("Hauntwoods Shrieker",),
     "701.62a"),
    ("Morph lets you cast a card face down for {3} and turn it face up later for its morph cost.", ("Abzan Guide",),
     "702.37a"),
])
def test_a_ruling_that_opens_by_defining_a_mechanic_cites_its_definition(rules, card_texts, text, cards, clause):
    assert clauses(entry(text, cards), rules, card_texts)[0] == clause


def test_a_keyword_the_words_name_beats_the_mechanic_of_the_card(rules, card_texts):
    """Willbender has morph, but the ruling is about split second and special actions."""
    got = clauses(entry("If a spell with split second is on the stack, you can still respond by turning this "
                        "creature face up. Split second only stops players from casting spells or activating "
                        "abilities, while turning a creature face up is a special action.", ("Willbender",)),
                  rules, card_texts)
    assert got[0] in ("702.61b", "116.2b"), got


def test_a_face_down_ruling_gets_no_clause_of_a_card_type_it_never_names(rules, card_texts):
    """315.7 (face-down conspiracies) shares "looking at face-down ... they control" with the ruling: it was
    Keeper of the Lens's second link."""
    text = "Keeper of the Lens doesn't stop your opponents from looking at face-down creatures they control."
    got = clauses(entry(text, ("Keeper of the Lens",)), rules, card_texts)
    assert got == ["708.5"], got
    assert not [c for c in links.rank_clauses(text, rules) if c.clause.startswith("315.")]
    named = links.rank_clauses("Your opponents can't look at face-down conspiracies you control.", rules)
    assert "315.7" in [c.clause for c in named[:3]], named[:3]


@pytest.mark.parametrize("text, cards, keyword", [
    ("If you gain control of a Noble Banneret, but you didn't draft one, there will be no applicable noted names. "
     "It won't get +1/+1 or have lifelink.", ("Noble Banneret",), "702.15"),
    ("If an attacking face-down Dirgur Nemesis is turned face up, it will continue to be attacking even though it "
     "will have defender.", ("Dirgur Nemesis",), "702.3"),
])
def test_a_keyword_a_creature_only_will_have_or_wont_get_is_no_link(rules, card_texts, text, cards, keyword):
    [linked] = links.link_entries([entry(text, cards)], rules, [], card_texts)
    assert not [r.clause for r in linked.rules if r.clause.startswith(keyword)], linked.rules
    assert linked.rules or linked.link_note.startswith("no confident link")
