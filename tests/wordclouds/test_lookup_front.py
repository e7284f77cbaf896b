"""/locations and /find as daphne serves them: in front of Django (wordclouds/api/lookup_front.py),
on threads that keep their database connection. Each answer is the DRF view's."""

import threading
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.db import connection

from tests.asgi import asgi_request
from wordclouds.api.lookup_front import readers

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna", "anna maria", "Maria 100%", "a_b", "李雷", "Anna"]


@pytest.fixture(autouse=True)
def reader_connections_closed(settings):
    """Every lookup thread closes its kept connection after each test: a test database with
    a connection open cannot be dropped (PostgreSQL)."""
    yield
    barrier = threading.Barrier(settings.LOOKUP_DB_READERS)

    def close():
        barrier.wait(timeout=10)  # every thread takes one of these at once
        connection.close()

    for future in [readers.submit(close) for _ in range(settings.LOOKUP_DB_READERS)]:
        future.result()


@pytest.fixture
def job_id(finished_job_dir):
    return finished_job_dir(names=NAMES)


@pytest.fixture
def token(api, settings):
    cache.clear()
    settings.ORDERS_ADMIN_PASSWORD = "lookup-staff"
    return api.post("/api/login", {"password": "lookup-staff"}, format="json").json()["token"]


def front(path: str, params: dict, **headers):
    return asgi_request("GET", f"{path}?{urlencode(params)}" if params else path, **headers)


@pytest.mark.parametrize(
    "params",
    [
        {"name": "Anna"},
        {"name": " ANN ", "mode": "contains"},
        {"name": "%", "mode": "contains"},
        {"name": "李", "mode": "contains"},
        {"name": "nobody"},
        {"name": "An\x00na"},
        {"name": "\x00", "mode": "contains"},
        {},
        {"name": "Anna", "mode": "fuzzy"},
    ],
)
def test_locations_answers_as_the_view(api, job_id, params):
    served = front(f"/api/jobs/{job_id}/locations", params)
    viewed = api.get(f"/api/jobs/{job_id}/locations", params)

    assert served.status_code == viewed.status_code
    assert served.json() == viewed.json()
    assert served.headers["content-type"] == "application/json"
    assert served.headers["access-control-allow-origin"] == "*"


def test_find_needs_the_token_and_then_answers_as_locations(job_id, token):
    path = f"/api/jobs/{job_id}/find"
    located = front(f"/api/jobs/{job_id}/locations", {"name": "Anna"})

    found = front(path, {"name": "Anna"}, authorization=f"Bearer {token}")

    assert found.status_code == 200 and found.json() == located.json()
    assert found.json()["total"] == 2
    for authorization in ({}, {"authorization": "Bearer not-a-token"}):
        refused = front(path, {"name": "Anna"}, **authorization)
        assert refused.status_code == 403
        assert refused.json() == {"detail": "invalid or missing token"}
    assert front("/api/jobs/" + "0" * 32 + "/find", {}).status_code == 403  # token first


@pytest.mark.parametrize(
    "job, detail",
    [("0" * 32, "job not found"), ("not-a-job", "job not found"), ("%00" * 32, "job not found")],
)
def test_an_unknown_job_is_404(job, detail):
    response = front(f"/api/jobs/{job}/locations", {"name": "Anna"})

    assert response.status_code == 404
    assert response.json() == {"detail": detail}


def test_another_method_is_405_and_head_has_no_body(job_id):
    posted = asgi_request("POST", f"/api/jobs/{job_id}/locations")
    head = asgi_request("HEAD", f"/api/jobs/{job_id}/locations?name=Anna")

    assert posted.status_code == 405 and posted.headers["allow"] == "GET, HEAD"
    assert head.status_code == 200 and head.content == b""
