"""The spot search's shortcuts only save time: searches sharing one record of hopeless rows
across a filling canvas find exactly the spots fresh searches find (and the stamps leave the
grid as measuring it afresh would), and a box slid left by the run starts stops where moving
it a column at a time would."""

import numpy as np
import pytest

from wordclouds.engine.occupancy import find_fit, new_hopeless, new_occupancy, settle, stamp

NO_EARS = np.zeros(3, dtype=np.int64)  # no name gap to keep diagonally


def _fit(occupancy, hopeless, width, height, start, bottom):
    runs, row_max, _, cell_max = occupancy
    words, boxes = np.zeros(runs.shape, dtype=np.uint16), np.zeros((1, 5), dtype=np.int64)
    return find_fit(
        runs, row_max, cell_max, hopeless, width, height, *start, 0, bottom, (words, boxes, NO_EARS)
    )


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
            words = np.zeros(blocked.shape, dtype=np.uint16)
            stamp(*occupancy, words, 1, np.ones((height, width), dtype=np.bool_), *spot, 1)
            x, y = spot
            blocked[max(0, y - 1) : y + height + 1, max(0, x - 1) : x + width + 1] = True
    assert np.count_nonzero(hopeless) > 0 and 0 < found < 400
    # The stamps' updates leave the grid as measuring it afresh would.
    runs, row_max, _, cell_max = occupancy
    fresh_runs, fresh_row_max, _, fresh_cell_max = new_occupancy(blocked)
    assert (runs == fresh_runs).all() and (row_max == fresh_row_max).all()
    assert (cell_max == fresh_cell_max).all()


def _slid_left(blocked, x, y, width, height):
    """Where a box at (x, y) stops moving left one column at a time."""
    while x > 0 and not blocked[y : y + height, x - 1].any():
        x -= 1
    return x


def test_a_box_slides_left_to_the_nearest_ink():
    rng = np.random.default_rng(11)
    blocked = rng.random((120, 400)) < 0.004
    runs, row_max, _, cell_max = new_occupancy(blocked)
    hopeless = new_hopeless(120)
    checked = 0
    for _ in range(300):
        width, height = (int(v) for v in rng.integers(1, 30, size=2))
        start = int(rng.integers(0, 400)), int(rng.integers(0, 120))
        x, y = _fit((runs, row_max, None, cell_max), hopeless, width, height, start, 120)
        if x >= 0:
            slid = settle(runs, x, y, width, height, -1, 0, 0, 120)
            assert slid == (_slid_left(blocked, x, y, width, height), y)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("margin", [0, 1, 2, 5])
def test_ink_grown_into_the_grid_is_the_square_neighbourhood(margin):
    """new_occupancy's growing of ``ink`` (two bands on two threads) occupies exactly the
    pixels within ``margin`` of ink in both directions, across the bands' seam too."""
    rng = np.random.default_rng(margin)
    ink = rng.random((83, 70)) < 0.01
    blocked = rng.random((83, 70)) < 0.05
    padded = np.pad(ink, margin)
    near = np.zeros_like(ink)
    for dy in range(2 * margin + 1):
        for dx in range(2 * margin + 1):
            near |= padded[dy : dy + ink.shape[0], dx : dx + ink.shape[1]]
    expected = new_occupancy(blocked | near)
    grown = new_occupancy(blocked.copy(), ink, margin)
    for made, wanted in zip(grown, expected):
        assert np.array_equal(made, wanted)
