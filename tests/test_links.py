"""Rule links: rule entries link to themselves, rulings to the clauses they interpret."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml

from kb.cr import links
from kb.errors import InputError
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.corpus import Corpus

CORPUS = Corpus.default()

DATA = Path(__file__).parent / "data"
LABELLED = yaml.safe_load((DATA / "labelled_links.yaml").read_text(encoding="utf-8"))
# Measured without the override file (see test_labelled_precision_and_recall); asserted a bit below.
MIN_P_AT_1 = 0.72
MIN_RECALL = 0.55


@pytest.fixture(scope="module")
def rules():
    return CORPUS.rules


def ruling(text: str, date: str | None = "2014-11-24", lang: Lang = Lang.EN, entry_id: str = "r1") -> Entry:
    v = Variant(text, text, lang, date, "test", 1, Relation.CANONICAL, 1.0, "Lightform")
    return Entry(entry_id, Kind.RULING, text, ("Lightform",), date, date, (v,))


def top(entry: Entry, rules, overrides=()) -> list[str]:
    return [r.clause for r in links.link_entries([entry], rules, overrides, CORPUS.card_texts)[0].rules]


def test_rule_entry_links_to_its_own_clause(rules):
    text = "Some cards allow spells and permanents to be face down."
    v = Variant(text, text, Lang.EN, None, "seed", 3, Relation.CANONICAL, 1.0, None)
    entry = Entry("rule-1", Kind.RULE, text, (), None, None, (v,), clause="708.1")
    [linked] = links.link_entries([entry], rules, [], CORPUS.card_texts)
    assert [(r.clause, r.score) for r in linked.rules] == [("708.1", 1.0)]


@pytest.mark.parametrize("text, clause", [
    ("Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.", "110.5"),
    ("At any time, you can look at a face-down permanent you control.", "708.5"),
    ("If a face-down permanent you control leaves the battlefield, you must reveal it.", "708.9"),
    ("If the enchanted creature is turned face up, the \"Form\" will continue to enchant it.", "708.8"),
    # tryout26 #9: the clause that says "copiable values" first, not 708.2a's default characteristics
    ("The face-down characteristics of a permanent are copiable values. If another object becomes a copy of a "
     "face-down creature, that new object is a 2/2 colorless face-up creature with no abilities.", "708.2"),
])
def test_face_down_rulings_cite_the_clause_first(rules, text, clause):
    assert top(ruling(text), rules)[0] == clause


def test_links_carry_the_number_in_force_at_the_ruling_date_and_evidence(rules):
    [linked] = links.link_entries([ruling("At any time, you can look at a face-down permanent you control.",
                                          date="2018-07-13")], rules, [], CORPUS.card_texts)
    first = linked.rules[0]
    assert (first.clause, first.at_ruling_date) == ("708.5", "707.5")
    assert 'cue "look at"' in first.evidence
    assert 0 < first.score <= 1
    assert [r.score for r in linked.rules] == sorted((r.score for r in linked.rules), reverse=True)


def test_manifest_clause_did_not_exist_before_fate_reforged(rules):
    [linked] = links.link_entries([ruling("If a manifested creature would have morph if it were face up, you may "
                                          "also turn it face up by paying its morph cost.")], rules, [], CORPUS.card_texts)
    assert linked.rules[0].clause == "701.40c"
    assert linked.rules[0].at_ruling_date is None  # the CR of 2014-09-25 had no manifest


def test_german_only_ruling_is_linked_by_cues(rules):
    text = "Das Aufdecken oder Verdecken einer bleibenden Karte ändert nicht, ob jene bleibende Karte getappt oder ungetappt ist."
    assert top(ruling(text, lang=Lang.DE), rules)[0] == "110.5"


def test_ruling_without_evidence_abstains_visibly(rules):
    [linked] = links.link_entries([ruling("Zzz qqq.")], rules, [], CORPUS.card_texts)
    assert linked.rules == ()
    assert linked.link_note.startswith("no confident link")
    assert Entry.from_json(linked.to_json()).link_note == linked.link_note
    assert "link_note" not in links.link_entries([ruling("Turning a permanent face up or face down doesn't change "
                                                         "whether that permanent is tapped or untapped.")],
                                                 rules, [], CORPUS.card_texts)[0].to_json()


def test_override_replaces_links_by_quote(rules):
    overrides = links.parse_overrides(
        '- quote: "whether that permanent is TAPPED"\n  clauses: ["708.8"]\n  note: test\n')
    entry = ruling("Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.")
    [linked] = links.link_entries([entry], rules, overrides, CORPUS.card_texts)
    assert linked.rules[0].clause == "708.8"
    assert linked.rules[0].evidence.startswith("reviewed override: test")


@pytest.mark.parametrize("doc", ["{a: 1}", "- clauses: ['708.8']", "- quote: x", "- quote: x\n  add: [", ])
def test_malformed_overrides_are_refused(doc):
    with pytest.raises(InputError):
        links.parse_overrides(doc)


def test_bundled_overrides_parse_and_name_existing_clauses(rules):
    for o in CORPUS.overrides:
        for n in (*o.clauses, *o.add, *o.remove):
            assert n in rules.current.clauses, (o.quote, n)


def test_labelled_precision_and_recall(rules):
    """Automatic links only (no override file), over the hand-labelled rulings."""
    entries = [ruling(item["text"], item["date"], Lang(item["lang"]), f"r{i}") for i, item in enumerate(LABELLED)]
    linked = links.link_entries(entries, rules, overrides=[], cards=CORPUS.card_texts)
    predicted = {item["quote"]: [r.clause for r in e.rules] for item, e in zip(LABELLED, linked)}
    gold = {item["quote"]: item["clauses"] for item in LABELLED}
    metrics = links.precision_recall(predicted, gold)
    print(f"labelled links: {metrics}")
    assert metrics["items"] >= 30
    assert metrics["p_at_1"] >= MIN_P_AT_1
    assert metrics["recall"] >= MIN_RECALL


def test_every_ingested_ruling_has_a_link_or_says_why_not(rules):
    from kb import cards, ingest, paths
    from kb.ingest import dedup

    corpus = paths.corpus_dir()
    result = ingest.ingest(ingest.bundled_sources(corpus), names=cards.load_names(corpus),
                           match_clause=CORPUS.match_clause)
    entries = links.link_entries(dedup.deduplicate(result.records, embedder=None), rules, CORPUS.overrides,
                                  CORPUS.card_texts)
    assert entries and all(bool(e.rules) != bool(e.link_note) for e in entries if e.kind is Kind.RULING)
    assert all(e.rules[0].clause == e.clause for e in entries if e.kind is Kind.RULE)


@pytest.mark.parametrize("text", [
    "The card is revealed when it leaves the battlefield.", "If it leaves, reveal it.",
    "Reveal it.\nIt leaves.", "Revealing it as it leaves", "It leaves the game; reveal it",
    "reveals the game ends", "unrevealed cards leave", "leave the game revealed", "revealed" * 3 + " leaves",
    "leaves the battlefield " * 200 + "revealed", "reveal " * 300 + "nothing else",
])
def test_ordered_cue_agrees_with_its_regex(text: str) -> None:
    """The "reveal when it leaves" cue is tested pair by pair (linear) instead of by its regex
    (backtracking over every variant of an entry); both must find the same texts."""
    cue = next(c for c in links.CUES if c.ordered)
    assert cue.found_in(text) == (cue.pattern.search(text) is not None)


# --------------------------------------------------------------------------------------------
# Mechanics, keywords, abstention, overrides (issue 12)

REAL = yaml.safe_load((DATA / "labelled_links_real.yaml").read_text(encoding="utf-8"))
# Top-1 on the real labelled rulings (abstentions are misses), measured with bench/links_quality.py
# conditions but on the entries built from the labels; asserted a bit below.
# dev: the 58 first-sampled items and the 32 of the fresh sample of issue 12 item 5 (seed 20261201), halved by
# `_half` into dev-A (tune) and dev-B (check a change generalises while working), as bench/links_quality.py does;
# and the 20 + 12 of links7 (seeds 20261204: 10 dev, 10 test; 20261206: 12 dev), the 26 of links8 (seed 20261207:
# 13 dev, 13 test). measured 63/68 = 0.93, 70/76 = 0.92, 46/78 = 0.59 (links7: 61/65, 65/70, 39/65 before the
# links8 labels). links9's fresh batches (splits dev-C, dev-D: 27 + 18 labelled) and links11's (dev-E: 17) are
# measured by the bench only.
MIN_REAL_TOP1 = {"dev-A": 0.92, "dev-B": 0.92, "test": 0.58}


def _half(item: dict) -> str:
    """bench/links_quality.py's `split_of`: the dev items halved by a salted hash of their quote."""
    if item["split"] != "dev":
        return item["split"]
    return "dev-A" if int(hashlib.sha1(("dev-half:" + item["quote"]).encode()).hexdigest(), 16) % 2 == 0 else "dev-B"


@pytest.fixture(scope="module")
def card_texts():
    return CORPUS.card_texts


def card_ruling(text: str, cards: tuple[str, ...], date: str = "2024-02-02", lang: Lang = Lang.EN) -> Entry:
    v = Variant(text, text, lang, date, "test", 1, Relation.CANONICAL, 1.0, cards[0] if cards else None)
    return Entry("r1", Kind.RULING, text, cards, date, date, (v,))


def linked_clauses(entry: Entry, rules, card_texts) -> list[str]:
    return [r.clause for r in links.link_entries([entry], rules, [], card_texts)[0].rules]


def test_a_face_down_word_alone_is_no_link_to_the_708_heading(rules, card_texts):
    """Nothing points at a clause: the ruling abstains, as any other, rather than linking the section heading 708
    (the four rulings of the bundled corpus that fell back to it were about drafting, costs and zone changes).
    A draft ruling (Conspiracy Draft, 905) that says "face up" and "face down" in passing:"""
    text = ('You still draft the card that you remove. This may matter if an ability refers to "the next card you '
            'draft" or similar. If that card instructs you to draft it face up, do so, then turn it face down as you '
            "remove it. If that card instructs you to reveal it as you draft it and then perform additional actions, "
            "perform those actions before turning the card face down and removing it from the draft.")
    [linked] = links.link_entries([card_ruling(text, ("Cogwork Grinder",), "2014-05-29")], rules, [], card_texts)
    assert [r.clause for r in linked.rules] == [], linked.rules
    assert linked.link_note.startswith("no confident link")


