"""System checks of the commerce app."""

from django.conf import settings
from django.core import checks


@checks.register()
def identity_standin_check(app_configs, **kwargs):
    """The stand-in identity platform logs anyone in with any code: never outside development."""
    if not settings.IDENTITY_STANDIN or settings.DEBUG:
        return []
    return [
        checks.Error(
            "IDENTITY_STANDIN is on while DEBUG is off: the stand-in identity platform lets "
            "anyone log in as any end user.",
            hint="Unset IDENTITY_STANDIN (and point IDENTITY_PLATFORM_URL at the real platform), "
            "or set DEBUG=1 for local development.",
            id="commerce.E001",
        )
    ]
