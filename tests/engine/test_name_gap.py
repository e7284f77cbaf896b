"""Names that never run together, measured from the outlines in wordcloud.svg (not from the
boxes the engine placed them by): on the 3,000-name heart of the benchmark and a 300-name
Latin list, two words side by side along their reading direction are at least NAME_GAP em of
the smaller apart and never share a colour, and every name is placed."""

import random
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
import shapely

from wordclouds.engine import generate, path_contours

from .conftest import write_names

FIXTURES = Path(__file__).resolve().parents[2] / "bench" / "fixtures"
PATH = re.compile(r'<path id="w(\d+)" fill="(#[0-9A-F]{6})" d="([^"]*)"/>')
GAP = 0.3  # NAME_GAP's default, in em of the smaller word
# The SVG's coordinates are rounded to 0.1 px and its curves flattened here: 0.1 px of slack.
SLACK = 0.1


def _words(out):
    """Per word: outline (shapely), colour, font size and whether it is vertical."""
    db = sqlite3.connect(out / "positions.db")
    rows = {
        i: (size, orientation == "vertical")
        for i, size, orientation in db.execute("SELECT id, font_size, orientation FROM words")
    }
    db.close()
    words = []
    for number, color, d in PATH.findall((out / "wordcloud.svg").read_text()):
        size, vertical = rows[int(number)]
        outline = shapely.MultiLineString([np.vstack([c, c[:1]]) for c in path_contours(d, 0.05)])
        words.append((outline, color, size, vertical))
    return words


def reading_pairs(words):
    """Pairs of words of one orientation side by side along the reading direction: their
    outlines' bounds share at least half the smaller's extent across it (rows for horizontal
    words, columns for vertical ones) and lie one after the other along it, less than one em
    of the smaller apart: names that could be read as one."""
    bounds = np.array([w[0].bounds for w in words])  # x0, y0, x1, y1
    sizes = np.array([w[2] for w in words])
    vertical = np.array([w[3] for w in words])
    pairs = []
    for i in range(len(words)):
        along, across = (1, 0) if vertical[i] else (0, 1)
        a, rest = bounds[i], bounds[i + 1 :]
        overlap = np.minimum(a[across + 2], rest[:, across + 2]) - np.maximum(
            a[across], rest[:, across]
        )
        gap = np.maximum(rest[:, along] - a[along + 2], a[along] - rest[:, along + 2])
        extent = np.minimum(a[across + 2] - a[across], rest[:, across + 2] - rest[:, across])
        near = (vertical[i + 1 :] == vertical[i]) & (overlap >= extent / 2)
        near &= (gap >= 0) & (gap < np.minimum(sizes[i], sizes[i + 1 :]))
        pairs += [(i, i + 1 + j) for j in np.flatnonzero(near)]
    return pairs


def check_gaps(out):
    words = _words(out)
    pairs = reading_pairs(words)
    assert len(pairs) > len(words) / 3  # the lists are dense: most words have a neighbour
    close, same = [], []
    for i, j in pairs:
        least = GAP * min(words[i][2], words[j][2])
        distance = shapely.distance(words[i][0], words[j][0])
        if distance < least - SLACK:
            close.append((i, j, round(distance, 2), round(least, 2)))
        if words[i][1] == words[j][1]:
            same.append((i, j, words[i][1]))
    assert close == []
    assert same == []
    return len(pairs)


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
    check_gaps(out)


def test_a_300_name_latin_list_keeps_reading_neighbours_apart(tmp_path):
    rng = random.Random(300)
    first = ["Dmitri", "Chloé", "Anna", "Lukas", "Mia", "Noah", "Emma", "Jonas", "Léa", "Oskar"]
    last = ["Smith", "Müller", "García", "Rossi", "Novak", "Dubois", "Berg", "Silva", "Kim"]
    names = [f"{rng.choice(first)} {rng.choice(last)}" for _ in range(300)]
    metrics = generate(
        names_path=write_names(tmp_path / "latin.xlsx", names),
        out_dir=tmp_path / "out",
        params={"SEED": 3, "WIDTH": 800, "HEIGHT": 600},
    )
    assert metrics["names_placed"] == 300
    check_gaps(tmp_path / "out")
