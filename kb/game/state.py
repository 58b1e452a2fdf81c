"""The game state and the actions the scenarios take on it. Pure Python, no I/O.

Cards are physical and keep a label across zones; every zone change makes a new game object with
a new id (400.7). Characteristics are computed by applying layers 1a (copy), 1b (face down),
4 (type), 6 (abilities) and 7 (power/toughness) to the printed face (613).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Concatenate, ParamSpec, TypeVar

from kb.game.cards import (
    LAYER,
    Ability,
    ObjectFilter,
    mana_symbols,
    ActivationCost,
    Affects,
    CardDef,
    Characteristics,
    ContinuousKind,
    CounterKind,
    EffectKind,
    EffectValue,
    Layout,
    PLAYER_TARGETS,
    ExileFrom,
    PlayLasts,
    Static,
    TargetKind,
    TriggerEvent,
    KEYWORD_ABILITIES,
    SPEND_ONLY,
    Spend,
    SpendOnly,
    face_down_characteristics,
    mana_value,
)
from kb.game.rules import Mechanic, Rules

_P = ParamSpec("_P")
_R = TypeVar("_R")


class Zone(StrEnum):
    LIBRARY = "library"
    HAND = "hand"
    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    EXILE = "exile"
    STACK = "stack"
    COMMAND = "command"  # conspiracies with hidden agenda start here face down (702.106)
    OUTSIDE = "outside"  # left the game with its owner (800.4a)


class IllegalAction(ValueError):
    """An action the rules don't allow; the state is unchanged."""


class MissingChoice(IllegalAction):
    """A choice the rules leave to a player, and the action doesn't make: nothing happens (the
    model doesn't choose for them); a scenario that leaves it out is incomplete, not illegal."""


class NotInRules(IllegalAction):
    """The action needs a mechanic the rules of this date don't have yet (disguise under 2014's):
    a scenario about it does not apply then, it does not fail."""


class FaceDownWay(StrEnum):
    """How an object became face down (708.6 asks players to track this)."""

    MANIFEST = "manifest"
    CLOAK = "cloak"
    MORPH = "morph"
    MEGAMORPH = "megamorph"
    DISGUISE = "disguise"
    EFFECT = "effect"  # Ixidron, Break Open's target, an exiled-face-down card...
    HIDDEN_AGENDA = "hidden_agenda"  # a conspiracy in the command zone (702.106)
    SCHEME = "scheme"  # a scheme in its owner's scheme deck, in the command zone (904.3)


class TurnUpWay(StrEnum):
    """How the special action turns a face-down permanent face up (116.2b)."""

    MANA = "mana"  # a manifested or cloaked creature card, for its mana cost (701.40b, 701.58b)
    MORPH = "morph"  # 702.37e (a megamorph ability is a morph ability: 702.37b)
    MEGAMORPH = "megamorph"
    DISGUISE = "disguise"  # 702.168d


class Pile(StrEnum):
    """Which pile an object was grouped into (700.3); piles stay in their zone (700.3c)."""

    FACE_DOWN = "face_down"  # nobody may look at its cards while they are in it
    FACE_UP = "face_up"  # shown to every player


class GameEvent(StrEnum):
    """What else the game records besides trigger events, for a scenario's expectations."""

    TRIGGERED = "triggered"  # an ability triggered (its source's label)
    FIZZLED = "fizzled"  # a spell or ability whose targets all became illegal (608.2b)
    COUNTERED = "countered"
    LOOKED = "looked"  # a player looked at a face-down object as an ability resolved (708.5)
    REVEALED = "revealed"
    SPECIAL_ACTION = "special_action"  # turned face up by the special action (116.2b)


# The ways a card can be cast face down, and the mechanic each needs (702.37c, 702.168b);
# `FaceDownWay.EFFECT` is an effect's permission (Illusionary Mask) and needs none.
CAST_FACE_DOWN: dict[FaceDownWay, Mechanic | None] = {
    FaceDownWay.MORPH: Mechanic.MORPH,
    FaceDownWay.MEGAMORPH: Mechanic.MEGAMORPH,
    FaceDownWay.DISGUISE: Mechanic.DISGUISE,
    FaceDownWay.EFFECT: None,
}
# The mechanic each way to put a permanent onto the battlefield face down needs.
MECHANIC_OF: dict[FaceDownWay, Mechanic] = {
    FaceDownWay.MANIFEST: Mechanic.MANIFEST,
    FaceDownWay.CLOAK: Mechanic.CLOAK,
    FaceDownWay.MORPH: Mechanic.MORPH,
    FaceDownWay.MEGAMORPH: Mechanic.MEGAMORPH,
    FaceDownWay.DISGUISE: Mechanic.DISGUISE,
}
_MANIFESTED = (FaceDownWay.MANIFEST, FaceDownWay.CLOAK)
_WARDED = (FaceDownWay.CLOAK, FaceDownWay.DISGUISE)  # 701.58a, 702.168a: ward {2} face down


def face_down_refusal(rules: Rules, way: FaceDownWay) -> str | None:
    """Why nothing can be face down `way` under `rules` (its mechanic is newer), or None."""
    mechanic = MECHANIC_OF.get(way)
    if mechanic is not None and not rules.knows(mechanic):
        return f"{mechanic} does not exist in the rules of {rules.date}"
    return None


@dataclass
class Effect:
    """A continuous effect applied to one object; its layer follows from its kind (613)."""

    kind: ContinuousKind
    value: EffectValue = None
    timestamp: int = 0
    until_end_of_turn: bool = False

    @property
    def layer(self) -> float:
        return LAYER.get(self.kind, 0)


@dataclass
class Card:
    """A physical card (or token) in the game, known by its scenario label."""

    label: str
    definition: CardDef
    owner: str
    token: bool = False
    revealed: bool = False  # shown to all players at some point (701.40g, 708.9)
    commander_casts: int | None = None  # a commander: times cast from the command zone (903.8)
    is_copy: bool = False  # a copy of a card an effect created to cast it (707.12); 704.5e: gone off the stack


@dataclass
class GameObject:
    oid: int
    card: Card
    zone: Zone
    controller: str
    timestamp: int
    face_down_by: FaceDownWay | None = None  # None: face up
    tapped: bool = False
    attacking: bool = False
    blocked: bool = False
    blocking: bool = False
    blocked_by: list[int] = field(default_factory=list)  # an attacker's blockers, in the order declared
    damage: int = 0
    targets: list[int] = field(default_factory=list)  # a spell's targets (object ids)
    target_players: list[str] = field(default_factory=list)  # a spell's targets that are players (115.1)
    x: int = 0  # the X announced as the spell was cast (107.3a); 0 anywhere but the stack (107.3g)
    modes: tuple[int, ...] = ()  # a modal spell's chosen modes (700.2a, 601.2b)
    noted: CardDef | None = None  # the card whose name an effect noted for it (Magar of the Magic Strings)
    choice: object = None  # a choice made as it resolves or turns face up
    copy_until_face_down: bool = False  # Vesuvan Shapeshifter's copy effect ends when it turns face down
    face_down_values: Characteristics | None = None  # 708.2a: face down "as a 5/5 artifact creature"
    exiled_with: int | None = None  # the object whose effect exiled it (607: linked abilities)
    exiled_by: str | None = None  # the player who exiled it with that object ("cards they exiled with X")
    counters: dict[CounterKind, int] = field(default_factory=dict)  # 122.1: by kind
    attached_to: int | None = None
    copy_of: Characteristics | None = None  # layer 1a: copiable values acquired
    effects: list[Effect] = field(default_factory=list)
    face_index: int = 0  # double-faced cards: 0 front, 1 back
    playable: bool = False  # an effect lets `playable_by` play it (an exiled card, the top of a library)
    playable_by: str | None = None  # the player it lets play it; None: its owner
    playable_lasts: PlayLasts = PlayLasts.TURN
    may_look: set[str] = field(default_factory=set)  # players an effect lets look (708.5)
    # Players who know which card a face-down object is without the right to look at it: it was
    # face up in a public zone when it became face down (708.6: its controller must keep it
    # distinguishable), or they looked at it to separate it into a pile (700.3).
    identity_known_to: set[str] = field(default_factory=set)
    pile: Pile | None = None  # the pile an effect grouped it into (700.3), until it leaves the zone

    @property
    def label(self) -> str:
        return self.card.label

    @property
    def plus_counters(self) -> int:
        return self.counters.get(CounterKind.PLUS_ONE, 0)

    @plus_counters.setter
    def plus_counters(self, n: int) -> None:
        self.counters[CounterKind.PLUS_ONE] = n

    @property
    def face_down(self) -> bool:
        return self.face_down_by is not None


@dataclass
class StackAbility:
    """A triggered or activated ability on the stack; it resolves even if its source left (113.7a)."""

    source_oid: int
    source_label: str
    controller: str
    ability: Ability
    description: str
    targets: list[int] = field(default_factory=list)
    spell_oid: int | None = None  # ward: the spell it counters unless its cost is paid
    last_known: GameObject | None = None  # the source as it last existed, if it left (608.2h)
    awaiting_targets: bool = False  # its controller has yet to choose its targets (603.3d)
    player: str | None = None  # the player its trigger event is about ("that player": whose upkeep it is)
    target_players: list[str] = field(default_factory=list)  # its targets that are players (115.1)


@dataclass(frozen=True, slots=True)
class Mana:
    """One mana in a pool (106.4), with what produced it and how it may be spent (106.6)."""

    symbol: str  # "C", "G", ...
    source: str  # the label of the object whose ability produced it
    spend_only: SpendOnly | None = None


@dataclass(frozen=True, slots=True)
class CastChoice:
    """The choices for a spell cast while another spell or ability resolves (608.2g, 707.12),
    made as for any spell cast (601.2b-c): its targets (cards or players), X, its modes."""

    targets: tuple[str, ...] = ()
    x: int | None = None
    modes: tuple[int, ...] = ()


@dataclass
class Player:
    name: str
    life: int = 20
    mana_pool: list[Mana] = field(default_factory=list)
    # the spells cast this turn, each as it was cast: (face down, its values), for "one spell each turn"
    # and "the first ... spell you cast each turn"
    cast_this_turn: list[tuple[bool, Characteristics]] = field(default_factory=list)
    library: list[int] = field(default_factory=list)  # object ids, top first
    in_game: bool = True
    land_played: bool = False
    top_revealed: bool = False  # plays with the top card of their library revealed
    cant_cast_names: set[str] = field(default_factory=set)  # "can't cast spells with the name ..." (101.2)


