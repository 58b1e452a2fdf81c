"""The rules model, one test per rule it pins (CR 2026-01-16 numbers unless said otherwise)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from kb.game import CardDataError, CastChoice, Game, IllegalAction, MissingChoice, Rules, Zone, card_from_data
from kb.game.draft import Draft
from kb.game.cards import ContinuousKind, CounterKind, Layout, TargetKind
from kb.game.state import FaceDownWay, PlayLasts, TurnUpWay
from kb.corpus import Corpus

CORPUS = Corpus.default()

CARDS = CORPUS.cards


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
    g.add_effect("Grizzly Bears", ContinuousKind.SET_TYPES, ("Artifact",))
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
    assert g.turn_face_up("Icefeather Aven", by=TurnUpWay.MORPH) == "{1}{G}{U}"


def test_702_37e_morph_creature_that_lost_its_abilities_cannot_be_turned_face_up() -> None:
    g = game(hand=["Icefeather Aven"])
    g.cast("you", "Icefeather Aven", face_down=FaceDownWay.MORPH)
    g.resolve()
    g.add_effect("Icefeather Aven", ContinuousKind.LOSE_ALL_ABILITIES)
    with pytest.raises(IllegalAction):
        g.turn_face_up("Icefeather Aven", by=TurnUpWay.MORPH)


def test_702_37b_megamorph_adds_a_counter() -> None:
    g = game(hand=["Stratus Dancer"])
    g.cast("you", "Stratus Dancer", face_down=FaceDownWay.MEGAMORPH)
    g.resolve()
    g.turn_face_up("Stratus Dancer", by=TurnUpWay.MEGAMORPH)
    ch = g.characteristics(g.obj("Stratus Dancer"))
    assert (ch.power, ch.toughness) == (3, 2)


def test_702_168a_disguise_face_down_has_ward_2() -> None:
    g = game(hand=["Dog Walker"])
    g.cast("you", "Dog Walker", face_down=FaceDownWay.DISGUISE)
    g.resolve()
    assert g.characteristics(g.obj("Dog Walker")).keywords == ("ward {2}",)
    assert g.turn_face_up("Dog Walker", by=TurnUpWay.DISGUISE) == "{R/W}{R/W}"


def test_701_58a_cloaked_permanent_has_ward_2() -> None:
    g = game(library=["Grizzly Bears"])
    g.cloak("you")
    assert g.characteristics(g.obj("Grizzly Bears")).keywords == ("ward {2}",)


def test_701_62a_manifest_dread_manifests_one_and_mills_the_other() -> None:
    g = game(library=["Grizzly Bears", "Forest"])
    g.manifest_dread("you", choose="Forest")
    assert g.obj("Forest").face_down and g.obj("Grizzly Bears").zone is Zone.GRAVEYARD


def test_701_62a_a_choice_naming_neither_card_looked_at_is_illegal_not_missing() -> None:
    """Review of session 36: an effect's choice (a list, one card per player) that names neither of the
    top two was reported as "a choice is missing"; it is a choice, and an illegal one."""
    from kb.game.state import IllegalAction, MissingChoice

    g = game(library=["Grizzly Bears", "Forest", "Shock"])
    with pytest.raises(IllegalAction, match="looks at Grizzly Bears and Forest, not Shock") as raised:
        g.manifest_dread("you", choose=["Shock"])
    assert not isinstance(raised.value, MissingChoice)
    with pytest.raises(MissingChoice):
        g.manifest_dread("you", choose=[])


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
    g.cast("you", "Stratus Dancer", face_down=FaceDownWay.MORPH)
    g.resolve()
    dancer = g.obj("Stratus Dancer")
    assert dancer.face_down and g.characteristics(dancer).power == 2
    assert g.turn_face_up("Stratus Dancer", TurnUpWay.MEGAMORPH) == "{1}{U}"
    assert g.obj("Stratus Dancer").plus_counters == 1


def test_702_37b_card_without_morph_or_megamorph_cannot_be_cast_using_morph() -> None:
    g = game(hand=["Grizzly Bears"])
    with pytest.raises(IllegalAction):
        g.cast("you", "Grizzly Bears", face_down=FaceDownWay.MORPH)


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
    because it leaves the battlefield, and the owner's other face-down permanents stay hidden
    (with three players: with two, the game ends and reveals everything, 104.2a)."""
    g = Game(["you", "opponent", "third"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "you", Zone.LIBRARY)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.LIBRARY)
    g.manifest("you")
    g.manifest("opponent")
    g.leave_game("you")
    assert g.cards["Grizzly Bears"].revealed and not g.cards["Runeclaw Bear"].revealed


# ---- the wider vocabulary: every test names the rule it shows ---------------------------------



def card(**d):  # a card defined inline, the corpus/cards schema
    return card_from_data(d, "test")


def on_battlefield(g: Game, label: str, definition, *, player: str = "you", face_down: str | None = None):
    obj = g.add_card(label, definition, player, Zone.BATTLEFIELD)
    obj.face_down_by = FaceDownWay(face_down) if face_down else None
    return obj


def test_613_layers_apply_in_order_whatever_the_timestamps() -> None:
    """613.4: P/T setting (7b) applies before modifying (7c) even if created later; colour is layer 5."""
    g = manifested()
    g.add_effect("Grizzly Bears", ContinuousKind.MODIFY_PT, (1, 1))
    g.add_effect("Grizzly Bears", ContinuousKind.SET_PT, (0, 4))
    g.add_effect("Grizzly Bears", ContinuousKind.ADD_COLORS, ("U",))
    ch = g.characteristics(g.obj("Grizzly Bears"))
    assert (ch.power, ch.toughness, ch.colors) == (1, 5, {"U"})


def test_613_1f_remove_keywords_and_static_of_another_permanent() -> None:
    g = Game(["you", "opponent"])
    anthem = card(name="Anthem", types=["Enchantment"],
                  static=[{"affects": "face_down_creatures_you_control", "kind": "modify_pt", "value": "+1/+1"}])
    on_battlefield(g, "Anthem", anthem)
    on_battlefield(g, "Bears", CARDS["Grizzly Bears"], face_down="manifest")
    on_battlefield(g, "Aven", CARDS["Icefeather Aven"])
    assert g.characteristics(g.obj("Bears")).power == 3  # only the face-down one
    assert g.characteristics(g.obj("Aven")).power == 2
    g.add_effect("Aven", ContinuousKind.REMOVE_KEYWORDS, ("flying",))
    assert "flying" not in g.characteristics(g.obj("Aven")).keywords


def test_101_2_cant_turn_face_up_beats_the_special_action() -> None:
    g = manifested()
    g.add_effect("Grizzly Bears", ContinuousKind.CANT_TURN_FACE_UP)
    assert not g.can_turn_face_up("Grizzly Bears")
    with pytest.raises(IllegalAction):
        g.turn_face_up("Grizzly Bears")


def test_601_2f_cost_modifier_changes_the_face_down_spell_cost() -> None:
    g = game(hand=["Abzan Guide"], battlefield=["Obscuring Aether"])
    assert g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH) == "{2}"


def test_702_21a_ward_counters_an_opponents_spell_unless_paid() -> None:
    g = Game(["opponent", "you"])
    on_battlefield(g, "Walker", CARDS["Dog Walker"], face_down="disguise")
    g.add_card("Remake", CARDS["Unwanted Remake"], "opponent", Zone.HAND)
    g.cast("opponent", "Remake", targets=["Walker"])
    assert len(g.stack) == 2  # the spell and the ward trigger
    g.resolve(pay=False)
    assert g.obj("Remake").zone is Zone.GRAVEYARD and g.obj("Walker").zone is Zone.BATTLEFIELD


def test_702_21a_ward_paid_lets_the_spell_resolve() -> None:
    g = Game(["opponent", "you"])
    on_battlefield(g, "Walker", CARDS["Dog Walker"], face_down="disguise")
    g.add_card("Remake", CARDS["Unwanted Remake"], "opponent", Zone.HAND)
    g.cast("opponent", "Remake", targets=["Walker"])
    g.resolve(pay=True)
    g.resolve()
    assert g.obj("Walker").zone is Zone.GRAVEYARD


def test_608_2b_spell_with_only_illegal_targets_does_nothing() -> None:
    g = Game(["you", "opponent"])
    on_battlefield(g, "Bears", CARDS["Grizzly Bears"], player="opponent")
    g.add_card("Remake", CARDS["Unwanted Remake"], "you", Zone.HAND)
    g.cast("you", "Remake", targets=["Bears"])
    g.move("Bears", Zone.HAND)
    g.resolve()
    assert ("fizzled", "Remake") in g.events and g.obj("Remake").zone is Zone.GRAVEYARD


def test_608_2b_target_that_changed_characteristics_is_illegal() -> None:
    """A "target face-down creature" ability fizzles when its target was turned face up."""
    g = Game(["you", "opponent"])
    on_battlefield(g, "Teller", CARDS["Smoke Teller"])
    on_battlefield(g, "Guide", CARDS["Abzan Guide"], player="opponent", face_down="morph")
    g.activate("you", "Teller", target="Guide")
    g.turn_face_up("Guide", TurnUpWay.MORPH)
    g.resolve()
    assert ("fizzled", "Teller") in g.events


def test_701_6a_countered_face_down_spell_is_revealed() -> None:
    g = game(hand=["Abzan Guide"])
    g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)
    g.counter("Abzan Guide")
    assert g.obj("Abzan Guide").zone is Zone.GRAVEYARD and g.cards["Abzan Guide"].revealed


def test_708_11_as_turned_face_up_applies_while_turning() -> None:
    g = Game(["you", "opponent"])
    on_battlefield(g, "Entity", CARDS["Aquamorph Entity"], face_down="morph")
    g.turn_face_up("Entity", TurnUpWay.MORPH, choice="1/5")
    g.check_state_based_actions()
    ch = g.characteristics(g.obj("Entity"))
    assert (ch.power, ch.toughness) == (1, 5) and g.obj("Entity").zone is Zone.BATTLEFIELD


def test_406_3_face_down_exiled_card_is_seen_only_by_whom_an_effect_allows() -> None:
    g = game(hand=["Grizzly Bears"])
    g.move("Grizzly Bears", Zone.EXILE, face_down=True)
    bears = g.obj("Grizzly Bears")
    assert bears.face_down and not g.can_see("you", bears) and not g.can_see("opponent", bears)
    bears.may_look.add("you")
    assert g.can_see("you", bears) and not g.can_see("opponent", bears)


def _thief_game(rules: str | None = None) -> Game:
    """Grimoire Thief ("You may look at cards exiled with Grimoire Thief") on your battlefield, and the
    opponent's Grizzly Bears exiled face down with it."""
    g = game(rules, battlefield=["Grimoire Thief"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.LIBRARY)
    g.move("Grizzly Bears", Zone.EXILE, face_down=True, by="Grimoire Thief")
    return g


def _lookers(g: Game, label: str) -> list[str]:
    return [p for p in g.players if g.can_see(p, g.obj(label))]


@pytest.mark.parametrize(("rules", "kept"), [(None, ["you"]), ("2012-06-01", [])])
def test_406_3_once_allowed_to_look_a_player_keeps_looking_after_the_source_leaves(
    rules: str | None, kept: list[str]
) -> None:
    """406.3: "once a player is allowed to look at a card exiled face down, that player may continue to
    look at that card as long as it remains exiled, even if the instruction allowing the player to do so
    no longer applies" (Grimoire Thief, 2013-07-01: "even after Grimoire Thief leaves the battlefield").
    Before the rule (Rules.keeps_looking_once_allowed), the permission ended with its source."""
    g = _thief_game(rules)
    assert _lookers(g, "Grizzly Bears") == ["you"]
    g.move("Grimoire Thief", Zone.GRAVEYARD)
    assert _lookers(g, "Grizzly Bears") == kept


def test_406_3_once_allowed_to_look_a_player_keeps_looking_after_another_gains_control() -> None:
    """Grimoire Thief's rulings (2013-07-01): the new controller may look at all cards it exiled, and the
    player who could look before "may continue to do so even after ... another player gains control of
    it" (406.3)."""
    g = _thief_game()
    g.gain_control("Grimoire Thief", "opponent")
    assert _lookers(g, "Grizzly Bears") == ["you", "opponent"]


def test_406_3_the_right_to_keep_looking_is_the_cards_own_not_a_new_objects() -> None:
    """406.3: "as long as it remains exiled": a card that leaves exile and is exiled face down again is a
    new object (400.7) that nobody may look at unless an instruction allows it anew."""
    g = _thief_game()
    g.move("Grimoire Thief", Zone.GRAVEYARD)
    g.move("Grizzly Bears", Zone.LIBRARY)
    g.move("Grizzly Bears", Zone.EXILE, face_down=True)
    assert _lookers(g, "Grizzly Bears") == []


@pytest.mark.parametrize(("rules", "lookers"), [(None, ["you"]), ("2024-11-08", ["you"]), ("2024-09-20", [])])
def test_406_3_since_2024_11_08_who_looked_at_a_card_then_exiled_it_face_down_keeps_looking(
    rules: str | None, lookers: list[str]
) -> None:
    """406.3 of the CR of 2024-11-08: "if a player is instructed to look at a card and then exile it face
    down ... that player may continue to look at that card until it leaves the exile zone". Clone Shell:
    "look at the top four cards of your library, exile one face down"; its new controller may not look
    (its ruling), and before that CR nobody could (Rules.keeps_looking_at_what_it_looked_at_and_exiled)."""
    g = game(rules, hand=["Clone Shell"], library=["Shock", "Grizzly Bears"])
    g.cast("you", "Clone Shell")
    g.resolve()
    g.resolve(choice="Grizzly Bears")
    assert g.obj("Grizzly Bears").zone is Zone.EXILE and g.obj("Grizzly Bears").face_down
    g.gain_control("Clone Shell", "opponent")
    assert _lookers(g, "Grizzly Bears") == lookers


def _grasp_game(players: Sequence[str] = ("you", "opponent", "third")) -> Game:
    """Praetor's Grasp in your hand, Shock and Grizzly Bears in the opponent's library."""
    g = Game(list(players), Rules.for_date(None))
    g.add_card("Praetor's Grasp", CARDS["Praetor's Grasp"], "you", Zone.HAND)
    for name in ("Shock", "Grizzly Bears"):
        g.add_card(name, CARDS[name], "opponent", Zone.LIBRARY)
    return g


def test_406_3_a_card_an_effect_exiles_face_down_is_seen_only_by_the_players_it_names() -> None:
    """Praetor's Grasp, cast and resolved: "Search target opponent's library for a card and exile it
    face down. ... You may look at and play that card for as long as it remains exiled." Its caster
    may look at the card (406.3); its owner and the other players may not (the ruling: "Other
    players, including the card's owner, can't look at the card"); the caster, not the owner, may
    play it, on a later turn too (611.2b)."""
    g = _grasp_game()
    g.cast("you", "Praetor's Grasp", targets=["opponent"])
    g.resolve(choice="Grizzly Bears")
    bears = g.obj("Grizzly Bears")
    assert (bears.zone, bears.face_down, bears.card.owner) == (Zone.EXILE, True, "opponent")
    assert [p for p in g.players if g.can_see(p, bears)] == ["you"]
    assert (g.may_play("you", bears), g.may_play("opponent", bears)) == (True, False)
    assert g.obj("Shock").zone is Zone.LIBRARY and g.obj("Praetor's Grasp").zone is Zone.GRAVEYARD
    for _ in g.players:  # round the table back to you: the permission outlasts the turn
        g.end_turn()
    g.play_from_exile("you", "Grizzly Bears")
    spell = g.obj("Grizzly Bears")
    assert (spell.zone, spell.controller, spell.card.owner) == (Zone.STACK, "you", "opponent")


def test_406_3_exiled_face_down_with_no_permission_nobody_looks_and_nobody_plays() -> None:
    """The same effect naming no player (`may_look: []`, no `may_play`): face down in exile, no
    player may look at the card (406.3) or play it; taken from the controller's own library top
    when it targets no player."""
    vault = card_from_data({"name": "Test Vault", "types": ["Sorcery"], "mana_cost": "{1}",
                            "abilities": [{"effect": "exile_card_face_down", "from": "top_of_library", "count": 2}]})
    g = game(library=["Shock", "Grizzly Bears", "Forest"])
    g.add_card("Test Vault", vault, "you", Zone.HAND)
    g.cast("you", "Test Vault")
    g.resolve()
    exiled = [g.obj(n) for n in ("Shock", "Grizzly Bears")]
    assert all(o.zone is Zone.EXILE and o.face_down for o in exiled) and g.obj("Forest").zone is Zone.LIBRARY
    assert not any(g.can_see(p, o) or g.may_play(p, o) for p in g.players for o in exiled)


def test_406_3_a_card_exiled_face_down_from_a_hand_is_the_one_chosen() -> None:
    """"Target player exiles a card from their hand face down": the card named is taken (608.2d);
    a card of another hand is an illegal choice, and with two cards and none named the choice is
    missing (the model doesn't choose)."""
    strip = card_from_data({"name": "Test Strip", "types": ["Sorcery"], "mana_cost": "{B}", "abilities": [
        {"effect": "exile_card_face_down", "target": "player", "from": "hand", "may_look": ["you"]}]})
    g = game(hand=["Forest"])
    g.add_card("Test Strip", strip, "you", Zone.HAND)
    for name in ("Shock", "Grizzly Bears"):
        g.add_card(name, CARDS[name], "opponent", Zone.HAND)
    g.cast("you", "Test Strip", targets=["opponent"])
    with pytest.raises(MissingChoice):
        g.resolve()
    with pytest.raises(IllegalAction, match="not Forest"):
        g.resolve(choice="Forest")
    g.resolve(choice="Shock")
    shock = g.obj("Shock")
    assert (shock.zone, shock.face_down, g.can_see("you", shock), g.can_see("opponent", shock)) == (
        Zone.EXILE, True, True, False)
    assert g.obj("Grizzly Bears").zone is Zone.HAND and g.obj("Forest").zone is Zone.HAND


def test_701_19a_a_search_for_a_card_needs_the_card_the_searcher_finds() -> None:
    """Searching a library "for a card" (no stated quality, so a card is found if there is one,
    701.19b): the searcher names it; none named with two cards there is a missing choice, a card of
    another library an illegal one, and the spell stays on the stack until it resolves."""
    g = _grasp_game(("you", "opponent"))
    g.add_card("Forest", CARDS["Forest"], "you", Zone.LIBRARY)
    g.cast("you", "Praetor's Grasp", targets=["opponent"])
    with pytest.raises(MissingChoice, match="701.19a"):
        g.resolve()
    with pytest.raises(IllegalAction, match="not Forest"):
        g.resolve(choice="Forest")
    assert g.obj("Praetor's Grasp").zone is Zone.STACK
    g.resolve(choice="Shock")
    assert g.obj("Shock").zone is Zone.EXILE and g.obj("Forest").zone is Zone.LIBRARY


def test_115_1_target_opponent_is_a_player_other_than_its_controller() -> None:
    """"Target opponent" (115.1): another player in the game; neither its caster nor an object."""
    g = _grasp_game(("you", "opponent"))
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.BATTLEFIELD)
    assert (g.is_legal_player_target(TargetKind.OPPONENT, "opponent", "you"),
            g.is_legal_player_target(TargetKind.OPPONENT, "you", "you"),
            g.is_legal_target(TargetKind.OPPONENT, g.obj("Runeclaw Bear"), "you")) == (True, False, False)
    for targets in (["you"], ["Runeclaw Bear"]):
        with pytest.raises(IllegalAction, match="not a legal target"):
            g.cast("you", "Praetor's Grasp", targets=targets)
    with pytest.raises(IllegalAction, match="601.2c"):
        g.cast("you", "Praetor's Grasp")
    assert g.obj("Praetor's Grasp").zone is Zone.HAND


