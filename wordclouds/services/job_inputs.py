"""Checking the inputs of a new job in the request, before the job exists (docs/api.md,
Job creation): every rejected request answers 4xx and leaves nothing behind."""

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from PIL import Image

from core.errors import InvalidInput, TooLarge
from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.models import Font
from wordclouds.services.fonts import DEFAULT_FONT_ID, FONT_EXTENSIONS, font_glyphs_check
from wordclouds.services.stored_files import upload_size_check

NAME_LIST_FILE = "names.xlsx"
PREVIEW_ROWS = 10
PREVIEW_COLUMNS = 20
MASK_EXTENSIONS = (".png", ".jpg", ".jpeg")
MASK_FORMATS = ("PNG", "JPEG")  # Pillow's names of what the bytes are
# The contract's one sentence for a mask that is not PNG or JPEG, by its name or its bytes.
MASK_WORDING = "mask_image must be png/jpg/jpeg"


@dataclass(frozen=True)
class JobInputs:
    """Checked inputs, their files already in the staging folder under these names."""

    params: dict
    name_list: str
    mask_image: str
    font_file: str
    font_id: str


def job_inputs_check(
    *,
    folder: Path,
    params: str | None,
    name_list: UploadedFile | None,
    mask_image: UploadedFile | None,
    font_file: UploadedFile | None,
    font_id: str,
) -> JobInputs:
    """Check every input and write the uploads into `folder`; raises InvalidInput (400) or
    TooLarge (413) naming the problem. Cheap checks on names and sizes come before the
    engine reads any file."""
    raw_params = _raw_params(params)
    parsed = _engine_call(engine.parse_params, raw_params)
    name_list_upload_check(name_list)
    if mask_image is None and parsed.mode == "IMAGE":
        raise InvalidInput("mask_image is required when MODE=IMAGE")
    _check_upload(
        mask_image,
        field="mask_image",
        extensions=MASK_EXTENSIONS,
        wording=MASK_WORDING,
        limit=settings.MASK_IMAGE_MAX_BYTES,
    )
    _check_upload(
        font_file,
        field="font_file",
        extensions=FONT_EXTENSIONS,
        wording="font_file must be .ttf, .ttc or .otf",
        limit=settings.FONT_MAX_BYTES,
    )
    if font_file is not None:
        font_id = ""  # font_file wins over font_id (docs/engine.md)
    elif font_id:
        _font_id_check(font_id)

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
    font_path = folder / font_name if font_name else font_id_path(font_id or DEFAULT_FONT_ID)
    # Reading a large (or hostile) spreadsheet, mask or font takes seconds: in a forked child
    # with the heavy-work limits, so the web process goes on serving others meanwhile.
    run_heavy(
        "checking the job's files",
        _contents_check,
        names_path,
        parsed,
        mask_path,
        folder / font_name if font_name else None,
        font_path,
    )
    return JobInputs(
        params=raw_params,
        name_list=NAME_LIST_FILE,
        mask_image=mask_name,
        font_file=font_name,
        font_id=font_id,
    )


def _contents_check(
    names_path: Path, parsed, mask_path: Path | None, font_file: Path | None, font_path: Path
) -> None:
    """The engine's checks of the files' contents (runs in the forked child)."""
    names = _engine_call(
        engine.read_names,
        names_path,
        column=parsed.data_col_index,
        skip_rows=parsed.skip_rows,
        weight_column=parsed.weight_col_index,
    )
    if mask_path is not None:
        _engine_call(engine.load_mask, mask_path, params=parsed)
    if font_file is not None:
        _engine_call(engine.check_font, font_file)
        font_glyphs_check(font_file, field="font_file")
    # A name some character of which no font can draw is refused now, not drawn with a gap.
    _engine_call(engine.check_drawable, names, font_path)


def name_list_upload_check(name_list: UploadedFile | None) -> None:
    """The name list is there, an .xlsx and within its size limit (a job and a preview)."""
    if name_list is None:
        raise InvalidInput("name_list is required")
    _check_upload(
        name_list,
        field="name_list",
        extensions=(".xlsx",),
        wording="name_list must be xlsx",
        limit=settings.NAME_LIST_MAX_BYTES,
    )


def name_list_preview(*, name_list: UploadedFile | None) -> list[list[str]]:
    """The first rows of an uploaded name list, to choose its column and header rows from. The
    file is read from a temporary copy and kept nowhere."""
    name_list_upload_check(name_list)
    with tempfile.TemporaryDirectory() as folder:
        path = _save(name_list, Path(folder) / NAME_LIST_FILE)
        return _engine_call(engine.first_rows, path, rows=PREVIEW_ROWS, columns=PREVIEW_COLUMNS)


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


def _font_id_check(font_id: str) -> None:
    if font_id_path(font_id) is None:
        raise InvalidInput("unknown font_id")


def _raw_params(text: str | None) -> dict:
    if text is None or not text.strip():
        return {}
    try:
        raw = json.loads(text)
    except ValueError:
        raise InvalidInput("params must be valid JSON") from None
    if not isinstance(raw, dict):
        raise InvalidInput("params must be JSON object")
    return raw


def _engine_call(function, *args, **kwargs):
    """Run an engine check; its InputError text is the exact 400 detail."""
    try:
        return function(*args, **kwargs)
    except engine.InputError as error:
        raise InvalidInput(str(error)) from None


def _extension(upload: UploadedFile) -> str:
    return PurePath(upload.name or "").suffix.lower()


def _check_upload(upload, *, field: str, extensions, wording: str, limit: int) -> None:
    if upload is None:
        return
    if _extension(upload) not in extensions:
        raise InvalidInput(wording)
    upload_size_check(upload, field=field, limit=limit)


def _mask_header_check(path: Path) -> None:
    """From the image header, before anything decodes the pixels: PNG or JPEG bytes whatever
    the file's name, within the pixel limit, and at least MASK_MIN_SIDE pixels a side."""
    too_large = TooLarge(
        f"mask_image exceeds {settings.MASK_IMAGE_MAX_PIXELS // 1_000_000} megapixels"
    )
    try:
        with Image.open(path) as image:
            kind, (width, height) = image.format, image.size
    except Image.DecompressionBombError:
        raise too_large from None
    except Exception:  # Pillow raises many kinds on foreign data
        raise InvalidInput("mask_image is not a readable image") from None
    if kind not in MASK_FORMATS:
        raise InvalidInput(MASK_WORDING)
    if width * height > settings.MASK_IMAGE_MAX_PIXELS:
        raise too_large
    side = settings.MASK_MIN_SIDE
    if min(width, height) < side:
        raise InvalidInput(f"mask_image must be at least {side}×{side} pixels")


def _save(upload: UploadedFile, path: Path) -> Path:
    with path.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return path
