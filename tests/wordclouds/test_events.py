"""GET /api/jobs/{id}/events in process: framing, replay, Last-Event-ID and the end of the
stream. Live delivery across processes is in test_events_e2e.py."""

import asyncio
import json
import os
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from config.asgi import application
from tests.asgi import asgi_request
from tests.errors import refusal
from wordclouds.models import Job
from wordclouds.services.events import EventWaiter, _announce
from wordclouds.services.jobs import STALE_ERROR, job_create, job_start, jobs_fail_stale

# The streams read the database on threads of their own (tests/asgi.py).
pytestmark = pytest.mark.django_db(transaction=True)


def read_stream(path, **headers) -> list[dict]:
    """The SSE messages of a stream that ends, as dicts of their fields; comments are kept
    as {"comment": text}."""
    response = asgi_request("GET", path, **headers)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/event-stream"
    text = response.text
    assert text.endswith("\n\n")
    messages = []
    for block in text.split("\n\n")[:-1]:
        message = {}
        for line in block.split("\n"):
            field, _, value = line.partition(": ")
            message[field or "comment"] = value
        messages.append(message)
    return messages


def events_of(messages):
    return [m for m in messages if "comment" not in m]


def test_a_finished_job_replays_every_event_then_ends(finished_job):
    job_id = finished_job()
    stored = list(Job.objects.get(id=job_id).events.order_by("seq"))

    messages = events_of(read_stream(f"/api/jobs/{job_id}/events"))

    *events, end = messages
    assert [int(m["id"]) for m in events] == [event.seq for event in stored]
    assert [int(m["id"]) for m in events] == list(range(1, len(stored) + 1))
    assert [m["event"] for m in events] == [event.type for event in stored]
    data = [json.loads(m["data"]) for m in events]
    assert set(data[0]) == {"type", "stage", "progress_percent", "message", "timestamp"}
    assert [d["type"] for d in data] == [m["event"] for m in events]
    progress = [d["progress_percent"] for d in data]
    assert progress == sorted(progress) and progress[-1] == 100
    assert (data[0]["stage"], data[-1]["stage"]) == ("queued", "done")
    assert end == {"id": str(len(stored)), "event": "end", "data": '{"status": "success"}'}


def test_the_stream_suggests_a_reconnect_delay_first(finished_job, settings):
    first = read_stream(f"/api/jobs/{finished_job()}/events")[0]

    assert first["retry"] == str(settings.EVENTS_RETRY_MS)


@pytest.mark.parametrize("seen", ["last", "beyond"])
def test_a_reconnect_at_or_after_the_end_of_a_finished_job_is_204(finished_job, seen):
    job_id = finished_job()
    last = Job.objects.get(id=job_id).events.count()

    response = asgi_request(
        "GET",
        f"/api/jobs/{job_id}/events",
        **{"Last-Event-ID": str(last if seen == "last" else last + 5)},
    )

    assert response.status_code == 204


def test_a_reconnect_to_a_finished_folder_without_record_is_204(finished_job_dir):
    response = asgi_request("GET", f"/api/jobs/{finished_job_dir()}/events?lastEventId=0")

    assert response.status_code == 204


@pytest.mark.parametrize("how", ["header", "query"])
def test_last_event_id_resumes_after_that_event(finished_job, how):
    job_id = finished_job()
    total = Job.objects.get(id=job_id).events.count()
    path, headers = f"/api/jobs/{job_id}/events", {}
    if how == "header":
        headers["Last-Event-ID"] = "3"
    else:
        path += "?lastEventId=3"

    *events, end = events_of(read_stream(path, **headers))

    assert [int(m["id"]) for m in events] == list(range(4, total + 1))
    assert end["event"] == "end"


@pytest.mark.parametrize("value", ["abc", "-1", "²"])
def test_a_bad_last_event_id_is_400(finished_job, value):
    job_id = finished_job()

    response = asgi_request("GET", f"/api/jobs/{job_id}/events?lastEventId={value}")

    assert response.status_code == 400
    assert refusal(response) == "Last-Event-ID must be a non-negative integer"


def test_a_finished_folder_without_record_only_ends(finished_job_dir):
    job_id = finished_job_dir()

    messages = events_of(read_stream(f"/api/jobs/{job_id}/events"))

    assert messages == [{"id": "0", "event": "end", "data": '{"status": "success"}'}]


def _running_job(names_xlsx, django_capture_on_commit_callbacks) -> str:
    upload = SimpleUploadedFile("n.xlsx", names_xlsx(["Anna"]).read_bytes())
    with django_capture_on_commit_callbacks():
        job_id = job_create(params=None, name_list=upload).id
    job_start(job_id=job_id, worker_pid=999999)
    return job_id


def _silence(job_id: str, seconds: float) -> None:
    """The job's worker last touched it `seconds` ago."""
    silent_since = timezone.now() - timedelta(seconds=seconds)
    Job.objects.filter(id=job_id).update(updated_at=silent_since)


