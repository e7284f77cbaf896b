"""Neighbours that look different (docs/engine.md, Colours): the CIEDE2000 difference the
rule measures by, the built-in palette's colours pairwise far apart also as a deuteranope
sees them, near twins in a given palette never put side by side, and the metrics' least
neighbour difference and warning, measured from wordcloud.svg's outlines."""

import numpy as np
import pytest

from tests.names import latin_names, write_names
from wordclouds.engine import generate
from wordclouds.engine.colors import (
    LEAST_DEUTAN_DIFFERENCE,
    LEAST_DIFFERENCE,
    ciede2000,
    differences,
)
from wordclouds.engine.params import DEFAULT_PALETTE

from .name_gap_rule import measure

# Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula: implementation
# notes, supplementary test data": pairs 1, 7, 11, 15, 17, 19, 25, 27, 34.
SHARMA = [
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.49, -0.001), (50, -2.49, 0.0009), 7.1792),
    ((50, -0.001, 2.49), (50, 0.0009, -2.49), 4.8045),
    ((50, -0.001, 2.49), (50, 0.0011, -2.49), 4.7461),
    ((50, 2.5, 0), (56, -27, -3), 31.903),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]
# Five colours far apart, each with a near twin (CIEDE2000 under 6).
TWINNED = ["#123060", "#B40006", "#AE8A0C", "#0C6C48", "#C666EA"]
TWINS = ["#1A3A6C", "#A8100E", "#A08010", "#107450", "#BE5EE0"]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_gives_the_published_differences(lab1, lab2, expected):
    assert float(ciede2000(lab1, lab2)) == pytest.approx(expected, abs=1e-4)
    assert float(ciede2000(lab2, lab1)) == pytest.approx(expected, abs=1e-4)


def test_the_built_in_palette_is_pairwise_far_apart():
    normal, deutan = differences(list(DEFAULT_PALETTE))
    off = ~np.eye(len(DEFAULT_PALETTE), dtype=bool)
    assert normal[off].min() >= LEAST_DIFFERENCE + 5
    assert deutan[off].min() >= LEAST_DEUTAN_DIFFERENCE + 5
    twins = differences(TWINNED + TWINS)[0]
    assert all(twins[k, k + 5] < 6 for k in range(5))


def _run(tmp_path, palette):
    names = latin_names(120, 3)
    params = {"SEED": 3, "WIDTH": 420, "HEIGHT": 320, "NAME_GAP": 0.3, "PALETTE": palette}
    metrics = generate(
        names_path=write_names(tmp_path / "names.xlsx", names), out_dir=tmp_path, params=params
    )
    return metrics, measure(tmp_path, 0.3)


def test_near_twins_in_a_palette_are_never_neighbours(tmp_path):
    metrics, found = _run(tmp_path, TWINNED + TWINS)
    assert found.pairs >= 20 and found.same_color == [] and found.alike == []
    least = metrics["least_neighbour_difference"]
    assert least["ciede2000"] >= LEAST_DIFFERENCE
    assert least["deuteranopia"] >= LEAST_DEUTAN_DIFFERENCE
    assert "palette_warning" not in metrics


def test_a_palette_of_twins_says_it_is_too_small(tmp_path):
    metrics, found = _run(tmp_path, ["#B40006", "#A8100E"])
    twins = round(float(differences(["#B40006", "#A8100E"])[0][0, 1]), 1)
    assert found.alike and found.least[0] <= twins  # twins side by side, or even one colour
    assert metrics["least_neighbour_difference"]["ciede2000"] <= twins
    pairs = metrics["reading_neighbours"]
    assert metrics["palette_warning"].startswith(
        f"{pairs} of {pairs} pairs of reading neighbours have colours that read as one"
    )
    assert "PALETTE has 2 colours, 1 of them far enough apart" in metrics["palette_warning"]
