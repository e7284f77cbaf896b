"""End to end: heavy work under load. Name-list previews of a workbook built to be slow run in
heavy children while /api/health stays quick; while every heavy slot is held, a malformed
revision body is a 400 at once (its shape is checked before any slot is waited for) and more
heavy work is 503 `heavy_work_busy` with Retry-After after HEAVY_WAIT_SECONDS.

serial: it measures how fast the server answers while it loads it."""

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from core.admin_token import admin_token_issue
from tests.errors import refusal
from tests.names import write_names
from tests.processes import HealthProbe, Service
from tests.workbooks import slow_workbook

pytestmark = [pytest.mark.e2e, pytest.mark.backend, pytest.mark.serial]
SLOTS = 4
HEALTH_WITHIN_SECONDS = 0.5


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template):
    started = Service(
        tmp_path_factory.mktemp("heavy"),
        database_template,
        HEAVY_CONCURRENCY=SLOTS,
        HEAVY_WAIT_SECONDS=1,
        # four slow previews at once on a busy 2-core machine take more than the default 30 s
        HEAVY_TIME_LIMIT_SECONDS=120,
    )
    try:
        yield started.start()
    finally:
        started.stop()


@pytest.fixture(scope="module")
def poster(service, tmp_path_factory):
    names = write_names(tmp_path_factory.mktemp("names") / "names.xlsx", ["Anna", "Bruno"])
    return service.finished(service.submit(names, {"WIDTH": 300, "HEIGHT": 200}))["job_id"]


@pytest.fixture(scope="module")
def workbook() -> bytes:
    return slow_workbook()


STAFF = {"Authorization": f"Bearer {admin_token_issue()}"}


def preview(service: Service, workbook: bytes) -> httpx.Response:
    files = {"name_list": ("slow.xlsx", workbook)}
    return httpx.post(f"{service.url}/api/name-lists/preview", files=files, timeout=180)


def test_four_slow_previews_leave_health_quick(service, workbook):
    with HealthProbe(service.url) as health, ThreadPoolExecutor(SLOTS) as pool:
        time.sleep(0.5)  # probes before the load too
        answers = list(pool.map(lambda _: preview(service, workbook), range(SLOTS)))

    assert [answer.status_code for answer in answers] == [200] * SLOTS
    assert answers[0].json() == {"rows": [["0" * 15]]}
    assert len(health.probes) >= 10
    assert {status for _, status in health.probes} == {200}
    assert max(seconds for seconds, _ in health.probes) < HEALTH_WITHIN_SECONDS, health.probes


def test_a_malformed_revision_is_a_400_while_every_slot_is_held(service, poster, workbook):
    with ThreadPoolExecutor(SLOTS) as pool:
        holding = [pool.submit(preview, service, workbook) for _ in range(SLOTS)]
        time.sleep(1)  # the uploads are in: every slot is held for seconds yet
        started = time.monotonic()
        malformed = httpx.post(
            f"{service.url}/api/jobs/{poster}/revisions",
            json={"rename": 0},
            headers=STAFF,  # the poster was made without a token: staff may revise it
            timeout=60,
        )
        answered = time.monotonic() - started
        busy = preview(service, workbook)
        held = [future.result() for future in holding]

    assert malformed.status_code == 400
    assert refusal(malformed) == "rename must be a list"
    assert answered < 1, answered
    assert busy.status_code == 503
    assert busy.json()["code"] == "heavy_work_busy"
    assert int(busy.headers["Retry-After"]) >= 1
    assert [answer.status_code for answer in held] == [200] * SLOTS
