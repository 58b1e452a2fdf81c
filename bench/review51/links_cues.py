"""review51: the cues links51 added or widened, on rulings written to trip them falsely.

    PYTHONPATH=/work/wt/review51 python bench/review51/links_cues.py          # main's linker
    PYTHONPATH=/tmp/r51/old KB_CORPUS=$PWD/corpus python bench/review51/links_cues.py   # 6769aaf's (git archive)

Prints each ruling's first three links; `want` is what the ruling is about (or [] when no general rule the cue names is).
"""
from kb.corpus import Corpus
from kb.cr import links
from kb.model import Entry, Kind, Lang, Relation, Variant

CORPUS = Corpus.default()
CASES = [
    # 605.1a cue on a negation: "isn't a mana ability" is 605.5a's claim (hold-out J's Mardu Warshrieker too)
    ("Test Shaman's ability isn't a mana ability because it has a target. It uses the stack and can be responded to.",
     ("Test Shaman",), "605.5a"),
    # a triggered mana ability (605.1b), not an activated one (605.1a)
    ("Test Reflection's triggered ability is a mana ability. It resolves immediately after the mana ability that triggered it.",
     ("Test Reflection",), "605.1b"),
    # 608.2n on a permanent spell's other cards: the pile not chosen goes to the graveyard as the spell resolves
    ("The cards in the pile you don't choose are put into your graveyard as Test Fiction resolves.",
     ("Test Fiction",), "not 608.2n"),
    ("If you discard a card this way, it goes to your graveyard when the spell resolves, before you draw.",
     ("Test Loot",), "not 608.2n"),
    # 603.10a on a cost, not a trigger: sacrificing the card itself to its own activated ability
    ("You may sacrifice any creature you control to pay the cost, including Test Altar Beast itself.",
     ("Test Altar Beast",), "not 603.10a (a cost, 602.2 / 701.21a)"),
    # 107.1b on a cost reduction or a count, not a negative game value
    ("Test Spire's ability can't reduce the amount of generic mana you pay to less than zero.",
     ("Test Spire",), "601.2f, not 107.1b"),
    ("If the number of counters would be reduced below zero, it becomes zero instead.", ("Test Card",), "not 107.1b"),
    # 704.5a widened: "life total will become 0" (fine), "life total is 0" in a sentence about other things
    ("If your life total is 0 or less when Test Angel's ability resolves, you still gain 5 life.",
     ("Test Angel",), "704.5a?"),
    # 302.6 widened: "can't attack on the turn" said of a defender / another reason
    ("Test Wall can't attack on the turn it enters, or any other turn, because it has defender.",
     ("Test Wall",), "702.3b (defender), not 302.6"),
    # 707.10 widened: "spells is copied" said of a copy of a permanent spell becoming a token (707.10f? 111.?)
    ("If a creature spell is copied, the copy becomes a token as it resolves.", ("Test Card",), "707.10f / 608.3f"),
]


def main() -> None:
    for text, cards, want in CASES:
        v = Variant(text, text, Lang.EN, "2024-02-02", "test", 1, Relation.CANONICAL, 1.0, cards[0])
        entry = Entry("r1", Kind.RULING, text, cards, "2024-02-02", "2024-02-02", (v,))
        [linked] = links.link_entries([entry], CORPUS.rules, [], CORPUS.card_texts)
        got = [r.clause for r in linked.rules][:3]
        ev = linked.rules[0].evidence[:90] if linked.rules else linked.link_note[:60]
        print(f"{str(got):32} want {want:34} | {text[:70]}\n{'':32} evidence: {ev}")


if __name__ == "__main__":
    main()
