"""Job events: appended to the JobEvent table (the source of truth every stream reads), and
announced through Redis pub/sub when REDIS_URL is set so streams wake at once instead of
waiting for their next poll of the table."""
import asyncio
import logging
from functools import cache

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from wordclouds.models import Job, JobEvent

logger = logging.getLogger(__name__)

# With Redis the stream is woken by announcements; it still looks at the table this often,
# so a lost announcement or a job failed by another process is never missed for long.
REDIS_SAFETY_POLL_SECONDS = 5.0
# A Redis that does not answer must neither hold up the worker's commits nor a stream's start.
REDIS_TIMEOUT_SECONDS = 2.0


def job_event_append(*, job: Job, type: str, message: str) -> JobEvent:
    """Record an event with the job's current stage and progress. The caller holds the job
    row locked (select_for_update) inside its transaction, so `seq` numbers are gap-free and
    unique per job even when the web process fails a job the worker still writes to."""
    last = JobEvent.objects.filter(job=job).aggregate(last=Max("seq"))["last"] or 0
    event = JobEvent.objects.create(
        job=job, seq=last + 1, type=type, stage=job.stage,
        progress_percent=job.progress_percent, message=message[:500], timestamp=timezone.now(),
    )
    if settings.REDIS_URL:
        transaction.on_commit(lambda: _announce(job.id))
    return event


def _channel(job_id: str) -> str:
    return f"wordclouds:job-events:{job_id}"


@cache
def _publisher():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=REDIS_TIMEOUT_SECONDS,
                                socket_connect_timeout=REDIS_TIMEOUT_SECONDS)


def _announce(job_id: str) -> None:
    try:
        _publisher().publish(_channel(job_id), "1")
    except Exception:
        # Streams still poll the table, so a lost wake-up only delays delivery.
        logger.warning("could not announce events of job %s through Redis", job_id, exc_info=True)


class EventWaiter:
    """Lets a stream sleep until the job has new events or `timeout` passes.

    Without Redis it simply sleeps (the caller polls the table); with Redis it wakes as soon
    as the worker announces an event."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self._client = None
        self._pubsub = None

    async def __aenter__(self):
        if settings.REDIS_URL:
            import redis.asyncio

            try:
                self._client = redis.asyncio.Redis.from_url(
                    settings.REDIS_URL, socket_connect_timeout=REDIS_TIMEOUT_SECONDS)
                self._pubsub = self._client.pubsub()
                await asyncio.wait_for(self._pubsub.subscribe(_channel(self.job_id)),
                                       REDIS_TIMEOUT_SECONDS)
            except Exception:
                logger.warning("Redis unavailable; event stream of job %s polls", self.job_id)
                await self._close()
        return self

    async def __aexit__(self, *exc_info):
        await self._close()

    async def _close(self):
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()
        self._client = self._pubsub = None

    @property
    def poll_seconds(self) -> float:
        """How long a stream may sleep before looking at the table again."""
        if self._pubsub is None:
            return settings.EVENTS_POLL_SECONDS
        return max(settings.EVENTS_POLL_SECONDS, REDIS_SAFETY_POLL_SECONDS)

    async def wait(self, timeout: float) -> bool:
        """Sleep until an announcement for this job arrives (True) or `timeout` passes."""
        if self._pubsub is not None:
            try:
                return await self._announced(timeout)
            except Exception:
                logger.warning("lost Redis subscription of job %s; polling", self.job_id)
                await self._close()
        await asyncio.sleep(timeout)
        return False

    async def _announced(self, timeout: float) -> bool:
        # get_message answers None at once when what it read was the subscription's
        # confirmation, so keep reading until the deadline.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (remaining := deadline - loop.time()) > 0:
            message = await self._pubsub.get_message(ignore_subscribe_messages=True,
                                                     timeout=remaining)
            if message is not None:
                return True
        return False
