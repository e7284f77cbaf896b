"""A zoom pyramid of a finished job's PNG, made once by the worker, so the lookup page can
show a small overview at once and fetch detail only where the user zooms: a 50,000-name
7071×7071 poster is a 12 MB PNG, but the screen's worth of 256-pixel tiles is a few hundred KB
(docs/pages.md has the measurements behind this choice).

Layout under the job's folder: `tiles/tiles.json` (`width`, `height`, `tile_size`, `levels`,
`format`) and `tiles/<level>/<column>_<row>.jpg`. The deepest level (`levels - 1`) is the
PNG's own pixels; each level above halves it, down to level 0, which fits in one tile. The
pyramid is built in a temporary folder and renamed into place, so `tiles.json` existing
means every tile is there."""

import json
import math
import shutil
from pathlib import Path

from PIL import Image

TILE_SIZE = 256
TILE_FORMAT = "jpg"
# JPEG at this quality: glyph edges stay clean, a tile is under half of PNG's size and as
# small as WebP's, and encodes seven times faster than WebP (measured in docs/pages.md).
TILE_QUALITY = 85
FOLDER = "tiles"
INDEX = "tiles.json"


def tiles_make(*, job_folder: Path) -> dict:
    """Builds the pyramid of `job_folder/wordcloud.png`; answers the index."""
    with Image.open(job_folder / "wordcloud.png") as source:
        image = _on_white(source)
    width, height = image.size
    levels = max(0, math.ceil(math.log2(max(width, height) / TILE_SIZE))) + 1
    index = {
        "width": width,
        "height": height,
        "tile_size": TILE_SIZE,
        "levels": levels,
        "format": TILE_FORMAT,
    }
    staging = job_folder / f".{FOLDER}-incoming"
    shutil.rmtree(staging, ignore_errors=True)
    for level in reversed(range(levels)):
        if level < levels - 1:
            image = image.reduce(2)
        _write_level(image, staging / str(level))
    (staging / INDEX).write_text(json.dumps(index))
    shutil.rmtree(job_folder / FOLDER, ignore_errors=True)
    staging.rename(job_folder / FOLDER)
    return index


def _write_level(image: Image.Image, folder: Path) -> None:
    folder.mkdir(parents=True)
    for row in range(math.ceil(image.height / TILE_SIZE)):
        for column in range(math.ceil(image.width / TILE_SIZE)):
            box = (
                column * TILE_SIZE,
                row * TILE_SIZE,
                min(image.width, (column + 1) * TILE_SIZE),
                min(image.height, (row + 1) * TILE_SIZE),
            )
            image.crop(box).save(folder / f"{column}_{row}.{TILE_FORMAT}", quality=TILE_QUALITY)


def _on_white(image: Image.Image) -> Image.Image:
    """RGB; a transparent background shows white, as the lookup page's own background."""
    if "A" not in image.getbands() and image.mode != "P":
        return image.convert("RGB")
    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba).convert("RGB")
