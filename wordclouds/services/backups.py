"""Backup and restore of the whole service: the database and every stored file
(docs/deploy.md, "Backup and restore"); `manage.py backup DEST` and `manage.py restore SRC`.

The database first, by its own consistent snapshot: SQLite's online backup API (pages copied
while the service runs) or `pg_dump --format=custom` reading an exported snapshot. The rows
the manifest counts are counted in that same moment (in the copy, or in the transaction whose
snapshot pg_dump reads), never in the live database, where a running job's events and a
payment's notify go on being written. Then every stored file, through the storage layer
(local MEDIA_ROOT or the S3 bucket), listed after the snapshot: a file is written before the
row that names it and never changed after, so the listing holds every file the snapshot
names (a file newer than the snapshot is copied too, harmlessly). A file deleted between the
listing and its copy (retention, the orphan sweep, a deleted font or asset) is left out and
named in the manifest's `vanished`. DEST/manifest.json records the rows per model and each
file's size and SHA-256; restore checks the files against it before it changes anything, and
the rows after. A backup holds addresses and phone numbers: its folder is made 0700 and every
file in it 0600 (the database tools' too). `restore --force` backs the target up first."""

import hashlib
import json
import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from django.apps import apps
from django.db import connection, transaction
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from wordclouds import storage
from wordclouds.storage import StorageUnavailable


class BackupRefused(Exception):
    """A backup or restore that cannot be made, with a sentence and a stable code (the
    commands print both; no endpoint answers these)."""

    def __init__(self, detail: str, code: str):
        super().__init__(detail)
        self.detail, self.code = detail, code


MANIFEST = "manifest.json"
# The store's own record of the last backup that finished: outside the backup itself.
LAST_SUCCESS_KEY = "backups/last-success"
CHUNK = 1024 * 1024


