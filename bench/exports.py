"""Time the SVG -> legacy Illustrator conversion: `python bench/exports.py`.

Two inputs:
1. The SVG of a 10,000-name job: the engine's wordcloud.svg for
   bench/fixtures/names_10000.xlsx when `wordclouds.engine.generate` exists, otherwise a
   synthesised one of the same content (each name's glyph outlines from the bundled font as
   one <path>, random size, position, colour and 0/90 degree rotation on a 4000 x 4000
   canvas; the output says which).
2. A 25 MB SVG: such name paths repeated until the document is just under 25 MB.
3. A 25 MB SVG of about 490,000 small circles with random colours: the worst case per byte
   (one element, one style and one shape per 53 bytes; what a dot fill style tends to).

Each is converted through a real converter process (`manage.py runconverter` on a free
loopback port, POST /convert; wall time, best of 3) and once more through the same forked,
limited conversion in this process, whose child's peak resident memory is read with
getrusage(RUSAGE_CHILDREN).
"""

import math
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ROOT / "bench" / "fixtures" / "names_10000.xlsx"
LIMIT = 25 * 1024 * 1024


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def read_names() -> list[str]:
    import openpyxl

    sheet = openpyxl.load_workbook(NAMES, read_only=True).active
    return [str(row[1]) for row in sheet.iter_rows(min_row=2, values_only=True) if row[1]]


def engine_svg(folder: Path, names: Path = NAMES) -> str | None:
    from wordclouds import engine

    if not hasattr(engine, "generate"):
        return None
    engine.generate(names_path=names, out_dir=folder, params={})
    return (folder / "wordcloud.svg").read_text()


def best_of(times: int, function, *args, **kwargs):
    """(the result, the shortest wall time of `times` calls)."""
    best, result = math.inf, None
    for _ in range(times):
        start = time.perf_counter()
        result = function(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return result, best


def print_pdf_rows():
    """The print PDF (PDF/X-1a, FOGRA39, the poster's own size, 3 mm bleed) of the 3,000- and
    10,000-name posters, next to their SVG and .ai: bytes and time (in this process, best of
    3: the same reading and writing the endpoint's forked child does, preflight included)."""
    from exports.converter import convert
    from exports.pdf.colour import profile_bytes
    from exports.pdf.options import pdf_options
    from exports.pdf.services import svg_pdf

    options = pdf_options({})
    profile = len(profile_bytes(options.profile))
    print("| poster | SVG | .ai | .ai time | PDF | PDF time | PDF / (SVG + profile) |")
    print("|---|---|---|---|---|---|---|")
    for count in (3000, 10000):
        with tempfile.TemporaryDirectory() as folder:
            svg = engine_svg(Path(folder), ROOT / "bench" / "fixtures" / f"names_{count}.xlsx")
        data = svg.encode()
        ai, ai_seconds = best_of(3, convert, data, title="poster.ai")
        (pdf, *_), pdf_seconds = best_of(3, svg_pdf, data, options, title="poster")
        print(
            f"| {count:,} names | {len(data) / 2**20:.2f} MB | {len(ai) / 2**20:.2f} MB | "
            f"{ai_seconds:.2f} s | {len(pdf) / 2**20:.2f} MB | {pdf_seconds:.2f} s | "
            f"{len(pdf) / (len(data) + profile):.2f} |"
        )


def name_paths(names: list[str], seed: int = 1) -> list[str]:
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.ttLib import TTCollection

    from exports.svg_text import PREFERRED_FAMILY, bundled_font_path

    font = next(
        f
        for f in TTCollection(str(bundled_font_path()), lazy=True).fonts
        if f["name"].getDebugName(1) == PREFERRED_FAMILY
    )
    glyphs, cmap, metrics = font.getGlyphSet(), font.getBestCmap(), font["hmtx"].metrics
    rng = random.Random(seed)
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
    paths = []
    for name in names:
        size = rng.choice([12, 14, 18, 24, 32, 48, 72])
        x, y = rng.uniform(0, 3800), rng.uniform(50, 4000)
        rotate = rng.random() < 0.3
        pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.2f}".rstrip("0").rstrip("."))
        advance = 0.0
        for char in name:
            glyph = cmap.get(ord(char), ".notdef")
            scale = size / 1000
            matrix = (scale, 0, 0, -scale, advance, 0)
            glyphs[glyph].draw(TransformPen(pen, matrix))
            advance += metrics[glyph][0] * scale
        transform = f"translate({x:.1f} {y:.1f})" + (" rotate(-90)" if rotate else "")
        paths.append(
            f'<path transform="{transform}" fill="{rng.choice(palette)}" d="{pen.getCommands()}"/>'
        )
    return paths


def document(paths: list[str]) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 4000 4000">'
        '<rect width="4000" height="4000" fill="#ffffff"/>' + "".join(paths) + "</svg>"
    )


def up_to_25_mb(paths: list[str]) -> str:
    chosen, size = [], len(document([]))
    while True:
        for path in paths:
            if size + len(path.encode()) > LIMIT:
                return document(chosen)
            chosen.append(path)
            size += len(path.encode())


def small_circles() -> str:
    rng = random.Random(2)
    circles, size = [], len(document([]))
    while True:
        circle = (
            f'<circle cx="{rng.uniform(0, 4000):.1f}" cy="{rng.uniform(0, 4000):.1f}" r="3" '
            f'fill="#{rng.randrange(16**6):06x}"/>'
        )
        if size + len(circle) > LIMIT:
            return document(circles)
        circles.append(circle)
        size += len(circle)


def start_converter() -> tuple[subprocess.Popen, int]:
    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "runconverter", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            return process, port
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("converter did not start")


def through_http(port: int, svg: bytes) -> tuple[float, int, int]:
    import httpx

    best = None
    for _ in range(3):
        started = time.perf_counter()
        response = httpx.post(
            f"http://127.0.0.1:{port}/convert",
            params={"filename": "bench.ai"},
            content=svg,
            timeout=120,
        )
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    return best, response.status_code, len(response.content)


def child_peak_rss(svg: bytes) -> float:
    """Peak RSS (MB) of the forked conversion child, the part that grows with the input."""
    from exports.converter import convert_isolated

    status, _ = convert_isolated(svg, title="bench.ai")
    assert status == 200, status
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main():
    setup_django()
    print_pdf_rows()
    if sys.argv[1:] == ["pdf"]:
        return
    with tempfile.TemporaryDirectory() as folder:
        names = read_names()
        svg = engine_svg(Path(folder))
        source = "engine" if svg is not None else "synthesised (engine has no generate yet)"
        paths = name_paths(names)
        if svg is None:
            svg = document(paths)
        cases = {
            f"10,000 names ({source})": svg.encode(),
            "25 MB of name paths": up_to_25_mb(paths).encode(),
            "25 MB of small circles": small_circles().encode(),
        }
    process, port = start_converter()
    try:
        print(
            "| input | SVG size | elements | .ai size | convert (HTTP, best of 3) | peak RSS of conversion |"
        )
        print("|---|---|---|---|---|---|")
        for label, data in cases.items():
            seconds, status, ai_size = through_http(port, data)
            assert status == 200, status
            peak = child_peak_rss(data)
            print(
                f"| {label} | {len(data) / 2**20:.1f} MB | {data.count(b'<path') + data.count(b'<circle')} | "
                f"{ai_size / 2**20:.1f} MB | {seconds:.2f} s | {peak:.0f} MB |"
            )
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    main()
