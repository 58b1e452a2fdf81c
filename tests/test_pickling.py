"""The build's caches pickle hundreds of thousands of records, variants and links: `fast_pickle`
gives them the dataclass's own values back, and reads what the dataclass default wrote."""

from __future__ import annotations

import dataclasses
import pickle

from kb.model import Entry, Kind, Lang, Problem, Record, Relation, RuleLink, Variant
from kb.outdated import OutdatedItem, OutdatedReason


def _objects() -> list[object]:
    v = Variant("Text.", "text", Lang.DE, "2018-07-13", "seed", 3, Relation.TRANSLATION, 0.9, "Lightform")
    link = RuleLink("708.2", 0.8, "707.2", "evidence")
    return [v, link, Entry("r-1", Kind.RULING, "Text.", ("Lightform",), "2018-07-13", "2018-07-13", (v,), rules=(link,)),
            Problem("page.txt", 4, "no date"),
            Record("Text.", "Text.", Lang.EN, "2018-07-13", "seed", 1, Kind.RULING, "Lightform")]


def test_pickled_objects_come_back_equal() -> None:
    for obj in _objects():
        back = pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == obj and type(back) is type(obj)
        assert back.__getstate__() == tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))  # type: ignore[attr-defined]


def test_a_state_the_dataclass_default_wrote_is_read() -> None:
    for obj in _objects():
        state = [getattr(obj, f.name) for f in dataclasses.fields(obj)]  # type: ignore[arg-type]
        back = type(obj).__new__(type(obj))
        back.__setstate__(state)  # type: ignore[attr-defined]
        assert back == obj


def test_outdated_items_keep_their_fields_too() -> None:
    assert getattr(OutdatedItem, "__getstate__") is not dataclasses._dataclass_getstate  # type: ignore[attr-defined]
    assert getattr(OutdatedReason, "__setstate__") is not dataclasses._dataclass_setstate  # type: ignore[attr-defined]
