"""Backup and restore end to end with real processes (docs/deploy.md, "Backup and restore"):
the service makes jobs (one of them a revision), an asset, a project and orders paid through
the stand-in payment platform (one refunded); `manage.py backup` runs as a process of its own
on the service's database and store while a big job runs and a payment's notify arrives;
the service is stopped and its database and files wiped, the backup restored by `manage.py
restore` onto a fresh set-up (a database just migrated, an empty media folder or a new
bucket), and the service started again on it.
Through HTTP: every job lists with its status, every artifact downloads with the same
SHA-256, the lookups answer the same, the asset and the project are the same, every order,
payment and refund is as it was at one moment of the backup, and the ledger's invariant
holds. The job running at backup time is failed by the stale-job rule and the one queued
behind it is run by the restored worker, as docs/deploy.md says."""

import json
import os
import shutil
import subprocess
import sys
import uuid

import httpx
import pytest

from core.admin_token import admin_token_issue
from tests.commerce.clients import SHENZHEN, Api, new_customer
from tests.commerce.conftest import identity_platform_server  # noqa: F401  (a fixture)
from tests.commerce.payments_world import (
    Standin,
    ledger_squares,
    listed_all,
    notify_post,
    notify_signed,
    paying_service,
    platform_transaction,
    reconcile,
    wait_until,
)
from tests.names import latin_names, sample_names, write_names
from tests.processes import BASE_DIR, Service, staff_headers
from wordclouds.selectors import STALE_ERROR

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
PARAMS = {"WIDTH": 600, "HEIGHT": 400, "SEED": 7}
DOES_NOT_FIT = {"WIDTH": 64, "HEIGHT": 64, "MIN_FONT_SIZE": 30, "SEED": 7}
BIG = {"WIDTH": 3000, "HEIGHT": 3000, "SEED": 5, "N_REPETITIONS": 3}
# The restored service finds the job left running without a worker soon; neither service's
# scheduled reconciliation asks the platform about the attempt whose notify is held back.
FAST_STALE = {"JOB_HEARTBEAT_SECONDS": 0.5, "JOB_STALE_SECONDS": 4}
QUIET_RECONCILIATION = {"WECHATPAY_QUERY_AFTER": 600}


@pytest.fixture
def standin(tmp_path):
    started = Standin(tmp_path)
    yield started
    started.stop()


@pytest.fixture
def services():
    """The services a test starts, stopped (their databases dropped) at its end."""
    started: list[Service] = []
    yield started
    for service in reversed(started):
        service.stop()


def own_bucket(name: str) -> dict:
    """When the run keeps files in a store (S3_BUCKET): a new bucket for one service of this
    test, made by the service's own store_setup. The worker's bucket holds every other e2e
    test's files, which a backup of it would copy and a restore would find in its way."""
    bucket = os.environ.get("S3_BUCKET")
    if not bucket:
        return {}
    env = {**os.environ, "S3_BUCKET": f"{bucket}-{name}-{uuid.uuid4().hex[:6]}"}
    manage("store_setup", "--wait", "60", env=env)
    return {"S3_BUCKET": env["S3_BUCKET"]}


