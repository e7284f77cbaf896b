"""Whose a job is (docs/security.md): made with a customer's token it is theirs, listed to
them alone, revised and deleted by them or staff; made without one (the README's curl) it is
anyone's to read and staff's to change. DELETE erases it with its revisions and files, unless
an order needs it."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from commerce.models import DesignList, Order
from tests.commerce.conftest import alice, bob  # noqa: F401  (fixtures: two customers)
from tests.commerce.factories import make_design_list, make_order
from tests.names import sample_names
from tests.wordclouds.conftest import SMALL_PARAMS, jobs_root
from wordclouds.models import Job
from wordclouds.services.job_run import job_execute
from wordclouds.services.retention import job_keys


def created(client, names_xlsx, django_capture_on_commit_callbacks) -> str:
    upload = names_xlsx(sample_names(12)).read_bytes()
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            "/api/jobs",
            {
                "name_list": SimpleUploadedFile("names.xlsx", upload),
                "params": json.dumps(SMALL_PARAMS),
            },
        )
    assert response.status_code == 201, response.content
    job_id = response.json()["job_id"]
    job_execute(job_id=job_id)
    return job_id


@pytest.fixture
def make(names_xlsx, django_capture_on_commit_callbacks, media_root):
    return lambda client: created(client, names_xlsx, django_capture_on_commit_callbacks)


def test_a_job_made_without_a_token_is_anyones_to_read_and_staffs_to_change(
    make, anonymous, alice, api
):
    job_id = make(anonymous)

    assert Job.objects.get(id=job_id).owner == ""
    assert anonymous.get(f"/api/jobs/{job_id}").json()["status"] == "success"
    assert anonymous.get("/api/jobs").status_code == 401
    refused = alice.delete(f"/api/jobs/{job_id}")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_owner")
    assert [job["job_id"] for job in api.get("/api/jobs").json()] == [job_id]


def test_a_customers_job_is_theirs_alone_to_list_revise_and_delete(make, alice, bob, api):
    job_id = make(alice)
    revised = alice.post(f"/api/jobs/{job_id}/revisions", {"remove": [1]}, format="json")
    by_bob = bob.post(f"/api/jobs/{job_id}/revisions", {"remove": [1]}, format="json")

    assert Job.objects.get(id=job_id).owner == str(alice.user.pk)
    assert revised.status_code == 201
    assert Job.objects.get(id=revised.json()["job_id"]).owner == str(alice.user.pk)
    assert (by_bob.status_code, by_bob.json()["code"]) == (403, "not_owner")
    assert {job["job_id"] for job in alice.get("/api/jobs").json()} == {
        job_id,
        revised.json()["job_id"],
    }
    assert bob.get("/api/jobs").json() == []
    assert bob.delete(f"/api/jobs/{job_id}").status_code == 403
    assert len(api.get("/api/jobs").json()) == 2


def test_delete_erases_the_job_its_revisions_and_their_files(make, alice):
    job_id = make(alice)
    revision = Job.objects.create(
        name_list="",
        parent_id=job_id,
        revision=1,
        status=Job.Status.FAILED,
        owner=str(alice.user.pk),
    )
    assert (jobs_root() / job_id).is_dir()

    answer = alice.delete(f"/api/jobs/{job_id}")

    assert answer.status_code == 204
    assert not Job.objects.filter(id__in=[job_id, revision.id]).exists()
    assert job_keys(job_id, worker=False) == []  # every file gone
    assert alice.get(f"/api/jobs/{job_id}").status_code == 404


def test_a_job_an_order_needs_is_not_deleted_and_the_order_is_named(make, alice, api):
    job_id = make(alice)
    design_list = make_design_list(alice.user, DesignList.Status.PROCESSING)
    DesignList.objects.filter(pk=design_list.pk).update(items=[{"jobId": job_id, "quantity": 1}])
    order = make_order(alice.user, design_list=design_list)

    refused = api.delete(f"/api/jobs/{job_id}")

    assert (refused.status_code, refused.json()["code"]) == (409, "job_in_order")
    assert f"order {order.pk}" in refused.json()["detail"]
    assert Job.objects.filter(id=job_id).exists() and (jobs_root() / job_id).is_dir()
    Order.objects.filter(pk=order.pk).update(status=Order.Status.CANCELLED)
    assert api.delete(f"/api/jobs/{job_id}").status_code == 204


def test_an_unfinished_job_is_not_deleted(db, alice):
    job = Job.objects.create(name_list="names.xlsx", owner=str(alice.user.pk))

    refused = alice.delete(f"/api/jobs/{job.id}")

    assert (refused.status_code, refused.json()["code"]) == (409, "job_not_finished")
