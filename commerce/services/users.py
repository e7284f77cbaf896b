"""End users: login through the identity platform, and what the platform tells us about them.

The platform is called outside any database transaction: with SQLite's IMMEDIATE mode a
transaction holds the write lock, and a slow platform must not block every other writer."""

from django.utils import timezone

from commerce import identity
from commerce.models import EndUser


def user_login(*, code: str) -> EndUser:
    """Exchanges the client's code for the platform's openid; creates the user on first sight."""
    session = identity.code_to_session(code)
    defaults = {"session_key": session.session_key, "last_login_at": timezone.now()}
    if session.unionid:
        defaults["unionid"] = session.unionid
    # update_or_create catches the IntegrityError of a concurrent first login itself.
    user, _ = EndUser.objects.update_or_create(openid=session.openid, defaults=defaults)
    return user


def user_plugin_openpid_set(*, user: EndUser, code: str) -> EndUser:
    user.plugin_openpid = identity.plugin_openpid(code)
    user.save(update_fields=["plugin_openpid", "updated_at"])
    return user


def user_phone_set(*, user: EndUser, code: str) -> EndUser:
    phone = identity.phone_number(code)
    user.phone_number = phone.phone_number
    user.pure_phone_number = phone.pure_phone_number
    user.country_code = phone.country_code
    user.save(update_fields=["phone_number", "pure_phone_number", "country_code", "updated_at"])
    return user
