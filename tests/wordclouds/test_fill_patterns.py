"""The line fill, which clips the glyph outlines to the strips before making any polygon,
against a raster reference: the outlines filled by the nonzero rule (resvg) and clipped to
the strips (an SVG clip path), rendered at 4x."""

import io
import math

import numpy as np
import pytest
import resvg_py
import shapely
from PIL import Image

from wordclouds.drawing.custom_svg import _path_elements
from wordclouds.drawing.fill_patterns import line_fill

SIZE = 60
CIRCLE = 0.5523  # cubic control distance for a quarter circle of radius 1


def square(x, y, side, clockwise=False):
    corners = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
    if clockwise:
        corners.reverse()
    return "M" + "L".join(f"{a} {b}" for a, b in corners) + "Z"


def circle(cx, cy, r, clockwise=False):
    """A circle of four cubics, counter-clockwise on screen unless `clockwise`."""
    k, s = CIRCLE * r, -1 if clockwise else 1
    return (
        f"M{cx + r} {cy}"
        f"C{cx + r} {cy - s * k} {cx + k} {cy - s * r} {cx} {cy - s * r}"
        f"C{cx - k} {cy - s * r} {cx - r} {cy - s * k} {cx - r} {cy}"
        f"C{cx - r} {cy + s * k} {cx - k} {cy + s * r} {cx} {cy + s * r}"
        f"C{cx + k} {cy + s * r} {cx + r} {cy + s * k} {cx + r} {cy}Z"
    )


GLYPHS = {
    # a counter: the inner contour runs the other way and stays empty
    "口": square(5, 5, 40) + square(15, 15, 20, clockwise=True),
    # curved outlines with a counter
    "o": circle(30, 30, 22) + circle(30, 30, 12, clockwise=True),
    # a contour leaving strips and coming back (its clipped rings run along the strips'
    # lines), around a counter
    "凹": "M5 5L5 45L45 45L45 5L30 5L30 20L25 20L25 5Z" + square(10, 8, 8),
    # overlapping contours of one direction (variable fonts): filled once, no seam
    "overlap": square(5, 5, 30) + square(20, 20, 30),
    # a contour inside one of the same direction: winding 2, filled, not a hole
    "nested": square(5, 5, 45) + square(15, 15, 20),
}


def coverage(svg: str) -> np.ndarray:
    png = resvg_py.svg_to_bytes(svg_string=svg, zoom=4)
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGBA"))[:, :, 3] / 255.0


def document(body: str, defs: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
        f'viewBox="0 0 {SIZE} {SIZE}"><defs>{defs}</defs>{body}</svg>'
    )


def reference(path_d: str, pitch: float, width: float, angle: float) -> np.ndarray:
    """The glyph filled by the nonzero rule, clipped to the strips by SVG's own clipping."""
    strips = "".join(
        f'<rect x="{-2 * SIZE}" y="{k * pitch - width / 2}" width="{4 * SIZE}" '
        f'height="{width}" transform="rotate({angle})"/>'
        for k in range(-2 * SIZE, 2 * SIZE)
    )
    defs = f'<clipPath id="strips">{strips}</clipPath>'
    return coverage(document(f'<path d="{path_d}" clip-path="url(#strips)"/>', defs))


@pytest.mark.parametrize("glyph", GLYPHS)
@pytest.mark.parametrize("pitch, width, angle", [(6, 2, 0), (5, 3, 30), (7, 1.5, -60)])
def test_line_fill_covers_what_the_clipped_glyph_covers(glyph, pitch, width, angle):
    strips, owner = line_fill([GLYPHS[glyph]], pitch=pitch, width=width, angle=angle)

    assert len(strips) and set(owner.tolist()) == {0}
    drawn = coverage(document("".join(_path_elements(strips, 'fill="#000000"'))))
    expected = reference(GLYPHS[glyph], pitch, width, angle)
    assert np.abs(drawn - expected).sum() <= 0.01 * expected.sum()
    if angle == 0:  # turned back at other angles, coordinates move by rounding
        assert shapely.is_valid(strips).all()


def test_strips_of_several_words_go_to_their_words():
    paths = [GLYPHS["口"], "", GLYPHS["o"]]

    strips, owner = line_fill(paths, pitch=6, width=2, angle=0)

    assert set(owner.tolist()) == {0, 2}
    areas = np.bincount(owner, weights=shapely.area(strips), minlength=3)
    alone = [shapely.area(line_fill([d], pitch=6, width=2, angle=0)[0]).sum() for d in paths]
    assert areas == pytest.approx(alone)


@pytest.mark.parametrize(
    "pitch, width, angle",
    [(3, 5e-324, 0), (5000, 1, 0), (0.01, 0.001, 33), (6, 1, 360), (6, 1, -360)],
)
def test_extreme_strips_give_valid_output_or_none(pitch, width, angle):
    strips, owner = line_fill([GLYPHS["o"]], pitch=pitch, width=width, angle=angle)

    assert len(strips) == len(owner)
    assert not shapely.is_empty(strips).any()
    area = shapely.area(strips).sum()
    assert area <= shapely.area(shapely.Point(30, 30).buffer(22)) * min(1, width / pitch) * 1.1
    if width < 1e-300:
        assert len(strips) == 0
    if angle % 360 == 0 and pitch == 6:  # a full turn is no turn
        level, _ = line_fill([GLYPHS["o"]], pitch=6, width=1, angle=0)
        assert math.isclose(area, shapely.area(level).sum())
