"""Projects: poster compositions of stickers (assets) on a template."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import prefetch_related_objects
from PIL import Image, UnidentifiedImageError

from core.errors import Conflict, InvalidInput, NotFound
from core.inputs import Color, Form, Items, JsonText, Number, Object, Text
from core.isolated import run_heavy
from wordclouds import storage
from wordclouds.drawing.poster import Poster, Sticker, render_png, render_svg
from wordclouds.models import Asset, Project, Template
from wordclouds.services.assets import STICKER_CONTENT_TYPES

NAME_MAX = 200
STICKERS_MAX = 500
# Geometry beyond this is a mistake, not a poster (and keeps the arithmetic finite).
COORDINATE_MAX = 1_000_000
UNSET = object()
_USES: list[Callable[[str], list[str]]] = []


def project_uses_register(source: Callable[[str], list[str]]) -> None:
    """Another app's records that need a project as it is: ``source(project_id)`` names them
    (commerce: its design lists past DRAFT and their orders, registered in its
    AppConfig.ready). Such a project is neither changed nor deleted (409 naming them)."""
    _USES.append(source)


def _unused(project: Project, action: str) -> None:
    uses = [use for source in _USES for use in source(project.id)]
    if uses:
        raise Conflict(
            f"project cannot be {action}: it is used by {', '.join(uses)}",
            code="project_in_use",
        )


def _coordinate(name: str, description: str, *, positive: bool = False) -> Number:
    """A sticker's number, poster pixels or degrees, within ±COORDINATE_MAX (a size above 0),
    kept as sent."""
    between = f"{{name}} must be between -{COORDINATE_MAX} and {COORDINATE_MAX}"
    return Number(
        name,
        description,
        code="sticker_invalid",
        low=0 if positive else -COORDINATE_MAX,
        high=COORDINATE_MAX,
        above_low=positive,
        exact=True,
        not_number="{name} must be a finite number",
        below="{name} must be greater than 0" if positive else between,
        above=between,
    )


STICKER = Object(
    "sticker",
    "",
    code="sticker_invalid",
    fields=(
        Text("asset_id", "an image (PNG, JPEG, GIF, WebP) or SVG asset", code="sticker_invalid"),
        _coordinate("x", "left edge of the box, poster pixels"),
        _coordinate("y", "top edge of the box, poster pixels"),
        _coordinate("width", "the asset is stretched to the box", positive=True),
        _coordinate("height", "the box's height", positive=True),
        _coordinate("rotation", "degrees, clockwise about the box centre"),
    ),
    refusal="{name} must be an object",
    unknown="{name} has an unknown key: {key}",
    missing_key="{name}.{key} is required",
    optional=(("rotation", 0),),
)
# The form of POST and PATCH /api/projects, in field order (the first problem is named).
PROJECT_FORM = Form(
    (
        Text(
            "name",
            "the project's name (trimmed)",
            high=NAME_MAX,
            required="yes",
            missing="name is required",
            missing_code="name_required",
        ),
        Text(
            "template_id",
            "a template's id",
            required="yes",
            missing="template_id is required",
            missing_code="template_id_required",
        ),
        Color(
            "background_color",
            "either case, kept as sent",
            upper=False,
            code="background_color_invalid",
            required="yes",
            missing="background_color is required",
            missing_code="background_color_required",
        ),
        JsonText(
            "stickers",
            "absent or empty: none",
            not_json_code="stickers_not_json",
            value=Items(
                "stickers",
                "",
                code="stickers_not_array",
                item=STICKER,
                high=STICKERS_MAX,
                refusal="{name} must be a JSON array",
                too_many="{name} must have at most {high} items",
                too_many_code="too_many_stickers",
                item_words="stickers {asset_id, x, y, width, height, rotation?}",
            ),
        ),
    )
)


def _checked_template(template_id: Any) -> Template:
    template_id = PROJECT_FORM.read("template_id", template_id)
    template = Template.objects.filter(id=template_id).first()
    if template is None:
        raise InvalidInput("template_id is not a known template", code="template_unknown")
    return template


def _stickers(text: Any) -> list[dict]:
    """The stickers field's JSON, checked for shape (absent or empty: none); assets are
    checked apart."""
    return list(PROJECT_FORM.read("stickers", text) or ())


def _sticker_assets(stickers: list[dict]) -> list[Asset]:
    """The assets the stickers place, locked until commit so none is deleted meanwhile."""
    ids = {sticker["asset_id"] for sticker in stickers}
    assets = {asset.id: asset for asset in Asset.objects.select_for_update().filter(id__in=ids)}
    for index, sticker in enumerate(stickers):
        asset = assets.get(sticker["asset_id"])
        if asset is None:
            raise InvalidInput(
                f"stickers[{index}].asset_id is not an existing asset", code="sticker_asset_unknown"
            )
        if asset.content_type not in STICKER_CONTENT_TYPES:
            raise InvalidInput(
                f"stickers[{index}].asset_id must be an image or SVG asset",
                code="sticker_asset_not_image",
            )
    for asset in assets.values():
        _check_drawable(asset, stickers)
    return list(assets.values())


def _check_drawable(asset: Asset, stickers: list[dict]) -> None:
    """A raster sticker must decode and stay within the pixel limit of uploaded images."""
    if asset.content_type == "image/svg+xml":
        return
    index = next(i for i, sticker in enumerate(stickers) if sticker["asset_id"] == asset.id)
    too_large = InvalidInput(
        f"stickers[{index}].asset_id has more than 50 megapixels", code="sticker_image_too_large"
    )
    try:
        with Image.open(storage.local_path(asset.file)) as image:
            width, height = image.size
    except Image.DecompressionBombError as error:
        raise too_large from error
    except (OSError, UnidentifiedImageError) as error:
        raise InvalidInput(
            f"stickers[{index}].asset_id is not a readable image", code="sticker_image_unreadable"
        ) from error
    if width * height > settings.MASK_IMAGE_MAX_PIXELS:
        raise too_large


@transaction.atomic
def project_create(
    *, name: Any, template_id: Any, background_color: Any, stickers: Any = None, owner: str = ""
):
    """A new project, `owner`'s (a customer's `owner_key`; '' when staff make it); `stickers`
    is the JSON text of the form field (absent: none)."""
    name, template = PROJECT_FORM.read("name", name), _checked_template(template_id)
    background_color = PROJECT_FORM.read("background_color", background_color)
    checked = _stickers(stickers)
    assets = _sticker_assets(checked)
    project = Project.objects.create(
        name=name,
        template=template,
        background_color=background_color,
        stickers=checked,
        owner=owner,
    )
    project.assets.set(assets)
    return project


@transaction.atomic
def project_update(
    *,
    project_id: str,
    name: Any = UNSET,
    template_id: Any = UNSET,
    background_color: Any = UNSET,
    stickers: Any = UNSET,
) -> Project:
    """Change only the fields given; the project's asset links follow its stickers."""
    project = Project.objects.select_for_update().filter(id=project_id).first()
    if project is None:
        raise NotFound("project not found", code="project_not_found")
    _unused(project, "changed")
    changed = []
    if name is not UNSET:
        project.name = PROJECT_FORM.read("name", name)
        changed.append("name")
    if template_id is not UNSET:
        project.template = _checked_template(template_id)
        changed.append("template")
    if background_color is not UNSET:
        project.background_color = PROJECT_FORM.read("background_color", background_color)
        changed.append("background_color")
    if stickers is not UNSET:
        project.stickers = _stickers(stickers)
        changed.append("stickers")
        project.assets.set(_sticker_assets(project.stickers))
    project.save(update_fields=[*changed, "updated_at"])
    return project


