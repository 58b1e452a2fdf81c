"""Card definitions: printed characteristics and the small vocabulary of abilities the model knows.

Cards are data (`corpus/cards/*.yaml`); `kb.checks` loads them and hands `CardDef`s to the model.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Iterator, TypeVar

from kb.normalize import close_matches


class CounterKind(StrEnum):
    """A kind of counter (122.1); +1/+1 counters change power and toughness (613.4c)."""

    PLUS_ONE = "+1/+1"
    TIME = "time"


class Spend(StrEnum):
    """What a payment of mana is for, as far as a restriction on spending mana asks (106.6)."""

    SPELL = "spell"  # a spell's cost, cast face up
    FACE_DOWN_SPELL = "face_down_spell"  # casting a face-down creature spell
    MANIFESTED_MANA_COST = "manifested_mana_cost"  # turning a manifested creature face up (701.40b)
    CLOAKED_MANA_COST = "cloaked_mana_cost"  # turning a cloaked one face up (701.58b)
    MORPH_COST = "morph_cost"  # a morph or megamorph cost (702.37b)
    DISGUISE_COST = "disguise_cost"


class SpendOnly(StrEnum):
    """A restriction on spending the mana an ability produces (106.6), by what it allows."""

    FACE_DOWN = "face_down"  # Qarsi Deceiver: a face-down creature spell, a manifested creature's mana cost, a morph cost


SPEND_ONLY: dict[SpendOnly, frozenset[Spend]] = {
    SpendOnly.FACE_DOWN: frozenset({Spend.FACE_DOWN_SPELL, Spend.MANIFESTED_MANA_COST, Spend.MORPH_COST}),
}


class PlayLasts(StrEnum):
    """How long an effect's permission to play a card lasts (611.2a-b)."""

    TURN = "turn"  # "this turn", "until end of turn"
    EXILED = "exiled"  # "for as long as it remains exiled": until it leaves exile (a new object, 400.7)
    SOURCE = "source"  # a linked static ability of the object that exiled it (607.2a): while that stays (Shared Fate)
    UNTIL_YOUR_NEXT_TURN = "until_your_next_turn"  # Three Wishes: until the turn of the player it names begins
    # Uba Mask's static "Each player may play cards they exiled with Uba Mask this turn": both ends at once, the
    # turn's (514.2) and the source's (611.3a: a static ability's effect stops as its object leaves the battlefield)
    TURN_WHILE_SOURCE = "turn_while_source"

    @property
    def ends_with_turn(self) -> bool:
        """It ends as the turn ends (514.2)."""
        return self in (PlayLasts.TURN, PlayLasts.TURN_WHILE_SOURCE)

    @property
    def ends_with_source(self) -> bool:
        """It ends as the object that exiled the card (its `exiled_with`) leaves the battlefield (607.2a, 611.3a)."""
        return self in (PlayLasts.SOURCE, PlayLasts.TURN_WHILE_SOURCE)


class ExileFrom(StrEnum):
    """Where EXILE_CARD_FACE_DOWN takes its cards from: a player's zone (the target player's, "that player's"
    with `that_player`, else the controller's)."""

    LIBRARY = "library"  # "search ... library for a card": the searcher chooses any card (701.19a)
    TOP_OF_LIBRARY = "top_of_library"  # the top `count` cards (all of them if fewer)
    # "look at the top `count` cards ..., exile one of them face down, then put the rest on the bottom"
    # (Gonti, Clone Shell)
    ONE_OF_TOP = "one_of_top"
    # "look at the top three cards of that player's library, exile one of them face down, then put the rest into
    # their graveyard" (Thief of Sanity)
    ONE_OF_TOP_REST_TO_GRAVEYARD = "one_of_top_rest_to_graveyard"
    HAND = "hand"  # "exiles a card from their hand": one card of that hand, chosen

    @property
    def looks_at_top(self) -> bool:
        """The effect looks at the top cards and exiles one of them (608.2d: its controller names it)."""
        return self in (ExileFrom.ONE_OF_TOP, ExileFrom.ONE_OF_TOP_REST_TO_GRAVEYARD)


class Removal(StrEnum):
    """How a draft-matters card removes the cards its drafter drafts from the draft."""

    FACE_UP = "face_up"  # Animus of Predation
    FACE_DOWN = "face_down"  # Cogwork Grinder


class DraftLook(StrEnum):
    """What turning a draft-matters card face down during the draft lets its drafter look at."""

    NEXT_PICK = "next_pick"  # Illusionary Informant: the next card a chosen player drafts
    PACK = "pack"  # Whispergear Sneak: an unopened booster pack


@dataclass(frozen=True, slots=True)
class DraftText:
    """What a card says about the draft (905): draft it face up or reveal it as it is drafted; while
    it is face up, draft `at_random` cards at random, then turn it face down (Archdemon of
    Paliano); remove drafted cards from the draft; be turned face down to look at something."""

    face_up: bool = False
    reveal: bool = False
    at_random: int = 0
    remove: Removal | None = None
    turn_down: DraftLook | None = None


class TriggerEvent(StrEnum):
    """What a triggered ability listens to ("this" is the ability's source)."""

    ENTERS = "enters"  # this permanent enters the battlefield
    TURNED_FACE_UP = "turned_face_up"  # this permanent is turned face up
    PERMANENT_YOU_CONTROL_TURNED_FACE_UP = "permanent_you_control_turned_face_up"
    CREATURE_YOU_CONTROL_TURNED_FACE_UP = "creature_you_control_turned_face_up"  # this or another, if a creature
    ANOTHER_CREATURE_YOU_CONTROL_TURNED_FACE_UP = "another_creature_you_control_turned_face_up"
    PERMANENT_TURNED_FACE_UP_FROM_GRAVEYARD = "permanent_you_control_turned_face_up_while_in_graveyard"
    DIES = "dies"  # this creature is put into a graveyard from the battlefield
    LEAVES_BATTLEFIELD = "leaves_battlefield"  # this permanent leaves the battlefield (603.6c)
    LAST_TIME_COUNTER_REMOVED = "last_time_counter_removed"  # vanishing's second ability (702.63a)
    ANOTHER_CREATURE_ENTERS = "another_creature_enters"
    ANOTHER_CREATURE_DIES = "another_creature_dies"
    ATTACKS = "attacks"  # this creature attacks
    CREATURE_YOU_CONTROL_ATTACKS = "creature_you_control_attacks"  # this or another
    BLOCKED = "blocked"  # this creature becomes blocked
    CREATURE_YOU_CONTROL_BLOCKED = "creature_you_control_blocked"  # this or another
    BLOCKS = "blocks"  # this creature blocks
    BECOMES_UNTAPPED = "becomes_untapped"  # this permanent goes from tapped to untapped (inspired; 603.2e)
    BECOMES_TAPPED = "becomes_tapped"  # this permanent goes from untapped to tapped (Grimoire Thief)
    YOU_CAST_NAMED_SPELL = "you_cast_named_spell"  # a spell with the name chosen for this (hidden agenda)
    SET_IN_MOTION = "set_in_motion"  # this scheme is set in motion (701.32)
    BECOMES_TARGET = "becomes_target"  # this permanent becomes the target of a spell or ability
    YOU_MANIFEST_DREAD = "you_manifest_dread"  # even if nothing could be manifested
    UPKEEP = "upkeep"  # the beginning of your upkeep
    OPPONENT_UPKEEP = "opponent_upkeep"  # the beginning of each opponent's upkeep ("that player": whose upkeep it is)
    END_STEP = "end_step"  # the beginning of your end step
    COMBAT_DAMAGE_TO_PLAYER = "combat_damage_to_player"
    COMBAT_DAMAGE_TO_BLOCKERS = "combat_damage_to_blockers"
    # 708.11: not a trigger but a replacement applied while the permanent is turned face up
    AS_TURNED_FACE_UP = "as_turned_face_up"
    AS_ENTERS = "as_enters"  # 614.1c: a replacement applied as the permanent enters
    # With a `filter` (the event's object as it is then: a face-down one by its face-down values)
    PERMANENT_ENTERS = "permanent_enters"  # a permanent, this one or another, enters the battlefield
    SPELL_CAST = "spell_cast"  # a player casts a spell (601.2i), face-down spells included
    YOU_SACRIFICE_CREATURE = "you_sacrifice_creature"  # this one too: it looks back in time (603.10a)


