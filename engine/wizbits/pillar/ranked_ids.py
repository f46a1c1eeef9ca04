"""A set of positive ids that can also be indexed by rank, both in O(log n).

The Pillar keeps its live subpillars here so a caller can pick "the i-th legal
foundation" without listing them all, which would make random play quadratic.
"""

from __future__ import annotations


class RankedIds:
    """Positive integer ids with membership, count and i-th-smallest lookup.

    A Fenwick tree over the id range stores 1 for each member. It grows by
    doubling, so adding ids in increasing order costs O(log n) amortised.
    """

    __slots__ = ("_tree", "_members")

    def __init__(self) -> None:
        self._tree: list[int] = [0] * 17  # index 0 unused; capacity 16
        self._members: set[int] = set()

    def __len__(self) -> int:
        return len(self._members)

    def __contains__(self, item: object) -> bool:
        return item in self._members

    def add(self, item: int) -> None:
        """Add ``item`` (a positive int); adding a member again does nothing."""
        if item < 1:
            raise ValueError(f"ids must be positive, not {item}")
        if item in self._members:
            return
        while item >= len(self._tree):
            self._grow()
        self._members.add(item)
        self._bump(item, 1)

    def discard(self, item: int) -> None:
        """Remove ``item`` if it is a member."""
        if item in self._members:
            self._members.remove(item)
            self._bump(item, -1)

    def nth(self, rank: int) -> int:
        """The member with ``rank`` smaller members (0 is the smallest).

        Raises:
            IndexError: ``rank`` is outside ``0 .. len(self) - 1``.
        """
        if not 0 <= rank < len(self._members):
            raise IndexError(f"rank {rank} is out of range for {len(self._members)} ids")
        # Binary lifting down the implicit tree: skip each block whose members
        # all rank below the one wanted. The capacity is a power of two, so
        # every probe stays inside the tree.
        tree = self._tree
        position = 0
        remaining = rank + 1
        step = (len(tree) - 1) >> 1
        while step:
            count = tree[position + step]
            if count < remaining:
                position += step
                remaining -= count
            step >>= 1
        return position + 1

    def _bump(self, item: int, delta: int) -> None:
        tree = self._tree
        size = len(tree)
        while item < size:
            tree[item] += delta
            item += item & -item

    def _grow(self) -> None:
        # Rebuilding is O(capacity) and happens log-many times in total.
        self._tree = [0] * (2 * (len(self._tree) - 1) + 1)
        for item in self._members:
            self._bump(item, 1)