@pytest.mark.parametrize("text, cards, section", [
    ("Morph lets you cast a card face down by paying {3}, and lets you turn the face-down permanent face up any "
     "time you have priority by paying its morph cost.", ("Abzan Guide",), "702.37"),
    ("Megamorph is a variant of the morph ability. You can find more information on morph on cards with morph "
     "from the Khans of Tarkir set.", ("Ainok Survivalist",), "702.37b"),
    ("A disguise ability lets you cast a card face down by paying {3} and announcing that you are using a disguise "
     "ability. Any time you have priority, you can turn a face-down permanent with disguise face up by paying its "
     "disguise cost.", ("Bubble Smuggler",), "702.168"),
    ("If your library contains only one card when you manifest dread, you'll look at that card and put it onto the "
     "battlefield face down.", ("Hauntwoods Shrieker",), "701.62"),
    ("Any time you have priority, you can turn a manifested permanent you control face up by revealing that it's a "
     "creature card and paying its mana cost. This is a special action.", ("Cloudform",), "701.40b"),
    ("Any time you have priority, you may turn a cloaked permanent you control face up by revealing that it's a "
     "creature card and paying its mana cost. This is a special action.", (), "701.58b"),
])
def test_a_mechanics_ruling_cites_its_own_clauses_first(rules, card_texts, text, cards, section):
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[0].startswith(section), got


def test_a_morph_ruling_gets_no_manifest_or_cloak_clause(rules, card_texts):
    text = ("If a face-down creature loses its abilities, it can't be turned face up with a morph ability because "
            "it will no longer have that ability (or the associated cost) once face up.")
    got = linked_clauses(card_ruling(text, ("Abzan Guide",)), rules, card_texts)
    assert got[0] == "702.37e"
    assert not [c for c in got if c.startswith(("701.40", "701.58", "701.62"))], got


def test_the_cards_oracle_text_tells_the_mechanic_when_the_words_do_not(rules, card_texts):
    text = ("The creature spell is a 2/2 creature spell with ward {2} that has no name, mana cost, or creature types. "
            "Both the spell and the resulting creature are colorless and have a mana value of 0.")
    assert linked_clauses(card_ruling(text, ("Bubble Smuggler", "Defenestrated Phantom")), rules, card_texts)[0] \
        == "702.168b"
    # without the cards, only ward tells disguise (test_face_down_characteristics_with_ward_...): without it, none
    unwarded = text.replace(" with ward {2}", "")
    assert not [c for c in linked_clauses(card_ruling(unwarded, ()), rules, card_texts) if c.startswith("702.168")]


@pytest.mark.parametrize("text, mechanics", [
    ("The pile is shuffled to disguise from your opponents which manifested creature is which.", {"manifest"}),
    ("If a manifested creature would have disguise or morph if it were face up, you may also turn it face up.",
     {"manifest", "disguise", "morph"}),
    ("Turning a face-down creature with megamorph face up is a special action.", {"megamorph", "morph"}),
    ("Some cards have abilities that trigger whenever you manifest dread.", {"manifest dread", "manifest"}),
    ("Falls eine manifestierte Kreatur Morph hätte, wenn sie aufgedeckt wäre.", {"manifest", "morph"}),
])
def test_mechanics_named_by_a_ruling(text, mechanics):
    assert links.ruling_mechanics(text).named == mechanics


@pytest.mark.parametrize("text, cards, unrelated", [
    # before issue 12 these got Web-slinging (702.188a), Mentor (702.134c) and Earthbend (701.66a) on top
    ("You can target a spell you control with Kheru Spellsnatcher's triggered ability. This will give you the "
     "ability to cast that card without paying its mana cost.", ("Kheru Spellsnatcher",), "702.188"),
    ("If Unidentified Hovership leaves the battlefield before its second ability resolves, the ability still exiles "
     "the target creature.", ("Unidentified Hovership",), "702.134"),
    ("If the controller of Unyielding Gatekeeper's last ability controlled the target permanent at the time the "
     "ability began to resolve, the permanent will return to the battlefield tapped.", ("Unyielding Gatekeeper",),
     "701.66"),
])
def test_a_keyword_clause_that_merely_shares_a_word_is_no_link(rules, card_texts, text, cards, unrelated):
    [linked] = links.link_entries([card_ruling(text, cards)], rules, [], card_texts)
    assert not [r.clause for r in linked.rules if r.clause.startswith(unrelated)]
    assert linked.rules or linked.link_note.startswith("no confident link")


@pytest.mark.parametrize("text, clause", [
    # 701.40e ("manifest multiple cards ... one at a time") shares more words; nothing here is about it
    ("This ability has no effect on abilities that instruct you to manifest cards.", "701.40a"),
    ("This ability has no effect on abilities that instruct you to manifest dread.", "701.62a"),
    ("If you choose 0 for X, you'll just cloak the top card of your library.", "701.58a"),
])
def test_a_ruling_naming_a_mechanic_and_none_of_its_rules_cites_its_definition(rules, card_texts, text, clause):
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[:1] == [clause]


def test_a_cue_for_one_of_the_mechanics_rules_wins_over_its_definition(rules, card_texts):
    text = "If an effect instructs you to manifest two cards, you manifest them one at a time."
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[:1] == ["701.40e"]


def test_a_ruling_that_restates_a_rule_in_the_second_person_links_it(rules, card_texts):
    """117.1b "A player may activate an activated ability any time they have priority": said with "you"."""
    text = "You can activate an activated ability any time you have priority, even if it's your opponent's turn."
    [first, *_] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)[0].rules
    assert first.clause == "117.1b" and "restates it" in first.evidence, first


def test_phrases_fold_person_and_articles():
    ruling = links._phrases("you may activate the ability any time you have priority".split())
    rule = links._phrases("a player may activate an ability any time they have priority".split())
    assert ruling & rule


def test_a_card_ruling_cites_the_general_rule_it_applies(rules, card_texts):
    text = ("If the target creature is an illegal target as Unwanted Remake tries to resolve, it won't resolve and "
            "none of its effects will happen. The creature's controller won't manifest dread.")
    assert linked_clauses(card_ruling(text, ("Unwanted Remake",)), rules, card_texts)[0] == "608.2b"


def test_override_add_and_remove_edit_the_automatic_links(rules):
    entry = ruling("Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.")
    auto = top(entry, rules)
    assert "110.5" in auto and "400.7" not in auto
    overrides = links.parse_overrides('- quote: "whether that permanent is tapped"\n  add: ["400.7"]\n  remove: ["110.5"]\n')
    edited = top(entry, rules, overrides)
    assert "400.7" in edited and "110.5" not in edited
    assert [c for c in edited if c != "400.7"] == [c for c in auto if c != "110.5"]


def test_ruling_candidates_hold_the_links_and_the_nearest_clause_of_an_abstention(rules, card_texts):
    """`ruling_candidates` (what bench/links_quality.py --diagnose reads) is every clause the linker scored: the
    chosen links come first in it, and a ruling that abstains still has its nearest clause there."""
    linked = ruling("Turning a permanent face up or face down doesn't change whether that permanent is tapped or "
                    "untapped.")
    found = links.ruling_candidates(linked, rules, card_texts)
    chosen, _ = links.link_candidates(linked, rules, card_texts)
    assert chosen and [c.clause for c in found[:len(chosen)]] == [c.clause for c in chosen]
    assert len(found) > len(chosen)
    # words a clause says and no cue: no link, but the clause is the first candidate
    abstains = ruling("The players take turns drafting in a random order they agree on before the draft begins.")
    assert links.link_candidates(abstains, rules, card_texts)[0] == []
    nearest = links.ruling_candidates(abstains, rules, card_texts)
    assert nearest and nearest[0].score > 0 and "BM25" in nearest[0].evidence


def test_a_clause_that_says_nearly_every_word_of_the_ruling_is_linked_without_a_cue(rules, card_texts):
    """603.3c restated in other order, no cue or glossary term: BM25 alone would abstain, but the clause says
    over `COVER_MIN` of the ruling's (idf-weighted) words, which is evidence enough."""
    restates = ruling("A triggered ability that is modal has its mode announced by its controller as the ability is "
                      "put on the stack.")
    chosen, note = links.link_candidates(restates, rules, card_texts)
    assert chosen and chosen[0].clause == "603.3c" and note == ""
    assert "of the ruling's words" in chosen[0].evidence


def test_coverage_needs_a_ruling_of_several_words(rules):
    """A short ruling is covered by many clauses by chance: under `COVER_WORDS` words no clause covers it."""
    index = links._index_for(rules)
    words = ["pile", "object", "zero", "contain"]
    short = set(links._content(" ".join(words)))
    assert short <= index.words[index.position["700.3d"]]
    assert links._coverage(short, index)("700.3d") == 0.0
    longer = short | set(links._content("more"))
    assert len(longer) >= links.COVER_WORDS and links._coverage(longer, index)("700.3d") >= links.COVER_MIN


def test_override_gives_a_link_to_an_abstaining_ruling(rules):
    overrides = links.parse_overrides('- quote: "zzz qqq"\n  add: ["100.1"]\n')
    [linked] = links.link_entries([ruling("Zzz qqq.")], rules, overrides, CORPUS.card_texts)
    assert [r.clause for r in linked.rules] == ["100.1"] and linked.link_note == ""


@pytest.mark.parametrize("split", ["dev-A", "dev-B", "test"])
def test_real_labelled_top1(rules, card_texts, split):
    """Automatic links on the labelled real rulings: the first link is a labelled clause (abstaining is a miss)."""
    items = [i for i in REAL if _half(i) == split and i["clauses"]]
    entries = [card_ruling(i["text"], tuple(i["cards"]), i["date"], Lang(i["lang"])) for i in items]
    linked = links.link_entries(entries, rules, [], card_texts)
    right = sum(bool(e.rules) and e.rules[0].clause in i["clauses"] for i, e in zip(items, linked))
    print(f"{split}: top-1 {right}/{len(items)}")
    assert len(items) >= 30
    assert right / len(items) >= MIN_REAL_TOP1[split]


# --------------------------------------------------------------------------------------------
# General rules for card-specific rulings: CR glossary terms and clause families (issue 12)


@pytest.mark.parametrize("text, clause", [
    # "State-Based Actions: See rule 704": the words choose 704.5f within the section
    ("If a creature's toughness is 0 or less, it's put into its owner's graveyard the next time state-based actions "
     "are checked.", "704.5f"),
    # "Upkeep Step" (rule 503) is also said "upkeep"
    ("The delayed triggered ability triggers at the beginning of your next upkeep.", "503.1a"),
    # the glossary says "Split Cards", the ruling "split card"
    ("If a split card is exiled this way, you may cast either half.", "709."),
])
def test_a_glossary_term_sends_to_the_clause_of_its_section_the_words_choose(rules, card_texts, text, clause):
    [first, *_] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)[0].rules
    assert first.clause.startswith(clause) and "glossary:" in first.evidence, first


def test_a_one_word_glossary_term_links_its_rule(rules, card_texts):
    """"Pile: A temporary grouping of cards. See rule 700.3." (a rare word of the CR). The ruling says more of what 700.3
    and its subrules say than the term (each card in exactly one pile): the term alone is no link (links44)."""
    got = linked_clauses(card_ruling("Your opponent separates those cards into two piles of their choice. Each card "
                                     "goes into exactly one pile.", ()), rules, card_texts)
    assert got[0] == "700.3"


