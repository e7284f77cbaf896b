"""Jobs through the real processes: submit over HTTP, read the SSE stream to the end, and
report the time to `end`, how many events the job wrote, and how late each event reached
the client (client clock minus the event's timestamp; one machine, one clock).

    .venv/bin/python bench/jobs.py [--names 300 10000] [--redis redis://127.0.0.1:6379/0]

Starts the web server and the worker like the e2e tests (tests/processes.py: a throw-away
SQLite database and MEDIA_ROOT), once with the database broker and polling streams and,
with --redis, once with Redis.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
import openpyxl  # noqa: E402
import sseclient  # noqa: E402

from tests.names import sample_names  # noqa: E402
from tests.processes import DatabaseTemplate, Service  # noqa: E402


def names_file(folder: Path, count: int) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["name"])
    for name in sample_names(count):
        sheet.append([name])
    path = folder / f"names-{count}.xlsx"
    book.save(path)
    return path


def run_job(service: Service, names: Path) -> dict:
    started = time.time()
    job_id = service.submit(names, {"SEED": 1, "WIDTH": 2000, "HEIGHT": 2000})
    lateness = []
    with httpx.stream(
        "GET", f"{service.url}/api/jobs/{job_id}/events", timeout=httpx.Timeout(600)
    ) as response:
        for event in sseclient.SSEClient(response.iter_bytes()).events():
            if event.event == "end":
                status = json.loads(event.data)["status"]
                break
            sent = datetime.fromisoformat(json.loads(event.data)["timestamp"]).timestamp()
            lateness.append(time.time() - sent)
    return {
        "status": status,
        "seconds_to_end": round(time.time() - started, 2),
        "events": len(lateness),
        "lateness_median_s": round(statistics.median(lateness), 3),
        "lateness_max_s": round(max(lateness), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--names", type=int, nargs="+", default=[300, 10000])
    parser.add_argument("--redis", default="")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-jobs-"))
    template = DatabaseTemplate(folder)
    for label, redis_url in [("database", ""), ("redis", args.redis)]:
        if label == "redis" and not redis_url:
            continue
        (folder / label).mkdir()
        service = Service(folder / label, template, REDIS_URL=redis_url)
        service.start()
        try:
            for count in args.names:
                result = run_job(service, names_file(folder, count))
                print(json.dumps({"wake": label, "names": count, **result}))
        finally:
            service.stop()


if __name__ == "__main__":
    main()
