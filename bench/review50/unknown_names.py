"""review50: the language the search reads a question in, the unknown card names it notes and the cards it reads."""
import sys
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
for q in sys.argv[1:]:
    print(f"{q!r}: lang={s.query_lang(q).value} unknown={s.unknown_cards(q)} named={[c.name for c in s.named_cards(q)]}")
