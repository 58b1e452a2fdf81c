"""The game state and the actions the scenarios take on it. Pure Python, no I/O.

Cards are physical and keep a label across zones; every zone change makes a new game object with
a new id (400.7). Characteristics are computed by applying layers 1a (copy), 1b (face down),
4 (type), 6 (abilities) and 7 (power/toughness) to the printed face (613).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from kb.game.cards import Ability, CardDef, Characteristics, face_down_characteristics
from kb.game.rules import Rules


class Zone(StrEnum):
    LIBRARY = "library"
    HAND = "hand"
    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    EXILE = "exile"
    STACK = "stack"
    OUTSIDE = "outside"  # left the game with its owner (800.4a)


class IllegalAction(ValueError):
    """An action the rules don't allow; the state is unchanged."""


# How a permanent became face down (708.6 asks players to track this).
FACE_DOWN_WAYS = ("manifest", "cloak", "morph", "megamorph", "disguise", "effect")


@dataclass
class Effect:
    """A continuous effect applied to one object, in layer 4 (type), 6 (abilities) or 7 (P/T)."""

    layer: int
    kind: str  # set_types | add_subtypes | lose_all_abilities | add_keywords | add_abilities | modify_pt
    value: object = None
    timestamp: int = 0
    until_end_of_turn: bool = False


@dataclass
class Card:
    """A physical card (or token) in the game, known by its scenario label."""

    label: str
    definition: CardDef
    owner: str
    token: bool = False
    revealed: bool = False  # shown to all players at some point (701.40g, 708.9)


@dataclass
class GameObject:
    oid: int
    card: Card
    zone: Zone
    controller: str
    timestamp: int
    face_down_by: str | None = None  # None: face up
    tapped: bool = False
    plus_counters: int = 0
    attached_to: int | None = None
    copy_of: Characteristics | None = None  # layer 1a: copiable values acquired
    effects: list[Effect] = field(default_factory=list)
    face_index: int = 0  # double-faced cards: 0 front, 1 back
    playable_this_turn: bool = False
    may_look: set[str] = field(default_factory=set)  # players an effect lets look (708.5)

    @property
    def label(self) -> str:
        return self.card.label

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


@dataclass
class Player:
    name: str
    life: int = 20
    library: list[int] = field(default_factory=list)  # object ids, top first
    in_game: bool = True
    land_played: bool = False
    top_revealed: bool = False  # plays with the top card of their library revealed


