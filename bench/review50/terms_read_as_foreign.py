"""review50: single CR glossary terms (English) whose one- or two-word query main's query_lang reads as not English."""
from cli.common import open_searcher
from kb.model import Lang
kb, s = open_searcher(quiet=True)
terms = sorted({" ".join(t) for t, _ in s.glossary_terms.terms if 1 <= len(t) <= 2})
bad = []
for t in terms:
    q = t.title() if len(t.split()) == 1 else t.capitalize()
    lang = s.query_lang(q)
    if lang is not Lang.EN:
        bad.append((q, lang.value, sorted(l.value for l in s._lexicon_langs(q))))
print(len(terms), "terms;", len(bad), "read as not English:")
for b in bad: print("  ", b)
