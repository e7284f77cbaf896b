"""One request followed through its logs (docs/architecture.md, "Request ids"): every HTTP
request has an id, the client's `X-Request-ID` when it is a safe one, else a new one. It is
in a context variable while the request is served, so every log line the web process writes
for it carries it (RequestIdFilter), it goes back in the `X-Request-ID` response header and
on the error pages, and a task queued for the request carries it into the worker's lines
(`request_id_set` there)."""

import contextlib
import json
import logging
import re
import time
import uuid
from contextvars import ContextVar

from core import metrics

logger = logging.getLogger("core.requests")

HEADER = "X-Request-ID"
# What a client may send: at most 64 letters, digits and . _ : - (anything else is replaced
# by a new id, so a log line never carries a client's control characters or a long header).
SAFE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
NONE = "-"

request_id: ContextVar[str] = ContextVar("request_id", default=NONE)


def request_id_valid(value: str) -> bool:
    return bool(SAFE.fullmatch(value))


def request_id_from(header: str) -> str:
    """The client's id when it is safe, else a new one."""
    return header if request_id_valid(header) else uuid.uuid4().hex


def request_id_current() -> str:
    """The id of the request (or the task) being served, '' outside one."""
    current = request_id.get()
    return "" if current == NONE else current


@contextlib.contextmanager
def request_id_set(value: str | None):
    """Within the block, log lines carry `value` (a task's id from the request that queued
    it); a missing or unsafe value leaves the current id."""
    token = request_id.set(value) if value and request_id_valid(value) else None
    try:
        yield
    finally:
        if token is not None:
            request_id.reset(token)


def with_request_ids(app):
    """ASGI: the outermost layer of the web process. It takes or makes the request's id,
    sets it for everything that serves the request (the endpoints in front of Django and
    Django's views alike), returns it in the response header, logs one line per request
    and counts it in the metrics by route (the URL pattern the router or Django matched,
    left in scope["route"])."""

    async def observed(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        header = dict(scope["headers"]).get(HEADER.lower().encode(), b"")
        token = request_id.set(request_id_from(header.decode("latin-1")))
        started = time.monotonic()
        status = 500

        async def sending(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() != b"x-request-id"
                ]
                headers.append((b"x-request-id", request_id.get().encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            seconds = time.monotonic() - started
            route = scope.get("route", "unmatched")
            metrics.http_request_observe(scope["method"], route, status, seconds)
            # In place of daphne's access log (off: `-v 0`, core/processes.py), with the id.
            logger.info('"%s %s" %s %.3fs', scope["method"], scope["path"][:200], status, seconds)
            request_id.reset(token)

    return observed


class RouteMiddleware:
    """Django: leaves the URL pattern Django matched in the ASGI scope, for the metrics."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        scope = getattr(request, "scope", None)
        if scope is not None:
            scope["route"] = "/" + match.route if match is not None else "unmatched"
        return response


def context(request) -> dict:
    """Template context: the request's id, shown on the error pages."""
    return {"request_id": request_id_current()}


class RequestIdFilter(logging.Filter):
    """Gives every record the current request id (`-` outside a request or task)."""

    def filter(self, record):
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, request_id, message (and the
    traceback, when there is one). LOG_FORMAT=json."""

    def format(self, record):
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", NONE),
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)
