"""The drawable shape: a rectangle, or the inside of a mask image scaled onto the canvas."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from .errors import InputError
from .params import DEFAULT_CANVAS, MAX_CANVAS_PIXELS, Params

UNREADABLE = "mask_image is not a readable image"


@dataclass
class Mask:
    """``inside[y, x]`` is True where words may draw; ``colors`` is the mask image's RGB at
    canvas size (None without an image), for COLOR_FROM_MASK."""

    inside: np.ndarray
    colors: np.ndarray | None

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
    aspect when only one side is given)."""
    width, height = params.width, params.height
    if image is None or params.mode == "RECT":
        return width or DEFAULT_CANVAS, height or DEFAULT_CANVAS
    if width and height:
        return width, height
    if width:
        return width, max(1, round(width * image.height / image.width))
    if height:
        return max(1, round(height * image.width / image.height)), height
    return image.width, image.height


def load_mask(path, *, params: Params | None = None) -> Mask:
    """Build the drawable shape for ``params`` (MODE, WIDTH, HEIGHT, MASK_THRESHOLD).

    With ``path`` the image is scaled to fit the canvas, keeping its aspect, centred; a pixel
    is inside when its alpha is at least 128 and its luminance is below MASK_THRESHOLD. In
    RECT mode the whole canvas is inside and the image only supplies colours. Raises
    :class:`InputError` for an unreadable image, one over 50 megapixels, or no drawable area.
    """
    params = params or Params(mode="IMAGE" if path else "RECT")
    image = open_mask_image(path) if path else None
    width, height = canvas_size(params, image)
    if image is None:
        return Mask(np.ones((height, width), dtype=bool), None)
    scale = min(width / image.width, height / image.height)
    fitted = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    if fitted != image.size:
        image = image.resize(fitted, Image.Resampling.BILINEAR)
    canvas = Image.new("RGBA", (width, height), (255, 255, 255, 0))
    canvas.paste(image, ((width - fitted[0]) // 2, (height - fitted[1]) // 2))
    rgba = np.asarray(canvas)
    luminance = np.asarray(canvas.convert("RGB").convert("L"))
    inside = (rgba[..., 3] >= 128) & (luminance < params.mask_threshold)
    if params.mode == "RECT":
        inside = np.ones_like(inside)
    elif not inside.any():
        raise InputError("mask_image has no drawable area")
    return Mask(inside, np.ascontiguousarray(rgba[..., :3]))
