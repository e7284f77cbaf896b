"""Request ids, the metrics' guard and the HTTPS settings, in the test process (the whole
service with real processes: tests/test_operations_e2e.py)."""

import json
import logging
import runpy

import pytest
from django.test import override_settings

from core.admin_token import admin_token_issue
from core.request_ids import JsonFormatter, RequestIdFilter, request_id_from, request_id_set
from tests.asgi import asgi_request
from tests.processes import BASE_DIR


@pytest.mark.parametrize("sent", ["abc", "req-1.2:3_x", "a" * 64])
def test_a_safe_request_id_is_kept(sent):
    assert request_id_from(sent) == sent


@pytest.mark.parametrize("sent", ["", "a" * 65, "bad id", "x\ny", "é", "<script>"])
def test_an_unsafe_request_id_is_replaced_by_a_new_one(sent):
    made = request_id_from(sent)
    assert made != sent and len(made) == 32


@pytest.mark.django_db(transaction=True)
def test_the_id_goes_back_in_the_header_before_and_inside_django():
    assert (
        asgi_request("GET", "/api/health", **{"X-Request-ID": "abc"}).headers["x-request-id"]
        == "abc"
    )
    answer = asgi_request("GET", "/no-such-page", **{"X-Request-ID": "bad id"})
    made = answer.headers["x-request-id"]
    assert made != "bad id"
    assert answer.status_code == 404 and made in answer.text  # shown on the HTML 404 page


def test_the_500_page_shows_the_id(rf):
    from core.views import server_error

    with request_id_set("abc"):
        page = server_error(rf.get("/"))
    assert page.status_code == 500 and b"abc" in page.content


def test_json_log_lines_carry_the_id():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "job %s queued", ("j1",), None)
    with request_id_set("abc"):
        RequestIdFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert (line["request_id"], line["message"], line["level"]) == ("abc", "job j1 queued", "INFO")


@pytest.mark.django_db(transaction=True)
def test_metrics_answer_the_admin_token_or_an_allowed_address_only():
    assert asgi_request("GET", "/metrics").status_code == 401
    token = {"Authorization": f"Bearer {admin_token_issue()}"}
    answer = asgi_request("GET", "/metrics", **token)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "wordcloud_jobs_queued 0.0" in answer.text
    assert 'wordcloud_http_requests_total{method="GET",route="/metrics",status="401"}' in (
        answer.text
    )
    # httpx's ASGI transport comes from 127.0.0.1.
    with override_settings(METRICS_ALLOWED_IPS=["127.0.0.0/8"]):
        assert asgi_request("GET", "/metrics").status_code == 200
    with override_settings(METRICS_ALLOWED_IPS=["10.0.0.1"]):
        assert asgi_request("GET", "/metrics").status_code == 401


def test_with_https_plain_http_is_redirected_but_health_and_the_scrape(rf, monkeypatch):
    """The settings HTTPS=1 gives (config/settings.py), through Django's SecurityMiddleware."""
    from django.middleware.security import SecurityMiddleware

    monkeypatch.setenv("HTTPS", "1")
    https = runpy.run_path(str(BASE_DIR / "config" / "settings.py"))
    keys = ("SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER")
    with override_settings(**{key: https[key] for key in keys}):
        security = SecurityMiddleware(lambda request: None)
        assert security.process_request(rf.get("/api/jobs")).status_code == 301
        assert security.process_request(rf.get("/metrics")) is None
        assert security.process_request(rf.get("/api/health")) is None
        behind_the_proxy = rf.get("/api/jobs", HTTP_X_FORWARDED_PROTO="https")
        assert security.process_request(behind_the_proxy) is None
