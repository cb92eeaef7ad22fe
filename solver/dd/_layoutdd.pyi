"""Types of the Cython layout solver ``csrc/dd/layoutdd.pyx`` (trix's
"Trix" and tricks' "Jacks"; the pure-Python twin is
``solver/reference/layout_oracle.py``)."""

from collections.abc import Sequence

IMPLEMENTATION: str
#: the pass action
PASS: int

class LayoutSolver:
    def __init__(self, tt_bytes: int) -> None: ...
    def solve(self, hands: Sequence[int], lo: Sequence[int], hi: Sequence[int], to_move: int,
              nout: int, score_mask: int) -> tuple[int, list[tuple[int, int]], int]:
        """``(value, [(action, value)], nodes)`` of a validated position."""
