"""Link entries to the Comprehensive Rules clauses they interpret.

A rule entry links to its own clause. A ruling is scored against every clause of the current CR by
BM25 over the clause texts, by the rare words and word n-grams it shares with a clause, by keyword cues
(phrases that judges associate with a clause: "tapped or untapped" -> 110.5) and by the CR glossary
terms it says ("pile" -> 700.3; "state-based actions" -> the clause of 704 its words choose). The reviewed override
file `corpus/links-overrides.yaml` then corrects individual rulings, found by a quote of their text.
Each link carries the number the clause had in the CR in force on the ruling's first date.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Mapping, Sequence

import numpy as np

from kb.search.bm25 import BM25Matrix
from kb.cr import RulesCorpus, RulesVersion, depth_of, is_title
from kb.cr.numbers import is_under
from kb.normalize import RULE_STOPWORDS, normalize_text, rule_stem, sentences, rule_tokens, tokenize
from kb.errors import InputError
from kb.model import Entry, Kind, Lang, RuleLink
from kb.oracle import Oracle

if TYPE_CHECKING:
    from kb.concepts import ConceptFinder
    from kb.search.glossary import Glossary

MAX_LINKS = 5
KEEP_RATIO = 0.45  # links scoring under this share of the best one are dropped



# --------------------------------------------------------------------------------------------
# Cues: phrases that point at a clause whatever else the ruling says. English, German and Spanish.


@dataclass(frozen=True, slots=True)
class Cue:
    pattern: re.Pattern[str]
    clauses: tuple[str, ...]  # best first
    label: str
    weight: float = 0.7  # topical cues ("manifest") weigh less than pointed ones ("look at")
    # mechanic name -> its own clause for what the cue says (turning face up: 702.37e for morph,
    # 701.40b for manifest); used first when the ruling is about that mechanic
    slot: tuple[tuple[str, str], ...] = ()
    face_down_only: bool = False  # "look at", "enters the battlefield": face-down rules only for face-down rulings
    needs: frozenset[str] = frozenset()  # 5- or 4-letter word prefixes the text must have (a cheap test before the regex)
    # (first, then) pairs equivalent to `pattern` = "first.*then|...": see `_ordered`
    ordered: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = ()
    # `clauses` are rules or sections whose clauses are a family the ruling's words choose among
    # (`_Index.best_of`): "double-faced" -> 712.15 or 712.15a or 712.16, "state-based actions" -> 704.x
    family: bool = False
    named_only: bool = False  # `slot` applies when the ruling's words name the mechanic, not only its cards
    turn_part: bool = False  # a glossary step or phase ("end step"): see `_AS_TIME`

    def found_in(self, text: str) -> bool:
        if not self.ordered:
            return self.pattern.search(text) is not None
        # `.` stops at a newline, so "first.*then" holds within one line: some `then` match starts
        # at or after the end of the earliest `first` match (each `first` here matches one word
        # form, so its leftmost match also ends first).
        return any((m := first.search(line)) is not None and then.search(line, m.end()) is not None
                   for line in text.split("\n") for first, then in self.ordered)


_CARD_NAME = "CARDNAME"  # no word of the CR: neither BM25 nor a cue reads it, a cue's "[A-Z]" (a name) still does
# what resolves: "the ability", "that spell", or the spell by its card's name ("as Kin-Tree Invocation resolves": the name
# is masked, `mask_card_names`)
_RESOLVER = r"(?:that |the |this |its )?(?:[\w',-]+ ){0,4}?(?:ability|spell|it|" + _CARD_NAME + ")"


def _cue(pattern: str, clauses: str, label: str | None = None, weight: float = 0.7, slot: str = "",
         family: bool = False, named_only: bool = False) -> Cue:
    pairs = tuple(tuple(p.split("=")) for p in slot.split(";") if p)
    return Cue(re.compile(pattern, re.I), tuple(clauses.split()), label or pattern, weight, family=family,
               named_only=named_only,
               slot=tuple((m.replace("_", " "), c) for m, c in pairs),
               face_down_only=any(c.startswith(("708", "701.40", "701.58", "702.37", "702.168", "712.1"))
                                  for c in clauses.split()))


# The clause of each face-down mechanic for one thing rulings say about all of them.
_TURN_UP = ("morph=702.37e;megamorph=702.37b;disguise=702.168d;manifest=701.40b;manifest_dread=701.40b;cloak=701.58b;"
            "hidden_agenda=702.106c")
_FACE_DOWN_CHARS = "morph=702.37c;megamorph=702.37b;disguise=702.168b;manifest=701.40a;manifest_dread=701.40a;cloak=701.58a"


def _ordered(pairs: Sequence[tuple[str, str]], clauses: str, label: str, slot: str = "", weight: float = 0.7) -> Cue:
    """A cue "a.*b|c.*d" tested pair by pair: the regex backtracks over the whole text for each `a`
    (seconds on an entry with hundreds of variants), the pairs cost two linear searches."""
    pattern = "|".join(f"{a}.*{b}" for a, b in pairs)
    return dataclasses.replace(_cue(pattern, clauses, label, weight, slot=slot),
                               ordered=tuple((re.compile(a, re.I), re.compile(b, re.I)) for a, b in pairs))


_NOT_REQUIRED_TO_PAY = (r"\b(?:(?:isn't|is not|aren't|are not|not|never) (?:required|forced|obligated) to"
                        r"|(?:doesn't|don't|does not|do not|won't|will not) (?:have|need) to) pay\b")

# why an ability that could add mana isn't a mana ability (605.5a): a target, or a trigger, "even though it adds mana"
_NOT_MANA_ABILITY = r"\b(?:isn't|aren't|is not|are not|it's not) (?:a |an )?mana abilit(?:y|ies)\b"
_NOT_MANA_REASON = (r"[^.]*\b(?:even (?:though|if)|although|though|targets?|adds?|produces?|could (?:add|produce)|"
                    r"triggers?|triggered)\b")

_TURNED_FACE_UP = r"\bturn(?:s|ed|ing)? (?:\w+ ){0,3}face up\b"
_NEVER_UNBLOCKED = (r"\b(?:won't|doesn't|don't|can't|will not|does not|isn't|is not)\b[^.]*"
                    r"\b(?:becomes?|make|makes|cause \w+ to become) (?:\w+ ){0,2}?unblocked\b")
_STAYS_BLOCKED = r"\b(?:remains?|stays?|still be|continues? to be|is still) blocked\b|" + _NEVER_UNBLOCKED
_KEEPS_COMBAT_STATUS = (r"\b(?:remains?|stays?|still be|continues? to be|is still) (?:blocked|blocking|attacking)\b|"
                        + _NEVER_UNBLOCKED)

CUES: tuple[Cue, ...] = (
    _cue(r"special action", "116.2b 708.7", "special action", slot=_TURN_UP),
    # "a manifested creature may be turned face up": the mechanic's own way to turn it up, when the words name it
    # (a card's ruling about its ability that triggers when it is turned face up is not about morph's 702.37e)
    _cue(_TURNED_FACE_UP, "", "turned face up", 0.45, slot=_TURN_UP, named_only=True),
    # "If ... it's turned face up, the effect making it a Cyberman ends. It will be whatever is printed on the card":
    # as it's turned face up its face-down characteristics end, its copiable values revert (708.8; a named
    # mechanic's own clause says so of it: 702.37e, 701.58b ...)
    dataclasses.replace(_ordered([(_TURNED_FACE_UP,
                                   r"\beffect\b[^.]*\bends\b|\bwhatever is printed\b|\bprinted characteristics\b"
                                   r"|\bnormal (?:copiable values|characteristics)\b"
                                   r"|\b(?:regains?|reverts?|returns?) (?:to )?its (?:normal|printed|own)\b")],
                                 "708.8", "turned face up, its face-down characteristics end", slot=_TURN_UP,
                                 weight=0.8), named_only=True),
    _cue(r"copiable values?|a copy of a face-down", "708.2 708.2a 707.2 708.10", "copiable values"),
    # an object that becomes a copy of another (not of a face-down one: the cue above) gets its copiable values: 707.2
    _cue(r"\b(?:becomes?|became|is|enters as) a copy of (?!a face-down\b)", "707.2", "becomes a copy", 0.6),
    _ordered([(r"\breveal(?:ed|s)?\b", r"\b(?:leaves?|leave the game|game ends)"),
              (r"\b(?:leaves?|leave the game|end of (?:the|each) game)\b", r"\breveal")], "708.9",
             "reveal when it leaves", slot="hidden_agenda=702.106e", weight=0.8),
    # looking at a face-down exiled (imprinted) card is 406.3's (the next cues), not 708.5's (spells and
    # permanents); a face-down conspiracy's is 315.7; looking at a hand or a graveyard is no face-down rule's
    _cue(r"^(?!.*\b(?:exiled?|imprint(?:s|ed)?|hands?|graveyards?)\b).*\blook(?:s|ed|ing)? at\b", "708.5", "look at",
         slot="hidden_agenda=315.7"),
    _cue(r"\b(?:look(?:s|ed|ing)? at|see)\b[^.]*\bexiled\b|\bexiled\b[^.]*\b(?:look(?:s|ed|ing)? at|see)\b", "406.3",
         "look at exiled cards", 0.9),
    # what enters must be the face-down object: "another [card] enters the battlefield" in a face-down ruling is not
    _cue(r"(?:enters-the-battlefield abilit|enters the battlefield)[^.]*(?:face[- ](?:up|down)|manifest|\bmorph|cloak)"
         r"|(?:face[- ](?:up|down)|manifest|\bmorph|cloak)[^.]*(?:enters-the-battlefield abilit|enters the battlefield)",
         "708.8 708.3", "enters-the-battlefield"),
    # put onto the battlefield face down: turned face down before it enters (708.3), not turned face up (708.8)
    _cue(r"\b(?:enters?|entering|put onto|puts? \w+ onto) the battlefield face[- ]down\b|\benters? face[- ]down\b",
         "708.3", "enters the battlefield face down", 0.7,
         slot="manifest=701.40a;manifest_dread=701.62a;cloak=701.58a;disguise=702.168a;morph=702.37c"),
    # a card that can't be countered face up can be cast face down and countered: the face-down spell has only the
    # face-down characteristics (708.4), whatever the mechanic that let it be cast so
    _cue(r"\bcast face[- ]down\b[^.]*\b(?:can|may) (?:still )?be countered\b", "708.4 708.2a",
         "a face-down spell can be countered", 0.8),
    _cue(r"tapped or untapped", "110.5", "tapped or untapped"),
    # general rules card rulings restate (found on the dev misses of links43)
    # a cost reduction of generic mana: "It reduces only the generic component", "can't affect the colored mana"
    _cue(r"\b(?:reduces?|affects?) only the generic (?:mana )?(?:component|part|portion|mana)\b"
         r"|\b(?:can't|doesn't|won't|cannot|does not) (?:affect|reduce) (?:the )?(?:amount of )?colored mana\b",
         "118.7a", "a generic cost reduction can't reduce colored mana", 0.8),
    # a spell with {X} cast without paying its mana cost: "you must choose 0 as the value for X"
    _cue(r"\b(?:must|has to|have to|can only) (?:choose|choosing) (?:0|zero) (?:as the value )?(?:for|of) X\b"
         r"|\bthe only legal (?:choice|value) for X is (?:0|zero)\b", "107.3b", "X must be 0", 0.8),
    # split cards: a half being cast is all the spell is (709.3b); a split card has both names (709.4a)
    _cue(r"\bhalf (?:of (?:a|the|that) split card )?(?:is|was|being) cast\b",
         "709.3b", "a split card's half being cast", 0.9),
    _cue(r"\bnames? (?:as|of) either (?:side|half)\b|\beither (?:side|half)'s name\b|\bsplit card\b[^.]*\bboth names\b",
         "709.4a", "a split card has both names", 0.8),
    # a card cast or played by an effect is still paid for: "You need to pay the costs of any cards you play from
    # exile", "You must pay its costs", "You'll still pay all costs" (601.2h, the total cost 601.2f)
    _cue(r"\b(?:need to|must|have to|has to|(?:you'll |you will |they'll )?still) pay (?:the |its |their |all )?"
         r"(?:mana )?costs\b", "601.2h 601.2f", "a spell cast this way is paid for", 0.7),
    # actions players take at the same time during a draft: a random order (905.2a)
    # ("take turns drafting in a random order" is not that rule)
    _cue(r"\bdraft\w*\b[^.]*\b(?:do so|act|are taken|take (?:those |their |the )?actions?) in (?:a )?random order\b",
         "905.2a", "actions during a draft in a random order", 0.8),
    # "You must name a Magic card. Notably, you can't name a token": the rule for choosing a card name
    _cue(r"\b(?:must|can't|cannot|may not|can only|have to) (?:name|choose the name of) (?:a|an|any) "
         r"(?:Magic |nontoken )?(?:card|token)\b", "201.4", "naming a card", 0.8),
    # "In Limited formats, the minimum deck size is 40": constructed or limited play, the words choose; not said in
    # an aside in parentheses ("A conspiracy doesn't count as a card in your deck ... (In most drafts, the minimum
    # deck size is 40 cards.)": the card type's rule)
    _cue(r"^(?:[^()]|\([^()]*\))*?\bminimum deck size (?:is|of) (?:\w+ )?\d+\b", "100.2", "minimum deck size", 0.7,
         family=True),
    # "You can activate the ability any time you have priority": the rule for when abilities may be activated
    _cue(r"\bactivat\w*\b[^.]*\bany time (?:you|they|he or she|its controller) (?:have|has) priority\b", "117.1b",
         "activate any time you have priority", 0.8),
    _cue(r"double-faced", "712.15 712.16", "double-faced", family=True),
    _cue(r"\b(?:aura|form|enchant\w*)\b.*graveyard.*state-based|state-based.*\b(?:aura|enchant\w*)\b"
         r"|\bauras?\b[^.]*\b(?:can't legally enchant|isn't legally attached|illegally attached)\b[^.]*\bgraveyard",
         "704.5m", "Aura to the graveyard as a state-based action"),
    _cue(r"\bmorph cost", "701.40c 702.37e", "morph cost"),
    _cue(r"turns? a face-down instant or sorcery|instant or sorcery card\b[^.]*\bturns? face up",
         "701.40g", "instant or sorcery face up", slot="manifest=701.40g;cloak=701.58g"),
    _cue(r"one at a time", "701.40e", "one at a time", slot="manifest=701.40e;cloak=701.58e"),
    _cue(r"differentiat|distinguish|mix up|order they entered", "708.6", "keep face-down objects apart"),
    _cue(r"\bno name\b|don't have (?:a )?names?|2/2 creature", "708.2a", "face-down characteristics",
         slot=_FACE_DOWN_CHARS),
    _cue(r"same permanent|continue to enchant|auras and equipment", "708.8", "effects survive turning face up"),
    _cue(r"leave the game", "800.4a", "leaving the game"),
    _cue(r"top card of (?:your|their|that) library revealed", "401.5", "top card revealed"),
    # general rules that card rulings apply
    _cue(r"\bplay(?:s|ed|ing)? (?:a |one |any |that |the |those |an additional |additional |more )?lands?\b|\bland plays?\b",
         "305", "playing a land", family=True),
    _cue(r"\benters?(?: the battlefield)? as (?!a copy\b|though\b|whatever\b)(?:an? )?(?:\d+/\d+|[\w-]+ (?:\w+ )?(?:creature|artifact|land)s?\b)",
         "614.1c 614.12", "enters as (a replacement effect)", 0.9),
    _cue(r"illegal targets?\b[^.]*\bresolve|resolves?\b[^.]*\billegal target"
         r"|\btargets? (?:becomes?|became|is|are|was|were) illegal\b[^.]*\bresolves?"
         # "... as X tries to resolve, both targets are illegal. The spell doesn't resolve" (not said in an aside)
         r"|\b(?:all|both) (?:of )?(?:its |the |their )?targets (?:are|were|have become|become) illegal\b(?![^()]*\))",
         "608.2b", "illegal target on resolution", 0.9),
    _cue(r"(?:isn't|is not|is no longer|aren't) on the battlefield as (?:its|the|that) (?:[\w-]+ )?ability resolves"
         r"|leaves the battlefield before (?:its|the|that) (?:[\w-]+ )?ability resolves|independently of its source",
         "113.7a", "the ability resolves without its source", 0.9),
    _cue(r"\b(?:exiled?|imprinted) (?:\w+ ){0,2}face[- ](?:down|up)|face[- ]down (?:\w+ )?(?:exiled|cards? in exile)", "406.3",
         "exiled face down (or face up)", 0.9),
    # a face-down exiled card chosen at random, revealed once the cost is paid
    _cue(r"face[- ]down exiled cards?\b[^.]*\bat random|\bat random\b[^.]*\bface[- ]down exiled"
         r"|\b(?:isn't|is not|is|are|aren't) revealed (?:only |until )?after (?:the|that|its) cost", "406.4",
         "a face-down exiled card chosen at random", 0.95),
    _cue(r"damage marked|lethal damage", "704.5g 120.6", "lethal damage"),
    _cue(r"\b(?:a|be a|becomes a) (?:new|different) object\b", "400.7", "a new object", 0.8),
    _cue(r"\bintervening\b|\bboth\b[^.]*\band (?:when|as) the (?:triggered )?ability resolves"
         r"|\bcheck(?:s|ed)? again (?:as|when) (?:the|it|that) (?:triggered )?ability resolves",
         "603.4", "condition checked on triggering and resolving", 0.9),
    # "cards you own exiled by both of its abilities": words may come between the cards and "exiled"
    _cue(r"\bcards? (?:\w+ ){0,3}?exiled (?:with|by) (?:that|the|this|it|its|both|[A-Z])", "607.2a 406.6",
         "cards exiled with it (linked abilities)"),
    _cue(r"(?:continue to be|continues to be|remains?|still be) attacking", "506.4a", "still attacking", 0.9),
    # a resolved effect's set of objects is fixed when it begins (611.2c): creatures that come under your control later,
    # or objects told apart by what they are as it resolves ("creatures that are attacking as it resolves", "creatures
    # that enter after it resolves": links49): a state or an entering, never a target ("the creature that was targeted
    # is an illegal target when the ability resolves" is 608.2b's: review49 M1)
    _cue(r"creatures that come under your control later|\blocked in\b|set of (?:objects|creatures) it affects"
         r"|\b(?:creatures?|permanents?|objects?)\b[^.]{0,60}?\b(?:that|which) "
         r"(?:are|were|become|became|enter|enters|entered|come|comes|came)\b(?![^.]{0,60}?\btarget)[^.]{0,60}?\b"
         r"(?:as|after|when|before|once) " + _RESOLVER + r" (?:resolves|resolved|has resolved)\b",
         "611.2c", "continuous effect locked in"),
    # ... a permanent spell's copy becomes a token as it resolves: 707.10f's own claim, which this cue mustn't outrank
    # (review51 M2)
    _cue(r"\b(?<!creature )(?<!artifact )(?<!enchantment )(?<!planeswalker )(?<!battle )(?<!permanent )"
         r"spells? (?:is |are |was |were |gets? )?(?:being |that was |that's )?copied\b"
         r"|\bcop(?:y|ies|ied|ying) (?:of )?(?:a|an|the|that|this|each|target) (?:[\w-]+ ){0,3}?spell\b",
         "707.10 707.2", "copying a spell (its choices and X are copied)", 0.9),
    _cue(r"\b(?:is|was|are|were|it's|that's) (?:already |still )?copying (?:something|another|an? )"
         r"|\bcop(?:y|ies) whatever\b|\bcopy of a copy\b",
         "707.3 707.2", "copying an object that is copying something", 0.9),
    # "... turning it face up won't cause it to become unblocked": its blocked status holds whatever changes (509.1h)
    _cue(_STAYS_BLOCKED + r"|\b(?:won't|doesn't|don't|can't|will not|does not)\b[^.]*\b(?:change|undo)\b[^.]*\bblock",
         "509.1h", "a blocked creature stays blocked", 0.9),
    # ... and a face-down creature turned face up is the same permanent in the same combat (708.8), after the rule
    # for the status it keeps
    _ordered([(_TURNED_FACE_UP, _KEEPS_COMBAT_STATUS), (_KEEPS_COMBAT_STATUS, _TURNED_FACE_UP)],
             "708.8", "turned face up, it keeps its combat status", weight=0.6),
    _cue(r"\b(?:onto the battlefield|enters?(?: the battlefield)?|created|tokens?(?: that's)?) blocking\b"
         r"|\bput(?:s|ting)? (?:an? |the )?blocking creature onto the battlefield"
         r"|\bblock\w*\b[^.]*\bcouldn't (?:legally )?be declared", "509.4", "put onto the battlefield blocking", 0.9),
    _cue(r"\b(?:didn't|did not|doesn't|does not|no longer) ha(?:ve|s) (?:that|the|this|its) "
         r"(?:[\w-]+ )?abilit(?:y|ies) (?:when|as|at the time)\b",
         "603.2 603.10", "a trigger needs the ability when the event happens", 0.9),
    _cue(r"\b(?:cast|play|return) (?:that|the|a|this) token\b|\btokens?\b[^.]*\bceases? to exist", "111.7 704.5d 111.8",
         "a token that left the battlefield", 0.9),
    _cue(r"\blife totals? (?:will )?(?:becomes?|is|of) (?:0|zero)\b|\b(?:0|zero) or less life\b"
         r"|\b(?:reduced|drops?|falls?) to (?:0|zero) life\b", "704.5a", "0 or less life", 0.9),
    # "... is a replacement effect" says what kind of effect it is (614.1), unless it also says what it replaces
    # ("a replacement effect that replaces a draw": the words choose the rule for that event)
    _cue(r"\b(?:is|are|it's)(?: not|n't)? (?:an? )?replacement effects?\b(?! that (?:replaces|modifies))", "614.1 614.1a",
         "is a replacement effect", 0.8),
    # general rules card rulings restate without the rule's own term (found on the fresh dev sample of links5)
    _cue(r"\b(?:equipment|fortification)s?\b[^.]*\b(?:becomes?|will become|is) unattached\b", "704.5n 301.5c",
         "Equipment unattached as a state-based action", 0.8),
    _cue(r"\bequipment\b[^.]*\b(?:becomes? an? (?:artifact )?creature|that's also a creature)\b", "301.5c",
         "an Equipment that is a creature", 0.9),
    _cue(r"\b(?:multiple|several|two or more) (?:[\w-]+ )?abilities (?:trigger|have triggered)"
         r"|\bAPNAP\b|\bon(?:to)? the stack in any order\b", "603.3b", "the order of simultaneous triggers", 0.9),
    _cue(r"\bmain phase (?:when|while|if) the stack is empty|\bany time you could cast a sorcery|\bsorcery speed\b"
         r"|\b(?:normal|usual|applicable) timing (?:permissions?|restrictions?|rules?)\b",
         "117.1a 307.1", "when a spell may be cast", 0.9),
    # (a sentence that gives defender as the reason is 702.3b's: review51 M2)
    _cue(r"(?:^|[.!?\n]\s*)(?:(?!\bdefender\b)[^.!?])*?"
         r"\bcan't attack (?:on |during )?(?:the|that) turn (?:it|they) (?:enters?|comes?|are put|were put|was put|is put)"
         r"(?![^.!?]*\bdefender\b)"
         r"|\bsummoning sick|\bcontinuously since (?:your|their|its controller's) most recent turn", "302.6",
         "summoning sickness", 0.9),
    _cue(r"\b(?:only|isn't|is not|aren't|are not)\b[^.]*\bwhile (?:it's|it is|they're|they are) on the battlefield"
         r"|\bin (?:all )?other zones\b|\bfunctions? only (?:if|while|when|as long as)\b[^.]*\bon the battlefield\b",
         "113.6", "abilities function only on the battlefield", 0.9),
    _cue(r"\bgoes to the stack\b|\b(?:moves?|moved) (?:it |that card |the card )?(?:from [\w ]+ )?to the stack\b"
         r"|\bcast(?:s|ing)?\b[^.]*\b(?:leaves?|to leave) (?:the |your |their |its owner's )?(?:exile|graveyard|library)\b",
         "601.2a", "casting moves the card to the stack", 0.8),
    _cue(r"(?:empty library|(?:no|not enough|fewer) cards (?:left )?in (?:\w+ )?library)[^.]*\blose",
         "704.5b", "drawing from an empty library", 0.9),
    _cue(r"\b(?:is not|isn't|aren't|are not) (?:a )?draw(?:ing)?\b", "121.1", "what drawing is", 0.7),
    # general rules restated on the fresh dev batch of links9 (dev-C)
    _cue(r"\b(?:fewer|less) than \w+ cards?\b[^.]*"
         r"\b(?:all of them|all the cards|all those cards|as many as (?:possible|you can))\b", "609.3",
         "an impossible instruction does as much as possible", 0.9),
    _cue(r"\btokens?\b[^.]*(?:\bnot|n't) (?:a )?cards?\b", "111.6", "a token isn't a card", 0.9),
    _cue(r"\b(?:leaves?|left) (?:the |your |its owner's |their owner's |that )?(?:graveyard|hand|library|exile|stack)\b"
         r"[^.]*\bbefore\b[^.]*\bresolves\b"
         # ... or the effect no longer finds it: "if the card leaves your graveyard, it won't be exiled"
         r"|\b(?:leaves?|left) (?:the |your |its owner's |their owner's |that )?(?:graveyard|hand|library|exile)\b"
         r"[^.]*\b(?:won't|will not|isn't|is not|can't|doesn't|does not) (?:be )?(?:exiled|returned|return|put|shuffled)\b",
         "400.7", "a card that changed zones is a new object", 0.8),
    # general rules restated on the dev batches of links9/links11 (dev-C/D/E: links41)
    # the total cost: additional costs and cost increases, then cost reductions
    _cue(r"\bincrease[sd]?\b[^.]*\breduc(?:tions?|es?|ed|ing)\b|\breduc(?:tions?|es?|ed|ing)\b[^.]*\bincrease[sd]?\b",
         "601.2f", "cost increases and reductions (the total cost)", 0.9),
    # 305.3: no land is played on another player's turn, whatever an effect says
    _cue(r"\bplay(?:s|ed|ing)? (?:a |any |the )?lands?\b[^.]*\b(?:on|during) (?:another|an opponent's|another player's|"
         r"other players'|each other player's|your opponents?'s?) turns?\b"
         r"|\bplay(?:s|ed|ing)? (?:a |any |the )?lands?\b[^.]*\b(?:isn't|is not) (?:your|their) (?:own )?turn\b",
         "305.3", "no land played on another player's turn", 0.9),
    # several replacement effects would modify one event: the affected player chooses which applies
    _cue(r"\b(?:choose|chooses|decide|decides) (?:which|the order in which)\b[^.]*\b(?:replaces?|replacement)\b"
         r"|\b(?:more than one|two or more|multiple) replacement effects?\b", "616.1 614.5",
         "choosing among replacement effects", 0.9),
    # last known information said in the card's words ("the last time it was on the battlefield", "as it last existed"):
    # the effect uses the object's last known information (608.2h; the glossary's term cites 113.7a first, a rule about
    # an ability outliving its source, which the next cue reads when the ruling says so)
    # ... and in the glossary's own words ("captures that object's last existence in that zone"): "its last known
    # existence on the battlefield"
    _cue(r"\blast existed\b|\blast (?:known )?existence\b|\bthe last time (?:it|they|that [\w-]+|the [\w-]+) (?:was|were) (?:on the battlefield|in (?:the |a |its |their )?[\w-]+)",
         "608.2h", "last known information (as it last existed)", 0.8),
    # one status changing leaves the others as they were: turning face up or down doesn't tap or untap, a face-down
    # permanent that phases out stays face down (110.5 names the four independent status categories, 110.5c: a
    # permanent keeps its status until something changes it; 110.5 first, as the older test of this ruling and the
    # labels cite it); links46, from G's and H's status rulings that got a face-down rule (708.11, 708.2a)
    _cue(r"\bturn(?:s|ed|ing)? (?:\w+ ){0,3}face (?:up|down)\b[^.]*\b(?:doesn't|does not|won't|will not|don't|do not)\b"
         r"[^.]*\b(?:(?:tap|untap) (?:it|them|that|the|this)\b|tapped or untapped\b|untapped or tapped\b)"
         r"|\bphas(?:es|ed|ing)? (?:out|in)\b[^.]*\b(?:stays?|remains?) face (?:down|up)\b",
         "110.5 110.5c", "a permanent keeps its other statuses", 0.9),
    # a number the effect counts, or a value it determines, "as the ability resolves" (not as it triggers): game
    # information is read once, as the effect is applied (608.2h); links46, from hold-out H's three Mastery of the
    # Unseen rulings that got a combat or trigger clause
    _cue(r"\b(?:counts?|counted|determined|calculated|based on|compares?|compared)\b[^.]*?\b(?:as|when) " + _RESOLVER
         + r" resolves\b",
         "608.2h", "a number counted as the effect resolves", 0.9),
    # general rules restated on L (links50's hold-out, tuned on from links51) in the card's words
    # "X is a mana ability": what makes an ability one (605.1a) and what that means (it doesn't use the stack, 605.3b),
    # also said as "it's not one, so it uses the stack"; but an ability that isn't one even though it adds mana, or
    # because it has a target, is 605.5a's claim (review51 M2)
    _cue(r"\b(?<!triggered ability )(?<!triggered abilities )(?:is|are|it's)(?: also)? (?:a |an )?mana abilit(?:y|ies)\b"
         r"|" + _NOT_MANA_ABILITY + "(?!" + _NOT_MANA_REASON + ")",
         "605.1a 605.3b", "is a mana ability", 0.9),
    # ... a triggered one is 605.1b's (review51 M2)
    _cue(r"\btriggered abilit(?:y|ies) (?:is|are)(?: also)? (?:a |an )?mana abilit(?:y|ies)\b", "605.1b 605.3b",
         "a triggered mana ability", 0.9),
    _cue(_NOT_MANA_ABILITY + "(?=" + _NOT_MANA_REASON + ")",
         "605.5a", "isn't a mana ability though it could add mana", 0.9),
    # a game value below zero is used as it is in a calculation (107.1b)
    _cue(r"\b(?:less than|below) (?:0|zero)\b|\bnegative (?:power|toughness|number|value|total)\b", "107.1b",
         "a value less than zero", 0.9),
    # an instant or sorcery goes to its owner's graveyard as the last step of resolving (608.2n)
    # ... said of the spell itself: "it"/the card's name goes there "as it resolves", not a pile or a discarded card put
    # there as the spell resolves, nor a spell with rebound that isn't (702.88a's claim): review51 M2
    _cue(r"\b(?:it|that spell|the spell|" + _CARD_NAME + r")(?:['’]s| is| will| would| won['’]t| wouldn['’]t| isn['’]t)?"
         r"(?: not| still| instead)? (?:go|goes|be put|put)\b[^.]*\bgraveyard\b[^.]*\b(?:when|as) (?:it|"
         + _CARD_NAME + r") resolves\b", "608.2n", "an instant or sorcery goes to the graveyard as it resolves", 0.9),
    # permanents entering together are all checked for enters triggers, the newcomers too (603.6a's own words:
    # "including the newcomers"): "enters at the same time as another creature, its ability will trigger for it"
    _cue(r"\b(?:enters?|entering|entered|put onto the battlefield)\b[^.]*\b(?:at the same time|simultaneously)\b"
         r"[^.]*\b(?:trigger\w*|sees?)\b", "603.6a", "permanents entering together see each other enter", 0.8),
    # a creature put onto the battlefield attacking: its controller chooses what it attacks (508.4), which player,
    # planeswalker or battle, or whether it attacks the one another creature attacks
    _cue(r"\bchoos\w* (?:which|what) (?:defending )?(?:player|opponent|planeswalker|battle)\b[^.]*\battack(?:s|ing)\b"
         r"|\b(?:put|returned|returns?|enters?)\b[^.]*\bbattlefield\b[^.]*\battacking\b[^.]*\bchoos\w* (?:which|what)\b",
         "508.4", "what a creature put onto the battlefield attacking attacks", 0.8),
    # an ability triggers only once per event (603.2c, in the rule's own words), whatever keyword triggers
    _cue(r"\btriggers? only once\b", "603.2c", "an ability triggers only once per event", 0.9),
    # ... but cycling says it of its own trigger, in its own words: a "cycle or discard" trigger triggers only once
    # when a card is cycled (702.29d), the keyword's clause over the general one
    _cue(r"\bcycles? or discards?\b[^.]*\btriggers? only once\b|\btriggers? only once\b[^.]*\bcycles? or discards?\b",
         "702.29d", "a \"cycle or discard\" trigger triggers only once", 0.95),
    # a leaves-the-battlefield trigger looks back in time: it triggers on the object's own death (603.10a)
    # (on a trigger: a cost's "sacrifice any creature, including X itself" is no trigger: review51 M2)
    _cue(r"\b(?:trigger\w*|whenever)\b[^.]*"
         r"\b(?:dies|die|sacrific\w+|leaves? the battlefield|put into (?:a|your|its owner's) graveyard)\b[^.]*"
         r"\bincluding (?:" + _CARD_NAME + r"|it|this creature|the creature) itself\b", "603.10a",
         "a leaves-the-battlefield trigger looks back in time", 0.9),
    # an effect puts or returns an object onto the battlefield "under that player's control": it enters under the
    # control of the player the effect names, whoever owns it (110.2a)
    _cue(r"\b(?:returns?|returned|returning|puts?|putting)\b(?: \S+){0,4}? (?:on)?to the battlefield\b[^.]*"
         r"\bunder (?:that player's|your|its owner's|their owner's|their|his or her|its controller's|the [\w-]+'s|[A-Z]\w*'s) control\b",
         "110.2a", "put onto the battlefield under a player's control", 0.8),
    # a cost to attack or block is never required by a requirement ("attacks if able"): 508.1d / 509.1c
    _cue(rf"{_NOT_REQUIRED_TO_PAY}[^.]*\battack|\battack\w*\b[^.]*{_NOT_REQUIRED_TO_PAY}", "508.1d",
         "a cost to attack isn't required", 0.8),
    _cue(rf"{_NOT_REQUIRED_TO_PAY}[^.]*\bblock|\bblock\w*\b[^.]*{_NOT_REQUIRED_TO_PAY}", "509.1c",
         "a cost to block isn't required", 0.8),
    # ... and of a player: what they were "at the time they left the game" (800.4i)
    _cue(r"\b(?:at the time|as|when|before) (?:they|he or she|that player|the player) left the game\b",
         "800.4i", "last known information about a player who left the game", 0.8),
    # general rules restated on N (links52's hold-out, tuned on from links53) in the card's words
    # an object exiled "until" its source leaves: the source left before the exiling ability resolved, so the object
    # isn't exiled at all (610.3b), where an ability without its source still does what it says (113.7a, above)
    _ordered([(r"\bleaves the battlefield before (?:its|the|that) (?:[\w-]+ )?ability resolves\b",
               r"\b(?:won't|will not|isn't|is not|doesn't|does not) (?:be )?(?:exiled|move)\b")],
             "610.3b", "the \"until\" event happened before the exiling ability resolved", weight=0.95),
    # an Aura put onto the battlefield other than as a resolving Aura spell: the player chooses what it enchants as
    # it enters, and it targets nothing (303.4f), not the enchant keyword's rules
    _cue(r"\bchooses? (?:what|which \w+) (?:it|the aura|that aura) (?:will )?enchants?\b"
         r"|\bauras?\b[^.]*\b(?:put onto|returns? to|returned to|enters?) the battlefield\b[^.]*"
         r"\b(?:doesn't|does not|won't|will not) target\b",
         "303.4f", "an Aura entering without being cast chooses what it enchants", 0.9),
    # no player has priority while a spell or ability resolves (117.2e): "No player may take any actions while X's
    # ability is resolving", "... between the time you choose the card and the time you return it"
    _cue(r"\bno (?:player|one) (?:may|can) take (?:any )?actions?\b[^.]*\bresolv"
         r"|\bresolving\b[^.]*\.\s+no (?:player|one) (?:may|can) take (?:any )?actions?\b", "117.2e",
         "no player takes actions while a spell or ability resolves", 0.9),
    # a spell cast as part of a resolving spell or ability (608.2g): "You choose which spell to cast (if any) as X
    # resolves", "you do so as part of the resolution"
    _cue(r"\bcast\w* (?:\S+ ){0,4}?(?:as|while) " + _RESOLVER + r" (?:is )?resolv(?:es|ing)\b"
         r"|\bcast\w*\b[^.]*\bas part of the resolution\b",
         "608.2g", "a spell cast during the resolution of another", 0.9),
    # a token created by an effect isn't cast: casting is putting a spell on the stack (601.2), a token is created
    # (111.1); a copy of a spell that isn't cast is 707.10's, which the ruling's "copy of a spell" words find
    _cue(r"\btokens?\b[^.]*\b(?:isn't|aren't|wasn't|weren't|is not|are not|was not|were not)\s+[\"“]?cast\b",
         "601.2 111.1", "a token isn't cast", 0.8),
    # one object chosen for two instances of "target" (115.3)
    _cue(r"\b(?:two|both) targets? (?:can|may|can't|cannot) be the same\b"
         r"|\bsame (?:object|creature|player|permanent|card) (?:can|may|can't|cannot) be chosen (?:for|as) (?:both|each)\b",
         "115.3", "the same object chosen for each instance of \"target\"", 0.9),
    # a triggered ability put on the stack above the spell that made it trigger resolves first (603.3, 405.5)
    _cue(r"\bresolves? before the (?:[\w-]+ )?(?:spell|ability) that (?:caused|made) it (?:to )?trigger\b",
         "603.3 405.5", "a trigger resolves before the spell that caused it", 0.9),
    # a reflexive trigger (603.12): an ability that triggers on an action a player takes as a resolving ability lets
    # or tells them to, "when you do": "While that ability is resolving, you may sacrifice a creature. If you do, a
    # second ability triggers", "triggers only when you sacrifice a creature as a result of the instruction of ..."
    _cue(r"\bwhile (?:that|the|this|its|" + _CARD_NAME + r"['’]s) (?:[\w-]+ )?ability is resolving\b[^.]*\.\s+"
         r"(?:if|when) (?:you|that player|they) do(?:n['’]t)?\b[^.]*\btriggers?\b"
         r"|\btriggers? only (?:when|if)\b[^.]*\bas a result of (?:the )?(?:instructions?|resolution) of\b",
         "603.12", "a reflexive trigger: an action taken as another ability resolves", 0.9),
    # a spell cast without paying its mana cost can't be cast for an alternative cost too: one alternative cost per
    # spell (118.9a)
    _cue(r"\bwithout paying (?:its|their|the spell's) mana costs?\b[^.]*\b(?:can't|cannot|may not|won't be able to)\b"
         r"[^.]*\balternative costs?\b", "118.9a", "one alternative cost per spell", 0.9),
    # German
    _cue(r"^(?!.*(?:\bhand(?:karten?)?\b|friedh[oö]f)).*\banschauen\b", "708.5", "anschauen (look at)"),  # as "look at"
    _cue(r"unterschieden", "708.6", "unterschieden (differentiated)"),
    _cue(r"getappt oder ungetappt", "110.5", "getappt oder ungetappt (tapped or untapped)"),
    _cue(r"offenlegen", "708.9", "offenlegen (reveal)"),
    _cue(r"morphkosten", "701.40c 702.37e", "Morphkosten (morph cost)"),
    _cue(r"ins spiel kommt|das schlachtfeld betritt", "708.8 708.3", "ins Spiel kommt (enters)"),
    _cue(r"dieselbe bleibende karte", "708.8", "dieselbe bleibende Karte (same permanent)"),
    # Spanish: the same cues, for a Spanish ruling with no English counterpart (an entry of its own)
    _cue(r"^(?!.*\b(?:manos?|cementerios?)\b).*\bmirar(?:l[ao]s?)?\b", "708.5", "mirar (look at)"),  # as "look at"
    _cue(r"\bdiferenciar|\bdistinguir", "708.6", "diferenciar (differentiated)"),
    _cue(r"girad[oa]s? o enderezad[oa]s?|enderezad[oa]s? o girad[oa]s?", "110.5", "girado o enderezado (tapped or untapped)"),
    _ordered([(r"\brevel", r"\b(?:deja|sale del|abandona|termina)"), (r"\b(?:deja|sale del|abandona|termina)\b", r"\brevel")],
             "708.9", "revelar (reveal when it leaves)"),
    _cue(r"coste de metamorfosis", "701.40c 702.37e", "coste de metamorfosis (morph cost)"),
    _cue(r"entra(?:n)? al campo de batalla|entre(?:n)? al campo de batalla", "708.8 708.3",
         "entra al campo de batalla (enters)"),
    _cue(r"el mismo permanente", "708.8", "el mismo permanente (same permanent)"),
)


@dataclass(frozen=True, slots=True)
class ConceptCue:
    """An English cue (by its label) that a German or Spanish ruling with no English wording says in the glossary's
    concepts (corpus/glossary.yaml): every concept of one of `all_of`'s sets and none of `none_of`, each in any word
    form the glossary's matcher reads (`ConceptFinder`: "ansehen", "ins Spiel gekommen", "encantándola")."""

    label: str
    all_of: tuple[frozenset[str], ...]
    none_of: frozenset[str] = frozenset()

    def found_in(self, concepts: frozenset[str]) -> bool:
        return not concepts & self.none_of and any(s <= concepts for s in self.all_of)


