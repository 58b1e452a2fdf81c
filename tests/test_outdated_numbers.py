"""`kb outdated`: CR numbers a ruling cites, read against the KB's CR versions (tryout30 D5).

The bundled CRs run from 2014-09-25 to 2026-01-16: 707.2 was the face-down rule (today's 708.2) until
the CR of 2018-07-13; 702.36b/d were morph's (today's 702.37c/e) in the CRs of 2014-09-25 and
2015-01-23; 115 was special actions (today's 116) until 2018-07-13.
"""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.outdated import Level, Reason, cited_numbers, find_outdated, rule_history_from

CORPUS = Corpus.default()

# the answer of a judge forum of 2014 (tryout30 page 10): it quotes the 2014 wording of morph's 702.36b
FORUM_702_36B = ("702.36b specifically says that you turn the card face-down before putting it onto the stack and "
                 "that \u201cAny effects or prohibitions that would apply to casting a card with these characteristics "
                 "(and not the face-up card's characteristics) are applied to casting this card. These values are "
                 "the copiable values of that object's characteristics\u201d")
# a forum answer of 2013 (tryout30 page 8) quoting 702.36d, which cites rule 115
FORUM_702_36D = ("702.36d If you have priority, you may turn a face-down permanent you control face up. This is a "
                 "special action; it doesn't use the stack (see rule 115). To do this, show all players what the "
                 "permanent's morph cost would be if it were face up, pay that cost, then turn the permanent face "
                 "up. (If the permanent wouldn't have a morph cost if it were face up, it can't be turned face up "
                 "this way.) The morph effect on it ends, and it regains its normal characteristics. Any abilities "
                 "relating to the permanent entering the battlefield don't trigger when it's turned face up and "
                 "don't have any effect, because the permanent has already entered the battlefield.")


@pytest.fixture(scope="module")
def history():
    return rule_history_from(CORPUS.rules)


def _find(text, date, history, lang=Lang.EN):
    v = Variant(text, text, lang, date, "page.txt", 1, Relation.CANONICAL, 1.0, None)
    entry = Entry(id="r-test", kind=Kind.RULING, text=text, cards=(), first_date=date, last_date=date,
                  variants=(v,))
    items = find_outdated([entry], terminology=CORPUS.terminology, rule_history=history)
    return {r.kind: r for item in items for r in item.reasons} | {"suggested": items[0].suggested if items else None}


@pytest.mark.parametrize("text, numbers", [
    ("702.36b specifically says so (see rule 115).", ["702.36b", "115"]),
    ("Siehe Regel 707. Regla 116 y Rule 418.5c.", ["707", "116", "418.5c"]),
    # amounts, dates and a bare number without a word for "rule" are no citation
    ("Pay 2.50 or 1,200.5 life; 3.141 and 100 cards, 2014.09.25, 100.000 Lebenspunkte.", []),
])
def test_cited_numbers_are_clauses_anywhere_and_sections_after_a_word_for_rule(text, numbers):
    assert [n for n, _ in cited_numbers(text)] == numbers


def test_a_number_the_cr_of_the_rulings_date_gave_another_rule_is_outdated_with_todays_number(history):
    reasons = _find("A face-down permanent is a 2/2 creature with no name (see rule 707.2).", "2015-03-01", history)
    r = reasons[Reason.RULE_NUMBER]
    assert r.kind.level is Level.OUTDATED
    assert r.detail.startswith("cites 707.2, now 708.2 (renumbered between the KB's CRs of 2018-07-13 and")
    assert "of 2015-01-23" in r.detail  # the CR in force on the ruling's date
    assert reasons["suggested"] == "A face-down permanent is a 2/2 creature with no name (see rule 708.2)."


@pytest.mark.parametrize("text, date", [
    # dated after the renumbering, citing today's number
    ("A face-down permanent is a 2/2 creature with no name (see rule 708.2).", "2025-01-01"),
    # a number that still means the same rule (trample's 702.19b in every CR of the KB)
    ("A creature with trample assigns lethal damage to its blockers first (rule 702.19b).", "2016-05-01"),
    # a ruling of 2021, when the KB's CR in force is that of 2018-07-13 (709.2 was flip cards' then) but
    # the KB has no CR of 2019-2023: it quotes today's 709.2 (split cards), renumbered in between
    ("Per rule 709.2, although split cards have two castable halves, each split card is only one card.",
     "2021-06-01"),
    # undated, the number of a rule today, nothing in its words of another rule so numbered
    ("Turning a face-down permanent face up is a special action (rule 116.2b).", None),
])
def test_a_number_that_still_means_the_rule_it_cited_is_no_reason(history, text, date):
    reasons = _find(text, date, history)
    assert Reason.RULE_NUMBER not in reasons and Reason.NUMBER_UNCHECKED not in reasons
    assert reasons["suggested"] is None


