"""review50: the printed German/Spanish keyword names (one or two words) of the search glossary, with their 702.N."""
import re, json, sys
from cli.common import open_searcher
from kb.model import Lang
kb, s = open_searcher(quiet=True)
entries = {e.clause: e for e in kb.entries if e.clause}
kw = {e.text.strip().lower(): c for c, e in entries.items() if re.fullmatch(r"702\.\d+", c)}
out = []
for c in (*s.glossary.concepts, *s.glossary.translations):
    for en in c.terms.get(Lang.EN, ()):
        sec = kw.get(en.lower())
        if sec:
            for lang in (Lang.DE, Lang.ES):
                for t in c.terms.get(lang, ()):
                    if 1 <= len(t.split()) <= 2:
                        out.append((t, lang.value, en, sec))
out = sorted(set(out))
json.dump(out, open(sys.argv[1], "w"))
print(len(out))
