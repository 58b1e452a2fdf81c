import json, re, difflib, sys
sys.path.insert(0, "/work/s40/tryout29")
from expected import E
ex = json.load(open(sys.argv[1]))
texts = []
for e in ex:
    if e["kind"] != "ruling": continue
    for v in e["variants"]:
        texts.append((e["id"], v["text"]))
norm = lambda s: re.sub(r"[^a-z0-9{}/+-]+", " ", s.lower().replace("’","'")).strip()
nt = [(i, norm(t), t) for i, t in texts]
for page, rs in E.items():
    print("==", page)
    for card, date, t in rs:
        n = norm(t)
        best = max(nt, key=lambda x: difflib.SequenceMatcher(None, n, x[1]).quick_ratio())
        r = difflib.SequenceMatcher(None, n, best[1]).ratio()
        print(f"  {r:.2f} {best[0]} | {card} {date} | {t[:70]}")
