"""Fonts: the bundled default and uploaded ones (stored as fonts/<id><ext>)."""

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path, PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTCollection, TTFont

from core.errors import InvalidInput, NotFound
from core.isolated import run_heavy
from wordclouds.engine import (
    CHAIN_COVERAGE,
    DEFAULT_FACE,
    InputError,
    check_font,
    default_font_path,
    font_faces,
)
from wordclouds.models import Font, new_id
from wordclouds.services.form_text import form_text
from wordclouds.services.stored_files import remove_after_commit, stored_file, upload_size_check

DEFAULT_FONT_ID = "__default__"
FONT_EXTENSIONS = (".ttf", ".ttc", ".otf")
FOLDER = "fonts"
NAME_MAX = 200
TTC_TAG = b"ttcf"
GLYPH_SAMPLE = 500


@dataclass(frozen=True)
class FontEntry:
    """One entry of the font list: an uploaded font's row, or the bundled default."""

    id: str
    name: str
    family: str
    filename: str
    is_default: bool
    created_at: datetime | None
    coverage: str = ""  # what the bundled font with its fallback chain draws
    faces: tuple = ()  # the bundled collection's faces and the languages they declare


def default_font_file() -> Path:
    return Path(default_font_path())


@lru_cache(maxsize=4)
def _default_entry(path: Path) -> FontEntry:
    # Only the name table of the face the engine draws Han names with by default (a
    # collection's Simplified Chinese face, the default LOCALE's): checking the whole
    # bundled collection takes seconds, and it is known to be good.
    if path.suffix.lower() == ".ttc":
        fonts = TTCollection(str(path), lazy=True).fonts
        face = fonts[DEFAULT_FACE] if len(fonts) > DEFAULT_FACE else fonts[0]
    else:
        face = TTFont(str(path), lazy=True)
    family = face["name"].getBestFamilyName() or path.stem
    return FontEntry(
        id=DEFAULT_FONT_ID,
        name=f"{family} (bundled)",
        family=family,
        filename=path.name,
        is_default=True,
        created_at=None,
        coverage=f"with its fallback fonts: {CHAIN_COVERAGE}",
        faces=tuple(font_faces(path)),
    )


def font_entry(font: Font) -> FontEntry:
    return FontEntry(
        id=font.id,
        name=font.name,
        family=font.family,
        filename=font.filename,
        is_default=False,
        created_at=font.created_at,
    )


def font_list() -> list[FontEntry]:
    """The bundled default first, then uploaded fonts, oldest first."""
    uploaded = [font_entry(font) for font in Font.objects.order_by("created_at", "id")]
    return [_default_entry(default_font_file()), *uploaded]


def _checked_family(path: Path) -> str:
    """The family name of a stored upload; 400 unless it is a usable font whose glyphs
    decode (and a .ttc file is really a collection)."""
    try:
        family = check_font(path).family
    except InputError as error:
        raise InvalidInput("file is not a valid font", code="font_invalid") from error
    with path.open("rb") as stream:
        if path.suffix == ".ttc" and stream.read(4) != TTC_TAG:
            raise InvalidInput("file is not a valid font", code="font_invalid")
    font_glyphs_check(path, field="file")
    return family


def font_glyphs_check(path: Path, *, field: str) -> None:
    """400 `<field> is not a valid font` unless the outlines of a sample of glyphs, spread
    over each face's glyph order, decode: a glyph table of noise passes the table checks.
    A sample (GLYPH_SAMPLE per face) keeps a 30,000-glyph CJK font's check short."""
    try:
        faces = (
            TTCollection(str(path), lazy=True).fonts
            if path.suffix.lower() == ".ttc"
            else [TTFont(str(path), lazy=True)]
        )
        for face in faces:
            order = face.getGlyphOrder()
            glyphs = face.getGlyphSet()
            step = max(1, len(order) // GLYPH_SAMPLE)
            for name in order[::step]:
                glyphs[name].draw(BoundsPen(glyphs))
    except Exception as error:  # fontTools raises many kinds on damaged data
        raise InvalidInput(f"{field} is not a valid font", code="font_invalid") from error


def font_create(*, upload: UploadedFile | None, name: str = "") -> Font:
    """Store an uploaded font after checking its extension, size and content."""
    if upload is None:
        raise InvalidInput("file is required", code="file_required")
    name = form_text(name, field="name", limit=NAME_MAX)
    filename = PurePath(upload.name or "").name
    extension = PurePath(filename).suffix.lower()
    if extension not in FONT_EXTENSIONS:
        raise InvalidInput("file must be .ttf, .ttc or .otf", code="font_wrong_type")
    upload_size_check(upload, field="file", limit=settings.FONT_MAX_BYTES)
    font_id = new_id()
    checked = {}

    def check(path: Path) -> None:
        # An uploaded font is parsed in a forked child with the heavy-work limits: a hostile
        # one costs the web process nothing.
        checked["family"] = run_heavy("checking the font", _checked_family, path)

    with (
        stored_file(
            chunks=upload.chunks(), folder=FOLDER, stem=font_id, extension=extension, check=check
        ) as stored,
        transaction.atomic(),
    ):
        family = checked["family"]
        return Font.objects.create(
            id=font_id,
            name=name or (family or PurePath(filename).stem)[:NAME_MAX],
            family=family[:NAME_MAX],
            filename=filename[:255],
            file=stored.relative,
            size=stored.size,
        )


@transaction.atomic
def font_delete(*, font_id: str) -> None:
    if font_id == DEFAULT_FONT_ID:
        raise InvalidInput("the default font cannot be deleted", code="default_font_undeletable")
    font = Font.objects.select_for_update().filter(id=font_id).first()
    if font is None:
        raise NotFound("font not found", code="font_not_found")
    font.delete()
    remove_after_commit(font.file)
