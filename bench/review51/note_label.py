"""review51: pages51's `_is_note_label` on a ruling's second paragraph that is more of the ruling.

    PYTHONPATH=/work/wt/review51 python bench/review51/note_label.py
    PYTHONPATH=/tmp/r51/old KB_CORPUS=$PWD/corpus python bench/review51/note_label.py   # 6769aaf (git archive)

Each paragraph below sits, after a blank line, under Hooded Hydra's first dated ruling (a second dated ruling
follows). `kept` is whether it stays part of that ruling; each is the ruling's own text, so it should be kept.
"""
from kb.corpus import Corpus
from kb.ingest import pages

RESOLVE = Corpus.default().names.resolve
PARAGRAPHS = [
    "For example: if it has five +1/+1 counters, it becomes a 5/5 creature.",
    "Por ejemplo: si la volteas, obtiene sus contadores.",
    "Zum Beispiel: Wenn du sie umdrehst, erhält sie ihre Marken.",
    "In other words: it gets its counters only when it is turned face up.",
    "Note that: it gets its counters only when it is turned face up.",
    "Hooded Hydra: it gets its counters only when it is turned face up.",
    "Hidra con capucha: obtiene sus contadores solo cuando se pone boca arriba.",
    "Important: it gets its counters only when it is turned face up.",
    "In short: the counters come when it is turned face up.",
    "That is: the counters come when it is turned face up.",
    "There are two cases: if it is face down, it has no counters; if it is face up, it has them.",
    "It has two abilities: morph and the counters it gets as it is turned face up.",
    "Reason: it gets its counters only when it is turned face up.",
    "Example: it gets its counters only when it is turned face up.",   # the one pages51 keeps
]


PAGES = {  # title, first ruling, second ruling: the paragraph's own language
    "es": ("Hidra con capucha", "Si la Hidra con capucha está boca abajo, no tiene habilidades.",
           "La hidra se puede poner boca arriba en cualquier momento en que tengas prioridad."),
    "de": ("Schirmhydra", "Wenn die Schirmhydra verdeckt ist, hat sie keine Fähigkeiten.",
           "Du kannst sie jederzeit umdrehen, wenn du Priorität hast."),
    "en": ("Hooded Hydra", "If Hooded Hydra is face down, it has no abilities.",
           "You may turn it face up any time you have priority."),
}


def page(paragraph: str) -> str:
    lang = "es" if paragraph.startswith(("Por", "Hidra")) else "de" if paragraph.startswith("Zum") else "en"
    title, first, second = PAGES[lang]
    return f"{title}\n\n2014-09-20\n{first}\n\n{paragraph}\n\n2014-09-20\n{second}\n"


def main() -> None:
    for p in PARAGRAPHS:
        result = pages.parse_card_page(page(p), "hydra.txt", RESOLVE)
        kept = result.records[0].text.endswith(p)
        probs = [(x.line, x.reason[:50]) for x in result.problems]
        print(f"kept={kept!s:5} problems={probs} | {p[:45]}")


if __name__ == "__main__":
    main()
