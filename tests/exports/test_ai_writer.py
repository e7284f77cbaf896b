"""The Illustrator 8 file layout: header comments, prolog, layer, body operators."""

import re
import subprocess

import numpy as np
import pytest
from PIL import Image

from core.errors import Unprocessable
from exports.converter import convert
from tests.exports.samples import HAND_MADE, svg_document

BODY_OPERATORS = {
    "m",
    "l",
    "L",
    "c",
    "C",
    "f",
    "F",
    "s",
    "S",
    "b",
    "B",
    "n",
    "N",
    "*u",
    "*U",
    "Xa",
    "XA",
    "XR",
    "w",
    "j",
    "J",
    "M",
    "d",
    "Lb",
    "Ln",
    "LB",
}


def ai_lines(svg: str) -> list[str]:
    return convert(svg.encode(), title="词云 (1).ai").decode("latin-1").splitlines()


def body(lines: list[str]) -> list[str]:
    return lines[lines.index("%AI5_BeginLayer") + 1 : lines.index("%AI5_EndLayer--")]


def test_the_header_is_illustrator_8s():
    lines = ai_lines(svg_document('<rect width="10" height="10"/>', 200, 100))
    assert lines[0] == "%!PS-Adobe-3.0"
    assert lines[1] == "%%Creator: Adobe Illustrator(R) 8.0"
    header = lines[: lines.index("%%EndComments")]
    assert r"%%Title: (\350\257\215\344\272\221 \(1\).ai)" in header
    assert "%%BoundingBox: 0 0 150 75" in header
    assert "%%HiResBoundingBox: 0 0 150.0000 75.0000" in header
    for prefix in (
        "%%For: (",
        "%AI5_FileFormat 4.0",
        "%AI3_ColorUsage: Color",
        "%AI5_ArtSize: 150",
        "%AI5_TargetResolution:",
        "%%DocumentProcessColors:",
    ):
        assert any(line.startswith(prefix) for line in header), prefix
    order = [
        "%%EndComments",
        "%%BeginProlog",
        "%%EndProlog",
        "%%BeginSetup",
        "%%EndSetup",
        "%AI5_BeginLayer",
        "LB",
        "%AI5_EndLayer--",
        "%%PageTrailer",
        "%%Trailer",
        "%%EOF",
    ]
    assert [lines.index(marker) for marker in order] == sorted(
        lines.index(marker) for marker in order
    )


def test_the_prolog_defines_every_operator_the_body_uses():
    lines = ai_lines(HAND_MADE["dashed-strokes"])
    prolog = "\n".join(lines[lines.index("%%BeginProlog") : lines.index("%%EndProlog")])
    used = {line.split()[-1] for line in body(lines) if not line.startswith(("%", "("))}
    assert used <= BODY_OPERATORS
    for operator in used:
        assert re.search(rf"/{re.escape(operator)}\s", prolog), operator


def test_geometry_uses_only_moveto_lineto_curveto_with_y_up():
    lines = body(
        ai_lines(
            svg_document('<path d="M0 0 H10 Q20 0 20 10 A5 5 0 0 1 10 20 Z" fill="red"/>', 40, 40)
        )
    )
    geometry = [line for line in lines if line.split()[-1] in ("m", "l", "c")]
    assert geometry[0] == "0.000 30.000 m"  # SVG (0, 0) is the top-left; 40 px = 30 pt
    assert {line.split()[-1] for line in lines} == {
        "Lb",
        "Ln",
        "XR",
        "Xa",
        "m",
        "l",
        "c",
        "f",
        "LB",
    }


def test_paint_operators_follow_fill_stroke_and_closing():
    lines = body(
        ai_lines(
            svg_document(
                '<rect width="5" height="5" fill="red"/>'
                '<path d="M0 0 L5 5" fill="none" stroke="blue"/>'
                '<rect width="5" height="5" fill="red" stroke="blue"/>'
                '<path d="M0 0 L5 5 L0 5" fill="red" stroke="blue"/>'
                '<polygon points="0,0 5,0 5,5" fill="none" stroke="blue"/>'
            )
        )
    )
    paints = [line for line in lines if line in ("f", "F", "s", "S", "b", "B")]
    assert paints == ["f", "S", "b", "B", "s"]
    assert "1.0000 0.0000 0.0000 Xa" in lines and "0.0000 0.0000 1.0000 XA" in lines


def test_multi_contour_shapes_are_compound_paths_with_their_fill_rule():
    lines = body(ai_lines(HAND_MADE["even-odd-holes"]))
    compounds = [i for i, line in enumerate(lines) if line == "*u"]
    assert len(compounds) == 2  # the square with a hole and the nonzero square with a hole
    rules = [lines[i - 2] if lines[i - 1].endswith("Xa") else lines[i - 1] for i in compounds]
    assert rules == ["1 XR", "0 XR"]
    assert lines.count("*U") == 2


def test_numbers_beyond_float_range_are_refused_not_written():
    with pytest.raises(Unprocessable, match="numbers too large"):
        ai_lines(svg_document('<path d="M0 0 L1e400 5"/>'))
    # an unreadable page size falls back to the default instead
    assert "%%BoundingBox: 0 0 225 113" in ai_lines(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1e999"/>'
    )


def test_ghostscript_without_options_shows_the_whole_page(tmp_path):
    # Given a poster larger than any default paper, with ink in its far corner
    svg = svg_document(
        '<rect width="40" height="40" fill="red"/>'
        '<rect x="1960" y="2960" width="40" height="40" fill="blue"/>',
        2000,
        3000,
    )
    (tmp_path / "poster.ai").write_bytes(convert(svg.encode(), title="poster.ai"))
    # When Ghostscript renders it with no options but the device
    subprocess.run(
        ["gs", "-q", "-sDEVICE=png16m", "-o", "out.png", "poster.ai"],
        cwd=tmp_path,
        check=True,
        timeout=120,
    )
    # Then the page is the artwork (72 dpi: 1 pt a pixel) and both corners are on it
    image = np.asarray(Image.open(tmp_path / "out.png").convert("RGB"))
    assert image.shape[:2] == (2250, 1500)
    assert tuple(image[5, 5]) == (255, 0, 0) and tuple(image[-5, -5]) == (0, 0, 255)
