from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, parser_classes, throttle_classes
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from core.errors import InvalidInput, Unauthorized
from wordclouds.services.login import admin_login


class FailedLoginThrottle(SimpleRateThrottle):
    """At most 10 failed logins a minute per client address; then every attempt from that
    address, right or wrong, gets 429 until the oldest failure is a minute old.

    Only failures count (`record_failure`), so staff who log in often are never blocked.
    The address is REMOTE_ADDR, not X-Forwarded-For, which any client can forge; behind a
    proxy, run daphne with --proxy-headers."""

    scope = "login_failure"
    rate = "10/min"

    def get_cache_key(self, request, view=None):
        return self.cache_format % {"scope": self.scope, "ident": request.META.get("REMOTE_ADDR")}

    def throttle_success(self):
        return True

    def record_failure(self, request) -> None:
        key = self.get_cache_key(request)
        now = self.timer()
        history = [at for at in self.cache.get(key, []) if at > now - self.duration]
        self.cache.set(key, [now, *history], self.duration)


@extend_schema(
    request=inline_serializer("LoginRequest", {"password": serializers.CharField()}),
    responses={
        200: inline_serializer("LoginToken", {"token": serializers.CharField()}),
        400: OpenApiResponse(description="password is required"),
        401: OpenApiResponse(description="invalid password"),
        429: OpenApiResponse(description="more than 10 failed logins a minute from this address"),
    },
)
@api_view(["POST"])
@parser_classes([JSONParser])
@throttle_classes([FailedLoginThrottle])
def login(request):
    """Exchange the admin password for a bearer token (valid ADMIN_TOKEN_MAX_AGE seconds)."""
    password = request.data.get("password") if hasattr(request.data, "get") else None
    if not isinstance(password, str) or not password:
        raise InvalidInput("password is required", code="password_required")
    try:
        token = admin_login(password=password)
    except Unauthorized:
        FailedLoginThrottle().record_failure(request)
        raise
    return Response({"token": token})


urlpatterns = [path("login", login, name="login")]