def test_a_job_whose_worker_died_ends_its_stream_failed_without_a_write(
    api, names_xlsx, django_capture_on_commit_callbacks, settings
):
    job_id = _running_job(names_xlsx, django_capture_on_commit_callbacks)
    _silence(job_id, settings.JOB_STALE_SECONDS + 1)
    stored = Job.objects.get(id=job_id).events.count()

    *events, end = events_of(read_stream(f"/api/jobs/{job_id}/events"))

    last = json.loads(events[-1]["data"])
    assert (events[-1]["id"], events[-1]["event"], last["stage"], last["message"]) == (
        str(stored + 1),
        "status",
        "failed",
        STALE_ERROR,
    )
    assert (end["event"], end["data"], end["id"]) == (
        "end",
        '{"status": "failed"}',
        str(stored + 1),
    )
    job = api.get(f"/api/jobs/{job_id}").json()
    assert (job["status"], job["error"]) == ("failed", STALE_ERROR)
    assert Job.objects.get(id=job_id).status == "running"  # the stream only read
    reconnect = {"Last-Event-ID": end["id"]}
    assert asgi_request("GET", f"/api/jobs/{job_id}/events", **reconnect).status_code == 204

    jobs_fail_stale()  # the worker's schedule writes the failure: the same event, same id

    written = Job.objects.get(id=job_id).events.order_by("-seq").first()
    assert (written.seq, written.stage, written.message) == (stored + 1, "failed", STALE_ERROR)
    assert events_of(read_stream(f"/api/jobs/{job_id}/events"))[-2:] == [events[-1], end]
    assert asgi_request("GET", f"/api/jobs/{job_id}/events", **reconnect).status_code == 204


def test_a_waiting_stream_gets_the_failure_when_the_worker_goes_silent(
    names_xlsx, django_capture_on_commit_callbacks, settings
):
    settings.EVENTS_POLL_SECONDS = 60  # no poll comes in time: the stream wakes by itself
    settings.JOB_STALE_SECONDS = 2
    job_id = _running_job(names_xlsx, django_capture_on_commit_callbacks)
    _silence(job_id, 1)  # stale one second from now, with no event and no write

    started = time.monotonic()
    *events, end = events_of(read_stream(f"/api/jobs/{job_id}/events"))

    assert 0.5 < time.monotonic() - started < 10
    assert json.loads(events[-1]["data"])["message"] == STALE_ERROR
    assert end["data"] == '{"status": "failed"}'
    assert Job.objects.get(id=job_id).status == "running"


@pytest.mark.parametrize("job_id", ["0" * 32, "not-a-job"])
def test_an_unknown_job_is_404(job_id):
    response = asgi_request("GET", f"/api/jobs/{job_id}/events")

    assert (response.status_code, refusal(response)) == (404, "job not found")


def test_a_stream_is_open_to_every_origin(finished_job):
    response = asgi_request(
        "GET", f"/api/jobs/{finished_job()}/events", Origin="https://shop.example"
    )

    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.headers["Cache-Control"] == "no-cache"


def test_a_method_other_than_get_is_405():
    response = asgi_request("POST", f"/api/jobs/{'0' * 32}/events")

    assert (response.status_code, refusal(response)) == (405, "method POST not allowed")
    assert response.headers["Allow"] == "GET"


def test_a_cors_preflight_of_a_stream_is_answered():
    response = asgi_request(
        "OPTIONS",
        f"/api/jobs/{'0' * 32}/events",
        **{
            "Origin": "https://shop.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "last-event-id",
        },
    )

    assert response.status_code == 200
    assert "last-event-id" in response.headers["Access-Control-Allow-Headers"]


def test_a_client_that_leaves_ends_its_stream(queued_job):
    job_id = queued_job()
    sent = []

    async def leave_after_the_first_chunk():
        left = asyncio.Event()

        async def receive():
            if not sent:
                return {"type": "http.request", "body": b"", "more_body": False}
            await left.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)
            if message["type"] == "http.response.body":
                left.set()

        scope = {
            "type": "http",
            "method": "GET",
            "path": f"/api/jobs/{job_id}/events",
            "query_string": b"",
            "headers": [],
        }
        await asyncio.wait_for(application(scope, receive, send), 10)

    async_to_sync(leave_after_the_first_chunk)()

    assert sent[0]["status"] == 200
    assert all(message.get("more_body") for message in sent[1:])  # never ended by the job


def test_the_stream_is_in_the_openapi_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    operation = schema["paths"]["/api/jobs/{job_id}/events"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_with_redis_an_announced_event_wakes_a_waiting_stream():
    job_id = uuid.uuid4().hex

    async def wait_for(announce: bool) -> bool:
        async with EventWaiter(job_id) as waiter:
            if announce:
                await asyncio.to_thread(_announce, job_id)  # as the worker's commit does
            return await waiter.wait(timeout=0.5 if not announce else 30)

    assert asyncio.run(wait_for(announce=False)) is False
    assert asyncio.run(wait_for(announce=True)) is True


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_with_redis_the_streams_of_a_job_share_one_member_and_all_wake():
    import redis

    job_id = uuid.uuid4().hex
    members = redis.Redis.from_url(os.environ["REDIS_URL"])
    group = f"asgi:group:job-events.{job_id}"  # channels-redis's key of the job's group

    async def three_streams():
        async with (
            EventWaiter(job_id) as first,
            EventWaiter(job_id) as second,
            EventWaiter(job_id) as third,
        ):
            joined = members.zcard(group)
            await asyncio.to_thread(_announce, job_id)
            woken = await asyncio.gather(*(waiter.wait(30) for waiter in (first, second, third)))
        return joined, woken

    joined, woken = asyncio.run(three_streams())

    assert joined == 1
    assert woken == [True, True, True]
    assert members.zcard(group) == 0


def test_with_redis_unreachable_the_stream_still_ends(finished_job, settings):
    job_id = finished_job()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": settings.REDIS_URL, "socket_connect_timeout": 2}]},
        }
    }

    *events, end = events_of(read_stream(f"/api/jobs/{job_id}/events"))

    assert [int(m["id"]) for m in events][:2] == [1, 2]
    assert (end["event"], end["data"]) == ("end", '{"status": "success"}')
