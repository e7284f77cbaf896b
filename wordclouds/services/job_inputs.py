"""Checking the inputs of a new job in the request, before the job exists (docs/api.md,
Job creation): every rejected request answers 4xx and leaves nothing behind. The form's fields
are declared once in `JOB_FORM`, in the language of core/inputs.py (the checks of the uploads'
names and sizes and of the params' text, the schema of the form and docs/api.md's table); the
params object's keys are the engine's (`PARAMS`, wordclouds/engine/params.py)."""

import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TypedDict, Unpack

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from PIL import Image

from core.errors import InvalidInput, TooLarge
from core.inputs import NOT_BLANK, Form, JsonText, Pattern, Upload
from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.engine.groups import check_groups_fit
from wordclouds.engine.names import MAX_NAME_LENGTH, MAX_NAMES
from wordclouds.engine.params import check_groups, params_schema
from wordclouds.models import Font
from wordclouds.services.fonts import DEFAULT_FONT_ID, font_glyphs_check, font_upload

NAME_LIST_FILE = "names.xlsx"
PREVIEW_ROWS = 10
PREVIEW_COLUMNS = 20
MASK_FORMATS = ("PNG", "JPEG")  # Pillow's names of what the bytes are
# The contract's one sentence for a mask that is not PNG or JPEG, by its name or its bytes.
MASK_WORDING = "mask_image must be png/jpg/jpeg"
NOT_BLANK_TEXT = NOT_BLANK.removeprefix("^").removesuffix("$")  # a Pattern adds the anchors


JOB_FORM = Form(
    (
        Upload(
            "name_list",
            "the first worksheet, names in column DATA_COL_INDEX after SKIP_ROWS header rows; "
            f"at most {MAX_NAMES:,} names of at most {MAX_NAME_LENGTH} characters",
            required="yes",
            missing="name_list is required",
            missing_code="name_list_required",
            extensions=(".xlsx",),
            refusal="name_list must be xlsx",
            code="name_list_not_xlsx",
            limit=lambda: settings.NAME_LIST_MAX_BYTES,
        ),
        Upload(
            "mask_image",
            f"at most {settings.MASK_IMAGE_MAX_PIXELS // 1_000_000} megapixels; the shape the "
            "words fill in IMAGE mode",
            required="when MODE is IMAGE",
            extensions=(".png", ".jpg", ".jpeg"),
            refusal=MASK_WORDING,
            code="mask_image_wrong_type",
            limit=lambda: settings.MASK_IMAGE_MAX_BYTES,
        ),
        font_upload("font_file", "wins over font_id", code="font_file_wrong_type"),
        Pattern(
            "font_id",
            "",
            pattern=NOT_BLANK_TEXT,
            refusal="unknown font_id",  # no font has a blank id
            code="font_id_unknown",
            meaning=f"an uploaded font's id, or `{DEFAULT_FONT_ID}`",
        ),
        JsonText(
            "params",
            "a JSON object as the field's text (its part may say `Content-Type: "
            "application/json`); its keys below",
            code="params_not_object",
            not_json_code="params_not_json",
            keys=params_schema,
        ),
    )
)


@dataclass(frozen=True)
class JobInputs:
    """Checked inputs, their files already in the staging folder under these names."""

    params: dict
    name_list: str
    mask_image: str
    font_file: str
    font_id: str


@dataclass(frozen=True)
class StagedInputs:
    """A job's inputs after the cheap checks, their files written into the staging folder:
    the paths the engine reads (``font_file`` the uploaded font's, ``font_path`` the font to
    draw with, ``mask_font_path`` MASK_TEXT's: MASK_FONT_ID's file, else ``font_path``) and
    the parsed params."""

    inputs: JobInputs
    parsed: object
    names_path: Path
    mask_path: Path | None
    font_file: Path | None
    font_path: Path | None
    mask_font_path: Path | None = None


@dataclass(frozen=True)
class Contents:
    """What the contents' checks read: the names, the mask (None without one), the
    typeface that draws them."""

    names: list
    mask: object
    typeface: object


class JobUploads(TypedDict, total=False):
    """What a job's form sends (JOB_FORM's fields), the one keyword set of the functions that
    take a job's inputs (job_create, size_advice, job_inputs_staged): absent, a field is not
    sent (`font_id` then the default font)."""

    params: str | None
    name_list: UploadedFile | None
    mask_image: UploadedFile | None
    font_file: UploadedFile | None
    font_id: str


