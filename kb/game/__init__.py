"""The rules model: a small, pure-Python game state for face-down rulings (no I/O)."""

from kb.game.cards import (
    Ability,
    Affects,
    CardDataError,
    CardDef,
    Characteristics,
    ContinuousKind,
    EffectKind,
    EffectValue,
    Layout,
    Static,
    TargetKind,
    TriggerEvent,
    card_from_data,
    mana_value,
)
from kb.game.rules import CURRENT, Mechanic, Rules, RulesDateError
from kb.game.state import FaceDownWay, Game, GameEvent, GameObject, IllegalAction, TurnUpWay, Zone

__all__ = [
    "CURRENT",
    "Ability",
    "Affects",
    "CardDataError",
    "CardDef",
    "Characteristics",
    "ContinuousKind",
    "EffectKind",
    "EffectValue",
    "FaceDownWay",
    "Game",
    "GameEvent",
    "GameObject",
    "IllegalAction",
    "Layout",
    "Mechanic",
    "Rules",
    "RulesDateError",
    "Static",
    "TargetKind",
    "TriggerEvent",
    "TurnUpWay",
    "Zone",
    "card_from_data",
    "mana_value",
]
