"""Pure-Python twins of the Cython kernels, simple enough to trust: the reference
semantics, used by the tests and by ``DIXTRIX_PUREPYTHON=1``."""
