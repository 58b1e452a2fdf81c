"""Clause numbers: `7` (section), `708` (rule), `708.2`, `708.2a`; their order, parents and depth."""

from __future__ import annotations

import re
from typing import Iterable

_NUMBER = re.compile(r"^(\d)(?:(\d\d)(?:\.(\d+)([a-z])?)?)?$")


def parent_of(number: str) -> str | None:
    """`708.2a` -> `708.2` -> `708` -> `7` -> None."""
    if m := re.fullmatch(r"(\d{3}\.\d+)[a-z]", number):
        return m.group(1)
    if m := re.fullmatch(r"(\d{3})\.\d+", number):
        return m.group(1)
    if re.fullmatch(r"\d{3}", number):
        return number[0]
    return None


def sort_key(number: str) -> tuple[int, int, int, str]:
    """Document order of clause numbers: 708.2 < 708.2a < 708.10."""
    m = _NUMBER.match(number)
    if not m:
        return (99, 99, 9999, number)
    sec, rule, sub, letter = m.groups()
    return (int(sec), int(rule) if rule is not None else -1, int(sub) if sub else -1, letter or "")


def depth_of(number: str) -> int:
    """0 for `7`, 1 for `708`, 2 for `708.2`, 3 for `708.2a`."""
    if "." not in number:
        return 0 if len(number) == 1 else 1
    return 3 if number[-1].isalpha() else 2


def is_under(number: str, prefix: str) -> bool:
    """Whether `number` is `prefix` or one of its descendants (`708.2a` is under `708`)."""
    n: str | None = number
    while n is not None:
        if n == prefix:
            return True
        n = parent_of(n)
    return False


def suffix_of(number: str) -> str:
    """The part after the parent: `a` of `708.2a`, `2` of `708.2`, `08` of `708`."""
    parent = parent_of(number)
    return number[len(parent):].lstrip(".") if parent else number


def nearest(number: str, numbers: Iterable[str], k: int) -> list[str]:
    """The `k` of `numbers` closest to `number`: fewest typing edits first, then numerically."""
    target = sort_key(number)

    def distance(n: str) -> tuple[bool, int, int, int, int, int]:
        key = sort_key(n)
        return (key[:2] != target[:2], _edits(number, n), abs(key[0] - target[0]), abs(key[1] - target[1]),
                abs(key[2] - target[2]), abs(ord(key[3] or "`") - ord(target[3] or "`")))

    return sorted(sorted(numbers, key=distance)[:k], key=sort_key)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
