"""Placing every name of a first layout: font sizes planned from the area left and the
names' weights, heaviest (then largest) first, each word at the first free spot in reading
order from a random point of the shape (:meth:`layout.Layout.place_word`)."""

import math

import numpy as np

from .errors import LayoutError
from .layout import DEFAULT_MIN_FONT_SIZE, FLOOR_FONT_SIZE, Layout, Placement, WordShapes
from .mask import Mask
from .names import Name
from .params import Params

# The share of the free area the remaining words are planned to fill starts from
# FILL_START - FILL_CROWDING × crowding (at most 0.45), where crowding is the area all names
# would take at the smallest size over the shape's area; a failed attempt starts over with
# FILL_RETRY times the share. Tuned on the three benchmark cases (crowding 0.25–0.40).
FILL_START, FILL_CROWDING, FILL_RETRY, ATTEMPTS = 0.6, 0.5, 0.85, 3
SIZE_SPREAD = 0.6  # exponent of the size profile: the first words are largest
# The crowding (the area every name takes at the smallest size, with its margin, over the
# shape's area) up to which every name is placed: measured on the 3,000-name heart
# (docs/benchmarks.md, "Printed size"), with a margin for other lists and shapes.
MOST_CROWDING = 0.5
REPEAT_SHRINK = 0.7


def _unit_boxes(names, shapes, name_gap):
    """Width and height of each name's horizontal ink box at 1 px, the width with the
    NAME_GAP it keeps from its neighbour on the line."""
    bounds = np.array([shapes.get(n.text, False)[0].bounds for n in names]).reshape(-1, 4)
    return bounds[:, 2] - bounds[:, 0] + name_gap, bounds[:, 3] - bounds[:, 1]


def _crowding(names, shapes, size, margin):
    """The area every name takes, horizontal at ``size`` px with its margin (not the name
    gap: counting it starts every list with smaller words and covers less, measured on the
    3,000-name heart)."""
    unit_w, unit_h = _unit_boxes(names, shapes, 0.0)
    return float(np.sum((size * unit_w + margin) * (size * unit_h + margin)))


def _planned_sizes(units, target_area, done):
    """The font-size scale s for the words from index ``done`` on, solving
    sum((w s r + m)(h s r + m)) = target_area over them (w, h: unit box; r: profile)."""
    a, b, c = units[0][done], units[1][done], units[2][done]
    if target_area <= c:
        return 0.0
    return (-b + math.sqrt(b * b + 4 * a * (target_area - c))) / (2 * a) if a > 0 else 0.0


def place_words(
    names: list[Name],
    shapes: WordShapes,
    mask: Mask,
    params: Params,
    seed: int,
    report=lambda done, total, message: None,
) -> list[Placement]:
    """Place every name once (and up to N_REPETITIONS times where room is left).

    Raises :class:`LayoutError` when some names find no place at MIN_FONT_SIZE even after
    retrying with smaller words.
    """
    min_size = params.min_font_size or DEFAULT_MIN_FONT_SIZE
    max_size = params.max_font_size or max(min_size, min(mask.height, mask.width) / 4)
    crowding = _crowding(names, shapes, min_size, math.ceil(params.margin)) / mask.area
    first = min(0.45, max(0.2, FILL_START - FILL_CROWDING * crowding))
    attempts = [(first * FILL_RETRY**n, min_size) for n in range(ATTEMPTS)]
    if params.min_font_size is None:
        attempts.append((attempts[-1][0], FLOOR_FONT_SIZE))
    unplaced = []
    weights = np.array([name.weight for name in names])
    for attempt, (fill, min_size) in enumerate(attempts):
        rng = np.random.default_rng([seed, attempt])
        # Heavier names first; equal weights (all of them without a weight column) in a
        # seeded random order.
        shuffled = rng.permutation(len(names))
        order = shuffled[np.argsort(-weights[shuffled], kind="stable")]
        layout = Layout(mask, params.margin, params.name_gap, rng)
        prefix = f"attempt {attempt + 1} of {len(attempts)}: " if attempt else ""
        if attempt:
            report(
                0,
                len(names),
                f"{prefix}retrying with smaller words ({len(unplaced)} names did not fit)",
            )
        placements, unplaced = _place_primaries(
            [names[i] for i in order],
            shapes,
            layout,
            params,
            (min_size, max_size),
            fill,
            lambda done, total, message: report(done, total, prefix + message),  # noqa: B023
        )
        if not unplaced:
            _place_repeats(placements, shapes, layout, params, min_size)
            return placements
    raise LayoutError(
        f"{len(unplaced)} of {len(names)} names did not fit; use a larger canvas (WIDTH and "
        f"HEIGHT, or a larger mask image) or a smaller MIN_FONT_SIZE (now {min_size:g} px)"
    )


