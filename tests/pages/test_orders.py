"""The staff orders pages, used as staff would: sign in with the admin password, filter and
page through 45 orders, open one, mark it paid and ship it, read the sentence of a refused
move, and land back on sign-in when the token has expired. The orders are made through the
public API by an end user logged in through the stand-in identity platform."""

import io
import json
import time
from unittest import mock

import httpx
import openpyxl
import pytest
from django.conf import settings
from PIL import Image
from playwright.sync_api import expect

from core.admin_token import admin_token_issue
from tests.commerce.conftest import APP_ID, APP_SECRET, identity_platform_server  # noqa: F401
from tests.commerce.proofs_world import approved_over_http
from tests.pages.images import wait_for_image
from tests.pages.staff import staff_sign_in
from tests.processes import Service

pytestmark = pytest.mark.e2e

ORDERS = 45
TOKEN_KEY = "wordclouds.staffToken"


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template, static_root, identity_platform_server):  # noqa: F811
    """The real service with its identity platform on loopback (this module's end user logs in)."""
    folder = tmp_path_factory.mktemp("orders-service")
    service = Service(
        folder,
        database_template,
        STATIC_ROOT=static_root,
        DEBUG="0",
        IDENTITY_PLATFORM_URL=identity_platform_server.url,
        IDENTITY_APP_ID=APP_ID,
        IDENTITY_APP_SECRET=APP_SECRET,
    )
    service.start()
    yield service
    service.stop()


class Shop:
    """An API client of the service: one end user and staff."""

    def __init__(self, service, platform):
        self.url = service.url
        login = httpx.post(
            f"{self.url}/api/auth/login", json={"code": platform.login_code("openid-shopper")}
        )
        self.user = {"Authorization": f"Bearer {login.json()['token']}"}
        self.staff = {
            "Authorization": f"Bearer {self.post('/api/login', {'password': settings.ORDERS_ADMIN_PASSWORD}, None)['token']}"
        }

    def post(self, path, body, headers):
        response = httpx.post(f"{self.url}{path}", json=body, headers=headers or {}, timeout=30)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def order(self, number: int, **extra) -> dict:
        return self.post(
            "/api/orders",
            {
                "addressId": self.address,
                "requestId": f"req-{number:03}",
                "items": [
                    {"productId": self.poster, "quantity": 2},
                    {"productId": self.frame, "quantity": 1},
                ],
                **extra,
            },
            self.user,
        )


@pytest.fixture(scope="module")
def shop(service, identity_platform_server, tmp_path_factory):  # noqa: F811
    shop = Shop(service, identity_platform_server)
    shop.poster = shop.post("/api/products", {"name": "Poster A3", "price": 4900}, shop.staff)["id"]
    shop.frame = shop.post("/api/products", {"name": "Oak frame", "price": 8950}, shop.staff)["id"]
    shop.address = shop.post(
        "/api/addresses",
        {
            "recipient": "韩梅梅",
            "phone": "13800138000",
            "province": "广东省",
            "city": "深圳市",
            "district": "南山区",
            "detail": "科苑路 1 号",
        },
        shop.user,
    )["id"]
    names = tmp_path_factory.mktemp("orders") / "names.xlsx"
    book = openpyxl.Workbook()
    for name in ["name", "Anna", "Bruno", "Chloé", "李雷", "韩梅梅"]:
        book.active.append([name])
    book.save(names)
    # the customer's own job: a design list names only its holder's designs
    shop.job = service.submit(names, {"WIDTH": 500, "HEIGHT": 400, "SEED": 2}, headers=shop.user)
    assert (
        service.wait_for(shop.job, lambda job: job["status"] in ("success", "failed"), 120)[
            "status"
        ]
        == "success"
    )
    shop.project = project(shop)
    approved_over_http(service.url, shop.job, shop.staff)  # docs/proofs.md
    design_list = shop.post(
        "/api/design-lists",
        {
            "name": "Class of 2026",
            "items": [
                {"jobId": shop.job, "quantity": 3},
                {"projectId": shop.project, "quantity": 1},
            ],
        },
        shop.user,
    )
    shop.orders = [shop.order(1, designListId=design_list["id"])["id"]]
    shop.orders += [shop.order(number)["id"] for number in range(2, ORDERS + 1)]
    for order_id in shop.orders[1:4]:
        shop.post(f"/api/orders/{order_id}/mark-paid", None, shop.staff)
    return shop


