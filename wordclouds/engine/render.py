"""Drawing the placed words: colours, the two SVG documents, and the PNG painted from the same
outlines, so the image and the vector files agree by construction."""

import heapq
import re
import statistics
from xml.sax.saxutils import escape

import numpy as np

from .colors import alike, readable, shifted, to_hex, to_rgb
from .compiled import njit
from .layout import Placement
from .mask import Mask
from .neighbours import reading_neighbours, words_near
from .outlines import placed_path, scaled_tenths, tenths_shift
from .params import Params
from .png import write_png
from .raster import coverage, flatten, paint

# A placement's element in wordcloud.svg, as write_svgs writes it: `<path id="w<ID>" … d="…"/>`.
OUTLINE = re.compile(r'<path id="w(\d+)"[^>]*? d="([^"]*)"')


def contrast_background(params: Params) -> str:
    """The colour words are kept readable against: BACKGROUND_COLOR, or white (paper) when
    the background is transparent."""
    return "#FFFFFF" if params.transparent else params.background_color


def word_colors(
    placements: list[Placement], params: Params, mask: Mask, seed: int, neighbours
) -> list[str]:
    """One ``#RRGGBB`` per placement: FONT_COLOR as given, else the mask image's mean colour
    under the word's ink box (COLOR_FROM_MASK with an image), else a seeded pick from
    PALETTE; chosen colours are made readable (:func:`colors.readable`), and two
    reading-direction ``neighbours`` (index pairs) never share one: a palette word takes
    another palette colour, none that reads as the neighbour's (:func:`colors.alike`), a
    mask word a lighter or darker variant of its own
    (:func:`_mask_variant`, :func:`_pick`: the rule a revision's fresh words follow too,
    :func:`fresh_colors`)."""
    if params.font_color:
        return [params.font_color] * len(placements)
    background = contrast_background(params)
    adjacent = [[] for _ in placements]
    for i, j in neighbours:
        adjacent[j].append(i)
        adjacent[i].append(j)
    chosen = []
    if params.color_from_mask and mask.colors is not None:
        means = [mask_mean(mask, placement.ink_box) for placement in placements]
        for k, color in enumerate(readable(means, background)):
            taken = {chosen[i] for i in adjacent[k] if i < k}
            chosen.append(_mask_variant(means[k], color, background, taken))
        return chosen
    palette = readable_palette(params)
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, len(palette), size=len(placements))
    spare = rng.random(len(placements))
    twins = palette_twins(palette)
    return [palette[k] for k in _palette_colors(adjacent, picks, spare, twins, rng)]


def fresh_colors(ids, placements: dict, colors: dict, fresh, params: Params, mask: Mask, rng):
    """Colours (into ``colors``, by word id) for the ``fresh`` words of a revision among the
    ``ids`` of all its words, by the rule of :func:`word_colors`: FONT_COLOR; or the mask's
    mean colour, readable, varied until no reading neighbour has it; or its own palette
    colour where no reading neighbour has it, else one drawn (from ``rng``) among those its
    neighbours left. Taken in id order, each against every neighbour's colour now (a fresh
    one not yet coloured counts with its old colour), so the neighbour-colour rule holds for
    every new neighbour."""
    if not fresh:
        return
    near = words_near(ids, placements, fresh)
    order = [placements[i] for i in near]
    pairs = reading_neighbours(
        [p.ink_box for p in order], [p.font_size for p in order], [p.vertical for p in order]
    )
    adjacent = {word_id: set() for word_id in fresh}
    for i, j in pairs:
        for a, b in ((near[i], near[j]), (near[j], near[i])):
            if a in adjacent:
                adjacent[a].add(b)
    background = contrast_background(params)
    palette = readable_palette(params)
    index = {color: k for k, color in enumerate(palette)}
    twins = palette_twins(palette)
    draw = lambda count: int(rng.integers(count))  # noqa: E731 - one draw per word that needs one
    for word_id in sorted(fresh):
        taken = {colors[i] for i in adjacent[word_id] if i in colors}
        if params.font_color:
            colors[word_id] = params.font_color
        elif params.color_from_mask and mask.colors is not None:
            mean = mask_mean(mask, placements[word_id].ink_box)
            color = readable([mean], background)[0]
            colors[word_id] = _mask_variant(mean, color, background, taken)
        else:
            taken_at = {index[c] for c in taken if c in index}
            own = index.get(colors.get(word_id))
            crowded = lambda: draw(len(palette))  # noqa: E731
            colors[word_id] = palette[_pick(own, taken_at, twins, draw, crowded)]


