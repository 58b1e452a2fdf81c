"""The one text module (kb/normalize.py): each job defined once, with the variants callers rely on."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kb import normalize as text


@pytest.mark.parametrize(("raw", "plain", "rule"), [
    ("It\u2019s  \u201cForm\u201d\n", "It's \"Form\"", "It's \"Form\""),
    ("\u201everdeckt\u201c und \u201aumgedreht\u2018", "\"verdeckt\" und 'umgedreht'", "\"verdeckt\" und 'umgedreht'"),
    ("Morph\u2014{3}{U}\u00a0 \t(x \u2013 1)", "Morph\u2014{3}{U} (x \u2013 1)", "Morph-{3}{U} (x - 1)"),
    ("\uff21\uff22 \u2212 1", "AB \u2212 1", "AB - 1"),  # NFKC folds full-width letters, not the minus sign
])
def test_normalize_text_keeps_dashes_unless_asked_for_plain_ones(raw: str, plain: str, rule: str) -> None:
    assert text.normalize_text(raw) == plain
    assert text.normalize_text(raw, plain_dashes=True) == rule


def test_match_key_ignores_case_punctuation_and_spacing() -> None:
    assert text.match_key("Turn it  FACE-UP!") == text.match_key("turn it face up") == "turn it face up"
    assert text.words("Don\u2019t  reveal it.") == ["don", "t", "reveal", "it"]



def _match_key_as_first_written(raw: str) -> str:
    """match_key's first definition: normalise (NFKC, plain quotes, single spaces), case-fold, turn
    every run of non-word characters into one space."""
    import re

    return re.sub(r"[^\w]+", " ", text.normalize_text(raw).casefold()).strip()


@pytest.mark.parametrize("raw", [
    "  Don’t  cast ‘it’ — it's “face-down”\u00a0now.\n",
    "Straße ﬁle ＦＵＬＬ ①②",  # casefold and NFKC both change letters: ss, fi, full width, circled digits
    "caf\u0065\u0301 ´acute´ `back` „Zitat“ ‚x‛ ‟y” Kreatur‐verdeckt",
    "¿Puede lanzarse boca abajo? ¡Sí! (2/2) {2}{U} +1/+1 — X",
    "a\u200bb\tc\u2028d e_f 7–8 10\u221220",
    "", "   ", "—", "'",
    # ASCII texts, keyed through a byte table: every ASCII character, the separators str.split
    # would take for spaces (\x1c-\x1f), "_" (a word character)
    "".join(map(chr, range(128))), "".join(map(chr, reversed(range(128)))),
    "A_b\x1fC\x1c9\x0bz Face-Down  +1/+1 {2}{U} X-1 don't", "_", "__init__ Z9",
])
def test_match_key_is_the_first_definition_done_faster(raw: str) -> None:
    assert text.match_key(raw) == _match_key_as_first_written(raw)


@pytest.mark.parametrize("raw", [
    "-1/-1 at the start", "gets +1/+1 and -X/-0", "X-1 and 2-3 are no signs", "a+1, _-1 and é-2 neither",
    "(\u22122) \u20133 \u20124 [+5] \n-6 \t+x +xy +X.", "+", "-", "", "a-", "1--2 -+3 +-4",
])
def test_signed_numbers_are_the_look_behind_definition_done_faster(raw: str) -> None:
    """The sign is matched before the character ahead of it is looked at: what a look-behind first gives."""
    import re
    import unicodedata

    first = re.compile(r"(?<!\w)([+\-\u2212\u2013\u2012])(\d+|x\b)", re.IGNORECASE)
    assert text.signed_numbers(raw) == tuple(("+" if sign == "+" else "-") + number.lower()
                                             for sign, number in first.findall(unicodedata.normalize("NFKC", raw)))

@pytest.mark.parametrize(("raw", "tokens"), [
    ("Put a +1/+1 counter on it.", ["put", "a", "+1/+1", "counter", "on", "it"]),
    ("Pay {2}{U}: Turn it face up.", ["pay", "{2}{u}", "turn", "it", "face", "up"]),
    ("It\u2019s a face-down 2/2 creature \u2014 'manifest'", ["it's", "a", "face-down", "2/2", "creature", "manifest"]),
])
def test_rule_tokens_keep_mana_counters_and_apostrophes(raw: str, tokens: list[str]) -> None:
    assert text.rule_tokens(raw) == tokens


@pytest.mark.parametrize(("raw", "folded"), [
    ("\u00dcber das Schlachtfeld", "uber das schlachtfeld"),
    ("Stra\u00dfe", "strasse"),
    ("It doesn\u2019t, it\u2019s", "it doesnt, its"),
    ("boca arriba \u2014 verdeckt", "boca arriba   verdeckt"),
])
def test_fold_drops_case_accents_and_apostrophes(raw: str, folded: str) -> None:
    assert text.fold(raw) == folded


@pytest.mark.parametrize(("name", "key"), [
    ("L\u00e4hmungsnadel", "lahmungsnadel"),
    ("Jace\u2019s Ingenuity", "jaces ingenuity"),
    ("\u00c6ther Vial", "aether vial"),  # fold keeps the ligature; card names spell it out
    ("Ghastly Demise, Part 2", "ghastly demise part 2"),
])
def test_name_key_folds_card_names(name: str, key: str) -> None:
    assert text.name_key(name) == key


def test_tokenize_folds_stems_and_drops_stopwords_of_three_languages() -> None:
    assert text.tokenize("The verdeckten Kreaturen are revealed") == ["verdeckt", "kreatur", "reveal"]
    assert text.tokenize("boca arriba del mazo") == ["boca", "arrib", "mazo"]  # "maz" would keep three letters
    assert text.tokenize("it is tapped", keep_stopwords=True) == ["it", "is", "tap"]


@pytest.mark.parametrize(("raw", "lang", "tokens"), [
    ("does it die right away?", "en", ["die", "right", "away"]),  # search50c: f4-en-01 lost its verb
    ("Die Kreatur stirbt", "de", ["kreatur", "stirbt"]),  # the German article
    ("Die Kreatur stirbt", None, ["kreatur", "stirbt"]),  # a text of unknown language: every language's
    ("does it die right away?", None, ["right", "away"]),
])
def test_a_text_of_known_language_keeps_its_own_words_another_language_stops(raw: str, lang: str | None,
                                                                             tokens: list[str]) -> None:
    assert text.tokenize(raw, lang=lang) == tokens
    assert text.stopwords("es") == text.STOPWORDS and "die" not in text.stopwords("en")


@pytest.mark.parametrize(("raw", "words"), [
    ("Das Auf- oder Zudecken", ["das", "aufdecken", "oder", "zudecken"]),  # tryout24 defect 8
    ("ein- und ausgezahlt", ["eingezahlt", "und", "ausgezahlt"]),
    ("Auf- bzw. Zurückdrehen", ["aufdrehen", "bzw", "zuruckdrehen"]),  # longest prefix first: zurück, not zu
    ("In- und auswendig", ["in", "und", "auswendig"]),  # "in" is no verb prefix: left as written
    ("Kreaturen- oder Länderkarten", ["kreaturen", "oder", "landerkarten"]),  # no prefix: the shared part is unknown
    ("pre- and post-combat", ["pre", "and", "post", "combat"]),
    ("Kauf- oder Zudecken", ["kauf", "oder", "zudecken"]),  # "auf" inside a word is no prefix
    ("Um- und Erweiterungsbauten", ["um", "und", "erweiterungsbauten"]),  # "er" starts no prefix here (review38)
    ("Auf- oder Verdecken", ["aufdecken", "oder", "verdecken"]),
])
def test_search_words_write_out_a_german_elided_compound(raw: str, words: list[str]) -> None:
    assert text.search_words(raw, keep_stopwords=True) == words


@pytest.mark.parametrize(("word", "search", "rule"), [
    ("tapped", "tap", "tapp"),  # search undoubles the consonant, rule comparison does not
    ("untapping", "untap", "untapp"),
    ("player", "play", "player"),  # -er is a German ending to search, a part of the word to the rules
    ("creatures", "creatur", "creatur"),  # -es goes before -s, as kb.cr.links always stemmed
    ("reveals", "reveal", "reveal"),
    ("verdeckten", "verdeckt", "verdeckten"),
    ("gets", "gets", "gets"),  # a suffix goes only when four letters stay
])
def test_stem_and_rule_stem_strip_different_suffixes(word: str, search: str, rule: str) -> None:
    assert text.stem(word) == search
    assert text.rule_stem(word) == rule


def test_the_two_stopword_lists_hold_the_tokens_of_their_tokenisers() -> None:
    assert {"doesnt", "fur", "uber", "para"} <= text.STOPWORDS
    assert {"doesn't", "it's", "rule", "see"} <= text.RULE_STOPWORDS
    assert not {"doesn't", "rule", "face", "creature"} & text.STOPWORDS
    assert "creature" not in text.RULE_STOPWORDS


def test_word_diff_runs() -> None:
    assert text.word_diff("a b c d", "a x c") == [
        ("equal", "a"), ("delete", "b"), ("insert", "x"), ("equal", "c"), ("delete", "d")]
    assert text.word_diff("same  words", "same words") == [("equal", "same words")]
    assert text.word_diff("", "new") == [("insert", "new")]


@pytest.mark.parametrize(("value", "ok"), [
    ("2018-07-13", True), ("2024-02-29", True), ("2018-7-3", True),
    ("2023-02-29", False), ("2018-13-01", False), ("13/07/2018", False), ("2018-07-13T00:00", False), ("", False),
])
def test_is_iso_date(value: str, ok: bool) -> None:
    assert text.is_iso_date(value) is ok


def test_write_atomic_replaces_the_file_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    text.write_atomic(path, "old")
    text.write_atomic(path, "ré\n")
    assert path.read_bytes() == "ré\n".encode("utf-8")
    text.write_atomic(path, b"\x00\x01", mode=0o640)
    assert path.read_bytes() == b"\x00\x01"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_write_atomic_keeps_the_old_file_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")

    def fail(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        text.write_atomic(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def _same(a: object, b: object) -> bool:
    return a is b


@pytest.mark.parametrize(("module", "name", "one"), [
    ("kb.cr", "tokens", "rule_tokens"),
    ("kb.cr", "word_diff", "word_diff"),
    ("kb.outdated", "word_diff", "word_diff"),
    ("kb.oracle", "name_key", "name_key"),
    ("kb.store", "write_atomic", "write_atomic"),
    ("kb.store.cache", "write_atomic", "write_atomic"),
    ("kb.cr.links", "rule_stem", "rule_stem"),
    ("kb.cr.links", "RULE_STOPWORDS", "RULE_STOPWORDS"),
    ("kb.cr.query", "is_iso_date", "is_iso_date"),
    ("kb.game.rules", "is_iso_date", "is_iso_date"),
])
def test_callers_use_the_one_definition(module: str, name: str, one: str) -> None:
    import importlib

    assert _same(getattr(importlib.import_module(module), name), getattr(text, one))


@pytest.mark.parametrize("raw", ["It\u2019s \u201cthe\u201d\u2014rule", "  A\u00a0b  ", "\u201esie\u201c"])
def test_rule_and_quote_normalisers_are_normalize_text(raw: str) -> None:
    from kb.checks import normalise_quote
    from kb.cr import normalise

    assert normalise(raw) == text.normalize_text(raw, plain_dashes=True)
    assert normalise_quote(raw) == text.normalize_text(raw).casefold()


@pytest.mark.parametrize("raw, iso", [("13.07.2018", "2018-07-13"), ("3.7.2018", "2018-07-03"),
                                      ("2018-07-13", "2018-07-13"), ("13.07.18", "2018-07-13"), ("3.7.14", "2014-07-03")])
def test_a_date_option_takes_a_day_written_with_dots_day_first(raw: str, iso: str) -> None:
    """German judges write 13.07.2018 (tryout10): dots are day.month.year, never month first."""
    from kb.normalize import date_option

    assert date_option(raw, "--at") == iso


@pytest.mark.parametrize("raw, iso", [("23. August 2019", "2019-08-23"), ("July 13, 2018", "2018-07-13"),
                                      ("13 de julio de 2018", "2018-07-13"), ("13. Juli 2018", "2018-07-13"),
                                      ("Friday, July 13th, 2018", "2018-07-13"),
                                      ("20 set. 2024", "2024-09-20")])  # tryout14: Spanish pages abbreviate `set.`
def test_a_date_option_takes_a_month_written_out_as_a_page_writes_it(raw: str, iso: str) -> None:
    """tryout12: `kb rule 708.2a --at "23. August 2019"` was refused while a page with that date was read."""
    from kb.normalize import date_option

    assert date_option(raw, "--at") == iso
    assert date_option(raw, "--since", partial=True) == iso


@pytest.mark.parametrize("raw", ["31. Februar 2019", "Smarch 13, 2018", "13/07/2018", "July 2018", "31.02.18",
                                 "13.07.2018.5", "13.7.218"])
def test_a_date_option_still_refuses_impossible_unknown_or_ambiguous_days(raw: str) -> None:
    from kb.errors import InputError
    from kb.normalize import date_option

    with pytest.raises(InputError, match="invalid --at date"):
        date_option(raw, "--at")


def test_a_partial_date_option_takes_a_month_written_out() -> None:
    from kb.normalize import date_option

    assert date_option("Juli 2018", "--since", partial=True) == "2018-07"
    assert date_option("julio de 2018", "--since", partial=True) == "2018-07"
