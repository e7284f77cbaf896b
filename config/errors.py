"""One error path: services raise ServiceError subclasses, and every error under /api
leaves as JSON `{"detail": ...}` with the right status, whoever raised it."""
import logging

from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A domain error a client can act on; `detail` is the text sent to the client."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class InvalidInput(ServiceError):
    status_code = status.HTTP_400_BAD_REQUEST


class Unauthorized(ServiceError):
    status_code = status.HTTP_401_UNAUTHORIZED


class Forbidden(ServiceError):
    status_code = status.HTTP_403_FORBIDDEN


class NotFound(ServiceError):
    status_code = status.HTTP_404_NOT_FOUND


class Conflict(ServiceError):
    status_code = status.HTTP_409_CONFLICT


class TooLarge(ServiceError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class Unprocessable(ServiceError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY


class BadGateway(ServiceError):
    status_code = status.HTTP_502_BAD_GATEWAY


def _flatten(detail) -> str:
    """DRF validation errors are nested dicts/lists; the client gets one sentence."""
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()), ("", ""))
        text = _flatten(value)
        return text if field in ("", "non_field_errors", "detail") else f"{field}: {text}"
    if isinstance(detail, (list, tuple)):
        return _flatten(detail[0]) if detail else ""
    return str(detail)


def api_exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"detail": exc.detail}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled error in %s", context.get("view"))
        return Response({"detail": "internal server error"}, status=500)
    response.data = {"detail": _flatten(response.data)}
    return response


class ApiErrorMiddleware:
    """Turns the HTML error pages Django makes outside DRF (unknown route, uncaught
    exception in a plain view) into JSON for every path under /api."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/api") or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        if response.status_code == 404:
            return JsonResponse({"detail": "not found"}, status=404)
        if response.status_code == 405:
            return JsonResponse({"detail": f"method {request.method} not allowed"}, status=405)
        if response.status_code >= 500:
            return JsonResponse({"detail": "internal server error"}, status=response.status_code)
        return response

    def process_exception(self, request, exception):
        if not request.path.startswith("/api"):
            return None
        if isinstance(exception, ServiceError):
            return JsonResponse({"detail": exception.detail}, status=exception.status_code)
        if isinstance(exception, Http404):
            return JsonResponse({"detail": "not found"}, status=404)
        logger.exception("unhandled error on %s", request.path)
        return JsonResponse({"detail": "internal server error"}, status=500)
