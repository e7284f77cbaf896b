"""The worker's liveness: a heartbeat proven through the real queue, what /api/health reports
of it, and putting queued jobs back on the broker when a cluster starts.

django-q2's cluster cannot recover from every death of one of its processes by itself: an idle
worker killed while it waits on the cluster's task queue dies holding that queue's read lock,
and the worker it is replaced by waits on the lock forever. So `manage.py runcluster` sends a
tiny ping task through the broker every WORKER_PING_SECONDS; the ping writes the time to the
WorkerBeat row (the database is what every process shares); a cluster whose ping has waited WORKER_STALL_SECONDS while no running job beats is
restarted (docs/architecture.md, "The worker dying")."""

import logging
import time
from datetime import UTC, datetime

from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from wordclouds.models import Job, WorkerBeat

logger = logging.getLogger(__name__)
PING_TASK = "wordclouds.tasks.worker_ping"
JOB_TASK = "wordclouds.tasks.job_run"
# When this web process started: a service younger than the dead limit has not yet had the
# time to show a live worker.
_STARTED = time.time()


def worker_beat() -> None:
    """Called by the ping task inside a worker: the whole path broker → cluster → worker
    works."""
    WorkerBeat.objects.update_or_create(id=1, defaults={"at": timezone.now()})


def worker_heartbeat_at() -> float | None:
    """Epoch seconds of the last ping a worker ran, or None."""
    beat = WorkerBeat.objects.filter(id=1).values_list("at", flat=True).first()
    return beat.timestamp() if beat else None


def _job_beat_at() -> float | None:
    """Epoch seconds of the newest heartbeat of a running job (its worker is alive and busy)."""
    latest = Job.objects.filter(status=Job.Status.RUNNING).aggregate(at=Max("updated_at"))["at"]
    return latest.timestamp() if latest else None


def worker_last_alive() -> float | None:
    """The later of the last ping and the newest running job's heartbeat."""
    beats = [at for at in (worker_heartbeat_at(), _job_beat_at()) if at is not None]
    return max(beats) if beats else None


def queue_figures() -> dict:
    """The queue in one query: jobs ``queued`` and ``running``, and when the ``oldest``
    queued one was made (None when none waits)."""
    queued = Q(status=Job.Status.QUEUED)
    waiting = Job.objects.filter(status__in=(Job.Status.QUEUED, Job.Status.RUNNING))
    return waiting.aggregate(
        queued=Count("id", filter=queued),
        running=Count("id", filter=Q(status=Job.Status.RUNNING)),
        oldest=Min("created_at", filter=queued),
    )


def worker_status() -> dict:
    """What /api/health reports of the worker: alive (seen within WORKER_DEAD_SECONDS, or the
    service younger than that), the last heartbeat, the queue length and the age of the
    oldest queued job."""
    now = time.time()
    last = worker_last_alive()
    queued = queue_figures()
    limit = settings.WORKER_DEAD_SECONDS
    alive = (last is not None and now - last < limit) or now - _STARTED < limit
    return {
        "alive": alive,
        "last_heartbeat": datetime.fromtimestamp(last, UTC) if last else None,
        "queued": queued["queued"],
        "oldest_queued_seconds": (
            round((timezone.now() - queued["oldest"]).total_seconds(), 1)
            if queued["oldest"]
            else None
        ),
    }


def worker_ping_send() -> None:
    """Put one ping on the broker (its result is not stored)."""
    from django_q.tasks import async_task

    async_task(PING_TASK, save=False)


def jobs_requeue() -> int:
    """Put every queued job on the broker again; called when a cluster starts. Tasks of a
    cluster that died are lost (Redis) or locked for Q_CLUSTER's `retry` (ORM broker); a job
    on the broker twice runs once, since job_start leaves anything not queued alone."""
    from django_q.tasks import async_task

    ids = list(
        Job.objects.filter(status=Job.Status.QUEUED)
        .order_by("created_at")
        .values_list("id", flat=True)
    )
    for job_id in ids:
        async_task(JOB_TASK, job_id)
    if ids:
        logger.info("put %d queued job(s) on the broker again", len(ids))
    return len(ids)
