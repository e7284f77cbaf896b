"""End to end: the real daphne server and django-q2 worker as processes; a job submitted over
HTTP runs in the worker and its events reach an SSE client of the web process, with the
default settings (events read from the database) and with Redis (woken through pub/sub)."""

import json
import os

import httpx
import pytest
import sseclient

from tests.names import sample_names
from tests.processes import Service

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
PARAMS = {"WIDTH": 600, "HEIGHT": 400, "SEED": 11}


@pytest.fixture(scope="module", params=["database", "redis"])
def service(request, tmp_path_factory, database_template):
    redis_url = os.environ.get("REDIS_URL", "")
    if request.param == "redis" and not redis_url:
        pytest.skip("REDIS_URL is not set")
    started = Service(
        tmp_path_factory.mktemp(f"service-{request.param}"),
        database_template,
        REDIS_URL=redis_url if request.param == "redis" else "",
    )
    try:
        yield started.start()
    finally:
        started.stop()


@pytest.fixture
def names_file(names_xlsx):
    return names_xlsx(sample_names(300))


def sse_events(url: str, *, last_event_id: str | None = None, stop_after: int | None = None):
    """Reads the stream with an SSE client until `end` (or `stop_after` events, then drops
    the connection); returns the events as (id, event, data)."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    received = []
    with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(60)) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for event in sseclient.SSEClient(response.iter_bytes()).events():
            received.append((event.id, event.event, json.loads(event.data)))
            if event.event == "end" or len(received) == stop_after:
                break
    return received


def test_a_job_streams_its_events_in_order_until_end(service, names_file):
    job_id = service.submit(names_file, PARAMS)

    received = sse_events(f"{service.url}/api/jobs/{job_id}/events")

    *events, end = received
    assert end[1:] == ("end", {"status": "success"}), service.job(job_id)["error"]
    ids = [int(event_id) for event_id, _, _ in events]
    assert ids == list(range(1, len(ids) + 1))
    assert all(kind == data["type"] for _, kind, data in events)
    progress = [data["progress_percent"] for _, _, data in events]
    assert progress == sorted(progress) and progress[-1] == 100
    stages = [data["stage"] for _, kind, data in events if kind == "status"]
    assert stages[0] == "queued" and stages[-1] == "done"
    assert {"reading_names", "placing_words"} <= set(stages)
    assert service.job(job_id)["status"] == "success"


def test_a_client_reconnecting_with_last_event_id_gets_only_later_events(service, names_file):
    job_id = service.submit(names_file, PARAMS)
    url = f"{service.url}/api/jobs/{job_id}/events"

    first = sse_events(url, stop_after=2)
    rest = sse_events(url, last_event_id=first[-1][0])

    ids = [int(event_id) for event_id, _, _ in first + rest[:-1]]
    assert ids == list(range(1, len(ids) + 1))
    assert rest[-1][1:] == ("end", {"status": "success"})
    everything = httpx.get(f"{service.url}/api/jobs/{job_id}/detail").json()["recent_events"]
    assert [event["id"] for event in everything] == ids[-50:]