def _concept_cue(label: str, *all_of: str, none_of: str = "") -> ConceptCue:
    return ConceptCue(label, tuple(frozenset(s.split()) for s in all_of), frozenset(none_of.split()))


# A concept alone is often an everyday word ("getappt", "Aura"): what makes it the cue's rule is the face-down
# concept beside it, as the English cue's own words say ("tapped or untapped", "continue to enchant").
CONCEPT_CUES: tuple[ConceptCue, ...] = (
    # looking at the top of a library (manifest dread), at an exiled card, at a hand or a graveyard is no
    # face-down permanent's 708.5
    _concept_cue("look at", "look_at", none_of="library exile hand graveyard"),
    _concept_cue("look at exiled cards", "look_at exile"),
    _concept_cue("keep face-down objects apart", "distinguish"),
    _concept_cue("tapped or untapped", "tapped turn_face_up", "tapped face_down"),
    _concept_cue("reveal when it leaves", "reveal leaves_the_battlefield", "reveal leave_game", "reveal game_end"),
    # a permanent turned face up doesn't enter (708.8)
    _concept_cue("enters-the-battlefield", "enters_the_battlefield turn_face_up"),
    _concept_cue("effects survive turning face up", "aura turn_face_up", "attach turn_face_up", "equipment turn_face_up"),
    _concept_cue("special action", "special_action turn_face_up"),
)

