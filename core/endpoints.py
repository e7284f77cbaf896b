"""Endpoints served in front of Django: plain ASGI callables for the requests that must stay
cheap however busy the web process is, `/api/health`, the job event streams and the name
lookups (`locations`, `find`); config/urls.py lists them (`in_front_of_django`).

Django's request pipeline under ASGI hands every request to a thread a dozen times or more
(the request signals, each synchronous middleware, the view), and each hand-off waits for a
turn of the event loop. When hundreds of event streams are woken together, a turn of the
loop takes tens of milliseconds, and a health check made of fifteen turns took seconds.
Here a request costs one hand-off at most: its database work runs on a thread pool of its
own, which closes the connection after each call (health's and the lookups' threads keep
theirs: wordclouds/api/kept_connection.py), and everything else on the event loop.
Every other request, a CORS preflight of these paths included, goes to Django."""

import asyncio
import contextvars
import json
import logging
import re
from concurrent.futures import Executor

from django.db import connection

from core.access import endpoint_refusal
from core.errors import client_error, error_body

logger = logging.getLogger(__name__)

# The headers of every answer: every such path is under /api, open to every origin like the rest.
HEADERS = [(b"access-control-allow-origin", b"*"), (b"x-content-type-options", b"nosniff")]


def in_front_of(app, routes: list[tuple[str, tuple[str, ...], object]]):
    """ASGI: requests whose path matches one of `routes` (pattern, methods, endpoint) are
    answered by `endpoint(scope, receive, send, **groups)`, 405 for another method, 401/403
    for a caller the access table (config/access.py) does not let in; the rest, and every
    OPTIONS request, by `app`."""
    compiled = [
        (re.compile(pattern), _route_name(pattern), methods, endpoint)
        for pattern, methods, endpoint in routes
    ]

    async def route(scope, receive, send):
        if scope["type"] == "http" and scope["method"] != "OPTIONS":
            for pattern, name, methods, endpoint in compiled:
                match = pattern.fullmatch(scope["path"])
                if match is None:
                    continue
                scope["route"] = name  # for the metrics (core/request_ids.py)
                if scope["method"] not in methods:
                    detail = f"method {scope['method'][:20]} not allowed"
                    return await answer(
                        send,
                        405,
                        error_body(detail, 405),
                        [(b"allow", ", ".join(methods).encode())],
                    )
                refused = endpoint_refusal(name, scope["method"], _authorization(scope))
                if refused is not None:
                    return await answer(send, refused.status_code, refused.body())
                return await _answered(endpoint, scope, receive, send, match.groupdict())
        await app(scope, _in_turns(receive), send)

    return route


def _authorization(scope) -> str:
    return ",".join(
        value.decode("latin-1") for name, value in scope["headers"] if name == b"authorization"
    )


def _route_name(pattern: str) -> str:
    """`/api/jobs/<job_id>/events` for `/api/jobs/(?P<job_id>[^/]+)/events`."""
    return re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", pattern)


def _in_turns(receive):
    """`receive` that lets the loop turn between the parts of a body. The server has the
    whole body in hand before the application starts, so Django would take in every part
    (up to 100 MB) without a pause and hold every other request meanwhile."""

    async def receive_in_turns():
        message = await receive()
        if message.get("more_body"):
            await asyncio.sleep(0)
        return message

    return receive_in_turns


async def _answered(endpoint, scope, receive, send, arguments: dict) -> None:
    """The endpoint's answer, without its body to a HEAD request; an error raised before it
    began answering leaves as the JSON `{"detail", "code"}` of every other error (core/errors.py),
    with its headers (Retry-After), a bug as a 500 and a traceback."""
    started = False

    async def sending(message):
        nonlocal started
        started = started or message["type"] == "http.response.start"
        if scope["method"] == "HEAD" and message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    try:
        await endpoint(scope, receive, sending, **arguments)
    except Exception as exception:
        if started:
            raise
        error = client_error(exception)
        if error is None:
            logger.exception("unhandled error on %s", scope["path"])
            return await answer(send, 500, error_body("internal server error", 500))
        headers = getattr(error, "headers", None) or {}
        encoded = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
        await answer(send, error.status_code, error.body(), encoded)


async def answer(send, status: int, body: dict | None = None, headers=()) -> None:
    """A whole JSON answer (no body with 204)."""
    content = json.dumps(body).encode() if body is not None else b""
    kind = [(b"content-type", b"application/json")] if body is not None else []
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*kind, (b"content-length", str(len(content)).encode()), *HEADERS, *headers],
        }
    )
    await send({"type": "http.response.body", "body": content})


async def off_the_loop(executor: Executor, function, *args):
    """function(*args) on one of the executor's threads, its database connection closed
    after (no request signal closes it there), in the request's context (its id in the
    log lines)."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(
        executor, context.run, _closing, function, args
    )


def _closing(function, args):
    try:
        return function(*args)
    finally:
        connection.close()
