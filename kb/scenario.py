"""The scenario check format: YAML text in, `Check`s out; a check runs on `kb.game` and reports
every expectation it failed. See docs/CHECKS.md.

Parsing collects problems (file and line from YAML node marks) instead of stopping, so one bad
check doesn't hide the others in its file. No I/O here: `kb.checks` reads the files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from kb.game import CardDef, Game, IllegalAction, Rules, RulesDateError, Zone
from kb.model import Problem

DEFAULT_PLAYERS = ("you", "opponent")
SETUP_ZONES = ("library", "hand", "battlefield", "graveyard", "exile")
RESERVED_EXPECT_KEYS = ("legal", "happened", "cost", "stack", "triggered")


class _LineDict(dict):  # type: ignore[type-arg]
    """A mapping that remembers the line (1-based) where it started in the YAML text."""

    line: int = 0


class _LineLoader(yaml.SafeLoader):
    """yaml's safe loader, keeping each mapping's line for messages."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _LineDict:
    d = _LineDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    return d


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _line(value: Any, default: int) -> int:
    return getattr(value, "line", 0) or default


@dataclass(frozen=True, slots=True)
class Step:
    action: str
    arg: Any
    line: int
    expect: Mapping[str, Any] | None = None


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


# ---- parsing ------------------------------------------------------------------------------------

ACTIONS: dict[str, str] = {
    # action: how its argument reads (for docs and messages)
    "cast": "CARD | {card, player, face_down: morph|megamorph|disguise}",
    "resolve": "1 | all | {copy_of: CARD}",
    "manifest": "PLAYER | {player, count} | {player, card}",
    "cloak": "PLAYER",
    "manifest_dread": "{player, choose: CARD}",
    "manifest_one_of_top_two": "{player, choose: CARD, other_to: top|bottom}",
    "turn_face_up": "CARD | {card, by: mana|morph|megamorph|disguise}",
    "effect_turns_face_up": "CARD",
    "turn_face_down": "CARD",
    "transform": "CARD",
    "move": "{card, to: ZONE}",
    "destroy": "CARD",
    "exile": "CARD",
    "bounce": "CARD",
    "return_to_battlefield": "CARD",
    "become_copy": "{card, of: CARD}",
    "lose_all_abilities": "CARD",
    "set_types": "{card, types: [..]}",
    "grant": "{card, keywords: [..]}",
    "tap": "CARD",
    "untap": "CARD",
    "attach": "{card, to: CARD}",
    "add_counters": "{card, count}",
    "remember": "CARD",
    "activate": "CARD | {card, player, target}",
    "play_from_exile": "CARD | {card, player}",
    "end_step": "null",
    "end_turn": "null",
    "combat_damage": "{card, to_player: bool, blockers: N}",
    "leave_game": "PLAYER",
    "end_game": "null",
    "let_look": "{card, player}",
}


def parse_checks(
    text: str, source: str, cards: Mapping[str, CardDef] | None = None
) -> tuple[list[Check], list[Problem]]:
    """Parse a check file's text. Bad checks become Problems (with lines); good ones still parse.
    With `cards`, card names in setups are checked too."""
    stem = source.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
    try:
        data = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        return [], [Problem(source, line, f"malformed YAML: {reason}")]
    if not isinstance(data, dict) or not isinstance(data.get("checks"), list):
        return [], [Problem(source, _line(data, 1), "a check file needs a top-level `checks:` list")]
    checks: list[Check] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for raw in data["checks"]:
        line = _line(raw, _line(data, 1))
        try:
            check = _parse_check(raw, source, stem, line, cards)
        except _CheckSyntax as exc:
            problems.append(Problem(source, exc.line or line, str(exc)))
            continue
        if check.id in seen:
            problems.append(Problem(source, line, f"duplicate check name {check.name!r}"))
            continue
        seen.add(check.id)
        checks.append(check)
    return checks, problems


