"""Cards a question names (any language, small misspellings) and the rules question inside a story."""

from __future__ import annotations

import pytest

from kb.normalize import name_key
from kb.oracle import within
from kb.search.cardnames import CardIndex, CardMatcher, RulesTerms, card_expansions
from kb.search.focus import focus, is_verdict, sentences
from kb.corpus import Corpus
from kb.model import Lang

CORPUS = Corpus.default()

NAMES = [
    ("Lightform", "Lightform"), ("Lichtform", "Lightform"), ("Forma de luz", "Lightform"),
    ("Rageform", "Rageform"), ("Wutform", "Rageform"), ("Forma de ira", "Rageform"),
    ("Pithing Needle", "Pithing Needle"), ("Lähmungsnadel", "Pithing Needle"), ("Aguja medular", "Pithing Needle"),
    ("Cursed Totem", "Cursed Totem"), ("Linvala, Keeper of Silence", "Linvala, Keeper of Silence"),
    ("Manifest", "Manifest"), ("Mouth", "Mouth"), ("Boca", "Mouth"), ("Run Wild", "Run Wild"), ("Verwildern", "Run Wild"),
    ("What", "Who // What // When // Where // Why"), ("Trouble", "Toil // Trouble"),
    ("Whisperwood Elemental", "Whisperwood Elemental"), ("Disappear", "Disappear"), ("Insist", "Insist"),
    ("Suppress", "Suppress"),
    ("Strategy, Schmategy", "Strategy, Schmategy"), ("Entering", "Breaking // Entering"),
    ("Fire at Will", "Fire at Will"), ("Assure", "Assure // Assemble"),
    ("Zauberbuch", "Spellbook"), ("Zauberbuch-Dieb", "Grimoire Thief"),
    ("Hidden Dragonslayer", "Hidden Dragonslayer"), ("Monastery Flock", "Monastery Flock"), ("Angel", "Angel"),
    ("Plains", "Plains"), ("Protect", "Protect"),
    # "Sight" is a word of an English name, as in the card data: "Hide in Plain Sight" may be a name (smoke53 L1)
    ("Sight Beyond Sight", "Sight Beyond Sight"),
]


@pytest.fixture(scope="module")
def matcher() -> CardMatcher:
    return CardMatcher.from_names(NAMES, common={"manifest", "boca", "abajo", "turn", "face", "entering"})


