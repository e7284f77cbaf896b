"""Who is calling: anyone (no credentials), a customer (the end-user token of
`POST /api/auth/login`) or staff (the admin token of `POST /api/login`, or a staff member's
Django session, the one the admin and the studio pages sign in with). Every app asks here;
core/access.py says what each of them may call (docs/security.md).

Both tokens travel as `Authorization: Bearer <token>` and are signed values checked by their
signature alone (nothing stored server-side); their salts differ, so one never passes for the
other. A customer's token names the user's id: whether that user still exists is commerce's
question (commerce/auth.py), core has no models."""

from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core import signing

from core.admin_token import admin_token_valid, bearer_token_of

CUSTOMER_TOKEN_SALT = "commerce.end-user-token"  # from its first home: issued tokens stay valid


class Kind(StrEnum):
    ANYONE = "anyone"
    CUSTOMER = "customer"
    STAFF = "staff"


@dataclass(frozen=True)
class Identity:
    kind: Kind
    user_id: int | None = None  # the customer's EndUser id; None for anyone and staff
    token_refused: bool = False  # a bearer token was sent and is not valid (anyone then)
    by_session: bool = False  # staff by a session cookie: unsafe methods need the CSRF token

    @property
    def is_staff(self) -> bool:
        return self.kind is Kind.STAFF

    @property
    def is_customer(self) -> bool:
        return self.kind is Kind.CUSTOMER

    @property
    def owner_key(self) -> str:
        """What a customer's own objects store as their owner ('' for anyone and staff):
        the user's id as text, so apps that cannot import commerce can keep it."""
        return str(self.user_id) if self.is_customer else ""


ANYONE = Identity(Kind.ANYONE)
STAFF = Identity(Kind.STAFF)


def customer_token_issue(user_id: int) -> str:
    return signing.dumps({"uid": user_id}, salt=CUSTOMER_TOKEN_SALT)


def customer_token_user_id(token: str) -> int | None:
    """The user id a valid, unexpired customer token names, else None."""
    try:
        payload = signing.loads(
            token, salt=CUSTOMER_TOKEN_SALT, max_age=settings.COMMERCE_USER_TOKEN_MAX_AGE
        )
    except signing.BadSignature:  # also SignatureExpired
        return None
    user_id = payload.get("uid") if isinstance(payload, dict) else None
    return user_id if isinstance(user_id, int) else None


def token_identity(authorization: str) -> Identity | None:
    """The identity an `Authorization` header's value gives; None when it carries no bearer
    token (the ASGI endpoints in front of Django read the header themselves)."""
    token = bearer_token_of(authorization)
    if not token:
        return None
    if admin_token_valid(token):
        return STAFF
    user_id = customer_token_user_id(token)
    if user_id is None:
        return Identity(Kind.ANYONE, token_refused=True)
    return customer_identity(user_id)


def customer_identity(user_id: int) -> Identity:
    """The customer whose EndUser id is `user_id` (a service acting for one, as commerce's)."""
    return Identity(Kind.CUSTOMER, user_id=user_id)


def request_identity(request) -> Identity:
    """The identity behind a Django or DRF request (worked out once per request). A bearer
    token wins over the session; an invalid token makes the caller anyone, marked
    `token_refused` so that a route needing more answers 401 `token_invalid`."""
    request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    identity = getattr(request, "_identity", None)
    if identity is None:
        identity = token_identity(request.headers.get("Authorization", "")) or _session_identity(
            request
        )
        request._identity = identity
    return identity


def _session_identity(request) -> Identity:
    user = getattr(request, "user", None)  # AuthenticationMiddleware's lazy user
    if user is not None and user.is_active and user.is_staff:
        return Identity(Kind.STAFF, by_session=True)
    return ANYONE
