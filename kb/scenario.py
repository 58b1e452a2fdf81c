"""The scenario check format: YAML text in, `Check`s out; a check runs on `kb.game` and reports
every expectation it failed. See docs/CHECKS.md.

Parsing collects problems (file and line from YAML node marks) instead of stopping, so one bad
check doesn't hide the others in its file. No I/O here: `kb.checks` reads the files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import yaml

from kb.game import CardDataError, CardDef, Game, IllegalAction, Rules, RulesDateError, Zone, card_from_data
from kb.game.cards import ContinuousKind, effect_value
from kb.game.state import FaceDownWay
from kb.model import Problem

DEFAULT_PLAYERS = ("you", "opponent")
SETUP_ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "command")
PLAYER_SETUP_KEYS = ("life", "land_played", "top_revealed")
RESERVED_EXPECT_KEYS = ("legal", "happened", "cost", "stack", "triggered", "fizzled")
MAX_DEPTH = 40  # deeper YAML is refused: no check needs it, and PyYAML composes recursively


class _LineDict(dict):  # type: ignore[type-arg]
    """A mapping that remembers the line (1-based) where it started in the YAML text."""

    line: int = 0


class _LineLoader(yaml.SafeLoader):
    """yaml's safe loader, keeping each mapping's line for messages; dates stay text (a check
    date is validated by the rules model, with the check's line, and a bad one can't abort the
    file)."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _LineDict:
    d = _LineDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    return d


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)


def _line(value: Any, default: int) -> int:
    return getattr(value, "line", 0) or default


@dataclass(frozen=True, slots=True)
class Step:
    action: str
    arg: Any  # the argument as written
    line: int
    expect: Mapping[str, Any] | None = None
    args: Mapping[str, Any] = field(default_factory=dict)  # checked, as a mapping (a scalar under the first key)


@dataclass(frozen=True, slots=True)
class Check:
    """One scenario: a setup, actions, and expectations; it verifies the ruling it quotes."""

    id: str  # "<file stem>/<name>": stable across rebuilds
    name: str
    file: str
    line: int
    ruling: str
    rules: str | None  # the rules date the check is written for; None: current
    setup: Mapping[str, Any]
    steps: tuple[Step, ...]
    expect: Mapping[str, Any] | None
    description: str = ""
    cards: Mapping[str, CardDef] = field(default_factory=dict)  # defined in the check's file


# ---- the action table ---------------------------------------------------------------------------


class Arg(StrEnum):
    """The type of an action's argument, validated when the check is parsed."""

    CARD = "CARD"  # a card label of the setup
    CARDS = "[CARD]"
    PLAYER = "PLAYER"
    ZONE = "ZONE"
    INT = "N"
    BOOL = "BOOL"
    CAST_WAY = "morph|megamorph|disguise|effect"
    TURN_UP_WAY = "mana|morph|megamorph|disguise"
    KIND = "EFFECT_KIND"
    ANY = "VALUE"
    TEXT = "TEXT"


@dataclass(frozen=True, slots=True)
class Action:
    """One check action: its arguments (the first is what a scalar argument fills) and what it
    does on the game. `run` returns a cost paid (str), False when the effect did nothing, or None."""

    args: Mapping[str, Arg]
    run: Callable[[_Runner, dict[str, Any]], Any]
    required: tuple[str, ...] = ()
    doc: str = ""


def _player(r: _Runner, a: dict[str, Any]) -> str:
    return str(a.get("player") or r.default_player)


def _did(result: Any) -> bool:
    return result is not None and result is not False and result != []


def _set_flag(attr: str, value: bool) -> Callable[[_Runner, dict[str, Any]], None]:
    def run(r: _Runner, a: dict[str, Any]) -> None:
        setattr(r.game.obj(a["card"]), attr, value)

    return run


def _remember(r: _Runner, a: dict[str, Any]) -> None:
    r.remembered[a["card"]] = r.game.obj(a["card"]).oid


def _attach(r: _Runner, a: dict[str, Any]) -> None:
    r.game.obj(a["card"]).attached_to = r.game.obj(a["to"]).oid


