from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WordcloudsConfig(AppConfig):
    name = "wordclouds"
    verbose_name = _("Word clouds")

    def ready(self):
        from core.metrics import source_register
        from wordclouds import (
            checks,  # noqa: F401 (registers the system checks)
            tasks,  # noqa: F401 (connects the worker start-up check)
        )
        from wordclouds.metrics import jobs_and_worker
        from wordclouds.services.backups import last_success_metrics

        source_register(jobs_and_worker)
        source_register(last_success_metrics)