@pytest.mark.parametrize(("question", "expected"), [
    ("Kann ich mit Lähmungsnadel auf Wutform verhindern, dass sie aufgedeckt wird?", ["Pithing Needle", "Rageform"]),
    ("¿Qué pasa si la Aguja medular nombra Forma de ira?", ["Pithing Needle", "Rageform"]),
    ("My opponent controls Cursed Totem. Can I turn my morph face up?", ["Cursed Totem"]),
    ("what does lahmungsnadel do to a morph", ["Pithing Needle"]),  # accents and case ignored
    ("Lightfrom with an empty library?", ["Lightform"]),  # swapped letters: one edit
    ("Does Pithing Needel stop unmorphing?", ["Pithing Needle"]),
    ("I attacked with Linvala and then...", ["Linvala, Keeper of Silence"]),  # the short legendary name
    ("Can I manifest a land? It is face down.", []),  # a rules word is not the card Manifest
    ("¿Puedo mirar una criatura boca abajo?", []),  # nor a Spanish rules word the card Boca
    ("Kann ich verhindern, dass er verdeckt bleibt?", []),  # a lower-case word is not a misspelled name
    ("When my Manifest resolves, I win?", ["Manifest"]),  # ... unless written as a name
    ("It came up last night. What happens to Lightform then?", ["Lightform"]),  # `What` starts a sentence
    # a legendary card's short name is written as a name: `their strategy` is no Strategy, Schmategy
    ("He hides his strategy. Can I ask what it is?", []),
    # in a title every word is capitalised: Entering is the word there
    ("Does Turning a Creature Face Up Count as Entering the Battlefield?", []),
    ("Can my Entering turn it face up?", ["Breaking // Entering"]),  # ... in a sentence, the card
    # a misspelled name does not run over a sentence's end (`Firecat. Will` is no Fire at Will) ...
    ("I copied the face down Firecat. Will I win?", []),
    # ... nor is a short word opening a sentence a slip (`Assume` is no Assure), a long one may be
    ("Assume that you cast a morph.", []),
    ("Lichtfrom ist im Spiel.", ["Lightform"]),
    # a title's capitals are no sentence ends: a misspelled name still spans its words
    ("What Does Pithing Needel Do To Face-Down Creatures?", ["Pithing Needle"]),
    # typed in lower case at the table (tryout17): a name no word could be meant by ...
    ("lightfrom with an empty library", ["Lightform"]),
    ("was passiert mit lichtfrom bei leerer bibliothek?", ["Lightform"]),
    ("pithing needel on a morph, does it stop it?", ["Pithing Needle"]),
    ("whisperwod elemental sacrifice, do creatures I get later get the ability?", ["Whisperwood Elemental"]),
    # ... but an inflected or misspelled everyday word one edit from a one-word name is the word
    ("It disappears, he insists, and the judge said supress it.", []),
    ("it is a rageforms thing", []),  # one letter added: not a swap
    # an inflected longer name beats the exact shorter name it starts with (German plural) ...
    ("Ich habe zwei Zauberbuch-Diebe. Wenn ich einen opfere?", ["Grimoire Thief"]),
    # ... and the shorter name alone is still itself
    ("Was macht mein Zauberbuch genau?", ["Spellbook"]),
    # a slip in a name's first two letters (tryout25: `Froma de ira` was read as no card at all) ...
    ("Froma de ira en una criatura boca abajo, si la volteo sigue encantada?", ["Rageform"]),
    ("Does Hdden Dragonslayer trigger when turned face up?", ["Hidden Dragonslayer"]),
    ("Mnoastery Flock gets turned face up. What now?", ["Monastery Flock"]),
    ("Is my Rgaeform still face down?", ["Rageform"]),  # one word: two swapped letters
    # ... but a word one letter off at its start is another word, not a card (Engel is no Angel)
    ("Mein Engel wird umgedreht.", []),
    # a word of a capitalised phrase that is no card (a card newer than the names: tryout26) is no misspelt name
    ("Face down cards leak info. Hide in Plain Sight cloaked two cards for my opponent.", []),
    ("My opponent cast Hide in Plain Sight, can I look?", []),
    ("[[Guardian Project]] does not draw a card for a morph.", []),
    ("[Guardian Project] does not draw a card for a morph.", []),
    ("Is my Plain still tapped?", ["Plains"]),  # alone, a slip is still read
    ("Can Lightform Hide in Plain Sight?", ["Lightform"]),  # an exact name in a phrase is still the card
    ("Does Hdden Dragonslayer Trigger here?", ["Hidden Dragonslayer"]),  # a misspelt name of two words too
    ("Ich habe Lichtfrom im Spiel.", ["Lightform"]),  # German nouns: no English word joins them to the name
    ("Lichtfrom und Wutform sind im Spiel.", ["Lightform", "Rageform"]),
    # a misspelt name before a capitalised word is still read: only a joining word or brackets make a phrase (review39 #2)
    ("Was passiert, wenn Lichtfrom Kreaturen manifestiert?", ["Lightform"]),
    ("Wird meine Lichtfrom Kreatur aufgedeckt?", ["Lightform"]),
])
def test_cards_named_in_a_question(matcher: CardMatcher, question: str, expected: list[str]) -> None:
    assert [c.name for c in matcher.find(question)] == expected


def test_closest_name_forgives_one_slip(matcher: CardMatcher) -> None:
    assert matcher.closest("Wutfrom") == "Rageform"
    assert matcher.closest("Forma de ria") == "Rageform"
    assert matcher.closest("Nothing Like It") is None


@pytest.mark.parametrize(("typed", "card"), [
    ("Froma de ira", "Rageform"), ("Rgaeform", "Rageform"), ("Wtuform", "Rageform"), ("Kightform", "Lightform"),
    ("Lgihtform", "Lightform"), ("Hdden Dragonslayer", "Hidden Dragonslayer"), ("Mnoastery Flock", "Monastery Flock"),
    ("Fomra de ira", "Rageform"), ("Hidden Dragonslayre", "Hidden Dragonslayer"),  # further in, as before
])
def test_closest_name_forgives_a_slip_anywhere_in_the_name(matcher: CardMatcher, typed: str, card: str) -> None:
    """tryout25: a slip in the first two letters was never forgiven (only names starting with the
    typed name's two letters were compared)."""
    assert matcher.closest(typed) == card


def test_names_as_close_to_a_slip_in_the_first_letters_give_the_first_in_order() -> None:
    """Names found by their last letters are compared in name order, as those found by the first two:
    of two names two edits away, the first (the reversed names' order would give the other)."""
    matcher = CardMatcher.from_names([("Bacdefghijkl", "B"), ("Abcdefghijkl", "A")])
    assert matcher.closest("Xxcdefghijkl") == "A"


@pytest.mark.parametrize(("a", "b", "k", "expected"), [
    ("lightfrom", "lightform", 1, 1), ("lightform", "lightform", 1, 0), ("verhindern", "verwildern", 1, None),
    ("verhindern", "verwildern", 2, 2), ("ragform", "rageform", 1, 1), ("abc", "xyz", 2, None),
])
def test_edit_distance_within_a_limit(a: str, b: str, k: int, expected: int | None) -> None:
    assert within(a, b, k) == expected


def test_oracle_text_gives_its_rules_words_and_their_associations() -> None:
    terms = RulesTerms(["Activated Ability", "Special Action", "Creature", "Mana Ability"],
                       [(["activated abilities"], ["special action"])])
    texts = [("Cursed Totem", "Activated abilities of creatures can't be activated.")]
    texts += [(f"Bear {i}", "Creature. Just a creature.") for i in range(30)]
    expand = card_expansions(texts, terms)
    assert {"activat", "special", "actio"} <= set(expand["Cursed Totem"])
    assert "Bear 1" not in expand  # `creature` is in most texts: it says nothing about one card


