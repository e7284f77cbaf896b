from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares (no models): the error path, schema helpers, base API views,
    the ASGI router in front of Django, heavy work in limited children, process helpers."""

    name = "core"
