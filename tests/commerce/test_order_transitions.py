"""The order state table: every move from every state; only the table's moves succeed,
everything else is 409 and changes nothing. Who may make each move."""

import pytest
from rest_framework.test import APIClient

from commerce.models import Order
from tests.commerce.factories import make_order
from tests.errors import refusal

pytestmark = pytest.mark.django_db

S = Order.Status
# action -> (HTTP method, path suffix, who, verb in the 409 text)
ACTIONS = {
    "confirm": ("patch", "confirm", "owner", "confirmed"),
    "cancel": ("post", "cancel", "owner", "cancelled"),
    "mark-paid": ("post", "mark-paid", "staff", "marked paid"),
    "ship": ("post", "ship", "staff", "shipped"),
}
ALLOWED = {
    ("confirm", S.SHIPPED): (S.COMPLETED, "completedAt"),
    ("cancel", S.PENDING): (S.CANCELLED, "cancelledAt"),
    ("cancel", S.PAID): (S.CANCELLED, "cancelledAt"),  # refunded in full (test_payments*.py)
    ("mark-paid", S.PENDING): (S.PAID, "paidAt"),
    ("ship", S.PAID): (S.SHIPPED, "shippedAt"),
}


def act(client, action, order):
    method, suffix, _, _ = ACTIONS[action]
    return getattr(client, method)(f"/api/orders/{order.pk}/{suffix}")


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("status", S.values)
def test_state_table(alice, staff, action, status):
    order = make_order(alice.user, status)
    before = Order.objects.filter(pk=order.pk).values().get()
    client = alice if ACTIONS[action][2] == "owner" else staff

    response = act(client, action, order)

    if (action, status) in ALLOWED:
        target, stamp = ALLOWED[(action, status)]
        assert response.status_code == 200
        assert response.json()["status"] == target
        assert response.json()[stamp].endswith("Z")
        order.refresh_from_db()
        assert order.status == target
    else:
        assert response.status_code == 409
        assert refusal(response) == (f"order cannot be {ACTIONS[action][3]} in status {status}")
        assert Order.objects.filter(pk=order.pk).values().get() == before


def test_a_full_life(alice, staff):
    order = make_order(alice.user)

    for client, action in ((staff, "mark-paid"), (staff, "ship"), (alice, "confirm")):
        assert act(client, action, order).status_code == 200

    order.refresh_from_db()
    assert order.status == "COMPLETED"
    assert order.paid_at <= order.shipped_at <= order.completed_at


def test_staff_may_cancel_any_order(alice, staff):
    order = make_order(alice.user)

    assert act(staff, "cancel", order).json()["status"] == "CANCELLED"


@pytest.mark.parametrize("action", ["confirm", "cancel"])
def test_another_user_cannot_confirm_or_cancel(alice, bob, action):
    order = make_order(alice.user, S.SHIPPED if action == "confirm" else S.PENDING)

    response = act(bob, action, order)

    assert response.status_code == 404
    assert refusal(response) == "order not found"
    order.refresh_from_db()
    assert (
        order.status in (S.SHIPPED, S.PENDING)
        and order.completed_at is None
        and order.cancelled_at is None
    )


def test_only_the_owner_confirms(alice, staff):
    order = make_order(alice.user, S.SHIPPED)

    assert act(staff, "confirm", order).status_code == 403


@pytest.mark.parametrize("action", ["mark-paid", "ship"])
def test_end_users_cannot_pay_or_ship(alice, action):
    order = make_order(alice.user, S.PENDING if action == "mark-paid" else S.PAID)

    response = act(alice, action, order)

    assert response.status_code == 403
    assert refusal(response) == "this endpoint is for staff"


@pytest.mark.parametrize("action", ACTIONS)
def test_no_token_is_401(alice, action):
    order = make_order(alice.user)

    assert act(APIClient(), action, order).status_code == 401


@pytest.mark.parametrize("action", ACTIONS)
def test_unknown_order_is_404(alice, staff, action):
    client = alice if ACTIONS[action][2] == "owner" else staff
    missing = Order(pk=424242)

    response = act(client, action, missing)

    assert response.status_code == 404
    assert refusal(response) == "order not found"
