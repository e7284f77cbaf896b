"""Small inputs the engine tests make for themselves: name lists, masks, a Latin-only font."""

import numpy as np
import pytest
from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

from tests.names import write_names
from wordclouds.engine import default_font_path


def ring_mask(path, size=(360, 300), *, mode="RGB", fmt="PNG", transparent=False):
    """A dark ring (an ellipse with a hole) on a light or transparent background."""
    background = (0, 0, 0, 0) if transparent else "white"
    image = Image.new("RGBA" if transparent else mode, size, background)
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.ellipse((10, 10, width - 10, height - 10), fill=(20, 60, 200, 255))
    draw.ellipse((width // 3, height // 3, 2 * width // 3, 2 * height // 3), fill=background)
    image.save(path, format=fmt)
    return path


@pytest.fixture
def names_file(tmp_path):
    """A factory: ``names_file(names, **kwargs)`` writes an .xlsx and returns its path."""
    counter = iter(range(1000))
    return lambda names, **kwargs: write_names(
        tmp_path / f"names{next(counter)}.xlsx", names, **kwargs
    )


@pytest.fixture(scope="session")
def latin_font(tmp_path_factory):
    """A Latin-only font (ASCII), cut from the bundled font so no system font is needed."""
    font = TTFont(str(default_font_path()), fontNumber=2)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.layout_features = []
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=range(0x20, 0x7F))
    subsetter.subset(font)
    path = tmp_path_factory.mktemp("fonts") / "latin-only.otf"
    font.save(str(path))
    return path


def ink(image: Image.Image, background=(255, 255, 255)) -> np.ndarray:
    """Coverage (0–1) of non-background in an RGB image, or alpha for an RGBA one."""
    array = np.asarray(image).astype(float)
    if array.shape[2] == 4:
        return array[..., 3] / 255
    return np.abs(array[..., :3] - background).max(axis=2) / 255
