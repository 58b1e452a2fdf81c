"""What a question asks beyond its words: the rules concepts the cards it names imply.

Players name the cards of their game ("Will Emerald Medallion reduce the cost of a face-down Krosan
Cloudscraper?") and the answer turns on what those cards do, read against a general rule: the
Medallion reduces the cost of green spells, and a face-down spell is a colourless 2/2 with no mana
cost (708.4), so it does not. The KB seldom holds a ruling of that card pair; it holds the rule.

So each Oracle text is read once, when the index is built, for the kinds of effect a face-down rule
decides (`ORACLE_CONCEPTS`: effects on spells of a colour or type, casting from another zone or at
another time, activated abilities that can't be activated, names, copies, ...). A question naming
such a card is expanded with the rules words of those concepts (`QueryPlan.implied`), and when none
of the cards it names has a ruling of its own, the question is about the rules, not about a card
(`QueryPlan.wants_rule`). Text to concept, never card to answer: no card is named here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

MARK = "@"  # a concept id among a card's rules tokens (CardIndex.expand): no token starts with it
# BM25 weight of the implied rules words: as much as the question's own words, for they are what
# the question means (dev plateau: see bench/results/real_questions_notes.md).
IMPLIED_WEIGHT = 1.0
SPECIFIC_SHARE = 0.005


@dataclass(frozen=True, slots=True)
class OracleConcept:
    """A kind of Oracle text (`pattern`) and the rules words a face-down question about it needs."""

    id: str
    # what it means in a few words, added to the question's dense query (e5's time grows with the
    # query's length: the full `rules` words would double a short question's cold search)
    gist: str
    pattern: re.Pattern[str]
    rules: str  # words of the CR clauses that decide it (the clause numbers only document them)
    clauses: tuple[str, ...]
    # Rare among Oracle texts (under SPECIFIC_SHARE of the bundled cards: tests/test_search_question.py
    # counts them): a face-down effect worth adding even for a card whose rulings the KB holds.
    specific: bool = False


_COLOUR_OR_TYPE = (r"(?:white|blue|black|red|green|colou?rless|multicolou?red|monocolou?red|creature|"
                   r"noncreature|artifact|nonartifact|enchantment|instant|sorcery|legendary|historic|"
                   r"nonland|permanent|aura|equipment|\w+ creature)")


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


ORACLE_CONCEPTS: tuple[OracleConcept, ...] = (
    # An effect that looks at a spell's colour, type, mana value or name, or that changes what
    # casting it costs: a face-down spell has only the face-down characteristics.
    OracleConcept(
        "spell_characteristics",
        "a face-down spell's characteristics: colorless, no mana cost",
        _re(rf"\b{_COLOUR_OR_TYPE} spells?\b|\bspells?\b[^.]*\b(?:converted mana cost|mana value|"
            rf"with the same name|colou?r)|\bspells?\b[^.]*\bcosts? [^.]*\b(?:less|more)\b|\baffinity\b"),
        "face-down spell characteristics: effects that care about the characteristics of a spell see "
        "only the face-down spell's characteristics, colorless no mana cost mana value 0; prohibitions "
        "that apply to casting an object with these characteristics",
        ("708.4", "702.37c")),
    # Permission to cast from another zone or at another time: it applies to a face-down spell by
    # its face-down characteristics (a 2/2 creature spell), not by the card's.
    OracleConcept(
        "casting_permission",
        "casting a face-down creature spell",
        _re(r"\b(?:cast|play)\b[^.]*\bfrom (?:the top of|among|exile|your graveyard|a graveyard|"
            r"(?:your|their|its owner's) (?:graveyard|hand|library))|\bmay (?:cast|play)\b[^.]*\btop card\b"
            r"|\bas though (?:it|they) had flash\b|\bany time you could cast an instant\b|\bflash\b"
            r"|\bplay cards from\b"),
        "cast face down: effects or prohibitions that would apply to casting an object with the "
        "face-down characteristics are applied to casting this object, a 2/2 face-down creature spell",
        ("708.4", "702.37c")),
    # Cast from exile: a card exiled face down has no characteristics and is turned face up just
    # before it is cast, unless it is cast face down.
    OracleConcept(
        "cast_from_exile",
        "casting a card exiled face down",
        _re(r"\b(?:cast|play)\b[^.]*\bfrom exile\b|\bexiled? [^.]*\byou may (?:cast|play)\b"),
        "a card exiled face down has no characteristics but may be played from exile; it is turned face "
        "up just before it is cast unless it is cast face down",
        ("406.3a",), specific=True),
    # An effect that turns a face-down permanent face up: only what may be turned face up is.
    OracleConcept(
        "turns_face_up",
        "an effect turns a manifested instant face up",
        _re(r"\bturn\b[^.]*\bface up\b"),
        "an effect turns a face-down permanent face up: a manifested instant or sorcery card would turn "
        "face up, its controller reveals it and leaves it face down",
        ("701.40g", "708.7"), specific=True),
    # Abilities that can't be activated, or that are countered: turning face up is neither, it is a
    # special action, which doesn't use the stack and can't be responded to.
    OracleConcept(
        "no_activated",
        "turning face up is a special action",
        _re(r"\bactivated abilities\b[^.]*\bcan't be activated\b|\bcan't activate\b"
            r"|\bcounter target (?:activated |triggered )?(?:or (?:activated|triggered) )?abilit"),
        "turning a face-down creature face up is a special action, not an activated ability; it doesn't "
        "use the stack and can't be responded to",
        ("116.2b", "702.37e"), specific=True),
    OracleConcept(
        "names",
        "a face-down creature has no name",
        _re(r"\bsame name\b|\bwith that name\b|\bchosen name\b|\bname a card\b|\bnamed card\b|"
            r"\bchoose a card name\b|\bcard named\b"),
        "a face-down permanent has no name; objects have different names only if each has a name",
        ("708.2a", "201.2b")),
    OracleConcept(
        "turns_face_down",
        "a face-down 2/2 creature has no text",
        _re(r"\bturn\b[^.]*\bface down\b|\bface down\b[^.]*\b2/2\b"),
        "turned face down: a 2/2 face-down creature with no text, no name, no subtypes, no mana cost",
        ("708.2a",), specific=True),
    OracleConcept(
        "copies",
        "a face-down permanent becomes a copy",
        _re(r"\bcopy of\b|\bas a copy\b|\bbecomes? a copy\b"),
        "a face-down permanent becomes a copy: copiable values as modified by its face-down status",
        ("708.10",)),
    # Dying, leaving, and the removal that makes a permanent leave (bounce, exile, tuck).
    OracleConcept(
        "leaves_battlefield",
        "a face-down permanent leaves the battlefield: reveal it",
        _re(r"\bdies\b|\bput into (?:a|your|its owner's) graveyard from the battlefield\b|"
            r"\bleaves the battlefield\b|\breturn [^.]*\bto (?:its|their) owner'?s'? hands?\b|"
            r"\bexile (?:target|each|all|another) [^.]*\b(?:creature|permanent)s?\b"),
        "a face-down permanent moves from the battlefield to any other zone: its owner must reveal it; "
        "leaves-the-battlefield abilities look back in time: they trigger based on the permanent as it "
        "existed immediately before it left, face down with no abilities",
        ("708.9", "603.10a")),
    # Casting without paying the mana cost is an alternative cost, and so is casting face down for {3}.
    OracleConcept(
        "free_cast",
        "casting a face-down spell without paying its mana cost: one alternative cost",
        _re(r"\bwithout paying (?:its|their|that card's|the card's) mana costs?\b"),
        "casting a spell without paying its mana cost is an alternative cost; only one alternative cost "
        "can be applied to any one spell, and casting it face down for {3} is an alternative cost",
        ("118.9a", "702.37c")),
    # A rule or effect keeps cards from entering the battlefield: a card to be manifested or cloaked
    # then isn't, and stays where it was.
    OracleConcept(
        "enter_prohibited",
        "a manifested card that can't enter the battlefield",
        _re(r"\bcan't enter the battlefield\b|\b(?:creature|permanent|card)s? would enter the battlefield\b"
            r"[^.]*\binstead\b"),
        "an effect instructs a player to manifest or cloak a card and a rule or effect prohibits the "
        "face-down object from entering the battlefield: that card isn't manifested, it remains in its "
        "previous zone",
        ("701.40f", "701.58f"), specific=True),
    # Control of a face-down permanent changes: its controller may look at it, its owner reveals it.
    OracleConcept(
        "control_change",
        "gaining control of a face-down creature",
        _re(r"\bgain control of\b|\bexchange control\b"),
        "you may look at a face-down permanent you control; the owner of a face-down permanent must "
        "reveal it when it leaves the battlefield or the game ends",
        ("708.5", "708.9")),
    OracleConcept(
        "exiled_face_down",
        "looking at a card exiled face down",
        _re(r"\bexiled? [^.]*\bface down\b|\bface-down (?:card|cards) exiled\b"),
        "a card exiled face down has no characteristics; looking at cards exiled face down",
        ("406.3a",), specific=True),
    OracleConcept(
        "loses_abilities",
        "a face-down creature loses its abilities",
        _re(r"\blose all abilities\b|\bloses all abilities\b"),
        "a face-down creature that loses its abilities turned face up",
        ("702.37e", "701.40b"), specific=True),
)

_BY_ID = {c.id: c for c in ORACLE_CONCEPTS}
_REMINDER = re.compile(r"\([^()]*\)")


def oracle_concepts(text: str) -> list[str]:
    """The ids of the `ORACLE_CONCEPTS` an Oracle text holds, in table order. Reminder text is left
    out: every morph card's "(You may cast this card face down as a 2/2 creature ...)" would read as
    an effect that turns things face down."""
    text = _REMINDER.sub(" ", text)
    return [c.id for c in ORACLE_CONCEPTS if c.pattern.search(text)]


def concept_tokens(text: str) -> list[str]:
    """`oracle_concepts(text)` as marked tokens, to store beside a card's rules tokens."""
    return [MARK + cid for cid in oracle_concepts(text)]


