"""The name-gap and neighbour-colour rules of docs/engine.md, measured from the outlines in a
run's wordcloud.svg (not from the boxes the engine placed them by). A plain module, so the
tests and bench/name_gaps.py measure the same way."""

import math
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely

from wordclouds.engine import path_contours
from wordclouds.engine.colors import LEAST_DEUTAN_DIFFERENCE, LEAST_DIFFERENCE, differences

PATH = re.compile(r'<path id="w(\d+)" fill="(#[0-9A-F]{6})" d="([^"]*)"/>')
# The SVG's coordinates are rounded to 0.1 px and its curves flattened here: 0.1 px of slack.
SLACK = 0.1
SIMILAR_SIZE = 1.5  # neighbours whose sizes are within this factor must look different


@dataclass
class Word:
    """One placement as drawn: its outline (shapely), colour, font size and orientation."""

    number: int
    name: str
    outline: shapely.Geometry
    color: str
    size: float
    vertical: bool


@dataclass
class Findings:
    """What a run breaks: reading-direction neighbour pairs closer than the gap (with their
    distance and the least allowed), pairs sharing a colour, and pairs of similar size
    (within SIMILAR_SIZE) whose colours read as one (CIEDE2000 under LEAST_DIFFERENCE, or
    under LEAST_DEUTAN_DIFFERENCE seen with deuteranopia), out of ``pairs``; ``least`` is
    the least (CIEDE2000, deuteranopia) difference of a similar-size pair's colours."""

    pairs: int
    close: list = field(default_factory=list)
    same_color: list = field(default_factory=list)
    alike: list = field(default_factory=list)
    least: tuple = (math.inf, math.inf)


def drawn_words(out) -> list[Word]:
    """Every placement of the run in ``out`` as drawn in wordcloud.svg."""
    out = Path(out)
    db = sqlite3.connect(out / "positions.db")
    rows = {
        number: (name, size, orientation == "vertical")
        for number, name, size, orientation in db.execute(
            "SELECT id, name, font_size, orientation FROM words"
        )
    }
    db.close()
    words = []
    for number, color, d in PATH.findall((out / "wordcloud.svg").read_text()):
        name, size, vertical = rows[int(number)]
        outline = shapely.MultiLineString([np.vstack([c, c[:1]]) for c in path_contours(d, 0.05)])
        words.append(Word(int(number), name, outline, color, size, vertical))
    return words


def reading_pairs(words: list[Word]) -> list[tuple[int, int]]:
    """Index pairs of words of one orientation side by side along the reading direction:
    their outlines' bounds share at least half the smaller's extent across it (rows for
    horizontal words, columns for vertical ones) and lie one after the other along it, less
    than one em of the larger apart: names that could be read as one."""
    bounds = np.array([w.outline.bounds for w in words]).reshape(-1, 4)  # x0, y0, x1, y1
    sizes = np.array([w.size for w in words])
    vertical = np.array([w.vertical for w in words])
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
        near &= (gap >= 0) & (gap < np.maximum(sizes[i], sizes[i + 1 :]))
        pairs += [(i, i + 1 + j) for j in np.flatnonzero(near)]
    return pairs


def measure(out, name_gap: float) -> Findings:
    """The rules measured on the run in ``out``: neighbours at least ``name_gap`` em of the
    smaller apart (less 0.1 px for the SVG's rounding), and never of one colour."""
    words = drawn_words(out)
    pairs = reading_pairs(words)
    findings = Findings(pairs=len(pairs))
    for i, j in pairs:
        a, b = words[i], words[j]
        least = name_gap * min(a.size, b.size)
        distance = float(shapely.distance(a.outline, b.outline))
        if distance < least - SLACK:
            findings.close.append((a.name, b.name, round(distance, 2), round(least, 2)))
        if a.color == b.color:
            findings.same_color.append((a.name, b.name, a.color))
        if max(a.size, b.size) <= SIMILAR_SIZE * min(a.size, b.size):
            _compare_colors(findings, a, b)
    return findings


def _compare_colors(findings: Findings, a: Word, b: Word) -> None:
    """Record how far apart the colours of neighbours ``a`` and ``b`` are."""
    normal, deutan = (float(d[0, 1]) for d in differences([a.color, b.color]))
    findings.least = (min(findings.least[0], normal), min(findings.least[1], deutan))
    if normal < LEAST_DIFFERENCE or deutan < LEAST_DEUTAN_DIFFERENCE:
        findings.alike.append(
            (a.name, b.name, a.color, b.color, round(normal, 1), a.number, b.number)
        )
