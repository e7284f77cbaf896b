"""The caller's own addresses: full CRUD, one default, another user's address is 404."""

import pytest

from commerce.models import Address
from tests.commerce.factories import make_address
from tests.errors import refusal

pytestmark = pytest.mark.django_db

HOME = {
    "recipient": "Li Lei",
    "phone": "13800138000",
    "province": "Guangdong",
    "city": "Shenzhen",
    "district": "Nanshan",
    "detail": "1 Keyuan Road",
}


def test_create_read_update_delete(alice):
    created = alice.post("/api/addresses", HOME, format="json")
    assert created.status_code == 201
    address_id = created.json()["id"]
    assert created.json() == {
        "id": address_id,
        **HOME,
        "isDefault": True,
    }  # the first is the default

    changed = alice.patch(
        f"/api/addresses/{address_id}", {"detail": "2 Keyuan Road"}, format="json"
    )
    assert changed.json()["detail"] == "2 Keyuan Road"
    replaced = alice.put(
        f"/api/addresses/{address_id}", {**HOME, "city": "Guangzhou"}, format="json"
    )
    assert replaced.json()["city"] == "Guangzhou"
    assert alice.get(f"/api/addresses/{address_id}").json()["city"] == "Guangzhou"

    deleted = alice.delete(f"/api/addresses/{address_id}")

    assert deleted.status_code == 204
    assert deleted.content == b""
    assert alice.get("/api/addresses").json() == []


def test_only_one_address_is_the_default(alice):
    first = alice.post("/api/addresses", HOME, format="json").json()
    second = alice.post("/api/addresses", {**HOME, "isDefault": True}, format="json").json()
    third = alice.post("/api/addresses", HOME, format="json").json()

    alice.patch(f"/api/addresses/{first['id']}", {"isDefault": True}, format="json")

    defaults = {a["id"]: a["isDefault"] for a in alice.get("/api/addresses").json()}
    assert defaults == {first["id"]: True, second["id"]: False, third["id"]: False}


def test_list_shows_only_the_callers_addresses(alice, bob):
    make_address(bob.user)
    mine = make_address(alice.user)

    assert [a["id"] for a in alice.get("/api/addresses").json()] == [mine.pk]


@pytest.mark.parametrize("method", ["get", "patch", "put", "delete"])
def test_another_users_address_is_404_and_unchanged(alice, bob, method):
    theirs = make_address(bob.user, recipient="Han Meimei")

    response = getattr(alice, method)(f"/api/addresses/{theirs.pk}", HOME, format="json")

    assert response.status_code == 404
    assert refusal(response) == "address not found"
    theirs.refresh_from_db()
    assert theirs.recipient == "Han Meimei"


def test_a_user_id_in_the_body_is_rejected(alice, bob):
    response = alice.post("/api/addresses", {**HOME, "userId": bob.user.pk}, format="json")

    assert response.status_code == 400
    assert refusal(response) == "unknown field: userId"
    assert Address.objects.count() == 0


@pytest.mark.parametrize(
    "change, detail",
    [
        ({"recipient": ""}, "recipient must not be empty"),
        ({"city": None}, "city is required"),
        ({"phone": "call me"}, "phone must be a phone number"),
        ({"detail": "x" * 201}, "detail: Ensure this field has no more than 200 characters."),
    ],
)
def test_bad_address_input_is_400(alice, change, detail):
    response = alice.post("/api/addresses", {**HOME, **change}, format="json")

    assert response.status_code == 400
    assert refusal(response) == detail
