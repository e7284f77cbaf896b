"""Independent readers for the fidelity tests: resvg renders the SVG, Ghostscript renders
the .ai through its prolog, Scribus imports the .ai body as Illustrator's (prolog skipped)
and saves its own document, which is read back here. None of them shares code with the
converter."""

import io
import os
import subprocess
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import resvg_py
from PIL import Image

from exports.svg_text import bundled_font_path

INK_THRESHOLD = 200  # a pixel is ink when its darkest channel is below this
SUPERSAMPLING = 4  # renderings are drawn this many times finer each way, then averaged


def render_svg(svg: str, *, zoom: float = 2.0) -> np.ndarray:
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        background="#ffffff",
        zoom=zoom,
        skip_system_fonts=True,
        font_files=[str(bundled_font_path())],
        font_family="Noto Sans CJK SC",
    )
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))


def render_ai(data: bytes, *, width: int, height: int, dpi: float = 192.0) -> np.ndarray:
    """Ghostscript's rendering of the .ai file, `width` x `height` pixels at `dpi`."""
    return render_ghostscript(data, width=width, height=height, dpi=dpi)


def render_ghostscript(
    data: bytes, *, width: int, height: int, dpi: float, options: tuple[str, ...] = ()
) -> np.ndarray:
    """Ghostscript's rendering of a PostScript or PDF file, `width` x `height` pixels at
    `dpi`. Drawn 4 x 4 times finer without anti-aliasing and averaged down, so that each
    pixel holds its true coverage, as resvg's do (Ghostscript's own anti-aliasing thins 1-px
    strokes); fill and stroke adjustment, which widen shapes by a fraction of a device pixel,
    are off. `options`: more Ghostscript options (e.g. -dUseTrimBox)."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "in", Path(folder) / "out.png"
        source.write_bytes(data)
        subprocess.run(
            [
                "gs",
                "-q",
                "-dSAFER",
                "-dBATCH",
                "-dNOPAUSE",
                "-sDEVICE=png16m",
                f"-r{dpi * SUPERSAMPLING}",
                f"-g{width * SUPERSAMPLING}x{height * SUPERSAMPLING}",
                *options,
                f"-sOutputFile={target}",
                "-c",
                "0 0 .setfilladjust2 false setstrokeadjust",
                "-f",
                str(source),
            ],
            check=True,
            timeout=120,
        )
        return averaged(Image.open(target), width, height)


def averaged(fine: Image.Image, width: int, height: int) -> np.ndarray:
    """A rendering made SUPERSAMPLING times finer, averaged down to `width` x `height`."""
    pixels = np.asarray(fine.convert("RGB"), dtype=np.float32)
    factor = SUPERSAMPLING
    pixels = pixels[: height * factor, : width * factor]
    return (
        pixels.reshape(height, factor, width, factor, 3).mean(axis=(1, 3)).round().astype(np.uint8)
    )


def ink(image: np.ndarray) -> np.ndarray:
    return image.min(axis=2) < INK_THRESHOLD


def ink_iou(svg_image: np.ndarray, ai_image: np.ndarray) -> float:
    a, b = ink(svg_image), ink(ai_image)
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 1.0


@dataclass
class ScribusItem:
    kind: str  # polygon (closed) or polyline (open)
    fill: tuple[int, int, int] | None
    stroke: tuple[int, int, int] | None
    even_odd: bool
    contours: int


_SCRIBUS_SCRIPT = textwrap.dedent("""
    import os, scribus
    for pair in os.environ["AI_JOBS"].split("\\n"):
        source, target = pair.split("\\t")
        scribus.openDoc(source)
        scribus.saveDocAs(target)
        scribus.closeDoc()
""")
_KINDS = {"6": "polygon", "7": "polyline"}


def scribus_import(files: list[bytes]) -> list[list[ScribusItem]]:
    """Each file imported by Scribus's legacy-AI importer (headless), as the shapes of the
    document Scribus saves: kind, colours, fill rule and number of contours."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        jobs = []
        for index, data in enumerate(files):
            (folder / f"{index}.ai").write_bytes(data)
            jobs.append(f"{folder / f'{index}.ai'}\t{folder / f'{index}.sla'}")
        (folder / "script.py").write_text(_SCRIBUS_SCRIPT)
        env = dict(
            os.environ,
            QT_QPA_PLATFORM="offscreen",
            AI_JOBS="\n".join(jobs),
            HOME=str(folder),
            XDG_RUNTIME_DIR=str(folder),
        )
        subprocess.run(
            ["scribus", "-g", "-ns", "-py", str(folder / "script.py")],
            env=env,
            check=True,
            timeout=180,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return [_read_sla(folder / f"{index}.sla") for index in range(len(files))]


def _read_sla(path: Path) -> list[ScribusItem]:
    root = ElementTree.parse(path).getroot()
    colours = {}
    for colour in root.iter("COLOR"):
        if colour.get("SPACE") == "RGB":
            colours[colour.get("NAME")] = tuple(round(float(colour.get(c))) for c in "RGB")
    items = []
    for element in root.iter("PAGEOBJECT"):
        kind = _KINDS.get(element.get("PTYPE"))
        if kind is None:
            continue
        items.append(
            ScribusItem(
                kind=kind,
                fill=colours.get(element.get("PCOLOR", "None")),
                stroke=colours.get(element.get("PCOLOR2", "None")),
                even_odd=element.get("fillRule", "1") == "1",
                contours=element.get("path", "").count("M"),
            )
        )
    return items
