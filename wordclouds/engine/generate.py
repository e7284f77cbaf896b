"""One word-cloud run: read, shape, lay out, render and write the five artifacts, reporting
progress by stage (progress.py; the files written by artifacts.py)."""

import json
import random
import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from .artifacts import ARTIFACTS, atomic, write_database, write_metrics
from .errors import InputError, LayoutError
from .fonts import default_font_path, fallback_fonts
from .groups import across_groups, group_colors, group_figures, place_groups, region_specs
from .layout import WordShapes
from .mask import load_mask, without
from .metrics import box_coverage, contrast_figures, neighbour_color_figures, script_counts
from .names import read_names
from .neighbours import reading_neighbours
from .params import check_groups, check_shapes, parse_params
from .planning import place_words
from .positions import write_positions
from .print_size import fitting_sheet, print_figures, smallest_px
from .progress import Progress
from .render import readable_palette, render_png, word_colors, write_svgs
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


def _write_png_file(out_dir: Path, placements, colors, config, size) -> None:
    with atomic(out_dir / ARTIFACTS["png"]) as png:
        render_png(placements, colors, config, size, png)


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
    mask_font_path=None,
) -> dict:
    """Make a word cloud and write wordcloud.png, wordcloud.svg, wordcloud-stroke.svg,
    positions.db and metrics.json into ``out_dir`` (each written under a temporary name and
    renamed when complete). Returns the metrics.

    ``progress(stage, percent, message)`` is called through the stages reading_names,
    preparing_mask, loading_font, placing_words, rendering, writing_artifacts with a
    percent that never decreases. Raises :class:`InputError` for bad input and
    :class:`LayoutError` when not every name fits; with a printed size, its sentence names
    the smallest A size or of the shop's ``shop_sizes`` (name, width mm or None, height mm
    or None) that would hold them. ``mask_font_path`` is MASK_TEXT's font (MASK_FONT_ID's
    file; default ``font_path``, else the bundled font).
    """
    report = Progress(progress, STAGES)
    report.begin("reading_names", "reading names")
    config = parse_params(params)
    check_groups(config)
    text_font = mask_font_path or font_path
    names, mask = _names_and_mask(names_path, (mask_path, text_font), config, report)

    report.begin("loading_font", "loading the font")
    font_path = Path(font_path) if font_path else default_font_path()
    typeface = check_drawable(names, font_path, config.locale)
    seed = config.seed if config.seed is not None else random.randrange(2**31)

    report.begin("placing_words", f"placing {len(names)} names")
    shapes = WordShapes(typeface, config.vertical_style, config.locale)
    check_shapes(config.keep_out, "params.KEEP_OUT", mask.width, mask.height)
    config, smallest = _printable(config, mask)
    placements, grouped = _placed(names, shapes, mask, config, seed, (smallest, shop_sizes), report)
    run = (names, placements, shapes, mask, config, seed, grouped)
    report.begin("rendering", f"drawing {len(placements)} words")
    metrics = _write_files(Path(out_dir), run, font_path, typeface.primary, smallest, report)
    write_metrics(Path(out_dir), metrics, report)
    return metrics