class _CheckSyntax(ValueError):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _parse_check(
    raw: Any, source: str, stem: str, line: int, cards: Mapping[str, CardDef] | None
) -> Check:
    if not isinstance(raw, dict):
        raise _CheckSyntax("a check must be a mapping", line)
    unknown = set(raw) - {"name", "ruling", "rules", "setup", "actions", "expect", "description"}
    if unknown:
        raise _CheckSyntax(f"unknown key(s) in check: {', '.join(sorted(unknown))}", line)
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
    players = _players(setup)
    labels = _setup_labels(setup, players, name, line, cards)
    steps = []
    for st in raw.get("actions") or ():
        st_line = _line(st, line)
        if not isinstance(st, dict):
            raise _CheckSyntax(f"check {name!r}: an action must be a mapping like `- cast: CARD`", st_line)
        keys = [k for k in st if k != "expect"]
        if len(keys) != 1:
            raise _CheckSyntax(f"check {name!r}: an action step needs exactly one action", st_line)
        action = keys[0]
        if action not in ACTIONS:
            raise _CheckSyntax(f"check {name!r}: unknown action {action!r}", st_line)
        expect = st.get("expect")
        if expect is not None and not isinstance(expect, dict):
            raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", st_line)
        steps.append(Step(action, st[action], st_line, expect))
    expect = raw.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise _CheckSyntax(f"check {name!r}: `expect` must be a mapping", line)
    if expect is None and not any(s.expect for s in steps):
        raise _CheckSyntax(f"check {name!r} has no `expect`", line)
    for exp in [expect] + [s.expect for s in steps]:
        for key in exp or ():
            if key not in RESERVED_EXPECT_KEYS and key not in labels and key not in players:
                raise _CheckSyntax(
                    f"check {name!r}: `expect` names {key!r}, which is no card or player",
                    _line(exp, line),
                )
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


def _players(setup: Mapping[str, Any]) -> list[str]:
    players = setup.get("players")
    return [str(p) for p in players] if players else list(DEFAULT_PLAYERS)


def _card_items(setup: Mapping[str, Any], players: list[str]) -> list[tuple[str, str, dict[str, Any], int]]:
    """(player, zone, item, line) for every card in a setup; an item is {card, as, ...}."""
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
    for key in setup:
        if key != "players" and key not in players:
            raise _CheckSyntax(f"check {name!r}: setup names unknown player {key!r}", _line(setup, line))
    for player in players:
        zones = setup.get(player) or {}
        if not isinstance(zones, dict):
            raise _CheckSyntax(f"check {name!r}: setup for {player!r} must be a mapping", _line(setup, line))
        bad = set(zones) - set(SETUP_ZONES) - {"land_played", "life", "top_revealed"}
        if bad:
            raise _CheckSyntax(f"check {name!r}: unknown zone(s) {', '.join(sorted(bad))}", _line(zones, line))
    labels: set[str] = set()
    for _player, _zone, item, item_line in _card_items(setup, players):
        card = item.get("card")
        if cards is not None and card not in cards:
            raise _CheckSyntax(f"check {name!r}: unknown card {card!r}", item_line or line)
        label = str(item.get("as") or card)
        if label in labels:
            raise _CheckSyntax(f"check {name!r}: two cards called {label!r}; name one with `as:`", item_line or line)
        labels.add(label)
    return labels


# ---- running ------------------------------------------------------------------------------------


