"""The scenario check format: YAML text in, `Check`s out; a check runs on `kb.game` and reports
every expectation it failed. See docs/CHECKS.md.

Parsing collects problems (file and line from YAML node marks) instead of stopping, so one bad
check doesn't hide the others in its file. No I/O here: `kb.checks` reads the files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from enum import StrEnum
import re
from typing import Any, TypedDict, TypeVar

import yaml

from kb.game import (
    CardDataError,
    CardDef,
    CastChoice,
    Characteristics,
    ContinuousKind,
    CounterKind,
    EffectValue,
    FaceDownWay,
    Game,
    GameEvent,
    GameObject,
    IllegalAction,
    MECHANIC_OF,
    MissingChoice,
    Mechanic,
    NotInRules,
    Rules,
    RulesDateError,
    TurnUpWay,
    Zone,
    card_from_data,
)
from kb.game.cards import PlayLasts, TriggerEvent, effect_value, is_bare_mana, keyword_problem
from kb.game.draft import Draft
from kb.game.state import CAST_FACE_DOWN, face_down_refusal
from kb.model import Problem
from kb.normalize import close_matches, normalize_text

DEFAULT_PLAYERS = ("you", "opponent")
SETUP_ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "command")
# The Conspiracy draft (905), before the game: the booster pack a player holds, the cards they
# drafted (`face_up: true` for one still face up), their unopened booster pack.
DRAFT_ZONES = ("pack", "drafted", "unopened")
PLAYER_SETUP_KEYS = ("life", "land_played", "top_revealed")
_E = TypeVar("_E", bound=StrEnum)
MAX_DEPTH = 40  # deeper YAML is refused: no check needs it, and PyYAML composes recursively


class _LineDict(dict):  # type: ignore[type-arg]
    """A mapping that remembers the line (1-based) where it started in the YAML text, and each
    key's line (`key_lines`)."""

    line: int = 0
    key_lines: dict[Any, int]


class _LineLoader(yaml.SafeLoader):
    """yaml's safe loader, keeping each mapping's line for messages; dates stay text (a check
    date is validated by the rules model, with the check's line, and a bad one can't abort the
    file)."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _LineDict:
    # A key given twice would silently keep only its last value (PyYAML's default): a second
    # `expect:` on an action would drop the first one's expectations, and the check could not fail.
    first: dict[Any, int] = {}
    for key_node, _value in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        key = loader.construct_object(key_node)
        if key in first:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} is given twice in one mapping (first on line {first[key]}): "
                            "only one would count; merge them", key_node.start_mark)
        first[key] = key_node.start_mark.line + 1
    d = _LineDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    d.key_lines = first
    return d


def _construct_text(loader: _LineLoader, node: yaml.Node) -> str:
    return str(loader.construct_scalar(node)) if isinstance(node, yaml.ScalarNode) else ""


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_text)


def load_yaml(text: str) -> Any:
    """YAML as check and card files are read: each mapping keeps its line (`_line`), dates stay
    text, and a key given twice in one mapping is a yaml.YAMLError at the second one."""
    return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass


def yaml_problem(exc: yaml.YAMLError) -> tuple[int | None, str]:
    """The line (1-based, if known) and the reason of a YAML error, for a problem's message."""
    mark = getattr(exc, "problem_mark", None)
    return (mark.line + 1 if mark is not None else None), str(getattr(exc, "problem", None) or exc)


def _line(value: Any, default: int) -> int:
    return getattr(value, "line", 0) or default


def _where(line: int, action: str | None = None) -> str:
    """Where a check's failure is: "line 10", or "line 10 (turn_face_up)" in an action's expectations."""
    return f"line {line}" + (f" ({action})" if action else "")


@dataclass(frozen=True, slots=True)
class Step:
    action: str
    arg: Any  # the argument as written
    line: int
    expect: Mapping[str, Any] | None = None
    args: Mapping[str, Any] = field(default_factory=dict)  # checked, as a mapping (a scalar under the first key)


@dataclass(frozen=True, slots=True)
class Placed:
    """A card of a check's setup, as checked when the file was parsed."""

    label: str  # `as:`, else the card's name
    card: str
    owner: str
    zone: Zone
    line: int
    face_down: FaceDownWay | None = None
    tapped: bool = False
    counters: int = 0
    attached_to: str | None = None  # a label
    controller: str | None = None  # None: its owner
    token: bool = False
    attacking: bool = False
    damage: int = 0
    may_look: tuple[str, ...] = ()
    playable: bool = False
    playable_by: str | None = None  # None: its owner
    playable_lasts: PlayLasts = PlayLasts.TURN
    named: str | None = None  # a hidden agenda's secretly chosen name
    exiled_with: str | None = None  # a label
    commander_casts: int | None = None  # a commander: times cast from the command zone (903.8)
    draft_zone: str | None = None  # one of DRAFT_ZONES: a card of the draft, not of the game
    face_up: bool = False  # a drafted card still face up during the draft


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    life: int = 20
    land_played: bool = False
    top_revealed: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    """One scenario: a setup, actions, and expectations; it verifies the ruling it quotes."""

    id: str  # "<file stem>/<name>": stable across rebuilds
    name: str
    file: str
    line: int
    ruling: str
    rules: str | None  # the rules date the check is written for; None: current
    setup: Mapping[str, Any]  # as written (for display); the run uses `players` and `placed`
    steps: tuple[Step, ...]
    expect: Mapping[str, Any] | None
    description: str = ""
    cards: Mapping[str, CardDef] = field(default_factory=dict)  # defined in the check's file
    players: tuple[PlayerSetup, ...] = (PlayerSetup("you"), PlayerSetup("opponent"))
    placed: tuple[Placed, ...] = ()
    # the rules dates it holds under: from `holds_since` on, before `holds_until` (a ruling a later rule
    # contradicts); under others it is expected to fail, and is not applicable when it does
    holds_since: str | None = None
    holds_until: str | None = None
    # with holds_until: the part of the ruling the later rule contradicts, in the ruling's words ("..." between parts)
    no_longer_holds: str | None = None

    def outside_its_rules(self, date: str) -> str | None:
        """Why the check is not expected to hold under the rules of `date`, or None."""
        if self.holds_since is not None and date < self.holds_since:
            return f"it holds from the rules of {self.holds_since} on (holds_since), not under those of {date}"
        if self.holds_until is not None and date >= self.holds_until:
            return f"it holds only under rules before {self.holds_until} (holds_until), not under those of {date}"
        return None

    def ruling_no_longer_holds(self, date: str) -> str | None:
        """What `kb check` (its n/a reason) and `kb outdated` (its check-fails reason) both say of a check
        whose ruling a later rule contradicts, run under the rules of `date` from `holds_until` on; else None."""
        if self.holds_until is None or date < self.holds_until:
            return None
        part = f'; the part that no longer holds: "{self.no_longer_holds}"' if self.no_longer_holds else ""
        return (f"the ruling no longer holds under the rules of {date}: its check passes only under rules before "
                f"{self.holds_until} (holds_until){part}")


# ---- the action table ---------------------------------------------------------------------------


class Arg(StrEnum):
    """The type of an action's argument (or a setup item's key), checked and converted when the
    check is parsed; the value names the type in messages."""

    CARD = "CARD"  # a card label of the setup
    CARDS = "[CARD]"
    TARGETS = "[CARD|PLAYER]"  # cards or players (115.1)
    INTS = "N|[N]"  # -> tuple of int
    CAST = "{targets, x, mode}"  # -> CastChoice: a spell cast during resolution (608.2g)
    PLAYER = "PLAYER"
    PLAYERS = "[PLAYER]"
    ZONE = "ZONE"
    INT = "N"
    BOOL = "BOOL"
    CAST_WAY = "|".join(CAST_FACE_DOWN)  # -> FaceDownWay
    FACE_DOWN_WAY = "|".join(FaceDownWay)  # -> FaceDownWay
    TURN_UP_WAY = "|".join(TurnUpWay)  # -> TurnUpWay
    KIND = "EFFECT_KIND"  # -> ContinuousKind
    COUNTER_KIND = "|".join(CounterKind)  # -> CounterKind
    NAMES = "NAME|[NAME]"  # -> list of str
    PT = "P/T"
    TIMES = "1|all"  # -> "1" or "all"
    TOP_OR_BOTTOM = "top|bottom"
    PLAY_LASTS = "|".join(PlayLasts)  # -> PlayLasts
    ANY = "VALUE"
    TEXT = "TEXT"


Handler = Callable[["_Runner", dict[str, Any]], object]


@dataclass(frozen=True, slots=True)
class Action:
    """One check action: its arguments (the first is what a scalar argument fills), what it does
    on the game, and a parse-time `check` of its arguments together (a message, or None). `run`
    returns a cost paid (str), False when the effect did nothing, or anything else."""

    args: Mapping[str, Arg]
    run: Handler
    required: tuple[str, ...] = ()
    doc: str = ""
    check: Callable[[Mapping[str, Any]], str | None] | None = None


def _player(r: _Runner, a: dict[str, Any]) -> str:
    return str(a.get("player") or r.default_player)


def _did(result: object) -> bool:
    return result is not None and result is not False and result != []


def _untap(r: _Runner, a: dict[str, Any]) -> None:
    r.game.untap(a["card"])


def _remember(r: _Runner, a: dict[str, Any]) -> None:
    r.remembered[a["card"]] = r.game.obj(a["card"]).oid


def _attach(r: _Runner, a: dict[str, Any]) -> None:
    r.game.obj(a["card"]).attached_to = r.game.obj(a["to"]).oid


def _add_counters(r: _Runner, a: dict[str, Any]) -> None:
    r.game.add_counters(a["card"], a.get("kind", CounterKind.PLUS_ONE), int(a.get("count", 1)))


def _let_look(r: _Runner, a: dict[str, Any]) -> None:
    r.game.obj(a["card"]).may_look.add(_player(r, a))


def _gain_control(r: _Runner, a: dict[str, Any]) -> None:
    r.game.gain_control(a["card"], _player(r, a))


# The argument holding a continuous effect's value, for the actions that fix the kind.
_VALUE_ARG = {ContinuousKind.SET_TYPES: "types", ContinuousKind.ADD_KEYWORDS: "keywords"}


def _effect_kind_and_value(a: Mapping[str, Any], kind: ContinuousKind | None) -> tuple[ContinuousKind, EffectValue]:
    """The effect's kind (fixed by the action, else its `kind` argument) and its value, in the
    form the model takes; raises CardDataError for a value that kind can't have."""
    if kind is None:
        kind, raw = ContinuousKind(a["kind"]), a.get("value")
    else:
        raw = a.get(_VALUE_ARG.get(kind, "value"))
    return kind, effect_value(kind, raw, "effect")


