# page -> list of (card or None, date or None, ruling text) as a judge reads the page
import re
P = "/work/wt/tryout29/bench/tryouts/tryout29/pages/"
def lines_after(path, prefix_re):
    return [l for l in open(P+path, encoding="utf-8").read().splitlines() if re.match(prefix_re, l)]
E = {}
E["foretell.mtgwiki.txt"] = [("Foretell? none", None, "You can't cast a foretold card on the same turn you exile it.")]
rn = open(P+"kaldheim-release-notes.foretell.ormos.md", encoding="utf-8").read()
E["kaldheim-release-notes.foretell.ormos.md"] = [(None, "2021-01-13", l[2:]) for l in rn.splitlines() if l.startswith("* ")]
E["profetizar.mecanicas-kaldheim.es.txt"] = [(None, None, p) for p in open(P+"profetizar.mecanicas-kaldheim.es.txt", encoding="utf-8").read().splitlines()[4:6]]
E["ixidron.gatherer.txt"] = [("Ixidron", None, l.split(" ",1)[1]) for l in lines_after("ixidron.gatherer.txt", r"\d+/\d+/\d{4} ")]
g = open(P+"spellmorph.gatherer-table.txt", encoding="utf-8").read().splitlines()
E["spellmorph.gatherer-table.txt"] = [(None, "2019-11-12", l.rstrip(" |")) for l in g if not l.startswith("11/12")]
js = open(P+"saw-it-coming.engine.js", encoding="utf-8").read()
rul = re.findall(r"//   \[(\d{4}-\d\d-\d\d)\] (.*?)(?=\n//   \[|\n\nexport)", js, re.S)
E["saw-it-coming.engine.js"] = [("Saw It Coming", d, re.sub(r"\s*\n//\s+", " ", t)) for d, t in rul]
md = open(P+"etrata-heist-research.excerpt.md", encoding="utf-8").read()
card = None; out = []
for l in md.splitlines():
    if l.startswith("### "): card = l[4:]
    m = re.match(r"- Ruling \((.*?)\): (.*)", l)
    if m: out.append((card, m.group(1), m.group(2)))
E["etrata-heist-research.excerpt.md"] = out
E["cranial-insertion-morphologie.planetmtg.de.txt"] = [("Bile Blight?", None, "Frage/Antwort Gallenfäule")]
E["cranial-insertion-1515.en.txt"] = [(None, None, "Q/A Ixidron mana cost"), (None, None, "Q/A Mastery of the Unseen Huntmaster")]
E["morph-regelauszug.mtg-forum.de.txt"] = [(None, None, "702.34a"), (None, None, "702.34b"), (None, None, "702.34c")]