def readable_palette(params: Params) -> list[str]:
    """PALETTE made readable against the background, each colour once."""
    return list(dict.fromkeys(readable(list(params.palette), contrast_background(params))))


def palette_twins(palette: list[str]) -> list[frozenset]:
    """Per colour of ``palette``, the indexes of its colours that read as that one
    (:func:`colors.alike`: itself, and any too close to it), which no neighbour may have."""
    return [frozenset(np.flatnonzero(row).tolist()) for row in alike(palette)]


def mask_mean(mask: Mask, ink_box) -> str:
    """The mask image's mean colour under ``ink_box``."""
    x, y, width, height = ink_box
    return to_hex(mask.colors[y : y + height, x : x + width].reshape(-1, 3).mean(axis=0).round())


def _mask_variant(mean: str, color: str, background: str, taken) -> str:
    """A mask word's colour: ``color`` (its ``mean``, readable) or, while a neighbour has
    it, a variant of ``mean`` a step more distinct from the background (eight at most). The
    image's colours are the customer's: they are not pushed apart to a perceptual
    difference as palette colours are (docs/engine.md, Colours)."""
    step = 0
    while color in taken and step < 8:
        step += 1
        color = shifted(mean, background, step)
    return color


def _pick(own, taken, twins, draw, crowded) -> int:
    """A palette index for a word: ``own`` (its seeded pick, or its colour) unless a
    neighbour has it or one that reads as it (``taken``; ``twins``: :func:`palette_twins`),
    else one drawn (``draw(n)``: an index below n) among those its neighbours left;
    ``crowded()`` when they left none."""
    blocked = set().union(*(twins[c] for c in taken))
    if own is not None and own not in blocked:
        return own
    free = [c for c in range(len(twins)) if c not in blocked]
    return free[draw(len(free))] if free else crowded()


def _palette_colors(adjacent, picks, spare, twins, rng):
    """A palette index per word (:func:`_pick`): its seeded pick, unless a neighbour
    coloured before it took that, then a seeded one among those its neighbours left. Words
    are coloured most constrained first (DSatur: the most distinct colours among coloured
    neighbours, then the most neighbours), which needs few colours on such sparse graphs; a
    word whose neighbours took every colour takes the one fewest of them have, and the
    clashes left are then repaired (:func:`_repaired`)."""
    chosen = [-1] * len(adjacent)
    seen = [set() for _ in adjacent]  # colours among each word's coloured neighbours
    queue = [(0, -len(near), k) for k, near in enumerate(adjacent)]
    heapq.heapify(queue)
    while queue:
        saturation, _, k = heapq.heappop(queue)
        if chosen[k] >= 0 or -saturation != len(seen[k]):
            continue  # coloured already, or a stale entry
        color = _pick(
            int(picks[k]),
            seen[k],
            twins,
            lambda count: int(spare[k] * count),  # noqa: B023 - called at once
            lambda: min(range(len(twins)), key=lambda c: _sharing(k, c, adjacent, chosen, twins)),  # noqa: B023
        )
        chosen[k] = color
        for i in adjacent[k]:
            if color not in seen[i]:
                seen[i].add(color)
                if chosen[i] < 0:
                    heapq.heappush(queue, (-len(seen[i]), -len(adjacent[i]), i))
    return _repaired(chosen, adjacent, twins, rng)


def _sharing(k, color, adjacent, chosen, twins):
    """How many of word k's neighbours have ``color`` or one that reads as it."""
    return sum(1 for i in adjacent[k] if chosen[i] in twins[color])


REPAIR_STEPS = 200  # moves per word in a clash, at most


