import numpy as np
import pytest
from PIL import Image

from wordclouds.engine import InputError, load_mask, parse_params

from .conftest import ring_mask


def test_a_ring_has_a_hole_and_keeps_its_size(tmp_path):
    mask = load_mask(
        ring_mask(tmp_path / "ring.png"),
        params=parse_params({"MODE": "IMAGE", "COLOR_FROM_MASK": True}),
    )
    assert (mask.width, mask.height) == (360, 300)
    assert mask.inside[150, 30] and not mask.inside[150, 180] and not mask.inside[0, 0]
    assert mask.colors[150, 30].tolist() == [20, 60, 200]


def test_transparent_background_and_jpeg_masks(tmp_path):
    transparent = load_mask(
        ring_mask(tmp_path / "t.png", transparent=True), params=parse_params({"MODE": "IMAGE"})
    )
    jpeg = load_mask(
        ring_mask(tmp_path / "m.jpg", fmt="JPEG"), params=parse_params({"MODE": "IMAGE"})
    )
    for mask in (transparent, jpeg):
        assert mask.inside[150, 30] and not mask.inside[150, 180] and not mask.inside[2, 2]
    assert abs(transparent.area - jpeg.area) < 0.02 * jpeg.area


def test_the_mask_is_scaled_to_fit_keeping_its_aspect(tmp_path):
    path = ring_mask(tmp_path / "ring.png")
    wide = load_mask(path, params=parse_params({"MODE": "IMAGE", "WIDTH": 720, "HEIGHT": 300}))
    assert (wide.width, wide.height) == (720, 300)
    assert not wide.inside[:, :170].any() and not wide.inside[:, -170:].any()
    assert load_mask(path, params=parse_params({"MODE": "IMAGE", "WIDTH": 720})).height == 600


def test_rect_mode_uses_the_whole_canvas():
    mask = load_mask(None, params=parse_params({"WIDTH": 100, "HEIGHT": 80}))
    assert mask.inside.all() and mask.area == 8000 and mask.colors is None


def test_bad_masks_are_rejected(tmp_path):
    blank = tmp_path / "blank.png"
    Image.new("RGB", (100, 100), "white").save(blank)
    with pytest.raises(InputError, match="^mask_image has no drawable area$"):
        load_mask(blank, params=parse_params({"MODE": "IMAGE"}))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(InputError, match="^mask_image is not a readable image$"):
        load_mask(broken, params=parse_params({"MODE": "IMAGE"}))


def test_the_threshold_decides_what_is_inside(tmp_path):
    grey = tmp_path / "grey.png"
    Image.fromarray(np.full((64, 64), 200, np.uint8)).save(grey)
    assert load_mask(grey, params=parse_params({"MODE": "IMAGE"})).area == 64 * 64
    with pytest.raises(InputError):
        load_mask(grey, params=parse_params({"MODE": "IMAGE", "MASK_THRESHOLD": 150}))
