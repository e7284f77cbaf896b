"""Names that never run together, measured from the outlines in wordcloud.svg (not from the
boxes the engine placed them by): on the 3,000-name heart of the benchmark and a 300-name
Latin list, two words side by side along their reading direction are at least NAME_GAP em of
the smaller apart and never share a colour, and every name is placed."""

from pathlib import Path

import pytest

from tests.names import latin_names, write_names
from wordclouds.engine import generate

from .name_gap_rule import measure

FIXTURES = Path(__file__).resolve().parents[2] / "bench" / "fixtures"
GAP = 0.3  # NAME_GAP's default, in em of the smaller word


def check_gaps(out):
    found = measure(out, GAP)
    assert found.close == []
    assert found.same_color == []
    return found


@pytest.fixture(scope="module")
def heart(tmp_path_factory):
    out = tmp_path_factory.mktemp("heart")
    metrics = generate(
        names_path=FIXTURES / "names_3000.xlsx",
        out_dir=out,
        params={"MODE": "IMAGE", "DATA_COL_INDEX": 1, "SEED": 1, "WIDTH": 2000, "HEIGHT": 2000},
        mask_path=FIXTURES / "heart.png",
    )
    return out, metrics


def test_the_3000_name_heart_keeps_reading_neighbours_apart(heart):
    out, metrics = heart
    assert metrics["names_placed"] == metrics["names_read"] == 3000
    assert metrics["font_size"]["min"] >= 8
    assert check_gaps(out).pairs > 1000  # dense: most words have a neighbour


def test_a_300_name_latin_list_keeps_reading_neighbours_apart(tmp_path):
    names = latin_names(300, seed=300)
    metrics = generate(
        names_path=write_names(tmp_path / "latin.xlsx", names),
        out_dir=tmp_path / "out",
        params={"SEED": 3, "WIDTH": 800, "HEIGHT": 600},
    )
    assert metrics["names_placed"] == 300
    assert check_gaps(tmp_path / "out").pairs > 100
