"""The job queue and the worker as the database tells them, read at each scrape of /metrics
(core/metrics.py): the same figures whichever web process is asked."""

from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from wordclouds.models import Job
from wordclouds.services.worker import worker_heartbeat_at


def jobs_and_worker():
    counts = dict(
        Job.objects.filter(status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
        .values_list("status")
        .annotate(count=Count("id"))
    )
    oldest = Job.objects.filter(status=Job.Status.QUEUED).aggregate(at=Min("created_at"))["at"]
    yield GaugeMetricFamily(
        "wordcloud_jobs_queued", "Jobs waiting for a worker.", counts.get(Job.Status.QUEUED, 0)
    )
    yield GaugeMetricFamily(
        "wordcloud_jobs_running", "Jobs a worker is running.", counts.get(Job.Status.RUNNING, 0)
    )
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
