"""Job events: appended to the JobEvent table (the source of truth every stream reads), and
announced on the channel layer (channels-redis) when REDIS_URL is set, so streams wake at
once instead of waiting for their next poll of the table."""

import asyncio
import logging
from datetime import datetime

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
# Failed receives in a row after which a job's streams give up on Redis and poll the table.
RECEIVE_ATTEMPTS = 3


def job_event_append(*, job: Job, type: str, message: str, at: datetime | None = None) -> JobEvent:
    """Record an event with the job's current stage and progress, at `at` (now by default).
    The caller holds the job row locked (select_for_update) inside its transaction, so `seq`
    numbers are gap-free and unique per job even when a stale job is failed while its worker
    still writes to it."""
    last = JobEvent.objects.filter(job=job).aggregate(last=Max("seq"))["last"] or 0
    event = JobEvent.objects.create(
        job=job,
        seq=last + 1,
        type=type,
        stage=job.stage,
        progress_percent=job.progress_percent,
        message=message[:500],
        timestamp=at or timezone.now(),
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
    await asyncio.wait_for(
        get_channel_layer().group_send(_group(job_id), {"type": "job.event"}), REDIS_TIMEOUT_SECONDS
    )


class _JobListener:
    """This process's one member of a job's group on the channel layer: it receives the job's
    announcements and wakes every stream of the job waiting in this process, so an event
    costs one Redis message per process, not one per stream."""

    def __init__(self, key: tuple[int, str], job_id: str):
        self.key, self.job_id = key, job_id
        self.streams = 0
        self.announcements = 0  # received so far; a stream compares it with what it has seen
        self.lost = False
        self._changed = asyncio.Event()
        self._layer = self._channel = None
        self.joined = asyncio.ensure_future(self._join())
        self._receiving = None

    async def _join(self) -> bool:
        layer = get_channel_layer()
        try:
            channel = await asyncio.wait_for(layer.new_channel(), REDIS_TIMEOUT_SECONDS)
            await asyncio.wait_for(
                layer.group_add(_group(self.job_id), channel), REDIS_TIMEOUT_SECONDS
            )
        except Exception:
            logger.warning("Redis unavailable; event streams of job %s poll", self.job_id)
            return False
        self._layer, self._channel = layer, channel
        self._receiving = asyncio.ensure_future(self._receive())
        return True

    async def _receive(self) -> None:
        failures = 0
        while not self.lost:
            try:
                await self._layer.receive(self._channel)
                failures = 0
            except Exception as error:
                # A receive can time out while the process is busy: the streams look at the
                # table (woken below) and the listener tries again, up to a few times in a row.
                failures += 1
                if failures == RECEIVE_ATTEMPTS:
                    logger.warning(
                        "lost the event group of job %s (%r); polling", self.job_id, error
                    )
                    self.lost = True
                    if _listeners.get(self.key) is self:
                        del _listeners[self.key]  # the job's next stream joins afresh
            self._wake()

    def _wake(self) -> None:
        self.announcements += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float) -> None:
        """Returns at the next announcement; TimeoutError after `timeout`."""
        await asyncio.wait_for(self._changed.wait(), timeout)

    async def leave(self) -> None:
        # Waits for the cancelled receive to unwind: channels-redis counts receivers per layer
        # and refuses a receive from another event loop while one is still counted.
        running = [
            task for task in (self.joined, self._receiving) if task is not None and not task.done()
        ]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running)
        if self._channel is not None:
            try:
                await asyncio.wait_for(
                    self._layer.group_discard(_group(self.job_id), self._channel),
                    REDIS_TIMEOUT_SECONDS,
                )
            except Exception:
                logger.warning("could not leave the event group of job %s", self.job_id)


# The listeners of this process by (event loop, job).
_listeners: dict[tuple[int, str], _JobListener] = {}


class EventWaiter:
    """Lets a stream sleep until the job has new events or `timeout` passes.

    Without Redis it simply sleeps (the caller polls the table); with Redis the job's streams
    in this process share one member of the job's group on the channel layer
    (channels-redis) and wake as soon as the worker announces an event."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self._listener = None
        self._seen = 0

    async def __aenter__(self):
        if settings.REDIS_URL:
            key = (id(asyncio.get_running_loop()), self.job_id)
            listener = _listeners.get(key)
            if listener is None:
                listener = _listeners[key] = _JobListener(key, self.job_id)
            listener.streams += 1
            self._listener, self._seen = listener, listener.announcements
            try:
                joined = await asyncio.shield(listener.joined)
            except BaseException:
                await self._leave()
                raise
            if not joined:
                await self._leave()
        return self

    async def __aexit__(self, *exc_info):
        await self._leave()

    async def _leave(self):
        listener, self._listener = self._listener, None
        if listener is None:
            return
        listener.streams -= 1
        if listener.streams == 0:
            if _listeners.get(listener.key) is listener:
                del _listeners[listener.key]
            await listener.leave()

    @property
    def poll_seconds(self) -> float:
        """How long a stream may sleep before looking at the table again."""
        if self._listener is None:
            return settings.EVENTS_POLL_SECONDS
        return max(settings.EVENTS_POLL_SECONDS, REDIS_SAFETY_POLL_SECONDS)

    async def wait(self, timeout: float) -> bool:
        """Sleep until an announcement for this job arrives (True) or `timeout` passes. An
        announcement since the last wait (while the stream read the table) counts at once."""
        listener = self._listener
        if listener is not None and listener.lost:
            await self._leave()
            listener = None
        if listener is not None:
            if listener.announcements == self._seen:
                try:
                    await listener.changed(timeout)
                except TimeoutError:
                    return False
            self._seen = listener.announcements
            return True
        await asyncio.sleep(timeout)
        return False