@transaction.atomic
def project_delete(*, project_id: str) -> None:
    """Delete a project no other app needs (409 naming what does)."""
    project = Project.objects.select_for_update().filter(id=project_id).first()
    if project is None:
        raise NotFound("project not found", code="project_not_found")
    _unused(project, "deleted")
    project.delete()


def project_poster(project: Project) -> Poster:
    """What drawing the project takes: its template's size, its background and each sticker
    with its asset's file fetched from the store (503 when the store fails)."""
    prefetch_related_objects([project], "assets")
    assets = {asset.id: asset for asset in project.assets.all()}
    paths = {asset.id: storage.local_path(asset.file) for asset in assets.values()}
    stickers = []
    for index, sticker in enumerate(project.stickers):
        asset = assets[sticker["asset_id"]]
        stickers.append(Sticker(index, sticker, asset.id, asset.content_type, paths[asset.id]))
    return Poster(
        width=project.template.width,
        height=project.template.height,
        background_color=project.background_color,
        stickers=tuple(stickers),
    )


def project_render(project: Project, kind: str) -> bytes:
    """render.png or render.svg of the project, drawn in a forked child with the heavy-work
    limits (core/isolated.py): the database and the store are read here, the pixels are made
    there."""
    poster = project_poster(project)
    if kind == "png":
        return run_heavy("render.png", render_png, poster, max_pixels=settings.RENDER_MAX_PIXELS)
    return run_heavy("render.svg", render_svg, poster)
