"""Build script: cythonizes every ``csrc/*.pyx`` into ``solver._<name>``.

The Cython sources live in ``csrc/``; shared inline helpers are ``.pxd``
headers there (``bits.pxd``, ...) that the kernels ``cimport`` at compile
time only.  Each ``csrc/<name>.pyx`` becomes the extension ``solver._<name>``;
``solver/`` holds a pure-Python twin of each one (STYLE 11) that
``DIXTRIX_PUREPYTHON=1`` forces.
"""
import glob
import os
import platform

from setuptools import Extension, setup

from Cython.Build import cythonize


#: x86-64: the POPCNT instruction (every x86-64 CPU since 2008) instead of a
#: libgcc call for the card-mask popcounts of the search kernels
ARCH_FLAGS = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def extensions():
    exts = []
    for pyx in sorted(glob.glob(os.path.join("csrc", "*.pyx"))):
        name = os.path.splitext(os.path.basename(pyx))[0]
        exts.append(
            Extension(
                f"solver._{name}",
                [pyx],
                extra_compile_args=["-O3", "-fopenmp"] + ARCH_FLAGS,
                extra_link_args=["-fopenmp"],
            )
        )
    return cythonize(
        exts,
        include_path=["csrc"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )


setup(ext_modules=extensions())
