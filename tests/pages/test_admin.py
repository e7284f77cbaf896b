"""The admin in a real browser: its CSS and icons load from the service, and the index, a
job page and an order page come out styled, with the previews staff work from."""

import subprocess
import sys

import httpx
import pytest
from playwright.sync_api import expect

from tests.pages.images import wait_for_image
from tests.pages.test_studio import name_list
from tests.processes import BASE_DIR

pytestmark = pytest.mark.e2e

PASSWORD = "staff-password-for-pages"
UNSTYLED = "rgba(0, 0, 0, 0)"

SHOP = """
from django.contrib.auth.models import User
from commerce.models import DesignList, EndUser, Order, OrderItem, Product
User.objects.create_superuser("staff", "staff@example.com", "{password}")
user = EndUser.objects.create(openid="openid-pages")
product = Product.objects.create(name="Poster A2", price=8990)
design_list = DesignList.objects.create(user=user, name="Class of 2026",
                                        items=[{{"jobId": "{job_id}", "quantity": 2}}])
order = Order.objects.create(user=user, total_amount=17980, design_list=design_list,
                             address={{"recipient": "Li Lei", "city": "Shenzhen"}})
OrderItem.objects.create(order=order, product=product, product_name=product.name,
                         unit_price=8990, quantity=2, subtotal=17980)
print(order.pk)
"""


@pytest.fixture(scope="module")
def shop(service, tmp_path_factory):
    """A finished job, a staff user, and an order of that job's poster, in the service's
    database."""
    names = name_list(tmp_path_factory.mktemp("admin-pages") / "names.xlsx")
    job_id = service.submit(names, {"WIDTH": 400, "HEIGHT": 300, "SEED": 3, "DATA_COL_INDEX": 1})
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert job["status"] == "success", job
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SHOP.format(password=PASSWORD, job_id=job_id)],
        cwd=BASE_DIR,
        env=service.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return {"job_id": job_id, "order_id": int(made.stdout.split()[-1])}


def log_in(page):
    page.goto("/admin/login/")
    page.get_by_label("Username").fill("staff")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(
        page.get_by_role("link", name="Log out").or_(page.get_by_role("button", name="Log out"))
    ).to_be_visible()


def styled(page) -> str:
    """The admin header's computed background: transparent when no CSS applied."""
    return page.evaluate("getComputedStyle(document.getElementById('header')).backgroundColor")


def test_the_admin_css_and_icons_come_from_the_service(service):
    for path, content_type in (
        ("/static/admin/css/base.css", "text/css"),
        ("/static/admin/img/icon-yes.svg", "image/svg+xml"),
        ("/static/pages.css", "text/css"),
    ):
        response = httpx.get(service.url + path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith(content_type)


def test_admin_pages_are_styled_with_previews(page, shop, tmp_path):
    log_in(page)

    page.goto("/admin/")
    assert styled(page) != UNSTYLED
    page.screenshot(path=tmp_path / "admin-index.png", full_page=True)

    page.goto(f"/admin/wordclouds/job/{shop['job_id']}/change/")
    assert styled(page) != UNSTYLED
    expect(page.get_by_alt_text(f"poster of job {shop['job_id']}")).to_be_visible()
    wait_for_image(page, "img[alt^='poster of job']")
    expect(page.get_by_role("link", name="open this job in the studio")).to_have_attribute(
        "href", f"/?job={shop['job_id']}"
    )
    expect(page.get_by_text("job finished")).to_be_visible()
    page.screenshot(path=tmp_path / "admin-job.png", full_page=True)

    page.goto(f"/admin/commerce/order/{shop['order_id']}/change/")
    assert styled(page) != UNSTYLED
    expect(page.get_by_text("¥179.80").first).to_be_visible()
    expect(page.get_by_text("¥89.90").first).to_be_visible()
    page.screenshot(path=tmp_path / "admin-order.png", full_page=True)

    page.goto("/admin/commerce/designlist/")
    page.get_by_role("link", name="Class of 2026").click()
    wait_for_image(page, "img[alt^='poster of job']")
    page.screenshot(path=tmp_path / "admin-design-list.png", full_page=True)

    # end users are looked at, never added
    page.goto("/admin/commerce/enduser/")
    expect(page.get_by_text("openid-pages")).to_be_visible()
    assert page.get_by_role("link", name="Add end user").count() == 0