def test_a_term_hit_leads_when_the_best_lexical_match_has_no_evidence(rules, card_texts):
    """BM25 alone prefers another clause; the glossary term "pile" is evidence, so 700.3 leads
    instead of the ruling abstaining."""
    [linked] = links.link_entries([card_ruling("A pile may be empty. In that case you put every card into your "
                                               "graveyard.", ())], rules, [], card_texts)
    assert [r.clause for r in linked.rules][:1] == ["700.3"], linked.link_note


def test_common_terms_and_face_down_words_are_no_glossary_cue(rules):
    labels = {c.label for c in links._index_for(rules).glossary}
    assert {"glossary: State-Based Actions", "glossary: Pile", "glossary: Upkeep Step"} <= labels
    # said in hundreds of clauses / an everyday word / the face-down mechanics have their own logic
    assert not labels & {"glossary: Triggered Ability", "glossary: Tapped", "glossary: Face Down"}


def test_a_keyword_named_only_as_an_example_is_the_link_when_nothing_else_is(rules, card_texts):
    got = linked_clauses(card_ruling("Abilities such as lifelink see the whole amount of damage dealt by the "
                                     "creature.", ()), rules, card_texts)
    assert got[:1] == ["702.15b"]


@pytest.mark.parametrize("text, clause", [
    ("You can't play a land exiled this way if you've already played a land this turn.", "305."),
    ("The tokens enter the battlefield as 4/4 Zombie creatures. They don't enter as 2/2 creatures and then grow.",
     "614.1c"),
    # "double-faced" names 712.15 and 712.16; the words choose 712.15a (can't transform while face down)
    ("If a double-faced card is manifested, it's put onto the battlefield face down. While face down, it can't "
     "transform.", "712.15a"),
])
def test_a_general_rule_cue_links_a_card_ruling(rules, card_texts, text, clause):
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[0].startswith(clause)


def test_a_word_only_one_clause_of_the_cr_says_is_evidence(rules, card_texts):
    [linked] = links.link_entries([card_ruling("Bobbleheads are artifacts, so anything that affects artifacts "
                                               "affects them.", ())], rules, [], card_texts)
    assert linked.rules[0].clause == "205.3g" and "rare words" in linked.rules[0].evidence


# --------------------------------------------------------------------------------------------
# General rules that card rulings apply, found on the fresh dev sample (issue 12 item 5, links4).
# The rulings here are written for the tests (not the labelled ones): the cues must read the rule, not a card.


@pytest.mark.parametrize("text, clause", [
    ("If the spell being copied was kicked, the copy is kicked too.", "707.10"),
    ("It creates a copy of the instant or sorcery spell on the stack; that copy isn't cast.", "707.10"),
    ("If the target creature is copying another creature, the token copies whatever that creature is copying.",
     "707.3"),
    ("You decide whether to sacrifice a creature as the triggered ability resolves.", "603.5"),
    ("Once the attacking creature is blocked, removing the blocker from combat won't change that. It remains "
     "blocked.", "509.1h"),
    ("The token enters the battlefield blocking the attacking creature you chose.", "509.4"),
    ("Putting a blocking creature onto the battlefield doesn't trigger abilities that trigger whenever a creature "
     "blocks.", "509.4"),
    ("If the creature gains that ability after it attacked, nothing happens: it didn't have that ability when it "
     "attacked.", "603.2"),
    ("If a token is exiled this way, you can't cast that token.", "111.7"),
    ("If your life total becomes 0 or less, you lose the game even though the effect says otherwise.", "704.5a"),
    ("Tapping the creature this way is a replacement effect. It can't be responded to.", "614.1 614.1a"),
    ("If an opponent chooses one of the face-down exiled cards to pay a cost, the card is chosen at random.",
     "406.4"),
    ("Cards exiled this way are exiled face up, and any player may examine them.", "406.3"),
    # "look at" a face-down exiled card is the exile zone's rule, not 708.5 (face-down spells and permanents)
    ("You may look at the face-down exiled card at any time, even if you no longer control the artifact.",
     "406.3"),
])
def test_a_card_ruling_links_the_general_rule_its_words_apply(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] and got[0] in clause.split(), got  # `clause`: the right ones, space-separated


# General rules restated on the fresh dev batch of links9 (dev-C); the rulings here are written for the tests.
@pytest.mark.parametrize("text, clause", [
    # 704.5a said with "zero"
    ("If you're reduced to zero life before the ability resolves, you lose the game.", "704.5a"),
    # 609.3: an instruction that can't be done in full is done as far as possible ("all of them")
    ("If there are fewer than three cards in your library, you reveal all of them.", "609.3"),
    # 111.6: a token isn't a card
    ("The ability doesn't count tokens that died this turn, because tokens aren't cards.", "111.6"),
    # 400.7: a card that leaves a zone other than the battlefield before its ability resolves is a new object
    ("If the creature card leaves your graveyard before the triggered ability resolves, it stays where it is.",
     "400.7"),
    # 113.6 said as "functions only if ... on the battlefield"
    ("The static ability functions only if the creature is on the battlefield. It doesn't work in your hand.",
     "113.6"),
    # "cards you own exiled with it": the linked abilities of 607.2a, words between "cards" and "exiled"
    ("You put into your hand only the cards you own exiled with the artifact.", "607.2a 406.6"),
])
def test_a_card_ruling_links_the_general_rule_its_words_apply_links9(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] and got[0] in clause.split(), got


