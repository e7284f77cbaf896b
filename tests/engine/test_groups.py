"""Groups in their own regions (docs/engine.md, Groups), over layouts of a fixed generator
(text masks in a Latin and the CJK font, a heart image, the rectangle; 1 to 12 groups;
seeds), measured from wordcloud.svg's outlines: every name placed, every outline inside its
group's region polygon (MASK_TEXT's letters, or the strip of columns), no ink outside the
mask, NAME_GAP held, neighbours of two groups in colours that do not read as one, and each
group one colour (GROUP_COLORS' where given)."""

import random

import numpy as np
import openpyxl
import pytest
import shapely
from PIL import Image

from tests.names import latin_names
from wordclouds.engine import (
    InputError,
    LayoutError,
    Parent,
    check_edits,
    generate,
    load_mask,
    parse_params,
    path_contours,
    revise,
)
from wordclouds.engine.fonts import fallback_fonts
from wordclouds.engine.params import check_groups
from wordclouds.engine.positions import read_words
from wordclouds.engine.print_size import print_size_advice
from wordclouds.engine.render import svg_outlines

from .name_gap_rule import measure
from .test_layout_rules import cjk_names, heart_mask
from .test_text_mask import outline_polygon

CASES = 20
TEXTS = {"latin": ("2026", "LOVE", "B8", "HI 26"), "cjk": ("毕业快乐", "口田", "三年二班")}


def cases():
    rng = random.Random(41)
    found = []
    for index in range(CASES):
        kind = ("latin", "cjk", "heart", "rect")[index % 4]
        text = rng.choice(TEXTS[kind]) if kind in TEXTS else None
        letters = len(text.replace(" ", "")) if text else 12
        found.append(
            {
                "index": index,
                "kind": kind,
                "text": text,
                "groups": rng.randint(1, min(12, letters)),
                "seed": rng.randrange(1, 10_000),
                "colored": rng.random() < 0.4,
            }
        )
    return found


def _list(path, case, rng):
    """Names with their group in column 1 (groups in a shuffled order of rows)."""
    count = 30 * case["groups"] if case["text"] else 16 * case["groups"]
    names = cjk_names(count, rng) if case["kind"] == "cjk" else latin_names(count, case["seed"])
    groups = [f"G{k % case['groups']}" for k in range(count)]
    rng.shuffle(groups)
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "group"])
    for name, group in zip(names, groups, strict=True):
        workbook.active.append([name, group])
    workbook.save(path)
    return dict(enumerate(groups, start=2))  # spreadsheet row: group


def _params(case, tmp_path):
    params = {"SEED": case["seed"], "GROUP_COL_INDEX": 1}
    if case["colored"]:
        params["GROUP_COLORS"] = {"G0": "#EE7733"}
    mask = None
    if case["text"]:
        params.update(MASK_TEXT=case["text"], WIDTH=1000)
    elif case["kind"] == "heart":
        mask = tmp_path / "heart.png"
        heart_mask(mask, 520)
        params["MODE"] = "IMAGE"
    else:
        params.update(WIDTH=560, HEIGHT=420)
    return params, mask


