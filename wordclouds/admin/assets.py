"""Admin for assets, projects, fonts and templates.

Rows and files change only through the services, so the admin deletes through them too (the
file follows the row, an asset in use is refused). Uploads go through the API.
"""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_html import image, linked_image, linked_row, table
from core.errors import ServiceError
from wordclouds.models import Asset, Font, Project, Template
from wordclouds.selectors import project_image_url
from wordclouds.services.assets import STICKER_CONTENT_TYPES, asset_delete
from wordclouds.services.fonts import font_delete
from wordclouds.services.projects import project_delete

SIDE_MAX = 10_000
AREA_MAX = 50_000_000


class ServiceDeleteAdmin(admin.ModelAdmin):
    """Deletes one by one through the area's service; a refusal becomes a message."""

    def delete_one(self, obj) -> None:
        raise NotImplementedError

    def delete_model(self, request, obj):
        self._delete(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self._delete(request, obj)

    def _delete(self, request, obj):
        try:
            self.delete_one(obj)
        except ServiceError as error:
            self.message_user(request, f"{obj}: {error.detail}", messages.ERROR)

    def has_add_permission(self, request):
        return False


@admin.register(Asset)
class AssetAdmin(ServiceDeleteAdmin):
    list_display = [
        "id",
        "thumbnail",
        "name",
        "type",
        "job_id",
        "kind",
        "content_type",
        "size",
        "created_at",
    ]
    list_filter = ["type", "content_type"]
    search_fields = ["id", "name", "job_id", "filename"]
    fields = [
        "preview",
        "id",
        "name",
        "type",
        "job_id",
        "kind",
        "keeps_job",
        "filename",
        "content_type",
        "size",
        "sha256",
        "created_at",
    ]
    readonly_fields = [
        "preview",
        "id",
        "job_id",
        "kind",
        "filename",
        "content_type",
        "size",
        "sha256",
        "created_at",
    ]

    def delete_one(self, asset: Asset) -> None:
        asset_delete(asset_id=asset.pk)

    @admin.display(description=_("thumbnail"))
    def thumbnail(self, asset: Asset):
        if asset.content_type not in STICKER_CONTENT_TYPES:
            return "-"
        return image(asset_image_url(asset), asset.name or asset.filename)

    @admin.display(description=_("preview"))
    def preview(self, asset: Asset):
        if asset.content_type not in STICKER_CONTENT_TYPES:
            return "-"
        return linked_image(asset_image_url(asset), asset.name or asset.filename)


def asset_image_url(asset: Asset) -> str:
    return f"/api/assets/{asset.id}/download"


@admin.register(Project)
class ProjectAdmin(ServiceDeleteAdmin):
    list_display = [
        "id",
        "thumbnail",
        "name",
        "template",
        "background_color",
        "created_at",
        "updated_at",
    ]
    list_filter = ["template"]
    search_fields = ["id", "name"]
    fields = [
        "preview",
        "id",
        "name",
        "template",
        "background_color",
        "sticker_rows",
        "created_at",
        "updated_at",
    ]
    # Template, colour, stickers and their asset links are checked and changed together
    # through the API only; staff may rename.
    readonly_fields = [
        "preview",
        "id",
        "template",
        "background_color",
        "sticker_rows",
        "created_at",
        "updated_at",
    ]

    def delete_one(self, project: Project) -> None:
        project_delete(project_id=project.pk)

    @admin.display(description=_("thumbnail"))
    def thumbnail(self, project: Project):
        return image(project_image_url(project), project.name)

    @admin.display(description=_("preview"))
    def preview(self, project: Project):
        return linked_image(project_image_url(project), project.name)

    @admin.display(description=_("stickers"))
    def sticker_rows(self, project: Project):
        assets = Asset.objects.in_bulk([sticker["asset_id"] for sticker in project.stickers])
        rows = []
        for sticker in project.stickers:
            asset = assets.get(sticker["asset_id"])
            rows.append(
                (
                    image(asset_image_url(asset), asset.name or asset.filename) if asset else "-",
                    linked_row(Asset, sticker["asset_id"], asset),
                    f"{sticker['x']:g}, {sticker['y']:g}",
                    f"{sticker['width']:g} × {sticker['height']:g}",
                    f"{sticker.get('rotation', 0):g}°",
                )
            )
        return table(["", gettext("asset"), "x, y", gettext("size"), gettext("rotation")], rows)


@admin.register(Font)
class FontAdmin(ServiceDeleteAdmin):
    list_display = ["id", "name", "family", "filename", "size", "created_at"]
    search_fields = ["id", "name", "family", "filename"]
    fields = ["id", "name", "family", "filename", "file", "size", "created_at"]
    readonly_fields = ["id", "family", "filename", "file", "size", "created_at"]

    def delete_one(self, font: Font) -> None:
        font_delete(font_id=font.pk)


class TemplateForm(forms.ModelForm):
    """A poster size the renderer can draw: the bounds of a job's canvas."""

    def clean(self):
        cleaned = super().clean()
        width, height = cleaned.get("width"), cleaned.get("height")
        if (
            width is not None
            and height is not None
            and not (
                0 < width <= SIDE_MAX and 0 < height <= SIDE_MAX and width * height <= AREA_MAX
            )
        ):
            raise forms.ValidationError(
                gettext("width and height must be 1–%(side)s px, together at most 50 megapixels")
                % {"side": SIDE_MAX}
            )
        return cleaned


@admin.register(Template)
class TemplateAdmin(admin.ModelAdmin):
    form = TemplateForm
    list_display = ["id", "name", "width", "height", "position", "builtin"]
    list_filter = ["builtin"]
    search_fields = ["id", "name"]
    ordering = ["-builtin", "position", "id"]

    def get_readonly_fields(self, request, obj=None):
        # The five fixed templates keep their id and size: projects and clients rely on them.
        if obj is not None and obj.builtin:
            return ["id", "width", "height", "builtin"]
        return ["builtin"] if obj is None else ["id", "builtin"]

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not (obj and obj.builtin)
