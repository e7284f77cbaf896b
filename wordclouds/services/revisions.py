"""Revisions: a finished poster corrected without a new layout (docs/engine.md,
"Revisions"). A revision is a job of its own, queued and run by the worker like any, whose
inputs are its parent's artifacts, its parent's mask and font, and its checked edits."""

import dataclasses
import json
from pathlib import Path

from django.core.files.uploadedfile import UploadedFile

from core.errors import Conflict, InvalidInput, NotFound
from core.identity import Identity
from core.inputs import Form, JsonText
from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.engine.positions import PLACED_COLUMNS, read_words
from wordclouds.engine.revision.edits import EDITS, read_edits
from wordclouds.models import Job
from wordclouds.selectors import ARTIFACTS, artifact_key, artifact_path, job_key
from wordclouds.services.job_inputs import (
    JOB_FORM,
    NAME_LIST_FILE,
    JobInputs,
    _engine_call,
    _save,
    font_id_path,
    names_read,
)
from wordclouds.services.jobs import (
    _job_store,
    job_client_check,
    job_input_key,
    job_mask_font_path,
    job_owner_check,
)

PROOF_KEY = engine.PROOF
# What a revision's list shows of each change: counts.
CHANGE_KINDS = ("added", "removed", "renamed", "moved", "resized", "recolored", "displaced")
# Revisions of one first layout shown at most (GET …/revisions).
MAX_LISTED = 500


# The multipart form of POST /api/jobs/{id}/revisions (its JSON body is the edits alone).
REVISION_FORM = Form(
    (
        JsonText(
            "edits",
            "the edits, as a JSON object's text (docs/engine.md, Revisions)",
            code="edits_invalid",
            required="yes",
            missing="edits is required",
            missing_code="edits_invalid",
            not_json_code="edits_not_json",
            not_object="the edits must be a JSON object",
            keys=EDITS.schema,
        ),
        dataclasses.replace(
            JOB_FORM["name_list"],
            description="a list whose names are added, read as the poster's own was",
            required="no",
            missing="",
            missing_code="",
        ),
    )
)


def revision_create(
    *,
    parent_id: str,
    edits,
    caller: Identity,
    name_list: UploadedFile | None = None,
    client: str | None = None,
) -> Job:
    """A queued revision of the successful job ``parent_id``, its owner's like the parent,
    asked for by ``client`` (as job_create's): the edits (a JSON object, or its text from a
    multipart form) checked against the parent's files, the names of ``name_list`` added. 404
    for an unknown parent, 403 unless ``caller`` owns it or is staff, 409 for one not
    finished, 400 naming the problem, 429 past the client's queued jobs; nothing is stored on
    a refusal."""
    parent = Job.objects.filter(id=parent_id).first()
    if parent is None:
        raise NotFound("job not found", code="job_not_found")
    job_owner_check(caller, parent)
    if parent.status != Job.Status.SUCCESS:
        raise Conflict(
            f"only a finished poster can be revised; this job is {parent.status}",
            code="parent_not_success",
        )
    if isinstance(edits, str):
        edits = REVISION_FORM["edits"].parse(edits)
    # the edits' shape (types, bounds, unknown keys) answers before any file is fetched
    _engine_call(read_edits, edits, code="edits_invalid")
    if name_list is not None:
        REVISION_FORM["name_list"].parse(name_list)
    queued = job_client_check(client=client)
    with storage.scratch_dir("revision-") as staging:
        if name_list is not None:
            names_path = _save(name_list, staging / NAME_LIST_FILE)
        folder = staging / "parent"
        for kind in ("db", "metrics"):
            storage.fetch(artifact_key(parent.id, kind), folder / ARTIFACTS[kind][0])
        for name in (parent.mask_image, parent.font_file):
            if name:
                storage.fetch(job_input_key(parent.id, name), staging / name)
        mask_path = staging / parent.mask_image if parent.mask_image else None
        font_path = staging / parent.font_file if parent.font_file else _font(parent)
        clean = run_heavy(
            "checking the revision",
            _checked,
            edits,
            # read here, not in the forked child: a child must not open SQLite
            # (core/isolated.py, _forked)
            engine.Parent(folder),
            (mask_path, job_mask_font_path(parent)),
            font_path,
            names_path if name_list is not None else None,
        )
        inputs = JobInputs(
            params=parent.params,
            name_list="",
            mask_image=parent.mask_image,
            font_file=parent.font_file,
            font_id=parent.font_id,
        )
        return _job_store(
            inputs,
            staging,
            owner=parent.owner,
            client=queued,
            parent=parent,
            revision=parent.revision + 1,
            edits=clean,
        )


def _font(parent: Job) -> Path | None:
    return font_id_path(parent.font_id) if parent.font_id else None