def _region_polygons(params, mask_path, text_font, metrics):
    """Each group's region as the polygon its words must lie in: its letters' outlines, or
    its strip's columns across the canvas."""
    mask = load_mask(mask_path, params=parse_params(params), text_font=text_font)
    polygons = {}
    for group, figures in metrics["groups"].items():
        kind, _, numbers = figures["region"].partition(" ")
        if kind == "letter":
            letters = mask.letters.polygons()
            polygons[group] = shapely.union_all([letters[int(k)] for k in numbers.split(", ")])
        else:
            polygons[group] = None  # strips: measured by columns below
    return mask, polygons


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c['index']}-{c['kind']}-{c['groups']}")
def test_every_group_stays_in_its_region(case, tmp_path):
    rng = random.Random(case["seed"])
    groups_by_row = _list(tmp_path / "names.xlsx", case, rng)
    params, mask_path = _params(case, tmp_path)
    out = tmp_path / "out"

    # Latin texts in a Latin font (Noto Sans, the chain's first), CJK ones in the bundled CJK
    text_font = fallback_fonts()[0][0] if case["kind"] == "latin" else None
    metrics = generate(
        names_path=tmp_path / "names.xlsx",
        out_dir=out,
        params=params,
        mask_path=mask_path,
        mask_font_path=text_font,
    )

    assert metrics["names_placed"] == metrics["names_read"] == len(groups_by_row)
    mask, polygons = _region_polygons(params, mask_path, text_font, metrics)
    words = read_words(out / "positions.db", ["id", "row", "color"])
    group_of = {w["id"]: groups_by_row[w["row"]] for w in words}
    colours = {g: {w["color"] for w in words if group_of[w["id"]] == g} for g in polygons}
    assert all(len(c) == 1 for c in colours.values())  # each group one colour
    if case["colored"]:
        assert colours["G0"] == {"#EE7733"}
    strips = _strip_columns(metrics, mask.height)
    outside = []
    for word_id, d in svg_outlines((out / "wordcloud.svg").read_text()).items():
        group = group_of[word_id]
        outline = outline_polygon(d)
        region = polygons[group] if polygons[group] is not None else strips[group]
        if not region.buffer(0.1).contains(outline):  # the SVG's 0.1 px rounding
            outside.append((word_id, group))
    assert outside == []
    if mask_path is not None:
        pixels = np.asarray(Image.open(out / "wordcloud.png").convert("RGB"))
        assert np.count_nonzero((pixels != 255).any(axis=2) & ~mask.inside) == 0
    found = measure(out, 0.3)
    assert found.close == []
    assert [p for p in found.alike if group_of[p[-2]] != group_of[p[-1]]] == []
    assert len(metrics["groups"]) == case["groups"]


def _strip_columns(metrics, height):
    """Each strip group's polygon: its columns across the canvas (the mask's own edge is
    checked on the PNG's pixels)."""
    return {
        group: shapely.box(figures["columns"][0], 0, figures["columns"][1], height)
        for group, figures in metrics["groups"].items()
        if "columns" in figures
    }


def test_bad_groups_are_refused_naming_the_problem(tmp_path):
    rng = random.Random(3)
    case = {"kind": "latin", "text": "AB", "groups": 3, "seed": 3}
    _list(tmp_path / "names.xlsx", case, rng)
    with pytest.raises(InputError) as refused:
        generate(
            names_path=tmp_path / "names.xlsx",
            out_dir=tmp_path / "out",
            params={"MASK_TEXT": "AB", "WIDTH": 600, "GROUP_COL_INDEX": 1},
        )
    assert str(refused.value) == (
        "name_list has 3 groups but MASK_TEXT has only 2 letters to put them in; give fewer "
        "groups or a longer text"
    )
    bad = {"GROUP_COL_INDEX": 1, "GROUP_COLORS": {"G9": "#112233"}}
    with pytest.raises(InputError) as refused:
        generate(names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "o2", params=bad)
    assert str(refused.value) == 'params.GROUP_COLORS names a group the list does not have: "G9"'
    with pytest.raises(InputError) as refused:
        parse_params({"GROUP_COL_INDEX": 0})
    assert str(refused.value) == "params.GROUP_COL_INDEX must differ from DATA_COL_INDEX"


def test_a_region_too_small_names_the_group_and_the_size_that_would_fit(tmp_path):
    rng = random.Random(5)
    case = {"kind": "latin", "text": "AB", "groups": 2, "seed": 5}
    _list(tmp_path / "names.xlsx", {**case, "groups": 2}, rng)
    params = {"MASK_TEXT": "AB", "WIDTH": 300, "GROUP_COL_INDEX": 1, "MIN_FONT_SIZE": 9}
    with pytest.raises(LayoutError) as failed:
        generate(names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "out", params=params)
    sentence = str(failed.value)
    assert sentence.startswith('group "G') and "does not fit its region (letter " in sentence
    assert "its names would fit at about " in sentence and "(MIN_FONT_SIZE 9 px)" in sentence


def test_positions_db_keeps_each_word_s_group(tmp_path):
    rng = random.Random(7)
    groups_by_row = _list(
        tmp_path / "names.xlsx", {"kind": "rect", "text": None, "groups": 3, "seed": 7}, rng
    )
    params = {"WIDTH": 500, "HEIGHT": 400, "GROUP_COL_INDEX": 1, "SEED": 7}
    generate(names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "out", params=params)
    words = read_words(tmp_path / "out" / "positions.db", ["row", "group"])
    assert [w["group"] for w in words] == [groups_by_row[w["row"]] for w in words]


