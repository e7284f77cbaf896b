"""GET /api/jobs/{id}/locations and /find served in front of Django (core/endpoints.py says
why), so a crowd on a large job's public lookup page costs one hand-off per request, not a
dozen. The answer is `locations_find`'s, as the DRF views in wordclouds/api/lookup.py give it
(those stay for the OpenAPI schema and Django's test client); its database work runs on
LOOKUP_DB_READERS threads of their own, each keeping its connection between requests."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.http import QueryDict

from core.admin_token import authorization_has_admin_token
from core.endpoints import answer
from core.errors import Forbidden
from wordclouds.api.kept_connection import on_kept_connection
from wordclouds.services.lookup import locations_find

readers = ThreadPoolExecutor(settings.LOOKUP_DB_READERS, thread_name_prefix="lookup")


async def locations(scope, receive, send, job_id: str) -> None:
    """Where names are on the finished cloud."""
    query = QueryDict(scope["query_string"])
    result = await asyncio.get_running_loop().run_in_executor(
        readers,
        on_kept_connection,
        _found,
        job_id,
        query.get("name", ""),
        query.get("mode", "exact"),
    )
    await answer(send, 200, result)


async def find(scope, receive, send, job_id: str) -> None:
    """The same as locations, with `Authorization: Bearer <token>` from POST /api/login;
    403 `invalid or missing token`, checked before the job is looked up."""
    authorization = ",".join(
        value.decode("latin-1") for name, value in scope["headers"] if name == b"authorization"
    )
    if not authorization_has_admin_token(authorization):
        raise Forbidden("invalid or missing token")
    await locations(scope, receive, send, job_id)


def _found(job_id: str, name: str, mode: str) -> dict:
    return locations_find(job_id=job_id, name=name, mode=mode)
