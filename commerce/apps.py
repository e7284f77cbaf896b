from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommerceConfig(AppConfig):
    name = "commerce"
    verbose_name = _("Commerce")

    def ready(self):
        from commerce import checks  # noqa: F401 (registers the system checks)
        from commerce.metrics import payments_and_refunds
        from core.metrics import source_register

        source_register(payments_and_refunds)

        from commerce.selectors import (
            design_list_job_ids,
            design_list_project_uses,
            order_needing_jobs,
            product_sizes,
            proof_approved_job_ids,
            proof_needing_jobs,
        )
        from wordclouds.services.designs import (
            job_needed_by_register,
            job_references_register,
            project_uses_register,
            shop_sizes_register,
        )

        job_references_register(design_list_job_ids)
        project_uses_register(design_list_project_uses)
        job_references_register(proof_approved_job_ids)
        job_needed_by_register(order_needing_jobs)
        job_needed_by_register(
            proof_needing_jobs, code="job_proof_approved", hint="revoke the proof to delete it"
        )
        shop_sizes_register(product_sizes)
