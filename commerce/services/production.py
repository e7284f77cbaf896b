"""Production files (docs/commerce.md, "Production files"): when an order becomes PAID, each
design of its design list gets, for each of its products with a size, that product's files
(a print PDF, or a DXF and a laser SVG) at the product's size, made by the worker through
exports' face and kept in the store; a project's from the copy frozen when its design list
left DRAFT (services/design_lists.py), whatever was edited since. One Preparation per order, product and design (a unique
constraint): a second notify, a second run or a retry of a ready one makes nothing again. A
failure keeps its sentence; staff retry it (admin action, or the staff endpoint). A job's
files are drawn only from what its approval locked (docs/proofs.md): before any file is
written, the SHA-256 of its wordcloud.svg and positions.db are checked against the approval
its design list's item recorded (with PROOF_APPROVAL_REQUIRED, an item without one fails),
and recorded with the files."""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db import transaction
from django_q.tasks import async_task

from commerce.models import Order, Preparation
from core.errors import Conflict, NotFound, ServiceError
from core.pipeline import move
from exports.production import production_files
from wordclouds.services.designs import file_download, file_store, job_file_hashes

logger = logging.getLogger(__name__)
TASK = "commerce.services.production.preparation_run"
DOWNLOAD_SALT = "commerce.production-file"
INTERNAL = "the files could not be made (an internal error, in the worker's log)"


def _design(item: dict, frozen: dict[str, str]) -> tuple[str, dict]:
    """(design_key, design): a job, or a project with its frozen copy's key (design lists
    frozen before copies were made have none: the project as it is then)."""
    if "jobId" in item:
        approval = {"approval": item["approval"]} if "approval" in item else {}
        return f"job:{item['jobId']}", {"jobId": item["jobId"], **approval}
    design = {"projectId": item["projectId"]}
    if item["projectId"] in frozen:
        design["frozenSvg"] = frozen[item["projectId"]]
    return f"project:{item['projectId']}", design


def preparations_plan(*, order: Order) -> None:
    """In the transaction that makes the (locked) order PAID: a Preparation for each product
    with a size and each design, those already there kept; the new ones go to the worker
    once the transaction commits."""
    if order.design_list_id is None:
        return
    design_list = order.design_list
    designs = dict(_design(item, design_list.frozen) for item in design_list.items)
    existing = set(order.preparations.values_list("product_id", "design_key"))
    made = [
        Preparation.objects.create(
            order=order,
            product=product,
            design=design,
            design_key=key,
            kind=product.kind,
            width_mm=product.width_mm,
            height_mm=product.height_mm,
        ).pk
        for product in (item.product for item in order.items.select_related("product"))
        if product.width_mm or product.height_mm
        for key, design in designs.items()
        if (product.pk, key) not in existing
    ]
    transaction.on_commit(lambda: [async_task(TASK, pk) for pk in made])


def preparation_run(preparation_id: int) -> None:
    """The worker's task: the files of a PENDING preparation made, stored and recorded (or
    its failure's sentence). Anything else (ready, failed, gone) is left alone."""
    preparation = Preparation.objects.filter(
        pk=preparation_id, status=Preparation.Status.PENDING
    ).first()
    if preparation is None:
        return
    try:
        drawn_from = _drawn_from(preparation.design)
        files = []
        for made in production_files(
            design=preparation.design,
            kind=preparation.kind,
            width_mm=preparation.width_mm,
            height_mm=preparation.height_mm,
        ):
            key = f"production/{preparation.order_id}/{preparation.pk}/{made.name}"
            file_store(key=key, content=made.content)
            files.append(
                {
                    "name": made.name,
                    "key": key,
                    "contentType": made.content_type,
                    "size": len(made.content),
                    "preflight": made.preflight,
                }
            )
        verb, fields = "prepared", {"files": files, "error": "", "drawn_from": drawn_from}
    except ServiceError as error:
        verb, fields = "failed", {"error": str(error.detail)[:300]}
    except Exception:
        logger.exception("preparation %s failed", preparation_id)
        verb, fields = "failed", {"error": INTERNAL}
    with transaction.atomic():
        preparation = Preparation.objects.select_for_update().get(pk=preparation_id)
        if preparation.status == Preparation.Status.PENDING:
            move(preparation, verb, stamp="prepared_at" if verb == "prepared" else None, **fields)


def _drawn_from(design: dict) -> dict[str, str]:
    """The SHA-256 of the files a job's design is drawn from, equal to its approval's ({}
    for a project; for a job without approval, when none is required and its files are
    gone, production's own refusal says why). 409 with a sentence otherwise: nothing made."""
    if "jobId" not in design:
        return {}
    job_id, approval = design["jobId"], design.get("approval")
    if approval is None and settings.PROOF_APPROVAL_REQUIRED:
        raise Conflict(
            f"job {job_id} has no approved proof (PROOF_APPROVAL_REQUIRED): nothing was made",
            code="proof_not_approved",
        )
    try:
        hashes = job_file_hashes(job_id=job_id)
    except NotFound:
        if approval is None:
            return {}
        raise
    if approval is not None and any(approval[key] != value for key, value in hashes.items()):
        raise Conflict(
            f"the files of job {job_id} differ from those approved in version "
            f"{approval['version']} of proof {approval['proofId']}: nothing was made",
            code="proof_files_changed",
        )
    return hashes


def preparation_retry(*, order_id: int, preparation_id: int) -> Preparation:
    """Staff: a FAILED preparation made again by the worker (409 from any other status)."""
    with transaction.atomic():
        preparation = (
            Preparation.objects.select_for_update()
            .filter(pk=preparation_id, order_id=order_id)
            .first()
        )
        if preparation is None:
            raise NotFound("preparation not found", code="preparation_not_found")
        move(preparation, "retried", error="")
        transaction.on_commit(lambda: async_task(TASK, preparation_id))
    return preparation


@dataclass(frozen=True)
class Download:
    name: str
    contentType: str  # noqa: N815  (the record's key)
    size: int
    preflight: dict
    url: str


def preparation_downloads(preparation: Preparation) -> list[Download]:
    """A ready preparation's files, each with a signed link valid as long as an admin token
    (a plain link: a browser or the admin page downloads it without the token)."""
    return [
        Download(
            name=file["name"],
            contentType=file["contentType"],
            size=file["size"],
            preflight=file["preflight"],
            url="/api/production-files/"
            + signing.dumps([preparation.pk, index], salt=DOWNLOAD_SALT),
        )
        for index, file in enumerate(preparation.files)
    ]


def production_file_download(*, token: str):
    """The file a signed link names; 404 `file not found` for a bad or expired link."""
    try:
        pk, index = signing.loads(token, salt=DOWNLOAD_SALT, max_age=settings.ADMIN_TOKEN_MAX_AGE)
        file = Preparation.objects.get(pk=pk, status=Preparation.Status.READY).files[index]
    except (signing.BadSignature, ValueError, TypeError, IndexError, Preparation.DoesNotExist):
        raise NotFound("file not found", code="production_file_not_found") from None
    return file_download(key=file["key"], filename=file["name"], content_type=file["contentType"])
