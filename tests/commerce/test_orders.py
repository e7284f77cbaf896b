"""Order creation (prices from the database, address snapshot, design-list hand-over,
idempotent requestId), reads with ownership, and the list's pagination."""

import json

import pytest

from commerce.models import DesignList, Order, OrderItem
from tests.commerce.factories import make_address, make_design_list, make_order, make_product
from tests.errors import refusal

pytestmark = pytest.mark.django_db


@pytest.fixture
def poster():
    return make_product("Poster A3", 4900)


@pytest.fixture
def frame():
    return make_product("Frame", 2500)


@pytest.fixture
def home(alice):
    return make_address(alice.user)


def order_body(address, *lines, **extra):
    return {
        "addressId": address.pk,
        "items": [{"productId": product.pk, "quantity": quantity} for product, quantity in lines],
        **extra,
    }


def test_create_computes_the_total_from_database_prices(alice, home, poster, frame):
    response = alice.post("/api/orders", order_body(home, (poster, 2), (frame, 1)), format="json")

    assert response.status_code == 201
    order = response.json()
    assert order["status"] == "PENDING"
    assert order["totalAmount"] == 2 * 4900 + 2500
    assert order["items"] == [
        {
            "productId": poster.pk,
            "productName": "Poster A3",
            "unitPrice": 4900,
            "quantity": 2,
            "subtotal": 9800,
        },
        {
            "productId": frame.pk,
            "productName": "Frame",
            "unitPrice": 2500,
            "quantity": 1,
            "subtotal": 2500,
        },
    ]
    assert order["address"] == {
        "recipient": "Li Lei",
        "phone": "13800138000",
        "province": "Guangdong",
        "city": "Shenzhen",
        "district": "Nanshan",
        "detail": "1 Keyuan Road",
    }
    assert order["designListId"] is None and order["requestId"] is None
    assert order["createdAt"].endswith("Z") and order["paidAt"] is None


def test_the_order_keeps_its_snapshot_when_address_and_price_change(alice, home, poster):
    order_id = alice.post("/api/orders", order_body(home, (poster, 1)), format="json").json()["id"]

    home.city = "Beijing"
    home.save()
    poster.price = 1
    poster.save()

    order = alice.get(f"/api/orders/{order_id}").json()
    assert order["address"]["city"] == "Shenzhen"
    assert order["totalAmount"] == 4900 and order["items"][0]["unitPrice"] == 4900


@pytest.mark.parametrize("status", [DesignList.Status.DRAFT, DesignList.Status.SUBMITTED])
def test_the_design_list_moves_to_processing_with_the_order(alice, home, poster, status):
    design_list = make_design_list(alice.user, status)

    response = alice.post(
        "/api/orders", order_body(home, (poster, 1), designListId=design_list.pk), format="json"
    )

    assert response.status_code == 201
    assert response.json()["designListId"] == design_list.pk
    design_list.refresh_from_db()
    assert design_list.status == "PROCESSING" and design_list.processing_at is not None


def test_total_amount_from_the_client_is_400(alice, home, poster):
    response = alice.post(
        "/api/orders", order_body(home, (poster, 1), totalAmount=1), format="json"
    )

    assert response.status_code == 400
    assert refusal(response) == "totalAmount is computed by the server"
    assert not Order.objects.exists()


@pytest.mark.parametrize("field", ["userId", "price", "amount"])
def test_a_user_id_or_an_amount_from_the_client_is_400(alice, bob, home, poster, field):
    response = alice.post(
        "/api/orders", order_body(home, (poster, 1), **{field: bob.user.pk}), format="json"
    )

    assert response.status_code == 400
    assert refusal(response) == f"unknown field: {field}"
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    "items, detail",
    [
        ([], "items must be a non-empty array"),
        (
            [{"productId": "POSTER", "quantity": 0}],
            "items[0].quantity must be an integer from 1 to 999",
        ),
        (
            [{"productId": "POSTER", "quantity": 1000}],
            "items[0].quantity must be an integer from 1 to 999",
        ),
        (
            [{"productId": "POSTER", "quantity": 1.5}],
            "items[0].quantity must be an integer from 1 to 999",
        ),
        (
            [{"productId": "POSTER", "quantity": 1, "unitPrice": 1}],
            "items[0] must be an object with productId and quantity",
        ),
        (
            [{"productId": "POSTER", "quantity": 1}, {"productId": "POSTER", "quantity": 2}],
            "items must name each productId once",
        ),
        ([{"productId": 987654, "quantity": 1}], "unknown productId: 987654"),
        (
            [{"productId": 2**63, "quantity": 1}],
            "items[0].productId must be an integer from 1 to 2^63-1",
        ),
        (
            [{"productId": "POSTER", "quantity": 1}, {"productId": "INACTIVE", "quantity": 1}],
            "product INACTIVE is not available",
        ),
    ],
)
def test_bad_items_are_400_and_create_nothing(alice, home, poster, items, detail):
    inactive = make_product("Retired", 100, active=False)
    ids = {"POSTER": poster.pk, "INACTIVE": inactive.pk}
    items = [{k: ids.get(v, v) for k, v in item.items()} for item in items]

    response = alice.post("/api/orders", {"addressId": home.pk, "items": items}, format="json")

    assert response.status_code == 400
    assert refusal(response) == detail.replace("INACTIVE", str(inactive.pk))
    assert not Order.objects.exists() and not OrderItem.objects.exists()