def test_608_2b_a_search_of_a_target_opponent_who_left_the_game_does_nothing() -> None:
    """Praetor's Grasp whose target opponent left the game before it resolved (800.4a): its only
    target is illegal, so it does nothing (608.2b): no card of another library is taken."""
    g = _grasp_game()
    g.add_card("Forest", CARDS["Forest"], "third", Zone.LIBRARY)
    g.cast("you", "Praetor's Grasp", targets=["third"])
    g.leave_game("third")
    g.resolve(choice="Shock")
    assert g.obj("Shock").zone is Zone.LIBRARY and ("fizzled", "Praetor's Grasp") in g.events


@pytest.mark.parametrize("ability, problem", [
    ({"effect": "exile_card_face_down", "may_look": ["you"]}, "needs `from`"),
    ({"effect": "exile_card_face_down", "from": "graveyard"}, "unknown `from`"),
    ({"effect": "exile_card_face_down", "from": "library", "may_look": ["opponent"]}, "`may_look` is a list of you"),
    ({"effect": "exile_card_face_down", "from": "library", "may_play": "forever"}, "unknown `may_play`"),
    ({"effect": "exile_face_down", "may_look": ["you"]}, "for effect exile_card_face_down only"),
])
def test_406_3_an_exile_face_down_effect_says_where_from_and_who_may_look(ability: dict[str, object], problem: str) -> None:
    """A misspelt or misplaced permission would silently let nobody (or everybody) look: refused."""
    with pytest.raises(CardDataError, match=problem):
        card_from_data({"name": "Test Exiler", "types": ["Sorcery"], "abilities": [ability]}, "test")


def test_611_2b_until_your_next_turn_lasts_through_the_other_players_turns() -> None:
    """Three Wishes: "Until your next turn, you may play those cards": through the opponent's turn,
    over as your next turn begins (500.1); looking lasts while they remain exiled (406.3)."""
    g = game(hand=["Three Wishes"], library=["Grizzly Bears", "Shock", "Forest", "Divination"])
    g.cast("you", "Three Wishes")
    g.resolve()
    shock = g.obj("Shock")
    assert [o.zone for o in map(g.obj, ("Grizzly Bears", "Shock", "Forest", "Divination"))] == [Zone.EXILE] * 3 + [Zone.LIBRARY]
    g.end_turn()
    assert g.may_play("you", shock) and not g.may_play("opponent", shock)
    g.end_turn()
    bears = g.obj("Grizzly Bears")
    assert not g.may_play("you", bears) and g.can_see("you", bears) and not g.can_see("opponent", bears)


def test_406_3_looking_outlasts_the_source_leaving_playing_while_it_stays_does_not() -> None:
    """Intet, the Dreamer: "You may look at that card for as long as it remains exiled. You may play
    that card ... for as long as Intet remains on the battlefield": once it leaves, the card is still
    seen (406.3) but no longer playable (607.2a, 611.2b)."""
    g = game(battlefield=["Intet, the Dreamer"], library=["Grizzly Bears", "Forest"])
    g.combat_damage("Intet, the Dreamer", to_player=True)
    g.resolve(choice=True)
    bears = g.obj("Grizzly Bears")
    assert bears.face_down and g.may_play("you", bears) and g.obj("Forest").zone is Zone.LIBRARY
    g.move("Intet, the Dreamer", Zone.GRAVEYARD)
    assert g.can_see("you", bears) and not g.can_see("opponent", bears) and not g.may_play("you", bears)


def test_603_2_thief_of_sanity_takes_from_the_library_of_the_player_it_dealt_combat_damage_to() -> None:
    """Thief of Sanity: "Whenever Thief of Sanity deals combat damage to a player, look at the top three cards of that
    player's library, exile one of them face down, then put the rest into their graveyard. You may look at and cast
    that card for as long as it remains exiled": that player is the one dealt the damage (the next player here, not
    the third), the card named among the three (608.2d) is seen and playable by you only, also once the Thief left."""
    g = Game(["you", "opponent", "third"], Rules.for_date(None))
    g.add_card("Thief of Sanity", CARDS["Thief of Sanity"], "you", Zone.BATTLEFIELD)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "you", Zone.LIBRARY)
    for name in ("Shock", "Grizzly Bears", "Forest", "Divination"):
        g.add_card(name, CARDS[name], "opponent", Zone.LIBRARY)
    g.combat_damage("Thief of Sanity", to_player=True)
    with pytest.raises(MissingChoice):
        g.resolve()
    g.resolve(choice="Grizzly Bears")
    bears = g.obj("Grizzly Bears")
    assert (bears.zone, bears.face_down, bears.exiled_by) == (Zone.EXILE, True, "you")
    assert [o.zone for o in map(g.obj, ("Shock", "Forest", "Divination", "Runeclaw Bear"))] == [
        Zone.GRAVEYARD, Zone.GRAVEYARD, Zone.LIBRARY, Zone.LIBRARY]
    g.move("Thief of Sanity", Zone.GRAVEYARD)
    assert [p for p in g.players if g.can_see(p, bears)] == ["you"] and g.may_play("you", bears)
    assert not any(g.may_play(p, bears) for p in ("opponent", "third"))


def test_603_2_that_player_is_only_for_a_trigger_event_about_a_player() -> None:
    """`that_player` on an `enters` trigger would take from nobody's zone: refused with the events that have one."""
    ability = {"when": "enters", "effect": "exile_card_face_down", "from": "top_of_library", "that_player": True}
    with pytest.raises(CardDataError, match="`that_player` is the player a trigger event is about"):
        card_from_data({"name": "Test Thief", "types": ["Creature"], "pt": "1/1", "abilities": [ability]}, "test")


@pytest.mark.parametrize(("ability", "problem"), [
    # review51 L3: the effect kind that says "that player" in its name gets the flag's check
    ({"when": "enters", "effect": "manifest_from_that_players_library"},
     "manifest_from_that_players_library's \"that player\" is the player a trigger event is about"),
    # review51 L1: the flag and a target both say whose library: the target would silently win
    ({"when": "combat_damage_to_player", "effect": "exile_card_face_down", "from": "top_of_library",
      "that_player": True, "target": "opponent"}, "`that_player` and `target` both say whose cards"),
    # review51 L6: a misspelt event is an unknown event first, not one about no player
    ({"when": "combat_damage_to_players", "effect": "exile_card_face_down", "from": "top_of_library",
      "that_player": True}, "unknown trigger event 'combat_damage_to_players'"),
])
def test_603_2_that_player_said_two_ways_is_checked_the_same_way(ability: dict[str, Any], problem: str) -> None:
    with pytest.raises(CardDataError, match=re.escape(problem)):
        card_from_data({"name": "Test Thief", "types": ["Creature"], "pt": "1/1", "abilities": [ability]}, "test")


@pytest.mark.parametrize("static", [
    {"affects": "opponents", "kind": "play_top_of_library"},
    {"kind": "play_top_of_library"},  # `affects` defaults to self
    {"affects": "players", "kind": "look_at_face_down_creatures"},
])
def test_611_3a_a_players_permission_is_its_controllers_affects_you(static: dict[str, Any]) -> None:
    """review51 L2: `_player_permission` reads `affects: you` only, so any other would load and do nothing."""
    with pytest.raises(CardDataError, match="is a permission of the card's controller, with `affects: you`"):
        card_from_data({"name": "Test Sight", "types": ["Enchantment"], "static": [static]}, "test")


def _scepter_game() -> Game:
    """Jester's Scepter has entered under your control; its ability waits for its target player."""
    g = Game(["you", "opponent", "third"], Rules.for_date(None))
    g.add_card("Jester's Scepter", CARDS["Jester's Scepter"], "you", Zone.HAND)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.BATTLEFIELD)
    for name in ("Grizzly Bears", "Shock"):
        g.add_card(name, CARDS[name], "opponent", Zone.LIBRARY)
    g.cast("you", "Jester's Scepter")
    g.resolve()
    return g


def test_603_3d_a_triggered_ability_targeting_a_player_has_its_player_chosen_as_it_is_put_on_the_stack() -> None:
    """Jester's Scepter: "exile the top five cards of target player's library face down. You may look
    at those cards for as long as they remain exiled": nothing resolves before its target is chosen
    (603.3d); the target is a player, not an object (115.1); only you may look at the cards, also after
    the Scepter has left (406.3)."""
    g = _scepter_game()
    with pytest.raises(IllegalAction, match="603.3d"):
        g.resolve()
    with pytest.raises(IllegalAction, match="needs one target: player"):
        g.choose_targets("Jester's Scepter", ["Runeclaw Bear"])
    g.choose_targets("Jester's Scepter", ["opponent"])
    g.resolve()
    g.move("Jester's Scepter", Zone.GRAVEYARD)
    for name in ("Grizzly Bears", "Shock"):
        card = g.obj(name)
        assert (card.zone, card.face_down, [p for p in g.players if g.can_see(p, card)]) == (Zone.EXILE, True, ["you"])


def test_608_2b_a_triggered_ability_whose_target_player_left_the_game_does_nothing() -> None:
    g = _scepter_game()
    g.choose_targets("Jester's Scepter", ["opponent"])
    g.leave_game("opponent")
    g.resolve()
    assert ("fizzled", "Jester's Scepter") in g.events and not g.stack


def test_608_2d_gonti_exiles_the_one_of_the_top_four_its_controller_names_the_rest_go_to_the_bottom() -> None:
    """Gonti, Lord of Luxury: "look at the top four cards of target opponent's library, exile one of them
    face down, then put the rest on the bottom": the card named among the four (608.2d; the fifth is
    not among them), seen by you only (406.3), castable by you after Gonti has left (611.2b)."""
    g = game(hand=["Gonti, Lord of Luxury"])
    names = ["Shock", "Grizzly Bears", "Forest", "Divination", "Runeclaw Bear"]
    for name in names:
        g.add_card(name, CARDS[name], "opponent", Zone.LIBRARY)
    g.cast("you", "Gonti, Lord of Luxury")
    g.resolve()
    g.choose_targets("Gonti, Lord of Luxury", ["opponent"])
    with pytest.raises(MissingChoice):
        g.resolve()
    with pytest.raises(IllegalAction, match="not Runeclaw Bear"):
        g.resolve(choice="Runeclaw Bear")
    g.resolve(choice="Grizzly Bears")
    assert [o.label for o in g.library("opponent")] == ["Runeclaw Bear", "Shock", "Forest", "Divination"]
    g.move("Gonti, Lord of Luxury", Zone.GRAVEYARD)
    bears = g.obj("Grizzly Bears")
    assert [p for p in g.players if g.can_see(p, bears)] == ["you"] and g.may_play("you", bears)


@pytest.mark.parametrize(("card", "whose"), [("Clone Shell", "you"), ("Gonti, Lord of Luxury", "opponent")])
def test_608_2d_clone_shell_and_gonti_are_one_look_at_the_top_then_exile_one_face_down_effect(card: str, whose: str) -> None:
    """review49 L5: Clone Shell's "look at the top four cards of your library, exile one face down, then put the
    rest on the bottom" was an effect of its own, a twin of Gonti's (`exile_card_face_down`, `from: one_of_top`),
    which named the looker otherwise ("you looks at") and did not record who exiled the card. One effect now."""
    from kb.game.cards import EffectKind, ExileFrom

    enters = CARDS[card].front.abilities[0]
    assert (enters.effect, enters.from_zone, enters.count) == (EffectKind.EXILE_CARD_FACE_DOWN, ExileFrom.ONE_OF_TOP, 4)
    assert "look_at_top_exile_one_face_down" not in {e.value for e in EffectKind}
    g = game(hand=[card])
    for name in ["Shock", "Grizzly Bears", "Forest", "Divination", "Runeclaw Bear"]:
        g.add_card(name, CARDS[name], whose, Zone.LIBRARY)
    g.cast("you", card)
    g.resolve()
    if whose == "opponent":
        g.choose_targets(card, ["opponent"])
    with pytest.raises(IllegalAction, match=f"^{card}'s ability looks at Shock, Grizzly Bears, Forest and Divination, "
                                            "not Runeclaw Bear"):
        g.resolve(choice="Runeclaw Bear")
    g.resolve(choice="Divination")  # no creature card: exiled all the same (Clone Shell's ruling)
    exiled = g.obj("Divination")
    assert (exiled.zone, exiled.face_down, exiled.exiled_by, exiled.exiled_with) == (
        Zone.EXILE, True, "you", g.obj(card).oid)
    assert [o.label for o in g.library(whose)] == ["Runeclaw Bear", "Shock", "Grizzly Bears", "Forest"]


def test_121_6_uba_mask_exiles_each_card_drawn_face_up_playable_by_its_drawer_this_turn() -> None:
    """Uba Mask: "If a player would draw a card, that player exiles that card face up instead. Each player may
    play cards they exiled with Uba Mask this turn." Its ruling: "Any cards you don't play just remain exiled
    when the turn ends" (rules50: its check stated the permission in its setup)."""
    g = game(battlefield=["Uba Mask"], library=["Grizzly Bears", "Forest"])
    g.add_card("Shock", CARDS["Shock"], "opponent", Zone.LIBRARY)
    g.draw("you")
    g.draw("opponent")
    bears, shock = g.obj("Grizzly Bears"), g.obj("Shock")
    assert (bears.zone, bears.face_down, shock.zone, g.obj("Forest").zone) == (Zone.EXILE, False, Zone.EXILE, Zone.LIBRARY)
    assert [p for p in g.players if g.can_see(p, bears)] == ["you", "opponent"]
    assert (g.may_play("you", bears), g.may_play("opponent", bears), g.may_play("opponent", shock)) == (True, False, True)
    assert bears.exiled_with == g.obj("Uba Mask").oid and bears.exiled_by == "you"
    g.end_turn()
    assert bears.zone is Zone.EXILE and not g.may_play("you", bears) and not g.may_play("opponent", shock)


