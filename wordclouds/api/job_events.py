"""GET /api/jobs/{job_id}/events: the job's events as server-sent events.

An endpoint in front of Django (core/endpoints.py says why) rather than a Django view or
django-eventstream (docs/architecture.md says why not): a stream runs on the event loop,
only its database reads go to a thread.

The JobEvent table is the source of truth: the stream replays what is there after the
client's Last-Event-ID, then waits for more, woken through Redis when REDIS_URL is set and
polling the table otherwise, so events written by the worker process reach clients of the
web process either way. A job whose worker died (stale) ends with the failure event its
failing will write, under the same id (selectors.job_events): the stream only reads.

A stream holds no database connection between its reads: each read closes the connection it
opened, the reads run on EVENTS_DB_READERS threads of their own per process, and streams of
one job at the same position share one read, so hundreds of open streams that open or wake
together cost one read and a bounded number of connections."""

import asyncio
import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from django.conf import settings

from core import metrics
from core.endpoints import HEADERS, answer, off_the_loop
from core.errors import InvalidInput
from wordclouds.models import Job
from wordclouds.selectors import (
    job_events_after,
    job_get,
    job_last_event_id,
    job_status_shown,
    job_with_last_event_id,
    stale_cutoff,
)
from wordclouds.serializers.jobs import JobEventSerializer
from wordclouds.services.events import EventWaiter

BATCH = 200
TERMINAL = {Job.Status.SUCCESS, Job.Status.FAILED}
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
    *HEADERS,
]


async def job_events(scope, receive, send, job_id: str) -> None:
    """Every event after `Last-Event-ID` (header) or `lastEventId` (query), then live ones;
    after the terminal status event `event: end` with `{"status": ...}`, and the stream
    closes. A comment keeps an idle stream alive."""
    view = await _shared_read(job_get, job_id)
    after = _last_event_id(scope)
    if after is not None and view.status in TERMINAL and after >= await _read(_last_seq, view):
        # A reconnect after the end (EventSource reconnects whenever a stream closes): 204
        # tells it to stop.
        return await answer(send, 204)
    stream = _stream(job_id, after or 0) if view.record else _finished(view.status)
    metrics.event_stream_clients.inc()
    try:
        await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
        await _send_until_disconnected(stream, receive, send)
    finally:
        metrics.event_stream_clients.dec()


async def _send_until_disconnected(stream, receive, send) -> None:
    """Sends the stream's chunks until it ends or the client goes away, whichever is first."""

    async def pump():
        async for chunk in stream:
            await _turns.take()
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def disconnected():
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(disconnected())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # a failed stream is the server's error: let it be seen
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)
        await stream.aclose()  # leaves the job's event group


