"""Types of the Cython world walkers ``csrc/core/sampler.pyx`` (what Python
calls; the pure-Python twins are the ``sample_py`` methods of
``solver.sampler``'s compiled graphs)."""

from solver.sampler import CompiledColumns, CompiledHolders, CompiledSampler

class Walker:
    def __init__(self, compiled: CompiledSampler) -> None: ...
    def walk(self, seed: int) -> list[int]:
        """The card of every slot (visit order) of one uniform world."""

class _TypeWalker:
    def walk(self, seed: int) -> list[int]:
        """One card mask per holder."""

class HolderWalker(_TypeWalker):
    def __init__(self, compiled: CompiledHolders) -> None: ...

class ColumnWalker(_TypeWalker):
    def __init__(self, compiled: CompiledColumns) -> None: ...
