"""The stand-in payment platform's HTTP server: the platform's API (signed answers) and the
stand-in's own `/standin/` endpoints (the payer, the switches, reset, the log) over
`PaymentPlatform` (commerce/payments/standin.py)."""

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from commerce.payments.standin import PaymentPlatform


def _handler(platform: PaymentPlatform):
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode(errors="replace") if length else ""
            if self.path.startswith("/standin/"):
                status, answer = self._control(method, body)
                self._send(status, json.dumps(answer), {})
                return
            status, answer = platform.answer(method, self.path, self.headers, body)
            text = json.dumps(answer, ensure_ascii=False) if answer is not None else ""
            self._send(status, text, platform.signed_headers(text))

        def _control(self, method: str, body: str) -> tuple[int, dict]:
            try:
                data = json.loads(body) if body else {}
            except ValueError:
                return 400, {"code": "PARAM_ERROR", "message": "body is not JSON"}
            if method == "POST" and self.path == "/standin/pay":
                return platform.pay(data)
            if method == "POST" and self.path == "/standin/switches":
                with platform.lock:
                    platform.switches.update(data)
                return 200, platform.switches
            if method == "POST" and self.path == "/standin/reset":
                platform.reset()
                return 200, {}
            if method == "GET" and self.path == "/standin/log":
                with platform.lock:
                    return 200, {"log": list(platform.log)}
            return 404, {"code": "NOT_FOUND", "message": "no such stand-in endpoint"}

        def _send(self, status: int, text: str, headers: dict):
            payload = text.encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            if payload:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout)

        def do_GET(self):
            self._reply("GET")

        def do_POST(self):
            self._reply("POST")

        def log_message(self, *args):
            pass

    return Handler


def payment_server(
    platform: PaymentPlatform, *, host: str = "127.0.0.1", port: int = 0
) -> ThreadingHTTPServer:
    """The server for `platform`, bound (port 0: any free one) and not yet serving;
    `platform.url` is set to its address."""
    server = ThreadingHTTPServer((host, port), _handler(platform))
    server.daemon_threads = True
    platform.url = f"http://{host}:{server.server_address[1]}"
    return server
