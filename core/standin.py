"""What the stand-ins for outside platforms (identity, payment) share: a threaded HTTP server
on loopback whose handler answers GET and POST through one `_reply(method)`, quietly; and the
serving loop of the commands that run such a server (the stand-ins, the converter)."""

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StandinHandler(BaseHTTPRequestHandler):
    """Subclasses define `_reply(method)` and answer with `_write`."""

    def _reply(self, method: str):
        raise NotImplementedError

    def _write(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout)

    def do_GET(self):
        self._reply("GET")

    def do_POST(self):
        self._reply("POST")

    def log_message(self, *args):
        pass


def standin_server(platform, handler: type[StandinHandler], *, host: str, port: int):
    """The server for `platform`, bound (port 0: any free one) and not yet serving;
    `platform.url` is set to its address."""
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    platform.url = f"http://{host}:{server.server_address[1]}"
    return server


def serve_until_stopped(server) -> None:
    """A management command's server loop: serve until Ctrl-C or SIGTERM's KeyboardInterrupt,
    then close the socket."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
