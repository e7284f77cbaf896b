"""Runs that exercise one option or edge case each, on small canvases."""

import gc
import io
import re
import sqlite3
import statistics

import numpy as np
import pytest
from PIL import Image

from wordclouds.engine import InputError, LayoutError, generate, placement_outlines
from wordclouds.engine.__main__ import main

from .conftest import ring_mask

CJK = ["王小明", "李娜", "张伟", "刘洋", "陈静", "杨磊", "赵敏", "周杰伦"]


def words(out):
    db = sqlite3.connect(out / "positions.db")
    db.row_factory = sqlite3.Row
    rows = [dict(r) for r in db.execute("SELECT * FROM words ORDER BY id")]
    db.close()
    return rows


def run(tmp_path, names_file, names, params, **kwargs):
    out = tmp_path / "out"
    metrics = generate(
        names_path=names_file(names),
        out_dir=out,
        params={"WIDTH": 400, "HEIGHT": 300, "SEED": 1, **params},
        **kwargs,
    )
    return out, metrics


def test_the_same_seed_gives_the_same_words_table(tmp_path, names_file):
    path = names_file(CJK * 3)
    tables = []
    for attempt in range(2):
        generate(
            names_path=path,
            out_dir=tmp_path / str(attempt),
            params={"WIDTH": 400, "HEIGHT": 300, "SEED": 42},
        )
        tables.append(words(tmp_path / str(attempt)))
    assert tables[0] == tables[1]
    generate(
        names_path=path,
        out_dir=tmp_path / "other",
        params={"WIDTH": 400, "HEIGHT": 300, "SEED": 43},
    )
    assert words(tmp_path / "other") != tables[0]


def test_one_name_alone(tmp_path, names_file):
    out, metrics = run(tmp_path, names_file, ["Alice"], {})
    assert metrics["placements"] == 1 and metrics["font_size"]["max"] > 40


def test_a_hundred_character_cjk_name(tmp_path, names_file):
    long_name = "王李张刘陈杨黄赵周吴" * 10
    out, metrics = run(tmp_path, names_file, [long_name, "李娜"], {"WIDTH": 1000, "HEIGHT": 140})
    assert [r["name"] for r in words(out)] == [long_name, "李娜"]


def test_names_that_cannot_fit_fail_with_the_count_and_advice(tmp_path, names_file):
    with pytest.raises(LayoutError) as caught:
        run(tmp_path, names_file, CJK * 40, {"WIDTH": 100, "HEIGHT": 100, "MIN_FONT_SIZE": 12})
    message = str(caught.value)
    assert " of 320 names did not fit" in message
    assert "larger canvas" in message and "MIN_FONT_SIZE" in message
    assert not (tmp_path / "out").exists()


def test_retries_are_told_and_counts_never_go_back_within_an_attempt(tmp_path, names_file):
    # Given names that do not fit, so that every attempt is made
    events = []
    with pytest.raises(LayoutError):
        run(
            tmp_path,
            names_file,
            CJK * 40,
            {"WIDTH": 100, "HEIGHT": 100},
            progress=lambda stage, percent, message: events.append((stage, percent, message)),
        )
    placing = [(percent, message) for stage, percent, message in events if stage == "placing_words"]
    # Then each retry says which attempt it is and why
    retries = [m for _, m in placing if "retrying" in m]
    assert retries == [
        f"attempt {n} of 4: retrying with smaller words ({m.split('(')[1]}"
        for n, m in zip((2, 3, 4), retries)
    ]
    # And the percent never goes down, nor the count of placed names within an attempt
    assert [p for p, _ in placing] == sorted(p for p, _ in placing)
    counts = {}
    for _, message in placing:
        found = re.fullmatch(r"(?:attempt (\d) of 4: )?placed (\d+) of 320 names", message)
        if found:
            counts.setdefault(found[1] or "1", []).append(int(found[2]))
    assert sorted(counts) == ["1", "2", "3", "4"]
    assert all(values == sorted(values) for values in counts.values())


def test_transparent_background_gives_rgba(tmp_path, names_file):
    out, _ = run(tmp_path, names_file, CJK, {"BACKGROUND_COLOR": "transparent"})
    image = Image.open(out / "wordcloud.png")
    assert image.mode == "RGBA" and image.getextrema()[3] == (0, 255)
    pixels = np.asarray(image)
    clear = pixels[..., 3] == 0
    assert not pixels[clear].any()  # a fully transparent pixel carries no colour
    assert "<rect" not in (out / "wordcloud.svg").read_text()
    assert Image.open(io.BytesIO((out / "wordcloud.png").read_bytes())).size == (400, 300)


def test_colours_come_from_the_mask_image(tmp_path, names_file):
    mask = ring_mask(tmp_path / "ring.jpg", size=(500, 400), fmt="JPEG")
    out, _ = run(
        tmp_path,
        names_file,
        CJK * 2,
        {"MODE": "IMAGE", "COLOR_FROM_MASK": True, "WIDTH": 500, "HEIGHT": 400},
        mask_path=mask,
    )
    for row in words(out):
        red, green, blue = (int(row["color"][i : i + 2], 16) for i in (1, 3, 5))
        assert blue > 150 and red < 80  # the ring is (20, 60, 200)


