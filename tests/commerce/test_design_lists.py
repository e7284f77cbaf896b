"""Design lists: the owner's CRUD in DRAFT, submit, 403 for another user's list; a list
names only its owner's projects and jobs."""

import pytest

from commerce.models import DesignList
from tests.commerce.factories import make_design_list
from tests.errors import refusal
from wordclouds.models import Job, Project, Template

pytestmark = pytest.mark.django_db


def _project(owner: str = "") -> Project:
    return Project.objects.create(
        name="Poster", template=Template.objects.first(), background_color="#FFFFFF", owner=owner
    )


@pytest.fixture
def project(alice):
    return _project(owner=str(alice.user.pk))


@pytest.fixture
def job(alice):
    return Job.objects.create(name_list="names.xlsx", owner=str(alice.user.pk))


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
def test_another_users_list_is_404_and_unchanged(alice, bob, method, suffix):
    theirs = make_design_list(bob.user)

    response = getattr(alice, method)(
        f"/api/design-lists/{theirs.pk}{suffix}", {"name": "mine now"}, format="json"
    )

    assert response.status_code == 404
    assert refusal(response) == "design list not found"
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


# Another customer's designs, and designs of no one's (made without a token, or by staff):
# (kind, whose). A finished job folder without a record is no one's too (designs_check).
OTHERS = [("projectId", "B"), ("jobId", "B"), ("projectId", "no one"), ("jobId", "no one")]


@pytest.mark.parametrize(("kind", "whose"), OTHERS, ids=[f"{k} of {w}" for k, w in OTHERS])
def test_a_list_naming_a_design_the_customer_does_not_hold_is_refused_as_an_unknown_one(
    alice, bob, kind, whose
):
    owner = str(bob.user.pk) if whose == "B" else ""
    if kind == "projectId":
        design = _project(owner=owner).pk
    else:
        design = Job.objects.create(name_list="names.xlsx", owner=owner).pk
    unknown = "0" * 32
    mine = make_design_list(alice.user)

    def answers(design_id: str) -> list:
        items = [{kind: design_id, "quantity": 1}]
        made = alice.post("/api/design-lists", {"name": "x", "items": items}, format="json")
        edited = alice.patch(f"/api/design-lists/{mine.pk}", {"items": items}, format="json")
        return [(r.status_code, r.json()) for r in (made, edited)]

    # the same answer as for an id that names nothing, the id aside: nothing tells that it exists
    refused = answers(design)
    assert refused == [
        (status, {**body, "detail": body["detail"].replace(unknown, design)})
        for status, body in answers(unknown)
    ]
    assert refused[0] == (
        400,
        {"detail": f"unknown {kind}: {design}", "code": kind[:-2] + "_unknown"},
    )
    # and nothing is made or changed
    assert list(DesignList.objects.values_list("pk", "items")) == [(mine.pk, [])]
    # B names their own: the same design is accepted for its holder
    if whose == "B":
        items = [{kind: design, "quantity": 1}]
        theirs = bob.post("/api/design-lists", {"name": "B's", "items": items}, format="json")
        assert theirs.status_code == 201 and theirs.json()["items"] == items