def job_uploads(data, files) -> JobUploads:
    """A job's form from a request's data and files: each JOB_FORM field, an upload from the
    files, a text from the data."""
    return {
        field.name: (files if isinstance(field, Upload) else data).get(field.name)
        for field in JOB_FORM.fields
    }


def job_inputs_check(*, folder: Path, **uploads: Unpack[JobUploads]) -> JobInputs:
    """Check every input and write the uploads into `folder`; raises InvalidInput (400) or
    TooLarge (413) naming the problem. Cheap checks on names and sizes come before the engine
    reads any file."""
    staged = job_inputs_staged(folder=folder, **uploads)
    # Reading a large (or hostile) spreadsheet, mask or font takes seconds: in a forked child
    # with the heavy-work limits, so the web process goes on serving others meanwhile.
    run_heavy("checking the job's files", _contents_checked, staged)
    return staged.inputs


def _contents_checked(staged: StagedInputs) -> None:
    """:func:`contents_check`, answering nothing: what it read stays in the child."""
    contents_check(staged)


def job_inputs_staged(*, folder: Path, **uploads: Unpack[JobUploads]) -> StagedInputs:
    """The cheap checks of every input (names and sizes, the params), then the uploads
    written into `folder`; the files' contents are checked by :func:`contents_check`."""
    params, name_list = uploads.get("params"), uploads.get("name_list")
    mask_image, font_file = uploads.get("mask_image"), uploads.get("font_file")
    font_id = uploads.get("font_id") or ""
    raw_params = JOB_FORM.read("params", params) or {}
    parsed = _engine_call(engine.parse_params, raw_params, code="params_invalid")
    _engine_call(check_groups, parsed, code="params_invalid")
    name_list_upload_check(name_list)
    if mask_image is None and parsed.mode == "IMAGE":
        raise InvalidInput("mask_image is required when MODE=IMAGE", code="mask_image_required")
    for field, upload in (("mask_image", mask_image), ("font_file", font_file)):
        if upload is not None:
            JOB_FORM[field].parse(upload)
    if font_file is not None:
        font_id = ""  # font_file wins over font_id (docs/engine.md)
    elif font_id:
        JOB_FORM["font_id"].parse(font_id)
        _font_id_check(font_id)

    mask_font_path = mask_font(parsed)
    names_path = _save(name_list, folder / NAME_LIST_FILE)
    mask_name = font_name = ""
    mask_path = None
    if mask_image is not None:
        mask_name = "mask" + _extension(mask_image)
        mask_path = _save(mask_image, folder / mask_name)
        _mask_header_check(mask_path)
    if font_file is not None:
        font_name = "font" + _extension(font_file)
        _save(font_file, folder / font_name)
    inputs = JobInputs(
        params=raw_params,
        name_list=NAME_LIST_FILE,
        mask_image=mask_name,
        font_file=font_name,
        font_id=font_id,
    )
    font_path = folder / font_name if font_name else font_id_path(font_id or DEFAULT_FONT_ID)
    return StagedInputs(
        inputs=inputs,
        parsed=parsed,
        names_path=names_path,
        mask_path=mask_path,
        font_file=folder / font_name if font_name else None,
        font_path=font_path,
        mask_font_path=mask_font_path or font_path,
    )


def mask_font(parsed, *, worker: bool = False) -> Path | None:
    """The local file of MASK_FONT_ID (the font MASK_TEXT is drawn in), or None when the
    params give none; 400 params_invalid when there is no such font."""
    if not parsed.mask_font_id:
        return None
    path = font_id_path(parsed.mask_font_id, worker=worker)
    if path is None:
        raise InvalidInput(
            "params.MASK_FONT_ID must be an uploaded font's id or __default__",
            code="params_invalid",
        )
    return path


def contents_check(staged: StagedInputs) -> Contents:
    """The engine's checks of the files' contents (run it in a forked child: run_heavy),
    and what they read."""
    names = names_read(staged.names_path, staged.parsed)
    mask = None
    text = staged.parsed.mode == "TEXT" or staged.parsed.mask_text is not None
    if staged.mask_path is not None or text:
        mask = _engine_call(
            engine.load_mask,
            staged.mask_path,
            params=staged.parsed,
            text_font=staged.mask_font_path,
            code="params_invalid" if text else "mask_image_invalid",
        )
    if staged.font_file is not None:
        _engine_call(engine.check_font, staged.font_file, code="font_file_invalid")
        font_glyphs_check(staged.font_file, field="font_file")
    # A name some character of which no font can draw is refused now, not drawn with a gap.
    typeface = _engine_call(
        engine.check_drawable, names, staged.font_path, code="names_not_drawable"
    )
    if staged.parsed.group_col_index is not None:  # the groups against the list and shape
        shape = mask or _engine_call(
            engine.load_mask, None, params=staged.parsed, code="params_invalid"
        )
        _engine_call(check_groups_fit, names, shape, staged.parsed, code="params_invalid")
    return Contents(names=names, mask=mask, typeface=typeface)


