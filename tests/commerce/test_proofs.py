"""Proofs through the API, in process, on a real poster and a real revision of it (the
engine's): a job sent as a proof gets an unguessable link; its revision sent after is the
next version, whose changes the proof says by name; comments pin to names or points; the
newest version alone is decided, an approval recording the terms and the files' SHA-256;
every refusal is a 4xx {detail, code} that writes nothing; a revoked link answers 410."""

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from commerce.models import Proof, ProofComment, ProofDecision, ProofVersion
from tests.commerce.proofs_world import ADDED, NAMES, RENAMED, job_from, posters
from tests.wordclouds.conftest import jobs_root
from wordclouds.models import Job
from wordclouds.selectors import artifact_path
from wordclouds.services.retention import jobs_referred_to, retention_run


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    return posters(tmp_path_factory.mktemp("proof-posters"))


@pytest.fixture
def jobs(folders, alice, media_root):
    first, revised, renamed_id = folders
    job = job_from(first, owner=str(alice.user.pk))
    return job, job_from(revised, owner=job.owner, parent=job), renamed_id


def _send(client, job, **body):
    return client.post(f"/api/jobs/{job.id}/proofs", body, format="json")


def _records() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Proof, ProofVersion, ProofComment, ProofDecision))


def test_a_revision_sent_after_is_the_next_version_with_its_changes_by_name(jobs, alice, bob):
    job, revision, renamed_id = jobs
    sent = _send(alice, job, approvals_needed=2, roles=["class teacher", "committee"], note="hi")
    assert sent.status_code == 201, sent.json()
    url, proof_id = sent.json()["url"], sent.json()["proof_id"]
    token = url.removeprefix("/proofs/")
    assert len(token) * 6 >= 128  # URL-safe base64: 6 bits a character
    assert _send(alice, job).json()["code"] == "proof_job_sent"
    for refused in ({"approvals_needed": 2}, {"roles": ["a", "b"]}, {"approvals_needed": 3}):
        assert _send(alice, revision, **refused).json()["code"] == "proof_invalid", refused

    again = _send(alice, revision)
    assert again.status_code == 201
    assert (again.json()["proof_id"], again.json()["url"], again.json()["version"]) == (
        proof_id,
        url,
        2,
    )

    shown = APIClient().get(f"/api/proofs/{token}").json()
    assert [v["version"] for v in shown["versions"]] == [1, 2]
    assert [v["job_id"] for v in shown["versions"]] == [job.id, revision.id]
    assert (shown["approvals_needed"], shown["roles"]) == (2, ["class teacher", "committee"])
    changes = shown["versions"][1]["changes"]
    assert (changes["counts"]["renamed"], changes["counts"]["added"]) == (1, 1)
    assert changes["counts"]["removed"] == 0
    assert changes["counts"]["unchanged"] == len(NAMES) - 1
    assert changes["renamed"] == [{"id": renamed_id, "from": NAMES[0], "name": RENAMED}]
    assert [added["name"] for added in changes["added"]] == [ADDED]
    assert shown["versions"][0]["changes"] == {}
    assert shown["versions"][1]["proof_image"] == f"/api/jobs/{revision.id}/proof.png?inline=1"

    listed = alice.get(f"/api/jobs/{revision.id}/proofs")
    assert [p["proof_id"] for p in listed.json()] == [proof_id]
    assert bob.get(f"/api/jobs/{job.id}/proofs").json()["code"] == "not_owner"
    assert _send(bob, job).json()["code"] == "not_owner"


