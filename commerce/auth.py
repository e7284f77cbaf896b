"""Who is calling a commerce endpoint: an end user (signed end-user token from
`POST /api/auth/login`) or staff (the admin token from `POST /api/login`). Both travel as
`Authorization: Bearer <token>`; their salts differ, so one never passes for the other."""

from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from commerce.models import EndUser
from core.admin_token import admin_token_valid, bearer_token
from core.errors import Forbidden, Unauthorized

SALT = "commerce.end-user-token"


@dataclass(frozen=True)
class Caller:
    user: EndUser | None  # None for staff
    is_admin: bool = False


def user_token_issue(user: EndUser) -> str:
    return signing.dumps({"uid": user.pk}, salt=SALT)


def user_from_token(token: str) -> EndUser | None:
    try:
        payload = signing.loads(token, salt=SALT, max_age=settings.COMMERCE_USER_TOKEN_MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return None
    return EndUser.objects.filter(pk=payload.get("uid")).first()


def request_caller(request) -> Caller:
    """The end user or staff behind the request; 401 when there is neither."""
    token = bearer_token(request)
    if not token:
        raise Unauthorized("authentication required", code="authentication_required")
    if admin_token_valid(token):
        return Caller(user=None, is_admin=True)
    user = user_from_token(token)
    if user is None:
        raise Unauthorized("invalid or expired token", code="token_invalid")
    return Caller(user=user)


def request_user(request) -> EndUser:
    """The end user behind the request; staff get 403 (these endpoints act for a user)."""
    caller = request_caller(request)
    if caller.user is None:
        raise Forbidden("this endpoint needs an end-user token", code="user_token_required")
    return caller.user


def request_admin(request) -> Caller:
    """Staff only (the admin token): 401 without a token, 403 for an end user's token."""
    caller = request_caller(request)
    if not caller.is_admin:
        raise Forbidden("invalid or missing token", code="token_missing")
    return caller