def _add_counters(r: _Runner, a: dict[str, Any]) -> None:
    r.game.obj(a["card"]).plus_counters += int(a.get("count", 1))


def _let_look(r: _Runner, a: dict[str, Any]) -> None:
    r.game.obj(a["card"]).may_look.add(_player(r, a))


def _effect(kind: ContinuousKind | None = None) -> Callable[[_Runner, dict[str, Any]], None]:
    """A continuous effect from a resolved spell or ability: `effect: {card, kind, value}`."""

    def run(r: _Runner, a: dict[str, Any]) -> None:
        k = kind or ContinuousKind(a["kind"])
        value = a.get("value")
        if kind is ContinuousKind.SET_TYPES:
            value = a.get("types")
        elif kind is ContinuousKind.ADD_KEYWORDS:
            value = a.get("keywords")
        value = effect_value(k, value, "effect")
        for label in a.get("cards") or [a["card"]]:
            r.game.add_effect(label, k, value, until_end_of_turn=bool(a.get("until_end_of_turn")))

    return run


def _resolve(r: _Runner, a: dict[str, Any]) -> Any:
    if str(a.get("times", "1")) == "all":
        return r.game.resolve_all()
    return r.game.resolve(copy_of=a.get("copy_of"), pay=bool(a.get("pay")), choice=a.get("choice"))


def _put_face_down_as(r: _Runner, a: dict[str, Any]) -> Any:
    values = card_from_data({"name": "face-down", "pt": a["pt"], "types": a["types"]}).front
    return r.game.put_face_down_as(a["card"], _player(r, a), replace(values, name=None))


def _manifest(r: _Runner, a: dict[str, Any]) -> Any:
    if "card" in a:
        return r.game.manifest_card(_player(r, a), a["card"])
    return _did(r.game.manifest(_player(r, a), int(a.get("count", 1))))