class _Turns:
    """At most SENDS_PER_TURN stream sends per turn of the event loop. An event wakes every
    stream of its job at once, and 500 streams sending in one turn held the loop for 0.1 s
    and more; in turns, the requests that came meanwhile (a health check) are served
    between them."""

    SENDS_PER_TURN = 50

    def __init__(self):
        self.loop, self.used = None, 0

    async def take(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new loop (tests run several): its first turn
            self.loop, self.used = loop, 0
        while self.used >= self.SENDS_PER_TURN:
            await asyncio.sleep(0)  # the next turn
        if self.used == 0:
            loop.call_soon(self._next_turn)
        self.used += 1

    def _next_turn(self) -> None:
        self.used = 0


_turns = _Turns()


# Stream reads run here: at most EVENTS_DB_READERS at once per process, off the event loop.
_readers = ThreadPoolExecutor(settings.EVENTS_DB_READERS, thread_name_prefix="event-reads")


async def _read(function, *args):
    return await off_the_loop(_readers, function, *args)


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


def _last_event_id(scope) -> int | None:
    headers = {name.lower(): value for name, value in scope["headers"]}
    text = headers.get(b"last-event-id", b"").decode("latin-1")
    if not text:
        values = parse_qs(
            scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True
        ).get("lastEventId")
        text = values[-1] if values else None
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise InvalidInput(
            "Last-Event-ID must be a non-negative integer", code="last_event_id_invalid"
        )
    return int(text)


def _last_seq(view) -> int:
    """The id of the job's last event (0 for a finished folder without a record)."""
    return 0 if view.record is None else job_last_event_id(view.record)


def _frame(event) -> str:
    data = json.dumps(JobEventSerializer(event).data, ensure_ascii=False)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def _end(status: str, last_seq: int) -> bytes:
    """The end carries the last event's id, so that a client's reconnect gets 204."""
    return f"id: {last_seq}\nevent: end\ndata: {json.dumps({'status': status})}\n\n".encode()


def _opening() -> bytes:
    """The first bytes (they send the headers at once) and the reconnect delay to use."""
    return f"retry: {settings.EVENTS_RETRY_MS}\n: stream of job events\n\n".encode()


async def _finished(status: str):
    """A finished job folder without a record has no events: only the end."""
    yield _opening()
    yield _end(status, 0)


def _status_and_frames(job_id: str, after: int) -> tuple[str | None, int, int, bytes, float]:
    """The job's status, then its next events after `after`: how many, the last one's id
    and their SSE frames, encoded once for every stream that shares this read; and in how
    many seconds the job goes stale unless its worker touches it. The status first: a
    terminal status is committed with its event, so the events read include it."""
    job = job_with_last_event_id(job_id)
    if job is None:
        return None, 0, after, b"", math.inf
    status = job_status_shown(job)
    events = job_events_after(job=job, after=after, limit=BATCH)
    frames = "".join(_frame(event) for event in events).encode()
    stale_in = math.inf
    if status == Job.Status.RUNNING:
        stale_in = (job.updated_at - stale_cutoff()).total_seconds()
    return status, len(events), events[-1].seq if events else after, frames, stale_in


async def _stream(job_id: str, after: int):
    keepalive = settings.EVENTS_KEEPALIVE_SECONDS
    yield _opening()
    written_at = time.monotonic()
    async with EventWaiter(job_id) as waiter:
        while True:
            status, count, after, frames, stale_in = await _shared_read(
                _status_and_frames, job_id, after
            )
            if count:
                yield frames
                written_at = time.monotonic()
            if count == BATCH:
                continue
            if status is None:
                return  # the job was deleted meanwhile
            if status in TERMINAL:
                yield _end(status, after)
                return
            idle = time.monotonic() - written_at
            # Nothing announces a job going stale (its worker is gone): the stream looks again
            # when it would, so its failure is sent on time even between polls.
            await waiter.wait(max(0.0, min(waiter.poll_seconds, keepalive - idle, stale_in)))
            if time.monotonic() - written_at >= keepalive:
                yield b": keep-alive\n\n"
                written_at = time.monotonic()


def document_event_stream(result, generator, request, public):
    """drf-spectacular post-processing hook: adds this endpoint to the OpenAPI schema."""
    result.setdefault("paths", {})["/api/jobs/{job_id}/events"] = {
        "get": {
            "operationId": "jobs_events_retrieve",
            "tags": ["jobs"],
            "summary": "Server-sent events of a job",
            "description": (
                "Every job event as one SSE message: `id:` a number increasing per job, `event:` "
                "log or status, `data:` JSON {type, stage, progress_percent, message, timestamp}. "
                "Replays earlier events first; `Last-Event-ID` (header) or `lastEventId` (query) "
                "resumes after that id. After the terminal status event: `event: end` with "
                '`data: {"status": ...}`, then the stream closes. A comment line keeps an idle '
                "stream alive at least every 15 s."
            ),
            "parameters": [
                {"name": "job_id", "in": "path", "required": True, "schema": {"type": "string"}},
                {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer"}},
                {"name": "lastEventId", "in": "query", "schema": {"type": "integer"}},
            ],
            "responses": {
                "200": {
                    "description": "the event stream",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                },
                "400": {
                    "description": '{"detail": "Last-Event-ID must be a non-negative integer"}'
                },
                "404": {"description": '{"detail": "job not found"}'},
            },
        }
    }
    return result
