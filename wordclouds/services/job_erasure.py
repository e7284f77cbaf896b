"""DELETE /api/jobs/{id}: a job erased on purpose by its owner or staff, with its revisions
(all the way down) and every file of theirs, unless another app needs one of them: commerce
registers what its orders need (`job_needed_by_register`, through the face), so this app
never asks commerce itself. The erasure is retention's (`job_erase`): marked `deleting`
first, so reads answer 404 at once and a store failure half-way is finished by retention."""

from collections.abc import Callable, Iterable

from django.db import transaction

from core.errors import Conflict, NotFound
from core.identity import Identity
from wordclouds.models import Job
from wordclouds.services.jobs import job_owner_check
from wordclouds.services.retention import job_erase

_NEEDED_BY: list[tuple[Callable[[Iterable[str]], str], str, str]] = []
FINISHED = (Job.Status.SUCCESS, Job.Status.FAILED)


def job_needed_by_register(
    source: Callable[[Iterable[str]], str], *, code: str = "job_in_order", hint: str = ""
) -> None:
    """``source(job_ids)`` names what of another app needs one of these jobs ("order 12"),
    '' when nothing does; the 409 then has `code`, and `hint` (what lifts it) ends its
    sentence."""
    _NEEDED_BY.append((source, code, hint))


def job_delete(*, job_id: str, caller: Identity) -> None:
    """404 for an unknown job, 403 unless the caller owns it or is staff, 409 while it or a
    revision of it is queued or running, or while another app needs one of them (an order,
    an approved proof)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(id=job_id, deleting=False).first()
        if job is None:
            raise NotFound("job not found", code="job_not_found")
        job_owner_check(caller, job)
        family = _with_revisions(job.id)
        unfinished = Job.objects.filter(id__in=family).exclude(status__in=FINISHED).first()
        if unfinished is not None:
            raise Conflict(
                f"job {unfinished.id} is {unfinished.status}; a job is deleted once it has "
                "finished",
                code="job_not_finished",
            )
        for source, code, hint in _NEEDED_BY:
            needer = source(family)
            if needer:
                detail = f"job {job_id} is needed by {needer}"
                raise Conflict(f"{detail}; {hint}" if hint else detail, code=code)
        Job.objects.filter(id__in=family).update(deleting=True)
    for member in reversed(family):  # revisions first: a revision's parent is PROTECTed
        job_erase(member)


def _with_revisions(job_id: str) -> list[str]:
    """The job and its revisions, each after the one it revises."""
    family, generation = [job_id], [job_id]
    while generation:
        generation = list(Job.objects.filter(parent_id__in=generation).values_list("id", flat=True))
        family += generation
    return family