class Game:
    """A two-or-more player game reduced to what face-down rulings need."""

    def __init__(self, players: list[str], rules: Rules | None = None) -> None:
        if not players:
            raise ValueError("a game needs at least one player")
        self.rules = rules or Rules()
        self.players: dict[str, Player] = {p: Player(p) for p in players}
        self.active = players[0]
        self.objects: dict[int, GameObject] = {}
        self.cards: dict[str, Card] = {}
        self.stack: list[StackAbility | int] = []  # top last
        self.events: list[tuple[str, str]] = []  # (event, label), for expectations
        self._next_oid = 1
        self._clock = 0

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
            values = face_down_characteristics(ward=obj.face_down_by in ("cloak", "disguise"))
        return values

    def characteristics(self, obj: GameObject, *, ignore_face_down: bool = False) -> Characteristics:
        """The object's characteristics after layers 1a-7 (`ignore_face_down`: as if face up)."""
        if ignore_face_down:
            ch = obj.copy_of if obj.copy_of is not None else self.printed(obj)
        else:
            ch = self.copiable_values(obj)
        for eff in sorted(obj.effects, key=lambda e: (e.layer, e.timestamp)):
            if eff.kind == "set_types":
                ch = replace(ch, types=frozenset(eff.value), subtypes=frozenset())  # type: ignore[arg-type]
            elif eff.kind == "add_subtypes":
                ch = replace(ch, subtypes=ch.subtypes | frozenset(eff.value))  # type: ignore[arg-type]
            elif eff.kind == "lose_all_abilities":
                ch = ch.without_abilities()
            elif eff.kind == "add_keywords":
                ch = replace(ch, keywords=ch.keywords + tuple(eff.value))  # type: ignore[arg-type]
            elif eff.kind == "add_abilities":
                ch = replace(ch, abilities=ch.abilities + tuple(eff.value))  # type: ignore[arg-type]
            elif eff.kind == "modify_pt" and ch.power is not None and ch.toughness is not None:
                dp, dt = eff.value  # type: ignore[misc]
                ch = replace(ch, power=ch.power + dp, toughness=ch.toughness + dt)
        if obj.zone is Zone.BATTLEFIELD:
            granted: list[str] = []
            for aura in self.battlefield():
                if aura.attached_to == obj.oid and aura is not obj:
                    granted.extend(self.characteristics(aura).enchanted_has)  # layer 6
            if granted:
                ch = replace(ch, keywords=ch.keywords + tuple(granted))
            if obj.plus_counters and ch.power is not None and ch.toughness is not None:
                ch = replace(
                    ch, power=ch.power + obj.plus_counters, toughness=ch.toughness + obj.plus_counters
                )  # layer 7d
        return ch

    def is_creature(self, obj: GameObject) -> bool:
        return "Creature" in self.characteristics(obj).types

    # ---- information (708.5, 708.9) ----------------------------------------------------------

    def can_see(self, player: str, obj: GameObject) -> bool:
        """Whether `player` may look at the front of `obj`."""
        if not obj.face_down:
            return obj.zone not in (Zone.LIBRARY, Zone.HAND) or player == obj.card.owner
        if obj.zone in (Zone.BATTLEFIELD, Zone.STACK) and player == obj.controller:
            return True
        return player in obj.may_look

    def _reveal(self, obj: GameObject) -> None:
        obj.card.revealed = True
        self.events.append(("revealed", obj.label))

    # ---- events, triggers, state-based actions -----------------------------------------------

    def _emit(self, event: str, obj: GameObject, *, last_known: Characteristics | None = None) -> None:
        self.events.append((event, obj.label))
        own = last_known or self.characteristics(obj)
        listeners: list[tuple[GameObject, Ability]] = []
        for ability in own.abilities:
            if ability.event == event:
                listeners.append((obj, ability))
        if event == "turned_face_up":
            for perm in self.battlefield():
                if perm.controller != obj.controller:
                    continue
                for ability in self.characteristics(perm).abilities:
                    if ability.event == "permanent_you_control_turned_face_up":
                        listeners.append((perm, ability))
        for source, ability in listeners:
            self._trigger(source, ability)

    def _trigger(self, source: GameObject, ability: Ability) -> None:
        desc = ability.text or f"{source.label}: {ability.effect}"
        self.stack.append(StackAbility(source.oid, source.label, source.controller, ability, desc))
        self.events.append(("triggered", source.label))

    def check_state_based_actions(self) -> None:
        """704.5f (toughness 0 or less) and 704.5m (an Aura attached to nothing illegal)."""
        changed = True
        while changed:
            changed = False
            for obj in self.battlefield():
                ch = self.characteristics(obj)
                if "Creature" in ch.types and ch.toughness is not None and ch.toughness <= 0:
                    self._move(obj, Zone.GRAVEYARD)
                    changed = True
                    break
                if "Aura" in ch.subtypes:
                    host = self.objects.get(obj.attached_to) if obj.attached_to else None
                    if host is None or host.zone is not Zone.BATTLEFIELD or not self.is_creature(host):
                        self._move(obj, Zone.GRAVEYARD)
                        changed = True
                        break

    # ---- zone changes ------------------------------------------------------------------------

    def _move(self, obj: GameObject, zone: Zone, *, face_up: bool = True) -> GameObject:
        """Move to another zone as a new object (400.7), revealing a face-down permanent (708.9)."""
        last_known = self.characteristics(obj)
        was_creature = obj.zone is Zone.BATTLEFIELD and "Creature" in last_known.types
        if obj.face_down and obj.zone in (Zone.BATTLEFIELD, Zone.STACK) and face_up:
            self._reveal(obj)
        self._remove_from_zone(obj)
        for other in self.objects.values():
            if other.attached_to == obj.oid:
                other.attached_to = None
        if obj.card.token and zone is not Zone.BATTLEFIELD:
            zone = Zone.OUTSIDE  # 704.5d: a token that left the battlefield ceases to exist
        new = self._new_object(obj.card, zone, obj.card.owner)
        if zone is Zone.LIBRARY:
            self.players[obj.card.owner].library.insert(0, new.oid)
        if zone is Zone.GRAVEYARD and was_creature:
            self._emit("dies", new, last_known=last_known)
        if zone is Zone.BATTLEFIELD:
            self._emit("enters", new)
        return new

    def move(self, label: str, zone: Zone) -> GameObject:
        """Destroy, sacrifice, exile, bounce...: put the object into `zone`."""
        obj = self.obj(label)
        if obj.zone is zone:
            raise IllegalAction(f"{label} is already in the {zone}")
        return self._move(obj, zone)

    def return_to_battlefield(self, label: str) -> GameObject | None:
        """An effect returns a card that left: face up; an instant or sorcery stays where it is."""
        obj = self.obj(label)
        front = obj.card.definition.front
        if front.types & {"Instant", "Sorcery"}:
            return None
        return self._move(obj, Zone.BATTLEFIELD)

    # ---- putting cards onto the battlefield face down ----------------------------------------

    def _put_face_down(self, obj: GameObject, way: str, controller: str) -> GameObject:
        if obj.card.definition.is_double_faced and not self.rules.double_faced_can_be_face_down:
            raise IllegalAction(
                f"{obj.label}: a double-faced permanent is always face up (711.6, CR {self.rules.date})"
            )
        self._remove_from_zone(obj)
        new = self._new_object(obj.card, Zone.BATTLEFIELD, controller)
        new.face_down_by = way  # turned face down before it enters (708.3)
        self._emit("enters", new)  # face down it has no abilities, so nothing of its own triggers
        return new

    def _require(self, mechanic: str) -> None:
        if not self.rules.knows(mechanic):
            raise IllegalAction(f"{mechanic} does not exist in the rules of {self.rules.date}")

    def manifest(self, player: str, count: int = 1) -> list[GameObject]:
        """701.40a: the top card(s) of the library onto the battlefield face down, one at a time."""
        self._require("manifest")
        done = []
        for _ in range(count):
            lib = self.players[player].library
            if not lib:
                break
            done.append(self._put_face_down(self.objects[lib[0]], "manifest", player))
        return done

    def manifest_card(self, player: str, label: str, way: str = "manifest") -> GameObject:
        """Manifest a specific card (Ghastly Conscription, Write into Being, Jeskai Infiltrator)."""
        self._require(way)
        return self._put_face_down(self.obj(label), way, player)

    def manifest_one_of_top_two(self, player: str, choose: str, other_to: str = "top") -> GameObject:
        """Write into Being: look at the top two, manifest one, the other on top or bottom. With the
        top card of the library revealed, the other card is revealed once it is on top."""
        self._require("manifest")
        top = self.library(player)[:2]
        chosen = [o for o in top if o.label == choose]
        if not chosen:
            raise IllegalAction(f"{choose} is not among the top two cards of {player}'s library")
        new = self._put_face_down(chosen[0], "manifest", player)
        lib = self.players[player].library
        others = [o for o in top if o is not chosen[0]]
        if others and self.players[player].top_revealed:
            self._reveal(others[0])
        if others and other_to == "bottom":
            lib.remove(others[0].oid)
            lib.append(others[0].oid)
        return new

    def cloak(self, player: str) -> GameObject | None:
        """701.58a: manifest with ward {2}."""
        self._require("cloak")
        lib = self.players[player].library
        return self._put_face_down(self.objects[lib[0]], "cloak", player) if lib else None

    def manifest_dread(self, player: str, choose: str) -> GameObject:
        """701.62a: look at the top two, manifest one, the other goes to the graveyard."""
        self._require("manifest_dread")
        top = self.library(player)[:2]
        chosen = [o for o in top if o.label == choose]
        if not chosen:
            raise IllegalAction(f"{choose} is not among the top two cards of {player}'s library")
        new = self._put_face_down(chosen[0], "manifest", player)
        for other in top:
            if other is not chosen[0]:
                self._move(other, Zone.GRAVEYARD)
        return new

    def cast(self, player: str, label: str, *, face_down: str | None = None) -> GameObject:
        """Cast a card from hand; `face_down`: 'morph' / 'megamorph' / 'disguise' for {3} (702.37c)."""
        obj = self.obj(label)
        if obj.zone is not Zone.HAND or obj.card.owner != player:
            raise IllegalAction(f"{label} is not in {player}'s hand")
        if face_down is not None:
            self._require(face_down)
            front = obj.card.definition.front
            cost = getattr(front, face_down, None)
            if face_down == "morph" and cost is None:
                cost = front.megamorph  # 702.37b: megamorph is a morph ability
            if cost is None:
                raise IllegalAction(f"{label} has no {face_down} ability")
            if obj.card.definition.is_double_faced:
                raise IllegalAction(f"{label}: a double-faced card can't be cast face down (712.)")
        self._remove_from_zone(obj)
        spell = self._new_object(obj.card, Zone.STACK, player)
        spell.face_down_by = face_down
        self.stack.append(spell.oid)
        return spell

    def resolve(self, copy_of: str | None = None) -> None:
        """Resolve the top of the stack; `copy_of` is the choice for a Clone-like spell."""
        if not self.stack:
            raise IllegalAction("the stack is empty")
        top = self.stack.pop()
        if isinstance(top, StackAbility):
            self._resolve_ability(top)
            return
        spell = self.objects[top]
        ch = self.characteristics(spell)
        if ch.types & {"Instant", "Sorcery"}:
            for ability in ch.abilities:
                if ability.event is None:
                    self._do(ability, spell.controller, spell)
            self._move(spell, Zone.GRAVEYARD)
            return
        way = spell.face_down_by
        self._remove_from_zone(spell)
        perm = self._new_object(spell.card, Zone.BATTLEFIELD, spell.controller)
        perm.face_down_by = way  # 708.4: the permanent a face-down spell becomes is face down
        if copy_of is not None and ch.enters_as_copy:
            perm.copy_of = self.copiable_values(self.obj(copy_of))  # 707.2
        self._emit("enters", perm)

    def resolve_all(self) -> None:
        while self.stack:
            self.resolve()
            self.check_state_based_actions()

    def _resolve_ability(self, item: StackAbility) -> None:
        source = self.objects.get(item.source_oid)  # None when the source left (113.7a)
        self._do(item.ability, item.controller, source)

    def _do(self, ability: Ability, controller: str, source: GameObject | None) -> None:
        effect = ability.effect
        on_battlefield = source is not None and source.zone is Zone.BATTLEFIELD
        if effect == "form":
            # "it becomes an Aura with enchant creature. Manifest the top card of your library and
            # attach [it] to it." The manifest happens even if the Form has left the battlefield.
            if on_battlefield:
                assert source is not None
                source.effects.append(Effect(4, "add_subtypes", ("Aura",), self._tick()))
                source.effects.append(Effect(6, "add_keywords", ("enchant creature",), self._tick()))
            made = self.manifest(controller)
            if on_battlefield and made:
                assert source is not None
                source.attached_to = made[0].oid
        elif effect == "manifest":
            self.manifest(controller, ability.count)
        elif effect == "gain_life_per_creature":
            mine = [o for o in self.battlefield() if o.controller == controller and self.is_creature(o)]
            self.players[controller].life += len(mine)
        elif effect == "exile_self_and_top_then_manifest":
            pile = []
            if on_battlefield:
                assert source is not None
                pile.append(self._move(source, Zone.EXILE, face_up=False))
            lib = self.library(controller)
            if lib:
                pile.append(self._move(lib[0], Zone.EXILE, face_up=False))
            for card in pile:  # the shuffled pile: scenarios see the order they were exiled
                self._put_face_down(card, "manifest", controller)
        elif effect == "grant_dies_manifest":
            # Locked in as the ability resolves: only the creatures there now gain it (611.2c).
            granted = Ability(effect="manifest", event="dies", text="When this creature dies, manifest")
            for obj in self.battlefield():
                if (
                    obj.controller == controller
                    and not obj.face_down
                    and not obj.card.token
                    and self.is_creature(obj)
                ):
                    obj.effects.append(Effect(6, "add_abilities", (granted,), self._tick(), True))

    # ---- turning face up and down ------------------------------------------------------------

    def turn_face_up(self, label: str, by: str = "mana") -> str:
        """The special action (116.2b): by 'mana' (manifest/cloak: the card's mana cost, 701.40b),
        'morph' / 'megamorph' (702.37e) or 'disguise' (702.168d). Returns the cost paid."""
        obj = self.obj(label)
        if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
            raise IllegalAction(f"{label} is not a face-down permanent")
        as_face_up = self.characteristics(obj, ignore_face_down=True)
        if by == "mana":
            if obj.face_down_by not in ("manifest", "cloak"):
                raise IllegalAction(f"{label} was not manifested or cloaked ({obj.face_down_by})")
            # 701.40b: show that *the card* is a creature card: effects on the permanent don't count.
            card_front = obj.card.definition.front
            if "Creature" not in card_front.types or not card_front.mana_cost:
                raise IllegalAction(f"{label} is not a creature card with a mana cost")
            cost = card_front.mana_cost
        elif by in ("morph", "megamorph", "disguise"):
            self._require(by)
            cost_or_none = getattr(as_face_up, by)
            if by == "morph" and cost_or_none is None:
                cost_or_none = as_face_up.megamorph
            if cost_or_none is None:
                raise IllegalAction(f"{label} would have no {by} cost if it were face up")
            cost = cost_or_none
        else:
            raise IllegalAction(f"unknown way to turn face up: {by!r}")
        if "Instant" in obj.card.definition.front.types or "Sorcery" in obj.card.definition.front.types:
            self._reveal(obj)  # 701.40g
            return cost
        if by in ("morph", "megamorph") and as_face_up.morph is None:
            obj.plus_counters += 1  # 702.37b: its megamorph cost was paid
        obj.face_down_by = None
        obj.face_index = 0  # 712.15a: a double-faced card turns face up front face up
        self.events.append(("special_action", label))
        self._emit("turned_face_up", obj)  # 708.8: not "enters"
        return cost

    def effect_turns_face_up(self, label: str) -> bool:
        """An effect (not the special action) turns a permanent face up. 701.40g: a manifested
        instant or sorcery is revealed and stays face down. Returns whether it turned face up."""
        obj = self.obj(label)
        if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
            return False
        if obj.card.definition.front.types & {"Instant", "Sorcery"}:
            self._reveal(obj)
            return False
        obj.face_down_by = None
        obj.face_index = 0
        self._emit("turned_face_up", obj)
        return True

    def turn_face_down(self, label: str) -> bool:
        """An effect turns a permanent face down. 708.2b: not if it already is; 712.16: a
        double-faced permanent can't be turned face down. Returns whether it happened."""
        obj = self.obj(label)
        if obj.zone is not Zone.BATTLEFIELD or obj.face_down:
            return False
        if obj.card.definition.is_double_faced:
            return False
        obj.face_down_by = "effect"
        return True

    def transform(self, label: str) -> bool:
        """701.27: turn a double-faced permanent over; 712.15a: not while it's face down."""
        obj = self.obj(label)
        if not obj.card.definition.is_double_faced or obj.face_down or obj.zone is not Zone.BATTLEFIELD:
            return False
        obj.face_index = 1 - obj.face_index
        return True

    def can_turn_face_up(self, label: str, by: str = "mana") -> bool:
        """Whether the special action is allowed now (without taking it)."""
        obj = self.obj(label)
        if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
            return False
        if by == "mana":
            front = obj.card.definition.front
            return (
                obj.face_down_by in ("manifest", "cloak")
                and "Creature" in front.types
                and bool(front.mana_cost)
            )
        as_face_up = self.characteristics(obj, ignore_face_down=True)
        cost = getattr(as_face_up, by, None)
        if by == "morph" and cost is None:
            cost = as_face_up.megamorph
        return cost is not None

    # ---- other effects -----------------------------------------------------------------------

    def become_copy(self, label: str, of: str) -> None:
        """708.10 / 707.3: the object's copiable values become those of `of`; a face-down object
        still shows its face-down characteristics."""
        self.obj(label).copy_of = self.copiable_values(self.obj(of))

    def add_effect(self, label: str, layer: int, kind: str, value: object = None) -> None:
        self.obj(label).effects.append(Effect(layer, kind, value, self._tick()))

    def activate(self, player: str, label: str, *, target: str | None = None) -> None:
        """Activate `label`'s activated ability, paying its cost (sacrifice, exile a face-down)."""
        obj = self.obj(label)
        abilities = [a for a in self.characteristics(obj).abilities if a.event is None]
        if obj.zone is not Zone.BATTLEFIELD or obj.controller != player or not abilities:
            raise IllegalAction(f"{player} can't activate an ability of {label}")
        ability = abilities[0]
        if ability.cost == "sacrifice":
            self._move(obj, Zone.GRAVEYARD)
            self.stack.append(StackAbility(obj.oid, label, player, ability, ability.text))
        elif ability.cost == "exile a face-down permanent you control":
            # Primordial Mist: the card is exiled face up; that isn't "turning face up".
            victim = self.obj(target) if target else None
            if victim is None or not victim.face_down or victim.controller != player:
                raise IllegalAction(f"{target} is not a face-down permanent {player} controls")
            exiled = self._move(victim, Zone.EXILE)
            exiled.playable_this_turn = exiled.zone is Zone.EXILE
        else:
            self.stack.append(StackAbility(obj.oid, label, player, ability, ability.text))

    def play_from_exile(self, player: str, label: str) -> str:
        """Play a card an effect lets you play this turn, following the normal timing rules and
        paying its costs; it leaves exile, so only once. Returns the mana cost paid."""
        obj = self.obj(label)
        if obj.zone is not Zone.EXILE or not obj.playable_this_turn:
            raise IllegalAction(f"{label} can't be played from exile now")
        front = obj.card.definition.front
        if "Land" in front.types:
            if self.players[player].land_played or self.stack:
                raise IllegalAction(f"{player} has no land play available now (305.2)")
            self.players[player].land_played = True
            self._move(obj, Zone.BATTLEFIELD)
            return ""
        if "Instant" not in front.types and self.stack:
            raise IllegalAction(f"{label} can be cast only when the stack is empty (307.1)")
        self._remove_from_zone(obj)
        spell = self._new_object(obj.card, Zone.STACK, player)
        self.stack.append(spell.oid)
        return front.mana_cost or ""

    def end_step(self) -> None:
        for perm in self.battlefield():
            if perm.controller != self.active:
                continue
            for ability in self.characteristics(perm).abilities:
                if ability.event == "end_step":
                    self._trigger(perm, ability)

    def end_turn(self) -> None:
        for obj in list(self.objects.values()):
            obj.effects = [e for e in obj.effects if not e.until_end_of_turn]
            obj.playable_this_turn = False
        for p in self.players.values():
            p.land_played = False

    def combat_damage(self, label: str, *, to_player: bool = False, blockers: int = 0) -> None:
        """One combat damage step's damage by `label`: each trigger condition triggers once."""
        obj = self.obj(label)
        if to_player:
            self._emit("combat_damage_to_player", obj)
        if blockers:
            self._emit("combat_damage_to_blockers", obj)

    def leave_game(self, player: str) -> None:
        """800.4a: the player's objects leave; cards others own that they control are exiled;
        708.9: the face-down permanents and spells they own are revealed."""
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

    def end_game(self) -> None:
        """708.9: at the end of the game all face-down permanents and spells are revealed."""
        for obj in list(self.objects.values()):
            if obj.face_down and obj.zone in (Zone.BATTLEFIELD, Zone.STACK):
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