def backup_make(dest: Path) -> dict:
    """Write a backup into the folder `dest` (created; refused when it holds anything) and
    return its manifest."""
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise BackupRefused(
            f"{dest} exists and is not an empty folder", code="backup_target_not_empty"
        )
    with _private_files():
        dest.mkdir(parents=True, exist_ok=True)
        dest.chmod(0o700)  # an empty folder made beforehand keeps its own mode otherwise
        kind = _database_kind()
        created = timezone.now()
        counts = _database_snapshot(dest, kind)
        files, vanished = _files_copy(dest / "files")
        manifest = {
            "created": created.isoformat(),
            "database": kind,
            "rows": counts,
            "files": files,
            "vanished": vanished,
        }
        (dest / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    storage.save(LAST_SUCCESS_KEY, str(time.time()).encode(), worker=True)
    return manifest


@contextmanager
def _private_files() -> Iterator[None]:
    """Folders made 0700 and files 0600 meanwhile, by this process and the tools it runs
    (pg_dump): the umask of a command that does nothing else."""
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


def safety_folder(src: Path) -> Path:
    """Where `restore --force` backs the target up by default: beside the backup, named
    for it and the time."""
    src = Path(src).resolve()
    return src.parent / f"{src.name}.before-restore-{timezone.now():%Y%m%dT%H%M%SZ}"


def backup_restore(src: Path, *, force: bool = False, safety: Path | None = None) -> dict:
    """Put the backup in `src` back: files checked first, a target holding jobs, orders or
    files refused unless `force` — and then backed up into `safety` (default
    `safety_folder(src)`) before anything is replaced; a failing safety backup changes
    nothing —, then the database, then the files, then the row counts compared with the
    manifest. Returns the manifest."""
    src = Path(src)
    try:
        manifest = json.loads((src / MANIFEST).read_text())
    except FileNotFoundError:
        raise BackupRefused(f"{src} holds no {MANIFEST}", code="backup_manifest_missing") from None
    for entry in manifest["files"]:
        path = src / "files" / entry["key"]
        if not path.is_file() or _sha256(path) != entry["sha256"]:
            raise BackupRefused(
                f"{entry['key']} does not match the manifest's SHA-256",
                code="backup_file_mismatch",
            )
    if manifest["database"] != _database_kind():
        raise BackupRefused(
            f"the backup is of {manifest['database']}, this service runs {_database_kind()}",
            code="backup_database_kind",
        )
    keys = stored_keys()
    if keys or _has_rows("wordclouds.Job") or _has_rows("commerce.Order"):
        if not force:
            raise BackupRefused(
                "the target holds jobs, orders or files; restore with --force to replace them",
                code="restore_target_not_empty",
            )
        backup_make(safety or safety_folder(src))
    if manifest["database"] == "sqlite":
        connection.ensure_connection()
        source = sqlite3.connect(src / "db.sqlite3")
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    else:
        connection.close()
        _pg_run("pg_restore", "--clean", "--if-exists", "--no-owner", str(src / "db.dump"))
    storage.delete(keys, worker=True)
    for entry in manifest["files"]:
        storage.save(entry["key"], src / "files" / entry["key"], worker=True)
    with connection.cursor() as cursor:
        restored = _row_counts(cursor)
    differences = [
        f"{label}: {count} in the backup, {actual} restored"
        for label, count in manifest["rows"].items()
        if (actual := restored.get(label)) != count
    ]
    if differences:
        raise BackupRefused(
            "restored rows differ from the manifest: " + "; ".join(differences),
            code="restore_rows_differ",
        )
    return manifest


def stored_keys() -> list[str]:
    """Every key of the store, sorted, but the backups' own record and hidden names (a
    checkout's `media/.gitkeep`: the service never writes a key starting with ".")."""
    return [
        key
        for key in storage.keys_under()
        if key != LAST_SUCCESS_KEY and not key.rsplit("/", 1)[-1].startswith(".")
    ]


def last_success_metrics():
    """wordcloud_backup_last_success_timestamp_seconds: when a backup last finished (Unix
    time; 0 never), read from the store at each scrape."""
    try:
        at = float(storage.read_bytes(LAST_SUCCESS_KEY))
    except FileNotFoundError:
        at = 0
    except (StorageUnavailable, ValueError):
        return
    yield GaugeMetricFamily(
        "wordcloud_backup_last_success_timestamp_seconds",
        "When `manage.py backup` last finished (Unix time; 0 never).",
        at,
    )


def _database_kind() -> str:
    return "sqlite" if connection.vendor == "sqlite" else "postgresql"


def _database_snapshot(dest: Path, kind: str) -> dict[str, int]:
    """The database copied into `dest` as one moment, and the rows of every model counted in
    that same moment: in the copy (SQLite), or in the repeatable-read transaction whose
    exported snapshot pg_dump reads (PostgreSQL)."""
    if kind == "sqlite":
        target = dest / "db.sqlite3"
        _sqlite_copy(connection, target)
        with closing(sqlite3.connect(target)) as copy:
            return _row_counts(copy.cursor())
    connection.ensure_connection()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cursor.execute("SELECT pg_export_snapshot()")
        [snapshot] = cursor.fetchone()
        dump = str(dest / "db.dump")
        _pg_run("pg_dump", "--format=custom", f"--snapshot={snapshot}", "--file", dump)
        return _row_counts(cursor)


def _files_copy(folder: Path) -> tuple[list[dict], list[str]]:
    """Every file of the store, listed now (after the database's snapshot), copied under
    `folder`: the manifest's entries, and the keys deleted between the listing and their
    copy."""
    copied, vanished = [], []
    for key in stored_keys():
        try:
            copied.append(_file_copy(key, folder / key))
        except FileNotFoundError:
            (folder / key).unlink(missing_ok=True)
            vanished.append(key)
    return copied, vanished


def _sqlite_copy(source_connection, target: Path) -> None:
    source_connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        source_connection.connection.backup(copy)
    finally:
        copy.close()


def _pg_run(program: str, *args: str) -> None:
    database = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": str(database.get("PASSWORD") or "")}
    command = [
        program,
        "--host",
        str(database.get("HOST") or "localhost"),
        "--port",
        str(database.get("PORT") or 5432),
        "--username",
        str(database.get("USER") or ""),
        "--dbname",
        database["NAME"],
        *args,
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BackupRefused(
            f"{program} failed: {result.stderr.strip()[-500:]}", code="backup_database_tool"
        )


def _row_counts(cursor) -> dict[str, int]:
    """The rows of every model (`app.Model`: count), counted through `cursor`: a DB-API
    cursor on the live database, a snapshot's transaction or a SQLite copy."""
    counts = {}
    for model in apps.get_models(include_auto_created=True):
        if model._meta.managed and not model._meta.proxy:
            cursor.execute(
                f"SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)}"
            )
            counts[model._meta.label] = cursor.fetchone()[0]
    return counts


def _has_rows(label: str) -> bool:
    try:
        model = apps.get_model(label)
    except LookupError:
        return False
    return model._base_manager.exists()


def _file_copy(key: str, target: Path) -> dict:
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    with storage.answers("read"), storage.files(worker=True).open(key, "rb") as stream:
        with target.open("wb") as copy:
            while chunk := stream.read(CHUNK):
                digest.update(chunk)
                copy.write(chunk)
    return {"key": key, "size": target.stat().st_size, "sha256": digest.hexdigest()}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
