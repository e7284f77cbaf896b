"""Design lists: the owner's CRUD in DRAFT, submit, 403 for another user's list."""

import pytest

from commerce.models import DesignList
from tests.commerce.factories import make_design_list
from tests.errors import refusal
from wordclouds.models import Job, Project, Template

pytestmark = pytest.mark.django_db


@pytest.fixture
def project():
    return Project.objects.create(
        name="Poster", template=Template.objects.first(), background_color="#FFFFFF"
    )


@pytest.fixture
def job():
    return Job.objects.create(name_list="names.xlsx")


def test_create_edit_submit(alice, project, job, settings):
    created = alice.post(
        "/api/design-lists",
        {
            "name": "Class of 2026",
            "items": [{"projectId": project.pk, "quantity": 2}],
        },
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    assert (body["name"], body["status"], body["items"]) == (
        "Class of 2026",
        "DRAFT",
        [{"projectId": project.pk, "quantity": 2}],
    )
    assert body["createdAt"].endswith("Z")

    edited = alice.patch(
        f"/api/design-lists/{body['id']}",
        {
            "items": [{"projectId": project.pk, "quantity": 1}, {"jobId": job.pk, "quantity": 30}],
        },
        format="json",
    )
    assert edited.json()["items"] == [
        {"projectId": project.pk, "quantity": 1},
        {"jobId": job.pk, "quantity": 30},
    ]

    # the job has no approved proof (docs/proofs.md): refused, naming it, unless none is needed
    unapproved = alice.post(f"/api/design-lists/{body['id']}/submit")
    assert (unapproved.status_code, unapproved.json()["code"]) == (409, "proof_not_approved")
    assert job.pk in unapproved.json()["detail"]
    assert DesignList.objects.get(pk=body["id"]).status == "DRAFT"
    settings.PROOF_APPROVAL_REQUIRED = False
    submitted = alice.post(f"/api/design-lists/{body['id']}/submit")

    assert submitted.status_code == 200
    assert submitted.json()["status"] == "SUBMITTED"
    assert submitted.json()["submittedAt"].endswith("Z")


def test_a_submitted_list_cannot_be_edited_submitted_again_or_deleted(alice, project):
    design_list = make_design_list(alice.user, DesignList.Status.SUBMITTED)
    url = f"/api/design-lists/{design_list.pk}"

    edit = alice.patch(url, {"name": "renamed"}, format="json")
    submit = alice.post(f"{url}/submit")
    delete = alice.delete(url)

    assert (edit.status_code, submit.status_code, delete.status_code) == (409, 409, 409)
    assert refusal(edit) == "design list cannot be edited in status SUBMITTED"
    assert refusal(submit) == "design list cannot be submitted in status SUBMITTED"
    design_list.refresh_from_db()
    assert (design_list.name, design_list.status) == ("Class of 2026", "SUBMITTED")


def test_an_empty_list_cannot_be_submitted(alice):
    design_list = make_design_list(alice.user)

    response = alice.post(f"/api/design-lists/{design_list.pk}/submit")

    assert response.status_code == 400
    assert refusal(response) == "an empty design list cannot be submitted"


def test_a_draft_can_be_deleted(alice):
    design_list = make_design_list(alice.user)

    assert alice.delete(f"/api/design-lists/{design_list.pk}").status_code == 204
    assert not DesignList.objects.exists()


@pytest.mark.parametrize(
    "items, detail",
    [
        ([{"quantity": 1}], "items[0] needs exactly one of projectId or jobId"),
        (
            [{"projectId": "a", "jobId": "b", "quantity": 1}],
            "items[0] needs exactly one of projectId or jobId",
        ),
        (
            [{"projectId": "PROJECT", "quantity": 0}],
            "items[0].quantity must be an integer from 1 to 999",
        ),
        (
            [{"projectId": "PROJECT", "quantity": 1000}],
            "items[0].quantity must be an integer from 1 to 999",
        ),
        (
            [{"projectId": "PROJECT", "quantity": 1, "price": 1}],
            "items[0] has an unknown field: price",
        ),
        ([{"projectId": "0" * 32, "quantity": 1}], "unknown projectId: " + "0" * 32),
        ([{"jobId": "f" * 32, "quantity": 1}], "unknown jobId: " + "f" * 32),
        ("all", "items must be an array of at most 200 items"),
    ],
)
def test_bad_items_are_400_and_create_nothing(alice, project, items, detail):
    if isinstance(items, list):
        items = [
            {k: project.pk if v == "PROJECT" else v for k, v in item.items()} for item in items
        ]

    response = alice.post("/api/design-lists", {"name": "x", "items": items}, format="json")

    assert response.status_code == 400
    assert refusal(response) == detail
    assert not DesignList.objects.exists()


@pytest.mark.parametrize(
    "method, suffix", [("get", ""), ("patch", ""), ("put", ""), ("delete", ""), ("post", "/submit")]
)
def test_another_users_list_is_403_and_unchanged(alice, bob, method, suffix):
    theirs = make_design_list(bob.user)

    response = getattr(alice, method)(
        f"/api/design-lists/{theirs.pk}{suffix}", {"name": "mine now"}, format="json"
    )

    assert response.status_code == 403
    assert refusal(response) == "design list belongs to another user"
    theirs.refresh_from_db()
    assert (theirs.name, theirs.status) == ("Class of 2026", "DRAFT")


def test_unknown_list_is_404(alice):
    response = alice.get("/api/design-lists/999")

    assert response.status_code == 404
    assert refusal(response) == "design list not found"


def test_users_see_their_own_lists_and_staff_see_all(alice, bob, staff):
    mine = make_design_list(alice.user)
    theirs = make_design_list(bob.user)

    assert [d["id"] for d in alice.get("/api/design-lists").json()] == [mine.pk]
    assert {d["id"] for d in staff.get("/api/design-lists").json()} == {mine.pk, theirs.pk}
    assert staff.get(f"/api/design-lists/{theirs.pk}").status_code == 200
