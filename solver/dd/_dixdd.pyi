"""Types of the Cython two-seat dix solver ``csrc/dd/dixdd.pyx``
(``dixkernel.pxi``: what Python calls, from ``solver.dd.dix``)."""

IMPLEMENTATION: str
ENTRY_BYTES: int
BUCKET_BYTES: int

class DixSolver:
    #: the last ``solve_all``: each legal slot's proved (lo, hi) future value
    brackets: dict[int, tuple[int, int]]
    def __init__(self, nbuckets: int) -> None: ...
    @property
    def table_bytes(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def aborted(self) -> bool: ...
    def load(self, hand0: int, hand1: int, trump: int, joker_slot: int, to_move: int,
             lead_slot: int) -> None: ...
    def new_table(self) -> None: ...
    def solve_all(self, max_nodes: int = 0, tie: bool = True,
                  base: int = 0) -> dict[int, int] | None:
        """Every legal slot's exact future value (``tie`` False: its round
        result's, ``base`` what the mover has already won), or None past
        ``max_nodes``."""
    def solve_value(self, max_nodes: int = 0) -> int | None:
        """The exact future value, or None past ``max_nodes``."""