# links46: a number counted (or a value determined) as the ability resolves is read once, as the effect is applied
# (608.2h), whatever combat or trigger words the ruling also says; the rulings are written for the test
@pytest.mark.parametrize("text", [
    "The number of attacking creatures is counted as the triggered ability resolves, not as it triggers.",
    "Its last ability counts the artifacts you control when that ability resolves, not when it is activated.",
    "The amount of life you gain is determined as the spell resolves. Creatures that left before then aren't counted.",
])
def test_a_number_counted_as_the_ability_resolves_is_608_2h(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["608.2h"], got


# links49: the spell that resolves is often named by its card ("as Mind Spring resolves", the name masked): read as
# "as the spell resolves"; the rulings are written for the test, the card names only real ones
@pytest.mark.parametrize("text, cards", [
    ("The number of cards in your hand is counted only once, as Mind Spring resolves.", ("Mind Spring",)),
    ("The value of X is determined once, as Gelatinous Genesis resolves. Later changes don't matter.",
     ("Gelatinous Genesis",)),
])
def test_a_number_counted_as_the_named_spell_resolves_is_608_2h(rules, card_texts, text, cards):
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[:1] == ["608.2h"], got


# links49: objects told apart by what they are as a spell or ability resolves ("creatures that are blocking as
# it resolves", "creatures that enter after it resolves") are the set its continuous effect fixed when it began
# (611.2c); the rulings are written for the test
@pytest.mark.parametrize("text, cards", [
    ("Only creatures that are blocking as Righteousness resolves get the bonus.", ("Righteousness",)),
    ("Creatures that enter the battlefield after Overrun resolves don't get +3/+3 or trample.", ("Overrun",)),
    ("Permanents that become tapped after the ability resolves aren't affected.", ()),
])
def test_objects_told_by_their_state_as_the_effect_resolves_are_611_2c(rules, card_texts, text, cards):
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[:1] == ["611.2c"], got


# review49 M1: a creature "that was targeted" and the moment its ability resolves is a target's legality (608.2b),
# no set of objects an effect fixed (611.2c); the rulings are written for the test
@pytest.mark.parametrize("text", [
    "If the face-down creature that was targeted is turned face up before the ability resolves, it is still a legal target.",
    "If the creature that was targeted is an illegal target when the ability resolves, the ability doesn't resolve.",
])
def test_a_targeted_creature_as_the_ability_resolves_is_no_611_2c(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert "611.2c" not in got, got


# links46: one status changing leaves the others as they were (110.5c; 110.5 names the four), not a rule of the
# face-down section the words also touch; the rulings are written for the test ("won't change ... abilities which
# include the tap symbol" is no status: see the bench's H)
@pytest.mark.parametrize("text", [
    "Turning the creature face down with the second ability won't untap it.",
    "Turning a manifested creature face up doesn't change whether it's tapped or untapped.",
    "A face-down permanent that phases out stays face down.",
])
def test_a_permanent_keeps_its_other_statuses_110_5c(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] and got[0] in ("110.5c", "110.5"), got


# links46: a keyword action said only as what a permanent is ("a cloaked card", "the card you manifested") is no topic
# of its own, so its definition (701.58a, 701.40a) gets no bonus over the rule the ruling states; said as a verb done
# ("cloak the top card"), it does. The rulings are written for the test; the cues that point at a rule are off, as for
# a ruling no cue was written for
@pytest.mark.parametrize("text, definition, bonus", [
    ("If a cloaked card is a sorcery card, it can't be turned face up. If an effect tries to turn it face up, reveal "
     "it and it stays on the battlefield face down.", "701.58a", False),
    ("The player who owns the card you manifested can't look at it.", "701.40a", False),
    ("If the spell is countered, you won't cloak the top card of your library.", "701.58a", True),
    ("Effects that instruct you to manifest cards aren't affected.", "701.40a", True),
    ("If the ability resolves twice, each player who owns an exiled card manifests dread.", "701.62a", True),
])
def test_an_action_said_only_as_a_permanents_state_gets_no_definition_bonus(rules, monkeypatch, text, definition,
                                                                             bonus):
    monkeypatch.setattr(links, "CUES", ())
    evidence = {c.clause: c.evidence for c in links.rank_clauses(text, rules)}
    assert ("the definition of the mechanic the ruling names" in evidence.get(definition, "")) is bonus, evidence


def test_a_turned_face_up_replacement_effect_is_614_1e(rules, card_texts):
    """A card with "As [this] is turned face up, ..." whose ruling says that ability is a replacement effect: 614.1e
    ("Effects that read 'As [this permanent] is turned face up . . . ,' are replacement effects") leads, not the
    face-down section's rules about entering (708.8, 708.3) that its words also touch."""
    text = ("The ability is a replacement effect. You choose the number as the creature is turned face up (or enters "
            "the battlefield); it turns face up (or enters the battlefield) with that many counters.")
    assert linked_clauses(card_ruling(text, ("Hooded Hydra",)), rules, card_texts)[:1] == ["614.1e"]


def test_saying_what_a_replacement_effect_replaces_lets_the_words_choose_its_rule(rules, card_texts):
    got = linked_clauses(card_ruling("The ability is a replacement effect that replaces a draw.", ()), rules,
                         card_texts)
    assert got[0] not in ("614.1", "614.1a") and got[0].startswith("614."), got


_CARD = {"Test Vigil": "Flying\nAt the beginning of your end step, if you gained life this turn, draw a card.\n"
                       "Whenever another creature dies, you lose 1 life."}


@pytest.mark.parametrize("text, linked", [
    # its second ability has an intervening "if": a ruling that it won't trigger applies 603.4
    ("If you didn't gain life this turn, the second ability won't trigger at all.", True),
    ("The ability won't trigger at all if you haven't gained life by the time your end step begins.", True),
    # its last ability has none: "won't trigger" there is not 603.4's
    ("The last ability won't trigger if a token creature dies.", False),
    # or that it triggers but does nothing when the condition is false as it resolves (603.4's "does nothing")
    ("If you gained life but lose it all before the second ability resolves, that ability won't do anything.", True),
    ("If you haven't gained life when the ability begins to resolve, the ability won't do anything.", True),
    ("The last ability won't do anything if the creature is a token when the ability resolves.", False),
])
def test_a_cards_intervening_if_ability_that_wont_trigger_links_603_4(rules, text, linked):
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Vigil",))], rules, [], _CARD)[0].rules]
    assert (got[:1] == ["603.4"]) is linked, got
    # without the card's Oracle text nothing says the ability has an intervening "if"
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Vigil",))], rules, [], {})[0].rules]
    assert got[:1] != ["603.4"], got


_BECOMES = {"Test Sentry": "Vigilance\nWhenever Test Sentry becomes tapped, draw a card.\n"
                          "Whenever another creature enters, you gain 1 life."}


@pytest.mark.parametrize("text, linked", [
    # its second ability triggers when it "becomes tapped": entering tapped is no such event (603.2e)
    ("The second ability doesn't trigger if Test Sentry enters the battlefield tapped.", True),
    ("Sentry abilities don't trigger when the creature is put onto the battlefield tapped.", True),
    ("The second ability won't trigger if Test Sentry is already tapped as an effect taps it.", True),
    # no state that already holds, or the ability is not the "becomes" one
    ("The second ability won't trigger if an opponent taps Test Sentry.", False),
    ("The last ability doesn't trigger if the creature enters the battlefield under an opponent's control.", False),
])
def test_a_cards_becomes_trigger_that_wont_trigger_on_a_state_that_holds_links_603_2e(rules, text, linked):
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Sentry",))], rules, [], _BECOMES)[0].rules]
    assert (got[:1] == ["603.2e"]) is linked, got
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Sentry",))], rules, [], {})[0].rules]
    assert got[:1] != ["603.2e"], got


def test_hidden_agenda_rulings_cite_its_own_clauses_and_a_face_up_conspiracy_is_no_hidden_agenda(rules, card_texts):
    assert "hidden agenda" not in links.ruling_mechanics(
        "A conspiracy's abilities work only while it's face up in the command zone.").named
    turn = "Turning a face-down conspiracy face up is a special action: any time you have priority."
    assert linked_clauses(card_ruling(turn, ()), rules, card_texts)[:1] == ["702.106c"]
    reveal = ("At the end of the game, you reveal every face-down conspiracy you own, so you can't bluff by putting a "
              "card with hidden agenda into the command zone as the game starts.")
    assert linked_clauses(card_ruling(reveal, ()), rules, card_texts)[:1] == ["702.106e"]


# General causes of misses found on the fresh dev sample of links5 (seed 20261202). The rulings are written for the
# tests, not copied from the labelled ones; each row fails with its cue (or the card-name mask) taken out.


@pytest.mark.parametrize("text, clause", [
    # a general rule restated without the rule's own term
    ("When the land is turned face up, an Aura on it that can't legally enchant a land is put into its owner's "
     "graveyard.", "704.5m"),
    ("If the artifact stops being an Equipment, it becomes unattached but stays on the battlefield.", "704.5n"),
    ("If an Equipment becomes a creature, it can't equip another creature.", "301.5c"),
    ("If several abilities trigger during your upkeep, you put them on the stack in any order you like.", "603.3b"),
    ("The spell doesn't let you cast the card at other times: a sorcery can be cast only during your main phase when "
     "the stack is empty.", "117.1a 307.1"),
    ("The creature tokens can't attack the turn they are put onto the battlefield unless something gives them haste.",
     "302.6"),
    ("The artifact's second ability applies only while it's on the battlefield. In all other zones, it does nothing.",
     "113.6"),
    ("Once you cast the card, it goes to the stack and you can't cast it again later.", "601.2a"),
    # found on the dev sample of links7 (seed 20261204)
    ("Casting the card from your graveyard causes it to leave your graveyard, so you can cast it only once.", "601.2a"),
    ("You still have to follow the normal timing restrictions of the card you cast.", "117.1a 307.1"),
    ("If there are no cards in your library, you don't lose the game, since you aren't drawing.", "704.5b 121.1"),
    ("Note that the card's last ability is not a replacement effect.", "614.1 614.1a"),
    # 708.3: put onto the battlefield face down (not 708.8, turned face up)
    ("The creature enters the battlefield face down, so none of its \"enters the battlefield\" abilities trigger or have "
     "any effect, and its \"As this enters\" abilities don't apply either.", "708.3"),
    # a card type said in general sends to its section; a face-down conspiracy's look-at rule is 315.7
    ("Conspiracies can't be cast, and they aren't part of your deck.", "315.3"),
    ("Each player may look at their own face-down conspiracies at any time, but not at other players'.", "315.7"),
    # 708's look-at is for face-down spells and permanents, not an imprinted (exiled) card
    ("The card is imprinted face down, so you can't look at it until it's turned face up.", "406.3"),
])
def test_a_card_ruling_links_the_general_rule_it_restates(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] and got[0] in clause.split(), got


@pytest.mark.parametrize("text", [
    # review38 #9: a hand or a graveyard is looked at, not a face-down spell or permanent (708.5)
    "You may look at the cards in your hand at any time, even the ones you manifested before.",
    "Any player may look at the cards in any graveyard at any time.",
])
def test_looking_at_a_hand_or_a_graveyard_links_no_face_down_look_at_rule(rules, card_texts, text):
    [linked] = links.link_entries([ruling(text)], rules, [], card_texts)  # a manifest card's ruling: face down
    assert not any('cue "look at"' in r.evidence for r in linked.rules)
    assert linked.rules[:1] and linked.rules[0].clause != "708.5"  # 708.5 only by shared words, if at all


def test_another_object_entering_is_not_a_face_down_ruling_s_enters_the_battlefield_rule(rules, card_texts):
    """"Turned face up" makes the ruling face-down, but what enters here is another object: 400.7, not 708.3/708.8."""
    text = ("If the artifact leaves the battlefield and another one enters the battlefield later, the second one is a "
            "new object. It can't turn the first one's cards face up.")
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[:1] == ["400.7"]


def test_a_manifest_dread_ruling_about_entering_face_down_keeps_its_own_clause(rules, card_texts):
    text = ("If your library holds a single card as you manifest dread, you look at it and put it onto the battlefield "
            "face down; you can't look at a second card.")
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[:1] == ["701.62a"]


def test_a_card_name_is_no_evidence_for_a_rule(rules):
    """"Double Agent" shares "double" and "agenda"-like words with 702.106f; masked, the name says nothing."""
    cards = {"Double Agenda Spy": "Hidden agenda (Start the game with this conspiracy face down in the command zone and "
                                  "secretly choose a card name. You may turn this conspiracy face up any time and "
                                  "reveal that name.)\nWhenever you cast a spell with the chosen name, draw a card."}
    assert links.mask_card_names("Double Agenda Spy's ability triggers.", ("Double Agenda Spy",)) == \
        "CARDNAME's ability triggers."
    text = "You must turn Double Agenda Spy face up before you cast the spell for its last ability to trigger."
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Double Agenda Spy",))], rules, [], cards)[0].rules]
    assert got[:1] != ["702.106f"], got


@pytest.mark.parametrize("text", [
    "Because of other conspiracies, you may have fewer cards in your deck than you must draw; you'll lose the game "
    "when state-based actions are checked.",
    "A conspiracy with hidden agenda must be face up before its ability's trigger condition is met.",
])
def test_some_conspiracies_or_the_mechanics_are_not_the_card_type_in_general(rules, card_texts, text):
    [linked] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)
    assert not any("the card type" in r.evidence for r in linked.rules), linked.rules


# try-out 27 D7: new rulings of pages the bundled corpus doesn't have, most with no card the KB knows


@pytest.mark.parametrize("text, named", [
    ("If a card has disguise, you can cast it face down.", {"disguise"}),
    ("Cards having disguise can be cast face down for {3}.", {"disguise"}),
    # what the hidden card would have face up: the subject is still cloak (701.58d)
    ("If a cloaked creature would have disguise (or morph) if it were face up, you may also turn it face up by "
     "paying its disguise (or morph) cost.", {"cloak"}),
    ("The pile is shuffled to disguise from your opponents which cloaked creature is which.", {"cloak"}),
])
def test_an_object_that_has_disguise_names_the_mechanic(text, named):
    assert set(links.ruling_mechanics(text).named) == named


def test_a_paragraph_on_disguise_that_recalls_morph_cites_disguise(rules, card_texts):
    """The official MKM mechanics article: "Remember morph?" opens it, "If a card has disguise" is its subject."""
    text = ("Remember morph? Don't throw everything you know about it out the window. It's just getting a little "
            "upgrade. If a card has disguise, you can cast it face down. Keep its front face hidden so no other player "
            "knows what it really is. It becomes a face-down creature spell, which means it's colorless, it's 2/2, and "
            "it has no name and creature types. It has ward {2} and no other abilities. It also has no mana cost, so it "
            "has mana value 0, but to cast it, you pay an alternative cost of {3}.")
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[0].startswith("702.168")


def unknown_cards_top_link(text, rules, card_texts):
    """The first clause a ruling of a card the KB doesn't know (no Oracle text to tell its mechanic) links."""
    return linked_clauses(card_ruling(text, ("A Card The KB Does Not Know",)), rules, card_texts)[0]


@pytest.mark.parametrize("text, clause", [
    # the disguise reminder copied from a page without its card (and with {2} lost): a face-down spell with ward is a
    # disguised one (cloak never casts); the card the bundled copy names gave it 702.168b
    ("The creature spell is a 2/2 creature spell with ward that has no name, mana cost, or creature types. The "
     "resulting creature is a 2/2 creature with ward that has no name, mana cost, or creature types.", "702.168b"),
    # a face-down permanent with ward {2} of a card the KB doesn't know: disguised or cloaked; the face-down rule, not
    # 302.3 (creature types) for the words "creature types"
    ("The resulting creature is a 2/2 creature with ward {2} that has no name, mana cost, or creature types. Other "
     "effects that apply to the creature can still grant it any characteristics it doesn't have.", "708.2a"),
])
def test_face_down_characteristics_with_ward_name_their_mechanic_without_a_card(rules, card_texts, text, clause):
    assert unknown_cards_top_link(text, rules, card_texts) == clause


def test_face_down_characteristics_with_ward_are_disguise_or_cloak():
    spell = links.ruling_mechanics("The creature spell is a 2/2 creature spell with ward {2} that has no name.")
    permanent = links.ruling_mechanics("It's a 2/2 creature with ward {2} that has no name and no mana cost.")
    assert (spell.of_cards, spell.face_down) == ({"disguise"}, True)
    assert (permanent.of_cards, permanent.possible, permanent.face_down) == (frozenset(), {"disguise", "cloak"}, True)
    # a card's mechanic decides, as before: a manifest card's ruling that mentions ward stays its cards' business
    assert not links.ruling_mechanics("A 2/2 creature with ward that has no name.", ["Manifest the top card."]).described


@pytest.mark.parametrize("text, clause", [
    # Death in Heaven (2023): no mechanic, a card the KB doesn't know
    ("If, for any reason, the face-down creature is turned face up, the effect making it a Cyberman ends. It will be "
     "whatever is printed on the card.", "708.8"),
    # a named mechanic's own clause says so of it
    ("If a face-down creature with morph is turned face up, the morph effect ends and it regains its normal "
     "characteristics.", "702.37e"),
])
def test_turned_face_up_its_face_down_characteristics_end(rules, card_texts, text, clause):
    assert unknown_cards_top_link(text, rules, card_texts) == clause


def test_a_turned_face_up_trigger_is_not_the_characteristics_ending(rules, card_texts):
    text = "If a face-down Horde Ambusher blocks and is then turned face up, its first ability won't trigger."
    assert "708.8" not in linked_clauses(card_ruling(text, ("Horde Ambusher",)), rules, card_texts)[:1]


def test_a_glossary_term_that_cites_only_a_named_section_names_it(rules, card_texts):
    """A Room's door is a split card's half (glossary "Door ... See rule 709"): the ruling names split cards (709)
    without saying "split"; "level" names no Class card (716, glossary "Level"): many clauses of the CR say it."""
    room = ("Room cards have two card faces with a shared type line on a single card. The characteristics of the door "
            "you didn't cast are ignored while the spell is on the stack.")
    assert linked_clauses(card_ruling(room, ()), rules, card_texts)[0].startswith("709.")
    sections = links._index_for(rules).sections
    assert {"door", "unloc"} <= sections["709"] and "level" not in sections["716"]


def test_a_quoted_trigger_cites_the_rule_for_abilities_that_trigger_on_that_action(rules, card_texts):
    """709.5i says how "Some abilities trigger when a player “fully unlocks” a permanent" work, as 701.62b says it of
    manifest dread: a ruling that quotes such a trigger cites it."""
    text = ("An ability that triggers \"whenever you fully unlock a Room\" triggers when a door becomes unlocked and the "
            "other door of that Room is already unlocked, or when both doors of that Room become unlocked "
            "simultaneously.")
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[0] == "709.5i"
    assert links._index_for(rules).on_quoted == {"709.5i": {"fully", "unlock"}}


# Found on dev-C/D/E misses (links41); the rulings here are written for the tests.
_OPTIONAL_CARD = {"Test Heron": "Flying\nWhen Test Heron dies, you may return it to the battlefield tapped or untapped.",
                  "Test Shaper": "When Test Shaper enters, target creature gets +2/-2 or -2/+2 until end of turn."}


@pytest.mark.parametrize("text, cards, clause", [
    # which of the options the effect offers: 608.2d; whether to do what the ability "may" do: 603.5
    ("You choose whether the target creature gets +2/-2 or -2/+2 as the ability resolves.", ("Test Shaper",),
     "608.2d"),
    ("You choose whether to sacrifice a creature as the ability resolves.", ("Test Shaper",), "603.5"),
    # the card's triggered ability says "may": choosing how to do it is choosing whether to
    ("You choose whether Test Heron returns tapped or untapped as the ability resolves.", ("Test Heron",), "603.5"),
])
def test_a_choice_made_as_the_ability_resolves_is_603_5_only_when_optional(rules, text, cards, clause):
    [first, *_] = links.link_entries([card_ruling(text, cards)], rules, [], _OPTIONAL_CARD)[0].rules
    assert first.clause == clause and ("optional choice" in first.evidence) is (clause == "603.5"), first


@pytest.mark.parametrize("text, clause", [
    # general rules restated in their own words with no term of theirs (links52, M's abstention and sibling)
    ("If Test Hawk enters the battlefield at the same time as another Bird, its ability will trigger for that Bird.",
     "603.6a"),
    ("Flanking triggers only once for each blocking creature, even if that creature blocks twice.", "603.2c"),
    ("The token enters the battlefield tapped and attacking. You choose which opponent or planeswalker it attacks.",
     "508.4"),
])
def test_a_general_rule_said_in_its_own_words_is_found(rules, text, clause):
    assert [r.clause for r in links.link_entries([card_ruling(text, ("Test Hawk",))], rules, [], {})[0].rules][:1] \
        == [clause]


def test_have_of_a_perfect_tense_grants_no_ability(rules):
    """"will have already been sacrificed when you bolster 2": the keyword action said after it is the ruling's
    topic, not an ability the card's effect gives (links52, M's bolster abstention); "will have flying" still is."""
    text = "The artifact will have already been sacrificed when you bolster 2."
    assert [r.clause for r in links.link_entries([card_ruling(text, ())], rules, [], {})[0].rules][:1] == ["701.39a"]
    assert "flying" not in links._GRANTED.sub(" ", "It will have flying until end of turn.")
    assert "bolster" in links._GRANTED.sub(" ", text)


@pytest.mark.parametrize("text", [
    # 603.5 is the optional triggered abilities' rule: "whether to" said of an activated ability or a spell as it
    # resolves is a choice its effect offers (links52, M's misread optional-choice cue)
    "You choose whether to untap a land and which land to untap as the activated ability resolves.",
    "You decide whether or not to draw a card as the spell resolves.",
])
def test_a_choice_made_as_an_activated_ability_or_spell_resolves_is_never_603_5(rules, text):
    clauses = [r.clause for r in links.link_entries([card_ruling(text, ())], rules, [], {})[0].rules]
    assert clauses[:1] == ["608.2d"] and "603.5" not in clauses, clauses


@pytest.mark.parametrize("text, clause", [
    # the clause that says "To play a card means ..."
    ('To "play a card" is to either cast a spell or to put a land onto the battlefield during your main phase.',
     "701.18b"),
    # a glossary term ("Outside the Game: see rule 400.11"): the words choose among that rule's clauses
    ('In a tournament, "outside the game" means the cards in your sideboard.', "400.11a"),
])
def test_a_ruling_that_defines_a_quoted_term_cites_the_rule_defining_it(rules, card_texts, text, clause):
    assert linked_clauses(card_ruling(text, ()), rules, card_texts)[:1] == [clause]


@pytest.mark.parametrize("text, clause, setting", [
    # the step only says when: the delayed triggered ability is the subject (603.7), not the end step's rules
    ("The ability creates a delayed triggered ability that returns the exiled card to your hand. That ability still "
     "triggers even if the creature leaves the battlefield before your end step.", "603.7", True),
    # the step is the subject (links44: "Your untap step is skipped, but the rest of your turn happens as normal" was
    # the example; 502 says nothing of skipping, 614.10 does, and "untap step" is all it shares with 502: no link)
    ("The untap step has no priority: nobody can cast spells or activate abilities in it.", "502.", False),
])
def test_a_step_said_only_as_when_something_happens_is_the_setting(rules, card_texts, text, clause, setting):
    [linked] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)
    assert linked.rules and linked.rules[0].clause.startswith(clause), linked.rules
    assert any("(when it happens)" in r.evidence for r in linked.rules) is setting, linked.rules


