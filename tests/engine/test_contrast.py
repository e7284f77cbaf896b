"""Readable colours, measured from wordcloud.png itself: every colour the engine chooses (the
built-in palette, COLOR_FROM_MASK on a photo) keeps 3:1 contrast with a white, black or
mid-grey background; a FONT_COLOR the user fixed is kept, with a warning."""

import re
import sqlite3

import numpy as np
import pytest
from PIL import Image, ImageDraw

from tests.names import write_names
from wordclouds.engine import generate, path_contours
from wordclouds.engine.colors import contrast, readable, to_rgb
from wordclouds.engine.params import DEFAULT_PALETTE

BACKGROUNDS = ["#FFFFFF", "#000000", "#808080"]
NAMES = ["王伟", "Alice", "李娜", "Bob Smith", "张敏", "Zoë", "刘洋", "陈静", "Jean-Luc"] * 3
PATH = re.compile(r'<path id="w(\d+)" fill="#[0-9A-F]{6}" d="([^"]*)"/>')


def photo(path, size=(900, 600)):
    """A photo-like image: smooth colour fields of every hue and lightness, light cyan and
    near-white and near-black among them, with grain, saved as JPEG."""
    y, x = np.mgrid[0 : size[1], 0 : size[0]] / np.array([size[1], size[0]]).reshape(2, 1, 1)
    rng = np.random.default_rng(5)
    channels = [
        0.5 + 0.5 * np.sin(2 * np.pi * (1.3 * x + 0.7 * y) + phase) for phase in (0, 2.1, 4.2)
    ]
    light = 0.5 + 0.5 * np.cos(2 * np.pi * 1.7 * y)  # from white bands to black ones
    image = np.stack(channels, axis=2) * 0.5 + light[..., None] * 0.5
    image = np.clip(image * 255 + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    Image.fromarray(image).save(path, format="JPEG", quality=90)
    return path


def interiors(out):
    """Per word, the PNG pixels its outline covers fully (its filled outline, drawn even-odd
    with Pillow, shrunk by one pixel on every side)."""
    png = np.asarray(Image.open(out / "wordcloud.png").convert("RGB"))
    height, width = png.shape[:2]
    words = []
    for _, d in PATH.findall((out / "wordcloud.svg").read_text()):
        filled = np.zeros((height, width), dtype=bool)
        for contour in path_contours(d, 0.05):
            layer = Image.new("1", (width, height))
            ImageDraw.Draw(layer).polygon([tuple(p) for p in contour], fill=1)
            filled ^= np.asarray(layer)
        inner = filled.copy()
        inner[1:-1, 1:-1] &= (
            filled[:-2, 1:-1] & filled[2:, 1:-1] & filled[1:-1, :-2] & filled[1:-1, 2:]
        )
        inner[[0, -1], :] = inner[:, [0, -1]] = False
        words.append(png[inner])
    return words


def lowest_measured(out, background):
    words = interiors(out)
    assert all(len(pixels) for pixels in words)  # every word has fully inked pixels
    return min(float(contrast(np.median(p, axis=0), to_rgb(background))) for p in words)


def run(tmp_path, params, mask=None):
    out = tmp_path / "out"
    metrics = generate(
        names_path=write_names(tmp_path / "names.xlsx", NAMES),
        out_dir=out,
        params={"SEED": 4, "WIDTH": 900, "HEIGHT": 600, "MIN_FONT_SIZE": 40, **params},
        mask_path=mask,
    )
    return out, metrics


@pytest.mark.parametrize("background", BACKGROUNDS)
def test_the_built_in_palette_reads_on_every_background(tmp_path, background):
    out, metrics = run(tmp_path, {"BACKGROUND_COLOR": background})
    assert lowest_measured(out, background) >= 3.0
    assert metrics["lowest_contrast"] >= 3.0 and "contrast_warning" not in metrics


@pytest.mark.parametrize("background", BACKGROUNDS)
def test_colours_from_a_photo_read_on_every_background(tmp_path, background):
    mask = photo(tmp_path / "photo.jpg")
    out, metrics = run(tmp_path, {"BACKGROUND_COLOR": background, "COLOR_FROM_MASK": True}, mask)
    db = sqlite3.connect(out / "positions.db")
    colors = {c for (c,) in db.execute("SELECT color FROM words")}
    db.close()
    assert len(colors) > len(NAMES) / 2  # the photo's colours, not one for all
    assert lowest_measured(out, background) >= 3.0
    assert metrics["lowest_contrast"] >= 3.0


def test_a_fixed_font_colour_is_kept_with_a_warning(tmp_path):
    out, metrics = run(tmp_path, {"FONT_COLOR": "#EEEEEE"})
    assert metrics["lowest_contrast"] == pytest.approx(1.16, abs=0.01)
    assert "FONT_COLOR #EEEEEE" in metrics["contrast_warning"]
    assert all(abs(m - 1.16) < 0.01 for m in [lowest_measured(out, "#FFFFFF")])


def test_only_lightness_changes():
    # Light cyan on white (1.3:1) becomes a darker cyan: same hue, chroma kept where the
    # gamut allows; a colour that already reads is left alone.
    (darker,) = readable(["#7FE5F0"], "#FFFFFF")
    assert contrast(to_rgb(darker), to_rgb("#FFFFFF")) >= 3.0
    red, green, blue = to_rgb(darker)
    assert red < green and abs(green - blue) < 12 and green < 0xE5  # still a cyan, darker
    assert readable(list(DEFAULT_PALETTE[:2]), "#FFFFFF") == list(DEFAULT_PALETTE[:2])
    assert readable(["#1F4E79"], "#000000") != ["#1F4E79"]  # dark blue on black is lifted
