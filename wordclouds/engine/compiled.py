"""numba's ``njit`` for the engine's hot loops, with numba loaded without the optional
packages it looks for and the engine's compiled code never uses.

Importing numba and loading a first cached function import, when they are installed:

- SciPy: ``scipy`` for a version check, and ``scipy.linalg.cython_blas`` (from
  ``numba.np.arraymath``) to learn whether ``np.dot`` may call BLAS. Importing
  ``scipy.linalg`` takes about 0.3 s of CPU, a sixth of a 3,000-name run; ``scipy`` alone
  0.005 s. numba then takes its own loop for a 1-D ``np.dot`` and still imports SciPy itself
  for any other linear algebra it compiles.
- cffi, with a C parser set up (``numba.core.typing.cffi_utils``), to type calls of cffi
  functions: 0.02 s.
- PyYAML, only to read a ``.numba_config.yaml`` in the working directory: 0.01–0.02 s. It is
  hidden only when there is no such file.

Each is hidden while the numba modules that look for it load, and left alone when it is
already imported (a worker that used it; SciPy's BLAS when ``scipy.linalg`` is).
"""

import sys
from contextlib import contextmanager
from pathlib import Path

BLAS_PROBE = "scipy.linalg.cython_blas"
NUMBA_CONFIG_FILE = ".numba_config.yaml"  # read by numba from the working directory


@contextmanager
def _hidden(*modules: str):
    """``modules`` (those not yet imported) raise ImportError at once when imported inside
    the block; they are importable again after it."""
    hidden = [name for name in modules if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]


def _unused_modules() -> list[str]:
    """What to hide: SciPy and its BLAS (unless its linear algebra is loaded), cffi, and
    PyYAML unless numba has a configuration file to read."""
    unused = ["scipy", "cffi"]
    if "scipy.linalg" not in sys.modules:
        unused.append(BLAS_PROBE)
    if not Path(NUMBA_CONFIG_FILE).is_file():
        unused.append("yaml")
    return unused


with _hidden(*_unused_modules()):
    import numba.core.typing.cffi_utils  # noqa: F401 - numba's cffi typing, without cffi
    import numba.np.arraymath  # noqa: F401 - numba's NumPy support, without the BLAS probe

from numba import njit  # noqa: E402 - after the support it relies on is loaded

__all__ = ["njit"]
