"""The ASGI application daphne serves: channels' protocol router over Django's HTTP app
(the job event streams are async Django views; channels carries their wake-ups).

Below Django, daphne's HTTP layer (twisted) would parse multipart bodies a second time, in
memory, and answer a body or header it dislikes with a bare 400 and no CORS header, or close
the connection without an answer when one header line is too long. Loading this module makes
Django alone parse request bodies and gives the HTTP layer's own refusals the JSON
`{"detail"}` and CORS header of every other error (config/errors.py)."""
import json
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http = get_asgi_application()  # sets Django up before channels is imported

from channels.routing import ProtocolTypeRouter  # noqa: E402
from daphne.http_protocol import WebRequest  # noqa: E402
from django.conf import settings  # noqa: E402
from twisted.web.http import HTTPChannel  # noqa: E402

application = ProtocolTypeRouter({"http": django_http})

REASONS = {400: "Bad Request", 431: "Request Header Fields Too Large"}


def _refusal(status: int, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nAccess-Control-Allow-Origin: *\r\n"
            "Connection: close\r\n\r\n")
    return head.encode() + body


HEADERS_TOO_LARGE = _refusal(
    431, f"request headers exceed {settings.REQUEST_HEADERS_MAX_BYTES // 1024} KB")
MALFORMED = _refusal(400, "malformed HTTP request")


def _answer_and_disconnect(channel: HTTPChannel) -> None:
    """HTTPChannel's refusal of a request it cannot read, as JSON."""
    too_large = (channel._receivedHeaderSize > channel.totalHeadersSize
                 or channel._receivedHeaderCount > channel.maxHeaders)
    channel.transport.write(HEADERS_TOO_LARGE if too_large else MALFORMED)
    channel.loseConnection()


def _line_too_long(channel: HTTPChannel, line: bytes) -> None:
    """One header line over the limit: twisted would close without a word."""
    channel.transport.write(HEADERS_TOO_LARGE)
    channel.loseConnection()


# A property, since twisted's Request.__init__ sets the flag on each request (True): a plain
# class attribute would be shadowed and twisted would parse (and refuse) multipart bodies.
WebRequest._parsePOSTFormSubmission = property(lambda request: False,
                                               lambda request, value: None)
HTTPChannel.totalHeadersSize = settings.REQUEST_HEADERS_MAX_BYTES
HTTPChannel.MAX_LENGTH = settings.REQUEST_HEADERS_MAX_BYTES
HTTPChannel._respondToBadRequestAndDisconnect = _answer_and_disconnect
HTTPChannel.lineLengthExceeded = _line_too_long
