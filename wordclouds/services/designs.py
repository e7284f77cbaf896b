"""This app's face: everything the other apps (commerce, exports) use of it, and the only
module of it they import (its engine, a library without Django, aside: CONTRIBUTING.md).

- the designs a design list names, a project or a finished job (a finished job folder
  without a record counts): `designs_check`, `designs_shown`; the frozen copies of its
  projects, made when it leaves DRAFT (`projects_freeze`) and drawn from by production
  (`frozen_project_svg`); the hook through which commerce says what needs a project as it is
  (`project_uses_register`: such a project is neither changed nor deleted);
- a new job (the demo data): `job_create`;
- what a print PDF draws: a job's artifacts (`job_artifact`: wordcloud.svg), its custom.svg
  (`custom_svg_render`, with the options declared in `CUSTOM_SVG` and read by
  `custom_svg_options`) and a project's
  render.svg (`project_svg`);
- what a laser file cuts along: a job's drawable shape (`job_mask`); what a print's
  preflight measures: its names' sizes, its strokes and its ink (`job_print_figures`);
- what a proof shows and locks (commerce's proofs): a finished job sent as one, its owner,
  the jobs it descends from and its changes by name (`job_for_proof`), the ids of its
  words (`job_word_ids`) and the SHA-256 of the files production draws from
  (`job_file_hashes`), whether it is still there (`job_present`); a revision of it made from the customer's comments
  (`revision_create`);
- another app's files in the service's store (`file_store`, `file_download`): commerce's
  production files."""

import hashlib
import json
import re
from dataclasses import dataclass

import numpy as np
from django.db import models

from core.access import owner_refusal
from core.errors import Conflict, InvalidInput, NotFound
from core.identity import Identity
from wordclouds import engine, storage
from wordclouds.drawing.custom_svg import CustomSvgOptions
from wordclouds.engine.positions import read_word_rows
from wordclouds.models import Job, Project
from wordclouds.selectors import (
    artifact_path,
    artifact_url,
    canvas_size,
    job_get,
    project_get,
    project_image_url,
)
from wordclouds.services.custom_svg import CUSTOM_SVG, custom_svg_options, custom_svg_render
from wordclouds.services.job_erasure import job_needed_by_register  # noqa: F401 (the face)
from wordclouds.services.jobs import (
    job_create,
    job_font_path,
    job_input_key,
    job_mask_font_path,
    job_owner_check,
)
from wordclouds.services.projects import (
    project_render,
    project_uses_register,  # noqa: F401 (the face)
)
from wordclouds.services.retention import job_references_register  # noqa: F401 (the face)
from wordclouds.services.revisions import (
    job_words,
    revision_changes,
    revision_create,  # noqa: F401 (the face)
)
from wordclouds.services.sheets import shop_sizes_register  # noqa: F401 (the face)

__all__ = [
    "CUSTOM_SVG",
    "CustomSvgOptions",
    "DesignShown",
    "custom_svg_options",
    "custom_svg_render",
    "file_download",
    "file_store",
    "designs_check",
    "designs_shown",
    "frozen_project_svg",
    "ProofJob",
    "job_artifact",
    "job_create",
    "job_file_hashes",
    "job_for_proof",
    "job_word_ids",
    "job_mask",
    "job_print_figures",
    "project_svg",
    "revision_create",
    "projects_freeze",
]


def designs_check(items: list[dict], caller: Identity) -> None:
    """Every item names a project or a job that exists and that `caller` holds (their own;
    staff: any); 400 naming the first that does not, the same whether it does not exist or is
    another's (or no one's), so that a list tells nothing of others' designs. Inside the
    caller's transaction."""
    for item in items:
        if "projectId" in item:
            unknown = InvalidInput(
                f"unknown projectId: {item['projectId']}", code="project_unknown"
            )
            project = Project.objects.filter(pk=item["projectId"]).first()
            if project is None or owner_refusal(caller, project.owner, hidden=unknown):
                raise unknown
        if "jobId" in item:
            unknown = InvalidInput(f"unknown jobId: {item['jobId']}", code="job_unknown")
            # Locked until the caller commits: retention, which checks a job again under this
            # lock before it deletes it, then sees the list (or the list sees it gone).
            Job.objects.select_for_update().filter(pk=item["jobId"]).first()
            try:
                job = job_get(item["jobId"])
            except NotFound:
                raise unknown from None
            # a finished folder without a record belongs to no one: staff's alone
            if owner_refusal(caller, job.record.owner if job.record else "", hidden=unknown):
                raise unknown


