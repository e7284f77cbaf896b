import pytest

from wordclouds.engine import InputError, parse_params


def test_defaults_when_nothing_is_sent():
    params = parse_params({})
    assert (params.mode, params.margin, params.prefer_horizontal) == ("RECT", 2.0, 0.9)
    assert params.vertical_style == "auto" and params.background_color == "#FFFFFF"
    assert params.seed is None and params.min_font_size is None


def test_values_are_kept_and_colours_upper_cased():
    params = parse_params({"MODE": "IMAGE", "SEED": -3, "PALETTE": ["#abcdef"],
                           "BACKGROUND_COLOR": "transparent", "MARGIN": 0, "WIDTH": 64})
    assert params.seed == -3 and params.palette == ("#ABCDEF",)
    assert params.transparent and params.margin == 0.0 and params.width == 64


@pytest.mark.parametrize("raw, detail", [
    ({"FOO": 1}, "unknown params key: FOO"),
    ({"SEED": "7"}, "params.SEED must be an integer"),
    ({"SEED": True}, "params.SEED must be an integer"),
    ({"SEED": 1.5}, "params.SEED must be an integer"),
    ({"MODE": "CIRCLE"}, "params.MODE must be RECT or IMAGE"),
    ({"WIDTH": 63}, "params.WIDTH must be an integer from 64 to 10000"),
    ({"HEIGHT": 10001}, "params.HEIGHT must be an integer from 64 to 10000"),
    ({"N_REPETITIONS": 0}, "params.N_REPETITIONS must be an integer from 1 to 50"),
    ({"FONT_COLOR": "red"}, "params.FONT_COLOR must be #RRGGBB"),
    ({"PALETTE": []}, "params.PALETTE must be a non-empty array of #RRGGBB colours"),
    ({"BACKGROUND_COLOR": "#FFF"}, "params.BACKGROUND_COLOR must be #RRGGBB or transparent"),
    ({"PREFER_HORIZONTAL": 1.5}, "params.PREFER_HORIZONTAL must be a number from 0 to 1"),
    ({"VERTICAL_STYLE": "up"}, "params.VERTICAL_STYLE must be rotate, stack or auto"),
    ({"MARGIN": -1}, "params.MARGIN must be a number >= 0"),
    ({"STROKE_WIDTH": 0}, "params.STROKE_WIDTH must be a positive number"),
    ({"MIN_FONT_SIZE": "8"}, "params.MIN_FONT_SIZE must be a positive number"),
    ({"MIN_FONT_SIZE": 20, "MAX_FONT_SIZE": 10},
     "params.MAX_FONT_SIZE must be at least MIN_FONT_SIZE"),
    ({"ENABLE_STROKE_WEIGHTS": 1}, "params.ENABLE_STROKE_WEIGHTS must be true or false"),
    ({"MASK_THRESHOLD": 256}, "params.MASK_THRESHOLD must be an integer from 0 to 255"),
    ({"DATA_COL_INDEX": -1}, "params.DATA_COL_INDEX must be an integer >= 0"),
    ({"WIDTH": 10000, "HEIGHT": 6000},
     "params.HEIGHT must be such that WIDTH×HEIGHT is at most 50,000,000"),
])
def test_bad_params_are_rejected_with_the_detail_text(raw, detail):
    with pytest.raises(InputError) as caught:
        parse_params(raw)
    assert str(caught.value) == detail
