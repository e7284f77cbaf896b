import time

import pytest
from django.core.checks import run_checks

from core.admin_token import admin_token_valid
from core.throttle_rates import throttle_rates
from tests.errors import refusal

pytestmark = pytest.mark.django_db


@pytest.fixture
def password(settings):
    """The admin password, and the login rate of the defaults (10 failures a minute)."""
    settings.ORDERS_ADMIN_PASSWORD = "s3cret-pass"
    settings.THROTTLE_RATES = throttle_rates("")
    return "s3cret-pass"


def test_right_password_gives_a_valid_token(anonymous, password):
    response = anonymous.post("/api/login", {"password": password}, format="json")

    assert response.status_code == 200
    assert admin_token_valid(response.json()["token"])


def test_wrong_password_is_401(anonymous, password):
    response = anonymous.post("/api/login", {"password": password + "x"}, format="json")

    assert response.status_code == 401
    assert refusal(response) == "invalid password"


@pytest.mark.parametrize("body", [{}, {"password": ""}, {"password": None}, {"password": 12}])
def test_missing_password_is_400(anonymous, password, body):
    response = anonymous.post("/api/login", body, format="json")

    assert response.status_code == 400
    assert refusal(response) == "password is required"


def test_unset_password_means_the_built_in_default(anonymous, settings):
    settings.ORDERS_ADMIN_PASSWORD = settings.ORDERS_ADMIN_PASSWORD_DEFAULT

    response = anonymous.post(
        "/api/login", {"password": settings.ORDERS_ADMIN_PASSWORD_DEFAULT}, format="json"
    )

    assert response.status_code == 200


def test_eleventh_failure_in_a_minute_is_429_even_with_the_right_password(anonymous, password):
    for _ in range(10):
        assert anonymous.post("/api/login", {"password": "wrong"}, format="json").status_code == 401

    blocked = anonymous.post("/api/login", {"password": password}, format="json")

    assert blocked.status_code == 429
    assert blocked.json()["code"] == "throttled"
    assert 0 < int(blocked["Retry-After"]) <= 60


def test_failures_are_counted_per_client_address(anonymous, password):
    for _ in range(10):
        anonymous.post("/api/login", {"password": "wrong"}, format="json", REMOTE_ADDR="10.0.0.1")

    other = anonymous.post(
        "/api/login", {"password": password}, format="json", REMOTE_ADDR="10.0.0.2"
    )
    same = anonymous.post(
        "/api/login", {"password": password}, format="json", REMOTE_ADDR="10.0.0.1"
    )

    assert other.status_code == 200
    assert same.status_code == 429


def test_successful_logins_are_not_throttled(anonymous, password):
    statuses = {
        anonymous.post("/api/login", {"password": password}, format="json").status_code
        for _ in range(15)
    }

    assert statuses == {200}


def test_failures_older_than_a_minute_no_longer_count(anonymous, password, monkeypatch):
    for _ in range(10):
        anonymous.post("/api/login", {"password": "wrong"}, format="json")
    later = time.time() + 61
    monkeypatch.setattr("core.throttles._Counter.timer", lambda self: later)

    response = anonymous.post("/api/login", {"password": password}, format="json")

    assert response.status_code == 200


def deploy_check_ids() -> set[str]:
    return {message.id for message in run_checks(include_deployment_checks=True, tags=["security"])}


def test_deploy_check_warns_while_the_default_password_applies(settings):
    settings.ORDERS_ADMIN_PASSWORD = settings.ORDERS_ADMIN_PASSWORD_DEFAULT

    assert "wordclouds.W001" in deploy_check_ids()


def test_deploy_check_is_quiet_with_a_password_set(settings):
    settings.ORDERS_ADMIN_PASSWORD = "s3cret-pass"

    assert "wordclouds.W001" not in deploy_check_ids()


def test_plain_check_does_not_warn(settings):
    settings.ORDERS_ADMIN_PASSWORD = settings.ORDERS_ADMIN_PASSWORD_DEFAULT

    assert "wordclouds.W001" not in {message.id for message in run_checks()}
