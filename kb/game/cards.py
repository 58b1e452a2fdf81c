"""Card definitions: printed characteristics and the small vocabulary of abilities the model knows.

Cards are data (`corpus/cards/*.yaml`); `kb.checks` loads them and hands `CardDef`s to the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

# Trigger events the model emits, and what a card may listen to.
TRIGGER_EVENTS = frozenset(
    {
        "enters",  # this permanent enters the battlefield
        "turned_face_up",  # this permanent is turned face up
        "permanent_you_control_turned_face_up",
        "dies",
        "end_step",  # the beginning of your end step
        "combat_damage_to_player",
        "combat_damage_to_blockers",
    }
)
# Effects a triggered or activated ability may have when it resolves.
ABILITY_EFFECTS = frozenset(
    {
        "form",  # becomes an Aura with enchant creature, manifest the top card, attach to it
        "manifest",  # manifest the top `count` cards
        "gain_life_per_creature",
        "exile_self_and_top_then_manifest",  # Jeskai Infiltrator
        "grant_dies_manifest",  # Whisperwood Elemental's sacrifice ability
        "nothing",  # an ability whose effect the scenarios don't need
    }
)

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


@dataclass(frozen=True, slots=True)
class Ability:
    """A triggered or activated ability: when `event` happens (or on activation), do `effect`."""

    effect: str
    event: str | None = None  # None: an activated ability
    cost: str | None = None  # activated abilities: e.g. "sacrifice", "exile a face-down permanent"
    count: int = 1
    grants: tuple[str, ...] = ()
    text: str = ""


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
    enters_as_copy: bool = False  # Clone: "You may have this creature enter as a copy of ..."
    text: str = ""

    @property
    def mana_value(self) -> int:
        return mana_value(self.mana_cost)

    def is_type(self, card_type: str) -> bool:
        return card_type in self.types

    def without_abilities(self) -> Characteristics:
        return replace(
            self,
            keywords=(),
            abilities=(),
            morph=None,
            megamorph=None,
            disguise=None,
            enchanted_has=(),
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

    @property
    def name(self) -> str:
        return self.faces[0].name or ""

    @property
    def front(self) -> Characteristics:
        return self.faces[0]

    @property
    def is_double_faced(self) -> bool:
        return len(self.faces) > 1


class CardDataError(ValueError):
    """A card definition that the model cannot use."""


def _face_from_data(d: dict[str, Any], where: str) -> Characteristics:
    if not isinstance(d, dict) or not d.get("name"):
        raise CardDataError(f"{where}: a card face needs a name")
    abilities = []
    for a in d.get("abilities") or ():
        if not isinstance(a, dict) or a.get("effect") not in ABILITY_EFFECTS:
            raise CardDataError(f"{where}: unknown ability effect in {a!r}")
        if a.get("when") is not None and a["when"] not in TRIGGER_EVENTS:
            raise CardDataError(f"{where}: unknown trigger event {a['when']!r}")
        abilities.append(
            Ability(
                effect=a["effect"],
                event=a.get("when"),
                cost=a.get("cost"),
                count=int(a.get("count", 1)),
                grants=tuple(a.get("grants") or ()),
                text=str(a.get("text", "")),
            )
        )
    pt = d.get("pt")
    power = toughness = None
    if pt is not None:
        p, _, t = str(pt).partition("/")
        power, toughness = int(p), int(t)
    return Characteristics(
        name=str(d["name"]),
        mana_cost=d.get("mana_cost"),
        colors=frozenset(d.get("colors") or ()),
        types=frozenset(d.get("types") or ()),
        subtypes=frozenset(d.get("subtypes") or ()),
        supertypes=frozenset(d.get("supertypes") or ()),
        power=power,
        toughness=toughness,
        keywords=tuple(k.lower() for k in d.get("keywords") or ()),
        abilities=tuple(abilities),
        morph=d.get("morph"),
        megamorph=d.get("megamorph"),
        disguise=d.get("disguise"),
        enchanted_has=tuple(k.lower() for k in d.get("enchanted_has") or ()),
        enters_as_copy=bool(d.get("enters_as_copy", False)),
        text=str(d.get("text", "")),
    )


def card_from_data(d: dict[str, Any], where: str = "") -> CardDef:
    """Build a CardDef from a YAML mapping: a face's keys, or `faces: [front, back]`."""
    if not isinstance(d, dict):
        raise CardDataError(f"{where}: a card must be a mapping")
    if "faces" in d:
        faces = tuple(_face_from_data(f, where) for f in d["faces"])
        if len(faces) != 2:
            raise CardDataError(f"{where}: a double-faced card needs exactly two faces")
    else:
        faces = (_face_from_data(d, where),)
    return CardDef(faces=faces, source=where)
