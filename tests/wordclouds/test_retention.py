"""Retention (docs/deploy.md, "Retention"): with the clock past JOB_RETENTION_DAYS, a job
nobody refers to goes with every file (the store lists nothing under it), its events and
placements; a job kept by staff, named by a design list, made into an asset staff mark as
keeping it, or revised stays (an import alone keeps nothing: it holds its own copy); a design
list made between the listing and the deletion is seen, under the job's lock;
a run that stops half-way leaves nothing shown without its files and the next run finishes
it; --dry-run deletes nothing."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from commerce.models import DesignList, EndUser
from commerce.services.design_lists import design_list_create
from wordclouds import storage
from wordclouds.models import Asset, Job, JobEvent, PlacementSet
from wordclouds.services import retention
from wordclouds.services.retention import job_keys, retention_plan, retention_run

pytestmark = pytest.mark.django_db(transaction=True)
# The clock moved past the retention for the test's own jobs: they are made 400 days old
# (the run must not touch other tests' jobs, which may share the database).
AGO = timedelta(days=400)


def aged(*job_ids):
    Job.objects.filter(id__in=job_ids).update(created_at=timezone.now() - AGO)


def test_an_old_job_nobody_refers_to_goes_with_all_its_files(finished_job, api):
    gone, kept, listed, revised, copied, imported = (finished_job() for _ in range(6))
    Job.objects.filter(id=kept).update(keep=True)
    user = EndUser.objects.create(openid="o-retention")
    DesignList.objects.create(user=user, name="ours", items=[{"jobId": listed, "quantity": 1}])
    Job.objects.create(parent_id=revised, revision=1, name_list="", status="failed", keep=True)
    for job_id, keeps_job in ((copied, True), (imported, False)):
        Asset.objects.create(
            job_id=job_id,
            keeps_job=keeps_job,
            filename="a.png",
            file="assets/a.png",
            content_type="image/png",
            size=1,
            sha256="0",
        )
    assert job_keys(gone) and PlacementSet.objects.filter(job_id=gone).exists()

    assert gone not in retention_run()  # nothing of these is old yet
    aged(gone, kept, listed, revised, copied, imported)
    assert sorted(retention_run()) == sorted([gone, imported])

    assert not Job.objects.filter(id=gone).exists() and job_keys(gone) == []
    assert not JobEvent.objects.filter(job_id=gone).exists()
    assert not PlacementSet.objects.filter(job_id=gone).exists()
    assert api.get(f"/api/jobs/{gone}").status_code == 404
    for job_id in (kept, listed, revised, copied):
        assert api.get(f"/api/jobs/{job_id}").json()["status"] == "success"
        assert job_keys(job_id)
    assert retention_run() == []  # idempotent: the next run finds nothing


def test_a_design_list_made_after_the_listing_keeps_its_job(finished_job, monkeypatch):
    job_id = finished_job()
    aged(job_id)
    user = EndUser.objects.create(openid="o-late")
    Job.objects.filter(id=job_id).update(owner=str(user.pk))  # theirs: a list names its own
    listed = retention.jobs_expired

    def listed_then_named(**kwargs):
        expired = listed(**kwargs)
        design_list_create(user=user, name="late", items=[{"jobId": job_id, "quantity": 1}])
        return expired

    monkeypatch.setattr(retention, "jobs_expired", listed_then_named)

    assert retention_run() == []
    assert Job.objects.filter(id=job_id, deleting=False).exists() and job_keys(job_id)


def test_a_run_stopped_half_way_is_finished_by_the_next(finished_job, api, monkeypatch):
    job_id = finished_job()
    aged(job_id)
    keys = job_keys(job_id)
    files = storage.files(worker=True)
    real_delete = files.delete
    calls = []

    def crash_on_the_third(key):
        calls.append(key)
        if len(calls) == 3:
            raise RuntimeError("the worker was killed")
        real_delete(key)

    monkeypatch.setattr(files, "delete", crash_on_the_third)
    with pytest.raises(RuntimeError):
        retention_run()
    monkeypatch.setattr(files, "delete", real_delete)

    # half-way: files partly gone, the job hidden (404), never shown without its files
    assert 0 < len(job_keys(job_id)) < len(keys)
    assert Job.objects.get(id=job_id).deleting
    assert api.get(f"/api/jobs/{job_id}").status_code == 404
    assert job_id not in [job["job_id"] for job in api.get("/api/jobs").json()]

    Job.objects.filter(id=job_id).update(created_at=timezone.now())
    assert retention_run() == [job_id]  # a marked job goes whatever its age
    assert job_keys(job_id) == [] and not Job.objects.filter(id=job_id).exists()


def test_a_dry_run_lists_what_would_go_and_deletes_nothing(finished_job, capsys, settings):
    job_id = finished_job()
    aged(job_id)

    call_command("retention", "--dry-run")

    out = capsys.readouterr().out
    plan = retention_plan()
    assert [entry["job_id"] for entry in plan] == [job_id] and plan[0]["bytes"] > 0
    assert job_id in out and f"{plan[0]['bytes']:,} bytes" in out
    assert Job.objects.filter(id=job_id).exists() and job_keys(job_id)
    settings.JOB_RETENTION_DAYS = 0  # keep forever
    assert retention_plan() == []