class EffectKind(StrEnum):
    """What a spell, or a triggered or activated ability, does when it resolves."""

    FORM = "form"  # becomes an Aura with enchant creature, manifest the top card, attach to it
    MANIFEST = "manifest"  # manifest the top `count` cards
    # "you manifest the top card of that player's library" (701.40a): the player the trigger is about
    # (OPPONENT_UPKEEP: whose upkeep it is); you control it, that player owns it
    MANIFEST_FROM_THAT_PLAYERS_LIBRARY = "manifest_from_that_players_library"
    MANIFEST_DREAD = "manifest_dread"
    CLOAK = "cloak"
    GAIN_LIFE_PER_CREATURE = "gain_life_per_creature"
    EXILE_SELF_AND_TOP_THEN_MANIFEST = "exile_self_and_top_then_manifest"  # Jeskai Infiltrator
    GRANT_DIES_MANIFEST = "grant_dies_manifest"  # Whisperwood Elemental's sacrifice ability
    DESTROY = "destroy"  # the target
    EXILE = "exile"  # the target, face up
    EXILE_FACE_DOWN = "exile_face_down"  # the target, face down (406.3)
    BOUNCE = "bounce"  # the target to its owner's hand
    DAMAGE = "damage"  # `count` damage to the target
    PUMP = "pump"  # the target gets +count/+count until end of turn
    COUNTERS = "counters"  # `count` counters of kind `counter` on the target (+1/+1: if still a creature)
    REMOVE_COUNTER = "remove_counter"  # one counter of kind `counter` from the target
    SACRIFICE = "sacrifice"  # its controller sacrifices the target (or this permanent)
    PREVENT_COMBAT_DAMAGE = "prevent_combat_damage"  # all combat damage this turn (615)
    LOOK_AT_FACE_DOWN_IN_COMBAT = "look_at_face_down_in_combat"  # each face-down attacking or blocking creature
    ADD_MANA = "add_mana"  # a mana ability (605): `mana` into its controller's pool, no stack
    EXILED_CARDS_OWNERS_MANIFEST_DREAD = "exiled_cards_owners_manifest_dread"  # Unidentified Hovership
    TURN_FACE_UP = "turn_face_up"  # the target (an effect, not the special action)
    TURN_FACE_DOWN = "turn_face_down"  # the target
    COUNTER = "counter"  # counter the target spell
    COUNTER_UNLESS_PAID = "counter_unless_paid"  # ward: counter the spell unless its controller pays
    LOOK = "look"  # the ability's controller looks at the target (708.5: only now)
    GAIN_CONTROL = "gain_control"  # of the target
    BECOME_COPY_OF_CHOICE = "become_copy_of_choice"  # Vesuvan Shapeshifter, with AS_TURNED_FACE_UP
    CHOOSE_PT = "choose_pt"  # Aquamorph Entity: becomes one of `options` (P/T), with AS_TURNED_FACE_UP
    TURN_ALL_OTHER_FACE_DOWN = "turn_all_other_face_down"  # Ixidron, with AS_ENTERS
    # 406.3: cards of a player's zone (`from`: ExileFrom) exiled face down by this very object (607.2a);
    # `may_look: [you]` lets its controller look at them, `may_play` play them, for that long (611.2b)
    EXILE_CARD_FACE_DOWN = "exile_card_face_down"
    TURN_UP_EXILED_WITH_THIS = "turn_up_exiled_with_this"  # Grimoire Thief
    TURN_UP_EXILED_WITH_THIS_PUT_PERMANENTS = "turn_up_exiled_with_this_put_permanents"  # Pyxis
    TURN_UP_EXILED_WITH_THIS_PUT_CREATURE = "turn_up_exiled_with_this_put_creature"  # Clone Shell
    UNTAP = "untap"  # the target (or the permanent the trigger is about)
    TAP = "tap"  # the target; with AS_ENTERS: "this enters tapped" (614.1c)
    GAIN_LIFE = "gain_life"  # its controller gains `count` life
    TARGET_CONTROLLER_GAINS_LIFE_EQUAL_TO_POWER = "target_controller_gains_life_equal_to_power"  # 608.2h
    CREATE_TOKENS = "create_tokens"  # `count` tokens with the characteristics `token` (111.1), `tapped` or not
    CREATE_TOKEN_COPY = "create_token_copy"  # a token that's a copy of the target (707.2: its copiable values)
    DAMAGE_EACH_OPPONENT = "damage_each_opponent"  # `count` damage to each opponent of its controller
    DRAW = "draw"  # its controller draws `count` cards
    EXILE_TOP_PLAYABLE_THIS_TURN = "exile_top_playable_this_turn"  # Ire Shaman: face up (406.3), play it this turn
    # 603.7: a delayed trigger "at the beginning of the next end step, an opponent puts this card from
    # the graveyard onto the battlefield under their control" (Endless Whispers' granted ability)
    OPPONENT_RETURNS_SELF_AT_NEXT_END_STEP = "opponent_returns_self_at_next_end_step"
    RETURN_SELF_UNDER_YOUR_CONTROL = "return_self_under_your_control"  # from the graveyard, face up
    CONTROLLER_LOSES_LIFE = "controller_loses_life"  # the target's (on a trigger: the event object's) controller loses `count`
    DAMAGE_CONTROLLER = "damage_controller"  # `count` damage to the target's (on a trigger: the event object's) controller
    RETURN_SELF = "return_self"  # from the graveyard to the battlefield; choice "face down" or not
    RETURN_SELF_FACE_DOWN = "return_self_face_down"  # Ashcloud Phoenix
    # the target card onto the battlefield face down under your control, with the values the ability
    # gives it (`face_down_as`, 708.2a: copiable; Magar of the Magic Strings: "It's a 3/3 creature with ...")
    PUT_ONTO_BATTLEFIELD_FACE_DOWN_AS = "put_onto_battlefield_face_down_as"
    # "you may create a copy of the card with the noted name. You may cast the copy without paying
    # its mana cost" (Magar of the Magic Strings' face-down creature): 707.12, 118.9
    CAST_COPY_OF_NOTED_CARD = "cast_copy_of_noted_card"
    NOTHING = "nothing"  # an ability whose effect the scenarios don't need


