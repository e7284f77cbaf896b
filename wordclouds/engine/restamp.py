"""The words of a finished layout stamped into a new occupancy grid straight from their SVG
path data, in one compiled pass: no shaping. The path data is what ``outlines.encode_path``
wrote (an absolute first move, then relative m, l, h, v, q, c and z with whole tenths of a
pixel), read back into the very points the PNG was painted from."""

import numpy as np

from .compiled import njit
from .fonts import CLOSE, CUBIC, LINE, MOVE, QUAD
from .raster import coverage, flatten


@njit(cache=True)
def _number(data, i):
    """The number at data[i] in tenths (``-`` and one decimal at most): (tenths, next i)."""
    sign = 1
    if data[i] == 45:
        sign = -1
        i += 1
    whole = 0
    while i < data.size and 48 <= data[i] <= 57:
        whole = whole * 10 + data[i] - 48
        i += 1
    tenth = 0
    if i < data.size and data[i] == 46:
        tenth = data[i + 1] - 48
        i += 2
    return sign * (whole * 10 + tenth), i


@njit(cache=True)
def decode_path(data):
    """The (codes, points in px) of path data written by ``encode_path``."""
    codes = np.empty(data.size + 1, dtype=np.int64)
    tenths = np.empty((data.size + 1, 2), dtype=np.int64)
    n_codes = n_points = 0
    letter = 0
    cx = cy = sx = sy = 0
    i = 0
    while i < data.size:
        ch = data[i]
        if ch == 32:
            i += 1
            continue
        if ch == 122:  # z
            codes[n_codes] = CLOSE
            n_codes += 1
            cx, cy = sx, sy
            letter = 122
            i += 1
            continue
        if ch >= 65:
            letter = ch
            i += 1
        count = 1
        code = LINE
        if letter == 77 or letter == 109:
            code = MOVE
        elif letter == 113:
            code, count = QUAD, 2
        elif letter == 99:
            code, count = CUBIC, 3
        base_x, base_y = (0, 0) if letter == 77 else (cx, cy)
        for _ in range(count):
            px, py = cx, cy
            if letter == 104:  # h
                while data[i] == 32:
                    i += 1
                value, i = _number(data, i)
                px = base_x + value
            elif letter == 118:  # v
                while data[i] == 32:
                    i += 1
                value, i = _number(data, i)
                py = base_y + value
            else:
                while data[i] == 32:
                    i += 1
                value, i = _number(data, i)
                px = base_x + value
                while data[i] == 32:
                    i += 1
                value, i = _number(data, i)
                py = base_y + value
            tenths[n_points, 0], tenths[n_points, 1] = px, py
            n_points += 1
        codes[n_codes] = code
        n_codes += 1
        cx, cy = tenths[n_points - 1, 0], tenths[n_points - 1, 1]
        if code == MOVE:
            sx, sy = cx, cy
            letter = 108  # numbers after a move continue as lines
    return codes[:n_codes], tenths[:n_points].astype(np.float64) / 10


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
