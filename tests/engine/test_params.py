import pytest
from PIL import Image

from wordclouds.engine import InputError, load_mask, parse_params
from wordclouds.engine.params import KEYS, MAX_SEED, params_schema


def test_defaults_when_nothing_is_sent():
    params = parse_params({})
    assert (params.mode, params.margin, params.prefer_horizontal) == ("RECT", 2.0, 0.9)
    assert params.vertical_style == "auto" and params.background_color == "#FFFFFF"
    assert params.seed is None and params.min_font_size is None


def test_values_are_kept_and_colours_upper_cased():
    params = parse_params(
        {
            "MODE": "IMAGE",
            "SEED": MAX_SEED,
            "PALETTE": ["#abcdef"],
            "BACKGROUND_COLOR": "transparent",
            "MARGIN": 0,
            "NAME_GAP": 0.5,
            "WIDTH": 64,
        }
    )
    assert params.name_gap == 0.5 and parse_params({}).name_gap == 0.3
    assert params.seed == MAX_SEED and params.palette == ("#ABCDEF",)
    assert params.transparent and params.margin == 0.0 and params.width == 64


@pytest.mark.parametrize(
    "raw, detail",
    [
        ({"FOO": 1}, "unknown params key: FOO"),
        ({"K" * 5000: 1}, "unknown params key: " + "K" * 40 + "…"),
        ({"SEED": "7"}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"SEED": True}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"SEED": 1.5}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"SEED": -1}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"SEED": 2**63}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"MODE": "CIRCLE"}, "params.MODE must be RECT, IMAGE or TEXT"),
        ({"WIDTH": 63}, "params.WIDTH must be an integer from 64 to 10000"),
        ({"HEIGHT": 10001}, "params.HEIGHT must be an integer from 64 to 10000"),
        ({"WIDTH": 10**400}, "params.WIDTH must be an integer from 64 to 10000"),
        ({"N_REPETITIONS": 0}, "params.N_REPETITIONS must be an integer from 1 to 50"),
        ({"FONT_COLOR": "red"}, "params.FONT_COLOR must be #RRGGBB"),
        ({"PALETTE": []}, "params.PALETTE must be an array of 1 to 256 #RRGGBB colours"),
        (
            {"PALETTE": ["#000000"] * 257},
            "params.PALETTE must be an array of 1 to 256 #RRGGBB colours",
        ),
        ({"BACKGROUND_COLOR": "#FFF"}, "params.BACKGROUND_COLOR must be #RRGGBB or transparent"),
        ({"PREFER_HORIZONTAL": 1.5}, "params.PREFER_HORIZONTAL must be a number from 0 to 1"),
        ({"VERTICAL_STYLE": "up"}, "params.VERTICAL_STYLE must be rotate, stack or auto"),
        ({"MARGIN": -1}, "params.MARGIN must be a number from 0 to 100"),
        ({"MARGIN": 101}, "params.MARGIN must be a number from 0 to 100"),
        ({"MARGIN": 10**400}, "params.MARGIN must be a number from 0 to 100"),
        ({"MARGIN": float("nan")}, "params.MARGIN must be a number from 0 to 100"),
        ({"NAME_GAP": -0.1}, "params.NAME_GAP must be a number from 0 to 2"),
        ({"NAME_GAP": 2.5}, "params.NAME_GAP must be a number from 0 to 2"),
        ({"NAME_GAP": "0.3"}, "params.NAME_GAP must be a number from 0 to 2"),
        ({"STROKE_WIDTH": 0}, "params.STROKE_WIDTH must be a number above 0 and at most 100"),
        (
            {"STROKE_WIDTH": float("inf")},
            "params.STROKE_WIDTH must be a number above 0 and at most 100",
        ),
        ({"MIN_FONT_SIZE": "8"}, "params.MIN_FONT_SIZE must be a number from 1 to 10000"),
        ({"MIN_FONT_SIZE": 0.5}, "params.MIN_FONT_SIZE must be a number from 1 to 10000"),
        (
            {"MIN_FONT_SIZE": 20, "MAX_FONT_SIZE": 10},
            "params.MAX_FONT_SIZE must be at least MIN_FONT_SIZE",
        ),
        (
            {"MAX_FONT_SIZE": 2001},
            "params.MAX_FONT_SIZE must be at most the canvas's smaller side (2000 px)",
        ),
        (
            {"WIDTH": 800, "HEIGHT": 300, "MIN_FONT_SIZE": 301},
            "params.MIN_FONT_SIZE must be at most the canvas's smaller side (300 px)",
        ),
        ({"ENABLE_STROKE_WEIGHTS": 1}, "params.ENABLE_STROKE_WEIGHTS must be true or false"),
        ({"MASK_THRESHOLD": 256}, "params.MASK_THRESHOLD must be an integer from 0 to 255"),
        ({"DATA_COL_INDEX": -1}, "params.DATA_COL_INDEX must be an integer from 0 to 16383"),
        ({"DATA_COL_INDEX": 16384}, "params.DATA_COL_INDEX must be an integer from 0 to 16383"),
        ({"SKIP_ROWS": 1048577}, "params.SKIP_ROWS must be an integer from 0 to 1048576"),
        (
            {"WIDTH": 10000, "HEIGHT": 6000},
            "params.HEIGHT must be such that WIDTH×HEIGHT is at most 50,000,000",
        ),
    ],
)
def test_bad_params_are_rejected_with_the_detail_text(raw, detail):
    with pytest.raises(InputError) as caught:
        parse_params(raw)
    assert str(caught.value) == detail


def test_every_numeric_key_has_a_finite_range_in_the_schema():
    schema = params_schema()
    assert schema["additionalProperties"] is False
    assert list(schema["properties"]) == [key.name for key in KEYS]
    for name, prop in schema["properties"].items():
        if prop["type"] in ("integer", "number"):
            assert prop["minimum"] is not None and prop["maximum"] is not None, name
        assert prop["description"], name
    assert schema["properties"]["VERTICAL_STYLE"]["enum"] == ["rotate", "stack", "auto"]
    assert schema["properties"]["MARGIN"]["default"] == parse_params({}).margin


@pytest.mark.parametrize(
    "size, raw, canvas",
    [
        ((20000, 2000), {"MODE": "IMAGE"}, (10000, 1000)),
        ((12000, 3000), {"MODE": "IMAGE"}, (10000, 2500)),
        ((1000, 1000), {"MODE": "IMAGE", "WIDTH": 10000}, (7071, 7071)),
        ((100, 10000), {"MODE": "IMAGE", "WIDTH": 8000}, (100, 10000)),
        ((400, 300), {"MODE": "IMAGE", "HEIGHT": 600}, (800, 600)),
    ],
)
def test_a_canvas_from_the_mask_stays_within_the_limits(tmp_path, size, raw, canvas):
    path = tmp_path / "mask.png"
    Image.new("L", size, 0).save(path)
    mask = load_mask(path, params=parse_params(raw))
    assert (mask.width, mask.height) == canvas


def test_font_sizes_are_checked_against_the_canvas_the_mask_makes(tmp_path):
    path = tmp_path / "mask.png"
    Image.new("L", (300, 200), 0).save(path)
    params = parse_params({"MODE": "IMAGE", "MAX_FONT_SIZE": 250})
    with pytest.raises(InputError) as caught:
        load_mask(path, params=params)
    assert (
        str(caught.value)
        == "params.MAX_FONT_SIZE must be at most the canvas's smaller side (200 px)"
    )
