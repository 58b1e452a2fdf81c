"""review50: for every keyword ability (702.N with a glossary entry), 'How does X work?' with beyond_keyword on and
off: how many of the top 3 are the keyword's own (702.N clauses or its glossary entry)."""
import dataclasses, re
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
on = s.weights; off = dataclasses.replace(on, beyond_keyword=False)
t = s.table
names = {}
for i, cid in enumerate(t.ids):
    pass
entries = {e.clause: e for e in kb.entries if e.clause}
kw = {}
for clause, e in entries.items():
    m = re.fullmatch(r"702\.(\d+)", clause)
    if m and f"glossary:{e.text.strip()}" in entries:
        kw[e.text.strip()] = clause
def own(ids, sec, name):
    return sum(1 for c in ids if c and (c == f"glossary:{name}" or re.fullmatch(re.escape(sec) + r"[a-z]?", c)))
tot_on = tot_off = changed = top1 = 0
worse = []
for name, sec in sorted(kw.items()):
    q = f"How does {name.lower()} work?"
    res = {}
    for lab, w in (("on", on), ("off", off)):
        s.weights = w
        res[lab] = [h.entry.clause for h in s.search(q, limit=3)]
    a, b = own(res["on"], sec, name), own(res["off"], sec, name)
    tot_on += a; tot_off += b; changed += res["on"] != res["off"]; top1 += res["on"][0] != res["off"][0]
    if a < b: worse.append((q, res["on"], res["off"]))
print(f"{len(kw)} keywords; top-3 differs for {changed}, top-1 for {top1}; the keyword's own entries in the top 3: "
      f"on {tot_on}, off {tot_off}; fewer on for {len(worse)}")
for w in worse[:6]: print("  ", w)
