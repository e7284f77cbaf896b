"""GET /api/jobs/{job_id}/events: the job's events as server-sent events.

A small async view rather than django-eventstream (docs/architecture.md says why). The
JobEvent table is the source of truth: the stream replays what is there after the client's
Last-Event-ID, then waits for more, woken through Redis when REDIS_URL is set and polling the
table otherwise, so events written by the worker process reach clients of the web process
either way.

A stream holds no database connection between its reads: each read closes the connection it
opened (Django would otherwise keep it until the stream ends), at most EVENTS_DB_READERS
reads run at once per process, and streams of one job at the same position share one read,
so hundreds of open streams that open or wake together cost one read and a bounded number of
connections."""
import asyncio
import json
import threading
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from config.errors import InvalidInput
from wordclouds.models import Job
from wordclouds.selectors import job_events as job_events_after
from wordclouds.selectors import job_get
from wordclouds.serializers.jobs import JobEventSerializer
from wordclouds.services.events import EventWaiter
from wordclouds.services.jobs import jobs_fail_stale

BATCH = 200
TERMINAL = {Job.Status.SUCCESS, Job.Status.FAILED}


@require_GET
async def job_events(request, job_id: str):
    """Every event after `Last-Event-ID` (header) or `lastEventId` (query), then live ones;
    after the terminal status event `event: end` with `{"status": ...}`, and the stream
    closes. A comment keeps an idle stream alive."""
    view = await _shared_read(job_get, job_id)
    after = _last_event_id(request)
    if after is not None and view.status in TERMINAL and after >= await _read(_last_seq, view):
        # A reconnect after the end (EventSource reconnects whenever a stream closes): 204
        # tells it to stop.
        return HttpResponse(status=204)
    stream = _stream(job_id, after or 0) if view.record else _finished(view.status)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


_readers = threading.BoundedSemaphore(settings.EVENTS_DB_READERS)


async def _read(function, *args):
    """function(*args) with one of the process's reader slots, its connection closed after."""
    return await sync_to_async(_closing(function))(*args)


# Reads in flight by (event loop, function, arguments): streams of one job that ask the same
# at once (opened together, or woken by the same announcement) share one read.
_in_flight: dict[tuple, asyncio.Future] = {}


async def _shared_read(function, *args):
    key = (id(asyncio.get_running_loop()), function, *args)
    future = _in_flight.get(key)
    if future is None:
        future = asyncio.ensure_future(_read(function, *args))
        _in_flight[key] = future
        future.add_done_callback(lambda done: _in_flight.pop(key, None))
    return await asyncio.shield(future)


def _closing(function):
    def read(*args):
        with _readers:
            try:
                return function(*args)
            finally:
                # Inside an outer transaction (the test suite's) the connection stays.
                if not connection.in_atomic_block:
                    connection.close()
    return read


def _last_event_id(request) -> int | None:
    text = request.headers.get("Last-Event-ID") or request.GET.get("lastEventId")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise InvalidInput("Last-Event-ID must be a non-negative integer")
    return int(text)


def _last_seq(view) -> int:
    """The id of the job's last event (0 for a finished folder without a record)."""
    if view.record is None:
        return 0
    return view.record.events.order_by("-seq").values_list("seq", flat=True).first() or 0


def _frame(event) -> str:
    data = json.dumps(JobEventSerializer(event).data, ensure_ascii=False)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def _end(status: str, last_seq: int) -> str:
    """The end carries the last event's id, so that a client's reconnect gets 204."""
    return f"id: {last_seq}\nevent: end\ndata: {json.dumps({'status': status})}\n\n"


def _opening() -> str:
    """The first bytes (they send the headers at once) and the reconnect delay to use."""
    return f"retry: {settings.EVENTS_RETRY_MS}\n: stream of job events\n\n"


async def _finished(status: str):
    """A finished job folder without a record has no events: only the end."""
    yield _opening()
    yield _end(status, 0)


def _status_and_frames(job_id: str, after: int) -> tuple[str | None, list[tuple[int, str]]]:
    """The job's status, then its next events after `after` as (seq, SSE frame). The status
    first: a terminal status is committed with its event, so the events read include it."""
    jobs_fail_stale(job_id=job_id)
    status = Job.objects.filter(id=job_id).values_list("status", flat=True).first()
    events = job_events_after(job_id=job_id, after=after, limit=BATCH)
    return status, [(event.seq, _frame(event)) for event in events]


async def _stream(job_id: str, after: int):
    keepalive = settings.EVENTS_KEEPALIVE_SECONDS
    yield _opening()
    written_at = time.monotonic()
    async with EventWaiter(job_id) as waiter:
        while True:
            status, frames = await _shared_read(_status_and_frames, job_id, after)
            for seq, frame in frames:
                yield frame
                after = seq
            if frames:
                written_at = time.monotonic()
            if len(frames) == BATCH:
                continue
            if status is None:
                return  # the job was deleted meanwhile
            if status in TERMINAL:
                yield _end(status, after)
                return
            idle = time.monotonic() - written_at
            await waiter.wait(max(0.0, min(waiter.poll_seconds, keepalive - idle)))
            if time.monotonic() - written_at >= keepalive:
                yield ": keep-alive\n\n"
                written_at = time.monotonic()


def document_event_stream(result, generator, request, public):
    """drf-spectacular post-processing hook: adds this view to the OpenAPI schema."""
    result.setdefault("paths", {})["/api/jobs/{job_id}/events"] = {"get": {
        "operationId": "jobs_events_retrieve",
        "tags": ["jobs"],
        "summary": "Server-sent events of a job",
        "description": (
            "Every job event as one SSE message: `id:` a number increasing per job, `event:` "
            "log or status, `data:` JSON {type, stage, progress_percent, message, timestamp}. "
            "Replays earlier events first; `Last-Event-ID` (header) or `lastEventId` (query) "
            "resumes after that id. After the terminal status event: `event: end` with "
            '`data: {"status": ...}`, then the stream closes. A comment line keeps an idle '
            "stream alive at least every 15 s."),
        "parameters": [
            {"name": "job_id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer"}},
            {"name": "lastEventId", "in": "query", "schema": {"type": "integer"}},
        ],
        "responses": {
            "200": {"description": "the event stream",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}}},
            "400": {"description": '{"detail": "Last-Event-ID must be a non-negative integer"}'},
            "404": {"description": '{"detail": "job not found"}'},
        },
    }}
    return result
