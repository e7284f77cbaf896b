"""POST /api/jobs/regions-preview (docs/api.md, Regions preview): staff only; for lists of a
fixed generator the letters it gives each group are the ones the layout's regions take
(groups.regions on the exact ink of the names' outlines), its colours group_colors'; the
letters' contours are the text mask's; refusals name the problem."""

import json
import random

import openpyxl
import pytest
import shapely
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.names import latin_names
from wordclouds import engine
from wordclouds.engine.groups import _ink, group_band, group_order, regions
from wordclouds.engine.layout import WordShapes
from wordclouds.engine.region_preview import SIMPLIFY

pytestmark = pytest.mark.django_db
URL = "/api/jobs/regions-preview"


def grouped_xlsx(path, seed: int):
    """A list of 20–60 Latin names in 2–4 groups of uneven sizes, by ``seed``."""
    rng = random.Random(seed)
    count, groups = rng.randint(20, 60), rng.randint(2, 4)
    weights = [rng.random() + 0.2 for _ in range(groups)]
    book = openpyxl.Workbook()
    book.active.append(["name", "class"])
    for name in latin_names(count, seed):
        book.active.append([name, f"G{rng.choices(range(groups), weights)[0]}"])
    book.save(path)
    return path


def ask(client, path, params):
    upload = SimpleUploadedFile("names.xlsx", path.read_bytes())
    return client.post(URL, {"name_list": upload, "params": json.dumps(params)})


@pytest.mark.parametrize("seed", range(6))
def test_each_group_gets_the_letters_and_colour_the_layout_gives_it(api, tmp_path, seed):
    text = ["2026", "20\n26", "ABCDE"][seed % 3]
    params = {"MASK_TEXT": text, "WIDTH": 600, "GROUP_COL_INDEX": 1, "SKIP_ROWS": 1}
    answer = ask(api, grouped_xlsx(tmp_path / "names.xlsx", seed), params)
    assert answer.status_code == 200, answer.content
    preview = answer.json()

    config = engine.parse_params(params)
    names = engine.read_names(tmp_path / "names.xlsx", column=0, skip_rows=1, group_column=1)
    mask = engine.load_mask(None, params=config)
    typeface = engine.check_drawable(names, None, config.locale)
    groups = group_order(names)
    shapes = WordShapes(typeface, config.vertical_style, config.locale)
    inks = [_ink([n for n in names if n.group == g], shapes) for g in groups]
    taken = regions(mask, groups, inks, group_band(config))
    assert [g["group"] for g in preview["groups"]] == groups
    assert [g["letters"] for g in preview["groups"]] == [r.letters for r in taken]
    assert [g["names"] for g in preview["groups"]] == [
        sum(n.group == g for n in names) for g in groups
    ]
    assert (preview["width"], preview["height"]) == (mask.width, mask.height)
    # each letter's outline lies within the simplification (and the rounding) of the mask's
    assert [letter["text"] for letter in preview["letters"]] == mask.letters.texts
    for letter, polygon in zip(preview["letters"], mask.letters.polygons(), strict=True):
        drawn = shapely.Polygon()
        for contour in letter["contours"]:
            drawn = shapely.symmetric_difference(drawn, shapely.Polygon(contour))
        gap = shapely.hausdorff_distance(drawn.boundary, polygon.boundary)
        assert gap <= SIMPLIFY + 0.1, (letter["text"], gap)


def test_only_staff_may_ask(anonymous, tmp_path):
    params = {"MASK_TEXT": "2026", "GROUP_COL_INDEX": 1}
    answer = ask(anonymous, grouped_xlsx(tmp_path / "names.xlsx", 1), params)
    assert answer.status_code in (401, 403)


@pytest.mark.parametrize(
    ("params", "code", "detail"),
    [
        ({"GROUP_COL_INDEX": 1}, "regions_preview_refused", "needs params.MASK_TEXT"),
        ({"MASK_TEXT": "2026"}, "regions_preview_refused", "params.GROUP_COL_INDEX"),
        ({"MASK_TEXT": "A", "GROUP_COL_INDEX": 1}, "params_invalid", "MASK_TEXT has only 1"),
    ],
)
def test_refusals_name_the_problem(api, tmp_path, params, code, detail):
    answer = ask(api, grouped_xlsx(tmp_path / "names.xlsx", 2), {**params, "SKIP_ROWS": 1})
    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert detail in answer.json()["detail"]
