"""fix55: the card notes `kb search` gives every question of bench/data/*.yaml (its stderr notes about the cards
a question names), one JSON line per question with a note: id, lang, the notes, and of them the one-word names noted
and the unknown names. Run before and after a change and compare (`diff`), then judge each changed note by hand."""
import glob
import json
import sys

import yaml

from cli.common import open_searcher, reference
from kb.views import question_card_notes

kb, s = open_searcher(quiet=True)
langs = set(sys.argv[1].split(",")) if len(sys.argv) > 1 else {"en", "de", "es"}
for path in sorted(glob.glob("bench/data/*.yaml")):
    doc = yaml.safe_load(open(path, encoding="utf-8")) or {}
    for q in doc.get("questions") or []:
        if q.get("lang") not in langs:
            continue
        text = q["question"]
        named = s.named_cards(text)
        unknown = s.unknown_cards(text)
        one = s.one_word_cards(text)
        notes = question_card_notes(kb, reference(), named, unknown, one)
        if notes:
            print(json.dumps({"id": q["id"], "lang": q["lang"], "unknown": unknown,
                              "one_word": [c for c in one if any(n.startswith(c + ":") for n in notes)],
                              "notes": notes}, ensure_ascii=False))