class ActivationCost(StrEnum):
    """An activated ability's cost that the model acts on; any other cost (mana, {T}) is
    written as text and simply paid."""

    SACRIFICE = "sacrifice"  # this permanent: it leaves before the ability resolves (113.7a)
    EXILE_A_FACE_DOWN_PERMANENT = "exile a face-down permanent you control"  # Primordial Mist
    SACRIFICE_A_CREATURE = "sacrifice a creature"  # the `target` of the activation is the one sacrificed
    # Eldrazi Processors (Oracle of Dust): the `target` of the activation is the card put there
    PUT_OPPONENTS_EXILED_CARD_INTO_GRAVEYARD = "put a card an opponent owns from exile into that player's graveyard"


class TargetKind(StrEnum):
    """What an ability may target; checked when it is put on the stack and again on resolution."""

    CREATURE = "creature"
    ANOTHER_CREATURE = "another_creature"  # chosen as the ability goes on the stack (603.3d), not its source
    FACE_DOWN_CREATURE = "face_down_creature"
    FACE_UP_CREATURE = "face_up_creature"
    NONTOKEN_CREATURE = "nontoken_creature"
    PERMANENT = "permanent"
    SPELL = "spell"
    CREATURE_SPELL = "creature_spell"
    INSTANT_OR_SORCERY_CARD_IN_YOUR_GRAVEYARD = "instant_or_sorcery_card_in_your_graveyard"
    # 115.4: "any target": a creature, a player, a planeswalker or a battle, nothing else
    ANY = "any"
    PLAYER = "player"  # "target player" (115.1): a player in the game, never an object
    OPPONENT = "opponent"  # "target opponent": a player in the game other than the ability's controller


# The target kinds a player may be chosen for (115.1, 115.4).
PLAYER_TARGETS = frozenset({TargetKind.ANY, TargetKind.PLAYER, TargetKind.OPPONENT})
# Who an effect's permission may name, relative to the ability (`may_look: [you]`): its controller.
PERMITTED = ("you",)


class ContinuousKind(StrEnum):
    """A continuous effect's kind; its layer (613) follows from the kind."""

    SET_TYPES = "set_types"  # card types (subtypes go away)
    SET_SUBTYPES = "set_subtypes"  # Blood Moon: the land types
    ADD_TYPES = "add_types"
    REMOVE_TYPES = "remove_types"  # "isn't a creature"
    ADD_SUBTYPES = "add_subtypes"
    SET_COLORS = "set_colors"
    ADD_COLORS = "add_colors"
    LOSE_ALL_ABILITIES = "lose_all_abilities"
    ADD_KEYWORDS = "add_keywords"
    REMOVE_KEYWORDS = "remove_keywords"
    ADD_ABILITIES = "add_abilities"
    PT_FACE_DOWN_CREATURES = "pt_face_down_creatures"  # Ixidron's characteristic-defining ability
    SET_PT = "set_pt"
    MODIFY_PT = "modify_pt"
    # prohibitions (101.2: "can't" beats "can"); they have no layer
    CANT_TURN_FACE_UP = "cant_turn_face_up"
    CANT_ATTACK = "cant_attack"
    CANT_BLOCK = "cant_block"
    CANT_ACTIVATE = "cant_activate"  # its activated abilities (602.5); special actions are not abilities (116.2b)
    # cost modifiers (601.2f): `value` generic mana more (negative: less)
    FACE_DOWN_SPELL_COST = "face_down_spell_cost"  # casting a face-down spell
    # player permissions (with `affects: you`): look at face-down creatures you don't control;
    # look at the cards exiled with this object (Grimoire Thief, Bane Alley Broker)
    LOOK_AT_FACE_DOWN_CREATURES = "look_at_face_down_creatures"
    LOOK_AT_CARDS_EXILED_WITH_THIS = "look_at_cards_exiled_with_this"
    TURN_FACE_UP_COST = "turn_face_up_cost"  # the special action
    SPELL_COST = "spell_cost"  # every spell `affects` casts (601.2f: increases first, then reductions)
    # a prohibition on players (with `affects: opponents`): no second spell in a turn
    ONE_SPELL_EACH_TURN = "one_spell_each_turn"
    # a replacement on the object (Illusionary Mask): if it would become tapped or be dealt
    # damage while face down, it is turned face up first
    TURN_UP_INSTEAD_OF_TAP_OR_DAMAGE = "turn_up_instead_of_tap_or_damage"
    # a replacement on the permanent (614.1a): "if this would leave the battlefield, exile it instead
    # of putting it anywhere else"
    EXILE_INSTEAD_OF_LEAVING = "exile_instead_of_leaving"
    # a replacement of card draws (121.6, Shared Fate): the drawing player exiles the top card of an
    # opponent's library face down instead; they may look at it (406.3) and play it
    DRAW_EXILES_OPPONENTS_TOP_FACE_DOWN = "draw_exiles_opponents_top_face_down"
    # Uba Mask: the drawing player exiles the card they would draw face up instead, and may play it this turn
    DRAW_EXILES_IT_FACE_UP = "draw_exiles_it_face_up"
    # a permission (`affects: you`): "You may play the top card of your library" (Future Sight), while it stays
    PLAY_TOP_OF_LIBRARY = "play_top_of_library"


LAYER: dict[ContinuousKind, float] = {
    ContinuousKind.SET_TYPES: 4,
    ContinuousKind.SET_SUBTYPES: 4,
    ContinuousKind.ADD_TYPES: 4,
    ContinuousKind.REMOVE_TYPES: 4,
    ContinuousKind.ADD_SUBTYPES: 4,
    ContinuousKind.SET_COLORS: 5,
    ContinuousKind.ADD_COLORS: 5,
    ContinuousKind.LOSE_ALL_ABILITIES: 6,
    ContinuousKind.ADD_KEYWORDS: 6,
    ContinuousKind.REMOVE_KEYWORDS: 6,
    ContinuousKind.ADD_ABILITIES: 6,
    ContinuousKind.PT_FACE_DOWN_CREATURES: 7.1,  # 7a
    ContinuousKind.SET_PT: 7.2,  # 7b
    ContinuousKind.MODIFY_PT: 7.3,  # 7c
}


class Affects(StrEnum):
    """What a static ability of a permanent applies to."""

    SELF = "self"
    ENCHANTED = "enchanted"  # the creature this Aura is attached to
    EQUIPPED = "equipped"  # the creature this Equipment is attached to
    FACE_DOWN_CREATURES_YOU_CONTROL = "face_down_creatures_you_control"
    CREATURES_YOU_CONTROL = "creatures_you_control"
    FACE_DOWN_CREATURES = "face_down_creatures"
    NONBASIC_LANDS = "nonbasic_lands"  # judged by the permanent's face-up characteristics when face down
    YOU = "you"  # the controller: cost modifiers
    OPPONENTS = "opponents"  # each opponent of the controller: prohibitions on players
    CREATURES_OPPONENTS_CONTROL = "creatures_opponents_control"
    CREATURES = "creatures"  # every creature on the battlefield
    PLAYERS = "players"  # each player: replacements of a player's actions ("if a player would draw")


class Layout(StrEnum):
    """How a card's faces are arranged (709-712)."""

    NORMAL = "normal"
    TRANSFORM = "transform"  # 712: double-faced, transforms
    MODAL_DFC = "modal_dfc"  # 712: double-faced, choose a face to cast
    MELD = "meld"  # 712.4: a double-faced meld card (its back is half of a melded permanent)
    SPLIT = "split"  # 709: two halves on one face
    ADVENTURE = "adventure"  # 715: the first face is the creature, the second the Adventure


