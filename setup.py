"""Build script: cythonizes every ``csrc/<layer>/*.pyx`` into the layer's
package.

``csrc/`` is grouped like ``solver/``: ``csrc/core/<name>.pyx`` becomes
``solver._<name>`` (card masks, the world sampler), ``csrc/dd/<name>.pyx``
``solver.dd._<name>`` (the double-dummy kernels) and
``csrc/search/<name>.pyx`` ``solver.search._<name>`` (ISMCTS).  Shared
inline helpers are ``.pxd`` headers in ``csrc/include/`` (``bits.pxd``,
``rng.pxd``, ...) and beside the kernels that use them (``csrc/dd/``); the
kernels ``cimport`` them at compile time only.  ``solver/reference/`` holds
a pure-Python twin of each kernel, the oracle the tests hold the kernel to,
which ``DIXTRIX_PUREPYTHON=1`` forces.
"""
import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

#: x86-64: the POPCNT instruction (every x86-64 CPU since 2008) instead of a
#: libgcc call for the card-mask popcounts of the search kernels
ARCH_FLAGS = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def _extension(name: str, pyx: str) -> Extension:
    return Extension(name, [pyx], extra_compile_args=["-O3", "-fopenmp"] + ARCH_FLAGS,
                     extra_link_args=["-fopenmp"])


#: csrc/ folder -> the package its extensions belong to
LAYERS = {"core": "solver", "dd": "solver.dd", "search": "solver.search"}


def extensions():
    exts = []
    for layer, package in LAYERS.items():
        for pyx in sorted(glob.glob(os.path.join("csrc", layer, "*.pyx"))):
            name = os.path.splitext(os.path.basename(pyx))[0]
            exts.append(_extension(f"{package}._{name}", pyx))
    return cythonize(
        exts,
        include_path=["csrc/include", "csrc/dd"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )


setup(ext_modules=extensions())