@pytest.mark.parametrize("text, clause", [
    # 601.2f: the total cost is the cost plus increases, minus reductions
    ("Effects that increase the cost apply first; the ability then reduces the total by {1}.", "601.2f"),
    ("The cost reduction applies after any cost increases, such as the one from an opponent's Thalia.", "601.2f"),
    # 616.1: the affected player chooses which of several replacement effects applies
    ("If two of these enchantments are on the battlefield, you decide which one replaces the damage event.",
     "616.1"),
    ("If more than one replacement effect would apply to the creature entering, its controller picks the order.",
     "616.1"),
    # 305.3: no land is played on another player's turn, whatever the effect says
    ("The ability doesn't let you play a land during an opponent's turn.", "305.3"),
    ("Even with the emblem, you can't play lands if it isn't your turn.", "305.3"),
])
def test_a_card_ruling_links_the_general_rule_its_words_apply_links41(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


_EXILER = {"Test Vault": "When Test Vault enters, exile the top three cards of your library face down.\n"
                         "{T}: Turn a card exiled with Test Vault face up."}


def test_face_down_cards_its_card_exiles_are_406_3_not_face_down_permanents(rules):
    """The card exiles cards face down and has no face-down mechanic: a ruling that they are face down and can't be
    looked at is the exile zone's rule (406.3), not 708.5 (face-down spells and permanents)."""
    text = "The cards stay face down the whole time, and nobody may look at them."
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Vault",))], rules, [], _EXILER)[0].rules]
    assert got[:1] == ["406.3"], got
    # the same words under a card the KB can't read are a face-down permanent's, as before
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Vault",))], rules, [], {})[0].rules]
    assert got[:1] == ["708.5"], got


def test_a_keyword_no_cr_has_gets_no_link_rather_than_its_models(rules, card_texts):
    """Try-out 29 item 7: spellmorph (a playtest card's keyword) is in no CR; its ruling linked 708.6. A keyword
    built on a CR keyword's name that no clause says gets no link and a note naming both; megamorph (702.37b) is
    the CR's and keeps its links."""
    [linked] = links.link_entries([card_ruling("The controller of the face-down creature with tidemorph can cast it, "
                                               "regardless of who cast the face-down creature spell.", ())],
                                  rules, [], card_texts)
    assert linked.rules == () and "tidemorph" in linked.link_note and "morph" in linked.link_note
    assert linked_clauses(card_ruling("If a face-down creature with megamorph is turned face up for its megamorph "
                                      "cost, it gets a +1/+1 counter.", ()), rules, card_texts)[:1] == ["702.37b"]


# Found on dev misses (links42); the rulings here are written for the tests.
@pytest.mark.parametrize("text", [
    # last known information in the card's words: the effect uses the object as it last existed (608.2h)
    "Count the loyalty counters that were on the planeswalker the last time it was on the battlefield.",
    "If the creature has left the battlefield, use its power as it last existed on the battlefield.",
])
def test_last_known_information_in_a_card_s_words_is_608_2h(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["608.2h"], got


def test_last_known_information_about_a_player_who_left_the_game_is_800_4i(rules, card_texts):
    text = ("The ability counts each player who controlled a Forest at the time they left the game, as well as the "
            "players still in it.")
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["800.4i"], got


@pytest.mark.parametrize("text, clause", [
    # the keyword's own rule (702.143a), not the rule on how other cards' effects say "foretold" (702.143c-d)
    ("A foretold sorcery card can be cast from exile only at the time you could cast a sorcery, and not on the turn "
     "you foretell it.", "702.143a"),
    # ... which a ruling about such an effect does cite
    ("If an effect states that a card in exile becomes foretold, its owner may cast it for its foretell cost on a "
     "later turn.", "702.143d"),
])
def test_a_keyword_s_rule_on_how_effects_say_it_needs_a_ruling_about_such_an_effect(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text", [
    # an effect puts or returns an object onto the battlefield under a player's control: whoever owns it (110.2a)
    "If the exiled card belongs to an opponent, the ability still returns it to the battlefield under your control.",
    "The ability puts the creature card onto the battlefield under its owner's control, even if you cast the spell.",
])
def test_put_onto_the_battlefield_under_a_player_s_control_is_110_2a(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["110.2a"], got


@pytest.mark.parametrize("text, clause", [
    # a requirement ("attacks if able") never makes its controller pay a cost to attack or block: 508.1d / 509.1c
    ("If a tax applies to the creature attacking you, its controller doesn't have to pay it, so the creature may stay "
     "home.", "508.1d"),
    ("Its controller doesn't have to pay a cost to have the creature block, even though it blocks each combat if able.",
     "509.1c"),
])
def test_a_cost_to_attack_or_block_is_not_required_by_a_requirement(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text", [
    # a card that left the zone the effect looks in is a new object the effect no longer finds (400.7)
    "If the exiled card somehow leaves exile, it won't be shuffled into its owner's library.",
    "If the chosen card has left your hand by then, it won't be put onto the battlefield.",
])
def test_a_card_that_left_its_zone_is_not_found_by_the_effect_400_7(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["400.7"], got


# links43: try-out 32 defects #1 and #5 in general form; the rulings here are written for the tests.
@pytest.mark.parametrize("text", [
    # a face-down pile is cards in a hidden zone, not a face-down spell or permanent: no 708.9 (revealed when it
    # leaves) and no 708.5 (look at)
    "Nobody reveals the cards of the face-down pile when the pile is put into a graveyard or when the game ends.",
    "The opponent may look at the face up pile but not at the face-down pile before choosing one.",
    "The library is face down, so no player reveals its cards when they leave it.",
])
def test_a_face_down_pile_is_no_face_down_permanent(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert not any(c.startswith("708") for c in got), got


def test_a_face_down_pile_beside_a_face_down_mechanic_keeps_it():
    """The pile's words take nothing away from what else the ruling says: here, manifest."""
    assert links.ruling_mechanics("Exile them in a face-down pile, shuffle that pile, then manifest those cards.").face_down
    assert not links.ruling_mechanics("Exile them in a face-down pile, then shuffle that pile.").face_down


@pytest.mark.parametrize("text", [
    # blocked status holds whatever changes: 509.1h, and a face-down creature turned face up is the same permanent
    # in the same combat: 708.8 next
    "If a face-down creature is blocked and its controller turns it face up, that won't cause it to become unblocked.",
    "Once the face-down creature has been blocked, turning it face up won't make it unblocked.",
])
def test_turned_face_up_a_blocked_creature_stays_blocked_509_1h(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:2] == ["509.1h", "708.8"], got


def test_a_creature_that_does_not_become_unblocked_is_509_1h(rules, card_texts):
    got = linked_clauses(card_ruling("If the blocker is destroyed, the attacking creature doesn't become unblocked.",
                                     ()), rules, card_texts)
    assert got[:1] == ["509.1h"], got


# Found on dev misses (links43); the rulings and cards here are written for the tests.
_HOARDER = {"Test Hoarder": "Whenever Test Hoarder attacks, exile the top card of your library face down.\n"
                            "{T}, Sacrifice Test Hoarder: Put all cards exiled with Test Hoarder into your hand.",
            "Test Thief": "If an opponent would draw a card, they exile the top card of their library face down instead.\n"
                          "You may play cards exiled with Test Thief."}


@pytest.mark.parametrize("text, card, clause", [
    # each object's ability finds only the cards its own linked ability exiled (607.2a), not the exile zone's
    # face-down rule (406.3) for the face-down cards it also names
    ("Each Test Hoarder keeps track of only the cards it exiled: its last ability won't put into your hand the "
     "face-down cards exiled by another Test Hoarder.", "Test Hoarder", "607.2a"),
    ("Each Test Hoarder has its own pile of face-down cards, and it tracks only the cards it exiled.", "Test Hoarder",
     "607.2a"),
    # ... and when the card exiles them by a replacement effect ("instead"), 607.2b says so of those abilities
    ("Each Test Thief tracks only the cards it exiled. Another Test Thief won't let you look at or play them.",
     "Test Thief", "607.2b"),
])
def test_an_ability_finds_only_the_cards_its_own_linked_ability_exiled_607_2(rules, text, card, clause):
    got = [r.clause for r in links.link_entries([card_ruling(text, (card,))], rules, [], _HOARDER)[0].rules]
    assert got[:1] == [clause], got


def test_an_ability_activated_any_time_its_controller_has_priority_is_117_1b(rules, card_texts):
    """The rule for when activated abilities may be activated, not 117.7 for the "in response to" beside it."""
    text = ("Its controller may activate the ability any time they have priority, even in response to a spell that "
            "would destroy it.")
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["117.1b"], got


@pytest.mark.parametrize("text", [
    # an object that becomes a copy gets the copiable values, with the choices made as the original entered: 707.2
    "If another creature becomes a copy of the Test Chameleon, its color is the color chosen as the Chameleon entered.",
    "A creature that enters as a copy of the Test Chameleon has the power and toughness chosen for the original.",
])
def test_an_object_that_becomes_a_copy_cites_the_copy_rule_707_2(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["707.2"], got


@pytest.mark.parametrize("text", [
    # the rule for choosing a card name (201.4): a card of the Oracle reference, a token's name only if a card has it
    "Players must name a card as the conspiracy is turned face up; they can't name a token.",
    "You have to name a Magic card, not a token, as the ability resolves.",
])
def test_naming_a_card_is_201_4(rules, card_texts, text):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["201.4"], got


@pytest.mark.parametrize("text, clause", [
    # the minimum deck size of constructed or limited play: the words choose (100.2a / 100.2b) ...
    ("In limited play, such as a sealed deck tournament, the minimum deck size is 40 cards.", "100.2b"),
    ("The minimum deck size is 40 cards for a limited deck, whatever the card says.", "100.2b"),
    ("In constructed formats, the minimum deck size is 60 cards, so the card doesn't let you play a smaller deck.",
     "100.2a"),
])
def test_a_minimum_deck_size_is_the_rule_of_its_kind_of_play(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


def test_a_minimum_deck_size_said_in_an_aside_is_not_the_subject(rules, card_texts):
    text = ("A conspiracy doesn't count as a card in your deck for purposes of meeting minimum deck size requirements. "
            "(In most drafts, the minimum deck size is 40 cards.)")
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["315.3"], got


@pytest.mark.parametrize("text, clause", [
    # a generic cost reduction can't reduce colored mana (118.7a), not 118.7c (a colored reduction) for its words
    ("This effect can't affect the amount of colored mana a spell costs; only its generic component is reduced.",
     "118.7a"),
    # {X} when the spell is cast without paying its mana cost: the only legal choice is 0 (107.3b), not 107.3g
    ("If the card you cast has {X} in its cost, you must choose 0 for X.", "107.3b"),
    # a split card's half being cast is all the spell is (709.3b) ...
    ("If half of a split card was cast (for example, Fire), the ability checks only that half.", "709.3b"),
    # ... and the split card has both names (709.4a)
    ("If a split card is revealed, you count a match if the card has the same name as either half of that split card.",
     "709.4a"),
])
def test_a_card_ruling_links_the_general_rule_its_words_apply_links43(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, clause", [
    # a card an effect lets you cast or play is still paid for (601.2h)
    ("You need to pay the costs of any spells you cast from the top of your library this way.", "601.2h"),
    # players acting at the same time during a draft do so in a random order (905.2a)
    ("If several players draft a copy, players who want to use its ability do so in a random order.", "905.2a"),
])
def test_a_card_ruling_links_the_general_rule_its_words_apply_links43_b(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == [clause], got


def test_a_card_cast_face_down_can_be_countered_708_4(rules):
    """The face-down spell has only the face-down characteristics (708.4): not the morph rule that let it be cast so."""
    cards = {"Test Titan": "This spell can't be countered.\nFlying\nMorph {3}{R}{R}{R}"}
    text = "If Test Titan is cast face down, it can be countered, even though the card says it can't be."
    got = [r.clause for r in links.link_entries([card_ruling(text, ("Test Titan",))], rules, [], cards)[0].rules]
    assert got[:1] == ["708.4"], got


@pytest.mark.parametrize("text, term_clause", [
    # "untapped" (110.5) is all the ruling shares with the status rule: it is about what the ability may target
    ("The first ability may target a creature that is untapped.", "110.5"),
    # "booster pack" (100.2b, deck sizes of limited play) is where the ruling happens, not what it says
    ("You may use the abilities of two Scheming Scribes while drafting from one booster pack. You draft one card "
     "for each of them.", "100.2b"),
    # "enters the battlefield" (403.3) names the event of the card's own count, nothing the rule says
    ("If a Patchwork Golem you don't own enters the battlefield under your control, the number of counters on it "
     "depends on what you drafted.", "403.3"),
    # the step is the subject, but 502 says nothing of skipping it (614.10 does)
    ("Your untap step is skipped, but the rest of your turn happens as normal.", "502.4"),
])
def test_a_glossary_term_alone_is_no_link_links44(rules, card_texts, text, term_clause):
    """A card's ruling that shares nothing with the clause a glossary term cites but the term itself (no word of it
    beside the term that the CR does not say everywhere) gets no confident link from it: the term names where the
    ruling happens, not what the clause states."""
    [linked] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)
    assert term_clause not in [r.clause for r in linked.rules][:1], linked.rules


@pytest.mark.parametrize("text, clause", [
    # the term and a word the clause says beside it ("rulings" of 100.2b: "minimum deck size", "limited")
    ("In limited play, a deck built from a booster pack draft needs at least forty cards.", "100.2b"),
    # a term of three words is a rare phrase in itself (603.7)
    ("The card's ability creates a delayed triggered ability that will return the exiled card to your hand.",
     "603.7"),
])
def test_a_glossary_term_with_more_in_common_still_links_links44(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert clause in got[:1], got


@pytest.mark.parametrize("text, keyword_section, named", [
    # "offer" is a word of Offering's stem (702.48), not the keyword: a card's offer between players
    ("If another player accepts your offer, you exchange the two revealed cards.", "702.48", False),
    ("If you decline every offer, you keep the card you revealed.", "702.48", False),
    # the keyword's name as the CR writes it, in the plural too
    ("You may sacrifice a Goblin to cast a spell with offering, even at instant speed.", "702.48", True),
    ("A creature with vanishing enters with time counters on it.", "702.63", True),
])
def test_a_keyword_ability_is_named_by_its_name_links44(rules, card_texts, text, keyword_section, named):
    """A keyword ability's clauses are candidates when the ruling says its name, not another word of its stem."""
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    # the section or one of its subrules (702.48a-d), not another section it begins (702.480)
    assert any(c.startswith(keyword_section) and not c[len(keyword_section):][:1].isdigit() for c in got[:1]) is named, got


def test_shared_rare_trigrams_are_evidence_not_score_links44(rules, card_texts):
    """"Players can't respond to setting a scheme in motion" is 904.9's turn-based action (it doesn't use the stack),
    which says the ruling's words best; 701.32b (what setting in motion is) shares one more rare trigram ("a scheme
    in") and led by it. Shared trigrams still make a link confident, but no longer add to its score."""
    text = ("No player can respond to the action of setting a scheme in motion, so if this scheme is turned face up, "
            "your opponents can't cast spells before its static ability applies.")
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] == ["904.9"], got


@pytest.mark.parametrize("text, cards, keyword_section", [
    # the CR's own section writes these participles ("bestowed" 702.103, "crewed" 702.122, "suspended" 702.62):
    # they name the keyword as the CR writes it, as "offer" does not name Offering (review44 #1)
    ("A bestowed Aura that becomes unattached becomes a creature.", ("Boon Satyr",), "702.103"),
    ("Once a Vehicle has been crewed, it remains an artifact creature until end of turn.", ("Smuggler's Copter",),
     "702.122"),
    ("A suspended card is exiled with time counters on it.", ("Rift Bolt",), "702.62"),
])
def test_a_keyword_ability_is_named_by_a_form_its_own_section_writes_review44(rules, card_texts, text, cards,
                                                                             keyword_section):
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert any(c.startswith(keyword_section) and not c[len(keyword_section)].isdigit() for c in got[:3]), got


@pytest.mark.parametrize("text, want, topic", [
    # 701.58e says "cloaked one at a time"; the definition of cloak only names what the ruling is about
    ("If an effect has you cloak two cards from your library, they are cloaked one at a time.", "701.58e", "701.58a"),
    # the ruling applies 608.2b ("an illegal target" as it tries to resolve); manifest dread is what doesn't happen
    ("If the target creature is an illegal target as the spell tries to resolve, the spell won't resolve and no player "
     "will manifest dread.", "608.2b", "701.62a"),
    # exiled face-down cards (406) a player was allowed to look at, not a face-down permanent one controls (708.5)
    ("A player who is allowed to look at the face-down exiled cards may continue to do so after the face-down creature "
     "that exiled them leaves the battlefield.", "406.", "708.5"),
])
def test_a_clause_the_ruling_restates_leads_over_its_topic_links45(rules, card_texts, monkeypatch, text, want, topic):
    """The bonuses for what a ruling is about (the definition of the mechanic it names, the face-down section) do not
    lift a clause that nothing else points at over one whose rare phrases the ruling restates and which says more of
    its words. Measured as on rulings no hand-written cue was written for: the cues off (`links.CUES`), the general
    machinery alone (links44's proxy)."""
    monkeypatch.setattr(links, "CUES", ())
    got = linked_clauses(card_ruling(text, ()), rules, card_texts)
    assert got[:1] and got[0].startswith(want) and got[0] != topic, got


@pytest.mark.parametrize("text, cues_off", [
    # 708.11 / 708.2b share a few everyday words; the ruling is about tokens (111.7), which say more of it
    ("If you control a face-down token, you may sacrifice it to pay the cost, but you won't be able to turn that token "
     "face up.", False),
    # the effect a card gave the face-down creature ends as it turns face up: 708.2b (turning a face-down permanent
    # face down) shares its face-down words and a few others, and leads only by them
    ("If the face-down creature is turned face up for any reason, the effect that made it a Zombie ends and it is "
     "whatever is printed on the card.", True),
])
def test_face_down_words_alone_are_no_link_to_a_clause_that_says_less_links45(rules, card_texts, monkeypatch, text,
                                                                                cues_off):
    """A 708 clause that nothing points at but the ruling's face-down words (or a keyword of its cards), while another
    clause says more of the ruling (BM25 under `TOPIC_ALONE_LEXICAL` of the best), is no confident link: the ruling
    applies some other rule, or none. (The second ruling as with no hand-written cue: `links.CUES` off.)"""
    if cues_off:
        monkeypatch.setattr(links, "CUES", ())
    [linked] = links.link_entries([card_ruling(text, ())], rules, [], card_texts)
    assert not [r.clause for r in linked.rules if r.clause.startswith("708")][:1], linked.rules
    assert not linked.rules and linked.link_note.startswith("no confident link"), linked.rules


def test_face_down_words_still_link_the_clause_that_says_most_of_the_ruling_links45(rules, card_texts, monkeypatch):
    """... but a 708 clause that says the most of the ruling's words still links by them."""
    monkeypatch.setattr(links, "CUES", ())
    got = linked_clauses(card_ruling("Turning a face-down creature face down again has no effect; its status doesn't "
                                     "change.", ()), rules, card_texts)
    assert got[:1] == ["708.2b"], got


@pytest.mark.parametrize("text", [
    # the term is where the ruling happens; what it says happens (the cards stay exiled, you still draw) no rule of
    # delayed triggers or of life totals states
    "If the delayed triggered ability is countered, the cards remain exiled forever.",
    "If your life total is less than 1, you still draw two cards from this ability.",
    "If it's your end step, you sacrifice two creatures.",
])
def test_a_term_said_only_in_the_rulings_setting_is_no_confident_link_links47(rules, card_texts, text):
    """A CR glossary term said only in the ruling's setting (an opening "If ... ," clause) whose clause says none of
    the ruling's claim's words is a tie-breaker, not evidence: no confident link stands on it."""
    [linked] = links.link_entries([card_ruling(text, ("Test Card",))], rules, [], card_texts)
    assert not linked.rules and linked.link_note.startswith("no confident link"), linked.rules


@pytest.mark.parametrize("text, clause", [
    # the same terms in the claim ...
    ("The delayed triggered ability is countered if its source has left the battlefield.", "603.7"),
    ("Your life total can't become less than 1 while you control this permanent.", "119.8"),
    # ... or in the setting of a claim whose words the clause says too ("concedes", "leaves the game")
    ("If a player concedes the game, the Aura stays on the battlefield.", "104.3a"),
])
def test_a_term_of_the_claim_still_links_links47(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ("Test Card",)), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, clause", [
    # "door" and "Room" name the split-card section (709); the clause that says what a door is (709.5j) matches the
    # word best, but the ruling says what unlocking or locking one does
    ("If an effect instructs you to unlock a door of a Room, you choose one of its locked doors. A door that's "
     "already unlocked can't be chosen.", "709.5f"),
    ("If an effect instructs you to lock a door of a Room, you choose one of its unlocked doors. A door that's "
     "already locked can't be chosen this way.", "709.5g"),
])
def test_the_clause_defining_a_section_term_gives_way_to_the_sibling_that_says_the_claim_links50(rules, card_texts,
                                                                                                 text, clause):
    """A term that names a whole section chooses the section's clauses by the ruling's words; the clause that defines
    the term is no choice of it when, beside the section terms' own words, it says little of the ruling."""
    got = linked_clauses(card_ruling(text, ("Smoky Lounge // Misty Salon",)), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, clause", [
    # the ruling says what the term is: the defining clause is its rule
    ("A door is a half of a Room permanent. Some cards refer to a door rather than a half.", "709.5j"),
    # the defining clause also says most of the ruling's other words ("may pay ... rather than the mana cost")
    ("You may pay an alternative cost such as evoke rather than the spell's mana cost. You can't pay more than one "
     "alternative cost for a spell.", "118.9"),
])
def test_a_defining_clause_that_says_the_claim_still_links_links50(rules, card_texts, text, clause):
    got = linked_clauses(card_ruling(text, ("Test Card",)), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("clause_text, defines", [
    ("Some cards refer to a “door” of a Room permanent. A door is a half of that permanent.", True),
    ("Creatures and kindreds share their lists of subtypes; these subtypes are called creature types.", True),
    ("All combat damage that’s been assigned is dealt simultaneously.", False),
])
def test_a_clause_defines_a_term_by_saying_what_it_is_links50(clause_text, defines):
    term = re.compile(r"\bdoors?\b|\bcreature types?\b|\bcombat damage\b", re.I)
    assert links._defines(term, clause_text) is defines


@pytest.mark.parametrize("text, clause", [
    ("An ability may let you lock a door of a Room. If both doors are locked, it does nothing.", "709.5g"),
    ("Some effects let you lock a door of your Room even if you didn't cast it.", "709.5g"),
])
def test_two_terms_that_agree_on_a_clause_are_evidence_for_it_links50(rules, card_texts, text, clause):
    """"Lock" cites 709.5g and "door"'s section (709) chooses it too: the terms are all the ruling and the clause
    share, but two of them agreeing on it make a link, not "the term alone"."""
    got = linked_clauses(card_ruling(text, ("Smoky Lounge // Misty Salon",)), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, defines", [
    # the term as its sentence's subject
    ("a door is a half of that permanent.", True),
    ("to play a card means to play that card as a land or to cast that card as a spell.", True),
    ("in a tournament, “outside the game” means the cards in your sideboard. “outside the game” is not a zone.", True),
    # the term inside the subject or after it: no definition of the term (review50 L6)
    ("unlocking a door is a special action.", False),
    ("the back of a split card is the normal magic card back.", False),
    ("the ability that exiles the card at the beginning of your next end step is a delayed triggered ability.", False),
])
def test_one_detector_says_a_text_defines_a_term_only_as_its_subject_links51(text, defines):
    """`_defines` is the one detector of a clause (or ruling) that says what a term is: the term opens its sentence
    and "is a" / "means" / "refers to" follows; "Unlocking a door is a special action" says what unlocking is."""
    term = re.compile(r"\bdoors?\b|\bplay a card\b|\boutside the game\b|\bsplit cards?\b|\bend steps?\b")
    assert links._defines(term, text) is defines


def test_a_quoted_term_is_defined_by_the_clause_the_section_terms_detector_reads_links51(rules):
    """A ruling's quoted term and a section's term find their defining clause by the same detector: "monarch" is
    defined by 724.1 ("The monarch is a designation a player can have"), though the ruling's words ("draws a card at
    the beginning of the end step") are 724.2's (review50 L6: the quoted term's own test read only "X means" / "X
    refers to", so the words chose 724.2)."""
    index = links._index_for(rules)
    ranked = index.defining("monarch", index.scores("the monarch draws a card at the beginning of the end step"))
    assert ranked[:1] == [(0, "724.1")], ranked


@pytest.mark.parametrize("text, clause", [
    # summoning sickness said "on the turn it enters" (302.6)
    ("Test Golem can't attack on the turn it enters the battlefield unless it has haste.", "302.6"),
    # a number the effect reads "based on" what holds as it resolves (608.2h)
    ("The amount of life you gain is based on the number of creatures you control when the ability resolves.",
     "608.2h"),
    # "a spell is copied": the copy keeps the original's choices (707.10)
    ("If an instant spell is copied, the copy gets the bonus only if a card was revealed as the additional cost.",
     "707.10"),
    # a target that "becomes illegal" before the spell resolves (608.2b)
    ("If one of the targets becomes illegal before Test Volley resolves, the other one is still dealt damage.",
     "608.2b"),
    # "is a mana ability": what makes an ability one (605.1a)
    ("Test Doll's first ability is a mana ability. It can't be responded to.", "605.1a"),
    # a life total that "becomes 0" (704.5a, the state-based action)
    ("If every player's life total becomes 0 at the same time, the game is a draw.", "704.5a"),
    # a value below zero in a calculation (107.1b)
    ("If a creature you control has power less than 0, use that negative number when you add up the total power.",
     "107.1b"),
    # an instant or sorcery goes to the graveyard as it resolves (608.2n)
    ("If you cast the card from exile, it is put into its owner's graveyard when it resolves.", "608.2n"),
    # a leaves-the-battlefield trigger sees the object's own death (603.10a)
    ("Test Fiend's ability triggers whenever a creature you control dies, including Test Fiend itself.", "603.10a"),
])
def test_a_general_rule_said_in_the_cards_words_links51(rules, card_texts, text, clause):
    """Rulings that restate a general rule in the card's words (L's abstentions and siblings, links51): a cue reads
    the rule's claim where no term names it."""
    cards = tuple(n for n in ("Test Golem", "Test Volley", "Test Doll", "Test Fiend") if n in text) or ("Test Card",)
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, cards, first, not_ranked", [
    # 608.2n is the spell's own move: not a pile or a discarded card put there as the spell resolves
    ("The cards in the pile you don't choose are put into your graveyard as Test Fiction resolves.",
     ("Test Fiction",), None, "608.2n"),
    ("If you discard a card this way, it goes to your graveyard when the spell resolves, before you draw.",
     ("Test Loot",), None, "608.2n"),
    # 603.10a is a trigger's look back: a cost's "sacrifice any creature, including X itself" is none
    ("You may sacrifice any creature you control to pay the cost, including Test Altar Beast itself.",
     ("Test Altar Beast",), None, "603.10a"),
    # "isn't a mana ability because it has a target" is 605.5a's claim, not 605.1a's
    ("Test Shaman's ability isn't a mana ability because it has a target. It uses the stack and can be responded to.",
     ("Test Shaman",), "605.5a", "605.1a"),
    # a triggered ability that is a mana ability is 605.1b's, not the activated kind's 605.1a
    ("Test Reflection's triggered ability is a mana ability. It resolves immediately after the mana ability that "
     "triggered it.", ("Test Reflection",), "605.1b", "605.1a"),
    # a defender can't attack: 702.3b, not summoning sickness's 302.6
    ("Test Wall can't attack on the turn it enters, or any other turn, because it has defender.",
     ("Test Wall",), "702.3b", "302.6"),
    # a permanent spell's copy becomes a token: 707.10f, not the general 707.10
    ("If a creature spell is copied, the copy becomes a token as it resolves.", ("Test Card",), "707.10f", "707.10"),
])
def test_a_general_rules_cue_fires_only_on_its_own_claim_review51(rules, card_texts, text, cards, first, not_ranked):
    """links51's cues said in the card's words, on rulings that say the words about something else (review51 M2):
    the pile, the discarded card, the cost, the negation, the defender, the permanent spell each have their own rule,
    and the cue's clause is not linked first (`first`: the rule that is, where one is)."""
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert not_ranked not in got[:1], got
    if first is not None:
        assert got[:1] == [first], got