def _unchanged_if_refused(action: Callable[Concatenate[Game, _P], _R]) -> Callable[Concatenate[Game, _P], _R]:
    """An action refused partway (a choice refused after a first instruction was followed, 608.2d)
    leaves the game as it was: IllegalAction promises an unchanged state."""

    @functools.wraps(action)
    def atomic(game: Game, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        before = copy.deepcopy(vars(game))
        try:
            return action(game, *args, **kwargs)
        except IllegalAction:
            vars(game).update(before)
            raise

    return atomic


class Game:
    """A two-or-more player game reduced to what face-down rulings need."""

    def __init__(self, players: list[str], rules: Rules | None = None) -> None:
        if not players:
            raise ValueError("a game needs at least one player")
        self.rules = rules or Rules()
        self.players: dict[str, Player] = {p: Player(p) for p in players}
        self._reading_filters: set[int] = set()  # objects whose filtered statics are being decided
        # delayed triggers at the beginning of the next end step (603.7): (card object id, its controller)
        self.next_end_step: list[tuple[int, str]] = []
        self.active = players[0]
        self.objects: dict[int, GameObject] = {}
        self.cards: dict[str, Card] = {}
        self.stack: list[StackAbility | int] = []  # top last
        self.events: list[tuple[GameEvent | TriggerEvent, str]] = []  # (event, label), for expectations
        # each GameEvent.TRIGGERED of `events`: (its index there, the source's label, what it triggered on),
        # so an expectation can tell a card's enters ability from its turned-face-up one
        self.triggers: list[tuple[int, str, TriggerEvent]] = []
        self._next_oid = 1
        self._clock = 0
        self.combat_damage_prevented = False  # a prevention effect until end of turn (615.1)

    # ---- bookkeeping -------------------------------------------------------------------------

    def _tick(self) -> int:
        self._clock += 1
        return self._clock

    def _new_object(self, card: Card, zone: Zone, controller: str | None = None) -> GameObject:
        obj = GameObject(self._next_oid, card, zone, controller or card.owner, self._tick())
        self._next_oid += 1
        self.objects[obj.oid] = obj
        return obj

    def add_card(
        self, label: str, definition: CardDef, owner: str, zone: Zone, *, token: bool = False
    ) -> GameObject:
        """Setup: put a card into a zone (library cards go to the bottom, so list them top first)."""
        if label in self.cards:
            raise ValueError(f"duplicate card label: {label!r}")
        if owner not in self.players:
            raise ValueError(f"unknown player: {owner!r}")
        card = Card(label, definition, owner, token=token)
        self.cards[label] = card
        obj = self._new_object(card, zone)
        if zone is Zone.LIBRARY:
            self.players[owner].library.append(obj.oid)
        return obj

    def _fresh_label(self, label: str) -> str:
        """`label`, or with a number from 2 on when a card already has it ("Goblin token 2")."""
        n, fresh = 1, label
        while fresh in self.cards:
            n += 1
            fresh = f"{label} {n}"
        return fresh

    def create_token(
        self, controller: str, definition: CardDef, *, tapped: bool = False, copy_of: Characteristics | None = None
    ) -> GameObject:
        """An effect creates a token on the battlefield under `controller`'s control, its owner
        (111.2); `copy_of`: the copiable values it copies (707.2). Labelled "<name> token" (numbered
        from the second on); it enters like any permanent (603.6a)."""
        name = (copy_of.name if copy_of is not None else definition.name) or "nameless"
        label = self._fresh_label(f"{name} token")
        card = Card(label, definition, controller, token=True)
        self.cards[label] = card
        obj = self._new_object(card, Zone.OUTSIDE, controller)
        obj.copy_of = copy_of
        obj.tapped = tapped
        self._as_enters(obj)
        obj.zone = Zone.BATTLEFIELD
        self._entered(obj)
        return obj

    def tokens(self, player: str) -> list[GameObject]:
        """The tokens `player` controls on the battlefield."""
        return [o for o in self.battlefield() if o.card.token and o.controller == player]

    def obj(self, label: str) -> GameObject:
        """The current object of the card called `label` (the newest one, 400.7)."""
        if label not in self.cards:
            raise IllegalAction(f"no card called {label!r}")
        found = [o for o in self.objects.values() if o.card.label == label]
        if not found:
            raise IllegalAction(f"{label} is no longer in the game")
        return max(found, key=lambda o: o.oid)

    def battlefield(self) -> list[GameObject]:
        return sorted(
            (o for o in self.objects.values() if o.zone is Zone.BATTLEFIELD),
            key=lambda o: o.timestamp,
        )

    def library(self, player: str) -> list[GameObject]:
        return [self.objects[oid] for oid in self.players[player].library]

    def _remove_from_zone(self, obj: GameObject) -> None:
        if obj.zone is Zone.LIBRARY:
            self.players[obj.card.owner].library.remove(obj.oid)
        if obj.zone is Zone.STACK and obj.oid in self.stack:
            self.stack.remove(obj.oid)
        obj.zone = Zone.OUTSIDE  # the old object is gone; a new one exists in the new zone
        del self.objects[obj.oid]

    # ---- characteristics (613) ---------------------------------------------------------------

    def printed(self, obj: GameObject) -> Characteristics:
        return obj.card.definition.faces[obj.face_index]

    def copiable_values(self, obj: GameObject) -> Characteristics:
        """707.2: the printed values as modified by copy effects (1a) and face-down status (1b)."""
        values = obj.copy_of if obj.copy_of is not None else self.printed(obj)
        if obj.face_down:
            values = obj.face_down_values or face_down_characteristics(ward=obj.face_down_by in _WARDED)
        return values

    def characteristics(
        self, obj: GameObject, *, ignore_face_down: bool = False, statics: bool = True
    ) -> Characteristics:
        """The object's characteristics after layers 1-7 (`ignore_face_down`: as if face up;
        `statics`: include other permanents' static abilities)."""
        if ignore_face_down:
            ch = obj.copy_of if obj.copy_of is not None else self.printed(obj)
        else:
            ch = self.copiable_values(obj)
        effects: list[Effect] = list(obj.effects)
        if obj.zone is Zone.BATTLEFIELD and statics:
            effects.extend(self._static_effects_on(obj, as_face_up=ignore_face_down))
        for eff in sorted(effects, key=lambda e: (e.layer, e.timestamp)):
            if eff.kind is ContinuousKind.PT_FACE_DOWN_CREATURES:
                n = sum(1 for o in self.battlefield() if o.face_down and "Creature" in self.copiable_values(o).types)
                eff = Effect(ContinuousKind.SET_PT, (n, n), eff.timestamp)
            ch = _apply(ch, eff)
        if obj.zone is Zone.BATTLEFIELD and obj.plus_counters and ch.power is not None and ch.toughness is not None:
            ch = replace(
                ch, power=ch.power + obj.plus_counters, toughness=ch.toughness + obj.plus_counters
            )  # layer 7d
        return ch

    def _static_effects_on(self, obj: GameObject, *, as_face_up: bool = False) -> list[Effect]:
        """Effects of the static abilities of permanents on the battlefield that apply to `obj`
        (each with its source's timestamp, 613.7a)."""
        out = []
        for source in self.battlefield():
            sch = self.characteristics(source, statics=False)
            statics = list(sch.statics)
            if sch.enchanted_has:
                statics.append(Static(Affects.ENCHANTED, ContinuousKind.ADD_KEYWORDS, sch.enchanted_has))
            for st in statics:
                if st.while_devotion_below is not None:
                    color, below = st.while_devotion_below
                    if self.devotion(source.controller, color) >= below:
                        continue
                if self._affects(source, st.affects, obj, as_face_up):
                    if st.filter is not None and st.affects is not Affects.YOU and not self._static_filter_holds(
                        st.filter, obj, source.controller
                    ):
                        continue
                    out.append(Effect(st.kind, st.value, source.timestamp))
        return out

    def _static_filter_holds(self, f: ObjectFilter, obj: GameObject, controller: str) -> bool:
        """Whether a static ability limited by `f` ("creatures with no abilities get +2/+2")
        applies to `obj`: its characteristics are read with every other effect applied, so
        abilities granted or removed in layer 6 count (613.1, 613.8); filtered effects are left
        out of that reading, which is what keeps it from reading itself."""
        if obj.oid in self._reading_filters:
            return False
        self._reading_filters.add(obj.oid)
        try:
            ch = self.characteristics(obj)
        finally:
            self._reading_filters.discard(obj.oid)
        if f.no_abilities and ch.has_abilities:
            return False
        return _matches_values(f, ch, obj.controller, controller)

    def devotion(self, player: str, color: str) -> int:
        """700.5: the mana symbols of `color` in the mana costs of permanents `player` controls (a
        hybrid symbol counts for each of its colours); a face-down permanent has no mana cost
        (708.2a), so it adds nothing. Mana costs are copiable values (layer 1), so no other
        continuous effect is needed to count them."""
        total = 0
        for obj in self.battlefield():
            if obj.controller != player:
                continue
            cost = self.copiable_values(obj).mana_cost
            total += sum(1 for symbol in mana_symbols(cost) if color in symbol.split("/"))
        return total

    def _affects(self, source: GameObject, affects: Affects, obj: GameObject, as_face_up: bool = False) -> bool:
        if affects is Affects.SELF:
            return obj is source
        if affects in (Affects.ENCHANTED, Affects.EQUIPPED):
            return source.attached_to == obj.oid and obj is not source
        if affects is Affects.YOU:
            return False
        own = self.characteristics(obj, statics=False, ignore_face_down=as_face_up)
        if affects is Affects.NONBASIC_LANDS:
            return "Land" in own.types and "Basic" not in own.supertypes
        creature = "Creature" in own.types
        if affects is Affects.CREATURES_YOU_CONTROL:
            return creature and obj.controller == source.controller
        if affects is Affects.FACE_DOWN_CREATURES_YOU_CONTROL:
            return creature and obj.face_down and obj.controller == source.controller
        if affects is Affects.FACE_DOWN_CREATURES:
            return creature and obj.face_down
        if affects is Affects.CREATURES_OPPONENTS_CONTROL:
            return creature and obj.controller != source.controller
        if affects is Affects.CREATURES:
            return creature
        return False

    def _player_permission(self, player: str, kind: ContinuousKind) -> bool:
        return any(
            st.affects is Affects.YOU and st.kind is kind
            for source in self.battlefield()
            if source.controller == player
            for st in self.characteristics(source, statics=False).statics
        )

    def _player_modifier(
        self, player: str, kind: ContinuousKind, *, sign: int = 0, spell: Characteristics | None = None
    ) -> int:
        """Cost modifiers from static abilities of permanents `player` controls and of their face-up
        schemes; `sign` 1 or -1: only the increases or only the reductions (601.2f); one with a
        filter ("Dragon spells") counts only for a `spell` that matches it, as it is on the stack
        (a face-down spell by its face-down values, 708.2a)."""
        total = 0
        for source in self._static_sources():
            if source.controller != player:
                continue
            for st in self.characteristics(source, statics=False).statics:
                if st.affects is Affects.YOU and st.kind is kind and isinstance(st.value, int):
                    if st.filter is not None and (spell is None or not _matches_values(st.filter, spell, player, player)):
                        continue
                    if st.first_each_turn and any(
                        (face_down or kind is not ContinuousKind.FACE_DOWN_SPELL_COST)
                        and (st.filter is None or _matches_values(st.filter, values, player, player))
                        for face_down, values in self.players[player].cast_this_turn
                    ):
                        continue  # "the first ... spell you cast each turn": an earlier one was it
                    if sign == 0 or st.value * sign > 0:
                        total += st.value
        return total

    def _static_sources(self) -> list[GameObject]:
        """Objects whose static abilities apply: permanents, and face-up (ongoing) schemes in the
        command zone (904.6, 113.6)."""
        schemes = [
            o for o in self.objects.values()
            if o.zone is Zone.COMMAND and not o.face_down and "Scheme" in o.card.definition.card_types
        ]
        return self.battlefield() + sorted(schemes, key=lambda o: o.timestamp)

    def set_in_motion(self, player: str) -> GameObject:
        """701.32a: move the top scheme of `player`'s scheme deck off it and turn it face up. No
        player gets priority in between (701.32b), so an ongoing scheme's static ability applies
        at once; "when you set this scheme in motion" triggers. Returns the scheme."""
        deck = sorted(
            (o for o in self.objects.values()
             if o.zone is Zone.COMMAND and o.card.owner == player and o.face_down_by is FaceDownWay.SCHEME),
            key=lambda o: o.oid,
        )
        if not deck:
            raise IllegalAction(f"{player} has no scheme deck")
        scheme = deck[0]
        scheme.face_down_by = None
        self._reveal(scheme)
        self._emit(TriggerEvent.SET_IN_MOTION, scheme)
        return scheme

    def _spell_limit(self, player: str) -> str | None:
        """Why `player` can't cast another spell this turn (a face-up "each opponent can't cast
        more than one spell each turn"), or None."""
        if not self.players[player].cast_this_turn:
            return None
        for source in self._static_sources():
            for st in self.characteristics(source, statics=False).statics:
                if st.kind is ContinuousKind.ONE_SPELL_EACH_TURN and st.affects is Affects.OPPONENTS:
                    if source.controller != player:
                        return f"{player} can't cast more than one spell each turn ({source.label})"
        return None

    def forbid_casting_name(self, player: str, label: str) -> bool:
        """An effect: `player` can't cast spells with the same name as `label` (Reflector Mage),
        its name read now; a face-down object has no name (708.2a), so nothing is forbidden
        (201.2). Returns whether a name was forbidden."""
        name = self.characteristics(self.obj(label)).name
        if name is None:
            return False
        self.players[player].cant_cast_names.add(name)
        return True

    def prohibited(self, obj: GameObject, kind: ContinuousKind) -> bool:
        """101.2: a "can't" effect applies."""
        effects = list(obj.effects)
        if obj.zone is Zone.BATTLEFIELD:
            effects += self._static_effects_on(obj)
        return any(e.kind is kind for e in effects)

    def is_creature(self, obj: GameObject) -> bool:
        return "Creature" in self.characteristics(obj).types

    # ---- information (708.5, 708.9, 406.3) ---------------------------------------------------

    def can_see(self, player: str, obj: GameObject) -> bool:
        """Whether `player` may look at the front of `obj`."""
        if not self.players[player].in_game:
            return False
        if obj.pile is Pile.FACE_DOWN:
            return False  # nobody looks at a face-down pile until it has moved (Fortune's Favor)
        if obj.pile is Pile.FACE_UP:
            return True
        if not obj.face_down:
            return obj.zone not in (Zone.LIBRARY, Zone.HAND) or player == obj.card.owner
        if obj.zone in (Zone.BATTLEFIELD, Zone.STACK) and player == obj.controller:
            return True  # 708.5
        if obj.zone is Zone.COMMAND and player == obj.card.owner:
            return True  # 702.106b: the owner of a face-down conspiracy knows it
        if obj.zone is Zone.BATTLEFIELD and self.is_creature(obj) and self._player_permission(
            player, ContinuousKind.LOOK_AT_FACE_DOWN_CREATURES
        ):
            return True  # Keeper of the Lens: face-down creatures, never face-down spells
        if player in self._allowed_to_look_by_source(obj):
            return True
        return player in obj.may_look  # 406.3: a face-down exiled card only if an effect allows

    def _allowed_to_look_by_source(self, obj: GameObject) -> set[str]:
        """The players a static ability of the object that exiled `obj` lets look at it now
        ("You may look at cards exiled with Grimoire Thief"): 607.2a, only that very object, on the
        battlefield; whoever controls it now (`you`), or the player who exiled the card with it
        (`players`: Shared Fate)."""
        if obj.zone is not Zone.EXILE or obj.exiled_with not in self.objects:
            return set()
        source = self.objects[obj.exiled_with]
        if source.zone is not Zone.BATTLEFIELD:
            return set()
        allowed: set[str] = set()
        for st in self.characteristics(source, statics=False).statics:
            if st.kind is not ContinuousKind.LOOK_AT_CARDS_EXILED_WITH_THIS:
                continue
            if st.affects is Affects.YOU:
                allowed.add(source.controller)
            elif st.affects is Affects.PLAYERS and obj.exiled_by is not None:
                allowed.add(obj.exiled_by)
        return allowed

    def _remember_looks(self) -> None:
        """406.3: a player once allowed to look at a card exiled face down may continue to look at
        it while it stays exiled, after the permission ends (its source leaves, changes control or
        loses the ability). Kept on the object (`may_look`), so a new object, 400.7, has none.
        Called before anything that may end a permission, and whenever a player would receive
        priority (704.3)."""
        if not self.rules.keeps_looking_once_allowed:
            return
        for obj in self.objects.values():
            if obj.face_down and obj.zone is Zone.EXILE:
                obj.may_look |= self._allowed_to_look_by_source(obj)

    def knows_identity(self, player: str, obj: GameObject) -> bool:
        """Whether `player` knows which card `obj` is: they may look at it, or they were shown
        which card this object is (`identity_known_to`: it was revealed, or they saw it become face
        down)."""
        if not self.players[player].in_game:
            return False
        return self.can_see(player, obj) or player in obj.identity_known_to

    def _everyone(self) -> set[str]:
        return {p.name for p in self.players.values() if p.in_game}

    def _reveal(self, obj: GameObject) -> None:
        """Show `obj` to every player: from now on they all know which card this object is (a
        new object it becomes later, 400.7, is known only if that is shown too)."""
        obj.card.revealed = True
        obj.identity_known_to |= self._everyone()
        self.events.append((GameEvent.REVEALED, obj.label))

    # ---- events, triggers, state-based actions -----------------------------------------------

    def _emit(
        self,
        event: TriggerEvent,
        obj: GameObject,
        *,
        last_known: Characteristics | None = None,
        left: GameObject | None = None,
        player: str | None = None,
    ) -> None:
        """`event` happened to `obj`: put every ability that listens on the stack (603.2); `player`: the player
        the event is about ("that player": the one `obj` dealt combat damage to)."""
        self.events.append((event, obj.label))
        own = last_known or self.characteristics(obj)
        listeners: list[tuple[GameObject, Ability]] = [(obj, a) for a in own.abilities if a.event == event]
        others = _OTHERS.get(event, ())
        if others:
            is_creature = "Creature" in own.types
            for source in list(self.objects.values()):
                if source is obj and event not in (TriggerEvent.TURNED_FACE_UP, TriggerEvent.ATTACKS, TriggerEvent.BLOCKED):
                    continue
                in_graveyard = source.zone is Zone.GRAVEYARD
                if source.zone is not Zone.BATTLEFIELD and not in_graveyard:
                    continue
                ch = self.characteristics(source)
                for ability in ch.abilities:
                    if ability.event not in others:
                        continue
                    from_graveyard = ability.event is TriggerEvent.PERMANENT_TURNED_FACE_UP_FROM_GRAVEYARD
                    if in_graveyard != from_graveyard:
                        continue
                    yours = source.controller == obj.controller if not in_graveyard else source.card.owner == obj.controller
                    if ability.event in _YOURS and not yours:
                        continue
                    if ability.event in _CREATURE_ONLY and not is_creature:
                        continue
                    if ability.event is TriggerEvent.ANOTHER_CREATURE_YOU_CONTROL_TURNED_FACE_UP and source is obj:
                        continue
                    if ability.event in (TriggerEvent.ANOTHER_CREATURE_ENTERS, TriggerEvent.ANOTHER_CREATURE_DIES) and (
                        source is obj or not is_creature
                    ):
                        continue
                    listeners.append((source, ability))
        for source, ability in listeners:
            if ability.target in _CHOSEN_TARGETS:
                self._trigger(source, ability, left=left if source is obj else None, player=player)
                continue
            self._trigger(source, ability, targets=[obj.oid] if ability.target else [], left=left if source is obj else None,
                          player=player)

    def _trigger(
        self,
        source: GameObject,
        ability: Ability,
        *,
        targets: list[int] | None = None,
        left: GameObject | None = None,
        player: str | None = None,
    ) -> None:
        """Put a triggered ability on the stack; `left`: the object its source was on the
        battlefield, for a leaves-the-battlefield ability linked to what that object did (607.2a);
        `player`: the player its event is about ("that player")."""
        if ability.if_counter is not None and not source.counters.get(ability.if_counter):
            return  # 603.4: an intervening "if" that is false: it doesn't trigger
        desc = ability.text or f"{source.label}: {ability.effect}"
        controller = source.controller if source.zone is not Zone.GRAVEYARD else source.card.owner
        item = StackAbility(source.oid, source.label, controller, ability, desc, list(targets or []), player=player)
        if left is not None and ability.effect in _EXILED_WITH_EFFECTS:
            item.source_oid, item.last_known = left.oid, left
        if ability.event is None:
            raise ValueError(f"{desc}: an ability with no trigger event cannot trigger")
        self._triggered(source.label, ability.event)
        if ability.target in _CHOSEN_TARGETS:
            players = [p for p in self.players if self.is_legal_player_target(ability.target, p, controller)]
            if not self._target_candidates(ability.target, source) and not players:
                return  # 603.3d: no legal target can be chosen, so it is removed from the stack
            item.awaiting_targets = True
        self.stack.append(item)

    def _triggered(self, label: str, event: TriggerEvent) -> None:
        """Record that an ability of `label` triggered on `event`."""
        self.triggers.append((len(self.events), label, event))
        self.events.append((GameEvent.TRIGGERED, label))

    def _target_candidates(self, kind: TargetKind, source: GameObject) -> list[GameObject]:
        """The objects an ability of `source` could target now (`another`: not its source)."""
        return [
            o for o in self.objects.values()
            if self.is_legal_target(kind, o, source.controller)
            and not (kind is TargetKind.ANOTHER_CREATURE and o.oid == source.oid)
        ]

    def choose_targets(self, label: str, targets: list[str]) -> None:
        """Choose the targets of the newest triggered ability of `label` that waits for them
        (603.3d: as it is put on the stack; a target it must have can't be left out)."""
        waiting = [i for i in self.stack if isinstance(i, StackAbility) and i.awaiting_targets and i.source_label == label]
        if not waiting:
            raise IllegalAction(f"no ability of {label} waits for targets")
        item = waiting[-1]
        kind = item.ability.target
        assert kind is not None
        if kind in (TargetKind.PLAYER, TargetKind.OPPONENT):  # "target player", "target opponent" (115.1)
            if len(targets) != 1 or targets[0] not in self.players or not self.is_legal_player_target(
                    kind, targets[0], item.controller):
                raise IllegalAction(f"{label}'s ability needs one target: {kind}, not {', '.join(targets) or 'none'}")
            item.awaiting_targets = False
            item.target_players.append(targets[0])
            return
        source = self.objects.get(item.source_oid) or item.last_known
        chosen = [self.obj(t) for t in targets]
        allowed = {o.oid for o in self._target_candidates(kind, source)} if source is not None else set()
        if len(chosen) != 1 or chosen[0].oid not in allowed:
            raise IllegalAction(f"{label}'s ability needs one target: {kind}, not {', '.join(targets) or 'none'}")
        item.awaiting_targets = False
        self._target(item.source_oid, item.controller, chosen[0], item.targets)

    def check_state_based_actions(self) -> None:
        """704.5f/g (toughness 0 or less, lethal damage), 704.5m (an Aura attached illegally) and
        704.5n (an Equipment attached to a permanent that isn't a creature)."""
        self._remember_looks()
        changed = True
        while changed:
            changed = False
            for obj in self.battlefield():
                ch = self.characteristics(obj)
                if "Creature" in ch.types and ch.toughness is not None and (
                    ch.toughness <= 0 or 0 < ch.toughness <= obj.damage
                ):
                    self._move(obj, Zone.GRAVEYARD)
                    changed = True
                    break
                if "Aura" in ch.subtypes:
                    host = self.objects.get(obj.attached_to) if obj.attached_to else None
                    if host is None or host.zone is not Zone.BATTLEFIELD or not self.is_creature(host):
                        self._move(obj, Zone.GRAVEYARD)
                        changed = True
                        break
                if "Equipment" in ch.subtypes and obj.attached_to is not None:
                    host = self.objects.get(obj.attached_to)
                    if host is None or host.zone is not Zone.BATTLEFIELD or not self.is_creature(host):
                        obj.attached_to = None  # 704.5n: unattached; it stays on the battlefield
                        changed = True
                        break

    # ---- zone changes ------------------------------------------------------------------------

    def _move(
        self, obj: GameObject, zone: Zone, *, reveal: bool = True, face_down: bool = False
    ) -> GameObject:
        """Move to another zone as a new object (400.7), revealing a face-down permanent or spell
        (708.9). `face_down`: exiled face down (406.3)."""
        self._remember_looks()  # the object leaving may be the source of a permission to look
        last_known = self.characteristics(obj)
        was_on_battlefield = obj.zone is Zone.BATTLEFIELD
        if was_on_battlefield and zone not in (Zone.EXILE, Zone.BATTLEFIELD) and any(
            st.kind is ContinuousKind.EXILE_INSTEAD_OF_LEAVING and st.affects is Affects.SELF for st in last_known.statics
        ):
            zone = Zone.EXILE  # 614.1a: "exile it instead of putting it anywhere else"
        was_creature = was_on_battlefield and "Creature" in last_known.types
        # 708.9: revealed as it moves, so everyone knows which card the new object is
        revealing = obj.face_down and obj.zone in (Zone.BATTLEFIELD, Zone.STACK) and reveal
        self._remove_from_zone(obj)
        for other in self.objects.values():
            if other.attached_to == obj.oid:
                other.attached_to = None
        if obj.card.token and zone is not Zone.BATTLEFIELD:
            zone = Zone.OUTSIDE  # 704.5d: a token that left the battlefield ceases to exist
        if obj.card.is_copy and zone not in (Zone.STACK, Zone.BATTLEFIELD):
            zone = Zone.OUTSIDE  # 704.5e: a copy of a card elsewhere than the stack or battlefield ceases to exist
        new = self._new_object(obj.card, zone, obj.card.owner)
        if revealing:
            self._reveal(new)
        if face_down and zone is Zone.EXILE:
            new.face_down_by = FaceDownWay.EFFECT
        if zone is Zone.LIBRARY:
            self.players[obj.card.owner].library.insert(0, new.oid)
        if zone is Zone.GRAVEYARD and was_creature:
            self._emit(TriggerEvent.DIES, new, last_known=last_known, left=obj)
            self._emit_others(TriggerEvent.ANOTHER_CREATURE_DIES, new, last_known)
        if was_on_battlefield:
            self._emit(TriggerEvent.LEAVES_BATTLEFIELD, new, last_known=last_known, left=obj)
        if zone is Zone.BATTLEFIELD:
            self._entered(new)
        return new

    def _emit_others(self, event: TriggerEvent, obj: GameObject, last_known: Characteristics) -> None:
        """An event whose own-source abilities were already handled: only other listeners."""
        for source in self.battlefield():
            if source is obj or "Creature" not in last_known.types:
                continue
            for ability in self.characteristics(source).abilities:
                if ability.event == event:
                    self._trigger(source, ability)

    def _entered(self, new: GameObject) -> None:
        self._emit(TriggerEvent.ENTERS, new)
        is_creature = self.is_creature(new)
        for source in self.battlefield():
            for ability in self.characteristics(source).abilities:
                if ability.event is TriggerEvent.ANOTHER_CREATURE_ENTERS:
                    if source is new or not is_creature:
                        continue
                elif ability.event is not TriggerEvent.PERMANENT_ENTERS:
                    continue
                if self.matches(ability.filter, new, source.controller):
                    self._trigger(source, ability)

    def matches(self, f: ObjectFilter | None, obj: GameObject, controller: str) -> bool:
        """Whether `obj`, as it is now, is what the filter asks for, seen by a player who
        controls the ability (`controller`); a face-down object by its face-down values (708.2a)."""
        if f is None:
            return True
        if f.face_down and not obj.face_down:
            return False
        ch = self.characteristics(obj)
        if f.named_as_card_in_own_graveyard:
            graveyard = {self.characteristics(o).name for o in self.objects.values()
                         if o.zone is Zone.GRAVEYARD and o.card.owner == obj.controller}
            if ch.name is None or ch.name not in graveyard:  # 201.2: a face-down spell has no name
                return False
        return _matches_values(f, ch, obj.controller, controller)

    def move(self, label: str, zone: Zone, *, face_down: bool = False, by: str | None = None) -> GameObject:
        """Destroy, sacrifice, exile (`face_down`: 406.3; `by`: the object whose effect exiled it),
        bounce...: put the object into `zone`."""
        obj = self.obj(label)
        if obj.zone is zone and not (zone is Zone.EXILE and face_down != obj.face_down):
            raise IllegalAction(f"{label} is already in the {zone}")
        new = self._move(obj, zone, face_down=face_down)
        if by is not None:
            source = self.obj(by)
            new.exiled_with, new.exiled_by = source.oid, source.controller
        return new

    def gain_control(self, label: str, player: str) -> None:
        """`player` controls `label` from now on; whoever a static ability of it let look at cards
        it exiled keeps looking (406.3)."""
        self._remember_looks()
        self.obj(label).controller = player

    def put_face_down_as(self, label: str, controller: str, values: Characteristics) -> GameObject:
        """Put a card onto the battlefield face down with the characteristics the effect gives it
        (Tezzeret's "They're 5/5 artifact creatures"): those are its face-down values (708.2a),
        copiable (707.2), and gone once it is turned face up."""
        new = self._put_face_down(self.obj(label), FaceDownWay.EFFECT, controller)
        new.face_down_values = values
        return new

    def return_to_battlefield(self, label: str, *, face_down: bool = False) -> GameObject | None:
        """An effect returns a card that left: face up unless it says face down (then as a 2/2
        with no way to turn it face up unless it has morph or disguise); an instant or sorcery
        card stays where it is (701.40f)."""
        obj = self.obj(label)
        if obj.card.definition.card_types & {"Instant", "Sorcery"} and not face_down:
            return None
        if face_down:
            return self._put_face_down(obj, FaceDownWay.EFFECT, obj.card.owner)
        return self._move(obj, Zone.BATTLEFIELD)

    # ---- putting cards onto the battlefield face down ----------------------------------------

    def _put_face_down(
        self, obj: GameObject, way: FaceDownWay, controller: str, *, seen: bool | None = None
    ) -> GameObject:
        """Put a card onto the battlefield face down; `seen`: whether every player saw which card
        it is (default: it was face up in a public zone, like Ashcloud Phoenix in a graveyard)."""
        if obj.card.definition.is_double_faced and not self.rules.double_faced_can_be_face_down:
            raise IllegalAction(
                f"{obj.label}: a double-faced permanent is always face up (711.6, CR {self.rules.date})"
            )
        if seen is None:
            seen = not obj.face_down and obj.zone in (Zone.GRAVEYARD, Zone.EXILE, Zone.BATTLEFIELD, Zone.STACK)
        self._remove_from_zone(obj)
        new = self._new_object(obj.card, Zone.BATTLEFIELD, controller)
        new.face_down_by = way  # turned face down before it enters (708.3)
        if seen:
            new.identity_known_to = self._everyone()
        self._entered(new)  # face down it has no abilities, so nothing of its own triggers
        return new

    def _require(self, mechanic: Mechanic) -> None:
        if not self.rules.knows(mechanic):
            raise NotInRules(f"{mechanic} does not exist in the rules of {self.rules.date}")

    def manifest(self, player: str, count: int = 1, *, library_of: str | None = None) -> list[GameObject]:
        """701.40a: the top card(s) of the library onto the battlefield face down, one at a time,
        under `player`'s control; `library_of`: another player's library ("you manifest the top card
        of that player's library": its owner stays that player, 108.3)."""
        self._require(Mechanic.MANIFEST)
        done = []
        for _ in range(count):
            lib = self.players[library_of or player].library
            if not lib:
                break
            done.append(self._put_face_down(self.objects[lib[0]], FaceDownWay.MANIFEST, player))
        return done

    def manifest_card(self, player: str, label: str, way: FaceDownWay = FaceDownWay.MANIFEST) -> GameObject:
        """Manifest a specific card (Ghastly Conscription, Write into Being, Jeskai Infiltrator)."""
        mechanic = MECHANIC_OF.get(way)
        if mechanic is not None:
            self._require(mechanic)
        return self._put_face_down(self.obj(label), way, player)

    def turn_all_face_down(self, exclude: str | None = None) -> list[str]:
        """Ixidron: turn all other nontoken creatures face down (they can be turned face up only
        with a morph or disguise cost, 708.2b/701.40b)."""
        done = []
        for obj in self.battlefield():
            if obj.label == exclude or obj.card.token or not self.is_creature(obj):
                continue
            if self.turn_face_down(obj.label):
                done.append(obj.label)
        return done

    def manifest_one_of_top_two(self, player: str, choose: str, other_to: str = "top") -> GameObject:
        """Write into Being: look at the top two, manifest one, the other on top or bottom. With the
        top card of the library revealed, the other card is revealed once it is on top."""
        self._require(Mechanic.MANIFEST)
        top = self.library(player)[:2]
        seen = _looks_at(f"manifest one of the top two by {player}", top)
        chosen = _choose_one(top, [choose], seen, "manifest", "701.40a")
        if chosen is None:
            raise IllegalAction(f"{player}'s library is empty: there is no card to manifest")
        new = self._put_face_down(chosen, FaceDownWay.MANIFEST, player)
        lib = self.players[player].library
        others = [o for o in top if o is not chosen]
        if others and self.players[player].top_revealed:
            self._reveal(others[0])
        if others and other_to == "bottom":
            lib.remove(others[0].oid)
            lib.append(others[0].oid)
        return new

    def cloak(self, player: str) -> GameObject | None:
        """701.58a: manifest with ward {2}."""
        self._require(Mechanic.CLOAK)
        lib = self.players[player].library
        return self._put_face_down(self.objects[lib[0]], FaceDownWay.CLOAK, player) if lib else None

    def manifest_dread(self, player: str, choose: str | Collection[str] | None = None) -> GameObject | None:
        """701.62a: look at the top two, manifest the one `choose` names (the player's choice: a
        MissingChoice without it, an IllegalAction naming a card not looked at: `_choose_one`), the
        other goes to the graveyard. With one card it is manifested; with none nothing happens;
        "whenever you manifest dread" triggers either way (701.62b)."""
        self._require(Mechanic.MANIFEST_DREAD)
        top = self.library(player)[:2]
        seen = _looks_at(f"manifest dread by {player}", top)
        chosen = _choose_one(top, _chosen_labels(choose), seen, "manifest", "701.62a")
        new = None
        if chosen is not None:
            new = self._put_face_down(chosen, FaceDownWay.MANIFEST, player)
            for other in top:
                if other is not chosen:
                    self._move(other, Zone.GRAVEYARD)
        for source in self.battlefield():
            if source.controller == player:
                for ability in self.characteristics(source).abilities:
                    if ability.event is TriggerEvent.YOU_MANIFEST_DREAD:
                        self._trigger(source, ability)
        return new

    # ---- casting, targets, resolving (601, 608) ----------------------------------------------

    def face_down_spell_cost(self, player: str, *, ward: bool = False) -> str:
        """702.37c / 702.168b: {3}, changed by cost modifiers (601.2f); a modifier for some spells
        only ("Dragon spells") sees the face-down spell's values (708.2a)."""
        spell = face_down_characteristics(ward=ward)
        amount = 3 + self._player_modifier(player, ContinuousKind.FACE_DOWN_SPELL_COST, spell=spell)
        more = self._player_modifier(player, ContinuousKind.SPELL_COST, sign=1, spell=spell)
        less = self._player_modifier(player, ContinuousKind.SPELL_COST, sign=-1, spell=spell)
        return _add_generic(_add_generic(f"{{{max(0, amount)}}}", more), less)

    def cast(
        self,
        player: str,
        label: str,
        *,
        face_down: FaceDownWay | None = None,
        targets: list[str] | None = None,
        face: int = 0,
        without_paying: bool = False,
        spend: list[str] | None = None,
        modes: int = 1,
        x: int | None = None,
        mode: tuple[int, ...] = (),
        _during_resolution: bool = False,
    ) -> str:
        """Cast a card from hand (or an exiled card an effect lets you cast); `face_down`: morph,
        megamorph or disguise for {3} (702.37c), or an effect's permission; `face`: 1 casts an
        Adventure or a modal double-faced card's back; `targets`: cards or players (115.1); `x`:
        the value announced for an {X} in its mana cost, `mode`: the modes chosen of a modal spell
        (601.2b). Returns the cost paid."""
        obj = self.obj(label)
        if _during_resolution and not obj.card.is_copy:
            raise IllegalAction(f"{label}: only a copy an effect creates is cast during resolution here (707.12)")
        self._no_split_second("cast a spell")
        limit = self._spell_limit(player)
        if limit is not None:
            raise IllegalAction(limit)
        # an effect lets this player play it: an exiled card, or the top of the library (Future Sight)
        from_exile = self.may_play(player, obj)
        commander = obj.zone is Zone.COMMAND and obj.card.commander_casts is not None and not obj.face_down
        if not (from_exile or commander or _during_resolution) and (obj.zone is not Zone.HAND or obj.card.owner != player):
            raise IllegalAction(f"{label} is not in {player}'s hand")
        definition = obj.card.definition
        way = face_down
        if way is not None and without_paying:
            # 118.9a: only one alternative cost; casting face down is one (702.37c)
            raise IllegalAction(f"{label}: cast without paying its mana cost, it can't also be cast face down")
        if way is not None:
            if way not in CAST_FACE_DOWN:
                raise IllegalAction(f"a card can't be cast face down by {way}")
            if definition.is_double_faced:
                raise IllegalAction(f"{label}: a double-faced card can't be cast face down (712.14a)")
            if way is FaceDownWay.EFFECT:
                # An effect lets it be cast face down (Illusionary Mask): the effect sets the cost.
                if not definition.is_creature_card():
                    raise IllegalAction(f"{label} is not a creature card")
                paid = ""
            else:
                mechanic = CAST_FACE_DOWN[way]
                assert mechanic is not None
                self._require(mechanic)
                cost = _face_down_cost(definition.front, mechanic)
                if cost is None:
                    raise IllegalAction(f"{label} has no {way} ability")
                paid = self.face_down_spell_cost(player, ward=way in _WARDED)
        else:
            if face and len(definition.faces) < 2:
                raise IllegalAction(f"{label} has no second face to cast")
            chosen = definition.faces[face]
            if modes > 1 and chosen.escalate is None:
                raise IllegalAction(f"{label} can't be cast with {modes} modes")
            x = _announced_x(label, chosen.mana_cost, x, without_paying=without_paying)
            paid = "" if without_paying else (chosen.mana_cost or "") + (chosen.escalate or "") * (modes - 1)
            if x is not None:  # 107.3a: X is the announced value (generic mana, 107.4b)
                paid = _add_generic(_SYMBOL_X.sub("", paid), x * len(_SYMBOL_X.findall(paid)))
            if paid:  # 601.2f: the total cost: increases, then reductions
                paid = _add_generic(paid, self._player_modifier(player, ContinuousKind.SPELL_COST, sign=1, spell=chosen))
                paid = _add_generic(paid, self._player_modifier(player, ContinuousKind.SPELL_COST, sign=-1, spell=chosen))
        if way is not None and x is not None:
            raise IllegalAction(f"{label}: a face-down spell has no mana cost, so no X to announce (708.2a)")
        mode = _chosen_modes(label, definition.faces[face].abilities if way is None else (), mode)
        needs = [a for a in (definition.faces[face].abilities if way is None else ())
                 if a.event is None and a.target is not None and (a.mode is None or a.mode in mode)]
        if needs and not targets:  # 601.2c: a targeted spell's targets are chosen as it is cast
            raise IllegalAction(f"{label}: choose its target as it is cast ({needs[0].target}, 601.2c)")
        if way is None and targets:  # 601.2c: each target must be legal for what the spell targets
            # 700.2c: a mode not chosen has no targets
            aims = [a for a in definition.faces[face].abilities
                    if a.event is None and a.target is not None and (a.mode is None or a.mode in mode)]
            if mode and not aims:
                raise IllegalAction(f"{label}: the mode chosen ({', '.join(map(str, mode))}) has no target (700.2c)")
            if aims and len(targets) > len(aims):
                # 601.2c: each instruction's "target" is one target, and one object or player can't be
                # chosen twice for it ("any target" is a creature or a player, not both)
                raise IllegalAction(f"{label} has {len(aims)} target{'s' if len(aims) > 1 else ''}, not "
                                    f"{len(targets)} ({', '.join(targets)}; 601.2c)")
            for t in targets:
                if t in self.players:  # 115.1: a player is a target only of what may target a player
                    if not self.players[t].in_game:
                        raise IllegalAction(f"player {t} has left the game (800.4)")
                    if not any(self.is_legal_player_target(a.target, t, player) for a in aims if a.target is not None):
                        raise IllegalAction(f"player {t} is not a legal target for {label} (115.1, 601.2c)")
                    continue
                target = self.obj(t)
                if aims and not any(
                    self.is_legal_target(a.target, target, player) and self.matches(a.filter, target, player)
                    for a in aims if a.target is not None
                ):
                    raise IllegalAction(f"{t} is not a legal target for {label} (601.2c)")
        cast_types = face_down_characteristics().types if way is not None else definition.faces[face].types
        cast_keywords = () if way is not None else definition.faces[face].keywords
        # 608.2g: a spell cast during resolution ignores timing (601.2a-i, no priority in between)
        if "Instant" not in cast_types and "flash" not in cast_keywords and not _during_resolution:
            if player != self.active or self.stack:
                raise IllegalAction(f"{label}: a {'face-down ' if way else ''}spell without flash can be cast only in its "
                                    "controller's main phase with an empty stack (307.1)")
        spell_name = None if way is not None else definition.faces[face].name  # 708.2a: face down, no name
        if spell_name is not None and spell_name in self.players[player].cant_cast_names:
            raise IllegalAction(f"{player} can't cast spells named {spell_name} (101.2)")
        if commander:
            tax = 2 * (obj.card.commander_casts or 0)  # 903.8: {2} more for each earlier cast from there
            paid = _add_generic(paid or "{0}", tax) if tax else paid
        mana = self._mana_to_spend(player, spend or [], Spend.FACE_DOWN_SPELL if way else Spend.SPELL, paid)
        if commander:
            obj.card.commander_casts = (obj.card.commander_casts or 0) + 1
        self._spend(player, mana)
        cast_values = face_down_characteristics(ward=way in _WARDED) if way is not None else definition.faces[face]
        self.players[player].cast_this_turn.append((way is not None, cast_values))
        self._remove_from_zone(obj)
        spell = self._new_object(obj.card, Zone.STACK, player)
        spell.face_down_by = way
        spell.face_index = face
        spell.x = x or 0
        spell.modes = mode
        self.stack.append(spell.oid)
        for t in targets or ():
            if t in self.players:
                spell.target_players.append(t)
                continue
            self._target(spell.oid, player, self.obj(t), spell.targets)
        if way is None:
            self._cast_triggers(player, spell)
        for source in self.battlefield():  # 601.2i: "whenever a player casts a spell", face down too
            for ability in self.characteristics(source).abilities:
                if ability.event is TriggerEvent.SPELL_CAST and self.matches(ability.filter, spell, source.controller):
                    self._trigger(source, ability, targets=[spell.oid] if ability.target is not None else None)
        return paid

    @_unchanged_if_refused
    def cast_copy(self, player: str, definition: CardDef, choice: CastChoice) -> GameObject:
        """707.12: `player` creates a copy of a card and casts it without paying its mana cost (an
        alternative cost, 118.9) while a spell or ability resolves (608.2g), with `choice`'s targets,
        X and modes (601.2b-c). Labelled "copy of <name>" (numbered from the second on)."""
        label = self._fresh_label(f"copy of {definition.name or 'a card'}")
        card = Card(label, definition, player, is_copy=True)
        self.cards[label] = card
        self._new_object(card, Zone.OUTSIDE, player)
        self.cast(player, label, targets=list(choice.targets), without_paying=True, x=choice.x,
                  mode=choice.modes, _during_resolution=True)
        return self.obj(label)

    def _no_split_second(self, what: str) -> None:
        """702.61a: while a spell with split second is on the stack, players can't cast spells or
        activate abilities that aren't mana abilities (special actions are still allowed)."""
        for item in self.stack:
            if isinstance(item, int) and "split second" in self.characteristics(self.objects[item]).keywords:
                raise IllegalAction(f"can't {what} while a spell with split second is on the stack (702.61a)")

    def _cast_triggers(self, player: str, spell: GameObject) -> None:
        """Abilities that trigger on casting a spell with a chosen name (a face-up conspiracy's:
        603.2f, it must be face up when the spell is cast)."""
        name = self.characteristics(spell).name
        for source in list(self.objects.values()):
            if source.zone not in (Zone.BATTLEFIELD, Zone.COMMAND) or source.face_down:
                continue
            if source.card.owner != player or source.choice != name:
                continue
            for ability in self.characteristics(source).abilities:
                if ability.event is TriggerEvent.YOU_CAST_NAMED_SPELL:
                    self._trigger(source, ability)

    def _target(self, source_oid: int, controller: str, target: GameObject, into: list[int]) -> None:
        """Choose `target` (115); a permanent with ward an opponent's spell or ability targets
        triggers its ward ability (702.21a)."""
        into.append(target.oid)
        self._emit(TriggerEvent.BECOMES_TARGET, target)
        if target.zone is not Zone.BATTLEFIELD or target.controller == controller:
            return
        for kw in self.characteristics(target).keywords:
            if kw.startswith("ward"):
                ward = Ability(EffectKind.COUNTER_UNLESS_PAID, text=f"{target.label}: {kw}")
                spell = source_oid if source_oid in self.objects and self.objects[source_oid].zone is Zone.STACK else None
                item = StackAbility(target.oid, target.label, target.controller, ward, kw, [], spell)
                if spell is None:  # an ability: its StackAbility is the one on top of it
                    item.spell_oid = -1
                self.stack.append(item)
                self._triggered(target.label, TriggerEvent.BECOMES_TARGET)  # 702.21a

    def is_legal_player_target(self, kind: TargetKind, player: str, controller: str) -> bool:
        """Whether `player` is a legal target of kind `kind` now (115.1; 608.2b asks again on
        resolution) for a spell or ability `controller` controls: a player who left the game is none
        (800.4a), "target opponent" is never its controller."""
        if kind not in PLAYER_TARGETS or not self.players[player].in_game:
            return False
        return kind is not TargetKind.OPPONENT or player != controller

    def is_legal_target(self, kind: TargetKind, obj: GameObject, controller: str | None = None) -> bool:
        """Whether `obj` is a legal target of kind `kind` now (608.2b asks again on resolution) for
        an ability `controller` controls."""
        if kind in (TargetKind.PLAYER, TargetKind.OPPONENT):
            return False  # a player, never an object (115.1)
        if kind is TargetKind.INSTANT_OR_SORCERY_CARD_IN_YOUR_GRAVEYARD:
            return (obj.zone is Zone.GRAVEYARD and obj.card.owner == controller
                    and bool(obj.card.definition.card_types & {"Instant", "Sorcery"}))
        if kind in (TargetKind.SPELL, TargetKind.CREATURE_SPELL):
            if obj.zone is not Zone.STACK:
                return False
            return kind is TargetKind.SPELL or "Creature" in self.characteristics(obj).types
        if obj.zone is not Zone.BATTLEFIELD:
            return False
        if kind is TargetKind.PERMANENT:
            return True
        if kind is TargetKind.ANY:  # 115.4: creatures, players, planeswalkers or battles; no other object
            return bool(self.characteristics(obj).types & {"Creature", "Planeswalker", "Battle"})
        if not self.is_creature(obj):
            return False
        if kind is TargetKind.FACE_DOWN_CREATURE:
            return obj.face_down
        if kind is TargetKind.FACE_UP_CREATURE:
            return not obj.face_down
        if kind is TargetKind.NONTOKEN_CREATURE:
            return not obj.card.token
        return True

    def _legal_targets(self, ability: Ability, targets: list[int], controller: str) -> list[GameObject] | None:
        """608.2b: the targets still legal (same objects, still matching); None: all illegal."""
        if ability.target is None or not targets:
            return []
        legal = [
            self.objects[t] for t in targets
            if t in self.objects and self.is_legal_target(ability.target, self.objects[t], controller)
            and self.matches(ability.filter, self.objects[t], controller)
        ]
        return legal or None

    @_unchanged_if_refused
    def resolve(
        self, copy_of: str | None = None, *, pay: bool = False, choice: object = None, cast: CastChoice | None = None
    ) -> None:
        """Resolve the top of the stack; `copy_of` is the choice for a Clone-like spell, `pay`
        whether a ward cost is paid, `choice` any other choice made on resolution, `cast` the
        choices for a spell its effect casts (608.2g)."""
        if not self.stack:
            raise IllegalAction("the stack is empty")
        waiting = [i.source_label for i in self.stack if isinstance(i, StackAbility) and i.awaiting_targets]
        if waiting:  # 603.3d: targets are chosen before any player gets priority again
            raise IllegalAction(f"{waiting[0]}'s triggered ability has no targets chosen yet (603.3d)")
        top = self.stack[-1]
        if copy_of is not None:
            if isinstance(top, StackAbility) or not self.characteristics(self.objects[top]).enters_as_copy:
                what = top.description if isinstance(top, StackAbility) else self.objects[top].label
                raise IllegalAction(f"{what} can't enter as a copy of {copy_of}: it has no \"enter as a copy\" "
                                    "ability (a Clone's `enters_as_copy: true`; a face-down spell has none, 708.2a)")
            # the copied permanent (707.2; Clone: "any creature on the battlefield")
            permanents = self.battlefield()
            clone = self.objects[top].label
            seen = _one_of(f"{clone} may enter as a copy of a permanent on the battlefield", permanents)
            _choose_one(permanents, [copy_of], seen, "copy", "707.2")
        # "you may" is chosen as it resolves; one whose every target is illegal doesn't resolve (608.2b)
        if isinstance(top, StackAbility) and top.ability.optional and not isinstance(choice, bool) \
                and self._legal_targets(top.ability, top.targets, top.controller) is not None:
            raise MissingChoice(f"{top.description}: \"you may\": choose true or false as it resolves")
        self.stack.pop()
        if isinstance(top, StackAbility):
            self._resolve_ability(top, pay=pay, choice=choice, cast=cast)
            return
        spell = self.objects[top]
        ch = self.characteristics(spell)
        if ch.types & {"Instant", "Sorcery"}:
            # 700.2c: only the chosen modes' instructions (a mode not chosen has no targets)
            spell_effects = [a for a in ch.abilities if a.event is None and (a.mode is None or a.mode in spell.modes)]
            # 608.2b: targets are checked once, as it starts to resolve; later instructions use
            # what those objects were then (its controller, for "its controller manifests dread").
            # A player target is legal while that player is in the game (800.4a).
            players = [p for p in spell.target_players if self.players[p].in_game]
            legal = [self._legal_targets(a, spell.targets, spell.controller) for a in spell_effects]
            legal = [[] if t is None and players and a.target is TargetKind.ANY else t
                     for a, t in zip(spell_effects, legal, strict=True)]
            if any(t is None for t in legal) or (spell.target_players and not players and not spell.targets):
                self.events.append((GameEvent.FIZZLED, spell.label))  # all its targets illegal: no effect
            else:
                for ability, targets in zip(spell_effects, legal, strict=True):
                    aimed = [p for p in players if ability.target is not None
                             and self.is_legal_player_target(ability.target, p, spell.controller)]
                    self._do(ability, spell.controller, spell, targets or [], choice, target_players=aimed, x=spell.x)
            self._move(spell, Zone.GRAVEYARD)
            return
        way = spell.face_down_by
        self._remove_from_zone(spell)
        perm = self._new_object(spell.card, Zone.BATTLEFIELD, spell.controller)
        perm.face_down_by = way  # 708.4: the permanent a face-down spell becomes is face down
        if copy_of is not None and ch.enters_as_copy:
            perm.copy_of = self.copiable_values(self.obj(copy_of))  # 707.2
        self._as_enters(perm)
        self._entered(perm)

    def _as_enters(self, perm: GameObject) -> None:
        """614.1c: "as this enters" replacements, applied to the battlefield as it is before the
        permanent (and anything entering with it) is there."""
        for ability in self.characteristics(perm).abilities:
            if ability.event is TriggerEvent.AS_ENTERS and ability.effect is EffectKind.TURN_ALL_OTHER_FACE_DOWN:
                self.turn_all_face_down(exclude=perm.label)
            if ability.event is TriggerEvent.AS_ENTERS and ability.effect is EffectKind.TAP:
                perm.tapped = True  # "enters tapped"; a face-down permanent has no such ability (708.3)

    def put_onto_battlefield(self, labels: list[str]) -> list[GameObject]:
        """An effect puts cards onto the battlefield face up at the same time, under their owners'
        control: their "as this enters" replacements see only what was there before (614.12),
        so a creature entering with Ixidron is not turned face down; then every newcomer sees
        the others enter (603.6a)."""
        objs = [self.obj(label) for label in labels]
        if len(set(labels)) != len(labels):
            raise IllegalAction("a card can enter the battlefield only once at a time")
        if any(o.zone is Zone.BATTLEFIELD for o in objs):
            raise IllegalAction("a card that is already on the battlefield can't enter it")
        entering = []
        for obj in objs:
            self._remove_from_zone(obj)
            entering.append(self._new_object(obj.card, Zone.OUTSIDE, obj.card.owner))  # not there yet
        for obj in entering:
            self._as_enters(obj)
        for obj in entering:
            obj.zone = Zone.BATTLEFIELD
        for obj in entering:
            self._entered(obj)
        return entering

    def resolve_all(self) -> None:
        while self.stack:
            self.resolve()
            self.check_state_based_actions()

    def _resolve_ability(self, item: StackAbility, *, pay: bool, choice: object, cast: CastChoice | None = None) -> None:
        if item.ability.effect is EffectKind.COUNTER_UNLESS_PAID:
            if not pay:
                self._counter_item(item.spell_oid)
            return
        legal = self._legal_targets(item.ability, item.targets, item.controller)
        kind = item.ability.target
        players = [p for p in item.target_players if kind is not None and self.is_legal_player_target(kind, p, item.controller)]
        if legal is None or (item.target_players and not players):  # 608.2b: a player who left is no legal target
            self.events.append((GameEvent.FIZZLED, item.source_label))
            return
        source = self.objects.get(item.source_oid) or item.last_known  # it may have left (113.7a)
        counter = item.ability.if_counter
        if counter is not None and (item.source_oid not in self.objects or not source or not source.counters.get(counter)):
            return  # 603.4: the intervening "if" is checked again on resolution
        self._do(item.ability, item.controller, source, legal, choice, player=item.player, cast=cast,
                 target_players=players)

    def counter(self, label: str) -> None:
        """701.6a: counter a spell: it goes to its owner's graveyard (a face-down one is revealed,
        708.9)."""
        obj = self.obj(label)
        if obj.zone is not Zone.STACK:
            raise IllegalAction(f"{label} is not a spell on the stack")
        if not self._counter_spell(obj):
            raise IllegalAction(f"{label} can't be countered")

    def _counter_spell(self, spell: GameObject) -> bool:
        """Counter a spell (701.6a), unless it can't be countered: 101.2, the "can't" wins over
        any effect that would counter it (a counterspell, ward). Returns whether it was countered."""
        if "can't be countered" in self.characteristics(spell).keywords:
            return False
        self._move(spell, Zone.GRAVEYARD)
        return True

    def _counter_item(self, oid: int | None) -> None:
        if oid is not None and oid in self.objects and self.objects[oid].zone is Zone.STACK:
            self._counter_spell(self.objects[oid])
        elif oid == -1:  # ward countering an ability: the ability just below the ward trigger
            for item in reversed(self.stack):
                if isinstance(item, StackAbility):
                    self.stack.remove(item)
                    self.events.append((GameEvent.COUNTERED, item.source_label))
                    return

    def _do(
        self,
        ability: Ability,
        controller: str,
        source: GameObject | None,
        targets: list[GameObject] | None = None,
        choice: object = None,
        *,
        player: str | None = None,
        target_players: list[str] | None = None,
        x: int = 0,
        cast: CastChoice | None = None,
    ) -> None:
        """What `ability` does as it resolves (608.2), by its effect kind; `player`: the player its
        trigger event was about; `target_players`: its targets that are players (115.1); `x`: the
        X announced for its spell (107.3a); `cast`: the choices for a spell it casts (608.2g)."""
        targets = targets or []
        if ability.optional and choice is not True:
            return  # "you may": its controller chose not to
        if ability.effect in _TARGET_EFFECTS:
            # without a target the ability does it to its own source ("turn this face down")
            on_battlefield = source is not None and source.zone is Zone.BATTLEFIELD
            chosen = targets if ability.target else [source] if source is not None and on_battlefield else []
            resolving = _Resolving(ability, controller, source, targets, choice, player, x, cast)
            for p in target_players or ():
                if ability.effect in _PLAYER_TARGET_EFFECTS:
                    _PLAYER_TARGET_EFFECTS[ability.effect](self, resolving, p)
            for t in chosen:
                if ability.if_target is not None and not self.matches(ability.if_target, t, controller):
                    continue  # "if it has ...": a condition of the effect, checked as it resolves (608.2c)
                _TARGET_EFFECTS[ability.effect](self, resolving, t)
                for keyword in ability.grants:  # "it gains [keyword]" for good (611.2a)
                    t.effects.append(Effect(ContinuousKind.ADD_ABILITIES, KEYWORD_ABILITIES[keyword], self._tick()))
            return
        handler = _EFFECTS.get(ability.effect)
        if handler is not None:
            handler(self, _Resolving(ability, controller, source, targets, choice, player, x, cast,
                                     tuple(target_players or ())))

    # ---- turning face up and down ------------------------------------------------------------

    def _turn_up_check(self, obj: GameObject, by: TurnUpWay) -> tuple[str | None, str]:
        """(why the special action can't turn `obj` face up `by` this way now, or None; the cost
        when it can). `turn_face_up`, `can_turn_face_up` and `turn_face_up_cost` all ask this,
        so they can't disagree."""
        label = obj.label
        if obj.zone is Zone.COMMAND and obj.face_down_by is FaceDownWay.HIDDEN_AGENDA:
            if by is not TurnUpWay.MANA:
                return f"{label}: a hidden agenda is turned face up by revealing it (702.106c), not by {by}", ""
            return None, ""  # 702.106c: a special action, no cost
        if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
            return f"{label} is not a face-down permanent", ""
        if self.prohibited(obj, ContinuousKind.CANT_TURN_FACE_UP):
            return f"{label} can't be turned face up (an effect says so)", ""
        if by is TurnUpWay.MANA:
            # 701.40b: show that *the card* is a creature card: effects on the permanent don't count.
            definition = obj.card.definition
            if obj.face_down_by not in _MANIFESTED or not definition.is_creature_card() or not definition.front.mana_cost:
                return f"{label} was not manifested or cloaked, or is not a creature card with a mana cost", ""
            cost = definition.front.mana_cost
        else:
            mechanic = Mechanic(by.value)
            if not self.rules.knows(mechanic):
                return f"{mechanic} does not exist in the rules of {self.rules.date}", ""
            found = _face_down_cost(self.characteristics(obj, ignore_face_down=True), mechanic)
            if found is None:
                return f"{label} would have no {by} cost if it were face up", ""
            cost = found
        more = self._player_modifier(obj.controller, ContinuousKind.TURN_FACE_UP_COST)
        return None, _add_generic(cost, more)

    def turn_face_up_cost(self, obj: GameObject, by: TurnUpWay) -> str | None:
        """What the special action costs `by` this way, or None when it can't be taken that way."""
        refusal, cost = self._turn_up_check(obj, by)
        return None if refusal else cost

    def can_turn_face_up(self, label: str, by: TurnUpWay = TurnUpWay.MANA) -> bool:
        """Whether the special action is allowed now (without taking it)."""
        return self._turn_up_check(self.obj(label), by)[0] is None

    @_unchanged_if_refused
    def turn_face_up(
        self, label: str, by: TurnUpWay = TurnUpWay.MANA, *, choice: object = None, spend: list[str] | None = None
    ) -> str:
        """The special action (116.2b): by mana (manifest/cloak: the card's mana cost, 701.40b),
        morph / megamorph (702.37e) or disguise (702.168d); `spend`: the sources of the pool's
        mana spent on it. Returns the cost paid."""
        obj = self.obj(label)
        refusal, cost = self._turn_up_check(obj, by)
        if refusal is not None:
            raise IllegalAction(refusal)
        self._spend(obj.controller, self._mana_to_spend(obj.controller, spend or [], _spend_of(obj, by), cost))
        if obj.zone is Zone.COMMAND:
            obj.face_down_by = None  # a conspiracy's hidden agenda: the named card is revealed
            self.events.append((GameEvent.SPECIAL_ACTION, label))
            return cost
        if obj.card.definition.card_types & {"Instant", "Sorcery"}:
            self._reveal(obj)  # 701.40g
            return cost
        if by in (TurnUpWay.MORPH, TurnUpWay.MEGAMORPH) and self.characteristics(obj, ignore_face_down=True).morph is None:
            obj.plus_counters += 1  # 702.37b: its megamorph cost was paid
        self.events.append((GameEvent.SPECIAL_ACTION, label))
        self._turn_up(obj, choice)
        return cost

    def _turn_up(self, obj: GameObject, choice: object) -> None:
        obj.face_down_by = None
        obj.face_down_values = None
        obj.face_index = 0  # 712.15a: a double-faced card turns face up front face up
        # 708.11: "As this is turned face up" applies while it turns face up, not afterward; a
        # copy it becomes that way brings its own such abilities (Vesuvan Shapeshifter copying an
        # Aquamorph Entity). `choice` is one choice, or a list: one per ability, in order.
        choices = list(choice) if isinstance(choice, list) else [choice]
        done: list[Ability] = []
        while True:
            pending = [
                a for a in self.characteristics(obj).abilities
                if a.event is TriggerEvent.AS_TURNED_FACE_UP and a not in done
                and not (done and a.effect is EffectKind.BECOME_COPY_OF_CHOICE)
            ]
            if not pending:
                break
            done.append(pending[0])
            self._as_turned_face_up(obj, pending[0], choices.pop(0) if choices else None)
        self._emit(TriggerEvent.TURNED_FACE_UP, obj)  # 708.8: not "enters"

    def _as_turned_face_up(self, obj: GameObject, ability: Ability, choice: object) -> None:
        if ability.effect is EffectKind.COUNTERS:
            obj.plus_counters += ability.count  # Bubble Smuggler: it turns face up with them
        elif ability.effect is EffectKind.CHOOSE_PT:
            options = ability.options
            pt = _pt_choice(choice, options)
            obj.effects.append(Effect(ContinuousKind.SET_PT, pt, self._tick()))
        elif ability.effect is EffectKind.BECOME_COPY_OF_CHOICE and choice is not None:
            # "until it is turned face down, it becomes a copy ..., except it has 'At the beginning of
            # your upkeep, you may turn this creature face down'" (its own morph is not kept).
            kept = Ability(EffectKind.TURN_FACE_DOWN, TriggerEvent.UPKEEP, text="upkeep: you may turn this face down")
            others = [o for o in self.battlefield() if o is not obj and self.is_creature(o)]
            seen = _one_of(f"{obj.label} may become a copy of another creature on the battlefield", others)
            chosen = _choose_one(others, [str(choice)], seen, "copy", "707.2")
            assert chosen is not None  # a name was given: it is one of them, or refused
            copied = self.copiable_values(chosen)
            obj.copy_of = replace(copied, abilities=copied.abilities + (kept,))
            obj.copy_until_face_down = True

    @_unchanged_if_refused
    def effect_turns_face_up(self, label: str, *, choice: object = None) -> bool:
        """An effect (not the special action) turns a permanent face up. 701.40g: a manifested
        instant or sorcery is revealed and stays face down. Returns whether it turned face up."""
        obj = self.obj(label)
        if obj.zone is Zone.EXILE and obj.face_down:
            obj.face_down_by = None  # an exiled card turned face up is not "turned face up" (708.8)
            return True
        if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
            return False
        if obj.card.definition.card_types & {"Instant", "Sorcery"}:
            self._reveal(obj)
            return False
        self._turn_up(obj, choice)
        return True

    def turn_face_down(self, label: str) -> bool:
        """An effect turns a permanent face down. 708.2b: not if it already is; 712.16: a
        double-faced permanent can't be turned face down. Copy effects end (Vesuvan Shapeshifter).
        Returns whether it happened."""
        obj = self.obj(label)
        if obj.zone is not Zone.BATTLEFIELD or obj.face_down:
            return False
        if obj.card.definition.is_double_faced:
            return False
        obj.face_down_by = FaceDownWay.EFFECT
        obj.identity_known_to |= self._everyone()  # it was face up: everyone saw which it is (708.6)
        if obj.copy_until_face_down:
            obj.copy_of = None
            obj.copy_until_face_down = False
        return True

    def transform(self, label: str) -> bool:
        """701.27: turn a double-faced permanent over; 712.15a: not while it's face down."""
        obj = self.obj(label)
        if obj.card.definition.layout is not Layout.TRANSFORM or obj.face_down or obj.zone is not Zone.BATTLEFIELD:
            return False
        obj.face_index = 1 - obj.face_index
        return True

    # ---- other effects -----------------------------------------------------------------------

    def become_copy(self, label: str, of: str) -> None:
        """708.10 / 707.3: the object's copiable values become those of `of`; a face-down object
        still shows its face-down characteristics."""
        self.obj(label).copy_of = self.copiable_values(self.obj(of))

    def add_effect(
        self, label: str, kind: ContinuousKind, value: EffectValue = None, *, until_end_of_turn: bool = False
    ) -> None:
        """A continuous effect from a resolved spell or ability on one object (611.2); `value` as
        `effect_value` makes it."""
        self.obj(label).effects.append(Effect(kind, value, self._tick(), until_end_of_turn))

    def activate(self, player: str, label: str, *, target: str | None = None, at_random: bool = False) -> None:
        """Activate `label`'s activated ability, paying its cost (sacrifice, exile a face-down, put an
        opponent's exiled card into their graveyard: `at_random` when it is a face-down card `player`
        may not look at, `target` standing for the one chosen at random)."""
        obj = self.obj(label)
        abilities = [a for a in self.characteristics(obj).abilities if a.event is None]
        if obj.zone is not Zone.BATTLEFIELD or obj.controller != player or not abilities:
            raise IllegalAction(f"{player} can't activate an ability of {label}")
        if self.prohibited(obj, ContinuousKind.CANT_ACTIVATE):
            raise IllegalAction(f"activated abilities of {label} can't be activated (602.5)")
        ability = abilities[0]
        if ability.effect is EffectKind.ADD_MANA:
            # 605.3: a mana ability doesn't use the stack (nor does split second stop it, 702.61b)
            if ability.cost == "{T}":
                if obj.tapped:
                    raise IllegalAction(f"{label} is tapped")
                self._become_tapped(obj)
            self.players[player].mana_pool.append(Mana(ability.mana, label, ability.spend_only))
            return
        self._no_split_second("activate an ability")
        if ability.cost is ActivationCost.SACRIFICE:
            self.stack.append(StackAbility(obj.oid, label, player, ability, ability.text, last_known=obj))
            self.sacrifice(obj)
        elif ability.cost is ActivationCost.SACRIFICE_A_CREATURE:
            victim = self.obj(target) if target else None
            if victim is None or victim.zone is not Zone.BATTLEFIELD or victim.controller != player or not self.is_creature(victim):
                raise IllegalAction(f"{target} is not a creature {player} controls to sacrifice")
            self.stack.append(StackAbility(obj.oid, label, player, ability, ability.text))
            self.sacrifice(victim)
        elif ability.cost is ActivationCost.PUT_OPPONENTS_EXILED_CARD_INTO_GRAVEYARD:
            card = self.obj(target) if target else None
            if card is None or card.zone is not Zone.EXILE or card.card.owner == player:
                raise IllegalAction(f"{target} is not a card an opponent of {player} owns in exile")
            if not self.can_see(player, card) and not at_random:
                # 406.3: face-down cards nobody lets them look at are alike to the player; which one
                # goes is chosen at random, and it is revealed only once the cost is paid
                raise IllegalAction(f"{player} can't look at {target}, exiled face down: a face-down card they "
                                    "can't look at is chosen at random (`at_random`), not picked (406.3)")
            self.stack.append(StackAbility(obj.oid, label, player, ability, ability.text))
            self._move(card, Zone.GRAVEYARD)  # face up in a public zone: revealed as the cost is paid
        elif ability.cost is ActivationCost.EXILE_A_FACE_DOWN_PERMANENT:
            # Primordial Mist: the card is exiled face up; that isn't "turning face up".
            victim = self.obj(target) if target else None
            if victim is None or not victim.face_down or victim.controller != player:
                raise IllegalAction(f"{target} is not a face-down permanent {player} controls")
            exiled = self._move(victim, Zone.EXILE)
            exiled.playable = exiled.zone is Zone.EXILE  # "you may cast that card this turn"
            exiled.playable_by = player
        else:
            item = StackAbility(obj.oid, label, player, ability, ability.text)
            self.stack.append(item)
            if ability.target is not None:
                chosen = self.obj(target) if target else None
                if chosen is None or not self.is_legal_target(ability.target, chosen, player):
                    self.stack.remove(item)
                    raise IllegalAction(f"{target} is not a legal target ({ability.target})")
                self._target(obj.oid, player, chosen, item.targets)

    def sacrifice(self, obj: GameObject) -> GameObject:
        """Its controller sacrifices it (701.21a). "Whenever you sacrifice a creature" abilities
        trigger, the sacrificed creature's own among them as it last existed (603.10a): a
        face-down creature has none."""
        player = obj.controller
        last_known = self.characteristics(obj)
        was_creature = obj.zone is Zone.BATTLEFIELD and "Creature" in last_known.types
        new = self._move(obj, Zone.GRAVEYARD)
        if was_creature:
            for ability in last_known.abilities:
                if ability.event is TriggerEvent.YOU_SACRIFICE_CREATURE:
                    self._trigger(new, ability)
            for source in self.battlefield():
                if source.controller != player:
                    continue
                for ability in self.characteristics(source).abilities:
                    if ability.event is TriggerEvent.YOU_SACRIFICE_CREATURE:
                        self._trigger(source, ability)
        return new

    def draw(self, player: str, count: int = 1, *, from_player: str | None = None) -> None:
        """121.1: the top card(s) of the library into the hand, one at a time (121.2), each draw
        replaced where an effect says so (121.6): Shared Fate's "exiles the top card of one of
        their opponents' libraries face down instead", from `from_player` (needed with more than
        one opponent), even if the drawing player's own library is empty (121.6a); Uba Mask's "exiles
        that card face up instead"."""
        for _ in range(count):
            replacing = self._draw_replacement(player)
            if replacing is not None:
                source, kind = replacing
                if kind is ContinuousKind.DRAW_EXILES_IT_FACE_UP:
                    self._exile_drawn_card_face_up(player, source)
                else:
                    self._exile_opponents_top_instead_of_draw(player, source, from_player)
                continue
            library = self.library(player)
            if library:
                self._move(library[0], Zone.HAND)

    def _draw_replacement(self, player: str) -> tuple[GameObject, ContinuousKind] | None:
        """The permanent whose "if a player would draw a card" replacement applies to `player`'s draw, and
        which replacement (the first found: the player's choice among several, 616.1, is not modelled)."""
        replacing = (ContinuousKind.DRAW_EXILES_OPPONENTS_TOP_FACE_DOWN, ContinuousKind.DRAW_EXILES_IT_FACE_UP)
        for source in self.battlefield():
            for st in self.characteristics(source, statics=False).statics:
                if st.kind in replacing and (
                    st.affects is Affects.PLAYERS
                    or (st.affects is Affects.YOU and source.controller == player)
                    or (st.affects is Affects.OPPONENTS and source.controller != player)
                ):
                    return source, st.kind
        return None

    def _exile_drawn_card_face_up(self, player: str, source: GameObject) -> None:
        # Uba Mask: "that player exiles that card face up instead. Each player may play cards they exiled
        # with Uba Mask this turn": the card exiled with it (607.2a) by the drawing player, playable by them
        # until the turn ends (514.2) and only while Uba Mask stays on the battlefield: the permission is its
        # static ability (611.3a), as Shared Fate's is. With an empty library there is no card to exile.
        library = self.library(player)
        if library:
            exiled = self._move(library[0], Zone.EXILE)
            exiled.exiled_with, exiled.exiled_by = source.oid, player
            exiled.playable, exiled.playable_by, exiled.playable_lasts = True, player, PlayLasts.TURN_WHILE_SOURCE

    def _exile_opponents_top_instead_of_draw(self, player: str, source: GameObject, from_player: str | None) -> None:
        opponents = [p for p, state in self.players.items() if p != player and state.in_game]
        if from_player is None:
            if len(opponents) != 1:
                raise IllegalAction(f"{player} must choose which opponent's library to exile from ({source.label})")
            from_player = opponents[0]
        if from_player not in opponents:
            raise IllegalAction(f"{from_player} is not an opponent of {player} ({source.label})")
        library = self.library(from_player)
        if library:
            exiled = self._move(library[0], Zone.EXILE, face_down=True)
            # who may look at it is the source's linked static ability (607.2a: "each player may
            # look at and play cards they exiled with Shared Fate"), not a lasting permission
            exiled.exiled_with, exiled.exiled_by = source.oid, player
            # "each player may ... play cards they exiled with Shared Fate": that player, and only while
            # Shared Fate is on the battlefield (its static ability, 607.2a, 611.3a), not this turn only
            exiled.playable, exiled.playable_by, exiled.playable_lasts = True, player, PlayLasts.SOURCE

    def discard(self, player: str, label: str) -> None:
        """701.9a: move a card from its owner's hand to their graveyard; any other card can't be discarded."""
        obj = self.obj(label)
        if obj.zone is not Zone.HAND or obj.card.owner != player:
            raise IllegalAction(f"{label} is not in {player}'s hand: only a card in hand can be discarded (701.9a)")
        self._move(obj, Zone.GRAVEYARD)

    def cycle(self, player: str, label: str) -> str:
        """702.29a: cycling functions only while the card is in a player's hand: pay its cost, discard
        it, draw a card. Returns the cost paid."""
        obj = self.obj(label)
        costs = [k.split(" ", 1)[1] for k in self.printed(obj).keywords if k.startswith("cycling ")]
        if not costs:
            raise IllegalAction(f"{label} has no cycling ability")
        if obj.zone is not Zone.HAND:
            raise IllegalAction(f"{label} is not in a hand: cycling functions only there (702.29a)")
        self._no_split_second("activate an ability")  # cycling is an activated ability (702.29a)
        self.discard(player, label)
        self.draw(player)
        return costs[0]

    def may_play(self, player: str, obj: GameObject) -> bool:
        """Whether an effect lets `player` play `obj` from exile or a library now: the player it
        names (its owner if it names none), for as long as it says (611.2a-b): this turn, as long as
        the card remains exiled (Praetor's Grasp), while the object whose linked ability it is
        stays on the battlefield (Shared Fate, 607.2a), or both this turn and while it stays (Uba Mask); and the
        top card of their own library while a permanent of theirs lets them (Future Sight)."""
        if obj.zone is Zone.LIBRARY and obj.card.owner == player and self.library(player)[:1] == [obj] and (
                self._player_permission(player, ContinuousKind.PLAY_TOP_OF_LIBRARY)):
            return True
        if obj.zone not in (Zone.EXILE, Zone.LIBRARY) or not obj.playable:
            return False
        if (obj.playable_by or obj.card.owner) != player:
            return False
        if obj.playable_lasts.ends_with_source:
            source = self.objects.get(obj.exiled_with) if obj.exiled_with is not None else None
            return source is not None and source.zone is Zone.BATTLEFIELD
        return True

    def play_land(self, player: str, label: str) -> GameObject:
        """305.1: playing a land is a special action: a land card from its owner's hand (or one an
        effect lets this player play, like the top of the library or an opponent's card Praetor's
        Grasp exiled: it enters under their control), once a turn (305.2), on their turn.
        A land card with morph played this way enters face up; casting it face down is casting a
        spell, not playing a land (702.37c)."""
        obj = self.obj(label)
        # from its owner's hand (305.1), or wherever an effect lets this player play it (under their control)
        allowed = (obj.zone is Zone.HAND and obj.card.owner == player) or self.may_play(player, obj)
        if not allowed:
            raise IllegalAction(f"{player} can't play {label} from the {obj.zone}")
        if "Land" not in self.printed(obj).types:
            raise IllegalAction(f"{label} is not a land card (305.1)")
        if player != self.active or self.stack:
            raise IllegalAction(f"{player} can play a land only on their own turn with an empty stack (305.1)")
        if self.players[player].land_played:
            raise IllegalAction(f"{player} has already played a land this turn (305.2)")
        self._remove_from_zone(obj)
        land = self._new_object(obj.card, Zone.BATTLEFIELD, player)
        self.players[player].land_played = True
        self._as_enters(land)
        self._entered(land)
        return land

    def play_from_exile(self, player: str, label: str, *, face_down: FaceDownWay | None = None) -> str:
        """Play a card an effect lets you play this turn, following the normal timing rules and
        paying its costs; it leaves exile, so only once. Returns the cost paid."""
        obj = self.obj(label)
        if obj.zone is not Zone.EXILE or not self.may_play(player, obj):
            raise IllegalAction(f"{player} can't play {label} from exile now: no effect lets them (611.2, 607.2a)")
        front = obj.card.definition.front
        if "Land" in front.types and face_down is None:
            self.play_land(player, label)
            return ""
        if "Instant" not in front.types and self.stack:
            raise IllegalAction(f"{label} can be cast only when the stack is empty (307.1)")
        return self.cast(player, label, face_down=face_down)

    def add_counters(self, label: str, kind: CounterKind = CounterKind.PLUS_ONE, count: int = 1) -> None:
        obj = self.obj(label)
        obj.counters[kind] = obj.counters.get(kind, 0) + count

    def remove_counter(self, obj: GameObject, kind: CounterKind) -> bool:
        """Remove one counter of `kind`; removing the last time counter triggers vanishing's
        sacrifice (702.63a). Returns whether there was one."""
        if not obj.counters.get(kind):
            return False
        obj.counters[kind] -= 1
        if kind is CounterKind.TIME and obj.counters[kind] == 0:
            self._emit(TriggerEvent.LAST_TIME_COUNTER_REMOVED, obj)
        return True

    def separate_into_piles(self, player: str, face_down: list[str], face_up: list[str]) -> None:
        """`player` looks at the cards and separates them into a face-down and a face-up pile
        (700.3). The cards stay in their zone (700.3c) and in their order; nobody may look at the
        face-down pile until it moves (then it is a new object, 400.7), the face-up one is shown
        to all; the separator knows both."""
        objs = [self.obj(label) for label in face_down + face_up]
        if len({o.oid for o in objs}) != len(objs) or len({o.zone for o in objs}) > 1:
            raise IllegalAction("each card goes into exactly one pile, from one zone (700.3a)")
        for obj in objs:
            obj.pile = Pile.FACE_DOWN if obj.label in face_down else Pile.FACE_UP
            obj.identity_known_to.add(player)
            if obj.pile is Pile.FACE_UP:
                self._reveal(obj)

    def upkeep(self) -> None:
        """The beginning of the active player's upkeep (503.1): "your upkeep" abilities of their
        permanents, "each opponent's upkeep" abilities of their opponents' permanents."""
        for perm in self.battlefield():
            event = TriggerEvent.UPKEEP if perm.controller == self.active else TriggerEvent.OPPONENT_UPKEEP
            for ability in self.characteristics(perm).abilities:
                if ability.event is event:
                    self._trigger(perm, ability, player=self.active)

    def end_step(self) -> None:
        delayed, self.next_end_step = self.next_end_step, []
        for oid, controller in delayed:  # 603.7b: a delayed trigger triggers once
            if oid in self.objects:
                card = self.objects[oid]
                ability = Ability(EffectKind.RETURN_SELF_UNDER_YOUR_CONTROL, text=f"{card.label}: return it")
                self.stack.append(StackAbility(oid, card.label, controller, ability, ability.text))
                self._triggered(card.label, TriggerEvent.END_STEP)  # 603.7: a delayed trigger
        for perm in self.battlefield():
            if perm.controller != self.active:
                continue
            for ability in self.characteristics(perm).abilities:
                if ability.event is TriggerEvent.END_STEP:
                    self._trigger(perm, ability)

    def _mana_to_spend(self, player: str, sources: list[str], spend: Spend, cost: str) -> list[Mana]:
        """The mana of `player`'s pool that `sources` produced, one per label, if it may pay
        `cost` for `spend` (106.6: a spending restriction; a mana symbol pays its own colour or
        generic mana). Raises IllegalAction otherwise; the pool is not changed here."""
        pool = list(self.players[player].mana_pool)
        chosen: list[Mana] = []
        for label in sources:
            found = [m for m in pool if m.source == label]
            if not found:
                raise IllegalAction(f"{player} has no mana from {label} to spend")
            mana = found[0]
            pool.remove(mana)
            if mana.spend_only is not None and spend not in SPEND_ONLY[mana.spend_only]:
                raise IllegalAction(f"the mana from {label} can't be spent on a {spend} (106.6)")
            chosen.append(mana)
        if not _can_pay(cost, [m.symbol for m in chosen]):
            raise IllegalAction(f"{', '.join(m.symbol for m in chosen)} can't pay any part of {cost or 'no cost'}")
        return chosen

    def _spend(self, player: str, mana: list[Mana]) -> None:
        for m in mana:
            self.players[player].mana_pool.remove(m)

    def end_turn(self) -> None:
        self.combat_damage_prevented = False
        for p in self.players.values():
            p.mana_pool.clear()  # 500.4: mana empties between steps
            p.cast_this_turn.clear()
        for obj in list(self.objects.values()):
            obj.effects = [e for e in obj.effects if not e.until_end_of_turn]
            if obj.playable_lasts.ends_with_turn:
                obj.playable = False  # "this turn" ends (514.2); "as long as ..." permissions don't
            obj.damage = 0
            obj.attacking = obj.blocked = obj.blocking = False
            obj.blocked_by = []
        for p in self.players.values():
            p.land_played = False
        order = [name for name, p in self.players.items() if p.in_game or name == self.active]
        self.active = order[(order.index(self.active) + 1) % len(order)]  # 500.1: the next player's turn
        for obj in self.objects.values():
            if obj.playable_lasts is PlayLasts.UNTIL_YOUR_NEXT_TURN and obj.playable_by == self.active:
                obj.playable = False  # "until your next turn": that player's turn has begun (500.1)

    # ---- combat (506-510) --------------------------------------------------------------------

    def attack(self, label: str) -> None:
        """Declare `label` as an attacker (508.1); it becomes tapped unless it has vigilance."""
        obj = self.obj(label)
        ch = self.characteristics(obj)
        if obj.zone is not Zone.BATTLEFIELD or "Creature" not in ch.types or obj.controller != self.active:
            raise IllegalAction(f"{label} is not a creature the active player controls")
        if obj.tapped or "defender" in ch.keywords or self.prohibited(obj, ContinuousKind.CANT_ATTACK):
            raise IllegalAction(f"{label} can't attack")
        obj.attacking = True
        if "vigilance" not in ch.keywords:
            self.tap(label)
        self._emit(TriggerEvent.ATTACKS, obj)

    def block(self, label: str, attacker: str) -> None:
        """Declare `label` as a blocker of `attacker` (509.1); the attacker becomes blocked and
        stays blocked (509.1h) whatever happens to it later."""
        obj, att = self.obj(label), self.obj(attacker)
        ch = self.characteristics(obj)
        if obj.zone is not Zone.BATTLEFIELD or "Creature" not in ch.types or obj.tapped:
            raise IllegalAction(f"{label} can't block")
        if self.prohibited(obj, ContinuousKind.CANT_BLOCK) or not att.attacking:
            raise IllegalAction(f"{label} can't block {attacker}")
        if "flying" in self.characteristics(att).keywords and not {"flying", "reach"} & set(ch.keywords):
            raise IllegalAction(f"{label} can't block {attacker}, which has flying (702.9b)")
        att.blocked = True
        att.blocked_by.append(obj.oid)
        obj.blocking = True
        self._emit(TriggerEvent.BLOCKS, obj)
        self._emit(TriggerEvent.BLOCKED, att)

    def combat_damage(self, label: str, *, to_player: bool | None = None, blockers: int | None = None) -> None:
        """One combat damage step for the attacking creature `label` and the creatures blocking it
        (510): each assigns damage equal to its power, none with 0 or less (510.1a); unblocked, it
        assigns it to the player it attacks, the next player in turn order (510.1b); blocked, to its
        blockers (510.1c: none if none is left), lethal damage to each in the order they were
        declared and the rest to the last (one of the divisions its controller may choose), and
        each blocker assigns its own to it (510.1d). All of it is dealt at once (510.2), then each
        trigger condition triggers once.

        `to_player`, `blockers` state the assignment instead: `to_player` its power to that player
        (for a creature not declared as an attacker too; blocked, with trample, what is left after
        lethal damage to each blocker, 702.19b); `blockers` how many creatures block it
        (with none declared, only its "deals combat damage to blockers" triggers; with some, it
        must be their number). Prevented damage is not dealt (615.1), so nothing about dealing it
        triggers."""
        obj = self.obj(label)
        declared = [
            self.objects[oid] for oid in obj.blocked_by
            if oid in self.objects and self.objects[oid].zone is Zone.BATTLEFIELD and self.is_creature(self.objects[oid])
        ]
        if blockers is not None and declared and blockers != len(declared):
            raise IllegalAction(f"{label} is blocked by {len(declared)} creature(s), not {blockers}")
        trample = "trample" in self.characteristics(obj).keywords
        if to_player and obj.blocked and not trample:
            raise IllegalAction(f"{label} is blocked: it assigns its combat damage to the creatures blocking it (510.1c)")
        if to_player is None and blockers is None:
            if not obj.attacking or obj.zone is not Zone.BATTLEFIELD:
                raise IllegalAction(f"{label} is not an attacking creature (state `to_player` or `blockers` to say what it damages)")
            to_player = not obj.blocked
        if self.combat_damage_prevented:
            return
        power = max(0, self.characteristics(obj).power or 0)
        assigned: list[tuple[GameObject, GameObject | str, int]] = []  # (source, creature or player, amount)
        left = power
        for i, blocker in enumerate(declared):
            ch = self.characteristics(blocker)
            lethal = max(0, (ch.toughness or 0) - blocker.damage)
            # with trample and `to_player`, lethal damage to each blocker and the rest to the player (702.19b)
            share = left if i == len(declared) - 1 and not (trample and to_player) else min(left, lethal)
            left -= share
            assigned += [(obj, blocker, share), (blocker, obj, max(0, ch.power or 0))]
        if to_player:
            order = list(self.players)
            assigned.append((obj, order[(order.index(obj.controller) + 1) % len(order)], left))
        assigned = [(source, to, amount) for source, to, amount in assigned if amount > 0]
        for source, _, amount in assigned:
            self._lifelink(source, amount)  # read before any of it is dealt: it is all dealt at once
        for _, to, amount in assigned:
            if isinstance(to, str):
                self.players[to].life -= amount
            else:
                self._damage_creature(to, amount)
        damaged = [to for source, to, _ in assigned if source is obj and isinstance(to, str)]
        if damaged:
            self._emit(TriggerEvent.COMBAT_DAMAGE_TO_PLAYER, obj, player=damaged[0])
        if power > 0 and (declared or blockers):
            self._emit(TriggerEvent.COMBAT_DAMAGE_TO_BLOCKERS, obj)

    def deal_damage(self, label: str, amount: int) -> None:
        """Damage from no particular source (a scenario's `damage`): no lifelink."""
        self._damage_creature(self.obj(label), amount)

    def _damage_creature(self, obj: GameObject, amount: int) -> None:
        """Mark `amount` damage on a permanent (120.3e), after Illusionary Mask's replacement."""
        self._turn_up_instead(obj)
        obj.damage += amount

    def _lifelink(self, source: GameObject | None, amount: int) -> None:
        """`source` deals `amount` damage: with lifelink its controller gains that much life
        (702.15b). A face-down source has no abilities (708.2), unless an effect gives it lifelink."""
        if amount > 0 and source is not None and "lifelink" in self.characteristics(source).keywords:
            self.players[source.controller].life += amount

    def tap(self, label: str) -> None:
        obj = self.obj(label)
        self._turn_up_instead(obj)
        self._become_tapped(obj)

    def _become_tapped(self, obj: GameObject) -> None:
        """Tap `obj`. "Becomes tapped" triggers only when it was untapped (603.2e): a permanent
        that enters the battlefield tapped never becomes tapped."""
        if not obj.tapped:
            obj.tapped = True
            self._emit(TriggerEvent.BECOMES_TAPPED, obj)

    def untap(self, label: str) -> None:
        """Untap `label`. "Becomes untapped" triggers only when it was tapped (603.2e): a permanent
        that enters the battlefield untapped never becomes untapped."""
        obj = self.obj(label)
        if obj.tapped:
            obj.tapped = False
            self._emit(TriggerEvent.BECOMES_UNTAPPED, obj)

    def _turn_up_instead(self, obj: GameObject) -> None:
        """Illusionary Mask's replacement: a face-down creature it let be cast is turned face up
        before it becomes tapped or is dealt damage; the effect outlives the Mask (it's on the
        object)."""
        if obj.face_down and any(e.kind is ContinuousKind.TURN_UP_INSTEAD_OF_TAP_OR_DAMAGE for e in obj.effects):
            self.effect_turns_face_up(obj.label)

    def leave_game(self, player: str) -> None:
        """800.4a: the player's objects leave; cards others own that they control are exiled;
        708.9: the face-down permanents and spells they own are revealed. 104.2a: when one player
        is left, they win and the game ends (708.9: everything face down is revealed)."""
        for obj in list(self.objects.values()):
            if obj.card.owner == player and obj.face_down and obj.zone in (Zone.BATTLEFIELD, Zone.STACK):
                self._reveal(obj)
        for obj in list(self.objects.values()):
            if obj.card.owner == player:
                self._remove_from_zone(obj)
                self._new_object(obj.card, Zone.OUTSIDE)
            elif obj.controller == player and obj.zone is Zone.BATTLEFIELD:
                self._move(obj, Zone.EXILE)  # leaving the battlefield, a face-down one is revealed
        self.players[player].in_game = False
        if len(self._everyone()) == 1:
            self.end_game()

    def end_game(self) -> None:
        """708.9: at the end of the game all face-down permanents and spells are revealed, and
        face-down conspiracies in the command zone too (702.106e)."""
        for obj in list(self.objects.values()):
            if obj.face_down and (obj.zone in (Zone.BATTLEFIELD, Zone.STACK) or obj.face_down_by is FaceDownWay.HIDDEN_AGENDA):
                self._reveal(obj)

    # ---- relations ---------------------------------------------------------------------------

    def share_name(self, a: GameObject, b: GameObject) -> bool:
        """201.2: objects with no name never have the same name."""
        na, nb = self.characteristics(a).name, self.characteristics(b).name
        return na is not None and na == nb

    def share_creature_type(self, a: GameObject, b: GameObject) -> bool:
        ca, cb = self.characteristics(a), self.characteristics(b)
        if "Creature" not in ca.types or "Creature" not in cb.types:
            return False
        return bool(ca.subtypes & cb.subtypes)


def _names(value: EffectValue) -> tuple[str, ...]:
    """A names value (types, colours, keywords): `effect_value` makes it a tuple of str."""
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, tuple) else ()