def _effect(kind: ContinuousKind | None = None) -> Handler:
    """A continuous effect from a resolved spell or ability: `effect: {card, kind, value}`."""

    def run(r: _Runner, a: dict[str, Any]) -> None:
        k, value = _effect_kind_and_value(a, kind)
        for label in a.get("cards") or [a["card"]]:
            r.game.add_effect(label, k, value, until_end_of_turn=bool(a.get("until_end_of_turn")))

    return run


def _check_effect(kind: ContinuousKind | None = None) -> Callable[[Mapping[str, Any]], str | None]:
    """The parse-time check of an `effect` (or of a shorthand that fixes its `kind`): its value."""

    def check(a: Mapping[str, Any]) -> str | None:
        if not a.get("card") and not a.get("cards"):
            return "needs `card` or a non-empty `cards`"
        try:
            _effect_kind_and_value(a, kind)
        except CardDataError as exc:
            return str(exc).removeprefix("effect: ")
        return None

    return check


def _resolve(r: _Runner, a: dict[str, Any]) -> object:
    if a.get("times") == "all":
        r.game.resolve_all()
        return None
    r.game.resolve(copy_of=a.get("copy_of"), pay=bool(a.get("pay")), choice=a.get("choice"), cast=a.get("cast"))
    return None


def _face_down_values(a: Mapping[str, Any]) -> Characteristics:
    return replace(card_from_data({"name": "face-down", "pt": a["pt"], "types": a["types"]}).front, name=None)


def _check_face_down_values(a: Mapping[str, Any]) -> str | None:
    try:
        _face_down_values(a)
    except CardDataError as exc:
        return str(exc).lstrip(": ")
    return None


def _put_face_down_as(r: _Runner, a: dict[str, Any]) -> object:
    return r.game.put_face_down_as(a["card"], _player(r, a), _face_down_values(a))


def _manifest(r: _Runner, a: dict[str, Any]) -> object:
    if "card" in a:
        return r.game.manifest_card(_player(r, a), a["card"])
    return _did(r.game.manifest(_player(r, a), int(a.get("count", 1))))


_C, _P = Arg.CARD, Arg.PLAYER
ACTIONS: dict[str, Action] = {
    "cast": Action(
        {"card": _C, "player": _P, "face_down": Arg.CAST_WAY, "targets": Arg.TARGETS, "face": Arg.INT,
         "without_paying": Arg.BOOL, "spend": Arg.CARDS, "modes": Arg.INT, "x": Arg.INT, "mode": Arg.INTS},
        lambda r, a: r.game.cast(
            _player(r, a), a["card"], face_down=a.get("face_down"), targets=a.get("targets"),
            face=int(a.get("face", 0)), without_paying=bool(a.get("without_paying")), spend=a.get("spend"),
            modes=int(a.get("modes", 1)), x=a.get("x"), mode=a.get("mode", ()),
        ),
        ("card",),
        "cast from hand (face down for {3}: 702.37c); `targets` (cards or players, 115.1) are chosen now; "
        "`face: 1` casts an Adventure or a modal DFC's back; `without_paying` its mana cost (an alternative "
        "cost); `spend` the mana of the pool that these sources produced (106.6); `modes` chosen (escalate, "
        "702.120a); `x` the value of X (107.3a); `mode` the mode chosen of a modal spell (700.2a)",
    ),
    "resolve": Action(
        {"times": Arg.TIMES, "copy_of": _C, "pay": Arg.BOOL, "choice": Arg.ANY, "cast": Arg.CAST},
        _resolve,
        (),
        "`1` (top of the stack) or `all`; `copy_of` for a Clone, `pay` a ward cost, `choice` otherwise; "
        "`cast: {targets, x, mode}` the choices for a spell it casts as it resolves (608.2g, 707.12)",
    ),
    "counter": Action({"card": _C}, lambda r, a: r.game.counter(a["card"]), ("card",), "an effect counters a spell"),
    "manifest": Action({"player": _P, "count": Arg.INT, "card": _C}, _manifest, (), "the top card(s), or a given card"),
    "cloak": Action({"player": _P}, lambda r, a: _did(r.game.cloak(_player(r, a))), (), "701.58a"),
    "manifest_dread": Action(
        {"player": _P, "choose": _C}, lambda r, a: _did(r.game.manifest_dread(_player(r, a), a.get("choose"))), (),
        "701.62a: look at the top two, manifest `choose`, the other to the graveyard",
    ),
    "manifest_one_of_top_two": Action(
        {"player": _P, "choose": _C, "other_to": Arg.TOP_OR_BOTTOM},
        lambda r, a: r.game.manifest_one_of_top_two(_player(r, a), a["choose"], str(a.get("other_to", "top"))),
        ("choose",),
        "Write into Being",
    ),
    "turn_face_up": Action(
        {"card": _C, "by": Arg.TURN_UP_WAY, "choice": Arg.ANY, "spend": Arg.CARDS},
        lambda r, a: r.game.turn_face_up(a["card"], a.get("by", TurnUpWay.MANA), choice=a.get("choice"), spend=a.get("spend")),
        ("card",),
        "the special action (116.2b); `choice` for an \"as it is turned face up\" ability (708.11)",
    ),
    "effect_turns_face_up": Action(
        {"card": _C, "choice": Arg.ANY},
        lambda r, a: r.game.effect_turns_face_up(a["card"], choice=a.get("choice")),
        ("card",),
        "an effect turns it face up (may not happen: 701.40g)",
    ),
    "turn_face_down": Action({"card": _C}, lambda r, a: r.game.turn_face_down(a["card"]), ("card",), "an effect"),
    "turn_all_face_down": Action(
        {"except": _C}, lambda r, a: _did(r.game.turn_all_face_down(a.get("except"))), (),
        "Ixidron: all other nontoken creatures",
    ),
    "transform": Action({"card": _C}, lambda r, a: r.game.transform(a["card"]), ("card",), "701.27"),
    "move": Action(
        {"card": _C, "to": Arg.ZONE, "face_down": Arg.BOOL, "by": _C},
        lambda r, a: r.game.move(a["card"], a["to"], face_down=bool(a.get("face_down")), by=a.get("by")),
        ("card", "to"),
        "any zone change; `face_down` exiles face down (406.3), `by` the object whose effect did it",
    ),
    "destroy": Action({"card": _C}, lambda r, a: r.game.move(a["card"], Zone.GRAVEYARD), ("card",)),
    "exile": Action(
        {"card": _C, "face_down": Arg.BOOL, "by": _C},
        lambda r, a: r.game.move(a["card"], Zone.EXILE, face_down=bool(a.get("face_down")), by=a.get("by")),
        ("card",),
    ),
    "put_face_down_as": Action(
        {"card": _C, "player": _P, "pt": Arg.PT, "types": Arg.NAMES},
        _put_face_down_as,
        ("card", "pt", "types"),
        "onto the battlefield face down as given characteristics (Tezzeret: 5/5 artifact creatures, 708.2a)",
        _check_face_down_values,
    ),
    "bounce": Action({"card": _C}, lambda r, a: r.game.move(a["card"], Zone.HAND), ("card",)),
    "return_to_battlefield": Action(
        {"card": _C, "face_down": Arg.BOOL},
        lambda r, a: _did(r.game.return_to_battlefield(a["card"], face_down=bool(a.get("face_down")))),
        ("card",),
        "an effect returns it (face up unless `face_down`)",
    ),
    "become_copy": Action({"card": _C, "of": _C}, lambda r, a: r.game.become_copy(a["card"], a["of"]), ("card", "of")),
    "effect": Action(
        {"card": _C, "cards": Arg.CARDS, "kind": Arg.KIND, "value": Arg.ANY, "until_end_of_turn": Arg.BOOL},
        _effect(),
        ("kind",),
        "a continuous effect (kinds: " + ", ".join(k.value for k in ContinuousKind) + ")",
        _check_effect(),
    ),
    "lose_all_abilities": Action({"card": _C}, _effect(ContinuousKind.LOSE_ALL_ABILITIES), ("card",)),
    "set_types": Action({"card": _C, "types": Arg.NAMES}, _effect(ContinuousKind.SET_TYPES), ("card", "types")),
    "grant": Action({"card": _C, "keywords": Arg.NAMES}, _effect(ContinuousKind.ADD_KEYWORDS), ("card", "keywords"),
                    check=_check_effect(ContinuousKind.ADD_KEYWORDS)),
    "tap": Action({"card": _C}, lambda r, a: r.game.tap(a["card"]), ("card",)),
    "untap": Action({"card": _C}, _untap, ("card",)),
    "attach": Action({"card": _C, "to": _C}, _attach, ("card", "to")),
    "add_counters": Action({"card": _C, "count": Arg.INT, "kind": Arg.COUNTER_KIND}, _add_counters, ("card",),
                           "`count` counters of `kind` (default +1/+1)"),
    "put_onto_battlefield": Action(
        {"cards": Arg.CARDS}, lambda r, a: r.game.put_onto_battlefield(a["cards"]), ("cards",),
        "an effect puts the cards onto the battlefield at the same time (614.12, 603.6a)",
        lambda a: None if a.get("cards") else "needs a non-empty `cards`",
    ),
    "choose_targets": Action(
        {"card": _C, "targets": Arg.TARGETS}, lambda r, a: r.game.choose_targets(a["card"], a.get("targets") or []),
        ("card",), "the targets of a triggered ability of `card` that waits for them (603.3d): cards, or a player for "
        "`target: player` or `opponent` (115.1)",
    ),
    "separate_into_piles": Action(
        {"player": _P, "face_down": Arg.CARDS, "face_up": Arg.CARDS},
        lambda r, a: r.game.separate_into_piles(_player(r, a), a.get("face_down") or [], a.get("face_up") or []),
        ("player",), "`player` separates cards into a face-down and a face-up pile (700.3)",
    ),
    "damage": Action({"card": _C, "count": Arg.INT}, lambda r, a: r.game.deal_damage(a["card"], int(a.get("count", 1))), ("card",)),
    "remember": Action({"card": _C}, _remember, ("card",), "remember its object, for `same_object`"),
    "activate": Action(
        {"card": _C, "player": _P, "target": _C, "at_random": Arg.BOOL},
        lambda r, a: r.game.activate(_player(r, a), a["card"], target=a.get("target"), at_random=bool(a.get("at_random"))),
        ("card",),
    ),
    "play_land": Action(
        {"card": _C, "player": _P}, lambda r, a: r.game.play_land(_player(r, a), a["card"]), ("card",),
        "305.1: the special action, once a turn (305.2), from hand or where an effect lets its owner play it",
    ),
    "draw": Action(
        {"player": _P, "count": Arg.INT, "from": _P},
        lambda r, a: r.game.draw(_player(r, a), int(a.get("count", 1)), from_player=a.get("from")),
        (),
        "121.1: the player draws, one card at a time; a replacement (121.6) may exile another card instead: "
        "`from` the opponent whose library Shared Fate takes it from",
    ),
    "discard": Action(
        {"card": _C, "player": _P}, lambda r, a: r.game.discard(_player(r, a), a["card"]), ("card",),
        "701.9a: a card from its owner's hand to the graveyard",
    ),
    "cycle": Action(
        {"card": _C, "player": _P}, lambda r, a: r.game.cycle(_player(r, a), a["card"]), ("card",),
        "702.29a: from hand only: pay the cycling cost, discard it, draw a card",
    ),
    "play_from_exile": Action(
        {"card": _C, "player": _P, "face_down": Arg.CAST_WAY},
        lambda r, a: r.game.play_from_exile(_player(r, a), a["card"], face_down=a.get("face_down")),
        ("card",),
    ),
    "attack": Action({"card": _C}, lambda r, a: r.game.attack(a["card"]), ("card",), "declare an attacker"),
    "block": Action({"card": _C, "attacker": _C}, lambda r, a: r.game.block(a["card"], a["attacker"]), ("card", "attacker")),
    "combat_damage": Action(
        {"card": _C, "to_player": Arg.BOOL, "blockers": Arg.INT},
        lambda r, a: r.game.combat_damage(
            a["card"], to_player=None if "to_player" not in a else bool(a["to_player"]),
            blockers=None if "blockers" not in a else int(a["blockers"]),
        ),
        ("card",),
        "an attacking creature and its blockers deal their combat damage (510); `to_player`, `blockers` state it",
    ),
    "upkeep": Action({}, lambda r, a: r.game.upkeep()),
    "end_step": Action({}, lambda r, a: r.game.end_step()),
    "end_turn": Action({}, lambda r, a: r.game.end_turn()),
    "end_game": Action({}, lambda r, a: r.game.end_game()),
    "draft": Action(
        {"card": _C, "player": _P, "at_random": Arg.BOOL, "remove_with": _C},
        lambda r, a: r.need_draft().draft(
            _player(r, a), a["card"], at_random=bool(a.get("at_random")), remove_with=a.get("remove_with")
        ),
        ("card",),
        "905.1a: draft a card from the pack the player holds; `at_random` when they may not look; `remove_with` "
        "a face-up card that removes it from the draft",
    ),
    "turn_face_down_in_draft": Action(
        {"card": _C, "player": _P, "look_at": _P},
        lambda r, a: r.need_draft().turn_face_down(_player(r, a), a["card"], look_at=a.get("look_at")),
        ("card", "look_at"),
        "turn a face-up drafted card face down to look at the next card `look_at` drafts, or at their unopened pack",
    ),
    "set_in_motion": Action({"player": _P}, lambda r, a: r.game.set_in_motion(_player(r, a)), (),
                            "701.32a: the top scheme of the player's scheme deck is turned face up; no one gets priority"),
    "leave_game": Action({"player": _P}, lambda r, a: r.game.leave_game(_player(r, a)), ("player",)),
    "gain_control": Action({"card": _C, "player": _P}, _gain_control, ("card", "player"),
                           "an effect gives a player control of a permanent"),
    "forbid_casting_name": Action(
        {"card": _C, "player": _P}, lambda r, a: r.game.forbid_casting_name(_player(r, a), a["card"]),
        ("card", "player"),
        "an effect: `player` can't cast spells with the same name as `card` has now (none if face down, 708.2a)",
    ),
    "let_look": Action({"card": _C, "player": _P}, _let_look, ("card",), "an effect lets a player look"),
}

