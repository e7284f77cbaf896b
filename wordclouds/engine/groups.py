"""Groups in their own regions (GROUP_COL_INDEX, docs/engine.md, Groups): each group of
names gets a region of the shape (MASK_TEXT's letters, or a strip of the shape in proportion
to its names' ink) and one colour, and is laid out alone inside it."""

import math
import statistics
from dataclasses import dataclass

import numpy as np

from .advances import unit_boxes
from .colors import alike
from .errors import InputError, LayoutError
from .layout import DEFAULT_MIN_FONT_SIZE
from .mask import Mask
from .metrics import box_coverage
from .params import MAX_GROUPS, Params
from .planning import MOST_CROWDING, place_words


@dataclass
class Region:
    """A group's part of the shape: its pixels and what it is, in words and for the
    metrics (``letters``: MASK_TEXT's letter indexes, or None for a strip)."""

    inside: np.ndarray
    letters: list[int] | None
    strip: int | None
    columns: tuple[int, int] | None = None  # a strip's first and last column + 1
    colors: list[str] | None = None  # a mask image's flat colours

    def described(self) -> str:
        if self.letters is not None:
            return "letter " + ", ".join(str(k) for k in self.letters)
        if self.colors is not None:
            return "colour " + ", ".join(self.colors)
        return f"strip {self.strip}"


def region_specs(grouped: dict) -> list[dict]:
    """positions.db's ``meta.groups``: per group (in order) its region as letters, flat
    colours or a strip's columns, from which :func:`stored_regions` draws it again."""
    specs = []
    for group, (region, _) in grouped.items():
        if region.letters is not None:
            specs.append({"group": group, "letters": region.letters})
        elif region.colors is not None:
            specs.append({"group": group, "colors": region.colors})
        else:
            specs.append({"group": group, "columns": list(region.columns)})
    return specs


def stored_regions(mask: Mask, specs: list[dict], band: int) -> dict[str, np.ndarray]:
    """Each group's pixels from ``meta.groups`` (:func:`region_specs`) and the same shape:
    a letter's or a flat colour's pixels as when laid out, a strip's columns (its pixels
    after the band, so within the first layout's strip), banded again."""
    owned = np.full(mask.inside.shape, -1, dtype=np.int16)
    letters = mask.letters.labels() if mask.letters is not None else None
    for k, spec in enumerate(specs):
        if "letters" in spec and letters is not None:
            owned[np.isin(letters, spec["letters"])] = k
        elif "colors" in spec and mask.flat is not None:
            labels, colors = mask.flat
            indexes = [colors.index(c) for c in spec["colors"] if c in colors]
            owned[np.isin(labels, indexes)] = k
        elif "columns" in spec:
            owned[:, spec["columns"][0] : spec["columns"][1]] = k
    owned[~mask.inside] = -1
    owned = _banded(owned, band)
    return {spec["group"]: owned == k for k, spec in enumerate(specs)}


def group_order(names) -> list[str]:
    """The groups in spreadsheet order (of each group's first row); InputError when there
    are more than MAX_GROUPS."""
    groups = list(dict.fromkeys(name.group for name in sorted(names, key=lambda n: n.row)))
    if len(groups) > MAX_GROUPS:
        raise InputError(
            f"name_list has {len(groups)} groups in column GROUP_COL_INDEX; at most "
            f"{MAX_GROUPS} are allowed"
        )
    return groups


def check_groups_fit(names, mask: Mask, params: Params) -> None:
    """The checks of groups that need the names and the shape but no layout, made before a
    job exists (the API) and again when it runs: at most MAX_GROUPS, GROUP_COLORS naming
    groups of the list, no more groups than letters or flat colours, GROUP_REGIONS valid;
    each an :class:`InputError` naming the problem."""
    if params.group_col_index is None:
        return
    groups = group_order(names)
    _given_colors(groups, params)
    if params.group_regions:
        _given_spans(groups, mask, params.group_regions)
    elif mask.letters is not None and len(groups) > len(mask.letters.texts):
        raise InputError(
            f"name_list has {len(groups)} groups but MASK_TEXT has only "
            f"{len(mask.letters.texts)} letters to put them in; give fewer groups or a longer text"
        )
    elif mask.letters is None and mask.flat is not None and len(groups) > len(mask.flat[1]):
        raise InputError(
            f"name_list has {len(groups)} groups but mask_image has only {len(mask.flat[1])} "
            "flat colours to put them in; give fewer groups or a mask of more colours"
        )


