"""The rules model: a small, pure-Python game state for face-down rulings (no I/O)."""

from kb.game.cards import (
    Ability,
    Affects,
    CardDataError,
    CardDef,
    Characteristics,
    ContinuousKind,
    EffectKind,
    Layout,
    Static,
    TargetKind,
    TriggerEvent,
    card_from_data,
    mana_value,
)
from kb.game.rules import CURRENT, Rules, RulesDateError
from kb.game.state import FaceDownWay, Game, GameObject, IllegalAction, Zone

__all__ = [
    "CURRENT",
    "Ability",
    "Affects",
    "CardDataError",
    "CardDef",
    "Characteristics",
    "ContinuousKind",
    "EffectKind",
    "FaceDownWay",
    "Game",
    "GameObject",
    "IllegalAction",
    "Layout",
    "Rules",
    "RulesDateError",
    "Static",
    "TargetKind",
    "TriggerEvent",
    "Zone",
    "card_from_data",
    "mana_value",
]
