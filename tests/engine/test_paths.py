import numpy as np
import shapely

from wordclouds.engine import path_contours
from wordclouds.engine.fonts import CLOSE, CUBIC, LINE, MOVE, QUAD
from wordclouds.engine.outlines import encode_path


def encoded(codes, points):
    return encode_path(np.array(codes, np.uint8), np.array(points, np.int64)).tobytes().decode()


def test_path_text_is_relative_with_h_v_and_implicit_repeats():
    # Two squares in tenths of a pixel: (1,2)-(3.5,4) and (10,10)-(11,11).
    d = encoded(
        [MOVE, LINE, LINE, LINE, CLOSE, MOVE, LINE, LINE, LINE, CLOSE],
        [(10, 20), (35, 20), (35, 40), (10, 40), (100, 100), (110, 100), (110, 110), (100, 110)],
    )
    assert d == "M1 2h2.5v2h-2.5zm9 8h1v1h-1z"
    contours = path_contours(d)
    assert [c.round(6).tolist() for c in contours] == [
        [[1, 2], [3.5, 2], [3.5, 4], [1, 4]],
        [[10, 10], [11, 10], [11, 11], [10, 11]],
    ]


def test_curves_are_flattened_within_the_tolerance():
    d = encoded(
        [MOVE, QUAD, CUBIC, CLOSE], [(0, 0), (50, -50), (100, 0), (100, 50), (0, 50), (0, 0)]
    )
    assert d.startswith("M0 0q5-5 10 0c0 5-10 5-10 0")
    (contour,) = path_contours(d, tolerance=0.01)
    t = np.linspace(0, 1, 201)[:, None]
    quad = (1 - t) ** 2 * [0, 0] + 2 * (1 - t) * t * [5, -5] + t**2 * [10, 0]
    outline = shapely.LinearRing(contour)
    assert max(outline.distance(shapely.Point(p)) for p in quad) < 0.02
