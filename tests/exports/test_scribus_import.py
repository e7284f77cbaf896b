"""A reader that skips the prolog and parses the Illustrator body itself: Scribus's
legacy-AI importer, run headless, finds the right objects, colours and fill rules."""

import re

import pytest

from exports.converter import convert
from tests.exports.readers import ScribusItem, scribus_import
from tests.exports.samples import fill_styles, svg_document

SHAPES = svg_document(
    """
  <rect x="5" y="5" width="30" height="20" fill="#ff0000"/>
  <path fill-rule="evenodd" fill="#0000ff" d="M40 5 h40 v40 h-40 z M50 15 h20 v20 h-20 z"/>
  <polyline points="5,60 20,45 35,60" fill="none" stroke="#008000" stroke-width="3"/>
  <circle cx="60" cy="70" r="12" fill="#ffcc00" stroke="#333333" stroke-width="2"/>
  <text x="5" y="95" font-size="20" fill="#660099">回A</text>
""",
    100,
    100,
)


@pytest.fixture(scope="module")
def imported():
    # given the .ai files of a few SVGs; when Scribus imports each of them
    styles = fill_styles()
    documents = {"shapes": SHAPES, "dots": styles["dots"], "rings": styles["rings"]}
    files = [convert(svg.encode(), title=f"{name}.ai") for name, svg in documents.items()]
    return dict(zip(documents, scribus_import(files))), documents


def test_each_shape_is_one_object_with_its_colours_and_fill_rule(imported):
    items = imported[0]["shapes"]
    assert items == [
        ScribusItem("polygon", (255, 0, 0), None, even_odd=False, contours=1),
        ScribusItem("polygon", (0, 0, 255), None, even_odd=True, contours=2),
        ScribusItem("polyline", None, (0, 128, 0), even_odd=False, contours=1),
        ScribusItem("polygon", (255, 204, 0), (51, 51, 51), even_odd=False, contours=1),
        # one compound path: 回 is two square rings (four contours), A an outline and its counter
        ScribusItem("polygon", (102, 0, 153), None, even_odd=False, contours=6),
    ]


@pytest.mark.parametrize(
    "style, fill, stroke", [("dots", (204, 34, 51), None), ("rings", None, (34, 51, 204))]
)
def test_every_dot_of_a_fill_style_is_imported(imported, style, fill, stroke):
    items, documents = imported
    circles = len(re.findall("<circle", documents[style]))
    assert circles > 100
    assert len(items[style]) == circles
    assert {(item.fill, item.stroke) for item in items[style]} == {(fill, stroke)}
