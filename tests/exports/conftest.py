"""The real converter process on a free loopback port, and the real readers the exported
files are checked with: Ghostscript (renders the PostScript), resvg (renders the SVG) and
Scribus's legacy-AI importer (parses the Illustrator body, ignoring the prolog)."""

import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from core.processes import free_port

BASE_DIR = Path(settings.BASE_DIR)


def wait_until_up(url: str, process: subprocess.Popen, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"converter exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("converter did not come up")


@pytest.fixture(scope="session")
def converter_process():
    """`manage.py runconverter` as a subprocess for the whole session."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(BASE_DIR / "manage.py"), "runconverter", "--port", str(port)],
        cwd=BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/health", process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def converter(converter_process, settings):
    """The web side pointed at the running converter; returns its base URL."""
    settings.CONVERTER_HOST = "127.0.0.1"
    settings.CONVERTER_PORT = converter_process
    return f"http://127.0.0.1:{converter_process}"


class _CountingHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        self.server.requests += 1
        self.send_response(500)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def counting_converter(settings):
    """A stand-in converter that only counts the requests it receives."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _CountingHandler)
    server.requests = 0
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.CONVERTER_HOST = "127.0.0.1"
    settings.CONVERTER_PORT = server.server_port
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def stopped_converter(settings):
    """A loopback port nobody listens on."""
    settings.CONVERTER_HOST = "127.0.0.1"
    settings.CONVERTER_PORT = free_port()
