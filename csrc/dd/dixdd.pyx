# cython: language_level=3
"""The two-seat dix double-dummy solver (docs/solver.md, "The dix solver").

A kernel for one game only: two hands, follow suit, trumps (the joker as a
trump of the turned-up rank), +1 a trick, -3 a ten-trick, and the round's
tie-breaks.  Values are lexicographic integers from the point of view of the
seat TO MOVE (negamax):

    256 * (own score - opponent's) + 4 * (opponent tens - own tens) + (+1 if
    the mover's side takes the last trick else -1)

so a normal trick is worth WIN = 256 to its taker (and -256 to the other
seat), a ten-trick -TEN = -(3 * 256 + 4) to its taker, the last trick one
more point to its taker.  Only the FUTURE is valued (the trick in progress
included): what is already won is an offset added by solver/dd/dix.py.

Cards live in "slot space": slot = effective suit * 16 + strength, which is
the card index for every card but the joker (the joker takes the slot of
the turned-up card, which is never in play).  So "higher slot of the same
suit block" is "beats", and a hand is one 64-bit mask.

* Search: two functions, ``lead`` (trick boundary, the leader chooses) and
  ``follow`` (the follower answers a card on the table); fail-soft
  alpha-beta in negamax form; the forced last trick is scored directly.
* Transposition table at lead nodes (at follow nodes too with
  ``follow_tt``, keyed with the card led: the same nodes, slower), lower
  and upper bounds of the future value, the best card; buckets of four
  16-byte entries, replacement of the shallowest, a generation stamp
  instead of clearing, a fixed size; the bucket is prefetched while the
  bounds are computed.  Lead nodes with at most ``exact_k`` (4) tricks are
  searched with a full window: their exact value serves every question.
* Two seats never pit a hand's own cards against each other, so ranks
  matter only against the other hand (and the card on the table).  A card
  is LIVE when the other side holds a card that makes ten with it (A-9,
  2-8, 3-7, 4-6, 5-5, 10-court/joker), else dead: its pips can never
  matter (cards only leave the hands).
* Table key by runs: per suit, the maximal runs of one owner's cards, each
  as its owner, its live pips, its numbers of live 0-pip and dead cards.
  Positions with the same key play out identically (docs/solver.md).
* Equivalent cards (one hand, one suit, no card of the other side between
  them, the same pip role: dead, or live with equal pips) are searched once.
* Bounds at trick boundaries: the largest number of ten-tricks the hands'
  pips allow; with no ten-trick possible, the leader's sure tricks.
* Move ordering: the table's card; the follower by the exact value of the
  trick; the leader by the trick's value after the follower's best reply;
  then live cards first, then the leader's high cards and the
  follower's low cards first, a history of cut-offs.
* The root: every class of legal cards gets its exact value by null-window
  questions, the score difference first (``driver`` 1), then the
  tie-breaks; the table is shared by every question and card.
* ``max_nodes`` aborts a search cleanly (nothing is stored after the limit
  is hit; the facade raises ``solver.errors.SearchAborted``).

Layout: the solver context and trick helpers (``csrc/dd/dixctx.pxd``),
the search and driver (``dixsearch.pxd``), the bounds (``dixbounds.pxd``),
the table keys (``dixtable.pxd``), move ordering (``dixorder.pxd``), the
Python class (``dixkernel.pxi``).  This file is the shipped build
(``DD_STATS`` 0, csrc/dd/ddstats.pxd: no counter, every switch at its
default); ``csrc/dd/dixprobe.pyx`` builds the same source with them.

The pure-Python twin is ``solver/reference/dd_oracle.py`` (plain minimax
over the same rules); tests/search/test_dixdd.py compares them, and this
solver with the generic kernel (csrc/dd/dd.pyx).
"""

include "dixkernel.pxi"
