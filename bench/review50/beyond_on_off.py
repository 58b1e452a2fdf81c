"""review50: top-3 with Weights.beyond_keyword on (main) and off, same process."""
import sys, dataclasses, time
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
on = s.weights
off = dataclasses.replace(on, beyond_keyword=False)
def top(q, w):
    s.weights = w
    return [h.entry.clause or h.entry.id for h in s.search(q, limit=3)]
for q in sys.argv[1:]:
    a, b = top(q, on), top(q, off)
    print(("SAME " if a == b else "DIFF ") + f"{q!r}\n   on:  {a}\n   off: {b}")