_SYMBOL = re.compile(r"\{([^}]*)\}")


def mana_value(cost: str | None) -> int:
    """Mana value (converted mana cost) of a cost like '{2}{U}{U}'; X counts as 0 (202.3)."""
    if not cost:
        return 0
    total = 0
    for sym in _SYMBOL.findall(cost):
        if sym.isdigit():
            total += int(sym)
        elif sym.upper() != "X":
            total += 1
    return total


def mana_symbols(cost: str | None) -> list[str]:
    """The symbols of a mana cost: '{2}{R/W}{G}' -> ['2', 'R/W', 'G']."""
    return _SYMBOL.findall(cost or "")


COLORS = ("W", "U", "B", "R", "G")


def cost_colors(cost: str | None) -> frozenset[str]:
    """202.2: the colours of a mana cost's symbols: '{1}{R/W}' -> {R, W}, '{W/P}' -> {W}; generic
    mana, {X}, {C} and {S} have none."""
    return frozenset(part for sym in mana_symbols(cost) for part in sym.upper().split("/") if part in COLORS)


# The keyword abilities of CR 702 (2026-01-16; tests/test_scenario.py checks every heading of the
# corpus's current CR), lowercased as a card's `keywords:` writes them; a keyword with a parameter
# follows its name ("ward {2}", "protection from red", "crew 1", "enchant creature") or a dash
# ("ward—pay 3 life", "cumulative upkeep—pay 1 life"); "forestwalk" and the other landwalks are
# 702.14, "swampcycling" and the other typecyclings 702.29e; "can't be countered" is no keyword
# in the rules, but the model reads it as one. Morph, megamorph and disguise are the card's
# `morph:`, `megamorph:`, `disguise:` keys, with their costs.
KEYWORDS = (
    "deathtouch", "defender", "double strike", "enchant", "equip", "first strike", "flash", "flying", "haste",
    "hexproof", "indestructible", "intimidate", "landwalk", "lifelink", "protection", "reach", "shroud", "trample",
    "vigilance", "ward", "banding", "rampage", "cumulative upkeep", "flanking", "phasing", "buyback", "shadow",
    "cycling", "echo", "horsemanship", "fading", "kicker", "multikicker", "flashback", "madness", "fear",
    "amplify", "provoke", "storm", "affinity", "entwine", "modular", "sunburst", "bushido", "soulshift", "splice",
    "offering", "ninjutsu", "commander ninjutsu", "epic", "convoke", "dredge", "transmute", "bloodthirst", "haunt",
    "replicate", "forecast", "graft", "recover", "ripple", "split second", "suspend", "vanishing", "absorb",
    "aura swap", "delve", "fortify", "frenzy", "gravestorm", "poisonous", "transfigure", "champion", "changeling",
    "evoke", "hideaway", "prowl", "reinforce", "conspire", "persist", "wither", "retrace", "devour", "exalted",
    "unearth", "cascade", "annihilator", "level up", "rebound", "umbra armor", "totem armor", "infect",
    "battle cry", "living weapon", "undying", "miracle", "soulbond", "overload", "scavenge", "unleash", "cipher",
    "evolve", "extort", "fuse", "bestow", "tribute", "dethrone", "hidden agenda", "double agenda", "outlast",
    "prowess", "dash", "exploit", "menace", "renown", "awaken", "devoid", "ingest", "myriad", "surge", "skulk",
    "emerge", "escalate", "melee", "crew", "fabricate", "partner", "undaunted", "improvise", "aftermath",
    "embalm", "eternalize", "afflict", "ascend", "assist", "jump-start", "mentor", "afterlife", "riot",
    "spectacle", "escape", "companion", "mutate", "encore", "boast", "foretell", "demonstrate", "daybound",
    "nightbound", "disturb", "decayed", "cleave", "training", "compleated", "reconfigure", "blitz", "casualty",
    "enlist", "read ahead", "ravenous", "squad", "space sculptor", "visit", "prototype", "living metal",
    "more than meets the eye", "for mirrodin!", "toxic", "backup", "bargain", "craft", "solved", "plot",
    "saddle", "spree", "freerunning", "gift", "offspring", "impending", "exhaust", "max speed",
    "start your engines!", "harmonize", "mobilize", "job select", "tiered", "station", "warp", "∞", "infinity",
    "mayhem", "web-slinging", "firebending", "bands with other",
    "can't be countered",
)
# The keywords the rules model acts on (every other one is an ability the object has, 113.1: it is
# copied, granted, lost, and counts for "no abilities", but no rule of its own applies).
MODELLED_KEYWORDS = (
    "can't be countered", "defender", "devoid", "flash", "flying", "lifelink", "reach", "split second", "vigilance",
    "ward",
)
_FACE_DOWN_WAYS = ("morph", "megamorph", "disguise")


def keyword_problem(keyword: str) -> str | None:
    """Why `keyword` is no keyword ability a card's `keywords:` can list (a misspelling, or a
    face-down way written without its cost), or None."""
    text = " ".join(keyword.lower().split())
    if text.split(" ", 1)[0] in _FACE_DOWN_WAYS:
        way = text.split(" ", 1)[0]
        return f"{way} is the card's `{way}:` key with its cost (`{way}: '{{2}}{{U}}'`), not a keyword"
    name = text.split("—", 1)[0].strip()  # "ward—pay 3 life": the keyword before its dashed cost
    typed = any(word.endswith(("walk", "cycling")) for word in name.split()[:2])  # "basic landcycling {1}{B}"
    if typed or any(name == k or name.startswith(k + " ") for k in KEYWORDS):
        return None
    close = close_matches(text, KEYWORDS)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    return f"unknown keyword {keyword!r} ({hint}docs/CHECKS.md lists the keywords)"


@dataclass(frozen=True, slots=True)
class ObjectFilter:
    """What an object must be for a trigger condition ("another red creature", "a land", "a
    multicolored spell") or a target ("spell with mana value 4 or greater", 115.1): read from the
    object's characteristics when the event happens or the target is chosen, so a face-down object
    matches by its face-down values only (708.2a). `controller` is relative to the ability's
    controller."""

    types: frozenset[str] = frozenset()  # all of them
    subtypes: frozenset[str] = frozenset()  # any of them
    colors: frozenset[str] = frozenset()  # any of them
    multicolored: bool = False  # two or more colours (105.2c)
    controller: str | None = None  # "you" or "opponent"
    min_mana_value: int | None = None
    max_mana_value: int | None = None
    # it has the same name as a card in its controller's graveyard (a nameless face-down spell never does)
    named_as_card_in_own_graveyard: bool = False
    no_abilities: bool = False  # "creatures with no abilities": read after the layers that add or remove abilities
    face_down: bool = False  # "a face-down creature" (a status, not a characteristic: 708.2, 110.5)


FILTER_CONTROLLERS = ("you", "opponent")


