"""Checking the inputs of a new job in the request, before the job exists (decisions.md,
Job creation): every rejected request answers 4xx and leaves nothing behind."""
import json
from dataclasses import dataclass
from pathlib import Path, PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from PIL import Image

from config.errors import InvalidInput, TooLarge
from wordclouds import engine
from wordclouds.models import Font
from wordclouds.services.fonts import DEFAULT_FONT_ID, FONT_EXTENSIONS
from wordclouds.services.stored_files import upload_size_check

NAME_LIST_FILE = "names.xlsx"
MASK_EXTENSIONS = (".png", ".jpg", ".jpeg")


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
    if name_list is None:
        raise InvalidInput("name_list is required")
    _check_upload(name_list, field="name_list", extensions=(".xlsx",),
                  wording="name_list must be xlsx", limit=settings.NAME_LIST_MAX_BYTES)
    if mask_image is None and parsed.mode == "IMAGE":
        raise InvalidInput("mask_image is required when MODE=IMAGE")
    _check_upload(mask_image, field="mask_image", extensions=MASK_EXTENSIONS,
                  wording="mask_image must be png/jpg/jpeg", limit=settings.MASK_IMAGE_MAX_BYTES)
    _check_upload(font_file, field="font_file", extensions=FONT_EXTENSIONS,
                  wording="font_file must be .ttf, .ttc or .otf", limit=settings.FONT_MAX_BYTES)
    if font_file is not None:
        font_id = ""  # decisions.md: font_file wins over font_id
    elif font_id:
        _font_id_check(font_id)

    names_path = _save(name_list, folder / NAME_LIST_FILE)
    _engine_call(engine.read_names, names_path, column=parsed.data_col_index,
                 skip_rows=parsed.skip_rows)
    mask_name = font_name = ""
    if mask_image is not None:
        mask_name = "mask" + _extension(mask_image)
        mask_path = _save(mask_image, folder / mask_name)
        _mask_pixels_check(mask_path)
        _engine_call(engine.load_mask, mask_path, params=parsed)
    if font_file is not None:
        font_name = "font" + _extension(font_file)
        _engine_call(engine.check_font, _save(font_file, folder / font_name))
    return JobInputs(params=raw_params, name_list=NAME_LIST_FILE, mask_image=mask_name,
                     font_file=font_name, font_id=font_id)


def font_id_path(font_id: str) -> Path | None:
    """The file of a font id: the bundled font for `__default__`, an uploaded font's file,
    or None when there is no such font."""
    if font_id == DEFAULT_FONT_ID:
        return Path(engine.default_font_path())
    font = Font.objects.filter(id=font_id).first()
    return Path(settings.MEDIA_ROOT) / font.file if font else None


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


def _mask_pixels_check(path: Path) -> None:
    """The pixel limit from the image header, before anything decodes the pixels."""
    too_large = TooLarge(
        f"mask_image exceeds {settings.MASK_IMAGE_MAX_PIXELS // 1_000_000} megapixels")
    try:
        with Image.open(path) as image:
            pixels = image.width * image.height
    except Image.DecompressionBombError:
        raise too_large from None
    except Exception:  # Pillow raises many kinds on foreign data
        raise InvalidInput("mask_image is not a readable image") from None
    if pixels > settings.MASK_IMAGE_MAX_PIXELS:
        raise too_large


def _save(upload: UploadedFile, path: Path) -> Path:
    with path.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return path
