"""GET /api/jobs/{id}/find, the staff's lookup, as daphne serves it: in front of Django
(wordclouds/api/lookup_front.py), through the `lookup` fixture."""

import time

import pytest

from core.admin_token import admin_token_issue
from core.identity import customer_token_issue
from tests.asgi import asgi_request
from tests.errors import refusal

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna", "Bruno", "李雷", "Anna"]


@pytest.fixture
def job_id(finished_job_dir):
    return finished_job_dir(names=NAMES)


@pytest.fixture
def token(api, settings):
    settings.ORDERS_ADMIN_PASSWORD = "lookup-staff"
    response = api.post("/api/login", {"password": "lookup-staff"}, format="json")
    assert response.status_code == 200
    return response.json()["token"]


def find(lookup, job_id, authorization=None, **params):
    headers = {"authorization": authorization} if authorization else {}
    return lookup(job_id, params, "find", **headers)


def test_with_a_token_from_login_find_answers_as_locations(lookup, job_id, token):
    for params in ({"name": "Anna"}, {"name": "an", "mode": "contains"}, {}):
        found = find(lookup, job_id, f"Bearer {token}", **params)
        located = lookup(job_id, params)

        assert found.status_code == 200
        assert found.json() == located.json()
    assert find(lookup, job_id, f"Bearer {token}", name="Anna").json()["total"] == 2


@pytest.mark.parametrize(
    ("authorization", "code"),
    [
        (None, "authentication_required"),
        ("Bearer ", "authentication_required"),
        ("Bearer not-a-token", "token_invalid"),
        ("Basic bG9va3VwOnN0YWZm", "authentication_required"),
        ("Token abc", "authentication_required"),
    ],
)
def test_without_a_valid_token_find_is_401(lookup, job_id, authorization, code):
    response = find(lookup, job_id, authorization, name="Anna")

    assert response.status_code == 401
    assert response.json()["code"] == code


def test_a_customers_token_is_403(lookup, job_id):
    response = find(lookup, job_id, f"Bearer {customer_token_issue(1)}", name="Anna")

    assert response.status_code == 403
    assert response.json()["code"] == "staff_only"


def test_a_tampered_token_is_401(lookup, job_id, token):
    tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")

    response = find(lookup, job_id, f"Bearer {tampered}", name="Anna")

    assert response.status_code == 401


def test_an_expired_token_is_401(lookup, job_id, settings, monkeypatch):
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now - settings.ADMIN_TOKEN_MAX_AGE - 60)
    old = admin_token_issue()
    monkeypatch.setattr(time, "time", lambda: now)

    response = find(lookup, job_id, f"Bearer {old}", name="Anna")

    assert response.status_code == 401
    assert refusal(response) == "invalid or expired token"


def test_a_token_just_inside_its_lifetime_is_accepted(lookup, job_id, settings, monkeypatch):
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now - settings.ADMIN_TOKEN_MAX_AGE + 60)
    recent = admin_token_issue()
    monkeypatch.setattr(time, "time", lambda: now)

    assert find(lookup, job_id, f"Bearer {recent}", name="Anna").status_code == 200


def test_find_checks_the_token_before_the_job(lookup):
    response = find(lookup, "0" * 32, None, name="Anna")

    assert response.status_code == 401


def test_find_on_an_unknown_job_with_a_token_is_404(lookup, token):
    response = find(lookup, "0" * 32, f"Bearer {token}", name="Anna")

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_a_cors_preflight_of_find_is_answered(job_id):
    # a preflight goes to Django, which has no view of /find: its CORS middleware answers
    response = asgi_request(
        "OPTIONS",
        f"/api/jobs/{job_id}/find",
        **{
            "Origin": "https://staff.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )

    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "authorization" in response.headers["Access-Control-Allow-Headers"]
