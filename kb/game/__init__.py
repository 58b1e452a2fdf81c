"""The rules model: a small, pure-Python game state for face-down rulings (no I/O)."""

from kb.game.cards import Ability, CardDataError, CardDef, Characteristics, card_from_data, mana_value
from kb.game.rules import CURRENT, Rules, RulesDateError
from kb.game.state import Game, GameObject, IllegalAction, Zone

__all__ = [
    "CURRENT",
    "Ability",
    "CardDataError",
    "CardDef",
    "Characteristics",
    "Game",
    "GameObject",
    "IllegalAction",
    "Rules",
    "RulesDateError",
    "Zone",
    "card_from_data",
    "mana_value",
]
