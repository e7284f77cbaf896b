"""One word-cloud run: read, shape, lay out, render and write the five artifacts, reporting
progress by stage."""

import json
import os
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np

from .colors import LEAST_CONTRAST, contrast, to_rgb
from .compiled import njit
from .errors import InputError, LayoutError
from .fonts import default_font_path, fallback_fonts
from .layout import WordShapes, place_words
from .mask import load_mask, without
from .names import read_names
from .neighbours import reading_neighbours
from .params import check_shapes, parse_params
from .positions import write_positions
from .print_size import fitting_sheet, print_figures, smallest_px
from .render import contrast_background, render_png, word_colors, write_svgs
from .restamp import INKS, write_inks
from .shaping import check_drawable

STAGES = {  # stage: (percent at its start, percent at its end)
    "reading_names": (0, 5),
    "preparing_mask": (5, 10),
    "loading_font": (10, 15),
    "placing_words": (15, 85),
    "rendering": (85, 95),
    "writing_artifacts": (95, 100),
}
ARTIFACTS = {
    "png": "wordcloud.png",
    "svg": "wordcloud.svg",
    "svg_stroke": "wordcloud-stroke.svg",
    "db": "positions.db",
    "metrics": "metrics.json",
}


class Progress:
    """Reports ``(stage, percent, message)`` to a callback through ``stages`` (stage: its
    percent at start and end), never letting percent go down, and times each stage."""

    def __init__(self, callback, stages=STAGES):
        self.callback = callback or (lambda stage, percent, message: None)
        self.stages = stages
        self.percent = 0
        self.stage = None
        self.started = time.perf_counter()
        self.seconds = {}

    def begin(self, stage: str, message: str) -> None:
        """Close the current stage and start ``stage``."""
        now = time.perf_counter()
        if self.stage:
            self.seconds[self.stage] = round(now - self.started, 3)
        self.stage, self.started = stage, now
        self.update(0.0, message)

    def update(self, fraction: float, message: str) -> None:
        """Report progress ``fraction`` (0–1) through the current stage."""
        low, high = self.stages[self.stage]
        self.percent = max(self.percent, int(low + (high - low) * min(1.0, fraction)))
        self.callback(self.stage, self.percent, message)

    def finish(self, message: str) -> None:
        """Close the last stage at 100 percent."""
        self.update(1.0, message)
        self.seconds[self.stage] = round(time.perf_counter() - self.started, 3)


@contextmanager
def _atomic(path: Path, mode: str = "wb"):
    """A file written as ``<name>.part`` and renamed to ``path`` once complete (removed if
    writing fails)."""
    partial = path.with_name(path.name + ".part")
    try:
        with open(partial, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as file:
            yield file
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, path)


def _write_png_file(out_dir: Path, placements, colors, config, size) -> None:
    with _atomic(out_dir / ARTIFACTS["png"]) as png:
        render_png(placements, colors, config, size, png)


def _coverage(boxes, inside) -> float:
    """The share of the shape's pixels that ``boxes`` (x, y, width, height each) cover."""
    covered = np.zeros_like(inside)
    _cover(covered, np.array(list(boxes), dtype=np.int64).reshape(-1, 4))
    return round(float(np.count_nonzero(covered & inside)) / max(1, np.count_nonzero(inside)), 4)


@njit(cache=True, nogil=True)
def _cover(covered, boxes):
    """Mark every box (x, y, width, height: a row of ``boxes``) in ``covered``."""
    for k in range(boxes.shape[0]):
        x, y, width, height = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
        covered[y : y + height, x : x + width] = True


def _script_counts(names, placements, shapes) -> dict:
    """Per script, how many placed names have text in it and with which font families."""
    placed = {p.name.row for p in placements}
    scripts = {}
    for name in names:
        if name.row not in placed:
            continue
        runs = set(shapes.get(name.text, False)[0].runs)
        for script in {script for script, _ in runs}:
            scripts.setdefault(script, {"names": 0, "fonts": {}})["names"] += 1
        for script, family in runs:
            fonts = scripts[script]["fonts"]
            fonts[family] = fonts.get(family, 0) + 1
    return dict(sorted(scripts.items()))