@pytest.mark.parametrize("value", [2**63, 2**64, 10**30])
def test_a_product_id_the_database_cannot_hold_is_400_naming_product_id(alice, home, value):
    body = {"addressId": home.pk, "items": [{"productId": value, "quantity": 1}]}

    response = alice.post("/api/orders", json.dumps(body), content_type="application/json")

    assert response.status_code == 400
    assert refusal(response) == "items[0].productId must be an integer from 1 to 2^63-1"
    assert not Order.objects.exists()


@pytest.mark.parametrize("value", [2**63, 2**64, 10**30])
@pytest.mark.parametrize("field", ["addressId", "designListId"])
def test_an_id_beyond_64_bits_is_400_naming_its_field(alice, home, poster, field, value):
    body = order_body(home, (poster, 1))
    body[field] = value

    response = alice.post("/api/orders", body, format="json")

    assert response.status_code == 400
    assert refusal(response) == f"{field} must be an integer from 1 to 2^63-1"
    assert not Order.objects.exists()


def test_another_users_address_is_404(alice, bob, poster):
    theirs = make_address(bob.user)

    response = alice.post("/api/orders", order_body(theirs, (poster, 1)), format="json")

    assert response.status_code == 404
    assert refusal(response) == "address not found"


def test_another_users_design_list_is_404_and_stays_as_it_was(alice, bob, home, poster):
    theirs = make_design_list(bob.user)

    response = alice.post(
        "/api/orders", order_body(home, (poster, 1), designListId=theirs.pk), format="json"
    )

    assert response.status_code == 404
    assert refusal(response) == "design list not found"
    theirs.refresh_from_db()
    assert theirs.status == "DRAFT"
    assert not Order.objects.exists() and not OrderItem.objects.exists()


@pytest.mark.parametrize("status", [DesignList.Status.PROCESSING, DesignList.Status.DONE])
def test_a_design_list_already_handed_over_is_409_and_no_order_remains(alice, home, poster, status):
    design_list = make_design_list(alice.user, status)

    response = alice.post(
        "/api/orders",
        order_body(home, (poster, 1), designListId=design_list.pk, requestId="r-1"),
        format="json",
    )

    assert response.status_code == 409
    assert refusal(response) == f"design list cannot be ordered in status {status}"
    # The order row and its items were written before the design list was checked: all rolled back.
    assert not Order.objects.exists() and not OrderItem.objects.exists()


def test_an_inactive_product_leaves_no_order_and_the_design_list_unchanged(alice, home, poster):
    design_list = make_design_list(alice.user, DesignList.Status.SUBMITTED)
    retired = make_product("Retired", 100, active=False)

    response = alice.post(
        "/api/orders",
        order_body(home, (poster, 1), (retired, 1), designListId=design_list.pk, requestId="r-2"),
        format="json",
    )

    assert response.status_code == 400
    design_list.refresh_from_db()
    assert design_list.status == "SUBMITTED" and design_list.processing_at is None
    assert not Order.objects.exists()
    # The requestId was not consumed by the failed attempt.
    retired.active = True
    retired.save()
    retry = alice.post(
        "/api/orders",
        order_body(home, (poster, 1), (retired, 1), designListId=design_list.pk, requestId="r-2"),
        format="json",
    )
    assert retry.status_code == 201


def test_a_repeated_request_id_answers_the_first_order(alice, home, poster, frame):
    first = alice.post(
        "/api/orders", order_body(home, (poster, 1), requestId="req-1"), format="json"
    )

    again = alice.post(
        "/api/orders", order_body(home, (frame, 5), requestId="req-1"), format="json"
    )

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Order.objects.count() == 1