def test_comments_pin_to_names_and_points_and_only_the_newest_version_is_approved(jobs, alice):
    job, revision, renamed_id = jobs
    token = _send(alice, job).json()["url"].removeprefix("/proofs/")
    anyone = APIClient()
    comments = f"/api/proofs/{token}/comments"
    decision = f"/api/proofs/{token}/decision"
    misspelt = {"version": 1, "word_id": renamed_id, "kind": "misspelt", "text": "typo",
                "spelling": RENAMED}  # fmt: skip
    missing = {"version": 1, "x": 40, "y": 30, "kind": "missing", "text": "add her",
               "spelling": ADDED}  # fmt: skip
    assert anyone.post(comments, misspelt, format="json").status_code == 201
    pinned = anyone.post(comments, missing, format="json")
    assert pinned.status_code == 201 and (pinned.json()["x"], pinned.json()["word_id"]) == (
        40,
        None,
    )
    changes = {"version": 1, "decision": "changes", "name": "Ms Li"}
    assert anyone.post(decision, changes, format="json").status_code == 201

    _send(alice, revision)
    old = {"version": 1, "decision": "approve", "name": "Ms Li", "terms_accepted": True}
    refused = anyone.post(decision, old, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "proof_version_not_newest"

    approved = anyone.post(decision, {**old, "version": 2, "language": "zh-hans"}, format="json")
    assert approved.status_code == 201, approved.json()
    record = ProofDecision.objects.get(pk=approved.json()["id"])
    assert (
        record.svg_sha256
        == hashlib.sha256(artifact_path(revision.id, "svg").read_bytes()).hexdigest()
    )
    assert (
        record.db_sha256
        == hashlib.sha256(artifact_path(revision.id, "db").read_bytes()).hexdigest()
    )
    assert record.client_address == "127.0.0.1" and record.name == "Ms Li"
    english = anyone.get(f"/api/proofs/{token}").json()
    assert record.terms == english["terms"]["zh-hans"] != english["terms"]["en"]
    assert "批准" in record.terms  # in the page's language
    assert [a["version"] for a in english["approvals"]] == [2]
    assert [c["kind"] for c in english["comments"]] == ["misspelt", "missing"]
    again = anyone.post(decision, {**old, "version": 2}, format="json")
    assert again.json()["code"] == "proof_approved"


LONG = "x" * 2000


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("comments", {"version": 1, "word_id": 1, "kind": "other", "text": ""}, 400, "proof_invalid"),
        ("comments", {"version": 1, "word_id": 1, "kind": "other", "text": LONG}, 400, "text_too_long"),
        ("comments", {"version": 1, "word_id": 99999, "kind": "other", "text": "?"}, 400, "proof_word_unknown"),
        ("comments", {"version": 1, "kind": "other", "text": "where?"}, 400, "proof_comment_pin"),
        ("comments", {"version": 1, "word_id": 1, "kind": "misspelt", "text": "?"}, 400, "proof_spelling_missing"),
        ("comments", {"version": 3, "word_id": 1, "kind": "other", "text": "?"}, 400, "proof_version_unknown"),
        ("decision", {"version": 2, "decision": "approve", "name": "Li"}, 400, "proof_terms_not_accepted"),
        ("decision", {"version": 2, "decision": "approve", "terms_accepted": True}, 400, "proof_name_missing"),
        ("decision", {"version": 2, "decision": "changes", "name": "Li"}, 400, "proof_changes_without_comment"),
        ("decision", {"version": 1, "decision": "approve", "name": "Li", "terms_accepted": True}, 409, "proof_version_not_newest"),
        ("decision", {"version": 2, "decision": "maybe"}, 400, "proof_invalid"),
    ],
)  # fmt: skip
def test_each_refusal_names_the_problem_and_writes_nothing(jobs, alice, path, body, status, code):
    job, revision, _ = jobs
    token = _send(alice, job).json()["url"].removeprefix("/proofs/")
    _send(alice, revision)
    before = _records()

    answer = APIClient().post(f"/api/proofs/{token}/{path}", body, format="json")

    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.json()
    assert set(answer.json()) == {"detail", "code"}
    assert _records() == before


def test_a_revoked_or_unknown_link_answers_and_writes_nothing(jobs, alice, bob, staff):
    job, _, renamed_id = jobs
    token = _send(alice, job).json()["url"].removeprefix("/proofs/")
    comment = {"version": 1, "word_id": renamed_id, "kind": "other", "text": "fine"}
    anyone = APIClient()
    assert anyone.delete(f"/api/proofs/{token}").status_code == 401
    assert bob.delete(f"/api/proofs/{token}").json()["code"] == "not_owner"
    assert alice.delete(f"/api/proofs/{token}").status_code == 204
    before = _records()

    for answer in (
        anyone.get(f"/api/proofs/{token}"),
        anyone.post(f"/api/proofs/{token}/comments", comment, format="json"),
        anyone.post(
            f"/api/proofs/{token}/decision",
            {"version": 1, "decision": "approve", "name": "Li", "terms_accepted": True},
            format="json",
        ),  # fmt: skip
        staff.delete(f"/api/proofs/{token}"),
    ):
        assert (answer.status_code, answer.json()["code"]) == (410, "proof_revoked")
    unknown = anyone.get("/api/proofs/" + "A" * 32)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "proof_not_found")
    assert _records() == before
    # the job sent again after its link was revoked: a new proof, a new token
    assert _send(alice, job).json()["url"] != f"/proofs/{token}"