_C, _P = Arg.CARD, Arg.PLAYER
ACTIONS: dict[str, Action] = {
    "cast": Action(
        {"card": _C, "player": _P, "face_down": Arg.CAST_WAY, "targets": Arg.CARDS, "face": Arg.INT,
         "without_paying": Arg.BOOL},
        lambda r, a: r.game.cast(
            _player(r, a), a["card"], face_down=a.get("face_down"), targets=a.get("targets"),
            face=int(a.get("face", 0)), without_paying=bool(a.get("without_paying")),
        ),
        ("card",),
        "cast from hand (face down for {3}: 702.37c); `targets` are chosen now; `face: 1` casts an "
        "Adventure or a modal DFC's back; `without_paying` its mana cost (an alternative cost)",
    ),
    "resolve": Action(
        {"times": Arg.TEXT, "copy_of": _C, "pay": Arg.BOOL, "choice": Arg.ANY},
        _resolve,
        (),
        "`1` (top of the stack) or `all`; `copy_of` for a Clone, `pay` a ward cost, `choice` otherwise",
    ),
    "counter": Action({"card": _C}, lambda r, a: r.game.counter(a["card"]), ("card",), "an effect counters a spell"),
    "manifest": Action({"player": _P, "count": Arg.INT, "card": _C}, _manifest, (), "the top card(s), or a given card"),
    "cloak": Action({"player": _P}, lambda r, a: _did(r.game.cloak(_player(r, a))), (), "701.58a"),
    "manifest_dread": Action(
        {"player": _P, "choose": _C}, lambda r, a: _did(r.game.manifest_dread(_player(r, a), a.get("choose"))), (),
        "701.62a: look at the top two, manifest `choose`, the other to the graveyard",
    ),
    "manifest_one_of_top_two": Action(
        {"player": _P, "choose": _C, "other_to": Arg.TEXT},
        lambda r, a: r.game.manifest_one_of_top_two(_player(r, a), a["choose"], str(a.get("other_to", "top"))),
        ("choose",),
        "Write into Being",
    ),
    "turn_face_up": Action(
        {"card": _C, "by": Arg.TURN_UP_WAY, "choice": Arg.ANY},
        lambda r, a: r.game.turn_face_up(a["card"], str(a.get("by", "mana")), choice=a.get("choice")),
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
        lambda r, a: r.game.move(a["card"], Zone(a["to"]), face_down=bool(a.get("face_down")), by=a.get("by")),
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
        {"card": _C, "player": _P, "pt": Arg.TEXT, "types": Arg.ANY},
        _put_face_down_as,
        ("card", "pt", "types"),
        "onto the battlefield face down as given characteristics (Tezzeret: 5/5 artifact creatures, 708.2a)",
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
    ),
    "lose_all_abilities": Action({"card": _C}, _effect(ContinuousKind.LOSE_ALL_ABILITIES), ("card",)),
    "set_types": Action({"card": _C, "types": Arg.ANY}, _effect(ContinuousKind.SET_TYPES), ("card", "types")),
    "grant": Action({"card": _C, "keywords": Arg.ANY}, _effect(ContinuousKind.ADD_KEYWORDS), ("card", "keywords")),
    "tap": Action({"card": _C}, lambda r, a: r.game.tap(a["card"]), ("card",)),
    "untap": Action({"card": _C}, _set_flag("tapped", False), ("card",)),
    "attach": Action({"card": _C, "to": _C}, _attach, ("card", "to")),
    "add_counters": Action({"card": _C, "count": Arg.INT}, _add_counters, ("card",)),
    "damage": Action({"card": _C, "count": Arg.INT}, lambda r, a: r.game.deal_damage(a["card"], int(a.get("count", 1))), ("card",)),
    "remember": Action({"card": _C}, _remember, ("card",), "remember its object, for `same_object`"),
    "activate": Action(
        {"card": _C, "player": _P, "target": _C},
        lambda r, a: r.game.activate(_player(r, a), a["card"], target=a.get("target")),
        ("card",),
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
        lambda r, a: r.game.combat_damage(a["card"], to_player=bool(a.get("to_player")), blockers=int(a.get("blockers", 0))),
        ("card",),
    ),
    "upkeep": Action({}, lambda r, a: r.game.upkeep()),
    "end_step": Action({}, lambda r, a: r.game.end_step()),
    "end_turn": Action({}, lambda r, a: r.game.end_turn()),
    "end_game": Action({}, lambda r, a: r.game.end_game()),
    "leave_game": Action({"player": _P}, lambda r, a: r.game.leave_game(_player(r, a)), ("player",)),
    "gain_control": Action(
        {"card": _C, "player": _P},
        lambda r, a: setattr(r.game.obj(a["card"]), "controller", _player(r, a)),
        ("card", "player"),
        "an effect gives a player control of a permanent",
    ),
    "let_look": Action({"card": _C, "player": _P}, _let_look, ("card",), "an effect lets a player look"),
}

