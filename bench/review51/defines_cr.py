"""review51: links51's one `_defines` against the old quoted-term detector on every clause of the current CR.

    PYTHONPATH=/work/wt/review51 python bench/review51/defines_cr.py

For each clause saying `“TERM” means|refers to` or `To TERM means` (what the old `_Index.defining` read), does
`_defines` still say the clause defines TERM? Prints the ones it no longer does.
"""
import re

from kb.corpus import Corpus
from kb.cr import links

cur = Corpus.default().rules.current
lost = total = 0
for n, c in cur.clauses.items():
    text = links._fold(c.text)
    for m in re.finditer(r"(?:^|\bto |“)([^”.;:]{2,40}?)”? (?:means|refers to)\b", text):
        term = m.group(1).strip().lstrip("“")
        pat = re.compile(links._term_pattern(links._fold(term)))
        old = re.compile(rf"(?:^|\bto |“){pat.pattern}”? (?:means|refers to)\b").search(text) is not None
        if not old:
            continue
        total += 1
        if not links._defines(pat, text):
            lost += 1
            print(f"{n}: {term!r}: {text[:150]}")
print(f"{lost} of {total} old 'means/refers to' definitions not read by _defines")
