"""The .ai draws what the SVG draws: resvg renders the SVG, Ghostscript renders the .ai at
the same pixel size, and their ink agrees (intersection over union >= 0.97)."""

import pytest

from exports.converter import convert
from tests.exports.readers import ink, ink_iou, render_ai, render_svg
from tests.exports.samples import HAND_MADE, fill_styles

MIN_IOU = 0.97


def assert_same_ink(svg: str):
    # given an SVG rendered by resvg at twice its size
    expected = render_svg(svg, zoom=2.0)
    height, width = expected.shape[:2]
    # when it is converted and Ghostscript renders the .ai at 2 x 96 dpi
    drawn = render_ai(convert(svg.encode(), title="t.ai"), width=width, height=height, dpi=192)
    # then both have ink in the same places
    assert ink(expected).sum() > 200, "the sample must draw something"
    assert ink_iou(expected, drawn) >= MIN_IOU


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_hand_made_svg_renders_the_same(name):
    assert_same_ink(HAND_MADE[name])


@pytest.mark.parametrize("style", ["dots", "lines", "rings"])
def test_fill_style_renders_the_same(style):
    assert_same_ink(fill_styles()[style])


def test_a_shape_moved_by_one_tenth_of_its_size_is_detected():
    # the measure itself can fail: a displaced square loses well over 3 % of its ink overlap
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect x="{x}" y="20" width="50" height="50"/></svg>'
    expected = render_svg(svg.format(x=20))
    drawn = render_ai(convert(svg.format(x=25).encode(), title="t.ai"), width=200, height=200)
    assert ink_iou(expected, drawn) < MIN_IOU
