"""review50: search-glossary terms that are a one-word card's exact name and so in CardMatcher.common (H2)."""
from cli.common import open_searcher
from kb.search.cardnames import name_key

kb, s = open_searcher(quiet=True)
m = s.cards.matcher
hits = sorted({(t, m.get(name_key(t)), c.id) for c in s.glossary.concepts for terms in c.terms.values() for t in terms
               if " " not in name_key(t) and m.get(name_key(t)) is not None and name_key(t) in m.common})
print(len(hits))
for h in hits:
    print("  ", h)
