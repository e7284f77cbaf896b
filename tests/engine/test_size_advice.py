"""Size advice against real layouts (issue 31): on five lists and shapes, the A size the
advice names is within one step of the smallest A size on which a layout actually places every
name at MIN_NAME_PT; the names' boxes it measures without outlines agree with the layout's;
and POST /api/jobs/size-advice answers it for a job's inputs."""

import numpy as np
import pytest

from tests.engine.test_revisions import mask_image as shape
from tests.names import latin_names, sample_names, write_names
from wordclouds.engine import LayoutError, generate, print_size_advice
from wordclouds.engine.advances import AREA_ERROR, BOX_ERROR, unit_boxes
from wordclouds.engine.layout import WordShapes
from wordclouds.engine.names import Name
from wordclouds.engine.planning import _unit_boxes
from wordclouds.engine.print_size import sheet_sizes
from wordclouds.engine.shaping import check_drawable

CASES = [  # names, canvas, mask, MIN_NAME_PT
    ("latin", 300, (800, 600), None, 18),
    ("mixed", 250, (700, 700), "ellipse", 16),
    ("latin", 400, (900, 600), "heart", 14),
    ("mixed", 150, (600, 800), None, 24),
    ("latin", 200, (800, 800), "ellipse", 20),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_advice_is_within_one_a_step_of_what_fits(tmp_path, case):
    kind, count, size, mask_kind, points = CASES[case]
    names = latin_names(count, case) if kind == "latin" else sample_names(count)
    names_path = write_names(tmp_path / "names.xlsx", names)
    mask = shape(tmp_path / "mask.png", mask_kind, size) if mask_kind else None
    params = {"WIDTH": size[0], "HEIGHT": size[1], "SEED": case, "MIN_NAME_PT": points}
    advice = print_size_advice(names_path=names_path, params=params, mask_path=mask)
    sheets = list(sheet_sizes(*size))
    advised = [name for name, _, _ in sheets].index(advice["smallest"]["name"])

    def fits(index):
        _, width, height = sheets[index]
        try:
            generate(
                names_path=names_path,
                out_dir=tmp_path / f"at{index}",
                params={**params, "PRINT_WIDTH_MM": width, "PRINT_HEIGHT_MM": height},
                mask_path=mask,
            )
            return True
        except LayoutError:
            return False

    # the smallest that fits lies within one step: it fits one step larger, not two smaller
    assert fits(min(advised + 1, len(sheets) - 1))
    assert advised < 2 or not fits(advised - 2)


# Names the table of advances does not measure (joining, reordering, conjoining jamo and
# combining marks, other faces, ignorables, nothing to ink) beside names of ideographs and
# spaces, and Hangul syllables, which it measures exactly.
SCRIPTS = [
    "李 雷",
    "欧阳 娜娜",
    "김민수",
    "محمد علي",
    "नमस्ते राम",
    "\u1100\u1161\u11a8 \u1102\u1161",  # 각 나 in conjoining jamo
    "か\u3099す",  # が with a combining sound mark
    "😀 Bob",
    "Anna\u00adMaria",  # a soft hyphen, which shaping drops
    "   ",
]
KERNED = [
    "AVA Wave",
    "Tomás Łukasik",
    "Γιώργος",
    "Дмитрий",
    "Zoë 王 3",
    "さくら",
    "ぴょん吉",
    "カタカナ ルーシー",
    "山田 はなこ",
]
# How far those boxes may be from the layout's outlines' (relative): they differ only where
# glyphs overlap, whose merged outline has its own control points.
EXACT = 1e-6


@pytest.mark.parametrize(
    "texts, tolerance",
    [
        (latin_names(300, 0), BOX_ERROR),
        (sample_names(250), BOX_ERROR),
        (KERNED, BOX_ERROR),
        (SCRIPTS, EXACT),
    ],
    ids=["latin", "mixed", "kerned", "scripts"],
)
def test_the_boxes_measured_without_outlines_are_the_layouts(texts, tolerance):
    names = [Name(text, row) for row, text in enumerate(texts, start=2)]
    typeface = check_drawable(names, None)
    widths, heights = unit_boxes(texts, typeface, "zh-Hans")
    layout_widths, layout_heights = _unit_boxes(names, WordShapes(typeface, "auto"), 0.0)
    assert layout_widths.min() > 0 and layout_heights.min() > 0
    np.testing.assert_allclose(widths, layout_widths, rtol=tolerance)
    np.testing.assert_allclose(heights, layout_heights, rtol=tolerance)
    area, layout_area = np.sum(widths * heights), np.sum(layout_widths * layout_heights)
    assert abs(area / layout_area - 1) <= min(AREA_ERROR, tolerance)


@pytest.mark.django_db
def test_the_endpoint_answers_for_a_jobs_inputs(client, tmp_path):
    names = write_names(tmp_path / "names.xlsx", latin_names(300, 1))
    with open(names, "rb") as upload:
        answer = client.post(
            "/api/jobs/size-advice",
            {"name_list": upload, "params": '{"WIDTH": 800, "HEIGHT": 600, "MIN_NAME_PT": 18}'},
        )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [size["name"] for size in body["sizes"]][:3] == ["A5", "A4", "A3"]
    assert body["sizes"][0]["width_mm"] == 210  # landscape, like the canvas
    assert body["smallest"]["name"] == next(s["name"] for s in body["sizes"] if s["fits"])
    assert body["printed"] is None  # no printed size asked

    # at a printed width, the smallest name there follows the scale: 297 mm over 800 px,
    # where A4 turned (297 × 210 mm) fits the 800 × 600 canvas at 210 mm over 600 px
    with open(names, "rb") as upload:
        printed = client.post(
            "/api/jobs/size-advice",
            {"name_list": upload, "params": '{"WIDTH": 800, "HEIGHT": 600, "PRINT_WIDTH_MM": 297}'},
        ).json()["printed"]
    a4 = body["sizes"][1]
    assert printed["width_mm"] == 297 and printed["height_mm"] == pytest.approx(222.75)
    expected = a4["expected_smallest_name_pt"] * (297 / 800) / (210 / 600)
    assert printed["expected_smallest_name_pt"] == pytest.approx(expected, abs=0.02)
    assert printed["fits"] == (printed["expected_smallest_name_pt"] >= 6)
    refused = client.post("/api/jobs/size-advice", {"params": "{}"})
    assert refused.status_code == 400 and refused.json()["detail"] == "name_list is required"


def test_a_size_the_shop_sells_is_advised_and_named_when_it_is_the_smallest_that_fits(tmp_path):
    """A shop size just large enough (a print between the fitting A size and the one below
    it) is the advice's smallest, and a job too small for its names says so."""
    names_path = write_names(tmp_path / "names.xlsx", latin_names(300, 5))
    params = {"WIDTH": 800, "HEIGHT": 600, "SEED": 5, "MIN_NAME_PT": 18}
    plain = print_size_advice(names_path=names_path, params=params)
    fitting = next(size for size in plain["sizes"] if size["fits"])
    # the width at which the smallest name prints at 18 pt, and 2% more
    width = round(fitting["width_mm"] * 18 / fitting["expected_smallest_name_pt"] * 1.02, 1)
    assert width < fitting["width_mm"]
    height = round(600 * (width / 800), 1)  # as production prints it: at its width
    shop = [("Poster S", width, None), ("Banner", 3000.0, None), ("Tall", None, 100.0)]

    advice = print_size_advice(names_path=names_path, params=params, shop_sizes=shop)
    assert advice["smallest"] == {
        "name": "Poster S",
        "width_mm": width,
        "height_mm": height,
        "shop": True,
    }
    scales = [size["width_mm"] / 800 for size in advice["sizes"]]
    assert scales == sorted(scales)  # the smallest print first, A sizes and the shop's
    assert {"Banner", "Tall"} <= {size["name"] for size in advice["sizes"] if size["shop"]}
    assert all(not size["shop"] for size in plain["sizes"])

    with pytest.raises(LayoutError) as failed:
        generate(
            names_path=names_path,
            out_dir=tmp_path / "small",
            params={**params, "PRINT_WIDTH_MM": 100},
            shop_sizes=shop,
        )
    assert str(failed.value).endswith(
        f"the smallest size the shop sells that would fit is Poster S ({width:g} × {height:g} mm)"
    )


@pytest.mark.django_db
def test_the_endpoint_weighs_the_shops_active_sizes(client, tmp_path):
    from commerce.models import Product

    Product.objects.create(name="Poster 50", price=100, width_mm=500)
    Product.objects.create(name="Old", price=100, height_mm=300, active=False)
    Product.objects.create(name="No size", price=100)
    names = write_names(tmp_path / "names.xlsx", latin_names(100, 2))
    with open(names, "rb") as upload:
        body = client.post(
            "/api/jobs/size-advice",
            {"name_list": upload, "params": '{"WIDTH": 800, "HEIGHT": 600}'},
        ).json()
    shop = [size for size in body["sizes"] if size["shop"]]
    assert [(s["name"], s["width_mm"], s["height_mm"]) for s in shop] == [("Poster 50", 500, 375)]
    assert body["smallest"]["shop"] is False  # 100 names fit on A5 already