@pytest.mark.parametrize(
    ("regions", "detail"),
    [
        ({"G0": [0, 3], "G1": [1, 2]}, None),
        (
            {"G0": [0, 1], "G9": [2, 3]},
            'params.GROUP_REGIONS names a group the list does not have: "G9"',
        ),
        (
            {"G0": [0, 1], "G1": [1, 2, 3]},
            'params.GROUP_REGIONS gives letter 1 to both "G0" and "G1"',
        ),
        (
            {"G0": [0, 0, 3], "G1": [1, 2]},
            'params.GROUP_REGIONS["G0"] names letter 0 twice',
        ),
        (
            {"G0": [0, 7], "G1": [1]},
            'params.GROUP_REGIONS["G0"] names letter 7; MASK_TEXT has 4 letters (0–3)',
        ),
        ({"G0": [0, 1, 2]}, 'params.GROUP_REGIONS gives group "G1" no letters'),
        (
            {"G0": [0], "G1": [1, 2]},
            "params.GROUP_REGIONS leaves letter 3 to no group: a region without names",
        ),
        (
            {"G0": [0, 1], "G1": "#112233"},
            'params.GROUP_REGIONS["G1"] must be letter indexes: MASK_TEXT\'s letters are the '
            "regions",
        ),
    ],
)
def test_group_regions_choose_the_letters(tmp_path, regions, detail):
    rng = random.Random(9)
    _list(tmp_path / "names.xlsx", {"kind": "latin", "text": "2026", "groups": 2, "seed": 9}, rng)
    params = {"MASK_TEXT": "2026", "WIDTH": 900, "GROUP_COL_INDEX": 1, "GROUP_REGIONS": regions}
    run = lambda: generate(  # noqa: E731
        names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "out", params=params
    )
    if detail:
        with pytest.raises(InputError) as refused:
            run()
        assert str(refused.value) == detail
        return
    metrics = run()
    assert metrics["groups"]["G0"]["region"] == "letter 0, 3"
    assert metrics["groups"]["G1"]["region"] == "letter 1, 2"


def test_group_regions_need_letters_or_flat_colours():
    with pytest.raises(InputError) as refused:
        check_groups(parse_params({"GROUP_COL_INDEX": 1, "GROUP_REGIONS": {"A": [0]}}))
    assert str(refused.value) == (
        "params.GROUP_REGIONS needs MASK_TEXT or a mask image (its letters or flat colours are "
        "the regions)"
    )


