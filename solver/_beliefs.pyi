"""Types of the Cython loop of the beliefs, ``csrc/core/beliefs.pyx`` (its
pure-Python twin is ``solver.beliefs.log_likelihoods_py``)."""

from array import array

from solver.beliefs import Compiled

def log_likelihoods(c: Compiled, rows: array[int], floor: float,
                    alpha: float) -> list[float]:
    """Each world's log-weight under the compiled observations."""