def manage(*argv: str, env: dict) -> str:
    """`manage.py <argv>` as a process of its own; its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *argv],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def lookups(service: Service, job_id: str, names: list[str]) -> dict[str, dict]:
    """What `/locations` answers for each name, exactly and by a part of it."""
    answers = {}
    for name in names:
        for mode, query in (("exact", name), ("contains", name[:3])):
            answer = httpx.get(
                f"{service.url}/api/jobs/{job_id}/locations",
                params={"name": query, "mode": mode},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
            answers[f"{mode}:{query}"] = answer.json()
    return answers


def notified_until_exit(process: subprocess.Popen, service: Service, notify) -> list[int]:
    """The notify delivered once, then again and again until `process` has ended: the
    statuses the service answered."""
    answers = [notify_post(service, *notify).status_code]
    while process.poll() is None:
        answers.append(notify_post(service, *notify).status_code)
    return answers


def jobs_listed(service: Service) -> dict[str, dict]:
    answer = httpx.get(
        f"{service.url}/api/jobs", params={"limit": 1000}, headers=staff_headers(), timeout=30
    )
    assert answer.status_code == 200, answer.text
    return {job["job_id"]: job for job in answer.json()}


def commerce_state(staff: Api) -> dict:
    """Every order and payment with its refunds, as staff read them, but the payments' event
    logs (a notify and the scheduled reconciliation's query log differently what they both
    apply)."""
    payments = listed_all(staff, "/api/payments")
    return {
        "orders": listed_all(staff, "/api/orders"),
        "payments": [{k: v for k, v in p.items() if k != "events"} for p in payments],
    }


def test_a_backup_made_while_the_service_works_restores_onto_a_fresh_set_up(
    tmp_path,
    database_template,
    standin,
    services,
    identity_platform_server,  # noqa: F811
):
    def set_up(name: str, **env) -> Service:
        """A fresh set-up: a database just migrated, an empty media folder or bucket."""
        (tmp_path / name).mkdir()
        url = identity_platform_server.url
        service = paying_service(
            tmp_path / name, database_template, standin, url, **own_bucket(name), **env
        )
        services.append(service)
        return service

    original = set_up("original", **QUIET_RECONCILIATION)
    original.start()
    staff = Api(original.url, admin_token_issue())

    # Jobs: two posters, one that fails, a revision of the first.
    people = latin_names(60, 3)
    names = write_names(tmp_path / "names.xlsx", people)
    posters = [original.finished(original.submit(names, PARAMS))["job_id"] for _ in range(2)]
    failed = original.submit(write_names(tmp_path / "many.xlsx", sample_names(400)), DOES_NOT_FIT)
    assert original.wait_for(failed, lambda job: job["status"] == "failed", 300)["status"] == (
        "failed"
    )
    revised = httpx.post(
        f"{original.url}/api/jobs/{posters[0]}/revisions",
        json={"remove": [3]},
        headers=staff_headers(),
        timeout=60,
    )
    assert revised.status_code == 201, revised.text
    revision = original.finished(revised.json()["job_id"])["job_id"]
    finished = [*posters, revision]

    # An asset made from a poster, and a project placing it.
    asset = httpx.post(
        f"{original.url}/api/assets/from-job/{posters[1]}",
        data={"kind": "png", "name": "Class of 2026"},
        headers=staff_headers(),
        timeout=60,
    )
    assert asset.status_code == 201, asset.text
    asset_id = asset.json()["id"]
    template_id = httpx.get(f"{original.url}/api/templates", timeout=30).json()[0]["id"]
    sticker = {"asset_id": asset_id, "x": 10, "y": 10, "width": 120, "height": 80}
    project = httpx.post(
        f"{original.url}/api/projects",
        data={
            "name": "Reunion",
            "template_id": template_id,
            "background_color": "#FFFFFF",
            "stickers": json.dumps([sticker]),
        },
        headers=staff_headers(),
        timeout=60,
    )
    assert project.status_code == 201, project.text
    project_id = project.json()["id"]

    # An order paid and refunded; another paid on the platform whose notify is held back.
    product = staff.call("POST", "/api/products", {"name": "Poster", "price": 4900}).json()
    customer = new_customer(original.url, identity_platform_server)
    address = customer.call("POST", "/api/addresses", SHENZHEN).json()["id"]
    body = {"addressId": address, "items": [{"productId": product["id"], "quantity": 1}]}
    refunded = customer.call("POST", "/api/orders", body).json()["id"]
    pay = customer.call("POST", f"/api/orders/{refunded}/pay").json()
    assert standin.control("pay", pay["payParams"]).status_code == 200
    assert wait_until(
        lambda: staff.call("GET", f"/api/orders/{refunded}").json()["status"] == "PAID"
    )
    cancelled = customer.call("POST", f"/api/orders/{refunded}/cancel")
    assert cancelled.status_code == 200, cancelled.text

    def refund_done() -> bool:
        return staff.call("GET", f"/api/orders/{refunded}").json()["payment"]["refundStatus"] == (
            "SUCCESS"
        )

    if not wait_until(refund_done, timeout=5):
        reconcile(original)
    assert wait_until(refund_done)
    standin.switches(suppress_notify=True)
    paid_during = customer.call("POST", "/api/orders", body).json()["id"]
    pay = customer.call("POST", f"/api/orders/{paid_during}/pay").json()
    assert standin.control("pay", pay["payParams"]).status_code == 200
    notify = notify_signed(standin, platform_transaction(standin, pay["outTradeNo"]))

    # A big job running while the backup is made.
    big = original.submit(write_names(tmp_path / "big.xlsx", sample_names(20000)), BIG)
    running = original.wait_for(big, lambda job: job["status"] != "queued", timeout=120)
    assert running["status"] == "running", running
    waiting = original.submit(names, PARAMS)  # behind it: the worker runs one job at a time
    assert original.job(waiting)["status"] == "queued"

    listed = jobs_listed(original)
    before = {
        "jobs": {job_id: job for job_id, job in listed.items() if job_id not in (big, waiting)},
        "files": {job_id: original.digests(job_id) for job_id in finished},
        "lookups": {job_id: lookups(original, job_id, people[:5]) for job_id in finished},
        "asset": httpx.get(f"{original.url}/api/assets/{asset_id}", timeout=30).json(),
        "asset file": original.sha256(f"/api/assets/{asset_id}/download"),
        "project": httpx.get(
            f"{original.url}/api/projects/{project_id}", headers=staff_headers(), timeout=30
        ).json(),
    }
    assert len(before["jobs"]) == 4 and {job["status"] for job in before["jobs"].values()} == {
        "success",
        "failed",
    }
    commerce_before = commerce_state(staff)
    assert {order["status"] for order in commerce_before["orders"]} == {"CANCELLED", "PENDING"}

    # The backup, its own process; the notify delivered from the moment it has begun until it
    # ends (the platform sends it again until it is answered: the first applies, each later
    # one adds a row to the payment's log while the backup copies).
    backup = tmp_path / "backup"
    making = subprocess.Popen(
        [sys.executable, "manage.py", "backup", str(backup)],
        cwd=BASE_DIR,
        env=original.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert wait_until(lambda: backup.exists() or making.poll() is not None, timeout=60)
    answers = notified_until_exit(making, original, notify)
    output, _ = making.communicate(timeout=600)
    assert making.returncode == 0, output
    assert set(answers) == {204}, answers
    # all through the backup
    assert (original.job(big)["status"], original.job(waiting)["status"]) == ("running", "queued")
    assert wait_until(
        lambda: staff.call("GET", f"/api/orders/{paid_during}").json()["status"] == "PAID"
    )
    commerce_after = commerce_state(staff)
    manifest = json.loads((backup / "manifest.json").read_text())
    assert manifest["rows"]["wordclouds.Job"] == 6 and manifest["files"]

    # Wiped: the service stopped, its database dropped, its media folder removed (with a
    # store, the fresh set-up has a new, empty bucket of its own).
    services.remove(original)
    original.stop()
    shutil.rmtree(tmp_path / "original" / "media", ignore_errors=True)
    (tmp_path / "original" / "db.sqlite3").unlink(missing_ok=True)

    # Restored onto a fresh set-up, and the service started on it.
    restored = set_up("restored", **FAST_STALE, **QUIET_RECONCILIATION)
    assert "restored" in manage("restore", str(backup), env=restored.env)
    restored.start()
    staff = Api(restored.url, admin_token_issue())

    listed = jobs_listed(restored)
    assert {
        job_id: job for job_id, job in listed.items() if job_id not in (big, waiting)
    } == before["jobs"]
    stale = restored.wait_for(big, lambda job: job["status"] != "running", timeout=60)
    assert (stale["status"], stale["error"]) == ("failed", STALE_ERROR)
    restored.finished(waiting)  # put on the broker again by the restored worker at its start
    assert set(restored.digests(waiting)) == set(before["files"][posters[0]])
    assert {job_id: restored.digests(job_id) for job_id in finished} == before["files"]
    assert {job_id: lookups(restored, job_id, people[:5]) for job_id in finished} == before[
        "lookups"
    ]
    assert httpx.get(f"{restored.url}/api/assets/{asset_id}", timeout=30).json() == before["asset"]
    assert restored.sha256(f"/api/assets/{asset_id}/download") == before["asset file"]
    assert (
        httpx.get(
            f"{restored.url}/api/projects/{project_id}", headers=staff_headers(), timeout=30
        ).json()
        == before["project"]
    )
    # The notify came while the backup ran: the backup holds the orders as they were before
    # it or after it, never a mixture; and the ledger squares.
    assert commerce_state(staff) in (commerce_before, commerce_after)
    ledger_squares(restored, staff)
