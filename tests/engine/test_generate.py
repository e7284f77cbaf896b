"""One run on a ring-shaped mask with CJK, Latin, mixed, duplicate and 100-character names,
checked against every promise of the artifacts."""

import io
import json
import re
import sqlite3

import cairosvg
import numpy as np
import pytest
import shapely
from PIL import Image

from tests.names import write_names
from wordclouds.engine import (
    STAGES,
    generate,
    load_mask,
    parse_params,
    path_contours,
    placement_outlines,
)

from .conftest import ink, ring_mask

SURNAMES = "王李张刘陈杨黄赵周吴徐孙马朱胡郭何林"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚"
LATIN = ["Alice", "Bob Smith", "Zoë Ångström", "O'Neil", "Jean-Luc"]
MIXED = ["Anna 王", "李 Lee", "Maria 陈静"]
LONG = ("Bartholomew Maximilian " * 5)[:100]
PARAMS = {"MODE": "IMAGE", "SEED": 7, "FONT_COLOR": "#000000", "MARGIN": 2}


def cjk_names(count):
    return [
        SURNAMES[i % len(SURNAMES)] + GIVEN[(i * 7) % len(GIVEN)] + GIVEN[i % 13]
        for i in range(count)
    ]


NAMES = cjk_names(70) + LATIN + MIXED + ["王伟", "王伟", "Alice", LONG]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("run")
    names_path = write_names(base / "names.xlsx", NAMES)
    mask_path = ring_mask(base / "ring.png", size=(640, 520))
    calls = []
    metrics = generate(
        names_path=names_path,
        out_dir=base / "out",
        params=PARAMS,
        mask_path=mask_path,
        progress=lambda *call: calls.append(call),
    )
    db = sqlite3.connect(base / "out" / "positions.db")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM words ORDER BY id")]
    meta = dict(db.execute("SELECT key, value FROM meta"))
    db.close()
    mask = load_mask(mask_path, params=parse_params(PARAMS))
    return {
        "out": base / "out",
        "metrics": metrics,
        "calls": calls,
        "rows": rows,
        "meta": meta,
        "mask": mask,
    }


def test_every_name_is_placed(run):
    assert run["metrics"]["names_read"] == run["metrics"]["names_placed"] == len(NAMES)
    assert sorted(r["name"] for r in run["rows"]) == sorted(NAMES)
    assert sorted(r["row"] for r in run["rows"]) == list(range(2, len(NAMES) + 2))


def test_the_five_artifacts_are_complete(run):
    """The five artifacts, and the words' ink kept for revisions (restamp.INKS)."""
    files = sorted(p.name for p in run["out"].iterdir())
    assert files == [
        "inks.npz",
        "metrics.json",
        "positions.db",
        "wordcloud-stroke.svg",
        "wordcloud.png",
        "wordcloud.svg",
    ]
    assert json.loads((run["out"] / "metrics.json").read_text()) == run["metrics"]


def test_no_ink_outside_the_mask_or_the_word_boxes(run):
    png = ink(Image.open(run["out"] / "wordcloud.png")) > 0
    boxes = np.zeros_like(png)
    for r in run["rows"]:
        boxes[
            r["box_y"] : r["box_y"] + r["box_height"], r["box_x"] : r["box_x"] + r["box_width"]
        ] = 1
    assert png.any()
    assert not (png & ~run["mask"].inside).any()
    assert not (png & ~boxes).any()


def test_each_box_holds_its_own_outline_and_stays_on_the_canvas(run):
    width, height = int(run["meta"]["canvas_width"]), int(run["meta"]["canvas_height"])
    for row, d in placement_outlines(run["out"] / "positions.db"):
        points = np.concatenate(path_contours(d, 0.05)).round(6)
        assert points[:, 0].min() >= row["ink_x"] >= row["box_x"] >= 0
        assert points[:, 1].min() >= row["ink_y"] >= row["box_y"] >= 0
        assert points[:, 0].max() <= row["ink_x"] + row["ink_width"]
        assert points[:, 1].max() <= row["ink_y"] + row["ink_height"]
        assert row["box_x"] + row["box_width"] <= width
        assert row["box_y"] + row["box_height"] <= height
        assert row["x"] == row["box_x"] + row["box_width"] / 2


