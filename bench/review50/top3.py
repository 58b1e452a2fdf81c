"""review50: top-3 entries (clause or id) and the language the search reads each question in."""
import sys
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
ql = getattr(s, "query_lang", None)
from kb.lang import detect
for q in sys.argv[1:]:
    hits = s.search(q, limit=3)
    lang = (ql or detect)(q).value
    print(f"{q!r:28} {lang} | " + " | ".join(f"{h.entry.clause or h.entry.id}: {h.matched_text[:38]}" for h in hits))
