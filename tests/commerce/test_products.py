"""The catalogue: public reads of active products, staff writes with the admin token."""

import pytest
from rest_framework.test import APIClient

from commerce.models import Product
from tests.commerce.factories import make_product
from tests.errors import refusal

pytestmark = pytest.mark.django_db


def test_list_shows_active_products_only():
    shown = make_product("Poster A3", 4900)
    make_product("Old poster", 100, active=False)

    response = APIClient().get("/api/products")

    assert response.status_code == 200
    assert response.json() == [
        {
            "id": shown.pk,
            "name": "Poster A3",
            "description": "",
            "price": 4900,
            "active": True,
            "kind": "print",
            "widthMm": None,
            "heightMm": None,
        }
    ]


def test_staff_see_inactive_products_too(staff):
    make_product(active=False)

    assert len(staff.get("/api/products").json()) == 1


def test_detail_and_unknown_product():
    product = make_product()

    assert APIClient().get(f"/api/products/{product.pk}").json()["price"] == 4900
    response = APIClient().get(f"/api/products/{product.pk + 1}")
    assert response.status_code == 404
    assert refusal(response) == "product not found"


def test_staff_create_and_change_a_product(staff):
    created = staff.post(
        "/api/products",
        {"name": "Canvas", "description": "60x90", "price": 19900, "kind": "engrave"},
        format="json",
    )
    assert created.status_code == 201
    product_id = created.json()["id"]

    changed = staff.patch(
        f"/api/products/{product_id}",
        {"price": 17900, "active": False, "widthMm": 420, "heightMm": None},
        format="json",
    )

    assert changed.status_code == 200
    assert changed.json() == {
        "id": product_id,
        "name": "Canvas",
        "description": "60x90",
        "price": 17900,
        "active": False,
        "kind": "engrave",
        "widthMm": 420.0,
        "heightMm": None,
    }
    assert Product.objects.get(pk=product_id).price == 17900


@pytest.mark.parametrize(
    "body, detail",
    [
        ({"price": 100}, "name is required"),
        ({"name": "x", "price": -1}, "price: Ensure this value is greater than or equal to 0."),
        ({"name": "x", "price": "cheap"}, "price must be an integer"),
        ({"name": "x", "price": 1, "id": 7}, "unknown field: id"),
    ],
)
def test_bad_product_input_is_400(staff, body, detail):
    response = staff.post("/api/products", body, format="json")

    assert response.status_code == 400
    assert refusal(response) == detail
    assert Product.objects.count() == 0


def test_writes_without_a_token_are_401():
    product = make_product()

    assert (
        APIClient().post("/api/products", {"name": "x", "price": 1}, format="json").status_code
        == 401
    )
    assert (
        APIClient().patch(f"/api/products/{product.pk}", {"price": 1}, format="json").status_code
        == 401
    )
    product.refresh_from_db()
    assert product.price == 4900


def test_a_size_outside_the_print_limits_is_refused(staff):
    response = staff.post(
        "/api/products", {"name": "Wall", "price": 1, "widthMm": 6000}, format="json"
    )

    assert response.status_code == 400
    assert "widthMm" in response.json()["detail"]
