from django.apps import AppConfig


class CommerceConfig(AppConfig):
    name = "commerce"

    def ready(self):
        from commerce import checks  # noqa: F401 (registers the system checks)
