"""Who is calling a commerce endpoint: an end user (signed end-user token from
`POST /api/auth/login`) or staff (the admin token from `POST /api/login`, or a staff
session). core/identity.py reads the credentials; this module finds the end user they name."""

from dataclasses import dataclass

from commerce.models import EndUser
from core.errors import Forbidden, Unauthorized
from core.identity import Kind, customer_token_issue, request_identity


@dataclass(frozen=True)
class Caller:
    user: EndUser | None  # None for staff
    is_admin: bool = False


def user_token_issue(user: EndUser) -> str:
    return customer_token_issue(user.pk)


def request_caller(request) -> Caller:
    """The end user or staff behind the request; 401 when there is neither."""
    identity = request_identity(request)
    if identity.kind is Kind.STAFF:
        return Caller(user=None, is_admin=True)
    if identity.kind is Kind.ANYONE and not identity.token_refused:
        raise Unauthorized("authentication required", code="authentication_required")
    user = EndUser.objects.filter(pk=identity.user_id).first() if identity.user_id else None
    if user is None:
        raise Unauthorized("invalid or expired token", code="token_invalid")
    return Caller(user=user)


def request_user(request) -> EndUser:
    """The end user behind the request; staff get 403 (these endpoints act for a user)."""
    caller = request_caller(request)
    if caller.user is None:
        raise Forbidden("this endpoint needs an end-user token", code="user_token_required")
    return caller.user
