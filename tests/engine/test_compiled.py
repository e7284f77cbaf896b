import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOAD_A_KERNEL = (
    "import sys, numpy\n"
    "from wordclouds.engine import occupancy\n"
    "occupancy.new_occupancy(numpy.zeros((4, 4), bool))\n"
    "print(sorted(name for name in ('scipy', 'cffi', 'yaml') if name in sys.modules))\n"
)


def test_numba_loads_without_the_packages_the_engine_does_not_use():
    run = subprocess.run(
        [sys.executable, "-c", LOAD_A_KERNEL], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