@dataclass(frozen=True)
class DesignShown:
    """One item as staff see it: its record (None when gone) and model for a link to its
    admin page, and its picture (None: none to show)."""

    kind: str  # "project" or "job"
    key: str
    model: type[models.Model]
    record: models.Model | None
    image_url: str | None
    image_alt: str


def designs_shown(items: list[dict]) -> list[DesignShown]:
    projects = Project.objects.in_bulk([i["projectId"] for i in items if "projectId" in i])
    jobs = Job.objects.in_bulk([i["jobId"] for i in items if "jobId" in i])
    shown = []
    for item in items:
        if "projectId" in item:
            project = projects.get(item["projectId"])
            shown.append(
                DesignShown(
                    kind="project",
                    key=item["projectId"],
                    model=Project,
                    record=project,
                    image_url=project_image_url(project) if project else None,
                    image_alt=project.name if project else "",
                )
            )
        else:
            # A finished job folder without a record is a job too: its poster still shows.
            shown.append(
                DesignShown(
                    kind="job",
                    key=item["jobId"],
                    model=Job,
                    record=jobs.get(item["jobId"]),
                    image_url=artifact_url(item["jobId"], "png", inline=True),
                    image_alt=f"poster of job {item['jobId']}",
                )
            )
    return shown


def job_artifact(*, job_id: str, kind: str) -> bytes:
    """One of a finished job's files (`svg`: wordcloud.svg, `png`: the poster); 404 `job not
    found` / `artifact not ready`."""
    view = job_get(job_id)
    if view.record is not None and kind not in view.artifacts:
        raise NotFound("artifact not ready", code="artifact_not_ready")
    return artifact_path(job_id, kind).read_bytes()


def projects_freeze(*, items: list[dict], folder: str) -> dict[str, str]:
    """Each project the items name drawn now as its render.svg (raster stickers inside as
    data, SVG stickers inline: nothing else is read to draw it again) and kept in the store
    under `folder`; {projectId: key}. The project's row stays locked until the caller's
    transaction ends, so no change slips in between. 400 `unknown projectId`, or the
    render's own errors."""
    frozen = {}
    for project_id in dict.fromkeys(item["projectId"] for item in items if "projectId" in item):
        project = Project.objects.select_for_update().filter(pk=project_id).first()
        if project is None:
            raise InvalidInput(f"unknown projectId: {project_id}", code="project_unknown")
        key = f"{folder}/{project_id}.svg"
        storage.save(key, project_render(project, "svg"))
        frozen[project_id] = key
    return frozen


def frozen_project_svg(*, key: str) -> bytes:
    """A frozen project's render.svg (`projects_freeze`), from the worker."""
    return storage.read_bytes(key, worker=True)


def project_svg(*, project_id: str, caller: Identity | None = None) -> bytes:
    """A project's render.svg, drawn with the heavy-work limits; 404 `project not found`
    (also for a `caller` who may not see it: another customer's)."""
    return project_render(project_get(project_id, caller=caller), "svg")


def job_mask(*, job_id: str) -> np.ndarray | None:
    """The drawable shape of a job drawn in a mask or in MASK_TEXT's letters (`inside[y, x]`
    at canvas size, as the engine made it), or None: a rectangle (no mask, or a job folder
    without a record). 404 `job not found`."""
    job = job_get(job_id).record
    if job is not None and job.params.get("MASK_TEXT") is not None:
        font = job_mask_font_path(job) or job_font_path(job)
        params = engine.parse_params(job.params)
        return engine.load_mask(None, params=params, text_font=font).inside
    if job is None or not job.mask_image:
        return None
    params = engine.parse_params(job.params)
    if params.mode != "IMAGE":
        return None
    path = storage.local_path(job_input_key(job.id, job.mask_image))
    return engine.load_mask(path, params=params).inside


