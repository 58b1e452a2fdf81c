"""review50: compare two keyword_names_top3.py outputs (before, after): how many of each name's top 3 are its keyword's."""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("keyword's entries in the top 3:", sum(a.values()), "->", sum(b.values()), "of", 3 * len(a))
print("names with one in the top 3:", sum(v > 0 for v in a.values()), "->", sum(v > 0 for v in b.values()), "of", len(a))
print("better", sum(b[k] > a[k] for k in a), "worse", [(k, a[k], b[k]) for k in a if b[k] < a[k]])