def test_611_3a_uba_masks_play_permission_is_its_static_ability_and_ends_as_it_leaves() -> None:
    """review50 M3: "Each player may play cards they exiled with Uba Mask this turn" is a static ability of Uba
    Mask (611.3a): once Uba Mask has left the battlefield nobody may play them, this turn either; with it on the
    battlefield the permission still ends with the turn (its ruling: "on previous turns")."""
    g = game(battlefield=["Uba Mask"], library=["Grizzly Bears", "Forest", "Shock"])
    g.draw("you")
    bears = g.obj("Grizzly Bears")
    assert bears.playable_lasts is PlayLasts.TURN_WHILE_SOURCE and g.may_play("you", bears)
    g.move("Uba Mask", Zone.GRAVEYARD)
    assert bears.zone is Zone.EXILE and not g.may_play("you", bears)
    with pytest.raises(IllegalAction):
        g.cast("you", "Grizzly Bears")
    assert bears.zone is Zone.EXILE
    # the other end, with Uba Mask on the battlefield: the turn's
    g = game(battlefield=["Uba Mask"], library=["Grizzly Bears", "Forest"])
    g.draw("you")
    g.end_turn()
    assert g.obj("Uba Mask").zone is Zone.BATTLEFIELD and not g.may_play("you", g.obj("Grizzly Bears"))


def test_611_3a_future_sight_lets_its_controller_play_the_top_card_of_their_library_while_it_stays() -> None:
    """Future Sight: "You may play the top card of your library": only the top card, only of its controller's own
    library, and only while Future Sight is on the battlefield (its static ability, 611.3a)."""
    sight = card_from_data({"name": "Test Sight", "types": ["Enchantment"], "mana_cost": "{2}{U}{U}{U}",
                            "static": [{"affects": "you", "kind": "play_top_of_library"}]}, "test")
    g = game(library=["Grizzly Bears", "Shock"])
    g.add_card("Test Sight", sight, "you", Zone.BATTLEFIELD)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.LIBRARY)
    bears, shock, theirs = g.obj("Grizzly Bears"), g.obj("Shock"), g.obj("Runeclaw Bear")
    assert (g.may_play("you", bears), g.may_play("you", shock), g.may_play("you", theirs)) == (True, False, False)
    assert not g.may_play("opponent", theirs) and not g.may_play("opponent", bears)
    g.move("Test Sight", Zone.GRAVEYARD)
    assert not g.may_play("you", bears)
    with pytest.raises(IllegalAction):
        g.cast("you", "Grizzly Bears")


@pytest.mark.parametrize(("lasts", "with_turn", "with_source"), [
    (PlayLasts.TURN, True, False), (PlayLasts.EXILED, False, False), (PlayLasts.SOURCE, False, True),
    (PlayLasts.UNTIL_YOUR_NEXT_TURN, False, False), (PlayLasts.TURN_WHILE_SOURCE, True, True),
])
def test_611_2_a_play_permission_ends_with_the_turn_the_source_or_both(lasts: PlayLasts, with_turn: bool,
                                                                         with_source: bool) -> None:
    assert (lasts.ends_with_turn, lasts.ends_with_source) == (with_turn, with_source)


def test_406_3_a_card_exiled_without_face_down_is_face_up_for_all() -> None:
    """Ire Shaman's "exile the top card of your library. Until end of turn, you may play that card":
    exiled face up (406.3's default), seen by every player, playable this turn only."""
    g = game(library=["Grizzly Bears", "Shock"])
    on_battlefield(g, "Ire Shaman", CARDS["Ire Shaman"], face_down="megamorph")
    g.turn_face_up("Ire Shaman", TurnUpWay.MEGAMORPH)
    g.resolve()
    bears = g.obj("Grizzly Bears")
    assert bears.zone is Zone.EXILE and not bears.face_down and bears.playable
    assert g.can_see("you", bears) and g.can_see("opponent", bears)
    assert g.obj("Shock").zone is Zone.LIBRARY
    g.end_turn()
    assert not g.obj("Grizzly Bears").playable


def test_121_6_shared_fate_replaces_each_draw_with_an_opponents_card_exiled_face_down() -> None:
    """The drawing player exiles the top card of an opponent's library face down instead, and only they
    may look at it (406.3); their own library is untouched, even when empty (121.6a)."""
    g = game(battlefield=["Shared Fate"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.LIBRARY)
    g.add_card("Shock", CARDS["Shock"], "opponent", Zone.LIBRARY)
    g.draw("you", 2)
    for label in ("Grizzly Bears", "Shock"):
        card = g.obj(label)
        assert card.zone is Zone.EXILE and card.face_down and card.playable
        assert g.can_see("you", card) and not g.can_see("opponent", card)
    g.add_card("Forest", CARDS["Forest"], "you", Zone.LIBRARY)
    g.draw("opponent")  # "if a player would draw": the opponent too, from your library
    assert g.obj("Forest").zone is Zone.EXILE and g.can_see("opponent", g.obj("Forest"))
    assert not g.can_see("you", g.obj("Forest"))
    # "Each player may look at ... cards they exiled with Shared Fate": linked to it (607.2a); once it
    # has left, each player still looks at what they were allowed to look at (406.3), and no more
    g.move("Shared Fate", Zone.GRAVEYARD)
    assert g.can_see("you", g.obj("Shock")) and g.can_see("opponent", g.obj("Forest"))
    assert not g.can_see("opponent", g.obj("Shock")) and not g.can_see("you", g.obj("Forest"))


def test_121_6_shared_fate_needs_a_chosen_opponent_among_several() -> None:
    g = Game(["you", "opponent", "third"])
    g.add_card("Shared Fate", CARDS["Shared Fate"], "you", Zone.BATTLEFIELD)
    g.add_card("Shock", CARDS["Shock"], "third", Zone.LIBRARY)
    with pytest.raises(IllegalAction, match="choose which opponent"):
        g.draw("you")
    g.draw("you", from_player="third")
    assert g.obj("Shock").zone is Zone.EXILE


def test_701_9a_only_a_card_in_its_owners_hand_can_be_discarded() -> None:
    g = game(hand=["Grizzly Bears"], exile=["Shock"])
    with pytest.raises(IllegalAction, match="701.9a"):
        g.discard("you", "Shock")
    with pytest.raises(IllegalAction, match="701.9a"):
        g.discard("opponent", "Grizzly Bears")
    g.discard("you", "Grizzly Bears")
    assert g.obj("Grizzly Bears").zone is Zone.GRAVEYARD


def test_702_29a_cycling_only_from_a_hand() -> None:
    g = game(hand=["Pendrell Drake"], library=["Forest"])
    g.add_card("Exiled Drake", CARDS["Pendrell Drake"], "you", Zone.EXILE)
    with pytest.raises(IllegalAction, match="702.29a"):
        g.cycle("you", "Exiled Drake")
    assert g.cycle("you", "Pendrell Drake") == "{2}"
    assert g.obj("Pendrell Drake").zone is Zone.GRAVEYARD and g.obj("Forest").zone is Zone.HAND
    with pytest.raises(IllegalAction, match="no cycling"):
        g.cycle("you", "Forest")


def test_406_3_a_face_down_exiled_card_a_cost_takes_is_chosen_at_random_and_revealed_once_paid() -> None:
    """Inverter of Truth's ruling: an Eldrazi Processor's cost puts "a card an opponent owns from exile"
    into their graveyard; a face-down card the activator can't look at can't be picked, it is chosen
    at random (`at_random`, the named card standing for the one chosen), and shown only once paid."""
    g = game(exile=["Grizzly Bears", "Shock"])
    for label in ("Grizzly Bears", "Shock"):
        g.obj(label).face_down_by = FaceDownWay.EFFECT
    on_battlefield(g, "Oracle of Dust", CARDS["Oracle of Dust"], player="opponent")
    with pytest.raises(IllegalAction, match="at random"):
        g.activate("opponent", "Oracle of Dust", target="Shock")
    assert g.obj("Shock").zone is Zone.EXILE and not g.stack
    g.activate("opponent", "Oracle of Dust", target="Shock", at_random=True)
    shock = g.obj("Shock")
    assert shock.zone is Zone.GRAVEYARD and g.knows_identity("you", shock) and g.knows_identity("opponent", shock)
    assert len(g.stack) == 1 and not g.can_see("opponent", g.obj("Grizzly Bears"))
    g.obj("Grizzly Bears").may_look.add("opponent")  # one it may look at, it picks
    g.activate("opponent", "Oracle of Dust", target="Grizzly Bears")
    assert g.obj("Grizzly Bears").zone is Zone.GRAVEYARD
    with pytest.raises(IllegalAction, match="an opponent of opponent owns in exile"):
        g.activate("opponent", "Oracle of Dust", target="Oracle of Dust")


def test_509_1h_blocked_creature_stays_blocked_when_turned_face_up() -> None:
    g = Game(["you", "opponent"])
    on_battlefield(g, "Mystic", CARDS["Mystic of the Hidden Way"], face_down="morph")
    on_battlefield(g, "Bears", CARDS["Grizzly Bears"], player="opponent")
    g.attack("Mystic")
    g.block("Bears", "Mystic")
    g.turn_face_up("Mystic", TurnUpWay.MORPH)
    assert g.obj("Mystic").blocked and g.obj("Mystic").attacking


def test_702_3b_defender_cannot_attack_but_a_face_down_one_can() -> None:
    g = Game(["you", "opponent"])
    on_battlefield(g, "Flock", CARDS["Monastery Flock"])
    on_battlefield(g, "Hidden", CARDS["Monastery Flock"], face_down="morph")
    with pytest.raises(IllegalAction):
        g.attack("Flock")
    g.attack("Hidden")
    assert g.obj("Hidden").attacking


def test_701_62b_whenever_you_manifest_dread_triggers_with_an_empty_library() -> None:
    g = Game(["you", "opponent"])
    listener = card(name="Listener", types=["Creature"], pt="1/1",
                    abilities=[{"when": "you_manifest_dread", "effect": "nothing"}])
    on_battlefield(g, "Listener", listener)
    assert g.manifest_dread("you") is None
    assert ("triggered", "Listener") in g.events


def test_603_2_other_objects_listen_face_down_ones_do_not() -> None:
    """708.2: a face-down permanent has no abilities, so its "whenever another creature enters"
    doesn't trigger; a face-up one's does."""
    g = game(library=["Grizzly Bears"], battlefield=["Soul Warden"])
    g.manifest("you")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Soul Warden")]
    g.turn_face_down("Soul Warden")
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "you", Zone.LIBRARY)
    g.manifest("you")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Soul Warden")]


def test_702_61a_split_second_stops_spells_not_special_actions() -> None:
    g = Game(["opponent", "you"])
    on_battlefield(g, "Willbender", CARDS["Willbender"], player="you", face_down="morph")
    g.add_card("Sudden Shock", CARDS["Sudden Shock"], "opponent", Zone.HAND)
    g.add_card("Shock", CARDS["Shock"], "you", Zone.HAND)
    g.cast("opponent", "Sudden Shock", targets=["Willbender"])  # 601.2c: its target is chosen as it is cast
    with pytest.raises(IllegalAction):
        g.cast("you", "Shock")
    assert g.turn_face_up("Willbender", TurnUpWay.MORPH) == "{1}{U}"


def test_702_61a_split_second_stops_cycling() -> None:
    """Cycling is an activated ability (702.29a): while a split second spell is on the stack it can't be
    activated; the card stays in hand and nothing is drawn (review46 #3)."""
    g = Game(["opponent", "you"])
    on_battlefield(g, "Willbender", CARDS["Willbender"], player="you", face_down="morph")
    g.add_card("Sudden Shock", CARDS["Sudden Shock"], "opponent", Zone.HAND)
    g.add_card("Pendrell Drake", CARDS["Pendrell Drake"], "you", Zone.HAND)
    g.add_card("Forest", CARDS["Forest"], "you", Zone.LIBRARY)
    g.cast("opponent", "Sudden Shock", targets=["Willbender"])
    with pytest.raises(IllegalAction, match="split second"):
        g.cycle("you", "Pendrell Drake")
    assert (g.obj("Pendrell Drake").zone, g.obj("Forest").zone) == (Zone.HAND, Zone.LIBRARY)
    g.resolve()
    assert g.cycle("you", "Pendrell Drake") == "{2}" and g.obj("Forest").zone is Zone.HAND


SPLIT = {"faces": [{"name": "Fire", "mana_cost": "{1}{R}", "types": ["Instant"]},
                   {"name": "Ice", "mana_cost": "{1}{U}", "types": ["Instant"]}], "layout": "split"}
ADVENTURE = {"faces": [{"name": "Giant", "mana_cost": "{2}{G}", "types": ["Creature"], "pt": "4/4"},
                       {"name": "Stomp", "mana_cost": "{1}{G}", "types": ["Instant"]}], "layout": "adventure"}
MDFC = {"faces": [{"name": "Cleric", "mana_cost": "{1}{W}", "types": ["Creature"], "pt": "2/2"},
                  {"name": "Temple", "types": ["Land"]}], "layout": "modal_dfc"}
MELD = {"faces": [{"name": "Half", "mana_cost": "{3}", "types": ["Creature"], "pt": "3/3"},
                  {"name": "Whole", "types": ["Creature"], "pt": "9/9"}], "layout": "meld"}


@pytest.mark.parametrize(
    ("data", "can_turn_up", "cost"),
    [(SPLIT, False, None), (ADVENTURE, True, "{2}{G}"), (MDFC, True, "{1}{W}"), (MELD, True, "{3}")],
    ids=["709_split", "715_adventure", "712_modal_dfc", "712_meld"],
)
def test_701_40b_manifested_card_turns_up_only_if_the_card_is_a_creature_card(data, can_turn_up, cost) -> None:
    g = Game(["you", "opponent"])
    g.add_card("X", card_from_data(data), "you", Zone.LIBRARY)
    g.manifest("you")
    x = g.obj("X")
    assert g.characteristics(x).name is None and g.characteristics(x).power == 2
    assert g.can_turn_face_up("X") is can_turn_up
    if can_turn_up:
        assert g.turn_face_up("X") == cost and g.printed(g.obj("X")).name == card_from_data(data).faces[0].name


def test_712_14a_double_faced_cards_cannot_be_cast_face_down() -> None:
    g = Game(["you", "opponent"])
    g.add_card("X", card_from_data({**MDFC, "faces": [{**MDFC["faces"][0], "morph": "{2}"}, MDFC["faces"][1]]}),
               "you", Zone.HAND)
    with pytest.raises(IllegalAction):
        g.cast("you", "X", face_down=FaceDownWay.MORPH)
    assert card_from_data(MDFC).layout is Layout.MODAL_DFC


def test_715_3_adventure_cast_as_its_adventure_costs_the_adventure_cost() -> None:
    g = Game(["you", "opponent"])
    g.add_card("X", card_from_data(ADVENTURE), "you", Zone.HAND)
    assert g.cast("you", "X", face=1) == "{1}{G}"


def test_702_106_face_down_conspiracy_known_to_its_owner_and_revealed_at_game_end() -> None:
    g = Game(["you", "opponent"])
    favor = g.add_card("Favor", CARDS["Brago's Favor"], "you", Zone.COMMAND)
    favor.face_down_by = FaceDownWay.HIDDEN_AGENDA
    assert g.can_see("you", favor) and not g.can_see("opponent", favor)
    g.end_game()
    assert g.cards["Favor"].revealed


def test_603_2_whenever_a_creature_you_control_attacks_sees_face_down_attackers() -> None:
    """A face-down attacker is a creature you control; a face-down listener has no ability."""
    g = Game(["you", "opponent"])
    rally = card(name="Rally", types=["Creature"], pt="1/1",
                 abilities=[{"when": "creature_you_control_attacks", "effect": "nothing"}])
    on_battlefield(g, "Rally", rally)
    on_battlefield(g, "Hidden", CARDS["Grizzly Bears"], face_down="manifest")
    on_battlefield(g, "Hidden rally", rally, face_down="morph")
    g.attack("Hidden")
    g.attack("Rally")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Rally")] * 2


def test_603_2e_becomes_untapped_triggers_only_on_a_change_not_on_entering_untapped() -> None:
    """Inspired ("whenever this creature becomes untapped"): entering the battlefield untapped is no
    untapping; untapping a tapped one is, once; untapping an untapped one is not."""
    g = Game(["you", "opponent"])
    inspired = card(name="Inspired", types=["Creature"], pt="2/2",
                    abilities=[{"when": "becomes_untapped", "effect": "nothing"}])
    on_battlefield(g, "Inspired", inspired)
    assert [e for e in g.events if e[0] == "triggered"] == []
    g.untap("Inspired")
    assert [e for e in g.events if e[0] == "triggered"] == []
    g.tap("Inspired")
    g.untap("Inspired")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Inspired")]
    on_battlefield(g, "Hidden", inspired, face_down="manifest")  # 708.2: no ability face down
    g.tap("Hidden")
    g.untap("Hidden")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Inspired")]


def test_603_2e_becomes_tapped_triggers_only_on_a_change() -> None:
    """Grimoire Thief ("Whenever Grimoire Thief becomes tapped, exile the top three cards of target
    opponent's library face down"): tapping it (attacking, an effect) triggers it once; tapping a tapped
    one does not; the three cards are exiled with it, face down, and its controller may look at them."""
    g = game(battlefield=["Grimoire Thief"])
    for name in ("Grizzly Bears", "Shock", "Forest", "Divination"):
        g.add_card(name, CARDS[name], "opponent", Zone.LIBRARY)
    g.tap("Grimoire Thief")
    g.tap("Grimoire Thief")
    assert [e for e in g.events if e[0] == "triggered"] == [("triggered", "Grimoire Thief")]
    g.choose_targets("Grimoire Thief", ["opponent"])
    g.resolve()
    exiled = [g.obj(n) for n in ("Grizzly Bears", "Shock", "Forest")]
    assert all(o.zone is Zone.EXILE and o.face_down and o.exiled_with == g.obj("Grimoire Thief").oid for o in exiled)
    assert [_lookers(g, n) for n in ("Grizzly Bears", "Shock", "Forest")] == [["you"]] * 3
    assert g.obj("Divination").zone is Zone.LIBRARY


