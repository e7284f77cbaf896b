"""End-user login and the identity-platform exchanges, against the fake platform on loopback."""

import socket
import time

import pytest
from rest_framework.test import APIClient

from commerce.models import EndUser
from core.throttle_rates import throttle_rates
from tests.errors import refusal

pytestmark = pytest.mark.django_db


def post_login(code):
    return APIClient().post("/api/auth/login", {"code": code}, format="json")


# ---- login -------------------------------------------------------------------------------------


def test_first_login_creates_the_user_and_answers_a_token(identity_platform):
    code = identity_platform.login_code("openid-1", unionid="union-1")

    response = post_login(code)

    assert response.status_code == 200
    body = response.json()
    user = EndUser.objects.get(openid="openid-1")
    assert body["user"]["id"] == user.pk
    assert body["user"]["unionid"] == "union-1"
    assert user.session_key == f"sk-{code}"
    assert "session_key" not in str(body) and "sessionKey" not in body["user"]
    assert body["token"]


def test_a_code_over_its_length_is_400_before_white_space_is_trimmed(identity_platform):
    code = "\f" + identity_platform.login_code("openid-1").ljust(256, "*")

    response = post_login(code)

    assert response.status_code == 400
    assert refusal(response) == "code: Ensure this field has no more than 256 characters."
    assert not EndUser.objects.exists()


def test_second_login_finds_the_same_user(identity_platform):
    first = post_login(identity_platform.login_code("openid-1")).json()

    second = post_login(identity_platform.login_code("openid-1")).json()

    assert second["user"]["id"] == first["user"]["id"]
    assert EndUser.objects.count() == 1


def test_the_token_authenticates_the_user(identity_platform):
    token = post_login(identity_platform.login_code("openid-1")).json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    response = client.get("/api/addresses")

    assert response.status_code == 200


@pytest.mark.parametrize(
    "body, detail",
    [
        ({}, "code is required"),
        ({"code": None}, "code is required"),
        ({"code": ""}, "code must not be empty"),
    ],
)
def test_missing_code_is_400(identity_platform, body, detail):
    response = APIClient().post("/api/auth/login", body, format="json")

    assert response.status_code == 400
    assert refusal(response) == detail
    assert EndUser.objects.count() == 0


def test_a_code_the_platform_rejects_as_invalid_is_400_with_its_message(identity_platform):
    response = post_login("never-issued")

    assert response.status_code == 400
    assert refusal(response) == ("code refused by the identity platform: 40029 invalid code")
    assert EndUser.objects.count() == 0


def test_an_identifier_longer_than_the_service_keeps_is_the_platforms_fault(identity_platform):
    response = post_login(identity_platform.login_code("o" * 129))

    assert response.status_code == 502
    assert refusal(response) == "identity platform's openid is longer than 128 characters"
    assert EndUser.objects.count() == 0


def test_the_longest_code_logs_in_with_open_codes(identity_platform):
    identity_platform.open_codes = True
    try:
        response = post_login("0" * 256)
    finally:
        identity_platform.open_codes = False

    assert response.status_code == 200, response.json()
    user = EndUser.objects.get()
    assert user.openid.startswith("dev-") and len(user.openid) <= 128
    assert len(user.session_key) <= 128


def test_a_used_code_is_400_with_the_platforms_message(identity_platform):
    code = identity_platform.login_code("openid-1")
    assert post_login(code).status_code == 200

    response = post_login(code)

    assert response.status_code == 400
    assert refusal(response) == ("code refused by the identity platform: 40163 code been used")
    assert EndUser.objects.count() == 1


def test_wrong_app_secret_is_502_with_the_platform_message(identity_platform, settings):
    settings.IDENTITY_APP_SECRET = "wrong"

    response = post_login(identity_platform.login_code("openid-1"))

    assert response.status_code == 502
    assert refusal(response) == "identity platform error 40125: invalid appsecret"


def test_a_slow_platform_times_out_with_502(identity_platform, settings):
    settings.IDENTITY_TIMEOUT = 0.2
    identity_platform.delay = 3

    started = time.monotonic()
    response = post_login(identity_platform.login_code("openid-1"))

    assert response.status_code == 502
    assert refusal(response) == "identity platform timed out"
    assert time.monotonic() - started < 2  # gave up long before the platform answered
    assert EndUser.objects.count() == 0


def test_an_unreachable_platform_is_502(identity_platform, settings):
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.IDENTITY_PLATFORM_URL = f"http://127.0.0.1:{port}"

    response = post_login("any")

    assert response.status_code == 502
    assert refusal(response) == "identity platform unreachable"


# ---- plugin openpid and phone number ---------------------------------------------------------


def test_plugin_openpid_is_stored_on_the_user(identity_platform, alice):
    response = alice.post(
        "/api/platform/plugin-openpid",
        {"code": identity_platform.openpid_code("pid-42")},
        format="json",
    )

    assert response.status_code == 200
    assert response.json() == {"openpid": "pid-42"}
    alice.user.refresh_from_db()
    assert alice.user.plugin_openpid == "pid-42"