def _pair(value: EffectValue) -> tuple[int, int]:
    """A P/T value: `effect_value` makes it a pair of int."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], int) and isinstance(value[1], int):
        return value[0], value[1]
    raise ValueError(f"not a power/toughness pair: {value!r}")


def _apply(ch: Characteristics, eff: Effect) -> Characteristics:
    """One continuous effect on characteristics (613). Prohibitions and costs change nothing here."""
    k, v = eff.kind, eff.value
    if k is ContinuousKind.SET_TYPES:
        return replace(ch, types=frozenset(_names(v)), subtypes=frozenset())
    if k is ContinuousKind.ADD_TYPES:
        return replace(ch, types=ch.types | frozenset(_names(v)))
    if k is ContinuousKind.REMOVE_TYPES:
        return replace(ch, types=ch.types - frozenset(_names(v)))
    if k is ContinuousKind.SET_SUBTYPES:
        return replace(ch, subtypes=frozenset(_names(v)))
    if k is ContinuousKind.ADD_SUBTYPES:
        return replace(ch, subtypes=ch.subtypes | frozenset(_names(v)))
    if k is ContinuousKind.SET_COLORS:
        return replace(ch, colors=frozenset(_names(v)))
    if k is ContinuousKind.ADD_COLORS:
        return replace(ch, colors=ch.colors | frozenset(_names(v)))
    if k is ContinuousKind.LOSE_ALL_ABILITIES:
        return ch.without_abilities()
    if k is ContinuousKind.ADD_KEYWORDS:
        return replace(ch, keywords=ch.keywords + tuple(x for x in _names(v) if x not in ch.keywords))
    if k is ContinuousKind.REMOVE_KEYWORDS:
        return replace(ch, keywords=tuple(x for x in ch.keywords if x not in _names(v)))
    if k is ContinuousKind.ADD_ABILITIES:
        added = tuple(a for a in v if isinstance(a, Ability)) if isinstance(v, tuple) else ()
        return replace(ch, abilities=ch.abilities + added)
    if k is ContinuousKind.SET_PT:
        p, t = _pair(v)
        return replace(ch, power=p, toughness=t)
    if k is ContinuousKind.MODIFY_PT and ch.power is not None and ch.toughness is not None:
        dp, dt = _pair(v)
        return replace(ch, power=ch.power + dp, toughness=ch.toughness + dt)
    return ch


_SYMBOL_X = re.compile(r"\{X\}", re.IGNORECASE)


def _announced_x(label: str, mana_cost: str | None, x: int | None, *, without_paying: bool) -> int | None:
    """The value of X for a spell being cast (601.2b announces it): chosen for an {X} in its mana
    cost (107.3a); 0, the only legal choice, when an effect lets it be cast without paying its
    mana cost (107.3b); none without an {X}."""
    has_x = bool(mana_cost and _SYMBOL_X.search(mana_cost))
    if not has_x:
        if x is not None:
            raise IllegalAction(f"{label} has no {{X}} in its mana cost: no X to announce (107.3a)")
        return None
    if without_paying:
        if x not in (None, 0):
            raise IllegalAction(f"{label}: cast without paying its mana cost, the only legal choice for X is 0 (107.3b)")
        return 0
    if x is None:
        raise MissingChoice(f"{label}: announce the value of X as it is cast (107.3a, 601.2b)")
    if x < 0:
        raise IllegalAction(f"{label}: X can't be {x}: no player can choose a negative number (107.1b)")
    return x


def _chosen_modes(label: str, abilities: tuple[Ability, ...], chosen: tuple[int, ...]) -> tuple[int, ...]:
    """The modes chosen for a spell as it is cast (700.2a, 601.2b): one of its modes for a
    "Choose one —" spell (700.2), none for a spell that isn't modal."""
    numbers = sorted({a.mode for a in abilities if a.mode is not None})
    if not numbers:
        if chosen:
            raise IllegalAction(f"{label} is not modal: it has no mode to choose (700.2)")
        return ()
    if not chosen:
        raise MissingChoice(f"{label} is modal: choose one of modes {', '.join(map(str, numbers))} as it is cast (700.2a, 601.2b)")
    if len(chosen) != 1 or chosen[0] not in numbers:
        raise IllegalAction(f"{label}: choose one of modes {', '.join(map(str, numbers))}, not {list(chosen)} (700.2)")
    return tuple(chosen)


