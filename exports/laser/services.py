"""Laser files of a job (docs/exports.md, "Laser files"): its names in custom.svg's fill
style (`fill` or `line`, the fills that are closed outlines; dots and rings are a laser
tool's own fill settings) as closed outlines in mm, the mask's outline as the cut line, as DXF
or as an SVG of a real size, drawn in a forked child with the heavy-work limits; and the
minimum-detail check against the beam. The job's custom.svg and mask come from wordclouds'
face, wordclouds/services/designs.py."""

from collections.abc import Mapping
from dataclasses import dataclass

from core.inputs import Boolean, Choice, Inputs, Number
from core.isolated import run_heavy
from exports.laser.drawing import (
    dxf_document,
    mask_outline,
    piece,
    svg_document,
    word_ids,
    word_paths,
)
from exports.pdf.options import SIZE_MAX_MM, SIZE_MIN_MM
from wordclouds.services.designs import (
    custom_svg_options,
    custom_svg_render,
    job_mask,
    job_word_groups,
)

KINDS = {"dxf": ("image/vnd.dxf", "dxf"), "laser.svg": ("image/svg+xml", "laser.svg")}
LASER_FILLS = ("fill", "line")  # the custom.svg fills drawn as closed outlines
LINE_OPTIONS = ("line_spacing", "line_width", "line_angle")  # custom.svg's, for fill=line


@dataclass(frozen=True)
class LaserOptions:
    fill: str = "fill"
    width_mm: float | None = None  # None: from height_mm, or the outline at 96 px per inch
    height_mm: float | None = None
    beam_mm: float = 0.1
    hatch: bool = False
    hairline: bool = False


LASER_OPTIONS = Inputs(
    LaserOptions,
    (
        Choice(
            "fill",
            "fill: each glyph's outline; line: the strips of custom.svg's line fill "
            f"({', '.join(LINE_OPTIONS)}, as custom.svg reads them)",
            choices=LASER_FILLS,
        ),
        Number(
            "width_mm",
            "the piece's width, mm: the width of the cut outline (the mask's outline, the "
            "canvas without a mask); absent: its own size at 96 px per inch",
            low=SIZE_MIN_MM,
            high=SIZE_MAX_MM,
        ),
        Number(
            "height_mm",
            "the piece's height, mm, when no width is given (the width follows its aspect)",
            low=SIZE_MIN_MM,
            high=SIZE_MAX_MM,
        ),
        Number(
            "beam_mm",
            "the laser's beam width, mm: names whose strokes are thinner are counted",
            low=0.01,
            high=5,
        ),
        Boolean("hatch", "DXF: a HATCH fill of each word beside its outlines, for fill engraving"),
        Boolean(
            "hairline",
            "laser SVG: names as 0.025 mm hairline outlines (vector engraving) instead of "
            "black fills",
        ),
    ),
)


@dataclass(frozen=True)
class LaserFile:
    content: bytes
    filename: str
    content_type: str
    names: int  # names drawn
    thin_names: int  # names whose mean stroke is thinner than the beam
    beam_mm: float
    width_mm: float
    height_mm: float


def job_laser(*, job_id: str, kinds: tuple[str, ...], query: Mapping) -> list[LaserFile]:
    """The job's laser files of ``kinds`` (`dxf`, `laser.svg`) at the asked width, drawn
    once for all of them. 400 with a code for a bad option; 404 for a job that is not
    there."""
    options = LASER_OPTIONS.parse(query)
    line_fill = {name: query.get(name) for name in ("fill", *LINE_OPTIONS)}
    # Only the fill and its line options: no stroke (a second outline of each word).
    svg = custom_svg_render(job_id=job_id, options=custom_svg_options(line_fill))
    inside = job_mask(job_id=job_id)
    by_id = job_word_groups(job_id=job_id)
    groups = [by_id.get(word_id, "") for word_id in word_ids(svg)]
    return run_heavy(
        f"{' and '.join(kinds)} export", laser_files, svg, inside, options, kinds,
        f"wordcloud-{job_id}", groups,
    )  # fmt: skip


def laser_files(
    svg: str, inside, options: LaserOptions, kinds, stem: str, groups=None
) -> list[LaserFile]:
    """The laser files of a custom.svg document and the drawable shape (None: the canvas),
    one per kind, from one drawing of the piece; ``groups``: each word's group (the DXF
    and the laser SVG draw each group on its own layer)."""
    width, height = _canvas(svg)
    drawn = piece(
        word_paths(svg),
        mask_outline(inside, width, height),
        width_mm=options.width_mm,
        height_mm=options.height_mm,
    )
    inked = drawn.strokes_mm[[bool(contours) for contours in drawn.words]]
    size = f"{round(drawn.width_mm, 1):g}x{round(drawn.height_mm, 1):g}mm"
    made = []
    for kind in kinds:
        if kind == "dxf":
            content = dxf_document(drawn, hatch=options.hatch, groups=groups)
        else:
            content = svg_document(drawn, hairline=options.hairline, groups=groups)
        content_type, extension = KINDS[kind]
        made.append(
            LaserFile(
                content=content,
                filename=f"{stem}-{size}.{extension}",
                content_type=content_type,
                names=len(inked),
                thin_names=int((inked < options.beam_mm).sum()),
                beam_mm=options.beam_mm,
                width_mm=drawn.width_mm,
                height_mm=drawn.height_mm,
            )
        )
    return made


def _canvas(svg: str) -> tuple[float, float]:
    """custom.svg's canvas (its first width and height attributes, px)."""
    head = svg[: svg.index(">")]
    width = head.split('width="', 1)[1].split('"', 1)[0]
    height = head.split('height="', 1)[1].split('"', 1)[0]
    return float(width), float(height)