def test_an_undated_quote_of_an_old_clause_is_read_in_the_cr_whose_words_it_uses(history):
    """702.36b is another rule today; the quote's words are those of 702.36b in the CRs of 2014-2015."""
    reasons = _find(FORUM_702_36B, None, history)
    r = reasons[Reason.RULE_NUMBER]
    assert r.detail.startswith("cites 702.36b, now 702.37c")
    assert "as worded in the CRs of 2014-09-25 to 2015-01-23" in r.detail
    assert reasons["suggested"] == FORUM_702_36B.replace("702.36b", "702.37c")


def test_the_other_numbers_of_a_quoted_clause_are_read_in_the_cr_it_was_quoted_from(history):
    reasons = _find(FORUM_702_36D, None, history)
    r = reasons[Reason.RULE_NUMBER]
    assert "cites 702.36d, now 702.37e" in r.detail and "cites 115, now 116" in r.detail
    assert reasons["suggested"] == FORUM_702_36D.replace("702.36d", "702.37e").replace("rule 115", "rule 116")


def test_numbers_older_than_the_kbs_crs_get_a_review_note_that_they_are_not_checked(history):
    reasons = _find("The timestamp is when it came into play (see rule 418.5c); see also Rule 503.",
                    "2002-09-25", history)
    assert Reason.RULE_NUMBER not in reasons
    r = reasons[Reason.NUMBER_UNCHECKED]
    assert r.kind.level is Level.REVIEW
    assert "cites 503 in a ruling dated 2002-09-25, before the oldest CR in the KB (of 2014-09-25)" in r.detail
    assert "cites 418.5c, which no CR in the KB has" in r.detail


def test_one_suggestion_renumbers_and_replaces_every_term_once(history):
    """tryout30 D3/D5: each of five reasons repeated the whole suggested text, and the renumbering had none."""
    text = "If it came into play face down, he or she may look at it (see rule 707.2)."
    reasons = _find(text, "2015-03-01", history)
    assert set(reasons) == {Reason.TERMINOLOGY, Reason.RULE_NUMBER, "suggested"}
    assert reasons["suggested"] == "If it entered the battlefield face down, they may look at it (see rule 708.2)."
    assert not any("Suggested" in r.detail for k, r in reasons.items() if k != "suggested")


MORPH_HEADING = "Morph (702.36) lets you cast a card face down as a 2/2 creature for {3}."


@pytest.mark.parametrize("text, number, now", [
    # review40 #4: 2016 is in the KB's gap of 2015-01-23 to 2018-07-13, whose CRs both number morph 702.36
    # (a heading: one word, too few to read it by its words) and special actions 115
    (MORPH_HEADING, "702.36", "702.37"),
    ("Turning it face up is a special action and doesn't use the stack (rule 115).", "115", "116"),
])
def test_a_number_the_crs_around_a_gap_agree_on_is_read_in_them(history, text, number, now):
    reasons = _find(text, "2016-04-08", history)
    r = reasons[Reason.RULE_NUMBER]
    assert r.detail.startswith(f"cites {number}, now {now}")
    assert "of the KB's CRs of 2015-01-23 and 2018-07-13, before and after the ruling's date (2016-04-08)" in r.detail
    assert reasons["suggested"] == text.replace(number, now)


def test_a_section_heading_is_read_by_its_one_word():
    """A heading's clause text ("Morph") has one word: an undated ruling naming it quotes that rule."""
    r = _find(MORPH_HEADING, None, rule_history_from(CORPUS.rules))[Reason.RULE_NUMBER]
    assert r.detail.startswith("cites 702.36, now 702.37")
    assert "as worded in the CRs of 2014-09-25 to 2018-07-13" in r.detail