@dataclass(frozen=True, slots=True)
class Ability:
    """A triggered or activated ability: when `event` happens (or on activation), do `effect`."""

    effect: EffectKind
    event: TriggerEvent | None = None  # None: an activated ability, or a spell's effect
    cost: ActivationCost | str | None = None  # activated abilities: a cost the model acts on, or text
    count: int = 1
    grants: tuple[str, ...] = ()
    target: TargetKind | None = None
    options: tuple[tuple[int, int], ...] = ()  # CHOOSE_PT: the P/T choices
    text: str = ""
    counter: CounterKind = CounterKind.PLUS_ONE  # COUNTERS, REMOVE_COUNTER: which kind
    optional: bool = False  # "you may": its controller chooses as it resolves (`choice: true/false`)
    if_counter: CounterKind | None = None  # 603.4: "if this permanent has a [kind] counter on it"
    mana: str = ""  # ADD_MANA: the mana symbol it adds, like "C" or "G"
    spend_only: SpendOnly | None = None  # ADD_MANA: a restriction on spending that mana (106.6)
    filter: ObjectFilter | None = None  # the event's object (a trigger) or the target must match
    if_target: ObjectFilter | None = None  # "do X to target creature if it ...": checked as it resolves
    token: Characteristics | None = None  # CREATE_TOKENS: what each token is (111.4: as the effect says)
    tapped: bool = False  # CREATE_TOKENS: "create tapped tokens"
    face_down_as: Characteristics | None = None  # PUT_ONTO_BATTLEFIELD_FACE_DOWN_AS: its face-down values
    x: bool = False  # `count: X`: the amount is the X announced as the spell was cast (107.3a)
    mode: int | None = None  # a modal spell's mode number (700.2: "Choose one —"), 1 first
    from_zone: ExileFrom | None = None  # EXILE_CARD_FACE_DOWN: the zone its cards come from
    may_look: tuple[str, ...] = ()  # EXILE_CARD_FACE_DOWN: who may look at them while exiled (406.3): "you"
    may_play: PlayLasts | None = None  # EXILE_CARD_FACE_DOWN: its controller may play them, for that long
    # EXILE_CARD_FACE_DOWN on a trigger whose event is about a player: from "that player's" zone
    that_player: bool = False


# Keyword abilities that stand for triggered abilities (granted with `grants:`), by keyword.
KEYWORD_ABILITIES: dict[str, tuple[Ability, ...]] = {
    # 702.63b: vanishing without a number; 702.63c: each instance works separately
    "vanishing": (
        Ability(EffectKind.REMOVE_COUNTER, TriggerEvent.UPKEEP, counter=CounterKind.TIME, if_counter=CounterKind.TIME,
                text="vanishing: remove a time counter"),
        Ability(EffectKind.SACRIFICE, TriggerEvent.LAST_TIME_COUNTER_REMOVED,
                text="vanishing: sacrifice it when the last time counter is removed"),
    ),
}


# A continuous effect's value, by its kind (see `effect_value`): names (types, colours,
# keywords), abilities, a P/T pair, a number of generic mana, or nothing.
EffectValue = tuple[str, ...] | tuple[Ability, ...] | tuple[int, int] | int | None


@dataclass(frozen=True, slots=True)
class Static:
    """A static ability: a continuous effect on what it `affects`, as long as its source is on the
    battlefield (611.3a), face up."""

    affects: Affects
    kind: ContinuousKind
    value: EffectValue = None
    # a cost modifier: only spells that match ("Dragon spells"); otherwise only the objects that match
    filter: ObjectFilter | None = None
    # "as long as your devotion to COLOR is less than N" (700.5): (colour, N); the ability applies only then
    while_devotion_below: tuple[str, int] | None = None
    # a cost modifier for "the first ... spell you cast each turn": only while its controller has cast
    # no spell this turn that it would have applied to (face down for face_down_spell_cost, its filter)
    first_each_turn: bool = False


@dataclass(frozen=True, slots=True)
class Characteristics:
    """The characteristics of a face, a copy, or an object after layers (109.3)."""

    name: str | None
    mana_cost: str | None = None
    colors: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()  # static keyword abilities: flying, lifelink, ward {2}
    abilities: tuple[Ability, ...] = ()  # triggered and activated abilities
    morph: str | None = None
    megamorph: str | None = None
    disguise: str | None = None
    enchanted_has: tuple[str, ...] = ()  # an Aura's "Enchanted creature has ..."
    statics: tuple[Static, ...] = ()
    enters_as_copy: bool = False  # Clone: "You may have this creature enter as a copy of ..."
    escalate: str | None = None  # 702.120a: an additional cost for each mode chosen beyond the first
    draft: DraftText | None = None  # what it says about the Conspiracy draft (905)
    text: str = ""

    @property
    def mana_value(self) -> int:
        return mana_value(self.mana_cost)

    @property
    def has_abilities(self) -> bool:
        """Whether it has any ability: a keyword, a triggered, activated or static one, morph (113.1)."""
        return self.without_abilities() != self

    def without_abilities(self) -> Characteristics:
        return replace(
            self,
            keywords=(),
            abilities=(),
            morph=None,
            megamorph=None,
            disguise=None,
            enchanted_has=(),
            statics=(),
            enters_as_copy=False,
        )


def face_down_characteristics(ward: bool = False) -> Characteristics:
    """708.2a (and 701.58a / 702.168a with ward): a 2/2 creature, no text, name, subtypes, cost."""
    return Characteristics(
        name=None,
        types=frozenset({"Creature"}),
        power=2,
        toughness=2,
        keywords=("ward {2}",) if ward else (),
    )


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card as printed: one face, or two for a double-faced card (712)."""

    faces: tuple[Characteristics, ...]
    source: str = ""  # where the definition came from (file:line), for messages
    layout: Layout = Layout.NORMAL

    @property
    def name(self) -> str:
        return self.faces[0].name or ""

    @property
    def front(self) -> Characteristics:
        return self.faces[0]

    @property
    def is_double_faced(self) -> bool:
        return self.layout in (Layout.TRANSFORM, Layout.MODAL_DFC, Layout.MELD)

    @property
    def card_types(self) -> frozenset[str]:
        """The card's types where it isn't on the stack: a split card has both halves' (709.4),
        an adventurer card only its main face's (715.4), a double-faced card its front's (712.8)."""
        if self.layout is Layout.SPLIT:
            return self.faces[0].types | self.faces[1].types
        return self.front.types

    def is_creature_card(self) -> bool:
        return "Creature" in self.card_types


class CardDataError(ValueError):
    """A card definition that the model cannot use; `data`, the mapping it was found in, and `keys`, those of its
    keys that say it, when known: a check file names their line, not the card's first (smoke51 L4)."""

    def __init__(self, message: str, *keys: str, data: Any = None) -> None:
        super().__init__(message)
        self.keys = keys
        self.data = data


@contextmanager
def _reading(data: Any, *keys: str) -> Iterator[None]:
    """A CardDataError raised inside is one of the mapping `data` (of its `keys`), unless an inner mapping or
    keys were named for it already."""
    try:
        yield
    except CardDataError as exc:
        if exc.data is None and isinstance(data, dict):
            exc.data = data
            exc.keys = exc.keys or keys
        raise


_E = TypeVar("_E", bound=StrEnum)


def _enum(kind: type[_E], value: Any, where: str, what: str, key: str = "") -> _E:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(k.value for k in kind)
        raise CardDataError(f"{where}: unknown {what} {value!r} (known: {known})", *(key,) if key else ()) from None


