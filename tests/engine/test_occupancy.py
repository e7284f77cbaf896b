"""The spot search's record of hopeless rows only saves time: searches sharing one record
across a filling canvas find exactly the spots fresh searches find."""

import numpy as np

from wordclouds.engine.occupancy import find_fit, new_hopeless, new_occupancy, stamp


def _fit(occupancy, hopeless, width, height, start, bottom):
    runs, row_max, _, cell_max = occupancy
    return find_fit(runs, row_max, cell_max, hopeless, width, height, *start, 0, bottom)


def test_remembered_rows_change_no_spot():
    rng = np.random.default_rng(7)
    blocked = rng.random((240, 300)) < 0.02
    occupancy = new_occupancy(blocked)
    hopeless = new_hopeless(blocked.shape[0])
    found = 0
    for _ in range(400):
        width, height = (int(v) for v in rng.integers(3, 40, size=2))
        start = int(rng.integers(0, 300)), int(rng.integers(0, 240))
        spot = _fit(occupancy, hopeless, width, height, start, 240)
        assert spot == _fit(occupancy, new_hopeless(240), width, height, start, 240)
        if spot[0] >= 0:
            found += 1
            stamp(*occupancy, np.ones((height, width), dtype=np.bool_), *spot, 1)
    assert np.count_nonzero(hopeless) > 0 and 0 < found < 400
