from django.apps import AppConfig


class CommerceConfig(AppConfig):
    name = "commerce"

    def ready(self):
        from commerce import checks  # noqa: F401 (registers the system checks)
        from commerce.metrics import payments_and_refunds
        from core.metrics import source_register

        source_register(payments_and_refunds)

        from commerce.selectors import design_list_job_ids, order_needing_jobs, product_sizes
        from wordclouds.services.designs import (
            job_needed_by_register,
            job_references_register,
            shop_sizes_register,
        )

        job_references_register(design_list_job_ids)
        job_needed_by_register(order_needing_jobs)
        shop_sizes_register(product_sizes)
