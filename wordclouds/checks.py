"""System checks of the wordclouds app."""

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def admin_password_check(app_configs, **kwargs):
    """`manage.py check --deploy` warns while the admin login uses the built-in password
    (ORDERS_ADMIN_PASSWORD unset, or set to the default): anyone who read the code can log in."""
    if settings.ORDERS_ADMIN_PASSWORD != settings.ORDERS_ADMIN_PASSWORD_DEFAULT:
        return []
    return [
        checks.Warning(
            "ORDERS_ADMIN_PASSWORD is not set: the admin login accepts the built-in default password.",
            hint="Set the ORDERS_ADMIN_PASSWORD environment variable to a secret password.",
            id="wordclouds.W001",
        )
    ]


@checks.register(checks.Tags.security, deploy=True)
def secret_key_check(app_configs, **kwargs):
    """`manage.py check --deploy` fails while SECRET_KEY is the built-in development key: it
    signs admin and end-user tokens, so anyone who read the code could forge them."""
    if settings.SECRET_KEY != settings.SECRET_KEY_DEFAULT:
        return []
    return [
        checks.Error(
            "SECRET_KEY is not set: tokens are signed with the built-in development key.",
            hint="Set the SECRET_KEY environment variable to a long random string.",
            id="wordclouds.E002",
        )
    ]