# static abilities that let their controller do something: `affects: you` and no other
PLAYER_PERMISSIONS = frozenset({ContinuousKind.PLAY_TOP_OF_LIBRARY, ContinuousKind.LOOK_AT_FACE_DOWN_CREATURES})

_ABILITY_KEYS = frozenset({
    "when", "effect", "cost", "count", "grants", "target", "options", "text", "counter", "optional", "if_counter",
    "mana", "spend_only", "filter", "if_target", "token", "tapped", "face_down_as", "mode", "from", "may_look",
    "may_play", "that_player",
})
_EXILE_KEYS = ("from", "may_look", "may_play", "that_player")
# the trigger events that are about a player, "that player" (the one dealt combat damage, whose upkeep it is)
THAT_PLAYER_EVENTS = frozenset({TriggerEvent.COMBAT_DAMAGE_TO_PLAYER, TriggerEvent.OPPONENT_UPKEEP})


def _ability_from_data(a: Any, where: str) -> Ability:
    with _reading(a):
        return _ability(a, where)


def _ability(a: Any, where: str) -> Ability:
    if not isinstance(a, dict):
        raise CardDataError(f"{where}: an ability must be a mapping, not {a!r}")
    unknown_keys = set(map(str, a)) - _ABILITY_KEYS
    if unknown_keys:  # a misspelt key would silently change what the card does
        raise CardDataError(f"{where}: unknown ability key(s) {', '.join(sorted(unknown_keys))} "
                            f"(known: {', '.join(sorted(_ABILITY_KEYS))})", *sorted(unknown_keys))
    event = a.get("when")
    target = a.get("target")
    options = []
    with _reading(a, "options"):
        for opt in a.get("options") or ():
            options.append(_pt(opt, where))
    grants = tuple(str(g).lower() for g in a.get("grants") or ())
    unknown = [g for g in grants if g not in KEYWORD_ABILITIES]
    if unknown:
        raise CardDataError(f"{where}: can't grant {unknown[0]!r} (known: {', '.join(KEYWORD_ABILITIES)})", "grants")
    if_counter = a.get("if_counter")
    spend_only = a.get("spend_only")
    count = a.get("count", 1)
    is_x = count == "X"  # 107.3: the amount is X
    if not is_x and (isinstance(count, bool) or not isinstance(count, int)):
        raise CardDataError(f"{where}: `count` is a number or X, not {count!r}", "count")
    mode = a.get("mode")
    if mode is not None and (isinstance(mode, bool) or not isinstance(mode, int) or mode < 1):
        raise CardDataError(f"{where}: `mode` is a mode's number (1 for the first), not {mode!r}", "mode")
    effect = _enum(EffectKind, a.get("effect"), where, "ability effect", "effect")
    from_zone, may_look, may_play = _exile_permissions(a, effect, where)
    # the event's name first: a misspelt one is an unknown event, not one without a player (review51 L6)
    trigger = _enum(TriggerEvent, event, where, "trigger event", "when") if event is not None else None
    that_player = _flag(a.get("that_player", False), where, "that_player")
    # "that player" said as a flag or in the effect kind's name: one check for both (review51 L3)
    says_that_player = ("`that_player`" if that_player else f"{effect}'s \"that player\""
                        if effect is EffectKind.MANIFEST_FROM_THAT_PLAYERS_LIBRARY else None)
    if says_that_player is not None and trigger not in THAT_PLAYER_EVENTS:
        raise CardDataError(f"{where}: {says_that_player} is the player a trigger event is about, and only "
                            f"{' and '.join(sorted(THAT_PLAYER_EVENTS))} are; not {trigger or 'no trigger'}",
                            "that_player" if that_player else "effect", "when")
    if that_player and target is not None:  # both say whose zone: the target would silently win (review51 L1)
        raise CardDataError(f"{where}: `that_player` and `target` both say whose cards it takes; give one",
                            "that_player", "target")
    return Ability(
        effect=effect,
        event=trigger,
        cost=_cost(a.get("cost")),
        count=0 if is_x else int(count),
        grants=grants,
        target=_enum(TargetKind, target, where, "target", "target") if target is not None else None,
        options=tuple(options),
        text=str(a.get("text", "")),
        counter=_enum(CounterKind, a.get("counter", CounterKind.PLUS_ONE.value), where, "counter kind", "counter"),
        optional=_flag(a.get("optional", False), where, "optional"),
        if_counter=_enum(CounterKind, if_counter, where, "counter kind", "if_counter") if if_counter is not None else None,
        mana=str(a.get("mana", "")).strip("{}").upper(),
        spend_only=(_enum(SpendOnly, spend_only, where, "spending restriction", "spend_only")
                    if spend_only is not None else None),
        filter=_filter_from_data(a["filter"], where, a, "filter") if a.get("filter") is not None else None,
        if_target=_filter_from_data(a["if_target"], where, a, "if_target") if a.get("if_target") is not None else None,
        token=_face_from_data(a["token"], where, within=(a, "token")) if a.get("token") is not None else None,
        tapped=_flag(a.get("tapped", False), where, "tapped"),
        face_down_as=(_face_from_data(a["face_down_as"], where, named=False, within=(a, "face_down_as"))
                      if a.get("face_down_as") is not None else None),
        x=is_x,
        mode=mode,
        from_zone=from_zone,
        may_look=may_look,
        may_play=may_play,
        that_player=that_player,
    )


def _exile_permissions(
    a: dict[Any, Any], effect: EffectKind, where: str
) -> tuple[ExileFrom | None, tuple[str, ...], PlayLasts | None]:
    """EXILE_CARD_FACE_DOWN's `from` (needed), `may_look` and `may_play`; on any other effect they
    are a problem (they would silently do nothing)."""
    given = [k for k in _EXILE_KEYS if k in a]
    if effect is not EffectKind.EXILE_CARD_FACE_DOWN:
        if given:
            raise CardDataError(f"{where}: `{given[0]}` is for effect {EffectKind.EXILE_CARD_FACE_DOWN} only, not {effect}",
                                given[0])
        return None, (), None
    if a.get("from") is None:
        raise CardDataError(f"{where}: {effect} needs `from` ({', '.join(ExileFrom)})", "effect")
    looks = a.get("may_look") or []
    if not isinstance(looks, list) or any(p not in PERMITTED for p in looks):
        raise CardDataError(f"{where}: `may_look` is a list of {', '.join(PERMITTED)}, not {looks!r}", "may_look")
    play = a.get("may_play")
    return (
        _enum(ExileFrom, a["from"], where, "`from`", "from"),
        tuple(dict.fromkeys(str(p) for p in looks)),
        _enum(PlayLasts, play, where, "`may_play`", "may_play") if play is not None else None,
    )


_FILTER_KEYS = ("types", "subtypes", "colors", "multicolored", "controller", "min_mana_value", "max_mana_value",
                "named_as_card_in_own_graveyard", "no_abilities", "face_down")


def _filter_from_data(f: Any, where: str, within: Any = None, key: str = "") -> ObjectFilter:
    """`filter: {types: [Land], subtypes: [Dragon], colors: [R], multicolored: true, controller: you|opponent,
    min_mana_value: 4, max_mana_value: 2}`: the value of `key` in the mapping `within`."""
    with _reading(within, key), _reading(f):
        return _filter(f, where)


