"""A paid order's production files end to end: the real service (web and worker), the
stand-in payment platform and identity platform, Chromium. An order for an engrave product
and one for a print product are paid; the worker prepares the DXF and the laser SVG, and the
PDF/X-1a, at the products' sizes; staff download them from the order page; a second notify
of the same payment prepares nothing again."""

import io
import re

import ezdxf
import httpx
import pytest
from django.conf import settings
from playwright.sync_api import expect

from core.admin_token import admin_token_issue
from tests.commerce.clients import SHENZHEN, Api, new_customer
from tests.commerce.conftest import identity_platform_server  # noqa: F401
from tests.commerce.payments_world import (
    Standin,
    notify_post,
    notify_signed,
    platform_transaction,
    start_service,
    wait_until,
)
from tests.commerce.proofs_world import approved_over_http
from tests.names import write_names
from tests.processes import staff_headers

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
SIZES = {"engrave": 100.0, "print": 150.0}  # the products' widths, mm


@pytest.fixture(scope="module")
def world(tmp_path_factory, database_template, static_root, identity_platform_server):  # noqa: F811
    folder = tmp_path_factory.mktemp("production-e2e")
    standin = Standin(folder)
    try:
        service = start_service(
            folder,
            database_template,
            standin,
            identity_platform_server.url,
            STATIC_ROOT=static_root,
            DEBUG="0",
        )
    except BaseException:
        standin.stop()
        raise
    yield service, standin
    service.stop()
    standin.stop()


@pytest.fixture(scope="module")
def service(world):
    """The browser's service (tests/pages/conftest.py's `page`) is this one."""
    return world[0]


@pytest.fixture(scope="module")
def shop(world, identity_platform_server, tmp_path_factory):  # noqa: F811
    """Two paid orders, one per product kind, each naming a design list with one poster."""
    service, standin = world
    staff = Api(service.url, admin_token_issue())
    customer = new_customer(service.url, identity_platform_server)
    address = customer.call("POST", "/api/addresses", SHENZHEN).json()["id"]
    names = write_names(tmp_path_factory.mktemp("names") / "names.xlsx", ["Anna", "李雷", "Chloé"])
    # the customer's own job: a design list names only its holder's designs
    job = service.submit(names, {"WIDTH": 400, "HEIGHT": 300, "SEED": 2}, headers=customer.headers)
    assert service.wait_for(job, lambda j: j["status"] in ("success", "failed"), 120)["status"] == (
        "success"
    )
    approved_over_http(service.url, job, staff.headers)  # docs/proofs.md
    orders = {}
    for kind, width in SIZES.items():
        product = staff.call(
            "POST", "/api/products", {"name": kind, "price": 4900, "kind": kind, "widthMm": width}
        ).json()
        assert product["kind"] == kind and product["widthMm"] == width
        orders[kind] = ordered_and_paid(customer, standin, address, product["id"], job)
    return service, standin, staff, orders, customer, address, job


def ordered_and_paid(customer, standin, address: int, product_id: int, job_id: str):
    """An order of one product for a design list of the job, paid through the stand-in:
    (order id, out_trade_no)."""
    items = [{"jobId": job_id, "quantity": 1}]
    design_list = customer.call("POST", "/api/design-lists", {"name": job_id[:8], "items": items})
    order = customer.call(
        "POST",
        "/api/orders",
        {
            "addressId": address,
            "items": [{"productId": product_id, "quantity": 1}],
            "designListId": design_list.json()["id"],
        },
    ).json()
    pay = customer.call("POST", f"/api/orders/{order['id']}/pay").json()
    assert standin.control("pay", pay["payParams"]).status_code == 200
    return order["id"], pay["outTradeNo"]


def production(staff: Api, order_id: int) -> list[dict]:
    return staff.call("GET", f"/api/orders/{order_id}/production").json()


def unsigned(records: list[dict]) -> list[dict]:
    """The records without their files' links (signed anew, with the time, at each read)."""
    return [
        {**r, "files": [{k: v for k, v in f.items() if k != "url"} for f in r["files"]]}
        for r in records
    ]


def ready(staff: Api, order_id: int) -> list[dict] | None:
    records = production(staff, order_id)
    return records if records and all(r["status"] == "READY" for r in records) else None


def test_staff_download_the_paid_orders_files_at_the_products_sizes(page, shop):
    service, standin, staff, orders = shop[:4]
    for order_id, _ in orders.values():
        made = wait_until(lambda order_id=order_id: ready(staff, order_id), timeout=120)
        assert made, production(staff, order_id)

    downloads = {}
    page.goto("/orders")
    page.get_by_label("Admin password").fill(settings.ORDERS_ADMIN_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#orders-rows tr")).to_have_count(2)
    for kind, (order_id, _) in orders.items():
        page.goto(f"/orders/{order_id}")
        links = page.locator("#production a")
        expect(links).to_have_count(2 if kind == "engrave" else 1)
        expect(page.locator("#production")).to_contain_text("READY")
        for index in range(links.count()):
            with page.expect_download() as download:
                links.nth(index).click()
            name = download.value.suggested_filename
            downloads[name] = open(download.value.path(), "rb").read()

    def ending(end: str) -> bytes:
        (data,) = [data for name, data in downloads.items() if name.endswith(end)]
        return data

    dxf = ezdxf.read(io.StringIO(ending("-100x75mm.dxf").decode()))
    assert dxf.header["$INSUNITS"] == 4 and not dxf.audit().has_errors
    assert re.search(rb'width="100.000mm" height="75.000mm"', ending("-100x75mm.laser.svg"))
    assert ending("-150x112.5mm-PDFX-1a.pdf").startswith(b"%PDF-1.3")

    # The platform says it again: the order stays paid and nothing is prepared again.
    order_id, out_trade_no = orders["engrave"]
    before = production(staff, order_id)
    headers, body = notify_signed(standin, platform_transaction(standin, out_trade_no))
    assert notify_post(service, headers, body).status_code in (200, 204)
    assert staff.call("GET", f"/api/orders/{order_id}").json()["status"] == "PAID"
    assert unsigned(production(staff, order_id)) == unsigned(before)
    again = httpx.get(service.url + before[0]["files"][0]["url"], timeout=30, follow_redirects=True)
    assert again.status_code == 200


def test_a_revision_is_ordered_and_printed(shop):
    service, standin, staff, _, customer, address, job = shop
    answer = httpx.post(
        f"{service.url}/api/jobs/{job}/revisions",
        json={"add": ["Zoë"], "remove": [1]},
        headers=staff_headers(),
        timeout=60,
    )
    assert answer.status_code == 201, answer.text
    revision = answer.json()["job_id"]
    finished = service.wait_for(revision, lambda j: j["status"] in ("success", "failed"), 120)
    assert (finished["status"], finished["parent_job_id"]) == ("success", job)
    # sent as its proof's next version and approved (docs/proofs.md)
    assert approved_over_http(service.url, revision, staff.headers)["version"] == 2
    product = staff.call(
        "POST", "/api/products", {"name": "A5", "price": 900, "kind": "print", "widthMm": 148}
    ).json()
    order_id, _ = ordered_and_paid(customer, standin, address, product["id"], revision)

    made = wait_until(lambda: ready(staff, order_id), timeout=120)
    assert made, production(staff, order_id)
    assert revision in str(made[0]["design"])
    pdf = httpx.get(service.url + made[0]["files"][0]["url"], timeout=60, follow_redirects=True)
    assert pdf.content.startswith(b"%PDF-1.3")