@pytest.mark.parametrize("text, cards, clause", [
    # an "until" exile whose source left before the exiling trigger resolved: the object doesn't move (610.3b)
    ("If Test Warden leaves the battlefield before its enters ability resolves, the target creature won't be exiled.",
     ("Test Warden",), "610.3b"),
    # an Aura returned to the battlefield, not cast: its owner chooses what it enchants as it enters (303.4f)
    ("If an Aura is returned this way, its owner chooses what it will enchant as it enters the battlefield.",
     ("Test Card",), "303.4f"),
    # no priority during resolution (117.2e)
    ("No player may take any actions while Test Oracle's ability is resolving. For example, you can't sacrifice the "
     "Treasure token to change the outcome of the other comparisons.", ("Test Oracle",), "117.2e"),
    # a count compared as the ability resolves (608.2h)
    ("You compare the number of creatures each player controls as Test Census's ability resolves.",
     ("Test Census",), "608.2h"),
    # a spell cast while another resolves (608.2g)
    ("You choose which card to cast (if any) as Test Cascade resolves.", ("Test Cascade",), "608.2g"),
    # one object for two instances of "target" (115.3)
    ("Both targets can be the same creature.", ("Test Card",), "115.3"),
    # a trigger above the spell that made it trigger (603.3)
    ("Test Mage's ability resolves before the spell that caused it to trigger.", ("Test Mage",), "603.3"),
    # every target illegal, said after the attempt to resolve (608.2b)
    ("If both creatures have left the battlefield as Test Exchange tries to resolve, both targets are illegal. The "
     "spell doesn't resolve.", ("Test Exchange",), "608.2b"),
    # a token enters as what the copied creature was copying (707.3), not an "enters as" replacement effect
    ("If the creature is copying something else when the ability resolves, the token enters as whatever that "
     "creature copied, except it's a 1/1.", ("Test Card",), "707.3"),
    # a token is created, not cast (601.2)
    ("The token created by Test Mage's ability isn't \"cast\", so abilities that trigger when a creature spell is "
     "cast won't trigger.", ("Test Mage",), "601.2"),
    # without paying its mana cost is the spell's one alternative cost (118.9a)
    ("If you cast a card without paying its mana cost, you can't also pay an alternative cost such as evoke.",
     ("Test Card",), "118.9a"),
])
def test_a_general_rule_said_in_the_cards_words_links53(rules, card_texts, text, cards, clause):
    """Rulings that restate a general rule in the card's words (N's abstentions and misread terms, links53)."""
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, cards, first, not_ranked", [
    # an ability whose source left still does what it says: 113.7a, not the "until" rule
    ("If Test Hovership leaves the battlefield before its ability resolves, the ability still exiles the target.",
     ("Test Hovership",), "113.7a", "610.3b"),
    # targets illegal in an aside about a spell that doesn't resolve: the sentence is about what happens then
    ("If the spell is countered or doesn't resolve (perhaps because all of its targets are illegal), the bonus "
     "isn't given.", ("Test Card",), None, "608.2b"),
    # a copy of a spell isn't cast: 707.10's claim, not a token's 601.2
    ("The copies of instant and sorcery spells created by Test Storm are put directly onto the stack. They aren't "
     "cast.", ("Test Storm",), None, "601.2"),
    # no actions before paying an activation's costs is the activation's rule, not resolution's 117.2e
    ("Once you announce that you are activating Test Relic's ability, no player may take any actions before you "
     "pay its costs.", ("Test Relic",), None, "117.2e"),
    # a spell cast from a hand, put elsewhere "as it resolves": no spell is cast during another's resolution
    ("If an effect would cause a spell you cast from your hand to be put into exile as it resolves, you choose "
     "which effect applies.", ("Test Card",), None, "608.2g"),
])
def test_a_general_rules_cue_fires_only_on_its_own_claim_links53(rules, card_texts, text, cards, first, not_ranked):
    """links53's cues on rulings that say their words about something else."""
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert not_ranked not in got[:1], got
    if first is not None:
        assert got[:1] == [first], got


