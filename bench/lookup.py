"""Time the endpoints on a finished job over HTTP: `python bench/lookup.py [--names XLSX]`.

Makes a throw-away database and MEDIA_ROOT, runs the engine's command line on the names
(default bench/fixtures/names_10000.xlsx, heart mask) into MEDIA_ROOT/jobs/<id>/ (a
finished job without a record), adds a second record-less job whose positions.db holds the
same placements ten times over (100,000 rows; lookups only), starts a daphne server on
loopback, and times real HTTP requests: medians of locations and find, and of custom.svg
(line fill), analyze-line-spacing and occupancy_mask. Prints a Markdown table.
"""

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.processes import free_port, health_answered, web_command  # noqa: E402

FIXTURES = ROOT / "bench" / "fixtures"


def make_job(names: Path, mask: Path, jobs: Path) -> str:
    job_id = uuid.uuid4().hex
    subprocess.run(
        [
            sys.executable,
            "-m",
            "wordclouds.engine",
            str(names),
            "--mask",
            str(mask),
            "--params",
            json.dumps({"DATA_COL_INDEX": 1, "SEED": 1}),
            "--out",
            str(jobs / job_id),
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return job_id


def make_big_job(job_id: str, jobs: Path, times: int = 10) -> str:
    """A job whose positions.db holds every placement of `job_id` `times` times."""
    big = uuid.uuid4().hex
    (jobs / big).mkdir()
    shutil.copy(jobs / job_id / "positions.db", jobs / big / "positions.db")
    with sqlite3.connect(jobs / big / "positions.db") as connection:
        columns = ", ".join(
            row[1] for row in connection.execute("PRAGMA table_info(words)") if row[1] != "id"
        )
        count = connection.execute("SELECT max(id) FROM words").fetchone()[0]
        for copy in range(1, times):
            connection.execute(
                f"INSERT INTO words (id, {columns}) SELECT id + ?, {columns} "
                "FROM words WHERE id <= ?",
                (copy * count, count),
            )
    return big


def start_server(
    folder: Path, port: int, root: Path = ROOT, database_url: str | None = None
) -> subprocess.Popen:
    """daphne on 127.0.0.1:`port` running the code in `root` (default: this checkout) on a
    freshly migrated database (default: a SQLite file in `folder`), MEDIA_ROOT folder/media."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url or f"sqlite:///{folder / 'bench.sqlite3'}",
        "MEDIA_ROOT": str(folder / "media"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ORDERS_ADMIN_PASSWORD": "bench-password",
        "LOG_LEVEL": "WARNING",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=root,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        web_command("127.0.0.1", port),
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if health_answered(f"http://127.0.0.1:{port}", seconds=60, web=server):
        return server
    server.kill()
    raise RuntimeError("the server did not start")


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(client: httpx.Client, method: str, url: str, **kwargs) -> float:
    start = time.perf_counter()
    response = client.request(method, url, **kwargs)
    elapsed = time.perf_counter() - start
    response.raise_for_status()
    return elapsed


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--names", type=Path, default=FIXTURES / "names_10000.xlsx")
    parser.add_argument("--mask", type=Path, default=FIXTURES / "heart.png")
    parser.add_argument("--lookups", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-lookup-"))
    jobs = folder / "media" / "jobs"
    jobs.mkdir(parents=True)
    try:
        start = time.perf_counter()
        job_id = make_job(args.names, args.mask, jobs)
        print(f"engine: {time.perf_counter() - start:.1f} s", file=sys.stderr)
        big = make_big_job(job_id, jobs)
        with sqlite3.connect(jobs / job_id / "positions.db") as connection:
            names = [row[0] for row in connection.execute("SELECT name FROM words")]
        with sqlite3.connect(jobs / big / "positions.db") as connection:
            big_rows = connection.execute("SELECT count(*) FROM words").fetchone()[0]
        port = free_port()
        server = start_server(folder, port)
        try:
            run(port, server.pid, job_id, big, names, big_rows, args.lookups)
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(
    port: int, pid: int, job_id: str, big: str, names: list[str], big_rows: int, lookups: int
) -> None:
    rng = random.Random(1)
    base = f"http://127.0.0.1:{port}/api"
    rows = []
    with httpx.Client(timeout=120) as client:
        token = client.post(f"{base}/login", json={"password": "bench-password"}).json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        for label, job, _count in (
            (f"{len(names):,} placements", job_id, len(names)),
            (f"{big_rows:,} placements", big, big_rows),
        ):
            timed(client, "GET", f"{base}/jobs/{job}/locations", params={"name": names[0]})  # warm
            exact = [
                timed(
                    client,
                    "GET",
                    f"{base}/jobs/{job}/locations",
                    params={"name": rng.choice(names)},
                )
                for _ in range(lookups)
            ]
            found = [
                timed(
                    client,
                    "GET",
                    f"{base}/jobs/{job}/find",
                    headers=bearer,
                    params={"name": rng.choice(names)},
                )
                for _ in range(lookups)
            ]
            contains = [
                timed(
                    client,
                    "GET",
                    f"{base}/jobs/{job}/locations",
                    params={"name": rng.choice(names)[:1], "mode": "contains"},
                )
                for _ in range(max(5, lookups // 10))
            ]
            rows += [
                (f"locations exact, {label}", median_ms(exact), "", lookups),
                (f"find exact (token), {label}", median_ms(found), "", lookups),
                (
                    f"locations contains (1 character), {label}",
                    median_ms(contains),
                    "",
                    max(5, lookups // 10),
                ),
            ]
        for label, method, path, kwargs in (
            ("custom.svg fill=line (defaults)", "GET", "custom.svg", {"params": {"fill": "line"}}),
            ("custom.svg fill=dot (defaults)", "GET", "custom.svg", {"params": {"fill": "dot"}}),
            ("custom.svg fill=ring (defaults)", "GET", "custom.svg", {"params": {"fill": "ring"}}),
            ("analyze-line-spacing (defaults)", "POST", "analyze-line-spacing", {"json": {}}),
            ("occupancy_mask", "GET", "occupancy_mask", {}),
        ):
            samples, cpu = [], []
            for _ in range(3):
                before = server_cpu(pid)
                samples.append(timed(client, method, f"{base}/jobs/{job_id}/{path}", **kwargs))
                cpu.append(server_cpu(pid) - before)
            rows.append(
                (
                    f"{label}, {len(names):,} names",
                    f"{statistics.median(samples):.2f} s",
                    f"{statistics.median(cpu):.2f} s",
                    3,
                )
            )
    print("| request | median time | median server CPU | requests |\n|---|---|---|---|")
    for label, value, cpu_time, count in rows:
        print(f"| {label} | {value} | {cpu_time} | {count} |")


if __name__ == "__main__":
    main()