def _spend_of(obj: GameObject, by: TurnUpWay) -> Spend:
    """What turning `obj` face up `by` this way pays for (106.6)."""
    if by is TurnUpWay.MANA:
        return Spend.CLOAKED_MANA_COST if obj.face_down_by is FaceDownWay.CLOAK else Spend.MANIFESTED_MANA_COST
    return Spend.DISGUISE_COST if by is TurnUpWay.DISGUISE else Spend.MORPH_COST


def _face_down_cost(ch: Characteristics, mechanic: Mechanic) -> str | None:
    """The morph, megamorph or disguise cost of a face (None: it has none); a megamorph cost is
    a morph cost too (702.37b)."""
    if mechanic is Mechanic.MORPH:
        return ch.morph if ch.morph is not None else ch.megamorph
    if mechanic is Mechanic.MEGAMORPH:
        return ch.megamorph
    if mechanic is Mechanic.DISGUISE:
        return ch.disguise
    return None


def _add_generic(cost: str, more: int) -> str:
    """A mana cost with `more` generic mana added (negative: removed, never below zero)."""
    if not more:
        return cost
    generic = mana_value("".join(p for p in cost.replace("}", "} ").split() if p[1:-1].isdigit()))
    rest = "".join(p for p in cost.replace("}", "} ").split() if not p[1:-1].isdigit())
    total = max(0, generic + more)
    return (f"{{{total}}}" if total or not rest else "") + rest


