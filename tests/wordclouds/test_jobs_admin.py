"""The jobs admin: read-only status and events, and a re-run action through the service."""

import pytest
from django.contrib.auth.models import User

from wordclouds.models import Job

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw"))
    return client


def test_a_job_page_shows_status_and_events_read_only(staff, finished_job):
    job_id = finished_job()

    page = staff.get(f"/admin/wordclouds/job/{job_id}/change/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "job finished" in html and "job queued" in html and "success" in html
    assert 'name="_save"' not in html
    assert (
        staff.post(f"/admin/wordclouds/job/{job_id}/change/", {"status": "queued"}).status_code
        == 403
    )
    assert Job.objects.get(id=job_id).status == "success"
    assert staff.get("/admin/wordclouds/job/add/").status_code == 403


def test_rerun_creates_a_new_queued_job_from_the_same_inputs(
    staff, finished_job, media_root, django_capture_on_commit_callbacks
):
    job_id = finished_job()
    original = Job.objects.get(id=job_id)

    with django_capture_on_commit_callbacks() as callbacks:
        response = staff.post(
            "/admin/wordclouds/job/", {"action": "rerun", "_selected_action": [job_id]}, follow=True
        )

    assert response.status_code == 200
    new_job = Job.objects.exclude(id=job_id).get()
    assert f"Job {job_id} re-run as {new_job.id}" in response.content.decode()
    assert (new_job.status, new_job.params, new_job.name_list) == (
        "queued",
        original.params,
        original.name_list,
    )
    inputs = media_root / "jobs"
    assert (inputs / new_job.id / "input" / "names.xlsx").read_bytes() == (
        inputs / job_id / "input" / "names.xlsx"
    ).read_bytes()
    assert callbacks  # the run is enqueued once the new job is committed


def test_a_job_page_shows_the_poster_the_artifacts_and_the_studio_link(staff, finished_job):
    job_id = finished_job()

    html = staff.get(f"/admin/wordclouds/job/{job_id}/change/").content.decode()

    assert f'<img src="/api/jobs/{job_id}/files/png?inline=1"' in html
    for kind in ("png", "svg", "svg_stroke", "db", "metrics"):
        assert f'<a href="/api/jobs/{job_id}/files/{kind}">{kind}</a>' in html
    assert f'<a href="/api/jobs/{job_id}/files/svg?inline=1" target="_blank">view</a>' in html
    assert f'<a href="/?job={job_id}"' in html
    assert "event log" in html.lower()


def test_the_job_list_is_filtered_by_status_and_searched(staff, finished_job):
    job_id = finished_job()

    listed = staff.get("/admin/wordclouds/job/?status__exact=success").content.decode()
    searched = staff.get(f"/admin/wordclouds/job/?q={job_id[:10]}").content.decode()
    none = staff.get("/admin/wordclouds/job/?status__exact=failed").content.decode()

    assert job_id in listed and job_id in searched and job_id not in none
    assert f'<img src="/api/jobs/{job_id}/files/png?inline=1"' in listed


def test_a_job_page_shows_its_parent_and_its_revisions(staff, finished_job):
    parent = Job.objects.get(id=finished_job())
    child = Job.objects.create(
        parent=parent, revision=1, name_list="", edits={"remove": [1]}, status="success"
    )

    parent_page = staff.get(f"/admin/wordclouds/job/{parent.id}/change/").content.decode()
    child_page = staff.get(f"/admin/wordclouds/job/{child.id}/change/").content.decode()

    assert f'href="../../{child.id}/change/"' in parent_page and "revision 1" in parent_page
    assert f'href="../../{parent.id}/change/"' in child_page
    assert "&quot;remove&quot;" in child_page
    refused = staff.post(
        "/admin/wordclouds/job/",
        {"action": "rerun", "_selected_action": [child.id]},
        follow=True,
    )
    assert "a revision is not run again" in refused.content.decode()
    assert Job.objects.count() == 2
