"""Staff pages: order and design-list actions go through the transition functions."""

import pytest

from commerce.models import DesignList, Order
from tests.commerce.factories import make_design_list, make_order, make_product

pytestmark = pytest.mark.django_db

S = Order.Status


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """admin_client makes a superuser; the production hasher takes most of a second."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def run_action(admin_client, model, action, *records):
    return admin_client.post(
        f"/admin/commerce/{model}/",
        {"action": action, "_selected_action": [r.pk for r in records]},
        follow=True,
    )


@pytest.mark.parametrize(
    "action, start, end, stamp",
    [
        ("mark_paid", S.PENDING, S.PAID, "paid_at"),
        ("ship", S.PAID, S.SHIPPED, "shipped_at"),
        ("cancel", S.PENDING, S.CANCELLED, "cancelled_at"),
    ],
)
def test_order_actions_move_allowed_orders_and_report_the_rest(
    admin_client, alice, action, start, end, stamp
):
    movable = make_order(alice.user, start)
    stuck = make_order(alice.user, S.COMPLETED)

    response = run_action(admin_client, "order", action, movable, stuck)

    movable.refresh_from_db()
    stuck.refresh_from_db()
    assert movable.status == end and getattr(movable, stamp) is not None
    assert stuck.status == S.COMPLETED
    text = response.content.decode()
    assert f"#{stuck.pk}: order cannot be" in text and "in status COMPLETED" in text


def test_design_list_done_action(admin_client, alice):
    processing = make_design_list(alice.user, DesignList.Status.PROCESSING)
    draft = make_design_list(alice.user)

    run_action(admin_client, "designlist", "finish", processing, draft)

    processing.refresh_from_db()
    draft.refresh_from_db()
    assert (processing.status, draft.status) == ("DONE", "DRAFT")
    assert processing.done_at is not None


@pytest.mark.parametrize("model", ["product", "order", "designlist", "enduser", "address"])
def test_changelists_render(admin_client, alice, model):
    make_product()
    make_order(alice.user)

    assert admin_client.get(f"/admin/commerce/{model}/").status_code == 200


def test_order_page_shows_items_and_hides_the_session_key(admin_client, alice):
    order = make_order(alice.user)

    assert admin_client.get(f"/admin/commerce/order/{order.pk}/change/").status_code == 200
    user_page = admin_client.get(
        f"/admin/commerce/enduser/{alice.user.pk}/change/"
    ).content.decode()
    assert alice.user.session_key not in user_page