def file_store(*, key: str, content: bytes) -> None:
    """Keeps a file in the service's store under `key` (from the worker: its retries)."""
    storage.save(key, content, worker=True)


def file_download(*, key: str, filename: str, content_type: str):
    """The download answer of a stored file (a redirect to the bucket on S3); 404 when it
    is not there."""
    return storage.download_response(key, filename=filename, content_type=content_type)


def job_print_figures(*, job_id: str) -> tuple[float, float, list[float], list[float], float]:
    """What a print's preflight needs of a finished job: its canvas (width, height, px), the
    font size (px) of each placed name, the stroke widths (px) of its stroked SVG and the
    share of its canvas inked (metrics' ink box coverage); 404 `job not found` / `artifact
    not ready`."""
    stroked = job_artifact(job_id=job_id, kind="svg_stroke")
    strokes = [float(value) for value in STROKE_WIDTH.findall(stroked)]
    metrics = json.loads(job_artifact(job_id=job_id, kind="metrics"))
    db_path = artifact_path(job_id, "db")
    width, height = canvas_size(db_path)
    sizes = [size for (size,) in read_word_rows(db_path, ("font_size",))]
    return width, height, sizes, strokes, metrics.get("ink_box_coverage", 0.0)


def job_word_groups(*, job_id: str) -> dict[int, str]:
    """Each word's group of a finished job (id → group, "" without groups: GROUP_COL_INDEX),
    for the files that draw each group as its own layer; 404 as job_artifact."""
    job_artifact(job_id=job_id, kind="metrics")  # 404 for an unknown or unfinished job
    return dict(read_word_rows(artifact_path(job_id, "db"), ("id", "group")))


STROKE_WIDTH = re.compile(rb'stroke-width="([0-9.eE+-]+)"')


@dataclass(frozen=True)
class ProofJob:
    """A finished job as a proof shows it: whose it is (its owner key, '' for one made
    without a token), the jobs it descends from (nearest first) and what it changed since
    its parent, by name (`revision_changes`; {} for a first layout)."""

    job_id: str
    owner: str
    ancestors: tuple[str, ...]
    changes: dict


def job_for_proof(
    *, job_id: str, caller: Identity, finished: bool = True, lock: bool = False
) -> ProofJob:
    """The job `caller` sends as a proof (or, not `finished`, asks the proofs of): 404 `job
    not found`, 403 unless `caller` owns it or is staff, 409 for one not finished. `lock`
    (inside the caller's transaction): the row of the first layout the job descends from
    stays locked till it ends, so that sends within one chain of revisions go one at a time
    (two first sends at once would each find no proof and make one)."""
    job = Job.objects.filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found", code="job_not_found")
    job_owner_check(caller, job)
    if finished and job.status != Job.Status.SUCCESS:
        raise Conflict(
            f"only a finished poster can be sent as a proof; this job is {job.status}",
            code="proof_job_not_finished",
        )
    ancestors, parent = [], job.parent_id
    while parent is not None:
        ancestors.append(parent)
        parent = Job.objects.filter(id=parent).values_list("parent_id", flat=True).first()
    if lock:
        root = ancestors[-1] if ancestors else job.id
        list(Job.objects.select_for_update().filter(id=root).values_list("id", flat=True))
    changes = revision_changes(job_id=job.id) if finished else {}
    return ProofJob(job.id, job.owner, tuple(ancestors), changes)


def job_present(*, job_id: str) -> bool:
    """Whether the job is there (not deleted, nor being deleted): a proof whose newest
    version's job is gone answers 410."""
    return Job.objects.filter(id=job_id, deleting=False).exists()


def job_word_ids(*, job_id: str) -> set[int]:
    """The ids of a finished job's words (404 `artifact not ready` when its files are gone)."""
    return {word["id"] for word in job_words(job_id=job_id)}


def job_file_hashes(*, job_id: str) -> dict[str, str]:
    """The SHA-256 (hex) of the files a job's production files are drawn from: its
    wordcloud.svg and positions.db; 404 `artifact not ready` when one is gone."""
    return {
        "svgSha256": hashlib.sha256(artifact_path(job_id, "svg").read_bytes()).hexdigest(),
        "dbSha256": hashlib.sha256(artifact_path(job_id, "db").read_bytes()).hexdigest(),
    }