@pytest.mark.parametrize("text, cards, clause", [
    # a reflexive trigger said as what happens while the ability resolves (603.12)
    ("Test Manticore features a new style of triggered ability. When it enters the battlefield, its triggered ability "
     "goes on the stack without a target. While that ability is resolving, you may sacrifice a creature. If you do, a "
     "second ability triggers and you pick a target that will be dealt damage.", ("Test Manticore",), "603.12"),
    # ... and as the instruction it triggers on (603.12)
    ("Test Manticore's damage-dealing ability triggers only when you sacrifice a creature as a result of the "
     "instruction of its triggered ability. It won't trigger if you sacrifice a creature for any other reason.",
     ("Test Manticore",), "603.12"),
    # last known information in the glossary's words, "last existence" (608.2h)
    ("The sacrificed creature's last known existence on the battlefield is checked to determine its power.",
     ("Test Vizier",), "608.2h"),
    # a "cycle or discard" trigger triggers once for a cycled card: cycling's own clause (702.29d), not 603.2c (the
    # keyword's clauses are candidates when the ruling names cycling)
    ("An ability that triggers whenever you \u201ccycle or discard\u201d a card triggers only once if you cycle a card. "
     "Cycling discards the card.", ("Test Card",), "702.29d"),
    # ... any other trigger said to trigger only once: 603.2c
    ("Test Beast's ability triggers only once each combat, however many creatures block it.", ("Test Beast",),
     "603.2c"),
])
def test_a_general_rule_said_in_its_own_words_links54(rules, card_texts, text, cards, clause):
    """Rulings that say a general rule in the CR's own words (O's abstentions, links54): the reflexive trigger's
    action taken as another ability resolves, the glossary's "last existence"."""
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert got[:1] == [clause], got