def test_a_used_openpid_code_is_400_and_keeps_the_first_answer(identity_platform, alice):
    code = identity_platform.openpid_code("pid-7")
    first = alice.post("/api/platform/plugin-openpid", {"code": code}, format="json")
    assert first.status_code == 200

    response = alice.post("/api/platform/plugin-openpid", {"code": code}, format="json")

    assert response.status_code == 400
    assert refusal(response) == ("code refused by the identity platform: 40163 code been used")
    alice.user.refresh_from_db()
    assert alice.user.plugin_openpid == "pid-7"


def test_phone_number_is_stored_on_the_user(identity_platform, alice):
    response = alice.post(
        "/api/platform/phone", {"code": identity_platform.phone_code("13800138000")}, format="json"
    )

    assert response.status_code == 200
    assert response.json() == {
        "phoneNumber": "+8613800138000",
        "purePhoneNumber": "13800138000",
        "countryCode": "86",
    }
    alice.user.refresh_from_db()
    assert (alice.user.phone_number, alice.user.pure_phone_number, alice.user.country_code) == (
        "+8613800138000",
        "13800138000",
        "86",
    )


@pytest.mark.parametrize("path", ["/api/platform/plugin-openpid", "/api/platform/phone"])
def test_platform_endpoints_need_a_user_token(identity_platform, path, staff):
    assert APIClient().post(path, {"code": "x"}, format="json").status_code == 401
    assert staff.post(path, {"code": "x"}, format="json").status_code == 403
    assert identity_platform.token_fetches == 0


def test_a_rejected_phone_code_is_400_and_changes_nothing(identity_platform, alice):
    response = alice.post("/api/platform/phone", {"code": "never-issued"}, format="json")

    assert response.status_code == 400
    assert refusal(response) == ("code refused by the identity platform: 40029 invalid code")
    alice.user.refresh_from_db()
    assert alice.user.phone_number == ""


def test_the_access_token_is_fetched_once_while_it_is_valid(identity_platform, alice):
    for pid in ("pid-1", "pid-2", "pid-3"):
        alice.post(
            "/api/platform/plugin-openpid",
            {"code": identity_platform.openpid_code(pid)},
            format="json",
        )
    alice.post(
        "/api/platform/phone", {"code": identity_platform.phone_code("13800138000")}, format="json"
    )

    assert identity_platform.token_fetches == 1


def test_an_access_token_is_renewed_before_it_expires(identity_platform, alice):
    identity_platform.token_lifetime = 1
    first = alice.post(
        "/api/platform/plugin-openpid",
        {"code": identity_platform.openpid_code("pid-1")},
        format="json",
    )
    assert identity_platform.token_fetches == 1

    time.sleep(1.05)
    second = alice.post(
        "/api/platform/plugin-openpid",
        {"code": identity_platform.openpid_code("pid-2")},
        format="json",
    )

    assert first.status_code == second.status_code == 200
    assert identity_platform.token_fetches == 2
    assert identity_platform.token_rejections == 0  # renewed from our cache, not after a rejection


def test_a_token_the_platform_no_longer_accepts_is_refreshed_once_and_retried(
    identity_platform, alice
):
    alice.post(
        "/api/platform/plugin-openpid",
        {"code": identity_platform.openpid_code("pid-1")},
        format="json",
    )
    identity_platform.revoke_tokens()  # our cache still holds a token it believes valid

    response = alice.post(
        "/api/platform/phone", {"code": identity_platform.phone_code("13900139000")}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["purePhoneNumber"] == "13900139000"
    assert identity_platform.token_fetches == 2 and identity_platform.token_rejections == 1


def test_a_platform_that_cannot_issue_a_token_is_502(identity_platform, alice, settings):
    settings.IDENTITY_APP_SECRET = "wrong"

    response = alice.post(
        "/api/platform/plugin-openpid",
        {"code": identity_platform.openpid_code("pid-1")},
        format="json",
    )

    assert response.status_code == 502
    assert refusal(response) == "identity platform error 40125: invalid appsecret"


def test_refused_codes_count_against_the_login_rate_and_right_logins_never(
    identity_platform, settings
):
    settings.THROTTLE_RATES = throttle_rates("login=3/minute")
    # a classroom behind one address logging in: never refused
    logins = [post_login(identity_platform.login_code(f"openid-{n}")) for n in range(5)]
    refused = [post_login(f"never-issued-{n}") for n in range(3)]

    blocked = post_login(identity_platform.login_code("openid-late"))

    assert [response.status_code for response in logins] == [200] * 5
    assert [response.status_code for response in refused] == [400] * 3
    assert blocked.status_code == 429
    assert blocked.json()["code"] == "throttled"
    assert int(blocked["Retry-After"]) >= 1
