"""django-q2 entry points of the worker; each hands over to a service."""

import logging

from django.dispatch import receiver
from django_q.signals import post_spawn

from core.request_ids import request_id_set
from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import jobs_fail_stale
from wordclouds.services.retention import retention_run
from wordclouds.services.warmup import engine_warm
from wordclouds.services.worker import worker_beat

logger = logging.getLogger(__name__)


def job_run(job_id: str, request_id: str = "") -> None:
    """Run the job `job_id` (enqueued by job_create once its row is committed); its log
    lines carry the id of the request that made it."""
    with request_id_set(request_id):
        job_execute(job_id=job_id)


def jobs_expire() -> None:
    """The daily retention run (scheduled by migration; docs/deploy.md, "Retention")."""
    deleted = retention_run()
    logger.info("retention: %d jobs deleted", len(deleted))


def worker_ping() -> None:
    """The heartbeat task `manage.py runcluster` sends through the broker."""
    worker_beat()


@receiver(post_spawn, dispatch_uid="wordclouds.jobs_fail_stale")
def fail_stale_jobs_on_worker_start(sender, proc_name, **kwargs) -> None:
    """A worker (re)starting after a crash: the failure of jobs left running without a
    heartbeat is written (reads show them failed already). Never lets the worker's start
    fail: its supervisor writes them at its next round."""
    try:
        jobs_fail_stale()
    except Exception:
        logger.exception("could not fail the jobs left running by a dead worker")


@receiver(post_spawn, dispatch_uid="wordclouds.engine_warm")
def warm_engine_on_worker_start(sender, proc_name, **kwargs) -> None:
    """A new worker process loads the engine's compiled code, fonts and readers with a tiny
    job now, so the first real job it takes is as fast as the next (docs/deploy.md). Never
    lets the worker's start fail: a job would load the same things itself."""
    try:
        logger.info("%s warmed the engine in %.1f s", proc_name, engine_warm())
    except Exception:
        logger.exception("could not warm the engine")
