"""The rules question inside a story.

Players ask by telling what happened, turn by turn, and then ask one thing. The asking sentences (the
ones with a question mark; without one, the last sentence) carry the question; the story around them
only sets the scene, and its words (attacked, blocked, turn, played) must not outvote the question's
words in lexical scores. A short question is all question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHORT_WORDS = 30  # up to this many words a question is taken whole
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)|\n")


@dataclass(frozen=True, slots=True)
class Focus:
    asking: str  # the sentences that ask
    story: str  # everything else ("" for a short question)

    @property
    def is_story(self) -> bool:
        return bool(self.story)


def sentences(text: str) -> list[str]:
    """`text` cut after `.`, `!` or `?` and at line breaks (a Spanish `¿` stays with its sentence)."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def focus(question: str) -> Focus:
    """Split a question into the sentences that ask and the story around them."""
    if len(question.split()) <= SHORT_WORDS:
        return Focus(question, "")
    parts = sentences(question)
    if len(parts) < 2:
        return Focus(question, "")
    asking = [i for i, s in enumerate(parts) if "?" in s]
    if not asking:
        asking = [len(parts) - 1]
    if len(asking) == len(parts):
        return Focus(question, "")
    ask = " ".join(parts[i] for i in asking)
    story = " ".join(s for i, s in enumerate(parts) if i not in set(asking))
    return Focus(ask, story)
