"""review50: English Oracle card names (1-2 words) that main's query_lang reads as another language where kb.lang.detect alone reads English."""
from cli.common import open_searcher
from kb.lang import detect
from kb.model import Lang
kb, s = open_searcher(quiet=True)
names = sorted({en for _, en in s.cards.matcher.items() if 1 <= len(en.split()) <= 2})
terms = sorted({" ".join(t) for t, _ in s.glossary_terms.terms if 1 <= len(t) <= 2})
for n in names:
    if detect(n) is Lang.EN and (lang := s.query_lang(n)) is not Lang.EN:
        print("card", repr(n), lang.value, "resolves to", s.card_names.resolve(n))
for w in ["Gift", "Siege", "Regeneration", "Plot", "Partner", "Escape", "Offspring", "Prototype", "Bargain", "Saddle",
          "Craft", "Storm", "Echo", "Fear", "Shadow", "Training", "Backup", "Toxic", "Visit", "Station", "Warp", "Horizon", "Tiered", "Disturb", "Blitz", "Ravenous", "Boast", "Mentor", "Riot", "Afterlife", "Spectacle", "Fuse", "Bestow", "Tribute", "Dash", "Renown", "Devoid", "Crew", "Ascend", "Assist", "Mutate", "Encore", "Cleave", "Casualty", "Enlist", "Squad", "Solved", "Impending", "Exhaust", "Harmonize", "Mobilize", "Sneak", "Firebending", "Plainscycling", "Monstrosity", "Ninjutsu"]:
    if (lang := s.query_lang(w)) is not Lang.EN:
        print("word", repr(w), lang.value, sorted(l.value for l in s._lexicon_langs(w)))
