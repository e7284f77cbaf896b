"""Clean outlines in every output: glyph contours merged (no internal lines, real holes), and
the SVG and the PNG agreeing, read by two independent rasterisers."""

import io
import re

import cairosvg
import fontpkg_inter
import numpy as np
import pytest
import resvg_py
from PIL import Image

from wordclouds.engine import generate
from wordclouds.engine.fonts import DEFAULT_FACE, load_typeface
from wordclouds.engine.outlines import word_outline
from wordclouds.engine.raster import coverage

from .test_shaping import CORPUS

INTER = fontpkg_inter.ROOT / "files" / "Inter[opsz,wght].ttf"  # a variable font
LATIN = [
    "Łukasz Żółć",
    "Antonín Dvořák",
    "Bobby Bauer",
    "Quentin Ødegaard",
    "Agnès Bø",
    "Kaspar Hauser",
    "ABBA 8080",
    "Renée & Co",
]
SIZE = 160


def _inks(svg: str, width: int, height: int) -> dict[str, np.ndarray]:
    """The SVG's ink (alpha 0–1) as drawn by resvg and by cairosvg."""
    by_resvg = Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg))))
    by_cairo = Image.open(
        io.BytesIO(
            cairosvg.svg2png(bytestring=svg.encode(), output_width=width, output_height=height)
        )
    )
    return {
        name: np.asarray(image.convert("RGBA"), dtype=float)[..., 3] / 255
        for name, image in (("resvg", by_resvg), ("cairosvg", by_cairo))
    }


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.minimum(a, b).sum() / np.maximum(a, b).sum())


@pytest.fixture(scope="module")
def inter_run(tmp_path_factory, request):
    from tests.names import write_names

    folder = tmp_path_factory.mktemp("inter")
    out = folder / "out"
    generate(
        names_path=write_names(folder / "names.xlsx", LATIN),
        out_dir=out,
        params={
            "WIDTH": 900,
            "HEIGHT": 500,
            "SEED": 2,
            "BACKGROUND_COLOR": "transparent",
            "MIN_FONT_SIZE": 30,
        },
        font_path=INTER,
    )
    return out


@pytest.mark.parametrize("font", [INTER, None], ids=["inter", "default-chain"])
def test_no_contour_runs_inside_a_letters_ink(font):
    # Given large outlines of names drawn with a variable font, or the default chain
    typeface = load_typeface(font, 0 if font else DEFAULT_FACE)
    for name in LATIN + ([] if font else CORPUS):
        outline = word_outline(name, typeface, vertical=False, style="")
        left, top, width, height = outline.box(SIZE)
        ink = coverage(
            outline.polygon, outline.contour_ends, SIZE, left - 4, top - 4, height + 8, width + 8
        )
        # When each edge of every contour is probed a pixel and a half to either side at a
        # quarter, half and three quarters of its length
        inside = []
        start = 0
        for end in outline.contour_ends:
            points = outline.polygon[start:end] * SIZE - (left - 4, top - 4)
            following = np.roll(points, -1, axis=0)
            edge = following - points
            length = np.hypot(edge[:, 0], edge[:, 1])
            keep = length > 8  # shorter chords sit in corners, where both sides are near ink
            normal = np.column_stack((-edge[keep, 1], edge[keep, 0])) / length[keep, None]
            both = np.ones(np.count_nonzero(keep), dtype=bool)
            for along in (0.25, 0.5, 0.75):
                at = points[keep] + along * edge[keep]
                for side in (-1.5, 1.5):
                    probe = np.rint(at + side * normal).astype(int)
                    rows = np.clip(probe[:, 1], 0, ink.shape[0] - 1)
                    cols = np.clip(probe[:, 0], 0, ink.shape[1] - 1)
                    both &= ink[rows, cols] > 0.9
            inside.append(both)
            start = end
        # Then no edge has ink on both sides: a stroke along it would cut into the letter
        assert not np.concatenate(inside).any(), name


def test_even_odd_and_non_zero_readings_of_the_svg_agree(inter_run):
    svg = (inter_run / "wordcloud.svg").read_text()
    even_odd = svg.replace("<path ", '<path fill-rule="evenodd" ')
    for non_zero, by_even_odd in zip(
        _inks(svg, 900, 500).values(), _inks(even_odd, 900, 500).values()
    ):
        assert _iou(non_zero, by_even_odd) >= 0.999


def test_the_svg_and_the_png_agree_on_every_corpus_name(tmp_path):
    from tests.names import write_names

    out = tmp_path / "out"
    generate(
        names_path=write_names(tmp_path / "names.xlsx", CORPUS),
        out_dir=out,
        params={
            "WIDTH": 1600,
            "HEIGHT": 1200,
            "SEED": 5,
            "MIN_FONT_SIZE": 14,
            "BACKGROUND_COLOR": "transparent",
        },
    )
    png = np.asarray(Image.open(out / "wordcloud.png"), dtype=float)[..., 3] / 255
    svg = (out / "wordcloud.svg").read_text()
    paths = dict(re.findall(r'<path id="(w\d+)" fill="[^"]+" d="([^"]*)"/>', svg))
    assert len(paths) == len(CORPUS) and all(paths.values())
    for rasteriser, ink in _inks(svg, 1600, 1200).items():
        assert _iou(ink, png) >= 0.97, rasteriser
