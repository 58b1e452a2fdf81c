"""The rules model, one test per rule it pins (CR 2026-01-16 numbers unless said otherwise)."""

from __future__ import annotations

import pytest

from kb.checks import load_cards
from kb.game import Game, IllegalAction, Rules, Zone

CARDS = load_cards()


def game(rules: str | None = None, **zones: list[str]) -> Game:
    """A two-player game; zones like library=[...], hand=[...], battlefield=[...] for `you`."""
    g = Game(["you", "opponent"], Rules.for_date(rules))
    for zone, names in zones.items():
        for name in names:
            g.add_card(name, CARDS[name], "you", Zone(zone))
    return g


def manifested(name: str = "Grizzly Bears", rules: str | None = None, **zones: list[str]) -> Game:
    zones.setdefault("library", [])
    zones["library"] = [name] + zones["library"]
    g = game(rules, **zones)
    g.manifest("you")
    return g


def test_708_2_face_down_is_2_2_colourless_nameless() -> None:
    g = manifested("Icefeather Aven")
    ch = g.characteristics(g.obj("Icefeather Aven"))
    assert (ch.power, ch.toughness, ch.name, ch.mana_cost, ch.mana_value) == (2, 2, None, None, 0)
    assert ch.types == {"Creature"} and not ch.subtypes and not ch.colors
    assert ch.keywords == () and ch.abilities == () and ch.morph is None


def test_708_3_put_onto_battlefield_face_down_does_not_trigger_etb() -> None:
    g = manifested("Temur War Shaman")
    assert g.stack == []


def test_708_8_turning_face_up_does_not_trigger_etb() -> None:
    g = manifested("Temur War Shaman", library=["Grizzly Bears"])
    g.turn_face_up("Temur War Shaman")
    g.resolve_all()  # only its "turned face up" ability (fight) was on the stack
    assert g.obj("Grizzly Bears").zone is Zone.LIBRARY


def test_708_8_turned_face_up_is_the_same_object_and_keeps_its_aura() -> None:
    g = game(library=["Grizzly Bears"], hand=["Lightform"])
    g.cast("you", "Lightform")
    g.resolve_all()
    before = g.obj("Grizzly Bears").oid
    g.turn_face_up("Grizzly Bears")
    bear = g.obj("Grizzly Bears")
    assert bear.oid == before and g.obj("Lightform").attached_to == bear.oid
    assert set(g.characteristics(bear).keywords) == {"flying", "lifelink"}


def test_701_40b_turning_face_up_is_a_special_action_for_the_mana_cost() -> None:
    g = manifested()
    assert g.turn_face_up("Grizzly Bears") == "{1}{G}"
    assert g.stack == [] and not g.obj("Grizzly Bears").face_down


def test_701_40b_type_changing_effects_are_ignored() -> None:
    g = manifested()
    g.add_effect("Grizzly Bears", "set_types", ("Artifact",))
    assert g.can_turn_face_up("Grizzly Bears")


@pytest.mark.parametrize("rules", ["2014-11-24", None])
def test_701_40b_copy_effects_are_ignored_under_every_rules_date(rules: str | None) -> None:
    g = manifested("Forest", rules, battlefield=["Jeskai Infiltrator"])
    g.become_copy("Forest", "Jeskai Infiltrator")
    assert not g.can_turn_face_up("Forest")  # the card is still a land card


def test_701_40b_noncreature_card_cannot_be_turned_face_up() -> None:
    g = manifested("Forest")
    with pytest.raises(IllegalAction):
        g.turn_face_up("Forest")


def test_701_40c_manifested_card_with_morph_may_use_its_morph_cost() -> None:
    g = manifested("Icefeather Aven")
    assert g.turn_face_up("Icefeather Aven", by="morph") == "{1}{G}{U}"


def test_702_37e_morph_creature_that_lost_its_abilities_cannot_be_turned_face_up() -> None:
    g = game(hand=["Icefeather Aven"])
    g.cast("you", "Icefeather Aven", face_down="morph")
    g.resolve()
    g.add_effect("Icefeather Aven", "lose_all_abilities")
    with pytest.raises(IllegalAction):
        g.turn_face_up("Icefeather Aven", by="morph")


