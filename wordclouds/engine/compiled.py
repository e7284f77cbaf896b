"""numba's ``njit`` for the engine's hot loops, with numba's NumPy support loaded without
its SciPy BLAS probe.

Loading a cached compiled function makes numba import its NumPy implementations, and one of
them (``numba.np.arraymath``) imports ``scipy.linalg.cython_blas`` to learn whether
``np.dot`` may call BLAS: importing ``scipy.linalg`` takes about 0.3 s of CPU, a sixth of a
3,000-name run. The engine's compiled code does no linear algebra, so that module is hidden
while numba's NumPy support loads (numba then takes its own loop for a 1-D ``np.dot`` and
still imports SciPy itself for any other linear algebra it compiles). When SciPy's linear
algebra is already loaded (a worker that used it), it is left alone.
"""

import sys

BLAS_PROBE = "scipy.linalg.cython_blas"

if "scipy.linalg" in sys.modules:
    import numba.np.arraymath  # noqa: F401 - numba's NumPy support, with the BLAS probe
else:
    sys.modules[BLAS_PROBE] = None  # ``import`` of it raises ImportError at once
    try:
        import numba.np.arraymath  # noqa: F401 - numba's NumPy support, without the probe
    finally:
        if sys.modules.get(BLAS_PROBE, 0) is None:
            del sys.modules[BLAS_PROBE]

from numba import njit  # noqa: E402 - after the support it relies on is loaded

__all__ = ["njit"]