def _placed(names, shapes, mask, config, seed, printed, report):
    """The placements (spreadsheet order) and, with groups, each group's region and names
    (groups.place_groups; else None); a printed size's failure names the size that fits
    (``printed``: the smallest px of the printed size, or None, and the shop's sizes)."""
    smallest, shop_sizes = printed
    place = place_groups if config.group_col_index is not None else place_words
    try:
        placed = place(
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
    placements, grouped = placed if config.group_col_index is not None else (placed, None)
    placements.sort(key=lambda p: (p.name.row, p.repetition))
    return placements, grouped


def _names_and_mask(names_path, mask_files, config, report):
    """The names read and the shape prepared (``mask_files``: the mask image and the text
    font, either None), the shape in a second thread while this one reads the names:
    Pillow's decoding and scaling and numpy release the GIL, so on two cores they overlap.
    A bad names file is still reported before a bad mask."""
    mask_path, text_font = mask_files
    missing_mask = config.mode == "IMAGE" and not mask_path
    with ThreadPoolExecutor(max_workers=1) as helper:
        shape = None
        if not missing_mask:
            shape = helper.submit(load_mask, mask_path, params=config, text_font=text_font)
        names = read_names(
            names_path,
            column=config.data_col_index,
            skip_rows=config.skip_rows,
            weight_column=config.weight_col_index,
            group_column=config.group_col_index,
        )
        report.begin("preparing_mask", f"read {len(names)} names; preparing the shape")
        if missing_mask:
            raise InputError("mask_image is required when MODE=IMAGE")
        return names, shape.result()


def _printable(config, mask):
    """``config`` with no name under MIN_NAME_PT at the printed size (its sizes raised to
    the smallest px that holds it), and that px, or None without a printed size."""
    smallest = smallest_px(config, mask.width, mask.height)
    if smallest is not None:
        least = max(config.min_font_size or 0.0, round(smallest, 2))
        config = replace(config, min_font_size=least)
        if config.max_font_size is not None and config.max_font_size < least:
            config = replace(config, max_font_size=least)
    return config, smallest


def _write_files(out_dir: Path, run, font_path, face, smallest, report) -> dict:
    """The words coloured and drawn straight into the files (each renamed once complete),
    never held whole; the metrics but the stage times. The PNG is painted in a second
    thread while this one writes the SVGs and the database: its compiled painting and zlib
    release the GIL, so on two cores the two overlap."""
    names, placements, shapes, mask, config, seed, grouped = run
    neighbours = reading_neighbours(
        [p.ink_box for p in placements],
        [p.font_size for p in placements],
        [p.vertical for p in placements],
    )
    if grouped is None:
        colors = word_colors(placements, config, mask, seed, neighbours)
    else:  # a group is one colour: neighbours of two groups are told apart by it
        by_group = group_colors(list(grouped), config, readable_palette(config))
        colors = [by_group[p.name.group] for p in placements]
    out_dir.mkdir(parents=True, exist_ok=True)
    size = (mask.width, mask.height)
    with ThreadPoolExecutor(max_workers=1) as painter:
        png = painter.submit(_write_png_file, out_dir, placements, colors, config, size)
        with (
            atomic(out_dir / ARTIFACTS["svg"], "w") as fill,
            atomic(out_dir / ARTIFACTS["svg_stroke"], "w") as stroke,
        ):
            write_svgs(placements, colors, config, size, fill, stroke, grouped and list(grouped))

        report.begin("writing_artifacts", "writing files")
        meta = _meta(mask, seed, config, font_path, face)
        if grouped is not None:  # where a revision puts a group's added names
            meta["groups"] = region_specs(grouped)
        write_database(out_dir, lambda path: write_positions(path, placements, colors, meta))
        with atomic(out_dir / INKS) as inks:  # what a revision stamps the words from
            write_inks(inks, range(1, len(placements) + 1), [p.ink for p in placements])
        metrics = _metrics(run, colors, neighbours, font_path, face, smallest)
        png.result()
    return metrics


def _meta(mask, seed, config, font_path, face) -> dict:
    """positions.db's ``meta``: all that is needed to redraw each outline from the font."""
    return {
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


def _metrics(run, colors, neighbours, font_path, face, smallest) -> dict:
    """metrics.json's figures of the run, but its stage times."""
    names, placements, shapes, mask, config, seed, grouped = run
    sizes = [p.font_size for p in placements]
    weights = [name.weight for name in names]
    return {
        "names_read": len(names),
        "names_placed": len({p.name.row for p in placements}),
        "placements": len(placements),
        "font_size": {"min": min(sizes), "median": statistics.median(sizes), "max": max(sizes)},
        "mask_area": mask.area,
        "box_coverage": box_coverage((p.box for p in placements), mask.inside),
        "ink_box_coverage": box_coverage((p.ink_box for p in placements), mask.inside),
        "weights": {
            "column": config.weight_col_index,
            "relative_scaling": config.relative_scaling,
            "min": min(weights),
            "max": max(weights),
        },
        "seed": seed,
        "canvas": {"width": mask.width, "height": mask.height},
        "font": {"file": font_path.name, "family": face.family, "face": face.index},
        "scripts": script_counts(names, placements, shapes),
        "reading_neighbours": len(neighbours),
        **({"print": print_figures(config, mask.width, mask.height, sizes)} if smallest else {}),
        **contrast_figures(colors, config),
        **neighbour_color_figures(
            colors, across_groups(neighbours, placements) if grouped else neighbours, config
        ),
        **({"groups": group_figures(grouped, placements, colors)} if grouped else {}),
    }
