"""review51: the labelled rulings a links51 cue newly fires on with no gold clause of its own (hold-out J's Mardu
Warshrieker, L's rebound replacement), linked by main and by 6769aaf.

    PYTHONPATH=/work/wt/review51 python bench/review51/links_labelled.py
    PYTHONPATH=/tmp/r51/old KB_CORPUS=$PWD/corpus python bench/review51/links_labelled.py
"""
import yaml

from kb.corpus import Corpus
from kb.cr import links
from kb.model import Entry, Kind, Lang, Relation, Variant

C = Corpus.default()
WANT = ("raid ability isn't a mana ability", "to be put somewhere other than into your graveyard as it resolves")
for r in yaml.safe_load(open("tests/data/labelled_links_real.yaml", encoding="utf-8")):
    if any(w in r["text"] for w in WANT):
        cards = tuple(r.get("cards") or ())
        v = Variant(r["text"], r["text"], Lang.EN, r.get("date"), "t", 1, Relation.CANONICAL, 1.0, cards[0] if cards else None)
        e = Entry("r1", Kind.RULING, r["text"], cards, r.get("date"), r.get("date"), (v,))
        [linked] = links.link_entries([e], C.rules, [], C.card_texts)
        print(r["split"], "gold", r["clauses"], "got", [x.clause for x in linked.rules][:4], "|", r["text"][:80])
