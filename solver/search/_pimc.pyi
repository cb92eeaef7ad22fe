"""Types of PIMC's dix play-outs in C ``csrc/search/pimc.pyx`` (what
Python calls, from ``solver.games.dix.search.NativeDixWorlds``)."""

from collections.abc import Sequence

class DixWorlds:
    leaf_solves: int
    leaf_nodes_used: int
    def __init__(self, table: bytes, trump: int, turn_up: int, deck: int, stock_len: int,
                 total_tricks: int, free_play: bool, seat: int, leaf_cards: int,
                 leaf_nodes: int) -> None: ...
    def values(self, hands: Sequence[int], stock: Sequence[int], stock_pos: int, leader: int,
               lead_card: int, tricks_done: int, won: Sequence[int], tens: Sequence[int],
               last_winner: int, seen: int, actions: Sequence[int]) -> dict[int, float]:
        """Each action's play-out value for the seat, in ``round_returns`` units."""
    def new_table(self) -> None: ...
