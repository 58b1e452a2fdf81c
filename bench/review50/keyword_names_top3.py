import json, re, sys
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
terms = json.load(open(sys.argv[1]))
res = {}
for t, lang, en, sec in terms:
    ids = [h.entry.clause for h in s.search(t, limit=3)]
    res[t] = sum(1 for c in ids if c and (c.lower() == f"glossary:{en}".lower() or re.fullmatch(re.escape(sec) + r"[a-z]?", c)))
json.dump(res, open(sys.argv[2], "w"))
