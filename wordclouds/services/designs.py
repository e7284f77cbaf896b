"""What commerce may know of this app: the designs a design list names, a project or a
finished job (a finished job folder without a record counts). Commerce imports from this
module only."""

from dataclasses import dataclass

from django.db import models

from core.errors import InvalidInput, NotFound
from wordclouds.models import Job, Project
from wordclouds.selectors import artifact_url, job_get, project_image_url
from wordclouds.services.custom_svg import CUSTOM_SVG as CUSTOM_SVG  # exports' PDF takes these


def designs_check(items: list[dict]) -> None:
    """Every item names a project or a job that exists; 400 naming the first that does not."""
    for item in items:
        if "projectId" in item and not Project.objects.filter(pk=item["projectId"]).exists():
            raise InvalidInput(f"unknown projectId: {item['projectId']}")
        if "jobId" in item:
            try:
                job_get(item["jobId"])
            except NotFound:
                raise InvalidInput(f"unknown jobId: {item['jobId']}") from None


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