def test_card_index_survives_its_stored_form(matcher: CardMatcher) -> None:
    index = CardIndex(matcher, {"Cursed Totem": ["activat", "special"]})
    back = CardIndex.from_json(index.to_json())
    assert [c.name for c in back.named("Lähmungsnadel und Cursed Totem")] == ["Pithing Needle", "Cursed Totem"]
    assert back.rules_tokens(["Cursed Totem", "Rageform"]) == ["activat", "special"]


def test_a_story_is_split_into_the_asking_sentence_and_the_rest() -> None:
    story = ("So last night at FNM I was playing my morph deck against a friend. On turn four I cast a "
             "face-down creature and he attacked me with a big flier, so I blocked with it. "
             "Can I turn it face up after blockers are declared? He said no.")
    parts = focus(story)
    assert parts.asking == "Can I turn it face up after blockers are declared?"
    assert "FNM" in parts.story and "He said no." in parts.story


@pytest.mark.parametrize("question", [
    "Can I turn it face up after blockers are declared?",  # short: all question
    "Ich habe eine verdeckte Kreatur. Darf ich sie aufdecken?",
])
def test_a_short_question_is_all_question(question: str) -> None:
    assert focus(question).asking == question and not focus(question).is_story


@pytest.mark.parametrize(("story", "asking"), [
    ("At a PPTQ my opponent cast Force Away on my face-down creature and I put it back into my hand "
     "without showing it. Then he called a judge and said I had to reveal it. What do you do?",
     "Then he called a judge and said I had to reveal it. What do you do?"),
    ("Last week two face-down creatures of mine blocked his attacker and my opponent then turned one "
     "of them face up in the middle of combat damage. I said that was too late. What happens?",
     "I said that was too late. What happens?"),
])
def test_a_question_that_names_nothing_asks_about_the_sentence_before_it(story: str, asking: str) -> None:
    assert focus(story).asking == asking


def test_a_quotation_stays_in_its_sentence() -> None:
    text = ('Then I flipped it, and the card says "When this creature enters, destroy target artifact. Draw a card." '
            'My opponent says nothing happens. Is he right?')
    assert sentences(text) == [
        'Then I flipped it, and the card says "When this creature enters, destroy target artifact. Draw a card."',
        "My opponent says nothing happens.", "Is he right?"]


@pytest.mark.parametrize(("question", "verdict"), [
    ("Who is right?", True), ("Is he right?", True), ("Do I?", True), ("Is that legal?", True),
    ("¿Quién tiene razón?", True), ("Wer hat recht?", True), ("Stimmt das?", True), ("Darf ich?", True),
    ("What do you do?", False),  # asks what happens, not whether a claim holds
    ("Is it a legal target?", False), ("Stimmt das, oder darf jeder verdeckte Karten anschauen?", False),
    ("...", False),  # no question
])
def test_a_judge_call_is_a_question_with_no_words_of_its_own(question: str, verdict: bool) -> None:
    assert is_verdict(question) is verdict


@pytest.mark.parametrize("call", ["Who is right?", "Do I?", "Wer hat recht?", "¿Quién tiene razón?"])
def test_a_judge_call_asks_about_the_claims_before_it(call: str) -> None:
    story = ("Last night at the game store my friend and I played a long game of commander. I manifested the top card "
             'of my library and later turned it face up. The card reads "When this creature enters, you gain 3 life." '
             f"He says I gain nothing. {call}")
    asking = focus(story).asking
    assert asking.startswith('The card reads "When this creature enters, you gain 3 life." He says I gain nothing.')
    assert "manifested" not in asking  # the claims say enough: the setting stays story


def test_a_story_without_a_question_mark_asks_in_its_last_sentence() -> None:
    story = ("We were playing a long game and my opponent had three face-down creatures on the battlefield "
             "and one of them was a manifested land card. I want to know whether he can turn the land face up.")
    assert focus(story).asking == "I want to know whether he can turn the land face up."


def test_search_lexicon_extends_glossary_concepts_and_its_digest() -> None:
    from kb.model import Lang
    from kb.search.glossary import Glossary

    base = Glossary.from_yaml("concepts:\n  - id: distinguish\n    en: [mix up]\n    de: [vertauschen]\n")
    extra = Glossary.from_yaml("concepts:\n  - id: distinguish\n    de: [durchmischen]\n  - id: cast\n    en: [cast]\n")
    merged = base.merged(extra)
    assert [c.id for c in merged.concepts] == ["distinguish", "cast"]
    assert merged.concepts[0].terms[Lang.DE] == ("vertauschen", "durchmischen")
    assert [c.id for c in merged.concepts_in("Darf ich die durchmischen?")] == ["distinguish"]
    assert merged.digest not in (base.digest, extra.digest)
    bundled = CORPUS.glossary
    assert bundled.digest == CORPUS.glossary_digest  # an index records the merged glossary it used
    assert "durchmischen" in next(c for c in bundled.concepts if c.id == "distinguish").terms[Lang.DE]


