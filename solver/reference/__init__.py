"""Pure-Python twins of the Cython kernels (STYLE 11): the reference
semantics, used by the tests and by ``DIXTRIX_PUREPYTHON=1``."""
