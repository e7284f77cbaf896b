from django.db import DatabaseError, connection
from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response


@extend_schema(responses=inline_serializer("Health", {"ok": serializers.BooleanField()}))
@api_view(["GET"])
def health(request):
    """200 {"ok": true} while the database answers, 503 {"ok": false} when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return Response({"ok": False}, status=503)
    return Response({"ok": True})


urlpatterns = [path("health", health, name="health")]
