from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

from core.errors import InvalidInput, Unauthorized
from core.throttles import failure_count
from wordclouds.services.login import admin_login


@extend_schema(
    request=inline_serializer("LoginRequest", {"password": serializers.CharField()}),
    responses={
        200: inline_serializer("LoginToken", {"token": serializers.CharField()}),
        400: OpenApiResponse(description="password is required"),
        401: OpenApiResponse(description="invalid password"),
        429: OpenApiResponse(
            description="too many failed logins from this client (THROTTLE_RATES)"
        ),
    },
)
@api_view(["POST"])
@parser_classes([JSONParser])
def login(request):
    """Exchange the admin password for a bearer token (valid ADMIN_TOKEN_MAX_AGE seconds).
    Failures count against the login rate (core/throttles.py)."""
    password = request.data.get("password") if hasattr(request.data, "get") else None
    if not isinstance(password, str) or not password:
        raise InvalidInput("password is required", code="password_required")
    try:
        token = admin_login(password=password)
    except Unauthorized:
        failure_count(request)
        raise
    return Response({"token": token})


urlpatterns = [path("login", login, name="login")]
