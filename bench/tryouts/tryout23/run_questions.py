"""Ask every question of questions.json with `kb search -k 3 --json`; print the top 3 and the rank of an expected hit."""
import json
import subprocess
import sys
from pathlib import Path

here = Path(__file__).parent
questions = json.loads((here / "questions.json").read_text())
rows = []
for q in questions:
    out = subprocess.run(["kb", "search", q["q"], "-k", "3", "--json"], capture_output=True, text=True)
    hits = json.loads(out.stdout)
    rank = None
    print(f"\n### Q{q['n']} ({q['lang']}): {q['q']}")
    for i, h in enumerate(hits, 1):
        key = h["rules"][0]["clause"] if h["kind"] == "rule" and h["rules"] else h["id"]
        ok = h["id"] in q["expect"] or any(key == e or (e.endswith("?") and key.startswith(e[:-1])) for e in q["expect"])
        if ok and rank is None:
            rank = i
        print(f"  {i}. {h['id']} {('CR ' + key) if h['kind'] == 'rule' else ''} shown={h['lang']} {'<== expected' if ok else ''}")
        print(f"     {h['matched_text'][:170]}")
    rows.append({"n": q["n"], "lang": q["lang"], "rank": rank, "shown": [h["lang"] for h in hits]})
    print(f"  -> rank {rank}")
(here / "question_results.json").write_text(json.dumps(rows, indent=1))
