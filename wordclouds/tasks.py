"""django-q2 entry points of the worker; each hands over to a service."""
import logging

from django.dispatch import receiver
from django_q.signals import post_spawn

from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import jobs_fail_stale

logger = logging.getLogger(__name__)


def job_run(job_id: str) -> None:
    """Run the job `job_id` (enqueued by job_create once its row is committed)."""
    job_execute(job_id=job_id)


@receiver(post_spawn, dispatch_uid="wordclouds.jobs_fail_stale")
def fail_stale_jobs_on_worker_start(sender, proc_name, **kwargs) -> None:
    """A worker (re)starting after a crash: jobs left running without a heartbeat fail.
    Never lets the worker's start fail: reads of those jobs run the same check."""
    try:
        jobs_fail_stale()
    except Exception:
        logger.exception("could not check for jobs left running by a dead worker")
