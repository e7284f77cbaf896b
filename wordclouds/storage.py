"""Where the service keeps its files: one storage API for every service, whichever backend
holds them (docs/architecture.md, "Files").

Django's `STORAGES` names the backend (config/settings.py): an S3-compatible bucket
(django-storages' S3 backend, boto3) when `S3_BUCKET` is set, else the local `MEDIA_ROOT`
folder. Services never build a path under MEDIA_ROOT: they save, read, fetch to a local
working copy, and answer downloads through the functions below, by key (`jobs/<id>/...`,
`fonts/<id>.ttf`, `assets/<id>.png`). The database says which keys exist; nothing lists the
store. Two aliases: `default` for the web process (short timeouts, few retries, so a store
that is down costs a request about STORAGE_TIMEOUT_SECONDS), `worker` for the job runner
(longer timeouts, more retries).

A process's own files (working copies of inputs, job outputs before they are uploaded, the
cache of stored files it read) live under SCRATCH_ROOT, never under MEDIA_ROOT."""

import contextlib
import logging
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db import transaction
from django.http import FileResponse, HttpResponse, HttpResponseRedirect
from rest_framework import status

from core import metrics
from core.errors import NotFound, ServiceError

logger = logging.getLogger(__name__)
UNAVAILABLE = "file storage unavailable"
# A stored file never changes once a row lists it: a browser may keep it for good.
FOREVER = "public, max-age=31536000, immutable"


class StorageUnavailable(ServiceError):
    """The store did not answer in time, or answered with a server error: 503, and the
    client may try again after RETRY_AFTER seconds."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    RETRY_AFTER = 5

    def __init__(self, detail: str = UNAVAILABLE):
        super().__init__(detail, code="storage_unavailable")
        self.headers = {"Retry-After": str(self.RETRY_AFTER)}


def files(*, worker: bool = False) -> Storage:
    return storages["worker" if worker else "default"]


def is_local(storage: Storage) -> bool:
    return isinstance(storage, FileSystemStorage)


@contextlib.contextmanager
def answers(operation: str = "other"):
    """The store's failures (refused or timed-out connections, 5xx) as StorageUnavailable;
    a missing key as FileNotFoundError, on both backends. The operation's time and its
    failures are counted in the metrics under `operation` (a fixed word)."""
    started = time.monotonic()
    try:
        yield
    except StorageUnavailable:
        metrics.store_errors.labels(operation).inc()
        raise
    except FileNotFoundError:
        raise
    except Exception as error:
        from botocore.exceptions import BotoCoreError, ClientError

        if isinstance(error, ClientError):
            code = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
            if code == 404 or error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey"):
                raise FileNotFoundError(str(error)) from None
            logger.warning("file storage answered %s: %s", code, error)
            metrics.store_errors.labels(operation).inc()
            raise StorageUnavailable() from error
        if isinstance(error, BotoCoreError):
            logger.warning("file storage unavailable: %s", error)
            metrics.store_errors.labels(operation).inc()
            raise StorageUnavailable() from error
        raise
    finally:
        metrics.store_seconds.labels(operation).observe(time.monotonic() - started)


def save(key: str, content, *, worker: bool = False) -> None:
    """Store `content` (bytes, a local Path, or an iterable of byte chunks) under `key`,
    replacing what was there."""
    storage = files(worker=worker)
    if not (worker or is_local(storage)):
        _without_expect_continue(storage)
    with answers("save"):
        if isinstance(content, Path):
            with content.open("rb") as stream:
                storage.save(key, File(stream, name=key))
        elif isinstance(content, bytes):
            storage.save(key, ContentFile(content, name=key))
        else:
            with tempfile.TemporaryFile(dir=scratch_folder("uploads")) as spool:
                for chunk in content:
                    spool.write(chunk)
                spool.seek(0)
                storage.save(key, File(spool, name=key))


def _without_expect_continue(storage: Storage) -> None:
    """The web process's uploads (a few MB at most) sent without `Expect: 100-continue`:
    botocore waits the read timeout for the store's "100 Continue" before it sends the
    body, then as long again for the answer, so a hung store cost each try two timeouts
    and a request's 503 came after 4 s instead of 2. (Per thread: each has its client.)"""
    from botocore.handlers import add_expect_header

    storage.connection.meta.client.meta.events.unregister("before-call.s3", add_expect_header)


