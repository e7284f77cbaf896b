"""Lookups under a crowd, this code against another checkout, on PostgreSQL:
`python bench/lookup_load.py --before DIR [--database-url URL]`.

DIR is a checkout of the code to compare with (e.g. `git worktree add --detach DIR <commit>`),
run with this interpreter. Makes a record-less finished job of 100,000 placements as
bench/lookup.py does (the engine on names_10000.xlsx, its placements ten times over), starts
one daphne server per checkout on loopback, each on a fresh PostgreSQL database of its own
(`<URL>_before`, `<URL>_after`, dropped and created), both on the same media folder, and
sends `--clients` concurrent clients (each one request at a time, no pause) at
`/locations` for `--seconds`: exact with a whole name, and contains with 3 characters of a
name. The two servers take turns, swapping which goes first every round, so both see the
same load on the machine. Prints the time of each server's first lookup (with this code it
loads the job into the placements table) and a Markdown table: requests/s, median, p99,
errors, the web process's CPU time per request, and the 1-minute load average as each run
began (the previous run's included).
"""

import argparse
import asyncio
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lookup import FIXTURES, make_big_job, make_job, server_cpu, start_server  # noqa: E402
from core.processes import free_port  # noqa: E402


def fresh_database(url: str) -> str:
    """Drop and create the database `url` names (through the server's `postgres` one)."""
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return url


def queries(names: list[str], mode: str, rng: random.Random) -> list[dict]:
    if mode == "exact":
        return [{"name": rng.choice(names)} for _ in range(5000)]
    long = [name for name in names if len(name) >= 3]
    picked = []
    for _ in range(5000):
        name = rng.choice(long)
        start = rng.randrange(len(name) - 2)
        picked.append({"name": name[start : start + 3], "mode": "contains"})
    return picked


async def crowd(url: str, params: list[dict], clients: int, seconds: float) -> dict:
    """`clients` loops, each on its own kept-alive connection, sending the next request when
    its answer is in. A plain HTTP/1.1 client on asyncio streams: httpx's own work per
    request (5 ms at 50 clients) would load the machine more than a server's."""
    parts = urlsplit(url)
    requests = [
        f"GET {parts.path}?{urlencode(query)} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode()
        for query in params
    ]
    latencies, statuses = [], {}
    deadline = time.monotonic() + seconds

    async def client(number: int) -> None:
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        index = number
        try:
            while time.monotonic() < deadline:
                start = time.perf_counter()
                try:
                    writer.write(requests[index % len(requests)])
                    status = await _answer(reader)
                except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                    status = type(error).__name__
                    writer.close()
                    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    statuses[status] = statuses.get(status, 0) + 1
                index += clients
        finally:
            writer.close()

    started = time.monotonic()
    await asyncio.gather(*(client(number) for number in range(clients)))
    elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_second": len(latencies) / elapsed,
        "median_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "errors": sum(statuses.values()),
        "statuses": statuses,
    }


async def _answer(reader: asyncio.StreamReader) -> int:
    """Reads one whole answer (Content-Length or chunked); its status."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = dict(line.lower().split(": ", 1) for line in head[1:] if line)
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        while size := int(await reader.readline(), 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_lookup"),
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-lookup-load-"))
    jobs = folder / "media" / "jobs"
    jobs.mkdir(parents=True)
    servers = {}
    try:
        big = make_big_job(
            make_job(FIXTURES / "names_10000.xlsx", FIXTURES / "heart.png", jobs), jobs
        )
        with sqlite3.connect(jobs / big / "positions.db") as connection:
            names = sorted({row[0] for row in connection.execute("SELECT name FROM words")})
            rows = connection.execute("SELECT count(*) FROM words").fetchone()[0]
        for label, root in (("before", args.before.resolve()), ("after", ROOT)):
            port = free_port()
            url = fresh_database(f"{args.database_url}_{label}")
            servers[label] = (start_server(folder, port, root, url), port)
        rng = random.Random(1)
        results, first = [], {}
        for round_number in range(args.rounds):
            order = ["before", "after"] if round_number % 2 == 0 else ["after", "before"]
            for mode in ("exact", "contains"):
                params = queries(names, mode, rng)
                for label in order:
                    url = f"http://127.0.0.1:{servers[label][1]}/api/jobs/{big}/locations"
                    start = time.perf_counter()
                    httpx.get(url, params=params[0], timeout=300).raise_for_status()
                    first.setdefault(label, time.perf_counter() - start)  # loads the table
                    load = os.getloadavg()[0]
                    cpu = server_cpu(servers[label][0].pid)
                    figures = asyncio.run(crowd(url, params, args.clients, args.seconds))
                    cpu = server_cpu(servers[label][0].pid) - cpu
                    figures["cpu_ms"] = cpu * 1000 / max(1, figures["requests"])
                    results.append((round_number + 1, mode, label, load, figures))
                    print(round_number + 1, mode, label, figures, file=sys.stderr)
    finally:
        for server, _ in servers.values():
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{rows:,} placements, {args.clients} clients, {args.seconds:g} s each; first lookup:")
    print(", ".join(f"{label} {seconds:.2f} s" for label, seconds in first.items()) + "\n")
    print(
        "| round | query | code | load avg | requests/s | median | p99 | errors "
        "| server CPU per request |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for round_number, mode, label, load, figures in results:
        print(
            f"| {round_number} | {mode} | {label} | {load:.1f} | {figures['per_second']:.1f} "
            f"| {figures['median_ms']:.1f} ms | {figures['p99_ms']:.1f} ms "
            f"| {figures['errors']} | {figures['cpu_ms']:.2f} ms |"
        )


if __name__ == "__main__":
    main()
