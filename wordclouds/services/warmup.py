"""Two tiny jobs (a plain canvas and a mask) through the engine, a revision of each and the
tile pyramid, and their outlines through the compiled path-data reader (custom.svg, line
spacing; the web process loads it at start-up), so the first real job or request pays
neither numba's compilation (cached on disk: `__pycache__` beside the engine, or
NUMBA_CACHE_DIR) nor a process's first loads (compiled code from that cache, fonts,
readers). `manage.py warm_engine` runs it once per install (and `make test` before the
suite, whose processes would otherwise compile at once), the image build without Django (the
Containerfile's stage `engine`, which copies only this module, the engine and the drawing
room); each worker process runs it as it starts (wordclouds/tasks.py)."""

import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from wordclouds import engine
from wordclouds.drawing.tiles import tiles_make
from wordclouds.engine.path_data import path_segments


def engine_warm() -> float:
    """Run the two tiny jobs; returns the seconds taken."""
    import openpyxl  # here: every Django process imports this module, few warm the engine

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="warm-engine-") as folder:
        folder = Path(folder)
        book = openpyxl.Workbook()
        book.active.append(["name"])
        for name in ["Anna", "李雷", "Chloé", "韩梅梅"] * 10:
            book.active.append([name])
        book.save(folder / "names.xlsx")
        mask = Image.new("L", (300, 300), 255)
        ImageDraw.Draw(mask).ellipse((20, 20, 280, 280), fill=0)
        mask.save(folder / "mask.png")
        for mode, mask_path in (("RECT", None), ("IMAGE", folder / "mask.png")):
            engine.generate(
                names_path=folder / "names.xlsx",
                out_dir=folder / mode,
                params={"MODE": mode, "WIDTH": 300, "HEIGHT": 300, "SEED": 1},
                mask_path=mask_path,
            )
            tiles_make(job_folder=folder / mode)
            svg = (folder / mode / "wordcloud.svg").read_text(encoding="utf-8")
            path_segments(list(engine.svg_outlines(svg).values()))
            engine.revise(  # the revision's own compiled stamping and PNG strips
                parent_dir=folder / mode,
                out_dir=folder / f"{mode}-revised",
                edits={"add": ["王芳"], "remove": [1]},
                mask_path=mask_path,
            )
    return time.perf_counter() - started
