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

from core.errors import Conflict, InvalidInput, NotFound
from core.inputs import Form, Text, Upload
from core.isolated import run_heavy
from wordclouds.engine import (
    CHAIN_COVERAGE,
    DEFAULT_FACE,
    InputError,
    check_font,
    default_font_path,
    font_faces,
)
from wordclouds.models import Font, Job, new_id
from wordclouds.services.retention import jobs_other_apps_need
from wordclouds.services.stored_files import remove_after_commit, stored_file

DEFAULT_FONT_ID = "__default__"
FONT_EXTENSIONS = (".ttf", ".ttc", ".otf")
FOLDER = "fonts"
NAME_MAX = 200
USERS_NAMED = 5  # a 409 names this many users of a font, then counts the rest
TTC_TAG = b"ttcf"
GLYPH_SAMPLE = 500


def font_upload(name: str, description: str, **declared) -> Upload:
    """A form's font file (the font form's, a job's): its extensions and size limit."""
    return Upload(
        name,
        description,
        extensions=FONT_EXTENSIONS,
        refusal="{name} must be .ttf, .ttc or .otf",
        limit=lambda: settings.FONT_MAX_BYTES,
        **declared,
    )


# The form of POST /api/fonts, in field order (the first problem is named); the file's
# content is checked once stored (`_checked_family`).
FONT_FORM = Form(
    (
        font_upload(
            "file",
            "a font the engine can draw with",
            required="yes",
            missing="file is required",
            missing_code="file_required",
            code="font_wrong_type",
        ),
        Text(
            "name",
            "the font's name",
            high=NAME_MAX,
            meaning=f"a text of at most {NAME_MAX} characters; absent or empty: the font's "
            "family name",
        ),
    )
)


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
    """Store an uploaded font after checking its form (FONT_FORM: the file's extension and
    size, the name), then its content."""
    upload = FONT_FORM.read("file", upload)
    name = FONT_FORM.read("name", name) or ""
    filename = PurePath(upload.name or "").name
    extension = PurePath(filename).suffix.lower()
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
    users = _font_users(font_id)
    if users:
        more = f" and {len(users) - USERS_NAMED} more" if len(users) > USERS_NAMED else ""
        raise Conflict(
            f"font is used by {', '.join(users[:USERS_NAMED])}{more}", code="font_in_use"
        )
    font.delete()
    remove_after_commit(font.file)


def _font_users(font_id: str) -> list[str]:
    """The jobs that still need the font: queued or running ones (a revision among them), and
    those a design list or an order names (staff may revise them). Job creation locks the
    font's row (services/jobs.py), so none starts to use it while it is being deleted."""
    jobs = Job.objects.filter(font_id=font_id).order_by("created_at", "id")
    working = [
        f"job {job_id} ({status})"
        for job_id, status in jobs.filter(
            status__in=(Job.Status.QUEUED, Job.Status.RUNNING)
        ).values_list("id", "status")
    ]
    needed = jobs_other_apps_need()
    ordered = [
        f"job {job_id} (in a design list or an order)"
        for job_id in jobs.exclude(status__in=(Job.Status.QUEUED, Job.Status.RUNNING))
        .values_list("id", flat=True)
        .iterator()
        if job_id in needed
    ]
    return working + ordered
