"""The lookup page in a headless browser (Debian's chromium through Playwright) against the
real service over loopback, for a 10,000-name 4000×4000 and a 50,000-name 7071×7071 poster:

- first paint: from navigation start to the page's first byte (the server's own latency),
  to the first poster tile drawn (its `load` plus the next
  animation frame), and to every tile of the overview level drawn;
- highlight: from the Enter key after typing a name to the highlight drawn over its box, and
  to the zoomed-in tiles around it drawn;
- bytes: every response's encoded (wire) size, before the first zoom and in total;
- what the page would cost without tiles: the sizes of the PNG and SVG, the pyramid's files,
  and the worker's time to make the pyramid.

    .venv/bin/python bench/pages.py [--runs 5] [--cases 10000 50000]

Jobs are made by the real worker (the 50,000 names are generated as in bench/engine.py; the
engine alone takes about 45 s for them). Prints a Markdown table of medians over the runs,
each run in a fresh browser context (empty cache).
"""

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from engine import generated_names  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.processes import DatabaseTemplate, Service  # noqa: E402
from wordclouds.drawing.tiles import tiles_make  # noqa: E402

FIXTURES = ROOT / "bench" / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CASES = {"10000": (10_000, 4000), "50000": (50_000, 7071)}

# Marks the moments the bench reads, in the page's own clock (performance.now()).
PROBE = """
window.bench = {firstTile: null, overviewDone: null, enter: null, highlight: null};
const drawn = (key) => requestAnimationFrame(() => { window.bench[key] ??= performance.now(); });
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.classList && node.classList.contains("poster-tile")) {
      node.addEventListener("load", () => drawn("firstTile"), {once: true});
    }
  }
}).observe(document, {childList: true, subtree: true});
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter") window.bench.enter = performance.now();
}, true);
document.addEventListener("DOMContentLoaded", () => {
  const highlight = document.getElementById("poster-highlight");
  new MutationObserver(() => { if (!highlight.hidden) drawn("highlight"); })
    .observe(highlight, {attributes: true, attributeFilter: ["hidden", "style"]});
});
"""
# True once every tile on the page has loaded (the set on screen for the current view).
TILES_DONE = "[...document.querySelectorAll('.poster-tile')].every((tile) => tile.complete)"


def submit(service: Service, names: Path, side: int) -> str:
    params = {"DATA_COL_INDEX": 1, "SEED": 1, "WIDTH": side, "HEIGHT": side}
    with names.open("rb") as names_file, (FIXTURES / "heart.png").open("rb") as mask:
        response = httpx.post(
            f"{service.url}/api/jobs",
            timeout=120,
            data={"params": json.dumps(params)},
            files={"name_list": names_file, "mask_image": mask},
        )
    assert response.status_code == 201, response.text
    return response.json()["job_id"]


def file_sizes(folder: Path) -> dict:
    tiles = [path for path in (folder / "tiles").rglob("*.jpg")]
    started = time.perf_counter()
    copy = folder.parent / f"{folder.name}-copy"
    copy.mkdir(exist_ok=True)
    (copy / "wordcloud.png").write_bytes((folder / "wordcloud.png").read_bytes())
    tiles_make(job_folder=copy)
    return {
        "png_mb": (folder / "wordcloud.png").stat().st_size / 1e6,
        "svg_mb": (folder / "wordcloud.svg").stat().st_size / 1e6,
        "tiles": len(tiles),
        "tiles_mb": sum(path.stat().st_size for path in tiles) / 1e6,
        "tiles_seconds": time.perf_counter() - started,
    }


def a_name(folder: Path, rng: random.Random) -> str:
    """A name placed once, so the highlight has one place to go."""
    with sqlite3.connect(folder / "positions.db") as connection:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM words GROUP BY name HAVING count(*) = 1 ORDER BY name"
            )
        ]
    return rng.choice(names)


