"""Whether a text speaks of the game at all: the test that tells a judge's dated remark ("Quelle:
Notizen vom Prerelease-Briefing, bitte nicht weitergeben.") from a ruling, however short.

A word list can't tell a remark from a terse ruling for sure, so nothing is dropped on it, and only a
judge's own entries are judged by it (`is_remark`: an official ruling or CR clause is one whatever its
words): a page's dated remark is still read as a ruling (every unit lands somewhere), the ingest notes
it, the commands that show it mark it, and `kb search` lists it after the other hits it found
(tryout23 #6, tryout24). kb.ingest.pages keeps a list of its own (`_GAME_WORDS`) for the opposite
question, whether a page's undated text is a ruling that lost its date, where a word counts only with
the endings a web page's words don't share.
"""

from __future__ import annotations

import re
from typing import Iterable

from kb.normalize import match_key

# The words any ruling uses for what it is about, in English, German and Spanish (word starts).
_GAME_WORDS = re.compile(
    r"\b(?:"
    # English
    r"cards?|creature|spell|abilit|permanent|battlefield|player|opponent|control|own|target|counter|damage"
    r"|mana|cost|pay|paid|cast|turn|tap|untap|librar|graveyard|hand|exile|stack|trigger|resol|effect|token"
    r"|cop[yi]|attack|block|combat|life|draw|discard|sacrific|destroy|dies?\b|enter|leave|zone|face"
    r"|morph|megamorph|manifest|disguise|cloak|ward|reveal|choose|chose|phase|step|priority|legend|land"
    r"|artifact|enchant|aura|planeswalker|colou?r|power|toughness|keyword|rules?\b|rulings?\b|game|deck"
    r"|shuffle|name|value|instant|sorcery|upkeep|equip(?:s|ped|ment)?\b|mulligan|play|loses?|gains?|wins?"
    r"|legal|format|constructed|limited|draft|sanction|timeshift|conspirac|printing|printed|edition|oracle"
    r"|sorcer|regenerat|indestructib|hexproof|shroud|fly|flying|flier|trample|deathtouch|lifelink|haste"
    r"|vigilance|reach\b|flash\b|strike|protection|menace|defender|prowess|kicker|flashback|cycl|split"
    r"|halves|emblem|vehicle|crew|saga|chapter|loyalty|commander|monarch|double-faced|transform|meld"
    # German
    r"|karte|kreatur|zauber|fähigkeit|bleibend|spiel|gegner|kontroll|besitz|ziel|marke|schaden|manakost"
    r"|kosten|bezahl|wirk|zug|getappt|tapp|enttapp|bibliothek|friedhof|exil|stapel|auslös|löst|effekt"
    r"|spielstein|kopie|kopier|angreif|angriff|blockt|blocken|kampf|lebenspunkt|zieh|abwerf|opfer|zerstör"
    r"|verdeckt|aufdeck|aufgedeckt|zudeck|zugedeckt|manifestier|grauen|verkleid|tarn|getarnt|abwehr|zeig"
    r"|phase|segment|priorität|artefakt|verzauber|farb|stärke|widerstand|regel|hexerei|spontanzauber"
    r"|sofort|deck|misch|verliert|erhält|gewinnt|druck|edition|erweiterung"
    r"|unzerstörbar|fluchsicher|flieg|flugfähig|trampel|todesberühr|lebensverknüpf|wachsamkeit|reichweite"
    r"|aufblitzen|erstschlag|doppelschlag|schutz|regenerier|kommandeur|fahrzeug|kapitel|loyalität"
    # Spanish
    r"|carta|criatura|hechizo|habilidad|permanente|campo|batalla|jugador|oponente|rival|propietari"
    r"|objetivo|contador|daño|maná|coste|costo|pag|lanz|turno|gira|girad|endere|biblioteca|cementerio"
    r"|mano\b|exili|pila|dispar|resuel|efecto|ficha|copia|atac|bloque|combate|vida|roba|descart"
    r"|sacrific|destru|muere|boca|manifiest|metamorf|disfraz|encubr|rebatir|revel|fase|paso|prioridad"
    r"|tierra|artefacto|encantamiento|color|fuerza|resistencia|regla|juego|mazo|instantáneo|conjuro"
    r"|pierde|gana|formato|edición|impres|colección"
    r"|indestructible|antimaleficio|vuel|arroll|toque mortal|vínculo vital|prisa|vigilancia|alcance|destello"
    r"|primer golpe|dañ|protección|regenera|comandante|vehículo|capítulo|lealtad"
    r")", re.IGNORECASE)
_GAME_SIGNS = re.compile(r"\{[^{}]+\}|\d")  # a mana symbol, a number (2/2, +1/+1, 702.19b)

REMARK_NOTE = "names no card, rules term or game word: a remark, not a ruling?"


def is_remark(text: str, own_page: str | None, cards: Iterable[str | None] = ()) -> bool:
    """Whether an entry is a judge's own (`own_page`: the file its canonical text comes from, None
    when an official source gives it) whose `text` names none of its `cards` and no game word: a
    dated remark more likely than a ruling. The one test the ingest, the commands and search share."""
    return own_page is not None and not speaks_of_the_game(text, cards)


def speaks_of_the_game(text: str, cards: Iterable[str | None] = ()) -> bool:
    """Whether `text` reads as being about the game: a game word (English, German or Spanish), a
    mana symbol or number, or the name of one of `cards` (the card a page files it under)."""
    if _GAME_WORDS.search(text) or _GAME_SIGNS.search(text):
        return True
    key = f" {match_key(text)} "
    return any(name and f" {match_key(name)} " in key for name in cards)