# ---- the special action: asking and doing agree (issue 16) ------------------------------------


@pytest.mark.parametrize("rules", ["2014-11-24", "2015-03-27", "2018-07-13", None])
def test_can_turn_face_up_agrees_with_turn_face_up(rules: str | None) -> None:
    """Whatever the card, the way it became face down, the rules date and the way asked for,
    `can_turn_face_up` says True exactly when `turn_face_up` does not refuse, and
    `turn_face_up_cost` is the cost `turn_face_up` pays."""
    disagree = []
    cases = [
        (name, way, prohibited)
        for name in ("Grizzly Bears", "Icefeather Aven", "Stratus Dancer", "Dog Walker", "Shock")
        for way in (*FaceDownWay, None)
        for prohibited in (False, True)
    ]
    for name, way, prohibited in cases:
        for by in TurnUpWay:
            g = game(rules)
            zone = Zone.COMMAND if way is FaceDownWay.HIDDEN_AGENDA else Zone.BATTLEFIELD
            obj = g.add_card(name, CARDS[name], "you", zone)
            obj.face_down_by = way
            if prohibited:
                g.add_effect(name, ContinuousKind.CANT_TURN_FACE_UP)
            can, cost = g.can_turn_face_up(name, by), g.turn_face_up_cost(obj, by)
            try:
                paid: str | None = g.turn_face_up(name, by)
            except IllegalAction:
                paid = None
            if can != (paid is not None) or cost != paid:
                disagree.append((name, way, prohibited, by, can, cost, paid))
    assert disagree == []


def test_disguise_cannot_turn_face_up_under_2014_rules() -> None:
    """The issue's case: under 2014 rules a disguised permanent can't use a disguise cost, and
    both the question and the action say so."""
    g = game("2014-11-24")
    on_battlefield(g, "Walker", CARDS["Dog Walker"], face_down="disguise")
    assert not g.can_turn_face_up("Walker", TurnUpWay.DISGUISE)
    with pytest.raises(IllegalAction, match="disguise does not exist in the rules of 2014-11-24"):
        g.turn_face_up("Walker", TurnUpWay.DISGUISE)
    assert g.can_turn_face_up("Walker", TurnUpWay.DISGUISE) is False and g.obj("Walker").face_down


# ---- counters, vanishing, targets chosen for triggers, entering together, piles (issue 12) -------


def test_614_12_creature_entering_with_ixidron_stays_face_up() -> None:
    g = game(graveyard=["Ixidron", "Grizzly Bears"], battlefield=["Runeclaw Bear"])
    g.put_onto_battlefield(["Ixidron", "Grizzly Bears"])
    assert not g.obj("Grizzly Bears").face_down and g.obj("Runeclaw Bear").face_down
    assert g.characteristics(g.obj("Ixidron")).power == 1


def test_614_1c_ixidron_alone_turns_every_other_creature_face_down() -> None:
    g = game(graveyard=["Ixidron"], battlefield=["Runeclaw Bear", "Grizzly Bears"])
    g.put_onto_battlefield(["Ixidron"])
    assert g.obj("Grizzly Bears").face_down and g.obj("Runeclaw Bear").face_down
    assert not g.obj("Ixidron").face_down


def test_603_3d_trigger_without_a_legal_target_is_removed_from_the_stack() -> None:
    g = game(battlefield=["Icefeather Aven"])
    g.obj("Icefeather Aven").face_down_by = FaceDownWay.MORPH
    g.turn_face_up("Icefeather Aven", TurnUpWay.MORPH)
    assert g.stack == []  # no other creature: Icefeather Aven can't target itself


@pytest.mark.parametrize("choice, zone", [(True, Zone.HAND), (False, Zone.BATTLEFIELD)])
def test_603_3d_targets_are_chosen_before_a_player_gets_priority(choice: bool, zone: Zone) -> None:
    g = game(battlefield=["Icefeather Aven", "Grizzly Bears"])
    g.obj("Icefeather Aven").face_down_by = FaceDownWay.MORPH
    g.turn_face_up("Icefeather Aven", TurnUpWay.MORPH)
    with pytest.raises(IllegalAction):
        g.resolve()
    with pytest.raises(IllegalAction):
        g.choose_targets("Icefeather Aven", ["Icefeather Aven"])  # "another target creature"
    with pytest.raises(IllegalAction):
        g.choose_targets("Icefeather Aven", [])
    g.choose_targets("Icefeather Aven", ["Grizzly Bears"])
    with pytest.raises(IllegalAction):
        g.resolve()  # "you may": the choice is made as it resolves
    g.resolve(choice=choice)
    assert g.obj("Grizzly Bears").zone is zone


def test_608_2b_a_you_may_ability_whose_target_became_illegal_asks_no_choice() -> None:
    """tryout20: the model refused to resolve Icefeather Aven's trigger without a "you may" answer
    although its only target had left: it doesn't resolve, so nothing is chosen."""
    g = game(battlefield=["Icefeather Aven", "Grizzly Bears"])
    g.obj("Icefeather Aven").face_down_by = FaceDownWay.MORPH
    g.turn_face_up("Icefeather Aven", TurnUpWay.MORPH)
    g.choose_targets("Icefeather Aven", ["Grizzly Bears"])
    g.move("Grizzly Bears", Zone.HAND)
    g.resolve()
    assert ("fizzled", "Icefeather Aven") in g.events and g.stack == []


def test_122_1_time_counters_do_not_change_power_and_toughness() -> None:
    g = game(battlefield=["Grizzly Bears"])
    g.add_counters("Grizzly Bears", CounterKind.TIME, 2)
    bear = g.obj("Grizzly Bears")
    assert bear.counters[CounterKind.TIME] == 2 and bear.plus_counters == 0
    assert g.characteristics(bear).power == 2


def test_702_63c_each_vanishing_works_separately() -> None:
    g = game(battlefield=["Maelstrom Djinn"])
    djinn = g.obj("Maelstrom Djinn")
    for _ in range(2):  # turned face up twice: two instances of vanishing, 2 + 2 time counters
        djinn.face_down_by = FaceDownWay.MORPH
        g.turn_face_up("Maelstrom Djinn", TurnUpWay.MORPH)
        g.resolve()
    assert djinn.counters[CounterKind.TIME] == 4
    g.remove_counter(djinn, CounterKind.TIME)
    g.remove_counter(djinn, CounterKind.TIME)
    g.remove_counter(djinn, CounterKind.TIME)
    g.upkeep()
    assert len(g.stack) == 2  # both trigger: it has a time counter
    g.resolve()  # removes the last counter: each vanishing's sacrifice ability triggers
    assert djinn.counters[CounterKind.TIME] == 0 and len(g.stack) == 3
    g.resolve_all()  # the other upkeep ability finds no counter and does nothing (603.4)
    assert g.obj("Maelstrom Djinn").zone is Zone.GRAVEYARD


def test_603_4_false_intervening_if_does_not_trigger() -> None:
    g = game(battlefield=["Maelstrom Djinn"])
    djinn = g.obj("Maelstrom Djinn")
    djinn.face_down_by = FaceDownWay.MORPH
    g.turn_face_up("Maelstrom Djinn", TurnUpWay.MORPH)
    g.resolve()
    djinn.counters[CounterKind.TIME] = 0
    g.upkeep()
    assert g.stack == []


def test_708_6_face_down_from_a_public_zone_is_known_to_all_but_seen_by_its_controller() -> None:
    g = game(battlefield=["Ashcloud Phoenix"], library=["Grizzly Bears"])
    g.manifest("you")
    g.move("Ashcloud Phoenix", Zone.GRAVEYARD)
    g.resolve()
    phoenix, bear = g.obj("Ashcloud Phoenix"), g.obj("Grizzly Bears")
    assert phoenix.face_down and phoenix.zone is Zone.BATTLEFIELD
    assert g.knows_identity("opponent", phoenix) and not g.can_see("opponent", phoenix)
    assert not g.knows_identity("opponent", bear)


def test_700_3c_face_down_pile_stays_in_its_zone_and_nobody_looks_until_it_moves() -> None:
    g = game(library=["Grizzly Bears", "Runeclaw Bear"])
    g.separate_into_piles("opponent", ["Grizzly Bears"], ["Runeclaw Bear"])
    down, up = g.obj("Grizzly Bears"), g.obj("Runeclaw Bear")
    assert down.zone is up.zone is Zone.LIBRARY
    assert not g.can_see("you", down) and g.knows_identity("opponent", down)
    assert g.can_see("opponent", up) and up.card.revealed
    g.move("Grizzly Bears", Zone.HAND)
    assert g.can_see("you", g.obj("Grizzly Bears")) and not g.obj("Grizzly Bears").card.revealed


def test_700_3a_each_card_in_exactly_one_pile() -> None:
    g = game(library=["Grizzly Bears", "Runeclaw Bear"])
    with pytest.raises(IllegalAction):
        g.separate_into_piles("opponent", ["Grizzly Bears"], ["Grizzly Bears"])


def test_704_5n_equipment_on_a_noncreature_becomes_unattached_and_stays() -> None:
    equipment = card_from_data({"name": "Bonesplitter", "types": ["Artifact"], "subtypes": ["Equipment"],
                                "static": [{"affects": "equipped", "kind": "modify_pt", "value": "+2/+0"}]})
    g = game(battlefield=["Zoetic Cavern"])
    g.obj("Zoetic Cavern").face_down_by = FaceDownWay.MORPH
    g.add_card("Bonesplitter", equipment, "you", Zone.BATTLEFIELD)
    g.obj("Bonesplitter").attached_to = g.obj("Zoetic Cavern").oid
    assert g.characteristics(g.obj("Zoetic Cavern")).power == 4
    g.turn_face_up("Zoetic Cavern", TurnUpWay.MORPH)
    g.check_state_based_actions()
    assert g.obj("Bonesplitter").attached_to is None and g.obj("Bonesplitter").zone is Zone.BATTLEFIELD


def test_607_2a_each_owner_of_a_card_exiled_with_it_manifests_dread_once() -> None:
    g = Game(["you", "first", "second"])
    g.add_card("Unidentified Hovership", CARDS["Unidentified Hovership"], "you", Zone.BATTLEFIELD)
    for owner, labels in (("first", ["A", "B"]), ("second", ["C"]), ("you", ["D"])):
        for label in labels:
            g.add_card(label, CARDS["Runeclaw Bear"], owner, Zone.EXILE)
        g.add_card(f"{owner} top", CARDS["Grizzly Bears"], owner, Zone.LIBRARY)
    for label in ("A", "B", "C"):
        g.obj(label).exiled_with = g.obj("Unidentified Hovership").oid
    g.move("Unidentified Hovership", Zone.GRAVEYARD)
    g.resolve()
    assert g.obj("first top").face_down and g.obj("second top").face_down
    assert g.obj("you top").zone is Zone.LIBRARY  # D was not exiled with this Hovership


def hovership_game(first: list[str], second: list[str]) -> Game:
    """Unidentified Hovership's leaves trigger on the stack; `first` and `second` each own a card
    exiled with it and have these libraries."""
    g = Game(["you", "first", "second"])
    g.add_card("Unidentified Hovership", CARDS["Unidentified Hovership"], "you", Zone.BATTLEFIELD)
    for owner, library in (("first", first), ("second", second)):
        g.add_card(f"{owner} exiled", CARDS["Runeclaw Bear"], owner, Zone.EXILE)
        g.obj(f"{owner} exiled").exiled_with = g.obj("Unidentified Hovership").oid
        for label in library:
            g.add_card(label, CARDS["Grizzly Bears"], owner, Zone.LIBRARY)
    g.move("Unidentified Hovership", Zone.GRAVEYARD)
    return g


def test_701_62a_each_owner_names_their_own_choice_and_one_card_needs_none() -> None:
    g = hovership_game(["F1", "F2"], ["S1"])
    g.resolve(choice=["F2"])  # second looks at one card: nothing to choose
    assert g.obj("F2").face_down and g.obj("F1").zone is Zone.GRAVEYARD and g.obj("S1").face_down


@pytest.mark.parametrize(("first", "second", "choice", "refusal"), [
    (["F1", "F2"], ["S1"], ["F1", "X"], "first looks at F1 and F2; second looks at S1; none looks at X"),
    (["F1", "F2"], ["S1", "S2", "S3"], ["F1", "S3"], "none looks at S3"),  # the third card, not looked at
])
def test_608_2d_a_choice_of_several_players_naming_a_card_none_looks_at_is_illegal(
        first: list[str], second: list[str], choice: list[str], refusal: str) -> None:
    """Session 37: with the choice split one card per player, a card no one looks at was ignored."""
    g = hovership_game(first, second)
    with pytest.raises(IllegalAction, match=refusal):
        g.resolve(choice=choice)
    assert not any(g.obj(label).face_down for label in first + second) and len(g.stack) == 1  # no one manifested


@pytest.mark.parametrize(("library", "act", "refusal"), [
    # one card looked at: a choice naming another is refused, not ignored (review of session 36)
    (["Grizzly Bears"], lambda g: g.manifest_dread("you", choose=["Shock"]),
     "manifest dread by you looks at Grizzly Bears, not Shock"),
    (["Grizzly Bears"], lambda g: g.manifest_dread("you", choose="Shock"),
     "manifest dread by you looks at Grizzly Bears, not Shock"),
    (["Grizzly Bears", "Forest"], lambda g: g.manifest_dread("you", choose=["Forest", "Grizzly Bears"]),
     "and chooses one of them to manifest, not Grizzly Bears and Forest"),
    (["Grizzly Bears", "Forest", "Shock"], lambda g: g.manifest_one_of_top_two("you", "Shock"),
     "manifest one of the top two by you looks at Grizzly Bears and Forest, not Shock"),
    ([], lambda g: g.manifest_dread("you", choose="Shock"), "manifest dread by you looks at no card, not Shock"),
])
def test_608_2d_a_choice_naming_a_card_not_looked_at_is_illegal(
        library: list[str], act: Callable[[Game], object], refusal: str) -> None:
    g = game(library=library)
    with pytest.raises(IllegalAction, match=refusal):
        act(g)
    assert [o.label for o in g.library("you")] == library


def test_608_2d_a_choice_refused_as_a_spell_resolves_leaves_the_game_as_it_was() -> None:
    """Unwanted Remake destroys, then manifests dread: a refused choice undoes the destruction too,
    the spell is still on the stack to resolve with a legal choice."""
    g = game(library=["Forest"], hand=["Unwanted Remake"], battlefield=["Ornithopter"])
    g.cast("you", "Unwanted Remake", targets=["Ornithopter"])
    with pytest.raises(IllegalAction, match="not Shock"):
        g.resolve(choice="Shock")
    assert g.obj("Ornithopter").zone is Zone.BATTLEFIELD and g.obj("Unwanted Remake").zone is Zone.STACK
    g.resolve(choice="Forest")
    assert g.obj("Ornithopter").zone is Zone.GRAVEYARD and g.obj("Forest").face_down and g.stack == []


def test_707_2_a_clone_copies_a_permanent_on_the_battlefield_not_a_card_elsewhere() -> None:
    """Session 37: `copy_of` naming a card in the library made the Clone a copy of it."""
    g = game(library=["Forest"], hand=["Clone"], battlefield=["Grizzly Bears"])
    g.cast("you", "Clone")
    with pytest.raises(IllegalAction, match=r"Clone may enter as a copy of a permanent on the battlefield "
                                            r"\(Grizzly Bears\), not Forest"):
        g.resolve(copy_of="Forest")
    assert g.obj("Clone").zone is Zone.STACK
    g.resolve(copy_of="Grizzly Bears")
    assert g.characteristics(g.obj("Clone")).name == "Grizzly Bears"


@pytest.mark.parametrize(("choice", "refusal"), [
    ("Forest", r"Vesuvan Shapeshifter may become a copy of another creature on the battlefield \(Grizzly Bears\), "
               "not Forest"),  # in the library
    ("Vesuvan Shapeshifter", "not Vesuvan Shapeshifter"),  # "another creature"
    ("Blood Moon", "not Blood Moon"),  # on the battlefield, not a creature
])
def test_708_11_vesuvan_shapeshifter_copies_another_creature_on_the_battlefield(choice: str, refusal: str) -> None:
    """Session 37: the choice as it turns face up was any card; refused, it stays face down."""
    g = game(library=["Forest"], battlefield=["Grizzly Bears", "Blood Moon"])
    on_battlefield(g, "Vesuvan Shapeshifter", CARDS["Vesuvan Shapeshifter"], face_down="morph")
    with pytest.raises(IllegalAction, match=refusal):
        g.turn_face_up("Vesuvan Shapeshifter", TurnUpWay.MORPH, choice=choice)
    assert g.obj("Vesuvan Shapeshifter").face_down and g.events == []
    g.turn_face_up("Vesuvan Shapeshifter", TurnUpWay.MORPH, choice="Grizzly Bears")
    assert g.characteristics(g.obj("Vesuvan Shapeshifter")).name == "Grizzly Bears"