def one_run(browser, service: Service, job_id: str, name: str) -> dict:
    context = browser.new_context(base_url=service.url, viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    wire = []
    cdp.on("Network.loadingFinished", lambda event: wire.append(event["encodedDataLength"]))
    page.goto(f"/jobs/{job_id}/find", wait_until="load")
    page.wait_for_function("window.bench.firstTile !== null")
    page.wait_for_function(TILES_DONE)
    overview_done = page.evaluate("performance.now()")
    page.wait_for_timeout(500)  # anything still loading before the first zoom is counted
    before_zoom = sum(wire)

    page.get_by_label("Find your name").click()
    page.keyboard.type(name, delay=60)
    page.keyboard.press("Enter")
    page.wait_for_function("window.bench.highlight !== null")
    page.wait_for_function(TILES_DONE)
    detail_done = page.evaluate("performance.now()")
    page.wait_for_timeout(500)
    marks = page.evaluate("window.bench")
    html = page.evaluate("performance.getEntriesByType('navigation')[0].responseStart")
    context.close()
    return {
        "html_ms": html,
        "first_tile_ms": marks["firstTile"],
        "overview_ms": overview_done,
        "highlight_ms": marks["highlight"] - marks["enter"],
        "detail_ms": detail_done - marks["enter"],
        "before_zoom_mb": before_zoom / 1e6,
        "total_mb": sum(wire) / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    static = folder / "static"
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env={**os.environ, "STATIC_ROOT": str(static)},
        check=True,
    )
    # The 50,000-name list is checked in a child limited to HEAVY_TIME_LIMIT_SECONDS (30 s);
    # on a busy machine that can run out. The bench measures the page, not that check.
    service = Service(
        folder,
        DatabaseTemplate(folder),
        STATIC_ROOT=static,
        DEBUG="0",
        HEAVY_TIME_LIMIT_SECONDS=600,
    )
    service.start()
    rng = random.Random(14)
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for case in args.cases:
                count, side = CASES[case]
                names = (
                    FIXTURES / "names_10000.xlsx"
                    if count == 10_000
                    else generated_names(folder / f"names_{count}.xlsx", count)
                )
                started = time.monotonic()
                job_id = submit(service, names, side)
                job = service.wait_for(
                    job_id, lambda job: job["status"] in ("success", "failed"), 3600
                )
                assert job["status"] == "success", job
                job_seconds = time.monotonic() - started
                job_folder = folder / "media" / "jobs" / job_id
                runs = [
                    one_run(browser, service, job_id, a_name(job_folder, rng))
                    for _ in range(args.runs)
                ]
                median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                worst = {key: max(run[key] for run in runs) for key in runs[0]}
                rows.append((case, side, job_seconds, file_sizes(job_folder), median, worst))
                print(json.dumps({"case": case, "runs": runs, "sizes": rows[-1][3]}), flush=True)
            browser.close()
    finally:
        service.stop()
    print(
        "| names, canvas | page's first byte | first tile drawn | overview drawn | Enter → highlight | Enter → detail tiles | "
        "bytes before first zoom | bytes in all |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for case, side, _, _, median, worst in rows:
        print(
            f"| {int(case):,}, {side}×{side} | {median['html_ms']:.0f} ms | {median['first_tile_ms']:.0f} ms (worst {worst['first_tile_ms']:.0f}) | "
            f"{median['overview_ms']:.0f} ms | {median['highlight_ms']:.0f} ms (worst {worst['highlight_ms']:.0f}) | "
            f"{median['detail_ms']:.0f} ms | {median['before_zoom_mb']:.2f} MB | {median['total_mb']:.2f} MB |"
        )
    print()
    print("| names, canvas | job (engine + tiles) | PNG | SVG | tiles | tiles made in |")
    print("|---|---|---|---|---|---|")
    for case, side, job_seconds, sizes, _, _ in rows:
        print(
            f"| {int(case):,}, {side}×{side} | {job_seconds:.1f} s | {sizes['png_mb']:.1f} MB | "
            f"{sizes['svg_mb']:.1f} MB | {sizes['tiles']} files, {sizes['tiles_mb']:.1f} MB | "
            f"{sizes['tiles_seconds']:.1f} s |"
        )


if __name__ == "__main__":
    main()
