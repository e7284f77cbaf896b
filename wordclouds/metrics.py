"""The job queue and the worker as the database tells them, read at each scrape of /metrics
(core/metrics.py): the same figures whichever web process is asked."""

from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from wordclouds.services.worker import queue_figures, worker_heartbeat_at


def jobs_and_worker():
    queue = queue_figures()
    oldest = queue["oldest"]
    yield GaugeMetricFamily("wordcloud_jobs_queued", "Jobs waiting for a worker.", queue["queued"])
    yield GaugeMetricFamily("wordcloud_jobs_running", "Jobs a worker is running.", queue["running"])
    yield GaugeMetricFamily(
        "wordcloud_jobs_oldest_queued_seconds",
        "Age of the oldest queued job (0 when none waits).",
        (timezone.now() - oldest).total_seconds() if oldest else 0,
    )
    beat = worker_heartbeat_at()
    yield GaugeMetricFamily(
        "wordcloud_worker_last_heartbeat_timestamp_seconds",
        "When a worker last ran the supervisor's ping (Unix time; 0 never).",
        beat or 0,
    )
