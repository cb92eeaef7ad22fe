"""Types of the Cython ISMCTS kernel ``csrc/search/ismcts.pyx`` (what Python
calls): one ``Search`` class, its kind named when it is built.  Each
game's search is built by its package's kernel.py (see
``solver.search.native``) from a seat view: the view's compiled sampler
graph, the game's rules and the base state as dicts of plain numbers and
lists (see the builder of each)."""

from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from solver.sampler import CompiledColumns, CompiledHolders, CompiledSampler

#: ``poll(iterations done, {action: visits}, {action: mean reward})``, about
#: every ``POLL_SECONDS`` while the trees grow; a true result stops them
Poll = Callable[[int, dict[int, int], dict[int, float]], bool]

#: ``run``'s result: ``({action: visits}, {action: mean reward of the
#: searching seat}, iterations done, {action: sum of squared rewards},
#: per tree {action: (visits, mean)}, per tree {action: [(count, sum) of
#: each batch]})``
RunResult = tuple[dict[int, int], dict[int, float], int, dict[int, float],
                  list[dict[int, tuple[int, float]]],
                  list[dict[int, list[tuple[int, float]]]]]

#: the kinds of search, one row each of the kernel's ``GAMES`` table (dix card
#: play, a trix / tricks trick contract, the layout, dixie-rook card play, a
#: whole trix / tricks deal, a whole dixie-rook hand, a dix-exchange round)
Kind = Literal["dix", "trick", "layout", "rook", "deal", "hand", "exchange"]

GAME_NAMES: tuple[Kind, ...]

class Search:
    kind: Kind
    def __init__(self, kind: Kind,
                 compiled: CompiledSampler | CompiledHolders | CompiledColumns | dict[str, Any],
                 rules: dict[str, Any], state: dict[str, Any]) -> None:
        """``compiled``: the view's sampler, of the kind's graph (dix: the
        interval sampler; trick, layout, deal: holders; rook, hand:
        columns; exchange: the world model's dict)."""
    def set_offsets(self, offsets: Mapping[int, float]) -> None: ...
    def set_prior(self, on: bool) -> None: ...
    def set_pool(self, rows: array[int] | None, width: int, cum: array[float]) -> None:
        """Determinize from a weighed pool of worlds (solver.beliefs)."""
    def run(self, iterations: int, seconds: float, seed: int, trees: int, c: float,
            poll: Poll | None = None, workers: int = 0) -> RunResult: ...
    def moves(self, hands: Sequence[int]) -> tuple[int, int]:
        """``(legal, searched)`` card masks with ``hands`` in place of a
        determinization."""
    def simulate(self, seed: int) -> Any:
        """One determinization and one play-out; the tuple is the kind's
        (its row's comment in the .pyx)."""
