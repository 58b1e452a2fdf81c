"""`kb.lang.detect`: the language of a ruling or question among English, German and Spanish."""

from __future__ import annotations

import pytest

from kb.lang import detect
from kb.model import Lang


@pytest.mark.parametrize("text, lang", [
    ("Can I look at my opponent's face-down creature?", Lang.EN),
    ("Darf ich mir die verdeckte Kreatur ansehen?", Lang.DE),
    ("¿Puedo mirar la criatura boca abajo?", Lang.ES),
    ("Bedrohlich", Lang.EN),  # no function word, no letter: the default
])  # fmt: skip
def test_function_words_and_letters_tell_the_language(text: str, lang: Lang) -> None:
    assert detect(text) is lang


@pytest.mark.parametrize("text, lexicon, lang", [
    ("Bedrohlich", {Lang.DE}, Lang.DE),  # German menace: a lexicon's one language
    ("Erhabener Engel", {Lang.DE}, Lang.DE),  # two words
    ("Morph", {Lang.EN, Lang.DE, Lang.ES}, Lang.EN),  # every language's word: the default
    ("Yarus", set(), Lang.EN),  # no language's
    ("Kann Bedrohlich", {Lang.ES}, Lang.DE),  # a function word tells: no lexicon asked
    ("Bedrohlich Erhaben Engel", {Lang.DE}, Lang.EN),  # three words: no lexicon asked
])  # fmt: skip
def test_a_word_or_two_nothing_else_tells_is_read_by_a_lexicon(text: str, lexicon: set[Lang], lang: Lang) -> None:
    assert detect(text, lexicon=lambda _: lexicon) is lang