def test_708_11_a_refused_choice_as_it_turns_face_up_leaves_it_face_down() -> None:
    g = Game(["you", "opponent"])
    on_battlefield(g, "Entity", CARDS["Aquamorph Entity"], face_down="morph")
    with pytest.raises(IllegalAction, match="choose one of 5/1, 1/5"):
        g.turn_face_up("Entity", TurnUpWay.MORPH, choice="2/2")
    assert g.obj("Entity").face_down and g.events == []


def test_106_6_restricted_mana_cant_pay_for_a_spell_that_manifests() -> None:
    g = game(battlefield=["Qarsi Deceiver"], hand=["Soul Summons", "Icefeather Aven"])
    g.activate("you", "Qarsi Deceiver")  # 605.3: a mana ability, no stack
    assert g.stack == [] and len(g.players["you"].mana_pool) == 1
    with pytest.raises(IllegalAction):
        g.cast("you", "Soul Summons", spend=["Qarsi Deceiver"])
    assert g.obj("Soul Summons").zone is Zone.HAND and len(g.players["you"].mana_pool) == 1
    g.cast("you", "Icefeather Aven", face_down=FaceDownWay.MORPH, spend=["Qarsi Deceiver"])
    assert g.players["you"].mana_pool == []


@pytest.mark.parametrize("card, way, by, allowed", [
    ("Icefeather Aven", FaceDownWay.MORPH, TurnUpWay.MORPH, True),  # its morph cost {1}{G}{U}
    ("Grizzly Bears", FaceDownWay.MANIFEST, TurnUpWay.MANA, True),  # a manifested creature's {1}{G}
    ("Grizzly Bears", FaceDownWay.CLOAK, TurnUpWay.MANA, False),  # cloaked is not manifested
])
def test_106_6_restricted_mana_turns_up_only_what_it_allows(card: str, way: FaceDownWay, by: TurnUpWay, allowed: bool) -> None:
    g = game(battlefield=["Qarsi Deceiver", card])
    g.obj(card).face_down_by = way
    g.activate("you", "Qarsi Deceiver")
    if allowed:
        g.turn_face_up(card, by, spend=["Qarsi Deceiver"])
        assert not g.obj(card).face_down
    else:
        with pytest.raises(IllegalAction):
            g.turn_face_up(card, by, spend=["Qarsi Deceiver"])
        assert g.obj(card).face_down


def test_107_4_colourless_mana_cant_pay_a_coloured_symbol() -> None:
    forest = card_from_data({"name": "Wastes", "types": ["Land"],
                             "abilities": [{"effect": "add_mana", "cost": "{T}", "mana": "C"}]})
    g = game(hand=["Icefeather Aven"])
    g.add_card("Wastes", forest, "you", Zone.BATTLEFIELD)
    g.activate("you", "Wastes")
    with pytest.raises(IllegalAction):
        g.cast("you", "Icefeather Aven", spend=["Wastes"])  # {G}{U}: no generic mana to pay


@pytest.mark.parametrize("prevented, life", [(False, 18), (True, 20)])
def test_615_1_prevented_combat_damage_is_not_dealt(prevented: bool, life: int) -> None:
    g = game(battlefield=["Grizzly Bears"], hand=["Revealing Wind"])
    g.attack("Grizzly Bears")
    if prevented:
        g.cast("you", "Revealing Wind")
        g.resolve()
    g.combat_damage("Grizzly Bears", to_player=True)
    assert g.players["opponent"].life == life


def test_708_5_revealing_wind_looks_at_face_down_attackers_only_as_it_resolves() -> None:
    from kb.game import GameEvent

    g = game(battlefield=["Grizzly Bears", "Runeclaw Bear"], hand=["Revealing Wind"])
    g.obj("Grizzly Bears").face_down_by = FaceDownWay.MANIFEST
    g.obj("Runeclaw Bear").face_down_by = FaceDownWay.MANIFEST
    g.attack("Grizzly Bears")
    g.cast("you", "Revealing Wind")
    g.resolve()
    assert [label for ev, label in g.events if ev is GameEvent.LOOKED] == ["Grizzly Bears"]


def scheme_game(scheme: str, **zones: list[str]) -> Game:
    g = game(**zones)
    g.add_card(scheme, CARDS[scheme], "you", Zone.COMMAND).face_down_by = FaceDownWay.SCHEME
    return g


def test_601_2f_cost_reductions_apply_after_additional_costs() -> None:
    g = scheme_game("Because I Have Willed It", hand=["Borrowed Malevolence", "Grizzly Bears"])
    assert g.cast("you", "Grizzly Bears") == "{1}{G}"  # still face down: no reduction
    g.set_in_motion("you")
    assert g.cast("you", "Borrowed Malevolence", modes=2) == "{1}{B}"  # {B} + escalate {2}, then {1} less


def test_601_2f_reduction_lowers_the_face_down_spell_cost() -> None:
    g = scheme_game("Because I Have Willed It", hand=["Icefeather Aven"])
    g.set_in_motion("you")
    assert g.cast("you", "Icefeather Aven", face_down=FaceDownWay.MORPH) == "{2}"


@pytest.mark.parametrize("in_motion", [False, True])
def test_701_32b_an_ongoing_scheme_set_in_motion_applies_at_once(in_motion: bool) -> None:
    g = scheme_game("I Bask in Your Silent Awe")
    for label in ("Shock", "Second Shock"):
        g.add_card(label, CARDS["Shock"], "opponent", Zone.HAND)
    g.cast("opponent", "Shock")
    if in_motion:
        scheme = g.set_in_motion("you")
        assert not scheme.face_down and len(g.stack) == 1  # nothing was put on the stack
        with pytest.raises(IllegalAction):
            g.cast("opponent", "Second Shock")
    else:
        g.cast("opponent", "Second Shock")
    g.end_turn()


def test_708_9_face_down_schemes_are_not_revealed_at_game_end() -> None:
    g = scheme_game("I Bask in Your Silent Awe")
    g.end_game()
    assert not g.obj("I Bask in Your Silent Awe").card.revealed


# ---- the Conspiracy draft (905) -------------------------------------------------------------------


def a_draft(pack: Sequence[str], drafted_face_up: Sequence[str] = (), other_pack: Sequence[str] = (),
            unopened: Sequence[str] = ()) -> Draft:
    labels = [*pack, *drafted_face_up, *other_pack, *unopened]
    d = Draft(["you", "opponent"], {label: CARDS[label] for label in labels},
              holding={"you": list(pack), "opponent": list(other_pack)}, unopened={"opponent": list(unopened)})
    for label in drafted_face_up:
        d.add_drafted("you", label, face_up=True)
    return d


def test_905_1a_a_drafted_card_goes_face_down_into_its_drafters_pool() -> None:
    d = a_draft(["Grizzly Bears"])
    d.draft("you", "Grizzly Bears")
    assert "Grizzly Bears" in d.pool and "Grizzly Bears" not in d.face_up and d.seen["Grizzly Bears"] == {"you"}


def test_905_draft_face_up_is_seen_by_everyone() -> None:
    d = a_draft(["Cogwork Grinder"])
    d.draft("you", "Cogwork Grinder")
    assert "Cogwork Grinder" in d.face_up and d.seen["Cogwork Grinder"] == {"you", "opponent"}


def test_905_archdemon_forces_random_picks_until_three_then_turns_face_down() -> None:
    d = a_draft(["Grizzly Bears", "Runeclaw Bear", "Icefeather Aven", "Ornithopter"], ["Archdemon of Paliano"])
    with pytest.raises(IllegalAction):
        d.draft("you", "Grizzly Bears")
    for label in ("Grizzly Bears", "Runeclaw Bear", "Icefeather Aven"):
        assert d.must_draft_at_random("you")
        d.draft("you", label, at_random=True)
    assert "Archdemon of Paliano" not in d.face_up
    d.draft("you", "Ornithopter")


@pytest.mark.parametrize("remover, face_up_after", [("Cogwork Grinder", False), ("Animus of Predation", True)])
def test_905_a_removed_card_is_still_drafted_and_not_in_the_pool(remover: str, face_up_after: bool) -> None:
    d = a_draft(["Illusionary Informant"], [remover])
    d.draft("you", "Illusionary Informant", remove_with=remover)
    assert d.drafted["you"][-1] == "Illusionary Informant" and "Illusionary Informant" not in d.pool
    assert ("Illusionary Informant" in d.face_up) is face_up_after
    with pytest.raises(IllegalAction):  # removed: it has no effect, face up or face down
        d.turn_face_down("you", "Illusionary Informant", look_at="opponent")


def test_905_informant_sees_only_the_next_card_drafted_after_it_turns_face_down() -> None:
    d = a_draft([], ["Illusionary Informant"], other_pack=["Grizzly Bears", "Runeclaw Bear"])
    d.draft("opponent", "Grizzly Bears")
    d.turn_face_down("you", "Illusionary Informant", look_at="opponent")
    d.draft("opponent", "Runeclaw Bear")
    assert "you" not in d.seen["Grizzly Bears"] and "you" in d.seen["Runeclaw Bear"]


def test_905_whispergear_looks_at_an_unopened_pack_only() -> None:
    d = a_draft([], ["Whispergear Sneak"], other_pack=["Grizzly Bears"])
    with pytest.raises(IllegalAction):  # being looked at by another player; and no unopened pack
        d.turn_face_down("you", "Whispergear Sneak", look_at="opponent")
    d = a_draft([], ["Whispergear Sneak"], unopened=["Runeclaw Bear"])
    d.turn_face_down("you", "Whispergear Sneak", look_at="opponent")
    assert d.seen["Runeclaw Bear"] == {"you"} and "opponent" in d.face_down_piles


def test_905_a_face_up_archdemon_removed_from_the_draft_has_no_effect() -> None:
    d = a_draft(["Archdemon of Paliano", "Grizzly Bears"], ["Animus of Predation"])
    d.draft("you", "Archdemon of Paliano", remove_with="Animus of Predation")
    assert "Archdemon of Paliano" in d.face_up and not d.must_draft_at_random("you")
    d.draft("you", "Grizzly Bears")


def test_905_a_card_revealed_as_drafted_is_revealed_then_removed() -> None:
    spy = card_from_data({"name": "Spy Card", "types": ["Creature"], "pt": "1/1", "draft": {"reveal": True}})
    d = Draft(["you", "opponent"], {"Spy Card": spy, "Cogwork Grinder": CARDS["Cogwork Grinder"]},
              holding={"you": ["Spy Card"]}, unopened={})
    d.add_drafted("you", "Cogwork Grinder", face_up=True)
    d.draft("you", "Spy Card", remove_with="Cogwork Grinder")
    assert "Spy Card" in d.revealed and d.seen["Spy Card"] == {"you", "opponent"} and "Spy Card" not in d.face_up


# ---- concepts added for the peer engine's face-down tests (bench/results/peer_engine_checks.md) ----

REALITY_SHIFT = card_from_data({
    "name": "Reality Shift", "mana_cost": "{1}{U}", "types": ["Instant"],
    "abilities": [{"effect": "exile", "target": "creature"}, {"effect": "manifest", "target": "creature"}],
})


def test_608_2h_its_controller_manifests_is_the_targets_controller_as_it_last_existed() -> None:
    """"Exile target creature. Its controller manifests": the exiled creature's controller (its
    last known information, 608.2h) manifests, not the spell's controller."""
    g = game()
    g.add_card("Reality Shift", REALITY_SHIFT, "you", Zone.HAND)
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.BATTLEFIELD)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.LIBRARY)
    g.add_card("Forest", CARDS["Forest"], "you", Zone.LIBRARY)
    g.cast("you", "Reality Shift", targets=["Grizzly Bears"])
    g.resolve()
    assert g.obj("Grizzly Bears").zone is Zone.EXILE
    bear = g.obj("Runeclaw Bear")
    assert bear.zone is Zone.BATTLEFIELD and bear.face_down and bear.controller == "opponent"
    assert g.obj("Forest").zone is Zone.LIBRARY


FOUNDRY_STREET_DENIZEN = card_from_data({
    "name": "Foundry Street Denizen", "mana_cost": "{R}", "colors": ["R"], "types": ["Creature"], "pt": "1/1",
    "abilities": [{"when": "another_creature_enters", "effect": "nothing",
                   "filter": {"colors": ["R"], "controller": "you"}}],
})
GORE_SWINE = card_from_data({"name": "Gore Swine", "mana_cost": "{2}{R}", "colors": ["R"], "types": ["Creature"],
                             "pt": "4/1"})


def test_603_2_trigger_condition_sees_a_face_down_creature_by_its_face_down_values() -> None:
    """"Whenever another red creature enters under your control": a manifested red creature card
    is a colourless 2/2 (708.2a), so it doesn't trigger; the same card entering face up does."""
    g = game()
    g.add_card("Foundry Street Denizen", FOUNDRY_STREET_DENIZEN, "you", Zone.BATTLEFIELD)
    g.add_card("Gore Swine", GORE_SWINE, "you", Zone.LIBRARY)
    g.manifest("you")
    assert g.stack == []
    g.move("Gore Swine", Zone.HAND)
    g.cast("you", "Gore Swine")
    g.resolve()
    assert [s.source_label for s in g.stack] == ["Foundry Street Denizen"]


def test_603_2_trigger_condition_controller_is_relative_to_the_ability() -> None:
    g = game()
    g.add_card("Foundry Street Denizen", FOUNDRY_STREET_DENIZEN, "you", Zone.BATTLEFIELD)
    g.add_card("Gore Swine", GORE_SWINE, "opponent", Zone.HAND)
    g.end_turn()  # the opponent's turn
    g.cast("opponent", "Gore Swine")
    g.resolve()
    assert g.stack == []


SOLDIER_OF_THE_PANTHEON = card_from_data({
    "name": "Soldier of the Pantheon", "mana_cost": "{W}", "colors": ["W"], "types": ["Creature"], "pt": "2/1",
    "abilities": [{"when": "spell_cast", "effect": "nothing", "filter": {"multicolored": True, "controller": "opponent"}}],
})


def test_601_2i_a_face_down_spell_is_cast_but_colourless() -> None:
    """"Whenever an opponent casts a multicolored spell": casting a face-down spell is casting a
    spell (601.2i), but the spell is colourless (708.2a); the same card cast face up triggers."""
    g = game(hand=["Abzan Guide"])
    g.add_card("Soldier of the Pantheon", SOLDIER_OF_THE_PANTHEON, "opponent", Zone.BATTLEFIELD)
    g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)
    assert [s for s in g.stack if not isinstance(s, int)] == []
    g.resolve()
    g.move("Abzan Guide", Zone.HAND)
    g.cast("you", "Abzan Guide")
    assert [s.source_label for s in g.stack if not isinstance(s, int)] == ["Soldier of the Pantheon"]


DISDAINFUL_STROKE = card_from_data({
    "name": "Disdainful Stroke", "mana_cost": "{1}{U}", "types": ["Instant"],
    "abilities": [{"effect": "counter", "target": "spell", "filter": {"min_mana_value": 4}}],
})


def test_601_2c_a_face_down_spell_has_mana_value_0_for_a_target_restriction() -> None:
    """"Counter target spell with mana value 4 or greater" can't target a face-down spell (mana
    value 0, 708.2a) whatever the card is; it can target the card cast face up."""
    g = game(hand=["Abzan Guide"])
    g.add_card("Disdainful Stroke", DISDAINFUL_STROKE, "opponent", Zone.HAND)
    g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)
    with pytest.raises(IllegalAction, match="601.2c"):
        g.cast("opponent", "Disdainful Stroke", targets=["Abzan Guide"])
    g.resolve()
    g.move("Abzan Guide", Zone.HAND)
    g.cast("you", "Abzan Guide")
    g.cast("opponent", "Disdainful Stroke", targets=["Abzan Guide"])
    g.resolve()
    assert g.obj("Abzan Guide").zone is Zone.GRAVEYARD


def test_708_2a_cant_cast_by_name_does_not_stop_a_face_down_spell() -> None:
    """"Can't cast spells with the same name as that creature" (Reflector Mage): the card cast
    face up is refused (101.2), cast face down it has no name and may be cast."""
    g = game(battlefield=["Rattleclaw Mystic"])
    assert g.forbid_casting_name("you", "Rattleclaw Mystic")
    g.move("Rattleclaw Mystic", Zone.HAND)
    with pytest.raises(IllegalAction, match="101.2"):
        g.cast("you", "Rattleclaw Mystic")
    g.cast("you", "Rattleclaw Mystic", face_down=FaceDownWay.MORPH)
    assert g.obj("Rattleclaw Mystic").zone is Zone.STACK


def test_708_2a_a_face_down_creature_names_nothing_to_forbid() -> None:
    g = game(hand=["Rattleclaw Mystic"])
    g.cast("you", "Rattleclaw Mystic", face_down=FaceDownWay.MORPH)
    g.resolve()
    assert not g.forbid_casting_name("you", "Rattleclaw Mystic")
    g.move("Rattleclaw Mystic", Zone.HAND)
    g.cast("you", "Rattleclaw Mystic")
    assert g.obj("Rattleclaw Mystic").zone is Zone.STACK