def test_702_37b_megamorph_adds_a_counter() -> None:
    g = game(hand=["Stratus Dancer"])
    g.cast("you", "Stratus Dancer", face_down="megamorph")
    g.resolve()
    g.turn_face_up("Stratus Dancer", by="megamorph")
    ch = g.characteristics(g.obj("Stratus Dancer"))
    assert (ch.power, ch.toughness) == (3, 2)


def test_702_168a_disguise_face_down_has_ward_2() -> None:
    g = game(hand=["Dog Walker"])
    g.cast("you", "Dog Walker", face_down="disguise")
    g.resolve()
    assert g.characteristics(g.obj("Dog Walker")).keywords == ("ward {2}",)
    assert g.turn_face_up("Dog Walker", by="disguise") == "{R/W}{R/W}"


def test_701_58a_cloaked_permanent_has_ward_2() -> None:
    g = game(library=["Grizzly Bears"])
    g.cloak("you")
    assert g.characteristics(g.obj("Grizzly Bears")).keywords == ("ward {2}",)


def test_701_62a_manifest_dread_manifests_one_and_mills_the_other() -> None:
    g = game(library=["Grizzly Bears", "Forest"])
    g.manifest_dread("you", choose="Forest")
    assert g.obj("Forest").face_down and g.obj("Grizzly Bears").zone is Zone.GRAVEYARD


def test_701_40g_manifested_instant_is_revealed_and_stays_face_down() -> None:
    g = manifested("Shock", battlefield=["Mastery of the Unseen"])
    assert g.effect_turns_face_up("Shock") is False
    shock = g.obj("Shock")
    assert shock.face_down and shock.card.revealed and g.stack == []


def test_708_2b_face_down_permanent_cannot_be_turned_face_down_again() -> None:
    g = manifested()
    assert g.turn_face_down("Grizzly Bears") is False
    assert g.obj("Grizzly Bears").face_down_by == "manifest"


def test_712_15a_face_down_dfc_cannot_transform_and_turns_up_front_face() -> None:
    g = manifested("Delver of Secrets")
    assert g.transform("Delver of Secrets") is False
    g.turn_face_up("Delver of Secrets")
    assert g.characteristics(g.obj("Delver of Secrets")).name == "Delver of Secrets"


def test_712_16_dfc_cannot_be_turned_face_down() -> None:
    g = game(battlefield=["Delver of Secrets"])
    assert g.turn_face_down("Delver of Secrets") is False


def test_711_6_before_2015_a_dfc_could_not_be_face_down() -> None:
    g = game("2014-09-25", library=["Delver of Secrets"])
    with pytest.raises(IllegalAction):
        g.manifest("you")


def test_708_10_copy_of_face_down_is_face_up_2_2() -> None:
    g = manifested("Icefeather Aven", hand=["Clone"])
    g.cast("you", "Clone")
    g.resolve(copy_of="Icefeather Aven")
    clone = g.obj("Clone")
    ch = g.characteristics(clone)
    assert not clone.face_down and (ch.power, ch.toughness, ch.name, ch.keywords) == (2, 2, None, ())


def test_708_10_face_down_that_becomes_a_copy_keeps_face_down_characteristics() -> None:
    g = manifested("Grizzly Bears", battlefield=["Jeskai Infiltrator"])
    g.become_copy("Grizzly Bears", "Jeskai Infiltrator")
    assert g.characteristics(g.obj("Grizzly Bears")).name is None
    g.turn_face_up("Grizzly Bears")  # the card is a creature card: its own mana cost
    assert g.characteristics(g.obj("Grizzly Bears")).name == "Jeskai Infiltrator"


def test_704_5m_unattached_aura_goes_to_graveyard() -> None:
    g = game(hand=["Rageform"])  # empty library: nothing to manifest and attach to
    g.cast("you", "Rageform")
    g.resolve_all()
    assert g.obj("Rageform").zone is Zone.GRAVEYARD


def test_113_7a_form_trigger_manifests_after_form_left() -> None:
    g = game(library=["Grizzly Bears"], hand=["Lightform"])
    g.cast("you", "Lightform")
    g.resolve()
    g.move("Lightform", Zone.GRAVEYARD)
    g.resolve()
    assert g.obj("Grizzly Bears").face_down