def _two_colour_heart(mask_path):
    """The heart, its left two fifths red (#C81E1E), the rest blue (#1E1EC8)."""
    heart_mask(mask_path, 420)
    image = np.asarray(Image.open(mask_path).convert("RGB")).copy()
    heart = (image < 128).all(axis=2)
    left = np.zeros_like(heart)
    left[:, : image.shape[1] * 2 // 5] = True
    image[heart & left], image[heart & ~left] = (200, 30, 30), (30, 30, 200)  # red, then blue
    Image.fromarray(image).save(mask_path)


def _outside_own_colour(out, mask, metrics, groups_by_row):
    """The words with ink on a pixel of another colour than their group's region."""
    labels, colors = mask.flat
    words = read_words(out / "positions.db", ["id", "row"])
    group_of = {w["id"]: groups_by_row[w["row"]] for w in words}
    wrong = []
    for word_id, d in svg_outlines((out / "wordcloud.svg").read_text()).items():
        colour = metrics["groups"][group_of[word_id]]["region"].removeprefix("colour ")
        for contour in path_contours(d, 0.05):
            x, y = np.clip(contour.astype(int), 0, [mask.width - 1, mask.height - 1]).T
            if (labels[y, x] != colors.index(colour)).any():
                wrong.append(word_id)
                break
    return wrong


def test_a_mask_image_s_flat_colours_are_the_regions(tmp_path):
    mask_path = tmp_path / "two.png"
    _two_colour_heart(mask_path)
    groups_by_row = _list(
        tmp_path / "names.xlsx",
        {"kind": "rect", "text": None, "groups": 2, "seed": 11},
        random.Random(11),
    )
    params = {"MODE": "IMAGE", "GROUP_COL_INDEX": 1, "SEED": 11}
    metrics = generate(
        names_path=tmp_path / "names.xlsx",
        out_dir=tmp_path / "out",
        params=params,
        mask_path=mask_path,
    )
    assert metrics["names_placed"] == len(groups_by_row)
    first = next(iter(metrics["groups"]))  # the group of the first row: the left colour
    assert metrics["groups"][first]["region"] == "colour #C81E1E"
    mask = load_mask(mask_path, params=parse_params(params))
    assert _outside_own_colour(tmp_path / "out", mask, metrics, groups_by_row) == []


@pytest.mark.parametrize("seed", [13, 29, 57])
def test_group_regions_give_each_group_its_flat_colour(tmp_path, seed):
    mask_path = tmp_path / "two.png"
    _two_colour_heart(mask_path)
    groups_by_row = _list(
        tmp_path / "names.xlsx",
        {"kind": "rect", "text": None, "groups": 2, "seed": seed},
        random.Random(seed),
    )
    # the first row's group in the right (blue) colour: not the order left to right
    first = groups_by_row[min(groups_by_row)]
    other = ({"G0", "G1"} - {first}).pop()
    params = {
        "MODE": "IMAGE",
        "GROUP_COL_INDEX": 1,
        "SEED": seed,
        "GROUP_REGIONS": {first: "#1e1ec8", other: "#C81E1E"},
    }
    out = tmp_path / "out"
    metrics = generate(
        names_path=tmp_path / "names.xlsx", out_dir=out, params=params, mask_path=mask_path
    )
    assert metrics["names_placed"] == len(groups_by_row)
    assert metrics["groups"][first]["region"] == "colour #1E1EC8"
    assert metrics["groups"][other]["region"] == "colour #C81E1E"
    mask = load_mask(mask_path, params=parse_params(params))
    assert _outside_own_colour(out, mask, metrics, groups_by_row) == []


@pytest.mark.parametrize(
    ("regions", "detail"),
    [
        (
            {"G0": "#C81E1E", "G1": "#123456"},
            'params.GROUP_REGIONS["G1"] names colour #123456, which is not a flat colour of '
            "mask_image; its flat colours are #1E1EC8, #C81E1E",
        ),
        (
            {"G0": "#C81E1E", "G1": "#C81E1E"},
            'params.GROUP_REGIONS gives colour #C81E1E to both "G0" and "G1"',
        ),
        (
            {"G0": "#C81E1E", "G7": "#1E1EC8"},
            'params.GROUP_REGIONS names a group the list does not have: "G7"',
        ),
        ({"G0": "#C81E1E"}, 'params.GROUP_REGIONS gives group "G1" no colour'),
        (
            {"G0": "#C81E1E", "G1": [0]},
            'params.GROUP_REGIONS["G1"] must be a #RRGGBB colour: the mask image\'s flat '
            "colours are the regions",
        ),
    ],
)
def test_bad_colour_regions_are_refused_naming_the_problem(tmp_path, regions, detail):
    mask_path = tmp_path / "two.png"
    _two_colour_heart(mask_path)
    params = {"MODE": "IMAGE", "GROUP_COL_INDEX": 1, "GROUP_REGIONS": regions}
    assert _refused_on_two_groups(tmp_path, mask_path, params) == detail


def _refused_on_two_groups(tmp_path, mask_path, params) -> str:
    """The refusal of a list in two groups (fixed generator) on ``mask_path`` with ``params``."""
    _list(
        tmp_path / "names.xlsx",
        {"kind": "rect", "text": None, "groups": 2, "seed": 3},
        random.Random(3),
    )
    with pytest.raises(InputError) as refused:
        generate(
            names_path=tmp_path / "names.xlsx",
            out_dir=tmp_path / "out",
            params=params,
            mask_path=mask_path,
        )
    return str(refused.value)


def test_a_colour_left_to_no_group_is_refused(tmp_path):
    mask_path = tmp_path / "three.png"
    _two_colour_heart(mask_path)
    image = np.asarray(Image.open(mask_path).convert("RGB")).copy()
    blue = (image == (30, 30, 200)).all(axis=2)
    lower = np.zeros_like(blue)
    lower[image.shape[0] // 2 :] = True
    image[blue & lower] = (30, 150, 30)  # the blue half's lower part green
    Image.fromarray(image).save(mask_path)
    params = {"MODE": "IMAGE", "GROUP_COL_INDEX": 1}
    params["GROUP_REGIONS"] = {"G0": "#C81E1E", "G1": "#1E1EC8"}
    assert _refused_on_two_groups(tmp_path, mask_path, params) == (
        "params.GROUP_REGIONS leaves colour #1E961E to no group: a region without names"
    )


def test_a_revision_puts_added_names_in_their_group_s_letters(tmp_path):
    rng = random.Random(21)
    groups_by_row = _list(
        tmp_path / "names.xlsx", {"kind": "latin", "text": "2026", "groups": 4, "seed": 21}, rng
    )
    params = {"MASK_TEXT": "2026", "WIDTH": 1100, "GROUP_COL_INDEX": 1, "SEED": 21}
    parent = tmp_path / "parent"
    metrics = generate(names_path=tmp_path / "names.xlsx", out_dir=parent, params=params)
    assert metrics["names_placed"] == len(groups_by_row)
    added = [{"name": f"Added {k}", "group": f"G{k % 2}"} for k in range(6)]

    revised = revise(parent_dir=parent, out_dir=tmp_path / "child", edits={"add": added})

    ids = revised["changes"]["added"]
    assert len(ids) == 6
    words = {
        w["id"]: w for w in read_words(tmp_path / "child" / "positions.db", ["id", "name", "group"])
    }
    letters = load_mask(None, params=parse_params(params)).letters.polygons()
    outlines = svg_outlines((tmp_path / "child" / "wordcloud.svg").read_text())
    for word_id, entry in zip(ids, added, strict=True):
        assert (words[word_id]["name"], words[word_id]["group"]) == (entry["name"], entry["group"])
        region = metrics["groups"][entry["group"]]["region"].removeprefix("letter ")
        shape = shapely.union_all([letters[int(k)] for k in region.split(", ")]).buffer(0.1)
        assert shape.contains(outline_polygon(outlines[word_id])), entry
    # the parent's words keep their groups
    assert all(words[i]["group"] == groups_by_row[row] for i, row in _rows(parent).items())


def _rows(folder):
    return {w["id"]: w["row"] for w in read_words(folder / "positions.db", ["id", "row"])}


@pytest.mark.parametrize(
    ("grouped", "entry", "detail"),
    [
        (True, {"name": "Anna"}, "add[0].group is required: the poster has groups"),
        (True, {"name": "Anna", "group": "G7"}, 'add[0].group is not a group of the poster: "G7"'),
        (False, {"name": "Anna", "group": "G0"}, "add[0].group: the poster has no groups"),
    ],
)
def test_an_added_name_s_group_is_checked(tmp_path, grouped, entry, detail):
    _list(
        tmp_path / "names.xlsx",
        {"kind": "rect", "text": None, "groups": 2, "seed": 4},
        random.Random(4),
    )
    params = {"WIDTH": 400, "HEIGHT": 300, "SEED": 4, **({"GROUP_COL_INDEX": 1} if grouped else {})}
    generate(names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "parent", params=params)
    with pytest.raises(InputError) as refused:
        check_edits({"add": [entry]}, parent=Parent(tmp_path / "parent"))
    assert str(refused.value) == detail


def test_the_size_advice_weighs_each_group_in_its_region(tmp_path):
    names = latin_names(100, 8)
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "group"])
    for k, name in enumerate(names):  # 90 names in one letter, 10 in the other
        workbook.active.append([name, "G0" if k < 90 else "G1"])
    workbook.save(tmp_path / "names.xlsx")
    params = {"MASK_TEXT": "HH", "WIDTH": 800, "PRINT_WIDTH_MM": 300}
    alone = print_size_advice(names_path=tmp_path / "names.xlsx", params=params)
    grouped = print_size_advice(
        names_path=tmp_path / "names.xlsx", params={**params, "GROUP_COL_INDEX": 1}
    )
    # the crowded letter holds 90% of the ink in half the shape: names about √(0.5/0.9) as large
    ratio = (
        grouped["printed"]["expected_smallest_name_pt"]
        / alone["printed"]["expected_smallest_name_pt"]
    )
    assert 0.65 < ratio < 0.8
