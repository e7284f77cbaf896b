"""manage.py backup / restore (docs/deploy.md, "Backup and restore"), in this process on the
test database and the local store: back up two jobs and an order, wipe, restore, and find
the same rows, statuses and files."""

import hashlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from commerce.models import Order
from core.metrics import metrics_text
from tests.commerce.factories import make_order, user_client
from wordclouds import storage
from wordclouds.models import Job
from wordclouds.services.backups import stored_keys


def _files() -> dict[str, str]:
    return {key: hashlib.sha256(storage.read_bytes(key)).hexdigest() for key in stored_keys()}


def _state() -> dict:
    return {
        "jobs": dict(Job.objects.values_list("id", "status")),
        "orders": list(Order.objects.order_by("id").values("id", "status", "total_amount")),
        "files": _files(),
    }


@pytest.mark.django_db(transaction=True)
def test_backup_wipe_restore_gives_back_rows_and_files(finished_job, media_root, tmp_path):
    finished_job()
    finished_job()
    Job.objects.filter(id=finished_job()).update(status=Job.Status.FAILED)
    make_order(user_client("openid-backup").user, status=Order.Status.PAID)
    before = _state()
    assert len(before["jobs"]) == 3 and before["files"]

    call_command("backup", str(tmp_path / "b"))
    assert b"wordcloud_backup_last_success_timestamp_seconds 1" in metrics_text()
    with pytest.raises(CommandError, match="not an empty folder"):
        call_command("backup", str(tmp_path / "b"))
    with pytest.raises(CommandError, match="restore_target_not_empty"):
        call_command("restore", str(tmp_path / "b"))

    call_command("flush", interactive=False)
    storage.delete(stored_keys())
    assert not Job.objects.exists() and not stored_keys()
    call_command("restore", str(tmp_path / "b"))

    assert _state() == before
    assert Job.objects.count() == 3 and Order.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_file_that_does_not_match(finished_job, media_root, tmp_path):
    finished_job()
    call_command("backup", str(tmp_path / "b"))
    changed = next((tmp_path / "b" / "files").rglob("*.svg"))
    changed.write_bytes(changed.read_bytes() + b" ")
    key = changed.relative_to(tmp_path / "b" / "files").as_posix()
    with pytest.raises(CommandError, match=f"{key} does not match"):
        call_command("restore", str(tmp_path / "b"), force=True)
    assert Job.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_private_to_its_owner(finished_job, media_root, tmp_path):
    finished_job()
    make_order(user_client("openid-private").user)  # an address and a phone number
    (tmp_path / "b").mkdir(mode=0o755)  # an empty folder made beforehand

    call_command("backup", str(tmp_path / "b"))

    written = [tmp_path / "b", *(tmp_path / "b").rglob("*")]
    modes = {path.relative_to(tmp_path).as_posix(): path.stat().st_mode & 0o777 for path in written}
    assert modes["b"] == modes["b/files"] == 0o700
    database = "b/db.sqlite3" if connection.vendor == "sqlite" else "b/db.dump"  # pg_dump's
    assert modes["b/manifest.json"] == modes[database] == 0o600
    assert {mode for path, mode in modes.items() if (tmp_path / path).is_dir()} == {0o700}
    assert {mode for path, mode in modes.items() if (tmp_path / path).is_file()} == {0o600}


@pytest.mark.django_db(transaction=True)
def test_restore_force_backs_up_what_it_replaces_first(finished_job, media_root, tmp_path):
    kept = finished_job()
    call_command("backup", str(tmp_path / "b"))
    replaced = finished_job()  # made after the backup: restoring it away loses it
    before = _state()

    call_command(
        "restore", str(tmp_path / "b"), force=True, safety_backup=tmp_path / "before-restore"
    )
    assert set(Job.objects.values_list("id", flat=True)) == {kept}

    call_command("restore", str(tmp_path / "before-restore"), force=True)
    assert _state() == before and replaced in before["jobs"]