def test_no_two_words_are_closer_than_the_margin(run):
    words = [
        shapely.MultiLineString([np.vstack([c, c[:1]]) for c in path_contours(d, 0.05)])
        for _, d in placement_outlines(run["out"] / "positions.db")
    ]
    tree = shapely.STRtree(words)
    pairs = tree.query(words, predicate="dwithin", distance=PARAMS["MARGIN"] - 0.25)
    assert [(a, b) for a, b in pairs.T if a != b] == []


def test_the_svg_is_outlines_only_with_one_path_per_placement(run):
    svg = (run["out"] / "wordcloud.svg").read_text()
    stroke = (run["out"] / "wordcloud-stroke.svg").read_text()
    assert "<text" not in svg and 'viewBox="0 0 640 520"' in svg
    ids = re.findall(r'<path id="w(\d+)"', svg)
    assert [int(i) for i in ids] == [r["id"] for r in run["rows"]]
    assert re.findall(r'<path id="w(\d+)"', stroke) == ids
    assert stroke.count('fill="none"') == len(ids) and 'stroke-width="1"' in stroke
    assert not re.search(r"\d\.\d\d", svg)  # one decimal at most: compact path data


def test_the_svg_paths_are_redrawn_from_the_database_and_font(run):
    svg = (run["out"] / "wordcloud.svg").read_text()
    paths = dict(re.findall(r'<path id="w(\d+)" fill="[^"]+" d="([^"]*)"', svg))
    redrawn = {str(row["id"]): d for row, d in placement_outlines(run["out"] / "positions.db")}
    assert redrawn == paths


def test_the_png_agrees_with_the_rasterised_svg(run):
    svg_png = Image.open(io.BytesIO(cairosvg.svg2png(url=str(run["out"] / "wordcloud.svg"))))
    reference = ink(svg_png.convert("RGB"))
    painted = ink(Image.open(run["out"] / "wordcloud.png"))
    # Anti-aliasing of small text differs between rasterisers, so compare coverage.
    assert np.minimum(reference, painted).sum() / np.maximum(reference, painted).sum() >= 0.97
    big = np.zeros_like(painted, dtype=bool)
    for r in run["rows"]:
        if r["font_size"] >= 24:
            big[
                r["ink_y"] : r["ink_y"] + r["ink_height"], r["ink_x"] : r["ink_x"] + r["ink_width"]
            ] = 1
    a, b = (reference > 0.5) & big, (painted > 0.5) & big
    # 0.965-0.978 over seeds: which words are large (and how thin their strokes) moves it.
    assert (a & b).sum() / (a | b).sum() >= 0.96


def test_metrics_describe_the_run(run):
    metrics = run["metrics"]
    assert metrics["placements"] == len(run["rows"]) and metrics["seed"] == 7
    assert metrics["canvas"] == {"width": 640, "height": 520}
    assert metrics["mask_area"] == run["mask"].area
    sizes = sorted(r["font_size"] for r in run["rows"])
    assert metrics["font_size"]["min"] == sizes[0] and metrics["font_size"]["max"] == sizes[-1]
    assert 0.3 < metrics["box_coverage"] <= 1
    assert set(metrics["stage_seconds"]) == set(STAGES)


def test_meta_records_what_redrawing_needs(run):
    meta = run["meta"]
    assert meta["canvas_width"] == "640" and meta["seed"] == "7"
    assert json.loads(meta["params"]) == PARAMS
    assert meta["font"] == "NotoSansCJK-Regular.ttc" and meta["vertical_style"] == "auto"


def test_progress_goes_through_the_stages_in_order_and_never_back(run):
    stages = [stage for stage, _, _ in run["calls"]]
    assert list(dict.fromkeys(stages)) == list(STAGES)
    percents = [percent for _, percent, _ in run["calls"]]
    assert percents == sorted(percents) and percents[-1] == 100
    assert len({p for s, p, _ in run["calls"] if s == "placing_words"}) > 5


def test_the_position_database_has_a_name_index(run):
    db = sqlite3.connect(run["out"] / "positions.db")
    plan = db.execute("EXPLAIN QUERY PLAN SELECT * FROM words WHERE name = ?", ("王伟",)).fetchall()
    assert "USING INDEX" in str(plan)
    assert len(db.execute("SELECT id FROM words WHERE name = '王伟'").fetchall()) == 2
    db.close()
