"""Approval gates production (docs/proofs.md), in process: a design list names a job only as
its proof's approved newest version, recording the approval; the files of a paid order are
written only when the job's wordcloud.svg and positions.db still have the approved SHA-256,
which they record. Every way into production is tried — the admin's mark-paid action, the
API's mark-paid, the payment platform's word, and a retry by the admin's action or the API — for a job ordered without
an approval (the setting was off then) and for one whose files changed after approval:
each preparation fails with its sentence and not a file is written."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from commerce.models import Order, Payment, PaymentEvent, Preparation, Product
from commerce.payments.ledger import transaction_apply
from commerce.services.orders import order_mark_paid
from commerce.services.production import preparation_run
from tests.commerce.factories import make_address
from tests.commerce.proofs_world import job_from, posters
from tests.wordclouds.conftest import jobs_root


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    return posters(tmp_path_factory.mktemp("gate-posters"))


def _approved(alice, job) -> dict:
    token = alice.post(f"/api/jobs/{job.id}/proofs").json()["url"].removeprefix("/proofs/")
    body = {"version": _newest(token), "decision": "approve", "name": "Ms Li",
            "terms_accepted": True}  # fmt: skip
    decided = alice.post(f"/api/proofs/{token}/decision", body, format="json")
    assert decided.status_code == 201, decided.json()
    return decided.json()


def _newest(token: str) -> int:
    return APIClient().get(f"/api/proofs/{token}").json()["versions"][-1]["version"]


def _ordered(alice, job) -> int:
    product = Product.objects.create(name="Plaque", price=9900, kind="engrave", width_mm=60)
    listed = alice.post(
        "/api/design-lists",
        {"name": "Class", "items": [{"jobId": job.id, "quantity": 1}]},
        format="json",
    ).json()["id"]
    body = {"addressId": make_address(alice.user).pk, "designListId": listed,
            "items": [{"productId": product.pk, "quantity": 1}]}  # fmt: skip
    made = alice.post("/api/orders", body, format="json")
    assert made.status_code == 201, made.json()
    return made.json()["id"]


def _run_queued(order_id: int) -> None:
    """What the worker does with the tasks queued: each pending preparation run."""
    for pk in Preparation.objects.filter(order_id=order_id, status="PENDING").values("pk"):
        preparation_run(pk["pk"])


def _production_files(media_root) -> list:
    return [p for p in (media_root / "production").rglob("*") if p.is_file()]


def test_an_approved_version_is_named_by_its_order_and_its_files_record_its_hashes(
    folders, alice, staff, media_root
):
    first, revised, _ = folders
    job = job_from(first, owner=str(alice.user.pk))
    unapproved = alice.post(
        "/api/design-lists", {"name": "Early", "items": [{"jobId": job.id, "quantity": 1}]},
        format="json",
    ).json()["id"]  # fmt: skip
    refused = alice.post(f"/api/design-lists/{unapproved}/submit")
    assert (refused.status_code, refused.json()["code"]) == (409, "proof_not_approved")
    assert job.id in refused.json()["detail"]

    approval = _approved(alice, job)
    order_id = _ordered(alice, job)
    assert staff.post(f"/api/orders/{order_id}/mark-paid").status_code == 200
    _run_queued(order_id)

    (preparation,) = Preparation.objects.filter(order_id=order_id)
    assert preparation.status == "READY", preparation.error
    drawn = {"svgSha256": approval["svg_sha256"], "dbSha256": approval["db_sha256"]}
    assert preparation.drawn_from == drawn
    assert preparation.design["approval"]["version"] == 1
    listed = staff.get(f"/api/orders/{order_id}/production").json()
    assert listed[0]["drawnFrom"] == drawn
    written = {p: p.read_bytes() for p in _production_files(media_root)}
    assert written

    # a revision sent and approved afterwards: the order's files stay as they were
    revision = job_from(revised, owner=job.owner, parent=job)
    assert _approved(alice, revision)["version"] == 2
    _run_queued(order_id)
    assert {p: p.read_bytes() for p in _production_files(media_root)} == written
    # and the older version can no longer be ordered
    again = alice.post(
        "/api/design-lists", {"name": "Late", "items": [{"jobId": job.id, "quantity": 1}]},
        format="json",
    ).json()["id"]  # fmt: skip
    assert alice.post(f"/api/design-lists/{again}/submit").json()["code"] == "proof_not_approved"


def _admin_mark_paid(admin_client, staff, order_id):
    admin_client.post(
        "/admin/commerce/order/", {"action": "mark_paid", "_selected_action": [order_id]}
    )


def _api_mark_paid(admin_client, staff, order_id):
    assert staff.post(f"/api/orders/{order_id}/mark-paid").status_code == 200


def _platform_paid(admin_client, staff, order_id):
    """The payment platform's verified word that the order's WeChat payment succeeded."""
    order = Order.objects.get(pk=order_id)
    payment = Payment.objects.create(order=order, out_trade_no=f"P{order_id}_gate",
                                     amount=order.total_amount)  # fmt: skip
    record = {"appid": settings.IDENTITY_APP_ID, "mchid": settings.WECHATPAY_MCH_ID,
              "out_trade_no": payment.out_trade_no, "transaction_id": f"4200{order_id}",
              "trade_state": "SUCCESS", "amount": {"total": order.total_amount, "currency": "CNY"}}  # fmt: skip
    transaction_apply(record=record, kind=PaymentEvent.Kind.NOTIFY)
    assert Order.objects.get(pk=order_id).status == "PAID"


def _failed_once(order_id) -> Preparation:
    order_mark_paid(order_id=order_id)
    _run_queued(order_id)
    return Preparation.objects.get(order_id=order_id, status="FAILED")


def _admin_retry(admin_client, staff, order_id):
    _failed_once(order_id)
    admin_client.post(
        "/admin/commerce/order/", {"action": "retry_production", "_selected_action": [order_id]}
    )
    assert Preparation.objects.get(order_id=order_id).status == "PENDING"


def _api_retry(admin_client, staff, order_id):
    failed = _failed_once(order_id)
    retried = staff.post(f"/api/orders/{order_id}/production/{failed.pk}/retry")
    assert retried.status_code == 200 and retried.json()["status"] == "PENDING"


WAYS_IN = {
    "admin mark paid": _admin_mark_paid,
    "API mark paid": _api_mark_paid,
    "platform payment": _platform_paid,
    "admin retry": _admin_retry,
    "API retry": _api_retry,
}


@pytest.mark.parametrize("case", ["ordered unapproved", "files changed after approval"])
@pytest.mark.parametrize("way_in", WAYS_IN)
def test_no_way_into_production_writes_a_file_of_an_unapproved_or_changed_job(
    folders, alice, staff, admin_client, settings, media_root, case, way_in
):
    settings.IDENTITY_APP_ID, settings.WECHATPAY_MCH_ID = "wx-test-app", "1900000109"
    job = job_from(folders[0], owner=str(alice.user.pk))
    if case == "ordered unapproved":
        settings.PROOF_APPROVAL_REQUIRED = False  # ordered while none was needed
        order_id = _ordered(alice, job)
        settings.PROOF_APPROVAL_REQUIRED = True
        sentence = f"job {job.id} has no approved proof (PROOF_APPROVAL_REQUIRED): nothing was made"
    else:
        _approved(alice, job)
        order_id = _ordered(alice, job)
        svg = jobs_root() / job.id / "wordcloud.svg"
        svg.write_bytes(svg.read_bytes().replace(b"</svg>", b"<!-- edited --></svg>"))
        proof_id = Order.objects.get(pk=order_id).design_list.items[0]["approval"]["proofId"]
        sentence = (
            f"the files of job {job.id} differ from those approved in version 1 of proof "
            f"{proof_id}: nothing was made"
        )

    WAYS_IN[way_in](admin_client, staff, order_id)
    _run_queued(order_id)

    (preparation,) = Preparation.objects.filter(order_id=order_id)
    assert (preparation.status, preparation.error) == ("FAILED", sentence)
    assert preparation.files == [] and preparation.drawn_from == {}
    assert _production_files(media_root) == []