def _repaired(chosen, adjacent, twins, rng):
    """``chosen`` with clashes (neighbours whose colours read as one) removed where a few
    moves find how (min-conflicts search):
    a word in a clash takes the colour fewest of its neighbours have (a random one now and
    then, to leave a local minimum). A small palette can need it (four names within an em of
    each other need four colours); with enough colours DSatur leaves nothing to repair."""
    colors = len(twins)
    clash = lambda a, b: chosen[a] in twins[chosen[b]]  # noqa: E731
    clashing = {k for k, near in enumerate(adjacent) for i in near if clash(i, k)}
    steps = REPAIR_STEPS * len(clashing)
    while clashing and steps:
        steps -= 1
        k = sorted(clashing)[int(rng.integers(len(clashing)))]
        counts = [_sharing(k, c, adjacent, chosen, twins) for c in range(colors)]
        if rng.random() < 0.2:
            chosen[k] = int(rng.integers(colors))
        else:
            chosen[k] = counts.index(min(counts))
        for word in (k, *adjacent[k]):
            if any(clash(i, word) for i in adjacent[word]):
                clashing.add(word)
            else:
                clashing.discard(word)
    return chosen


def stroke_widths(placements: list[Placement], params: Params) -> list[float]:
    """The outline width of each placement in svg_stroke: STROKE_WIDTH, or with
    ENABLE_STROKE_WEIGHTS scaled by font size so the median size gets STROKE_WIDTH."""
    if not params.enable_stroke_weights or not placements:
        return [params.stroke_width] * len(placements)
    median = statistics.median(p.font_size for p in placements)
    return [stroke_width(p.font_size, median, params) for p in placements]


def stroke_width(size: float, median: float, params: Params) -> float:
    """The outline width of a word of ``size`` px among words of ``median`` size."""
    if not params.enable_stroke_weights:
        return params.stroke_width
    return params.stroke_width * size / median


def _header(width, height, layers: bool = False):
    inkscape = f' xmlns:inkscape="{INKSCAPE_NS}"' if layers else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{inkscape} width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n'
    )


INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
LAYER_CLOSE = "</g>\n"


def layer_id(number: int) -> str:
    """The id of the ``number``-th group's layer (1-based, in the groups' order): stable
    and a valid XML id whatever the group is called."""
    return f"group-{number}"


def layer_open(element_id: str, label: str) -> str:
    """The opening tag of a layer named ``label``: a top-level ``<g>`` with the name where
    Inkscape reads a layer's (``inkscape:groupmode="layer"``, ``inkscape:label``) and
    where Illustrator does (``data-name``; without it Illustrator names a layer by its
    id), and ``data-group`` for scripts (docs/engine.md, Groups). The document needs the
    inkscape namespace (``_header(..., layers=True)``)."""
    name = escape(label, {'"': "&quot;"})
    return (
        f'<g id="{element_id}" inkscape:groupmode="layer" inkscape:label="{name}" '
        f'data-name="{name}" data-group="{name}">\n'
    )


def write_svgs(
    placements: list[Placement], colors: list[str], params: Params, size, fill, stroke, groups=None
) -> None:
    """Write the filled SVG (with the background unless transparent) to the text file
    ``fill`` and the stroked one to ``stroke``, path by path; element ``w<N>`` draws
    placement N (1-based, in list order). ``size`` is the canvas's (width, height). With
    ``groups`` (the groups' names in order: a poster with groups) each group's words are
    in a layer of their own (:func:`layer_open`, id :func:`layer_id`), in the groups'
    order, each in placement order within it."""
    width, height = size
    fill.write(_header(width, height, bool(groups)))
    stroke.write(_header(width, height, bool(groups)))
    if not params.transparent:
        fill.write(
            f'<rect id="background" width="{width}" height="{height}" '
            f'fill="{params.background_color}"/>\n'
        )
    words = list(enumerate(zip(placements, colors, stroke_widths(placements, params)), start=1))
    layers = [(group, [w for w in words if w[1][0].name.group == group]) for group in groups or ()]
    for k, (group, inside) in enumerate(layers or [(None, words)], start=1):
        if group is not None:
            fill.write(layer_open(layer_id(k), group))
            stroke.write(layer_open(layer_id(k), group))
        for number, (placement, color, line) in inside:
            filled, stroked = path_elements(number, placement, color, line)
            fill.write(filled)
            stroke.write(stroked)
        if group is not None:
            fill.write(LAYER_CLOSE)
            stroke.write(LAYER_CLOSE)
    fill.write(SVG_END)
    stroke.write(SVG_END)


