"""Types of the Cython world walkers ``csrc/core/sampler.pyx`` (what Python
calls; the pure-Python twins are the ``sample_py`` methods of
``solver.sampler``'s compiled graphs)."""

from array import array
from typing import Any

from solver.sampler import CompiledColumns, CompiledHolders, CompiledSampler

class Walker:
    def __init__(self, compiled: CompiledSampler) -> None: ...
    def walk(self, seed: int) -> list[int]:
        """The card of every slot (visit order) of one uniform world."""
    def walk_rows(self, n: int, seed: int) -> array[int]:
        """``n`` worlds as rows: each slot's card as a one-bit mask."""

class _TypeWalker:
    def walk(self, seed: int) -> list[int]:
        """One card mask per holder."""
    def walk_rows(self, n: int, seed: int) -> array[int]:
        """``n`` worlds as rows: one card mask per holder."""

class HolderWalker(_TypeWalker):
    def __init__(self, compiled: CompiledHolders) -> None: ...

class ColumnWalker(_TypeWalker):
    def __init__(self, compiled: CompiledColumns) -> None: ...

class BagWalker:
    """A dix-exchange view's world model compiled to a graph."""
    def __init__(self, compiled: dict[str, Any], groups: list[list[int]],
                 n_places: int) -> None: ...
    def walk_rows(self, n: int, seed: int) -> array[int]:
        """``n`` worlds as rows: each position's value as one bit."""
