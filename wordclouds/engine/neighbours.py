"""Reading-direction neighbours: two words that could be read as one string. They are of the
same orientation, overlap across their reading direction (share a line, or for vertical words
a column: at least half the smaller's extent across it) and are less than one em of the larger
apart along it. The layout keeps NAME_GAP
between them and the colours keep them apart."""

import numpy as np

from .compiled import njit

CELL = 64  # side of the grid cells words are bucketed in
# Ink boxes are whole pixels around the outline's control points: up to 2 px taller than the
# drawn outline, which the rule measures, so pairs are found with that much to spare.
SHARE_SLACK = 4


@njit(cache=True)
def _pairs(x0, y0, x1, y1, reach):
    """Index pairs (i < j) of boxes (reading direction along x) overlapping in y by at least
    half the lower one's height, less SHARE_SLACK px, and less than ``max(reach[i],
    reach[j])`` apart in x."""
    count = x0.size
    spans = np.empty((count, 4), dtype=np.int64)  # cell columns and rows of the reach box
    total = 0
    for i in range(count):
        spans[i, 0] = max(0, x0[i] - reach[i]) // CELL
        spans[i, 1] = (x1[i] + reach[i]) // CELL
        spans[i, 2] = y0[i] // CELL
        spans[i, 3] = y1[i] // CELL
        total += (spans[i, 1] - spans[i, 0] + 1) * (spans[i, 3] - spans[i, 2] + 1)
    columns = spans[:, 1].max() + 1 if count else 1
    keys = np.empty(total, dtype=np.int64)
    words = np.empty(total, dtype=np.int64)
    n = 0
    for i in range(count):
        for cy in range(spans[i, 2], spans[i, 3] + 1):
            for cx in range(spans[i, 0], spans[i, 1] + 1):
                keys[n] = cy * columns + cx
                words[n] = i
                n += 1
    order = np.argsort(keys, kind="mergesort")
    found = []
    start = 0
    while start < total:
        end = start
        while end < total and keys[order[end]] == keys[order[start]]:
            end += 1
        for a in range(start, end):
            i = words[order[a]]
            for b in range(a + 1, end):
                j = words[order[b]]
                shared = min(y1[i], y1[j]) - max(y0[i], y0[j])
                if shared <= 0 or 2 * shared < min(y1[i] - y0[i], y1[j] - y0[j]) - SHARE_SLACK:
                    continue
                gap = max(x0[j] - x1[i], x0[i] - x1[j])
                if gap < max(reach[i], reach[j]):
                    found.append((min(i, j), max(i, j)))
        start = end
    result = np.empty((len(found), 2), dtype=np.int64)
    for k in range(len(found)):
        result[k, 0], result[k, 1] = found[k]
    return result


def reading_reach(sizes):
    """How far along its reading direction a word of font size ``sizes`` (px, one or an
    array) finds neighbours: one em, and a pixel more for the ink boxes' rounding to whole
    pixels."""
    return np.ceil(np.asarray(sizes, dtype=float)).astype(np.int64) + 1


def reading_neighbours(boxes, sizes, vertical) -> np.ndarray:
    """The reading-direction neighbour pairs of words with ink ``boxes`` (x, y, width,
    height), font ``sizes`` in px and orientation ``vertical``: an (n, 2) array of index
    pairs, each once, smaller index first."""
    boxes = np.asarray(boxes, dtype=np.int64).reshape(-1, 4)
    vertical = np.asarray(vertical, dtype=bool)
    reach = reading_reach(sizes)
    found = [np.zeros((0, 2), dtype=np.int64)]
    for down in (False, True):
        index = np.flatnonzero(vertical == down)
        if index.size < 2:
            continue
        x, y, w, h = boxes[index].T
        # Vertical words read down their column: swap the axes so reading runs along x.
        x0, y0, x1, y1 = (y, x, y + h, x + w) if down else (x, y, x + w, y + h)
        found.append(index[_pairs(x0, y0, x1, y1, reach[index])])
    pairs = np.concatenate(found)
    return np.unique(pairs, axis=0) if pairs.size else pairs


def boxes_touch(a: np.ndarray, b, gap) -> np.ndarray:
    """Whether each box (x, y, w, h) of ``a`` (rows) comes closer than ``gap`` pixels (one
    each, or one for all) to box ``b``."""
    x, y, w, h = a.T
    return (
        (x < b[0] + b[2] + gap)
        & (b[0] < x + w + gap)
        & (y < b[1] + b[3] + gap)
        & (b[1] < y + h + gap)
    )


def words_near(ids, placements, fresh) -> list:
    """The ``fresh`` words and those of ``ids`` whose ink boxes come within the longest
    reach of the reading-neighbour rule (:func:`reading_neighbours`: one em of the larger
    word, and a pixel) of one of them, in the order of ``ids`` (``placements`` by id):
    whether two words are neighbours depends on the two alone, so among these the fresh
    words find every neighbour they have among all the words."""
    boxes = np.array([placements[i].ink_box for i in ids], dtype=np.int64)
    reach = reading_reach(max(placements[i].font_size for i in ids))
    near = np.zeros(len(ids), dtype=bool)
    for word_id in fresh:
        near |= boxes_touch(boxes, placements[word_id].ink_box, reach)
    return [ids[k] for k in np.flatnonzero(near)]