def _given_colors(groups, params: Params) -> dict[str, str]:
    """GROUP_COLORS ({group: colour}); InputError for a group the list does not have."""
    given = params.group_colors or {}
    unknown = [g for g in given if g not in groups]
    if unknown:
        raise InputError(
            f'params.GROUP_COLORS names a group the list does not have: "{unknown[0]}"'
        )
    return given


def _given_spans(groups, mask: Mask, given: dict) -> list[list[int]]:
    """GROUP_REGIONS as each group's region indexes (in ``groups``' order): MASK_TEXT's
    letters, or indexes into the mask image's flat colours; InputError for an unknown group,
    letter or colour, one given twice, a group without a region or a region without a group."""
    if mask.letters is not None:
        count, kind = len(mask.letters.texts), "letter"
        shown = {k: str(k) for k in range(count)}
    elif mask.flat is not None:
        colors = mask.flat[1]
        count, kind, shown = len(colors), "colour", dict(enumerate(colors))
    else:
        raise InputError(
            "params.GROUP_REGIONS names colours but mask_image has fewer than two flat colours "
            "(each an exact colour covering 2% of the shape or more)"
        )
    index = {text: k for k, text in shown.items()}
    owner, found = {}, {}
    for group, region in given.items():
        where = f'params.GROUP_REGIONS["{group}"]'
        if group not in groups:
            raise InputError(
                f'params.GROUP_REGIONS names a group the list does not have: "{group}"'
            )
        picks = [str(k) for k in region] if kind == "letter" else [region]
        for pick in picks:
            if pick not in index:
                raise InputError(
                    f"{where} names letter {pick}; MASK_TEXT has {count} letters (0–{count - 1})"
                    if kind == "letter"
                    else f"{where} names colour {pick}, which is not a flat colour of mask_image; "
                    f"its flat colours are {', '.join(colors)}"
                )
            k = index[pick]
            if owner.get(k) == group:
                raise InputError(f"{where} names letter {pick} twice")
            if k in owner:
                raise InputError(
                    f'params.GROUP_REGIONS gives {kind} {pick} to both "{owner[k]}" and "{group}"'
                )
            owner[k] = group
        found[group] = sorted(index[pick] for pick in picks)
    missing = [g for g in groups if g not in found]
    if missing:
        what = "letters" if kind == "letter" else "colour"
        raise InputError(f'params.GROUP_REGIONS gives group "{missing[0]}" no {what}')
    empty = [k for k in range(count) if k not in owner]
    if empty:
        raise InputError(
            f"params.GROUP_REGIONS leaves {kind} {shown[empty[0]]} to no group: a region "
            "without names"
        )
    return [found[g] for g in groups]


def _ink(names, shapes) -> float:
    """The area the names take at 1 px (their horizontal ink boxes)."""
    total = 0.0
    for name in names:
        left, top, right, bottom = shapes.get(name.text, False)[0].bounds
        total += (right - left) * (bottom - top)
    return total


def _shares(weights, count: int) -> list[int]:
    """``count`` items shared out in proportion to ``weights``, each at least one (largest
    remainders)."""
    weights = np.asarray(weights, dtype=float)
    extra = count - len(weights)
    exact = weights / weights.sum() * extra
    shares = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - shares), kind="stable")[: extra - shares.sum()]:
        shares[k] += 1
    return (shares + 1).tolist()


def letter_spans(groups, inks, mask: Mask, given=None) -> list[list[int]]:
    """Each group's letters of the text mask: GROUP_REGIONS' (``given``, checked), else runs
    in reading order, groups in ``groups``' order, in proportion to their ``inks``, each at
    least one letter."""
    if given:
        return _given_spans(groups, mask, given)
    letters = len(mask.letters.texts)
    bounds = np.cumsum([0] + _shares(inks, letters))
    return [list(range(bounds[k], bounds[k + 1])) for k in range(len(groups))]


