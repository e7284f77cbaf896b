"""The drawable shape: a rectangle, or the inside of a mask image scaled onto the canvas."""

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from .errors import InputError
from .params import DEFAULT_CANVAS, MAX_CANVAS_PIXELS, Params, check_canvas, fit_canvas
from .text_mask import TextShape, text_shape

UNREADABLE = "mask_image is not a readable image"


@dataclass
class Mask:
    """``inside[y, x]`` is True where words may draw; ``colors`` is the mask image's RGB at
    canvas size when COLOR_FROM_MASK needs it (else None); ``letters`` the text's outlines
    in MODE=TEXT (else None)."""

    inside: np.ndarray
    colors: np.ndarray | None
    letters: "TextShape | None" = None  # MODE=TEXT: the letters' outlines
    # With groups and a mask image of several flat colours: per pixel the index of its
    # colour (-1 outside), and the colours (#RRGGBB).
    flat: tuple[np.ndarray, list[str]] | None = None

    @property
    def width(self) -> int:
        """Canvas width in pixels."""
        return self.inside.shape[1]

    @property
    def height(self) -> int:
        """Canvas height in pixels."""
        return self.inside.shape[0]

    @property
    def area(self) -> int:
        """Number of drawable pixels."""
        return int(np.count_nonzero(self.inside))


def open_mask_image(path) -> Image.Image:
    """Open and decode a mask image, checking the 50-megapixel limit before decoding."""
    try:
        image = Image.open(Path(path))
        if image.width * image.height > MAX_CANVAS_PIXELS:
            raise InputError("mask_image exceeds 50 megapixels")
        image.load()
    except InputError:
        raise
    except Exception as error:  # Pillow raises many kinds on damaged or foreign data
        raise InputError(UNREADABLE) from error
    return image.convert("RGBA")


def canvas_size(params: Params, image: Image.Image | None) -> tuple[int, int]:
    """The canvas size: WIDTH×HEIGHT, with IMAGE defaulting to the mask's own size (or its
    aspect when only one side is given), scaled down to the canvas limits."""
    width, height = params.width, params.height
    if image is None or params.mode == "RECT":
        return width or DEFAULT_CANVAS, height or DEFAULT_CANVAS
    if width and height:
        return width, height
    if width:
        return fit_canvas(width, width * image.height / image.width)
    if height:
        return fit_canvas(height * image.width / image.height, height)
    return fit_canvas(image.width, image.height)


def load_mask(path, *, params: Params | None = None, text_font=None) -> Mask:
    """Build the drawable shape for ``params`` (MODE, WIDTH, HEIGHT, MASK_THRESHOLD,
    COLOR_FROM_MASK; MASK_TEXT drawn in the font file ``text_font`` for MODE=TEXT, see
    text_mask.py).

    With ``path`` the image is scaled to fit the canvas, keeping its aspect, centred; a pixel
    is inside when its alpha is at least 128 and its luminance is below MASK_THRESHOLD. In
    RECT mode the whole canvas is inside and the image only supplies colours; in TEXT mode
    the pixels the letters' outlines cover whole are inside, and an image only supplies
    colours. Raises
    :class:`InputError` for an unreadable image, one over 50 megapixels, or no drawable area.
    """
    params = params or Params(mode="IMAGE" if path else "RECT")
    if params.mask_text is not None and params.mode != "TEXT":
        raise InputError("params.MASK_TEXT needs MODE TEXT (or no MODE)")
    image = open_mask_image(path) if path else None
    letters = text_shape(params, text_font) if params.mode == "TEXT" else None
    width, height = letters.size if letters else canvas_size(params, image)
    check_canvas(params, width, height)
    labels = letters.labels() if letters else None
    inside = labels >= 0 if letters else np.ones((height, width), dtype=bool)
    if letters and not inside.any():
        raise InputError("params.MASK_TEXT's letters are too thin to draw in at this canvas size")
    if image is None:
        return Mask(inside, None, letters)
    scale = min(width / image.width, height / image.height)
    fitted = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    left, top = (width - fitted[0]) // 2, (height - fitted[1]) // 2
    window = (slice(top, top + fitted[1]), slice(left, left + fitted[0]))
    if params.mode == "IMAGE":
        # Scaling luminance and alpha (two channels, not four) is linear, so it commutes
        # with taking the luminance.
        luminance = image.convert("L").resize(fitted, Image.Resampling.BILINEAR)
        alpha = image.getchannel("A").resize(fitted, Image.Resampling.BILINEAR)
        inside[:] = False
        inside[window] = (np.asarray(alpha) >= 128) & (
            np.asarray(luminance) < params.mask_threshold
        )
        if not inside.any():
            raise InputError("mask_image has no drawable area")
    colors = None
    if params.color_from_mask:
        colors = np.full((height, width, 3), 255, dtype=np.uint8)
        colors[window] = np.asarray(image.convert("RGB").resize(fitted, Image.Resampling.BILINEAR))
    flat = None
    if params.group_col_index is not None and params.mode == "IMAGE":
        rgb = np.zeros((height, width, 3), dtype=np.uint8)
        rgb[window] = np.asarray(image.convert("RGB").resize(fitted, Image.Resampling.NEAREST))
        flat = flat_colors(rgb, inside)
    return Mask(inside, colors, letters, flat)


