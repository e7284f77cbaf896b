"""A small HTTP server that plays the WeChat Pay APIv3 platform on loopback: the five calls
`commerce/payments/client.py` makes, signed answers, encrypted signed notifies on the
platform's retry schedule, and a simulated payer.

It checks what the real platform checks: the `Authorization` signature of every request
(merchant key, 5-minute timestamp window), the fields of a JSAPI prepay, one refund per
out_refund_no, and the payer's `paySign`. Its own endpoints (not the platform's) are under
`/standin/`: `POST /standin/pay` (the payer: the payParams the service gave, as
wx.requestPayment would take them), `POST /standin/switches` (faults, below), `POST
/standin/reset`, `GET /standin/log` (the requests it received and the notifies it sent).

Switches: `fail` {call: n} answers the next n calls of that call (jsapi, query, close,
refund, refund_query) with a signed 500; `delay` {call: seconds} answers late (a timeout);
`suppress_notify`; `duplicate_notify` n sends each notify n times at once; `probe` sends a
`WECHATPAY/SIGNTEST/` probe with a bad signature before each notify; `tamper_amount` n adds
n fen to the amount the platform reports; `notify_before_prepay` pays and notifies before
the prepay answer returns; `refund_processing` keeps refunds PROCESSING until it is off."""

import itertools
import json
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import unquote, urlparse

import httpx

from commerce.payments import crypto

# Seconds between the platform's notify attempts until one is answered 2xx (15 s, 15 s,
# 30 s, 3 min, 10 min, 20 min, 30 min ×3, 60 min, 3 h ×3, 6 h ×2); `time_scale` compresses it.
NOTIFY_SCHEDULE = (
    [0, 15, 15, 30, 180, 600, 1200, 1800, 1800, 1800, 3600] + [10800] * 3 + [21600] * 2
)
OUT_TRADE_NO = re.compile(r"[0-9A-Za-z_-]{6,32}\Z")
CHINA = timezone(timedelta(hours=8))


@dataclass(frozen=True)
class Keys:
    """The stand-in's key material: the platform's key pair, its id and the APIv3 key, and
    the merchant's key pair (the service signs with the private half)."""

    folder: Path
    key_id: str
    apiv3_key: str

    @property
    def platform_private(self) -> Path:
        return self.folder / "platform_private_key.pem"

    @property
    def platform_public(self) -> Path:
        return self.folder / "platform_public_key.pem"

    @property
    def merchant_private(self) -> Path:
        return self.folder / "merchant_private_key.pem"

    @property
    def merchant_public(self) -> Path:
        return self.folder / "merchant_public_key.pem"


def keys_ensure(folder: Path, *, key_id: str = "", apiv3_key: str = "") -> Keys:
    """The keys in `folder`, made (RSA 2048) where missing; a key id and an APIv3 key not
    given are made once and kept in `folder/keys.json`."""
    folder.mkdir(parents=True, exist_ok=True)
    stored = folder / "keys.json"
    known = json.loads(stored.read_text()) if stored.exists() else {}
    known = {
        "key_id": key_id or known.get("key_id") or f"PUB_KEY_ID_{secrets.token_hex(14).upper()}",
        "apiv3_key": apiv3_key or known.get("apiv3_key") or secrets.token_hex(16),
    }
    stored.write_text(json.dumps(known))
    keys = Keys(folder, known["key_id"], known["apiv3_key"])
    for private, public in (
        (keys.platform_private, keys.platform_public),
        (keys.merchant_private, keys.merchant_public),
    ):
        if not private.exists():
            key = crypto.new_private_key()
            private.write_bytes(crypto.private_pem(key))
            private.chmod(0o600)
            public.write_bytes(crypto.public_pem(key.public_key()))
    return keys


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _iso(moment: datetime) -> str:
    return moment.astimezone(CHINA).isoformat(timespec="seconds")