def estimated_inks(names, typeface, locale: str) -> dict[str, float]:
    """Each group's ink (its names' horizontal ink boxes at 1 px, as :func:`_ink` but from
    advances.unit_boxes, without drawing outlines), groups in the names' order."""
    widths, heights = unit_boxes([name.text for name in names], typeface, locale)
    inks = {}
    for name, area in zip(names, widths * heights, strict=True):
        inks[name.group] = inks.get(name.group, 0.0) + float(area)
    return inks


def regions(mask: Mask, groups, inks, band: int, given=()) -> list[Region]:
    """One region per group: with a text mask, runs of letters in reading order (groups in
    spreadsheet order, in proportion to their ink, each at least one letter); otherwise
    strips of columns left to right whose shares of the shape follow the groups' ink. Each
    region loses the pixels within ``band`` px of another's, so no two groups' words meet.
    ``given``: GROUP_REGIONS, each group's letters or flat colour."""
    if mask.letters is not None:
        labels = mask.letters.labels()
        letters = len(mask.letters.texts)
        spans = letter_spans(groups, inks, mask, given)
        owner = np.full(letters + 1, -1, dtype=np.int16)
        for k, span in enumerate(spans):
            owner[span] = k
        owned = np.where(mask.inside, owner[labels], -1)
    elif mask.flat is not None:
        return _color_regions(mask, groups, inks, band, given)
    else:
        owned = _strips(mask.inside, np.asarray(inks, dtype=float))
        spans = [None] * len(groups)
    owned = _banded(owned, band)
    found = []
    for k in range(len(groups)):
        inside = owned == k
        columns = np.flatnonzero(inside.any(axis=0))
        extent = (int(columns[0]), int(columns[-1]) + 1) if columns.size else (0, 0)
        strip = None if spans[k] else k
        found.append(Region(inside, spans[k], strip, None if spans[k] else extent))
    return found


def _color_regions(mask: Mask, groups, inks, band: int, given=()) -> list[Region]:
    """A mask image's flat colours as regions: GROUP_REGIONS' colour per group when
    ``given``, else left to right (by the colour's mean column), each group a run of them in
    proportion to its ink (at least one)."""
    labels, colors = mask.flat
    labels = np.where(mask.inside, labels, -1)
    if given:
        runs = _given_spans(groups, mask, given)
    else:
        order = sorted(range(len(colors)), key=lambda c: float(np.mean(np.nonzero(labels == c)[1])))
        bounds = np.cumsum([0] + _shares(inks, len(colors)))
        runs = [order[bounds[k] : bounds[k + 1]] for k in range(len(groups))]
    owner = np.full(len(colors) + 1, -1, dtype=np.int16)
    spans = []
    for k, span in enumerate(runs):
        owner[span] = k
        spans.append([colors[c] for c in span])
    owned = _banded(np.where(labels >= 0, owner[labels], -1), band)
    return [Region(owned == k, None, None, None, spans[k]) for k in range(len(groups))]


def _strips(inside: np.ndarray, inks: np.ndarray) -> np.ndarray:
    """Per pixel the index of the column strip it lies in: strips of the shape's pixels, left
    to right, cut where the running pixel count reaches each group's running share of ink."""
    per_column = np.count_nonzero(inside, axis=0).cumsum()
    cuts = per_column[-1] * np.cumsum(inks)[:-1] / inks.sum()
    column_owner = np.searchsorted(cuts, per_column - 0.5 * np.diff(per_column, prepend=0))
    return np.where(inside, column_owner[None, :].astype(np.int16), -1)


def _banded(owned: np.ndarray, band: int) -> np.ndarray:
    """``owned`` with every pixel within ``band`` px (a square around it) of a pixel of
    another region made -1: where the highest and the lowest region index around it differ
    (outside pixels left out of the lowest)."""
    # Imported here, not with the engine: SciPy's image filters take 0.15 s to import, which
    # every process that loads the engine would pay; only a poster with groups needs them.
    from scipy import ndimage

    top = np.iinfo(np.int16).max
    window = 2 * band + 1
    high = ndimage.maximum_filter(owned, size=window, mode="nearest")
    low = ndimage.minimum_filter(
        np.where(owned < 0, top, owned).astype(np.int16), size=window, mode="nearest"
    )
    return np.where((high != low) & (low != top), -1, owned)