def build_game(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> Game:
    """The game a check's setup describes, under `rules_date` (default: the check's own date)."""
    players = _players(check.setup)
    game = Game(players, Rules.for_date(rules_date or check.rules))
    for player, zone, item, _line_no in _card_items(check.setup, players):
        card = cards[item["card"]]
        label = str(item.get("as") or item["card"])
        obj = game.add_card(label, card, player, Zone(zone), token=bool(item.get("token")))
        if zone == "battlefield":
            obj.face_down_by = item.get("face_down")
            obj.tapped = bool(item.get("tapped", False))
            obj.plus_counters = int(item.get("counters", 0))
            if item.get("controller"):
                obj.controller = str(item["controller"])
    for player in players:
        zones = check.setup.get(player) or {}
        game.players[player].land_played = bool(zones.get("land_played", False))
        game.players[player].life = int(zones.get("life", 20))
        game.players[player].top_revealed = bool(zones.get("top_revealed", False))
    for _player, zone, item, _line_no in _card_items(check.setup, players):
        if zone == "battlefield" and item.get("attached_to"):
            game.obj(str(item.get("as") or item["card"])).attached_to = game.obj(str(item["attached_to"])).oid
    return game


def run_check(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> list[str]:
    """Run a check; return every failed expectation (empty: it passed)."""
    missing = [i["card"] for _p, _z, i, _l in _card_items(check.setup, _players(check.setup)) if i["card"] not in cards]
    if missing:
        return [f"{check.file}:{check.line}: unknown card {missing[0]!r}"]
    game = build_game(check, cards, rules_date)
    runner = _Runner(game)
    failures: list[str] = []
    for step in check.steps:
        failures.extend(runner.step(step))
    if check.expect:
        failures.extend(runner.expect(check.expect, since=0, where=f"line {check.line}", outcome=None))
    return failures


_PLAIN_MOVES = {"destroy": Zone.GRAVEYARD, "exile": Zone.EXILE, "bounce": Zone.HAND}


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
            result = self._act(step.action, step.arg)
            if result is False or result is None and step.action in ("return_to_battlefield",):
                outcome["happened"] = False
            if isinstance(result, str):
                outcome["cost"] = result
            self.game.check_state_based_actions()
        except IllegalAction as exc:
            outcome["legal"] = False
            outcome["error"] = str(exc)
        except (KeyError, TypeError, ValueError) as exc:
            return [f"{where}: bad action argument {step.arg!r}: {exc}"]
        failures = []
        expected_legal = (step.expect or {}).get("legal", True)
        if not outcome["legal"] and expected_legal:
            failures.append(f"{where}: refused: {outcome['error']}")
        if step.expect:
            failures.extend(self.expect(step.expect, since=start, where=where, outcome=outcome))
        return failures

    def _act(self, action: str, arg: Any) -> Any:
        g = self.game
        d = arg if isinstance(arg, dict) else {}
        card = str(d.get("card", arg)) if arg is not None else ""
        player = str(d.get("player", self.default_player))
        if action == "cast":
            return g.cast(player, card, face_down=d.get("face_down"))
        if action == "resolve":
            if arg == "all":
                return g.resolve_all()
            return g.resolve(copy_of=d.get("copy_of"))
        if action == "manifest":
            who = str(d.get("player", arg if isinstance(arg, str) else self.default_player))
            if "card" in d:
                return g.manifest_card(who, str(d["card"]))
            return bool(g.manifest(who, int(d.get("count", 1))))
        if action == "cloak":
            return g.cloak(str(arg or self.default_player)) is not None
        if action == "manifest_one_of_top_two":
            return g.manifest_one_of_top_two(player, str(d["choose"]), str(d.get("other_to", "top")))
        if action == "manifest_dread":
            return g.manifest_dread(player, str(d["choose"]))
        if action == "turn_face_up":
            return g.turn_face_up(card, str(d.get("by", "mana")))
        if action == "effect_turns_face_up":
            return g.effect_turns_face_up(card)
        if action == "turn_face_down":
            return g.turn_face_down(card)
        if action == "transform":
            return g.transform(card)
        if action == "move":
            return g.move(card, Zone(str(d["to"])))
        if action in _PLAIN_MOVES:
            return g.move(card, _PLAIN_MOVES[action])
        if action == "return_to_battlefield":
            return g.return_to_battlefield(card)
        if action == "become_copy":
            return g.become_copy(card, str(d["of"]))
        if action == "lose_all_abilities":
            return g.add_effect(card, 6, "lose_all_abilities")
        if action == "set_types":
            return g.add_effect(card, 4, "set_types", tuple(d["types"]))
        if action == "grant":
            return g.add_effect(card, 6, "add_keywords", tuple(str(k).lower() for k in d["keywords"]))
        if action in ("tap", "untap"):
            g.obj(card).tapped = action == "tap"
            return None
        if action == "attach":
            g.obj(card).attached_to = g.obj(str(d["to"])).oid
            return None
        if action == "add_counters":
            g.obj(card).plus_counters += int(d.get("count", 1))
            return None
        if action == "remember":
            self.remembered[card] = g.obj(card).oid
            return None
        if action == "activate":
            return g.activate(player, card, target=d.get("target"))
        if action == "play_from_exile":
            return g.play_from_exile(player, card)
        if action == "end_step":
            return g.end_step()
        if action == "end_turn":
            return g.end_turn()
        if action == "combat_damage":
            return g.combat_damage(card, to_player=bool(d.get("to_player")), blockers=int(d.get("blockers", 0)))
        if action == "leave_game":
            return g.leave_game(str(arg))
        if action == "end_game":
            return g.end_game()
        if action == "let_look":
            g.obj(card).may_look.add(str(d["player"]))
            return None
        raise IllegalAction(f"unknown action {action!r}")

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
            elif key == "triggered":
                got = [label for ev, label in g.events[since:] if ev == "triggered"]
                check("triggered abilities", got, list(want or []))
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
}
