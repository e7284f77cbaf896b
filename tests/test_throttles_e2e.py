"""End to end, two web processes on one database and one cache (two replicas of one
installation: the same Q_NAME) and one worker: a client's requests are counted across both,
429 `throttled` with Retry-After past a rate, staff never; a client's queued jobs are capped
(MAX_QUEUED_PER_CLIENT). On SQLite the count is in the database's cache table, on CI's second
pass in Redis (docs/settings.md, "Throttles")."""

import httpx
import pytest

from core.admin_token import admin_token_issue
from tests.errors import refusal
from tests.names import write_names
from tests.processes import Service

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
RATES = "jobs=5/hour,exports=100000/hour,login=100000/minute,lookups=6/minute"


@pytest.fixture(scope="module")
def replicas(tmp_path_factory, database_template):
    """Web 1 with no worker (so jobs stay queued), web 2 on its database, queue and cache."""
    limits = {"THROTTLE_RATES": RATES, "MAX_QUEUED_PER_CLIENT": 2}
    first = Service(tmp_path_factory.mktemp("web1"), database_template, **limits)
    second = Service(
        tmp_path_factory.mktemp("web2"),
        database_template,
        database=first.database,
        Q_NAME=first.env["Q_NAME"],
        **limits,
    )
    try:
        first.start(worker=False)
        second.start(worker=False)
        yield first, second
    finally:
        second.stop()
        first.stop()


def test_lookups_are_counted_across_both_web_processes(replicas):
    first, second = replicas
    # both ways a lookup is served: in front of Django (locations) and by Django (words)
    asked = [
        f"{first.url}/api/jobs/nojob/locations",
        f"{second.url}/api/jobs/nojob/words",
        f"{second.url}/api/jobs/nojob/locations",
        f"{first.url}/api/jobs/nojob/words",
        f"{first.url}/api/jobs/nojob/tiles",
        f"{second.url}/api/jobs/nojob/locations",
    ]
    answers = [httpx.get(url, timeout=30) for url in asked]
    over = [httpx.get(f"{first.url}/api/jobs/nojob/words", timeout=30)]
    over.append(httpx.get(f"{second.url}/api/jobs/nojob/locations", timeout=30))

    assert [answer.status_code for answer in answers] == [404] * 6
    for answer in over:
        assert answer.status_code == 429
        assert answer.json()["code"] == "throttled"
        assert refusal(answer).startswith("more than 6 lookups requests in 60 s")
        assert 1 <= int(answer.headers["Retry-After"]) <= 60


def test_staff_are_never_throttled(replicas):
    first, second = replicas
    staff = {"Authorization": f"Bearer {admin_token_issue()}"}
    for service in (first, second) * 5:
        for path in ("locations", "words"):
            answer = httpx.get(f"{service.url}/api/jobs/nojob/{path}", headers=staff, timeout=30)
            assert answer.status_code == 404, answer.text


def test_queued_jobs_are_capped_and_job_work_counted_across_both(replicas, tmp_path):
    first, second = replicas
    names = write_names(tmp_path / "names.xlsx", ["Anna", "Bruno", "Chloé"])

    def post(service, path):
        with names.open("rb") as upload:
            return httpx.post(f"{service.url}{path}", files={"name_list": upload}, timeout=60)

    created = [post(first, "/api/jobs"), post(second, "/api/jobs")]
    capped = post(first, "/api/jobs")
    previews = [post(second, "/api/name-lists/preview"), post(first, "/api/name-lists/preview")]
    throttled = post(second, "/api/name-lists/preview")

    assert [answer.status_code for answer in created] == [201, 201]
    assert capped.status_code == 429
    assert capped.json()["code"] == "too_many_queued_jobs"
    assert int(capped.headers["Retry-After"]) >= 1
    assert [answer.status_code for answer in previews] == [200, 200]
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled"
    assert int(throttled.headers["Retry-After"]) >= 1
    jobs = httpx.get(f"{first.url}/api/jobs", timeout=30).json()
    assert len(jobs) == 2  # the capped request made nothing
