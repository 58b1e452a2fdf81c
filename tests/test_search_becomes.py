"""Spanish "se vuelve" is "becomes" ("se vuelve 0/1", "se vuelve una copia"), not "returns": `return_to_battlefield`
lists "vuelve", and read so a question about a creature that becomes something met the rulings about cards returning
to the battlefield (search51d: p09-es, "mi 4/4 se vuelve 0/1"). The search lexicon reads the phrase as `becomes`."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.model import Lang


def concepts(question: str) -> list[str]:
    return [c.id for c in Corpus.default().glossary.concepts_in(question, (Lang.EN, Lang.ES), question=True)]


def question_tokens(question: str) -> list[str]:
    return Corpus.default().glossary.question_tokens(question, (Lang.EN, Lang.ES))


@pytest.mark.parametrize("question", [
    "Capas: mi criatura 4/4 se vuelve 0/1 por un efecto, ¿cuál es su fuerza?",
    "Si la criatura se vuelve una copia de otra, ¿qué habilidades tiene?",
    "Mis tierras se vuelven criaturas 2/2 hasta el final del turno.",
    "¿Qué pasa si mi criatura boca abajo se vuelve boca arriba?",
])  # fmt: skip
def test_se_vuelve_becomes_something_and_returns_nowhere(question: str) -> None:
    assert "~return_to_battlefield" not in question_tokens(question)
    assert "~becomes" in question_tokens(question)
    # the lexical query gets the English word ("becomes": its token)
    assert "becom" in Corpus.default().glossary.translate(question, Lang.ES)


@pytest.mark.parametrize("question, concept", [
    ("Cuando la criatura vuelve al campo de batalla, ¿es un objeto nuevo?", "return_to_battlefield"),
    ("La carta regresa al campo de batalla bajo mi control.", "return_to_battlefield"),
    ("¿Mi criatura regresa?", "return_to_battlefield"),
    # a permanent returned to its owner's hand stays the longer term's (tryout45 #5)
    ("Mi criatura boca abajo vuelve a mi mano. ¿La muestro?", "leaves_the_battlefield"),
])  # fmt: skip
def test_a_card_that_comes_back_still_returns(question: str, concept: str) -> None:
    found = concepts(question)
    assert concept in found
    assert "becomes" not in found
