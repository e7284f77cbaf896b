"""Assets: uploaded files and imported job artifacts (stored as assets/<id><ext>)."""

from collections.abc import Iterable
from pathlib import PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from core.errors import Conflict, InvalidInput, NotFound
from wordclouds.models import Asset, Project, new_id
from wordclouds.selectors import ARTIFACTS, artifact_path, job_get
from wordclouds.services.form_text import form_text
from wordclouds.services.stored_files import (
    StoredFile,
    file_chunks,
    remove_after_commit,
    stored_file,
    upload_size_check,
)

FOLDER = "assets"
UPLOAD_TYPE = "upload"
IMPORT_TYPE = "wordcloud"
# Content types a project may place as a sticker.
STICKER_CONTENT_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"}


def _checked_labels(*, name: str, type: str) -> tuple[str, str]:
    return form_text(name, field="name", limit=200), form_text(type, field="type", limit=64)


def _saved(stored: StoredFile, **fields) -> Asset:
    """The row for a file just stored (stored_file removes it if the row cannot be made)."""
    with transaction.atomic():
        return Asset.objects.create(
            file=stored.relative,
            content_type=stored.content_type,
            size=stored.size,
            sha256=stored.sha256,
            **fields,
        )


def asset_create(*, upload: UploadedFile | None, name: str = "", type: str = "") -> Asset:
    """Store an uploaded file as an asset; its content type is sniffed from the content."""
    if upload is None:
        raise InvalidInput("file is required", code="file_required")
    name, type = _checked_labels(name=name, type=type)
    upload_size_check(upload, field="file", limit=settings.ASSET_MAX_BYTES)
    asset_id = new_id()
    with stored_file(chunks=upload.chunks(), folder=FOLDER, stem=asset_id) as stored:
        filename = PurePath(upload.name or "").name[:255] or PurePath(stored.relative).name
        return _saved(stored, id=asset_id, name=name, type=type or UPLOAD_TYPE, filename=filename)


def asset_import_from_job(*, job_id: str, kind: str = "", name: str = "", type: str = "") -> Asset:
    """Copy a finished job artifact into the assets (the job's files may be cleaned later)."""
    name, type = _checked_labels(name=name, type=type)
    kind = kind.strip() or "png"
    job = job_get(job_id)
    source = artifact_path(job.job_id, kind)
    asset_id = new_id()
    with stored_file(chunks=file_chunks(source), folder=FOLDER, stem=asset_id) as stored:
        return _saved(
            stored,
            id=asset_id,
            name=name,
            type=type or IMPORT_TYPE,
            job_id=job.job_id,
            kind=kind,
            filename=f"wordcloud-{job.job_id}.{ARTIFACTS[kind][2]}",
        )


def _project_labels(projects: Iterable[Project]) -> str:
    return ", ".join(f"{project.name} ({project.id})" for project in projects)


@transaction.atomic
def asset_delete(*, asset_id: str) -> None:
    """Delete an asset no project uses: 409 naming the projects that do."""
    asset = Asset.objects.select_for_update().filter(id=asset_id).first()
    if asset is None:
        raise NotFound("asset not found", code="asset_not_found")
    users = list(Project.objects.filter(assets=asset).order_by("created_at", "id"))
    if users:
        raise Conflict(f"asset is used by projects: {_project_labels(users)}", code="asset_in_use")
    asset.delete()
    remove_after_commit(asset.file)
