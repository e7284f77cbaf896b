"""The hostile-input suite's service (real daphne + supervised worker) and its checks: the
status and a short JSON `{"detail"}` with the CORS header, nothing created (rows and files),
and /api/health answering quickly while the hostile request is being handled."""
import io
import json
import sqlite3
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.processes import Service
from tests.wordclouds.conftest import names_xlsx, tiny_font  # noqa: F401  (fixtures)

ORIGIN = {"Origin": "https://poster.example"}
DETAIL_MAX = 200
# A probe waits at most this long: a stalled web process held health for 8 s or more (the
# heavy request's whole time); 3 s leaves room for a busy 2-core machine. The latency
# figures under load are measured by bench/health_under_load.py, not asserted here.
HEALTH_WAIT_SECONDS = 3.0
# Tables that change without any request: the broker's queue and task results, and the events
# of jobs already running (a new job shows in wordclouds_job).
BACKGROUND_TABLES = ("django_q_", "django_session", "wordclouds_jobevent", "sqlite_sequence")


@pytest.fixture(scope="package")
def service(tmp_path_factory, database_template):
    started = Service(tmp_path_factory.mktemp("hostile"), database_template,
                      HEAVY_TIME_LIMIT_SECONDS=10)
    try:
        yield started.start()
    finally:
        started.stop()


def row_counts(service: Service) -> dict[str, int]:
    url = service.database.url
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as connection:
            tables = [name for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")]
            return {table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                    for table in tables if not table.startswith(BACKGROUND_TABLES)}
    import psycopg

    with psycopg.connect(url) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname='public'")]
        return {table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                for table in tables if not table.startswith(BACKGROUND_TABLES)}


def media_files(service: Service) -> set[str]:
    root = service.folder / "media"
    return {str(path.relative_to(root)) for path in root.rglob("*")
            if path.is_file() and ".worker" not in path.parts}


class Refusal:
    """What a hostile request did: its response, and the health probes made meanwhile."""

    def __init__(self, response: httpx.Response, probes: list[tuple[float, int]]):
        self.response = response
        self.probes = probes


def hostile(service: Service, send) -> Refusal:
    """Send a request (a callable) while probing /api/health; the state before and after
    must be the same."""
    rows, files = row_counts(service), media_files(service)
    probes = []
    with ThreadPoolExecutor(1) as pool, httpx.Client(timeout=10) as health:
        future = pool.submit(send)
        while True:
            started = time.monotonic()
            answer = health.get(f"{service.url}/api/health")
            probes.append((time.monotonic() - started, answer.status_code))
            if future.done():
                break
            time.sleep(0.02)
        response = future.result()
    after = row_counts(service)
    assert after == rows, {table: (rows.get(table), count) for table, count in after.items()
                           if rows.get(table) != count}
    assert media_files(service) == files, "the request left files behind"
    return Refusal(response, probes)


def assert_refused(refusal: Refusal, status: int, detail: str | None = None) -> str:
    response = refusal.response
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert set(body) == {"detail"} and 0 < len(body["detail"]) <= DETAIL_MAX, body
    if detail is not None:
        assert detail in body["detail"], body
    assert response.headers.get("access-control-allow-origin") == "*"
    assert_health_fast(refusal)
    return body["detail"]


# Every probe's latency in this run, reported at the end (pytest_terminal_summary).
HEALTH_SECONDS: list[float] = []


def pytest_terminal_summary(terminalreporter):
    if len(HEALTH_SECONDS) >= 2:
        seconds = sorted(HEALTH_SECONDS)
        p99 = statistics.quantiles(seconds, n=100)[98]
        terminalreporter.write_line(
            f"health while hostile requests ran: {len(seconds)} probes, "
            f"p50 {statistics.median(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
            f"max {seconds[-1] * 1000:.0f} ms")


def assert_health_fast(refusal: Refusal) -> None:
    HEALTH_SECONDS.extend(seconds for seconds, _ in refusal.probes)
    assert all(status == 200 and seconds < HEALTH_WAIT_SECONDS
               for seconds, status in refusal.probes), refusal.probes


def post(service, path, *, headers=None, **kwargs):
    headers = {**ORIGIN, **(headers or {})}
    return lambda: httpx.post(f"{service.url}{path}", headers=headers, timeout=60, **kwargs)


def get(service, path, *, headers=None, **kwargs):
    headers = {**ORIGIN, **(headers or {})}
    return lambda: httpx.get(f"{service.url}{path}", headers=headers, timeout=60, **kwargs)


def png_bytes(width: int, height: int, kind: str = "PNG") -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (width, height), 0).save(out, kind)
    return out.getvalue()


def deep_json(depth: int = 100_000) -> str:
    return "[" * depth + "]" * depth


def finished_job_id(service: Service, path: Path) -> str:
    job_id = service.submit(path, {"SEED": 3, "WIDTH": 400, "HEIGHT": 300})
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert job["status"] == "success", job
    return job_id


def dumps(value) -> str:
    return json.dumps(value)
