"""The service's metrics in Prometheus' text format (`GET /metrics`, docs/deploy.md,
"Metrics"), through prometheus-client.

Counters and histograms are counted where things happen, in whichever process: web replicas
and worker processes. With PROMETHEUS_MULTIPROC_DIR set (runall, the tests' services and each
container set it; it is emptied when they start) each process writes its values to files
there and a scrape of any web process sums every process's: prometheus-client's multiprocess
mode. What the database knows (queue length, payments by state, the last heartbeat) is read
from it at scrape time instead: the apps register those readers (`source_register`), so a
figure is the truth whichever process is scraped. Every label has a bounded set of values."""

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import Metric

from core.addresses import address_in

HTTP_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

http_requests = Counter(
    "wordcloud_http_requests",
    "HTTP requests answered, by method, route (the URL pattern matched) and status.",
    ["method", "route", "status"],
)
http_request_seconds = Histogram(
    "wordcloud_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by method and route.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
jobs_submitted = Counter("wordcloud_jobs_submitted", "Jobs created and queued.")
jobs_finished = Counter(
    "wordcloud_jobs_finished", "Jobs that reached an end, by status.", ["status"]
)
job_failures = Counter(
    "wordcloud_job_failures",
    "Jobs failed, by reason (input, font_gone, storage, internal, worker_lost, enqueue).",
    ["reason"],
)
job_stage_seconds = Histogram(
    "wordcloud_job_stage_duration_seconds",
    "Time a worker spent on each stage of a job (reading_inputs, the engine's stages, "
    "storing_outputs) and on the whole run (total).",
    ["stage"],
    buckets=(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640),
)
event_stream_clients = Gauge(
    "wordcloud_event_stream_clients",
    "Job event streams (SSE) open now, over every live web process.",
    multiprocess_mode="livesum",
)
payments_succeeded = Counter(
    "wordcloud_payments_succeeded", "Payments that became SUCCESS, by kind.", ["kind"]
)
notify_verifications_failed = Counter(
    "wordcloud_payment_notify_verifications_failed",
    "Payment notifies refused: signature or decryption did not verify.",
)
store_errors = Counter(
    "wordcloud_store_errors", "File store operations that failed, by operation.", ["operation"]
)
store_seconds = Histogram(
    "wordcloud_store_operation_duration_seconds",
    "Time of each file store operation, by operation.",
    ["operation"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)

_sources: list[Callable[[], Iterable[Metric]]] = []


def source_register(source: Callable[[], Iterable[Metric]]) -> None:
    """`source()` yields metrics read at scrape time (from the database); an app registers
    its own in its AppConfig.ready."""
    if source not in _sources:
        _sources.append(source)


def http_request_observe(method: str, route: str, status: int, seconds: float) -> None:
    method = method if method in HTTP_METHODS else "other"
    http_requests.labels(method, route, str(status)).inc()
    http_request_seconds.labels(method, route).observe(seconds)


class _Sources:
    def collect(self):
        for source in _sources:
            yield from source()


class _ThisProcess:
    """The metrics of this process alone (without PROMETHEUS_MULTIPROC_DIR)."""

    def collect(self):
        return REGISTRY.collect()


def _registry() -> CollectorRegistry:
    """Every process's counts (multiprocess mode), or this process's."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    return registry


def metrics_text() -> bytes:
    """Every counter, and the database's figures."""
    registry = _registry()
    registry.register(_Sources())
    return generate_latest(registry)


def metrics_serve(port: int) -> None:
    """The worker's metrics on a port of their own, when the worker shares no folder with a
    web process (a container of its own): a thread of this process serving GET / in the
    text format, without the guard, so the port must be reachable only from the monitoring
    network (compose.yaml does not publish it). Every process of the cluster counts in it
    through PROMETHEUS_MULTIPROC_DIR."""
    start_http_server(port, registry=_registry())


def address_allowed(address: str) -> bool:
    """`address` is in one of METRICS_ALLOWED_IPS (addresses or networks, checked when the
    settings are read)."""
    return address_in(address, settings.METRICS_ALLOWED_IPS)


def scraper_allowed(request) -> bool:
    """The request comes from an address of METRICS_ALLOWED_IPS (a Prometheus scraper): it may
    read /metrics without the admin token (config/access.py)."""
    return address_allowed(request.META.get("REMOTE_ADDR", ""))


def metrics_view(request):
    """GET /metrics: staff, or a scraper at an address of METRICS_ALLOWED_IPS (the access
    table, config/access.py, lets no one else reach it)."""
    return HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)


def multiprocess_folder_prepare(folder) -> str:
    """An empty folder for PROMETHEUS_MULTIPROC_DIR (the values of a previous run removed),
    by the command that starts the processes sharing it, before it starts them."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for leftover in folder.glob("*.db"):
        leftover.unlink()
    return str(folder)


def process_dead(pid: int) -> None:
    """A process sharing PROMETHEUS_MULTIPROC_DIR died: its live gauges no longer count."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