def test_a_request_id_is_each_users_own(alice, bob, home, poster):
    first = alice.post(
        "/api/orders", order_body(home, (poster, 1), requestId="req-1"), format="json"
    )

    response = bob.post(
        "/api/orders",
        order_body(make_address(bob.user), (poster, 1), requestId="req-1"),
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["id"] != first.json()["id"]
    assert response.json()["requestId"] == "req-1"
    assert Order.objects.filter(request_id="req-1").count() == 2


@pytest.mark.parametrize(
    "request_id, detail",
    [
        ("", "requestId must not be empty"),
        ("r" * 65, "requestId: Ensure this field has no more than 64 characters."),
    ],
)
def test_bad_request_id_is_400(alice, home, poster, request_id, detail):
    response = alice.post(
        "/api/orders", order_body(home, (poster, 1), requestId=request_id), format="json"
    )

    assert response.status_code == 400
    assert refusal(response) == detail


def test_staff_cannot_create_orders(staff, alice, home, poster):
    response = staff.post("/api/orders", order_body(home, (poster, 1)), format="json")

    assert response.status_code == 403


# ---- reads ---------------------------------------------------------------------------------------


def test_detail_owner_other_user_staff_unknown(alice, bob, staff):
    order = make_order(alice.user)

    assert alice.get(f"/api/orders/{order.pk}").status_code == 200
    # another user's order answers as an unknown one would: its id tells bob nothing
    assert refusal(bob.get(f"/api/orders/{order.pk}")) == "order not found"
    assert bob.get(f"/api/orders/{order.pk}").status_code == 404
    assert staff.get(f"/api/orders/{order.pk}").json()["id"] == order.pk
    assert alice.get(f"/api/orders/{order.pk + 100}").status_code == 404
    assert refusal(alice.get(f"/api/orders/{order.pk + 100}")) == "order not found"


def test_list_pages_newest_first_with_total(alice, bob):
    ids = [make_order(alice.user).pk for _ in range(5)]
    make_order(bob.user)

    page1 = alice.get("/api/orders", {"page": 1, "pageSize": 2}).json()
    page3 = alice.get("/api/orders", {"page": 3, "pageSize": 2}).json()
    page4 = alice.get("/api/orders", {"page": 4, "pageSize": 2}).json()

    assert [o["id"] for o in page1["list"]] == ids[::-1][:2]
    assert (page1["total"], page1["page"], page1["pageSize"]) == (5, 1, 2)
    assert [o["id"] for o in page3["list"]] == [ids[0]]
    assert page4["list"] == [] and page4["total"] == 5


def test_list_defaults_and_status_filter(alice):
    pending = make_order(alice.user)
    make_order(alice.user, Order.Status.PAID)

    default = alice.get("/api/orders").json()
    filtered = alice.get("/api/orders", {"status": "PENDING"}).json()
    blank = alice.get("/api/orders", {"status": ""}).json()

    assert (default["page"], default["pageSize"], default["total"]) == (1, 20, 2)
    assert blank["total"] == 2
    assert [o["id"] for o in filtered["list"]] == [pending.pk] and filtered["total"] == 1


def test_list_search_by_order_id_or_part_of_the_request_id(alice, bob, staff):
    first = make_order(alice.user, request_id="shop-2026-0001")
    second = make_order(alice.user, request_id="shop-2026-0002")
    other = make_order(bob.user, request_id="shop-2026-0003")

    by_id = staff.get("/api/orders", {"search": str(first.pk)}).json()
    by_request = staff.get("/api/orders", {"search": "SHOP-2026"}).json()
    own_only = alice.get("/api/orders", {"search": "shop-2026"}).json()
    nothing = staff.get("/api/orders", {"search": "no-such-order"}).json()
    too_long = staff.get("/api/orders", {"search": "9" * 65})

    assert [o["id"] for o in by_id["list"]] == [first.pk]
    assert [o["id"] for o in by_request["list"]] == [other.pk, second.pk, first.pk]
    assert [o["id"] for o in own_only["list"]] == [second.pk, first.pk]
    assert nothing["list"] == [] and nothing["total"] == 0
    assert too_long.status_code == 400
    assert refusal(too_long) == "search must be at most 64 characters"


def test_staff_list_every_order(alice, bob, staff):
    make_order(alice.user)
    make_order(bob.user)

    assert staff.get("/api/orders").json()["total"] == 2


@pytest.mark.parametrize(
    "query, detail",
    [
        ({"page": 0}, "page must be an integer of at least 1"),
        ({"page": "x"}, "page must be an integer of at least 1"),
        ({"pageSize": 0}, "pageSize must be an integer from 1 to 100"),
        ({"pageSize": 101}, "pageSize must be an integer from 1 to 100"),
        ({"status": "LOST"}, "status must be one of PENDING, PAID, SHIPPED, COMPLETED, CANCELLED"),
        ({"search": ["a", "b"]}, "search must be given once"),
        ({"page": ["1", "2"]}, "page must be given once"),
    ],
)
def test_list_bounds_are_400(alice, query, detail):
    response = alice.get("/api/orders", query)

    assert response.status_code == 400
    assert refusal(response) == detail
