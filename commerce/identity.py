"""Client of the mini-program identity platform (base URL, app id, secret and timeout are
settings). A code the platform refuses as invalid or already used is the client's error
(`CodeRefused`, 400 with the platform's own `errmsg`); every other failure to get a usable
answer becomes `BadGateway` (502) with a sentence naming the cause."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from commerce.models import EndUser, PlatformAccessToken
from commerce.platforms import Platform, platform_json, platform_request
from core.errors import BadGateway, InvalidInput

IDENTITY = Platform("identity platform", "identity")
# errcodes meaning "this access token is no longer valid": fetch a new one and retry once.
TOKEN_REJECTED = {40001, 40014, 42001}
# errcodes meaning "the client's code is bad": invalid (40029) or already used (40163). The
# client sent it, so the answer is a 4xx; the platform itself worked.
CODE_REFUSED = {40029, 40163}
# A cached token is used for this share of its lifetime, so it is renewed before the
# platform expires it (7200 s lifetime → renewed after 108 minutes).
TOKEN_USABLE_SHARE = 0.9


@dataclass(frozen=True)
class Session:
    openid: str
    unionid: str
    session_key: str


@dataclass(frozen=True)
class PhoneNumber:
    phone_number: str
    pure_phone_number: str
    country_code: str


class PlatformError(BadGateway):
    def __init__(self, errcode, errmsg):
        super().__init__(
            f"identity platform error {errcode}: {errmsg}", code="identity_platform_error"
        )
        self.errcode = errcode


class CodeRefused(InvalidInput):
    def __init__(self, errcode, errmsg):
        super().__init__(
            f"code refused by the identity platform: {errcode} {errmsg}", code="code_refused"
        )
        self.errcode = errcode


def _call(method: str, path: str, *, params: dict, json: dict | None = None) -> dict:
    """One request; answers the JSON body, raising on transport errors and on a non-zero errcode."""
    url = settings.IDENTITY_PLATFORM_URL.rstrip("/") + path
    response = platform_request(
        IDENTITY, method, url, params=params, json=json, timeout=settings.IDENTITY_TIMEOUT
    )
    body = platform_json(IDENTITY, response)
    if body.get("errcode") in CODE_REFUSED:
        raise CodeRefused(body["errcode"], body.get("errmsg", ""))
    if body.get("errcode"):
        raise PlatformError(body["errcode"], body.get("errmsg", ""))
    return body


def _stored(body: dict, key: str, field: str) -> str:
    """A value of the platform's answer as the EndUser field that keeps it; a value longer
    than the field is the platform's fault (502), never the client's."""
    text = str(body.get(key) or "")
    limit = EndUser._meta.get_field(field).max_length
    if len(text) > limit:
        raise BadGateway(
            f"identity platform's {key} is longer than {limit} characters",
            code="identity_bad_answer",
        )
    return text


def _app_credentials() -> dict:
    return {"appid": settings.IDENTITY_APP_ID, "secret": settings.IDENTITY_APP_SECRET}


def code_to_session(code: str) -> Session:
    body = _call(
        "GET",
        "/sns/jscode2session",
        params={**_app_credentials(), "js_code": code, "grant_type": "authorization_code"},
    )
    if not body.get("openid"):
        raise BadGateway("identity platform answered without an openid", code="identity_bad_answer")
    return Session(
        openid=_stored(body, "openid", "openid"),
        unionid=_stored(body, "unionid", "unionid"),
        session_key=_stored(body, "session_key", "session_key"),
    )


def _fresh_access_token() -> str:
    body = _call(
        "GET", "/cgi-bin/token", params={"grant_type": "client_credential", **_app_credentials()}
    )
    token, lifetime = body.get("access_token"), body.get("expires_in")
    if not token or not isinstance(lifetime, int):
        raise BadGateway(
            "identity platform answered without an access token", code="identity_bad_answer"
        )
    # A race between two processes refreshing at once only costs one extra fetch: the
    # platform keeps the previous token valid for a while, and the last writer wins here.
    PlatformAccessToken.objects.update_or_create(
        app_id=settings.IDENTITY_APP_ID,
        defaults={
            "token": token,
            "expires_at": timezone.now() + timedelta(seconds=lifetime * TOKEN_USABLE_SHARE),
        },
    )
    return token


def _access_token() -> str:
    cached = PlatformAccessToken.objects.filter(
        app_id=settings.IDENTITY_APP_ID, expires_at__gt=timezone.now()
    ).first()
    return cached.token if cached else _fresh_access_token()


def _call_with_access_token(path: str, body: dict) -> dict:
    try:
        return _call("POST", path, params={"access_token": _access_token()}, json=body)
    except PlatformError as error:
        if error.errcode not in TOKEN_REJECTED:
            raise
    return _call("POST", path, params={"access_token": _fresh_access_token()}, json=body)


def plugin_openpid(code: str) -> str:
    body = _call_with_access_token("/wxa/getpluginopenpid", {"code": code})
    if not body.get("openpid"):
        raise BadGateway(
            "identity platform answered without an openpid", code="identity_bad_answer"
        )
    return _stored(body, "openpid", "plugin_openpid")


def phone_number(code: str) -> PhoneNumber:
    body = _call_with_access_token("/wxa/business/getuserphonenumber", {"code": code})
    info = body.get("phone_info")
    if not isinstance(info, dict) or not info.get("phoneNumber"):
        raise BadGateway(
            "identity platform answered without a phone number", code="identity_bad_answer"
        )
    return PhoneNumber(
        phone_number=_stored(info, "phoneNumber", "phone_number"),
        pure_phone_number=_stored(info, "purePhoneNumber", "pure_phone_number"),
        country_code=_stored(info, "countryCode", "country_code"),
    )