FLAT_SHARE = 0.02  # a colour is a flat region when it covers this share of the shape or more


def flat_colors(rgb: np.ndarray, inside: np.ndarray):
    """The mask image's flat colours as regions: the exact colours covering FLAT_SHARE of the
    shape's pixels or more, every inside pixel given the nearest of them (anti-aliased edges
    join a neighbour); None when there are fewer than two."""
    channel = [rgb[..., k].astype(np.int32) for k in range(3)]
    codes = ((channel[0] << 16) | (channel[1] << 8) | channel[2])[inside]
    kept = _common_codes(codes, FLAT_SHARE * len(codes))
    if len(kept) < 2:
        return None
    pixels = rgb[inside].astype(np.int32)
    centres = np.column_stack((kept >> 16, (kept >> 8) & 255, kept & 255))
    nearest = np.zeros(len(pixels), dtype=np.int16)
    best = np.full(len(pixels), np.iinfo(np.int32).max)
    for k, centre in enumerate(centres):  # one colour at a time: memory of one distance
        distance = ((pixels - centre) ** 2).sum(axis=1)
        nearer = distance < best
        nearest[nearer], best[nearer] = k, distance[nearer]
    labels = np.full(inside.shape, -1, dtype=np.int16)
    labels[inside] = nearest
    return labels, ["#{:02X}{:02X}{:02X}".format(*c) for c in centres]


def _common_codes(codes: np.ndarray, least: float) -> np.ndarray:
    """The 24-bit colour ``codes`` that occur ``least`` times or more, ascending: counted by
    their high 12 bits, then by the low 12 within each high value that reaches ``least``
    (exact, without sorting every pixel; a flat colour's high bits reach it too)."""
    high = codes >> 12
    kept = []
    for bucket in np.flatnonzero(np.bincount(high, minlength=4096) >= least):
        low = np.bincount(codes[high == bucket] & 4095, minlength=4096)
        kept.extend((int(bucket) << 12) + np.flatnonzero(low >= least))
    return np.array(kept, dtype=np.int64)


def keep_out_pixels(shapes, height: int, width: int) -> np.ndarray:
    """The canvas pixels the keep-out ``shapes`` cover (a pixel counts when its centre lies
    in the shape)."""
    covered = np.zeros((height, width), dtype=bool)
    for shape in shapes:
        x, y, w, h = shape["x"], shape["y"], shape["width"], shape["height"]
        # only the pixels of the shape's box can have their centre in it
        top, bottom = max(0, math.floor(y)), min(height, math.ceil(y + h) + 1)
        left, right = max(0, math.floor(x)), min(width, math.ceil(x + w) + 1)
        ys, xs = np.ogrid[top:bottom, left:right]
        if shape["shape"] == "rect":
            inside = (xs + 0.5 >= x) & (xs + 0.5 <= x + w) & (ys + 0.5 >= y) & (ys + 0.5 <= y + h)
        else:
            rx, ry = w / 2, h / 2
            inside = ((xs + 0.5 - x - rx) / rx) ** 2 + ((ys + 0.5 - y - ry) / ry) ** 2 <= 1
        covered[top:bottom, left:right] |= inside
    return covered


def without(mask: Mask, shapes) -> Mask:
    """``mask`` with the keep-out ``shapes`` cut out of its inside."""
    if not shapes:
        return mask
    inside = mask.inside & ~keep_out_pixels(shapes, mask.height, mask.width)
    return Mask(inside, mask.colors, mask.letters, mask.flat)
