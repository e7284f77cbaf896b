"""The .ai of a job holds clean outlines: Ghostscript draws the same ink whether the file's
paths are filled with the non-zero rule (as written) or with the even-odd rule, for a
variable font with overlapping contours (Inter) and for the default font with its fallback
chain. Were contours left overlapping, the even-odd reading would open holes where they
cross."""

import re

import fontpkg_inter
import numpy as np
import pytest

from exports.converter import convert
from tests.engine.test_clean_outlines import LATIN
from tests.engine.test_shaping import CORPUS
from tests.exports.readers import render_ai
from tests.names import write_names
from wordclouds import engine

INTER = fontpkg_inter.ROOT / "files" / "Inter[opsz,wght].ttf"  # a variable font
WIDTH, HEIGHT = 900, 600
ZOOM = 1  # Ghostscript pixels per SVG pixel


def coverage(image: np.ndarray) -> np.ndarray:
    """Ink per pixel, 0 to 1: how far its darkest channel is from the white paper."""
    return 1 - image.min(axis=2) / 255.0


def ink_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of the two renderings' ink, weighted by coverage."""
    a, b = (coverage(image) for image in (a, b))
    return float(np.minimum(a, b).sum() / np.maximum(a, b).sum())


@pytest.mark.parametrize(
    "font, names", [(INTER, LATIN), (None, CORPUS)], ids=["inter", "default-chain"]
)
def test_even_odd_and_non_zero_readings_of_the_ai_agree(tmp_path, font, names):
    # Given a job drawn with large letters, and its .ai from the converter
    engine.generate(
        names_path=write_names(tmp_path / "names.xlsx", names),
        out_dir=tmp_path,
        params={"WIDTH": WIDTH, "HEIGHT": HEIGHT, "SEED": 2, "MIN_FONT_SIZE": 24},
        font_path=font,
    )
    written = convert((tmp_path / "wordcloud.svg").read_bytes(), title="cloud.ai").decode("latin-1")
    # When the file is drawn as written (every path non-zero) and with every path even-odd
    even_odd, switched = re.subn(r"(?m)^0 XR$", "1 XR", written)
    assert switched >= len(names)  # every name's path, and the reading did change
    size = {"width": WIDTH * ZOOM, "height": HEIGHT * ZOOM, "dpi": 96.0 * ZOOM}
    non_zero_ink = render_ai(written.encode("latin-1"), **size)
    even_odd_ink = render_ai(even_odd.encode("latin-1"), **size)
    # Then both readings give the same ink
    assert coverage(non_zero_ink).sum() > 0.02 * WIDTH * HEIGHT * ZOOM**2
    assert ink_iou(non_zero_ink, even_odd_ink) >= 0.999
