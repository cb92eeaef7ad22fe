"""The Cython ISMCTS kernels (``csrc/search/``, compiled to
``solver.search._ismcts``): the generic part of driving them.

Each game has one function, in its package's ``kernel.py``
(``solver/games/<game>/kernel.py``), that turns its world sampler (what the
searching seat knows, as a compiled sampler) and its current position into
the compact rules and state a kernel searches -- 64-bit card masks, rule
tables as plain lists -- for every decision of the game:

* ``native_dix_search``: dix card play;
* ``native_contract_search``: trix / tricks: the contract choice, doubling
  (trix), redeal claims (tricks), card play in a trick contract, the
  layout;
* ``native_rook_search``: dixie-rook bids, nest discards, trumps and card
  play;
* ``native_exchange_search``: every dix-exchange decision.

``native_search`` dispatches to them through each game's registered
support (``solver/games/<game>/search.py``).  A prepared search's
``run(iterations, seconds, seed, trees, c, poll, workers)`` returns ``(visits, means, iterations,
squares, per_tree, batches)`` keyed by the game's action ids (see
``csrc/search/ismcts.pyx``); ``None`` instead of a search without the build
or under ``DIXTRIX_PUREPYTHON`` (the caller then searches in Python,
``solver.search.ismcts``), or in the rare position a kernel does not model
(said where it happens).

Units: ``means`` are the searching seat's deal result over the game's
``round_scale`` (the contract choice too: the caller subtracts each
contract's average-deal value, ``solver.search.contract_choice``).
"""

from __future__ import annotations

import importlib
import os

from ..errors import OptionError
from ..front import N_
from ..game import Game
from ..said import Quote, phrase
from .support import support_for

# the errors raised here (solver/errors.py: a code and its parameters)
ISMCTS_POLICY = phrase("ismcts_policy", N_("ismcts: policy must be one of {choices}, got {got}"))

#: every root card searched
ALL_CARDS = (1 << 64) - 1

#: the play-out policies of ISMCTS: ``rules`` is the rules bot in the
#: Python search; in the Cython kernels, the rules bot's decisions other
#: than cards (ported to C), a cheap greedy follower for cards (dix, the
#: trick contracts, dixie-rook; the layout plays at random), and the rules
#: bot's cards too for the contract choice; ``random`` every move at random;
#: ``learned`` the cards drawn from the game's learned policy
#: (``solver.search.learned``) where the kernel has it (dix, the trick
#: contracts, dixie-rook), ``rules`` elsewhere; ``leads`` the leads drawn
#: from the learned policy and a follower's card by the rules (the greedy
#: follower leads at random, and a lead costs a quarter of the policy's
#: evaluations of a whole play-out)
ISMCTS_POLICIES = ("rules", "random", "learned", "leads")

#: the policies that attach the learned policy to the kernels' play-outs,
#: with the mode ``Search.set_policy`` takes (csrc/include/cardfeat.pxd,
#: ``CardPolicy.playout``: 1 every card, 2 the leads)
LEARNED_PLAYOUTS = {"learned": 1, "leads": 2}


def check_ismcts_policy(policy) -> None:
    """``policy`` is one of ``ISMCTS_POLICIES`` (else ``OptionError``)."""
    if policy not in ISMCTS_POLICIES:
        raise OptionError(ISMCTS_POLICY(choices=', '.join(ISMCTS_POLICIES), got=Quote(policy)))


def optional_extension(name: str):
    """The compiled module ``solver.search.<name>`` (``_ismcts``, ``_pimc``),
    or ``None`` without the build or under DIXTRIX_PUREPYTHON (the Python
    paths then decide, with the same values)."""
    if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:  # pragma: no cover
        return None


def _native_module():
    """``solver.search._ismcts``, or ``None`` (``optional_extension``)."""
    return optional_extension("_ismcts")


def native_search(game: Game, sampler, policy: str = "rules", keep: int = ALL_CARDS,
                  equivalence: bool = True):
    """The Cython search for this game and view (the game's ``GameSupport``,
    ``solver.search.support``, names its function below); ``policy`` its
    play-outs (``ISMCTS_POLICIES``), ``keep`` the root cards it tries
    (``root_keep``; decisions other than cards search every legal action);
    below the root every card search tries one card of each run of
    equivalent cards of the world it plays, unless ``equivalence`` is false
    (every card: for measurements)."""
    check_ismcts_policy(policy)
    # the kernels' own play-out policies; a learned one is attached after
    # (``solver.search.learned.attach``) over the rules play-outs
    return support_for(game).native(sampler, "rules" if policy in LEARNED_PLAYOUTS else policy,
                                    keep, equivalence)


def root_keep(classes) -> int:
    """The mask of the root's cards a Cython search tries: the first card
    of each class of equivalent cards (``equivalence.card_classes``); its
    figures stand for the class (``equivalence.pool``)."""
    keep = 0
    for members in classes:
        if not 0 <= members[0] <= 63:
            return ALL_CARDS
        keep |= 1 << members[0]
    return keep


class Mapped:
    """A kernel search whose root moves are not the game's action ids: its
    statistics (and ``poll``'s) with each bit renamed by ``names`` (bits
    not in it keep their number)."""

    def __init__(self, native, names: dict):
        self.native, self.names = native, names

    def _fix(self, d):
        names = self.names
        return {names.get(a, a): v for a, v in d.items()}

    def run(self, *args):
        poll = args[5] if len(args) > 5 else None
        out = self.native.run(*args[:5], None if poll is None else self._fixed(poll), *args[6:])
        visits, means, done, squares, per_tree, batches = out
        return (self._fix(visits), self._fix(means), done, self._fix(squares),
                [self._fix(t) for t in per_tree], [self._fix(t) for t in batches])

    def _fixed(self, poll):
        """``poll`` called with the actions renamed."""
        def fixed_poll(done, visits, means):
            return poll(done, self._fix(visits), self._fix(means))
        return fixed_poll

    def simulate(self, seed):
        return self.native.simulate(seed)

    def set_pool(self, rows, width, cum):
        return self.native.set_pool(rows, width, cum)

    def moves(self, hands):
        return self.native.moves(hands)

    def set_policy(self, spec, prior=True, playout=0):
        return self.native.set_policy(spec, prior, playout)


# ---- dix ---------------------------------------------------------------------