@pytest.mark.parametrize("text, cards, not_ranked", [
    # a trigger on an action taken during the turn, not as a resolving ability's instruction: no reflexive trigger
    ("Test Pyre's ability triggers only when you sacrifice a creature during your turn.", ("Test Pyre",), "603.12"),
    # "If you do" of a one-ability effect with nothing triggering: no reflexive trigger
    ("While that ability is resolving, you may pay {2}. If you do, draw a card.", ("Test Card",), "603.12"),
])
def test_the_reflexive_trigger_cue_needs_a_trigger_on_the_instruction_links54(rules, card_texts, text, cards,
                                                                               not_ranked):
    """The 603.12 cue reads a trigger on an action taken as another ability resolves, not any "only when"."""
    got = linked_clauses(card_ruling(text, cards), rules, card_texts)
    assert not_ranked not in got[:1], got


@pytest.mark.parametrize("text, oracle, clause", [
    # the card's intervening-if trigger "won’t trigger at all" (603.4), printed with the typographic apostrophe
    ("If you haven’t drawn a card this turn when your end step begins, Test Charter’s last ability won’t trigger at "
     "all.", "Flying\nAt the beginning of your end step, if you drew a card this turn, you gain 2 life.", "603.4"),
    # "can’t" in the 118.9a cue
    ("If you cast a spell without paying its mana cost, you can’t choose to cast it for an alternative cost.",
     "You may cast spells without paying their mana costs.", "118.9a"),
])
def test_a_ruling_with_typographic_apostrophes_reads_as_one_with_typewriter_ones_links53(rules, card_texts, text,
                                                                                      oracle, clause):
    """Newer rulings print "won’t", "can’t": the cues, written "won't", read them too (N's Star Charter, links53)."""
    got = linked_clauses(card_ruling(text, ("Test Charter",)), rules, {**card_texts, "Test Charter": oracle})
    assert got[:1] == [clause], got
    plain = linked_clauses(card_ruling(text.replace("’", "'"), ("Test Charter",)), rules,
                           {**card_texts, "Test Charter": oracle})
    assert got == plain