@pytest.mark.parametrize("date, said", [
    # the CRs of 2018-07-13 (the face-down rule) and 2024-11-08 (copying) around 2021 disagree on 707.2
    ("2021-03-01", "in a ruling dated 2021-03-01, between the KB's CRs of 2018-07-13 and 2024-11-08, which give "
                   "it different rules"),
    # undated: the oldest CR of the KB gave 707.2 another rule than today's
    (None, "in an undated ruling, read against the KB's oldest CR (of 2014-09-25), which gives it another rule "
           "than today's"),
])
def test_a_number_whose_meaning_the_date_and_words_leave_open_is_unchecked(history, date, said):
    reasons = _find("You may do this any time you have priority (see rule 707.2).", date, history)
    assert Reason.RULE_NUMBER not in reasons
    r = reasons[Reason.NUMBER_UNCHECKED]
    assert r.kind.level is Level.REVIEW
    assert r.detail.startswith(f"cites 707.2 {said}")
    assert "707.2 was the rule now 708.2" in r.detail


@pytest.mark.parametrize("text, now", [
    # 707's heading was "Face-Down Spells and Permanents" until the CR of 2018-07-13, "Copying Objects" today:
    # the heading said word for word decides, whatever the other words speak of
    ('A face-down spell has no characteristics but those its ability lists (see rule 707, "Face-Down Spells and '
     'Permanents").', "708"),
    ("Face-down spells have no characteristics but those listed; they are the copiable values of the object's "
     'characteristics (see rule 707, "Copying Objects").', None),
])
def test_an_undated_ruling_naming_a_rules_heading_cites_that_rule(history, text, now):
    reasons = _find(text, None, history)
    if now is None:
        assert Reason.RULE_NUMBER not in reasons and Reason.NUMBER_UNCHECKED not in reasons
    else:
        assert reasons[Reason.RULE_NUMBER].detail.startswith(f"cites 707, now {now}")


@pytest.mark.parametrize("text, date", [
    # review41 #1: the keyword actions' 701.13 was reveal (2014-2015), play (2018), mill (2024), exile today: a
    # heading's one word said anywhere ("revealed", a verb "play") names none of them in a 2020 ruling
    ("You may play that card this turn (rule 701.13), even though it was revealed.", "2020-05-01"),
    ("You may play that card this turn (rule 701.13).", "2020-05-01"),
    # 701.19 was fateseal (2015) and shuffle (2018) around 2016; search only in the CR of 2024-11-08, after
    # the ruling: neither its words nor its name next to the number make it the rule of a 2016 ruling
    ("Search your library for a card and exile it (rule 701.19).", "2016-05-01"),
    ("You search your library for a card (rule 701.19, Search) and exile it.", "2016-05-01"),
])
def test_a_heading_word_not_said_as_the_rules_name_or_from_a_later_cr_is_unchecked(history, text, date):
    reasons = _find(text, date, history)
    assert Reason.RULE_NUMBER not in reasons
    assert reasons[Reason.NUMBER_UNCHECKED].detail.startswith(f"cites {text.split('rule ')[1][:6]} in a ruling "
                                                               f"dated {date}, between the KB's CRs of")
    assert reasons["suggested"] is None


@pytest.mark.parametrize("text, date, now", [
    # the heading's word next to the number names its rule, whatever other headings the ruling says
    ("The creature is sacrificed (rule 701.14), and you may play it again from your graveyard.", None, "701.21"),
    ("The card revealed this way (see rule 701.13, Reveal) may be played this turn.", "2020-05-01", "701.20"),
    ("Play it, then mill two cards: the mill action (rule 701.13) doesn't target.", "2021-05-01", "701.17"),
])
def test_a_heading_said_next_to_the_number_names_its_rule(history, text, date, now):
    r = _find(text, date, history)[Reason.RULE_NUMBER]
    assert r.detail.startswith(f"cites {text.split('rule ')[1][:6]}, now {now}")


@pytest.mark.parametrize("text, number, now", [
    # the FRF update bulletin quotes manifest's rules of the CR of 2015-01-23 (/work/shared/data): clauses of
    # one uncommon word each ("manifest", "information") are read in that CR by it; a heading's one word is not
    ("701.31d If an effect instructs a player to manifest multiple cards from his or her library, those cards are "
     "manifested one at a time.", "701.31d", "701.40e"),
    ('701.31f See rule 707, "Face-Down Spells and Permanents," for more information.', "701.31f", "701.40h"),
    # a bundled ruling: 707.5 of 2014-2018 (today's 708.5) has one uncommon word, "look"
    ("At any time, you may look at a face-down permanent you control (see rule 707.5), but you can't look at a "
     "face-down permanent an opponent controls.", "707.5", "708.5"),
])
def test_a_clause_of_one_uncommon_word_is_read_by_it_unlike_a_heading(history, text, number, now):
    r = _find(text, None, history)[Reason.RULE_NUMBER]
    assert r.detail.startswith(f"cites {number}, now {now}")