# a 2/2 with no name is a face-down object whatever the ruling calls it ("The resulting creature is a 2/2 creature
# with ward {2} that has no name"): only face-down rules give those characteristics
_CHARACTERISTICS = r"\b2/2\b[^.]*\bno name\b|\bno name\b[^.]*\b2/2\b"
_FACE_DOWN = re.compile(r"face[- ]down|face up|\bmanifest(?:s|ed|ing)?\b|\b(?:mega)?morph|disguise|\bcloak|verdeckt|aufgedeckt|manifestiert"
                        r"|boca abajo|boca arriba|\bmanifestad[oa]s?\b|metamorfosis|" + _CHARACTERISTICS,
                        re.I)
# a face-down (or face-up) pile, deck or library is cards in a zone (a scheme's pile, a draft's drafted cards), not a
# face-down spell or permanent: saying it makes no ruling a face-down one ("You don't have to reveal the cards in
# the face-down pile" is no 708.9)
_FACE_DOWN_PILE = re.compile(r"\bface[- ](?:down|up) (?:piles?|decks?|libraries|library|booster packs?)\b"
                             r"|\b(?:piles?|decks?|libraries|library) (?:\w+ ){0,2}?(?:is|are) (?:\w+ )?face[- ](?:down|up)\b",
                             re.I)


def _says_face_down(text: str) -> bool:
    """The ruling speaks of face-down objects or a face-down mechanic (not only of a face-down pile of cards)."""
    return _FACE_DOWN.search(_FACE_DOWN_PILE.sub(" ", text)) is not None


_EXILES_INSTEAD = re.compile(r"\bwould\b[^.\n]*\bexiles?\b[^.\n]*\binstead\b|\binstead\b[^.\n]*\bexiles?\b", re.I)
# linked abilities (607.2a): each object's ability finds only the cards its own ability exiled ("Each Shared Fate tracks
# only the cards it exiled", "has its own cache of cards", "not those of any other Bomat Courier", "no connection to
# those face-down cards")
_LINKED_EXILE = re.compile(r"\btracks? only (?:the )?cards? (?:it|that it|they|that they) exiled\b"
                           r"|\bits own (?:[\w-]+ ){1,2}of (?:exiled |face-down )?cards\b"
                           r"|\bno connection to (?:those|the|any) (?:[\w-]+ ){0,2}cards\b"
                           r"|\bnot those of any other\b"
                           r"|\bcards? exiled (?:with|by) (?:another|any other|a different)\b", re.I)
# "The cards are face down all the time. You can't look at them." under a card that exiles cards face down (and has
# no face-down mechanic): the face-down objects are those exiled cards (406.3), not face-down spells or permanents
_EXILES_FACE_DOWN = re.compile(r"\bexiles?\b[^.\n]*\bface down\b", re.I)
_FACE_DOWN_WORD = re.compile(r"\bface[- ]down\b", re.I)
_NOT_EXILED_FACE_DOWN = re.compile(r"\bface[- ]up\b|\bface[- ]down (?:creature|spell|permanent|card you control)s?\b"
                                   r"|\bbattlefield\b", re.I)
LINKED_WEIGHT = 0.95  # a pointed cue: over "exiled face down" (0.9), which such a ruling also says of the cards
SECTION_BONUS = 0.15  # a face-down ruling prefers the general face-down rules (708, 712.15-16)
_FACE_DOWN_RULES = ("708", "712.15", "712.16")


# --------------------------------------------------------------------------------------------
# Mechanics: each face-down mechanic owns a section; a ruling about one cites that section first.


@dataclass(frozen=True, slots=True)
class Mechanic:
    name: str
    section: str  # its clauses in the current CR
    words: re.Pattern[str]  # the ruling names it (English, German or Spanish)
    oracle: re.Pattern[str]  # a card's Oracle text has it

    def owns(self, clause: str) -> bool:
        return clause == self.section or clause.startswith(self.section) and not clause[len(self.section)].isdigit()


def _mechanic(name: str, section: str, words: str, oracle: str) -> Mechanic:
    return Mechanic(name, section, re.compile(words, re.I), re.compile(oracle, re.I))


# "disguise" is also an English verb ("shuffled to disguise which ..."): only its keyword uses count, among them
# an object that has it ("If a card has disguise, you can cast it face down"); what a face-down card "would have"
# face up is its hidden card's ability, not the ruling's subject ("If a cloaked creature would have disguise": cloak).
MECHANICS: tuple[Mechanic, ...] = (
    _mechanic("megamorph", "702.37b", r"\bmegamorph|\bmegametamorfosis", r"\bmegamorph\b"),
    _mechanic("morph", "702.37", r"\bmorph\b|morphkosten|\bmegamorph|\b(?:mega)?metamorfosis", r"(?<!mega)\bmorph\b"),
    _mechanic("disguise", "702.168", r"\bdisguise (?:abilit|cost)"
              r"|\b(?:with|having|(?<!would )(?<!could )(?<!will )(?:has|have|had)) disguise\b"
              r"|\bdisguise or\b|\bor disguise\b|\bdisguise \{|\bdisguised\b|\btarnung|\bdisfraza", r"\bdisguise \{"),
    _mechanic("cloak", "701.58", r"\bcloak(?:s|ed|ing)?\b|\bverhüll|\bencubr|\bencubiert", r"\bcloak(?:s|ed)?\b"),
    _mechanic("manifest dread", "701.62", r"\bmanifest(?:s|ing)? dread|\bmanifest\w* miedo", r"\bmanifest dread\b"),
    _mechanic("manifest", "701.40", r"\bmanifest(?:s|ed|ing)?\b|\bmanifestiert|\bmanifest(?:ar|ad[oa]s?|ando)\b|\bmanifiesta\b", r"\bmanifest(?:s|ed)?\b(?! dread)"),
    _mechanic("hidden agenda", "702.106",
              r"\b(?:hidden|double) agenda|face-down conspirac|conspirac[^.]*\bface[- ]?down\b",
              r"\b(?:hidden|double) agenda\b"),
)
MECHANIC_BONUS = 0.25  # the ruling names the mechanic
KEYWORD_BONUS = 0.3  # the ruling says a keyword ability's name ("split second"): its rules are candidates
_ABOUT_EFFECTS = re.compile(r"If an effect (?:refers to|states that)\b")  # a keyword's rule on other cards' wording
_SAYS_EFFECT = re.compile(r"\beffects?\b|\brefers? to\b|\bsays?\b|\binstructs?\b", re.I)
_AN_EXAMPLE = "keyword ability named as an example:"  # the last evidence a link may stand on
_SAYS = "of the ruling's words"  # "says 88% of the ruling's words": see COVER_MIN
CARD_MECHANIC_BONUS = 0.2  # the ruling is face-down and its cards have exactly this mechanic
POSSIBLE_MECHANIC_BONUS = 0.1  # a face-down reminder shared by cards of several mechanics: one of them
FOREIGN_MECHANIC = -0.6  # another mechanic's clause: only a tie-breaker after everything else
SPECIFIC_BONUS = 0.1
_SUBSUMES = {"megamorph": "morph", "manifest dread": "manifest"}  # naming the first names the second


