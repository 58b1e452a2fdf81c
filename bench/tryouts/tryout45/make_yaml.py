import json, yaml, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from q import Q
hits = json.load(open("hits.json"))
A = {  # id: (answers, rank, note)
"en-fd-1": (["701.40g", "If something tries to turn a face-down instant or sorcery card on the battlefield face up, reveal that card"], 1, ""),
"en-fd-2": (["708.8", "509.1h", "turning it face up won't cause it to become unblocked"], 4, "rank 4 is Gudul Lurker's card ruling; nothing in 10 says it deals damage with its new power (708.8)"),
"en-fd-3": (["702.168b", "702.21", "2/2 creature with ward {2}"], None, "no hit says a face-down disguise creature has ward {2}; rulings about paying the disguise cost come first (the question's 'pay' read as a cost)"),
"en-fd-4": (["708.9", "If a face-down permanent you control leaves the battlefield, you must reveal it"], 1, "rank 1 is Illusionary Mask's ruling (face-down card revealed when it leaves the battlefield); the general ruling is rank 2"),
"en-fd-5": (["702.143a", "They may cast that card after the current turn has ended"], 5, "702.143a at 5; 702.143d at 1 gives the same timing, but for cards an effect makes foretold"),
"en-g-1": (["702.2c", "702.19b"], None, "702.19b (trample) at 1, but 702.2c (any nonzero deathtouch damage is lethal: 1 is enough) is not in 10, so the hits answer 'at least 5'"),
"en-g-2": (["613.4b", "613.4c", "will apply to the creature no matter when they started to take effect"], 1, "answer 1/2: Tezzeret, Cruel Machinist's ruling at 1 says it; 613.4b/c not in 10"),
"en-g-3": (["305.1", "116.2a", "Playing a land is a special action; it doesn't use the stack"], None, "rank 1 (r-e5ad558a5d) only says a land is put onto the battlefield 'using the main phase special action', not that it can't be responded to"),
"en-g-4": (["704.5j"], None, "rank 2 is a legend-rule ruling (exact English name) that does not say what happens; 704.5j not in 10"),
"en-g-5": (["707.2", "It doesn't copy whether that creature is tapped or untapped, whether it has any counters on it or Auras attached to it"], 4, "Vesuvan Shapeshifter's ruling at 4; rank 1 is about +1/+1 counters applying in layer 7"),
"de-fd-1": (["708.5", "You may look at face-down permanents you control at any time"], 1, ""),
"de-fd-2": (["702.168d", "116.2b", "This is a special action. It doesn't use the stack and can't be responded to"], 1, ""),
"de-fd-3": (["708.8", "Auras and Equipment that were attached to that permanent aren't affected"], 2, "rank 2 is the Forms' card ruling ('will continue to enchant it'), the general ruling r-617b992fa5 is 8; ranks 3, 5, 6, 7 are the Vote rules (701.38): 'Stimmt das?' (is that right?) is read as voting"),
"de-fd-4": (["702.75a", "The player who controls the permanent that exiled this card may look at this card in the exile zone"], None, "'Verborgen' (my word for hideaway) is not known; ranks 1-2 say nobody may look at face-down exiled cards (other cards' rulings), the wrong answer for hideaway; in English 702.75a is rank 1"),
"de-fd-5": (["701.62a", "put the other into your graveyard"], 2, ""),
"de-g-1": (["702.7b", "510.4", "702.2c"], None, "702.2c at 1 (excess damage), 702.2b at 5; nothing about the first-strike damage step, where the blockers die before they deal damage"),
"de-g-2": (["514.3", "514.3a"], None, "no cleanup-step rule in 10 (English and Spanish phrasings miss too)"),
"de-g-3": (["305.7", "613.8"], None, "top hits are landwalk and first strike clauses; notes say Blood Moon and Urborg have no rulings in the KB (true)"),
"de-g-4": (["603.3b"], None, "scheme and copy rulings; the English phrasing finds 603.3b's ruling at 1"),
"de-g-5": (["616.1"], None, "replacement-effect rulings of single cards; 616.1 not in 10"),
"es-fd-1": (["702.37e", "If a face-down creature loses its abilities, it can't be turned face up with a disguise or morph ability"], 1, "I expected 'yes'; the KB's ruling (rank 1) says no, and it is right: my expected answer was wrong"),
"es-fd-2": (["708.9", "If a face-down permanent you control leaves the battlefield, you must reveal it"], None, "'vuelve a mi mano' read as returning: rulings about returning face-down cards to the battlefield come first; the English phrasing misses too; 'cuando muere' finds it at 2"),
"es-fd-3": (["708.2a", "it's a 2/2 creature with no name, mana cost, color, creature type"], 1, ""),
"es-fd-4": (["701.58a", "701.40a", "2/2 creature with ward {2}"], 8, "ranks 1-7 are minor 701.58 subrules (cloaking one at a time, 'see rule 708'); the Cloak glossary entry (ward {2}) at 8, 701.58a at 10"),
"es-fd-5": (["707.2", "708.2", "that new object is a 2/2 colorless face-up creature with no abilities"], 1, ""),
"es-g-1": (["510.2", "This turn-based action doesn't use the stack"], None, "prevention-effect rulings; the English phrasing misses too"),
"es-g-2": (["704.5a", "104.4a"], 7, "704.5a at 7 (both lose); 104.4a (the game is a draw) not in 10"),
"es-g-3": (["704.5b", "121.4"], 5, "121.4 at 5; rank 1 is Scroll Rack's 'you do not lose' (not a draw), misleading out of context"),
"es-g-4": (["704.5f"], None, "702.12b at 2 (indestructible ignores lethal damage) but not 704.5f (toughness 0); the English phrasing misses too"),
"es-g-5": (["117.3c"], None, "scheme rulings; the English phrasing misses too"),
}
out = []
for qid, lang, text in Q:
    ans, rank, note = A[qid]
    h = hits[qid]["hits"][0]
    first = f"{h['id']} ({h['kind']}{', CR ' + h['rules'][0] if h['rules'] else ''}): {h['text'][:100]}"
    out.append({"id": qid, "lang": lang, "question": text, "answers": ans,
                "note": f"rank {rank if rank else '-'}; first: {first}" + (f"; {note}" if note else "")})
yaml.safe_dump(out, open("questions.yaml", "w"), allow_unicode=True, sort_keys=False, width=120)
import collections
t = collections.defaultdict(lambda: [0, 0, 0])
for qid, lang, _ in Q:
    r = A[qid][1]; half = "face-down" if "-fd-" in qid else "general"
    for k in (lang, half, "all", f"{lang}/{half}"):
        t[k][0] += 1; t[k][1] += r == 1; t[k][2] += bool(r and r <= 3)
for k, (n, a, b) in t.items(): print(f"| {k} | {n} | {a} ({a/n:.2f}) | {b} ({b/n:.2f}) |")
