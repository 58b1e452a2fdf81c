"""Run each question with `kb search Q -k 10 --json`; write the rank of the first expected hit."""
import json, subprocess, sys, pathlib
here = pathlib.Path(__file__).parent
qs = json.loads((here / "questions.json").read_text())
out, lines = [], []
for q in qs:
    r = subprocess.run([sys.executable, "-m", "cli.main", "search", q["q"], "-k", "10", "--json"],
                       capture_output=True, text=True)
    d = json.loads(r.stdout)
    hits = d["hits"] if isinstance(d, dict) else d
    ids = [h["id"] for h in hits]
    rank = next((i + 1 for i, x in enumerate(ids) if x in q["expected"]), None)
    top = hits[0] if hits else {}
    out.append({**q, "rank": rank, "top3": ids[:3],
                "shown_lang_of_right": next((h.get("lang") for h in hits if h["id"] in q["expected"]), None)})
    lines.append(f"Q{q['id']} rank={rank} top3={ids[:3]}")
    for h in hits[:3]:
        lines.append(f"   {h['id']} [{h.get('lang')}] {(h.get('text') or '')[:110]}")
(here / "question_results.json").write_text(json.dumps(out, ensure_ascii=False, indent=1))
(here / "question_output.txt").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