def test_a_transparent_png_mask(tmp_path, names_file):
    mask = ring_mask(tmp_path / "ring.png", size=(500, 400), transparent=True)
    out, metrics = run(
        tmp_path,
        names_file,
        CJK * 2,
        {"MODE": "IMAGE", "WIDTH": 500, "HEIGHT": 400},
        mask_path=mask,
    )
    assert metrics["names_placed"] == 16
    for row in words(out):  # nothing in the hole in the middle
        assert not (
            row["box_x"] > 180
            and row["box_x"] + row["box_width"] < 320
            and row["box_y"] > 150
            and row["box_y"] + row["box_height"] < 250
        )


@pytest.mark.parametrize("style", ["stack", "rotate"])
def test_vertical_styles(tmp_path, names_file, style):
    out, _ = run(tmp_path, names_file, CJK, {"PREFER_HORIZONTAL": 0, "VERTICAL_STYLE": style})
    rows = words(out)
    assert {r["orientation"] for r in rows} == {"vertical"}
    for r in rows:
        assert r["box_height"] > r["box_width"]
    # Upright stacked characters are as wide as one character; a rotated word is as wide as
    # a line of text is tall, the same for every name of a given size.
    assert all(r["ink_width"] <= 1.05 * r["font_size"] for r in rows)


def test_auto_stacks_cjk_and_rotates_latin(tmp_path, names_file):
    out, _ = run(tmp_path, names_file, ["王小明", "Alexander"], {"PREFER_HORIZONTAL": 0})
    svg = {row["name"]: d for row, d in placement_outlines(out / "positions.db")}
    assert len(svg) == 2 and all(svg.values())


def test_missing_characters_are_drawn_with_the_default_font(tmp_path, names_file, latin_font):
    out, metrics = run(
        tmp_path,
        names_file,
        ["Anna 王", "李娜", "Bob"],
        {"PREFER_HORIZONTAL": 1},  # so the width below is along the line
        font_path=latin_font,
    )
    assert metrics["font"]["file"] == "latin-only.otf"
    rows = {row["name"]: d for row, d in placement_outlines(out / "positions.db", latin_font)}
    assert set(rows) == {"Anna 王", "李娜", "Bob"}
    li_na = [r for r in words(out) if r["name"] == "李娜"][0]
    assert li_na["ink_width"] > 1.5 * li_na["font_size"] * 0.8  # two full CJK characters


def test_repetitions_fill_leftover_space(tmp_path, names_file):
    out, metrics = run(tmp_path, names_file, CJK, {"N_REPETITIONS": 3})
    rows = words(out)
    assert metrics["placements"] == len(rows) > len(CJK)
    assert {r["repetition"] for r in rows} <= {1, 2, 3}
    assert sorted(r["name"] for r in rows if r["repetition"] == 1) == sorted(CJK)


def test_stroke_weights_follow_font_size(tmp_path, names_file):
    out, _ = run(
        tmp_path,
        names_file,
        CJK + ["Alexander the Great"],
        {"ENABLE_STROKE_WEIGHTS": True, "STROKE_WIDTH": 2},
    )
    widths = [
        float(w)
        for w in re.findall(r'stroke-width="([^"]+)"', (out / "wordcloud-stroke.svg").read_text())
    ]
    sizes = [r["font_size"] for r in words(out)]
    assert widths == [float(f"{2 * size / statistics.median(sizes):.3g}") for size in sizes]
    assert len(set(widths)) > 1


def test_command_line(tmp_path, names_file, capsys):
    names = names_file(CJK)
    assert (
        main(
            [
                str(names),
                "--params",
                '{"WIDTH": 300, "HEIGHT": 200}',
                "--out",
                str(tmp_path / "cli"),
            ]
        )
        == 0
    )
    assert len(list((tmp_path / "cli").iterdir())) == 6  # five artifacts and the kept ink
    assert gc.isenabled()  # the cycle collector is paused during a run only
    assert main([str(names), "--params", '{"SEED": "x"}', "--out", str(tmp_path / "bad")]) == 2
    assert gc.isenabled()
    error = capsys.readouterr().err
    assert error.strip() == "error: params.SEED must be an integer from 0 to 2^63-1"
    assert main([str(names), "--params", "[1]", "--out", str(tmp_path / "bad")]) == 2
    assert main([str(names), "--params", '{"MODE": "IMAGE"}', "--out", str(tmp_path / "b")]) == 2
    assert "mask_image is required when MODE=IMAGE" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


def test_a_bad_names_file_is_reported_before_a_bad_mask(tmp_path, names_file):
    """The shape is prepared in a second thread while the names are read: the errors still
    come in the order of the steps, and the mask's once the names are good."""
    broken_mask = tmp_path / "mask.png"
    broken_mask.write_bytes(b"not an image")
    broken_names = tmp_path / "names.xlsx"
    broken_names.write_bytes(b"not a workbook")
    for names, error in (
        (broken_names, "name_list is not a readable xlsx file"),
        (names_file(CJK), "mask_image is not a readable image"),
    ):
        with pytest.raises(InputError, match=f"^{error}$"):
            generate(
                names_path=names,
                out_dir=tmp_path / "out",
                params={"MODE": "IMAGE"},
                mask_path=broken_mask,
            )
        assert not (tmp_path / "out").exists()
