"""What staff see in the commerce admin: money in yuan, design-list items as linked rows,
end users read-only."""

import pytest

from commerce.models import EndUser, OrderItem, Product
from tests.commerce.factories import make_design_list, make_order, make_product
from tests.wordclouds.conftest import finished_job, names_xlsx  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_money_shows_in_yuan_with_two_decimals(admin_client, alice):
    product = make_product(price=65700)
    order = make_order(alice.user)
    order.total_amount = 131405
    order.save(update_fields=["total_amount"])
    OrderItem.objects.create(
        order=order,
        product=product,
        product_name=product.name,
        unit_price=65700,
        quantity=2,
        subtotal=131400,
    )

    products = admin_client.get("/admin/commerce/product/").content.decode()
    orders = admin_client.get("/admin/commerce/order/").content.decode()
    page = admin_client.get(f"/admin/commerce/order/{order.pk}/change/").content.decode()

    assert "¥657.00" in products and "65700" not in products
    assert "¥1,314.05" in orders
    assert "¥657.00" in page and "¥1,314.00" in page and "¥1,314.05" in page


def test_staff_set_a_price_in_yuan_and_fen_are_kept(admin_client):
    response = admin_client.post(
        "/admin/commerce/product/add/",
        {
            "name": "Poster A2",
            "description": "",
            "price_yuan": "89.90",
            "active": "on",
            "kind": "engrave",
            "width_mm": "420",
        },
    )

    assert response.status_code == 302
    product = Product.objects.get(name="Poster A2")
    assert (product.price, product.kind, product.width_mm, product.height_mm) == (
        8990,
        "engrave",
        420,
        None,
    )


def test_design_list_items_are_linked_rows_with_thumbnails(admin_client, alice, finished_job):
    job_id = finished_job()
    design_list = make_design_list(alice.user)
    design_list.items = [{"jobId": job_id, "quantity": 3}]
    design_list.save()

    html = admin_client.get(f"/admin/commerce/designlist/{design_list.pk}/change/").content.decode()

    assert f'<a href="/admin/wordclouds/job/{job_id}/change/">' in html
    assert f'<img src="/api/jobs/{job_id}/files/png?inline=1"' in html
    assert "<td>3</td>" in html and '"jobId"' not in html
    assert admin_client.get("/admin/commerce/designlist/add/").status_code == 403


def test_end_users_are_read_only(admin_client, alice):
    add = admin_client.get("/admin/commerce/enduser/add/")
    posted = admin_client.post("/admin/commerce/enduser/add/", {})
    listed = admin_client.get("/admin/commerce/enduser/").content.decode()
    page = admin_client.get(f"/admin/commerce/enduser/{alice.user.pk}/change/")

    assert add.status_code == 403 and posted.status_code == 403
    assert EndUser.objects.count() == 1
    assert "Add end user" not in listed and "openid-alice" in listed
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()


@pytest.mark.parametrize(
    "model, query",
    [
        ("order", "status__exact=PENDING"),
        ("designlist", "status__exact=DRAFT"),
        ("product", "active__exact=1"),
        ("enduser", "q=alice"),
        ("address", "q=Li"),
    ],
)
def test_list_pages_filter_and_search(admin_client, alice, model, query):
    assert admin_client.get(f"/admin/commerce/{model}/?{query}").status_code == 200
