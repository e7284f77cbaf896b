"""Running the service for years, end to end with real processes (docs/deploy.md, "Metrics";
docs/architecture.md, "Request ids"): two web and two worker processes share one database,
queue, media folder and metrics folder, as the processes runall starts on one machine.

After a known workload (N jobs, M of them failing in the engine, K paid orders) a scrape of
either web process counts N, M and K, whichever process did the work; /metrics refuses a
request without the admin token. A job submitted with `X-Request-ID: abc` has `abc` on every
log line of the web and worker processes that names it (LOG_FORMAT=json, read from their
log files); the requests that ask about it later have ids of their own."""

import json
import threading
import uuid

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from commerce.identity_standin import IdentityPlatform, identity_server
from core.admin_token import admin_token_issue
from tests.commerce.clients import SHENZHEN, Api, new_customer
from tests.names import sample_names, write_names
from tests.processes import Service
from tests.waiting import wait_until

pytestmark = [pytest.mark.e2e]
JOBS, FAILURES, PAYMENTS = 4, 2, 2
FITS = {"WIDTH": 400, "HEIGHT": 300, "SEED": 7}
DOES_NOT_FIT = {"WIDTH": 64, "HEIGHT": 64, "MIN_FONT_SIZE": 30, "SEED": 7}


@pytest.fixture(scope="module")
def platform():
    platform = IdentityPlatform(app_id="wx-ops-app", app_secret="ops-secret")
    server = identity_server(platform)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield platform
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def services(tmp_path_factory, database_template, platform):
    folder = tmp_path_factory.mktemp("operations")
    shared = {
        "Q_NAME": f"ops-{uuid.uuid4().hex[:8]}",
        "MEDIA_ROOT": folder / "media",
        "PROMETHEUS_MULTIPROC_DIR": folder / "prometheus",
        "LOG_FORMAT": "json",
        "IDENTITY_PLATFORM_URL": platform.url,
        "IDENTITY_APP_ID": "wx-ops-app",
        "IDENTITY_APP_SECRET": "ops-secret",
    }
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    first = Service(folder / "a", database_template, **shared)
    second = Service(folder / "b", database_template, database=first.database, **shared)
    started = []
    try:
        for service in (first, second):
            started.append(service.start())
        yield first, second
    finally:
        for service in reversed(started):
            service.stop()
        if first not in started:
            first.database.drop()


def counted(text: str) -> dict[tuple, float]:
    """{(sample name, label values...): value} of a scrape."""
    return {
        (sample.name, *sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def submit(service: Service, names_path, params: dict, request_id: str | None = None) -> str:
    headers = {"X-Request-ID": request_id} if request_id else {}
    with names_path.open("rb") as names:
        answer = httpx.post(
            f"{service.url}/api/jobs",
            files={"name_list": names},
            data={"params": json.dumps(params)},
            headers=headers,
            timeout=60,
        )
    assert answer.status_code == 201, answer.text
    if request_id:
        assert answer.headers["x-request-id"] == request_id
    return answer.json()["job_id"]


def log_lines(service: Service, name: str, about: str) -> list[dict]:
    """The JSON log lines of a process whose message names `about`."""
    lines = [json.loads(line) for line in service.log(name).splitlines() if line.startswith("{")]
    return [line for line in lines if about in line["message"]]


def test_counters_add_up_over_two_web_and_two_worker_processes(services, platform, tmp_path):
    first, second = services
    names = write_names(tmp_path / "names.xlsx", sample_names(12))
    many = write_names(tmp_path / "many.xlsx", sample_names(400))
    refused = httpx.get(f"{first.url}/metrics", timeout=10)
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_required"

    ids = [
        submit(
            services[n % 2], many if n < FAILURES else names, DOES_NOT_FIT if n < FAILURES else FITS
        )
        for n in range(JOBS)
    ]
    staff = Api(first.url, admin_token_issue())
    product = staff.call("POST", "/api/products", {"name": "Free poster", "price": 0}).json()
    for n in range(PAYMENTS):
        customer = new_customer(services[n % 2].url, platform)
        address = customer.call("POST", "/api/addresses", SHENZHEN).json()["id"]
        body = {"addressId": address, "items": [{"productId": product["id"], "quantity": 1}]}
        order = customer.call("POST", "/api/orders", body).json()
        assert order["status"] == "PAID", order
    for job_id in ids:
        job = first.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 300)
        assert job["status"] in ("success", "failed"), job

    token = {"Authorization": f"Bearer {admin_token_issue()}"}
    for service in services:
        scrape = httpx.get(f"{service.url}/metrics", headers=token, timeout=30)
        assert scrape.status_code == 200, scrape.text
        values = counted(scrape.text)
        assert values[("wordcloud_jobs_submitted_total",)] == JOBS
        assert values[("wordcloud_job_failures_total", ("reason", "input"))] == FAILURES
        assert values[("wordcloud_jobs_finished_total", ("status", "success"))] == JOBS - FAILURES
        assert values[("wordcloud_payments_succeeded_total", ("kind", "free"))] == PAYMENTS
        stage = ("wordcloud_job_stage_duration_seconds_count", ("stage", "total"))
        assert values[stage] == JOBS
        assert values[("wordcloud_jobs_queued",)] == 0
        assert values[("wordcloud_payments", ("kind", "free"), ("state", "SUCCESS"))] == PAYMENTS
        route = (
            "wordcloud_http_requests_total",
            ("method", "POST"),
            ("route", "/api/jobs"),
            ("status", "201"),
        )
        assert values[route] == JOBS


def test_a_jobs_request_id_is_on_every_web_and_worker_line_about_it(services, tmp_path):
    first, _ = services
    names = write_names(tmp_path / "names.xlsx", sample_names(12))
    job_id = submit(first, names, FITS, request_id="abc")
    job = first.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 300)
    assert job["status"] == "success", job

    # The job's lines, but the request lines of the polls that followed it (GET
    # /api/jobs/<id>: other requests, with ids of their own).
    web = [line for line in log_lines(first, "web", job_id) if line["logger"] != "core.requests"]

    # The worker writes "succeeded" just after the success's transaction, which a poll may see
    # first (it did once, under load): wait a little for the line, never for the status.
    def worker_lines():
        return log_lines(first, "worker", job_id) + log_lines(services[1], "worker", job_id)

    wait_until(lambda: any("succeeded" in line["message"] for line in worker_lines()), 10)
    worker = worker_lines()
    assert any("queued" in line["message"] for line in web), web
    assert any("started" in line["message"] for line in worker), worker
    assert any("succeeded" in line["message"] for line in worker), worker
    assert {line["request_id"] for line in web + worker} == {"abc"}, web + worker
    # The request's own line (it does not name the job) carries it too.
    posted = log_lines(first, "web", '"POST /api/jobs" 201')
    assert "abc" in {line["request_id"] for line in posted}
