"""Assets: uploaded files and imported job artifacts (stored as assets/<id><ext>)."""

from collections.abc import Iterable
from pathlib import PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from core.errors import Conflict, NotFound
from core.inputs import Choice, Form, Text, Upload
from wordclouds.models import Asset, Project, new_id
from wordclouds.selectors import ARTIFACTS, artifact_path, job_get
from wordclouds.services.stored_files import (
    StoredFile,
    file_chunks,
    remove_after_commit,
    stored_file,
)

FOLDER = "assets"
UPLOAD_TYPE = "upload"
IMPORT_TYPE = "wordcloud"
# Content types a project may place as a sticker.
STICKER_CONTENT_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"}
NAME = Text("name", "the asset's name", high=200)


def _type(default: str) -> Text:
    return Text(
        "type",
        "a label to filter by",
        high=64,
        meaning=f"a text of at most 64 characters; absent or empty: `{default}`",
    )


# The forms of POST /api/assets and POST /api/assets/from-job/{job_id}, in the order they are
# read (the first problem is named).
ASSET_FORM = Form(
    (
        Upload(
            "file",
            "its content type is sniffed from the content",
            required="yes",
            missing="file is required",
            missing_code="file_required",
            limit=lambda: settings.ASSET_MAX_BYTES,
        ),
        NAME,
        _type(UPLOAD_TYPE),
    )
)
ASSET_IMPORT_FORM = Form(
    (
        NAME,
        _type(IMPORT_TYPE),
        # read once the job is found (404 `job not found` first); an unknown kind names no
        # artifact, 404 as on the job's downloads
        Choice(
            "kind",
            "the artifact to copy (absent or empty: png)",
            choices=tuple(ARTIFACTS),
            refusal="unknown artifact kind",
            code="artifact_kind_unknown",
            status=404,
        ),
    )
)


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
    """Store an uploaded file as an asset (its form: ASSET_FORM); its content type is
    sniffed from the content."""
    upload = ASSET_FORM.read("file", upload)
    name, type = ASSET_FORM.read("name", name) or "", ASSET_FORM.read("type", type) or ""
    asset_id = new_id()
    with stored_file(chunks=upload.chunks(), folder=FOLDER, stem=asset_id) as stored:
        filename = PurePath(upload.name or "").name[:255] or PurePath(stored.relative).name
        return _saved(stored, id=asset_id, name=name, type=type or UPLOAD_TYPE, filename=filename)


def asset_import_from_job(*, job_id: str, kind: str = "", name: str = "", type: str = "") -> Asset:
    """Copy a finished job artifact into the assets (the job's files may be cleaned later);
    its form: ASSET_IMPORT_FORM."""
    name = ASSET_IMPORT_FORM.read("name", name) or ""
    type = ASSET_IMPORT_FORM.read("type", type) or ""
    job = job_get(job_id)
    kind = ASSET_IMPORT_FORM.read("kind", kind) or "png"
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
