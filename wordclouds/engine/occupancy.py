"""The occupancy grid and the numba-compiled hot loops of the layout.

Occupancy is stored as run lengths: ``runs[y, x]`` is, for a free pixel, the number of free
pixels from x to the right (itself included), and for an occupied pixel minus the number of
occupied ones. A box of w×h fits at (x, y) exactly when ``runs[r, x] >= w`` for its h rows,
and a failed test tells how far right the next candidate can be. ``row_max[y]`` is the longest
free run of row y (starting at ``row_start[y]``, so a stamp elsewhere in the row leaves it as
it is), so rows that cannot hold the box are skipped whole, and
``cell_max[cy, cx]`` is the longest free run starting in a cell of CELL_H rows × CELL_W
columns, so whole cells are skipped too.

Placing only ever occupies pixels, so a row where no w×h box can have its top row stays so
for every box at least as large in both sides. ``hopeless[y]`` remembers the last such box
size for row y, one for wide boxes and one for tall ones (packed as ``width << 16 | height``,
0 for none): late in a dense layout most rows are full for the words left, and the searches
of the last few thousand words walked them again and again.

A box padded along its reading direction for the name gap keeps the gap from every word whose
ink shares its rows, but the ink of a taller word beside it, in the rows just above or below
it, could sit diagonally close to its corner. ``words[y, x]`` says whose ink each pixel is (0
none, else a slot of ``boxes``, which holds that word's ink box and orientation: the shape's
edge is no word), and a fit is taken only where the "ears" beside the padded box's ends, as
deep as the gap, hold no ink of a word of the same orientation lying wholly beside the box
and sharing its rows (:func:`ears_clear`). Slots are reused after WORD_SLOTS words; a pixel
whose slot's box no longer holds it counts as such ink (the safe side).
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .compiled import njit

CELL_H, CELL_W = 8, 64
START_TRIES = 64  # random points tried for a search's start
UNIFORMS_PER_CANDIDATE = 2 * START_TRIES + 2  # random numbers best_spot uses per candidate
WORD_SLOTS = 65535  # ink owners told apart in ``words`` (uint16, 0 for none)


@njit(cache=True)
def _run_start(runs, r, column, lowest):
    """Where in row r the run (free or occupied) holding ``column`` starts, if not left of
    ``lowest`` (else ``lowest``). Along a run the values step by one (a free pixel holds one
    more than the next, an occupied one one less), so a binary search finds the start."""
    step = 1 if runs[r, column] > 0 else -1
    offset = runs[r, column] + step * column  # every pixel c of the run holds offset - step c
    low, high = lowest, column  # high is in the run
    while low < high:
        middle = (low + high) // 2
        if runs[r, middle] == offset - step * middle:
            high = middle
        else:
            low = middle + 1
    return low


@njit(cache=True)
def _row_runs(runs, row_max, row_start, y, left, right):
    """Recompute the runs of row y from column ``right`` leftwards, through ``left`` and on
    until they stop changing, then its longest free run (``row_max``) and where that starts
    (``row_start``); returns the leftmost column recomputed."""
    width = runs.shape[1]
    following = runs[y, right + 1] if right + 1 < width else 0
    stop = 0
    x = right
    while x >= 0:
        stop = x
        if runs[y, x] < 0:
            value = following - 1 if following < 0 else -1
        else:
            value = following + 1 if following > 0 else 1
        if runs[y, x] == value and x < left:
            stop = x + 1
            break
        if x < left:
            # The rest of a run left of the stamp, which now reaches it (often the long
            # occupied run outside the shape, which words slide up to): found at once and
            # rewritten in one loop, where pixel by pixel it took most of a stamp's time.
            step = 1 if value > 0 else -1
            stop = _run_start(runs, y, x, 0)
            for c in range(stop, x + 1):
                runs[y, c] = value + step * (x - c)
            following = value + step * (x - stop)
            x = stop - 1
            continue
        runs[y, x] = value
        following = value
        x -= 1
    if stop <= row_start[y] <= right and row_max[y] > 0:
        # Runs starting left of ``stop`` or right of ``right`` kept their length and the
        # others only shrank: unless the longest started in between, it is still the longest.
        longest = start = 0
        x = 0
        while x < width:
            value = runs[y, x]
            if value > 0:
                if value > longest:
                    longest, start = value, x
                x += value
            else:
                x -= value
        row_max[y], row_start[y] = longest, start
    return stop


@njit(cache=True)
def _refresh_cells(runs, cell_max, first_row, last_row, first_column, last_column):
    """Recompute ``cell_max`` for the cells holding rows and columns in the given ranges."""
    height, width = runs.shape
    for cy in range(first_row // CELL_H, last_row // CELL_H + 1):
        for cx in range(first_column // CELL_W, last_column // CELL_W + 1):
            longest = 0
            end = min(width, (cx + 1) * CELL_W)
            for r in range(cy * CELL_H, min(height, (cy + 1) * CELL_H)):
                # Within a run the values only fall: its first pixel in the cell is its
                # longest there, so the walk goes from run to run.
                c = cx * CELL_W
                while c < end:
                    value = runs[r, c]
                    if value > 0:
                        longest = max(longest, value)
                        c += value
                    else:
                        c -= value
            cell_max[cy, cx] = longest


@njit(cache=True, nogil=True)
def _occupancy_rows(blocked, runs, row_max, row_start, cell_max, first, last):
    """Rows ``first`` to ``last`` (excluded) of :func:`new_occupancy`'s grid, and the cells
    holding them; rows and cells of other bands are neither read nor written."""
    width = blocked.shape[1]
    for y in range(first, last):
        for x in range(width):
            runs[y, x] = -1 if blocked[y, x] else 1
        _row_runs(runs, row_max, row_start, y, 0, width - 1)
    if last > first:
        _refresh_cells(runs, cell_max, first, last - 1, 0, width - 1)


@njit(cache=True, nogil=True)
def _grown_rows(ink, blocked, margin, first, last):
    """Rows ``first`` to ``last`` (excluded) of ``blocked`` marked wherever ``ink`` is
    within ``margin`` pixels in both directions (a square neighbourhood, as :func:`stamp`
    grows a word's ink); ``ink`` is only read."""
    height, width = ink.shape
    column = np.zeros(width, dtype=np.bool_)  # ink within margin rows of this one, by column
    for y in range(first, last):
        column[:] = False
        for r in range(max(0, y - margin), min(height, y + margin + 1)):
            for x in range(width):
                column[x] |= ink[r, x]
        for shift in range(-margin, margin + 1):  # and within margin columns: one pass each
            for x in range(max(0, -shift), min(width, width - shift)):
                blocked[y, x] |= column[x + shift]


def new_occupancy(blocked, ink=None, margin=0):
    """Run lengths, longest free runs per row and per cell for a grid where ``blocked``
    pixels are occupied, and ``ink`` (if given) grown by ``margin`` pixels, which are marked
    in ``blocked`` too: two bands of whole cells' rows filled on two threads at once."""
    height, width = blocked.shape
    runs = np.empty((height, width), dtype=np.int16)
    row_max = np.full(height, 1, dtype=np.int32)  # so the first pass measures every row
    row_start = np.zeros(height, dtype=np.int32)
    cell_max = np.zeros(
        ((height + CELL_H - 1) // CELL_H, (width + CELL_W - 1) // CELL_W), dtype=np.int16
    )
    middle = min(height, (height // 2 + CELL_H - 1) // CELL_H * CELL_H)
    grid = (blocked, runs, row_max, row_start, cell_max)

    def band(rows):
        if ink is not None:
            _grown_rows(ink, blocked, margin, *rows)
        _occupancy_rows(*grid, *rows)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(band, ((0, middle), (middle, height))))
    return runs, row_max, row_start, cell_max


def new_hopeless(height):
    """An empty ``hopeless`` record for a canvas ``height`` rows high (a side is at most
    10,000 px, so a box's height fits the 16 bits it is packed in)."""
    return np.zeros((height, 2), dtype=np.int64)


@njit(cache=True)
def _known_hopeless(hopeless, y, width, height):
    """Whether row y is recorded as holding no box that width×height is at least as large
    as in both sides (and so none of width×height either)."""
    for slot in range(2):
        packed = hopeless[y, slot]
        if packed and width >= packed >> 16 and height >= packed & 0xFFFF:
            return True
    return False


@njit(cache=True)
def _beside(words, boxes, kind, along, across, ink, before):
    """Whether the region spanning ``along`` (reading direction: columns for horizontal
    words, rows for vertical ones) and ``across`` holds ink of a word of orientation
    ``kind`` lying wholly before (``before``) or after the ink box ``ink`` = (along start,
    along end, across start, across end) along the line, and sharing its lines."""
    height, width = words.shape
    rows, columns = (across, along) if kind == 1 else (along, across)
    a0, a1, c0, c1 = ink
    for r in range(max(0, rows[0]), min(height, rows[1])):
        for c in range(max(0, columns[0]), min(width, columns[1])):
            slot = words[r, c]
            if slot == 0:
                continue
            bx, by, bw, bh, bkind = boxes[slot - 1]
            if not (bx <= c < bx + bw and by <= r < by + bh):
                return True  # the slot was reused: count it as such a word
            if bkind != kind:
                continue
            b_a0, b_a1, b_c0, b_c1 = (
                (bx, bx + bw, by, by + bh) if kind == 1 else (by, by + bh, bx, bx + bw)
            )
            apart = b_a1 <= a0 + 1 if before else b_a0 >= a1 - 1
            if apart and b_c0 < c1 and b_c1 > c0:
                return True
    return False


@njit(cache=True)
def ears_clear(ears, x, y, width, height):
    """Whether the padded width×height box at (x, y) keeps the name gap diagonally too: for
    ``ears`` = (words, boxes, (pad, margin, kind)), no ink of a word of orientation ``kind``
    (1 horizontal, 2 vertical; 0: nothing to check) lying beside the box along its reading
    direction is within pad + margin of the box's sides across it, level with its pads."""
    words, boxes, reading = ears
    pad, margin, kind = reading[0], reading[1], reading[2]
    if kind == 0 or pad == 0:
        return True
    deep = pad + margin
    # Along the reading direction (x for a horizontal word, y for a vertical one) and across.
    start, length, side, thick = (x, width, y, height) if kind == 1 else (y, height, x, width)
    ink = (start + pad, start + length - pad, side, side + thick)
    ends = ((start - margin, start + pad), (start + length - pad, start + length + margin))
    for end in range(2):
        for beside in ((side - deep, side), (side + thick, side + thick + deep)):
            if _beside(words, boxes, kind, ends[end], beside, ink, end == 0):
                return False
    return True


@njit(cache=True)
def _viable_cells(viable, cell_max, band, width, height) -> None:
    """Mark in ``viable`` the cell columns where a width×height box with its top row in
    ``band`` may fit: it has a row in each of the band's cells down to its height, and each
    of them must hold a run that wide."""
    cells_down, cells_across = cell_max.shape
    lowest = min(cells_down - 1, (band * CELL_H + height - 1) // CELL_H)
    for cx in range(cells_across):
        viable[cx] = True
        for cy in range(band, lowest + 1):
            if cell_max[cy, cx] < width:
                viable[cx] = False
                break


@njit(cache=True)
def find_fit(runs, row_max, cell_max, hopeless, width, height, start_x, start_y, top, bottom, ears):
    """The first position (x, y) in reading order from (start_x, start_y), wrapping around,
    where a width×height box touches no occupied pixel and its ears are clear
    (:func:`ears_clear`), with rows limited to [top, bottom). Returns (-1, -1) when there is
    none anywhere. Rows searched whole in vain are recorded in ``hopeless`` (unless ears
    turned a fit down: a larger box's ears lie elsewhere), and rows recorded there are
    skipped."""
    last_x = runs.shape[1] - width
    last_y = bottom - height
    if last_x < 0 or last_y < top:
        return -1, -1
    start_y = min(max(start_y, top), last_y)
    viable = np.zeros(cell_max.shape[1], dtype=np.bool_)
    for lap in range(2):
        y = start_y if lap == 0 else top
        end_y = last_y if lap == 0 else start_y
        band = -1
        while y <= end_y:
            skip = -1
            for r in range(y, y + height):
                if row_max[r] < width:
                    skip = r
            if skip >= 0:
                y = skip + 1
                continue
            if _known_hopeless(hopeless, y, width, height):
                y += 1
                continue
            if y // CELL_H != band:
                band = y // CELL_H
                _viable_cells(viable, cell_max, band, width, height)
            x = start_x if (lap == 0 and y == start_y) else 0
            whole_row = x == 0
            eared = False
            while x <= last_x:
                if not viable[x // CELL_W]:
                    x = (x // CELL_W + 1) * CELL_W
                    continue
                # Every row that fails says how far right the next fit can start: jump to
                # the farthest of them.
                jump = 0
                for r in range(y, y + height):
                    value = runs[r, x]
                    if value < width:
                        jump = max(jump, value + 1 if value > 0 else -value)
                if jump == 0:
                    if ears_clear(ears, x, y, width, height):
                        return x, y
                    eared = True
                    jump = 1
                x += jump
            if whole_row and not eared:
                hopeless[y, 0 if width >= height else 1] = width << 16 | height
            y += 1
    return -1, -1


@njit(cache=True)
def stamp(runs, row_max, row_start, cell_max, words, slot, ink, x, y, margin):
    """Mark ``ink`` placed with its top-left at (x, y), grown by ``margin`` pixels in every
    direction (a square neighbourhood), as occupied, and the ink itself in ``words`` as
    ``slot``'s."""
    height, width = ink.shape
    for r in range(height):
        for c in range(width):
            if ink[r, c]:
                words[y + r, x + c] = slot
    grown_h, grown_w = height + 2 * margin, width + 2 * margin
    across = np.zeros((height, grown_w), dtype=np.bool_)
    for r in range(height):
        last = -(1 << 30)
        for c in range(grown_w):
            if c < width and ink[r, c]:
                last = c
            across[r, c] = c - last <= 2 * margin
    canvas_h, canvas_w = runs.shape
    for c in range(grown_w):
        cx = x - margin + c
        if cx < 0 or cx >= canvas_w:
            continue
        last = -(1 << 30)
        for r in range(grown_h):
            if r < height and across[r, c]:
                last = r
            cy = y - margin + r
            if r - last <= 2 * margin and 0 <= cy < canvas_h:
                runs[cy, cx] = -1
    left = max(0, x - margin)
    right = min(canvas_w - 1, x - margin + grown_w - 1)
    first_row = max(0, y - margin)
    last_row = min(canvas_h - 1, y - margin + grown_h - 1)
    changed = left
    for cy in range(first_row, last_row + 1):
        changed = min(changed, _row_runs(runs, row_max, row_start, cy, left, right))
    _refresh_cells(runs, cell_max, first_row, last_row, changed, right)


@njit(cache=True)
def settle(runs, x, y, width, height, step_x, step_y, top, bottom):
    """Slide a fitting width×height box from (x, y) in the directions (step_x, step_y), each
    -1 or 1, vertically then horizontally, until it touches something; returns the new
    (x, y)."""
    canvas_w = runs.shape[1]
    moved = True
    while moved:
        moved = False
        while step_y != 0:
            row = y - 1 if step_y < 0 else y + height
            if row < top or row >= bottom or runs[row, x] < width:
                break
            y += step_y
            moved = True
        if step_x > 0:
            # The free run from x says at once how far right the box can go.
            shift = canvas_w
            for r in range(y, y + height):
                shift = min(shift, runs[r, x] - width)
            if shift > 0:
                x += shift
                moved = True
        if step_x < 0:
            # The box stops at the free runs' starts left of it: the one farthest right.
            stop = 0
            for r in range(y, y + height):
                if x == 0 or runs[r, x - 1] < 0:
                    stop = x
                    break
                stop = max(stop, _run_start(runs, r, x - 1, stop))
            if stop < x:
                x = stop
                moved = True
    return x, y


@njit(cache=True)
def contact(runs, x, y, width, height):
    """The share of the one-pixel ring around a box that is occupied (the canvas edge
    counts as occupied): how snugly the box sits."""
    canvas_h, canvas_w = runs.shape
    touching = 0
    for c in range(x, x + width):
        touching += 1 if y == 0 or runs[y - 1, c] < 0 else 0
        touching += 1 if y + height >= canvas_h or runs[y + height, c] < 0 else 0
    for r in range(y, y + height):
        touching += 1 if x == 0 or runs[r, x - 1] < 0 else 0
        touching += 1 if x + width >= canvas_w or runs[r, x + width] < 0 else 0
    return touching / (2 * (width + height))


@njit(cache=True)
def _random_start(inside, cell_max, width, height, top, bottom, left, right, uniforms, offset):
    # Up to START_TRIES random points for one inside the shape where every cell the box's
    # rows would cross has a free run as wide as the box (so the first fit is near: late in a dense layout a point drawn from
    # the whole shape is mostly in filled parts, and the search from it runs hundreds of
    # rows on); failing that, the last point inside the shape. Then the box centred on it.
    x = y = 0
    fallback_x = fallback_y = -1
    for attempt in range(START_TRIES):
        x = left + int(uniforms[offset + 2 * attempt] * (right - left))
        y = top + int(uniforms[offset + 2 * attempt + 1] * (bottom - top))
        if inside[y, x]:
            roomy = True
            first = max(0, y - height // 2) // CELL_H
            for cy in range(first, min(cell_max.shape[0] - 1, (y + height // 2) // CELL_H) + 1):
                if cell_max[cy, x // CELL_W] < width:
                    roomy = False
                    break
            if roomy:
                fallback_x = -1
                break
            fallback_x, fallback_y = x, y
    if fallback_x >= 0:
        x, y = fallback_x, fallback_y
    return max(0, x - width // 2), max(0, y - height // 2)


@njit(cache=True)
def best_spot(
    runs,
    row_max,
    cell_max,
    hopeless,
    inside,
    ears,
    width,
    height,
    bounds,
    candidates,
    uniforms,
):
    """Where to put a width×height box: from each of ``candidates`` random points of the
    shape, the first free spot in reading order with clear ``ears`` (see
    :func:`ears_clear`), slid in a random direction until it touches something (kept where
    it was found when the slide ends beside a same-orientation word's ink); the snuggest of
    them. ``bounds`` is the shape's (top, bottom, left, right); ``uniforms`` holds
    UNIFORMS_PER_CANDIDATE random numbers in [0, 1) per candidate. Returns (-1, -1) when the
    box fits nowhere."""
    top, bottom, left, right = bounds
    best_x = best_y = -1
    best_contact = -1.0
    for candidate in range(candidates):
        offset = candidate * UNIFORMS_PER_CANDIDATE
        start_x, start_y = _random_start(
            inside, cell_max, width, height, top, bottom, left, right, uniforms, offset
        )
        found_x, found_y = find_fit(
            runs, row_max, cell_max, hopeless, width, height, start_x, start_y, top, bottom, ears
        )
        if found_x < 0:
            return -1, -1
        step_x = -1 if uniforms[offset + 2 * START_TRIES] < 0.5 else 1
        step_y = -1 if uniforms[offset + 2 * START_TRIES + 1] < 0.5 else 1
        x, y = settle(runs, found_x, found_y, width, height, step_x, step_y, top, bottom)
        if not ears_clear(ears, x, y, width, height):
            x, y = found_x, found_y
        snug = contact(runs, x, y, width, height)
        if snug > best_contact:
            best_x, best_y, best_contact = x, y, snug
    return best_x, best_y
