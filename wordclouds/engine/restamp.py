"""The words of a finished layout stamped into a new occupancy grid in one compiled pass, with
no shaping: from the ink each word was stamped with, kept beside the layout's artifacts
(INKS, eight pixels to a byte: about 4.6 MB for 50,000 names), or, for a layout made before
that file was kept, from their SVG path data (what ``outlines.encode_path`` wrote, read back
by its inverse ``outlines.decode_path`` into the very points the PNG was painted from)."""

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


INKS = "inks.npz"  # ids (ascending), where each word's packed ink ends, the packed ink


def write_inks(out, ids, inks) -> None:
    """Write the ink of each word (``inks``: packed as :attr:`layout.Placement.ink`) by its
    id (``ids``, ascending) to the binary file ``out``."""
    ends = np.cumsum([ink.size for ink in inks], dtype=np.int64)
    bits = np.concatenate(inks) if inks else np.zeros(0, dtype=np.uint8)
    np.savez(out, ids=np.asarray(ids, dtype=np.int64), ends=ends, bits=bits)


def read_inks(path, boxes: dict):
    """(ids, where each word's ink starts and ends, the packed ink) from ``path``, if it
    holds the ink of every word of ``boxes`` (id → ink box) and no other; else None."""
    try:
        with np.load(path, allow_pickle=False) as saved:
            ids, ends, bits = saved["ids"], saved["ends"], saved["bits"]
    except (OSError, KeyError, ValueError):
        return None
    if ids.size != len(boxes) or ends.size != ids.size or not np.array_equal(ids, sorted(boxes)):
        return None
    starts = np.concatenate(([0], ends[:-1]))
    sizes = np.array([boxes[i][2] * boxes[i][3] for i in ids.tolist()], dtype=np.int64)
    if not np.array_equal(ends - starts, (sizes + 7) // 8) or (ends[-1:] > bits.size).any():
        return None
    return ids, starts, ends, bits


@njit(cache=True, nogil=True)  # two threads stamp two halves of the words at once
def ink_bits(ink, words, boxes, bits, starts, inks, kinds, first_slot):
    """Mark word k's ink (packed from ``bits[starts[k]]`` on, row by row across its ink box
    ``inks[k]``) in the canvas-sized ``ink``, owned by slot ``first_slot + k`` in ``words``
    and ``boxes`` (with its orientation ``kinds[k]``), as :func:`ink_paths` does."""
    for k in range(starts.size):
        x, y, width, height = inks[k, 0], inks[k, 1], inks[k, 2], inks[k, 3]
        slot = (first_slot + k) % boxes.shape[0]
        boxes[slot, 0], boxes[slot, 1], boxes[slot, 2], boxes[slot, 3] = x, y, width, height
        boxes[slot, 4] = kinds[k]
        start = starts[k]
        for r in range(height):
            for c in range(width):
                at = r * width + c
                if (bits[start + (at >> 3)] >> (7 - (at & 7))) & 1:
                    ink[y + r, x + c] = True
                    words[y + r, x + c] = slot + 1
