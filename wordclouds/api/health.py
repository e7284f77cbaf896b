"""GET /api/health: an endpoint in front of Django (core/endpoints.py says why), so that
it answers at once however busy the web process is."""

import asyncio
import inspect
import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import Error

from core.endpoints import answer
from core.serializers import UtcDateTimeField
from wordclouds.api.kept_connection import on_kept_connection
from wordclouds.services.worker import worker_status
from wordclouds.storage import store_status

logger = logging.getLogger(__name__)
# Health's own thread: its checks never queue behind the event streams' reads, and it keeps
# its one database connection between checks (wordclouds/api/kept_connection.py).
checks = ThreadPoolExecutor(1, thread_name_prefix="health")
# The store is checked by a thread of its own every STORE_CHECK_SECONDS, started by the first
# health request and kept for the life of the process: health reports the last answer without
# waiting, and that answer is never older than a check and its timeout (about 3 s), whoever
# asked before. A check of a hung store ends within STORAGE_TIMEOUT_SECONDS (one try).
STORE_CHECK_SECONDS = 2.0
_store = {"status": None, "prober": None}
_first_store_check = Future()


def _probe_store() -> None:
    while True:
        started = time.monotonic()
        try:
            _store["status"] = store_status()
        except Exception:  # a bug, not the store's answer: logged, and checked again
            logger.exception("the store check failed")
        if not _first_store_check.done():
            _first_store_check.set_result(None)
        time.sleep(max(0.0, started + STORE_CHECK_SECONDS - time.monotonic()))


async def _store_reported() -> dict:
    """The last answer of the store check; the first one is waited for (a second at most:
    the store's timeout)."""
    if _store["prober"] is None:  # only the event loop's thread runs this
        _store["prober"] = threading.Thread(target=_probe_store, name="health-store", daemon=True)
        _store["prober"].start()
    await asyncio.wrap_future(_first_store_check)
    return _store["status"]


async def health(scope, receive, send) -> None:
    """200 {"ok": true, "worker": {...}, "store": {...}} while the database answers and a
    worker was seen within WORKER_DEAD_SECONDS (its last heartbeat, the queued jobs and the
    age of the oldest); 503 {"ok": false} otherwise. `store` reports the file storage
    (`backend` local or s3, `ok` whether it answered its last check); a store that is away
    does not make health fail, since job status and lookups go on without it."""
    try:
        worker = await asyncio.get_running_loop().run_in_executor(
            checks, on_kept_connection, worker_status
        )
    except Error:
        return await answer(send, 503, {"ok": False})
    if worker["last_heartbeat"]:
        worker["last_heartbeat"] = UtcDateTimeField().to_representation(worker["last_heartbeat"])
    store = await _store_reported()
    body = {"ok": worker["alive"], "worker": worker, "store": store}
    await answer(send, 200 if worker["alive"] else 503, body)


def document_health(result, generator, request, public):
    """drf-spectacular post-processing hook: adds this endpoint to the OpenAPI schema."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(
        {
            "Health": {
                "type": "object",
                "properties": {
                    "ok": {"type": "boolean"},
                    "worker": {"$ref": "#/components/schemas/HealthWorker"},
                    "store": {"$ref": "#/components/schemas/HealthStore"},
                },
                "required": ["ok", "worker"],
            },
            "HealthStore": {
                "type": "object",
                "properties": {
                    "ok": {"type": "boolean"},
                    "backend": {"type": "string", "enum": ["local", "s3"]},
                },
                "required": ["ok", "backend"],
            },
            "HealthWorker": {
                "type": "object",
                "properties": {
                    "alive": {"type": "boolean"},
                    "last_heartbeat": {"type": "string", "format": "date-time", "nullable": True},
                    "queued": {"type": "integer"},
                    "oldest_queued_seconds": {
                        "type": "number",
                        "format": "double",
                        "nullable": True,
                    },
                },
                "required": ["alive", "last_heartbeat", "oldest_queued_seconds", "queued"],
            },
        }
    )
    health_answer = {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}
    }
    result.setdefault("paths", {})["/api/health"] = {
        "get": {
            "operationId": "health_retrieve",
            "tags": ["health"],
            "description": inspect.cleandoc(health.__doc__),
            "responses": {
                "200": {**health_answer, "description": "the database answers, a worker is alive"},
                "503": {**health_answer, "description": "the database or every worker is away"},
            },
        }
    }
    return result
