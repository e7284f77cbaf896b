"""Daphne's HTTP layer held to the service's limits, and its refusals in the service's words.

Below Django, daphne's HTTP layer (twisted) would parse multipart bodies a second time, in
memory, and answer a body or header it dislikes with a bare 400 and no CORS header, or close
the connection without an answer when one header line is too long. `limit_http_server()`
makes Django alone parse request bodies and gives the HTTP layer's own refusals the JSON
`{"detail"}` and CORS header of every other error (core/errors.py).

The HTTP layer takes in a whole body before the application starts, on the event loop that
serves every request. So a body over REQUEST_BODY_MAX_BYTES (any kind, multipart included)
is refused here with 413, read off the socket but not kept, and a body within it is handed on
to Django in parts of BODY_PART_BYTES (daphne's 8 KB made 6,400 parts of a 50 MB upload).
Django's own limits (DATA_UPLOAD_MAX_MEMORY_SIZE, each upload's) then answer with their
own detail. Import this module once settings are configured (config/asgi.py does)."""

import functools
import io
import json

from daphne.http_protocol import WebRequest
from daphne.server import Server
from django.conf import settings
from twisted.web.http import HTTPChannel

from core.errors import REQUEST_TOO_LARGE, TooLarge, error_body, log_refused

REASONS = {400: "Bad Request", 413: "Content Too Large", 431: "Request Header Fields Too Large"}


def _refusal(status: int, detail: str) -> bytes:
    body = json.dumps(error_body(detail, status)).encode()
    head = (
        f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nAccess-Control-Allow-Origin: *\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


HEADERS_TOO_LARGE = _refusal(
    431, f"request headers exceed {settings.REQUEST_HEADERS_MAX_BYTES // 1024} KB"
)
MALFORMED = _refusal(400, "malformed HTTP request")
BODY_TOO_LARGE = _refusal(413, REQUEST_TOO_LARGE)


def _answer_and_disconnect(channel: HTTPChannel) -> None:
    """HTTPChannel's refusal of a request it cannot read, as JSON."""
    too_large = (
        channel._receivedHeaderSize > channel.totalHeadersSize
        or channel._receivedHeaderCount > channel.maxHeaders
    )
    channel.transport.write(HEADERS_TOO_LARGE if too_large else MALFORMED)
    channel.loseConnection()


def _line_too_long(channel: HTTPChannel, line: bytes) -> None:
    """One header line over the limit: twisted would close without a word."""
    channel.transport.write(HEADERS_TOO_LARGE)
    channel.loseConnection()


class _Dropped(io.BytesIO):
    """The body of a request refused by its size: received, counted by twisted, not kept."""

    def write(self, data: bytes) -> int:
        return len(data)


def _keep_or_drop_body(request: WebRequest, length: int | None) -> None:
    if length is not None and length > settings.REQUEST_BODY_MAX_BYTES:
        request.content = _Dropped()
    else:
        _got_length(request, length)


def _keep_or_drop_part(request: WebRequest, data: bytes) -> None:
    """A chunked body has no length to judge it by: it is dropped once it passes the limit."""
    if (
        not isinstance(request.content, _Dropped)
        and request.content.tell() + len(data) > settings.REQUEST_BODY_MAX_BYTES
    ):
        request.content.close()
        request.content = _Dropped()
    request.content.write(data)


def _answer_unless_dropped(request: WebRequest):
    """Once the whole request is in: the refusal of a dropped body, or daphne's answer. (The
    refusal waits for the body, since a client that is still sending reads no answer.)"""
    if not isinstance(request.content, _Dropped):
        return _process(request)
    log_refused(
        TooLarge(REQUEST_TOO_LARGE, code="request_too_large"),
        request.path.decode("ascii", "replace")[:100],
    )
    request.channel.transport.write(BODY_TOO_LARGE)
    request.channel.loseConnection()


BODY_PART_BYTES = 1024 * 1024
_got_length, _process = WebRequest.gotLength, WebRequest.process


def limit_http_server() -> None:
    """Patch daphne and twisted (at start-up) as the module docstring says; once only."""
    if WebRequest.gotLength is _keep_or_drop_body:
        return
    WebRequest.gotLength = _keep_or_drop_body
    WebRequest.handleContentChunk = _keep_or_drop_part
    WebRequest.process = _answer_unless_dropped
    Server.__init__ = functools.partialmethod(Server.__init__, request_buffer_size=BODY_PART_BYTES)
    # A property, since twisted's Request.__init__ sets the flag on each request (True): a plain
    # class attribute would be shadowed and twisted would parse (and refuse) multipart bodies.
    WebRequest._parsePOSTFormSubmission = property(
        lambda request: False, lambda request, value: None
    )
    HTTPChannel.totalHeadersSize = settings.REQUEST_HEADERS_MAX_BYTES
    HTTPChannel.MAX_LENGTH = settings.REQUEST_HEADERS_MAX_BYTES
    HTTPChannel._respondToBadRequestAndDisconnect = _answer_and_disconnect
    HTTPChannel.lineLengthExceeded = _line_too_long
