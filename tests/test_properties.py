"""Properties that hold for any input: parsers never crash and never lose a dated unit, dates
normalise to ISO or fail with their own error, deduplication conserves, is idempotent and does
not depend on input order (FakeEmbedder, generated records)."""

from __future__ import annotations

import os

import random
from collections import Counter
from datetime import date

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kb.cards import load_names
from kb.ingest.dedup import deduplicate
from kb.search.embed import FakeEmbedder
from kb.ingest import decode, parse_text
from kb.model import Kind, Lang, ParseResult, Record
from kb.normalize import DateFormatError, is_iso_date, normalize_text, parse_date
from kb.ingest import mtgjson, pages
from kb.paths import corpus_dir

NAMES = load_names(corpus_dir())
EMBEDDER = FakeEmbedder()
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------- parsers
@FUZZ
@given(TEXT)
def test_every_parser_takes_any_text_without_crashing(text):
    for result in (pages.parse_card_page(text, "f.txt", NAMES.resolve), pages.parse_search_page(text, "f.txt"),
                   mtgjson.parse(text, "f.json"), parse_text(text, "f.txt", names=NAMES, match_clause=None)):
        assert isinstance(result, ParseResult)
        for r in result.records:
            assert r.text == normalize_text(r.text) and r.text
            assert r.date is None or is_iso_date(r.date)
            assert r.line >= 1
        for p in result.problems:
            assert p.reason and "\n" not in p.reason


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_decode_or_are_refused_with_a_reason(data):
    from kb.errors import InputError

    try:
        text = decode(data)
    except InputError as e:
        assert "\n" not in str(e)
        return
    assert "\r" not in text
    parse_text(text, "f.txt", names=NAMES, match_clause=None)


RULING = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=120)
GOOD_DATE = st.dates(min_value=date(1993, 1, 1), max_value=date(2099, 12, 31)).map(
    lambda d: f"• WotC{d.strftime('%b')} {d.day}, {d.year}")
BAD_DATE = st.sampled_from(["• WotC31/02/2018", "• 13th of July 2018", "• WotCSomeday", "• 1850-01-01",
                            "* Foo 12, 2018"])