@dataclass(frozen=True, slots=True)
class RulingMechanics:
    named: frozenset[str]  # mechanics the ruling's words name
    of_cards: frozenset[str]  # the one mechanic its cards share, when the words name none
    face_down: bool = False  # its words are about face-down objects: `of_cards` is its subject
    possible: frozenset[str] = frozenset()  # every mechanic its cards have (a reminder shared by many cards)
    as_turned_up: bool = False  # one of its cards has an "As [this] is turned face up" ability (708.11)
    # per card, per ability (a line of its Oracle text, not a reminder): has it an intervening "if" (603.4)?
    intervening_if: tuple[tuple[bool, ...], ...] = ()
    # ... is it a "becomes" trigger ("Whenever this creature becomes untapped", 603.2e)?
    becomes: tuple[tuple[bool, ...], ...] = ()
    # `of_cards` (or `possible`, when several) are the mechanics whose face-down characteristics it gives (`_WARDED`)
    described: bool = False
    # ... is it a triggered ability its controller "may" let do its effect (603.5)?
    optional: tuple[tuple[bool, ...], ...] = ()
    # each of its cards exiles cards face down ("exile the top five cards of your library face down")
    exiles_face_down: bool = False
    # each of its cards exiles cards by a replacement effect ("... exiles the top card ... instead"): its linked
    # abilities are 607.2b's, not 607.2a's (an activated or triggered ability that exiles)
    exiles_instead: bool = False

    def has_intervening_if(self, ordinal: str | None) -> bool:
        """Each card's `ordinal` ability ("first", "last"; any ability when None) has an intervening "if"."""
        return _each_card_has(self.intervening_if, ordinal)

    def has_becomes_trigger(self, ordinal: str | None) -> bool:
        """Each card's `ordinal` ability triggers when something "becomes" something."""
        return _each_card_has(self.becomes, ordinal)

    def has_optional_trigger(self, ordinal: str | None) -> bool:
        """Each card's `ordinal` ability is a triggered ability that says "may"."""
        return _each_card_has(self.optional, ordinal)

    def bonus(self, clause: str) -> float:
        """What a clause gains (or loses) for being (or not being) this ruling's mechanic's."""
        owners = [m.name for m in MECHANICS if m.owns(clause)]  # most specific first: 702.37b megamorph, morph
        if not owners:
            return 0.0
        cards = self.of_cards if self.face_down else frozenset()
        if owners[0] in self.named or owners[0] in cards:
            base = MECHANIC_BONUS if owners[0] in self.named else CARD_MECHANIC_BONUS
            # a megamorph (manifest dread) ruling also names morph (manifest): its own clause first
            return base + (SPECIFIC_BONUS if owners[0] in _SUBSUMES else 0.0)
        if any(o in self.named or o in cards for o in owners[1:]):
            return 0.0  # 702.37b (megamorph) for a morph ruling: neither preferred nor foreign
        if self.face_down and not self.named and owners[0] in self.possible:
            return POSSIBLE_MECHANIC_BONUS
        return FOREIGN_MECHANIC


_EXAMPLES = re.compile(r"\([^)]*\)|\b(?:such as|like|e\.g\.|including)\b[^.;:]*|\bfor example\b[^.]*", re.I)
# "it will have defender", "won't get +1/+1 or have lifelink": an ability the card's effect gives or takes,
# not the subject of the ruling ("will have already left the battlefield when you bolster": "have" of a perfect
# tense gives nothing)
_PERFECT = r"(?!\s+(?:already|just|been|become|gone|done|left|dealt|lost|put|paid|cast|\w+ed)\b)"
_GRANTED = re.compile(r"\b(?:will|won't|would|wouldn't|doesn't|don't|didn't|does|do|can't|cannot)(?: not)?"
                      r"(?: still| also| no longer)? (?:have" + _PERFECT + r"|gain|get|lose)\b[^.;:]*", re.I)
# "Unlike a face-down creature cast using a morph ability, a manifested creature ...": the thing a ruling
# contrasts its subject with is not its subject
_CONTRAST = re.compile(r"\bunlike\b[^,.;:]*", re.I)
# A ruling's main claim (what it says happens or is allowed) and its setting: the situation it is set in, an
# opening "If/When/As ... ," clause, a "whenever/if/as long as ..." condition inside a sentence, quoted card text
# (links47). A CR term said only in the setting is where the ruling happens, not what it states: "If the delayed
# triggered ability is countered, the cards remain exiled forever" is no rule of delayed triggers. (A ruling that
# opens with "Because ...," is not set by it: the reason it gives is often the rule it applies; a "because ..."
# inside a sentence is read as a condition, `_SETTING_INNER`.)
_SETTING_OPENER = re.compile(r"(?:^|(?<=[.!?] )|(?<=\n))(?:If|When|Whenever|While|As long as|As|Once|Even if|Unless|"
                             r"After|Before|Until)\b[^.;:?!\n]*?, ")
_SETTING_INNER = re.compile(r"\b(?:whenever|when|if|as long as|once|because|unless|while|until|before|after)\b"
                            r"[^.;:?!,\n]*")
_SETTING_QUOTED = re.compile(r"[\"“][^\"”]{1,300}[\"”]")


def setting_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the parts of a ruling's text that set its situation: opening "If/When/As ... ," clauses,
    conditions inside a sentence ("... triggers whenever you ..."), quoted text; the rest is its claim."""
    return sorted(m.span() for pattern in (_SETTING_OPENER, _SETTING_INNER, _SETTING_QUOTED)
                  for m in pattern.finditer(text))


def _cut(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """`text` without `spans` (sorted, possibly overlapping)."""
    out, at = [], 0
    for start, end in spans:
        out.append(text[at:max(at, start)])
        at = max(at, end)
    return " ".join([*out, text[at:]])


def _in_setting(span: tuple[int, int], setting: Sequence[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in setting)


_AS_TURNED_UP = re.compile(r"(?:^|\n|\. )As [^.]{1,60}? is turned face up\b")
# "At the beginning of your second main phase, if this creature is tapped, ...": a ruling that says such an
# ability won't trigger (or triggers only if) applies the intervening-"if" rule, whether or not it says "if"
_INTERVENING_IF = re.compile(r"^(?:[^—\n]{1,40} — )?(?:When|Whenever|At)\b[^,.\n]*, if\b")
# "the ability won't trigger at all", "The last ability triggers only if ...": which of the card's abilities
_NO_TRIGGER = re.compile(r"\b(?:(first|second|third|last) )?(?:[\w-]+ )?abilit(?:y|ies) "
                         r"(?:(?:won't|doesn't|don't|will not|does not|do not|wouldn't|didn't) trigger|triggers? only if)\b",
                         re.I)
# "Inspired — Whenever this creature becomes untapped, ...": a ruling that it doesn't trigger as the creature enters
# (or while the state already holds) applies 603.2e ("becomes" triggers only when the event happens)
_BECOMES_TRIGGER = re.compile(r"^(?:[^—\n]{1,40} — )?(?:When|Whenever)\b[^,.\n]*\bbecomes?\b")
_ALREADY = re.compile(r"\benters?\b|\bentering\b|\balready\b|\bput onto the battlefield\b", re.I)
# "... when the ability begins to resolve, that ability won't do anything": the condition checked again on
# resolution (603.4 "If the condition isn't true at that time, the ability ... does nothing"), in one sentence
_NO_EFFECT = re.compile(r"[^.]*\bresolv[^.]*\b(?:(first|second|third|last) )?(?:[\w-]+ )?abilit(?:y|ies) "
                        r"(?:won't|doesn't|will not|does not) do anything\b"
                        r"|\b(?:(first|second|third|last) )?(?:[\w-]+ )?abilit(?:y|ies) (?:won't|doesn't|will not|does not) "
                        r"do anything\b[^.]*\bresolv", re.I)
_ORDINALS = {"first": 0, "second": 1, "third": 2, "last": -1}


def _each_card_has(flags: tuple[tuple[bool, ...], ...], ordinal: str | None) -> bool:
    """Each card's `ordinal` ability ("first", "last"; any ability when None) is flagged."""
    if not flags:
        return False
    if ordinal is None:
        return all(any(card) for card in flags)
    at = _ORDINALS[ordinal.casefold()]
    return all(len(card) > at if at >= 0 else bool(card) for card in flags) and all(card[at] for card in flags)


def _abilities(card_text: str) -> list[str]:
    """A card's abilities: the lines of its Oracle text that are not only reminder text."""
    return [line for line in card_text.split("\n") if line.strip() and not re.fullmatch(r"\s*\([^)]*\)\s*", line)]
# "You choose whether ... as the ability resolves": whether to do something the ability says "may" do (603.5,
# optional triggered abilities), or which of the options its effect offers (608.2d: "gets +2/-2 or -2/+2")
_CHOICE_ON_RESOLUTION = re.compile(r"\b(?:choose|chooses|decide|decides) whether\b[^.]*"
                                   r"\bas (?:the|its|that|it) (?:((?:first|second|third|last)) )?(?:[\w-]+ )?"
                                   r"(?:ability )?resolves\b", re.I)
_OPTIONAL = re.compile(r"\bwhether (?:or not )?to\b|\bwhether or not\b|\bmay\b", re.I)
# ... unless what resolves is no triggered ability: 603.5 is the optional triggered abilities' rule, an activated
# ability's or a spell's choice is one its effect offers (608.2d), "may" or not
_NOT_TRIGGERED = re.compile(r"\b(?:activated ability|spell)\s+resolves\b", re.I)
_OPTIONAL_TRIGGER = re.compile(r"^(?:[^—\n]{1,40} — )?(?:When|Whenever|At)\b[^\n]*\bmay\b")
CHOICE_WEIGHT = 0.9
_REPLACEMENT = re.compile(r"\breplacement effect", re.I)
_TURNED_UP = re.compile(_TURNED_FACE_UP, re.I)
# A ruling that opens by saying what a mechanic does ("To manifest dread, look at ...", "A disguise ability lets
# you ...", "Megamorph is ...") restates the mechanic's definition: its first clause, not a borrowed one
_DEFINES = re.compile(r"\W*(?:to |an? )?(" + "|".join(m.name for m in MECHANICS) + r")\b(?: (?:a|an|one|the) [\w-]+)?"
                      r"(?: abilit(?:y|ies))?(?:,| is | lets | means )", re.I)
DEFINITION_WEIGHT = 0.7
# 'To "play a card" is to ...', '"outside the game" means your sideboard': the ruling says what a quoted term means,
# which the rule defining the term says
_QUOTED_DEFINITION = re.compile(r"[\"“]([a-z][a-z' -]{2,40})[\"”] (?:is to|means|refers to)\b", re.I)
QUOTED_DEFINITION_WEIGHT = 0.8
MECHANIC_DEFAULT = 0.25  # the named keyword action's definition when no cue points at another of its rules


def _definition_of(text: str, version: RulesVersion) -> str | None:
    """The definition clause of the mechanic a ruling opens by defining, if it does."""
    m = _DEFINES.match(text)
    if m is None:
        return None
    section = next(x.section for x in MECHANICS if x.name == m.group(1).casefold())
    return section + "a" if section + "a" in version.clauses else section


# Face-down characteristics with ward ("a 2/2 creature with ward {2} that has no name") are a disguised or cloaked
# object's: no other rule gives a face-down object ward (702.168a-b, 701.58a). A face-down spell with them is a
# disguised one: a keyword ability casts a card face down (702.168b), a keyword action (cloak) puts it onto the
# battlefield.
_WARDED = {"disguise": True, "cloak": False}  # mechanic -> it casts face down
_WARD = re.compile(r"\bward\b", re.I)
_SPELL = re.compile(r"\bspells?\b", re.I)


def _warded_mechanics(text: str) -> frozenset[str]:
    """The mechanics whose face-down characteristics a sentence of `text` gives with ward (none when none does)."""
    warded = [s for s in sentences(text) if re.search(_CHARACTERISTICS, s, re.I) and _WARD.search(s)]
    if not warded:
        return frozenset()
    spell = any(_SPELL.search(s) for s in warded)  # "The creature spell is a 2/2 ...; the resulting creature is ..."
    return frozenset(m for m, casts in _WARDED.items() if casts or not spell)


def ruling_mechanics(text: str, card_texts: Sequence[str] = ()) -> RulingMechanics:
    """The face-down mechanics a ruling is about: those its words name (not as an example or a contrast:
    "for example, if you manifest a card with megamorph" is a megamorph ruling), else the one its cards share,
    else those whose face-down characteristics it gives (a card the KB doesn't know, or none)."""
    return dataclasses.replace(_ruling_mechanics(text, card_texts), optional=tuple(
        tuple(bool(_OPTIONAL_TRIGGER.search(a)) for a in _abilities(t)) for t in card_texts),
        exiles_face_down=bool(card_texts) and all(_EXILES_FACE_DOWN.search(t) for t in card_texts),
        exiles_instead=bool(card_texts) and all(any(_EXILES_INSTEAD.search(a) for a in _abilities(t))
                                                for t in card_texts))


def _ruling_mechanics(text: str, card_texts: Sequence[str] = ()) -> RulingMechanics:
    """`ruling_mechanics` but for its cards' optional triggered abilities."""
    subject = _CONTRAST.sub(" ", _EXAMPLES.sub(" ", text))
    named = frozenset(m.name for m in MECHANICS if m.words.search(subject))
    face_down = _says_face_down(text)
    as_turned_up = bool(card_texts) and all(_AS_TURNED_UP.search(t) for t in card_texts)
    intervening_if = tuple(tuple(bool(_INTERVENING_IF.search(a)) for a in _abilities(t)) for t in card_texts)
    becomes = tuple(tuple(bool(_BECOMES_TRIGGER.search(a)) for a in _abilities(t)) for t in card_texts)
    per_card = [frozenset(m.name for m in MECHANICS if m.oracle.search(t)) for t in card_texts]
    per_card = [c for c in per_card if c]
    possible = frozenset().union(*per_card) if per_card else frozenset()
    possible |= {_SUBSUMES[m] for m in possible if m in _SUBSUMES}
    warded = frozenset() if named or per_card else _warded_mechanics(subject)
    if len(warded) == 1:  # a face-down spell with ward: disguise
        return RulingMechanics(named, warded, face_down, possible, as_turned_up, intervening_if, becomes,
                               described=True)
    if warded:  # a face-down permanent with ward: disguised or cloaked, one of them
        return RulingMechanics(named, frozenset(), face_down, possible | warded, as_turned_up, intervening_if, becomes,
                               described=True)
    if named or not per_card or any(c != per_card[0] for c in per_card):
        return RulingMechanics(named, frozenset(), face_down, possible, as_turned_up, intervening_if, becomes)
    return RulingMechanics(named, per_card[0] | {_SUBSUMES[m] for m in per_card[0] if m in _SUBSUMES}, face_down,
                           possible, as_turned_up, intervening_if, becomes)


# --------------------------------------------------------------------------------------------
# The lexical index


