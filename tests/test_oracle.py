"""kb.oracle: the bundled Oracle cards and their names in English, German and Spanish."""

from __future__ import annotations

import gzip
import json

import pytest

from kb.errors import InputError, NotFoundError
from kb.model import Lang
from kb.oracle import Oracle, load_oracle
from kb.paths import corpus_dir


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return load_oracle(corpus_dir())


def test_bundled_oracle_has_every_card(oracle):
    assert len(oracle) == 19032


@pytest.mark.parametrize("name", ["Rageform", "Wutform", "Forma de ira", "forma de IRA", "WUTFORM"])
def test_any_language_name_finds_the_card(oracle, name):
    card = oracle.card(name)
    assert card.name == "Rageform"
    assert card.names == {Lang.EN: "Rageform", Lang.DE: "Wutform", Lang.ES: "Forma de ira"}
    assert "Manifest the top card" in card.text and card.type == "Enchantment"


def test_unknown_card_is_not_found(oracle):
    assert oracle.get("Lightfrom") is None
    assert oracle.get("[/]") is None and oracle.get("") is None  # no letters: no name ("_____" has none either)
    with pytest.raises(NotFoundError):
        oracle.card("No Such Card")


def test_reads_gzip_and_plain_and_refuses_garbage():
    doc = {"cards": [{"name": "Cursed Totem", "manaCost": "{2}", "type": "Artifact",
                      "text": "Activated abilities of creatures can't be activated.", "names": {"de": "Verfluchtes Totem"}}]}
    raw = json.dumps(doc).encode()
    for data in (raw, gzip.compress(raw)):
        assert Oracle.from_bytes(data).card("Verfluchtes Totem").mana_cost == "{2}"
    with pytest.raises(InputError):
        Oracle.from_bytes(b"\x1f\x8bnot gzip")
    with pytest.raises(InputError):
        Oracle.from_bytes(b'{"cards": [{"type": "Artifact"}]}')


@pytest.mark.parametrize("name", ["Lähmungsnadel", "lahmungsnadel", "LÄHMUNGSNADEL", "Aguja medular", "pithing needle"])
def test_names_match_without_accents_or_case(oracle, name):
    assert oracle.card(name).name == "Pithing Needle"
