"""Design lists: the owner edits them in DRAFT and submits them; an order hands them over to
processing (DRAFT or SUBMITTED → PROCESSING); staff finish them (PROCESSING → DONE). Leaving
DRAFT, each project the list names is frozen: drawn then as render.svg and kept in the store,
the copy a paid order's production files are made from (docs/commerce.md, "Frozen
projects"); from then on wordclouds neither changes nor deletes the project. With
PROOF_APPROVAL_REQUIRED, each job it names must then be the approved newest version of its
proof, whose approval the item records (docs/proofs.md); else 409 naming it."""

from django.conf import settings
from django.db import transaction

from commerce.auth import Caller
from commerce.models import DesignList, EndUser
from commerce.selectors import design_list_get
from commerce.services.proofs import approval_of
from core.errors import Conflict, InvalidInput
from core.identity import customer_identity
from core.pipeline import allowed, move
from wordclouds.services.designs import designs_check, projects_freeze

Status = DesignList.Status


def _owned(*, user: EndUser, design_list_id: int) -> DesignList:
    return design_list_get(caller=Caller(user=user), design_list_id=design_list_id, lock=True)


@transaction.atomic
def design_list_create(*, user: EndUser, name: str, items: list[dict]) -> DesignList:
    designs_check(items, customer_identity(user.pk))
    return DesignList.objects.create(user=user, name=name, items=items)


@transaction.atomic
def design_list_update(*, user: EndUser, design_list_id: int, changes: dict) -> DesignList:
    design_list = _owned(user=user, design_list_id=design_list_id)
    if design_list.status != Status.DRAFT:
        raise Conflict(
            f"design list cannot be edited in status {design_list.status}",
            code="design_list_not_editable",
        )
    if "items" in changes:
        designs_check(changes["items"], customer_identity(user.pk))
    for field, value in changes.items():
        setattr(design_list, field, value)
    design_list.save(update_fields=[*changes, "updated_at"])
    return design_list


@transaction.atomic
def design_list_delete(*, user: EndUser, design_list_id: int) -> None:
    design_list = _owned(user=user, design_list_id=design_list_id)
    if design_list.status != Status.DRAFT:
        raise Conflict(
            f"design list cannot be deleted in status {design_list.status}",
            code="design_list_not_deletable",
        )
    design_list.delete()


@transaction.atomic
def design_list_submit(*, user: EndUser, design_list_id: int) -> DesignList:
    design_list = _owned(user=user, design_list_id=design_list_id)
    if design_list.status == Status.DRAFT and not design_list.items:
        raise InvalidInput("an empty design list cannot be submitted", code="design_list_empty")
    return move(
        design_list,
        verb="submitted",
        stamp="submitted_at",
        items=_approved(design_list, "submitted"),
        frozen=_frozen(design_list, "submitted"),
    )


def design_list_start_processing(*, user: EndUser, design_list_id: int) -> DesignList:
    """Runs inside the order-creating transaction (the row stays locked until it commits)."""
    design_list = _owned(user=user, design_list_id=design_list_id)
    return move(
        design_list,
        verb="ordered",
        stamp="processing_at",
        items=_approved(design_list, "ordered"),
        frozen=_frozen(design_list, "ordered"),
    )


def _approved(design_list: DesignList, verb: str) -> list[dict]:
    """Its items, each job's with the approval it is ordered by (those recorded already
    kept) when PROOF_APPROVAL_REQUIRED and the pipeline lets it move by `verb`; 409
    `proof_not_approved` naming the first job without one."""
    if not settings.PROOF_APPROVAL_REQUIRED or allowed(design_list, verb) is None:
        return design_list.items
    return [
        {**item, "approval": approval_of(job_id=item["jobId"])}
        if "jobId" in item and "approval" not in item
        else item
        for item in design_list.items
    ]


def _frozen(design_list: DesignList, verb: str) -> dict[str, str]:
    """Its frozen projects, with those not frozen yet (a DRAFT list, or one submitted before
    lists were frozen) drawn now, when the pipeline lets it move by `verb` (a refused move
    draws nothing)."""
    if allowed(design_list, verb) is None:
        return design_list.frozen
    missing = [
        item
        for item in design_list.items
        if "projectId" in item and item["projectId"] not in design_list.frozen
    ]
    folder = f"design-lists/{design_list.pk}/frozen"
    return {**design_list.frozen, **projects_freeze(items=missing, folder=folder)}


@transaction.atomic
def design_list_finish(*, design_list_id: int) -> DesignList:
    """Staff: the designs are made."""
    design_list = design_list_get(
        caller=Caller(user=None, is_admin=True), design_list_id=design_list_id, lock=True
    )
    return move(design_list, verb="finished", stamp="done_at")
