"""The hostile-input suite's service (real daphne + supervised worker) and its checks: the
status and a short JSON `{"detail", "code"}` with the CORS header, nothing created (rows and files),
and /api/health answering quickly while the hostile request is being handled."""

import io
import json
import os
import sqlite3
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from commerce.payments.standin import keys_ensure
from tests import errors
from tests.processes import Service, staff_headers
from tests.wordclouds.conftest import names_xlsx, tiny_font  # noqa: F401  (fixtures)

ORIGIN = {"Origin": "https://poster.example"}
DETAIL_MAX = 200
# /api/health must answer within this while a hostile request is handled. A probe over it
# sends the hostile request once more, and the check holds if every probe of that second
# try is within it: a stall happens again; a one-off pause of this 2-core machine, which
# runs the client and the whole service, does not. Latency under load is measured by the
# benchmarks (bench/health_under_load.py).
HEALTH_WITHIN_SECONDS = 0.1
# Tables that change without any request: the broker's queue and task results, and the events
# of jobs already running (a new job shows in wordclouds_job), and the workers' heartbeat; and
# the throttles' counts of a refused request too (the database's cache table).
BACKGROUND_TABLES = (
    "django_cache",
    "django_q_",
    "django_session",
    "wordclouds_jobevent",
    "wordclouds_workerbeat",
    "sqlite_sequence",
)


MB = 1024 * 1024
# Lower than the default (100 MB), so that a body over it costs this process less to make.
REQUEST_BODY_MAX_BYTES = 60 * MB


@pytest.fixture(scope="package")
def payment_keys(tmp_path_factory):
    """The stand-in platform's keys: notifies are signed with them (no platform needed)."""
    return keys_ensure(tmp_path_factory.mktemp("payment-keys"))


@pytest.fixture(scope="package")
def service(tmp_path_factory, database_template, payment_keys):
    started = Service(
        tmp_path_factory.mktemp("hostile"),
        database_template,
        HEAVY_TIME_LIMIT_SECONDS=10,
        REQUEST_BODY_MAX_BYTES=REQUEST_BODY_MAX_BYTES,
        WECHATPAY_MCH_ID="1900000109",
        WECHATPAY_MCH_SERIAL="5157F09EFDC096DE15EBE81A47057A72",
        WECHATPAY_MCH_PRIVATE_KEY_FILE=payment_keys.merchant_private,
        WECHATPAY_PUBLIC_KEY_FILE=payment_keys.platform_public,
        WECHATPAY_PUBLIC_KEY_ID=payment_keys.key_id,
        WECHATPAY_APIV3_KEY=payment_keys.apiv3_key,
        WECHATPAY_NOTIFY_URL="http://127.0.0.1:1/api/payments/wechat/notify",
        IDENTITY_APP_ID="wx-hostile-app",
    )
    try:
        yield started.start()
    finally:
        started.stop()


def row_counts(service: Service) -> dict[str, int]:
    url = service.database.url
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as connection:
            tables = [
                name
                for (name,) in connection.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'"
                )
            ]
            return {
                table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                for table in tables
                if not table.startswith(BACKGROUND_TABLES)
            }
    import psycopg

    with psycopg.connect(url) as connection:
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname='public'"
            )
        ]
        return {
            table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            for table in tables
            if not table.startswith(BACKGROUND_TABLES)
        }


class Refusal:
    """What a hostile request did: its response, and the health probes made meanwhile."""

    def __init__(self, response: httpx.Response, probes: list[tuple[float, int]]):
        self.response = response
        self.probes = probes


def hostile(service: Service, send) -> Refusal:
    """probed(service, send); the state before and after must be the same."""
    before = state(service)
    refusal = probed(service, send)
    assert_unchanged(service, before)
    return refusal


def state(service: Service) -> tuple[dict[str, int], set[str]]:
    """The rows of each table and the media files, to compare after a request."""
    return row_counts(service), service.stored_files()


def assert_unchanged(service: Service, before: tuple[dict[str, int], set[str]]) -> None:
    rows, files = before
    after = row_counts(service)
    assert after == rows, {
        table: (rows.get(table), count)
        for table, count in after.items()
        if rows.get(table) != count
    }
    assert service.stored_files() == files, "the request left files behind"


def probed(service: Service, send) -> Refusal:
    """Send a request (a callable) while probing /api/health; once more if a probe was slow
    (HEALTH_WITHIN_SECONDS), and then the second try is the one returned."""
    refusal = _sent_while_probing(service, send)
    if not _health_fast(refusal):
        SLOW_TRIES.append((_current_test(), max(seconds for seconds, _ in refusal.probes)))
        refusal = _sent_while_probing(service, send)
    return refusal


def _sent_while_probing(service: Service, send) -> Refusal:
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
    return Refusal(future.result(), probes)


def assert_refused(refusal: Refusal, status: int, detail: str | None = None) -> str:
    response = refusal.response
    assert response.status_code == status, response.text[:300]
    text = errors.refusal(response)
    assert 0 < len(text) <= DETAIL_MAX, text
    if detail is not None:
        assert detail in text, text
    assert response.headers.get("access-control-allow-origin") == "*"
    assert_health_fast(refusal)
    return text


# Every probe's latency in this run and its test, and the tries sent again after a slow
# probe: reported at the end (pytest_terminal_summary).
HEALTH_SECONDS: list[tuple[float, str]] = []
SLOW_TRIES: list[tuple[str, float]] = []


def pytest_terminal_summary(terminalreporter):
    if len(HEALTH_SECONDS) >= 2:
        probes = sorted(HEALTH_SECONDS, reverse=True)
        seconds = sorted(seconds for seconds, _ in probes)
        p99 = statistics.quantiles(seconds, n=100, method="inclusive")[98]
        terminalreporter.write_line(
            f"health while hostile requests ran: {len(seconds)} probes, "
            f"p50 {statistics.median(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
            f"max {seconds[-1] * 1000:.0f} ms; slowest:"
        )
        for seconds, test in probes[:5]:
            terminalreporter.write_line(f"  {seconds * 1000:.0f} ms in {test}")
    for test, seconds in SLOW_TRIES:
        terminalreporter.write_line(
            f"sent again after a {seconds * 1000:.0f} ms probe (not counted above): {test}"
        )


def _current_test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[-1].removesuffix(" (call)")


def _health_fast(refusal: Refusal) -> bool:
    return all(
        status == 200 and seconds < HEALTH_WITHIN_SECONDS for seconds, status in refusal.probes
    )


def assert_health_fast(refusal: Refusal) -> None:
    test = _current_test()
    HEALTH_SECONDS.extend((seconds, test) for seconds, _ in refusal.probes)
    assert _health_fast(refusal), refusal.probes


def post(service, path, *, headers=None, **kwargs):
    """As staff, who may call every route: what is refused is the input itself."""
    return _encoded("POST", service, path, {**staff_headers(), **(headers or {})}, kwargs)


def get(service, path, *, headers=None, **kwargs):
    """As staff too (a project's render is staff's or its owner's)."""
    return _encoded("GET", service, path, {**staff_headers(), **(headers or {})}, kwargs)


def _encoded(method, service, path, headers, kwargs):
    """A request whose body (form, JSON, multipart or parts) is encoded now and sent later by
    the callable returned: the probes made meanwhile measure the server, not this process."""
    request = httpx.Request(
        method, f"{service.url}{path}", headers={**ORIGIN, **(headers or {})}, **kwargs
    )
    request.read()

    def send() -> httpx.Response:
        with httpx.Client(timeout=60) as client:
            return client.send(request)

    return send


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
