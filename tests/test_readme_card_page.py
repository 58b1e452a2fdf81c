"""The README's card-page example (tryout45 defect 10: the layout was documented nowhere a new user reads)
is read as it says: its card, one ruling per date line, each dated, with nothing skipped."""

from __future__ import annotations

import re
from pathlib import Path

from kb.corpus import Corpus
from kb.ingest import detect_format, parse_text
from kb.model import Format

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_the_readme_card_page_example_gives_one_dated_ruling_per_date_line() -> None:
    section = README.split("### Writing a card page of your own", 1)[1]
    (page,) = re.findall(r"```text\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    assert detect_format(page) is Format.CARD_PAGE
    result = parse_text(page, "mosswort-bridge.txt", names=Corpus.default().names, match_clause=None)
    assert not result.problems
    assert [(r.card, r.date, r.text.split(".")[0]) for r in result.records] == [
        ("Mosswort Bridge", "2007-10-01", "The exiled card remains face down"),
        ("Mosswort Bridge", "2007-10-01", "If the land with hideaway leaves the battlefield, the exiled card stays exiled face down"),
    ]
