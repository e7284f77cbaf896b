"""Shapes of the font, template, asset and project endpoints (docs/assets.md). Inputs are
multipart forms the services read, each declared once in the language of core/inputs.py
(`FONT_FORM`, `ASSET_FORM`, `ASSET_IMPORT_FORM`, `PROJECT_FORM`): their schemas here are read
from those declarations."""

from rest_framework import serializers

from core.serializers import UtcDateTimeField, WithInputs
from wordclouds.models import Asset, Project, Template
from wordclouds.services.assets import ASSET_FORM, ASSET_IMPORT_FORM
from wordclouds.services.fonts import FONT_FORM
from wordclouds.services.projects import PROJECT_FORM


class FontFaceSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    family = serializers.CharField()
    language = serializers.CharField(
        allow_null=True, help_text="zh-Hans, zh-Hant, ja or ko, as LOCALE names it; or null"
    )


class FontSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    family = serializers.CharField()
    filename = serializers.CharField()
    is_default = serializers.BooleanField()
    created_at = UtcDateTimeField(allow_null=True, help_text="null for the bundled default")
    coverage = serializers.CharField(
        help_text="the scripts the bundled default draws with its fallback fonts; empty for "
        "uploaded fonts, whose missing characters fall back to the same fonts"
    )
    faces = FontFaceSerializer(
        many=True,
        help_text="the bundled collection's faces and the LOCALE each declares; empty for "
        "uploaded fonts",
    )


class FontUploadSerializer(WithInputs):
    """The form of POST /api/fonts: its schema is FONT_FORM's, which the service reads."""

    inputs = FONT_FORM


class TemplateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Template
        fields = ["id", "name", "width", "height"]


class AssetSerializer(serializers.ModelSerializer):
    created_at = UtcDateTimeField()
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = Asset
        fields = [
            "id",
            "name",
            "type",
            "job_id",
            "kind",
            "filename",
            "content_type",
            "size",
            "created_at",
            "download_url",
        ]

    def get_download_url(self, asset: Asset) -> str:
        return f"/api/assets/{asset.id}/download"


class AssetUploadSerializer(WithInputs):
    """The form of POST /api/assets: its schema is ASSET_FORM's, which the service reads."""

    inputs = ASSET_FORM


class AssetImportSerializer(WithInputs):
    """The form of POST /api/assets/from-job/{job_id}: its schema is ASSET_IMPORT_FORM's,
    which the service reads."""

    inputs = ASSET_IMPORT_FORM


class StickerSerializer(serializers.Serializer):
    asset_id = serializers.CharField(help_text="an image (PNG, JPEG, GIF, WebP) or SVG asset")
    x = serializers.FloatField(help_text="left edge of the box, poster pixels")
    y = serializers.FloatField(help_text="top edge of the box, poster pixels")
    width = serializers.FloatField(help_text="> 0; the asset is stretched to the box")
    height = serializers.FloatField(help_text="> 0")
    rotation = serializers.FloatField(
        required=False,
        default=0,
        help_text="degrees, clockwise about the box centre",
    )


class ProjectSerializer(serializers.ModelSerializer):
    template_id = serializers.CharField()
    template = TemplateSerializer()
    stickers = StickerSerializer(many=True)
    created_at = UtcDateTimeField()
    updated_at = UtcDateTimeField()

    class Meta:
        model = Project
        fields = [
            "id",
            "name",
            "template_id",
            "template",
            "background_color",
            "stickers",
            "created_at",
            "updated_at",
        ]


class ProjectSummarySerializer(serializers.ModelSerializer):
    template_id = serializers.CharField()
    sticker_count = serializers.SerializerMethodField()
    created_at = UtcDateTimeField()
    updated_at = UtcDateTimeField()

    class Meta:
        model = Project
        fields = [
            "id",
            "name",
            "template_id",
            "background_color",
            "sticker_count",
            "created_at",
            "updated_at",
        ]

    def get_sticker_count(self, project: Project) -> int:
        return len(project.stickers)


class ProjectFormSerializer(WithInputs):
    """The form of POST (and, partial, PATCH) /api/projects: its schema is PROJECT_FORM's,
    the declaration the service reads the form with."""

    inputs = PROJECT_FORM
