"""The admin login of the lookup and orders pages: one shared password, a signed token."""

import hmac

from django.conf import settings

from core.admin_token import admin_token_issue
from core.errors import Unauthorized


def admin_login(*, password: str) -> str:
    """A fresh admin token when `password` is the admin password; 401 `invalid password`.

    Compared in constant time so the answer time tells nothing about the password."""
    expected = settings.ORDERS_ADMIN_PASSWORD.encode()
    if not hmac.compare_digest(password.encode(), expected):
        raise Unauthorized("invalid password", code="password_invalid")
    return admin_token_issue()