def test_the_comments_become_one_revision_of_the_newest_version(jobs, alice, bob):
    job, _, renamed_id = jobs
    token = _send(alice, job).json()["url"].removeprefix("/proofs/")
    anyone = APIClient()
    comments = f"/api/proofs/{token}/comments"
    for body in (
        {"version": 1, "word_id": renamed_id, "kind": "misspelt", "text": "typo", "spelling": RENAMED},
        {"version": 1, "x": 5, "y": 5, "kind": "missing", "text": "two", "spelling": f"{ADDED}\n Li Ming \n"},
        {"version": 1, "x": 9, "y": 9, "kind": "other", "text": "a logo here?"},
    ):  # fmt: skip
        assert anyone.post(comments, body, format="json").status_code == 201
    assert anyone.post(f"/api/proofs/{token}/revision").status_code == 401
    assert bob.post(f"/api/proofs/{token}/revision").json()["code"] == "not_owner"

    made = alice.post(f"/api/proofs/{token}/revision")

    assert made.status_code == 201, made.json()
    revision = Job.objects.get(id=made.json()["job_id"])
    assert (revision.parent_id, revision.status) == (job.id, Job.Status.QUEUED)
    assert revision.edits["rename"] == [{"id": renamed_id, "name": RENAMED}]
    assert [added["name"] for added in revision.edits["add"]] == [ADDED, "Li Ming"]
    assert revision.edits["remove"] == []


def _approve(token: str, version: int = 1):
    body = {"version": version, "decision": "approve", "name": "Ms Li", "terms_accepted": True}
    return APIClient().post(f"/api/proofs/{token}/decision", body, format="json")


def test_a_job_an_approval_names_stays_until_the_proof_is_revoked(
    folders, alice, media_root, settings
):
    job = job_from(folders[0], owner=str(alice.user.pk))
    sent = _send(alice, job).json()
    token = sent["url"].removeprefix("/proofs/")
    assert _approve(token).status_code == 201

    refused = alice.delete(f"/api/jobs/{job.id}")

    assert refused.status_code == 409
    assert refused.json() == {
        "detail": f"job {job.id} is needed by the approved version 1 of proof "
        f"{sent['proof_id']}; revoke the proof to delete it",
        "code": "job_proof_approved",
    }
    assert (jobs_root() / job.id).is_dir()
    settings.JOB_RETENTION_DAYS = 1
    later = timezone.now() + timedelta(days=30)
    assert job.id in jobs_referred_to() and retention_run(now=later) == []
    assert APIClient().get(f"/api/proofs/{token}").status_code == 200

    assert alice.delete(f"/api/proofs/{token}").status_code == 204
    assert alice.delete(f"/api/jobs/{job.id}").status_code == 204
    assert not Job.objects.filter(id=job.id).exists()


def test_a_merely_sent_proof_answers_410_once_its_job_is_deleted(folders, alice, media_root):
    job = job_from(folders[0], owner=str(alice.user.pk))
    token = _send(alice, job).json()["url"].removeprefix("/proofs/")
    anyone = APIClient()
    asked = anyone.post(
        f"/api/proofs/{token}/comments",
        {"version": 1, "x": 10, "y": 10, "kind": "other", "text": "logo here"},
        format="json",
    )
    assert asked.status_code == 201

    assert alice.delete(f"/api/jobs/{job.id}").status_code == 204

    for answer in (
        anyone.get(f"/api/proofs/{token}"),
        anyone.post(f"/api/proofs/{token}/comments", {"version": 1, "x": 1, "y": 1,
                    "kind": "other", "text": "still there?"}, format="json"),
        _approve(token),
    ):  # fmt: skip
        assert answer.status_code == 410
        assert answer.json() == {
            "detail": "this proof's poster was deleted",
            "code": "proof_job_deleted",
        }
    page = anyone.get(f"/proofs/{token}")
    assert page.status_code == 410 and "Proof withdrawn" in page.content.decode()
