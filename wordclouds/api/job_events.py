"""GET /api/jobs/{job_id}/events: the job's events as server-sent events.

A small async view rather than django-eventstream (docs/architecture.md says why). The
JobEvent table is the source of truth: the stream replays what is there after the client's
Last-Event-ID, then waits for more, woken through Redis when REDIS_URL is set and polling the
table otherwise, so events written by the worker process reach clients of the web process
either way."""
import json
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import StreamingHttpResponse
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
    view = await sync_to_async(job_get)(job_id)
    after = _last_event_id(request)
    stream = _stream(job_id, after) if view.record else _finished(view.status)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _last_event_id(request) -> int:
    text = request.headers.get("Last-Event-ID") or request.GET.get("lastEventId") or "0"
    if not (text.isascii() and text.isdigit()):
        raise InvalidInput("Last-Event-ID must be a non-negative integer")
    return int(text)


def _frame(event) -> str:
    data = json.dumps(JobEventSerializer(event).data, ensure_ascii=False)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def _end(status: str) -> str:
    return f"event: end\ndata: {json.dumps({'status': status})}\n\n"


async def _finished(status: str):
    """A finished job folder without a record has no events: only the end."""
    yield _end(status)


def _status_now(job_id: str) -> str | None:
    jobs_fail_stale(job_id=job_id)
    return Job.objects.filter(id=job_id).values_list("status", flat=True).first()


def _events(job_id: str, after: int) -> list:
    return list(job_events_after(job_id=job_id, after=after, limit=BATCH))


async def _stream(job_id: str, after: int):
    keepalive = settings.EVENTS_KEEPALIVE_SECONDS
    yield ": stream of job events\n\n"  # sends the headers at once
    written_at = time.monotonic()
    async with EventWaiter(job_id) as waiter:
        while True:
            # The status first: a terminal status is committed with its event, so the read
            # below includes that event.
            status = await sync_to_async(_status_now)(job_id)
            events = await sync_to_async(_events)(job_id, after)
            for event in events:
                yield _frame(event)
                after = event.seq
            if events:
                written_at = time.monotonic()
            if len(events) == BATCH:
                continue
            if status is None:
                return  # the job was deleted meanwhile
            if status in TERMINAL:
                yield _end(status)
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
