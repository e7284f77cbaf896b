"""One error path: services raise ServiceError subclasses, and every error under /api
leaves as JSON `{"detail": ..., "code": ...}` with the right status, whoever raised it."""

import logging
import math

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DataError
from django.http import Http404, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.error_codes import generic
from core.inputs import Refused

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A domain error a client can act on; `detail` is the text sent to the client."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, detail: str, code: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.code = code  # a stable snake_case name of the problem, for clients to translate

    def body(self) -> dict:
        """The JSON body of this error: ``detail`` and ``code`` (its status's generic code
        when the raiser named none)."""
        return error_body(self.detail, self.status_code, self.code)


def error_body(detail: str, status: int, code: str | None = None) -> dict:
    """Every error's JSON body: the English `detail` and a code from core/error_codes.py."""
    return {"detail": detail, "code": code or generic(status)}


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


class Gone(ServiceError):
    """What was there is no more, on purpose (a revoked proof's link)."""

    status_code = status.HTTP_410_GONE


class TooLarge(ServiceError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class Unprocessable(ServiceError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY


class RetryLater(ServiceError):
    """An error after which the client may try again in `retry_after` seconds (Retry-After)."""

    def __init__(self, detail: str, code: str | None = None, *, retry_after: float = 5):
        super().__init__(detail, code=code)
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


class TooManyRequests(RetryLater):
    """429: past a rate or a cap."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS


class BadGateway(ServiceError):
    status_code = status.HTTP_502_BAD_GATEWAY


class Unavailable(RetryLater):
    """503: the service is too busy now."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE


def _flatten(detail) -> str:
    """DRF validation errors are nested dicts/lists; the client gets one sentence."""
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()), ("", ""))
        text = _flatten(value)
        return text if field in ("", "non_field_errors", "detail") else f"{field}: {text}"
    if isinstance(detail, (list, tuple)):
        return _flatten(detail[0]) if detail else ""
    return str(detail)


TOO_DEEP = "request data is nested too deeply"
OUT_OF_RANGE = "a number in the request is out of range"
REQUEST_TOO_LARGE = "request body exceeds the size limit"


def client_error(exc) -> ServiceError | None:
    """The client's error an exception stands for, wherever it was raised: a service's own,
    or Django's limits on request data (too large, too many fields or files), input nested
    beyond Python's recursion limit, a declared input refused (core/inputs.py), or a number
    too large for the database. None: a bug."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, Refused):  # a declared input's refusal (core/inputs.py)
        answer = {413: TooLarge, 404: NotFound}.get(exc.status, InvalidInput)
        return answer(exc.detail, code=exc.code)
    if isinstance(exc, RequestDataTooBig):
        return TooLarge(REQUEST_TOO_LARGE, code="request_too_large")
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, a bad multipart...: Django's own short text.
        return InvalidInput(str(exc)[:200] or "bad request", code="request_data_refused")
    if isinstance(exc, RecursionError):
        return InvalidInput(TOO_DEEP, code="data_nested_too_deeply")
    if isinstance(exc, (OverflowError, DataError)):
        return InvalidInput(OUT_OF_RANGE, code="number_out_of_range")
    return None


def log_refused(error: ServiceError, where) -> None:
    """A refused request is one line, never a traceback."""
    logger.info("refused %s: %s %s", where, error.status_code, error.detail)


def api_exception_handler(exc, context):
    error = client_error(exc)
    if error is not None:
        if error is not exc:
            log_refused(error, context.get("view").__class__.__name__)
        return Response(
            error.body(),
            status=error.status_code,
            headers=getattr(error, "headers", None),
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled error in %s", context.get("view"))
        return Response(error_body("internal server error", 500), status=500)
    code = "invalid_field" if isinstance(exc, exceptions.ValidationError) else None
    response.data = error_body(_flatten(response.data), response.status_code, code)
    return response


class ApiErrorMiddleware(MiddlewareMixin):
    """Turns the HTML error pages Django makes outside DRF (unknown route, uncaught
    exception in a plain view) into JSON for every path under /api. (Health and the event
    streams answer in front of Django, core/endpoints.py, with the same JSON.)"""

    def process_response(self, request, response):
        if not request.path.startswith("/api") or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        if response.status_code == 404:
            return JsonResponse(error_body("not found", 404), status=404)
        if response.status_code == 405:
            detail = f"method {request.method} not allowed"
            answer = JsonResponse(error_body(detail, 405), status=405)
            answer["Allow"] = response.get("Allow", "")
            return answer
        if response.status_code >= 500:
            body = error_body("internal server error", response.status_code)
            return JsonResponse(body, status=response.status_code)
        body = error_body(response.reason_phrase.lower(), response.status_code)
        return JsonResponse(body, status=response.status_code)

    def process_exception(self, request, exception):
        if not request.path.startswith("/api"):
            return None
        error = client_error(exception)
        if error is not None:
            if error is not exception:
                log_refused(error, request.path)
            return JsonResponse(
                error.body(),
                status=error.status_code,
                headers=getattr(error, "headers", None),
            )
        if isinstance(exception, Http404):
            return JsonResponse(error_body("not found", 404), status=404)
        logger.exception("unhandled error on %s", request.path)
        return JsonResponse(error_body("internal server error", 500), status=500)
