"""A font cannot be pulled from under what uses it: while a queued or running job, or a job a
design list or an order names, uses it, DELETE /api/fonts/{id} answers 409 naming the job, and
the job is drawn with it; once nothing needs it, it goes."""

from django.core.files.uploadedfile import SimpleUploadedFile

from commerce.models import EndUser
from commerce.services.design_lists import design_list_create, design_list_delete
from core.admin_token import admin_token_issue
from tests.commerce.factories import client_with
from tests.errors import refusal
from wordclouds import engine
from wordclouds.models import Font, Job
from wordclouds.selectors import artifact_path
from wordclouds.tasks import job_run


def test_a_font_in_use_stays_until_nothing_needs_it(queued_job, tiny_font):
    staff = client_with(admin_token_issue())
    path = tiny_font(family="Class Sans")
    uploaded = staff.post(
        "/api/fonts",
        {"file": SimpleUploadedFile("class.ttf", path.read_bytes())},
        format="multipart",
    )
    font_id = uploaded.json()["id"]
    job_id = queued_job(font_id=font_id)

    queued = staff.delete(f"/api/fonts/{font_id}")
    job_run(job_id)

    assert queued.status_code == 409
    assert queued.json()["code"] == "font_in_use"
    assert refusal(queued) == f"font is used by job {job_id} (queued)"
    assert Job.objects.get(id=job_id).status == "success"
    meta = engine.read_meta(artifact_path(job_id, "db"))
    assert meta["font_family"] == "Class Sans"

    user = EndUser.objects.create(openid="openid-carol")
    Job.objects.filter(id=job_id).update(owner=str(user.pk))  # carol's: a list names her own
    design_list = design_list_create(
        user=user, name="Class", items=[{"jobId": job_id, "quantity": 1}]
    )
    ordered = staff.delete(f"/api/fonts/{font_id}")
    assert ordered.status_code == 409
    assert refusal(ordered) == f"font is used by job {job_id} (in a design list or an order)"

    design_list_delete(user=user, design_list_id=design_list.pk)
    assert staff.delete(f"/api/fonts/{font_id}").status_code == 204
    assert not Font.objects.filter(id=font_id).exists()
