"""Run `kb search --json -k 10` for each question in questions.yaml and record the rank of the first right hit.

A hit is right when it is a CR clause listed in `answers`, or a ruling whose text contains a quoted answer.
Usage: KB_HOME=... python rank.py questions.yaml > ranks.json
"""
import json
import re
import subprocess
import sys
import time

import yaml

CLAUSE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")


def right(hit: dict, answers: list[str]) -> bool:
    clauses = {a for a in answers if CLAUSE.match(a)}
    quotes = [a.lower() for a in answers if not CLAUSE.match(a)]
    if hit.get("clause") in clauses:
        return True
    texts = [hit.get("text") or "", hit.get("matched_text") or ""] + [v.get("text") or "" for v in hit.get("variants") or []]
    return any(q in t.lower() for q in quotes for t in texts)


out = []
for q in yaml.safe_load(open(sys.argv[1])):
    t0 = time.time()
    p = subprocess.run(["kb", "search", q["question"], "-k", "10", "--json"], capture_output=True, text=True)
    dt = time.time() - t0
    hits = json.loads(p.stdout)
    rank = next((i + 1 for i, h in enumerate(hits) if right(h, [str(a) for a in q["answers"]])), None)
    first = hits[0] if hits else {}
    out.append({"id": q["id"], "lang": q["lang"], "rank": rank, "seconds": round(dt, 2),
                "first": f"{first.get('clause') or first.get('id')}: {(first.get('text') or '')[:90]}",
                "top5": [h.get("clause") or h.get("id") for h in hits[:5]], "stderr": p.stderr.strip()[:300]})
    print(q["id"], rank, out[-1]["first"], file=sys.stderr)
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
