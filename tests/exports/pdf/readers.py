"""Independent readers of the print PDFs, none sharing code with the writer: qpdf checks the
structure, Poppler's pdfinfo and pdffonts report boxes and fonts, Ghostscript and Poppler's
pdftoppm render the trim box, and Ghostscript's tiffsep splits the page into its plates."""

import io
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pikepdf
from PIL import Image

from tests.exports.readers import SUPERSAMPLING, averaged, ink_iou, render_ghostscript

IOU_MIN = 0.97
PROCESS_PLATES = ("Cyan", "Magenta", "Yellow", "Black")


def run(*command: str, data: bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.pdf"
        path.write_bytes(data)
        result = subprocess.run([*command, str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def qpdf_check(data: bytes) -> str:
    return run("qpdf", "--check", data=data)


def pdfinfo_boxes(data: bytes) -> dict[str, tuple[float, float, float, float]]:
    """pdfinfo -box: each box of page 1 as (x0, y0, x1, y1) in points."""
    boxes = {}
    for line in run("pdfinfo", "-box", data=data).splitlines():
        match = re.match(r"(\w+Box):\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", line)
        if match:
            boxes[match[1]] = tuple(float(v) for v in match.groups()[1:])
    return boxes


def pdffonts(data: bytes) -> list[str]:
    """The font lines pdffonts lists (after its two header lines)."""
    return run("pdffonts", data=data).splitlines()[2:]


def trim_box(data: bytes) -> tuple[float, float, float, float]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return tuple(float(v) for v in pdf.pages[0].obj.TrimBox)


def render_with_ghostscript(data: bytes, width: int, height: int) -> np.ndarray:
    """The trim box drawn `width` x `height` pixels (coverage from 4 x 4 supersampling)."""
    x0, y0, x1, y1 = trim_box(data)
    dpi = width * 72 / (x1 - x0)
    return render_ghostscript(data, width=width, height=height, dpi=dpi, options=("-dUseTrimBox",))


def render_with_poppler(data: bytes, width: int, height: int) -> np.ndarray:
    """pdftoppm's drawing of the trim box at 4 x 4 the resolution (with its own
    anti-aliasing: without it, Splash fills every pixel a shape touches), averaged down to
    `width` x `height`."""
    x0, y0, x1, y1 = trim_box(data)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page_height = float(pdf.pages[0].obj.MediaBox[3])
    dpi = width * 72 / (x1 - x0) * SUPERSAMPLING
    left, top = round(x0 * dpi / 72), round((page_height - y1) * dpi / 72)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                f"{dpi}",
                "-x",
                str(left),
                "-y",
                str(top),
                "-W",
                str(width * SUPERSAMPLING),
                "-H",
                str(height * SUPERSAMPLING),
                "-singlefile",
                str(source),
                str(Path(folder) / "out"),
            ],
            check=True,
            timeout=120,
        )
        return averaged(Image.open(Path(folder) / "out.png"), width, height)


def assert_same_ink(data: bytes, expected: np.ndarray):
    """Both readers draw the PDF's trim box with the ink of `expected` (IoU >= 0.97)."""
    height, width = expected.shape[:2]
    for reader in (render_with_ghostscript, render_with_poppler):
        iou = ink_iou(expected, reader(data, width, height))
        assert iou >= IOU_MIN, f"{reader.__name__}: IoU {iou:.4f}"


def separations(data: bytes, dpi: float = 72.0) -> dict[str, np.ndarray]:
    """Ghostscript's tiffsep plates of the whole media box: plate name -> ink 0..1."""
    plates = {}
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(
            [
                "gs",
                "-q",
                "-dSAFER",
                "-dBATCH",
                "-dNOPAUSE",
                "-sDEVICE=tiffsep",
                "-dOverprint=/enable",
                f"-r{dpi}",
                f"-sOutputFile={Path(folder) / 'page.tif'}",
                str(source),
            ],
            check=True,
            timeout=120,
        )
        for path in Path(folder).glob("page(*).tif"):
            name = path.name[len("page(") : -len(").tif")]
            # tiffsep writes each plate as paper white 255, full ink 0
            plates[name] = 1 - np.asarray(Image.open(path).convert("L"), dtype=np.float32) / 255
    return plates
