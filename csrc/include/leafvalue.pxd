# The learned value at a search's leaf (compile-time header): a linear
# value of a compact state's features, one set of weights a phase of the
# deal, that a play-out reads after a few tricks instead of playing the deal
# to its end (``leaf=value``; csrc/search/ismcts.pyx, ``grow_tree``).  Each
# game's header computes its features (dix.pxd, ``dix_value_features``);
# the weights are fitted in numpy to play-out returns by
# ``solver.search.value`` (its ``predict`` is the twin a test holds equal
# to ``leaf_dot`` here).
from libc.stdint cimport int32_t

cdef enum:
    #: bound on a game's value features
    MAX_VF = 48
    #: bound on the phases a value tells apart (the deal's stage)
    VALUE_PHASES = 4


cdef struct LeafValue:
    int loaded                 # 1 once ``leaf_value_load`` filled it
    int nf                     # the game's number of features
    int cut                    # tricks a play-out plays past the tree before the value is read
    int floor                  # tricks left at or under which the play-out goes to the end
    double w[VALUE_PHASES][MAX_VF]


cdef inline double leaf_dot(const LeafValue* V, int phase, const double* f) noexcept nogil:
    """``w[phase] . f``: the expected change of the seat's reward from
    here to the deal's end."""
    cdef double s = 0.0
    cdef int k
    for k in range(V.nf):
        s += V.w[phase][k] * f[k]
    return s


cdef inline int leaf_value_load(LeafValue* V, dict spec, int nf) except -1:
    """Fill ``V`` from ``solver.search.value.kernel_value``'s dict: the
    weights (a list a phase of ``nf`` numbers), ``cut`` and ``floor``."""
    cdef int p, k
    weights = spec["weights"]
    if len(weights) != VALUE_PHASES:
        raise ValueError(f"a leaf value has {VALUE_PHASES} phases of {nf} weights")
    for p in range(VALUE_PHASES):
        if len(weights[p]) != nf:
            raise ValueError(f"a leaf value has {VALUE_PHASES} phases of {nf} weights")
    if nf > MAX_VF:
        raise ValueError(f"at most {MAX_VF} value features, got {nf}")
    cut, floor = int(spec["cut"]), int(spec["floor"])
    if not 0 <= cut <= 64 or not 0 <= floor <= 64:
        raise ValueError(f"a leaf value's cut and floor are 0..64 tricks, got {cut}, {floor}")
    for p in range(VALUE_PHASES):
        for k in range(nf):
            V.w[p][k] = weights[p][k]
    V.nf = nf
    V.cut = cut
    V.floor = floor
    V.loaded = 1
    return 0
