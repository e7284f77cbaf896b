"""Reading jobs: the list, status, detail, result and downloads, for jobs with a record and
for finished job folders without one."""

import os
import re
import sqlite3
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.errors import refusal
from wordclouds.models import Job

pytestmark = pytest.mark.django_db
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
KINDS = {
    "png": ("image/png", "png"),
    "svg": ("image/svg+xml", "svg"),
    "svg_stroke": ("image/svg+xml", "svg"),
    "db": ("application/vnd.sqlite3", "db"),
    "metrics": ("application/json", "json"),
}


def test_list_is_newest_first_and_includes_finished_folders_without_a_record(
    api, finished_job, finished_job_dir, queued_job, media_root
):
    old_folder = finished_job_dir()
    an_hour_ago = time.time() - 3600
    os.utime(media_root / "jobs" / old_folder / "positions.db", (an_hour_ago, an_hour_ago))
    done = finished_job()
    waiting = queued_job()

    body = api.get("/api/jobs").json()

    assert [job["job_id"] for job in body] == [waiting, done, old_folder]
    assert [job["status"] for job in body] == ["queued", "success", "success"]
    folder_job = body[2]
    assert folder_job["progress_percent"] == 100 and folder_job["error"] == ""
    assert set(folder_job["artifacts"]) == set(KINDS)
    assert ISO_UTC.match(folder_job["created_at"])
    assert folder_job["created_at"].startswith(
        time.strftime("%Y-%m-%dT%H:%M", time.gmtime(an_hour_ago))
    )


def test_list_filters_by_status_and_limits(api, finished_job, finished_job_dir, queued_job):
    finished_job_dir()
    queued = [queued_job() for _ in range(3)]

    assert [j["job_id"] for j in api.get("/api/jobs?status=queued&limit=2").json()] == queued[::-1][
        :2
    ]
    assert {j["status"] for j in api.get("/api/jobs?status=success").json()} == {"success"}
    assert api.get("/api/jobs?status=running").json() == []
    assert len(api.get("/api/jobs?limit=1").json()) == 1


STATUS_REFUSED = "status must be one of queued, running, success, failed"
LIMIT_REFUSED = "limit must be an integer from 1 to 1000"


@pytest.mark.parametrize(
    ("query", "sentence"),
    [
        ("status=done", STATUS_REFUSED),
        ("limit=0", LIMIT_REFUSED),
        ("limit=1001", LIMIT_REFUSED),
        ("limit=x", LIMIT_REFUSED),
        ("limit=2.5", LIMIT_REFUSED),
    ],
)
def test_bad_list_filters_are_400(api, query, sentence):
    response = api.get(f"/api/jobs?{query}")

    assert response.status_code == 400
    assert response.json() == {"detail": sentence, "code": "invalid_field"}


@pytest.mark.parametrize("path", ["", "/detail", "/result", "/files/png"])
@pytest.mark.parametrize("job_id", ["0" * 32, "not-a-job"])
def test_an_unknown_job_is_404_everywhere(api, path, job_id):
    response = api.get(f"/api/jobs/{job_id}{path}")

    assert (response.status_code, refusal(response)) == (404, "job not found")


def test_a_finished_job_shows_every_artifact_and_its_result_links(api, finished_job):
    job_id = finished_job()

    status = api.get(f"/api/jobs/{job_id}").json()
    result = api.get(f"/api/jobs/{job_id}/result").json()

    assert (status["status"], status["stage"], status["progress_percent"]) == (
        "success",
        "done",
        100,
    )
    assert status["artifacts"] == {kind: f"/api/jobs/{job_id}/files/{kind}" for kind in KINDS}
    assert result == {
        "job_id": job_id,
        "status": "success",
        "image_url": f"/api/jobs/{job_id}/files/png",
        "svg_url": f"/api/jobs/{job_id}/files/svg",
        "svg_stroke_url": f"/api/jobs/{job_id}/files/svg_stroke",
        "db_url": f"/api/jobs/{job_id}/files/db",
        "metrics_url": f"/api/jobs/{job_id}/files/metrics",
    }