SETUP_ITEM_KEYS = {
    "card": Arg.TEXT, "as": Arg.TEXT, "face_down": Arg.FACE_DOWN_WAY, "tapped": Arg.BOOL, "counters": Arg.INT,
    "attached_to": _C, "controller": _P, "token": Arg.BOOL, "attacking": Arg.BOOL, "damage": Arg.INT,
    "may_look": Arg.PLAYERS, "playable": Arg.BOOL, "playable_by": _P, "playable_lasts": Arg.PLAY_LASTS,
    "named": Arg.TEXT, "exiled_with": _C,
    "commander_casts": Arg.INT, "face_up": Arg.BOOL,
}


# ---- parsing ------------------------------------------------------------------------------------


class _CheckSyntax(ValueError):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _too_deep(text: str) -> tuple[int, list[tuple[int, int]]] | None:
    """(first line, line spans of the items to drop) when the YAML nests deeper than MAX_DEPTH;
    no spans when the deep part is outside any item of a top-level list. PyYAML's event parser
    is not recursive, so this is safe on any input; composing the nodes would not be."""
    depth = 0
    first = None
    spans: list[tuple[int, int]] = []
    item: list[int] | None = None  # [start line, last line, deep?] of the current top-level item
    block_list = False
    outside = False
    def _line_of(mark: object) -> int:
        return int(getattr(mark, "line", 0))  # PyYAML's events always carry marks

    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(ev, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                depth += 1
                if depth == 2:
                    block_list = not ev.flow_style
                if depth == 3 and block_list:  # an item of a block list has lines of its own
                    item = [_line_of(ev.start_mark), _line_of(ev.start_mark), 0]
                if depth > MAX_DEPTH and not (item and item[2]):
                    first = first if first is not None else _line_of(ev.start_mark) + 1
                    if item is not None and depth > 3:
                        item[2] = 1
                    else:
                        outside = True
            elif isinstance(ev, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                if depth == 3 and item is not None:
                    if item[2]:
                        spans.append((item[0], item[1]))
                    item = None
                depth -= 1
                continue
            if item is not None:
                item[1] = max(item[1], _line_of(ev.end_mark if isinstance(ev, yaml.ScalarEvent) else ev.start_mark))
    except yaml.YAMLError:
        return None  # yaml.load reports it, with its line
    if first is None:
        return None
    return first, [] if outside else spans


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the lines of `spans` emptied, so every other line keeps its number."""
    lines = text.split("\n")
    for start, end in spans:
        for i in range(start, min(end + 1, len(lines))):
            lines[i] = ""
    return "\n".join(lines)


_ITEM = re.compile(r"( *)-(?: |$)")


def _without_broken_items(text: str, error: yaml.YAMLError) -> tuple[Any, list[tuple[int, int]]] | None:
    """The file's data with the top-level list items (a check, a card) that hold YAML syntax errors
    emptied, and their line spans; None when the errors are outside every item. The error's line may
    be the start of the item after the broken one (an unclosed bracket), so the item before is tried too."""
    lines = text.split("\n")
    marks = [(i, len(m.group(1))) for i, line in enumerate(lines) if (m := _ITEM.match(line))]
    if not marks:
        return None
    indent = min(ind for _, ind in marks)
    # an item runs to the next item of its indent, or to the next top-level key
    heads = sorted({i for i, ind in marks if ind == indent}
                   | {i for i, line in enumerate(lines) if line[:1].strip() and line[:1] not in ("#", "-")})
    starts = {i for i, ind in marks if ind == indent}
    items = [(h, (heads[k + 1] if k + 1 < len(heads) else len(lines)) - 1) for k, h in enumerate(heads) if h in starts]
    blanked: list[tuple[int, int]] = []
    for _ in range(10):
        line = (yaml_problem(error)[0] or 1) - 1
        at = next((k for k, (a, b) in enumerate(items) if a <= line <= b), None)
        if at is None:
            return None
        tries = [items[at]] + ([items[at - 1]] if at > 0 else [])
        if line == items[at][0] and at > 0:
            tries.reverse()
        tries = [t for t in tries if t not in blanked]
        if not tries:
            return None
        for span in tries:
            try:
                return load_yaml(_blank(text, blanked + [span])), blanked + [span]
            except yaml.YAMLError as exc:
                error = exc
        blanked.append(tries[0])
        try:
            error = _yaml_error(_blank(text, blanked))
        except ValueError:
            return None
    return None


def _yaml_error(text: str) -> yaml.YAMLError:
    """The YAML syntax error of `text` (ValueError when it has none)."""
    try:
        load_yaml(text)
    except yaml.YAMLError as exc:
        return exc
    raise ValueError("no YAML error")


def parse_checks(
    text: str, source: str, cards: Mapping[str, CardDef] | None = None
) -> tuple[list[Check], list[Problem]]:
    """Parse a check file's text. Bad checks become Problems (with lines); good ones still parse.
    With `cards`, card names in setups are checked too. Never raises."""
    stem = source.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
    problems: list[Problem] = []
    deep = _too_deep(text)
    if deep is not None:
        line, spans = deep
        problems.append(Problem(source, line, f"YAML nested deeper than {MAX_DEPTH} levels"))
        if not spans:
            return [], problems
        text = _blank(text, spans)
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        bad_line, reason = yaml_problem(exc)
        recovered = _without_broken_items(text, exc)
        if recovered is None:
            return [], problems + [Problem(source, bad_line, f"malformed YAML: {reason}")]
        data, spans = recovered
        if isinstance(data, dict):  # a list whose every item was left out is an empty list, not null
            data = {k: [] if v is None else v for k, v in data.items()}
        left_out = ", ".join(f"{a + 1}-{b + 1}" for a, b in sorted(spans))
        problems.append(Problem(source, bad_line, f"malformed YAML: {reason} (lines {left_out} left out; "
                                                  "the file's other checks still run)"))
    except (ValueError, RecursionError) as exc:
        return [], problems + [Problem(source, None, f"unreadable YAML: {exc}")]
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        return [], problems + [Problem(source, _line(data, 1), "a check file needs a top-level `checks:` list")]
    unknown = set(data) - {"checks", "cards"}
    if unknown:
        problems.append(Problem(source, _line(data, 1), f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}"))
    local, card_problems, rejected = _local_cards(data.get("cards"), source, _line(data, 1), cards)
    problems.extend(card_problems)
    all_cards = {**cards, **local} if cards is not None else None
    checks: list[Check] = []
    seen: set[str] = set()
    for raw in data["checks"]:
        line = _line(raw, _line(data, 1))
        try:
            check = _parse_check(raw, source, stem, line, all_cards, rejected)
        except _CheckSyntax as exc:
            problems.append(Problem(source, exc.line or line, str(exc)))
            continue
        except (CardDataError, ValueError, TypeError) as exc:  # a value no rule above foresaw
            problems.append(Problem(source, line, f"invalid check: {exc}"))
            continue
        if check.id in seen:
            problems.append(Problem(source, line, f"duplicate check name {check.name!r}"))
            continue
        seen.add(check.id)
        checks.append(replace(check, cards=local))
    return checks, problems


def _local_cards(
    raw: Any, source: str, line: int, known: Mapping[str, CardDef] | None
) -> tuple[dict[str, CardDef], list[Problem], dict[str, int]]:
    """The `cards:` section of a check file (the corpus/cards schema): the cards, the problems, and
    the names of the cards left out for a problem, with their lines (a check naming one is told so,
    not that the card is unknown)."""
    if raw is None:
        return {}, [], {}
    if not isinstance(raw, list):
        return {}, [Problem(source, line, "`cards:` must be a list of card definitions")], {}
    out: dict[str, CardDef] = {}
    problems = []
    rejected: dict[str, int] = {}
    for item in raw:
        where = f"{source}:{_line(item, line)}"
        try:
            card = card_from_data(item, where)
        except (CardDataError, ValueError, TypeError) as exc:
            reason = str(exc).removeprefix(where + ": ")
            name = item.get("name") if isinstance(item, dict) else None
            at = _problem_line(exc, _line(item, line))  # the offending key's line, else the card's
            if isinstance(name, str) and name:
                rejected.setdefault(name, at)
                if repr(name) not in reason:
                    reason = f"card {name!r}: {reason}"
            problems.append(Problem(source, at, reason))
            continue
        if card.name in out:
            problems.append(Problem(source, _line(item, line), f"card {card.name!r} is defined twice"))
            continue
        if known is not None and card.name in known:
            problems.append(Problem(source, _line(item, line), f"card {card.name!r} is already defined in "
                                    "corpus/cards/*.yaml: use that one (leave it out here), or name yours otherwise"))
            continue
        out[card.name] = card
    return out, problems, rejected


_CHECK_KEYS = ("name", "ruling", "rules", "holds_since", "holds_until", "no_longer_holds", "setup", "actions", "expect",
               "description")


def _parse_check(
    raw: Any, source: str, stem: str, line: int, cards: Mapping[str, CardDef] | None,
    rejected: Mapping[str, int] | None = None,
) -> Check:
    if not isinstance(raw, dict):
        raise _CheckSyntax("a check must be a mapping", line)
    unknown = sorted(map(str, set(raw) - set(_CHECK_KEYS)))
    name = raw.get("name")
    if unknown:
        which = f" {name!r}" if isinstance(name, str) and name else ""
        raise _CheckSyntax(f"unknown key(s) in check{which}: {', '.join(unknown)}"
                           f"{_did_you_mean(unknown[0], _CHECK_KEYS, 'known: ' + ', '.join(_CHECK_KEYS))}", line)
    if not name or not isinstance(name, str):
        raise _CheckSyntax("a check needs a `name`", line)
    ruling = raw.get("ruling")
    if not ruling or not isinstance(ruling, str):
        raise _CheckSyntax(f"check {name!r} needs a `ruling:` quote", line)
    rules = _rules_date(raw, "rules", name, line)
    try:
        check_rules = Rules.for_date(rules)
    except RulesDateError as exc:
        raise _CheckSyntax(f"check {name!r}: {exc}", line) from None
    since, until = (_rules_date(raw, k, name, line) for k in ("holds_since", "holds_until"))
    if since is not None and until is not None and since >= until:
        order = "after" if since > until else "the same date as"
        raise _CheckSyntax(f"check {name!r}: holds_since ({since}) is {order} holds_until ({until}): no rules date is "
                           "one it holds under", _key_line(raw, "holds_since", line))
    if (since is not None and check_rules.date < since) or (until is not None and check_rules.date >= until):
        raise _CheckSyntax(f"check {name!r}: its own rules date ({check_rules.date}: `rules:`, else the current "
                           "rules) must be one it holds under (holds_since <= it < holds_until)", line)
    no_longer = _no_longer_holds(raw, ruling, until, name, line)
    setup = raw.get("setup") or _LineDict()
    if not isinstance(setup, dict):
        raise _CheckSyntax(f"check {name!r}: `setup` must be a mapping", line)
    players = _players(setup, name, line)
    placed = _parse_setup(setup, players, name, line, cards, check_rules, rejected or {})
    labels = {p.label for p in placed}
    steps = []
    actions = raw.get("actions") or []
    if not isinstance(actions, list):
        raise _CheckSyntax(f"check {name!r}: `actions` must be a list", line)
    for st in actions:
        st_line = _line(st, line)
        if not isinstance(st, dict):
            raise _CheckSyntax(f"check {name!r}: an action must be a mapping like `- cast: CARD`", st_line)
        keys = [k for k in st if k != "expect"]
        if len(keys) != 1:
            raise _CheckSyntax(f"check {name!r}: {_not_one_action(keys)}", st_line)
        action = keys[0]
        if action not in ACTIONS:
            raise _CheckSyntax(f"check {name!r}: unknown action {action!r}{_did_you_mean(action, ACTIONS)}", st_line)
        args = _action_args(action, st[action], labels, players, f"check {name!r}: {action}", st_line)
        expect = st.get("expect")
        if expect is not None and not isinstance(expect, dict):
            raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", st_line)
        if "expect" in st and not expect:
            raise _CheckSyntax(f"check {name!r}: {action}: {_EMPTY_EXPECT}", st_line)
        steps.append(Step(action, st[action], st_line, expect, args))
    _check_copy_choices(steps, placed, cards, f"check {name!r}")
    expect = raw.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", line)
    if "expect" in raw and not expect:
        raise _CheckSyntax(f"check {name!r}: {_EMPTY_EXPECT}", line)
    if not expect and not any(s.expect for s in steps):
        raise _CheckSyntax(f"check {name!r} has no `expect`", line)
    drafting = {p.label for p in placed if p.draft_zone is not None}
    _check_expect(expect, labels, players, f"check {name!r}", line, in_step=False, draft=drafting)
    for step in steps:
        _check_expect(step.expect, labels, players, f"check {name!r}: {step.action}", step.line, in_step=True,
                      draft=drafting)
    return Check(
        id=f"{stem}/{name}",
        name=name,
        file=source,
        line=line,
        ruling=ruling,
        rules=rules,
        setup=setup,
        steps=tuple(steps),
        expect=expect,
        description=str(raw.get("description", "")),
        players=tuple(_player_setup(p, setup.get(p) or {}) for p in players),
        placed=tuple(placed),
        holds_since=since,
        holds_until=until,
        no_longer_holds=no_longer,
    )


def _problem_line(exc: Exception, line: int) -> int:
    """The line a card's problem `exc` is on: that of the (last) key saying it, else of the mapping it is in
    (`CardDataError.data`), else `line`, the card's (smoke51 L4: a key eight lines down was reported at the card's name)."""
    data = getattr(exc, "data", None) or {}
    start = _line(data, line)
    return max((_key_line(data, key, start) for key in getattr(exc, "keys", ())), default=start)


def _key_line(raw: Mapping[str, Any], key: str, line: int) -> int:
    """The line of `key` in the YAML mapping `raw` (`_LineDict.key_lines`), else `line`."""
    lines: dict[str, int] = getattr(raw, "key_lines", {})
    return lines.get(key, line)


def _no_longer_holds(raw: Mapping[str, Any], ruling: str, until: str | None, name: str, line: int) -> str | None:
    """The check's `no_longer_holds`: the part of its ruling a later rule contradicts, quoted from the ruling
    (parts in order, "..." between them), so `kb check` and `kb outdated` can name it."""
    text = raw.get("no_longer_holds")
    if text is None:
        return None
    where = _key_line(raw, "no_longer_holds", line)
    if until is None:
        raise _CheckSyntax(f"check {name!r}: `no_longer_holds` names the part of the ruling a later rule "
                           "contradicts: it needs `holds_until`, the date of that rule", where)
    if not isinstance(text, str) or not text.strip():
        raise _CheckSyntax(f"check {name!r}: `no_longer_holds` must be words of the ruling", where)
    quote, at = normalize_text(ruling).casefold(), 0
    for part in re.split(r"\.\.\.|…", text):
        piece = normalize_text(part).casefold().strip()
        if not piece:  # "..." alone, or at an end: str.find("") finds it anywhere
            raise _CheckSyntax(f"check {name!r}: `no_longer_holds` must quote words of its ruling, '...' only "
                               f"between two of its parts; {text.strip()!r} has an empty part", where)
        # whole words: "ot allow y" is in "not allow you", and names no part of it; an apostrophe between letters
        # is inside a word ("can" is no word of "can't": review51 L5)
        starts = r"(?<!\w)(?<!\w['’])" if piece[0].isalnum() else ""
        ends = r"(?!\w|['’]\w)" if piece[-1].isalnum() else ""
        match = re.compile(starts + re.escape(piece) + ends).search(quote, at)
        if match is None:
            why = "cuts a word of it" if quote.find(piece, at) >= 0 else "is not in it"
            raise _CheckSyntax(f"check {name!r}: `no_longer_holds` must quote its ruling (parts in order, '...' "
                               f"between them, each whole words); {part.strip()!r} {why}", where)
        at = match.end()
    return text.strip()


# `expect: {}` (or `expect:` with nothing) reads as an expectation, and checks nothing
_EMPTY_EXPECT = "`expect` is empty: an empty one expects nothing, so it could never fail; name what to expect, or leave it out"


def _check_copy_choices(steps: Iterable[Step], placed: Iterable[Placed], cards: Mapping[str, CardDef] | None,
                        what: str) -> None:
    """`resolve: {copy_of: X}` is the choice of a spell that may enter as a copy (a Clone): with no
    such card in the setup it would be ignored, and the spell enter as itself (a 0/0 Clone dies)."""
    if cards is None:
        return
    copiers = [p.card for p in placed if p.card in cards and any(f.enters_as_copy for f in cards[p.card].faces)]
    for step in steps:
        if step.action == "resolve" and "copy_of" in step.args and not copiers:
            raise _CheckSyntax(f"{what}: resolve: `copy_of` is the choice of a card that may enter as a copy, and no "
                               "card of the setup can (a Clone's card has `enters_as_copy: true`, docs/CHECKS.md)",
                               step.line)


def _not_one_action(keys: list[Any]) -> str:
    """Why an action step with no action, or several keys besides `expect`, is refused, and what
    the author likely meant (a misspelt `expect:` is a second action key)."""
    if not keys:
        return "an action step needs an action besides its `expect`, like `- manifest: you`"
    shown = ", ".join(repr(str(k)) for k in keys)
    unknown = [str(k) for k in keys if k not in ACTIONS]
    if unknown:
        hint = f": {unknown[0]!r} is no action{_did_you_mean(unknown[0], [*ACTIONS, 'expect'])}"
    else:
        hint = ": give each action its own `- ` item"
    return f"an action step needs exactly one action (and may have an `expect`), not {shown}{hint}"


def _check_expect(
    exp: Mapping[str, Any] | None, labels: set[str], players: list[str], what: str, line: int, *, in_step: bool,
    draft: AbstractSet[str] = frozenset(),
) -> None:
    """Every expectation names a card, a player or a reserved key, with a value of the right
    shape, so running it can't fail for want of one."""
    line = _line(exp, line)
    for key, want in (exp or {}).items():
        reserved = _RESERVED.get(key)
        if reserved is not None:
            if reserved.in_step_only and not in_step:
                raise _CheckSyntax(f"{what}: `{key}` only makes sense in an action's expect", line)
            if not reserved.valid(want):
                raise _CheckSyntax(f"{what}: `{key}` {reserved.shape}, not {want!r}", line)
            if key == "triggered":
                _check_trigger_events(want or [], labels, what, line)
            continue
        if key not in players and key not in labels:
            raise _CheckSyntax(f"{what}: `expect` names {key!r}, which is no card or player", line)
        if not isinstance(want, dict):
            raise _CheckSyntax(f"{what}: expectations for {key!r} must be a mapping", line)
        if not want:  # `Hill Giant: {}` reads as an expectation and checks nothing
            raise _CheckSyntax(f"{what}: expectations for {key!r} are empty: name what to expect of it, "
                               f"or leave {key!r} out", line)
        if key in players:
            bad = [p for p in want if p not in _PLAYER_PROPS]
            if bad:
                known = ", ".join(_PLAYER_PROPS)
                raise _CheckSyntax(f"{what}: unknown player property {bad[0]!r} (known: {known})", _line(want, line))
        else:
            for prop, value in want.items():
                if key in draft:
                    if prop not in _DRAFT_PROPS:
                        known = ", ".join(_DRAFT_PROPS)
                        raise _CheckSyntax(f"{what}: {key!r} is a card of the draft: {prop!r} is none of {known}", line)
                    continue
                _check_prop(key, prop, value, labels, players, what, _line(want, line))


def _check_trigger_events(items: list[str], labels: set[str], what: str, line: int) -> None:
    """'Efreet Weaponmaster: turned face upp' names a card and no event: a problem, not an item
    that never matches (an item is a bare label when what follows its ':' is no event). Labels are
    matched case aside, as `_same_triggers` matches them."""
    folded = {label.casefold() for label in labels}
    for item in items:
        label, event = split_trigger(item)
        if label.casefold() in folded:
            continue
        head, sep, tail = item.rpartition(":")
        if event is None and sep and head.strip().casefold() in folded:
            word = re.sub(r"[\s-]+", "_", tail.strip())
            hint = _did_you_mean(word, sorted(_TRIGGER_EVENTS), "docs/CHECKS.md lists them under `when`")
            raise _CheckSyntax(f"{what}: `triggered` item {item!r}: {tail.strip()!r} is no trigger event{hint}", line)
        # else it fails every run: no object of the check has that label
        hint = _did_you_mean(label, sorted(labels), "the setup's cards (or their `as:` labels)")
        raise _CheckSyntax(f"{what}: `triggered` item {item!r} names no card of the setup{hint}", line)


def _did_you_mean(word: str, known: Iterable[str], listed: str = "docs/CHECKS.md lists them") -> str:
    """The hint " (did you mean 'resolve'?…)" for a misspelt action, property, zone or card: the
    closest known names (case aside), and where the known ones are `listed`."""
    close = close_matches(word, known)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    return f" ({hint}{listed})"


_CARDS_LISTED = "corpus/cards/*.yaml and the file's own `cards:` define them"


def _check_prop(label: str, prop: str, value: Any, labels: set[str], players: list[str], what: str, line: int) -> None:
    spec = _OBJECT_PROPS.get(prop)
    if spec is None:
        raise _CheckSyntax(f"{what}: unknown property {prop!r} of {label!r}{_did_you_mean(prop, _OBJECT_PROPS)}", line)
    if spec.list_only and not isinstance(value, list):
        raise _CheckSyntax(f"{what}: {label}.{prop} must be a list, not {value!r}", line)
    if spec.mapping_only and not isinstance(value, dict):
        raise _CheckSyntax(f"{what}: {label}.{prop} must be a mapping, not {value!r}", line)
    if spec.keys is not None and isinstance(value, dict):
        if not value:  # `visible_to: {}` names nobody, so it checks nothing and could never fail
            raise _CheckSyntax(f"{what}: {label}.{prop} is empty: an empty mapping expects nothing, so it could "
                               "never fail; name what to expect, or leave it out", line)
        for k, v in value.items():
            _check_arg(spec.keys, k, labels, players, f"{what}: {label}.{prop}", line)
            if spec.item_shape is not None and not spec.item_shape(v):
                raise _CheckSyntax(f"{what}: {label}.{prop}.{k} must be {spec.item_shape_text}, not {v!r}", line)
    if spec.values and value not in spec.values and not (spec.nullable and value is None):
        # else it fails every run: "expected 'battlefeld'"
        raise _CheckSyntax(f"{what}: {label}.{prop} can't be {value!r}{_did_you_mean(str(value), spec.values)}", line)
    if spec.shape is not None and not spec.shape(value):  # else "expected '2', got 2" on every run
        raise _CheckSyntax(f"{what}: {label}.{prop} must be {spec.shape_text}, not {value!r}", line)
    if prop in _KEYWORD_PROPS and isinstance(value, list):  # `lacks: [flyng]` would pass on every run
        for keyword in value:
            problem = keyword_problem(str(keyword))
            if problem is not None:
                raise _CheckSyntax(f"{what}: {label}.{prop}: {problem}", line)


def _action_args(
    action: str, raw: Any, labels: set[str], players: list[str], what: str, line: int
) -> dict[str, Any]:
    """An action's arguments as a mapping, every one checked against its type and converted."""
    spec = ACTIONS[action]
    if isinstance(raw, dict):
        given = dict(raw)
    elif raw is None:
        given = {}
    elif spec.args:
        given = {next(iter(spec.args)): raw}
    else:
        raise _CheckSyntax(f"{what} takes no argument (write `- {action}: null`)", line)
    args: dict[str, Any] = {}
    for key, value in given.items():
        kind = spec.args.get(key)
        if kind is None:
            known = ", ".join(spec.args) or "none"
            raise _CheckSyntax(f"{what}: unknown argument {key!r} (known: {known})", line)
        args[key] = _check_arg(kind, value, labels, players, f"{what}: {key}", line)
    for key in spec.required:
        if key not in args:
            raise _CheckSyntax(f"{what} needs `{key}`", line)
    problem = spec.check(args) if spec.check is not None else None
    if problem is not None:
        raise _CheckSyntax(f"{what}: {problem}", line)
    return args


def _one_of(kind: type[_E], value: Any) -> _E | None:
    try:
        return kind(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _check_arg(kind: Arg, value: Any, labels: set[str], players: list[str], what: str, line: int) -> Any:
    """The value as the game takes it (an enum member, a list...); a wrong one is a _CheckSyntax."""
    out: Any = None
    if kind is Arg.CARD:
        out = value if isinstance(value, str) and value in labels else None
    elif kind is Arg.CARDS:
        ok = isinstance(value, list) and all(isinstance(v, str) and v in labels for v in value)
        out = list(value) if ok else None
    elif kind is Arg.TARGETS:
        ok = isinstance(value, list) and all(isinstance(v, str) and (v in labels or v in players) for v in value)
        out = list(value) if ok else None
    elif kind is Arg.INTS:
        ints = value if isinstance(value, list) else [value]
        out = tuple(ints) if all(isinstance(n, int) and not isinstance(n, bool) for n in ints) else None
    elif kind is Arg.CAST:
        out = _cast_choice(value, labels, players, what, line)
    elif kind is Arg.PLAYER:
        out = value if isinstance(value, str) and value in players else None
    elif kind is Arg.PLAYERS:
        out = list(value) if isinstance(value, list) and all(p in players for p in value) else None
    elif kind is Arg.ZONE:
        out = _one_of(Zone, value)
    elif kind is Arg.INT:
        out = value if isinstance(value, int) and not isinstance(value, bool) else None
    elif kind is Arg.BOOL:
        out = value if isinstance(value, bool) else None
    elif kind is Arg.CAST_WAY:
        way = _one_of(FaceDownWay, value)
        out = way if way in CAST_FACE_DOWN else None
    elif kind is Arg.FACE_DOWN_WAY:
        out = _one_of(FaceDownWay, value)
    elif kind is Arg.TURN_UP_WAY:
        out = _one_of(TurnUpWay, value)
    elif kind is Arg.KIND:
        out = _one_of(ContinuousKind, value)
    elif kind is Arg.COUNTER_KIND:
        out = _one_of(CounterKind, value)
    elif kind is Arg.NAMES:
        names = value if isinstance(value, list) else [value]
        out = [str(n) for n in names] if all(isinstance(n, str) for n in names) else None
    elif kind is Arg.PT:
        out = str(value) if isinstance(value, str) and _PT.match(value) else None
    elif kind is Arg.TIMES:
        out = str(value) if str(value) in ("1", "all") and not isinstance(value, bool) else None
    elif kind is Arg.PLAY_LASTS:
        out = _one_of(PlayLasts, value)
    elif kind is Arg.TOP_OR_BOTTOM:
        out = value if value in ("top", "bottom") else None
    elif kind is Arg.TEXT:
        out = value if isinstance(value, str | int) and not isinstance(value, bool) else None
    else:
        out = value  # Arg.ANY
    if out is None and kind is not Arg.ANY:
        how = _HOW.get(kind)
        if how is not None and isinstance(value, bool):
            key = what.rsplit(": ", 1)[-1]
            ways = kind.value.split("|")
            raise _CheckSyntax(f"{what}: {_as_yaml(value)} says whether, not how: `{key}` says how {how}, one of "
                               f"{', '.join(ways)} (like `{key}: {ways[0]}`)", line)
        hint = _did_you_mean(value, kind.value.split("|"), "one of " + kind.value) if how and isinstance(value, str) else ""
        raise _CheckSyntax(f"{what}: {_as_yaml(value)} is not a {kind.value}{hint}", line)
    return out


def _cast_choice(value: Any, labels: set[str], players: list[str], what: str, line: int) -> CastChoice | None:
    """`{targets: [CARD|PLAYER], x: N, mode: N|[N]}`: the choices for a spell cast as another resolves."""
    if not isinstance(value, dict):
        return None
    unknown = set(map(str, value)) - {"targets", "x", "mode"}
    if unknown:
        raise _CheckSyntax(f"{what}: unknown key(s) {', '.join(sorted(unknown))} (known: targets, x, mode)", line)
    targets = _check_arg(Arg.TARGETS, value.get("targets", []), labels, players, f"{what}: targets", line)
    x = _check_arg(Arg.INT, value["x"], labels, players, f"{what}: x", line) if "x" in value else None
    mode = _check_arg(Arg.INTS, value["mode"], labels, players, f"{what}: mode", line) if "mode" in value else ()
    return CastChoice(tuple(targets), x, tuple(mode))


# The arguments that say how something is done, each with the words for it: `face_down: true` is a
# yes where the format wants the way (manifest, morph, ...).
_HOW: dict[Arg, str] = {
    Arg.FACE_DOWN_WAY: "it was turned face down",
    Arg.CAST_WAY: "it is cast face down",
    Arg.TURN_UP_WAY: "it is turned face up",
}


_PT = re.compile(r"^\s*-?\d+\s*/\s*-?\d+\s*$")


def _players(setup: Mapping[str, Any], name: str = "", line: int = 0) -> list[str]:
    players = setup.get("players")
    if players is None:
        return list(DEFAULT_PLAYERS)
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise _CheckSyntax(f"check {name!r}: `players` must be a list of names", _line(setup, line))
    return list(players)


def _card_items(setup: Mapping[str, Any], players: list[str]) -> list[tuple[str, str, dict[str, Any], int]]:
    """(player, zone, item, line) for every card in a (validated) setup; an item is {card, as, ...}."""
    out = []
    for player in players:
        zones = setup.get(player) or {}
        for zone in SETUP_ZONES + DRAFT_ZONES:
            for item in zones.get(zone) or ():
                d = dict(item) if isinstance(item, dict) else {"card": item}
                out.append((player, zone, d, _line(item, _line(zones, 0))))
    return out


def _player_setup(name: str, zones: Mapping[str, Any]) -> PlayerSetup:
    return PlayerSetup(
        name,
        life=int(zones.get("life", 20)),
        land_played=bool(zones.get("land_played", False)),
        top_revealed=bool(zones.get("top_revealed", False)),
    )


def _parse_setup(
    setup: Mapping[str, Any],
    players: list[str],
    name: str,
    line: int,
    cards: Mapping[str, CardDef] | None,
    rules: Rules | None = None,
    rejected: Mapping[str, int] | None = None,
) -> list[Placed]:
    """Check the setup (players, zones, card items; face-down ways against `rules`) and return
    its cards. `rejected`: the file's own cards left out for a problem, by name, with their lines."""
    what = f"check {name!r}"
    for key in setup:
        if key != "players" and key not in players:
            raise _CheckSyntax(f"{what}: setup names unknown player {key!r}", _line(setup, line))
    for player in players:
        zones = setup.get(player) or {}
        zline = _line(zones, _line(setup, line))
        if not isinstance(zones, dict):
            raise _CheckSyntax(f"{what}: setup for {player!r} must be a mapping", zline)
        bad = set(zones) - set(SETUP_ZONES) - set(DRAFT_ZONES) - set(PLAYER_SETUP_KEYS)
        if bad:
            first = min(map(str, bad))
            hint = _did_you_mean(first, [*SETUP_ZONES, *DRAFT_ZONES, *PLAYER_SETUP_KEYS])
            raise _CheckSyntax(f"{what}: unknown zone(s) {', '.join(sorted(map(str, bad)))}{hint}", zline)
        for zone in SETUP_ZONES + DRAFT_ZONES:
            if zones.get(zone) is not None and not isinstance(zones[zone], list):
                raise _CheckSyntax(f"{what}: {player}'s {zone} must be a list of cards, not {zones[zone]!r}", zline)
            for item in zones.get(zone) or ():
                if not isinstance(item, str | dict):
                    raise _CheckSyntax(f"{what}: a card in {player}'s {zone} must be a name or a mapping, not {item!r}", zline)
        if "life" in zones and (not isinstance(zones["life"], int) or isinstance(zones["life"], bool)):
            raise _CheckSyntax(f"{what}: {player}'s life must be a number", zline)
        for flag in ("land_played", "top_revealed"):
            if flag in zones and not isinstance(zones[flag], bool):
                raise _CheckSyntax(f"{what}: {player}'s {flag} must be true or false", zline)
    items = _card_items(setup, players)
    labels: set[str] = set()
    for _player, zone, item, item_line in items:
        card = item.get("card")
        if not isinstance(card, str) or not card:
            raise _CheckSyntax(f"{what}: a setup card needs a `card:` name", item_line or line)
        if cards is not None and card not in cards:
            if rejected and card in rejected:
                raise _CheckSyntax(f"{what}: card {card!r} is left out: its definition in this file's `cards:` "
                                   f"(line {rejected[card]}) has a problem, reported at that line", item_line or line)
            raise _CheckSyntax(f"{what}: unknown card {card!r}{_did_you_mean(card, cards, _CARDS_LISTED)}",
                               item_line or line)
        label = str(item.get("as") or card)
        if label in labels:
            raise _CheckSyntax(f"{what}: two cards called {label!r}; name one with `as:`", item_line or line)
        labels.add(label)
    placed = []
    for player, zone, item, item_line in items:
        where = f"{what}: {item['card']}"
        v: dict[str, Any] = {}
        for key, value in item.items():
            kind = SETUP_ITEM_KEYS.get(key)
            if kind is None:
                raise _CheckSyntax(f"{what}: unknown key {key!r} for card {item['card']!r}", item_line or line)
            v[key] = _check_arg(kind, value, labels, players, f"{where}: {key}", item_line or line)
        if zone in DRAFT_ZONES and set(item) - {"card", "as", "face_up"}:
            raise _CheckSyntax(f"{where}: a card of the draft has only `as` and `face_up` (drafted)", item_line or line)
        if "face_up" in item and zone != "drafted":
            raise _CheckSyntax(f"{where}: only a drafted card is face up during the draft", item_line or line)
        way: FaceDownWay | None = v.get("face_down")
        in_command = way in (FaceDownWay.HIDDEN_AGENDA, FaceDownWay.SCHEME)
        if in_command != (zone == "command" and way is not None):
            raise _CheckSyntax(
                f"{where}: face down in the command zone is hidden_agenda or scheme, and only there", item_line or line
            )
        if zone not in ("battlefield", "exile", "command") and (
            way is not None or {"tapped", "counters", "attached_to", "controller", "attacking", "damage"} & set(item)
        ):
            raise _CheckSyntax(f"{where}: only a permanent has that status", item_line or line)
        if ({"playable_by", "playable_lasts"} & set(item)) and v.get("playable") is not True:
            raise _CheckSyntax(f"{where}: `playable_by` and `playable_lasts` say who may play it and how long: "
                               "with `playable: true` only", item_line or line)
        lasts = v.get("playable_lasts")
        if isinstance(lasts, PlayLasts) and lasts.ends_with_source and v.get("exiled_with") is None:
            raise _CheckSyntax(f"{where}: `playable_lasts: {lasts}` needs `exiled_with`, the object it lasts with",
                               item_line or line)
        label = str(v.get("as") or v["card"])
        if label in (v.get("attached_to"), v.get("exiled_with")):
            raise _CheckSyntax(f"{where}: a card can't be attached to or exiled with itself", item_line or line)
        if way is not None and rules is not None:
            refusal = face_down_refusal(rules, way)
            if refusal is not None:
                raise _CheckSyntax(f"{where}: {refusal}", item_line or line)
        placed.append(
            Placed(
                label=label,
                card=str(v["card"]),
                owner=player,
                zone=Zone(zone) if zone in SETUP_ZONES else Zone.OUTSIDE,
                line=item_line or line,
                face_down=way,
                tapped=bool(v.get("tapped", False)),
                counters=int(v.get("counters", 0)),
                attached_to=v.get("attached_to"),
                controller=v.get("controller"),
                token=bool(v.get("token", False)),
                attacking=bool(v.get("attacking", False)),
                damage=int(v.get("damage", 0)),
                may_look=tuple(v.get("may_look") or ()),
                playable=bool(v.get("playable", False)),
                playable_by=v.get("playable_by"),
                playable_lasts=v.get("playable_lasts", PlayLasts.TURN),
                named=str(v["named"]) if v.get("named") is not None else None,
                exiled_with=v.get("exiled_with"),
                commander_casts=v.get("commander_casts"),
                draft_zone=zone if zone in DRAFT_ZONES else None,
                face_up=bool(v.get("face_up", False)),
            )
        )
    return placed


# ---- running ------------------------------------------------------------------------------------


def _rules_date(check: Mapping[str, Any], key: str, name: str, line: int) -> str | None:
    """A check's rules date under `key` (`rules`, `holds_since`, `holds_until`) as YYYY-MM-DD, written as
    the command line's date options take it (`2018-07-13`, `13.07.2018`, `13 July 2018`, `13 de julio de
    2018`): the same judge writes both. A bad one is a problem naming the key, on the key's line."""
    from kb.errors import InputError
    from kb.normalize import date_option

    raw = check.get(key)
    if raw is None:
        return None
    try:
        return date_option(str(raw), key)
    except InputError as exc:
        raise _CheckSyntax(f"check {name!r}: {exc}", _key_line(check, key, line)) from None


def build_game(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> Game:
    """The game a check's setup describes, under `rules_date` (default: the check's own date).
    Raises IllegalAction for a setup those rules rule out (a face-down way they don't know)."""
    game = Game([p.name for p in check.players], Rules.for_date(rules_date or check.rules))
    all_cards = {**cards, **check.cards}
    for item in check.placed:
        if item.draft_zone is not None:
            continue  # a card of the draft (`build_draft`)
        obj = game.add_card(item.label, all_cards[item.card], item.owner, item.zone, token=item.token)
        if item.face_down is not None:
            refusal = face_down_refusal(game.rules, item.face_down)
            if refusal is not None:
                raise NotInRules(f"{item.label}: {refusal}")
            obj.face_down_by = item.face_down
        obj.tapped = item.tapped
        obj.attacking = item.attacking
        obj.plus_counters = item.counters
        obj.damage = item.damage
        obj.may_look.update(item.may_look)
        obj.playable, obj.playable_by, obj.playable_lasts = item.playable, item.playable_by, item.playable_lasts
        obj.choice = item.named
        if item.commander_casts is not None:
            obj.card.commander_casts = item.commander_casts
        if item.controller is not None:
            obj.controller = item.controller
    for p in check.players:
        player = game.players[p.name]
        player.life, player.land_played, player.top_revealed = p.life, p.land_played, p.top_revealed
    for item in check.placed:
        if item.draft_zone is not None:
            continue
        if item.attached_to is not None:
            game.obj(item.label).attached_to = game.obj(item.attached_to).oid
        if item.exiled_with is not None:
            source = game.obj(item.exiled_with)
            placed = game.obj(item.label)
            placed.exiled_with, placed.exiled_by = source.oid, source.controller
    return game


def build_draft(check: Check, cards: Mapping[str, CardDef]) -> Draft | None:
    """The draft a check's setup describes (its `pack`, `drafted` and `unopened` cards), or None."""
    items = [p for p in check.placed if p.draft_zone is not None]
    if not items:
        return None
    all_cards = {**cards, **check.cards}
    players = [p.name for p in check.players]
    draft = Draft(
        players,
        {p.label: all_cards[p.card] for p in items},
        holding={pl: [p.label for p in items if p.owner == pl and p.draft_zone == "pack"] for pl in players},
        unopened={pl: [p.label for p in items if p.owner == pl and p.draft_zone == "unopened"] for pl in players},
    )
    for p in items:
        if p.draft_zone == "drafted":
            draft.add_drafted(p.owner, p.label, face_up=p.face_up)
    return draft


@dataclass(frozen=True)
class Verdict:
    """A check's run: its failed expectations, or why it does not apply under the rules of the run's
    date (it needs a mechanic those rules don't have yet: then nothing was checked; or it failed
    under rules outside its holds_since/holds_until, as expected)."""

    failures: list[str]
    not_applicable: str | None = None


def check_verdict(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> Verdict:
    """Run a check: its failed expectations (none: it passed), telling a check that does not apply
    under `rules_date` apart from one that fails. Never raises: a setup the rules refuse, or a fault
    the parser did not foresee, is a failure naming the check's file and line. Not applicable: a
    check that names a mechanic those rules don't have (in its setup, actions or expectations), or
    meets one in an action it expects to be legal (a card's own disguise), or that fails under rules
    outside its `holds_since`/`holds_until` (one that passes there is a failure: its date is wrong; one
    whose setup is refused, or that can't run, is a failure under any date: that is no rules change)."""
    try:
        rules = Rules.for_date(rules_date or check.rules)
    except RulesDateError:
        rules = None  # the run reports it
    if rules is not None:
        unknown = sorted(m.value for m in mechanics_named(check) if not rules.knows(m))
        if unknown:
            return Verdict([], f"{unknown[0]} does not exist in the rules of {rules.date}")
    try:
        failures, faulty = _run(check, cards, rules_date)
    except NotInRules as exc:
        return Verdict([], str(exc))
    date = rules.date if rules is not None else None
    outside = check.outside_its_rules(date) if date is not None else None
    if outside is None or faulty:  # a setup refused, a card unknown, a choice missing: an error under any rules
        return Verdict(failures)
    if failures:  # expected: the rules of that date contradict it
        contradicted = check.ruling_no_longer_holds(date) if date is not None else None
        if contradicted is not None:  # in `kb outdated`'s words, which lists its ruling
            return Verdict([], f"{contradicted}; `kb outdated --kind check-fails` lists it")
        return Verdict([], outside)
    return Verdict([f"{outside}, yet it passes under them: its holds_since/holds_until date is wrong"])


def mechanics_named(check: Check) -> set[Mechanic]:
    """The face-down mechanics a check names: face-down ways of its setup, its actions (`cloak`,
    `manifest_dread`), their arguments and its expectations (`can_turn_face_up: {megamorph: …}`)."""
    found: set[Mechanic] = set()

    def visit(value: Any) -> None:
        if isinstance(value, str):
            for kind in (Mechanic, FaceDownWay):
                try:
                    way = kind(value)
                except ValueError:
                    continue
                mechanic = way if isinstance(way, Mechanic) else MECHANIC_OF.get(way)
                if mechanic is not None:
                    found.add(mechanic)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                visit(key)
                visit(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                visit(item)

    visit([p.face_down for p in check.placed if p.face_down is not None])
    for step in check.steps:
        visit([step.action, dict(step.args), step.expect or {}])
    visit(check.expect or {})
    return found


def _run(check: Check, cards: Mapping[str, CardDef], rules_date: str | None) -> tuple[list[str], bool]:
    """The failures of a run, and whether one is a fault of the check itself (its setup refused, a card
    unknown, a choice missing, an error), not a failed expectation; raises NotInRules when the check
    does not apply under these rules."""
    where = f"{check.file}:{check.line}"
    all_cards = {**cards, **check.cards}
    missing = [p.card for p in check.placed if p.card not in all_cards]
    if missing:
        return [f"{where}: unknown card {missing[0]!r}{_did_you_mean(missing[0], all_cards, _CARDS_LISTED)}"], True
    try:
        game = build_game(check, cards, rules_date)
    except NotInRules:
        raise
    except (IllegalAction, RulesDateError) as exc:
        return [f"{where}: setup refused: {exc}"], True
    except Exception as exc:  # noqa: BLE001 - a check must report, never crash the command
        return [f"{where}: check could not run: {type(exc).__name__}: {exc}"], True
    runner = _Runner(game, build_draft(check, cards))
    failures: list[str] = []
    try:
        for step in check.steps:
            failures.extend(runner.step(step))
        if check.expect:
            failures.extend(runner.expect(check.expect, since=0, line=check.line, outcome=None))
    except NotInRules:
        raise
    except Exception as exc:  # noqa: BLE001 - as above
        failures.append(f"{where}: check could not run: {type(exc).__name__}: {exc}")
        runner.faulty = True
    return failures, runner.faulty


class _Outcome(TypedDict, total=False):
    legal: bool
    happened: bool
    cost: str | None
    error: str


class _Runner:
    game: Game
    draft: Draft | None
    remembered: dict[str, int]
    default_player: str
    faulty: bool  # a failure is the check's own fault (a choice missing), not a failed expectation

    def __init__(self, game: Game, draft: Draft | None = None) -> None:
        self.game = game
        self.draft = draft
        self.remembered = {}
        self.default_player = next(iter(game.players))
        self.faulty = False

    def step(self, step: Step) -> list[str]:
        where = _where(step.line, step.action)
        start = len(self.game.events)
        outcome: _Outcome = {"legal": True, "happened": True, "cost": None}
        try:
            result = ACTIONS[step.action].run(self, dict(step.args))
            if result is False:
                outcome["happened"] = False
            if isinstance(result, str):
                outcome["cost"] = result
            self.game.check_state_based_actions()
        except NotInRules as exc:
            if (step.expect or {}).get("legal", True):
                raise  # the check is about a mechanic these rules don't have: it does not apply
            outcome["legal"] = False
            outcome["error"] = str(exc)
        except MissingChoice as exc:  # the check is incomplete, whatever it expects: `legal: false` can't pass it
            self.faulty = True
            return [f"{where}: a choice is missing: {exc}"]
        except IllegalAction as exc:
            outcome["legal"] = False
            outcome["error"] = str(exc)
        failures = []
        expected_legal = (step.expect or {}).get("legal", True)
        if not outcome["legal"] and expected_legal:
            failures.append(f"{where}: refused: {outcome['error']}")
        if step.expect:
            failures.extend(self.expect(step.expect, since=start, line=step.line, action=step.action, outcome=outcome))
        return failures

    # ---- expectations ----------------------------------------------------------------------

    def expect(
        self, exp: Mapping[str, Any], *, since: int, line: int, outcome: _Outcome | None, action: str | None = None
    ) -> list[str]:
        """Every expectation of `exp` that does not hold (the parser checked their shapes), each at the
        line of its card's or player's expectations (else of the `expect` mapping; else `line`)."""
        failures: list[str] = []
        at = _line(exp, line)

        def check(where: str, what: str, got: Any, want: Any, same: Callable[[Any, Any], bool] = _same_norm) -> None:
            if not same(got, want):
                failures.append(f"{where}: {what}: expected {_as_yaml(want)}, got {_as_yaml(got)}")

        g = self.game
        for key, want in exp.items():
            where = _where(_line(want, at), action)
            reserved = _RESERVED.get(key)
            if reserved is not None:
                check(where, reserved.what, reserved.get(self, since, outcome), reserved.want(want), reserved.same)
            elif key in g.players:
                for prop, value in (want or {}).items():
                    check(where, f"{key}.{prop}", _PLAYER_PROPS[prop](g, key), value)
            else:
                failures.extend(self._expect_object(key, want, where))
        return failures

    def need_draft(self) -> Draft:
        if self.draft is None:
            raise IllegalAction("this check's setup has no draft (`pack`, `drafted`, `unopened`)")
        return self.draft

    def _expect_object(self, label: str, want: Mapping[str, Any], where: str) -> list[str]:
        out = []
        draft = self.draft if self.draft is not None and label in self.draft.cards else None
        for prop, value in want.items():
            try:
                if draft is not None:
                    got = _DRAFT_PROPS[prop](draft, label)
                else:
                    got = _OBJECT_PROPS[prop].get(self, self.game.obj(label), value)
            except IllegalAction as exc:
                out.append(f"{where}: {label}.{prop}: {exc}")
                continue
            if prop in ("has", "lacks"):
                if got:
                    out.append(f"{where}: {label}.{prop}: {got!r}")
            elif _norm(got) != _norm(value):
                out.append(f"{where}: {label}.{prop}: expected {_as_yaml(value)}, got {_as_yaml(got)}")
        return out


def _shown(v: Any) -> Any:
    """A value as a check file writes it: 'manifest', not <FaceDownWay.MANIFEST: 'manifest'>."""
    if isinstance(v, StrEnum):
        return str(v)
    if isinstance(v, list | tuple):
        return [_shown(x) for x in v]
    if isinstance(v, dict):
        return {_shown(k): _shown(x) for k, x in v.items()}
    return v


def _as_yaml(v: Any) -> str:
    """A value as a check file writes it, in YAML: false, null, [you, opponent] (not False, None,
    ['you', 'opponent']); a lone string quoted, so a name with a comma reads as one value."""
    v = _shown(v)
    if isinstance(v, str):
        return repr(v)
    try:
        return yaml.safe_dump(v, default_flow_style=True, width=10**9, allow_unicode=True).removesuffix("...\n").strip()
    except yaml.YAMLError:  # a value YAML has no form for: as Python shows it
        return repr(v)


def _same_norm(got: Any, want: Any) -> bool:
    return bool(_norm(got) == _norm(want))


def _norm(v: Any) -> Any:
    """Compare lists as sorted lists of strings: order doesn't matter (types, colors, keywords), repeats do
    (a card whose two abilities trigger is listed twice in `triggered`)."""
    if isinstance(v, list | tuple | set | frozenset):
        return sorted(str(x).lower() for x in v)
    return v


def _label_of(game: Game, oid: int | None) -> str | None:
    if oid is None or oid not in game.objects:
        return None
    return game.objects[oid].label


def _can_turn_face_up(r: _Runner, obj: GameObject, want: Any) -> object:
    if isinstance(want, dict):
        return {by: r.game.can_turn_face_up(obj.label, TurnUpWay(by)) for by in want}
    return r.game.can_turn_face_up(obj.label, TurnUpWay.MANA)


def _turn_face_up_costs(r: _Runner, obj: GameObject, want: Any) -> object:
    return {by: r.game.turn_face_up_cost(obj, TurnUpWay(by)) for by in want}


def _visible_to(r: _Runner, obj: GameObject, want: Any) -> object:
    """Every player who may look at the front (a list), or whether each player named may (`{opponent:
    false}`): a ruling about one player's sight checked without pinning the others'."""
    if isinstance(want, dict):
        return {p: r.game.can_see(str(p), obj) for p in want}
    return [p for p in r.game.players if r.game.can_see(p, obj)]


def _missing(found: set[str], want: Any) -> list[str]:
    return sorted(str(k).lower() for k in want if str(k).lower() not in found)


def _pairwise(relation: Callable[[Game, GameObject, GameObject], bool]) -> _Getter:
    """`{other: bool, ...}`: the relation between this object and each other one."""

    def get(r: _Runner, obj: GameObject, want: Any) -> object:
        return {k: relation(r.game, obj, r.game.obj(str(k))) for k in want}

    return get


_Getter = Callable[[_Runner, GameObject, Any], object]


@dataclass(frozen=True, slots=True)
class Prop:
    """An object property an expectation can name: how to read it, and for one whose value is a
    mapping (`{other card: bool}`, `{way: cost}`), the type of its keys, checked at parse time."""

    get: _Getter
    keys: Arg | None = None
    mapping_only: bool = False  # else a plain value is allowed too (`can_turn_face_up: true`)
    list_only: bool = False  # `has: [flying]`
    values: tuple[str, ...] = ()  # the values it can have, when few (`zone`); else any
    nullable: bool = False  # `null` is one of `values` too (a face-up object has no `face_down_by`)
    shape: Callable[[Any], bool] | None = None  # what a plain value must be, when `values` can't list them
    shape_text: str = ""  # for the message: "true or false"
    # what each value of its mapping must be (`{opponent: 0}` would pass as false: 0 == False)
    item_shape: Callable[[Any], bool] | None = None
    item_shape_text: str = ""


def _ch(r: _Runner, o: GameObject) -> Characteristics:
    return r.game.characteristics(o)


def _is_bool(w: Any) -> bool:
    return isinstance(w, bool)


def _is_count(w: Any) -> bool:
    return isinstance(w, int) and not isinstance(w, bool)


def _is_mana_cost(w: Any) -> bool:
    return w is None or (isinstance(w, str) and not is_bare_mana(w))


_MANA_COST_TEXT = "a mana cost with its symbols in braces, like '{1}{G}', or null"


def _mana_cost_prop(get: _Getter) -> Prop:
    return Prop(get, shape=_is_mana_cost, shape_text=_MANA_COST_TEXT)


def _flag_prop(get: _Getter) -> Prop:
    return Prop(get, shape=_is_bool, shape_text="true or false")


def _count_prop(get: _Getter, nullable: bool = False) -> Prop:
    """A number (a power, counters); `nullable`: or null (a noncreature has no power)."""
    return Prop(get, shape=(lambda w: w is None or _is_count(w)) if nullable else _is_count,
                shape_text="a number" + (" or null" if nullable else ""))


_KEYWORD_PROPS = ("keywords", "has", "lacks")  # their items are keyword abilities
_BOOL_ITEMS: dict[str, Any] = {"item_shape": _is_bool, "item_shape_text": "true or false"}
_OBJECT_PROPS: dict[str, Prop] = {
    "zone": Prop(lambda r, o, w: str(o.zone), values=tuple(Zone)),
    "face_down": _flag_prop(lambda r, o, w: o.face_down),
    "face_down_by": Prop(lambda r, o, w: o.face_down_by, values=tuple(FaceDownWay), nullable=True),
    "name": Prop(lambda r, o, w: _ch(r, o).name),
    "mana_cost": _mana_cost_prop(lambda r, o, w: _ch(r, o).mana_cost),
    "mana_value": _count_prop(lambda r, o, w: _ch(r, o).mana_value),
    "colors": Prop(lambda r, o, w: sorted(_ch(r, o).colors)),
    "types": Prop(lambda r, o, w: sorted(_ch(r, o).types)),
    "subtypes": Prop(lambda r, o, w: sorted(_ch(r, o).subtypes)),
    "keywords": Prop(lambda r, o, w: sorted(_ch(r, o).keywords)),
    "abilities": Prop(
        lambda r, o, w: sorted(list(_ch(r, o).keywords) + [a.text or a.effect for a in _ch(r, o).abilities])
    ),
    "has": Prop(lambda r, o, w: _missing(set(_ch(r, o).keywords), w), list_only=True),
    "lacks": Prop(lambda r, o, w: sorted(set(str(k).lower() for k in w) & set(_ch(r, o).keywords)), list_only=True),
    "power": _count_prop(lambda r, o, w: _ch(r, o).power, nullable=True),
    "toughness": _count_prop(lambda r, o, w: _ch(r, o).toughness, nullable=True),
    "tapped": _flag_prop(lambda r, o, w: o.tapped),
    "counters": _count_prop(lambda r, o, w: o.plus_counters),
    "counters_of": Prop(lambda r, o, w: {k: o.counters.get(CounterKind(k), 0) for k in w}, Arg.COUNTER_KIND, True,
                        item_shape=_is_count, item_shape_text="a number"),
    "known_to": Prop(lambda r, o, w: [p for p in r.game.players if r.game.knows_identity(p, o)]),
    "attached_to": Prop(lambda r, o, w: _label_of(r.game, o.attached_to)),
    "controller": Prop(lambda r, o, w: o.controller),
    "owner": Prop(lambda r, o, w: o.card.owner),
    "revealed": _flag_prop(lambda r, o, w: o.card.revealed),
    "visible_to": Prop(_visible_to, Arg.PLAYER, **_BOOL_ITEMS),
    "same_object": _flag_prop(lambda r, o, w: r.remembered.get(o.label) == o.oid),
    "can_turn_face_up": Prop(_can_turn_face_up, Arg.TURN_UP_WAY, **_BOOL_ITEMS),
    "face": Prop(lambda r, o, w: r.game.printed(o).name if not o.face_down else None),
    # an effect lets its player play it now: one "as long as <the object> stays" ends as that leaves (607.2a)
    "playable": _flag_prop(lambda r, o, w: r.game.may_play(o.playable_by or o.card.owner, o)),
    "shares_name_with": Prop(_pairwise(Game.share_name), Arg.CARD, True, **_BOOL_ITEMS),
    "shares_creature_type_with": Prop(_pairwise(Game.share_creature_type), Arg.CARD, True, **_BOOL_ITEMS),
    "copiable_name": Prop(lambda r, o, w: r.game.copiable_values(o).name),
    "entered_before": Prop(_pairwise(lambda g, a, b: a.timestamp < b.timestamp), Arg.CARD, True, **_BOOL_ITEMS),
    "attacking": _flag_prop(lambda r, o, w: o.attacking),
    "blocked": _flag_prop(lambda r, o, w: o.blocked),
    "damage": _count_prop(lambda r, o, w: o.damage),
    "turn_face_up_cost": Prop(_turn_face_up_costs, Arg.TURN_UP_WAY, True, item_shape=_is_mana_cost,
                              item_shape_text=_MANA_COST_TEXT),
}

@dataclass(frozen=True, slots=True)
class Reserved:
    """An expectation key that names no card or player: the shape its value must have (checked
    at parse time) and what it compares with."""

    valid: Callable[[Any], bool]
    shape: str  # for the parse-time message: "`stack` is a number of objects, not 'two'"
    get: Callable[[_Runner, int, _Outcome | None], object]  # (runner, first event of the step, outcome)
    what: str  # for the failure message
    in_step_only: bool = False  # about the action of the step it is in
    want: Callable[[Any], object] = lambda w: w
    same: Callable[[Any, Any], bool] = _same_norm  # (got, wanted): do they agree


def split_trigger(item: str) -> tuple[str, TriggerEvent | None]:
    """An item of `triggered`: 'Efreet Weaponmaster' (any of its abilities) or 'Efreet Weaponmaster:
    turned_face_up' (the ability that triggers on that event; spaces for underscores are fine)."""
    head, sep, tail = item.rpartition(":")
    word = re.sub(r"[\s-]+", "_", tail.strip().casefold())
    if sep and word in _TRIGGER_EVENTS:
        return head.strip(), TriggerEvent(word)
    return item.strip(), None


_TRIGGER_EVENTS = frozenset(str(e) for e in TriggerEvent)


def _same_triggers(got: Any, want: Any) -> bool:
    """`got` ('LABEL: EVENT' for each ability that triggered) is `want` as a multiset, where an item
    naming its event matches only that event and a bare label any of that source's abilities."""
    pool: Counter[tuple[str, TriggerEvent | None]] = Counter()
    for item in got:
        label, event = split_trigger(item)
        pool[label.casefold(), event] += 1
    bare: Counter[str] = Counter()
    for item in want:
        label, event = split_trigger(item)
        if event is None:
            bare[label.casefold()] += 1
        elif pool[label.casefold(), event] > 0:
            pool[label.casefold(), event] -= 1
        else:
            return False
    rest: Counter[str] = Counter()
    for (label, _), n in pool.items():
        rest[label] += n
    return +rest == +bare


def _triggered(r: _Runner, since: int, o: _Outcome | None) -> object:
    return [f"{label}: {event}" for at, label, event in r.game.triggers if at >= since]


def _is_labels(w: Any) -> bool:
    return w is None or (isinstance(w, list) and all(isinstance(x, str) for x in w))


def _events(event: GameEvent) -> Callable[[_Runner, int, _Outcome | None], object]:
    return lambda r, since, o: [label for ev, label in r.game.events[since:] if ev is event]


def _outcome(key: str) -> Callable[[_Runner, int, _Outcome | None], object]:
    return lambda r, since, o: o.get(key) if o is not None else None


_RESERVED: dict[str, Reserved] = {
    "legal": Reserved(_is_bool, "must be true or false", _outcome("legal"), "legal", True),
    "happened": Reserved(_is_bool, "must be true or false", _outcome("happened"), "happened", True),
    "cost": Reserved(lambda w: w is None or (isinstance(w, str) and not is_bare_mana(w)),
                     "is a cost with its mana symbols in braces, like '{2}{U}'", _outcome("cost"), "cost", True),
    "stack": Reserved(_is_count, "is a number of objects", lambda r, s, o: len(r.game.stack), "stack size"),
    "triggered": Reserved(_is_labels, "lists card names (each may name its event: 'NAME: turned_face_up')", _triggered,
                          "triggered abilities", want=lambda w: list(w or []), same=_same_triggers),
    "looked": Reserved(_is_labels, "lists card names", _events(GameEvent.LOOKED), "face-down objects looked at (708.5)",
                       want=lambda w: list(w or [])),
    "fizzled": Reserved(_is_labels, "lists card names", _events(GameEvent.FIZZLED), "fizzled abilities or spells",
                        want=lambda w: list(w or [])),
}

# Properties of a card of the draft (905).
_DRAFT_PROPS: dict[str, Callable[[Draft, str], object]] = {
    "drafted_by": lambda d, c: d.owner_of_drafted(c),
    "in_pool": lambda d, c: c in d.pool,
    "removed": lambda d, c: d.removed.get(c),
    "face_up_in_draft": lambda d, c: c in d.face_up,
    "seen_by": lambda d, c: sorted(d.seen.get(c, ())),
    "revealed_in_draft": lambda d, c: c in d.revealed,
    "in_face_down_pile": lambda d, c: any(c in d.unopened.get(p, []) for p in d.face_down_piles),
}

_PLAYER_PROPS: dict[str, Callable[[Game, str], object]] = {
    "life": lambda g, p: g.players[p].life,
    "library": lambda g, p: len(g.players[p].library),
    "in_game": lambda g, p: g.players[p].in_game,
    "land_played": lambda g, p: g.players[p].land_played,
    "top_card": lambda g, p: g.library(p)[0].label if g.players[p].library else None,
    "mana_pool": lambda g, p: len(g.players[p].mana_pool),
    # the tokens they control on the battlefield, each "NAME P/T" ("nameless 2/2"): tokens have no setup label
    "tokens": lambda g, p: [
        f"{ch.name or 'nameless'} {ch.power}/{ch.toughness}" for ch in (g.characteristics(o) for o in g.tokens(p))
    ],
}