TRANQUIL_COVE = card_from_data({
    "name": "Tranquil Cove", "types": ["Land"],
    "abilities": [{"when": "as_enters", "effect": "tap"}, {"when": "enters", "effect": "gain_life", "count": 1}],
})


def test_614_1c_enters_tapped_and_etb_do_not_apply_to_a_manifested_land() -> None:
    """A manifested Tranquil Cove has no abilities as it enters (708.3): it enters untapped and its
    "enters" life gain doesn't trigger; put onto the battlefield face up, it enters tapped (614.1c)
    and its controller gains 1 life."""
    g = game()
    g.add_card("Tranquil Cove", TRANQUIL_COVE, "you", Zone.LIBRARY)
    g.manifest("you")
    cove = g.obj("Tranquil Cove")
    assert not cove.tapped and g.stack == []
    g.move("Tranquil Cove", Zone.HAND)
    g.put_onto_battlefield(["Tranquil Cove"])
    assert g.obj("Tranquil Cove").tapped
    g.resolve_all()
    assert g.players["you"].life == 21


THE_UR_DRAGON = card_from_data({
    "name": "The Ur-Dragon", "mana_cost": "{4}{W}{U}{B}{R}{G}", "types": ["Creature"], "subtypes": ["Dragon", "Avatar"],
    "pt": "10/10", "static": [{"affects": "you", "kind": "spell_cost", "value": -1, "filter": {"subtypes": ["Dragon"]}}],
})
QUICKSILVER_DRAGON = card_from_data({
    "name": "Quicksilver Dragon", "mana_cost": "{4}{U}{U}", "types": ["Creature"], "subtypes": ["Dragon"], "pt": "5/5",
    "morph": "{4}{U}",
})


def test_601_2f_a_cost_reduction_for_dragon_spells_does_not_see_a_face_down_dragon() -> None:
    """"Dragon spells you cast cost {1} less": a face-down Dragon spell has no creature types
    (708.2a), so it costs {3}; cast face up it costs {1} less."""
    g = game()
    g.add_card("The Ur-Dragon", THE_UR_DRAGON, "you", Zone.BATTLEFIELD)
    g.add_card("Quicksilver Dragon", QUICKSILVER_DRAGON, "you", Zone.HAND)
    assert g.cast("you", "Quicksilver Dragon", face_down=FaceDownWay.MORPH) == "{3}"
    g.resolve()
    g.move("Quicksilver Dragon", Zone.HAND)
    assert g.cast("you", "Quicksilver Dragon") == "{3}{U}{U}"


LINVALA = card_from_data({
    "name": "Linvala, Keeper of Silence", "mana_cost": "{2}{W}{W}", "types": ["Creature"], "pt": "3/4",
    "static": [{"affects": "creatures_opponents_control", "kind": "cant_activate"}],
})


def test_116_2b_turning_face_up_is_a_special_action_not_stopped_by_cant_activate() -> None:
    """"Activated abilities of creatures your opponents control can't be activated" (602.5) stops
    Smoke Teller's ability but not turning a face-down creature face up: a special action."""
    g = game(battlefield=["Smoke Teller"], hand=["Pine Walker"])
    g.add_card("Linvala, Keeper of Silence", LINVALA, "opponent", Zone.BATTLEFIELD)
    g.cast("you", "Pine Walker", face_down=FaceDownWay.MORPH)
    g.resolve()
    with pytest.raises(IllegalAction, match="602.5"):
        g.activate("you", "Smoke Teller", target="Pine Walker")
    assert g.turn_face_up("Pine Walker", TurnUpWay.MORPH) == "{4}{G}"
    assert not g.obj("Pine Walker").face_down


SWORDS_TO_PLOWSHARES = card_from_data({
    "name": "Swords to Plowshares", "mana_cost": "{W}", "types": ["Instant"],
    "abilities": [{"effect": "exile", "target": "creature"},
                  {"effect": "target_controller_gains_life_equal_to_power", "target": "creature"}],
})


def test_608_2h_life_equal_to_power_uses_the_face_down_creatures_last_known_power() -> None:
    """Swords to Plowshares on a face-down Pine Walker: it is exiled face up (a 5/5 card), but its
    controller gains life equal to its power as it last existed on the battlefield: 2."""
    g = game(hand=["Pine Walker"])
    g.add_card("Swords to Plowshares", SWORDS_TO_PLOWSHARES, "opponent", Zone.HAND)
    g.cast("you", "Pine Walker", face_down=FaceDownWay.MORPH)
    g.resolve()
    g.cast("opponent", "Swords to Plowshares", targets=["Pine Walker"])
    g.resolve()
    assert g.obj("Pine Walker").zone is Zone.EXILE and not g.obj("Pine Walker").face_down
    assert g.players["you"].life == 22 and g.players["opponent"].life == 20


FATAL_PUSH = card_from_data({
    "name": "Fatal Push", "mana_cost": "{B}", "types": ["Instant"],
    "abilities": [{"effect": "destroy", "target": "creature", "if_target": {"max_mana_value": 2}}],
})


def test_202_3a_a_face_down_creature_has_mana_value_0_for_an_if_condition() -> None:
    """"Destroy target creature if it has mana value 2 or less": true of a face-down Pine Walker
    (no mana cost, mana value 0), false of the face-up Pine Walker (5)."""
    g = game(hand=["Pine Walker"])
    g.add_card("Fatal Push", FATAL_PUSH, "opponent", Zone.HAND)
    g.cast("you", "Pine Walker")
    g.resolve()
    g.cast("opponent", "Fatal Push", targets=["Pine Walker"])
    g.resolve()
    assert g.obj("Pine Walker").zone is Zone.BATTLEFIELD
    g.turn_face_down("Pine Walker")
    g.move("Fatal Push", Zone.HAND)
    g.cast("opponent", "Fatal Push", targets=["Pine Walker"])
    g.resolve()
    assert g.obj("Pine Walker").zone is Zone.GRAVEYARD


def test_305_1_a_land_with_morph_is_played_face_up_or_cast_face_down() -> None:
    """Zoetic Cavern: playing it is the land special action (once a turn, 305.2) and it enters face
    up; casting it face down is casting a spell (702.37c), allowed after the turn's land play."""
    g = game(hand=["Zoetic Cavern", "Forest"])
    land = g.play_land("you", "Forest")
    assert land.zone is Zone.BATTLEFIELD and g.players["you"].land_played
    with pytest.raises(IllegalAction, match="305.2"):
        g.play_land("you", "Zoetic Cavern")
    g.cast("you", "Zoetic Cavern", face_down=FaceDownWay.MORPH)
    g.resolve()
    assert g.obj("Zoetic Cavern").face_down
    g.add_card("Their Forest", CARDS["Forest"], "opponent", Zone.HAND)
    with pytest.raises(IllegalAction, match="305.1"):
        g.play_land("opponent", "Their Forest")  # not their turn


TAPPED_LAND = card_from_data({
    "name": "Tranquil Cove", "types": ["Land"],
    "abilities": [{"when": "as_enters", "effect": "tap"}],
})


def test_305_1_a_land_is_played_only_with_an_empty_stack() -> None:
    g = game(hand=["Forest", "Pine Walker"])
    g.cast("you", "Pine Walker", face_down=FaceDownWay.MORPH)
    with pytest.raises(IllegalAction, match="305.1"):
        g.play_land("you", "Forest")


def test_305_1_a_land_played_from_exile_is_played_as_one_from_hand() -> None:
    """An effect lets its owner play an exiled land: the same special action, so it enters tapped
    when it says so (614.1c) and uses the turn's land play (305.2)."""
    g = game(exile=["Forest"])
    g.add_card("Tranquil Cove", TAPPED_LAND, "you", Zone.EXILE)
    for label in ("Tranquil Cove", "Forest"):
        g.obj(label).playable = True
    g.play_from_exile("you", "Tranquil Cove")
    assert g.obj("Tranquil Cove").zone is Zone.BATTLEFIELD and g.obj("Tranquil Cove").tapped
    with pytest.raises(IllegalAction, match="305.2"):
        g.play_from_exile("you", "Forest")


PONYBACK_BRIGADE = card_from_data({
    "name": "Ponyback Brigade", "mana_cost": "{3}{R}{W}{B}", "types": ["Creature"], "pt": "2/2", "morph": "{2}{R}{W}{B}",
    "abilities": [{"when": "turned_face_up", "effect": "create_tokens", "count": 3,
                   "token": {"name": "Goblin", "colors": ["R"], "types": ["Creature"], "subtypes": ["Goblin"], "pt": "1/1"}}],
})


def test_111_1_tokens_created_later_are_not_in_an_earlier_effects_set() -> None:
    """A face-down Ponyback Brigade gets -1/-1 until end of turn, is turned face up (still -1/-1:
    the same object, 708.8) and creates three 1/1 Goblin tokens (111.1): the earlier effect's set
    of affected objects was fixed as it began (611.2c), so they stay 1/1."""
    g = game()
    g.add_card("Ponyback Brigade", PONYBACK_BRIGADE, "you", Zone.HAND)
    g.cast("you", "Ponyback Brigade", face_down=FaceDownWay.MORPH)
    g.resolve()
    g.add_effect("Ponyback Brigade", ContinuousKind.MODIFY_PT, (-1, -1), until_end_of_turn=True)
    g.turn_face_up("Ponyback Brigade", TurnUpWay.MORPH)
    g.resolve_all()
    tokens = g.tokens("you")
    assert [(g.characteristics(t).name, g.characteristics(t).power, g.characteristics(t).toughness) for t in tokens] == [
        ("Goblin", 1, 1)] * 3
    assert all(t.card.token and t.card.owner == "you" for t in tokens)
    assert g.characteristics(g.obj("Ponyback Brigade")).power == 1


SUPPLANT_FORM = card_from_data({
    "name": "Supplant Form", "mana_cost": "{4}{U}{U}", "types": ["Instant"],
    "abilities": [{"effect": "bounce", "target": "creature"}, {"effect": "create_token_copy", "target": "creature"}],
})


def test_707_2_a_token_copy_of_a_face_down_creature_is_a_face_up_nameless_2_2() -> None:
    g = game(hand=["Akroma, Angel of Fury"])
    g.add_card("Supplant Form", SUPPLANT_FORM, "opponent", Zone.HAND)
    g.cast("you", "Akroma, Angel of Fury", face_down=FaceDownWay.MORPH)
    g.resolve()
    g.cast("opponent", "Supplant Form", targets=["Akroma, Angel of Fury"])
    g.resolve()
    assert g.obj("Akroma, Angel of Fury").zone is Zone.HAND
    (token,) = g.tokens("opponent")
    ch = g.characteristics(token)
    assert not token.face_down and (ch.name, ch.power, ch.toughness, ch.keywords) == (None, 2, 2, ())


PURPHOROS = card_from_data({
    "name": "Purphoros, God of the Forge", "mana_cost": "{3}{R}", "types": ["Enchantment", "Creature"], "pt": "6/5",
    "static": [{"affects": "self", "kind": "remove_types", "value": ["Creature"],
                "while_devotion_below": {"color": "R", "count": 5}}],
})
EIDOLON = card_from_data({"name": "Eidolon of the Great Revel", "mana_cost": "{R}{R}", "types": ["Enchantment", "Creature"],
                          "pt": "2/2"})


def test_700_5_a_face_down_permanent_adds_nothing_to_devotion() -> None:
    """Purphoros ({3}{R}) isn't a creature while your devotion to red is below five: with Eidolon
    ({R}{R}) and a face-up Ashcloud Phoenix ({2}{R}{R}) it is 5, a creature; once the Phoenix is
    face down (no mana cost, 708.2a) it is 3, and Purphoros isn't a creature."""
    g = game(battlefield=["Ashcloud Phoenix"])
    g.add_card("Purphoros, God of the Forge", PURPHOROS, "you", Zone.BATTLEFIELD)
    g.add_card("Eidolon of the Great Revel", EIDOLON, "you", Zone.BATTLEFIELD)
    assert g.devotion("you", "R") == 5 and g.is_creature(g.obj("Purphoros, God of the Forge"))
    g.turn_face_down("Ashcloud Phoenix")
    assert g.devotion("you", "R") == 3 and not g.is_creature(g.obj("Purphoros, God of the Forge"))
    assert g.characteristics(g.obj("Purphoros, God of the Forge")).types == {"Enchantment"}


BOLT = card_from_data({"name": "Lightning Bolt", "mana_cost": "{R}", "types": ["Instant"],
                       "abilities": [{"effect": "damage", "count": 3, "target": "creature"}]})


def test_307_1_a_face_down_spell_is_cast_only_when_a_creature_spell_could_be() -> None:
    """Casting a card face down is casting a 2/2 creature spell (702.37c): only in its controller's
    main phase with an empty stack (307.1), so not on an opponent's turn (the turn passed, 500.1)
    and not in response; an instant may be cast then."""
    g = game(hand=["Willbender", "Abzan Guide"], battlefield=["Grizzly Bears"])
    g.add_card("Lightning Bolt", BOLT, "you", Zone.HAND)
    g.end_turn()
    assert g.active == "opponent"
    with pytest.raises(IllegalAction, match="307.1"):
        g.cast("you", "Willbender", face_down=FaceDownWay.MORPH)
    g.end_turn()
    g.cast("you", "Willbender", face_down=FaceDownWay.MORPH)
    with pytest.raises(IllegalAction, match="307.1"):
        g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)  # the stack isn't empty
    g.cast("you", "Lightning Bolt", targets=["Grizzly Bears"])  # 601.2c: a targeted spell has its target
    assert len(g.stack) == 2


@pytest.mark.parametrize("zone", [Zone.EXILE, Zone.LIBRARY])
def test_307_1_a_sorcery_an_effect_lets_you_cast_keeps_its_timing(zone: Zone) -> None:
    """An effect that lets you cast a card from exile or from the top of your library (Future Sight)
    says where from, not when: a sorcery still waits for your main phase and an empty stack."""
    g = game(hand=["Willbender"], **{zone.value: ["Divination"]})
    g.end_turn()
    g.obj("Divination").playable = True  # on the opponent's turn
    with pytest.raises(IllegalAction, match="307.1"):
        g.cast("you", "Divination")
    g.end_turn()
    g.obj("Divination").playable = True
    g.cast("you", "Willbender", face_down=FaceDownWay.MORPH)
    with pytest.raises(IllegalAction, match="307.1"):
        g.cast("you", "Divination")  # the stack isn't empty


SMOTHERING_ABOMINATION = card_from_data({
    "name": "Smothering Abomination", "mana_cost": "{2}{B}{B}", "types": ["Creature"], "pt": "4/3",
    "abilities": [{"when": "you_sacrifice_creature", "effect": "draw"}],
})
NANTUKO_HUSK = card_from_data({
    "name": "Nantuko Husk", "mana_cost": "{2}{B}", "types": ["Creature"], "pt": "2/2",
    "abilities": [{"effect": "pump", "count": 2, "cost": "sacrifice a creature"}],
})


def test_603_10a_a_sacrificed_face_down_creature_has_no_sacrifice_trigger() -> None:
    """"Whenever you sacrifice a creature, draw a card" looks back at the sacrificed creature as it
    last existed (603.10a): sacrificed face down (no abilities) it draws nothing; face up it does."""
    g = game(library=["Forest", "Grizzly Bears"])
    g.add_card("Nantuko Husk", NANTUKO_HUSK, "you", Zone.BATTLEFIELD)
    g.add_card("Smothering Abomination", SMOTHERING_ABOMINATION, "you", Zone.BATTLEFIELD)
    g.turn_face_down("Smothering Abomination")
    g.activate("you", "Nantuko Husk", target="Smothering Abomination")
    g.resolve_all()
    assert g.obj("Forest").zone is Zone.LIBRARY and g.characteristics(g.obj("Nantuko Husk")).power == 4
    g.return_to_battlefield("Smothering Abomination")  # face up this time
    g.activate("you", "Nantuko Husk", target="Smothering Abomination")
    g.resolve_all()
    assert g.obj("Forest").zone is Zone.HAND and g.characteristics(g.obj("Nantuko Husk")).power == 6


KOLAGHAN = card_from_data({
    "name": "Dragonlord Kolaghan", "mana_cost": "{4}{B}{R}", "types": ["Creature"], "pt": "6/5",
    "abilities": [{"when": "spell_cast", "target": "spell", "effect": "controller_loses_life", "count": 10,
                   "filter": {"types": ["Creature"], "controller": "opponent", "named_as_card_in_own_graveyard": True}}],
})


def test_201_2_a_face_down_spell_has_no_name_to_share_with_a_card_in_a_graveyard() -> None:
    """Dragonlord Kolaghan: "an opponent casts a creature spell with the same name as a card in
    their graveyard" loses 10 life. Akroma cast face down has no name (708.2a): nothing; cast face
    up, its name is that of the Akroma in the graveyard: 10 life."""
    g = game(hand=["Akroma, Angel of Fury"])
    g.add_card("Other Akroma", CARDS["Akroma, Angel of Fury"], "you", Zone.GRAVEYARD)
    g.add_card("Dragonlord Kolaghan", KOLAGHAN, "opponent", Zone.BATTLEFIELD)
    g.cast("you", "Akroma, Angel of Fury", face_down=FaceDownWay.MORPH)
    assert len(g.stack) == 1
    g.resolve()
    g.move("Akroma, Angel of Fury", Zone.HAND)
    g.cast("you", "Akroma, Angel of Fury")
    g.resolve_all()
    assert g.players["you"].life == 10