@FUZZ
@given(st.lists(st.tuples(st.one_of(GOOD_DATE, BAD_DATE), RULING), min_size=1, max_size=10),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_every_dated_unit_is_a_record_or_a_reported_problem(units, newline, bom):
    """A card page of (date line, ruling) units, in any line ending, with or without BOM."""
    units = [(d, normalize_text(t)) for d, t in units]
    # a text that is itself a date line, or starts with a date, is a unit boundary
    # and a text opening with ">" is a quoted line of a post, whose mark is taken off (tests/test_cli_tryout24_quoted_post.py)
    # and a bullet alone on its line (`•`, `+`: review48 L3) reads as a blank line, no unit
    units = [(d, t) for d, t in units if t and pages._date_part(t) is None and pages._date_head(t) is None
             and not t.startswith(">") and not pages._LONE_BULLET.match(t)]
    assume(units)
    lines = ["Lightform", ""]
    ruling_lines = []
    for d, t in units:
        lines += [d, ""]
        ruling_lines.append(len(lines) + 1)
        lines += [t, ""]
    raw = (("\ufeff" if bom else "") + newline.join(lines)).encode("utf-8")
    result = parse_text(decode(raw), "p.txt", names=NAMES, match_clause=None)
    # a last unit that reads as a heading ("0", "Terms of Use") is no ruling but the page's footer, as after a
    # ruling: reported at its line, and its date as one with no ruling after it
    empty = [p for p in result.problems if p.reason == "date line with no ruling after it"]
    stray = [p.line for p in result.problems if p.reason.startswith("text after a ruling and under no date")]
    assert sorted(p.line + 2 for p in empty) == stray
    # a note beside a kept ruling (`ignored`: "a mana symbol lost in the copy?" for "0 :") is no second unit
    kept = {r.line for r in result.records}
    got = sorted([r.line for r in result.records]
                 + [p.line for p in result.problems if p.line and p not in empty and not (p.ignored and p.line in kept)])
    assert got == ruling_lines
    assert {r.card for r in result.records} <= {"Lightform"}
    for (d, t), line in zip(units, ruling_lines):
        record = [r for r in result.records if r.line == line]
        if record:  # a list item's bullet is no part of its ruling ("* :" is the ruling ":")
            assert record[0].text == pages.BULLET.sub(r"\g<text>", t)


# ------------------------------------------------------------------------------- dates
@given(st.dates(min_value=date(1993, 1, 1), max_value=date(2100, 12, 31)), st.booleans())
def test_iso_dates_are_a_fixed_point(day, day_first):
    iso = day.isoformat()
    assert parse_date(iso, day_first=day_first) == iso
    assert parse_date(parse_date(f" {day.strftime('%B')} {day.day} {day.year} "), day_first=day_first) == iso


@given(st.dates(min_value=date(1993, 1, 1), max_value=date(2099, 12, 31)), st.sampled_from("/.-"))
def test_numeric_dates_follow_the_page_order_and_unambiguous_ones_either_way(day, sep):
    d, m, y = day.day, day.month, day.year
    text = f"{d:02d}{sep}{m:02d}{sep}{y}"
    assert parse_date(text, day_first=True) == day.isoformat()
    us = f"{m:02d}{sep}{d:02d}{sep}{y}"
    assert parse_date(us, day_first=False) == day.isoformat()
    if d > 12:  # only one reading is a real date
        assert parse_date(text, day_first=False) == parse_date(us, day_first=True) == day.isoformat()


@given(st.text(max_size=30))
def test_parse_date_returns_a_plausible_iso_date_or_its_own_error(raw):
    try:
        iso = parse_date(raw)
    except DateFormatError as e:
        assert "\n" not in str(e)
        return
    assert is_iso_date(iso) and "1993" <= iso[:4] <= "2100"


# ------------------------------------------------------------------------------- dedup
WORDS = ["face", "down", "creature", "permanent", "turn", "up", "manifest", "library", "card", "mana",
         "cost", "control", "reveal", "exile", "spell", "ability", "tapped", "untapped", "the", "a"]
GERMAN = ["verdeckte", "Kreatur", "bleibende", "Karte", "aufdecken", "Bibliothek", "die", "der"]
CARDS = ["Lightform", "Rageform", "Cloudform", None]
DATES = ["2014-11-24", "2018-07-13", "2021-03-03", None]


@st.composite
def records(draw) -> list[Record]:
    """Rulings built from a few base sentences: exact copies, reworded copies, German ones, rules."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    bases = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14))) for _ in range(draw(st.integers(1, 6)))]
    out = []
    for i in range(draw(st.integers(1, 30))):
        kind = draw(st.sampled_from([Kind.RULING] * 5 + [Kind.RULE]))
        lang = draw(st.sampled_from([Lang.EN] * 4 + [Lang.DE]))
        if lang is Lang.DE:
            text = " ".join(rng.choice(GERMAN) for _ in range(rng.randint(4, 10)))
        else:
            words = rng.choice(bases).split()
            for _ in range(draw(st.integers(0, 2))):  # a reworded revision: substitute, insert, delete
                op, at = rng.randrange(3), rng.randrange(len(words))
                if op == 0:
                    words[at] = rng.choice(WORDS)
                elif op == 1:
                    words.insert(at, rng.choice(WORDS))
                elif len(words) > 1:
                    del words[at]
            text = " ".join(words)
            text = draw(st.sampled_from([text, text.upper(), text + ".", text.capitalize() + "!"]))
        text = normalize_text(text)
        out.append(Record(text=text, original=text, lang=lang, date=draw(st.sampled_from(DATES)),
                          source=f"s{draw(st.integers(0, 3))}.txt", line=i + 1, kind=kind,
                          card=draw(st.sampled_from(CARDS)) if kind is Kind.RULING else None))
    return out


def _dedup(recs):
    return deduplicate(recs, embedder=EMBEDDER)


def _key(r) -> tuple:
    return (r.text, r.lang.value, r.date or "", r.source, r.line, r.card or "")


DEDUP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@DEDUP
@given(records())
def test_every_record_is_exactly_one_variant_of_exactly_one_entry(recs):
    entries = _dedup(recs)
    variants = [v for e in entries for v in e.variants]
    assert len(variants) == len(recs)
    assert Counter((v.source, v.line) for v in variants) == Counter((r.source, r.line) for r in recs)
    assert Counter(_key(v) for v in variants) == Counter(_key(r) for r in recs)
    assert len({e.id for e in entries}) == len(entries)
    for e in entries:
        assert sum(v.relation.value == "canonical" for v in e.variants) == 1
        assert e.text in {v.text for v in e.variants}
        assert len({v.lang for v in e.variants} & {Lang.EN}) <= 1


@DEDUP
@given(records())
def test_deduplicating_twice_gives_identical_entries(recs):
    assert _dedup(recs) == _dedup(list(recs))


@DEDUP
@given(records())
def test_re_ingesting_the_stored_variants_changes_nothing(recs):
    """The KB's own variants, fed back as records, give the same entries (ingesting twice is a no-op)."""
    entries = _dedup(recs)
    again = [Record(text=v.text, original=v.original, lang=v.lang, date=v.date, source=v.source, line=v.line,
                    kind=e.kind, card=v.card, clause=e.clause) for e in entries for v in e.variants]
    assert _dedup(again) == entries


@DEDUP
@given(records(), st.randoms(use_true_random=False))
def test_input_order_does_not_matter(recs, rnd):
    shuffled = list(recs)
    rnd.shuffle(shuffled)
    assert _dedup(shuffled) == _dedup(recs)


def test_dedup_does_not_depend_on_the_hash_seed(tmp_path):
    """Set iteration order changes with PYTHONHASHSEED; the entries must not."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    pages = tmp_path / "pages"
    subprocess.run([sys.executable, str(repo / "bench" / "gen_corpus.py"), str(pages), "--rulings", "10000"],
                   cwd=repo, check=True, capture_output=True)
    script = (
        "import hashlib, json, sys\n"
        "from pathlib import Path\n"
        "from kb.ingest.dedup import deduplicate\n"
        "from kb.search.embed import FakeEmbedder\n"
        "from kb.ingest import ingest\n"
        "from kb.cards import load_names\n"
        "from kb.paths import corpus_dir\n"
        "records = ingest([Path(sys.argv[1])], names=load_names(corpus_dir()), match_clause=None).records\n"
        "entries = deduplicate(records, embedder=FakeEmbedder())\n"
        "print(hashlib.sha256(json.dumps([e.to_json() for e in entries]).encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run([sys.executable, "-c", script, str(pages)], cwd=repo, check=True, capture_output=True,
                       text=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1


WORD_LISTS = st.lists(st.sampled_from("a the face down creature turn up morph manifest cost its you may".split()),
                      max_size=14)


@FUZZ
@given(WORD_LISTS, WORD_LISTS)
def test_the_shared_words_bound_never_skips_a_revision(a: list[str], b: list[str]) -> None:
    """dedup skips difflib for pairs whose shared words can't reach a revision threshold: the bound
    must never skip a pair difflib would call a revision."""
    from kb.ingest.dedup import is_revision, may_be_revision, wording_similarity

    shared = sum((Counter(a) & Counter(b)).values())
    if not may_be_revision(shared, len(a) + len(b)):
        assert not is_revision(*wording_similarity(a, b))


@FUZZ
@given(st.lists(st.sampled_from(["comes into play", "came into play", "removed from the game", "play a spell",
                                 "converted mana cost", "en juego", "ins Spiel", "the", "enters", "x"]),
                max_size=6),
       st.sampled_from([None, Lang.EN, Lang.DE, Lang.ES]))
def test_the_one_regex_of_all_terms_finds_what_each_term_finds(parts: list[str], lang: Lang | None) -> None:
    from kb.corpus import Corpus

    terminology = Corpus.default().terminology
    text = " ".join(parts)
    each = [t for t in terminology.terms if (lang is None or t.lang is lang) and t.found_in(text)]
    assert terminology.obsolete_in(text, lang) == each