def _filter(f: Any, where: str) -> ObjectFilter:
    if not isinstance(f, dict):
        raise CardDataError(f"{where}: `filter` must be a mapping, not {f!r}")
    unknown = set(map(str, f)) - set(_FILTER_KEYS)
    if unknown:
        raise CardDataError(f"{where}: unknown filter key(s) {', '.join(sorted(unknown))} (known: {', '.join(_FILTER_KEYS)})",
                            *sorted(unknown))
    controller = f.get("controller")
    if controller is not None and controller not in FILTER_CONTROLLERS:
        raise CardDataError(f"{where}: filter `controller` is you or opponent, not {controller!r}", "controller")
    for key in ("min_mana_value", "max_mana_value"):
        v = f.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise CardDataError(f"{where}: filter `{key}` must be a number, not {v!r}", key)
    return ObjectFilter(
        types=frozenset(str(t) for t in f.get("types") or ()),
        subtypes=frozenset(str(t) for t in f.get("subtypes") or ()),
        colors=frozenset(str(c) for c in f.get("colors") or ()),
        multicolored=_flag(f.get("multicolored", False), where, "multicolored"),
        controller=controller,
        min_mana_value=f.get("min_mana_value"),
        max_mana_value=f.get("max_mana_value"),
        named_as_card_in_own_graveyard=_flag(f.get("named_as_card_in_own_graveyard", False), where,
                                             "named_as_card_in_own_graveyard"),
        no_abilities=_flag(f.get("no_abilities", False), where, "no_abilities"),
        face_down=_flag(f.get("face_down", False), where, "face_down"),
    )


