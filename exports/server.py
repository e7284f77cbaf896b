"""The converter's HTTP server: `POST /convert?filename=...` with the SVG as the body
answers the Illustrator file or `{"detail"}` with the error status; `GET /health` says
that it is up. It listens on loopback only unless told otherwise."""

import ipaddress
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from exports.converter import convert_isolated
from exports.services import AI_CONTENT_TYPE, SVG_TOO_LARGE
from exports.svg_text import warm_up

logger = logging.getLogger(__name__)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConverterServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, max_bytes: int, concurrency: int = 2):
        super().__init__(address, ConverterHandler)
        self.max_bytes = max_bytes
        self.slots = threading.BoundedSemaphore(concurrency)


class ConverterHandler(BaseHTTPRequestHandler):
    server: ConverterServer
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if urlsplit(self.path).path == "/health":
            self._send(200, "application/json", b'{"status": "ok"}')
        else:
            self._error(404, "not found")

    def do_POST(self):
        url = urlsplit(self.path)
        if url.path != "/convert":
            self._error(404, "not found")
            return
        size = self._content_length()
        if size is None:
            self._error(411, "content length is required")
            return
        if size > self.server.max_bytes:
            self.close_connection = True
            self._error(413, SVG_TOO_LARGE)
            return
        svg = self.rfile.read(size)
        title = (parse_qs(url.query).get("filename") or ["wordcloud.ai"])[0]
        with self.server.slots:
            status, body = convert_isolated(svg, title=title)
        self._send(status, AI_CONTENT_TYPE if status == 200 else "application/json", body)

    def _content_length(self) -> int | None:
        try:
            return int(self.headers.get("Content-Length", ""))
        except ValueError:
            return None

    def _error(self, status: int, detail: str):
        self._send(status, "application/json", json.dumps({"detail": detail}).encode())

    def _send(self, status: int, content_type: str, body: bytes):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        logger.info("%s - %s", self.address_string(), format % args)


def serve(host: str, port: int, *, max_bytes: int) -> ConverterServer:
    """A ready server (font loaded, socket bound); call serve_forever() on it."""
    warm_up()
    return ConverterServer((host, port), max_bytes=max_bytes)
