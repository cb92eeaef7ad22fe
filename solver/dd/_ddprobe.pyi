"""Types of ``csrc/dd/ddprobe.pyx``: the trick kernel built with its
switches and counters exposed (measurements, ``solver.dd.trick.probing``)."""

from ._dd import BUCKET_BYTES as BUCKET_BYTES
from ._dd import ENTRY_BYTES as ENTRY_BYTES
from ._dd import IMPLEMENTATION as IMPLEMENTATION
from ._dd import Kernel

class ProbeKernel(Kernel):
    use_winning_ranks: bool
    use_lock_bounds: bool
    use_later_bounds: int
    use_forced_bound: bool
    use_part_cover: bool
    use_count_bound: bool
    count_min_k: int
    order: int
    @property
    def lock_hits(self) -> int: ...
    @property
    def later_hits(self) -> int: ...
    @property
    def forced_hits(self) -> int: ...
    @property
    def part_hits(self) -> int: ...
    @property
    def count_hits(self) -> int: ...
    def count_floor(self, beta: int) -> tuple[int, list[int]] | None: ...
    def cut_stats(self) -> list[tuple[int, int, int, int]]: ...
    def reset_cut_stats(self) -> None: ...
