"""The layout's promises about every word hold on every layout, not on one seed: over layouts
drawn by a fixed generator (seed, shape, name list, canvas, NAME_GAP, VERTICAL_STYLE,
PREFER_HORIZONTAL, weights, N_REPETITIONS, palette), measured from the outlines in
wordcloud.svg and the pixels of wordcloud.png:
- reading-direction neighbours are at least NAME_GAP em of the smaller apart,
- neighbours never share a colour (palettes of five and ten colours: see docs/engine.md
  for smaller ones), and neighbours of similar size never have colours that read as one
  (CIEDE2000 at least 15, and 10 under a deuteranopia simulation),
- every name is placed,
- no ink lies outside the shape.
A failing layout is named by its index and parameters, so it reproduces alone."""

import math
import random

import numpy as np
import openpyxl
import pytest
from PIL import Image, ImageDraw

from tests.names import latin_names
from wordclouds.engine import generate, load_mask, parse_params

from .name_gap_rule import measure

LAYOUTS = 32
SHAPES = ("heart", "holes", "thin", "rectangle")
LISTS = ("latin", "cjk", "mixed")
# A small palette of colours far apart (colors.alike). Fewer colours cannot always hold: a
# large name with small ones stacked beside it, themselves in a row, can make four names each
# other's neighbours.
FIVE_COLOURS = ["#123060", "#B40006", "#AE8A0C", "#0C6C48", "#C666EA"]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞宇轩怡永建国"


def heart_mask(path, side):
    """A filled heart (the parametric heart curve) on white, like the benchmark's shape."""
    t = np.linspace(0, 2 * math.pi, 400)
    x = 16 * np.sin(t) ** 3
    y = 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
    scale = side / 36
    points = list(zip(side / 2 + scale * x, side / 2.2 - scale * y, strict=True))
    image = Image.new("RGB", (side, side), "white")
    ImageDraw.Draw(image).polygon(points, fill="black")
    image.save(path)


def holes_mask(path, side):
    """A disc with three round holes."""
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((4, 4, side - 4, side - 4), fill="black")
    for cx, cy in ((0.35, 0.35), (0.65, 0.4), (0.5, 0.7)):
        r = side * 0.1
        draw.ellipse((cx * side - r, cy * side - r, cx * side + r, cy * side + r), fill="white")
    image.save(path)


def thin_mask(path, side):
    """A long thin band, a fifth of the canvas's height, across a wide canvas."""
    width, height = side * 2, side // 2
    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).rounded_rectangle(
        (4, height * 3 // 10, width - 4, height * 7 // 10), radius=height // 10, fill="black"
    )
    image.save(path)


def cjk_names(count, rng):
    return [
        rng.choice(SURNAMES) + "".join(rng.sample(GIVEN, rng.randint(1, 2))) for _ in range(count)
    ]


def write_list(path, names, weights):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["name", "weight"])
    for name, weight in zip(names, weights or [None] * len(names), strict=True):
        sheet.append([name, weight])
    workbook.save(path)


def layouts():
    """The fixed generator: every shape, list and weighting comes round in turn, the rest
    is drawn."""
    rng = random.Random(29)
    cases = []
    for index in range(LAYOUTS):
        shape = SHAPES[index % len(SHAPES)]
        kind = LISTS[index % len(LISTS)]
        cases.append(
            {
                "index": index,
                "seed": rng.randrange(1, 10_000),
                "shape": shape,
                "list": kind,
                "side": rng.choice((320, 400, 480)),
                "name_gap": rng.choice((0.0, 0.3, 0.3, 0.6, 1.0)),
                "vertical_style": rng.choice(("rotate", "stack", "auto")),
                "prefer_horizontal": rng.choice((1.0, 0.9, 0.6)),
                "weights": index % 2 == 1,
                "repetitions": rng.choice((1, 1, 2, 4)),
                "palette": rng.choice((None, FIVE_COLOURS)),
            }
        )
    return cases


def _case_id(case):
    return "-".join(str(case[k]) for k in ("index", "shape", "list", "seed"))


@pytest.mark.parametrize("case", layouts(), ids=_case_id)
def test_every_layout_keeps_its_promises(case, tmp_path):
    rng = random.Random(case["seed"])
    side = case["side"]
    mask = tmp_path / "mask.png"
    params = {
        "SEED": case["seed"],
        "NAME_GAP": case["name_gap"],
        "VERTICAL_STYLE": case["vertical_style"],
        "PREFER_HORIZONTAL": case["prefer_horizontal"],
        "N_REPETITIONS": case["repetitions"],
    }
    if case["palette"]:
        params["PALETTE"] = case["palette"]
    if case["shape"] == "rectangle":
        params.update(WIDTH=side, HEIGHT=side * 3 // 4)
        mask = None
    else:
        {"heart": heart_mask, "holes": holes_mask, "thin": thin_mask}[case["shape"]](mask, side)
        params["MODE"] = "IMAGE"
    # One name per 1,600 px² of canvas: crowded, so that many words have neighbours.
    count = side * side // 1600
    names = {
        "latin": lambda: latin_names(count, case["seed"]),
        "cjk": lambda: cjk_names(count, rng),
        "mixed": lambda: latin_names(count // 2, case["seed"]) + cjk_names(count // 2, rng),
    }[case["list"]]()
    weights = [round(rng.uniform(0.5, 20), 1) for _ in names] if case["weights"] else None
    if weights:
        params["WEIGHT_COL_INDEX"] = 1
    write_list(tmp_path / "names.xlsx", names, weights)

    metrics = generate(
        names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "out", params=params, mask_path=mask
    )

    assert metrics["names_placed"] == metrics["names_read"]
    found = measure(tmp_path / "out", case["name_gap"])
    if case["name_gap"] < 1:  # a gap of an em leaves neighbours only beside larger words
        assert found.pairs >= metrics["placements"] / 10
    assert found.close == []
    assert found.same_color == []
    assert found.alike == []
    assert metrics["least_neighbour_difference"]["ciede2000"] >= 15
    assert "palette_warning" not in metrics
    inside = load_mask(mask, params=parse_params(params)).inside if mask else None
    if inside is not None:
        pixels = np.asarray(Image.open(tmp_path / "out" / "wordcloud.png").convert("RGB"))
        inked = (pixels != 255).any(axis=2)
        assert np.count_nonzero(inked & ~inside) == 0
