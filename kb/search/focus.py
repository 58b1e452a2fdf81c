"""The rules question inside a story.

Players ask by telling what happened, turn by turn, and then ask one thing. The asking sentences (the
ones with a question mark; without one, the last sentence) carry the question; the story around them
only sets the scene, and its words (attacked, blocked, turn, played) must not outvote the question's
words in lexical scores. A short question is all question. An asking sentence that names nothing
("What do you do?") asks about the sentence before it, which joins it. A judge call ("Who is right?", "Do I?",
"Stimmt das?") asks about the claims the story tells: the sentences before it join it until they say enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.normalize import tokenize

SHORT_WORDS = 30  # up to this many words a question is taken whole
MIN_ASKING = 2  # content words an asking part needs to ask something by itself (dev plateau 2; 3-4 lose)
# content words a judge call ("Who is right?") gathers from the sentences before it (dev plateau 6-7: the claim and,
# when it says little, the sentence before; from 8 the setting's rules words outvote the claim)
CLAIM_WORDS = 7
# a quotation (card text) is part of its sentence, whatever stops inside it; a sentence ends after a closing
# quotation mark that follows its stop (`says "Destroy target artifact." My opponent ...`)
_QUOTED = r'"[^"\n]*"|“[^“”\n]*[”“]|„[^„“”\n]*[“”]|«[^«»\n]*»'
_SENTENCE = re.compile(rf'(?:{_QUOTED}|[^.!?\n])+?(?:[.!?]+|(?<=[.!?]["”“»])(?=\s|$)|$)|\n')
# A judge call: a question whose only words ask whether a claim holds ("Who is right?", "Is that legal?",
# "¿Quién tiene razón?", "Stimmt das?"), or that echoes the claim without a word of its own ("Do I?", "Darf ich?")
_VERDICT_WORDS = frozenset(tokenize(
    "right wrong correct true legal allowed recht unrecht richtig korrekt stimmt erlaubt "
    "razón tiene lleva correcto cierto verdad permitido"))
_WH = re.compile(r"\b(?:what|who|which|how|where|when|why|was|wer|welche\w*|wie|wo|wann|warum|qu[eé]|qui[eé]n"
                 r"|cu[aá]l\w*|c[oó]mo|d[oó]nde|cu[aá]ndo)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Focus:
    asking: str  # the sentences that ask
    story: str  # everything else ("" for a short question)

    @property
    def is_story(self) -> bool:
        return bool(self.story)


def sentences(text: str) -> list[str]:
    """`text` cut after `.`, `!` or `?` and at line breaks (a Spanish `¿` stays with its sentence), never inside
    a quotation."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def is_verdict(sentence: str) -> bool:
    """Whether an asking sentence only asks whether the story's claim holds ("Who is right?", "Do I?")."""
    if "?" not in sentence:
        return False
    words = tokenize(sentence)
    if words:
        return all(w in _VERDICT_WORDS for w in words)
    return not _WH.search(sentence)


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
    # "What do you do?", "What happens?", "Who is right?": a question that names nothing asks about
    # what the sentence before it tells, which joins it (and the one before, while they say little)
    for i in list(asking):
        j = i
        if is_verdict(parts[i]):
            # a judge call asks whether the claims told before it hold: they join it until they say enough
            said = 0
            while j > 0 and said < CLAIM_WORDS:
                j -= 1
                said += len(tokenize(parts[j]))
                asking.append(j)
            continue
        while j > 0 and sum(len(tokenize(parts[k])) for k in range(j, i + 1)) < MIN_ASKING:
            j -= 1
            asking.append(j)
    asking = sorted(set(asking))
    if len(asking) == len(parts):
        return Focus(question, "")
    ask = " ".join(parts[i] for i in asking)
    story = " ".join(s for i, s in enumerate(parts) if i not in set(asking))
    return Focus(ask, story)


# A question that asks which rule says something wants the CR clause itself, not a ruling about it.
_RULE_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:cr\s+|comprehensive\s+)?rules?\b|\brule\s+numbers?\b"
    r"|\bcomprehensive\s+rules?\b|\bcr\s+\d{3}|\bwelche[rsmn]?\s+regel|\bregelnummer"
    r"|\bumfassenden\s+regeln\b|\bqu[eé]\s+regla|\bcu[aá]l(?:es)?\s+(?:es\s+la\s+)?reglas?\b"
    r"|\breglas\s+completas\b|\bn[uú]mero\s+de\s+(?:la\s+)?regla",
    re.IGNORECASE)


def asks_for_rule(question: str) -> bool:
    """Whether `question` asks for a rule of the CR ("What rule covers ...", "Welche Regel ...",
    "¿Qué regla dice ...")."""
    return bool(_RULE_ASKED.search(question))


# "What is the new cloak action?", "How does disguise work?", "Wie funktioniert Verkleidung?", "¿Qué es
# manifestar miedo?": a question that asks what a term is, and nothing besides, wants its definition.
# The whole question is that one sentence; what it asks about is the words between the asking words
# and the question mark (`defined_phrase`).
_DEFINITION = re.compile(
    r"^\s*(?:what\s+(?:is|are|does)|what's|how\s+(?:does|do)|was\s+(?:ist|sind|bedeutet|macht|tut)"
    r"|wie\s+funktionier\w*|¿?\s*qu[eé]\s+(?:es|son|significa|hace)|¿?\s*c[oó]mo\s+funciona\w*)"
    r"\s+(?P<phrase>[^?.!]+?)(?:\s+(?:do|work|mean))?\s*\?\s*$",
    re.IGNORECASE)
DEFINED_WORDS = 6  # a phrase of more words asks about more than a term ("What is the mana value of ...")


# A search of a word or two and nothing else ("Trampelschaden", "mantenimiento acumulativo", "fliegend?") asks
# what they are as "What is ...?" does: read alone, a German or Spanish keyword's printed name lost its definition
# to the rulings and rules its other reading meets ("Schaden", damage: 120.2; review50 M2).
_BARE = re.compile(r"^\s*¿?\s*(?P<phrase>[^\W\d_][\w'’/-]*(?:\s+[^\W\d_][\w'’/-]*)?)\s*\??\s*$")


def bare_phrase(question: str) -> str:
    """The word or two a search of them alone says (`_BARE`: "volar", "Wahnsinn?"); "" for any other question."""
    bare = _BARE.match(question)
    return bare["phrase"] if bare else ""


def defined_phrase(question: str) -> str:
    """What a question that asks only what something is names ("the new cloak action"), or a search of a word
    or two alone (`bare_phrase`); "" for any other question."""
    if bare := bare_phrase(question):
        return bare
    m = _DEFINITION.match(question)
    if not m or len(m["phrase"].split()) > DEFINED_WORDS:
        return ""
    return m["phrase"]
