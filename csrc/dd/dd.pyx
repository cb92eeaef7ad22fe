# cython: language_level=3
"""Double-dummy kernel: exact alpha-beta over a perfect-information trick
state and a rule table (csrc/dd/trickstate.pxd).

* ``search(alpha, beta)`` is a fail-soft alpha-beta over single card plays;
  its value is the max side's FUTURE value (the trick in progress included).
  The max side's seats maximise it, every other seat minimises it (team
  minimax; with a one-seat max side, the paranoid value of that seat).
* A transposition table at trick boundaries stores lower/upper bounds of the
  future value, keyed by the hands (relative ranks when the rule table says
  scoring cannot tell the cards of a suit apart), the leader and, when a
  most-tricks bonus is scored, the max side's trick count.  Fixed size:
  buckets of four 16-byte entries (one cache line), replacement of the
  shallowest entry, a generation stamp instead of clearing.
* Four seats with relative keys (bridge, penalty contracts, 4-seat Rook):
  DDS's winning ranks instead.  Every search also reports the cards whose
  ranks decided it (``wr[ply]``: the lowest of each suit; every card from
  it up counts); an entry keys only the owners of those top cards of each
  suit plus the hand lengths, so it matches every position differing only
  in low cards that never mattered.  Half the table: lists of 256 such
  entries per hand distribution; the other half: the same bounds under
  exact keys.  A hand's further cards of a suit below every deciding card
  are skipped once one was searched (DDS's one small card a suit).
* The driver (``mtdf``) asks null-window questions "does the max side reach
  >= t?" and narrows [lo, hi] with the fail-soft answers (MTD(f)).
* Cards of one hand that are adjacent in their effective suit once played
  cards are removed, with the same scoring class, are searched once.
* Move ordering: the table's best move, then simple trick heuristics.
* Per-ply move buffers live in the kernel object: the search never
  allocates.  Input is validated once by ``solver/dd/trick.py`` (the
  position and its rule table); nothing here re-checks it, so the search
  pays for no check and a check has one place to be right.

Layout (along DDS's seams): the kernel context and trick mechanics
(``csrc/dd/ddctx.pxd``) over the position and rule structs
(``csrc/dd/trickstate.pxd``); the search and driver (``ddsearch.pxd``), the
bounds (``ddbounds.pxd``), the transposition and winning-ranks table
(``ddtable.pxd``), move ordering (``ddorder.pxd``); the Python class
(``ddkernel.pxi``).  This file is the shipped build: compiled with
``DD_STATS`` 0 (``ddstats.pxd``), it has no measurement counter or switch;
``csrc/dd/ddprobe.pyx`` builds the same source with them
(``solver.dd._ddprobe``).

The pure-Python twin is ``solver/reference/dd_oracle.py`` (plain minimax).
"""

include "ddkernel.pxi"
