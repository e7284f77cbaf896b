from django.apps import AppConfig


class CommerceConfig(AppConfig):
    name = "commerce"

    def ready(self):
        from commerce import checks  # noqa: F401 (registers the system checks)
        from commerce.metrics import payments_and_refunds
        from core.metrics import source_register

        source_register(payments_and_refunds)
