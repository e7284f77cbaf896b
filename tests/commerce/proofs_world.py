"""A small poster and a revision of it (one name renamed, one added), made once by the
engine, put in place as finished jobs of a customer: what the proof tests send."""

import shutil
import uuid

import httpx

from tests.names import write_names
from tests.wordclouds.conftest import jobs_root
from wordclouds import engine
from wordclouds.engine.positions import read_words
from wordclouds.models import Job
from wordclouds.selectors import artifact_urls
from wordclouds.services.job_run import finished_artifacts

NAMES = ["Anna Berg", "Chloé Martin", "Dmitri Ivanov", "Émile Roux", "李雷", "韩梅梅"]
PARAMS = {"WIDTH": 480, "HEIGHT": 360, "SEED": 5}
RENAMED, ADDED = "Anna Berger", "Zoë Quinn"


def posters(base):
    """(first layout's folder, revision's folder, the renamed word's id)."""
    first = base / "first"
    engine.generate(
        names_path=write_names(base / "names.xlsx", NAMES), out_dir=first, params=PARAMS
    )
    words = read_words(first / "positions.db", ("id", "name"))
    word = next(w for w in words if w["name"] == NAMES[0])
    revised = base / "revised"
    engine.revise(
        parent_dir=first,
        out_dir=revised,
        edits={"rename": [{"id": word["id"], "name": RENAMED}], "add": [ADDED]},
    )
    return first, revised, word["id"]


def job_from(folder, *, owner: str, parent: Job | None = None) -> Job:
    """The folder as a finished job of `owner` (a revision of `parent` when given)."""
    job_id = uuid.uuid4().hex
    shutil.copytree(folder, jobs_root() / job_id)
    return Job.objects.create(
        id=job_id,
        name_list="names.xlsx",
        status=Job.Status.SUCCESS,
        artifacts=artifact_urls(job_id, finished_artifacts(folder)),
        params=PARAMS,
        owner=owner,
        parent=parent,
        revision=parent.revision + 1 if parent else 0,
    )


def approved_over_http(url: str, job_id: str, headers: dict) -> dict:
    """The finished job sent as a proof by `headers`' caller (its owner or staff) and its
    newest version approved through the link, as a customer would: the decision."""
    sent = httpx.post(f"{url}/api/jobs/{job_id}/proofs", json={}, headers=headers, timeout=30)
    assert sent.status_code == 201, sent.text
    body = {"version": sent.json()["version"], "decision": "approve", "name": "Ms Li",
            "terms_accepted": True}  # fmt: skip
    token = sent.json()["url"].removeprefix("/proofs/")
    decided = httpx.post(f"{url}/api/proofs/{token}/decision", json=body, timeout=30)
    assert decided.status_code == 201, decided.text
    return decided.json()
