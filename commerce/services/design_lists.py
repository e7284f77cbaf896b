"""Design lists: the owner edits them in DRAFT and submits them; an order hands them over to
processing (DRAFT or SUBMITTED → PROCESSING); staff finish them (PROCESSING → DONE)."""

from django.db import transaction

from commerce.auth import Caller
from commerce.models import DesignList, EndUser
from commerce.selectors import design_list_get
from core.errors import Conflict, InvalidInput
from core.pipeline import move
from wordclouds.services.designs import designs_check

Status = DesignList.Status


def _owned(*, user: EndUser, design_list_id: int) -> DesignList:
    return design_list_get(caller=Caller(user=user), design_list_id=design_list_id, lock=True)


@transaction.atomic
def design_list_create(*, user: EndUser, name: str, items: list[dict]) -> DesignList:
    designs_check(items)
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
        designs_check(changes["items"])
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
    )


def design_list_start_processing(*, user: EndUser, design_list_id: int) -> DesignList:
    """Runs inside the order-creating transaction (the row stays locked until it commits)."""
    design_list = _owned(user=user, design_list_id=design_list_id)
    return move(
        design_list,
        verb="ordered",
        stamp="processing_at",
    )


@transaction.atomic
def design_list_finish(*, design_list_id: int) -> DesignList:
    """Staff: the designs are made."""
    design_list = design_list_get(
        caller=Caller(user=None, is_admin=True), design_list_id=design_list_id, lock=True
    )
    return move(design_list, verb="finished", stamp="done_at")
