from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.asgi import asgi_request
from tests.errors import refusal
from wordclouds.api.health import checks
from wordclouds.models import Job
from wordclouds.services.worker import worker_beat
from wordclouds.storage import store_status


def on_the_health_thread(function):
    return checks.submit(function).result()


@pytest.fixture(autouse=True)
def health_connection_closed():
    """Health keeps its connection between checks: closed after each test, since a test
    database with a connection open cannot be dropped (PostgreSQL)."""
    yield
    on_the_health_thread(lambda: connection.close())


@pytest.mark.django_db(transaction=True)
def test_health_answers_ok_while_the_database_answers_and_a_worker_beats():
    worker_beat()

    response = asgi_request("GET", "/api/health")

    assert response.status_code == 200
    assert response.json()["ok"] is True
    worker = response.json()["worker"]
    assert (worker["alive"], worker["queued"], worker["oldest_queued_seconds"]) == (True, 0, None)


@pytest.mark.django_db(transaction=True)
def test_health_reports_the_heartbeat_and_the_queue(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    worker_beat()
    Job.objects.create(name_list="names.xlsx")
    Job.objects.filter().update(created_at=timezone.now() - timedelta(seconds=90))

    worker = asgi_request("GET", "/api/health").json()["worker"]

    assert worker["alive"] is True and worker["last_heartbeat"].endswith("Z")
    assert worker["queued"] == 1 and 89 < worker["oldest_queued_seconds"] < 120


@pytest.mark.django_db(transaction=True)
def test_health_is_503_when_no_worker_was_seen_within_the_limit(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.WORKER_DEAD_SECONDS = 0

    response = asgi_request("GET", "/api/health")

    assert response.status_code == 503
    assert response.json()["ok"] is False and response.json()["worker"]["alive"] is False


@pytest.fixture(scope="module")
def store_checked_between_tests():
    """What health's store check, a thread for the life of the process, reports when it
    checks between two tests: outside every test's settings, as a module's fixture is made."""
    return store_status()


@pytest.mark.backend  # the environment names the S3 store in CI's second pass
def test_the_store_check_finds_the_local_files_between_tests_too(store_checked_between_tests):
    """The S3 storage it made there outlived the next test's settings, and that test looked
    for its files in the bucket (tests/conftest.py, pytest_configure)."""
    assert store_checked_between_tests["backend"] == "local"


@pytest.mark.django_db
def test_unknown_api_route_is_json_404(api):
    response = api.get("/api/no-such-thing")

    assert response.status_code == 404
    assert refusal(response) == "not found"


def test_wrong_method_is_json_405():
    response = asgi_request("POST", "/api/health")

    assert (response.status_code, refusal(response)) == (405, "method POST not allowed")
    assert response.headers["Allow"] == "GET, HEAD"


@pytest.mark.django_db(transaction=True)
def test_health_answers_a_head_request_without_a_body():
    worker_beat()

    response = asgi_request("HEAD", "/api/health")

    assert (response.status_code, response.content) == (200, b"")


@pytest.mark.django_db
def test_health_is_503_while_the_database_is_away(settings, monkeypatch):
    from django.db import OperationalError

    def away():
        raise OperationalError("could not connect to server")

    monkeypatch.setattr("wordclouds.api.health.worker_status", away)

    response = asgi_request("GET", "/api/health")

    assert (response.status_code, response.json()) == (503, {"ok": False})


@pytest.mark.django_db(transaction=True)
def test_health_keeps_its_connection_and_connects_again_when_it_breaks():
    if connection.vendor == "sqlite":
        pytest.skip("Django never closes the in-memory SQLite test database: PostgreSQL only")
    worker_beat()
    assert asgi_request("GET", "/api/health").status_code == 200
    kept = on_the_health_thread(lambda: connection.connection)

    assert asgi_request("GET", "/api/health").status_code == 200
    assert on_the_health_thread(lambda: connection.connection) is kept
    kept.close()  # behind Django's back, as a database restart would

    assert asgi_request("GET", "/api/health").status_code == 200
    assert on_the_health_thread(lambda: connection.connection) not in (None, kept)


@pytest.mark.django_db
def test_cors_allows_every_origin_with_authorization():
    response = asgi_request(
        "OPTIONS",
        "/api/health",
        **{
            "Origin": "https://poster.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )

    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "authorization" in response.headers["Access-Control-Allow-Headers"].lower()


@pytest.mark.django_db
def test_schema_is_served(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
