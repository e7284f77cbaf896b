"""Job events: appended to the JobEvent table (the source of truth every stream reads), and
announced on the channel layer (channels-redis) when REDIS_URL is set, so streams wake at
once instead of waiting for their next poll of the table."""
import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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


def _group(job_id: str) -> str:
    return f"job-events.{job_id}"


def _announce(job_id: str) -> None:
    try:
        async_to_sync(_announce_async)(job_id)
    except Exception:
        # Streams still poll the table, so a lost wake-up only delays delivery.
        logger.warning("could not announce events of job %s through Redis", job_id, exc_info=True)


async def _announce_async(job_id: str) -> None:
    await asyncio.wait_for(get_channel_layer().group_send(_group(job_id), {"type": "job.event"}),
                           REDIS_TIMEOUT_SECONDS)


class EventWaiter:
    """Lets a stream sleep until the job has new events or `timeout` passes.

    Without Redis it simply sleeps (the caller polls the table); with Redis it joins the
    job's group on the channel layer (channels-redis) and wakes as soon as the worker
    announces an event."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self._layer = None
        self._channel = None

    async def __aenter__(self):
        if settings.REDIS_URL:
            layer = get_channel_layer()
            try:
                channel = await asyncio.wait_for(layer.new_channel(), REDIS_TIMEOUT_SECONDS)
                await asyncio.wait_for(layer.group_add(_group(self.job_id), channel),
                                       REDIS_TIMEOUT_SECONDS)
            except Exception:
                logger.warning("Redis unavailable; event stream of job %s polls", self.job_id)
            else:
                self._layer, self._channel = layer, channel
        return self

    async def __aexit__(self, *exc_info):
        await self._leave()

    async def _leave(self):
        if self._channel is not None:
            layer, channel = self._layer, self._channel
            self._layer = self._channel = None
            try:
                await asyncio.wait_for(layer.group_discard(_group(self.job_id), channel),
                                       REDIS_TIMEOUT_SECONDS)
            except Exception:
                logger.warning("could not leave the event group of job %s", self.job_id)

    @property
    def poll_seconds(self) -> float:
        """How long a stream may sleep before looking at the table again."""
        if self._channel is None:
            return settings.EVENTS_POLL_SECONDS
        return max(settings.EVENTS_POLL_SECONDS, REDIS_SAFETY_POLL_SECONDS)

    async def wait(self, timeout: float) -> bool:
        """Sleep until an announcement for this job arrives (True) or `timeout` passes."""
        if self._channel is not None:
            try:
                await asyncio.wait_for(self._layer.receive(self._channel), timeout)
                return True
            except TimeoutError:
                return False
            except Exception:
                logger.warning("lost the event group of job %s; polling", self.job_id)
                await self._leave()
        await asyncio.sleep(timeout)
        return False
