"""Entry digests (kb/store/digests.py): one content digest per entry and build, shared by the memo
keys of linking and the outdated finder and by the store's row digests."""

from __future__ import annotations

from dataclasses import replace

from kb.model import Entry, Kind, Lang, Relation, RuleLink, Variant
from kb.store.digests import Digests, content_digest


def _entry(text: str = "A face-down spell is a 2/2 creature spell.", similarity: float = 1.0,
           original: str | None = None) -> Entry:
    v = Variant(text=text, original=original or text, lang=Lang.EN, date="2020-01-01", source="corpus/x.json",
                line=1, relation=Relation.CANONICAL, similarity=similarity, card="Lightform")
    return Entry(id="r-1", kind=Kind.RULING, text=text, cards=("Lightform",), first_date="2020-01-01",
                 last_date="2020-01-01", variants=(v,))


def test_the_content_digest_holds_every_variant_field_the_json_rounds_or_leaves_out() -> None:
    base = content_digest(_entry())
    assert content_digest(_entry(similarity=0.99999)) != base  # JSON rounds it to 1.0
    assert content_digest(_entry(original="A face-down spell is a 2/2  creature spell.")) != base  # not in to_json
    assert content_digest(_entry()) == base


def test_the_content_digest_leaves_out_what_later_stages_add_and_whole_holds_it() -> None:
    e = _entry()
    linked = replace(e, id="r-2", rules=(RuleLink("708.2", 0.5, "708.2", "e"),), checks=("c",), link_note="n")
    assert content_digest(linked) == content_digest(e)
    digests = Digests()
    assert digests.whole(replace(e, rules=(RuleLink("708.2", 0.500001, "708.2", "e"),))) != digests.whole(
        replace(e, rules=(RuleLink("708.2", 0.500002, "708.2", "e"),)))
    assert digests.whole(replace(e, checks=("c",))) != digests.whole(e)
    assert digests.whole(replace(e, id="r-2")) != digests.whole(e)


def test_an_entry_whose_content_changed_under_the_same_id_is_digested_again() -> None:
    digests = Digests()
    e = _entry()
    first = digests.content(e)
    assert digests.content(replace(e, checks=("c",))) == first  # the same content objects: the held digest
    other = _entry("A face-down permanent has no name.")
    assert digests.content(other) == content_digest(other) != first
    assert digests.content(replace(e, first_date="2014-01-01")) != first


def test_a_known_digest_is_taken_as_it_is_while_the_entry_holds_the_same_content() -> None:
    """`Digests.know`: deduplication's delta tells the digest of a kept cluster's entry, which linking and the
    outdated finder then take without digesting it (the same objects); an entry changed since is digested again."""
    import kb.store.digests as module

    digests, e = Digests(), _entry()
    digests.know(e, "told")
    assert digests.content(e) == "told" and digests.content(replace(e, rules=())) == "told"
    assert digests.content(replace(e, text="Another text.")) == content_digest(replace(e, text="Another text."))


def test_assign_ids_hands_back_an_entry_whose_id_it_keeps_as_it_is() -> None:
    """An entry whose id is already the one its anchor gives is not copied (a digest known of it holds); one
    with another id is."""
    from kb.ingest.ids import assign_ids

    e = _entry()
    right = assign_ids([e])[0]
    assert right.id != e.id
    assert assign_ids([right])[0] is right
    assert assign_ids([e])[0] is not e