def size_profile(weights: np.ndarray, relative_scaling: float) -> np.ndarray:
    """The planned relative size of each name, for names in placing order (heaviest first):
    the rank profile ``(1 + k / (N/100))^-0.6`` to the power ``1 - relative_scaling`` times
    ``(weight / largest weight)^relative_scaling``. Both factors never grow along the order,
    so a heavier name is never planned smaller; with equal weights (no weight column) it is
    the rank profile alone, whatever RELATIVE_SCALING."""
    count = len(weights)
    profile = (1.0 + np.arange(count) / max(1.0, count / 100)) ** -SIZE_SPREAD
    heaviest = float(weights.max()) if count else 0.0
    if heaviest <= 0 or float(weights.min()) == heaviest:
        return profile
    return profile ** (1 - relative_scaling) * (weights / heaviest) ** relative_scaling


def _weighted_sizes(units, profile, unit_boxes, margin, free, fill, size_range):
    """Font sizes for weighted names: one scale for all, ``clip(scale × profile)``, so sizes
    follow the weights exactly (never a lighter name larger), chosen so the words take the
    area the unweighted planner would give them. That planner solves the scale again
    before each word against the area left, and the scale grows as it goes: used as is,
    a later, lighter name could come out larger than a heavier one."""
    min_size, max_size = size_range
    unit_w, unit_h = unit_boxes
    left = free
    for k in range(len(profile)):  # the unweighted planner's course, without placing
        size = min(max_size, max(min_size, _planned_sizes(units, fill * left, k) * profile[k]))
        left -= (unit_w[k] * size + margin) * (unit_h[k] * size + margin)
    total = free - left

    def area(scale):
        sizes = np.clip(scale * profile, min_size, max_size)
        return float(np.sum((unit_w * sizes + margin) * (unit_h * sizes + margin)))

    low, high = 0.0, max_size / max(float(profile[profile > 0].min(initial=1.0)), 1e-9)
    for _ in range(60):  # bisection: area() never decreases with the scale
        middle = (low + high) / 2
        low, high = (middle, high) if area(middle) < total else (low, middle)
    return np.clip(low * profile, min_size, max_size)


def _place_primaries(names, shapes, layout, params, size_range, fill, report):
    min_size, max_size = size_range
    count = len(names)
    margin = layout.margin
    profile = size_profile(np.array([name.weight for name in names]), params.relative_scaling)
    unit_w, unit_h = _unit_boxes(names, shapes, params.name_gap)
    suffix = lambda v: np.cumsum(v[::-1])[::-1]  # noqa: E731 - sums over the words left
    units = (
        suffix(unit_w * unit_h * profile**2),
        suffix(margin * profile * (unit_w + unit_h)),
        suffix(np.full(count, float(margin * margin))),
    )
    placements, unplaced = [], []
    step = max(1, count // 200)
    weighted = params.weight_col_index is not None
    if weighted:
        planned = _weighted_sizes(
            units, profile, (unit_w, unit_h), margin, layout.free, fill, size_range
        )
    for k, name in enumerate(names):
        if k % step == 0:
            report(k, count, f"placed {k} of {count} names")
        if weighted:
            size = float(planned[k])
        else:
            scale = _planned_sizes(units, fill * layout.free, k)
            size = min(max_size, max(min_size, float(scale * profile[k])))
        placement = layout.place_word(name, 1, size, min_size, shapes, _turn(params))
        if placement is None:
            unplaced.append(name)
        else:
            placements.append(placement)
    return placements, unplaced


def _place_repeats(placements, shapes, layout, params, min_size):
    firsts = list(placements)
    for repetition in range(2, params.n_repetitions + 1):
        for i in layout.rng.permutation(len(firsts)):
            first = firsts[i]
            size = max(min_size, first.font_size * REPEAT_SHRINK ** (repetition - 1))
            placement = layout.place_word(
                first.name, repetition, size, min_size, shapes, _turn(params)
            )
            if placement is not None:
                placements.append(placement)


def _turn(params: Params) -> tuple[float, bool]:
    """How a first layout turns its words (:meth:`Layout.place_word`): vertical by
    PREFER_HORIZONTAL, the other orientation tried before a smaller size."""
    return params.prefer_horizontal, True