def read_bytes(key: str, *, worker: bool = False) -> bytes:
    with answers("read"), files(worker=worker).open(key, "rb") as stream:
        return stream.read()


def keys_under(folder: str = "", *, worker: bool = True) -> list[str]:
    """Every stored key under ``folder`` ("": the whole store), sorted; none for a local
    folder that was never written to."""
    store = files(worker=worker)
    keys, folders = [], [folder]
    while folders:
        current = folders.pop()
        try:
            with answers("list"):
                subfolders, names = store.listdir(current)
        except FileNotFoundError:
            continue
        prefix = f"{current}/" if current else ""
        folders.extend(prefix + name for name in subfolders)
        keys.extend(prefix + name for name in names)
    return sorted(keys)


def exists(key: str, *, worker: bool = False) -> bool:
    with answers("exists"):
        return files(worker=worker).exists(key)


def delete(keys: Iterable[str], *, worker: bool = False) -> None:
    """Remove the keys; a failure is logged, never raised (the rows are already gone)."""
    storage = files(worker=worker)
    for key in keys:
        try:
            with answers("delete"):
                storage.delete(key)
        except Exception:
            logger.warning("could not remove %s from file storage", key, exc_info=True)


def delete_after_commit(*keys: str) -> None:
    """The row is gone in this transaction; its files go once that is final."""
    transaction.on_commit(lambda: delete(keys))