def split_concepts(tokens: Iterable[str]) -> tuple[list[str], list[str]]:
    """A card's stored rules tokens → (the plain tokens, the concept ids among them); the rules its
    wordings refer to (`wording_rules`) and what it is as a spell (`spell_tokens`) are neither."""
    plain: list[str] = []
    concepts: list[str] = []
    for t in tokens:
        if t.startswith((RULE_MARK, FORM_MARK, SPELL_MARK)):
            continue
        (concepts if t.startswith(MARK) else plain).append(t[len(MARK):] if t.startswith(MARK) else t)
    return plain, concepts


# ----------------------------------------------------------------- the CR's own reading of card wordings
# The CR glossary says how some words of card text are read: "Instead: Effects that use the word
# “instead” are replacement effects. ... See rule 614", "End the Turn: To “end the turn” as the result
# of an effect is ... See rule 723", "Dies: A creature or planeswalker “dies” if ... See rule 700.4". A
# card whose Oracle text uses such a wording is decided by those rules, whether or not the question says
# any of their words ("I cast Day's Undoing with Sphinx's Tutelage out: seven triggers?" is 723.1,
# ending the turn). Such an entry is one that quotes its own term in lower case (card text, not the
# title of a rule it refers to, as in "See rule 702.21, “Ward.”").
RULE_MARK = "#"  # a rule number among a card's rules tokens: no token starts with it
_QUOTED = re.compile(r"[“\"]([^”\"]+)[”\"]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


@dataclass(frozen=True, slots=True)
class CardWording:
    """A wording of card text the CR glossary reads (`phrase`, lower case) and the rules it refers to."""

    phrase: str
    rules: tuple[str, ...]
    pattern: re.Pattern[str]


def card_wording(term: str, text: str) -> CardWording | None:
    """The `CardWording` of the CR glossary entry of `term` whose text (without the term) is `text`,
    when the entry quotes its term in lower case and refers to a rule; else None."""
    phrase = term.translate(_APOSTROPHES).strip().lower()
    quotes = [q.translate(_APOSTROPHES).strip(" .,;:") for q in _QUOTED.findall(text)]
    rules = tuple(r.rstrip(".") for r in referenced_rules(text))
    if not phrase or not rules or not any(q[:1].islower() and q.lower() == phrase for q in quotes):
        return None
    return CardWording(phrase, rules, re.compile(rf"(?<![\w']){re.escape(phrase)}(?![\w'])"))


def wording_rules(oracle_text: str, wordings: Iterable[CardWording]) -> list[tuple[str, str]]:
    """(rule, wording) of each rule the `wordings` an Oracle text uses refer to (reminder text left
    out), in order, once each."""
    text = _REMINDER.sub(" ", oracle_text).translate(_APOSTROPHES).lower()
    return list(dict.fromkeys((r, w.phrase) for w in wordings if w.pattern.search(text) for r in w.rules))


def rule_tokens(rules: Iterable[tuple[str, str]]) -> list[str]:
    """`wording_rules` as marked tokens, to store beside a card's rules tokens ("#723=end_the_turn")."""
    return [f"{RULE_MARK}{rule}={'_'.join(phrase.split())}" for rule, phrase in rules]


def card_rules(tokens: Iterable[str], mark: str = RULE_MARK) -> list[tuple[str, str]]:
    """A card's stored rules tokens → (rule, wording) of the `rule_tokens` among them (of `form_tokens`
    with `mark=FORM_MARK`)."""
    out: list[tuple[str, str]] = []
    for t in tokens:
        if t.startswith(mark):
            rule, _, phrase = t[len(mark):].partition("=")
            out.append((rule, " ".join(phrase.split("_"))))
    return list(dict.fromkeys(out))


# ----------------------------------------------------------------- the forms of card text the CR reads
# Beyond the glossary, the CR's clauses say which FORM of card text makes which kind of effect: "Effects that
# use the word “prevent” are prevention effects" (615.1a), "Effects that read “[This permanent] enters with
# . . . ,” ... are replacement effects" (614.1c), "effects that say a creature can't attack" (508.1c, attack
# restrictions). A card whose Oracle text has that form is decided by the family's rule (615, 614) or by the
# clause that names the effects (508.1c). Read from the current CR's clauses at index build (`clause_forms`),
# kept beside a card's rules tokens with their own mark (`form_tokens`); the ranker brings them in for a card
# without rulings of its own, whose text is all the KB knows of what it does (`Weights.card_form`). Only
# definitions: the CR quotes card text in passing far more often ("durations worded “for as long as”",
# "exceptions that state ... “in addition to its other types”"), and those quotes, brought in for every card
# that says them, put narrow clauses first (dev, search47b: 707.9d first for Phyrexian Metamorph questions).
FORM_MARK = "&"  # a rule a form of a card's Oracle text is read by, among its rules tokens: no token starts with it
_DEFINES = re.compile(r"\b(?:use|uses|using) the (?:word|words|phrase|phrases)\b|\b(?:read|reads|say|says)\b")
_SAYS = re.compile(r"\beffects? that (?:say|says|state|states) (?:that )?(?:a|an) (?:creature|permanent|player|spell)s? "
                   r"((?:can't|must) [a-z]+)\b")
_FAMILY = re.compile(r"\bare (?:\w+ )?(?:effects|abilities)\b")  # the sentence defines a family of effects
_PLACEHOLDER = re.compile(r"\[[^\]]*\]")
_ELLIPSIS = re.compile(r"\.\s?\.\s?\.")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_GAP = r"[^.]{0,60}?"  # what a placeholder of a form stands for: a few words of the same sentence
# The CR says "enters" where Oracle texts before 2024 say "enters the battlefield" (614.1d itself writes
# "[Objects] enter [the battlefield]"): a form's "enter"/"enters" reads both. Its number stays the CR's: read as
# "enter" too, 614.1c's "[This permanent] enters as" met every clone's "You may have ~ enter the battlefield as a
# copy", and put 614.1 first for four dev questions about copies (Phyrexian Metamorph, Copy Artifact: 707 decides).
_ENTERS = re.compile(r"\benters?\b")


def form_wording(quote: str, rules: tuple[str, ...]) -> CardWording | None:
    """The `CardWording` of a form of card text as the CR quotes it ("[This permanent] enters with . . . ,"):
    its fixed words in order, a placeholder any few words between them; None for a quote of no words, and
    for a template (a quote with a placeholder or an ellipsis) whose fixed words are one word: the template
    is the form, and its one word alone is in any card's text ("[This permanent] enters . . ." of 614.1d
    is a bare "enters", which every "When ~ enters" trigger says; review48 M3)."""
    plain = quote.translate(_APOSTROPHES).lower()
    text = _ELLIPSIS.sub(" ", plain)
    fixed = [" ".join(p.strip(" ,.;:").split()) for p in _PLACEHOLDER.split(text)]
    fixed = [p for p in fixed if p]
    template = text != plain or len(fixed) < len(_PLACEHOLDER.split(text))
    if not fixed or (template and len(fixed) == 1 and len(fixed[0].split()) == 1):
        return None
    body = _GAP.join(_ENTERS.sub(r"\g<0>(?:\ the\ battlefield)?", re.escape(p)) for p in fixed)
    return CardWording(" ".join(fixed), rules, re.compile(rf"(?<![\w']){body}(?![\w'])"))


def clause_forms(clause: str, text: str) -> list[CardWording]:
    """The forms of card text a CR clause (number `clause`, its `text`) defines a kind of effect by: the
    card-text quotes of a sentence that says effects that "use the word" or "read" them "are" a family of
    effects (read by the family's rule: "are replacement effects" of 614.1a is 614), and "effects that say a
    creature can't attack" (read by the clause)."""
    out: list[CardWording] = []
    for sentence in _SENTENCE.split(text.translate(_APOSTROPHES)):
        found = _DEFINES.search(sentence)
        if found and _FAMILY.search(sentence):
            for quote in _QUOTED.findall(sentence[found.start():]):
                if quote[:1].islower() or "[" in quote:  # card text, or a template of it ("As [this permanent] ...")
                    if (w := form_wording(quote, (clause.split(".")[0],))) is not None:
                        out.append(w)
        out.extend(w for m in _SAYS.finditer(sentence) if (w := form_wording(m[1], (clause,))) is not None)
    return list({w.phrase: w for w in out}.values())


# Forms the CR describes in prose without quoting them, each with the clause that says how it is read
# (the clause's own words in the comment): by form, never by card.
PROSE_FORMS: tuple[tuple[str, str, str], ...] = (
    # 602.5 "A player can't begin to activate an ability that's prohibited from being activated."
    ("can't be activated", r"can't be activated|can't activate", "602.5"),
    # 101.2 "... another effect states that it can't happen, the “can't” effect takes precedence."
    ("players can't", r"(?:you|players?|opponents?|each opponent|that player) can't", "101.2"),
    # 613.1f "Layer 6: ... ability-removing effects ..."
    ("lose all abilities", r"loses? all abilities", "613.1f"),
    # 613.4b "Effects that refer to the base power and/or toughness of a creature apply in this layer."
    ("base power and toughness", r"base power and (?:base )?toughness", "613.4b"),
    # 305.7 "If an effect sets a land's subtype to one or more of the basic land types ..."
    ("lands are a basic land type",
     r"lands? (?:is|are) (?:plains|islands?|swamps?|mountains?|forests?)|becomes? an? (?:plains|island|swamp|mountain|forest)",
     "305.7"),
)


def prose_forms() -> list[CardWording]:
    """`PROSE_FORMS` as card wordings."""
    return [CardWording(phrase, (rule,), re.compile(rf"(?<![\w'])(?:{pattern})(?![\w'])"))
            for phrase, pattern, rule in PROSE_FORMS]


def form_tokens(rules: Iterable[tuple[str, str]]) -> list[str]:
    """`wording_rules` of the forms as marked tokens ("&508.1c=can't_attack"); `card_rules(..., FORM_MARK)`
    reads them back."""
    return [f"{FORM_MARK}{rule}={'_'.join(phrase.split())}" for rule, phrase in rules]


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """What the ranker adds to a question's own words."""

    implied: str = ""  # rules words of the concepts the named cards imply ("" when none): for BM25
    gist: str = ""  # their gists: for the dense query
    concepts: tuple[str, ...] = ()
    # The CR's clauses are scored lexically as fully as the rulings (their BM25 is not discounted):
    # the implied words are the CR's. Their fused score keeps its discount, for the question does
    # not ask for a rule itself and a ruling that says the same is the better answer.
    wants_rule: bool = False


def plan(concepts_by_card: Mapping[str, Sequence[str]], cards_with_rulings: Iterable[str] = (),
         rules_words: Iterable[str] = ()) -> QueryPlan:
    """The plan of a question from the concept ids of each card it names (`split_concepts` of its
    stored tokens), which of those cards have rulings in the KB, and the one-word rules terms.

    A card with rulings is asked about through them for what many cards do (a death trigger, a
    cost reduction: its rulings say how it meets face-down objects); only its `specific` concepts,
    rare face-down effects, are added. A card without rulings brings in all its concepts, standing
    in for the rulings it lacks, and its question wants the rule that decides it
    (`QueryPlan.wants_rule`). A card named like a rules term (Conspiracy, Clone, Morph) is more often
    the term than the card, and brings in nothing."""
    with_rulings = set(cards_with_rulings)
    words = set(rules_words)
    ids: list[str] = []
    bare = False
    for card, concepts in concepts_by_card.items():
        if card.casefold() in words:
            continue
        known = [c for c in concepts if c in _BY_ID]
        if card in with_rulings:
            known = [c for c in known if _BY_ID[c].specific]
        else:
            bare = bare or bool(known)
        ids.extend(c for c in known if c not in ids)
    if not ids:
        return QueryPlan()
    return QueryPlan(" ".join(_BY_ID[c].rules for c in ids), "; ".join(_BY_ID[c].gist for c in ids),
                     tuple(ids), bare)


# ----------------------------------------------------------------- turning face up against another act
# "Does turning it face up count as casting a creature spell?", "does that count as another creature entering?",
# "I turned it face up after it attacked: does its attack trigger?": a question that holds turning a face-down
# permanent face up beside another act asks whether the one is the other, and the clause that decides says what
# turning face up is (a special action, no spell cast: 116.2b; the permanent already on the battlefield: 708.8) or
# when the other act's trigger looks (as attackers are declared, not when characteristics change later: 508.2a).
# The question's own words are the other act's (cast, enters, attacks), which the rulings about casting face down,
# entering face down or attacking with a face-down creature share: the deciding clause holds few of them. So such a
# question is expanded, as a card's Oracle concept expands it, with the words of the clause that decides.
TURN_FACE_UP = "~turn_face_up"


@dataclass(frozen=True, slots=True)
class ActClaim:
    """Turning face up read against another act (`acts`: glossary concept tokens, one of which the question holds)
    and the rules words (`rules`, `gist`) of what decides whether it is that act."""

    id: str
    acts: frozenset[str]
    # the concepts one of which the asking sentences must hold: an act told in the story ("I cast Break Open on it
    # to flip it", "tapped from attacking") is the setting unless the asking part asks about it (for entering, "it
    # was already on the battlefield. Is he right?" does; for an attack, only whether something triggers)
    asks: frozenset[str]
    gist: str
    rules: str
    clauses: tuple[str, ...]  # the clauses the words are of (documentation; `lift`)
    # the clauses are the case the question states, whichever way it asks (`Weights.meeting_rule` lifts their fused
    # score): true of a face-down creature mutated onto (729.2e-f is merging's one face-down case), not of a copy
    # question, which may be of either direction (a face-down permanent becoming a copy, 708.10, or another object
    # becoming a copy of a face-down creature, answered by 708.2's copiable values and its rulings)
    lift: bool = False
    # concepts beside which the meeting's concept is another rule's: a copied triggered ability ("he copied its leaves
    # trigger": 707.10) is no permanent becoming a copy
    unless: frozenset[str] = frozenset()
    # a meeting's second rule said in words no concept holds (a colour, "for free"): each a set of English stems, as
    # `tokenize` reads them, the question's tokens (and a German or Spanish question's translations') all hold
    said: tuple[frozenset[str], ...] = ()
    # concepts one of which the question must hold besides `acts` or `said` (what it asks of the meeting)
    also: frozenset[str] = frozenset()
    # ... and words (sets of English, German or Spanish stems, as `said`) one of which it must say, or must not say
    also_said: tuple[frozenset[str], ...] = ()
    unless_said: tuple[frozenset[str], ...] = ()


# the colour words a face-down object's colour question says (English stems as `tokenize` reads them, and the German
# and Spanish words no translation reaches)
_COLOUR_WORDS = tuple(frozenset({w}) for w in ("white", "whit", "blue", "black", "red", "green", "gree", "nonwhit",
                                                "nonblue", "nonblack", "nonred", "nongreen", "blau", "schwarz", "rot",
                                                "rote", "grun", "negr", "azul", "roja", "rojo", "verd"))
# the words a question puts a face-down spell on the stack with (stems)
_STACK_WORDS = (frozenset({"stack"}), frozenset({"stapel"}), frozenset({"pila"}))


ACT_CLAIMS: tuple[ActClaim, ...] = (
    ActClaim(
        "cast", frozenset({"~cast", "~counter_spell"}), frozenset({"~cast", "~counter_spell", "~spell"}),
        "turning a face-down creature face up is a special action, not casting a spell",
        "turning a face-down creature face up is a special action; it doesn't use the stack, is not a spell and "
        "can't be responded to",
        ("116.2b", "702.37e", "701.40b", "702.168d")),
    ActClaim(
        "enters", frozenset({"~enters_the_battlefield"}), frozenset({"~enters_the_battlefield", "~trigger", "~battlefield"}),
        "turning a permanent face up doesn't make it enter the battlefield",
        "the permanent is on the battlefield both before and after it's turned face up: abilities relating to "
        "the permanent entering the battlefield don't trigger, because it has already entered the battlefield",
        ("708.8", "702.37e")),
    ActClaim(
        "attacks", frozenset({"~attack"}), frozenset({"~trigger"}),
        "abilities that trigger on attacking trigger only as attackers are declared",
        "abilities that trigger on a creature attacking trigger only at the point the creature is declared as an "
        "attacker; they will not trigger if a creature attacks and then its characteristics change; a permanent "
        "that turns face up changes characteristics",
        ("508.2a", "508.3a", "708.8")),
)


def act_claims(concepts: Iterable[str], asking: Iterable[str]) -> tuple[ActClaim, ...]:
    """The claims (`ACT_CLAIMS`) a question makes of turning face up: its concept tokens (`concepts`, the whole
    question's; `asking`, its asking sentences') hold turning face up and the claim's act."""
    found, asked = set(concepts), set(asking)
    if TURN_FACE_UP not in found:
        return ()
    return tuple(c for c in ACT_CLAIMS if c.acts & found and c.asks & asked)


# ----------------------------------------------------------------- a face-down object meeting another rule
# "My face-down morph became a copy of a Dragon: is it a Dragon now?", "I mutate onto my face-down creature: is it face
# up?": a question about a face-down object that holds a second rule's concept asks how the two meet, and the CR
# states the case in a clause of its own (708.10, 729.2e) whose words are the second rule's and the face-down
# object's at once. The question's words are the second rule's (copy, mutate), which the rulings of the other case
# share (an object becoming a copy *of* a face-down creature), and every clause's score is discounted, so a ruling
# about another case came first (tryout 53 D3). Such a question is expanded, as a claim of `ACT_CLAIMS` is, with the
# words of the clause that states the case. Read from the whole question (the copy effect is told in the story:
# "my morph became a copy ... what is it now?"), unlike an act claim.
FACE_DOWN_MEETINGS: tuple[ActClaim, ...] = (
    ActClaim(
        "copy", frozenset({"~copy"}), frozenset({"~copy"}),
        "a face-down permanent that becomes a copy of another permanent keeps its face-down characteristics",
        "if a face-down permanent becomes a copy of another permanent, its copiable values become the copiable values "
        "of that permanent, as modified by its face-down status; its characteristics therefore remain the same; if it "
        "is turned face up, its copiable values become the values it copied",
        ("708.10",), unless=frozenset({"~trigger"})),
    ActClaim(
        "mutate", frozenset({"~mutate"}), frozenset({"~mutate"}),
        "a merged permanent's face-up or face-down status is determined by its topmost component",
        "a merged permanent that contains face-up and face-down components: the permanent's status is determined by "
        "its topmost component; a face-down permanent that becomes face up as a result of an object merging with it "
        "isn't turned face up",
        ("729.2e", "729.2f"), lift=True),
    # A face-down object and the words players say for what the rulings state in the face-down object's words
    # (tryout 54 D2): "Doom Blade says nonblack: the card is black", "Schutz vor Blau, die Karte ist blau", a mana
    # value asked of a face-down creature; a face-down permanent "returned to my hand" or a countered face-down spell,
    # "do I have to show it?"; a morph card cast "for free" / "without paying its mana cost". The rulings say
    # "colorless", "you must reveal it", "an alternative cost ... including casting it face down".
    ActClaim(
        "colour", frozenset({"~colorless", "~mana_value"}), frozenset(),
        "a face-down permanent is colorless and has a mana value of 0, whatever the card's color",
        "the face-down permanent is a 2/2 creature with no name, mana cost, creature types, or abilities; it's "
        "colorless and has a mana value of 0",
        # turning it face up, the colour asked is the face-up card's ("devotion to white" to turn Heliod up, an Aura
        # for colorless creatures on a morph turned up green: real-en-27 1 -> 6, fm-es-06 4 -> out without it)
        # ... and a face-down spell's are its own ruling's words (`colour_spell`, below)
        ("708.2a",), unless=frozenset({"~turn_face_up"}), said=_COLOUR_WORDS, unless_said=_STACK_WORDS),
    # ... of a face-down spell on the stack ("the mana value of my face-down spell on the stack", "der Zauberspruch
    # auf dem Stapel"): the permanent's words above ranked the permanent's ruling over the spell's (search59's test
    # run: four such questions lost their first place; the lead's dev questions fs-*-07 were written before this
    # was tried). The stack, not the word "spell": "I cast a spell that destroys target nonblack creature at his
    # face-down creature" asks of the permanent (f4-es-02 lost its first place when `~spell` decided)
    ActClaim(
        "colour_spell", frozenset({"~colorless", "~mana_value"}), frozenset(),
        "a face-down spell is colorless and has no mana cost and a mana value of 0",
        "the face-down spell has no mana cost and a mana value of 0; both the spell and the resulting creature are "
        "colorless and have a mana value of 0",
        ("708.4",), unless=frozenset({"~turn_face_up"}), said=_COLOUR_WORDS, also_said=_STACK_WORDS),
    ActClaim(
        "revealed", frozenset({"~leaves_the_battlefield", "~counter_spell"}), frozenset(),
        "a face-down permanent or spell that leaves the battlefield or the stack is revealed",
        "if a face-down permanent leaves the battlefield, you must reveal it; if a face-down spell leaves the stack "
        "and goes to any zone other than the battlefield (if it was countered), you must reveal it",
        ("708.9",), also=frozenset({"~reveal", "~look_at"})),
    ActClaim(
        "free", frozenset(), frozenset(),
        "casting a card without paying its mana cost is an alternative cost: it can't be cast face down using morph",
        "because you're already casting the card using an alternative cost (by casting it without paying its mana "
        "cost), you can't pay any other alternative costs for the card, including casting it face down using the "
        "morph ability; only one alternative cost can be applied to any one spell",
        ("118.9a",), also=frozenset({"~cast"}),
        said=(frozenset({"free"}), frozenset({"grati"}), frozenset({"umsonst"}), frozenset({"kostenl"}),
              frozenset({"without", "paying"}))),
)


def face_down_meetings(concepts: Iterable[str], tokens: Iterable[str] = ()) -> tuple[ActClaim, ...]:
    """The meetings (`FACE_DOWN_MEETINGS`) of a face-down question whose concept tokens are `concepts` and whose
    English stems are `tokens`: those whose second rule it holds (a concept of it, or words it is `said` in), with one
    of its `also` concepts where it names them."""
    found, words = set(concepts), set(tokens)
    if not about_face_down(found):
        return ()
    return tuple(c for c in FACE_DOWN_MEETINGS
                 if (c.acts & found or any(s <= words for s in c.said)) and not c.unless & found
                 and (not c.also or c.also & found)
                 and (not c.also_said or any(s <= words for s in c.also_said))
                 and not any(s <= words for s in c.unless_said))


def with_claims(plan: QueryPlan, claims: Sequence[ActClaim]) -> QueryPlan:
    """`plan` with the rules words and gists of `claims` added; the CR's clauses are scored lexically as fully as
    the rulings (`QueryPlan.wants_rule`): the words are the CR's."""
    if not claims:
        return plan
    implied = " ".join(filter(None, [plan.implied, *(c.rules for c in claims)]))
    gist = "; ".join(filter(None, [plan.gist, *(c.gist for c in claims)]))
    return QueryPlan(implied, gist, plan.concepts, True)


# ----------------------------------------------------------------- the subject of the concepts
# The concepts above are the face-down rules a card's text meets. A question that says nothing of
# face-down objects ("Phyrexian Metamorph copies Spine of Ish Sah and dies - will I get the Metamorph
# back?") asks about another rule: the cards' face-down concepts (708.10 copies of face-down
# permanents, 708.9 revealing one that leaves) would only pull the wrong clauses up.
FACE_DOWN_TERMS = frozenset({"face_down", "turn_face_up", "manifest", "manifest_dread", "morph", "megamorph",
                             "disguise", "cloak"})  # glossary concept ids (corpus/glossary.yaml)


def about_face_down(concepts: Iterable[str]) -> bool:
    """Whether a question whose glossary concept tokens (`~face_down`, ...) are `concepts` speaks of
    face-down play."""
    return any(c.lstrip("~") in FACE_DOWN_TERMS for c in concepts)


def off_subject(plan: QueryPlan) -> QueryPlan:
    """The plan of a question that does not speak of face-down play: none of the face-down concepts;
    what it asks is not what those concepts add."""
    return QueryPlan(wants_rule=plan.wants_rule)


# ----------------------------------------------------------------- CR terms the rulings never use
# Players name game terms the rulings do not use ("Does morphing give summoning sickness?"): the
# rulings speak of face-down objects, and only the CR's glossary knows the term and which rule it
# is ("Summoning Sickness Rule: ... See rule 302.6"). A question that names such a term asks about
# that rule. A term the rulings use often (face down, morph, special action) decides nothing here:
# the rulings already meet the question's words.
GLOSSARY = "glossary:"
RARE_IN_RULINGS = 2  # a term is the CR's alone when each of its words is in at most this many rulings
# A keyword's name is the CR's word for it whether or not the rulings use it: a keyword is the CR's alone
# when at most this many rulings say it (two rulings say "cloak", and they answer cloak questions; the
# one ruling that says "ward" gives a disguised creature's characteristics, not what ward does). The
# cards whose Oracle text has it do not make it the rulings': the hideaway lands' rulings say "the
# exiled card", never "hideaway", and a question naming hideaway got the rulings that share its other
# words (look, face down) while 702.75a stayed discounted (try-out 28). Dev (search40): top-1 2 won
# (story-de-12 3 -> 1, real-es-07 2 -> 1), none lost; real-en-145 (ward) 10 -> 6.
KEYWORD_IN_RULINGS = 1
# One-word terms ("response", "graveyard") are everyday words of questions about any rule.
MIN_TERM_WORDS = 2
_SEE_RULE = re.compile(r"\brules?\s+(\d{3}(?:\.\d+[a-z]?)?)")
_TERM_TAIL = {"rule", "rules"}


def glossary_term(clause: str, tokenize: Callable[[str], list[str]]) -> tuple[str, ...]:
    """The words of the term a CR glossary entry defines (its clause id `glossary:Term`), without a
    closing "Rule" ("Summoning Sickness Rule" is asked about as "summoning sickness"); () for a
    clause that is not a glossary entry."""
    if not clause.startswith(GLOSSARY):
        return ()
    words = tokenize(clause[len(GLOSSARY):])
    while len(words) > 1 and words[-1] in _TERM_TAIL:
        words = words[:-1]
    return tuple(words)


def names_term(question: Sequence[str], term: Sequence[str]) -> bool:
    """Whether the token list `question` holds the term's tokens in a row."""
    n = len(term)
    return n > 0 and any(tuple(question[i:i + n]) == tuple(term) for i in range(len(question) - n + 1))


def says_term(question: Sequence[str], written: Sequence[str | None], term: Sequence[str],
              term_written: Sequence[str]) -> bool:
    """Whether the token list `question` holds the term's tokens in a row (`names_term`) where each of the words
    the question wrote there (`written`, beside its tokens; None for a token no word was written for, a
    translation's) is a form of the term's word (`term_written`, `same_word`): "count" shares the stem of
    "Counter", "planeswalker" that of "Planeswalk", and neither names it."""
    n = len(term)
    return n > 0 and any(tuple(question[i:i + n]) == tuple(term)
                         and all(w is None or same_word(w, t) for w, t in zip(written[i:i + n], term_written))
                         for i in range(len(question) - n + 1))


# The endings a word takes as a form of the same word (English inflections, the stemmer's German and Spanish
# ones), not "er": the stemmer strips it (counter -> count) and it makes another word (planeswalk -> planeswalker)
_FORM_ENDINGS = frozenset({"", "s", "es", "d", "ed", "ing", "n", "en", "e"})
MIN_BASE = 3  # a shorter base ("ta" of "tas") would make two words one


def same_word(a: str, b: str) -> bool:
    """Whether two folded words (that stem alike) are forms of one word: one is the other with an inflection
    ending (shuffle / shuffled, tap / tapped, Aura / Auren), or both are a base with one (flips / flipped,
    attacks / attacking: review49 L1), not a word made from it (count / counter)."""
    return _inflects(a, b) or _inflects(b, a) or any(
        _inflects(a, base) and _inflects(b, base) for base in _bases(a) | _bases(b) if len(base) >= MIN_BASE)


def _bases(word: str) -> set[str]:
    """`word` less each inflection ending it may have (flips: flip; tapped: tapp, tappe)."""
    return {word[:len(word) - len(e)] for e in _FORM_ENDINGS if e and word.endswith(e)}


def _inflects(word: str, base: str) -> bool:
    roots = {base, base[:-1]} if len(base) > 1 and base[-1] in "aeo" else {base}
    for root in roots:
        if root and word.startswith(root):
            rest = word[len(root):]
            if rest in _FORM_ENDINGS or (rest[:1] == root[-1] and rest[1:] in ("ed", "ing")):  # tap -> tapped
                return True
    return False


def referenced_rules(text: str) -> list[str]:
    """The clauses a glossary text refers to ("See rule 302.6" -> ["302.6"])."""
    return list(dict.fromkeys(_SEE_RULE.findall(text)))


# a keyword action's (701.N) or ability's (702.N) rule, or a casual variant's (9NN: "Commander: 1. A casual
# variant ... See rule 903"): a term the CR names one rule after, whose clauses answer what is asked about it
_KEYWORD_RULE = re.compile(r"^(?:70[12]\.\d+|9\d\d)$")


def keyword_rules(text: str) -> list[str]:
    """The keyword (or casual variant) rules a glossary text refers to ("Foretell: A keyword ability ...
    See rule 702.143" -> ["702.143"], "Commander: 1. A casual variant ... See rule 903" -> ["903"]); []
    for a term that is no keyword's or variant's."""
    return [r for r in referenced_rules(text) if _KEYWORD_RULE.match(r)]


_SEE_TERM = re.compile(r"^[^:]*:\s*See ([^.]+)\.\s*$")


def see_term(text: str) -> str:
    """The term a glossary entry that only refers to another names ("Swampwalk: See Landwalk." ->
    "Landwalk"); "" for any other entry."""
    m = _SEE_TERM.match(text.strip())
    return m[1].strip() if m else ""


# ----------------------------------------------------------------- what a question does to the keyword's object
# A keyword's subclauses each say what it does against one act: protection against targeting (702.16b),
# blocking (702.16f), damage (702.16e), being enchanted or equipped (702.16c, d); hexproof against targeting
# (702.11b). A question about the keyword asks about the act it names ("Can I target ...", "can it block ..."),
# and casting a spell at an object ("Can I Lightning Bolt a creature with protection from red?", "lanzar ... a
# una criatura") is targeting it: most spells cast at an object target it.
# Whether a spell cast at an object targets it is the spell's to say: Lightning Bolt's Oracle text says "target",
# Pyroclasm's ("deals 2 damage to each creature") and Wrath of God's do not, and protection from red does not stop
# Pyroclasm for being targeted (702.16b) but for its damage (702.16e). So the named instant or sorcery's text
# decides (`TARGETS`, stored with its rules tokens), and only a question naming none is read by its casting words.
ACTS = frozenset({"~target", "~block", "~attack", "~damage", "~aura", "~equipment"})
CASTING = frozenset({"~cast"})
TARGET = "~target"
SPELL_TYPES = frozenset({"instant", "sorcery"})
# among a card's rules tokens (no word token starts with "!"): the card is an instant or sorcery (`SPELL`), and its
# Oracle text, reminder text left out, says "target" (`TARGETS`)
SPELL_MARK = "!"
SPELL = SPELL_MARK + "spell"
TARGETS = SPELL_MARK + "target"
_TARGET_WORD = re.compile(r"\btargets?\b", re.IGNORECASE)


def spell_tokens(card_types: Iterable[str], oracle_text: str) -> list[str]:
    """[`SPELL`] for an instant or sorcery (its type line's tokens `card_types`), with `TARGETS` when its Oracle
    text says "target" outside reminder text; [] for any other card."""
    if not SPELL_TYPES & set(card_types):
        return []
    return [SPELL, TARGETS] if _TARGET_WORD.search(_REMINDER.sub(" ", oracle_text)) else [SPELL]


# ----------------------------------------------------------------- what a face-down card is
# The face-down rules turn on what kind of card is face down: a manifested or cloaked permanent is turned face up
# only if its card is a creature card (701.40b); one represented by an instant or sorcery card stays face down
# (701.40g); a double-faced card can't transform while face down (712.15a). A question that names the face-down
# card ("I manifested Lightning Bolt", "Can I manifest Fire // Ice?", "Ich habe einen Jagdmeister vom Kahlenberg
# manifestiert") says its kind only through the card, as "I manifested an instant" says it in words (smoke53 L2).
# A creature card is the ordinary case, and names no kind worth reading; its other types do not change it (a land
# creature is turned face up as a creature card).
CARD_KINDS = ("instant", "sorcery", "land", "artifact", "enchantment", "planeswalker", "battle")
# The face-down mechanics that put a card of any kind face down (glossary concept ids): a card a morph or disguise
# question names beside the face-down creature is another card ("took 1 damage from a Shock", "sie hat
# Lebensverknüpfung"), not what the face-down card is (dev, search57: read for every face-down question, fresh4's
# f4-en-01 and f4-de-07 lost places to the instant and Aura rulings).
ANY_KIND_FACE_DOWN = frozenset({"manifest", "manifest_dread", "cloak"})
DOUBLE_FACED = "double-faced card"  # the words the CR and the rulings call such a card by
DOUBLE_FACED_LAYOUTS = frozenset({"double-faced", "transform", "modal_dfc"})


def puts_any_kind_face_down(concepts: Iterable[str]) -> bool:
    """Whether a question whose glossary concept tokens are `concepts` speaks of a mechanic that puts a card of any
    kind face down (`ANY_KIND_FACE_DOWN`: manifesting, cloaking)."""
    return any(c.lstrip("~") in ANY_KIND_FACE_DOWN for c in concepts)


def card_kind_words(type_line: str, layout: str) -> list[str]:
    """The words that say what kind of card a card is, as a face-down rule reads it: its card types of
    `CARD_KINDS` (from `type_line`, the part before the dash) unless it is a creature card, and `DOUBLE_FACED` for a
    double-faced `layout`. A split card's halves are read each by its own type line."""
    types = {w.strip(".,").lower() for w in type_line.split("\u2014")[0].split()}
    words = [] if "creature" in types else [t for t in CARD_KINDS if t in types]
    return words + ([DOUBLE_FACED] if layout in DOUBLE_FACED_LAYOUTS else [])


def spell_targets(tokens_by_card: Iterable[Sequence[str]]) -> bool | None:
    """Whether the named instants and sorceries (each card's stored rules tokens) target: True when one of them
    says "target", False when none does, None when no named card is an instant or sorcery."""
    spells = [toks for toks in tokens_by_card if SPELL in toks]
    return any(TARGETS in toks for toks in spells) if spells else None


def asked_acts(concepts: Iterable[str], spell_targets: bool | None) -> frozenset[str]:
    """The acts (`ACTS`) among a question's concept tokens, and targeting when the question casts a spell that
    targets: a named instant or sorcery that says "target" (`spell_targets` True; False: the named spells
    target nothing), or, naming none (None), when it says it casts a spell (`CASTING`): most spells cast at an
    object target it."""
    found = set(concepts)
    acts = found & ACTS
    if spell_targets or (spell_targets is None and found & CASTING):
        acts |= {TARGET}
    return frozenset(acts)


def act_match(clause_concepts: Iterable[str], asked: frozenset[str]) -> float:
    """How nearly a clause's acts are the ones asked: |shared| / |either| (0 when it holds none asked)."""
    acts = set(clause_concepts) & ACTS
    either = acts | asked
    return len(acts & asked) / len(either) if either else 0.0


# ----------------------------------------------------------------- rules the question cites
# "the rule 707.9 instructs players to reveal ...", "CR 707.8 Question": the asker names the rule,
# often by the number of the CR they learnt (707 was face-down objects until 2024, 708 now).
_CITED = re.compile(r"(?<![\d.])(\d{3}\.\d{1,3}[a-z]?)(?![\d])")


def cited_clauses(text: str) -> list[str]:
    """The CR clause numbers `text` cites ("707.9", "702.37c"), in order, once each."""
    return list(dict.fromkeys(_CITED.findall(text)))
