"""The SVG reader: geometry, transforms, viewports, styles and what it refuses."""

import pytest
from PIL import ImageColor

from core.errors import InvalidInput, Unprocessable
from exports.svg_reader import read_svg
from exports.svg_style import parse_colour
from tests.exports.samples import svg_document
from wordclouds.engine.svg_geometry import parse_transform


def shapes_of(body: str, width: int = 100, height: int = 100):
    return list(read_svg(svg_document(body, width, height).encode()).shapes)


def test_transform_lists_compose_left_to_right():
    a, b, c, d, e, f = parse_transform("translate(10 20) rotate(90) scale(2)")
    # the point (1, 0): scaled to (2, 0), rotated to (0, 2), translated to (10, 22)
    assert (a * 1 + e, b * 1 + f) == pytest.approx((10, 22))
    assert parse_transform("rotate(90 5 5)")[4:] == pytest.approx((10, 0))


def test_nested_group_transforms_and_the_viewbox_reach_the_page_in_points():
    # given a 200 px wide viewport onto a 100-unit viewBox, and two nested translations
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 100 50">'
        '<g transform="translate(10 0)"><g transform="translate(0 5)"><rect width="1" height="1"/></g></g></svg>'
    )
    drawing = read_svg(svg.encode())
    # then the page is 150 x 75 pt and the rect starts at (10, 5) * 2 px * 0.75 pt/px
    assert (drawing.width, drawing.height) == (150.0, 75.0)
    shape = next(drawing.shapes)
    a, b, c, d, e, f = shape.matrix
    x, y = shape.subpaths[0].start
    assert (a * x + c * y + e, b * x + d * y + f) == pytest.approx((15.0, 7.5))


def test_absolute_units_keep_their_size():
    drawing = read_svg(b'<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="1in"/>')
    assert drawing.width == pytest.approx(100 / 25.4 * 72)
    assert drawing.height == pytest.approx(72)


def test_style_attribute_beats_presentation_attribute_and_values_inherit():
    [first, second] = shapes_of(
        '<g fill="#00ff00" stroke="blue" stroke-width="4">'
        '<rect width="5" height="5" fill="red" style="fill: #0000ff"/>'
        '<rect width="5" height="5" stroke="currentColor" color="rgb(100%, 0%, 0%)"/></g>'
    )
    assert first.fill == (0.0, 0.0, 1.0) and first.stroke == (0.0, 0.0, 1.0)
    assert second.fill == (0.0, 1.0, 0.0) and second.stroke == (1.0, 0.0, 0.0)
    assert second.stroke_width == pytest.approx(4 * 0.75)


def test_stroke_parameters_are_read_and_scaled_with_the_transform():
    [shape] = shapes_of(
        '<path d="M0 0 H10" fill="none" stroke="#abc" stroke-width="2" transform="scale(3)" '
        'stroke-linecap="round" stroke-linejoin="bevel" stroke-miterlimit="7" '
        'stroke-dasharray="1 2 3" stroke-dashoffset="1"/>'
    )
    scale = 3 * 0.75
    assert shape.fill is None and shape.stroke == pytest.approx(
        (0xAA / 255, 0xBB / 255, 0xCC / 255)
    )
    assert shape.stroke_width == pytest.approx(2 * scale)
    assert (shape.linecap, shape.linejoin, shape.miterlimit) == (1, 2, 7.0)
    assert shape.dash == pytest.approx([v * scale for v in (1, 2, 3, 1, 2, 3)])
    assert shape.dash_offset == pytest.approx(scale)


def test_hidden_and_unpainted_elements_draw_nothing():
    assert (
        shapes_of(
            '<rect width="5" height="5" display="none"/>'
            '<g visibility="hidden"><rect width="5" height="5"/></g>'
            '<rect width="5" height="5" fill="none"/>'
            '<rect width="0" height="5"/>'
        )
        == []
    )


def test_rounded_rect_radii_are_clamped_to_half_the_side():
    [shape] = shapes_of('<rect width="20" height="10" rx="50"/>')
    xs = [shape.subpaths[0].start[0]] + [seg[-2] for seg in shape.subpaths[0].segments]
    assert min(xs) == pytest.approx(0) and max(xs) == pytest.approx(20)
    assert shape.subpaths[0].start == pytest.approx((10, 0))


def test_use_is_expanded_with_its_offset():
    [original, copy] = shapes_of(
        '<defs><circle id="c" r="2"/></defs><use href="#c" x="1"/>'
        '<use xlink:href="#c" x="10" y="20"/>'
    )
    assert copy.subpaths[0].start == original.subpaths[0].start
    assert copy.matrix[4] - original.matrix[4] == pytest.approx(9 * 0.75)


def test_a_use_that_contains_itself_is_refused():
    with pytest.raises(Unprocessable):
        shapes_of('<g id="loop"><use href="#loop"/></g>')


def test_text_becomes_filled_outlines():
    [shape] = shapes_of('<text x="10" y="50" font-size="40" fill="#123456">回</text>')
    assert len(shape.subpaths) == 4 and shape.stroke is None
    assert shape.fill == pytest.approx((0x12 / 255, 0x34 / 255, 0x56 / 255))


@pytest.mark.parametrize("svg", [b"", b"<svg", b"<root/>", "<svg>é</svg>".encode("latin-1")])
def test_not_svg_is_invalid(svg):
    with pytest.raises(InvalidInput, match="svg is not valid SVG"):
        read_svg(svg)


@pytest.mark.parametrize(
    "body, found",
    [
        ('<rect width="5" height="5" fill="rgba(0,0,0,0.5)"/>', "opacity"),
        ('<rect width="5" height="5" fill="#0008"/>', "opacity"),
        ('<rect width="5" height="5" fill="url(#nowhere)"/>', "paint server"),
        ('<path d="M0 0 L5 5" marker-end="url(#m)"/>', "marker"),
        ("<style>rect { fill: red }</style>", "style sheet"),
        ("<foreignObject/>", "foreignObject"),
        ('<rect width="5" height="5" opacity="0.4" fill-opacity="0.2"/>', "fill-opacity, opacity"),
    ],
)
def test_unsupported_content_is_named(body, found):
    with pytest.raises(Unprocessable, match=f"^svg uses unsupported content: {found}$"):
        shapes_of(body)


def test_opacity_of_one_is_fine():
    assert len(shapes_of('<rect width="5" height="5" opacity="1" fill-opacity="100%"/>')) == 1


def test_colour_names_read_the_same_after_pillow_has_parsed_them():
    # Pillow's getrgb() rewrites its shared colour table in place (name -> tuple).
    ImageColor.getrgb("olive")

    assert parse_colour("olive") == (128 / 255, 128 / 255, 0.0, 1.0)