def fetch(key: str, target: Path, *, worker: bool = False) -> Path:
    """Copy the stored file to the local path `target` (written under a temporary name and
    renamed, so `target` existing means it is whole)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}")
    storage = files(worker=worker)
    try:
        with answers("fetch"):
            if is_local(storage):
                shutil.copyfile(storage.path(key), partial)
            else:
                storage.bucket.download_file(storage._normalize_name(key), str(partial))
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return target


def local_path(key: str, *, worker: bool = False) -> Path:
    """A local file holding the stored file, for readers that need a path (SQLite, fonts,
    images). On the local backend the file itself; on S3 a copy in this process's cache
    (SCRATCH_ROOT/cache/<key>), fetched once: a stored key is never written again once a row
    lists it (a job's keys are rewritten only while it runs, before anything reads them)."""
    storage = files(worker=worker)
    if is_local(storage):
        path = Path(storage.path(key))
        if not path.is_file():
            raise FileNotFoundError(key)
        return path
    cache = scratch_folder("cache")
    cached = cache / key
    if cached.is_file():
        os.utime(cached)  # read now: the trim keeps the files read last
        return cached
    fetch(key, cached, worker=worker)
    cache_trim(
        cache,
        max_bytes=settings.SCRATCH_CACHE_MAX_MB * 1024 * 1024,
        grace_seconds=settings.SCRATCH_CACHE_GRACE_SECONDS,
    )
    return cached


def cache_trim(folder: Path, *, max_bytes: int, grace_seconds: float) -> list[Path]:
    """Keep the cache of stored files under `max_bytes`: when it is over, the files read
    longest ago go (their time is the last read, `local_path` touches them) until it is under
    90 % of it. A file read within `grace_seconds` stays whatever the size, since a reader
    may be about to open it; a file already open stays readable after it is removed. Returns
    the files removed."""
    entries = []
    for path in folder.rglob("*"):
        with contextlib.suppress(FileNotFoundError):  # another thread's trim took it
            if path.is_file() and not path.name.startswith("."):  # "." : being fetched
                stat = path.stat()
                entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes:
        return []
    removed = []
    newest_removable = time.time() - grace_seconds
    for read_at, size, path in sorted(entries):
        if total <= max_bytes * 0.9 or read_at > newest_removable:
            break
        path.unlink(missing_ok=True)
        total -= size
        removed.append(path)
    return removed


def download_response(
    key: str, *, filename: str, content_type: str, inline: bool = False, immutable: bool = False
) -> HttpResponse:
    """The answer to a download. S3: 302 to a presigned SigV4 URL on S3_PUBLIC_ENDPOINT_URL,
    valid S3_URL_SECONDS, whose answer names the file (response-content-disposition) and its
    type: the bytes never pass through the web process, and the store answers Range requests.
    The redirect itself may be kept for half the URL's life. Local folder: the file, sent by
    this process. `immutable`: the file's answer may be kept for good (FOREVER)."""
    storage = files()
    disposition = "inline" if inline else "attachment"
    if is_local(storage):
        try:
            stream = storage.open(key, "rb")
        except FileNotFoundError:
            raise NotFound("artifact not ready", code="artifact_not_ready") from None
        response = FileResponse(
            stream, as_attachment=not inline, filename=filename, content_type=content_type
        )
        if immutable:
            response["Cache-Control"] = FOREVER
        return response
    params = {
        "Bucket": settings.S3_BUCKET,
        "Key": key,
        "ResponseContentDisposition": f'{disposition}; filename="{filename}"',
        "ResponseContentType": content_type,
    }
    if immutable:
        params["ResponseCacheControl"] = FOREVER
    url = _signer().generate_presigned_url(
        "get_object", Params=params, ExpiresIn=settings.S3_URL_SECONDS
    )
    response = HttpResponseRedirect(url)
    response["Cache-Control"] = f"private, max-age={settings.S3_URL_SECONDS // 2}"
    return response


@lru_cache(maxsize=1)
def _signer():
    """A client for the public endpoint: signing needs no request, and the URL's host is
    part of what is signed, so it is the host clients will use."""
    return _client(settings.S3_PUBLIC_ENDPOINT_URL)


@lru_cache(maxsize=1)
def _prober():
    """store_status's client: one try within STORAGE_TIMEOUT_SECONDS (a hung store costs a
    check that long, not the requests' retries too), and a connection pool of its own."""
    timeout = settings.STORAGE_TIMEOUT_SECONDS
    return _client(
        settings.S3_ENDPOINT_URL or None,
        connect_timeout=timeout,
        read_timeout=timeout,
        retries={"total_max_attempts": 1, "mode": "standard"},
    )


def _client(endpoint_url: str | None, **config):
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=endpoint_url,
        aws_access_key_id=settings.S3_ACCESS_KEY_ID,
        aws_secret_access_key=settings.S3_SECRET_ACCESS_KEY,
        region_name=settings.S3_REGION,
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, **config),
    )


def bucket_create() -> bool:
    """Create the bucket when it is missing (S3 only); True when it was created."""
    storage = files(worker=True)
    if is_local(storage):
        return False
    from botocore.exceptions import ClientError

    client = storage.connection.meta.client
    with answers("bucket_create"):
        try:
            client.head_bucket(Bucket=settings.S3_BUCKET)
            return False
        except ClientError as error:
            if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") != 404:
                raise
        client.create_bucket(Bucket=settings.S3_BUCKET)
    return True


def store_status() -> dict:
    """What /api/health reports of the store: reachable, and which backend (one try: at
    most about STORAGE_TIMEOUT_SECONDS)."""
    storage = files()
    backend = "local" if is_local(storage) else "s3"
    if is_local(storage):
        return {"ok": True, "backend": backend}
    try:
        with answers("probe"):
            _prober().head_bucket(Bucket=settings.S3_BUCKET)
    except (StorageUnavailable, FileNotFoundError):  # away, or answering without the bucket
        return {"ok": False, "backend": backend}
    return {"ok": True, "backend": backend}


def scratch_folder(name: str) -> Path:
    """SCRATCH_ROOT/<name>, made if missing: this process's own working files."""
    folder = Path(settings.SCRATCH_ROOT) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A fresh folder under SCRATCH_ROOT, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=scratch_folder("work")))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
