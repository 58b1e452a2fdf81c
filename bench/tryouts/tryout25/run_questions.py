import json, subprocess, time, sys
T = "bench/tryouts/tryout25"
qs = json.load(open(f"{T}/questions.json"))
out = []
txt = open(f"{T}/question_output.txt", "w")
for q in qs:
    t = time.time()
    p = subprocess.run(["kb", "search", q["q"], "-k", "10", "--json"], capture_output=True, text=True)
    wall = time.time() - t
    hits = json.loads(p.stdout)
    ids = [h["id"] for h in hits]
    rank = next((i + 1 for i, h in enumerate(ids) if h in q["expected"]), None)
    shown = hits[rank - 1]["lang"] if rank else None
    r = dict(n=q["n"], lang=q["lang"], q=q["q"], rank=rank, shown_lang=shown, wall_s=round(wall, 2), top3=[(h["id"], h["lang"], h["matched_text"][:100]) for h in hits[:3]], stderr=p.stderr.strip())
    out.append(r)
    print(q["n"], q["lang"], "rank", rank, "shown", shown, f"{wall:.2f}s", "|", q["q"])
    txt.write(json.dumps(r, ensure_ascii=False, indent=1) + "\n")
json.dump(out, open(f"{T}/question_results.json", "w"), ensure_ascii=False, indent=1)
