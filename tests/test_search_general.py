"""Questions about general rules no ruling covers: the players' words for the CR's terms (the search
lexicon's general-rules concepts) and the CR glossary entry a question names through them, which lifts
the rule it refers to (`Searcher._cr_terms`). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import Corpus
from kb.model import Lang
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.rank import Weights
from kb.search.text import tokenize
from tests.entries import rule_entry, ruling_entry

CORPUS = Corpus.default()


@pytest.mark.parametrize("words, langs, concept", [
    ("Can I respond to the legendary rule?", (Lang.EN,), "~legend_rule"),
    ("This is called the legend rule.", (Lang.EN,), "~legend_rule"),  # the CR's own words
    ("Gilt die Legendenregel auch für Spielsteine?", (Lang.EN, Lang.DE), "~legend_rule"),
    ("What happens if you cast a spell on an invalid target?", (Lang.EN,), "~illegal_target"),
    ("¿Y si el objetivo es ilegal?", (Lang.EN, Lang.ES), "~illegal_target"),  # "es" is a function word
    ("Is the target legal, and is that rule legendary?", (Lang.EN,), None),  # the words, not in a row
    ("Which one applies first, by timestamp?", (Lang.EN,), "~layer"),
    ("Dos efectos de reemplazo quieren aplicarse", (Lang.EN, Lang.ES), "~replacement_effect"),
])  # fmt: skip
def test_players_words_for_general_rules_reach_the_crs_concept(words: str, langs: tuple[Lang, ...],
                                                                concept: str | None) -> None:
    found = CORPUS.glossary.concept_tokens(tokenize(words), langs, question=True)
    if concept is None:
        assert not {"~illegal_target", "~legend_rule"} & set(found)
    else:
        assert concept in found


_rule, _ruling = rule_entry, ruling_entry


LEGEND = [
    _rule("c-704.5j", "704.5j", "If two or more legendary permanents with the same name are controlled by the "
          "same player, that player chooses one of them, and the rest are put into their owners' graveyards."),
    _rule("c-gl-legend", "glossary:Legend Rule", "Legend Rule: A state-based action that causes a player who "
          "controls two or more legendary permanents with the same name to put all but one into their owners' "
          "graveyards. See rule 704.5j."),
    _rule("c-gl-ward", "glossary:Ward", "Ward: A triggered ability that can counter spells or abilities that "
          "target the permanent with ward. See rule 702.21."),
    _rule("c-702.21", "702.21", "Ward is a triggered ability."),
    _rule("c-116.2b", "116.2b", "Turning a face-down creature face up is a special action. A player can take this "
          "action any time they have priority, and it doesn't use the stack."),
    _ruling("r-respond", "You can respond to the ability by turning the face-down creature face up.", "Morph Card"),
    _ruling("r-special", "Turning it face up is a special action; it can't be responded to.", "Morph Card"),
    _ruling("r-stack", "The ability uses the stack, and players may respond to it.", "Morph Card"),
]


def _searcher(tmp_path: Path, bonus: float) -> Searcher:
    build_index(LEGEND, tmp_path / "index", FakeEmbedder(), corpus=CORPUS)
    searcher = Searcher.load(tmp_path / "index", LEGEND, query_embedder=FakeEmbedder())
    searcher.weights = Weights(cr_term=bonus)
    return searcher


@pytest.mark.parametrize("bonus", [0.0, Weights().cr_term])
def test_a_cr_term_named_in_the_players_words_lifts_the_rule_its_glossary_entry_refers_to(
        tmp_path: Path, bonus: float) -> None:
    """"legendary rule" is not the glossary's "Legend Rule" word for word, but the same concept; the
    rulings say "respond" and "special action", and without the lift they come first."""
    hits = _searcher(tmp_path, bonus).search("Can I respond to the legendary rule?", limit=3)
    lifted = {"c-704.5j", "c-gl-legend"} <= {h.entry.id for h in hits[:2]}
    assert lifted == (bonus > 0)


def test_a_one_word_term_lifts_nothing(tmp_path: Path) -> None:
    """"Ward" is a concept too, but one word, an everyday one in questions about it: no lift."""
    searcher = _searcher(tmp_path, Weights().cr_term)
    lifted = searcher._cr_terms("Does the face-down creature still have ward?", (Lang.EN,))
    assert not lifted.any()
    named = searcher._cr_terms("Can I respond to the legendary rule?", (Lang.EN,))
    assert {searcher.table.ids[i] for i in named.nonzero()[0]} == {"c-704.5j", "c-gl-legend"}


@pytest.mark.parametrize("share", [1.0, None])
def test_the_rule_a_named_glossary_entry_refers_to_comes_before_the_entry(tmp_path: Path, monkeypatch,
                                                                          share: float | None) -> None:
    """Both are lifted; the entry only names the rule. With the whole bonus (share 1) the entry, all
    about the term, came first."""
    from kb.search import rank

    if share is not None:
        monkeypatch.setattr(rank, "GLOSSARY_SHARE", share)
    hits = _searcher(tmp_path, Weights().cr_term).search("Can I respond to the legendary rule?", limit=2)
    order = [h.entry.id for h in hits]
    assert order == (["c-gl-legend", "c-704.5j"] if share == 1.0 else ["c-704.5j", "c-gl-legend"])


STEPS = [
    _rule("c-gl-boc", "glossary:Beginning of Combat Step", "Beginning of Combat Step: The first step of the combat "
          "phase. See rule 507."),
    _rule("c-gl-legend", "glossary:Legend Rule", "Legend Rule: A state-based action. See rule 704.5j."),
    _rule("c-gl-trample", "glossary:Trample", "Trample: A keyword ability. See rule 702.19."),
    _rule("c-gl-deathtouch", "glossary:Deathtouch", "Deathtouch: A keyword ability. See rule 702.2."),
    _ruling("r-trigger", "If it is turned face up during the beginning of combat step, its ability triggers.",
            "Morph Card"),
]


@pytest.fixture(scope="module")
def steps_searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    folder = tmp_path_factory.mktemp("steps") / "index"
    build_index(STEPS, folder, FakeEmbedder(), corpus=CORPUS)
    return Searcher.load(folder, STEPS, query_embedder=FakeEmbedder())


@pytest.mark.parametrize("question, unknown", [
    # review39 #5: judges capitalise steps, phases, rules terms and sets; they are no cards
    ("If it is turned face up during the Beginning of Combat step, does it trigger?", []),
    ("At the Beginning of Combat, can I unmorph it?", []),  # a step's name without "step"
    ("Is the Legend Rule of Kamigawa still used?", []),  # a phrase that holds a glossary term
    ("Cards from Murders at Karlov Manor with disguise: can they be turned face up?", []),  # a set's name
    ("Is a face-down card of House of Horror a Room?", []),  # Duskmourn: House of Horror
    ("How does Trample with Deathtouch assign damage?", []),  # one-word terms alone
    # a name no card has and that is none of these is still noted
    ("Face down cards leak info. Hide in Plain Sight cloaked two cards.", ["Hide in Plain Sight"]),
    ("Does the Beginning of Wisdom trigger?", ["Beginning of Wisdom"]),  # a step's word is no step
    # the question's own language says whether two capitalised words are a name (tryout32 #9)
    ("¿Puedo lanzar Cryptic Coat boca abajo si mi criatura tiene arrollar?", ["Cryptic Coat"]),
    ("Can I cast Cryptic Coat face down if my creature has trample?", []),
])  # fmt: skip
def test_rules_terms_steps_and_set_names_are_no_unknown_cards(steps_searcher: Searcher, question: str,
                                                               unknown: list[str]) -> None:
    assert steps_searcher.unknown_cards(question) == unknown
