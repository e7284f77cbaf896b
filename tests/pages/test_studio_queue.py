"""The studio used without signing in shows a waiting job's place in the queue: a service
with no worker, so that every job stays queued."""

import pytest
from playwright.sync_api import expect

from tests.names import sample_names, write_names

pytestmark = pytest.mark.e2e
WORKER = False  # this module's service: the web server alone (tests/pages/conftest.py)


def test_the_studio_without_signing_in_shows_how_many_jobs_wait_ahead(page, service, tmp_path):
    # two jobs already waiting, made without a token as the README's curl makes them
    names = write_names(tmp_path / "names.xlsx", sample_names(6))
    for _ in range(2):
        service.submit(names, {"WIDTH": 200, "HEIGHT": 150})

    page.goto("/")
    page.get_by_label("Name list (.xlsx)").set_input_files(names)
    page.get_by_role("button", name="Make the poster").click()

    expect(page.locator("#job-status")).to_have_text("queued")
    expect(page.locator("#queue-position")).to_have_text("Queued: 2 jobs ahead.")
