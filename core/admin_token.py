"""The admin token: issued by POST /api/login, accepted by /find and by the order endpoints
(where it sees every order). A signed, expiring value; nothing is stored server-side."""

from django.conf import settings
from django.core import signing

SALT = "wordclouds.admin-token"  # from its first home: tokens issued before stay valid


def admin_token_issue() -> str:
    return signing.dumps({"role": "admin"}, salt=SALT, compress=True)


def admin_token_valid(token: str) -> bool:
    try:
        payload = signing.loads(token, salt=SALT, max_age=settings.ADMIN_TOKEN_MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return False
    return payload.get("role") == "admin"


def bearer_token(request) -> str:
    return bearer_token_of(request.headers.get("Authorization", ""))


def bearer_token_of(authorization: str) -> str:
    """The token of an `Authorization: Bearer <token>` header's value, else ''."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def request_has_admin_token(request) -> bool:
    return authorization_has_admin_token(request.headers.get("Authorization", ""))


def authorization_has_admin_token(authorization: str) -> bool:
    """An `Authorization` header's value carries a valid admin token."""
    token = bearer_token_of(authorization)
    return bool(token) and admin_token_valid(token)
