"""The zoom pyramid of a finished job's poster (wordclouds/drawing/tiles.py), public like
the job's other files: the lookup page reads the index, then the tiles it shows."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.schema import STORED_FILE_REDIRECT
from wordclouds import storage
from wordclouds.selectors import tile_key, tiles_index
from wordclouds.storage import FOREVER


@extend_schema(
    responses={
        200: inline_serializer(
            "TilesIndex",
            {
                "width": serializers.IntegerField(),
                "height": serializers.IntegerField(),
                "tile_size": serializers.IntegerField(),
                "levels": serializers.IntegerField(),
                "format": serializers.CharField(),
            },
        ),
        404: OpenApiResponse(description="job not found / artifact not ready"),
    },
    description="The poster's zoom pyramid: level `levels - 1` is the PNG's pixels, each level "
    "above halves it, level 0 fits one tile.",
)
@api_view(["GET"])
def tiles(request, job_id: str):
    return Response(tiles_index(job_id=job_id), headers={"Cache-Control": FOREVER})


@extend_schema(
    responses={
        (200, "image/jpeg"): OpenApiTypes.BINARY,
        302: STORED_FILE_REDIRECT,
        404: OpenApiResponse(description="job not found / artifact not ready / tile not found"),
    }
)
@api_view(["GET"])
def tile(request, job_id: str, level: int, column: int, row: int):
    """One 256-pixel tile (smaller at the right and bottom edges): the tile, or with the S3
    storage a redirect to it."""
    name = f"{column}_{row}.jpg"
    return storage.download_response(
        tile_key(job_id=job_id, level=level, column=column, row=row),
        filename=name,
        content_type="image/jpeg",
        inline=True,
        immutable=True,
    )


urlpatterns = [
    path("jobs/<str:job_id>/tiles", tiles, name="job-tiles"),
    path("jobs/<str:job_id>/tiles/<int:level>/<int:column>_<int:row>.jpg", tile, name="job-tile"),
]
