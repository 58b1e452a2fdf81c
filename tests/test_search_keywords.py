"""A keyword ability or action the question names that no ruling is about (foretell in a face-down KB):
its CR clauses are what answers, and they are scored lexically as fully as the rulings
(`Searcher._keyword_rules`, `Weights.keyword_rules`). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher
from kb.search.question import KEYWORD_IN_RULINGS, same_word
from kb.search.rank import Weights
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher, ranked_ids, rule_entry as _rule, ruling_entry as _ruling

FORETELL = [
    _rule("c-702.143", "702.143", "Foretell"),
    _rule("c-702.143a", "702.143a", "Foretell is a keyword that functions while the card with foretell is in a "
          "player's hand. Any time a player has priority during their turn, that player may pay {2} and exile a card "
          "with foretell from their hand face down. That player may look at that card as long as it remains in exile."),
    _rule("c-702.143d", "702.143d", "If an effect states that a card in exile becomes foretold, that card becomes a "
          "foretold card. That card's owner may look at that card as long as it remains in exile."),
    _rule("c-gl-foretell", "glossary:Foretell", "Foretell: A keyword ability that lets a player exile cards from their "
          "hand and cast them for an alternative cost on future turns. See rule 702.143, \"Foretell.\""),
    _rule("c-702.91a", "702.91a", "Battle cry is a triggered ability."),
    _rule("c-gl-echo", "glossary:Echo", "Echo: A keyword ability that makes a player pay a permanent's mana cost "
          "again. See rule 702.30, \"Echo.\""),
    _rule("c-702.30a", "702.30a", "Echo is a triggered ability. Echo [cost] means \"At the beginning of your upkeep, if "
          "this permanent came under your control since the beginning of your last upkeep, sacrifice it unless you "
          "pay [cost].\""),
    _rule("c-gl-flashback", "glossary:Flashback", "Flashback: A keyword ability that lets a player cast a card from "
          "their graveyard. See rule 702.34, \"Flashback.\""),
    _rule("c-702.34a", "702.34a", "Flashback appears on some instants and sorceries. It represents two static abilities: "
          "one that functions while the card is in a player's graveyard and another that functions while the card is on "
          "the stack."),
    _rule("c-gl-hideaway", "glossary:Hideaway", "Hideaway: A keyword ability that lets a player exile a card face down. "
          "See rule 702.75, \"Hideaway.\""),
    _rule("c-702.75a", "702.75a", "Hideaway is a triggered ability."),
    # Windbrisk Heights has hideaway in its Oracle text: its rulings are about hideaway without saying it
    _ruling("r-windbrisk", "You may look at the exiled card at any time, even if Windbrisk Heights leaves.",
            "Windbrisk Heights"),
    _rule("c-708.5", "708.5", "A player may look at a face-down spell or permanent they control at any time."),
    _ruling("r-own", "You may look at face-down permanents you control at any time. You can't look at face-down "
            "permanents an opponent controls.", "Morph Card"),
    _ruling("r-keeper", "Keeper of the Lens doesn't stop your opponents from looking at face-down creatures they "
            "control. Your opponent may look at the cards.", "Keeper of the Lens"),
    _ruling("r-pile", "The pile is shuffled to hide from your opponents which card is which. Your opponents can't look "
            "at the cards.", "Ghastly Card"),
    _ruling("r-boon", "The copy of the spell that Echoing Boon creates has the same targets unless you choose new "
            "ones; you may look at the cards.", "Echoing Boon"),
]


def _searcher(tmp_path: Path, on: bool) -> Searcher:
    searcher = fake_searcher(FORETELL, tmp_path / "index")
    searcher.weights = Weights(keyword_rules=on)
    return searcher


def _lifted(searcher: Searcher, question: str, lang: Lang = Lang.EN) -> set[str]:
    langs = tuple(dict.fromkeys((Lang.EN, lang)))
    lifted = searcher._keyword_rules(question, langs, searcher._name_skip(searcher.named_cards(question, lang)))
    return {searcher.table.ids[i] for i in np.flatnonzero(lifted)}


@pytest.mark.parametrize("question, lang", [
    ("Can I look at my opponent's foretold cards?", Lang.EN),  # "foretold": the glossary's foretell concept
    ("Can I look at the cards my opponent foretells?", Lang.EN),
    ("Darf ich mir die vorhergesehenen Karten meines Gegners ansehen?", Lang.DE),
    ("¿Puedo mirar las cartas presagiadas de mi rival?", Lang.ES),
])  # fmt: skip
def test_a_keyword_no_ruling_is_about_names_its_glossary_entry_and_clauses(tmp_path: Path, question: str,
                                                                          lang: Lang) -> None:
    # the clauses under the rule the entry refers to, not its heading ("702.143: Foretell")
    assert _lifted(_searcher(tmp_path, True), question, lang) == {"c-702.143a", "c-702.143d", "c-gl-foretell"}


def test_a_keyword_a_german_word_translates_to_is_named(tmp_path: Path) -> None:
    """"Rückblende" is flashback (the search lexicon's translations: no concept token, only English words)."""
    lifted = _lifted(_searcher(tmp_path, True), "Kann ich eine Karte mit Rückblende aus dem Friedhof wirken?", Lang.DE)
    assert lifted == {"c-702.34a", "c-gl-flashback"}


@pytest.mark.parametrize("question", [
    "Can I look at the cards Echoing Boon copied?",  # a card's name is no keyword ("echo")
    "Can I look at my opponent's face-down creature?",  # no keyword named
])
def test_no_keyword_no_lift(tmp_path: Path, question: str) -> None:
    assert _lifted(_searcher(tmp_path, True), question) == set()


EXALTED_LIFELINK = [
    _rule("c-gl-exalted", "glossary:Exalted", "Exalted: A keyword ability that can make a creature better when it "
          "attacks alone. See rule 702.83, \"Exalted.\""),
    _rule("c-702.83a", "702.83a", "Exalted is a triggered ability."),
    _rule("c-gl-lifelink", "glossary:Lifelink", "Lifelink: A keyword ability that causes a player to gain life. See "
          "rule 702.15, \"Lifelink.\""),
    _rule("c-702.15a", "702.15a", "Lifelink is a static ability."),
    _ruling("r-angel", "You can cast Exalted Angel face down for {3}.", "Exalted Angel"),
]


@pytest.mark.parametrize("question, lang, lifted", [
    # Exalted Angel by its German and Spanish names, whose "Erhabener" and "exaltado" translate to exalted
    ("Kann ich meinen Erhabenen Engel verdeckt ausspielen und später umdrehen?", Lang.DE, set()),
    ("¿Puedo lanzar mi Ángel exaltado boca abajo y luego voltearlo?", Lang.ES, set()),
    ("Wie funktioniert Erhaben?", Lang.DE, {"c-gl-exalted", "c-702.83a"}),
    ("¿Cómo funciona exaltado?", Lang.ES, {"c-gl-exalted", "c-702.83a"}),
    # the card index reads "Lebensverknüpfung" as the Aura Lifelink: a card whose whole name is the keyword
    ("Meine Kreatur hat Lebensverknüpfung und Trampelschaden. Wie viel Leben bekomme ich?", Lang.DE,
     {"c-gl-lifelink", "c-702.15a"}),
])  # fmt: skip
def test_a_card_name_translated_to_a_keyword_names_it_only_when_the_name_is_the_keyword(
        tmp_path: Path, question: str, lang: Lang, lifted: set[str]) -> None:
    """review49 H1: the English words a German or Spanish question translates to (`Glossary.translate`) name no
    keyword through a card's name (`Searcher._name_skip`), but a card named by the keyword alone still names it."""
    searcher = fake_searcher(EXALTED_LIFELINK, tmp_path / "index")
    assert _lifted(searcher, question, lang) == lifted


@pytest.mark.parametrize("question, lang", [
    ("Erhaben", Lang.DE), ("erhaben", Lang.DE), ("Erhabener Engel", Lang.DE), ("exaltado", Lang.ES),
    ("exalted", Lang.EN), ("Lebensverknüpfung", Lang.DE), ("Lifelink", Lang.EN),
])  # fmt: skip
def test_a_word_or_two_is_read_in_the_language_of_its_keyword_or_card_name(tmp_path: Path, question: str,
                                                                          lang: Lang) -> None:
    """kb.lang.detect reads a single German word as English (no function word, no umlaut): the search reads a
    word or two by the glossary's printed keyword names and the card names of each language (`Searcher.query_lang`)."""
    assert fake_searcher(EXALTED_LIFELINK, tmp_path / "index").query_lang(question) is lang


@pytest.mark.parametrize("question, keyword", [
    ("Bedrohlich", {"c-gl-menace", "c-702.111a"}), ("Erhaben", {"c-gl-exalted", "c-702.83a"}),
])
def test_a_one_word_german_search_for_a_keyword_is_translated(tmp_path: Path, question: str,
                                                              keyword: set[str]) -> None:
    entries = [*EXALTED_LIFELINK, _ruling("r-block", "Two creatures can block it.", "Some Card"),
               _rule("c-gl-menace", "glossary:Menace", "Menace: An evasion ability that makes creatures unblockable "
                     "by a single creature. See rule 702.111, \"Menace.\""),
               _rule("c-702.111a", "702.111a", "Menace is an evasion ability.")]
    assert set(ranked_ids(fake_searcher(entries, tmp_path / "index"), question, 2)) == keyword


def _echo_rulings(tmp_path: Path, n: int) -> Searcher:
    """The entries and `n` more rulings that say "echo" (Echoing Boon's ruling says it already: "echoing")."""
    entries = [*FORETELL, *(_ruling(f"r-echo{k}", f"If you don't pay the echo cost, you sacrifice it ({k}).",
                                    f"Echo Card {k}") for k in range(n))]
    return fake_searcher(entries, tmp_path / "index")


def test_a_keyword_rulings_say_is_the_rulings(tmp_path: Path) -> None:
    """Echo's rules would be lifted for "echo", but rulings that say "echo" answer it."""
    searcher = _echo_rulings(tmp_path, KEYWORD_IN_RULINGS)
    assert not searcher._keyword_rules("Do I have to pay echo again?", (Lang.EN,)).any()
    assert searcher._keyword_rules("Can I look at my foretold cards?", (Lang.EN,)).any()


def test_a_keyword_one_ruling_says_in_passing_is_the_crs(tmp_path: Path) -> None:
    """One ruling that says the keyword ("a 2/2 creature with ward {2}") does not say what it does: a
    question about the keyword still gets its rules lifted (try-out 28: ward, 702.21a #47). Here the one
    ruling is Echoing Boon's."""
    searcher = _echo_rulings(tmp_path, 0)
    lifted = searcher._keyword_rules("Do I have to pay echo again?", (Lang.EN,))
    assert {searcher.table.ids[i] for i in np.flatnonzero(lifted)} == {"c-702.30a", "c-gl-echo"}


def test_a_keyword_of_a_card_whose_rulings_do_not_say_it_is_the_crs(tmp_path: Path) -> None:
    """Windbrisk Heights has hideaway in its Oracle text, but its ruling says "the exiled card", not
    "hideaway": a question about hideaway gets hideaway's rules lifted (try-out 28: 702.75a #33, behind
    rulings that share only "look" and "face down")."""
    question = "My opponent exiled a card face down with hideaway. Can I look at it?"
    assert _lifted(_searcher(tmp_path, True), question) == {"c-702.75a", "c-gl-hideaway"}


def test_the_rules_of_a_keyword_no_ruling_is_about_are_scored_lexically_as_fully_as_rulings(tmp_path: Path) -> None:
    """The rulings share "look", "opponent", "cards" with the question; only the CR speaks of foretell,
    and its clauses' BM25 was discounted as every clause's is (`Weights.rule_lexical`): the rulings came
    first (tryout26 defect 1). Another clause keeps its discount."""
    question = "Can I look at my opponent's foretold cards?"
    hits = {on: {h.entry.id: (k, h) for k, h in enumerate(_searcher(tmp_path / str(on), on).search(question, limit=8))}
            for on in (False, True)}
    for clause in ("c-702.143a", "c-702.143d"):
        off_lexical, on_lexical = hits[False][clause][1].lexical, hits[True][clause][1].lexical
        assert on_lexical == pytest.approx(off_lexical / Weights().rule_lexical, rel=1e-5)
    assert hits[True]["c-708.5"][1].lexical == pytest.approx(hits[False]["c-708.5"][1].lexical)
    assert hits[True]["c-702.143a"][0] < hits[False]["c-702.143a"][0]



def test_the_rules_of_a_keyword_no_ruling_is_about_can_come_before_rulings_sharing_its_other_words(
        tmp_path: Path) -> None:
    """Scored lexically in full, foretell's clauses still sat behind the rulings that share "look",
    "opponent" and "cards": their fused score kept the discount every clause has (`Weights.rule`), so no
    clause could be first however much better it matched (try-out 28: 702.143a #9). Theirs is
    `Weights.keyword_rule`."""
    searcher = _searcher(tmp_path, True)
    hits = searcher.search("Can I look at my opponent's foretold cards?", limit=5)
    assert hits[0].entry.id in {"c-702.143a", "c-702.143d"}
    # as every clause (and without the scattered reading, which lifts every clause's discount when the best
    # rulings are other cards' own, as r-own's and r-pile's are)
    searcher.weights = Weights(keyword_rule=Weights().rule, scattered_k=0)
    # a ruling sharing its other words first (r-own says "face-down", which the question does not:
    # `Weights.on_face_down` puts r-pile before it)
    assert searcher.search("Can I look at my opponent's foretold cards?", limit=5)[0].entry.id in {"r-own", "r-pile"}


# ---------------------------------------------------------------- a keyword of a named card's Oracle text
LANDWALK = [
    _rule("c-gl-swampwalk", "glossary:Swampwalk", "Swampwalk: See Landwalk."),
    _rule("c-gl-landwalk", "glossary:Landwalk", "Landwalk: A generic term for a group of keyword abilities that "
          "restrict whether a creature may be blocked. See rule 702.14, \"Landwalk.\""),
    _rule("c-702.14a", "702.14a", "Landwalk is a generic term that appears within an object's rules text as "
          "\"[type]walk,\" where [type] is usually a subtype."),
    _rule("c-702.14c", "702.14c", "A creature with landwalk can't be blocked as long as the defending player "
          "controls at least one land with the specified subtype."),
    _rule("c-509.1a", "509.1a", "The defending player chooses which creatures they control, if any, will block."),
    _ruling("r-block", "The face-down creature can block as normal; its blockers are declared as usual.",
            "Block Card"),
    _ruling("r-swamp", "You choose which blocking creature to sacrifice as the ability resolves.", "Other Card"),
    # shares the question's words (opponent, block, wall, tapped, land, swamp) and answers nothing about it
    _ruling("r-wall", "Your opponent can block with his wall even if it is tapped? No: a tapped wall can't block, "
            "whatever land or Swamp he controls.", "Wall Card"),
]


def _landwalk(tmp_path: Path, entries: list | None = None, **weights: bool) -> Searcher:
    entries = entries if entries is not None else LANDWALK
    searcher = fake_searcher(entries, tmp_path / "index")
    searcher.weights = Weights(**weights)
    return searcher


def _ids(searcher: Searcher, mask: np.ndarray) -> set[str]:
    return {searcher.table.ids[i] for i in np.flatnonzero(mask)}


def test_a_keyword_whose_glossary_entry_only_refers_to_another_names_that_ones_rules(tmp_path: Path) -> None:
    """"Swampwalk: See Landwalk." names no rule itself: the keyword is landwalk, whose entry refers to
    702.14; swampwalk's clauses were never lifted."""
    searcher = _landwalk(tmp_path)
    lifted = searcher._keyword_rules("Can my swampwalk creature be blocked by a wall?", (Lang.EN,))
    assert _ids(searcher, lifted) == {"c-gl-swampwalk", "c-gl-landwalk", "c-702.14a", "c-702.14c"}


QUESTION = "Can my opponent block my Bog Wraith with his wall when his only land is a tapped Swamp?"


def test_a_keyword_in_the_oracle_text_of_a_card_without_rulings_is_asked_about_through_its_rules(
        tmp_path: Path) -> None:
    """Bog Wraith (swampwalk in its Oracle text) has no ruling in the KB, and the question says no keyword:
    what decides it is the card's keyword, so landwalk's clauses rank as a keyword the question names."""
    searcher = _landwalk(tmp_path)
    hits = {}
    for on in (False, True):
        searcher.weights = Weights(card_keywords=on)
        hits[on] = {h.entry.id: (k, h) for k, h in enumerate(searcher.search(QUESTION, limit=8))}
    rank, hit = hits[True]["c-702.14c"]
    assert rank < hits[False]["c-702.14c"][0]
    assert hit.lexical == pytest.approx(hits[False]["c-702.14c"][1].lexical / Weights().rule_lexical, rel=1e-5)
    assert hits[True]["c-509.1a"][1].lexical == pytest.approx(hits[False]["c-509.1a"][1].lexical)  # no keyword's


def test_a_card_with_rulings_is_asked_about_through_them_not_its_keywords(tmp_path: Path) -> None:
    """Bog Wraith with a ruling of its own in the KB: its ruling answers, its keyword lifts nothing."""
    entries = [*LANDWALK, _ruling("r-wraith", "Bog Wraith can't be blocked while the defending player controls a "
                                  "Swamp, even a tapped one.", "Bog Wraith")]
    searcher = _landwalk(tmp_path, entries)
    assert [h.entry.id for h in searcher.search(QUESTION, limit=7)][0] == "r-wraith"
    assert "c-702.14c" not in _ids(searcher, _keyword_mask(searcher, QUESTION))


def test_a_keyword_of_a_cards_oracle_text_is_its_rules_however_many_rulings_say_it(tmp_path: Path) -> None:
    """Rulings of other cards that say "swampwalk" (in passing, about face-down play) keep a question that
    names the keyword from lifting its rules; they do not answer what the card the question names does."""
    entries = [*LANDWALK, *(_ruling(f"r-walk{k}", f"A face-down creature has no swampwalk, even turned face down by "
                                    f"Walk Card {k}.", f"Walk Card {k}") for k in range(KEYWORD_IN_RULINGS + 2))]
    searcher = _landwalk(tmp_path, entries)
    assert not searcher._keyword_rules("Can my swampwalk creature be blocked by a wall?", (Lang.EN,)).any()
    assert "c-702.14c" in _ids(searcher, _keyword_mask(searcher, QUESTION))


def test_a_face_down_question_gets_no_keyword_of_its_cards(tmp_path: Path) -> None:
    """A question about face-down play is answered by the face-down rules, not by what the card's printed
    keywords do while it is face down (it has none)."""
    searcher = _landwalk(tmp_path)
    question = "I cast Bog Wraith face down with a morph effect. Can my opponent block it?"
    assert not _keyword_mask(searcher, question).any()
    assert _keyword_mask(searcher, QUESTION).any()


def _keyword_mask(searcher: Searcher, question: str) -> np.ndarray:
    """The keyword mask `Searcher.search` computes for an English question."""
    named = [c.name for c in searcher.named_cards(question, Lang.EN)]
    return searcher._question_keywords(question, question, (Lang.EN,), named, set())


SEARCH_ACTION = [
    *LANDWALK,
    _rule("c-gl-search", "glossary:Search", "Search: To look through a zone for a card, usually a player's library. "
          "See rule 701.23, \"Search.\""),
    _rule("c-701.23a", "701.23a", "To search for a card in a zone, look at all cards in that zone (even if it's a "
          "hidden zone) and find a card that matches the given description."),
    _rule("c-gl-shuffle", "glossary:Shuffle", "Shuffle: To randomize the cards in a library. See rule 701.20, "
          "\"Shuffle.\""),
    _rule("c-701.20a", "701.20a", "To shuffle a library or a face-down pile of cards, randomize the cards within it so "
          "that no player knows their order."),
]


def test_a_cards_keyword_actions_are_no_keyword_it_has(tmp_path: Path) -> None:
    """Solemn Simulacrum's Oracle text searches and shuffles a library: verbs of what it does, not keyword
    abilities that decide a question about it ("in what order do its dies trigger and Blood Artist's go on
    the stack?", review42 #4), so no keyword action's rules (701.N) are lifted; a keyword ability (702.N)
    of a card's Oracle text still is."""
    searcher = _landwalk(tmp_path, SEARCH_ACTION)
    question = "If Solemn Simulacrum dies while I control a creature, in what order do the triggers go on the stack?"
    assert set(searcher.cards.rules_tokens(["Solemn Simulacrum"])) & {"search", "shuffle"}  # the case it guards
    assert not _ids(searcher, _keyword_mask(searcher, question)) & {"c-gl-search", "c-701.23a", "c-gl-shuffle",
                                                                    "c-701.20a"}
    assert "c-702.14c" in _ids(searcher, _keyword_mask(searcher, QUESTION))
    # a keyword action the question itself names is still its rules
    assert "c-701.23a" in _ids(searcher, searcher._keyword_rules("How do I search my library?", (Lang.EN,)))


# ---------------------------------------------------------------- tryout32 #2 and #3: cloak, hideaway
# rulings on other subjects, so that the words of the rulings below are rare among the rulings, as in a KB
OTHER = [_ruling(f"r-other{k}", f"Damage dealt to a creature by source {k} wears off during the cleanup step.",
                 f"Other Card {k}") for k in range(6)] + [
    _rule(f"c-514.{k}", f"514.{k}", f"In the cleanup step {k}, the active player discards down to their maximum hand size.")
    for k in range(1, 7)]
CLOAK = [
    _rule("c-701.58", "701.58", "Cloak"),
    _rule("c-701.58a", "701.58a", "To cloak a card, turn it face down. It becomes a 2/2 face-down creature card with "
          "ward {2}, no name, no subtypes, and no mana cost. Put that card onto the battlefield face down."),
    _rule("c-701.58b", "701.58b", "Any time you have priority, you may turn a cloaked permanent you control face up. "
          "This is a special action. To do this, reveal that card and pay its mana cost."),
    _rule("c-gl-cloak", "glossary:Cloak", "Cloak: To put a card onto the battlefield face down as a 2/2 creature "
          "with ward {2}. See rule 701.58, \"Cloak.\""),
    _ruling("r-manifest", "Any time you have priority, you can turn a manifested permanent you control face up by "
            "revealing that it's a creature card and paying its mana cost.", "Manifest Card"),
    *OTHER,
]


def _revised(eid: str, text: str, older: str, card: str) -> Entry:
    """A ruling with an older English wording: two texts of one ruling."""
    new = Variant(text, text, Lang.EN, "2024-09-20", "seed", 1, Relation.CANONICAL, 1.0, card)
    old = Variant(older, older, Lang.EN, "2024-02-02", "seed-old", 1, Relation.REVISION, 0.9, card)
    return Entry(eid, Kind.RULING, text, (card,), "2024-02-02", "2024-09-20", (new, old))


def test_a_keyword_one_revised_ruling_says_is_still_the_crs(tmp_path: Path) -> None:
    """The one ruling that says "cloak" (in passing: keep face-down cards apart) has an older wording; its two
    texts were counted as two rulings, more than KEYWORD_IN_RULINGS, and a cloak question got manifest's
    rulings, never 701.58b (tryout32 #2)."""
    entries = [*CLOAK, _revised(
        "r-apart", "You must keep your face-down permanents apart, whether they were manifested or cloaked.",
        "You must keep your face-down permanents apart, whether manifested or cloaked.", "Apart Card")]
    searcher = fake_searcher(entries, tmp_path / "index")
    question = "Can I turn a cloaked permanent face up by paying its mana cost?"
    assert {"c-701.58b", "c-gl-cloak"} <= _ids(searcher, searcher._keyword_rules(question, (Lang.EN,)))
    assert "c-701.58b" in [h.entry.id for h in searcher.search(question, limit=2)]


HIDEAWAY = [
    _rule("c-702.75", "702.75", "Hideaway"),
    _rule("c-702.75a", "702.75a", "Hideaway is a triggered ability. \"Hideaway N\" means \"When this permanent enters, "
          "look at the top N cards of your library. Exile one of them face down and put the rest on the bottom of your "
          "library in a random order. The exiled card gains 'Any player who has controlled the permanent that exiled "
          "this card may look at that card in the exile zone.'\""),
    _rule("c-gl-hideaway", "glossary:Hideaway", "Hideaway: A keyword ability that lets a player store a secret card. "
          "See rule 702.75, \"Hideaway.\""),
    # "face down" in a card's Oracle text names this term, which only points at morph: no keyword of the card
    _rule("c-gl-face-down", "glossary:Face Down", "Face Down: See rule 702.37, \"Morph,\" and rule 708, "
          "\"Face-Down Spells and Permanents.\""),
    _rule("c-702.37", "702.37", "Morph"),
    _rule("c-702.37a", "702.37a", "Morph is a static ability that functions in any zone from which you could play the "
          "card it's on, and the morph effect works any time the card is face down."),
    _rule("c-708.5", "708.5", "You can't look at face-down cards in exile unless an effect allows it."),
    # share the question's words (exiled, face down, look, cast it without paying its mana cost)
    _ruling("r-free", "You may cast the exiled card without paying its mana cost; you may look at it face down.",
            "Free Card"),
    _ruling("r-look", "You may look at a face-down card you exiled with this ability at any time.", "Exile Card"),
    _ruling("r-later", "If you exiled a card face down, can you look at it later? Yes: you may look at the exiled "
            "face-down card at any time, and play it without paying its mana cost.", "Later Card"),
    *OTHER,
]
HIDEAWAY_QUESTION = "I exiled a card face down with Spinerock Knoll. Can I look at it later?"


def test_a_face_down_question_gets_its_cards_face_down_keyword(tmp_path: Path) -> None:
    """Spinerock Knoll (hideaway in its Oracle text, no ruling in the KB) exiles a card face down: a question
    about that card is about face-down play and got none of the card's keywords, so 702.75a never came
    (tryout32 #3, Mosswort Bridge). Its face-down keyword, which no ruling is about, is lifted; not the glossary's
    Face Down its text's "face down" names (rulings say it: they answer it), nor a keyword whose rules are not
    of face-down play (`test_a_face_down_question_gets_no_keyword_of_its_cards`)."""
    searcher = _landwalk(tmp_path, HIDEAWAY)
    assert "hideaway" in searcher.cards.rules_tokens(["Spinerock Knoll"])  # the case it guards
    assert _ids(searcher, _keyword_mask(searcher, HIDEAWAY_QUESTION)) == {"c-702.75a", "c-gl-hideaway"}


def test_the_clause_of_a_named_cards_keyword_that_holds_what_is_asked_comes_first(tmp_path: Path) -> None:
    """Lifted, 702.75a still sat behind the rulings that share the card's other Oracle words ("play the exiled
    card without paying its mana cost"); it holds every concept the question asks (exile, face down, look at)."""
    searcher = _landwalk(tmp_path, HIDEAWAY)
    assert searcher.search(HIDEAWAY_QUESTION, limit=3)[0].entry.id == "c-702.75a"
    searcher.weights = Weights(card_keyword_asked=0.0)
    assert searcher.search(HIDEAWAY_QUESTION, limit=3)[0].entry.id != "c-702.75a"


def test_a_spanish_players_word_for_hideaway_names_it(tmp_path: Path) -> None:
    """"oculté" (I hid away): the search lexicon's hideaway, in a form derived from the verb."""
    searcher = _landwalk(tmp_path, HIDEAWAY)
    lifted = searcher._keyword_rules("¿Puedo mirar la carta que oculté boca abajo?", (Lang.EN, Lang.ES))
    assert _ids(searcher, lifted) == {"c-702.75a", "c-gl-hideaway"}


def test_a_searcher_reads_the_forms_of_keyword_verbs_only(tmp_path: Path) -> None:
    """"encubro" (I cloak) is cloak, a keyword action; "copiaba" (was copying) is left to the words: copy is
    no keyword, and read as `copy` it moved a judge question's answer down."""
    entries = [*CLOAK, _rule("c-gl-copy", "glossary:Copy", "Copy: To create an object whose copiable values are "
                             "copied from another object. See rule 707, \"Copying Objects.\""),
               # a longer term that reads as `choose` and refers to a keyword rule: no keyword `choose`
               _rule("c-gl-background", "glossary:Choose a Background", "Choose a Background: A variant of the "
                     "partner ability. See rule 702.124, \"Partner.\"")]
    searcher = _landwalk(tmp_path, entries)
    langs = (Lang.EN, Lang.ES)
    assert "~cloak" in searcher.glossary.question_tokens("si encubro una carta", langs)
    assert "~choose" not in searcher.glossary.question_tokens("¿Sabe mi rival cuál elegí?", langs)
    assert "~copy" not in searcher.glossary.question_tokens("mi criatura copiaba un dragón", langs)
    assert "~copy" in searcher.glossary.question_tokens("mi criatura copia un dragón", langs)  # the listed term


# A question word that only shares a stem or a concept with a keyword action names none (`Searcher._named_terms`):
# read as one, it held the general reading back (`_rulings_keyword`) for 15 of the 40 dev questions it held
# (general49b).
ACTIONS = [
    _rule("c-gl-destroy", "glossary:Destroy", "Destroy: To move a permanent from the battlefield to its owner's "
          "graveyard. See rule 701.8, \"Destroy.\""),
    _rule("c-gl-dies", "glossary:Dies", "Dies: A creature or planeswalker \"dies\" if it is put into a graveyard "
          "from the battlefield. See rule 700.4."),
    _rule("c-gl-counter", "glossary:Counter", "Counter: 1. To cancel a spell or ability so it doesn't resolve. "
          "See rule 701.6, \"Counter.\""),
    _rule("c-gl-planeswalk", "glossary:Planeswalk", "Planeswalk: To move from one plane card to another in the "
          "Planechase casual variant. See rule 701.31, \"Planeswalk.\""),
    _rule("c-gl-shuffle", "glossary:Shuffle", "Shuffle: To randomize the cards in a library. See rule 701.24, "
          "\"Shuffle.\""),
    *(_ruling(f"r-act{k}", f"If an effect would destroy it, counter target spell, shuffle your library and the "
              f"planeswalker redirects damage ({k}).", f"Act Card {k}") for k in range(KEYWORD_IN_RULINGS + 1)),
]


@pytest.mark.parametrize("question, lang, term", [
    ("Does Rest in Peace stop dies triggers?", Lang.EN, None),  # dying is no destroying (CR 700.4)
    ("Stirbt eine Kreatur mit Todesberührung?", Lang.DE, None),
    ("¿Cuándo muere exactamente?", Lang.ES, None),
    ("When does an aura go away after the creature leaves the battlefield?", Lang.EN, None),
    ("What does X count as?", Lang.EN, None),  # "count" stems as "Counter" does
    ("What happens to my planeswalker with zero loyalty?", Lang.EN, None),  # as "Planeswalk" does
    ("Was passiert mit einem Planeswalker mit 0 Loyalität?", Lang.DE, None),
    ("If Murder would destroy it, is it destroyed?", Lang.EN, "glossary:Destroy"),  # the action, and its forms
    ("Can I counter it?", Lang.EN, "glossary:Counter"),
    ("Do they get shuffled into my deck?", Lang.EN, "glossary:Shuffle"),
])  # fmt: skip
def test_a_word_that_only_stems_or_reads_as_a_keyword_action_names_none(tmp_path: Path, question: str, lang: Lang,
                                                                         term: str | None) -> None:
    searcher = fake_searcher(ACTIONS, tmp_path / "index")
    langs = tuple(dict.fromkeys((Lang.EN, lang)))
    rows = searcher._named_terms(question, langs, 1, frozenset(), len(searcher.table),
                                 searcher.glossary.translate(question, lang))
    named = {searcher._entry(r).clause for r in rows} - {"glossary:Dies"}
    assert named == ({term} if term else set())


def test_a_keyword_action_the_rulings_say_does_not_hold_the_general_reading(tmp_path: Path) -> None:
    """Every keyword action (701.N) is some rulings' word (destroy, tap, shuffle): the rulings that say it are
    no more about the question than the CR is; a keyword ability's (702.N) are (hidden agenda)."""
    searcher = fake_searcher(ACTIONS, tmp_path / "index")
    assert not searcher._rulings_keyword("Do they get shuffled into my deck?", (Lang.EN,), frozenset())
    assert not searcher._rulings_keyword("If Murder would destroy it, is it destroyed?", (Lang.EN,), frozenset())


@pytest.mark.parametrize("question, lang", [
    ("Does Rest in Peace stop dies triggers?", Lang.EN),
    ("Stirbt eine Kreatur mit Todesberührung?", Lang.DE),
    ("¿Cuándo muere exactamente?", Lang.ES),
])
def test_dying_is_leaving_the_battlefield_not_destroying(question: str, lang: Lang) -> None:
    """A creature dies however it is put into a graveyard from the battlefield (CR 700.4): a way of leaving the
    battlefield, not the keyword action destroy."""
    found = CORPUS.glossary.question_tokens(question, tuple(dict.fromkeys((Lang.EN, lang))))
    assert "~leaves_the_battlefield" in found and "~destroy" not in found


def test_destroying_reads_as_destroy() -> None:
    """The CR's "Destroy" and a question's "destroyed" are the keyword action's, not every way of leaving."""
    assert CORPUS.glossary.question_tokens("Is it destroyed?", (Lang.EN,)) == ["~destroy"]
    assert CORPUS.glossary.concept_tokens(tokenize("Destroy"), (Lang.EN,)) == ["~destroy"]


@pytest.mark.parametrize("a, b, same", [
    ("shuffled", "shuffle", True), ("shuffling", "shuffle", True), ("tapped", "tap", True), ("discards", "discard", True),
    ("attacking", "attack", True), ("auren", "aura", True), ("sacrifices", "sacrifice", True),
    ("flips", "flipped", True), ("untaps", "untapped", True), ("attacks", "attacking", True),
    ("activating", "activated", True),  # two forms, each a base with an ending (review49 L1)
    ("count", "counter", False), ("planeswalker", "planeswalk", False), ("counts", "counters", False),
])  # fmt: skip
def test_same_word_is_an_inflection_not_a_derived_word(a: str, b: str, same: bool) -> None:
    assert same_word(a, b) is same and same_word(b, a) is same


def test_a_word_of_the_crs_own_terms_is_english_too(tmp_path: Path) -> None:
    """review50 M1: "Gift" is the English keyword (702.174) and a German word of the poison-counter terms; read as
    German alone, a one-word search for the keyword was translated to poison counters. A CR glossary term's word
    counts as English, so no lexicon decides and the letters' guess (English) stands."""
    gift = _rule("c-gl-gift", "glossary:Gift", "Gift: A keyword ability that lets an opponent get a gift. See rule "
                 "702.174, \"Gift.\"")
    assert fake_searcher([*EXALTED_LIFELINK, gift], tmp_path / "index").query_lang("Gift") is Lang.EN
    assert fake_searcher(EXALTED_LIFELINK, tmp_path / "plain").query_lang("Gift") is Lang.DE  # the lexicon alone


DISGUISE_DISTURB = [
    _rule("c-702.168", "702.168", "Disguise"),
    _rule("c-702.168a", "702.168a", "Disguise is a static ability that functions in any zone from which you could "
          "play the card it's on, and the disguise effect works any time the card is face down."),
    _rule("c-gl-disguise", "glossary:Disguise", "Disguise: A keyword ability that lets a player cast a card face down "
          "for {3} as a 2/2 creature with ward {2}. See rule 702.168, \"Disguise.\""),
    _rule("c-702.146", "702.146", "Disturb"),
    _rule("c-702.146a", "702.146a", "Disturb is an ability found on the front face of some double-faced cards."),
    _rule("c-gl-disturb", "glossary:Disturb", "Disturb: A keyword ability that allows a player to cast a double-faced "
          "card transformed from the graveyard. See rule 702.146, \"Disturb.\""),
    _rule("c-702.37", "702.37", "Morph"),
    _rule("c-gl-morph", "glossary:Morph", "Morph: A keyword ability that lets a card be cast face down as a 2/2 "
          "creature. See rule 702.37, \"Morph.\""),
    *CLOAK,
]


@pytest.mark.parametrize("word, lang", [
    # smoke51 L2: the infinitive of the printed reflexive "disfrazarse", as a question reads it, was read as English
    ("disfrazar", Lang.ES), ("Disfrazar", Lang.ES), ("disfracé", Lang.ES),
    ("disfrazarse", Lang.ES), ("encubrir", Lang.ES), ("tarnen", Lang.DE), ("getarnt", Lang.DE),  # as before
    ("gemorpht", Lang.DE),  # the participle of German players' "morphen"
    ("cloak", Lang.EN),
])  # fmt: skip
def test_a_keywords_verb_alone_is_read_in_its_language_in_any_form(tmp_path: Path, word: str, lang: Lang) -> None:
    assert fake_searcher(DISGUISE_DISTURB, tmp_path / "index").query_lang(word) is lang


def test_a_keywords_infinitive_alone_is_the_keyword_as_in_a_question(tmp_path: Path) -> None:
    """smoke51 L2: `kb search disfrazar` gave disturb's rules, `¿Qué es disfrazar?` disguise's."""
    searcher = fake_searcher(DISGUISE_DISTURB, tmp_path / "index")
    for question in ("disfrazar", "¿Qué es disfrazar?"):
        assert set(ranked_ids(searcher, question, 2)) == {"c-702.168a", "c-gl-disguise"}, question
