"""Requests through the ASGI application daphne serves, in the test process: the endpoints
served in front of Django (health, the event streams) are not reachable by Django's test
client. Their database work runs on threads of their own, which see committed rows only."""

import httpx
from asgiref.sync import async_to_sync

from config.asgi import application


def asgi_request(method: str, path: str, **headers) -> httpx.Response:
    """The whole answer (a stream is read to its end)."""

    async def request():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.request(method, path, headers=headers)

    return async_to_sync(request)()
