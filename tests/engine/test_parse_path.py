"""Path data read by the engine's parse_path (the exporter's reader too): every command, relative
and absolute, arcs, errors, number syntax."""

import math

import pytest

from wordclouds.engine.path_data import parse_path


def rounded(subpaths):
    return [
        (
            tuple(round(v, 6) for v in s.start),
            [tuple(round(v, 6) for v in seg) for seg in s.segments],
            s.closed,
        )
        for s in subpaths
    ]


def test_relative_and_absolute_commands_draw_the_same_path():
    absolute = parse_path(
        "M10 10 L20 10 H30 V20 C30 25 25 30 20 30 S10 25 10 20 Q10 15 12 12 T15 10 Z"
    )
    relative = parse_path(
        "m10 10 l10 0 h10 v10 c0 5 -5 10 -10 10 s-10 -5 -10 -10 q0 -5 2 -8 t3 -2 z"
    )
    assert rounded(absolute) == rounded(relative)
    assert absolute[0].closed and len(absolute[0].segments) == 7


def test_an_arc_becomes_cubics_that_end_where_it_ends_and_bulge_the_right_way():
    # a half circle from (0,0) to (20,0), sweep flag 1: clockwise on screen, so above (y < 0)
    [sub] = parse_path("M0 0 A10 10 0 0 1 20 0")
    assert len(sub.segments) == 2
    assert sub.segments[-1][4:] == (20.0, 0.0)
    assert sub.segments[0][4:] == pytest.approx((10.0, -10.0))


def test_arc_flags_may_be_written_without_separators():
    assert rounded(parse_path("M0 0 a5 5 0 1120 0")) == rounded(parse_path("M0 0 a5 5 0 1 1 20 0"))


def test_path_data_with_an_error_keeps_what_came_before():
    [sub] = parse_path("M0 0 L10 0 L10 10 X 5 5")
    assert sub.segments == [(10.0, 0.0), (10.0, 10.0)]


def test_arc_segments_stay_on_the_circle():
    [sub] = parse_path("M10 0 A10 10 0 1 1 -10 0 A10 10 0 1 1 10 0")
    for segment in sub.segments:
        assert math.hypot(segment[4], segment[5]) == pytest.approx(10)


@pytest.mark.parametrize(
    "compact, spaced",
    [
        ("M0.5.5L1-2", "M 0.5 0.5 L 1 -2"),
        ("M1e1,2E-1 l3e+0 0", "M 10 0.2 l 3 0"),
        ("M0,0 10,10 20,0", "M0 0 L10 10 L20 0"),
        ("m1 1 2 2z l1 1", "M1 1 L3 3 Z M1 1 L2 2"),
    ],
)
def test_number_syntax_variants_read_the_same(compact, spaced):
    assert rounded(parse_path(compact)) == rounded(parse_path(spaced))


@pytest.mark.parametrize("data", ["", "L10 10", "x M0 0 L1 1", "M"])
def test_path_data_that_does_not_start_with_a_moveto_draws_nothing(data):
    assert all(not sub.segments for sub in parse_path(data))
