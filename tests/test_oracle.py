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


# --- two-part cards (try-out 53 D5: `kb card "Fire // Ice"` was an unknown card) ---------------------

@pytest.mark.parametrize(("written", "halves"), [
    ("Fire // Ice", ["Fire", "Ice"]), ("Fire/Ice", ["Fire", "Ice"]), ("Fire // ice", ["Fire", "ice"]),
    ("Who // What // When // Where // Why", ["Who", "What", "When", "Where", "Why"]),
    ("Fire", []), ("Fire //", []), ("[/]", []),
])
def test_a_name_written_as_halves_is_split_at_its_slashes(written, halves):
    from kb.oracle import half_names

    assert half_names(written) == halves


@pytest.mark.parametrize(("card", "other"), [
    ("Fire", "Ice"), ("Ice", "Fire"), ("Breaking", "Entering"),  # split: the only two in their sets
    ("Mayor of Avabruck", "Howlpack Alpha"),  # double-faced: a front with a mana cost, a back without
    ("Kenzo the Hardhearted", "Bushi Tenderfoot"),  # flip: the flipped half printed under the unflipped one's name
    ("Budoka Pupil", "Ichiga, Who Topples Oaks"),  # flip: both printed alike
    # ... of the same sets, one listing a set twice (smoke53 L3: Jaraku's German name was its unflipped half's)
    ("Jaraku the Interloper", "Callow Jushi"), ("Scarmaker", "Hired Muscle"),
])
def test_the_card_data_tells_some_halves_other_half(oracle, card, other):
    assert oracle.card(card).other_halves == (other,)


@pytest.mark.parametrize("card", [
    "Turn", "Cut",  # Dragon's Maze's split cards, Amonkhet's aftermath cards: many in the same sets
    "Erayo's Essence",  # a flipped half printed under a name of its own, its unflipped half's in English
    "Okaun, Eye of Chaos",  # two cards MTGJSON v3 calls flip that print no shared name
    "Lightning Bolt",
])
def test_no_other_half_is_guessed_where_the_data_does_not_tell(oracle, card):
    assert oracle.card(card).other_halves == ()


def test_halves_of_one_card_share_a_layout_and_sets_and_no_other_half(oracle):
    from kb.oracle import may_be_one_card

    assert may_be_one_card([oracle.card("Fire"), oracle.card("Ice")])
    assert may_be_one_card([oracle.card("Cut"), oracle.card("Ribbons")])  # as written: the data can't pair them
    assert not may_be_one_card([oracle.card("Fire"), oracle.card("Turn")])  # other sets
    assert not may_be_one_card([oracle.card("Fire"), oracle.card("Life")])  # Life is Death's
    assert not may_be_one_card([oracle.card("Lightning Bolt"), oracle.card("Shock")])
    assert oracle.get("Muerte") == oracle.card("Death")  # "Muerte (Muerte/Vida)", its printed Spanish name


@pytest.mark.parametrize(("card", "names"), [
    ("Fire", {Lang.EN: "Fire"}),  # the data's German and Spanish "Fire": its English name where the printed one is missing
    ("Tok-Tok, Volcano Born", {Lang.EN: "Tok-Tok, Volcano Born"}),  # ... its unflipped half's English name
    ("Jaraku the Interloper", {Lang.EN: "Jaraku the Interloper"}),  # ... its unflipped half's German and Spanish
    ("Callow Jushi", {Lang.EN: "Callow Jushi", Lang.DE: "Unerfahrener Jushi", Lang.ES: "Jushi inexperta"}),
    ("Erayo's Essence", {Lang.EN: "Erayo's Essence", Lang.DE: "Erayos Substanz", Lang.ES: "Esencia de Erayo"}),
    ("Cut", {Lang.EN: "Cut", Lang.DE: "Schneiden", Lang.ES: "Cortar"}),
    ("Ixidron", {Lang.EN: "Ixidron", Lang.DE: "Ixidron", Lang.ES: "Íxidron"}),  # a one-part card's names as given
])
def test_a_two_part_halfs_names_are_only_its_own(oracle, card, names):
    """smoke53 L3: `kb card "Tok-Tok, Volcano Born"` showed "de: Akki Lavarunner" (its unflipped half's name) and
    `kb card "Fire // Ice"` "de: Fire // Ice"; the card data has no German or Spanish name for either."""
    from kb.oracle import own_names

    found = oracle.card(card)
    assert own_names(found, [oracle.card(n) for n in (found.name, *found.other_halves)]) == names