def group_band(params: Params) -> int:
    """The px kept free between two regions: twice MARGIN and one, so that words of two
    groups keep MARGIN across it and, with the name-gap pad each keeps from its region's
    edge, NAME_GAP beside each other (docs/engine.md, Groups)."""
    return math.ceil(2 * params.margin) + 1


def place_groups(names, shapes, mask: Mask, params: Params, seed: int, report):
    """Every group laid out alone in its region (planning.place_words on the region as the
    shape); returns the placements and, per group, (its region, its names). A group that
    does not fit fails with a sentence naming it and the size that would fit."""
    check_groups_fit(names, mask, params)
    groups = group_order(names)
    members = {g: [n for n in names if n.group == g] for g in groups}
    inks = [_ink(members[g], shapes) for g in groups]
    found = regions(mask, groups, inks, group_band(params), params.group_regions)
    placements = []
    for k, (group, region) in enumerate(zip(groups, found, strict=True)):
        shape = Mask(mask.inside & region.inside, mask.colors, mask.letters)
        if not shape.inside.any():
            raise LayoutError(f'group "{group}" has no room in its region ({region.described()})')
        try:
            placements += place_words(
                members[group],
                shapes,
                shape,
                params,
                seed,
                report=lambda done, total, message, k=k: report(
                    k * total + done,
                    len(groups) * total,
                    f"group {k + 1} of {len(groups)}: " + message,
                ),
            )
        except LayoutError as error:
            raise LayoutError(
                _too_small(group, region, members[group], shapes, shape, params, error)
            ) from None
    return placements, {g: (r, members[g]) for g, r in zip(groups, found, strict=True)}


def _too_small(group, region, names, shapes, shape, params, error) -> str:
    """Why a group's names did not fit its region, and the smallest name size at which
    they would (the size at which they crowd the region to MOST_CROWDING)."""
    least = params.min_font_size or DEFAULT_MIN_FONT_SIZE
    ink = _ink(names, shapes)
    fitting = math.sqrt(MOST_CROWDING * shape.area / ink) if ink else least
    return (
        f'group "{group}" does not fit its region ({region.described()}, {shape.area:,} px): '
        f"{str(error).split(';')[0]}; its names would fit at about {fitting:.1f} px "
        f"(MIN_FONT_SIZE {least:g} px), or give it a larger region"
    )


def across_groups(pairs, placements):
    """The neighbour ``pairs`` (index pairs into ``placements``) whose words are of two
    groups: within a group one colour is the point."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    group = np.array([p.name.group for p in placements], dtype=object)
    return pairs[group[pairs[:, 0]] != group[pairs[:, 1]]] if len(pairs) else pairs


def group_figures(grouped: dict, placements, colors) -> dict:
    """metrics.json's ``groups``: per group its names, names placed, region, the region's
    box coverage, its font sizes and colour (and a strip's columns, first and last + 1)."""
    figures = {}
    for group, (region, names) in grouped.items():
        own = [(p, c) for p, c in zip(placements, colors, strict=True) if p.name.group == group]
        sizes = [p.font_size for p, _ in own]
        figures[group] = {
            "names": len(names),
            "placed": len({p.name.row for p, _ in own}),
            "region": region.described(),
            "box_coverage": box_coverage((p.box for p, _ in own), region.inside),
            "font_size": {"min": min(sizes), "median": statistics.median(sizes), "max": max(sizes)},
            "color": own[0][1],
            **({"columns": list(region.columns)} if region.columns else {}),
        }
    return figures


def group_colors(groups, params: Params, palette: list[str]) -> dict[str, str]:
    """Each group's colour: GROUP_COLORS' as given, the others the palette's in order,
    skipping colours that read as one taken before (colors.alike) while any is left."""
    chosen = dict(_given_colors(groups, params))
    for group in groups:
        if group in chosen:
            continue
        taken = list(chosen.values())
        free = [c for c in palette if not taken or not alike([c, *taken])[0, 1:].any()]
        chosen[group] = free[0] if free else palette[len(chosen) % len(palette)]
    return {g: chosen[g] for g in groups}