def _contrast_figures(colors, config) -> dict:
    """The lowest contrast of any word with the background, and a warning when a FONT_COLOR
    the user fixed is below LEAST_CONTRAST (chosen colours never are)."""
    background = contrast_background(config)
    lowest = float(contrast([to_rgb(c) for c in set(colors)], to_rgb(background)).min())
    figures = {"lowest_contrast": round(lowest, 2)}
    if lowest < LEAST_CONTRAST:
        figures["contrast_warning"] = (
            f"FONT_COLOR {config.font_color} has a contrast of {lowest:.2f}:1 with the "
            f"background {background}, below {LEAST_CONTRAST:g}:1: it may not read in print"
        )
    return figures


def _too_small_sentence(error, names, shapes, mask, config, shop_sizes) -> str:
    """Why a poster with a printed size failed, and the smallest A size or size of the
    shop's that would fit."""
    printed = print_figures(config, mask.width, mask.height, [0.0])
    sentence = (
        f"{str(error).split(';')[0]} with every name at least {config.min_name_pt:g} pt at "
        f"{printed['width_mm']:g} × {printed['height_mm']:g} mm"
    )
    sheet = fitting_sheet(names, shapes, mask, config, shop_sizes)
    if sheet is None:
        return sentence + "; no standard size up to 4A0 would hold them at that size"
    name, width, height, shop = sheet
    kind = "size the shop sells" if shop else "standard size"
    return f"{sentence}; the smallest {kind} that would fit is {name} ({width:g} × {height:g} mm)"


