"""review51: where each cue links51 added or widened fires newly (the old cue of that label did not) on the bundled
corpus's English rulings (`kb export` of a KB built by main) and on the labelled rulings (tests/data/labelled_links_real.yaml),
with ok = a gold clause is the cue's (None: unlabelled).

    git -C /work/main show 6769aaf:kb/cr/links.py > /tmp/r51/old_links.py
    KB_HOME=/work/s50/review51-home PYTHONPATH=$PWD kb export -o /tmp/review51-export.json
    PYTHONPATH=$PWD python bench/review51/cue_fires.py
"""
import json, sys, importlib.util, yaml
sys.path.insert(0, '/work/wt/review51')
from kb.cr import links as new
spec = importlib.util.spec_from_file_location("old_links", "/tmp/r51/old_links.py")
old = importlib.util.module_from_spec(spec); sys.modules["old_links"]=old; spec.loader.exec_module(old)
oldpat = {c.pattern.pattern for c in old.CUES}
changed = [c for c in new.CUES if c.pattern.pattern not in oldpat]
oldby = {c.label: c for c in old.CUES}
texts = []
for e in json.load(open('/tmp/review51-export.json')):
    if e['kind'] != 'ruling': continue
    for v in e['variants']:
        if v['lang'] == 'en':
            texts.append(('corpus', e['id'], new.mask_card_names(v['text'], e['cards']), None))
for r in yaml.safe_load(open('tests/data/labelled_links_real.yaml')):
    if r.get('lang','en') == 'en':
        texts.append(('lab:'+r['split'], r['quote'][:30], new.mask_card_names(r['text'], r.get('cards') or []), r['clauses']))
seen=set()
for c in changed:
    o = oldby.get(c.label)
    print(f"\n=== {c.label} -> {c.clauses} (old cue: {'yes' if o else 'none'})")
    for src, id_, t, gold in texts:
        if (src, t) in seen and False: continue
        m = c.pattern.search(t)
        if not m: continue
        if o and o.pattern.search(t): continue  # fired before too
        ok = None if gold is None else any(g.split('.')[0] == cl.split('.')[0] and (g.startswith(cl) or cl.startswith(g)) for g in gold for cl in c.clauses)
        print(f"  [{src}] {id_} ok={ok} gold={gold} :: ...{t[max(0,m.start()-60):m.end()+40]}...")
