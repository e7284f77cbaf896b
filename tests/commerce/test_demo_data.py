"""The demo data command: what it prints lets a newcomer call the API as the demo user."""

import io

import pytest
from django.core.management import call_command

from tests.commerce.factories import client_with

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("approval_required", [False, True])
def test_demo_data_makes_one_order_in_each_state_for_a_user_whose_token_works(
    settings, approval_required
):
    settings.PROOF_APPROVAL_REQUIRED = approval_required
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    call_command("demo_data", stdout=out)  # a second run adds nothing

    token = out.getvalue().strip().splitlines()[-1]
    orders = client_with(token).get("/api/orders").json()
    assert orders["total"] == 5
    assert sorted(order["status"] for order in orders["list"]) == [
        "CANCELLED",
        "COMPLETED",
        "PAID",
        "PENDING",
        "SHIPPED",
    ]
    assert all(order["address"]["city"] == "深圳市" for order in orders["list"])
    # an unapproved job's design list is never ordered (docs/proofs.md)
    ordered = sum(order["designListId"] is not None for order in orders["list"])
    assert ordered == (0 if approval_required else 2)
