"""A paid order's production files, in process: marking an order paid plans one preparation
per product with a size and design (none for a product without a size); the worker's task
makes the files at the product's size (a print PDF/X-1a; a DXF and a laser SVG), stores them
and records their preflight; a design that cannot be made fails with its sentence and is
retried; a second payment, plan or run makes nothing again; staff list and download them."""

import io
import sqlite3

import ezdxf
import pytest

from commerce.models import OrderItem, Preparation, Product
from commerce.services.orders import order_mark_paid
from commerce.services.production import preparation_run, preparations_plan
from tests.commerce.factories import make_design_list, make_order
from tests.exports.pdf.conftest import poster_folders, poster_job  # noqa: F401
from wordclouds.selectors import artifact_path

MISSING_JOB = "0" * 32
SIZES = "SELECT font_size FROM words"


@pytest.fixture
def paid(alice, poster_job, settings):  # noqa: F811
    settings.PROOF_APPROVAL_REQUIRED = (
        False  # job folders without records: no proof (test_proof_gate.py)
    )
    job_id = poster_job("vertical")
    products = {
        "engrave": Product.objects.create(name="Plaque", price=9900, kind="engrave", width_mm=120),
        "print": Product.objects.create(name="Poster", price=4900, kind="print", width_mm=150),
        "plain": Product.objects.create(name="Card", price=100),
    }
    design_list = make_design_list(alice.user)
    design_list.items = [{"jobId": job_id, "quantity": 1}, {"jobId": MISSING_JOB, "quantity": 1}]
    design_list.save()
    order = make_order(alice.user, design_list=design_list)
    for product in products.values():
        OrderItem.objects.create(
            order=order,
            product=product,
            product_name=product.name,
            unit_price=product.price,
            quantity=1,
            subtotal=product.price,
        )
    order_mark_paid(order_id=order.pk)
    return order, job_id, products


def test_paying_plans_one_preparation_per_sized_product_and_design(paid):
    order, job_id, products = paid
    planned = {(p.product_id, p.design_key, p.kind) for p in order.preparations.all()}
    assert planned == {
        (products[kind].pk, key, kind)
        for kind in ("engrave", "print")
        for key in (f"job:{job_id}", f"job:{MISSING_JOB}")
    }
    preparations_plan(order=order)  # a second word of payment
    assert order.preparations.count() == 4


def test_the_worker_makes_each_file_once_and_a_failure_keeps_its_sentence(paid, staff):
    order, job_id, products = paid
    for preparation in order.preparations.all():
        preparation_run(preparation.pk)
    ready = Preparation.objects.get(order=order, design_key=f"job:{job_id}", kind="engrave")
    failed = Preparation.objects.get(order=order, design_key=f"job:{MISSING_JOB}", kind="print")
    assert ready.status == "READY" and failed.status == "FAILED"
    assert failed.error == "job not found"
    assert [file["name"].split("-")[-1] for file in ready.files] == [
        "120x90mm.dxf",
        "120x90mm.laser.svg",
    ]
    assert ready.files[0]["preflight"]["widthMm"] == 120

    listed = staff.get(f"/api/orders/{order.pk}/production").json()
    engrave = next(p for p in listed if p["id"] == ready.pk)
    dxf = staff.get(engrave["files"][0]["url"])
    assert dxf.status_code == 200
    document = ezdxf.read(io.StringIO(b"".join(dxf.streaming_content).decode()))
    assert document.header["$INSUNITS"] == 4
    printed = next(p for p in listed if p["kind"] == "print" and p["status"] == "READY")
    pdf = staff.get(printed["files"][0]["url"])
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-1.3")
    assert printed["files"][0]["name"].endswith("150x112.5mm-PDFX-1a.pdf")
    # the names' sizes at 150 mm: the poster is 800 px wide, 72 pt to 25.4 mm
    with sqlite3.connect(artifact_path(job_id, "db")) as connection:
        sizes = [size * 150 / 800 * 72 / 25.4 for (size,) in connection.execute(SIZES)]
    preflight = printed["files"][0]["preflight"]
    assert (preflight["standard"], preflight["bleedMm"]) == ("PDF/X-1a", 3)
    assert preflight["smallestNamePt"] == round(min(sizes), 2)
    assert preflight["namesUnderMinPt"] == sum(size < 6 for size in sizes)
    assert (preflight["widthMm"], preflight["minNamePt"]) == (150, 6)
    assert staff.get("/api/production-files/not-a-signature").status_code == 404

    stamp = ready.updated_at
    preparation_run(ready.pk)  # run twice: nothing made again
    ready.refresh_from_db()
    assert ready.updated_at == stamp

    retried = staff.post(f"/api/orders/{order.pk}/production/{failed.pk}/retry")
    assert retried.status_code == 200 and retried.json()["status"] == "PENDING"
    assert staff.post(f"/api/orders/{order.pk}/production/{ready.pk}/retry").status_code == 409


def test_the_admin_shows_the_files_and_the_failure_and_retries_it(paid, admin_client):
    order, job_id, _ = paid
    for preparation in order.preparations.all():
        preparation_run(preparation.pk)

    page = admin_client.get(f"/admin/commerce/order/{order.pk}/change/").content.decode()
    assert "job not found" in page
    assert page.count('href="/api/production-files/') == 3  # DXF, laser SVG, PDF
    assert "thinNames 0" in page
    admin_client.post(
        "/admin/commerce/order/",
        {"action": "retry_production", "_selected_action": [order.pk]},
    )
    assert {p.status for p in order.preparations.filter(design_key=f"job:{MISSING_JOB}")} == {
        "PENDING"
    }