class PaymentPlatform:
    """State of the stand-in: transactions by out_trade_no, refunds by out_refund_no, the
    switches, and a log of what it received and sent."""

    def __init__(
        self, *, keys: Keys, app_id: str, mch_id: str, mch_serial: str, time_scale: float = 1.0
    ):
        self.keys, self.app_id, self.mch_id, self.mch_serial = keys, app_id, mch_id, mch_serial
        self.time_scale = time_scale
        self.platform_key = crypto.private_key(str(keys.platform_private))
        self.merchant_key = crypto.public_key(str(keys.merchant_public))
        self.lock = threading.RLock()
        self.serial = itertools.count(4200000000)
        self.url = ""
        self.reset()

    def reset(self):
        with self.lock:
            self.trades: dict[str, dict] = {}
            self.refunds: dict[str, dict] = {}
            self.switches: dict = {}
            self.log: list[dict] = []

    # -- the platform's API -----------------------------------------------------------------

    def answer(self, method: str, target: str, headers, body: str) -> tuple[int, dict | None]:
        """(HTTP status, JSON body or None) for one request to the platform's API."""
        path = urlparse(target).path
        call, key = _route(method, path)
        with self.lock:
            self.log.append(
                {
                    "kind": "request",
                    "method": method,
                    "url": target,
                    "authorization": headers.get("Authorization", ""),
                    "body": body,
                }
            )
            failing = self.switches.get("fail", {})
            delay = self.switches.get("delay", {}).get(call, 0)
        try:
            if call is None:
                raise Refused(404, "NOT_FOUND", f"no such api {method} {path}")
            self._check_signature(method, target, headers, body)
            with self.lock:
                if failing.get(call):
                    failing[call] -= 1
                    raise Refused(500, "SYSTEM_ERROR", "system error, try again")
            data = json.loads(body) if body else {}
            if not isinstance(data, dict):
                raise Refused(400, "PARAM_ERROR", "body must be a JSON object")
            status, answer = getattr(self, f"_{call}")(key, data)
        except Refused as refused:
            status, answer = refused.status, {"code": refused.code, "message": refused.message}
        except ValueError:
            status, answer = 400, {"code": "PARAM_ERROR", "message": "body is not JSON"}
        if delay:
            time.sleep(delay)
        return status, answer

    def _check_signature(self, method: str, target: str, headers, body: str) -> None:
        try:
            fields = crypto.parse_authorization(headers.get("Authorization", ""))
        except crypto.SignatureError as error:
            raise Refused(401, "SIGN_ERROR", str(error)) from None
        if fields["mchid"] != self.mch_id or fields["serial_no"] != self.mch_serial:
            raise Refused(401, "SIGN_ERROR", "unknown mchid or serial_no")
        if not crypto.timestamp_fresh(fields["timestamp"]):
            raise Refused(401, "SIGN_ERROR", "timestamp is more than 5 minutes away")
        lines = (method, target, fields["timestamp"], fields["nonce_str"], body)
        if not crypto.verify(self.merchant_key, fields["signature"], *lines):
            raise Refused(401, "SIGN_ERROR", "signature does not verify")

    def _jsapi(self, _, data: dict) -> tuple[int, dict]:
        out_trade_no = str(data.get("out_trade_no", ""))
        amount = data.get("amount") or {}
        if data.get("appid") != self.app_id or data.get("mchid") != self.mch_id:
            raise Refused(400, "PARAM_ERROR", "appid and mchid do not match")
        if not OUT_TRADE_NO.match(out_trade_no):
            raise Refused(400, "PARAM_ERROR", "out_trade_no must be 6-32 of [0-9A-Za-z_-]")
        total = amount.get("total")
        if not isinstance(total, int) or total < 1 or amount.get("currency") != "CNY":
            raise Refused(400, "PARAM_ERROR", "amount must be a positive total in CNY")
        if not (data.get("payer") or {}).get("openid") or not data.get("notify_url"):
            raise Refused(400, "PARAM_ERROR", "payer.openid and notify_url are required")
        if not data.get("description"):
            raise Refused(400, "PARAM_ERROR", "description is required")
        with self.lock:
            trade = self.trades.get(out_trade_no)
            if trade is None:
                trade = self.trades[out_trade_no] = {
                    "no": out_trade_no,
                    "request": data,
                    "prepay_id": f"wx{secrets.token_hex(14)}",
                    "trade_state": "NOTPAY",
                    "expires": datetime.fromisoformat(data["time_expire"])
                    if data.get("time_expire")
                    else None,
                }
            elif trade["request"]["amount"] != amount:
                raise Refused(400, "INVALID_REQUEST", "out_trade_no was used with another amount")
            elif trade["trade_state"] in ("SUCCESS", "REFUND"):
                raise Refused(400, "ORDERPAID", "this transaction is paid")
            elif trade["trade_state"] == "CLOSED":
                raise Refused(400, "ORDER_CLOSED", "this transaction is closed")
            early = self.switches.get("notify_before_prepay")
        if early:
            self._settle(trade)
            self._notify_now(trade)
        return 200, {"prepay_id": trade["prepay_id"]}

    def _query(self, out_trade_no: str, _) -> tuple[int, dict]:
        with self.lock:
            return 200, self._transaction(self._trade(out_trade_no))

    def _close(self, out_trade_no: str, _) -> tuple[int, None]:
        with self.lock:
            trade = self._trade(out_trade_no)
            if trade["trade_state"] in ("SUCCESS", "REFUND"):
                raise Refused(400, "ORDERPAID", "this transaction is paid")
            trade["trade_state"] = "CLOSED"
        return 204, None

    def _refund(self, _, data: dict) -> tuple[int, dict]:
        out_refund_no = str(data.get("out_refund_no", ""))
        amount = data.get("amount") or {}
        with self.lock:
            existing = self.refunds.get(out_refund_no)
            if existing is not None:
                return 200, self._refund_record(existing)
            trade = self._trade(str(data.get("out_trade_no", "")))
            total = trade["request"]["amount"]["total"]
            refunded = sum(
                r["amount"] for r in self.refunds.values() if r["out_trade_no"] == trade["no"]
            )
            if trade["trade_state"] not in ("SUCCESS", "REFUND"):
                raise Refused(400, "INVALID_REQUEST", "this transaction is not paid")
            if not out_refund_no or amount.get("total") != total:
                raise Refused(400, "PARAM_ERROR", "out_refund_no and amount.total are required")
            if not isinstance(amount.get("refund"), int) or not (
                0 < amount["refund"] <= total - refunded
            ):
                raise Refused(400, "INVALID_REQUEST", "refund amount exceeds what is left")
            refund = self.refunds[out_refund_no] = {
                "out_refund_no": out_refund_no,
                "out_trade_no": trade["no"],
                "refund_id": f"50{next(self.serial)}",
                "amount": amount["refund"],
                "total": total,
                "status": "PROCESSING",
                "created": datetime.now(UTC),
                "notify_url": data.get("notify_url") or trade["request"]["notify_url"],
            }
            trade["trade_state"] = "REFUND"
            answer = self._refund_record(refund)
        if not self.switches.get("refund_processing"):
            self._later(0.2, lambda: self._refund_settle(refund))
        return 200, answer

    def _refund_query(self, out_refund_no: str, _) -> tuple[int, dict]:
        with self.lock:
            refund = self.refunds.get(out_refund_no)
            if refund is None:
                raise Refused(404, "RESOURCE_NOT_EXISTS", "no such refund")
        if refund["status"] == "PROCESSING" and not self.switches.get("refund_processing"):
            self._refund_settle(refund)
        with self.lock:
            return 200, self._refund_record(refund)

    # -- records ----------------------------------------------------------------------------

    def _trade(self, out_trade_no: str) -> dict:
        trade = self.trades.get(out_trade_no)
        if trade is None:
            raise Refused(404, "ORDER_NOT_EXIST", "no such transaction")
        return trade

    def _transaction(self, trade: dict) -> dict:
        request = trade["request"]
        total = request["amount"]["total"] + self.switches.get("tamper_amount", 0)
        record = {
            "appid": request["appid"],
            "mchid": request["mchid"],
            "out_trade_no": request["out_trade_no"],
            "trade_type": "JSAPI",
            "trade_state": trade["trade_state"],
            "trade_state_desc": trade["trade_state"].lower(),
            "bank_type": "OTHERS",
            "attach": "",
            "payer": {"openid": request["payer"]["openid"]},
            "amount": {"total": total, "payer_total": total, "currency": "CNY"},
        }
        if "transaction_id" in trade:
            record["transaction_id"] = trade["transaction_id"]
            record["success_time"] = _iso(trade["paid"])
        return record

    def _refund_record(self, refund: dict) -> dict:
        record = {
            "refund_id": refund["refund_id"],
            "out_refund_no": refund["out_refund_no"],
            "out_trade_no": refund["out_trade_no"],
            "transaction_id": self.trades[refund["out_trade_no"]].get("transaction_id", ""),
            "channel": "ORIGINAL",
            "status": refund["status"],
            "refund_status": refund["status"],
            "create_time": _iso(refund["created"]),
            "amount": {
                "refund": refund["amount"],
                "total": refund["total"],
                "payer_refund": refund["amount"],
                "payer_total": refund["total"],
                "currency": "CNY",
            },
        }
        if "succeeded" in refund:
            record["success_time"] = _iso(refund["succeeded"])
        return record

    def _settle(self, trade: dict) -> None:
        with self.lock:
            trade["trade_state"] = "SUCCESS"
            trade["transaction_id"] = f"{next(self.serial)}{secrets.randbelow(10**9):09d}"
            trade["paid"] = datetime.now(UTC)

    def _refund_settle(self, refund: dict) -> None:
        with self.lock:
            if refund["status"] != "PROCESSING":
                return
            refund["status"] = "SUCCESS"
            refund["succeeded"] = datetime.now(UTC)
            record = self._refund_record(refund)
        self._send(refund["notify_url"], "REFUND.SUCCESS", "refund", record)

    # -- the payer ------------------------------------------------------------------------

    def pay(self, params: dict) -> tuple[int, dict]:
        """The payer pays what wx.requestPayment was given, once its paySign verifies."""
        package = str(params.get("package", ""))
        with self.lock:
            trade = next(
                (t for t in self.trades.values() if f"prepay_id={t['prepay_id']}" == package),
                None,
            )
        if trade is None:
            return 400, {"code": "PARAM_ERROR", "message": "unknown package"}
        lines = (trade["request"]["appid"], params.get("timeStamp", ""), params.get("nonceStr", ""))
        if params.get("signType") != "RSA" or not crypto.verify(
            self.merchant_key, str(params.get("paySign", "")), *map(str, lines), package
        ):
            return 400, {"code": "SIGN_ERROR", "message": "paySign does not verify"}
        if trade["trade_state"] != "NOTPAY":
            return 400, {
                "code": "ORDER_CLOSED",
                "message": f"transaction is {trade['trade_state']}",
            }
        if trade["expires"] and trade["expires"] < datetime.now(UTC):
            return 400, {"code": "ORDER_CLOSED", "message": "transaction has expired"}
        self._settle(trade)
        if not self.switches.get("suppress_notify"):
            threading.Thread(target=self._notify_now, args=(trade,), daemon=True).start()
        return 200, {"trade_state": "SUCCESS", "transaction_id": trade["transaction_id"]}

    # -- notifies -----------------------------------------------------------------------------

    def _notify_now(self, trade: dict) -> None:
        with self.lock:
            record = self._transaction(trade)
        self._send(trade["request"]["notify_url"], "TRANSACTION.SUCCESS", "transaction", record)

    def notification(self, event_type: str, original_type: str, record: dict) -> str:
        """A notify body: `record` encrypted with the APIv3 key."""
        resource = crypto.aead_encrypt(
            self.keys.apiv3_key, json.dumps(record, ensure_ascii=False), original_type
        )
        return json.dumps(
            {
                "id": secrets.token_hex(16),
                "create_time": _iso(datetime.now(UTC)),
                "resource_type": "encrypt-resource",
                "event_type": event_type,
                "summary": event_type.lower(),
                "resource": {"original_type": original_type, **resource},
            }
        )

    def _send(self, url: str, event_type: str, original_type: str, record: dict) -> None:
        """Posts a signed notify until it is answered 2xx, on the compressed schedule."""
        body = self.notification(event_type, original_type, record)
        copies = self.switches.get("duplicate_notify", 1)
        if self.switches.get("probe"):
            self._post(url, body, {**self.signed_headers(body), "Wechatpay-Signature": _probe()})
        for gap in NOTIFY_SCHEDULE:
            time.sleep(gap * self.time_scale)
            headers = self.signed_headers(body)
            with ThreadPoolExecutor(copies) as pool:
                statuses = list(
                    pool.map(self._post, [url] * copies, [body] * copies, [headers] * copies)
                )
            if any(200 <= status < 300 for status in statuses):
                return

    def signed_headers(self, body: str) -> dict:
        return crypto.sign_body(self.platform_key, self.keys.key_id, body).as_dict()

    def _post(self, url: str, body: str, headers: dict) -> int:
        try:
            status = httpx.post(
                url,
                content=body.encode(),
                headers={**headers, "Content-Type": "application/json"},
                timeout=5,
            ).status_code
        except httpx.HTTPError:
            status = 0
        with self.lock:
            self.log.append(
                {"kind": "notify", "url": url, "headers": headers, "body": body, "status": status}
            )
        return status

    def _later(self, seconds: float, action) -> None:
        timer = threading.Timer(seconds * self.time_scale, action)
        timer.daemon = True
        timer.start()


def _probe() -> str:
    return crypto.SIGNTEST_PREFIX + secrets.token_urlsafe(32)


def _route(method: str, path: str) -> tuple[str | None, str]:
    """(call, the out_trade_no or out_refund_no in the path)."""
    trade = re.fullmatch(r"/v3/pay/transactions/out-trade-no/([^/]+)(/close)?", path)
    refund = re.fullmatch(r"/v3/refund/domestic/refunds/([^/]+)", path)
    if method == "POST" and path == "/v3/pay/transactions/jsapi":
        return "jsapi", ""
    if method == "POST" and path == "/v3/refund/domestic/refunds":
        return "refund", ""
    if trade and method == ("POST" if trade.group(2) else "GET"):
        return ("close" if trade.group(2) else "query"), unquote(trade.group(1))
    if refund and method == "GET":
        return "refund_query", unquote(refund.group(1))
    return None, ""