class _Index:
    """BM25 and rare trigrams over the numbered clauses (not headings) of one CR version."""

    def __init__(self, version: RulesVersion) -> None:
        self.version = version
        self.numbers = [n for n in version.numbers()
                        if depth_of(n) >= 2 and not is_title(version.clauses[n].text)]
        docs = [_content(version.clauses[n].text) for n in self.numbers]
        self.bm25 = BM25Matrix.build(docs)
        self.words = [frozenset(d) for d in docs]
        word_df = Counter(w for d in self.words for w in d)
        self.idf = {w: math.log((len(docs) + 1) / (c + 0.5)) for w, c in word_df.items()}
        self.rare_words = frozenset(w for w, c in word_df.items() if c <= RARE_WORD_DF)
        self.trigrams: list[set[tuple[str, str, str]]] = []
        df: Counter[tuple[str, str, str]] = Counter()
        clause_tokens = [rule_tokens(version.clauses[n].text) for n in self.numbers]
        for toks in clause_tokens:
            grams = _trigrams(toks)
            self.trigrams.append(grams)
            df.update(grams)
        self.rare = {g for g, c in df.items() if c <= 5}
        # the phrases a ruling may restate in its own person ("you have priority" for "they have priority")
        self.paraphrase: dict[tuple[str, ...], list[int]] = {}
        for i, toks in enumerate(clause_tokens):
            for g in _phrases(toks):
                self.paraphrase.setdefault(g, []).append(i)
        self.paraphrase = {g: ids for g, ids in self.paraphrase.items() if len(ids) <= PARAPHRASE_DF}
        self._expanded: dict[tuple[str, ...], list[tuple[int, str]]] = {}
        self.position = {n: i for i, n in enumerate(self.numbers)}
        self.by_section: dict[str, list[str]] = {}
        for n in self.numbers:
            self.by_section.setdefault(n[:3], []).append(n)
        self._families: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._mechanic_words: dict[frozenset[str], frozenset[str]] = {}
        self.glossary = _glossary_cues(version, self.numbers, clause_tokens)
        self.type_cues = _type_cues(version)
        self.sections = {n: frozenset(w[:5] for w in _content(version.clauses[n].text) if w not in _GENERIC_TITLE)
                         | _SECTION_WORDS.get(n, frozenset())
                         for n in version.numbers() if n.isdigit() and (709 <= int(n) <= 999 or n in _TYPE_SECTIONS)
                         and n not in _ALWAYS_SECTIONS}
        for section, words in _glossary_names(version, self.sections).items():
            self.sections[section] |= words
        # "An ability that triggers whenever a player manifests dread ..." (701.62b): one per keyword action
        self.on_action = [n for n in version.numbers() if n.startswith("701.")
                          and version.clauses[n].text.startswith("An ability that triggers whenever a player ")]
        # "Some abilities trigger when a player “fully unlocks” a permanent ..." (709.5i): the quoted action's words
        self.on_quoted = {n: frozenset(_content(m.group(1))) for n in version.numbers()
                          if (m := _ON_QUOTED.match(version.clauses[n].text)) is not None}
        # keyword actions (701.N) and keyword abilities (702.N): the content words of the title
        self.keywords = {n: frozenset(_content(version.clauses[n].text)) for n in version.numbers()
                         if re.fullmatch(r"70[12]\.\d+", n) and n not in ("701.1", "702.1")}
        # a keyword action that is an everyday verb ("play", "exile", "sacrifice") is no evidence by itself
        word_df = Counter(w for n in self.numbers for w in set(_content(version.clauses[n].text)))
        self.rare_actions = {n for n, words in self.keywords.items()
                             if n.startswith("702.") or all(word_df[w] <= RARE_ACTION_DF for w in words)}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its CR version (the caller holds it: `remember_index` puts it back)."""
        return {k: v for k, v in self.__dict__.items() if k != "version"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def family_words(self, number: str) -> frozenset[str]:
        """The words of a clause and of its subrules (700.3 says "piles"; 700.3a-d what is done with them)."""
        return frozenset().union(*(self.words[self.position[n]] for n in self.family((number,))))

    def named_section_of(self, number: str) -> frozenset[str] | None:
        """For a clause of a section about one named thing (split cards 709 ... Conspiracy Draft 905),
        the words (5-letter prefixes) that name it; None for the rules every ruling may need."""
        section = number.split(".")[0]
        return self.sections.get(section)

    def names_other_keyword(self, said: set[str], mechanics: frozenset[str]) -> bool:
        """`said` (content words) names a keyword ability that is no face-down mechanic and that the rules
        of `mechanics` don't mention (disguise's rules say "ward")."""
        if mechanics not in self._mechanic_words:
            sections = [m.section for m in MECHANICS if m.name in mechanics]
            self._mechanic_words[mechanics] = frozenset().union(
                *(self.words[i] for i, n in enumerate(self.numbers) if any(is_under(n, s) for s in sections)))
        theirs = self._mechanic_words[mechanics]
        return any(n.startswith("702.") and n in self.rare_actions and words <= said and not words <= theirs
                   and not any(m.owns(n) for m in MECHANICS) for n, words in self.keywords.items())

    def names_ability(self, number: str, text: str) -> bool:
        """A keyword ability (702.N) is named by its name as the CR writes it ("vanishing", "offering", plural too),
        not by another word of its stem ("vanish", "offer", "offered"); keyword actions (701.N) are verbs, named in
        any form ("abandoned"). True outside 702."""
        m = re.match(r"702\.\d+", number)
        if m is None or m.group(0) not in self.keywords:
            return True
        forms = self.__dict__.setdefault("_ability_forms", {})  # memo: section -> its name's word forms
        if (section := m.group(0)) not in forms:
            # the name and the forms of it the section's own rules write ("bestowed", "crewed", "kicked":
            # review44 #1), not a shorter word of its stem ("offer" of Offering)
            name = self.version.clauses[section].text.strip().rstrip(".").lower()
            written = {w.lower() for n in self.family((section,)) for w in re.findall(r"[A-Za-z]+", self.version.clauses[n].text)}
            forms[section] = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(
                {name, name + "s", name + "es"} | {w for w in written if w.startswith(name)}, key=len, reverse=True)))
                + r")\b", re.I)
        return forms[section].search(text) is not None

    def keyword_of(self, number: str) -> frozenset[str] | None:
        """The title words of the keyword section `number` belongs to (None outside 701/702)."""
        m = re.match(r"70[12]\.\d+", number)
        return self.keywords.get(m.group(0)) if m else None

    def expand(self, clauses: tuple[str, ...]) -> list[tuple[int, str]]:
        """`_expand` of a cue's clauses, once per cue: a `701.40*` walk costs ~50 ms."""
        if clauses not in self._expanded:
            self._expanded[clauses] = _expand(clauses, self.version)
        return self._expanded[clauses]

    def scores(self, text: str) -> np.ndarray:
        return self.bm25.scores(_content(text))

    def family(self, refs: tuple[str, ...]) -> tuple[str, ...]:
        """The clauses (not headings) under rules or sections `refs`: 704 -> 704.1, 704.2 ..."""
        if refs not in self._families:
            self._families[refs] = tuple(dict.fromkeys(n for r in refs for n in self.by_section.get(r[:3], ())
                                                       if is_under(n, r)))
        return self._families[refs]

    def defining(self, term: str, raw: np.ndarray) -> list[tuple[int, str]]:
        """(rank, clause) for the clauses that define `term` (a ruling's quoted term): one that says what it is
        (`_defines`: "To play a card means ...", "“X” means ..."), else those of the few that say it that share the
        most words with the ruling (BM25 `raw`); none for a term no clause says, or everyday wording more than `WORD_TERM_DF` say.
        A glossary term ("Outside the Game": rule 400.11) is defined under the rules its entry cites."""
        pattern = re.compile(_term_pattern(_fold(term)))
        cited = next((tuple(re.findall(r"\brules? (\d{3}(?:\.\d+[a-z]?)?)\b", entry.text))
                      for name, entry in self.version.glossary.items() if pattern.fullmatch(_term_name(name))), ())
        saying = ([n for n in self.family(cited)] if cited else
                  [n for n in self.numbers if pattern.search(_fold(self.version.clauses[n].text))])
        if not saying or len(saying) > WORD_TERM_DF:
            return []
        by_words = sorted(saying, key=lambda n: -float(raw[self.position[n]]))
        first = [n for n in saying if _defines(pattern, _fold(self.version.clauses[n].text))]
        ranked = list(dict.fromkeys(first + by_words))[:FAMILY_LINKS]
        return list(enumerate(ranked))

    def best_of(self, refs: tuple[str, ...], raw: np.ndarray, skip: Collection[str] = ()) -> list[tuple[int, str]]:
        """(rank, clause) for the clauses under `refs` (less `skip`) that share the most words with the ruling
        (BM25 `raw`), best first; the family's first clause when none shares any."""
        family = tuple(n for n in self.family(refs) if n not in skip) or self.family(refs)
        scored = sorted(((float(raw[self.position[n]]), n) for n in family), key=lambda p: -p[0])
        best = [n for score, n in scored[:FAMILY_LINKS] if score > 0]
        return list(enumerate(best or family[:1]))


# Sections about one named thing (a card layout, a designation, a multiplayer or casual variant) are
# candidates only when the ruling names it: "checked during the upkeep" is no reason for Subgames (728).
# The card types of a casual variant or of a handful of cards are such things too: "looking at face-down
# creatures" is no reason for 315.7 (face-down conspiracies). The everyday types (artifacts, lands ...) are not:
# an Equipment or Aura ruling need not say "artifact" or "enchantment".
_TYPE_SECTIONS = frozenset(str(n) for n in range(308, 316))  # Kindreds ... Conspiracies
_ALWAYS_SECTIONS = frozenset({"722", "723", "731", "732"})  # controlling a player, ending turns, shortcuts, illegal actions
_GENERIC_TITLE = frozenset("card cards option options variant general game player players attack multiple left "
                           "right creature creatures counter counters turn turns handling permanent permanents "
                           "with".split())
_SECTION_WORDS = {"800": frozenset({"multi"}), "900": frozenset({"casua"}), "901": frozenset({"plane"}),
                  "904": frozenset({"schem"}), "905": frozenset({"draft"}),
                  "308": frozenset({"triba"})}  # Kindred was Tribal until 2024
_ON_QUOTED = re.compile(r"Some (?:triggered )?abilities trigger (?:when|whenever) a player [“\"]([^”\"]+)[”\"]")


