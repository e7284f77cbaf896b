"""The API's own documentation pages, Swagger UI at /api/docs/ and ReDoc at /api/redoc/, in
Chromium with nothing reachable but the service: every operation of the live schema is shown,
and Swagger UI's Authorize button gives "Try it out" on /find the admin token."""

import httpx
import pytest

from tests.contract.conftest import names_xlsx_bytes
from tests.errors import refusal

pytestmark = pytest.mark.e2e
ADMIN_PASSWORD = "wordcloud-admin"  # the default; the pages' service sets none


def _operation_ids(service) -> list[str]:
    schema = httpx.get(f"{service.url}/api/schema/?format=json", timeout=30).json()
    return [
        operation["operationId"]
        for operations in schema["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]


@pytest.fixture(scope="module")
def finished_job_id(service, tmp_path_factory) -> str:
    names = tmp_path_factory.mktemp("docs") / "names.xlsx"
    names.write_bytes(names_xlsx_bytes())
    job_id = service.submit(names, {"WIDTH": 400, "HEIGHT": 300, "SEED": 3})
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert job["status"] == "success", job
    return job_id


def _try_find(page, job_id):
    """Swagger UI's "Try it out" on the find operation with `job_id`: the operation's block
    and the response the browser got."""
    find = page.locator("#operations-jobs-jobs_find_retrieve")
    find.locator(".opblock-summary").click()
    find.locator("button.try-out__btn").click()
    find.locator("input[placeholder='job_id']").fill(job_id)
    with page.expect_response(lambda response: "/find" in response.url) as answer:
        find.locator("button.execute").click()
    return find, answer.value


def test_swagger_ui_shows_every_operation_and_authorizes_find(page, service, finished_job_id):
    operations = _operation_ids(service)
    token = httpx.post(f"{service.url}/api/login", json={"password": ADMIN_PASSWORD}).json()[
        "token"
    ]
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock")
    assert page.locator(".swagger-ui .opblock").count() == len(operations)

    page.click("button.authorize")
    admin_box = page.locator(".auth-container", has_text="adminToken")
    admin_box.locator("input").fill(token)
    admin_box.locator("button.authorize").click()
    page.click("button.btn-done")

    find, answer = _try_find(page, finished_job_id)
    assert answer.request.headers["authorization"] == f"Bearer {token}"
    assert answer.status == 200
    shown = find.locator(".live-responses-table tbody .response-col_status").first
    assert shown.inner_text().strip() == "200"
    assert answer.json()["total"] == 6


def test_swagger_ui_without_a_token_gets_401_on_find(page, service, finished_job_id):
    page.goto("/api/docs/")
    _, answer = _try_find(page, finished_job_id)
    assert answer.status == 401
    assert refusal(answer) == "authentication required"


def test_redoc_shows_every_operation(page, service):
    operations = _operation_ids(service)
    page.goto("/api/redoc/")
    page.wait_for_selector("[data-section-id^='operation/']")
    shown = page.locator("[data-section-id^='operation/']")
    assert shown.count() == len(operations)
    assert page.locator("[data-section-id='operation/jobs_find_retrieve']").count() == 1
