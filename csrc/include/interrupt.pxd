# Ctrl-C inside a nogil kernel (compile-time header, cimported by the
# double-dummy kernels).  Every INTERRUPT_EVERY nodes a search takes the GIL
# and runs Python's signal handlers: in the main thread a SIGINT raises
# KeyboardInterrupt there.  The kernel then aborts as at its node limit, and
# the def method that ran it re-raises the pending exception (reraise) once
# it holds the GIL again.  Other threads never see signals: the check costs
# them a GIL round trip every INTERRUPT_EVERY nodes (about every 10 ms).

cdef extern from "Python.h":
    # declared without an exception spec on purpose: the exception it sets
    # must stay pending while the kernel unwinds without the GIL
    int _check_signals "PyErr_CheckSignals" () noexcept

#: nodes between two signal checks (a power of two minus one, as a mask)
cdef enum:
    INTERRUPT_MASK = 0xFFFF


cdef inline bint signal_raised() noexcept nogil:
    """Run Python's signal handlers; True when one raised (the exception
    stays set for ``reraise``)."""
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef inline int reraise() except -1:
    """Pass on the exception ``signal_raised`` left pending."""
    return -1
