"""The throttles in this process (core/throttles.py; the e2e tests count across processes,
tests/test_throttles_e2e.py): the table names real routes, a client is its address (the
proxy's X-Forwarded-For only from TRUSTED_PROXIES) or its user, staff are never counted,
THROTTLE_RATES is checked when read; and the workbook reader's caps answer 413."""

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.urls import get_resolver

from commerce.models import EndUser
from config.urls import in_front_of_django, throttled
from core.admin_token import admin_token_issue
from core.endpoints import _route_name
from core.identity import customer_token_issue
from core.throttle_rates import throttle_rates
from tests.errors import refusal
from tests.test_get_never_writes import django_routes
from tests.workbooks import shared_strings_workbook
from wordclouds.engine.xlsx import MAX_PART_BYTES, MAX_SHARED_STRING_CHARS

pytestmark = pytest.mark.django_db
WORDS = "/api/jobs/nojob/words"


@pytest.fixture
def two_lookups(settings):
    settings.THROTTLE_RATES = throttle_rates("lookups=2/minute")
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]


def statuses(api, count: int, **headers) -> list[int]:
    return [api.get(WORDS, **headers).status_code for _ in range(count)]


def test_every_throttled_route_is_a_route_and_every_scope_has_a_rate():
    routes = {route for route, _ in django_routes(get_resolver().url_patterns)}
    routes |= {_route_name(pattern) for pattern, _, _ in in_front_of_django}

    assert {route for _, route in throttled} - routes == set()
    assert set(throttled.values()) == set(throttle_rates(""))


def test_a_forged_forwarded_for_from_an_untrusted_peer_is_ignored(anonymous, two_lookups):
    answers = [
        anonymous.get(WORDS, REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
        for n in range(3)
    ]

    assert [answer.status_code for answer in answers] == [404, 404, 429]
    assert refusal(answers[-1]).startswith("more than 2 lookups requests in 60 s")
    assert answers[-1].json()["code"] == "throttled"
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60


def test_behind_a_trusted_proxy_the_client_is_the_address_it_forwards(anonymous, two_lookups):
    # a client writes anything at the header's start; the proxy appends the real peer
    def via_proxy(forwarded_for):
        return statuses(anonymous, 1, REMOTE_ADDR="10.0.0.7", HTTP_X_FORWARDED_FOR=forwarded_for)[0]

    first = [via_proxy(f"1.2.3.{n}, 198.51.100.1") for n in range(3)]
    second = via_proxy("198.51.100.2")
    through_two_proxies = via_proxy("198.51.100.3, 10.0.0.9")

    assert first == [404, 404, 429]
    assert second == 404
    assert through_two_proxies == 404


def test_staff_are_never_counted(anonymous, client, two_lookups):
    User.objects.create_superuser("staff", "staff@example.com", "pw")
    client.login(username="staff", password="pw")
    by_token = statuses(anonymous, 5, HTTP_AUTHORIZATION=f"Bearer {admin_token_issue()}")
    by_session = [client.get(WORDS).status_code for _ in range(5)]

    assert by_token == [404] * 5
    assert by_session == [404] * 5


def test_a_customer_counts_as_their_user_not_their_address(anonymous, two_lookups):
    first, second = (EndUser.objects.create(openid=f"openid-{n}") for n in range(2))

    def as_user(user):
        return {"HTTP_AUTHORIZATION": f"Bearer {customer_token_issue(user.id)}"}

    assert statuses(anonymous, 3, **as_user(first)) == [404, 404, 429]
    assert statuses(anonymous, 2, **as_user(second)) == [404, 404]
    assert statuses(anonymous, 2) == [404, 404]  # the address itself, without a token


@pytest.mark.parametrize(
    "text",
    ["jobs=5", "jobs=0/hour", "jobs=5/week", "uploads=5/hour", "jobs=-1/minute"],
)
def test_a_wrong_rate_is_refused_naming_the_setting(text):
    with pytest.raises(ImproperlyConfigured, match="THROTTLE_RATES"):
        throttle_rates(text)


def test_rates_given_replace_the_defaults_of_their_scopes():
    rates = throttle_rates("jobs=5/minute, lookups=100/second")

    assert rates == {
        "jobs": (5, 60),
        "exports": (300, 3600),
        "login": (10, 60),
        "lookups": (100, 1),
    }


def preview(api, data: bytes):
    upload = io.BytesIO(data)
    upload.name = "names.xlsx"
    return api.post("/api/name-lists/preview", {"name_list": upload}, format="multipart")


def test_shared_strings_over_their_cap_are_a_413(api):
    half = "x" * (MAX_SHARED_STRING_CHARS // 2 + 1)

    response = preview(api, shared_strings_workbook(["Anna", half, half]))

    assert response.status_code == 413
    assert response.json()["code"] == "name_list_too_large"
    assert "shared strings" in refusal(response)


def test_a_part_unpacking_over_its_cap_is_a_413(api):
    archive = io.BytesIO(shared_strings_workbook(["Anna"]))
    with zipfile.ZipFile(archive, "a", zipfile.ZIP_DEFLATED) as workbook:
        workbook.writestr("xl/worksheets/sheet1.xml", b" " * (MAX_PART_BYTES + 1))

    response = preview(api, archive.getvalue())

    assert response.status_code == 413
    assert response.json()["code"] == "name_list_too_large"