MURAGANDA = card_from_data({
    "name": "Muraganda Petroglyphs", "mana_cost": "{3}{G}", "types": ["Enchantment"],
    "static": [{"affects": "creatures", "kind": "modify_pt", "value": "+2/+2", "filter": {"no_abilities": True}}],
})
MASS_HYSTERIA = card_from_data({
    "name": "Mass Hysteria", "mana_cost": "{R}", "types": ["Enchantment"],
    "static": [{"affects": "creatures", "kind": "add_keywords", "value": ["haste"]}],
})


def test_613_1_creatures_with_no_abilities_is_read_after_abilities_are_granted() -> None:
    """Muraganda Petroglyphs: "creatures with no abilities get +2/+2". A face-down creature has no
    abilities (708.2a): 4/4; Pine Walker face up has one: 5/5. Once Mass Hysteria gives every
    creature haste (layer 6, before the +2/+2 of layer 7c), the face-down creature has an ability."""
    g = game(hand=["Pine Walker", "Grizzly Bears"])
    g.add_card("Muraganda Petroglyphs", MURAGANDA, "you", Zone.BATTLEFIELD)
    g.cast("you", "Pine Walker", face_down=FaceDownWay.MORPH)
    g.resolve()
    walker = g.obj("Pine Walker")
    assert (g.characteristics(walker).power, g.characteristics(walker).toughness) == (4, 4)
    g.add_card("Mass Hysteria", MASS_HYSTERIA, "you", Zone.BATTLEFIELD)
    ch = g.characteristics(walker)
    assert (ch.power, ch.keywords) == (2, ("haste",))
    g.turn_face_up("Pine Walker", TurnUpWay.MORPH)
    assert g.characteristics(g.obj("Pine Walker")).power == 5


@pytest.mark.parametrize("creature", [
    # its one ability is a static ability
    {"name": "Aether Mystic", "types": ["Creature"], "pt": "1/1",
     "static": [{"affects": "you", "kind": "face_down_spell_cost", "value": -1}]},
    # face up, morph is an ability too (702.37a)
    {"name": "Morph Drake", "types": ["Creature"], "pt": "1/1", "morph": "{1}"},
])
def test_613_1_a_static_ability_or_morph_is_an_ability_for_creatures_with_no_abilities(creature: dict) -> None:
    """Muraganda Petroglyphs gives nothing to a creature whose only ability is a static one or morph."""
    g = game()
    g.add_card("Muraganda Petroglyphs", MURAGANDA, "you", Zone.BATTLEFIELD)
    g.add_card(creature["name"], card_from_data(creature), "you", Zone.BATTLEFIELD)
    assert g.characteristics(g.obj(creature["name"])).power == 1


ENDLESS_WHISPERS = card_from_data({
    "name": "Endless Whispers", "mana_cost": "{2}{B}{B}", "types": ["Enchantment"],
    "static": [{"affects": "creatures", "kind": "add_abilities",
                "value": [{"when": "dies", "effect": "opponent_returns_self_at_next_end_step"}]}],
})


def test_603_7_a_granted_dies_ability_of_a_face_down_creature_returns_it_at_the_next_end_step() -> None:
    """Endless Whispers gives each creature, face-down ones too, "when this dies, target opponent
    puts this card onto the battlefield under their control at the beginning of the next end step":
    a delayed trigger (603.7) that returns the card face up under the opponent's control."""
    g = game(hand=["Pine Walker"])
    g.add_card("Endless Whispers", ENDLESS_WHISPERS, "you", Zone.BATTLEFIELD)
    g.cast("you", "Pine Walker", face_down=FaceDownWay.MORPH)
    g.resolve()
    g.move("Pine Walker", Zone.GRAVEYARD)
    g.resolve_all()
    assert g.obj("Pine Walker").zone is Zone.GRAVEYARD
    g.end_step()
    g.resolve_all()
    walker = g.obj("Pine Walker")
    assert walker.zone is Zone.BATTLEFIELD and walker.controller == "opponent" and not walker.face_down
    g.end_step()
    assert g.stack == []  # it triggered once (603.7b)


def test_603_3_a_trigger_from_paying_a_sacrifice_cost_goes_above_the_ability() -> None:
    """The sacrifice is paid while activating (602.2); its dies trigger is put on the stack the
    next time a player would receive priority (603.3), so on top of the activated ability."""
    martyr = card_from_data({"name": "Martyr", "types": ["Creature"], "pt": "1/1",
                             "abilities": [{"effect": "nothing", "cost": "sacrifice", "text": "martyr: sacrificed"},
                                           {"when": "dies", "effect": "nothing", "text": "martyr: died"}]})
    g = game()
    g.add_card("Martyr", martyr, "you", Zone.BATTLEFIELD)
    g.activate("you", "Martyr")
    assert [item.description for item in g.stack if not isinstance(item, int)] == ["martyr: sacrificed", "martyr: died"]


# ---- tryout22: general rules the face-down scenarios lean on ------------------------------------

UNCOUNTERABLE_BOLT = card(name="Uncounterable Bolt", mana_cost="{R}", types=["Instant"], keywords=["can't be countered"],
                          abilities=[{"effect": "damage", "count": 3, "target": "creature"}])


def test_101_2_ward_does_not_counter_a_spell_that_cant_be_countered() -> None:
    """702.21a's "counter that spell unless ..." is an effect; "can't be countered" wins (101.2)."""
    g = Game(["opponent", "you"])
    on_battlefield(g, "Walker", CARDS["Dog Walker"], face_down="disguise")
    g.add_card("Bolt", UNCOUNTERABLE_BOLT, "opponent", Zone.HAND)
    g.cast("opponent", "Bolt", targets=["Walker"])
    g.resolve(pay=False)  # the ward trigger: its cost unpaid
    assert g.obj("Bolt").zone is Zone.STACK
    g.resolve()
    g.check_state_based_actions()
    assert g.obj("Walker").zone is Zone.GRAVEYARD and g.cards["Walker"].revealed


def test_101_2_a_counterspell_does_not_counter_a_spell_that_cant_be_countered() -> None:
    cancel = card(name="Cancel", mana_cost="{1}{U}{U}", types=["Instant"], abilities=[{"effect": "counter", "target": "spell"}])
    g = Game(["you", "opponent"])
    on_battlefield(g, "Bears", CARDS["Grizzly Bears"], player="opponent")
    g.add_card("Bolt", UNCOUNTERABLE_BOLT, "you", Zone.HAND)
    g.add_card("Cancel", cancel, "opponent", Zone.HAND)
    g.cast("you", "Bolt", targets=["Bears"])
    g.cast("opponent", "Cancel", targets=["Bolt"])
    g.resolve()
    assert g.obj("Bolt").zone is Zone.STACK and g.obj("Cancel").zone is Zone.GRAVEYARD


def test_708_9_a_face_down_permanent_revealed_as_it_leaves_is_known_to_all_in_its_new_zone() -> None:
    """Revealed as it moves (708.9), the card in its owner's hand is one every player knows, as a
    manifested instant revealed in place is (701.40g); cast face down again, it is a new object
    (400.7) that only its controller may look at."""
    g = game(hand=["Abzan Guide"])
    g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)
    g.resolve()
    assert not g.knows_identity("opponent", g.obj("Abzan Guide"))
    g.move("Abzan Guide", Zone.HAND)
    assert g.knows_identity("opponent", g.obj("Abzan Guide")) and not g.can_see("opponent", g.obj("Abzan Guide"))
    g.cast("you", "Abzan Guide", face_down=FaceDownWay.MORPH)
    assert not g.knows_identity("opponent", g.obj("Abzan Guide"))


def test_701_40g_a_manifested_instant_revealed_in_place_is_known_to_all() -> None:
    g = manifested("Sudden Shock")
    assert not g.knows_identity("opponent", g.obj("Sudden Shock"))
    assert g.effect_turns_face_up("Sudden Shock") is False
    shock = g.obj("Sudden Shock")
    assert shock.face_down and g.knows_identity("opponent", shock) and not g.can_see("opponent", shock)


@pytest.mark.parametrize("players, revealed", [(["you", "opponent"], True), (["you", "opponent", "third"], False)])
def test_104_2a_the_last_player_left_wins_and_the_game_ends_revealing_all_face_down(
    players: list[str], revealed: bool
) -> None:
    """104.2a: with two players, leaving ends the game, so 708.9 reveals the other player's
    face-down permanents too; with three, the game goes on and they stay hidden."""
    g = Game(players)
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "you", Zone.LIBRARY)
    g.add_card("Runeclaw Bear", CARDS["Runeclaw Bear"], "opponent", Zone.LIBRARY)
    g.manifest("you")
    g.manifest("opponent")
    g.leave_game("you")
    assert g.cards["Grizzly Bears"].revealed
    assert g.cards["Runeclaw Bear"].revealed is revealed
    assert g.obj("Runeclaw Bear").zone is Zone.BATTLEFIELD


def combat(attacker: str = "Abzan Guide", *, face_down: str | None = None, blockers: Sequence[str] = ()) -> Game:
    """`you` attack with `attacker`; the opponent blocks with `blockers` (corpus cards, face up)."""
    g = Game(["you", "opponent"])
    on_battlefield(g, attacker, CARDS[attacker], face_down=face_down)
    for name in blockers:
        on_battlefield(g, name, CARDS[name], player="opponent")
    g.attack(attacker)
    for name in blockers:
        g.block(name, attacker)
    return g


def test_510_1b_an_unblocked_attacker_damages_the_player_it_attacks_by_default() -> None:
    g = combat("Grizzly Bears")
    g.combat_damage("Grizzly Bears")
    assert g.players["opponent"].life == 18
    assert ("combat_damage_to_player", "Grizzly Bears") in g.events


def test_510_1c_a_blocked_attacker_and_its_blocker_deal_damage_to_each_other_at_once() -> None:
    """510.1c/d, 510.2: the 4/4 lifelinker blocked by a 2/2 is dealt 2, the 2/2 is dealt 4 and
    dies; nothing reaches the player; lifelink gains 4 (702.15b)."""
    g = combat("Abzan Guide", blockers=["Grizzly Bears"])
    g.combat_damage("Abzan Guide")
    assert (g.obj("Abzan Guide").damage, g.obj("Grizzly Bears").damage) == (2, 4)
    assert (g.players["you"].life, g.players["opponent"].life) == (24, 20)
    g.check_state_based_actions()
    assert g.obj("Grizzly Bears").zone is Zone.GRAVEYARD and g.obj("Abzan Guide").zone is Zone.BATTLEFIELD


def test_510_1c_several_blockers_get_lethal_damage_in_the_order_declared_the_rest_to_the_last() -> None:
    g = combat("Abzan Guide", blockers=["Grizzly Bears", "Runeclaw Bear"])
    g.obj("Grizzly Bears").damage = 1  # lethal damage is now 1 (120.6)
    g.combat_damage("Abzan Guide")
    assert (g.obj("Grizzly Bears").damage, g.obj("Runeclaw Bear").damage) == (2, 3)
    assert g.obj("Abzan Guide").damage == 4


def test_510_1c_a_blocked_attacker_whose_blocker_left_deals_no_combat_damage() -> None:
    g = combat("Grizzly Bears", blockers=["Runeclaw Bear"])
    g.move("Runeclaw Bear", Zone.HAND)
    g.combat_damage("Grizzly Bears")
    assert g.players["opponent"].life == 20 and g.obj("Grizzly Bears").damage == 0


@pytest.mark.parametrize("turned_up_first, life", [(False, 20), (True, 24)])
def test_702_15b_lifelink_works_only_on_a_face_up_creature(turned_up_first: bool, life: int) -> None:
    """708.2: the face-down Abzan Guide has no lifelink; turned face up before damage it has."""
    g = combat("Abzan Guide", face_down="morph")
    if turned_up_first:
        g.effect_turns_face_up("Abzan Guide")
    g.combat_damage("Abzan Guide")
    power = 4 if turned_up_first else 2
    assert (g.players["you"].life, g.players["opponent"].life) == (life, 20 - power)


def test_702_15b_lifelink_on_noncombat_damage_from_an_ability() -> None:
    pinger = card(name="Lifelink Pinger", types=["Creature"], pt="1/1", keywords=["lifelink"],
                  abilities=[{"cost": "{T}", "effect": "damage", "count": 1, "target": "creature"}])
    g = Game(["you", "opponent"])
    on_battlefield(g, "Pinger", pinger)
    on_battlefield(g, "Grizzly Bears", CARDS["Grizzly Bears"], player="opponent")
    g.activate("you", "Pinger", target="Grizzly Bears")
    g.resolve()
    assert g.obj("Grizzly Bears").damage == 1 and g.players["you"].life == 21


@pytest.mark.parametrize("kwargs, blockers, refusal", [
    ({}, None, "not an attacking creature"),
    ({"to_player": True}, ["Runeclaw Bear"], "is blocked"),
    ({"blockers": 2}, ["Runeclaw Bear"], "blocked by 1 creature"),
])
def test_510_combat_damage_refuses_an_assignment_the_rules_do_not_allow(kwargs, blockers, refusal) -> None:
    g = combat("Grizzly Bears", blockers=blockers or ())
    if blockers is None:
        on_battlefield(g, "Idle", CARDS["Runeclaw Bear"])
    label = "Idle" if blockers is None else "Grizzly Bears"
    with pytest.raises(IllegalAction, match=refusal):
        g.combat_damage(label, **kwargs)


def test_702_19b_a_blocked_trampler_assigns_lethal_to_its_blocker_and_the_rest_to_the_player() -> None:
    """Review of session 36: `to_player` on any blocked attacker was refused, so a turned-up trampler
    could not be checked. With trample, lethal damage to each blocker and the rest to the player;
    without `to_player` all of it to the blocker (its controller's choice, 702.19b)."""
    trampler = card(name="Trampler", types=["Creature"], pt="6/6", keywords=["trample"], morph="{3}")

    def blocked(face_down: str | None = None) -> Game:
        g = Game(["you", "opponent"])
        on_battlefield(g, "Trampler", trampler, face_down=face_down)
        on_battlefield(g, "Grizzly Bears", CARDS["Grizzly Bears"], player="opponent")
        g.attack("Trampler")
        g.block("Grizzly Bears", "Trampler")
        return g

    g = blocked()
    g.combat_damage("Trampler", to_player=True)
    assert (g.obj("Grizzly Bears").damage, g.players["opponent"].life) == (2, 16)
    g = blocked()
    g.combat_damage("Trampler")
    assert (g.obj("Grizzly Bears").damage, g.players["opponent"].life) == (6, 20)
    g = blocked(face_down="morph")  # 708.2: a face-down creature has no trample
    with pytest.raises(IllegalAction, match="is blocked"):
        g.combat_damage("Trampler", to_player=True)


KADENA = card_from_data({
    "name": "Kadena, Slinking Sorcerer", "mana_cost": "{1}{B}{G}{U}", "types": ["Creature"], "pt": "3/3",
    "static": [{"affects": "you", "kind": "face_down_spell_cost", "value": -3, "first_each_turn": True}],
    "abilities": [{"when": "permanent_enters", "effect": "draw", "count": 1,
                   "filter": {"types": ["Creature"], "controller": "you", "face_down": True}}],
})


def test_601_2f_the_first_face_down_spell_each_turn_costs_less_once_a_turn() -> None:
    """"The first face-down creature spell you cast each turn costs {3} less": a face-up creature
    spell cast first doesn't use it up; the first face-down spell costs {0}, the next that turn {3};
    on your next turn the first costs {0} again."""
    g = game(hand=["Grizzly Bears"])
    g.add_card("Kadena, Slinking Sorcerer", KADENA, "you", Zone.BATTLEFIELD)
    for label in ("First", "Second", "Third"):
        g.add_card(label, CARDS["Willbender"], "you", Zone.HAND)
    assert g.cast("you", "Grizzly Bears") == "{1}{G}"
    g.resolve()
    assert g.cast("you", "First", face_down=FaceDownWay.MORPH) == "{0}"
    g.resolve_all()
    assert g.cast("you", "Second", face_down=FaceDownWay.MORPH) == "{3}"
    g.resolve_all()
    g.end_turn()
    g.end_turn()
    assert g.cast("you", "Third", face_down=FaceDownWay.MORPH) == "{0}"


def test_603_2_a_trigger_on_a_face_down_creature_entering_ignores_a_face_up_one() -> None:
    """"Whenever a face-down creature enters the battlefield under your control": being face down
    is a status (110.5), not a characteristic; a face-up creature entering doesn't trigger it, a
    face-down one does."""
    g = game(hand=["Grizzly Bears", "Willbender"], library=["Forest"])
    g.add_card("Kadena, Slinking Sorcerer", KADENA, "you", Zone.BATTLEFIELD)
    g.cast("you", "Grizzly Bears")
    g.resolve()
    assert not g.stack
    g.cast("you", "Willbender", face_down=FaceDownWay.MORPH)
    g.resolve()
    assert len(g.stack) == 1
    g.resolve()
    assert g.obj("Forest").zone is Zone.HAND


