"""Try-out 45's small search defects, each pinned with a question written for it (not the try-out's own)."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.model import Lang


def concepts(question: str, lang: Lang) -> list[str]:
    return [c.id for c in Corpus.default().glossary.concepts_in(question, (Lang.EN, lang), question=True)]


@pytest.mark.parametrize("question, lang", [
    ("The morph I control was returned to its owner's hand. Do I reveal it?", Lang.EN),
    ("If my opponent's spell returns it to my hand, does everyone get to see my face-down creature?", Lang.EN),
    ("Mi criatura boca abajo regresa a la mano de su propietario. ¿La muestro?", Lang.ES),
    ("Meine verdeckte Kreatur geht auf die Hand zurück. Muss ich sie zeigen?", Lang.DE),
])
def test_a_permanent_returned_to_its_owners_hand_leaves_the_battlefield(question: str, lang: Lang) -> None:
    """tryout45 #5: "vuelve a mi mano" / "returned to my hand" was read as the return_to_battlefield
    concept's "vuelve" / "return", so the rulings about cards returning to the battlefield came before the
    708.9 ones (a face-down permanent that leaves the battlefield is revealed)."""
    found = concepts(question, lang)
    assert "leaves_the_battlefield" in found
    assert "return_to_battlefield" not in found
