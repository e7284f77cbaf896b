"""The django-q2 cluster (`qcluster`) under a supervisor that restarts it when it exits or
stops taking work, and puts queued jobs back on the broker whenever it starts
(wordclouds/services/worker.py says why django-q2 needs this). It is also the worker's
schedule for stale jobs: every WORKER_PING_SECONDS, from its start on, the failure of jobs
whose worker died is written (reads show them failed already). Serving its metrics (on all
addresses) or behind TLS, it refuses to start on a built-in secret (core/built_in_secrets.py)."""

import logging
import multiprocessing
import os
import signal
import time
from multiprocessing.process import BaseProcess

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections

from core.built_in_secrets import built_in_secrets_refused
from core.isolated import CHILD_NICENESS
from core.metrics import metrics_serve
from core.processes import stop_on_signals
from wordclouds.services.jobs import jobs_fail_stale
from wordclouds.services.worker import (
    jobs_requeue,
    worker_heartbeat_at,
    worker_last_alive,
    worker_ping_send,
)

logger = logging.getLogger(__name__)
STOP_GRACE_SECONDS = 8.0
FORK = multiprocessing.get_context("fork")  # as django-q2 starts its own processes


class Command(BaseCommand):
    help = "Run the django-q2 cluster and restart it when it dies or stops taking work."

    def handle(self, *args, **options):
        # prometheus_client's server listens on every address.
        metrics = ["0.0.0.0"] if settings.METRICS_PORT else []
        built_in_secrets_refused(process="worker", hosts=metrics)
        stopping = stop_on_signals()
        if settings.METRICS_PORT:
            metrics_serve(settings.METRICS_PORT)
        cluster = self._start()
        ping_sent, self.started_at, self.answered = None, time.time(), False
        self.stale_checked = 0.0
        while not stopping.is_set():
            time.sleep(0.5)
            close_old_connections()
            if not cluster.is_alive():
                logger.warning(
                    "the worker cluster exited (%s); starting it again", cluster.exitcode
                )
                cluster, ping_sent = self._restart(cluster)
                continue
            try:
                ping_sent, stalled = self._check(ping_sent)
            except Exception:  # the database away for a moment: try again next round
                logger.exception("could not check the worker cluster")
                continue
            if stalled:
                logger.warning(
                    "the worker cluster took no work for %s s; restarting it",
                    settings.WORKER_STALL_SECONDS,
                )
                cluster, ping_sent = self._restart(cluster)
        self._stop(cluster, grace=STOP_GRACE_SECONDS)

    def _check(self, ping_sent: float | None) -> tuple[float | None, bool]:
        """(time of the ping in flight, whether the cluster is stalled)."""
        now = time.time()
        if now - self.stale_checked >= settings.WORKER_PING_SECONDS:
            jobs_fail_stale()  # whether or not the cluster answers
            self.stale_checked = now
        beat = worker_heartbeat_at()
        answered = ping_sent is None or (beat is not None and beat >= ping_sent)
        if answered:
            self.answered = self.answered or ping_sent is not None
            if ping_sent is None or now - ping_sent >= settings.WORKER_PING_SECONDS:
                worker_ping_send()
                return now, False
            return ping_sent, False
        # A busy cluster answers pings late; its running job's heartbeat shows it alive. A
        # cluster that has not answered since it started may still be warming its workers up.
        alive = worker_last_alive()
        waited = now - max(ping_sent, alive or 0, self.started_at)
        limit = settings.WORKER_STALL_SECONDS if self.answered else settings.WORKER_START_SECONDS
        return ping_sent, waited > limit

    def _start(self) -> BaseProcess:
        jobs_requeue()
        # Forked from this process, which has Django and the app loaded already (a second
        # interpreter importing them again cost about 5 s of CPU at every start, measured in
        # CONTRIBUTING.md's time budget); with no database connection of this process's to
        # share.
        connections.close_all()
        cluster = FORK.Process(target=_cluster_run, name="qcluster")
        cluster.start()
        return cluster

    def _restart(self, cluster: BaseProcess):
        # A stalled cluster cannot stop by itself (its workers wait on a lock that nobody
        # will release), and a dead one has nothing to finish: no grace.
        self._stop(cluster, grace=0)
        time.sleep(1)
        self.started_at, self.answered = time.time(), False
        return self._start(), None

    @staticmethod
    def _stop(cluster: BaseProcess, *, grace: float) -> None:
        # SIGTERM to the leader only: it stops its own processes, while SIGTERM to its whole
        # group can kill one holding a shared lock and hang the leader. Then SIGKILL the rest.
        if grace and cluster.is_alive():
            cluster.terminate()
            cluster.join(timeout=grace)
        try:
            os.killpg(cluster.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        cluster.join()


def _cluster_run() -> None:
    """The cluster, in the forked child: its own process group, so that a restart can kill
    every process of the cluster, but the same session as the supervisor (a test or runall
    can kill the whole session); at the heavy children's niceness, so that on a busy machine
    the web process comes first; the supervisor's signal handlers replaced by the cluster's."""
    os.setpgid(0, 0)
    os.nice(CHILD_NICENESS)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)
    call_command("qcluster")