def _flag(value: Any, where: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise CardDataError(f"{where}: `{key}` must be true or false, not {value!r}", key.rpartition(".")[2])
    return value


def _cost(value: Any) -> ActivationCost | str | None:
    if value is None:
        return None
    text = str(value)
    return ActivationCost(text) if text in {c.value for c in ActivationCost} else text


def _pt(value: Any, where: str) -> tuple[int, int]:
    p, sep, t = str(value).partition("/")
    try:
        return int(p), int(t)
    except ValueError:
        raise CardDataError(f"{where}: power/toughness must read like 2/2, not {value!r}") from None


def static_from_data(d: Any, where: str) -> Static:
    """A static ability (or a scenario's continuous effect): {affects, kind, value}."""
    with _reading(d):
        return _static(d, where)


def _static(d: Any, where: str) -> Static:
    if not isinstance(d, dict):
        raise CardDataError(f"{where}: a static ability must be a mapping, not {d!r}")
    unknown = set(map(str, d)) - {"affects", "kind", "value", "filter", "while_devotion_below", "first_each_turn"}
    if unknown:
        raise CardDataError(f"{where}: unknown static ability key(s) {', '.join(sorted(unknown))}", *sorted(unknown))
    kind = _enum(ContinuousKind, d.get("kind"), where, "effect kind", "kind")
    if d.get("first_each_turn") and kind not in (ContinuousKind.FACE_DOWN_SPELL_COST, ContinuousKind.SPELL_COST):
        raise CardDataError(f"{where}: `first_each_turn` is for the spell cost modifiers, not {kind}", "first_each_turn")
    devotion = d.get("while_devotion_below")
    if devotion is not None:
        if not (isinstance(devotion, dict) and set(devotion) == {"color", "count"} and isinstance(devotion["count"], int)
                and str(devotion["color"]) in "WUBRG" and len(str(devotion["color"])) == 1):
            raise CardDataError(f"{where}: `while_devotion_below` is {{color: W|U|B|R|G, count: N}}, not {devotion!r}",
                                "while_devotion_below")
    affects = _enum(Affects, d.get("affects", "self"), where, "`affects`", "affects")
    # a player's permission is read for its controller alone (`_player_permission`): any other `affects` would load
    # and do nothing (review51 L2)
    if kind in PLAYER_PERMISSIONS and affects is not Affects.YOU:
        raise CardDataError(f"{where}: {kind} is a permission of the card's controller, with `affects: you`, "
                            f"not {affects}", "kind", "affects")
    with _reading(d, "value"):
        value = effect_value(kind, d.get("value"), where)
    return Static(
        affects=affects,
        kind=kind,
        value=value,
        filter=_filter_from_data(d["filter"], where, d, "filter") if d.get("filter") is not None else None,
        while_devotion_below=(str(devotion["color"]), int(devotion["count"])) if devotion is not None else None,
        first_each_turn=_flag(d.get("first_each_turn", False), where, "first_each_turn"),
    )


def effect_value(kind: ContinuousKind, value: Any, where: str) -> EffectValue:
    """A continuous effect's value in the form the model uses (tuples, P/T pairs, ints)."""
    if kind in (ContinuousKind.SET_PT, ContinuousKind.MODIFY_PT):
        if isinstance(value, list | tuple) and len(value) == 2:
            return int(value[0]), int(value[1])
        return _pt(str(value).replace("+", ""), where)
    if kind in (ContinuousKind.FACE_DOWN_SPELL_COST, ContinuousKind.TURN_FACE_UP_COST, ContinuousKind.SPELL_COST):
        if not isinstance(value, int) or isinstance(value, bool):
            raise CardDataError(f"{where}: {kind} needs a number of generic mana, not {value!r}")
        return value
    if kind in (
        ContinuousKind.LOSE_ALL_ABILITIES,
        ContinuousKind.PT_FACE_DOWN_CREATURES,
        ContinuousKind.LOOK_AT_FACE_DOWN_CREATURES,
        ContinuousKind.LOOK_AT_CARDS_EXILED_WITH_THIS,
        ContinuousKind.CANT_TURN_FACE_UP,
        ContinuousKind.TURN_UP_INSTEAD_OF_TAP_OR_DAMAGE,
        ContinuousKind.EXILE_INSTEAD_OF_LEAVING,
        ContinuousKind.CANT_ATTACK,
        ContinuousKind.CANT_BLOCK,
        ContinuousKind.CANT_ACTIVATE,
        ContinuousKind.ONE_SPELL_EACH_TURN,
        ContinuousKind.DRAW_EXILES_OPPONENTS_TOP_FACE_DOWN,
        ContinuousKind.DRAW_EXILES_IT_FACE_UP,
        ContinuousKind.PLAY_TOP_OF_LIBRARY,
    ):
        return None
    if kind is ContinuousKind.ADD_ABILITIES:
        abilities = value if isinstance(value, list) else [value]
        return tuple(_ability_from_data(a, where) for a in abilities)
    items = list(value) if isinstance(value, list | tuple) else [value]
    if not all(isinstance(v, str) for v in items):
        raise CardDataError(f"{where}: {kind} needs names, not {value!r}")
    if kind in (ContinuousKind.ADD_KEYWORDS, ContinuousKind.REMOVE_KEYWORDS):
        return _keywords(items, where, str(kind))
    return tuple(items)


_FACE_KEYS = frozenset(
    {
        "name", "mana_cost", "colors", "types", "subtypes", "supertypes", "pt", "keywords",
        "abilities", "morph", "megamorph", "disguise", "enchanted_has", "static",
        "enters_as_copy", "escalate", "draft", "text",
    }
)


def _draft_text(d: Any, where: str) -> DraftText:
    """`draft: {face_up: true, reveal: false, at_random: 3, remove: face_down, turn_down: pack}`."""
    with _reading(d):
        return _draft(d, where)


def _draft(d: Any, where: str) -> DraftText:
    if not isinstance(d, dict):
        raise CardDataError(f"{where}: `draft` must be a mapping")
    unknown = set(d) - {"face_up", "reveal", "at_random", "remove", "turn_down"}
    if unknown:
        raise CardDataError(f"{where}: unknown key(s) in `draft`: {', '.join(sorted(map(str, unknown)))}",
                            *sorted(map(str, unknown)))
    at_random = d.get("at_random", 0)
    if not isinstance(at_random, int) or isinstance(at_random, bool) or at_random < 0:
        raise CardDataError(f"{where}: `draft.at_random` must be a number of cards, not {at_random!r}", "at_random")
    return DraftText(
        face_up=_flag(d.get("face_up", False), where, "draft.face_up"),
        reveal=_flag(d.get("reveal", False), where, "draft.reveal"),
        at_random=at_random,
        remove=_enum(Removal, d["remove"], where, "removal", "remove") if d.get("remove") is not None else None,
        turn_down=_enum(DraftLook, d["turn_down"], where, "draft look", "turn_down") if d.get("turn_down") is not None else None,
    )


_BARE_MANA = re.compile(r"[0-9XWUBRGCS]+", re.IGNORECASE)


def is_bare_mana(text: str) -> bool:
    """A cost written without braces ('1G', '3'): costs are written '{1}{G}', so it is no mana cost
    (a card's cost would be read as words no mana pays; an expected one could never match)."""
    return bool(_BARE_MANA.fullmatch(text.strip()))


def _check_cost(cost: Any, where: str, what: str) -> None:
    """A cost is text: mana symbols in braces ('{2}{U}'), or words ("Reveal a red card in your hand");
    '2U' would be read as words, a cost no mana pays, so it is refused."""
    if cost is None:
        return
    if not isinstance(cost, str):
        raise CardDataError(f"{where}: {what} must be text like '{{2}}{{U}}', not {cost!r}")
    if is_bare_mana(cost):
        braced = "".join("{" + c.upper() + "}" for c in re.findall(r"\d+|.", cost.strip()))
        raise CardDataError(f"{where}: {what} is {cost!r}: write mana symbols in braces, like {braced!r}")


def _face_from_data(d: Any, where: str, *, named: bool = True, within: tuple[Any, str] = (None, "")) -> Characteristics:
    """A face's values (the value of a key of another mapping, `within`: a token's, face-down values');
    `named=False`: face-down values an effect gives, which have no name (708.2a)."""
    with _reading(*within), _reading(d):
        return _face(d, where, named)


def _face(d: Any, where: str, named: bool) -> Characteristics:
    if not named:
        if not isinstance(d, dict) or "name" in d:
            raise CardDataError(f"{where}: face-down values are a mapping of a face's keys without a name (708.2a)",
                                "name")
        return replace(_face({**d, "name": "face-down"}, where, True), name=None)
    if not isinstance(d, dict) or not d.get("name") or not isinstance(d.get("name"), str):
        raise CardDataError(f"{where}: a card face needs a name", "name")
    unknown = set(d) - _FACE_KEYS - {"faces", "layout"}
    if unknown:
        close = [f"{k!r}: did you mean {' or '.join(map(repr, m))}?" for k in sorted(map(str, unknown))
                 if (m := close_matches(k, _FACE_KEYS))]
        hint = f" ({'; '.join(close)})" if close else ""
        raise CardDataError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))} in card {d['name']!r}{hint}",
                            *sorted(map(str, unknown)))
    for key in ("colors", "types", "subtypes", "supertypes", "keywords", "enchanted_has", "abilities", "static"):
        if d.get(key) is not None and not isinstance(d[key], list):
            raise CardDataError(f"{where}: `{key}` of {d['name']!r} must be a list", key)
    for key in ("mana_cost", "morph", "megamorph", "disguise", "escalate"):
        with _reading(d, key):
            _check_cost(d.get(key), where, f"`{key}` of {d['name']!r}")
    power = toughness = None
    if d.get("pt") is not None:
        with _reading(d, "pt"):
            power, toughness = _pt(d["pt"], where)
    with _reading(d, "keywords"):
        keywords = _keywords(d.get("keywords"), where, f"`keywords` of {d['name']!r}")
    colors = d.get("colors")
    if colors is None:  # 202.2; devoid: "this object is colorless" (702.114a)
        colors = () if "devoid" in keywords else cost_colors(d.get("mana_cost"))
    bad = [c for c in colors if c not in COLORS]
    if bad:  # a colour indicator (204), or a face with no mana cost: `colors: [R]`
        raise CardDataError(f"{where}: `colors` of {d['name']!r} are letters of {', '.join(COLORS)}, not {bad[0]!r}",
                            "colors")
    with _reading(d, "abilities"):
        abilities = tuple(_ability_from_data(a, where) for a in d.get("abilities") or ())
    with _reading(d, "enchanted_has"):
        enchanted_has = _keywords(d.get("enchanted_has"), where, f"`enchanted_has` of {d['name']!r}")
    with _reading(d, "static"):
        statics = tuple(static_from_data(x, where) for x in d.get("static") or ())
    with _reading(d, "draft"):
        draft = _draft_text(d.get("draft"), where) if d.get("draft") is not None else None
    return Characteristics(
        name=str(d["name"]),
        mana_cost=d.get("mana_cost"),
        colors=frozenset(colors),
        types=frozenset(d.get("types") or ()),
        subtypes=frozenset(d.get("subtypes") or ()),
        supertypes=frozenset(d.get("supertypes") or ()),
        power=power,
        toughness=toughness,
        keywords=keywords,
        abilities=abilities,
        morph=d.get("morph"),
        megamorph=d.get("megamorph"),
        disguise=d.get("disguise"),
        enchanted_has=enchanted_has,
        statics=statics,
        enters_as_copy=bool(d.get("enters_as_copy", False)),
        escalate=d.get("escalate"),
        draft=draft,
        text=str(d.get("text", "")),
    )


def _keywords(raw: Any, where: str, what: str) -> tuple[str, ...]:
    """Keyword abilities as the model keeps them (lowercased); an unknown one is a CardDataError."""
    keywords = tuple(str(k).lower() for k in raw or ())
    for keyword in keywords:
        problem = keyword_problem(keyword)
        if problem is not None:
            raise CardDataError(f"{where}: {what}: {problem}")
    return keywords


def card_from_data(d: Any, where: str = "") -> CardDef:
    """Build a CardDef from a YAML mapping: a face's keys, or `faces: [first, second]` with a
    `layout` (transform when not given)."""
    if not isinstance(d, dict):
        raise CardDataError(f"{where}: a card must be a mapping")
    if "faces" in d:
        if not isinstance(d["faces"], list):
            raise CardDataError(f"{where}: `faces` must be a list", "faces")
        faces = tuple(_face_from_data(f, where, within=(d, "faces")) for f in d["faces"])
        if len(faces) != 2:
            raise CardDataError(f"{where}: a card with faces needs exactly two", "faces")
        layout = _enum(Layout, d.get("layout", "transform"), where, "layout", "layout")
        if layout is Layout.NORMAL:
            raise CardDataError(f"{where}: a card with two faces needs a layout other than normal", "layout")
    else:
        faces = (_face_from_data(d, where),)
        layout = Layout.NORMAL
    return CardDef(faces=faces, source=where, layout=layout)