def test_400_7_zone_change_makes_a_new_object() -> None:
    g = manifested()
    old = g.obj("Grizzly Bears").oid
    g.move("Grizzly Bears", Zone.GRAVEYARD)
    assert g.obj("Grizzly Bears").oid != old


def test_708_5_only_the_controller_may_look() -> None:
    g = manifested()
    bear = g.obj("Grizzly Bears")
    assert g.can_see("you", bear) and not g.can_see("opponent", bear)


def test_708_9_face_down_permanent_leaving_is_revealed() -> None:
    g = manifested()
    g.move("Grizzly Bears", Zone.HAND)
    assert g.cards["Grizzly Bears"].revealed


def test_708_9_game_end_reveals_all_face_down() -> None:
    g = manifested()
    g.end_game()
    assert g.cards["Grizzly Bears"].revealed


def test_110_5_turning_face_up_keeps_tapped_status() -> None:
    g = manifested()
    g.obj("Grizzly Bears").tapped = True
    g.turn_face_up("Grizzly Bears")
    assert g.obj("Grizzly Bears").tapped


def test_201_2_face_down_creatures_share_no_name_and_no_creature_type() -> None:
    g = game(library=["Grizzly Bears", "Runeclaw Bear"])
    g.manifest("you", 2)
    a, b = g.obj("Grizzly Bears"), g.obj("Runeclaw Bear")
    assert not g.share_name(a, b) and not g.share_creature_type(a, b)
    g.turn_face_up("Grizzly Bears")
    g.turn_face_up("Runeclaw Bear")
    assert g.share_creature_type(a, b)  # both Bears once face up


@pytest.mark.parametrize("mechanic,known_2014", [("manifest", True), ("morph", True), ("disguise", False), ("cloak", False)])
def test_rules_date_selects_mechanics(mechanic: str, known_2014: bool) -> None:
    assert Rules.for_date("2014-11-24").knows(mechanic) is known_2014
    assert Rules.for_date(None).knows(mechanic)


def test_800_4a_leaving_player_exiles_cards_others_own() -> None:
    g = Game(["you", "opponent"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.GRAVEYARD)
    g.manifest_card("you", "Grizzly Bears")
    g.leave_game("you")
    assert g.obj("Grizzly Bears").zone is Zone.EXILE


def test_702_37b_megamorph_card_may_be_cast_face_down_using_morph() -> None:
    """702.37b: megamorph is a variant of the morph ability, so "cast it using morph" works."""
    g = game(hand=["Stratus Dancer"])
    g.cast("you", "Stratus Dancer", face_down="morph")
    g.resolve()
    dancer = g.obj("Stratus Dancer")
    assert dancer.face_down and g.characteristics(dancer).power == 2
    assert g.turn_face_up("Stratus Dancer", "megamorph") == "{1}{U}"
    assert g.obj("Stratus Dancer").plus_counters == 1


def test_702_37b_card_without_morph_or_megamorph_cannot_be_cast_using_morph() -> None:
    g = game(hand=["Grizzly Bears"])
    with pytest.raises(IllegalAction):
        g.cast("you", "Grizzly Bears", face_down="morph")


def test_708_9_leaving_player_reveals_the_face_down_permanents_they_own() -> None:
    """708.9: a player who leaves reveals the face-down permanents they *own*, even those another
    player controls."""
    g = Game(["you", "opponent"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.LIBRARY)
    g.manifest_card("you", "Grizzly Bears")  # opponent owns it, you control it
    g.leave_game("opponent")
    assert g.cards["Grizzly Bears"].revealed
    assert g.obj("Grizzly Bears").zone is Zone.OUTSIDE


def test_708_9_leaving_player_does_not_reveal_what_they_control_but_do_not_own_in_place() -> None:
    """The controller leaving exiles another's face-down permanent (800.4a); it is revealed only
    because it leaves the battlefield, and the owner's other face-down permanents stay hidden."""
    g = Game(["you", "opponent"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "you", Zone.LIBRARY)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.LIBRARY)
    g.manifest("you")
    g.manifest("opponent")
    g.leave_game("you")
    assert g.cards["Grizzly Bears"].revealed and not g.cards["Runeclaw Bear"].revealed
