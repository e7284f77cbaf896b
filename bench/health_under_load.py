"""/api/health latency of the web process while 4 heavy requests run at once:
`python bench/health_under_load.py [--checkout DIR] [--seconds 30]`.

Starts daphne from a checkout of this repository (default: this one; give another, e.g. a
`git worktree` of an older commit, to measure it the same way) on a throw-away SQLite
database and MEDIA_ROOT, with a finished 3,000-name job folder made by the engine and a
project whose sticker is an SVG with a heavy filter (`feMorphology radius=20`) in a
3000-px box. Four client threads then repeat render.png, render.svg, custom.svg (dots at a
1.5-px pitch) and analyze-line-spacing (sampleStep 0.5, percentile 100) while a fifth asks
/api/health every 50 ms; prints the health latency (p50, p99, max) and the heavy answers.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.processes import free_port, health_answered, web_command  # noqa: E402

HEAVY_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">'
    '<filter id="f"><feMorphology radius="20"/></filter>'
    '<rect width="300" height="300" fill="#345" filter="url(#f)"/></svg>'
)


def finished_job(media: Path) -> str:
    from wordclouds import engine

    job_id = uuid.uuid4().hex
    engine.generate(
        names_path=ROOT / "bench/fixtures/names_3000.xlsx",
        out_dir=media / "jobs" / job_id,
        params={"WIDTH": 1600, "HEIGHT": 1200, "SEED": 1},
    )
    return job_id


def start_web(checkout: Path, folder: Path, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "MEDIA_ROOT": str(folder / "media"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=checkout,
        env=env,
        check=True,
        capture_output=True,
    )
    web = subprocess.Popen(
        web_command("127.0.0.1", port),
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # No worker runs here: a health answer of 503 is an answer too.
    if health_answered(f"http://127.0.0.1:{port}", seconds=60, statuses=(200, 503), web=web):
        return web
    raise RuntimeError("the web server did not start")


def heavy_requests(url: str, job_id: str) -> list:
    asset = httpx.post(
        f"{url}/api/assets", files={"file": ("heavy.svg", HEAVY_SVG.encode())}, timeout=60
    ).json()
    template = httpx.get(f"{url}/api/templates", timeout=60).json()[0]["id"]
    sticker = {"asset_id": asset["id"], "x": 0, "y": 0, "width": 3000, "height": 3000}
    project = httpx.post(
        f"{url}/api/projects",
        timeout=60,
        data={
            "name": "bench",
            "template_id": template,
            "background_color": "#FFFFFF",
            "stickers": json.dumps([sticker]),
        },
    ).json()["id"]
    return [
        ("GET", f"{url}/api/projects/{project}/render.png", None),
        ("GET", f"{url}/api/projects/{project}/render.svg", None),
        ("GET", f"{url}/api/jobs/{job_id}/custom.svg?fill=dot&spacing=1.5&radius=0.4", None),
        (
            "POST",
            f"{url}/api/jobs/{job_id}/analyze-line-spacing",
            {"sampleStep": 0.5, "percentile": 100},
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--seconds", type=float, default=30)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "media").mkdir()
        job_id = finished_job(folder / "media")
        port = free_port()
        web = start_web(options.checkout.resolve(), folder, port)
        url = f"http://127.0.0.1:{port}"
        try:
            requests = heavy_requests(url, job_id)
            stop = threading.Event()
            answers, latencies = defaultdict(list), []

            def repeat(method, target, body):
                with httpx.Client(timeout=600) as client:
                    while not stop.is_set():
                        started = time.monotonic()
                        response = client.request(method, target, json=body)
                        answers[
                            (target.rsplit("/", 1)[1].split("?")[0], response.status_code)
                        ].append(time.monotonic() - started)

            threads = [threading.Thread(target=repeat, args=request) for request in requests]
            for thread in threads:
                thread.start()
            time.sleep(1)
            with httpx.Client(timeout=60) as client:
                deadline = time.monotonic() + options.seconds
                while time.monotonic() < deadline:
                    started = time.monotonic()
                    client.get(f"{url}/api/health")
                    latencies.append(time.monotonic() - started)
                    time.sleep(0.05)
            stop.set()
            for thread in threads:
                thread.join()
        finally:
            web.terminate()
            web.wait()
    p99 = statistics.quantiles(latencies, n=100)[98]
    print(
        f"checkout {options.checkout}: health over {len(latencies)} probes: "
        f"p50 {statistics.median(latencies) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms"
    )
    for (name, status), seconds in sorted(answers.items()):
        print(
            f"  {name}: {status} ×{len(seconds)}, median {statistics.median(seconds):.1f} s, "
            f"max {max(seconds):.1f} s"
        )


if __name__ == "__main__":
    main()