def _checked(edits: dict, parent: engine.Parent, mask_files, font_path, names_path) -> dict:
    """The edits checked by the engine against the ``parent``'s files, with the names of the
    uploaded list added (``mask_files``: the parent's mask image and its MASK_FONT_ID's
    file, either None)."""
    mask_path, mask_font_path = mask_files
    if names_path is not None:
        names = names_read(names_path, parent.params)
        added = [{"name": name.text, "weight": name.weight} for name in names]
        edits = {**edits, "add": [*edits.get("add", []), *added]}
    try:
        return engine.check_edits(
            edits,
            parent=parent,
            mask_path=mask_path,
            font_path=font_path,
            mask_font_path=mask_font_path,
        )
    except engine.InputError as error:
        raise InvalidInput(str(error), code="edits_invalid") from None


def revision_run(job: Job, work: Path, font_path, progress) -> Path:
    """The worker's part: the parent's artifacts fetched, the revision written into
    ``work/out``; returns that folder."""
    parent_dir = work / "parent"
    for kind, (name, _, _) in ARTIFACTS.items():
        storage.fetch(artifact_key(job.parent_id, kind), parent_dir / name, worker=True)
    try:  # the words' ink, so they are not drawn again: none kept for an older parent
        storage.fetch(job_key(job.parent_id, engine.INKS), parent_dir / engine.INKS, worker=True)
    except FileNotFoundError:
        pass
    out_dir = work / "out"
    engine.revise(
        parent_dir=parent_dir,
        out_dir=out_dir,
        edits=job.edits,
        mask_path=work / "input" / job.mask_image if job.mask_image else None,
        font_path=font_path,
        progress=progress,
        parent_id=job.parent_id,
        mask_font_path=job_mask_font_path(job, worker=True),
    )
    return out_dir


def revision_chain(*, job_id: str) -> list[dict]:
    """Every revision of the first layout ``job_id`` descends from (itself included), oldest
    first: job id, revision number, status, creation time and change counts."""
    job = Job.objects.filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found", code="job_not_found")
    while job.parent_id is not None:
        job = Job.objects.get(id=job.parent_id)
    family, level = [job], [job.id]
    while level and len(family) < MAX_LISTED:
        children = list(Job.objects.filter(parent_id__in=level).order_by("created_at"))
        family += children
        level = [child.id for child in children]
    family.sort(key=lambda member: (member.created_at, member.revision))
    return [
        {
            "job_id": member.id,
            "parent_job_id": member.parent_id,
            "revision": member.revision,
            "status": member.status,
            "created_at": member.created_at,
            "changes": _change_counts(member),
        }
        for member in family[:MAX_LISTED]
    ]


def _change_counts(job: Job) -> dict:
    if job.parent_id is None or job.status != Job.Status.SUCCESS:
        return {}
    try:
        metrics = json.loads(artifact_path(job.id, "metrics").read_text(encoding="utf-8"))
    except (NotFound, ValueError):
        return {}
    changes = metrics.get("changes", {})
    counts = {kind: len(changes.get(kind, [])) for kind in CHANGE_KINDS}
    counts["unchanged"] = changes.get("unchanged", 0)
    return counts


def proof_key(*, job_id: str) -> str:
    """The stored proof of a job: a revision's proof.png with its changes outlined, a first
    layout's poster (nothing of it changed). 404 for an unknown or unfinished job."""
    job = Job.objects.filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found", code="job_not_found")
    if job.status != Job.Status.SUCCESS:
        raise NotFound("artifact not ready", code="artifact_not_ready")
    return job_key(job.id, PROOF_KEY) if job.parent_id else artifact_key(job.id, "png")


def revision_changes(*, job_id: str) -> dict:
    """What a finished revision changed since its parent, by name: the metrics' counts
    (`counts`, `unchanged` among them) and, for each kind, its words as `{id, name}` (a
    renamed one with its old name `from`; a removed one by its name in the parent). {} for
    a first layout."""
    job = Job.objects.get(id=job_id)
    counts = _change_counts(job)
    if not counts:
        return {}
    changes = json.loads(artifact_path(job.id, "metrics").read_text(encoding="utf-8"))["changes"]
    now, before = _names(job.id), _names(job.parent_id)
    named = {
        kind: [{"id": i, "name": now.get(i, before.get(i, ""))} for i in changes.get(kind, [])]
        for kind in CHANGE_KINDS
    }
    named["removed"] = [{"id": i, "name": before.get(i, "")} for i in changes.get("removed", [])]
    named["renamed"] = [
        {"id": i, "from": before.get(i, ""), "name": now.get(i, "")}
        for i in changes.get("renamed", [])
    ]
    return {"counts": counts, **named}


def _names(job_id: str) -> dict[int, str]:
    """A finished job's names by word id ({} when its files are gone)."""
    try:
        return {
            word["id"]: word["name"]
            for word in read_words(artifact_path(job_id, "db"), ("id", "name"))
        }
    except NotFound:
        return {}


def job_words(*, job_id: str) -> list[dict]:
    """Every word of a finished job: its id (the ``w<id>`` path of the SVGs), name,
    centre, size, colour, orientation, box and group ("" without groups), in id order."""
    return read_words(artifact_path(job_id, "db"), (*PLACED_COLUMNS, "group"))
