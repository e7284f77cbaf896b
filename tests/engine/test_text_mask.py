"""Text as the mask (MODE=TEXT, docs/engine.md): the letters' outlines are the shape, their
counters holes; every word's outline as drawn in wordcloud.svg lies inside the letters; bad
text is refused naming the problem."""

import numpy as np
import pytest
import shapely

from tests.names import latin_names, write_names
from wordclouds.engine import InputError, generate, load_mask, parse_params, path_contours
from wordclouds.engine.render import svg_outlines

# Counters each letter has (8 and B two, 0 and 口 one, 1 none).
COUNTERS = {"8": 2, "B": 2, "0": 1, "口": 1, "1": 0}


def outline_polygon(d: str) -> shapely.Geometry:
    """A word's filled outline (its contours even-odd) from its SVG path data."""
    shape = shapely.Polygon()
    for contour in path_contours(d, 0.05):
        shape = shapely.symmetric_difference(shape, shapely.make_valid(shapely.Polygon(contour)))
    return shape


def test_the_letters_are_the_shape_with_their_counters_as_holes():
    params = parse_params({"MASK_TEXT": "8B0\n口1", "WIDTH": 600, "HEIGHT": 500})
    mask = load_mask(None, params=params)
    assert (mask.width, mask.height) == (600, 500) and mask.letters.texts == list("8B0口1")
    for text, letter in zip(mask.letters.texts, mask.letters.polygons(), strict=True):
        holes = [ring for part in getattr(letter, "geoms", [letter]) for ring in part.interiors]
        assert len(holes) == COUNTERS[text], text
        for hole in holes:  # no pixel in a counter may be drawn in
            x, y = shapely.Polygon(hole).representative_point().coords[0]
            assert not mask.inside[int(y), int(x)]
    ys, xs = np.nonzero(mask.inside)
    shape = shapely.union_all(mask.letters.polygons())
    centres = shapely.points(xs + 0.5, ys + 0.5)
    assert shapely.contains(shape, centres).all()  # every inside pixel lies in a letter


@pytest.mark.parametrize(("text", "width"), [("2026", 900), ("毕业快乐", 1000)])
def test_every_word_lies_inside_the_letters(tmp_path, text, width):
    names = write_names(tmp_path / "names.xlsx", latin_names(90, 4))
    params = {"MASK_TEXT": text, "WIDTH": width, "SEED": 4}
    metrics = generate(names_path=names, out_dir=tmp_path / "out", params=params)
    assert metrics["names_placed"] == metrics["names_read"] == 90
    letters = load_mask(None, params=parse_params(params)).letters
    shape = shapely.union_all(letters.polygons()).buffer(0.1)  # the SVG's 0.1 px rounding
    outlines = svg_outlines((tmp_path / "out" / "wordcloud.svg").read_text())
    assert len(outlines) == 90
    outside = [i for i, d in outlines.items() if not shape.contains(outline_polygon(d))]
    assert outside == []


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        ({"MASK_TEXT": ""}, "params.MASK_TEXT must not be empty"),
        ({"MASK_TEXT": " \n "}, "params.MASK_TEXT must not be blank"),
        ({"MASK_TEXT": "x" * 25}, "params.MASK_TEXT must be at most 24 characters"),
        ({"MASK_TEXT": "AB\n\nCD"}, "params.MASK_TEXT has an empty line"),
        ({"MODE": "TEXT"}, "params.MASK_TEXT is required when MODE=TEXT"),
        ({"MODE": "IMAGE", "MASK_TEXT": "A"}, "params.MASK_TEXT needs MODE TEXT (or no MODE)"),
        ({"MASK_TEXT": 7}, "params.MASK_TEXT must be a string"),
    ],
)
def test_bad_text_is_refused_naming_the_problem(raw, detail):
    with pytest.raises(InputError) as refused:
        load_mask(None, params=parse_params({"WIDTH": 300, "HEIGHT": 200, **raw}))
    assert str(refused.value) == detail


def test_text_without_ink_is_refused():
    with pytest.raises(InputError) as refused:
        load_mask(None, params=parse_params({"MASK_TEXT": "\u200b", "WIDTH": 300}))
    assert str(refused.value) == "params.MASK_TEXT has no letter with ink to fill"


def test_text_the_font_cannot_draw_names_the_characters(latin_font):
    params = parse_params({"MASK_TEXT": "A毕业B", "WIDTH": 400, "HEIGHT": 200})
    with pytest.raises(InputError) as refused:
        load_mask(None, params=params, text_font=latin_font)
    assert "cannot draw: 毕 (U+6BD5), 业 (U+4E1A)" in str(refused.value)
