"""The Conspiracy draft (905): booster packs, drafted cards, and the cards that are face up or face
down *during the draft* (draft-matters cards). Pure Python, no I/O; separate from `Game`, since
the draft happens before the game and has none of its objects.

Cards are known by their scenario labels. What a card says about the draft is its `DraftText`
(kb.game.cards); a card without one is drafted face down into its drafter's pool (905.1a)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.game.cards import CardDef, DraftLook, DraftText, Removal
from kb.game.state import IllegalAction

_NONE = DraftText()


@dataclass
class Draft:
    """One draft round: the pack each player holds now, unopened packs, and what was drafted."""

    players: list[str]
    cards: Mapping[str, CardDef]  # by label
    holding: dict[str, list[str]]  # the booster pack each player is drafting from now
    unopened: dict[str, list[str]]  # each player's unopened booster pack, if any
    drafted: dict[str, list[str]] = field(default_factory=dict)  # in order; removed cards too
    pool: set[str] = field(default_factory=set)  # drafted and not removed
    removed: dict[str, Removal] = field(default_factory=dict)
    face_up: set[str] = field(default_factory=set)  # drafted face up and still face up
    revealed: set[str] = field(default_factory=set)
    seen: dict[str, set[str]] = field(default_factory=dict)  # label -> players who looked at it
    random_picks: dict[str, int] = field(default_factory=dict)  # at-random picks under each card
    watching: list[tuple[str, str, str]] = field(default_factory=list)  # (watcher, drafter, by card)
    face_down_piles: set[str] = field(default_factory=set)  # unopened packs looked at and returned

    def __post_init__(self) -> None:
        for player in self.players:
            self.drafted.setdefault(player, [])
            self.holding.setdefault(player, [])
        for label in self.cards:
            self.seen.setdefault(label, set())
        for player, pack in self.holding.items():
            for label in pack:
                self.seen[label].add(player)  # the drafter looks at the pack they hold (905.1a)

    def text(self, label: str) -> DraftText:
        return self.cards[label].front.draft or _NONE

    def owner_of_drafted(self, label: str) -> str | None:
        return next((p for p, picks in self.drafted.items() if label in picks), None)

    def add_drafted(self, player: str, label: str, *, face_up: bool) -> None:
        """Setup: a card `player` drafted earlier (face up if it said so and still is)."""
        self.drafted[player].append(label)
        self.pool.add(label)
        self.seen[label].add(player)
        if face_up:
            self.face_up.add(label)
            self.revealed.add(label)

    def _at_random_cards(self, player: str) -> list[str]:
        """`player`'s face-up cards that make them draft at random (Archdemon of Paliano)."""
        return [c for c in self.drafted[player] if c in self.face_up and c not in self.removed and self.text(c).at_random]

    def must_draft_at_random(self, player: str) -> bool:
        return bool(self._at_random_cards(player))

    def draft(self, player: str, label: str, *, at_random: bool = False, remove_with: str | None = None) -> None:
        """`player` drafts `label` from the pack they hold (905.1a): `at_random` when they may not
        look at the pack (then they look at the card as they draft it); `remove_with` a face-up
        card of theirs that lets them remove it from the draft (it is still drafted first)."""
        if label not in self.holding[player]:
            raise IllegalAction(f"{label} is not in the booster pack {player} holds")
        forcing = self._at_random_cards(player)
        if forcing and not at_random:
            raise IllegalAction(f"{player} can't look at booster packs and must draft at random ({forcing[0]})")
        remover = self.text(remove_with).remove if remove_with is not None else None
        if remove_with is not None and (
            remove_with not in self.face_up or remove_with in self.removed or remover is None
            or remove_with not in self.drafted[player]
        ):
            raise IllegalAction(f"{remove_with} is not a face-up card of {player}'s that removes cards from the draft")
        self.holding[player].remove(label)
        self.drafted[player].append(label)
        self.seen[label].add(player)  # you may look at a card as you draft it, even at random
        own = self.text(label)
        if own.face_up or own.reveal:
            self.revealed.add(label)  # follow its instructions (draft face up, reveal) first
            self.seen[label].update(self.players)
        if own.face_up:
            self.face_up.add(label)
        for watcher, _drafter, _card in [w for w in self.watching if w[1] == player]:
            self.seen[label].add(watcher)  # the next card drafted by that player
        self.watching = [w for w in self.watching if w[1] != player]
        if remover is not None:
            self.removed[label] = remover
            if remover is Removal.FACE_DOWN:
                self.face_up.discard(label)  # turned face down as it is removed
        else:
            self.pool.add(label)
        if at_random:
            for card in forcing:
                self.random_picks[card] = self.random_picks.get(card, 0) + 1
                if self.random_picks[card] >= self.text(card).at_random:
                    self.face_up.discard(card)  # "After you draft N cards this way, turn it face down"

    def turn_face_down(self, player: str, label: str, *, look_at: str | None = None) -> None:
        """Turn a face-up card `player` drafted face down to use its ability: look at the next
        card `look_at` drafts (Illusionary Informant), or at `look_at`'s unopened booster pack,
        returned as a face-down pile (Whispergear Sneak). A removed card has no effect and can't
        be turned face down."""
        look = self.text(label).turn_down
        if label not in self.drafted[player] or label not in self.face_up or label in self.removed or look is None:
            raise IllegalAction(f"{label} is not a face-up card of {player}'s that can be turned face down")
        if look_at is None or look_at not in self.players:
            raise IllegalAction(f"{label}: choose a player")
        if look is DraftLook.PACK and not self.unopened.get(look_at):
            raise IllegalAction(f"{look_at} has no unopened booster pack to look at")
        self.face_up.discard(label)
        if look is DraftLook.NEXT_PICK:
            self.watching.append((player, look_at, label))
            return
        self.face_down_piles.add(look_at)  # opened, looked at, returned as a face-down pile
        for card in self.unopened[look_at]:
            self.seen[card].add(player)