def generate(
    *,
    names_path,
    out_dir,
    params: dict,
    mask_path=None,
    font_path=None,
    progress=None,
    shop_sizes=(),
) -> dict:
    """Make a word cloud and write wordcloud.png, wordcloud.svg, wordcloud-stroke.svg,
    positions.db and metrics.json into ``out_dir`` (each written under a temporary name and
    renamed when complete). Returns the metrics.

    ``progress(stage, percent, message)`` is called through the stages reading_names,
    preparing_mask, loading_font, placing_words, rendering, writing_artifacts with a
    percent that never decreases. Raises :class:`InputError` for bad input and
    :class:`LayoutError` when not every name fits; with a printed size, its sentence names
    the smallest A size or of the shop's ``shop_sizes`` (name, width mm or None, height mm
    or None) that would hold them.
    """
    report = Progress(progress)
    report.begin("reading_names", "reading names")
    config = parse_params(params)
    missing_mask = config.mode == "IMAGE" and not mask_path
    with ThreadPoolExecutor(max_workers=1) as helper:
        # The shape is prepared in a second thread while this one reads the names: Pillow's
        # decoding and scaling and numpy release the GIL, so on two cores they overlap. A
        # bad names file is still reported before a bad mask.
        shape = None if missing_mask else helper.submit(load_mask, mask_path, params=config)
        names = read_names(
            names_path,
            column=config.data_col_index,
            skip_rows=config.skip_rows,
            weight_column=config.weight_col_index,
        )

        report.begin("preparing_mask", f"read {len(names)} names; preparing the shape")
        if missing_mask:
            raise InputError("mask_image is required when MODE=IMAGE")
        mask = shape.result()

    report.begin("loading_font", "loading the font")
    font_path = Path(font_path) if font_path else default_font_path()
    typeface = check_drawable(names, font_path, config.locale)
    face = typeface.primary
    seed = config.seed if config.seed is not None else random.randrange(2**31)

    report.begin("placing_words", f"placing {len(names)} names")
    shapes = WordShapes(typeface, config.vertical_style, config.locale)
    check_shapes(config.keep_out, "params.KEEP_OUT", mask.width, mask.height)
    smallest = smallest_px(config, mask.width, mask.height)
    if smallest is not None:  # no name under MIN_NAME_PT at the printed size
        least = max(config.min_font_size or 0.0, round(smallest, 2))
        config = replace(config, min_font_size=least)
        if config.max_font_size is not None and config.max_font_size < least:
            config = replace(config, max_font_size=least)
    try:
        placements = place_words(
            names,
            shapes,
            without(mask, config.keep_out),
            config,
            seed,
            report=lambda done, total, message: report.update(done / max(1, total), message),
        )
    except LayoutError as error:
        if smallest is None:
            raise
        raise LayoutError(
            _too_small_sentence(error, names, shapes, mask, config, shop_sizes)
        ) from None
    placements.sort(key=lambda p: (p.name.row, p.repetition))

    report.begin("rendering", f"drawing {len(placements)} words")
    neighbours = reading_neighbours(
        [p.ink_box for p in placements],
        [p.font_size for p in placements],
        [p.vertical for p in placements],
    )
    colors = word_colors(placements, config, mask, seed, neighbours)
    # Drawn straight into the files (each renamed once complete), never held whole. The PNG
    # is painted in a second thread while this one writes the SVGs and the database: its
    # compiled painting and zlib release the GIL, so on two cores the two overlap.
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    size = (mask.width, mask.height)
    with ThreadPoolExecutor(max_workers=1) as painter:
        png = painter.submit(_write_png_file, out_dir, placements, colors, config, size)
        with (
            _atomic(out_dir / ARTIFACTS["svg"], "w") as fill,
            _atomic(out_dir / ARTIFACTS["svg_stroke"], "w") as stroke,
        ):
            write_svgs(placements, colors, config, size, fill, stroke)

        report.begin("writing_artifacts", "writing files")
        meta = {
            "canvas_width": mask.width,
            "canvas_height": mask.height,
            "seed": seed,
            "params": json.dumps(config.raw, ensure_ascii=False, sort_keys=True),
            "font": font_path.name,
            "font_family": face.family,
            "font_face": face.index,
            "fallback_fonts": [f"{path.name}#{index}" for path, index in fallback_fonts()],
            "vertical_style": config.vertical_style,
            "locale": config.locale,
            "margin": config.margin,
        }
        partial_db = out_dir / (ARTIFACTS["db"] + ".part")
        partial_db.unlink(missing_ok=True)
        write_positions(partial_db, placements, colors, meta)
        os.replace(partial_db, out_dir / ARTIFACTS["db"])
        with _atomic(out_dir / INKS) as inks:  # what a revision stamps the words from
            write_inks(inks, range(1, len(placements) + 1), [p.ink for p in placements])
        sizes = [p.font_size for p in placements]
        weights = [name.weight for name in names]
        metrics = {
            "names_read": len(names),
            "names_placed": len({p.name.row for p in placements}),
            "placements": len(placements),
            "font_size": {"min": min(sizes), "median": statistics.median(sizes), "max": max(sizes)},
            "mask_area": mask.area,
            "box_coverage": _coverage((p.box for p in placements), mask.inside),
            "ink_box_coverage": _coverage((p.ink_box for p in placements), mask.inside),
            "weights": {
                "column": config.weight_col_index,
                "relative_scaling": config.relative_scaling,
                "min": min(weights),
                "max": max(weights),
            },
            "seed": seed,
            "canvas": {"width": mask.width, "height": mask.height},
            "font": {"file": font_path.name, "family": face.family, "face": face.index},
            "scripts": _script_counts(names, placements, shapes),
            "reading_neighbours": len(neighbours),
            **(
                {"print": print_figures(config, mask.width, mask.height, sizes)} if smallest else {}
            ),
            **_contrast_figures(colors, config),
        }
        png.result()
    report.finish("done")
    metrics["stage_seconds"] = report.seconds
    metrics["total_seconds"] = round(sum(report.seconds.values()), 3)
    with _atomic(out_dir / ARTIFACTS["metrics"]) as file:
        file.write(json.dumps(metrics, ensure_ascii=False, indent=2).encode())
    return metrics
