"""The admin token: issued by POST /api/login, staff's credential (core/identity.py reads it,
docs/security.md says what it may call). A signed, expiring value; nothing is stored
server-side."""

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


def bearer_token_of(authorization: str) -> str:
    """The token of an `Authorization: Bearer <token>` header's value, else ''."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""