def project(shop: Shop) -> str:
    """The shopper's project with one PNG sticker (an asset staff uploaded), made through the
    public API."""
    url = shop.url
    png = io.BytesIO()
    Image.new("RGBA", (40, 40), (200, 30, 30, 255)).save(png, "PNG")
    asset = httpx.post(
        f"{url}/api/assets",
        files={"file": ("sticker.png", png.getvalue())},
        headers=shop.staff,
        timeout=30,
    )
    assert asset.status_code == 201, asset.text
    stickers = [{"asset_id": asset.json()["id"], "x": 100, "y": 100, "width": 300, "height": 300}]
    form = {"name": "Cover", "template_id": "poster_1x1", "background_color": "#FFFFFF"}
    made = httpx.post(
        f"{url}/api/projects",
        data={**form, "stickers": json.dumps(stickers)},
        headers=shop.user,
        timeout=30,
    )
    assert made.status_code == 201, made.text
    return made.json()["id"]


def sign_in(page, path="/orders"):
    page.goto(path)
    page.get_by_label("Admin password").fill(settings.ORDERS_ADMIN_PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def order_rows(page):
    return page.locator("#orders-rows tr")


def test_a_wrong_password_is_said_and_the_right_one_signs_in(page, shop):
    page.goto("/orders")
    page.get_by_label("Admin password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert").first).to_have_text("invalid password")

    sign_in(page)

    expect(page.locator("#orders-page")).to_have_text(f"Page 1 of 3 · {ORDERS} orders")


def test_staff_page_through_filter_and_search_every_order(page, shop):
    sign_in(page)
    newest_first = shop.orders[::-1]

    expect(order_rows(page)).to_have_count(20)
    expect(order_rows(page).first).to_contain_text(f"#{newest_first[0]}")
    expect(order_rows(page).first).to_contain_text("¥187.50")  # 2 × 49.00 + 89.50
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#orders-page")).to_have_text(f"Page 2 of 3 · {ORDERS} orders")
    expect(order_rows(page).first).to_contain_text(f"#{newest_first[20]}")
    page.get_by_role("button", name="Next").click()
    expect(order_rows(page)).to_have_count(5)
    expect(order_rows(page).last).to_contain_text(f"#{shop.orders[0]}")
    expect(page.get_by_role("button", name="Next")).to_be_disabled()

    page.get_by_label("Status").select_option("PAID")
    expect(page.locator("#orders-page")).to_have_text("Page 1 of 1 · 3 orders")
    expect(order_rows(page)).to_have_count(3)
    for index in range(3):
        expect(order_rows(page).nth(index)).to_contain_text("PAID")
    assert "status=PAID" in page.url

    page.get_by_label("Status").select_option("")
    page.get_by_label("Order id or request id").fill("req-007")
    page.get_by_role("button", name="Search").click()
    expect(order_rows(page)).to_have_count(1)
    expect(order_rows(page).first).to_contain_text("req-007")
    page.get_by_label("Order id or request id").fill(str(shop.orders[9]))
    page.get_by_role("button", name="Search").click()
    expect(order_rows(page)).to_have_count(1)
    expect(order_rows(page).first).to_contain_text(f"#{shop.orders[9]}")


def test_new_orders_appear_without_a_reload(page, shop):
    sign_in(page)
    expect(order_rows(page)).to_have_count(20)

    made = shop.order(ORDERS + 1)["id"]

    expect(page.locator(f"#orders-rows tr[data-order-id='{made}']")).to_be_visible(timeout=15_000)
    expect(page.locator(f"#orders-rows tr[data-order-id='{made}']")).to_have_class("order-new")


