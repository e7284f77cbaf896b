"""Two first sends of one job at the same moment make one proof: the second waits for the
first (the chain's first layout's row is locked while a send runs), then finds the job sent.
On PostgreSQL, whose row locks let both requests run side by side up to the insert; SQLite
runs one write transaction at a time, so there both are one after the other anyway."""

import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection

from commerce.auth import user_token_issue
from commerce.models import Proof, ProofVersion
from tests.commerce.factories import client_with, user_client
from tests.commerce.proofs_world import job_from, posters
from tests.waiting import wait_for_lock_waiters

pytestmark = [pytest.mark.backend]


@pytest.mark.django_db(transaction=True)
def test_two_first_sends_of_one_job_at_once_make_one_proof(tmp_path, media_root):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one write transaction at a time: no two sends side by side")
    alice = user_client("openid-alice")
    job = job_from(posters(tmp_path)[0], owner=str(alice.user.pk))
    token = user_token_issue(alice.user)
    database = connection.settings_dict  # the test database's
    url = psycopg.conninfo.make_conninfo(
        dbname=database["NAME"],
        user=database["USER"] or None,
        host=database["HOST"] or None,
        port=database["PORT"] or None,
    )
    barrier = threading.Barrier(2)

    def send():
        client = client_with(token)
        barrier.wait()
        try:
            return client.post(f"/api/jobs/{job.id}/proofs", {}, format="json")
        finally:
            connection.close()  # this thread's own connection

    # Every insert into the proofs table is held back until both requests wait: without the
    # lock both would have read that the job was never sent, and each would make a proof.
    with psycopg.connect(url) as holder:
        holder.execute("LOCK TABLE commerce_proof IN EXCLUSIVE MODE")
        with ThreadPoolExecutor(2) as pool:
            answers = [pool.submit(send) for _ in range(2)]
            wait_for_lock_waiters(url, 2)
            holder.rollback()  # the table's lock let go
            statuses = sorted(answer.result(timeout=60).status_code for answer in answers)

    assert statuses == [201, 409]
    assert Proof.objects.count() == 1 and ProofVersion.objects.count() == 1