def _can_pay(cost: str, symbols: list[str]) -> bool:
    """Whether mana of these symbols fits into `cost` together: each pays a symbol of its own
    colour, or generic mana (107.4)."""
    parts = [p[1:-1].upper() for p in cost.replace("}", "} ").split()]
    generic = sum(int(p) for p in parts if p.isdigit())
    coloured = [p for p in parts if not p.isdigit()]
    for sym in sorted(symbols, key=lambda x: x not in coloured):  # match coloured symbols first
        if sym in coloured:
            coloured.remove(sym)
        elif generic > 0:
            generic -= 1
        else:
            return False
    return True


def _pt_choice(choice: object, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    text = str(choice).replace(" ", "")
    for p, t in options:
        if text == f"{p}/{t}":
            return p, t
    raise IllegalAction(f"choose one of {', '.join(f'{p}/{t}' for p, t in options)}, not {choice!r}")


def _destroy(g: Game, r: _Resolving, t: GameObject) -> None:
    g._move(t, Zone.GRAVEYARD)


def _exile(g: Game, r: _Resolving, t: GameObject) -> None:
    g._move(t, Zone.EXILE)


def _exile_face_down(g: Game, r: _Resolving, t: GameObject) -> None:
    new = g._move(t, Zone.EXILE, face_down=True)
    new.may_look.add(r.controller)


def _bounce(g: Game, r: _Resolving, t: GameObject) -> None:
    g._move(t, Zone.HAND)


def _damage(g: Game, r: _Resolving, t: GameObject) -> None:
    g._lifelink(r.source, r.amount)
    g._damage_creature(t, r.amount)


def _damage_player(g: Game, r: _Resolving, p: str) -> None:
    # 120.3a: damage dealt to a player causes that player to lose that much life
    g._lifelink(r.source, r.amount)
    g.players[p].life -= r.amount


def _pump(g: Game, r: _Resolving, t: GameObject) -> None:
    t.effects.append(Effect(ContinuousKind.MODIFY_PT, (r.ability.count, r.ability.count), g._tick(), True))


def _counters(g: Game, r: _Resolving, t: GameObject) -> None:
    if r.ability.counter is not CounterKind.PLUS_ONE or g.is_creature(t):
        t.counters[r.ability.counter] = t.counters.get(r.ability.counter, 0) + r.ability.count


def _remove_counter(g: Game, r: _Resolving, t: GameObject) -> None:
    g.remove_counter(t, r.ability.counter)


def _sacrifice(g: Game, r: _Resolving, t: GameObject) -> None:
    g.sacrifice(t)


def _turn_up(g: Game, r: _Resolving, t: GameObject) -> None:
    g.effect_turns_face_up(t.label)


def _turn_down(g: Game, r: _Resolving, t: GameObject) -> None:
    g.turn_face_down(t.label)


def _untap(g: Game, r: _Resolving, t: GameObject) -> None:
    g.untap(t.label)


def _tap(g: Game, r: _Resolving, t: GameObject) -> None:
    g._become_tapped(t)


def _target_controller_gains_life_equal_to_power(g: Game, r: _Resolving, t: GameObject) -> None:
    # Swords to Plowshares: after the exile the creature is gone; its last known information
    # (608.2h) is what it was as it left: a face-down creature's power is 2.
    g.players[t.controller].life += max(0, g.characteristics(t).power or 0)


def _gain_life(g: Game, r: _Resolving) -> None:
    g.players[r.controller].life += r.ability.count


def _draw(g: Game, r: _Resolving) -> None:
    g.draw(r.controller, r.ability.count)


def _damage_each_opponent(g: Game, r: _Resolving) -> None:
    for name, player in g.players.items():
        if name != r.controller and player.in_game:
            g._lifelink(r.source, r.ability.count)
            player.life -= r.ability.count


def _damage_controller(g: Game, r: _Resolving, t: GameObject) -> None:
    g._lifelink(r.source, r.ability.count)
    g.players[t.controller].life -= r.ability.count


def _controller_loses_life(g: Game, r: _Resolving, t: GameObject) -> None:
    g.players[t.controller].life -= r.ability.count  # 119.3: not damage, but the model tracks life only


def _create_tokens(g: Game, r: _Resolving) -> None:
    if r.ability.token is None:
        return
    for _ in range(r.ability.count):
        g.create_token(r.controller, CardDef((r.ability.token,)), tapped=r.ability.tapped)


def _create_token_copy(g: Game, r: _Resolving) -> None:
    # "a token that's a copy of that creature": its copiable values as it last existed (707.2,
    # 608.2h): a face-down creature's are the face-down 2/2's (708.2a), and the token is face up.
    for t in r.targets:
        g.create_token(r.controller, t.card.definition, copy_of=g.copiable_values(t))


def _look(g: Game, r: _Resolving, t: GameObject) -> None:
    g.events.append((GameEvent.LOOKED, t.label))  # 708.5: only as the ability resolves; nothing persists


def _gain_control(g: Game, r: _Resolving, t: GameObject) -> None:
    g.gain_control(t.label, r.controller)


@dataclass(frozen=True, slots=True)
class _Resolving:
    """A spell or ability as it resolves: what an effect handler needs to know."""

    ability: Ability
    controller: str
    source: GameObject | None  # None: it left and left no last known information
    targets: list[GameObject]  # the still-legal targets (608.2b)
    choice: object
    player: str | None = None  # the player its trigger event was about ("that player")
    x: int = 0  # the X announced for its spell (107.3a)
    cast: CastChoice | None = None  # the choices for a spell it casts (608.2g)
    target_players: tuple[str, ...] = ()  # its targets that are players, still legal (115.1, 608.2b)

    @property
    def amount(self) -> int:
        """Its number: `count`, or X for `count: X` (107.3a: the value announced as it was cast)."""
        return self.x if self.ability.x else self.ability.count

    @property
    def source_on_battlefield(self) -> GameObject | None:
        return self.source if self.source is not None and self.source.zone is Zone.BATTLEFIELD else None


def _form(g: Game, r: _Resolving) -> None:
    # "it becomes an Aura with enchant creature. Manifest the top card of your library and
    # attach [it] to it." The manifest happens even if the Form has left the battlefield.
    form = r.source_on_battlefield
    if form is not None:
        form.effects.append(Effect(ContinuousKind.ADD_SUBTYPES, ("Aura",), g._tick()))
        form.effects.append(Effect(ContinuousKind.ADD_KEYWORDS, ("enchant creature",), g._tick()))
    made = g.manifest(r.controller)
    if form is not None and made:
        form.attached_to = made[0].oid


def _matches_values(f: ObjectFilter, ch: Characteristics, owner_side: str, controller: str) -> bool:
    """Whether characteristics `ch` of an object controlled by `owner_side` are what `f` asks for,
    seen from `controller` (the ability's or the cost modifier's controller)."""
    if f.controller == "you" and owner_side != controller:
        return False
    if f.controller == "opponent" and owner_side == controller:
        return False
    if not f.types <= ch.types or (f.colors and not f.colors & ch.colors):
        return False
    if f.subtypes and not f.subtypes & ch.subtypes:
        return False
    if f.multicolored and len(ch.colors) < 2:
        return False
    if f.min_mana_value is not None and ch.mana_value < f.min_mana_value:
        return False
    return f.max_mana_value is None or ch.mana_value <= f.max_mana_value


def _manifest_effect(g: Game, r: _Resolving) -> None:
    # "Its controller manifests": the target's controller as it last existed (608.2h)
    for who in [t.controller for t in r.targets] or [r.controller]:
        g.manifest(who, r.ability.count)


def _manifest_from_that_players_library(g: Game, r: _Resolving) -> None:
    g.manifest(r.controller, r.ability.count, library_of=r.player)


def _put_onto_battlefield_face_down_as(g: Game, r: _Resolving, t: GameObject) -> None:
    noted = t.card.definition  # "note the name of target ... card": linked to its face-down ability
    new = g.put_face_down_as(t.label, r.controller, r.ability.face_down_as or face_down_characteristics())
    new.noted = noted


def _cast_copy_of_noted_card(g: Game, r: _Resolving) -> None:
    # "you may create a copy of the card with the noted name. You may cast the copy without paying
    # its mana cost" (`choice: true` for both). 707.12: casting a copy follows 601.2a-h while this
    # ability resolves (608.2g); without paying its mana cost is an alternative cost (118.9), so X
    # is 0 (107.3b). A copy of a card off the stack and battlefield ceases to exist (704.5e).
    noted = r.source.noted if r.source is not None else None
    if noted is None:
        return  # no name noted: no card to copy
    g.cast_copy(r.controller, noted, r.cast or CastChoice())


def _chosen_labels(choice: object) -> list[str]:
    """The cards a choice names: one label, or a list of them (none: no choice made)."""
    if isinstance(choice, str):
        return [choice]
    return [str(c) for c in choice] if isinstance(choice, list | tuple | set | frozenset) else []


def _and(labels: Collection[str], word: str = "and") -> str:
    items = list(labels)
    return ", ".join(items[:-1]) + f" {word} " + items[-1] if len(items) > 1 else "".join(items)


def _looks_at(who: str, looked: list[GameObject]) -> str:
    return f"{who} looks at {_and([o.label for o in looked]) or 'no card'}"


def _one_of(what: str, options: list[GameObject]) -> str:
    return f"{what} ({_and([o.label for o in options], 'or') or 'there is none'})"


def _choose_one(
    options: list[GameObject], names: Collection[str], seen: str, verb: str, rule: str
) -> GameObject | None:
    """The one of `options` that a player's choice `names`, for every effect that has a player
    choose one object of a set ("look at the top two, manifest one of them"; "a copy of a creature
    on the battlefield"), `seen` saying what the set is: a name that is not among them is an
    illegal choice (608.2d), so is naming two; with one option there is nothing to choose, with
    none nothing is chosen; with more and none named, the choice is missing (the model doesn't
    choose for the player)."""
    stray = [n for n in dict.fromkeys(names) if n not in {o.label for o in options}]
    if stray:
        raise IllegalAction(f"{seen}, not {_and(stray, 'or')}")
    chosen = [o for o in options if o.label in names]
    if len(chosen) > 1:
        raise IllegalAction(f"{seen} and chooses one of them to {verb}, not {_and([o.label for o in chosen])}")
    if not chosen and len(options) > 1:
        raise MissingChoice(f"{seen}; the player chooses the one to {verb} ({rule}): name it")
    return chosen[0] if chosen else options[0] if options else None


def _manifest_dread_each(g: Game, players: list[str], choice: object) -> None:
    """Each of `players` manifests dread; `choice` names the card each chooses among their top two
    (Unidentified Hovership: each owner of a card exiled with it), and no card none of them looks at."""
    names = _chosen_labels(choice)
    looks = {p: [o.label for o in g.library(p)[:2]] for p in players}
    if len(looks) > 1:
        stray = [n for n in names if not any(n in labels for labels in looks.values())]
        if stray:
            seen = "; ".join(f"{p} looks at {_and(labels) or 'no card'}" for p, labels in looks.items())
            raise IllegalAction(f"manifest dread: {seen}; none looks at {_and(stray)}")
    for p in players:
        g.manifest_dread(p, [n for n in names if n in looks[p]] if len(looks) > 1 else names)


def _manifest_dread_effect(g: Game, r: _Resolving) -> None:
    _manifest_dread_each(g, [t.controller for t in r.targets] or [r.controller], r.choice)


def _cloak_effect(g: Game, r: _Resolving) -> None:
    g.cloak(r.controller)


def _gain_life_per_creature(g: Game, r: _Resolving) -> None:
    mine = [o for o in g.battlefield() if o.controller == r.controller and g.is_creature(o)]
    g.players[r.controller].life += len(mine)


def _exile_self_and_top_then_manifest(g: Game, r: _Resolving) -> None:
    pile = []
    source = r.source_on_battlefield
    if source is not None:
        pile.append(g._move(source, Zone.EXILE, reveal=False))
    lib = g.library(r.controller)
    if lib:
        pile.append(g._move(lib[0], Zone.EXILE, reveal=False))
    for card in pile:  # the shuffled pile: scenarios see the order they were exiled
        g._put_face_down(card, FaceDownWay.MANIFEST, r.controller, seen=False)


def _grant_dies_manifest(g: Game, r: _Resolving) -> None:
    # Locked in as the ability resolves: only the creatures there now gain it (611.2c).
    granted = Ability(effect=EffectKind.MANIFEST, event=TriggerEvent.DIES, text="When this creature dies, manifest")
    for obj in g.battlefield():
        if obj.controller == r.controller and not obj.face_down and not obj.card.token and g.is_creature(obj):
            obj.effects.append(Effect(ContinuousKind.ADD_ABILITIES, (granted,), g._tick(), True))


def _counter_targets(g: Game, r: _Resolving) -> None:
    for t in r.targets:
        g._counter_spell(t)


def _exile_top_playable_this_turn(g: Game, r: _Resolving) -> None:
    # "Exile the top card of your library. Until end of turn, you may play that card": exiled face
    # up, as exiled cards are unless an effect says otherwise (406.3), so every player sees it.
    lib = g.library(r.controller)
    if lib:
        exiled = g._move(lib[0], Zone.EXILE)
        exiled.playable, exiled.playable_by = True, r.controller


def _put_on_bottom(g: Game, obj: GameObject) -> None:
    """A card of a library to the bottom of that library (the same object: it stays in the zone)."""
    lib = g.players[obj.card.owner].library
    lib.remove(obj.oid)
    lib.append(obj.oid)


def _exile_card_face_down(g: Game, r: _Resolving) -> None:
    # Praetor's Grasp: "Search target opponent's library for a card and exile it face down. ... You
    # may look at and play that card for as long as it remains exiled." The cards come from the
    # target player's zone (else the controller's); they are exiled face down (406.3) by this very
    # object (607.2a), and only the players the effect names may look at them. A search for "a
    # card" states no quality, so a card is found if there is one (701.19a-b); the shuffle after it
    # is left out (the model has no random order: a check expects none).
    whose = r.controller
    if r.target_players:
        whose = r.target_players[0]
    elif r.ability.that_player and r.player is not None:
        whose = r.player  # "that player's library": the player its trigger event was about
    zone = r.ability.from_zone
    if zone is ExileFrom.TOP_OF_LIBRARY:
        taken = g.library(whose)[: r.ability.count]
    elif zone is not None and zone.looks_at_top:
        # Gonti, Clone Shell, Thief of Sanity: the top `count` (all of them if fewer) looked at; one exiled even
        # if it is no card the ability goes on to use (Clone Shell's non-creature card)
        top = g.library(whose)[: r.ability.count]
        who = f"{r.source.label}'s ability" if r.source is not None else "the ability"
        one = _choose_one(top, _chosen_labels(r.choice), _looks_at(who, top), "exile face down", "608.2d")
        for obj in top:
            if obj is one:
                continue
            if zone is ExileFrom.ONE_OF_TOP_REST_TO_GRAVEYARD:
                g._move(obj, Zone.GRAVEYARD)  # "then put the rest into their graveyard"
            else:
                _put_on_bottom(g, obj)  # "in a random order": the model keeps theirs
        taken = [one] if one is not None else []
    else:
        cards = g.library(whose) if zone is ExileFrom.LIBRARY else [o for o in g.objects.values()
                                                                   if o.zone is Zone.HAND and o.card.owner == whose]
        seen = (f"{r.controller} searches {whose}'s library" if zone is ExileFrom.LIBRARY
                else f"{whose} exiles a card from their hand")
        one = _choose_one(cards, _chosen_labels(r.choice), _one_of(seen, cards), "exile face down",
                          "701.19a" if zone is ExileFrom.LIBRARY else "608.2d")
        taken = [one] if one is not None else []
    for obj in taken:
        new = g._move(obj, Zone.EXILE, face_down=True)
        new.exiled_with = r.source.oid if r.source is not None else None
        new.exiled_by = r.controller
        looked = zone is not None and zone.looks_at_top and g.rules.keeps_looking_at_what_it_looked_at_and_exiled
        if "you" in r.ability.may_look or looked:
            new.may_look.add(r.controller)  # 406.3: allowed, or (since 2024-11-08) looked at, then exiled
        if r.ability.may_play is not None:
            new.playable, new.playable_by, new.playable_lasts = True, r.controller, r.ability.may_play


def _turn_up_exiled_with_this(g: Game, r: _Resolving) -> None:
    # Linked abilities (607.2a): only the cards exiled by this very object, which may have
    # left the battlefield to pay the cost; another object with its name has none.
    oid = r.source.oid if r.source is not None else None
    effect = r.ability.effect
    for obj in [o for o in g.objects.values() if o.zone is Zone.EXILE and o.exiled_with == oid]:
        obj.face_down_by = None
        types = obj.card.definition.card_types
        put = (effect is EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_PERMANENTS and not types & {"Instant", "Sorcery"}) or (
            effect is EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_CREATURE and "Creature" in types
        )
        if put:
            g._move(obj, Zone.BATTLEFIELD).controller = r.controller


def _exiled_cards_owners_manifest_dread(g: Game, r: _Resolving) -> None:
    # Unidentified Hovership: each player who owns a card exiled with this very object (607.2a)
    # manifests dread once, in turn order from the active player (101.4).
    oid = r.source.oid if r.source is not None else None
    owners = {o.card.owner for o in g.objects.values() if o.zone is Zone.EXILE and o.exiled_with == oid}
    order = list(g.players)
    start = order.index(g.active)
    _manifest_dread_each(g, [p for p in order[start:] + order[:start] if p in owners], r.choice)


def _prevent_combat_damage(g: Game, r: _Resolving) -> None:
    g.combat_damage_prevented = True  # a prevention effect, whatever is in combat (615.1)


def _look_at_face_down_in_combat(g: Game, r: _Resolving) -> None:
    for obj in g.battlefield():
        if obj.face_down and (obj.attacking or obj.blocking):
            g.events.append((GameEvent.LOOKED, obj.label))  # 708.5: only as it resolves


def _opponent_returns_self_at_next_end_step(g: Game, r: _Resolving) -> None:
    # "choose target opponent": in these scenarios the first opponent still in the game
    if r.source is not None and r.source.zone is Zone.GRAVEYARD:
        opponents = [p for p, player in g.players.items() if p != r.controller and player.in_game]
        if opponents:
            g.next_end_step.append((r.source.oid, opponents[0]))


def _return_self_under_your_control(g: Game, r: _Resolving) -> None:
    # the same card, still in the graveyard (400.7): onto the battlefield face up under the
    # delayed trigger's controller
    if r.source is not None and r.source.zone is Zone.GRAVEYARD and r.source.oid in g.objects:
        g._remove_from_zone(r.source)
        new = g._new_object(r.source.card, Zone.BATTLEFIELD, r.controller)
        g._as_enters(new)
        g._entered(new)


def _return_self(g: Game, r: _Resolving) -> None:
    if r.source is not None and r.source.zone is Zone.GRAVEYARD:
        down = r.ability.effect is EffectKind.RETURN_SELF_FACE_DOWN or str(r.choice).replace("_", " ") == "face down"
        if down:
            g._put_face_down(r.source, FaceDownWay.EFFECT, r.controller)
        else:
            g._move(r.source, Zone.BATTLEFIELD)


_EXILED_WITH_EFFECTS = (
    EffectKind.EXILED_CARDS_OWNERS_MANIFEST_DREAD,
    EffectKind.TURN_UP_EXILED_WITH_THIS,
    EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_PERMANENTS,
    EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_CREATURE,
)

# What an effect does to a target that is a player (115.1: "any target").
_PLAYER_TARGET_EFFECTS: dict[EffectKind, Callable[[Game, _Resolving, str], None]] = {
    EffectKind.DAMAGE: _damage_player,
}

_TARGET_EFFECTS: dict[EffectKind, Callable[[Game, _Resolving, GameObject], None]] = {
    EffectKind.DESTROY: _destroy,
    EffectKind.EXILE: _exile,
    EffectKind.EXILE_FACE_DOWN: _exile_face_down,
    EffectKind.BOUNCE: _bounce,
    EffectKind.DAMAGE: _damage,
    EffectKind.PUMP: _pump,
    EffectKind.COUNTERS: _counters,
    EffectKind.REMOVE_COUNTER: _remove_counter,
    EffectKind.SACRIFICE: _sacrifice,
    EffectKind.TURN_FACE_UP: _turn_up,
    EffectKind.TURN_FACE_DOWN: _turn_down,
    EffectKind.LOOK: _look,
    EffectKind.UNTAP: _untap,
    EffectKind.TAP: _tap,
    EffectKind.DAMAGE_CONTROLLER: _damage_controller,
    EffectKind.CONTROLLER_LOSES_LIFE: _controller_loses_life,
    EffectKind.TARGET_CONTROLLER_GAINS_LIFE_EQUAL_TO_POWER: _target_controller_gains_life_equal_to_power,
    EffectKind.GAIN_CONTROL: _gain_control,
    EffectKind.PUT_ONTO_BATTLEFIELD_FACE_DOWN_AS: _put_onto_battlefield_face_down_as,
}

# The effects that don't act on each target in turn. Kinds in neither table (the 708.11
# replacements, COUNTER_UNLESS_PAID, NOTHING) do nothing when they resolve here.
_EFFECTS: dict[EffectKind, Callable[[Game, _Resolving], None]] = {
    EffectKind.FORM: _form,
    EffectKind.MANIFEST: _manifest_effect,
    EffectKind.MANIFEST_FROM_THAT_PLAYERS_LIBRARY: _manifest_from_that_players_library,
    EffectKind.GAIN_LIFE: _gain_life,
    EffectKind.DAMAGE_EACH_OPPONENT: _damage_each_opponent,
    EffectKind.DRAW: _draw,
    EffectKind.EXILE_TOP_PLAYABLE_THIS_TURN: _exile_top_playable_this_turn,
    EffectKind.OPPONENT_RETURNS_SELF_AT_NEXT_END_STEP: _opponent_returns_self_at_next_end_step,
    EffectKind.RETURN_SELF_UNDER_YOUR_CONTROL: _return_self_under_your_control,
    EffectKind.CREATE_TOKENS: _create_tokens,
    EffectKind.CREATE_TOKEN_COPY: _create_token_copy,
    EffectKind.MANIFEST_DREAD: _manifest_dread_effect,
    EffectKind.CLOAK: _cloak_effect,
    EffectKind.GAIN_LIFE_PER_CREATURE: _gain_life_per_creature,
    EffectKind.EXILE_SELF_AND_TOP_THEN_MANIFEST: _exile_self_and_top_then_manifest,
    EffectKind.GRANT_DIES_MANIFEST: _grant_dies_manifest,
    EffectKind.COUNTER: _counter_targets,
    EffectKind.EXILE_CARD_FACE_DOWN: _exile_card_face_down,
    EffectKind.TURN_UP_EXILED_WITH_THIS: _turn_up_exiled_with_this,
    EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_PERMANENTS: _turn_up_exiled_with_this,
    EffectKind.TURN_UP_EXILED_WITH_THIS_PUT_CREATURE: _turn_up_exiled_with_this,
    EffectKind.RETURN_SELF: _return_self,
    EffectKind.PREVENT_COMBAT_DAMAGE: _prevent_combat_damage,
    EffectKind.LOOK_AT_FACE_DOWN_IN_COMBAT: _look_at_face_down_in_combat,
    EffectKind.EXILED_CARDS_OWNERS_MANIFEST_DREAD: _exiled_cards_owners_manifest_dread,
    EffectKind.RETURN_SELF_FACE_DOWN: _return_self,
    EffectKind.CAST_COPY_OF_NOTED_CARD: _cast_copy_of_noted_card,
}

# Events that other objects listen to, and which of their listeners need "you control it" or
# "it is a creature".
_OTHERS: dict[TriggerEvent, tuple[TriggerEvent, ...]] = {
    TriggerEvent.ATTACKS: (TriggerEvent.CREATURE_YOU_CONTROL_ATTACKS,),
    TriggerEvent.BLOCKED: (TriggerEvent.CREATURE_YOU_CONTROL_BLOCKED,),
    TriggerEvent.TURNED_FACE_UP: (
        TriggerEvent.PERMANENT_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.CREATURE_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.ANOTHER_CREATURE_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.PERMANENT_TURNED_FACE_UP_FROM_GRAVEYARD,
    ),
}
_YOURS = frozenset(
    {
        TriggerEvent.CREATURE_YOU_CONTROL_ATTACKS,
        TriggerEvent.CREATURE_YOU_CONTROL_BLOCKED,
        TriggerEvent.PERMANENT_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.CREATURE_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.ANOTHER_CREATURE_YOU_CONTROL_TURNED_FACE_UP,
        TriggerEvent.PERMANENT_TURNED_FACE_UP_FROM_GRAVEYARD,
    }
)
# Targets its controller chooses as a triggered ability goes on the stack (603.3d), instead of
# the object its trigger event happened to ("that creature").
_CHOSEN_TARGETS = frozenset({TargetKind.ANOTHER_CREATURE, TargetKind.PLAYER, TargetKind.OPPONENT})
_CREATURE_ONLY = frozenset(
    {TriggerEvent.CREATURE_YOU_CONTROL_TURNED_FACE_UP, TriggerEvent.ANOTHER_CREATURE_YOU_CONTROL_TURNED_FACE_UP}
)