def test_an_order_is_marked_paid_and_shipped_and_a_forbidden_move_is_explained(page, shop):
    sign_in(page)
    page.get_by_label("Order id or request id").fill("req-001")
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name=f"#{shop.orders[0]}").click()

    expect(page.locator("#order-status")).to_have_text("PENDING")
    expect(page.locator("#order-items")).to_contain_text("Poster A3¥49.002¥98.00")
    expect(page.locator("#order-total")).to_have_text("¥187.50")
    expect(page.locator("#order-address")).to_contain_text("韩梅梅 · 13800138000")
    expect(page.locator("#order-address")).to_contain_text("广东省 深圳市 南山区")
    thumbnail = page.locator(".design-thumbnail").first
    expect(thumbnail).to_have_attribute("src", f"/api/jobs/{shop.job}/tiles/0/0_0.jpg")
    wait_for_image(page, ".design-thumbnail")
    # the job's item names the approval it was ordered by (docs/proofs.md)
    expect(page.locator(".design-approval").first).to_contain_text("Approved: version 1 of proof")
    expect(page.get_by_role("link", name="SVG", exact=True).first).to_have_attribute(
        "href", f"/api/jobs/{shop.job}/files/svg"
    )
    # each design's print PDF: PDF/X-1a at its own size (the job's 500 x 400 px, the
    # project's 1080 x 1080 px, at 96 per inch)
    print_pdfs = page.get_by_role("link", name="print PDF")
    for number, (href, filename) in enumerate(
        [
            (f"/api/jobs/{shop.job}/files/pdf", f"wordcloud-{shop.job}-132.3x105.8mm-PDFX-1a.pdf"),
            (
                f"/api/projects/{shop.project}/render.pdf",
                f"project-{shop.project}-285.7x285.7mm-PDFX-1a.pdf",
            ),
        ]
    ):
        expect(print_pdfs.nth(number)).to_have_attribute("href", href)
        with (
            page.expect_response(lambda answer, href=href: answer.url.endswith(href)) as answer,
            page.expect_download(timeout=60_000) as download,
        ):
            print_pdfs.nth(number).click()
        assert answer.value.status == 200
        assert answer.value.headers["content-type"] == "application/pdf"
        assert download.value.suggested_filename == filename
        with open(download.value.path(), "rb") as exported:
            assert exported.read(5) == b"%PDF-"

    expect(page.get_by_text("No payment yet.")).to_be_visible()

    page.get_by_role("button", name="Ship").click()
    expect(page.get_by_role("alert").last).to_have_text("order cannot be shipped in status PENDING")
    page.get_by_role("button", name="Mark paid").click()
    expect(page.locator("#order-status")).to_have_text("PAID")
    expect(page.get_by_text("Marked paid.")).to_be_visible()
    # Staff's mark-paid is a manual payment, with its event, on the order's page.
    expect(page.locator("#payments")).to_contain_text("manual")
    expect(page.locator("#payments")).to_contain_text("manual payment")
    expect(page.get_by_text("No payment yet.")).to_be_hidden()
    expect(page.locator("#order-error")).to_be_empty()
    page.get_by_role("button", name="Ship").click()
    expect(page.locator("#order-status")).to_have_text("SHIPPED")
    page.get_by_role("button", name="Mark paid").click()
    expect(page.get_by_role("alert").last).to_have_text(
        "order cannot be marked paid in status SHIPPED"
    )

    order = httpx.get(f"{shop.url}/api/orders/{shop.orders[0]}", headers=shop.staff).json()
    assert order["status"] == "SHIPPED" and order["paidAt"] and order["shippedAt"]


def test_an_expired_token_returns_to_sign_in(page, shop):
    with mock.patch("time.time", return_value=time.time() - settings.ADMIN_TOKEN_MAX_AGE - 60):
        expired = admin_token_issue()  # signed 12 hours and a minute ago
    page.goto("/orders")
    page.evaluate("([key, token]) => sessionStorage.setItem(key, token)", [TOKEN_KEY, expired])

    page.reload()

    expect(page.get_by_label("Admin password")).to_be_visible()
    expect(page.locator("#staff-area")).to_be_hidden()
    assert page.evaluate(f"sessionStorage.getItem('{TOKEN_KEY}')") is None


def test_signed_in_staff_look_names_up_through_find(page, shop):
    sign_in(page)
    expect(order_rows(page)).to_have_count(20)
    lookups = []
    page.on(
        "request",
        lambda request: lookups.append(request.url) if "/api/jobs/" in request.url else None,
    )
    find = f"/api/jobs/{shop.job}/find?name=Bruno"

    # Waited for, not read from the listener after the page shows the answer: Playwright may
    # hand a request's event to Python after the page has already drawn its answer.
    with page.expect_response(lambda response: find in response.url) as answer:
        page.goto(f"/jobs/{shop.job}/find?name=Bruno")

    assert answer.value.status == 200
    expect(page.get_by_text("Signed in as staff.")).to_be_visible()
    # The page asks /locations only when /find refuses the token (find.js), which it did not.
    assert not any("/locations?name=Bruno" in url for url in lookups)


def test_one_staff_sign_in_serves_the_studio_and_the_orders_in_both_languages(page, shop):
    # given staff signed in once, on the studio, in English
    page.goto("/")
    staff_sign_in(page)
    expect(page.locator("#past-jobs-area")).to_be_visible()

    # when they switch to Chinese and open the orders
    page.locator(".language-switch button[value=zh-hans]").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    page.goto("/orders")

    # then the orders are listed without a second sign-in, and the studio's past jobs too
    expect(page.locator("#staff-sign-in")).to_be_hidden()
    expect(order_rows(page).first).to_be_visible()
    page.goto("/")
    expect(page.locator("#past-jobs tbody tr").first).to_be_visible()
