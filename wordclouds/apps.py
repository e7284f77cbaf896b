from django.apps import AppConfig


class WordcloudsConfig(AppConfig):
    name = "wordclouds"
    verbose_name = "Word clouds"

    def ready(self):
        from wordclouds import (
            checks,  # noqa: F401 (registers the system checks)
            tasks,  # noqa: F401 (connects the worker start-up check)
        )
