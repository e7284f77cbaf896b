"""Projects: poster compositions of stickers (assets) on a template."""

import json
import math
import re
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import prefetch_related_objects
from PIL import Image, UnidentifiedImageError

from core.errors import InvalidInput, NotFound
from core.isolated import run_heavy
from wordclouds import storage
from wordclouds.drawing.poster import Poster, Sticker, render_png, render_svg
from wordclouds.models import Asset, Project, Template
from wordclouds.services.assets import STICKER_CONTENT_TYPES
from wordclouds.services.form_text import form_text

COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
NAME_MAX = 200
STICKERS_MAX = 500
# Geometry beyond this is a mistake, not a poster (and keeps the arithmetic finite).
COORDINATE_MAX = 1_000_000
STICKER_KEYS = ("asset_id", "x", "y", "width", "height", "rotation")
UNSET = object()


def _checked_name(name: Any) -> str:
    name = form_text(name, field="name", limit=NAME_MAX)
    if not name:
        raise InvalidInput("name is required", code="name_required")
    return name


def _checked_template(template_id: Any) -> Template:
    template_id = (template_id or "").strip()
    if not template_id:
        raise InvalidInput("template_id is required", code="template_id_required")
    template = Template.objects.filter(id=template_id).first()
    if template is None:
        raise InvalidInput("template_id is not a known template", code="template_unknown")
    return template


def _checked_color(color: Any) -> str:
    color = (color or "").strip()
    if not color:
        raise InvalidInput("background_color is required", code="background_color_required")
    if not COLOR.fullmatch(color):
        raise InvalidInput("background_color must be #RRGGBB", code="background_color_invalid")
    return color


def _number(sticker: dict, index: int, key: str, *, positive: bool = False) -> float:
    where = f"stickers[{index}].{key}"
    if key not in sticker:
        raise InvalidInput(f"{where} is required", code="sticker_invalid")
    value = sticker[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{where} must be a finite number", code="sticker_invalid")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{where} must be a finite number", code="sticker_invalid")
    if abs(value) > COORDINATE_MAX:
        raise InvalidInput(
            f"{where} must be between -{COORDINATE_MAX} and {COORDINATE_MAX}",
            code="sticker_invalid",
        )
    if positive and value <= 0:
        raise InvalidInput(f"{where} must be greater than 0", code="sticker_invalid")
    return value


def _parsed_stickers(text: Any) -> list[dict]:
    """The stickers field's JSON, checked for shape; assets are checked apart."""
    try:
        stickers = json.loads(text, parse_constant=_refuse_constant)
    except (TypeError, ValueError) as error:
        raise InvalidInput("stickers must be valid JSON", code="stickers_not_json") from error
    if not isinstance(stickers, list):
        raise InvalidInput("stickers must be a JSON array", code="stickers_not_array")
    if len(stickers) > STICKERS_MAX:
        raise InvalidInput(
            f"stickers must have at most {STICKERS_MAX} items", code="too_many_stickers"
        )
    checked = []
    for index, sticker in enumerate(stickers):
        if not isinstance(sticker, dict):
            raise InvalidInput(f"stickers[{index}] must be an object", code="sticker_invalid")
        unknown = sorted(set(sticker) - set(STICKER_KEYS))
        if unknown:
            raise InvalidInput(
                f"stickers[{index}] has an unknown key: {unknown[0]}", code="sticker_invalid"
            )
        asset_id = sticker.get("asset_id")
        if asset_id is None:
            raise InvalidInput(f"stickers[{index}].asset_id is required", code="sticker_invalid")
        if not isinstance(asset_id, str):
            raise InvalidInput(
                f"stickers[{index}].asset_id must be a string", code="sticker_invalid"
            )
        checked.append(
            {
                "asset_id": asset_id,
                "x": _number(sticker, index, "x"),
                "y": _number(sticker, index, "y"),
                "width": _number(sticker, index, "width", positive=True),
                "height": _number(sticker, index, "height", positive=True),
                "rotation": _number(sticker, index, "rotation") if "rotation" in sticker else 0,
            }
        )
    return checked


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


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
    name, template = _checked_name(name), _checked_template(template_id)
    background_color = _checked_color(background_color)
    checked = _parsed_stickers(stickers) if stickers not in (None, "") else []
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
    changed = []
    if name is not UNSET:
        project.name = _checked_name(name)
        changed.append("name")
    if template_id is not UNSET:
        project.template = _checked_template(template_id)
        changed.append("template")
    if background_color is not UNSET:
        project.background_color = _checked_color(background_color)
        changed.append("background_color")
    if stickers is not UNSET:
        project.stickers = _parsed_stickers(stickers) if stickers != "" else []
        changed.append("stickers")
        project.assets.set(_sticker_assets(project.stickers))
    project.save(update_fields=[*changed, "updated_at"])
    return project


@transaction.atomic
def project_delete(*, project_id: str) -> None:
    deleted, _ = Project.objects.filter(id=project_id).delete()
    if not deleted:
        raise NotFound("project not found", code="project_not_found")


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
