"""The words of a finished layout stamped into a new occupancy grid straight from their SVG
path data, in one compiled pass: no shaping. The path data is what ``outlines.encode_path``
wrote, read back by its inverse ``outlines.decode_path`` into the very points the PNG was
painted from."""

import numpy as np

from .compiled import njit
from .outlines import decode_path
from .raster import coverage, flatten


@njit(cache=True, nogil=True)  # two threads stamp two halves of the words at once
def ink_paths(ink, words, boxes, data, ends, inks, kinds, first_slot, threshold):
    """Mark word k's ink (path data ``data[ends[k-1]:ends[k]]``, ink box ``inks[k]``,
    coverage above ``threshold``) in the canvas-sized ``ink``, owned by slot
    ``first_slot + k`` in ``words`` and ``boxes`` (with its orientation ``kinds[k]``)."""
    start = 0
    for k in range(ends.size):
        codes, points = decode_path(data[start : ends[k]])
        start = ends[k]
        x, y, width, height = inks[k, 0], inks[k, 1], inks[k, 2], inks[k, 3]
        slot = (first_slot + k) % boxes.shape[0]
        boxes[slot, 0], boxes[slot, 1], boxes[slot, 2], boxes[slot, 3] = x, y, width, height
        boxes[slot, 4] = kinds[k]
        if codes.size == 0:
            continue
        polygon, contour_ends = flatten(codes, points)
        cover = coverage(polygon, contour_ends, 1.0, x, y, height, width)
        for r in range(height):
            for c in range(width):
                if cover[r, c] > threshold:
                    ink[y + r, x + c] = True
                    words[y + r, x + c] = slot + 1


def grown(ink: np.ndarray, margin: int) -> np.ndarray:
    """``ink`` grown by ``margin`` pixels in every direction (a square neighbourhood), as
    occupancy.stamp grows each word's."""
    across = ink.copy()
    for step in range(1, margin + 1):
        across[:, step:] |= ink[:, :-step]
        across[:, :-step] |= ink[:, step:]
    result = across.copy()
    for step in range(1, margin + 1):
        result[step:] |= across[:-step]
        result[:-step] |= across[step:]
    return result
