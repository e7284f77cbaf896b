"""Heavy GETs under a crowd: bursts of 8 and of 32 concurrent print PDFs
(`/files/pdf?width_mm=400`) and custom.svg (`fill=ring` at its defaults, and rings wider than
the canvas on a sub-pixel grid, which draw nothing) of one 900×700, 40-name poster; prints
each answer's status and the latency (p50, p90, max) and wall time of each burst.

    .venv/bin/python bench/crowd.py [--bursts 3] [--crowds 8 32]

Starts the web server and the worker like the e2e tests (tests/processes.py: a throw-away
SQLite database and MEDIA_ROOT, HEAVY_CONCURRENCY at its default 4), so the heavy children
queue for their slots as they do behind `make run`.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.pop("DATABASE_URL", None)

import httpx  # noqa: E402
import openpyxl  # noqa: E402

from tests.names import sample_names  # noqa: E402
from tests.processes import DatabaseTemplate, Service  # noqa: E402

REQUESTS = {
    "print PDF": "files/pdf?width_mm=400",
    "custom.svg ring": "custom.svg?fill=ring",
    "custom.svg empty rings": (
        "custom.svg?fill=ring&ring_spacing=0.99999&ring_width=3429&ring_radius=2976"
    ),
}


def names_file(folder: Path, count: int) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    for row, name in enumerate(["name", *sample_names(count)], start=1):
        sheet.cell(row=row, column=1, value=name)
    path = folder / "names.xlsx"
    book.save(path)
    return path


def burst(url: str, crowd: int) -> tuple[float, list[tuple[int, float]]]:
    def answer(_) -> tuple[int, float]:
        started = time.monotonic()
        status = httpx.get(url, timeout=120).status_code
        return status, time.monotonic() - started

    started = time.monotonic()
    with ThreadPoolExecutor(crowd) as pool:
        answers = list(pool.map(answer, range(crowd)))
    return time.monotonic() - started, answers


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--crowds", type=int, nargs="+", default=[8, 32])
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-crowd-"))
    service = Service(folder, DatabaseTemplate(folder)).start()
    try:
        job_id = service.submit(names_file(folder, 40), {"WIDTH": 900, "HEIGHT": 700, "SEED": 1})
        job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 600)
        assert job["status"] == "success", job
        for name, path in REQUESTS.items():
            url = f"{service.url}/api/jobs/{job_id}/{path}"
            httpx.get(url, timeout=120)  # the first one reads the job's files
            for crowd in args.crowds:
                walls, latencies, statuses = [], [], Counter()
                for _ in range(args.bursts):
                    wall, answers = burst(url, crowd)
                    walls.append(wall)
                    latencies += [seconds for _, seconds in answers]
                    statuses.update(status for status, _ in answers)
                latencies.sort()
                p90 = latencies[int(0.9 * (len(latencies) - 1))]
                print(
                    f"{name:24} crowd {crowd:2}: {dict(statuses)}  latency p50 "
                    f"{statistics.median(latencies):.2f} s, p90 {p90:.2f} s, max "
                    f"{latencies[-1]:.2f} s; burst wall {min(walls):.2f}-{max(walls):.2f} s",
                    flush=True,
                )
    finally:
        service.stop()


if __name__ == "__main__":
    main()
