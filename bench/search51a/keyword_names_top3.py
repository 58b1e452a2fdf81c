"""search51a: review50's keyword_names_top3.py, keeping each name's top 3 (clause or id) so the first hit can be
compared too. `python bench/search51a/keyword_names_top3.py KWTERMS.json OUT.json` (KWTERMS: bench/review50/keyword_names.py's)."""
import json
import re
import sys

from cli.common import open_searcher

kb, s = open_searcher(quiet=True)
terms = json.load(open(sys.argv[1]))
res = {}
for t, lang, en, sec in terms:
    ids = [h.entry.clause or h.entry.id for h in s.search(t, limit=3)]
    own = [bool(re.fullmatch(re.escape(sec) + r"[a-z]?", c) or c.lower() == f"glossary:{en}".lower()) for c in ids]
    res[t] = {"top3": ids, "own": sum(own), "first": own[:1] == [True]}
json.dump(res, open(sys.argv[2], "w"), indent=0, ensure_ascii=False)
print("keyword's entries in the top 3:", sum(r["own"] for r in res.values()), "of", 3 * len(res),
      "; first hit the keyword's:", sum(r["first"] for r in res.values()), "of", len(res))
