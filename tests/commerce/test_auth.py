"""Tokens on commerce endpoints: end-user token, admin token, none, forged, expired."""

import pytest
from django.core import signing
from rest_framework.test import APIClient

from core.identity import CUSTOMER_TOKEN_SALT
from tests.commerce.factories import client_with
from tests.errors import refusal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/orders", "/api/addresses", "/api/design-lists"])
def test_no_token_is_401(path):
    response = APIClient().get(path)

    assert response.status_code == 401
    assert refusal(response) == "authentication required"


def test_a_forged_token_is_401(alice):
    forged = signing.dumps(
        {"uid": alice.user.pk}, salt=CUSTOMER_TOKEN_SALT, key="not-our-secret-key-at-all"
    )

    response = client_with(forged).get("/api/orders")

    assert response.status_code == 401
    assert refusal(response) == "invalid or expired token"


def test_an_expired_token_is_401(alice, settings):
    settings.COMMERCE_USER_TOKEN_MAX_AGE = -1

    response = alice.get("/api/orders")

    assert response.status_code == 401
    assert refusal(response) == "invalid or expired token"


def test_a_user_token_is_not_an_admin_token(alice):
    response = alice.post("/api/products", {"name": "x", "price": 1}, format="json")

    assert response.status_code == 403
    assert refusal(response) == "invalid or missing token"


def test_the_admin_token_cannot_act_as_an_end_user(staff):
    response = staff.get("/api/addresses")

    assert response.status_code == 403
    assert refusal(response) == "this endpoint needs an end-user token"