_CAST_WAYS = ("morph", "megamorph", "disguise", "effect")
_TURN_UP_WAYS = ("mana", "morph", "megamorph", "disguise")
SETUP_ITEM_KEYS = {
    "card": Arg.TEXT, "as": Arg.TEXT, "face_down": Arg.TEXT, "tapped": Arg.BOOL, "counters": Arg.INT,
    "attached_to": _C, "controller": _P, "token": Arg.BOOL, "attacking": Arg.BOOL, "damage": Arg.INT,
    "may_look": Arg.ANY, "playable": Arg.BOOL, "named": Arg.TEXT, "exiled_with": _C,
    "commander_casts": Arg.INT,
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
    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(ev, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                depth += 1
                if depth == 2:
                    block_list = not ev.flow_style
                if depth == 3 and block_list:  # an item of a block list has lines of its own
                    item = [ev.start_mark.line, ev.start_mark.line, 0]
                if depth > MAX_DEPTH and not (item and item[2]):
                    first = first if first is not None else ev.start_mark.line + 1
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
                item[1] = max(item[1], ev.end_mark.line if isinstance(ev, yaml.ScalarEvent) else ev.start_mark.line)
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
        data = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        return [], problems + [Problem(source, line, f"malformed YAML: {reason}")]
    except (ValueError, RecursionError) as exc:
        return [], problems + [Problem(source, None, f"unreadable YAML: {exc}")]
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        return [], problems + [Problem(source, _line(data, 1), "a check file needs a top-level `checks:` list")]
    unknown = set(data) - {"checks", "cards"}
    if unknown:
        problems.append(Problem(source, _line(data, 1), f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}"))
    local, card_problems = _local_cards(data.get("cards"), source, _line(data, 1), cards)
    problems.extend(card_problems)
    all_cards = {**cards, **local} if cards is not None else None
    checks: list[Check] = []
    seen: set[str] = set()
    for raw in data["checks"]:
        line = _line(raw, _line(data, 1))
        try:
            check = _parse_check(raw, source, stem, line, all_cards)
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
) -> tuple[dict[str, CardDef], list[Problem]]:
    """The `cards:` section of a check file (the corpus/cards schema)."""
    if raw is None:
        return {}, []
    if not isinstance(raw, list):
        return {}, [Problem(source, line, "`cards:` must be a list of card definitions")]
    out: dict[str, CardDef] = {}
    problems = []
    for item in raw:
        where = f"{source}:{_line(item, line)}"
        try:
            card = card_from_data(item, where)
        except (CardDataError, ValueError, TypeError) as exc:
            problems.append(Problem(source, _line(item, line), str(exc).removeprefix(where + ": ")))
            continue
        if card.name in out or (known is not None and card.name in known):
            problems.append(Problem(source, _line(item, line), f"card {card.name!r} is defined twice"))
            continue
        out[card.name] = card
    return out, problems


def _parse_check(
    raw: Any, source: str, stem: str, line: int, cards: Mapping[str, CardDef] | None
) -> Check:
    if not isinstance(raw, dict):
        raise _CheckSyntax("a check must be a mapping", line)
    unknown = set(raw) - {"name", "ruling", "rules", "setup", "actions", "expect", "description"}
    if unknown:
        raise _CheckSyntax(f"unknown key(s) in check: {', '.join(sorted(map(str, unknown)))}", line)
    name = raw.get("name")
    if not name or not isinstance(name, str):
        raise _CheckSyntax("a check needs a `name`", line)
    ruling = raw.get("ruling")
    if not ruling or not isinstance(ruling, str):
        raise _CheckSyntax(f"check {name!r} needs a `ruling:` quote", line)
    rules = raw.get("rules")
    if rules is not None:
        try:
            Rules.for_date(str(rules))
        except RulesDateError as exc:
            raise _CheckSyntax(f"check {name!r}: {exc}", line) from None
    setup = raw.get("setup") or _LineDict()
    if not isinstance(setup, dict):
        raise _CheckSyntax(f"check {name!r}: `setup` must be a mapping", line)
    players = _players(setup, name, line)
    labels = _setup_labels(setup, players, name, line, cards)
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
            raise _CheckSyntax(f"check {name!r}: an action step needs exactly one action", st_line)
        action = keys[0]
        if action not in ACTIONS:
            raise _CheckSyntax(f"check {name!r}: unknown action {action!r}", st_line)
        args = _action_args(action, st[action], labels, players, f"check {name!r}: {action}", st_line)
        expect = st.get("expect")
        if expect is not None and not isinstance(expect, dict):
            raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", st_line)
        steps.append(Step(action, st[action], st_line, expect, args))
    expect = raw.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", line)
    if expect is None and not any(s.expect for s in steps):
        raise _CheckSyntax(f"check {name!r} has no `expect`", line)
    for exp in [expect] + [s.expect for s in steps]:
        for key, want in (exp or {}).items():
            if key not in RESERVED_EXPECT_KEYS and key not in labels and key not in players:
                raise _CheckSyntax(
                    f"check {name!r}: `expect` names {key!r}, which is no card or player",
                    _line(exp, line),
                )
            if key in labels:
                if not isinstance(want, dict):
                    raise _CheckSyntax(f"check {name!r}: expectations for {key!r} must be a mapping", _line(exp, line))
                bad = [p for p in want if p not in _OBJECT_PROPS]
                if bad:
                    raise _CheckSyntax(f"check {name!r}: unknown property {bad[0]!r} of {key!r}", _line(want, _line(exp, line)))
    return Check(
        id=f"{stem}/{name}",
        name=name,
        file=source,
        line=line,
        ruling=ruling,
        rules=str(rules) if rules is not None else None,
        setup=setup,
        steps=tuple(steps),
        expect=expect,
        description=str(raw.get("description", "")),
    )


def _action_args(
    action: str, raw: Any, labels: set[str], players: list[str], what: str, line: int
) -> dict[str, Any]:
    """An action's arguments as a mapping, every one checked against its type."""
    spec = ACTIONS[action]
    if isinstance(raw, dict):
        args = dict(raw)
    elif raw is None:
        args = {}
    elif spec.args:
        args = {next(iter(spec.args)): raw}
    else:
        raise _CheckSyntax(f"{what} takes no argument (write `- {action}: null`)", line)
    if action == "resolve" and isinstance(raw, int | str) and not isinstance(raw, bool):
        args = {"times": str(raw)}
        if args["times"] not in ("1", "all"):
            raise _CheckSyntax(f"{what}: `1` or `all`, not {raw!r}", line)
    for key, value in args.items():
        kind = spec.args.get(key)
        if kind is None:
            known = ", ".join(spec.args) or "none"
            raise _CheckSyntax(f"{what}: unknown argument {key!r} (known: {known})", line)
        _check_arg(kind, value, labels, players, f"{what}: {key}", line)
    for key in spec.required:
        if key not in args:
            raise _CheckSyntax(f"{what} needs `{key}`", line)
    if action == "effect":
        if "card" not in args and "cards" not in args:
            raise _CheckSyntax(f"{what} needs `card` or `cards`", line)
        try:
            effect_value(ContinuousKind(args["kind"]), args.get("value"), what)
        except CardDataError as exc:
            raise _CheckSyntax(str(exc), line) from None
    return args


def _check_arg(kind: Arg, value: Any, labels: set[str], players: list[str], what: str, line: int) -> None:
    ok = True
    if kind is Arg.CARD:
        ok = isinstance(value, str) and value in labels
    elif kind is Arg.CARDS:
        ok = isinstance(value, list) and all(isinstance(v, str) and v in labels for v in value)
    elif kind is Arg.PLAYER:
        ok = isinstance(value, str) and value in players
    elif kind is Arg.ZONE:
        ok = value in {z.value for z in Zone}
    elif kind is Arg.INT:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind is Arg.BOOL:
        ok = isinstance(value, bool)
    elif kind is Arg.CAST_WAY:
        ok = value in _CAST_WAYS
    elif kind is Arg.TURN_UP_WAY:
        ok = value in _TURN_UP_WAYS
    elif kind is Arg.KIND:
        ok = value in {k.value for k in ContinuousKind}
    elif kind is Arg.TEXT:
        ok = isinstance(value, str | int) and not isinstance(value, bool)
    if not ok:
        raise _CheckSyntax(f"{what}: {value!r} is not a {kind.value}", line)


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
        for zone in SETUP_ZONES:
            for item in zones.get(zone) or ():
                d = dict(item) if isinstance(item, dict) else {"card": item}
                out.append((player, zone, d, _line(item, _line(zones, 0))))
    return out


def _setup_labels(
    setup: Mapping[str, Any], players: list[str], name: str, line: int, cards: Mapping[str, CardDef] | None
) -> set[str]:
    """Validate the setup (players, zones, card items) and return its card labels."""
    what = f"check {name!r}"
    for key in setup:
        if key != "players" and key not in players:
            raise _CheckSyntax(f"{what}: setup names unknown player {key!r}", _line(setup, line))
    for player in players:
        zones = setup.get(player) or {}
        zline = _line(zones, _line(setup, line))
        if not isinstance(zones, dict):
            raise _CheckSyntax(f"{what}: setup for {player!r} must be a mapping", zline)
        bad = set(zones) - set(SETUP_ZONES) - set(PLAYER_SETUP_KEYS)
        if bad:
            raise _CheckSyntax(f"{what}: unknown zone(s) {', '.join(sorted(map(str, bad)))}", zline)
        for zone in SETUP_ZONES:
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
            raise _CheckSyntax(f"{what}: unknown card {card!r}", item_line or line)
        label = str(item.get("as") or card)
        if label in labels:
            raise _CheckSyntax(f"{what}: two cards called {label!r}; name one with `as:`", item_line or line)
        labels.add(label)
    for _player, zone, item, item_line in items:
        for key, value in item.items():
            kind = SETUP_ITEM_KEYS.get(key)
            if kind is None:
                raise _CheckSyntax(f"{what}: unknown key {key!r} for card {item['card']!r}", item_line or line)
            _check_arg(kind, value, labels, players, f"{what}: {item['card']}: {key}", item_line or line)
        way = item.get("face_down")
        if way is not None and way not in {w.value for w in FaceDownWay}:
            ways = ", ".join(w.value for w in FaceDownWay)
            raise _CheckSyntax(f"{what}: {item['card']}: face_down {way!r} is none of {ways}", item_line or line)
        if way == "hidden_agenda" and zone != "command":
            raise _CheckSyntax(f"{what}: {item['card']}: hidden_agenda is for the command zone", item_line or line)
        if item.get("may_look") is not None and not (
            isinstance(item["may_look"], list) and all(p in players for p in item["may_look"])
        ):
            raise _CheckSyntax(f"{what}: {item['card']}: may_look must list players", item_line or line)
        if zone not in ("battlefield", "exile", "command") and (
            way is not None or {"tapped", "counters", "attached_to", "controller", "attacking", "damage"} & set(item)
        ):
            raise _CheckSyntax(f"{what}: {item['card']}: only a permanent has that status", item_line or line)
    return labels


# ---- running ------------------------------------------------------------------------------------


def build_game(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> Game:
    """The game a check's setup describes, under `rules_date` (default: the check's own date)."""
    players = _players(check.setup)
    game = Game(players, Rules.for_date(rules_date or check.rules))
    all_cards = {**cards, **check.cards}
    for player, zone, item, _line_no in _card_items(check.setup, players):
        card = all_cards[item["card"]]
        label = str(item.get("as") or item["card"])
        obj = game.add_card(label, card, player, Zone(zone), token=bool(item.get("token")))
        if item.get("face_down"):
            obj.face_down_by = FaceDownWay(item["face_down"])
        obj.tapped = bool(item.get("tapped", False))
        obj.attacking = bool(item.get("attacking", False))
        obj.plus_counters = int(item.get("counters", 0))
        obj.damage = int(item.get("damage", 0))
        obj.may_look.update(str(p) for p in item.get("may_look") or ())
        obj.playable_this_turn = bool(item.get("playable", False))
        obj.choice = item.get("named")  # a hidden agenda's secretly chosen name
        if "commander_casts" in item:
            obj.card.commander_casts = int(item["commander_casts"])  # a commander (903.8)
        if item.get("controller"):
            obj.controller = str(item["controller"])
    for player in players:
        zones = check.setup.get(player) or {}
        game.players[player].land_played = bool(zones.get("land_played", False))
        game.players[player].life = int(zones.get("life", 20))
        game.players[player].top_revealed = bool(zones.get("top_revealed", False))
    for _player, zone, item, _line_no in _card_items(check.setup, players):
        label = str(item.get("as") or item["card"])
        if item.get("attached_to"):
            game.obj(label).attached_to = game.obj(str(item["attached_to"])).oid
        if item.get("exiled_with"):
            game.obj(label).exiled_with = game.obj(str(item["exiled_with"])).oid
    return game


def run_check(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> list[str]:
    """Run a check; return every failed expectation (empty: it passed). Never raises: a fault in
    the check or the model becomes a failure naming the check's file and line."""
    all_cards = {**cards, **check.cards}
    missing = [i["card"] for _p, _z, i, _l in _card_items(check.setup, _players(check.setup)) if i["card"] not in all_cards]
    if missing:
        return [f"{check.file}:{check.line}: unknown card {missing[0]!r}"]
    try:
        game = build_game(check, cards, rules_date)
        runner = _Runner(game)
        failures: list[str] = []
        for step in check.steps:
            failures.extend(runner.step(step))
        if check.expect:
            failures.extend(runner.expect(check.expect, since=0, where=f"line {check.line}", outcome=None))
    except Exception as exc:  # noqa: BLE001 - a check must report, never crash the command
        return [f"{check.file}:{check.line}: check could not run: {type(exc).__name__}: {exc}"]
    return failures


class _Runner:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.remembered: dict[str, int] = {}
        self.default_player = next(iter(game.players))

    def step(self, step: Step) -> list[str]:
        where = f"line {step.line} ({step.action})"
        start = len(self.game.events)
        outcome: dict[str, Any] = {"legal": True, "happened": True, "cost": None}
        try:
            result = ACTIONS[step.action].run(self, dict(step.args))
            if result is False:
                outcome["happened"] = False
            if isinstance(result, str):
                outcome["cost"] = result
            self.game.check_state_based_actions()
        except IllegalAction as exc:
            outcome["legal"] = False
            outcome["error"] = str(exc)
        except (KeyError, TypeError, ValueError, CardDataError) as exc:
            return [f"{where}: bad action argument {step.arg!r}: {exc}"]
        failures = []
        expected_legal = (step.expect or {}).get("legal", True)
        if not outcome["legal"] and expected_legal:
            failures.append(f"{where}: refused: {outcome['error']}")
        if step.expect:
            failures.extend(self.expect(step.expect, since=start, where=where, outcome=outcome))
        return failures

    # ---- expectations ----------------------------------------------------------------------

    def expect(
        self, exp: Mapping[str, Any], *, since: int, where: str, outcome: Mapping[str, Any] | None
    ) -> list[str]:
        failures: list[str] = []

        def check(what: str, got: Any, want: Any) -> None:
            if _norm(got) != _norm(want):
                failures.append(f"{where}: {what}: expected {want!r}, got {got!r}")

        g = self.game
        for key, want in exp.items():
            if key in ("legal", "happened", "cost"):
                if outcome is None:
                    failures.append(f"{where}: `{key}` only makes sense in an action's expect")
                else:
                    check(key, outcome.get(key), want)
            elif key == "stack":
                check("stack size", len(g.stack), want)
            elif key in ("triggered", "fizzled"):
                got = [label for ev, label in g.events[since:] if ev == key]
                check(f"{key} abilities or spells", got, list(want or []))
            elif key in g.players:
                failures.extend(self._expect_player(key, want, where))
            else:
                failures.extend(self._expect_object(key, want, where))
        return failures

    def _expect_player(self, name: str, want: Any, where: str) -> list[str]:
        g = self.game
        p = g.players[name]
        out = []
        for prop, value in (want or {}).items():
            got: Any = {
                "life": p.life,
                "library": len(p.library),
                "in_game": p.in_game,
                "land_played": p.land_played,
                "top_card": g.library(name)[0].label if p.library else None,
            }.get(prop, _MISSING)
            if got is _MISSING:
                out.append(f"{where}: unknown player property {prop!r}")
            elif _norm(got) != _norm(value):
                out.append(f"{where}: {name}.{prop}: expected {value!r}, got {got!r}")
        return out

    def _expect_object(self, label: str, want: Any, where: str) -> list[str]:
        g = self.game
        obj = g.obj(label)
        if not isinstance(want, dict):
            return [f"{where}: expectations for {label!r} must be a mapping"]
        out = []
        for prop, value in want.items():
            getter = _OBJECT_PROPS.get(prop)
            if getter is None:
                out.append(f"{where}: unknown property {prop!r}")
                continue
            try:
                got = getter(self, obj, value)
            except IllegalAction as exc:
                out.append(f"{where}: {label}.{prop}: {exc}")
                continue
            if prop in ("has", "lacks"):
                if got:
                    out.append(f"{where}: {label}.{prop}: {got!r}")
            elif _norm(got) != _norm(value):
                out.append(f"{where}: {label}.{prop}: expected {value!r}, got {got!r}")
        return out


_MISSING = object()


def _norm(v: Any) -> Any:
    """Compare lists as sets of strings (order doesn't matter for types, colors, keywords)."""
    if isinstance(v, list | tuple | set | frozenset):
        return sorted(str(x).lower() for x in v)
    return v


def _label_of(game: Game, oid: int | None) -> str | None:
    if oid is None or oid not in game.objects:
        return None
    return game.objects[oid].label


def _can_turn_face_up(r: _Runner, obj: Any, want: Any) -> Any:
    if isinstance(want, dict):
        return {by: r.game.can_turn_face_up(obj.label, by) for by in want}
    return r.game.can_turn_face_up(obj.label, "mana")


def _visible_to(r: _Runner, obj: Any, want: Any) -> Any:
    return [p for p in r.game.players if r.game.can_see(p, obj)]


def _missing(found: set[str], want: Any) -> list[str]:
    return sorted(str(k).lower() for k in want if str(k).lower() not in found)


def _pairwise(r: _Runner, obj: Any, want: Any, relation: Callable[[Any, Any], bool]) -> Any:
    """`{other: bool, ...}`: the relation between this object and each other one."""
    if not isinstance(want, dict):
        return _MISSING
    return {k: relation(obj, r.game.obj(str(k))) for k in want}


_Getter = Callable[[_Runner, Any, Any], Any]
_OBJECT_PROPS: dict[str, _Getter] = {
    "zone": lambda r, o, w: str(o.zone),
    "face_down": lambda r, o, w: o.face_down,
    "face_down_by": lambda r, o, w: o.face_down_by,
    "name": lambda r, o, w: r.game.characteristics(o).name,
    "mana_cost": lambda r, o, w: r.game.characteristics(o).mana_cost,
    "mana_value": lambda r, o, w: r.game.characteristics(o).mana_value,
    "colors": lambda r, o, w: sorted(r.game.characteristics(o).colors),
    "types": lambda r, o, w: sorted(r.game.characteristics(o).types),
    "subtypes": lambda r, o, w: sorted(r.game.characteristics(o).subtypes),
    "keywords": lambda r, o, w: sorted(r.game.characteristics(o).keywords),
    "abilities": lambda r, o, w: sorted(
        list(r.game.characteristics(o).keywords)
        + [a.text or a.effect for a in r.game.characteristics(o).abilities]
    ),
    "has": lambda r, o, w: _missing(set(r.game.characteristics(o).keywords), w),
    "lacks": lambda r, o, w: sorted(set(str(k).lower() for k in w) & set(r.game.characteristics(o).keywords)),
    "power": lambda r, o, w: r.game.characteristics(o).power,
    "toughness": lambda r, o, w: r.game.characteristics(o).toughness,
    "tapped": lambda r, o, w: o.tapped,
    "counters": lambda r, o, w: o.plus_counters,
    "attached_to": lambda r, o, w: _label_of(r.game, o.attached_to),
    "controller": lambda r, o, w: o.controller,
    "owner": lambda r, o, w: o.card.owner,
    "revealed": lambda r, o, w: o.card.revealed,
    "visible_to": _visible_to,
    "same_object": lambda r, o, w: r.remembered.get(o.label) == o.oid,
    "can_turn_face_up": _can_turn_face_up,
    "face": lambda r, o, w: r.game.printed(o).name if not o.face_down else None,
    "playable": lambda r, o, w: o.playable_this_turn,
    "shares_name_with": lambda r, o, w: _pairwise(r, o, w, r.game.share_name),
    "shares_creature_type_with": lambda r, o, w: _pairwise(r, o, w, r.game.share_creature_type),
    "copiable_name": lambda r, o, w: r.game.copiable_values(o).name,
    "entered_before": lambda r, o, w: _pairwise(r, o, w, lambda a, b: a.timestamp < b.timestamp),
    "attacking": lambda r, o, w: o.attacking,
    "blocked": lambda r, o, w: o.blocked,
    "damage": lambda r, o, w: o.damage,
    "turn_face_up_cost": lambda r, o, w: {by: r.game.turn_face_up_cost(o, by) for by in w}
    if isinstance(w, dict)
    else _MISSING,
}
