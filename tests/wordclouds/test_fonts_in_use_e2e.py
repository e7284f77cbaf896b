"""A font deleted while a job waits for it cannot reach the print file, with the real web
process and worker: the deletion answers 409 naming the queued job, the worker then draws the
job with that font, and the job's print PDF is made."""

import json
import sqlite3

import httpx
import pytest
from django.conf import settings

from core.admin_token import admin_token_issue
from tests.names import sample_names
from tests.processes import Service
from tests.wordclouds.conftest import SMALL_PARAMS

pytestmark = [pytest.mark.e2e, pytest.mark.backend]


def test_a_font_a_queued_job_uses_stays_and_draws_the_print_file(
    tmp_path, database_template, names_xlsx, tiny_font
):
    service = Service(tmp_path, database_template, SECRET_KEY=settings.SECRET_KEY)
    service.start(worker=False)  # the job waits in the queue
    try:
        staff = {"Authorization": f"Bearer {admin_token_issue()}"}
        font = httpx.post(
            f"{service.url}/api/fonts",
            files={"file": ("class.ttf", tiny_font(family="Class Sans").read_bytes())},
            headers=staff,
            timeout=60,
        ).json()["id"]
        with names_xlsx(sample_names(12)).open("rb") as names:
            job = httpx.post(
                f"{service.url}/api/jobs",
                files={"name_list": names},
                data={"params": json.dumps(SMALL_PARAMS), "font_id": font},
                headers=staff,
                timeout=60,
            ).json()["job_id"]

        deleted = httpx.delete(f"{service.url}/api/fonts/{font}", headers=staff, timeout=30)
        service.start_worker()
        service.finished(job)
        pdf = httpx.get(
            f"{service.url}/api/jobs/{job}/files/pdf?width_mm=100",
            headers=staff,
            timeout=120,
            follow_redirects=True,
        )
        positions = httpx.get(
            f"{service.url}/api/jobs/{job}/files/db", timeout=30, follow_redirects=True
        ).content
    finally:
        service.stop()

    assert deleted.status_code == 409
    assert deleted.json() == {
        "detail": f"font is used by job {job} (queued)",
        "code": "font_in_use",
    }
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    with sqlite3.connect(":memory:") as connection:
        connection.deserialize(positions)
        meta = dict(connection.execute("SELECT key, value FROM meta"))
    assert meta["font_family"] == "Class Sans"