SVG_END = "</svg>\n"


def path_elements(number: int, placement: Placement, color: str, line: float) -> tuple[str, str]:
    """Placement ``number``'s ``<path>`` line in the filled SVG and in the stroked one."""
    d = placed_path(placement.outline, placement.font_size, *placement.ink_box[:2])
    return (
        f'<path id="w{number}" fill="{color}" d="{d}"/>\n',
        f'<path id="w{number}" fill="none" stroke="{color}" stroke-width="{line:.3g}" d="{d}"/>\n',
    )


def svg_outlines(svg: str) -> dict[int, str]:
    """Each placement's outline path data in a wordcloud.svg that write_svgs wrote, by
    placement id: the glyphs exactly as drawn from the font the words were placed with, and
    much cheaper to read than shaping every name again."""
    return {int(word_id): d for word_id, d in OUTLINE.findall(svg)}


PAINT_BATCH = 2000  # words painted per compiled call: their outlines' points copied together


@njit(cache=True, nogil=True)
def _paint_words(canvas, codes, points, ends, sizes, shifts, boxes, rgb):
    """Paint word k of a batch: its codes and points end at ``ends[k]`` in ``codes`` and
    ``points``, drawn at ``sizes[k]`` px, moved by ``shifts[k]`` tenths of a pixel, into
    its ink box ``boxes[k]`` (x, y, width, height) in colour ``rgb[k]``."""
    code_start = point_start = 0
    for k in range(sizes.size):
        code_end, point_end = ends[k, 0], ends[k, 1]
        shift_x, shift_y = shifts[k, 0], shifts[k, 1]
        tenths = scaled_tenths(points[point_start:point_end], sizes[k], shift_x, shift_y)
        polygon, contour_ends = flatten(codes[code_start:code_end], tenths / 10)
        x, y, width, height = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
        cover = coverage(polygon, contour_ends, 1.0, x, y, height, width)
        paint(canvas, cover, x, y, rgb[k, 0], rgb[k, 1], rgb[k, 2])
        code_start, point_start = code_end, point_end


def _paint_batch(canvas, placements, rgb):
    """Gather a batch's outlines into flat arrays and paint them in one compiled call, which
    releases the GIL: the SVGs are written meanwhile."""
    outlines = [p.outline for p in placements]
    ends = np.column_stack(
        (
            np.cumsum([o.codes.size for o in outlines]),
            np.cumsum([o.points.shape[0] for o in outlines]),
        )
    )
    _paint_words(
        canvas,
        np.concatenate([o.codes for o in outlines]),
        np.concatenate([o.points for o in outlines]),
        ends,
        np.array([p.font_size for p in placements]),
        np.array([tenths_shift(p.outline, p.font_size, *p.ink_box[:2]) for p in placements]),
        np.array([p.ink_box for p in placements]),
        rgb,
    )


def render_png(placements: list[Placement], colors: list[str], params: Params, size, out) -> None:
    """Write to the binary file ``out`` the PNG of the placements on a ``size`` (width,
    height) canvas, painted from the very coordinates of the SVG paths (curves flattened,
    anti-aliased by exact pixel coverage) onto the background; RGBA when it is transparent,
    RGB otherwise."""
    width, height = size
    if params.transparent:
        canvas = np.zeros((height, width, 4), dtype=np.uint8)
    else:
        canvas = np.empty((height, width, 3), dtype=np.uint8)
        canvas[:] = to_rgb(params.background_color)
    paint_placements(canvas, placements, colors)
    write_png(out, canvas)


def paint_placements(canvas, placements: list[Placement], colors: list[str]) -> None:
    """Paint the placements in their colours onto ``canvas`` (RGB or RGBA, uint8)."""
    inked = [(p, c) for p, c in zip(placements, colors) if p.outline.codes.size]
    rgb = {color: to_rgb(color) for color in set(colors)}
    for start in range(0, len(inked), PAINT_BATCH):
        batch = inked[start : start + PAINT_BATCH]
        _paint_batch(
            canvas,
            [p for p, _ in batch],
            np.array([rgb[c] for _, c in batch], dtype=np.int64),
        )
