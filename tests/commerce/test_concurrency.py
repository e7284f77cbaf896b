"""Races against a real server: a daphne process (as `make run` starts it) on a database of
its own — a copy of the session's migrated SQLite file, or of its PostgreSQL template —
and many truly simultaneous HTTP requests (threads released together by a barrier).
Django's ASGI handler runs each request's sync view in its own thread with its own
database connection, so these are real concurrent transactions."""

import sqlite3
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import urlparse

import psycopg
import pytest
from django.conf import settings

from core.admin_token import admin_token_issue
from tests.commerce.clients import SHENZHEN, Api, new_customer
from tests.commerce.conftest import APP_ID, APP_SECRET
from tests.errors import refusal
from tests.processes import Service
from tests.waiting import wait_for_lock_waiters

pytestmark = [pytest.mark.e2e, pytest.mark.backend]

CONCURRENCY = 20


@contextmanager
def orders_held(database_url: str, waiters: int):
    """Holds back every write to the orders table (reads go on) until `waiters` requests
    wait for it, so concurrent requests all pass their read-only steps and pile up at the
    insert. SQLite cannot show its waiters: there the hold lasts a fixed time."""
    sqlite = database_url.startswith("sqlite")
    if sqlite:
        connection = sqlite3.connect(urlparse(database_url).path, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")  # the database's one write lock
    else:
        connection = psycopg.connect(database_url)
        connection.execute("LOCK TABLE commerce_order IN EXCLUSIVE MODE")
    try:
        yield
        if sqlite:
            time.sleep(1.5)
        else:
            wait_for_lock_waiters(database_url, waiters)
    finally:
        connection.rollback()
        connection.close()


@pytest.fixture(scope="module")
def server(identity_platform_server, database_template, tmp_path_factory):
    """(base URL, database URL) of a daphne server on a database of its own that uses the
    fake identity platform."""
    service = Service(
        tmp_path_factory.mktemp("commerce-e2e"),
        database_template,
        SECRET_KEY=settings.SECRET_KEY,
        IDENTITY_PLATFORM_URL=identity_platform_server.url,
        IDENTITY_APP_ID=APP_ID,
        IDENTITY_APP_SECRET=APP_SECRET,
        LOG_LEVEL="ERROR",
    )
    try:
        service.start(worker=False)
        yield service.url, service.database.url
    finally:
        service.stop()


@pytest.fixture(scope="module")
def world(server, identity_platform_server):
    """A customer with an address, a product, and staff."""
    server, _ = server
    staff = Api(server, admin_token_issue())
    customer = new_customer(server, identity_platform_server)
    product = staff.call("POST", "/api/products", {"name": "Poster", "price": 4900}).json()
    address = customer.call("POST", "/api/addresses", SHENZHEN).json()
    return staff, customer, product["id"], address["id"]


def simultaneously(*calls):
    """Runs the calls in threads released at the same instant; answers their responses."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_concurrent_repeats_of_one_request_id_make_one_order(server, world):
    staff, customer, product_id, address_id = world
    design_list = customer.call("POST", "/api/design-lists", {"name": "Class of 2026"}).json()
    body = {
        "addressId": address_id,
        "items": [{"productId": product_id, "quantity": 3}],
        "designListId": design_list["id"],
        "requestId": f"req-{uuid.uuid4().hex}",
    }
    requests = [lambda: customer.call("POST", "/api/orders", body)] * CONCURRENCY

    # Every request finds no order yet, then all insert the same requestId at once.
    with ThreadPoolExecutor(1) as background, orders_held(server[1], CONCURRENCY):
        pending = background.submit(simultaneously, *requests)
    responses = pending.result()

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * (CONCURRENCY - 1) + [201], [
        r.text for r in responses if r.status_code >= 300
    ]
    assert len({r.json()["id"] for r in responses}) == 1
    orders = [
        o
        for o in customer.call("GET", "/api/orders?pageSize=100").json()["list"]
        if o["requestId"] == body["requestId"]
    ]
    assert len(orders) == 1 and orders[0]["totalAmount"] == 3 * 4900
    moved = customer.call("GET", f"/api/design-lists/{design_list['id']}").json()
    assert moved["status"] == "PROCESSING"


def test_concurrent_orders_for_one_design_list_hand_it_over_once(world):
    staff, customer, product_id, address_id = world
    design_list = customer.call("POST", "/api/design-lists", {"name": "Team photo"}).json()
    # One product per order, so no product row lock puts the orders in line: only the
    # design list's own lock does.
    products = [
        staff.call("POST", "/api/products", {"name": f"Print {n}", "price": 100}).json()["id"]
        for n in range(CONCURRENCY)
    ]

    def order(n):
        return lambda: customer.call(
            "POST",
            "/api/orders",
            {
                "addressId": address_id,
                "items": [{"productId": products[n], "quantity": 1}],
                "designListId": design_list["id"],
                "requestId": f"req-{uuid.uuid4().hex}-{n}",
            },
        )

    responses = simultaneously(*[order(n) for n in range(CONCURRENCY)])

    assert sorted(r.status_code for r in responses) == [201] + [409] * (CONCURRENCY - 1)
    assert {r.json()["detail"] for r in responses if r.status_code == 409} == {
        "design list cannot be ordered in status PROCESSING"
    }


def test_cancel_and_mark_paid_racing_end_cancelled_and_square(world):
    staff, customer, product_id, address_id = world
    body = {"addressId": address_id, "items": [{"productId": product_id, "quantity": 1}]}
    orders = [customer.call("POST", "/api/orders", body).json()["id"] for _ in range(8)]

    for order_id in orders:
        cancel, pay = simultaneously(
            lambda: customer.call("POST", f"/api/orders/{order_id}/cancel"),  # noqa: B023 (called at once)
            lambda: staff.call("POST", f"/api/orders/{order_id}/mark-paid"),  # noqa: B023
        )

        final = staff.call("GET", f"/api/orders/{order_id}").json()
        assert cancel.status_code == 200 and final["status"] == "CANCELLED"
        if pay.status_code == 200:
            # Marked paid first, then cancelled: the manual payment is refunded (by staff).
            assert final["paidAt"] and final["cancelledAt"]
            assert final["payment"]["refundedAmount"] == final["totalAmount"]
        else:
            assert pay.json()["detail"] == "order cannot be marked paid in status CANCELLED"
            assert final["paidAt"] is None and final["payment"] is None


def test_a_product_turning_inactive_during_the_order_leaves_nothing(server, world):
    base, database_url = server
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite runs one writer at a time: a product cannot change during an order")
    staff, customer, _, address_id = world
    product_id = staff.call("POST", "/api/products", {"name": "Last print", "price": 100}).json()[
        "id"
    ]
    design_list = customer.call("POST", "/api/design-lists", {"name": "Late order"}).json()
    body = {
        "addressId": address_id,
        "items": [{"productId": product_id, "quantity": 1}],
        "designListId": design_list["id"],
        "requestId": f"req-{uuid.uuid4().hex}",
    }

    # Staff deactivate the product in a transaction that commits only once the order has
    # written its row and waits for the product's lock.
    with psycopg.connect(database_url) as staff_db, ThreadPoolExecutor(1) as background:
        staff_db.execute("UPDATE commerce_product SET active = false WHERE id = %s", [product_id])
        pending = background.submit(customer.call, "POST", "/api/orders", body)
        wait_for_lock_waiters(database_url, 1)
        staff_db.commit()
        response = pending.result()

    assert response.status_code == 400
    assert refusal(response) == f"product {product_id} is not available"
    orders = customer.call("GET", "/api/orders?pageSize=100").json()["list"]
    assert body["requestId"] not in {o["requestId"] for o in orders}
    assert (
        customer.call("GET", f"/api/design-lists/{design_list['id']}").json()["status"] == "DRAFT"
    )
