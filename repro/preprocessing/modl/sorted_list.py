"""Khiops' sorted list (Norm/base/SortedList.cpp): the tie rule of every greedy step of the MODL
optimisers (merges, splits, garbage searches) in Python; the compiled kernels reproduce it with
their own heap (:mod:`repro.preprocessing.modl.kernels`)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right


class SortedList:
    """A list kept in increasing key order with the tie rule of Khiops' AVL ``SortedList``.

    An element whose key is already present goes right after the first element of that key, so a
    tie group reads: the first inserted, then the others from the newest to the oldest; when the
    first is removed, the next one (the newest) takes its place. ``head()`` is the first element
    (smallest key), ``tail()`` the last, ``items`` the elements in order.
    """

    __slots__ = ("keys", "items", "key_of")

    def __init__(self):
        self.keys: list = []
        self.items: list = []
        self.key_of: dict = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item, key) -> None:
        keys = self.keys
        pos = bisect_left(keys, key)
        if pos < len(keys) and keys[pos] == key:
            pos += 1
        keys.insert(pos, key)
        self.items.insert(pos, item)
        self.key_of[item] = key

    def remove(self, item) -> None:
        key = self.key_of.pop(item)
        keys, items = self.keys, self.items
        lo, hi = bisect_left(keys, key), bisect_right(keys, key)
        for i in range(lo, hi):
            if items[i] is item or items[i] == item:
                del keys[i]
                del items[i]
                return
        raise KeyError(item)  # pragma: no cover

    def head(self):
        return self.items[0]

    def tail(self):
        return self.items[-1]

    def is_head(self, item) -> bool:
        return self.items[0] is item
