"""Time the endpoints on a finished job over HTTP: `python bench/lookup.py [--names XLSX]`.

Makes a throw-away database and MEDIA_ROOT, runs the engine's command line on the names
(default bench/fixtures/names_10000.xlsx, heart mask) into MEDIA_ROOT/jobs/<id>/ (a
finished job without a record), adds a second record-less job whose positions.db holds the
same placements ten times over (100,000 rows; lookups only), starts a daphne server on
loopback, and times real HTTP requests: medians of locations and find, and of custom.svg
(line, dot and ring fills), analyze-line-spacing and occupancy_mask. Prints a Markdown table.

`--custom-only` times the custom.svg rows alone; `--before PATH` (a checkout of older code)
starts a second server on that code and times its custom.svg rows in the same run, the two
servers taking turns request by request.
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
    """CPU seconds (user + system) the server process has used so far, with that of its
    children it has waited for: heavy requests run in forked children (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def timed(client: httpx.Client, method: str, url: str, **kwargs) -> float:
    start = time.perf_counter()
    response = client.request(method, url, **kwargs)
    elapsed = time.perf_counter() - start
    if response.is_error:
        raise RuntimeError(f"{url}: {response.status_code} {response.text[:200]}")
    return elapsed


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


CUSTOM = (
    ("custom.svg fill=line (defaults)", "GET", "custom.svg", {"params": {"fill": "line"}}),
    ("custom.svg fill=dot (defaults)", "GET", "custom.svg", {"params": {"fill": "dot"}}),
    ("custom.svg fill=ring (defaults)", "GET", "custom.svg", {"params": {"fill": "ring"}}),
)
OTHERS = (
    ("analyze-line-spacing (defaults)", "POST", "analyze-line-spacing", {"json": {}}),
    ("occupancy_mask", "GET", "occupancy_mask", {}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--names", type=Path, default=FIXTURES / "names_10000.xlsx")
    parser.add_argument("--mask", type=Path, default=FIXTURES / "heart.png")
    parser.add_argument("--lookups", type=int, default=200)
    parser.add_argument("--custom-only", action="store_true", help="time custom.svg only")
    parser.add_argument("--before", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--repeats", type=int, default=3, help="requests per heavy row")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-lookup-"))
    jobs = folder / "media" / "jobs"
    jobs.mkdir(parents=True)
    servers = {}
    try:
        start = time.perf_counter()
        job_id = make_job(args.names, args.mask, jobs)
        print(f"engine: {time.perf_counter() - start:.1f} s", file=sys.stderr)
        big = make_big_job(job_id, jobs)
        with sqlite3.connect(jobs / job_id / "positions.db") as connection:
            names = [row[0] for row in connection.execute("SELECT name FROM words")]
        with sqlite3.connect(jobs / big / "positions.db") as connection:
            big_rows = connection.execute("SELECT count(*) FROM words").fetchone()[0]
        roots = {"": ROOT} if args.before is None else {"before": args.before, "after": ROOT}
        for label, root in roots.items():
            server_folder = folder / (label or "server")
            server_folder.mkdir()
            (server_folder / "media").symlink_to(folder / "media")
            port = free_port()
            servers[label] = (start_server(server_folder, port, root.resolve()), port)
        rows = []
        if not args.custom_only:
            server, port = servers[next(iter(servers))]
            rows += lookup_rows(port, job_id, big, names, big_rows, args.lookups)
        heavy = CUSTOM if args.custom_only else CUSTOM + OTHERS
        rows += heavy_rows(servers, job_id, len(names), heavy, args.repeats)
    finally:
        for server, _ in servers.values():
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average at the end: {load}\n")
    print("| request | median time | median server CPU | requests |\n|---|---|---|---|")
    for label, value, cpu_time, count in rows:
        print(f"| {label} | {value} | {cpu_time} | {count} |")


def lookup_rows(
    port: int, job_id: str, big: str, names: list[str], big_rows: int, lookups: int
) -> list[tuple]:
    """Medians of locations (exact, contains) and find on the job and on the big job."""
    rng = random.Random(1)
    base = f"http://127.0.0.1:{port}/api"
    rows = []
    with httpx.Client(timeout=120) as client:
        token = client.post(f"{base}/login", json={"password": "bench-password"}).json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        for label, job in (
            (f"{len(names):,} placements", job_id),
            (f"{big_rows:,} placements", big),
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
    return rows


def heavy_rows(servers: dict, job_id: str, count: int, requests, repeats: int) -> list[tuple]:
    """Median time and server CPU of each request, the servers (labelled) taking turns."""
    rows = []
    with httpx.Client(timeout=120) as client:
        for label, method, path, kwargs in requests:
            samples = {name: ([], []) for name in servers}
            for _ in range(repeats):
                for name, (server, port) in servers.items():
                    url = f"http://127.0.0.1:{port}/api/jobs/{job_id}/{path}"
                    before = server_cpu(server.pid)
                    samples[name][0].append(timed(client, method, url, **kwargs))
                    samples[name][1].append(server_cpu(server.pid) - before)
            for name, (times, cpu) in samples.items():
                rows.append(
                    (
                        f"{label}, {count:,} names" + (f" ({name})" if name else ""),
                        f"{statistics.median(times):.2f} s",
                        f"{statistics.median(cpu):.2f} s",
                        repeats,
                    )
                )
    return rows


if __name__ == "__main__":
    main()