def test_the_oracle_cards_rules_tokens_are_derived_once_while_their_inputs_are_unchanged(kb_home, monkeypatch):
    """An index build derives every Oracle card's rules tokens (seconds); the next build of the same
    corpus takes them from the cache, and gets the same card index."""
    import kb.search.cardnames as cardnames
    from kb.search.index import default_card_index

    calls: list[int] = []
    real = cardnames.card_expansions
    monkeypatch.setattr(cardnames, "card_expansions", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = default_card_index([], CORPUS)
    again = default_card_index([], CORPUS)
    assert calls == [1]
    assert again.expand == first.expand and "Lightning Bolt" in first.expand


def test_everyday_words_of_the_rulings_and_split_card_halves_are_no_names_unless_written_as_names() -> None:
    from kb.model import Entry, Kind, Relation, Variant
    from kb.oracle import Oracle, OracleCard
    from kb.search.cardnames import compile_card_index
    from kb.model import Lang

    oracle = Oracle()
    oracle.add(OracleCard("Profit", "{1}{W}", "Instant", "Creatures you control get +1/+0.", {Lang.EN: "Profit"},
                          layout="split"))
    oracle.add(OracleCard("Swamp", None, "Basic Land — Swamp", "", {Lang.EN: "Swamp", Lang.ES: "Pantano"}))
    text = "Si el pantano boca abajo se va del campo de batalla, se revela."
    ruling = Entry("r-1", Kind.RULING, text, (), None, None,
                   (Variant(text, text, Lang.ES, "2024-01-01", "t", 1, Relation.CANONICAL, 1.0, None),), ())
    cards = compile_card_index([ruling], oracle, None)
    assert cards.named("I took a profit. Is the pantano face down?") == []
    assert [c.name for c in cards.named("Can my Profit and a Pantano do that?")] == ["Profit", "Swamp"]


def test_a_card_the_search_glossary_lists_by_its_name_is_a_card_not_a_word_and_its_words_stay_words() -> None:
    """review50 H2: the glossary's `form` concept lists the Form cycle by name (their rulings say "the Form"),
    so `kb search Lightform` read an everyday word and answered with meld rules. A card the concept lists by
    its English name as printed is the card, in its other languages too; a term the concept writes as a word
    (`clone`, German `Klon`) stays a word at a sentence's start."""
    from kb.oracle import Oracle, OracleCard
    from kb.search.cardnames import compile_card_index
    from kb.search.glossary import Concept, Glossary

    oracle = Oracle()
    for en, de in (("Lightform", "Lichtform"), ("Clone", "Klon")):
        oracle.add(OracleCard(en, "{1}{W}", "Enchantment", "", {Lang.EN: en, Lang.DE: de}))
    glossary = Glossary([Concept("form", {Lang.EN: ('"Form"', "Lightform"), Lang.DE: ("Lichtform",)}),
                         Concept("copy", {Lang.EN: ("copy", "clone"), Lang.DE: ("Kopie", "Klon")})])
    cards = compile_card_index([], oracle, None, glossary=glossary)
    for question in ("Lightform", "Lichtform", "lightform face down", "Lightform face down: can I look at it?"):
        assert [c.name for c in cards.named(question)] == ["Lightform"], question
    for question in ("Clone a face-down creature?", "Klon kopiert eine verdeckte Kreatur", "can I clone it?"):
        assert cards.named(question) == [], question
    assert {"copy", "clone", "kopie", "klon"} <= cards.matcher.common


def test_a_question_reads_a_whole_name_before_a_legends_short_name_and_keeps_names_as_close() -> None:
    """tryout26: `Ixidorn` was read as Ixidor, Reality Sculptor; of two whole names as close, the
    first is read and the other kept (`kb search` names it in its note)."""
    matcher = CardMatcher.from_names([("Ixidron", "Ixidron"), ("Ixidor, Reality Sculptor", "Ixidor, Reality Sculptor"),
                                      ("Mana Flair", "Mana Flair"), ("Mana Flare", "Mana Flare")])
    assert [(c.name, c.also) for c in matcher.find("Does Ixidorn turn my morph face down?")] == [("Ixidron", ())]
    assert [(c.name, c.also) for c in matcher.find("My Ixidor is face down.")] == [("Ixidor, Reality Sculptor", ())]
    assert [(c.name, c.also) for c in matcher.find("Does Mana Flaer add mana?")] == [("Mana Flair", ("Mana Flare",))]


@pytest.mark.parametrize(("question", "unknown"), [
    # tryout26: a card newer than the names, written as a card's name is written
    ("Face down cards leak info. Hide in Plain Sight cloaked two cards for my opponent.", ["Hide in Plain Sight"]),
    ("Cards exiled with Asmodeus the Archfiend can be seen by the owner.", ["Asmodeus the Archfiend"]),
    ("If I use Oko, Thief of Crowns on a manifested creature?", ["Oko, Thief of Crowns"]),  # a legend's whole name
    ("BUG - [[Yedora, Grave Gardener]] and [[Printlifter Ooze]] don't work.", ["Yedora, Grave Gardener", "Printlifter Ooze"]),
    # a known card's name is no unknown one: exact, a legend's, misspelt, with a possessive
    ("Is Whisperwood Elemental in Plain Sight?", []),
    ("I attacked with Linvala, Keeper of Silence and it was face down.", []),
    ("Does Pithing Needel of mine stop it?", []),
    ("Fire at Will's damage, is it dealt face down?", []),
    # a phrase without a word joining a name's words, a single bracket, a single word: no note
    ("Does it have Summoning Sickness after I turn it face up?", []),
    ("[Card Bug] Lightform manifests a card.", []),
    ("Con Yarus en mesa, ¿qué pasa?", []),
    ("Ich aktiviere die Fähigkeit, und mein Gegner zerstört den Tresor als Antwort.", []),  # German nouns
    ("Does Turning a Creature Face Up Count as Entering the Battlefield?", []),  # a title
])
def test_names_written_as_a_cards_that_no_card_has(matcher: CardMatcher, question: str, unknown: list[str]) -> None:
    assert matcher.unknown_names(question) == unknown


@pytest.mark.parametrize(("question", "unknown"), [
    # review39 #5: an everyday word opening the sentence is no name's first word
    ("Cards from Trail of Wonders stay face down?", ["Trail of Wonders"]),
    ("At the Beginning of Combat, can I unmorph it?", ["Beginning of Combat"]),
    # ... unless a card's name is or begins with it: Hide // Seek
    ("Hide in Plain Sight cloaked two cards.", ["Hide in Plain Sight"]),
])
def test_an_unknown_name_takes_in_the_word_opening_the_sentence_only_where_it_may_open_a_name(
        question: str, unknown: list[str]) -> None:
    matcher = CardMatcher.from_names([*NAMES, ("Hide", "Hide // Seek")], common={"cards", "at", "hide"})
    assert matcher.unknown_names(question) == unknown


@pytest.mark.parametrize(("question", "named", "unknown"), [
    # smoke51 L1: a name in double brackets is one name, whatever word of it is a card's ...
    ("Does [[Hide in Plain Sight]] cloak two cards?", [], ["Hide in Plain Sight"]),
    ("The card I noticed this on was [[Watcher for Tomorrow]].", [], ["Watcher for Tomorrow"]),
    ("Does [[Ephemerate]] return it attacking?", [], ["Ephemerate"]),  # one word too
    ("Was [[Lightfrom]] face down?", ["Lightform"], []),  # a whole name, misspelt, is still read
    ("Can [[Hide]] turn it face down?", ["Hide // Seek"], []),
    # ... and an everyday word that is a card (Hide // Seek) opening a longer capitalised name owes it its capital
    ("Does Hide in Plain Sight let me look at the face-down card?", [], ["Hide in Plain Sight"]),
    ("Can my Hide turn it face down?", ["Hide // Seek"], []),  # alone, written as a name, it is the card
    ("Does Lightform in Plain Sight work?", ["Lightform"], []),  # no everyday word: the card
    ("copio con Clone la Thalia del rival", ["Clone"], []),  # an article is no name's word: two names
])
def test_a_name_written_as_one_is_one_name_whatever_word_of_it_is_a_card(
        question: str, named: list[str], unknown: list[str]) -> None:
    matcher = CardMatcher.from_names([*NAMES, ("Hide", "Hide // Seek"), ("Clone", "Clone"),
                                      ("Tomorrow, Azami's Familiar", "Tomorrow, Azami's Familiar")],
                                     common={"hide", "clone", "turn", "face"})
    assert ([c.name for c in matcher.find(question)], matcher.unknown_names(question)) == (named, unknown)


@pytest.mark.parametrize(("question", "lang", "unknown"), [
    # tryout32 #9 / tryout33 #10: names of cards newer than the card data, with no joining word, passed
    # without a note. Spanish capitalises names only: two capitalised words are a name
    ("presagie Saw It Coming este turno, lo puedo lanzar?", Lang.ES, ["Saw It Coming"]),
    ("Saw It Coming lo lance ayer, puedo?", Lang.ES, ["Saw It Coming"]),  # its first word opens the sentence
    ("uso Cryptic Coat en mi criatura boca abajo", Lang.ES, ["Cryptic Coat"]),
    # English: three capitalised words, a possessive before one, a known legend's first name before a comma
    ("I cast Saw It Coming from exile.", Lang.EN, ["Saw It Coming"]),
    ("With Urza's Saga on the battlefield, can I manifest?", Lang.EN, ["Urza's Saga"]),
    ("My opponent controls Teferi, Time Raveler. Can I turn it face up?", Lang.EN, ["Teferi, Time Raveler"]),
    # ... but two capitalised words alone are as often a rules term or a product; "Yes" is no legend's name
    ("I cast Cryptic Coat on my morph.", Lang.EN, []),
    ("Yes, Summoning Sickness applies to it?", Lang.EN, []),
    # German capitalises every noun: no shape makes a name
    ("Mein Gegner hat Karte Kreatur Abwehr gesagt.", Lang.DE, []),
])
def test_a_name_shaped_as_one_in_its_language_is_an_unknown_name(question: str, lang: Lang, unknown: list[str]) -> None:
    legends = [("Teferi, Hero of Dominaria", "Teferi, Hero of Dominaria"), ("Teferi, Master of Time", "Teferi, Master of Time")]
    matcher = CardMatcher.from_names([*NAMES, *legends],
                                     common={"it", "coming", "cryptic", "coat", "yes", "time", "lance", "with", "i"})
    assert matcher.unknown_names(question, lang) == unknown


@pytest.mark.parametrize(("question", "unknown"), [
    # tryout50 D8: German capitalises nouns, and "in" and "an" are German words too
    ("Servus! Gestern beim Freitagsturnier in Graz hab ich eine verdeckte Kreatur angegriffen.", []),
    ("Ich spiele Kreaturen an Donnerstagen.", []),
    # ... but a phrase with a word of an English card's name after "in" is a name, and other joining words are English
    ("Ich habe Keeper in Silence gespielt.", ["Keeper in Silence"]),  # "Silence": Linvala, Keeper of Silence
    ("Darf ich Sword of Wine and Roses verdeckt spielen?", ["Sword of Wine and Roses"]),
])
def test_a_german_phrase_only_a_german_word_too_joins_is_a_name_only_with_an_english_names_word(
        matcher: CardMatcher, question: str, unknown: list[str]) -> None:
    assert matcher.unknown_names(question, Lang.DE) == unknown


@pytest.mark.parametrize(("question", "unknown"), [
    ("Beim Grand Prix in Las Vegas spielte er eine verdeckte Kreatur.", []),
    ("Wir spielten bei Magic in Berlin eine verdeckte Kreatur.", []),
    ("Ich habe Barter in Blood verdeckt gespielt.", ["Barter in Blood"]),
])
def test_a_german_phrase_in_joins_is_a_name_by_the_words_after_in_not_before(question: str, unknown: list[str]) -> None:
    """review50 L4: "Grand" and "Magic" are words of English names, so a tournament "in" a city was noted as an
    unknown card; a place follows "in", and no English name's word is one."""
    matcher = CardMatcher.from_names([("Grand Abolisher", "Grand Abolisher"), ("Black Magic", "Black Magic"),
                                      ("Blood Moon", "Blood Moon")])
    assert matcher.unknown_names(question, Lang.DE) == unknown


@pytest.mark.parametrize(("question", "lang", "unknown"), [
    # smoke53 L1: a sentence opened by a preposition and an article ...
    ("In the Store Championship my opponent turned a morph face up.", Lang.EN, []),
    ("On the Magic Online client, can I look at my face-down creature?", Lang.EN, []),
    ("En el Torneo de Córdoba mi rival volteó una criatura boca abajo.", Lang.ES, []),
    # ... and an event in a place, in English and Spanish as in German
    ("Grand Prix in Las Vegas face down creature", Lang.EN, []),
    ("At the Grand Prix in Las Vegas my opponent turned a morph face up.", Lang.EN, []),
    ("Jugando el Torneo de Córdoba mi rival volteó una criatura boca abajo.", Lang.ES, []),
    # real names keep their note: an everyday word opening one, a card name's word after "in" or "de"
    ("Hide in Plain Sight cloaked two cards.", Lang.EN, ["Hide in Plain Sight"]),
    ("I cast Barter in Blood face down.", Lang.EN, ["Barter in Blood"]),
    ("Lancé Rastro de Misterio boca abajo.", Lang.ES, ["Rastro de Misterio"]),
])
def test_an_opening_preposition_and_a_place_are_no_card_names(question: str, lang: Lang, unknown: list[str]) -> None:
    """A preposition opening the sentence was taken into the name after it ("In the Store Championship"), as an
    everyday word that may open a name is ("Hide in Plain Sight"), and an event in a place was an unknown card."""
    matcher = CardMatcher.from_names([*NAMES, ("Hide", "Hide // Seek"), ("In Garruk's Wake", "In Garruk's Wake"),
                                      ("On Serra's Wings", "On Serra's Wings"), ("Blood Moon", "Blood Moon"),
                                      ("Grand Abolisher", "Grand Abolisher"), ("Misterio de la muerte", "Mystery")],
                                     common={"hide", "at", "turn", "face", "my", "i"})
    assert matcher.unknown_names(question, lang) == unknown


def test_the_words_joining_a_names_words_are_the_ones_card_pages_are_read_with() -> None:
    """review39 #9: the search knew 8 English joining words, the page parser 30; "and" cut a newer
    card's name short in the note."""
    matcher = CardMatcher.from_names(NAMES)
    assert matcher.unknown_names("Does the face-down creature keep Sword of Wine and Roses attached?") == [
        "Sword of Wine and Roses"]
    assert matcher.unknown_names("Is Hour of Glory by Day face down?") == ["Hour of Glory by Day"]
    # a word that as often stands between two names still lets each be read misspelt
    assert [c.name for c in matcher.find("Can I flip Lightfrom with Pithing Needle out?")] == [
        "Lightform", "Pithing Needle"]
    assert [c.name for c in matcher.find("¿Puedo voltear Lightfrom y Rageform?")] == ["Lightform", "Rageform"]
    # German capitalises every noun: its joining words between two nouns make no name
    assert matcher.unknown_names("Kann mein Gegner die Kreatur noch zerstören?") == []


def test_the_matcher_keys_each_name_once_however_often_the_rulings_repeat_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The KB's entries name their cards again and again (~150,000 pairs at 100k rulings): a repeated
    (name, English name) pair is keyed once, and the matcher is the one of the pairs without repeats."""
    from kb.search import cardnames

    pairs = [*NAMES, ("Ixidor, Reality Sculptor", "Ixidor, Reality Sculptor")]
    once = CardMatcher.from_names(pairs)
    keyed: list[str] = []
    monkeypatch.setattr(cardnames, "name_key", lambda text: keyed.append(text) or name_key(text))
    repeated = CardMatcher.from_names(pairs * 5 + list(reversed(pairs)))
    assert list(repeated.items()) == list(once.items())
    distinct = set(pairs)
    assert len(keyed) == len(distinct) + sum("," in local for local, _ in distinct)  # and each short name


@pytest.mark.parametrize("question, lang, names", [
    ("Can I copy Rageform with Lightform?", Lang.EN, ["Rageform", "Lightform"]),
    ("¿Qué hace Wutform si la pongo sobre una criatura?", Lang.ES, ["Rageform"]),
    ("Rageform on a face-down creature: what happens?", Lang.EN, []),  # capitalised as it opens the sentence
    # an everyday word alone, written as a name, names the card (the search leaves out the CR's terms: try-out 53 D6)
    ("Does Manifest work on it?", Lang.EN, ["Manifest"]),
    ("When I Manifest Dread, is it face down?", Lang.EN, []),  # ... but not beside another capitalised word
    ("Kann ich Wutform auf eine Kreatur legen?", Lang.DE, []),  # German capitalises every noun ...
    ("Löst das zweimal aus, weil Rageform ETB-Trigger verdoppelt?", Lang.DE, ["Rageform"]),  # ... the English name
    ("Darf ich Linvala auf den Stapel legen?", Lang.DE, ["Linvala, Keeper of Silence"]),  # ... a legend's short one
    ("Wir haben Linvala, Die Unbeugsame im Spiel.", Lang.DE, []),  # ... but not another legend's name
    ("Was sehen die Regeln in diesem Manifest vor?", Lang.DE, []),  # ... and no everyday word
    ("can i copy rageform with lightform?", Lang.EN, []),  # in lower case
    ("Does Lightfrom stay face down?", Lang.EN, []),  # misspelt: read as the card, but no sure name
    ("Is Forma de ira a copy?", Lang.EN, []),  # a name of three words: noted as such already
    ("Does It Really Work With Rageform Here?", Lang.EN, []),  # a title capitalises every word
])  # fmt: skip
def test_a_one_word_name_is_written_as_a_name_only_capitalised_mid_sentence(matcher: CardMatcher, question: str,
                                                                           lang: Lang, names: list[str]) -> None:
    """tryout46 D9: "cast Murder on my creature" names Murder as surely as two words name a card."""
    assert matcher.one_word_names(question, lang) == names


@pytest.mark.parametrize(("question", "name", "said"), [
    ("Can Ixidron's ability turn a manifested creature face down?", "Ixidron", "Ixidron's"),
    ("Does Lightform’s creature stay face down?", "Lightform", "Lightform’s"),
    ("Rageform's creature: is it still enchanted?", "Rageform", "Rageform's"),
    ("Does Whisperwood Elemental's trigger see it?", "Whisperwood Elemental", "Whisperwood Elemental's"),
])
def test_a_card_named_in_the_possessive_is_read_as_the_card_exactly(question: str, name: str, said: str) -> None:
    """smoke53 M2: "Ixidron's" keys to "ixidrons", a word of the CR's ("due to Ixidron's effect", so an everyday
    word), and "Lightform’s" was read as a one-letter slip, which the search drops for a word of a glossary term
    (the Form cycle's); the name less its 's is the card, exactly (distance 0), and a one-word note names it."""
    matcher = CardMatcher.from_names([*NAMES, ("Ixidron", "Ixidron")], common={"ixidrons", "turn", "face"})
    assert [(c.name, c.said, c.distance) for c in matcher.find(question)] == [(name, said, 0)]
    assert matcher.one_word_names("Can I copy it with Ixidron's ability?", Lang.EN) == ["Ixidron"]
    # a possessive before a capitalised word is a longer name's: "Urza's Saga" names no Urza
    legend = CardMatcher.from_names([("Urza, Lord High Artificer", "Urza, Lord High Artificer")])
    assert legend.find("With Urza's Saga out, can I manifest?") == []
    assert legend.unknown_names("With Urza's Saga out, can I manifest?", Lang.EN) == ["Urza's Saga"]


@pytest.mark.parametrize(("question", "expected", "said"), [
    ("Can I cast Fire // Ice with fuse?", ["Fire", "Ice"], "Fire // Ice"),
    ("I cast Fire/Ice on a face-down creature.", ["Fire", "Ice"], "Fire/Ice"),
    ("Wear // Tear on a morph?", ["Wear", "Tear"], "Wear // Tear"),  # opening a sentence, everyday words
    ("Kann ich Einbruch // Diebstahl wirken?", ["Breaking", "Entering"], "Einbruch // Diebstahl"),  # printed German halves
    ("Is Delver of Secrets // Insectile Aberration a morph?", ["Delver of Secrets", "Insectile Aberration"],
     "Delver of Secrets // Insectile Aberration"),
    ("Is it 2/2 or 3/3, and/or a fire?", [], ""),  # slashes between no cards' names
])
def test_a_card_written_as_its_halves_is_read_as_that_card(question: str, expected: list[str], said: str) -> None:
    """Try-out 53 D5: "Fire // Ice" in a question was read as two unrelated one-word cards, and `Wear //
    Tear` opening a sentence as Tear alone; each half is the card's, said as written."""
    matcher = CardMatcher.from_names(
        [("Fire", "Fire"), ("Ice", "Ice"), ("Wear", "Wear"), ("Tear", "Tear"), ("Einbruch", "Breaking"),
         ("Diebstahl", "Entering"), ("Delver of Secrets", "Delver of Secrets"),
         ("Insectile Aberration", "Insectile Aberration")], common={"fire", "ice", "wear", "tear", "or", "and"})
    found = matcher.find(question)
    assert [c.name for c in found] == expected
    assert {c.said for c in found} == ({said} if said else set())


@pytest.mark.parametrize(("question", "names"), [
    ("AP sacrificed it to Fling targeting NAP. Does Fling deal 3 or 5 damage?", ["Fling"]),
    ("NAP is trying to Counterspell a spell that can't be countered.", ["Counterspell"]),
    ("So my opponent is receiving a Game Loss for it.", []),  # a word of a capitalised phrase
    ("I bolt the Tolarian Terror of my opponent.", []),
    ("Both Trample and Death touch apply?", []),
])
def test_an_everyday_word_that_is_a_card_is_noted_alone_as_a_name(question: str, names: list[str]) -> None:
    """Try-out 53 D6: Fling and Counterspell (no ruling in the KB) got no note, being words the rulings write too."""
    matcher = CardMatcher.from_names([(n, n) for n in ("Fling", "Counterspell", "Loss", "Terror", "Death", "Trample")],
                                     common={"fling", "counterspell", "loss", "terror", "death", "game", "trample"})
    assert matcher.one_word_names(question, Lang.EN) == names


def test_a_one_word_card_that_is_a_subtype_or_a_half_gets_no_note() -> None:
    """Try-out 53 D6: "a white Angel card", "as a Forest land" name the type, "a Game Loss" no Profit // Loss."""
    from kb.search.cardnames import NamedCard
    from kb.views import question_card_notes

    class NoRulings:
        def count(self, **_: object) -> int:
            return 0

        def rule_texts(self, clauses: object) -> dict[str, str]:
            return {"205.3i": "The land types are Cave, Forest (see rule 305.6), and Swamp.",
                    "205.3m": "One creature type is two words long: Time Lord. All other creature types are one word "
                              "long: Advisor, Angel, and Zombie."}

    named = [NamedCard(n, n, 0) for n in ("Angel", "Forest", "Loss", "Fling")]
    notes = question_card_notes(NoRulings(), CORPUS, named, [], {"Angel", "Forest", "Loss", "Fling"})  # type: ignore[arg-type]
    assert notes == ['Fling: no ruling in the KB; `kb card "Fling"` shows its text']


def test_a_two_part_card_without_rulings_gets_one_note_naming_the_card() -> None:
    from kb.search.cardnames import NamedCard
    from kb.views import question_card_notes

    class NoRulings:
        def count(self, **_: object) -> int:
            return 0

    named = [NamedCard("Fire", "Fire // Ice", 0), NamedCard("Ice", "Fire // Ice", 0)]
    assert question_card_notes(NoRulings(), CORPUS, named, []) == [  # type: ignore[arg-type]
        'Fire // Ice: no ruling in the KB; `kb card "Fire // Ice"` shows its text']
