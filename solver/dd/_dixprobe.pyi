"""Types of ``csrc/dd/dixprobe.pyx``: the dix solver built with its
switches and counters exposed (measurements)."""

from ._dixdd import BUCKET_BYTES as BUCKET_BYTES
from ._dixdd import ENTRY_BYTES as ENTRY_BYTES
from ._dixdd import IMPLEMENTATION as IMPLEMENTATION
from ._dixdd import DixSolver

class ProbeDixSolver(DixSolver):
    relative_keys: bool
    follow_tt: bool
    driver: int
    exact_k: int
    trick_bounds: int
    order: int
    @property
    def bound_hits(self) -> int: ...
    @property
    def questions(self) -> int: ...
    @property
    def tie_nodes(self) -> int: ...
    def cut_stats(self) -> list[tuple[int, int, int, int]]: ...
    def node_profile(self) -> dict[int, tuple[tuple[int, int], int]]: ...
    def reset_cut_stats(self) -> None: ...