def name_list_upload_check(name_list: UploadedFile | None) -> None:
    """The name list is there, an .xlsx and within its size limit (a job and a preview)."""
    JOB_FORM.read("name_list", name_list)


def name_list_preview(*, name_list: UploadedFile | None) -> list[list[str]]:
    """The first rows of an uploaded name list, to choose its column and header rows from. The
    file is read from a temporary copy and kept nowhere, in a forked child with the heavy-work
    limits (an untrusted workbook, as a job's)."""
    name_list_upload_check(name_list)
    with tempfile.TemporaryDirectory() as folder:
        path = _save(name_list, Path(folder) / NAME_LIST_FILE)
        return run_heavy("reading the name list", _first_rows, path)


def _first_rows(path: Path) -> list[list[str]]:
    return _engine_call(
        engine.first_rows,
        path,
        rows=PREVIEW_ROWS,
        columns=PREVIEW_COLUMNS,
        code="name_list_invalid",
    )


def font_id_path(font_id: str, *, worker: bool = False) -> Path | None:
    """A local file of a font id: the bundled font for `__default__`, an uploaded font's
    file (storage.local_path: kept in this process's cache once fetched), or None when there
    is no such font or its file is gone."""
    if font_id == DEFAULT_FONT_ID:
        return Path(engine.default_font_path())
    font = Font.objects.filter(id=font_id).first()
    if font is None:
        return None
    try:
        return storage.local_path(font.file, worker=worker)
    except FileNotFoundError:
        return None


def font_locked(font_id: str) -> bool:
    """Whether the font id exists: the bundled font, or an uploaded font whose row is then
    locked until the transaction ends (so it is not deleted meanwhile)."""
    return (
        font_id == DEFAULT_FONT_ID or Font.objects.select_for_update().filter(id=font_id).exists()
    )


def _font_id_check(font_id: str) -> None:
    if font_id_path(font_id) is None:
        raise InvalidInput("unknown font_id", code="font_id_unknown")


def names_read(names_path: Path, parsed) -> list:
    """The names of a list as a job with the params ``parsed`` reads them (its names and
    weight columns and header rows); 400 `name_list_invalid` naming the problem."""
    return _engine_call(
        engine.read_names,
        names_path,
        column=parsed.data_col_index,
        skip_rows=parsed.skip_rows,
        weight_column=parsed.weight_col_index,
        group_column=parsed.group_col_index,
        code="name_list_invalid",
    )


def _engine_call(function, *args, code: str, **kwargs):
    """Run an engine check; its InputError text is the exact 400 detail, with `code` (a
    workbook over the reader's caps: 413 `name_list_too_large`)."""
    try:
        return function(*args, **kwargs)
    except engine.WorkbookTooLarge as error:
        raise TooLarge(str(error), code="name_list_too_large") from None
    except engine.InputError as error:
        raise InvalidInput(str(error), code=code) from None


def _extension(upload: UploadedFile) -> str:
    return PurePath(upload.name or "").suffix.lower()


def _mask_header_check(path: Path) -> None:
    """From the image header, before anything decodes the pixels: PNG or JPEG bytes whatever
    the file's name, within the pixel limit, and at least MASK_MIN_SIDE pixels a side."""
    too_large = TooLarge(
        f"mask_image exceeds {settings.MASK_IMAGE_MAX_PIXELS // 1_000_000} megapixels",
        code="mask_image_too_many_pixels",
    )
    try:
        with Image.open(path) as image:
            kind, (width, height) = image.format, image.size
    except Image.DecompressionBombError:
        raise too_large from None
    except Exception:  # Pillow raises many kinds on foreign data
        raise InvalidInput(
            "mask_image is not a readable image", code="mask_image_unreadable"
        ) from None
    if kind not in MASK_FORMATS:
        raise InvalidInput(MASK_WORDING, code="mask_image_wrong_type")
    if width * height > settings.MASK_IMAGE_MAX_PIXELS:
        raise too_large
    side = settings.MASK_MIN_SIDE
    if min(width, height) < side:
        raise InvalidInput(
            f"mask_image must be at least {side}×{side} pixels", code="mask_image_too_small"
        )


def _save(upload: UploadedFile, path: Path) -> Path:
    with path.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return path