def _glossary_names(version: RulesVersion, sections: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """More words that name a section about one named thing: the one-word glossary terms that cite nothing else
    ("Door: one half of a Room permanent. See rule 709", "Unlock ... See rule 709.5f"): a ruling about a Room's door
    is about split cards though it never says "split". Not a word of a title the sections share (`_GENERIC_TITLE`),
    nor one more than `RARE_ACTION_DF` clauses of the CR say ("case": "in that case" is no Case card)."""
    df = Counter(w for n in version.numbers() if depth_of(n) >= 2 for w in set(_content(version.clauses[n].text)))
    out: dict[str, frozenset[str]] = {}
    for term, entry in version.glossary.items():
        cited = set(re.findall(r"\brules? (\d{3})(?:\.\d+[a-z]?)?\b", entry.text))
        words = _content(_term_name(term))
        if len(words) != 1 or not cited or not cited <= set(sections):
            continue
        if words[0] in _GENERIC_TITLE or df[words[0]] > RARE_ACTION_DF:
            continue
        for section in cited:
            out[section] = out.get(section, frozenset()) | {words[0][:5]}
    return out


RARE_ACTION_DF = 12  # clauses of the CR that say the word
RARE_WORD_DF = 2  # a word only this many clauses say ("contraption") is evidence for them
GLOSSARY_WEIGHT = 0.35  # a CR glossary term the ruling uses ("last known information") -> the rule it cites
WORD_TERM_WEIGHT = 0.35  # a one-word term ("pile") may also be an everyday word
TERM_DF = 100  # a term said in more clauses of the CR than this is everyday vocabulary ("triggered ability")
WORD_TERM_DF = 20  # ... a one-word term ("tapped", "block")
FAMILY_LINKS = 3  # clauses of a cited section a term's cue chooses
# "... even if Necropotence is removed from the battlefield before your end step", "untapped during your untap step":
# a step or phase said only as when something happens is the ruling's setting, not what it is about; it weighs as
# little as a shared phrase. ("At the beginning of your upkeep" is not: what triggers then is the step's rule, 503.1a)
_AS_TIME = re.compile(r"\b(?:before|after|during|until|till|through|throughout|by|in|on)\s+"
                      r"(?:(?:your|their|his|her|its|the|each|every|that|this|next|following|first|second|last|"
                      r"opponent's|player's|controller's|owner's|same)\s+)*$", re.I)
SETTING_WEIGHT = 0.1
# the share of the ruling's other words (BM25, beside the section terms) under which a clause that defines a section
# term is no choice of the section's terms: on K's Room rulings the door's 709.5j said 0.00-0.21 of its best
# sibling's share, 118.9 (alternative costs, "may pay rather than") 0.86 and 1.00 for the two dev rulings it answers
DEFINITION_SHARE = 0.5
# A clause that says nearly every word of the ruling (idf-weighted) restates it: evidence enough to link it
# ("The mode and target of the triggered ability are chosen when it's put on the stack" -> 603.3c), where
# BM25 alone is not. On dev the labelled clauses BM25 ranked first covered 0.88-1.00, the nearest clause
# of a card-specific (`[]`) ruling at most 0.72.
COVER_MIN = 0.8
COVER_WORDS = 5  # ... of a ruling with at least this many words the CR says (a short one is covered by chance)


_SAYS_WHAT = re.compile(r"[\"”’]? (?:(?:is|are) (?:a|an|the|one|any)\b|means\b|refers to\b)")
_CALLED = re.compile(r"\b(?:called|referred to as)(?: an?| the)? [\"“]?$")
# the term opens its sentence or clause, as a subject ("A door is", "To play a card means", "“Outside the game” means"), not
# as part of one ("Unlocking a door is a special action", "... at the beginning of your next end step is a ...")
_AS_SUBJECT = re.compile(r"(?:^|[.;:!?,]\s+)\W*(?:(?:a|an|the|to|each)\s+)?[\"“‘]?$", re.I)


def _defines(term: re.Pattern[str], text: str) -> bool:
    """`text` says what the term is: "A door is a half ...", "... are called creature types", "To play a card
    means ...": the term as its sentence's subject followed by "is a"/"means"/"refers to", or after "called".
    The one detector of a defining clause (a section term's, a ruling's quoted term's) and of a ruling that
    defines a term itself."""
    return any((_SAYS_WHAT.match(text, m.end(), m.end() + 16) is not None
                and _AS_SUBJECT.search(text, max(0, m.start() - 60), m.start()) is not None)
               or _CALLED.search(text[max(0, m.start() - 30):m.start()]) is not None for m in term.finditer(text))


def _glossary_cues(version: RulesVersion, numbers: Sequence[str],
                   clause_tokens: Sequence[Sequence[str]]) -> tuple[Cue, ...]:
    """Cues from the CR glossary: a term the ruling says sends to the rules its entry cites.

    A numbered rule (608.2h, 700.3) is the link itself. A whole section ("State-Based Actions": rule
    704, "Split Cards": 709) is a family the ruling's words choose among (see `_Index.best_of`).
    Terms are matched in the singular and plural, a step also without "step" ("upkeep"). A term
    said in many clauses of the CR is everyday vocabulary, no cue ("triggered ability", "tapped");
    a keyword's name (its own logic in `rank_clauses`) and a face-down word ("face down", "manifest":
    the mechanics) are none either.
    """
    texts = [_fold(version.clauses[n].text) for n in numbers]
    postings: dict[str, set[int]] = {}
    for i, toks in enumerate(clause_tokens):
        for w in set(toks):
            postings.setdefault(w[:3], set()).add(i)
    keywords = {_fold(version.clauses[n].text) for n in version.numbers()
                if re.fullmatch(r"70[12]\.\d+", n)}
    glossary = {_term_name(t) for t in version.glossary}
    out = []
    for term, entry in version.glossary.items():
        names = [_term_name(t) for t in term.split(",") if t.strip() and not re.search(r"[\[\]\"]", t)]
        # "upkeep step" is also said "upkeep", unless that word is a term of its own ("untap", "draw")
        names += [n[: -len(" step")] for n in names if n.endswith(" step") and n[: -len(" step")] not in glossary]
        names = [n for n in names if n not in keywords and not _FACE_DOWN.search(n)
                 and _is_rare_term(n, texts, postings)]
        if not names:
            continue
        pattern = re.compile("|".join(_term_pattern(n) for n in names), re.I)
        # the prefixes are the same in the singular and the plural ("cost(s)", "pile(s)", "abilit(ies)")
        needs = frozenset.intersection(*(frozenset(w[:5] if len(w) > 5 else w[:4] for w in rule_tokens(n) if len(w) >= 4)
                                         for n in names))
        weight = GLOSSARY_WEIGHT if any(" " in n for n in names) else WORD_TERM_WEIGHT
        cited = list(dict.fromkeys(re.findall(r"\brules? (\d{3}(?:\.\d+[a-z]?)?)\b", entry.text)))
        # "702.106 Hidden Agenda" is a heading: no link
        rules = tuple(r for r in cited if "." in r and r in version.clauses and not is_title(version.clauses[r].text))
        sections = tuple(r for r in cited if "." not in r)
        turn_part = entry.text.startswith("Part of the turn")
        if rules:
            cue = _cue(pattern.pattern, " ".join(rules), f"glossary: {term}", weight)
            out.append(dataclasses.replace(cue, needs=needs, turn_part=turn_part))
        if sections:
            out.append(Cue(pattern, sections, f"glossary: {term}", weight, needs=needs, family=True,
                           turn_part=turn_part))
    return tuple(out)


_SINGULAR = {"ies": "y", "ena": "enon", "s": ""}  # Conspiracies, Phenomena, Schemes


def _type_cues(version: RulesVersion) -> tuple[Cue, ...]:
    """Cues for the card types of a casual variant or a handful of cards (Kindreds ... Conspiracies): a ruling
    that says something of the type in general ("Conspiracies are colorless", "A conspiracy doesn't count ...",
    "put conspiracies into the command zone") states its section's rules, whose words choose among them.
    "The conspiracy", "that scheme", "other conspiracies", "face-down conspiracies", "a conspiracy with hidden
    agenda" are some objects or a mechanic's, not the type."""
    out = []
    for section in sorted(_TYPE_SECTIONS):
        if section not in version.clauses:
            continue
        plural = _fold(version.clauses[section].text).strip()
        if not re.fullmatch(r"[a-z]+", plural):
            continue
        end = next(e for e in _SINGULAR if plural.endswith(e))
        singular = plural[: -len(end)] + _SINGULAR[end]
        either = f"(?:{singular}|{plural})"
        not_one = "".join(f"(?<!\\b{w} )" for w in ("the", "that", "this", "those", "these", "its", "their", "your",
                                                    "face-down", "face-up", "down", "up", "other"))
        pattern = (rf"(?:^|[.!?;:]\s+)(?:(?:an?|each|every|all) )?{either}(?:'s| cards?)?\b(?! with\b)"
                   rf"|\b(?:any|no|every|each) {singular}\b|{not_one}\b{plural}\b(?! with\b)")
        cue = Cue(re.compile(pattern, re.I), (section,), f"the card type {plural} in general", 0.7,
                  needs=frozenset({plural[:5]}), family=True)
        out.append(cue)
    return tuple(out)


def _term_name(term: str) -> str:
    return _fold(re.sub(r"\s*\(obsolete\)", "", term, flags=re.I)).strip()


def _term_pattern(name: str) -> str:
    """A regex for a term in the singular or plural ("split card(s)", "ability/abilities")."""
    words = [re.escape(w) for w in name.split()]
    last = words[-1]
    if last.endswith("y") and len(last) > 3:
        words[-1] = last[:-1] + "(?:y|ies)"
    elif last.endswith("s") and not last.endswith(("ss", "ies", "us")) and len(last) > 3:
        words[-1] = last[:-1] + "s?"
    elif not last.endswith("s"):
        words[-1] = last + "s?"
    return r"\b" + r"[\s-]+".join(words) + r"\b"


def _is_rare_term(name: str, texts: Sequence[str], postings: Mapping[str, set[int]]) -> bool:
    """Some of `texts` say the term, and no more than TERM_DF (WORD_TERM_DF for one word, in any
    form: "block", "blocked", "blocking") do."""
    words = rule_tokens(name)
    if not words:
        return False
    limit = TERM_DF if len(words) > 1 else WORD_TERM_DF
    found = set.intersection(*(postings.get(w[:3], set()) for w in words))
    pattern = re.compile(r"\b" + re.escape(name.rstrip("sy")) if len(words) == 1 else _term_pattern(name))
    said = 0
    for i in sorted(found):
        said += pattern.search(texts[i]) is not None
        if said > limit:
            return False
    return said > 0


def _coverage(said: set[str], index: _Index) -> Callable[[str], float]:
    """clause -> the idf-weighted share of the ruling's words (`said`, content words) that the clause says;
    0 for every clause when the ruling says fewer than `COVER_WORDS` words the CR knows."""
    known = {w: index.idf[w] for w in said if w in index.idf}
    total = sum(known.values())
    if len(known) < COVER_WORDS or total <= 0:
        return lambda number: 0.0
    return lambda number: sum(v for w, v in known.items() if w in index.words[index.position[number]]) / total


def _content(text: str) -> list[str]:
    return [rule_stem(t) for t in rule_tokens(text) if t not in RULE_STOPWORDS and not t.isdigit()]


PARAPHRASE_N = 4  # words of a phrase (after `_PERSON`)
PARAPHRASE_DF = 3  # a phrase said by more clauses than this is the CR's common wording
PARAPHRASE_WEIGHT = 0.05  # per rare phrase a ruling shares with a clause, up to three
# the CR says "a player ... they", a ruling "you": one person; articles and "can"/"may" differ freely
_PERSON = {"you": "P", "they": "P", "he": "P", "she": "P", "player": "P", "your": "P's", "their": "P's", "his": "P's",
           "her": "P's", "you're": "P're", "they're": "P're", "you'll": "P'll", "they'll": "P'll", "can": "may",
           "a": "", "an": "", "the": ""}
_PHRASE_FILLER = RULE_STOPWORDS | {"P", "P's", "P're", "P'll"}


def _phrases(toks: Sequence[str]) -> set[tuple[str, ...]]:
    """The word sequences of a text that may be a restated rule: `PARAPHRASE_N` words, person and articles
    folded, words stemmed, at least two of them content words."""
    words = [w for w in (_PERSON.get(t, t) for t in toks) if w]
    words = [w if w in _PHRASE_FILLER else rule_stem(w) for w in words]
    grams = zip(*(words[i:] for i in range(PARAPHRASE_N)))
    return {g for g in grams if sum(w not in _PHRASE_FILLER for w in g) >= 2}


def _trigrams(toks: Sequence[str]) -> set[tuple[str, str, str]]:
    return {(a, b, c) for a, b, c in zip(toks, toks[1:], toks[2:]) if not {a, b, c} <= RULE_STOPWORDS}


_INDEXES: dict[tuple[str, int], _Index] = {}
_KEEP_INDEXES = 2  # a process links against one CR, at most a test's second corpus


def _index_for(rules: RulesCorpus) -> _Index:
    remember_index(rules, lambda make: make())
    return _INDEXES[(rules.current.date, len(rules.current.clauses))]


def remember_index(rules: RulesCorpus, remember: Callable[[Callable[[], _Index]], _Index]) -> None:
    """Make the lexical index of `rules`'s current CR through `remember(compute)`, which may keep it
    between processes (a build's disk cache: building it takes about 1.5 s, unpickling 0.1 s)."""
    key = (rules.current.date, len(rules.current.clauses))
    if key not in _INDEXES:
        index = remember(lambda: _Index(rules.current))
        index.version = rules.current  # a pickled index comes back without it
        while len(_INDEXES) >= _KEEP_INDEXES:  # bounded: the oldest index goes
            del _INDEXES[next(iter(_INDEXES))]
        _INDEXES[key] = index


# --------------------------------------------------------------------------------------------
# Scoring one ruling


@dataclass(frozen=True, slots=True)
class Candidate:
    clause: str
    score: float
    evidence: str


def _does_action(name: str, text: str) -> bool:
    """The English ruling says the keyword action `name` as a verb done ("manifest the top card", "cloaks", "to
    manifest dread"), not only as a participle or noun ("a manifested creature", "with a cloak")."""
    first, _, rest = name.partition(" ")  # "manifests dread": the verb is inflected, not the phrase
    said = rf"\b{re.escape(first)}(?:s|ing)?" + (rf" {re.escape(rest)}\b" if rest else r"\b")
    return re.search(rf"(?<!\ba )(?<!\ban )(?<!\bthe ){said}", text, re.I) is not None


def rank_clauses(text: str, rules: RulesCorpus, *, english: bool = True,
                 mechanics: RulingMechanics | None = None, face_down: bool = False,
                 said_cues: Mapping[str, str] | None = None) -> list[Candidate]:
    """Clauses of the current CR for a ruling text, best first, with the evidence for each.

    A keyword's clauses (701.N, 702.N) are candidates only when the ruling says the keyword, or is
    about that face-down mechanic: sharing a word with a keyword's rules is no evidence. `said_cues`
    (cue label -> how) are cues the text says in other words (a German ruling's glossary concepts).
    """
    said_cues = said_cues or {}
    # the cues are written with the typewriter apostrophe ("won't"): newer rulings print the typographic one ("won’t")
    text = text.replace("\u2019", "'")
    index = _index_for(rules)
    raw = index.scores(_CONTRAST.sub(" ", text)) if english else None  # not the words of what it is contrasted with
    mechanics = mechanics or ruling_mechanics(text)
    said = set(_content(text))
    said5 = {w[:5] for w in said}
    # a keyword named only as an example ("such as kicker costs", "(and doesn't have haste)") is not the topic
    # nor is one the ruling only says a creature will have or won't get ("won't get +1/+1 or have lifelink")
    said_topic = set(_content(_GRANTED.sub(" ", _EXAMPLES.sub(" ", text))))
    said_plain = set(_content(_GRANTED.sub(" ", text)))
    if mechanics.of_cards and not mechanics.named and index.names_other_keyword(said_topic, mechanics.of_cards):
        # "split second only stops players from casting spells": the keyword the words name is the subject,
        # not the mechanic of the card (Willbender's morph) the ruling is printed under
        mechanics = dataclasses.replace(mechanics, of_cards=frozenset())
    cues: dict[str, list[str]] = {}
    cue_score: dict[str, float] = {}
    slotted: set[str] = set()  # clauses a cue chose for the ruling's mechanic: its bonus is in the cue
    pointed: set[str] = set()  # clauses a pointed cue (not a glossary term) chose
    term_words: dict[str, set[str]] = {}  # clause -> the words of the glossary terms whose cues chose it
    cited: set[str] = set()  # clauses a term the ruling says cites by number ("Unlock: See rule 709.5f")
    by_section: set[str] = set()  # clauses a term that names a whole section chose ("Door: See rule 709")
    own = mechanics.named | mechanics.of_cards
    own_specific = own - {_SUBSUMES[m] for m in own if m in _SUBSUMES}
    specific = mechanics.named - {_SUBSUMES[m] for m in mechanics.named if m in _SUBSUMES}
    face_down = face_down or _says_face_down(text) or bool(mechanics.named)
    # which exiled cards an ability finds is the subject, not that they are exiled face down (406.3)
    linked = _LINKED_EXILE.search(text) is not None
    if (mechanics.exiles_face_down and not mechanics.named and not mechanics.possible
            and _FACE_DOWN_WORD.search(text) and not _NOT_EXILED_FACE_DOWN.search(text)):
        face_down = False  # the face-down section's rules are about spells and permanents
        if not linked:
            cues.setdefault("406.3", []).append('cue "face-down cards its cards exile"')
            cue_score["406.3"] = max(cue_score.get("406.3", 0.0), 0.8)
            pointed.add("406.3")
    if linked:  # its cards' exile is a replacement effect: 607.2b, else 607.2a
        for rank, clause in enumerate(("607.2b", "607.2a", "406.6") if mechanics.exiles_instead
                                      else ("607.2a", "406.6")):
            cues.setdefault(clause, []).append('cue "linked abilities: only the cards its own ability exiled"'
                                               + ("" if rank == 0 else f" (#{rank + 1})"))
            cue_score[clause] = max(cue_score.get(clause, 0.0), LINKED_WEIGHT / (1 + 0.5 * rank))
            pointed.add(clause)
    words5 = {p for w in rule_tokens(text) for p in (w[:5], w[:4])}  # see `Cue.needs`
    setting = setting_spans(text)
    # the claim's words the CR does not say everywhere ("card", "player", "turn" are everyday words)
    everyday = math.log((len(index.numbers) + 1) / (EVERYDAY_DF + 0.5))
    claim_words = {w for w in _content(_cut(text, setting)) if index.idf.get(w, 0.0) >= everyday}
    if mechanics.as_turned_up and _TURNED_UP.search(text):  # the card's "As ~ is turned face up" ability
        cues.setdefault("708.11", []).append('cue "its card\'s As ... is turned face up ability"')
        cue_score["708.11"] = max(cue_score.get("708.11", 0.0), 0.9)
        pointed.add("708.11")
        if _REPLACEMENT.search(text):  # ... which is a replacement effect: 614.1e says so of that wording
            cues.setdefault("614.1e", []).append('cue "its card\'s As ... is turned face up replacement effect"')
            cue_score["614.1e"] = max(cue_score.get("614.1e", 0.0), 0.9)
            pointed.add("614.1e")
    no_trigger = _NO_TRIGGER.search(text)
    ordinal = no_trigger.group(1) if no_trigger else None
    if no_trigger is None and (no_effect := _NO_EFFECT.search(text)) is not None:
        no_trigger, ordinal = no_effect, no_effect.group(1) or no_effect.group(2)
    if no_trigger and mechanics.has_intervening_if(ordinal):  # its cards' "When ..., if ..." ability
        cues.setdefault("603.4", []).append('cue "its card\'s intervening-if ability won\'t trigger"')
        cue_score["603.4"] = max(cue_score.get("603.4", 0.0), 0.9)
        pointed.add("603.4")
    if (no_trigger and no_trigger.re is _NO_TRIGGER and _ALREADY.search(text)
            and mechanics.has_becomes_trigger(ordinal)):  # its cards' "Whenever ... becomes ..." ability
        cues.setdefault("603.2e", []).append('cue "its card\'s becomes-trigger doesn\'t trigger on a state that holds"')
        cue_score["603.2e"] = max(cue_score.get("603.2e", 0.0), 0.9)
        pointed.add("603.2e")
    defined = _definition_of(text, rules.current)
    if defined is not None:
        cues.setdefault(defined, []).append('cue "the ruling opens by defining the mechanic"')
        cue_score[defined] = max(cue_score.get(defined, 0.0), DEFINITION_WEIGHT)
        pointed.add(defined)
    if raw is not None:
        for quoted in _QUOTED_DEFINITION.finditer(text):  # 'To "play a card" is to ...': the rule defining it
            for rank, clause in index.defining(quoted.group(1), raw):
                cues.setdefault(clause, []).append('cue "the ruling defines a quoted term"'
                                                   + ("" if rank == 0 else f" (#{rank + 1})"))
                cue_score[clause] = max(cue_score.get(clause, 0.0), QUOTED_DEFINITION_WEIGHT / (1 + 0.5 * rank))
                pointed.add(clause)
    if (choice := _CHOICE_ON_RESOLUTION.search(text)) is not None:
        optional = _OPTIONAL.search(choice.group(0)) is not None or mechanics.has_optional_trigger(choice.group(1))
        triggered = _NOT_TRIGGERED.search(choice.group(0)) is None
        for rank, clause in enumerate(("603.5", "608.2d") if optional and triggered else
                                      ("608.2d", "603.5") if triggered else ("608.2d",)):
            label = ("an optional choice made as the ability resolves" if optional and triggered
                     else "a choice its effect offers")
            cues.setdefault(clause, []).append(f'cue "{label}"' + ("" if rank == 0 else f" (#{rank + 1})"))
            cue_score[clause] = max(cue_score.get(clause, 0.0), CHOICE_WEIGHT / (1 + 0.5 * rank))
            pointed.add(clause)
    said_trigger = re.search(r"\btrigger\w*\W+(?:\w+\W+){0,4}whenever (?:you|a player) ([^.\"]+)", text, re.I)
    done = set(_content(said_trigger.group(1))) if said_trigger else set()
    for number in index.on_action if said_trigger else ():  # "abilities that trigger whenever you manifest dread"
        if (index.keyword_of(number) or {""}) <= done:
            cues.setdefault(number, []).append('cue "triggers whenever a player does it"')
            cue_score[number] = max(cue_score.get(number, 0.0), 0.7)
    for number, action in index.on_quoted.items() if said_trigger else ():  # "whenever you fully unlock a Room"
        if action and action <= done:
            cues.setdefault(number, []).append('cue "triggers whenever a player does it"')
            cue_score[number] = max(cue_score.get(number, 0.0), 0.7)
    # A term that names a whole section ("Door": rule 709) chooses among the section's clauses by the ruling's words,
    # and its own word best matches the clause that defines it ("A door is a half of that permanent", 709.5j): the
    # ruling's claim ("unlock a door", "lock a door") is a sibling's (709.5f, 709.5g). A clause that defines a section
    # term the ruling says is chosen by no section's term when, beside the section terms' own words, it says under
    # `DEFINITION_SHARE` of what the best sibling says of the ruling ("alternative costs such as emerge rather than the
    # mana cost" is 118.9's, which defines them), unless the ruling too says what the term is.
    definitions_passed: set[str] = set()  # defining clauses no section term chooses
    if raw is not None:
        terms = [c for c in index.glossary if c.family and c.needs <= words5 and c.found_in(text)]
        beside = _CONTRAST.sub(" ", text)
        for c in terms:
            beside = c.pattern.sub(" ", beside)
        beside_raw = index.scores(beside) if terms else raw
        for c in terms:
            family = index.family(c.clauses)
            best = max((float(beside_raw[index.position[n]]) for n in family), default=0.0)
            definitions_passed.update(n for n in family if _defines(c.pattern, _fold(index.version.clauses[n].text))
                            and not _defines(c.pattern, text)
                            and float(beside_raw[index.position[n]]) < DEFINITION_SHARE * best)
    for cue in (*CUES, *index.glossary, *index.type_cues):
        relevant = face_down or not cue.face_down_only or bool(cue.slot and mechanics.of_cards)
        if not relevant or (linked and cue.clauses == ("406.3",)):
            continue
        found = cue.needs <= words5 and cue.found_in(text)
        if not found and cue.label not in said_cues:
            continue
        named_cue = f'cue "{cue.label}"' if found else f'cue "{cue.label}" ({said_cues[cue.label]})'
        weight = cue.weight
        if found and cue.turn_part and all(_AS_TIME.search(text, max(0, m.start() - 60), m.start())
                                           for m in cue.pattern.finditer(text)):
            weight, named_cue = SETTING_WEIGHT, f'cue "{cue.label}" (when it happens)'
        # a term said only in the ruling's setting: its clauses that say none of the claim's words get it only as a
        # tie-breaker, no evidence of their own ("If X becomes tapped before the declare blockers step, ...")
        in_setting = (found and cue.label.startswith(_GLOSSARY) and not cue.ordered
                      and all(_in_setting(m.span(), setting) for m in cue.pattern.finditer(text)))
        if cue.family and raw is None:
            continue  # the English words choose in a family
        # the clause of each mechanic the ruling is about, all first; of megamorph's 702.37b and morph's
        # 702.37e only the more specific one
        slot = tuple(dict.fromkeys(c for m, c in cue.slot if m in (specific if cue.named_only else own_specific)))
        slotted.update(slot)
        chosen = (index.best_of(cue.clauses, raw, skip=definitions_passed) if cue.family and raw is not None
                  else [(0, c) for c in slot] + [(rank + bool(slot), c) for rank, c in index.expand(cue.clauses)
                                                 if c not in slot])
        for rank, clause in chosen:
            if clause in rules.current.clauses:
                weight_of, named_of = weight, named_cue
                if in_setting and not claim_words & index.family_words(clause):
                    weight_of, named_of = min(weight, SETTING_WEIGHT), _IN_SETTING + named_cue[len('cue "'):]
                if weight_of > GLOSSARY_WEIGHT:
                    pointed.add(clause)
                cues.setdefault(clause, []).append(named_of + ("" if rank == 0 else f" (#{rank + 1})"))
                if cue.label.startswith(_GLOSSARY) and len(set(_content(cue.label))) - 1 < TERM_PHRASE_WORDS:
                    term_words.setdefault(clause, set()).update(_content(cue.label[len(_GLOSSARY):]))
                if cue.label.startswith(_GLOSSARY) and found and not in_setting and (cue.family or rank == 0):
                    (by_section if cue.family else cited).add(clause)
                cue_score[clause] = max(cue_score.get(clause, 0.0), weight_of / (1 + 0.5 * rank))
    # a ruling that says a keyword action ("manifest cards", "cloak the top card") and nothing a cue reads about
    # one of its rules is about doing it: the action's definition leads its clauses that merely share words with
    # the ruling. (A keyword ability's rulings are about one of its rules: casting, turning face up ...)
    # Said only as what a permanent is ("a manifested creature", "a cloaked card", "the card you manifested", "with a
    # cloak"), the action is no topic of its own: the ruling is about a rule of such permanents (links46).
    named_mechanics = [m for m in MECHANICS if m.name in specific and m.section.startswith("701.")
                       and (not english or _does_action(m.name, text))]
    default = {} if any(m.owns(c) for m in named_mechanics for c in cues) else {
        m.section + "a": MECHANIC_DEFAULT for m in named_mechanics if m.section + "a" in rules.current.clauses}
    if slotted and not mechanics.face_down:  # a face-down cue ("2/2 creature") makes the cards' mechanic the subject
        mechanics = dataclasses.replace(mechanics, face_down=True)

    lexical: dict[str, float] = {}
    shared: dict[str, list[str]] = {}
    rare: dict[str, list[str]] = {}  # words the CR says in one or two clauses ("contraption")
    if raw is not None:
        top = float(raw.max()) if len(raw) else 0.0
        order = np.argsort(-raw, kind="stable")[:30].tolist()  # stable: ties keep clause order
        grams = _trigrams(rule_tokens(text))
        for i in order:
            if top <= 0 or raw[i] <= 0:
                break
            number = index.numbers[i]
            lexical[number] = float(raw[i]) / top
            common = sorted(" ".join(g) for g in grams & index.trigrams[i] & index.rare)
            if common:
                shared[number] = common
            if said & index.words[i] & index.rare_words:
                rare[number] = sorted(said & index.words[i] & index.rare_words)

    restated: dict[str, int] = {}  # clauses the ruling restates: rare phrases they share
    if raw is not None:
        for g in _phrases(rule_tokens(text)):
            for i in index.paraphrase.get(g, ()):
                restated[index.numbers[i]] = restated.get(index.numbers[i], 0) + 1
        restated = {n: k for n, k in restated.items() if k >= 3}  # a shared run of 6 words or more
        for number in restated:
            lexical.setdefault(number, float(raw[index.position[number]]) / top if top > 0 else 0.0)

    coverage = _coverage(said, index)
    topic: dict[str, float] = {}  # clause -> its bonus for what the ruling is about (definition, face-down section)
    out: list[Candidate] = []
    for number in set(lexical) | set(cues):
        mechanic = mechanics.bonus(number)
        keyword = index.keyword_of(number)
        by_name = keyword is not None and index.names_ability(number, text)  # "a player's offer" is no Offering
        # "abilities such as lifelink": a keyword ability named as an example is a candidate, not the topic
        example = (keyword is not None and by_name and number.startswith("702.") and keyword <= said_plain
                   and not keyword & said_topic and not any(m.owns(number) for m in MECHANICS))
        if keyword is not None and mechanic <= 0 and not (by_name and keyword & said_topic) and not example:
            continue
        named = index.named_section_of(number)
        if named is not None and mechanic <= 0 and not named & said5 and number not in pointed:
            continue
        score = 0.5 * lexical.get(number, 0.0)
        # shared rare trigrams ("owner of the", "a scheme in") make a link confident but add nothing to its score:
        # as score they chose a clause that shares a turn of phrase over one that says more of the ruling (links44)
        score += PARAPHRASE_WEIGHT * min(restated.get(number, 0), 3)
        score += cue_score.get(number, 0.0) + default.get(number, 0.0)
        evidence: list[str] = list(cues.get(number, ()))
        if number in default:
            topic[number] = default[number]
            evidence.append("the definition of the mechanic the ruling names")
        if face_down and number.startswith(_FACE_DOWN_RULES):
            score += SECTION_BONUS
            topic[number] = topic.get(number, 0.0) + SECTION_BONUS
            evidence.append("face-down rules")
        score += 0.0 if number in slotted and mechanic > 0 else mechanic
        if mechanic > 0:
            evidence.append("the ruling's mechanic" + ("" if mechanics.named else " (from the face-down characteristics "
                                                       "it gives)" if mechanics.described else " (from its cards)")
                            if mechanic > POSSIBLE_MECHANIC_BONUS else
                            "a mechanic its face-down characteristics allow" if mechanics.described
                            else "a mechanic of its cards")
        elif (keyword and by_name and keyword <= said_topic and not any(m.owns(number) for m in MECHANICS)
              and re.match(r"70[12]\.\d+", number).group(0) in index.rare_actions):  # type: ignore[union-attr]
            # keyword abilities are rare words; keyword actions ("exile", "cast") are everyday verbs: no bonus
            # "If an effect refers to foretelling a card" / "states that a card becomes foretold" (702.143c-d): how
            # other cards' effects are read, not the keyword's own rules, unless the ruling speaks of such an effect
            about_effects = _ABOUT_EFFECTS.match(index.version.clauses[number].text) and not _SAYS_EFFECT.search(text)
            score += KEYWORD_BONUS if number.startswith("702.") and not about_effects else 0.0
            evidence.append(f"keyword \"{' '.join(sorted(keyword))}\""
                            + (" (a rule on how effects say it)" if about_effects else ""))
        elif example and keyword:
            evidence.append(f"{_AN_EXAMPLE} \"{' '.join(sorted(keyword))}\"")
        if restated.get(number):
            evidence.append(f"restates it ({restated[number]} rare phrases)")
        if shared.get(number):
            evidence.append("shared phrases: " + "; ".join(f'"{p}"' for p in shared[number][:3]))
        if rare.get(number):
            evidence.append("rare words: " + "; ".join(f'"{w}"' for w in rare[number][:3]))
        if number in lexical and (covered := coverage(number)) >= COVER_MIN:
            evidence.append(f"says {covered:.0%} {_SAYS}")
        if number in lexical:
            evidence.append(f"BM25 {lexical[number]:.2f} of best")
        # two of the ruling's terms agree: the rule one cites is the one another's section offers ("lock a door")
        agreed = number in cited and number in by_section
        if number in term_words and number not in pointed and not agreed and _rests_on_term(evidence):
            # beside the term, a word the two share that is no everyday word of the CR ("card", "player", "turn")
            everyday = math.log((len(index.numbers) + 1) / (EVERYDAY_DF + 0.5))
            beyond = {w for w in said & index.family_words(number) - term_words[number]
                      if index.idf.get(w, 0.0) >= everyday}
            if not beyond:  # "untapped", "pile", "leaves the battlefield": the term is all the two share
                evidence = [_TERM_ONLY + e[len('cue "'):] if e.startswith('cue "' + _GLOSSARY) else e for e in evidence]
        if lexical.get(number, 0.0) < TOPIC_ALONE_LEXICAL and all(e in _TOPIC_ALONE or e.startswith("BM25 ")
                                                                 for e in evidence):
            # nothing points at it but the ruling's face-down words or its cards' mechanic, and another clause says
            # more of the ruling: "an attacking face-down creature turned face up still attacks" is no rule of 708
            evidence = [_TOPIC_ALONE.get(e, e) for e in evidence]
        out.append(Candidate(number, float(score), ", ".join(evidence)))
    out.sort(key=lambda c: (-c.score, c.clause))
    return _restated_leads(out, topic, lexical, set(shared) | set(restated), set(cues))


def _restated_leads(out: list[Candidate], topic: Mapping[str, float], lexical: Mapping[str, float],
                    restating: set[str], cued: set[str]) -> list[Candidate]:
    """`out` (best first) with a top clause that leads only by the bonus for what the ruling is about (the
    definition of the mechanic it names, the face-down section) put below a clause whose rare phrases the ruling
    restates and which says more of its words: "the cards are manifested one at a time" is 701.40e, not 701.40a;
    "an illegal target as it tries to resolve ... won't manifest dread" is 608.2b, not 701.62a (links45)."""
    if not out or out[0].clause in cued or out[0].clause in restating or not topic.get(out[0].clause):
        return out
    top = out[0]
    lowered = top.score - topic[top.clause]
    if not any(c.clause in restating and lexical.get(c.clause, 0.0) > lexical.get(top.clause, 0.0)
               and c.score - topic.get(c.clause, 0.0) > lowered for c in out[1:]):
        return out
    out = [dataclasses.replace(top, score=lowered), *out[1:]]
    out.sort(key=lambda c: (-c.score, c.clause))
    return out


_GLOSSARY = "glossary: "
_TERM_ONLY = 'the term alone "'  # a glossary term that is all a clause shares with the ruling: no evidence by itself
EVERYDAY_DF = 150  # ... and a word said in more clauses of the CR than this shares nothing beside it
_IN_SETTING = 'the setting\'s term "'  # a glossary term said only in the ruling's setting (`setting_spans`)
TERM_PHRASE_WORDS = 3  # a term of this many content words ("delayed triggered ability") is a rare phrase itself


# evidence that only says what the ruling is about, no evidence by itself for a clause that says less of the ruling
# than another (BM25 under this share of the best): marked so that it makes no link confident (`stands_on_evidence`)
TOPIC_ALONE_LEXICAL = 0.9
_TOPIC_ALONE = {"face-down rules": "the face-down words alone (another clause says more of it)",
                "the ruling's mechanic (from its cards)": "its cards' face-down ability alone (another clause says more "
                                                          "of it)",
                "a mechanic of its cards": "its cards' face-down ability alone (another clause says more of it)"}


def rests_on_face_down_words(evidence: str) -> bool:
    """The link (by its `evidence`) stands on the ruling's face-down words or its cards' face-down ability alone: no
    confident rule link, but the ruling (or its card) is about face-down play (`kb.checks.face_down_links`)."""
    return any(marked in evidence for marked in _TOPIC_ALONE.values())


def _rests_on_term(evidence: Sequence[str]) -> bool:
    """The link's evidence is glossary terms and shared words, nothing that points at the clause itself."""
    return all(e.startswith('cue "' + _GLOSSARY) or e.startswith(("BM25 ", "says ")) for e in evidence)


def _expand(clauses: Sequence[str], version: RulesVersion) -> list[tuple[int, str]]:
    """(rank, clause) pairs; `701.40*` stands for every subrule of 701.40, all at one rank."""
    out: list[tuple[int, str]] = []
    for rank, clause in enumerate(clauses):
        if clause.endswith("*"):
            out += [(rank, c.number) for c in version.section(clause[:-1]) if c.number != clause[:-1]]
        else:
            out.append((rank, clause))
    return out


def _select(candidates: list[Candidate]) -> list[Candidate]:
    if not candidates:
        return []
    best = candidates[0].score
    return [c for c in candidates[:MAX_LINKS] if c.score >= KEEP_RATIO * best]


# --------------------------------------------------------------------------------------------
# Overrides


@dataclass(frozen=True, slots=True)
class Override:
    """A reviewed correction for the ruling(s) whose text contains `quote`."""

    quote: str
    clauses: tuple[str, ...] = ()  # replaces the automatic links, best first
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    note: str = ""

    def matches(self, entry: Entry) -> bool:
        q = _fold(self.quote)
        return any(q in _fold(t) for t in (entry.text, *(v.text for v in entry.variants)))


def _fold(text: str) -> str:
    """A rule text or quote as links match it: rule-normalised (plain dashes), casefolded."""
    return normalize_text(text, plain_dashes=True).casefold()


def parse_overrides(text: str, source: str = "links-overrides.yaml") -> list[Override]:
    """Overrides from YAML text: a list of {quote, clauses | add | remove, note}."""
    import yaml

    try:
        doc = yaml.safe_load(text) or []
    except yaml.YAMLError as e:
        raise InputError(f"{source}: not valid YAML ({e})") from None
    if not isinstance(doc, list):
        raise InputError(f"{source}: expected a list of overrides")
    out = []
    for i, item in enumerate(doc, 1):
        if not isinstance(item, dict) or not isinstance(item.get("quote"), str) or not item["quote"].strip():
            raise InputError(f"{source}: override #{i} needs a `quote` (a piece of the ruling's text)")
        fields = {k: tuple(str(c) for c in item.get(k) or ()) for k in ("clauses", "add", "remove")}
        if not any(fields.values()):
            raise InputError(f"{source}: override #{i} ({item['quote'][:40]!r}) changes nothing")
        out.append(Override(item["quote"], note=str(item.get("note", "")), **fields))
    return out


def card_texts(oracle: Oracle, mtgjson_dir: Path) -> dict[str, str]:
    """English card name → Oracle text: the Oracle cards, then the newer MTGJSON files of `mtgjson_dir`."""
    from kb.ingest import mtgjson

    out = {card.name: card.text for card in oracle.cards.values()}
    for path in sorted(mtgjson_dir.glob("*.json")):
        for card in mtgjson.iter_cards(mtgjson.load(path.read_text(encoding="utf-8"))):
            if card.get("name") and card.get("text"):
                out.setdefault(card["name"], card["text"])
    return out


def _apply(override: Override, links: list[Candidate], rules: RulesCorpus) -> list[Candidate]:
    for number in (*override.clauses, *override.add):
        if number not in rules.current.clauses:
            raise InputError(f"links-overrides.yaml: {override.quote[:40]!r} names unknown clause {number}")
    note = f"{_OVERRIDE}{': ' + override.note if override.note else ''}"
    if override.clauses:
        auto = {c.clause: c for c in links}
        links = [Candidate(n, 1.0 - 0.01 * i, note + (f"; {auto[n].evidence}" if n in auto and auto[n].evidence else ""))
                 for i, n in enumerate(override.clauses)]
    links = [c for c in links if c.clause not in override.remove]
    have = {c.clause for c in links}
    floor = min((c.score for c in links), default=1.0)
    links += [Candidate(n, floor * 0.99, note) for n in override.add if n not in have]
    return links


# --------------------------------------------------------------------------------------------
# Entry point


def link_entries(entries: list[Entry], rules: RulesCorpus, overrides: Iterable[Override],
                 cards: Mapping[str, str], glossary: Glossary | None = None) -> list[Entry]:
    """Entries with `rules` set: rule entries to their own clause, rulings to ranked clauses.

    A ruling without a confident link gets no links and a `link_note` saying so (with the nearest
    clause), rather than a clause that merely shares words with it. `overrides` are the reviewed
    corrections (`Corpus.overrides`; `[]` for automatic links only); `cards` (English name → Oracle
    text, which tells a ruling's mechanic) is `Corpus.card_texts`; `glossary` (`Corpus.base_glossary`)
    reads a German or Spanish ruling with no English wording (`read_foreign`).
    """
    overrides = list(overrides)
    out = []
    for entry in entries:
        links, note = link_candidates(entry, rules, cards, glossary)
        for override in overrides:
            if entry.kind is Kind.RULING and override.matches(entry):
                links = _apply(override, links, rules)
        if links:
            note = ""
        rule_links = tuple(
            RuleLink(c.clause, round(min(c.score, 1.0), 4), rules.number_at(c.clause, entry.first_date), c.evidence)
            for c in links)
        out.append(dataclasses.replace(entry, rules=rule_links, link_note=note))
    return out


def link_candidates(entry: Entry, rules: RulesCorpus, cards: Mapping[str, str] | None = None,
                    glossary: Glossary | None = None) -> tuple[list[Candidate], str]:
    """The automatic links of one entry, best first, and why there are none when there are none."""
    if entry.kind is Kind.RULE:
        if entry.clause and entry.clause in rules.current.clauses:
            return [Candidate(entry.clause, 1.0, "the entry is this clause's text")], ""
        return [], ""
    if any(v.lang is Lang.EN for v in entry.variants):
        unknown = _unknown_keyword(mask_card_names(entry.text, entry.cards), _index_for(rules))
        if unknown is not None:
            word, known = unknown
            return [], (f"no link: the ruling is about {word}, a keyword no CR rule has (a variant of {known}); "
                        f"the rules of {known} may apply to it only as its own page says")
    return _choose(ruling_candidates(entry, rules, cards, glossary))


# "a face-down creature with spellmorph", "its spellmorph cost": a keyword ability of a card no CR has (playtest or
# Un- cards), named after one it has; the CR's rules are at most its model, and linking them is a guess
_KEYWORD_FRAME = re.compile(r"\b(?:with|has|have|had) ([a-z]{5,})\b|\b([a-z]{5,}) (?:abilit(?:y|ies)|costs?)\b")


def _unknown_keyword(text: str, index: _Index) -> tuple[str, str] | None:
    """(word, keyword) for a word `text` uses as a keyword ability ("with X", "X ability", "X cost") that no clause of
    the CR says and that is built on the name of one of the CR's keyword abilities ("spellmorph": morph)."""
    for m in _KEYWORD_FRAME.finditer(text):
        word = m.group(1) or m.group(2)
        if any(t in index.idf for t in _content(word)):
            continue
        known = [k for n, words in index.keywords.items() if n.startswith("702.") and len(words) == 1
                 for k in words if len(k) >= 4 and k in word and k != word]
        if known:
            return word, max(known, key=len)
    return None


def ruling_candidates(entry: Entry, rules: RulesCorpus, cards: Mapping[str, str] | None = None,
                      glossary: Glossary | None = None) -> list[Candidate]:
    """Every candidate clause of a ruling entry, best first, before the links are chosen among them."""
    english = any(v.lang is Lang.EN for v in entry.variants)
    if not english:
        return _foreign_candidates(entry, rules, cards, glossary)
    # the canonical (newest English) wording: revisions come after it among the variants, oldest last;
    # the card's own name is no word of the rules ("Double Stroke" is no double agenda)
    text = mask_card_names(entry.text, entry.cards)
    cue_text = _cue_text(entry)  # cues also read the other-language wordings, lexical scores need English
    # the mechanic is what the newest English wording names: an older wording merged into the entry may
    # name the mechanic a reprint had then (a disguise reminder's morph-era wording says "morph cost")
    mechanics = ruling_mechanics(text, [cards[c] for c in entry.cards if cards and c in cards])
    found = rank_clauses(text, rules, english=True, mechanics=mechanics)
    extra = {c.clause: c for c in rank_clauses(cue_text, rules, english=False, mechanics=mechanics)}
    return _merge(found, extra)


def _cue_text(entry: Entry) -> str:
    return mask_card_names(" ".join(dict.fromkeys([entry.text, *(v.text for v in entry.variants)])),  # duplicates say nothing new
                           entry.cards)


_LANGUAGE = {Lang.DE: "German", Lang.ES: "Spanish"}
_FACE_DOWN_CONCEPTS = frozenset({"face_down", "turn_face_up"})  # glossary concepts


@dataclass(frozen=True, slots=True)
class ForeignReading:
    """What the glossary reads of a German or Spanish ruling: every concept it says (id -> the wording's language
    and the glossary term it says: "ansehen"), the mechanics among them (name -> the same: "tarnen"), and every
    concept by its English (first) term."""

    mechanics: dict[str, tuple[Lang, str]]
    english_terms: tuple[str, ...]
    # how it says face down or turning face up ("Aufdecken → turn face up"; "" when it doesn't): the face-down cues apply
    face_down: str
    concepts: dict[str, tuple[Lang, str]] = dataclasses.field(default_factory=dict)

    def how(self, mechanic: str) -> str:
        lang, term = self.mechanics[mechanic]
        return f"from the {_LANGUAGE[lang]} text's glossary terms: {term} → {mechanic}"

    def cues(self) -> dict[str, str]:
        """The English cues (label -> how the ruling says it) whose concepts the ruling says (`CONCEPT_CUES`)."""
        said = frozenset(self.concepts)
        out = {}
        for cue in CONCEPT_CUES:
            if cue.found_in(said):
                concepts = next(s for s in cue.all_of if s <= said)
                lang = self.concepts[min(concepts)][0]
                terms = ", ".join(f"{self.concepts[c][1]} → {c.replace('_', ' ')}"
                                  for c in sorted(concepts, key=list(self.concepts).index))
                out[cue.label] = f"from the {_LANGUAGE[lang]} text's glossary terms: {terms}"
        return out


@functools.lru_cache(maxsize=2)  # one glossary per process, at most a test's second one
def _concept_finder(glossary: Glossary) -> ConceptFinder:
    from kb.concepts import ConceptFinder
    return ConceptFinder(glossary)


def read_foreign(entry: Entry, glossary: Glossary) -> ForeignReading | None:
    """The glossary's reading of a ruling's German or Spanish wordings (None when it has none): its concepts in
    any word form (`ConceptFinder`: "das Grauen manifestierst", "ins Spiel gekommen")."""
    names = {m.name for m in MECHANICS}
    by_id = {c.id: c for c in glossary.concepts}
    concepts: dict[str, tuple[Lang, str]] = {}
    if not any(v.lang in _LANGUAGE for v in entry.variants):
        return None
    for variant in entry.variants:
        if variant.lang not in _LANGUAGE:
            continue
        said = tuple(tokenize(variant.text))
        for cid in _concept_finder(glossary).find(variant.text, variant.lang):
            terms = by_id[cid].terms.get(variant.lang, ())
            # the term as the glossary lists it that the wording says word for word, else its first (the wording
            # says another form of it: "gekommen" for "kommt"); a rulings-only term without its quotes
            term = next((t for t in terms if _says(said, tuple(tokenize(t)))), terms[0] if terms else cid).strip('"')
            concepts.setdefault(cid, (variant.lang, term))
    english = [by_id[c].terms[Lang.EN][0] for c in concepts if by_id[c].terms.get(Lang.EN)]
    face_down = next((f"from the {_LANGUAGE[lang]} text's glossary terms: {term} → {cid.replace('_', ' ')}"
                      for cid, (lang, term) in concepts.items() if cid in _FACE_DOWN_CONCEPTS), "")
    mechanics = {cid.replace("_", " "): said for cid, said in concepts.items() if cid.replace("_", " ") in names}
    return ForeignReading(mechanics, tuple(dict.fromkeys(english)), face_down, concepts)


def _says(tokens: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return n > 0 and any(tokens[i:i + n] == phrase for i in range(len(tokens) - n + 1))


FOREIGN_MECHANIC_WEIGHT = MECHANIC_DEFAULT  # the clause of the mechanic a foreign ruling names, its concepts choose
FOREIGN_COVER_MIN = 0.5  # ... which must say this share of the other concepts the ruling says (by their English terms)


def _foreign_candidates(entry: Entry, rules: RulesCorpus, cards: Mapping[str, str] | None,
                        glossary: Glossary | None) -> list[Candidate]:
    """A German or Spanish ruling with no English wording (an entry of its own): its German and Spanish cues and
    the English cues it says in the glossary's concepts (`CONCEPT_CUES`) first (the face-down ones also when the
    glossary reads face down or turning face up in it); then, when
    they give no confident link, the one mechanic it names in the glossary's own terms (`tarnen` is cloak):
    the English terms of the other concepts it says choose among that mechanic's clauses by BM25, and the
    clause chosen must say most of them (naming only the mechanic, its definition). That is as much as the
    KB can read of it without English; naming no mechanic, or two ("as with morph"), it abstains as the
    cues leave it."""
    cue_text = _cue_text(entry)
    mechanics = ruling_mechanics(cue_text, [cards[c] for c in entry.cards if cards and c in cards])
    reading = read_foreign(entry, glossary) if glossary is not None else None
    if reading is None:
        return rank_clauses(cue_text, rules, english=False, mechanics=mechanics)
    mechanics = dataclasses.replace(mechanics, named=mechanics.named | frozenset(reading.mechanics))
    found = rank_clauses(cue_text, rules, english=False, mechanics=mechanics, face_down=bool(reading.face_down),
                         said_cues=reading.cues())
    if reading.face_down and not _FACE_DOWN.search(cue_text) and not mechanics.named:  # the glossary alone read it
        found = [dataclasses.replace(c, evidence=f"{c.evidence} ({reading.face_down})")
                 if "face-down rules" in c.evidence else c for c in found]
    named = frozenset(reading.mechanics)
    specific = [m for m in MECHANICS if m.name in named - {_SUBSUMES[n] for n in named if n in _SUBSUMES}]
    if _choose(found)[0] or len(specific) != 1:
        return found
    [mechanic] = specific
    index = _index_for(rules)
    raw = index.scores(" ".join(reading.english_terms))
    family = [n for n in index.family((mechanic.section,)) if n in rules.current.clauses]
    if not family:
        return found
    own = set(_content(mechanic.name))
    others = [t for t in reading.english_terms if set(_content(t)) - own]
    if not others:
        clause = mechanic.section + "a" if mechanic.section + "a" in family else family[0]
        how = "it names only the mechanic: its definition"
    else:
        clause = max(family, key=lambda n: float(raw[index.position[n]]))  # the first of a tie
        # the clause must say most of what else the ruling talks about: "you manifest even if the Form has left
        # as its ability resolves" names manifest, but is about an ability resolving without its source (113.7a)
        said = [t for t in others if set(_content(t)) <= index.words[index.position[clause]]]
        if len(said) < FOREIGN_COVER_MIN * len(others):
            return found
        how = f"the clause says {len(said)} of its {len(others)} other concepts ({', '.join(others[:6])})"
    score = FOREIGN_MECHANIC_WEIGHT + mechanics.bonus(clause)
    return _merge(found, {clause: Candidate(clause, score, f"the ruling's mechanic ({reading.how(mechanic.name)}), {how}")})


def _choose(found: list[Candidate]) -> tuple[list[Candidate], str]:
    chosen = _select(found)
    if chosen and _is_confident(chosen[0]):
        return chosen, ""
    # BM25 alone is no link: the best clause a cue, keyword or mechanic points at leads, if it scores
    # near the best (a shared phrase is too weak to pass over the best); else a keyword the ruling
    # names as an example ("abilities such as lifelink")
    evidenced = (_select([c for c in found if _is_confident(c, phrases=False)])
                 or _select([c for c in found if _AN_EXAMPLE in c.evidence]))
    if evidenced and found and evidenced[0].score >= KEEP_RATIO * found[0].score:
        return evidenced, ""
    # no fallback to the 708 heading for a face-down word: "draft it face up", "returns the card face up",
    # "if this scheme is face up" were its rulings in the bundled corpus, none about a rule of 708
    nearest = f" (nearest: {chosen[0].clause}, {chosen[0].evidence})" if chosen else ""
    return [], f"no confident link: no cue, mechanic or keyword of the ruling points at a clause{nearest}"


def mask_card_names(text: str, cards: Sequence[str]) -> str:
    """`text` with its cards' names (and a legendary name's short form: "Gonti" of "Gonti, Lord of Luxury")
    replaced by a token no clause says: the words of a name are no evidence for a rule."""
    names = {n for card in cards for n in (card, card.split(",")[0]) if len(n) >= 4}
    if not names:
        return text
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")
    return pattern.sub(_CARD_NAME, text)


def _is_confident(candidate: Candidate, phrases: bool = True) -> bool:
    return stands_on_evidence(candidate.evidence, phrases)


_OVERRIDE = "reviewed override"


def stands_on_evidence(evidence: str, phrases: bool = True) -> bool:
    """A link (by its `evidence`) stands on a cue, the ruling's mechanic, a clause that says nearly all its words
    (`COVER_MIN`), a rare phrase it shares with the clause, or a reviewed override; a BM25 score alone (common words)
    is no evidence for a card-specific ruling: such a link is kept only beside a better one."""
    return any(k in evidence for k in ("cue ", "mechanic", "face-down rules", "keyword ", _SAYS, _OVERRIDE)) \
        or phrases and ("shared phrases" in evidence or "rare words" in evidence or "restates it" in evidence)


def _merge(found: list[Candidate], extra: dict[str, Candidate]) -> list[Candidate]:
    have = {c.clause for c in found}
    merged = list(found) + [c for n, c in extra.items() if n not in have]
    merged.sort(key=lambda c: (-c.score, c.clause))
    return merged


def precision_recall(predicted: dict[str, Sequence[str]], gold: dict[str, Sequence[str]]) -> dict[str, Any]:
    """P@1 (top link is one of the gold clauses), strict P@1 (top link is the first gold clause),
    recall (share of gold clauses among the links), over the items of `gold`."""
    n = len(gold)
    hits = strict = found = total = 0
    for key, want in gold.items():
        got = list(predicted.get(key, ()))
        if got and got[0] in want:
            hits += 1
        if got and got[0] == want[0]:
            strict += 1
        found += sum(1 for c in want if c in got)
        total += len(want)
    return {"items": n, "p_at_1": hits / n if n else math.nan, "strict_p_at_1": strict / n if n else math.nan,
            "recall": found / total if total else math.nan}