@pytest.mark.parametrize("with_record", [True, False])
def test_downloads_carry_content_type_and_attachment_name(
    api, finished_job, finished_job_dir, media_root, with_record
):
    job_id = finished_job() if with_record else finished_job_dir()

    for kind, (content_type, extension) in KINDS.items():
        response = api.get(f"/api/jobs/{job_id}/files/{kind}")

        assert response.status_code == 200
        assert response["Content-Type"] == content_type
        assert (
            response["Content-Disposition"]
            == f'attachment; filename="wordcloud-{job_id}.{extension}"'
        )
        body = b"".join(response.streaming_content)
        assert body == (media_root / "jobs" / job_id / _file_name(kind)).read_bytes()
    db = media_root / "jobs" / job_id / "positions.db"
    assert sqlite3.connect(db).execute("select count(*) from words").fetchone()[0] >= 12


def _file_name(kind):
    from wordclouds.selectors import ARTIFACTS

    return ARTIFACTS[kind][0]


def test_download_404s_say_which(api, queued_job, finished_job):
    waiting, done = queued_job(), finished_job()

    assert refusal(api.get(f"/api/jobs/{done}/files/tiff")) == "unknown artifact kind"
    assert refusal(api.get(f"/api/jobs/{waiting}/files/png")) == "artifact not ready"
    assert api.get(f"/api/jobs/{waiting}/files/tiff").status_code == 404


def test_a_file_on_disk_is_not_served_before_the_job_lists_it(api, queued_job, media_root):
    job_id = queued_job()
    (media_root / "jobs" / job_id / "wordcloud.png").write_bytes(b"half written")

    response = api.get(f"/api/jobs/{job_id}/files/png")

    assert (response.status_code, refusal(response)) == (404, "artifact not ready")


def test_detail_has_the_status_and_the_last_50_events_oldest_first(api, finished_job):
    job_id = finished_job()
    events = list(Job.objects.get(id=job_id).events.order_by("seq"))

    body = api.get(f"/api/jobs/{job_id}/detail").json()

    assert body["status"]["job_id"] == job_id
    recent = body["recent_events"]
    assert [event["id"] for event in recent] == [event.seq for event in events][-50:]
    assert set(recent[0]) == {"id", "type", "stage", "progress_percent", "message", "timestamp"}
    assert all(ISO_UTC.match(event["timestamp"]) for event in recent)
    assert recent[-1]["type"] == "status" and recent[-1]["stage"] == "done"


def test_detail_keeps_only_the_last_50_events(api, queued_job):
    from wordclouds.services.jobs import job_progress, job_start

    job_id = queued_job()
    job_start(job_id=job_id, worker_pid=1)
    for step in range(60):
        job_progress(
            job_id=job_id, stage="placing_words", percent=step, message=f"step {step}", artifacts=[]
        )

    recent = api.get(f"/api/jobs/{job_id}/detail").json()["recent_events"]

    assert [event["id"] for event in recent] == list(range(13, 63))
    assert recent[-1]["message"] == "step 59" and recent[-1]["progress_percent"] == 59


def test_a_finished_folder_without_record_answers_status_detail_and_result(api, finished_job_dir):
    job_id = finished_job_dir()

    status = api.get(f"/api/jobs/{job_id}").json()
    detail = api.get(f"/api/jobs/{job_id}/detail").json()
    result = api.get(f"/api/jobs/{job_id}/result").json()

    assert (status["status"], status["stage"], status["progress_percent"]) == (
        "success",
        "done",
        100,
    )
    assert detail == {"status": status, "recent_events": []}
    assert (result["status"], result["db_url"]) == ("success", f"/api/jobs/{job_id}/files/db")


def test_a_queued_job_says_to_anyone_how_many_queued_jobs_wait_ahead_of_it(db):
    # queued jobs of anyone's (a customer's, no one's), a running one, one being erased and a
    # finished one, made a second apart: only the queued ones ahead count
    anyone = APIClient()
    start = timezone.now() - timedelta(minutes=1)
    made = []
    for number, fields in enumerate(
        [{"owner": "7"}, {}, {"status": "running"}, {"deleting": True}, {}, {"status": "success"}]
    ):
        job = Job.objects.create(name_list=f"{number}.xlsx", **fields)
        Job.objects.filter(pk=job.pk).update(created_at=start + timedelta(seconds=number))
        made.append(job)
    first, second, _, _, third, done = made

    def position(job: Job):
        answer = anyone.get(f"/api/jobs/{job.pk}")
        assert answer.status_code == 200
        return answer.json()["queue_position"]

    assert [position(job) for job in (first, second, third, done)] == [0, 1, 2, None]
    # a job that starts leaves the queue: the ones behind it move up
    Job.objects.filter(pk=first.pk).update(status=Job.Status.RUNNING)
    assert [position(job) for job in (first, second, third)] == [None, 0, 1]
