import subprocess, json, time, os
env = dict(os.environ, KB_HOME="/work/s40/tryout29-home", PYTHONPATH="/work/wt/tryout29")
for line in open("/work/s40/tryout29/"+os.environ.get("QF","questions.tsv")+"", encoding="utf-8"):
    q, lang, text, exp = line.rstrip("\n").split("\t")
    t = time.time()
    r = subprocess.run(["/work/venv/bin/python", "-m", "cli.main", "search", text, "-k", "10", "--json"], capture_output=True, text=True, env=env)
    dt = time.time() - t
    try:
        d = json.loads(r.stdout)
    except Exception:
        print(q, "ERR", r.stdout[:200], r.stderr[:300]); continue
    hits = d["results"] if isinstance(d, dict) and "results" in d else d
    ids = [h.get("id") for h in hits]
    exps = exp.split("|")
    rank = next((i+1 for i, x in enumerate(ids) if x in exps), None)
    print(f"{q} {lang} rank={rank} {dt:.2f}s top3={ids[:3]}")
