"""django-q2 entry points of the worker; each hands over to a service."""
from django.dispatch import receiver
from django_q.signals import post_spawn

from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import jobs_fail_stale


def job_run(job_id: str) -> None:
    """Run the job `job_id` (enqueued by job_create once its row is committed)."""
    job_execute(job_id=job_id)


@receiver(post_spawn, dispatch_uid="wordclouds.jobs_fail_stale")
def fail_stale_jobs_on_worker_start(sender, proc_name, **kwargs) -> None:
    """A worker (re)starting after a crash: jobs left running without a heartbeat fail."""
    jobs_fail_stale()