THIEVING_AMALGAM = card_from_data({
    "name": "Thieving Amalgam", "mana_cost": "{5}{B}{B}", "types": ["Creature"], "pt": "6/7",
    "abilities": [{"when": "opponent_upkeep", "effect": "manifest_from_that_players_library"}],
})


def test_701_40a_you_manifest_the_top_card_of_that_players_library() -> None:
    """"At the beginning of each opponent's upkeep, you manifest the top card of that player's
    library": not at your upkeep; at theirs, their top card enters face down under your control,
    and they still own it (108.3)."""
    g = game(library=["Forest"])
    g.add_card("Thieving Amalgam", THIEVING_AMALGAM, "you", Zone.BATTLEFIELD)
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.LIBRARY)
    g.upkeep()
    assert not g.stack
    g.end_turn()
    g.upkeep()
    g.resolve()
    bears = g.obj("Grizzly Bears")
    assert (bears.zone, bears.face_down, bears.controller, bears.card.owner) == (
        Zone.BATTLEFIELD, True, "you", "opponent")
    assert g.obj("Forest").zone is Zone.LIBRARY


MAGAR = card_from_data({
    "name": "Magar of the Magic Strings", "mana_cost": "{1}{B}{R}", "types": ["Creature"], "pt": "3/3",
    "abilities": [{"effect": "put_onto_battlefield_face_down_as", "cost": "{1}{B}{R}",
                   "target": "instant_or_sorcery_card_in_your_graveyard",
                   "face_down_as": {"types": ["Creature"], "pt": "3/3",
                                    "static": [{"affects": "self", "kind": "exile_instead_of_leaving"}]}}],
})


def test_708_2a_a_card_put_onto_the_battlefield_face_down_has_the_values_the_effect_gives() -> None:
    """Magar: "put target instant or sorcery card in your graveyard onto the battlefield face down.
    It's a 3/3 creature": a nameless colourless 3/3 (708.2a); only an instant or sorcery card of
    your own graveyard can be the target (a creature card or another player's card can't)."""
    g = game(graveyard=["Grizzly Bears"])
    g.add_card("Magar of the Magic Strings", MAGAR, "you", Zone.BATTLEFIELD)
    g.add_card("Lightning Bolt", BOLT, "you", Zone.GRAVEYARD)
    g.add_card("Their Bolt", BOLT, "opponent", Zone.GRAVEYARD)
    for wrong in ("Grizzly Bears", "Their Bolt"):
        with pytest.raises(IllegalAction, match="not a legal target"):
            g.activate("you", "Magar of the Magic Strings", target=wrong)
    g.activate("you", "Magar of the Magic Strings", target="Lightning Bolt")
    g.resolve()
    bolt = g.obj("Lightning Bolt")
    ch = g.characteristics(bolt)
    assert (bolt.zone, bolt.face_down, ch.name, ch.power, ch.toughness, ch.colors) == (
        Zone.BATTLEFIELD, True, None, 3, 3, frozenset())


@pytest.mark.parametrize("to", [Zone.GRAVEYARD, Zone.HAND, Zone.LIBRARY])
def test_614_1a_exile_it_instead_of_putting_it_anywhere_else(to: Zone) -> None:
    """"If this creature would leave the battlefield, exile it instead of putting it anywhere
    else": destroyed, bounced or put into the library, the face-down Lightning Bolt is exiled,
    revealed (708.9)."""
    g = game()
    g.add_card("Magar of the Magic Strings", MAGAR, "you", Zone.BATTLEFIELD)
    g.add_card("Lightning Bolt", BOLT, "you", Zone.GRAVEYARD)
    g.activate("you", "Magar of the Magic Strings", target="Lightning Bolt")
    g.resolve()
    g.move("Lightning Bolt", to)
    bolt = g.obj("Lightning Bolt")
    assert (bolt.zone, bolt.face_down) == (Zone.EXILE, False)


ANY_BOLT = card_from_data({"name": "Any Bolt", "mana_cost": "{R}", "types": ["Instant"],
                           "abilities": [{"effect": "damage", "count": 3, "target": "any"}]})
FIREBALL = card_from_data({"name": "Fireball", "mana_cost": "{X}{R}", "types": ["Sorcery"],
                           "abilities": [{"effect": "damage", "count": "X", "target": "any"}]})
CHARM = card_from_data({"name": "Test Charm", "mana_cost": "{W}", "types": ["Instant"],
                        "abilities": [{"mode": 1, "effect": "gain_life", "count": 2},
                                      {"mode": 2, "effect": "tap", "target": "creature"},
                                      {"mode": 3, "effect": "nothing", "target": "any"}]})
SORCERY_BOLT = card_from_data({"name": "Sorcery Bolt", "mana_cost": "{R}", "types": ["Sorcery"],
                               "abilities": [{"effect": "damage", "count": 3, "target": "any"}]})
WALKER = card_from_data({"name": "Test Walker", "mana_cost": "{2}", "types": ["Planeswalker"]})
ROCK = card_from_data({"name": "Test Rock", "mana_cost": "{2}", "types": ["Artifact"]})


def test_115_4_any_target_is_a_creature_player_planeswalker_or_battle() -> None:
    """"Any target": a creature, a player, a planeswalker or a battle (115.4, CR 2026-01-16), no
    other object (a noncreature artifact); a spell that may target only a creature can't target a
    player (115.1). Damage to a player makes them lose that much life (120.3a)."""
    g = game(battlefield=["Grizzly Bears"])
    g.add_card("Any Bolt", ANY_BOLT, "you", Zone.HAND)
    g.add_card("Test Walker", WALKER, "opponent", Zone.BATTLEFIELD)
    g.add_card("Test Rock", ROCK, "opponent", Zone.BATTLEFIELD)
    g.add_card("Lightning Bolt", BOLT, "you", Zone.HAND)
    assert [g.is_legal_target(TargetKind.ANY, g.obj(n), "you") for n in ("Grizzly Bears", "Test Walker", "Test Rock")] \
        == [True, True, False]
    with pytest.raises(IllegalAction, match="not a legal target"):
        g.cast("you", "Any Bolt", targets=["Test Rock"])
    with pytest.raises(IllegalAction, match="115.1"):
        g.cast("you", "Lightning Bolt", targets=["opponent"])  # "target creature"
    g.cast("you", "Any Bolt", targets=["opponent"])
    g.resolve()
    assert (g.players["opponent"].life, g.players["you"].life) == (17, 20)
    assert g.obj("Any Bolt").zone is Zone.GRAVEYARD


def test_601_2c_one_any_target_is_one_target() -> None:
    """"3 damage to any target" takes one target: a second one (another player, the same player again, a
    creature and a player) is refused as it is cast (601.2c), not dealt damage as well (review46 #2)."""
    g = game(battlefield=["Grizzly Bears"])
    g.add_card("Any Bolt", ANY_BOLT, "you", Zone.HAND)
    for targets in (["opponent", "you"], ["opponent", "opponent"], ["Grizzly Bears", "opponent"]):
        with pytest.raises(IllegalAction, match="601.2c"):
            g.cast("you", "Any Bolt", targets=targets)
    assert not g.stack and g.obj("Any Bolt").zone is Zone.HAND
    g.cast("you", "Any Bolt", targets=["opponent"])
    g.resolve()
    assert (g.players["opponent"].life, g.players["you"].life) == (17, 20)


def test_608_2b_a_player_target_that_left_the_game_is_illegal() -> None:
    """A spell whose only target is a player who has left the game does nothing (608.2b, 800.4a)."""
    g = Game(["you", "opponent", "third"], Rules.for_date(None))
    g.add_card("Any Bolt", ANY_BOLT, "you", Zone.HAND)
    g.cast("you", "Any Bolt", targets=["third"])
    g.leave_game("third")
    g.resolve()
    assert g.players["third"].life == 20
    assert any(e[0] == "fizzled" for e in g.events)


def test_601_2c_a_targeted_spell_has_its_target_chosen_as_it_is_cast() -> None:
    g = game()
    g.add_card("Any Bolt", ANY_BOLT, "you", Zone.HAND)
    with pytest.raises(IllegalAction, match="601.2c"):
        g.cast("you", "Any Bolt")


def test_107_3a_x_is_announced_as_the_spell_is_cast() -> None:
    """107.3a / 601.2b: the value of X is announced as the spell is cast and is part of its cost;
    the spell's "X damage" uses it. 107.3g: off the stack, X is 0 (its mana value counts X as 0)."""
    g = game()
    g.add_card("Fireball", FIREBALL, "you", Zone.HAND)
    assert g.characteristics(g.obj("Fireball")).mana_value == 1
    with pytest.raises(MissingChoice, match="107.3a"):
        g.cast("you", "Fireball", targets=["opponent"])
    assert g.cast("you", "Fireball", targets=["opponent"], x=2) == "{2}{R}"
    g.resolve()
    assert g.players["opponent"].life == 18
    g2 = game(hand=["Grizzly Bears"])
    with pytest.raises(IllegalAction, match="no \\{X\\}"):
        g2.cast("you", "Grizzly Bears", x=1)


def test_107_1b_x_is_never_a_negative_number() -> None:
    """A negative X is an illegal choice (107.1b), not a missing one (review46 #4)."""
    g = game()
    g.add_card("Fireball", FIREBALL, "you", Zone.HAND)
    with pytest.raises(IllegalAction, match="107.1b") as refused:
        g.cast("you", "Fireball", targets=["opponent"], x=-1)
    assert not isinstance(refused.value, MissingChoice) and not g.stack


def test_107_3b_x_is_0_when_cast_without_paying_its_mana_cost() -> None:
    g = game()
    g.add_card("Fireball", FIREBALL, "you", Zone.HAND)
    with pytest.raises(IllegalAction, match="107.3b"):
        g.cast("you", "Fireball", targets=["opponent"], x=3, without_paying=True)
    assert g.cast("you", "Fireball", targets=["opponent"], without_paying=True) == ""
    g.resolve()
    assert g.players["opponent"].life == 20


def test_700_2a_a_modal_spells_mode_is_chosen_as_it_is_cast() -> None:
    """700.2a / 601.2b: a "Choose one" spell's mode is chosen as it is cast (none chosen: a choice
    is missing; one it doesn't have, or two, is refused); only that mode's instruction is followed,
    and a mode not chosen has no targets (700.2c)."""
    g = game(battlefield=["Grizzly Bears"])
    g.add_card("Test Charm", CHARM, "you", Zone.HAND)
    with pytest.raises(MissingChoice, match="700.2a"):
        g.cast("you", "Test Charm", targets=["Grizzly Bears"])
    for wrong in ((4,), (2, 3)):
        with pytest.raises(IllegalAction, match="700.2"):
            g.cast("you", "Test Charm", targets=["Grizzly Bears"], mode=wrong)
    with pytest.raises(IllegalAction, match="700.2c"):
        g.cast("you", "Test Charm", targets=["Grizzly Bears"], mode=(1,))
    g.cast("you", "Test Charm", targets=["Grizzly Bears"], mode=(2,))
    g.resolve()
    assert g.obj("Grizzly Bears").tapped
    assert g.players["you"].life == 20  # its first mode, not chosen, gains no life
    g2 = game(hand=["Grizzly Bears"])
    with pytest.raises(IllegalAction, match="not modal"):
        g2.cast("you", "Grizzly Bears", mode=(1,))


MAGAR_WITH_TRIGGER = card_from_data({
    "name": "Magar of the Magic Strings", "mana_cost": "{1}{B}{R}", "types": ["Creature"], "pt": "3/3",
    "abilities": [{"effect": "put_onto_battlefield_face_down_as", "cost": "{1}{B}{R}",
                   "target": "instant_or_sorcery_card_in_your_graveyard",
                   "face_down_as": {"types": ["Creature"], "pt": "3/3",
                                    "abilities": [{"when": "combat_damage_to_player", "optional": True,
                                                   "effect": "cast_copy_of_noted_card"}]}}],
})


def test_707_12_casting_a_copy_of_the_noted_card_without_paying_its_mana_cost() -> None:
    """707.12 / 608.2g: the face-down Lightning Bolt's trigger creates a copy of the card with the
    noted name and casts it while resolving, a sorcery during combat (608.2g: no timing), without paying its mana
    cost (an alternative cost, 118.9); the copy is a spell on the stack with the targets chosen
    (601.2c: one it can't have is refused, the game unchanged); once it resolves it ceases to
    exist (704.5e). "You may": choosing not to casts nothing."""
    g = game()
    g.add_card("Magar of the Magic Strings", MAGAR_WITH_TRIGGER, "you", Zone.BATTLEFIELD)
    g.add_card("Lightning Bolt", SORCERY_BOLT, "you", Zone.GRAVEYARD)
    g.activate("you", "Magar of the Magic Strings", target="Lightning Bolt")
    g.resolve()
    g.end_turn()
    g.end_turn()
    g.attack("Lightning Bolt")
    g.combat_damage("Lightning Bolt")
    assert g.players["opponent"].life == 17
    with pytest.raises(IllegalAction, match="601.2c"):
        g.resolve(choice=True)
    assert len(g.stack) == 1 and "copy of Sorcery Bolt" not in g.cards
    g.resolve(choice=True, cast=CastChoice(targets=("opponent",)))
    copy_spell = g.obj("copy of Sorcery Bolt")
    assert (copy_spell.zone, copy_spell.card.is_copy, len(g.stack)) == (Zone.STACK, True, 1)
    g.resolve()
    assert g.players["opponent"].life == 14
    assert g.obj("copy of Sorcery Bolt").zone is Zone.OUTSIDE  # 704.5e: not in the graveyard
    bolt = g.obj("Lightning Bolt")
    assert (bolt.zone, bolt.face_down, g.characteristics(bolt).power) == (Zone.BATTLEFIELD, True, 3)
    g.combat_damage("Lightning Bolt", to_player=True)
    g.resolve(choice=False)
    assert (g.players["opponent"].life, g.stack) == (11, [])
    g.end_turn()  # the opponent's turn: a sorcery copy cast as an effect resolves ignores timing (608.2g)
    g.cast_copy("you", SORCERY_BOLT, CastChoice(targets=("opponent",)))
    g.resolve()
    assert (g.players["opponent"].life, "copy of Sorcery Bolt 2" in g.cards) == (8, True)


def test_607_2a_shared_fates_play_permission_is_the_exilers_while_it_stays() -> None:
    """"Each player may look at and play cards they exiled with Shared Fate": a static ability linked
    to the cards it exiled (607.2a, 611.3a): the player who exiled a card may play it (its owner may
    not), on a later turn too, and no one may once Shared Fate has left (a new Shared Fate is a new
    object, 400.7)."""
    g = game(battlefield=["Shared Fate"])
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.LIBRARY)
    g.add_card("Forest", CARDS["Forest"], "opponent", Zone.LIBRARY)
    g.draw("you", 2)
    bears, forest = g.obj("Grizzly Bears"), g.obj("Forest")
    assert (g.may_play("you", bears), g.may_play("opponent", bears)) == (True, False)
    g.end_turn()
    with pytest.raises(IllegalAction, match="can't play"):
        g.play_from_exile("opponent", "Forest")
    g.end_turn()
    assert g.may_play("you", g.obj("Grizzly Bears"))  # not "this turn" only
    land = g.obj("Forest")
    g.play_from_exile("you", "Forest")
    land = g.obj("Forest")
    assert (land.zone, land.controller, land.card.owner) == (Zone.BATTLEFIELD, "you", "opponent")
    g.move("Shared Fate", Zone.GRAVEYARD)
    g.move("Shared Fate", Zone.BATTLEFIELD)
    assert not g.may_play("you", g.obj("Grizzly Bears"))
    with pytest.raises(IllegalAction, match="can't play"):
        g.play_from_exile("you", "Grizzly Bears")


def test_611_2b_a_play_permission_for_as_long_as_it_remains_exiled_outlasts_the_turn() -> None:
    """Praetor's Grasp: "You may play that card for as long as it remains exiled": the permission
    names its player and lasts past the turn (611.2b), while one "until end of turn" ends with it
    (514.2); it is the named player's, not the card's owner's."""
    g = game()
    g.add_card("Forest", CARDS["Forest"], "opponent", Zone.EXILE)
    g.add_card("Grizzly Bears", CARDS["Grizzly Bears"], "opponent", Zone.EXILE)
    forest, bears = g.obj("Forest"), g.obj("Grizzly Bears")
    forest.playable, forest.playable_by, forest.playable_lasts = True, "you", PlayLasts.EXILED
    bears.playable, bears.playable_by = True, "you"  # this turn only
    assert not g.may_play("opponent", forest)
    g.end_turn()
    g.end_turn()
    assert (g.may_play("you", g.obj("Forest")), g.may_play("you", g.obj("Grizzly Bears"))) == (True, False)
    g.play_land("you", "Forest")
    assert g.obj("Forest").controller == "you"
