import json, subprocess, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from q import Q
out = {}
for qid, lang, text in Q:
    p = subprocess.run(["kb", "search", text, "-k", "10", "--json"], capture_output=True, text=True, cwd="/work/main")
    hits = json.loads(p.stdout)
    out[qid] = {"stderr": p.stderr, "hits": [{"id": h["id"], "kind": h["kind"], "lang": h["lang"], "text": h["text"], "matched": h["matched_text"],
                 "rules": [r["clause"] for r in h.get("rules", [])], "cards": h.get("cards", [])[:4], "outdated": h.get("outdated_reasons")} for h in hits]}
    print(f"### {qid} [{lang}] {text}")
    if p.stderr.strip(): print("  STDERR:", p.stderr.strip()[:300])
    for i, h in enumerate(out[qid]["hits"], 1):
        print(f"  {i:2}. {h['id']} {h['kind'][:4]} {h['lang']} rules={','.join(h['rules'][:3])} | {h['text'][:230]}")
json.dump(out, open(os.path.join(os.path.dirname(__file__), "hits.json"), "w"), ensure_ascii=False, indent=1)
