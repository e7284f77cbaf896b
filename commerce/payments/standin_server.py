"""The stand-in payment platform's HTTP server: the platform's API (signed answers) and the
stand-in's own `/standin/` endpoints (the payer, the switches, reset, the log) over
`PaymentPlatform` (commerce/payments/standin.py)."""

import json
from http.server import ThreadingHTTPServer

from commerce.payments.standin import PaymentPlatform
from core.standin import StandinHandler, standin_server


def _handler(platform: PaymentPlatform):
    class Handler(StandinHandler):
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
            if text:
                headers = {**headers, "Content-Type": "application/json"}
            self._write(status, text.encode(), headers)

    return Handler


def payment_server(
    platform: PaymentPlatform, *, host: str = "127.0.0.1", port: int = 0
) -> ThreadingHTTPServer:
    """The server for `platform` (core.standin.standin_server)."""
    return standin_server(platform, _handler(platform), host=host, port=port)
