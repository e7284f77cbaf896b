"""This app's face: everything the other apps (commerce, exports) use of it, and the only
module of it they import (its engine, a library without Django, aside: CONTRIBUTING.md).

- the designs a design list names, a project or a finished job (a finished job folder
  without a record counts): `designs_check`, `designs_shown`;
- a new job (the demo data): `job_create`;
- what a print PDF draws: a job's artifacts (`job_artifact`: wordcloud.svg), its custom.svg
  (`custom_svg_render`, with the options declared in `CUSTOM_SVG` and read by
  `custom_svg_options`) and a project's
  render.svg (`project_svg`)."""

from dataclasses import dataclass

from django.db import models

from core.errors import InvalidInput, NotFound
from wordclouds.drawing.custom_svg import CustomSvgOptions
from wordclouds.models import Job, Project
from wordclouds.selectors import (
    artifact_path,
    artifact_url,
    job_get,
    project_get,
    project_image_url,
)
from wordclouds.services.custom_svg import CUSTOM_SVG, custom_svg_options, custom_svg_render
from wordclouds.services.jobs import job_create
from wordclouds.services.projects import project_render

__all__ = [
    "CUSTOM_SVG",
    "CustomSvgOptions",
    "DesignShown",
    "custom_svg_options",
    "custom_svg_render",
    "designs_check",
    "designs_shown",
    "job_artifact",
    "job_create",
    "project_svg",
]


def designs_check(items: list[dict]) -> None:
    """Every item names a project or a job that exists; 400 naming the first that does not."""
    for item in items:
        if "projectId" in item and not Project.objects.filter(pk=item["projectId"]).exists():
            raise InvalidInput(f"unknown projectId: {item['projectId']}", code="project_unknown")
        if "jobId" in item:
            try:
                job_get(item["jobId"])
            except NotFound:
                raise InvalidInput(f"unknown jobId: {item['jobId']}", code="job_unknown") from None


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


def project_svg(*, project_id: str) -> bytes:
    """A project's render.svg, drawn with the heavy-work limits; 404 `project not found`."""
    return project_render(project_get(project_id), "svg")
