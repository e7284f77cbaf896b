"""Client of the WeChat Pay APIv3 platform (JSAPI): prepay, query, close, refund, refund
query. Keys and ids come from settings. Each request is signed with the merchant key and
each answer verified against the platform's public key (public-key mode); every failure to
get a verified answer is `BadGateway` (502) with a sentence naming the cause. Never call it
inside a database transaction (it would hold the write lock while waiting on the network)."""

import json
import time
from dataclasses import dataclass
from urllib.parse import quote

import httpx
from django.conf import settings
from django.db import connection

from commerce.payments import crypto
from commerce.platforms import Platform, platform_json, platform_request
from core.errors import BadGateway

PAYMENTS = Platform("payment platform", "payments")


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict


class PlatformError(BadGateway):
    """The platform answered with an error: its `code` and `message`."""

    def __init__(self, status: int, code: str, message: str):
        detail = f"{PAYMENTS.name} error {code}: {message}"[:300]
        super().__init__(detail, code="payments_platform_error")
        self.status, self.platform_code = status, code


def _request(method: str, path: str, body: dict | None = None) -> Answer:
    if connection.in_atomic_block:
        raise RuntimeError("the payment platform is never called inside a database transaction")
    if not settings.WECHATPAY_MCH_ID:
        raise BadGateway(
            "payments are not configured (WECHATPAY_MCH_ID)", code="payments_not_configured"
        )
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")) if body is not None else ""
    headers = {
        "Accept": "application/json",
        "Authorization": crypto.authorization(
            crypto.private_key(settings.WECHATPAY_MCH_PRIVATE_KEY_FILE),
            mch_id=settings.WECHATPAY_MCH_ID,
            serial=settings.WECHATPAY_MCH_SERIAL,
            method=method,
            url=path,
            body=text,
        ),
    }
    if body is not None:
        headers["Content-Type"] = "application/json"
    response = platform_request(
        PAYMENTS,
        method,
        settings.WECHATPAY_BASE_URL.rstrip("/") + path,
        content=text.encode() if body is not None else None,
        headers=headers,
        timeout=settings.WECHATPAY_TIMEOUT,
    )
    return Answer(response.status_code, _verified(response))


def _verified(response: httpx.Response) -> dict:
    """The answer's JSON once its signature checks out; a 2xx without a body is `{}`."""
    if response.status_code >= 500 and not response.headers.get("Wechatpay-Signature"):
        raise BadGateway(
            f"{PAYMENTS.name} answered HTTP {response.status_code}", code="payments_bad_answer"
        )
    try:
        crypto.verify_body(
            response.headers,
            response.text,
            public_key=crypto.public_key(settings.WECHATPAY_PUBLIC_KEY_FILE),
            key_id=settings.WECHATPAY_PUBLIC_KEY_ID,
        )
    except crypto.SignatureError as error:
        raise BadGateway(
            f"{PAYMENTS.name} answer refused: {error}", code="payments_bad_answer"
        ) from None
    body = platform_json(PAYMENTS, response) if response.text else {}
    if response.status_code >= 300:
        raise PlatformError(
            response.status_code, str(body.get("code", "")), str(body.get("message", ""))
        )
    return body


def _required(body: dict, *keys: str) -> dict:
    for key in keys:
        if not body.get(key):
            raise BadGateway(f"{PAYMENTS.name} answered without {key}", code="payments_bad_answer")
    return body


def prepay(*, out_trade_no: str, amount: int, description: str, openid: str, expires) -> str:
    """The prepay_id of a JSAPI transaction. The platform answers the same prepay_id when the
    same out_trade_no is sent again with the same fields."""
    body = _request(
        "POST",
        "/v3/pay/transactions/jsapi",
        {
            "appid": settings.IDENTITY_APP_ID,
            "mchid": settings.WECHATPAY_MCH_ID,
            "description": description,
            "out_trade_no": out_trade_no,
            "time_expire": expires.isoformat(timespec="seconds"),
            "notify_url": settings.WECHATPAY_NOTIFY_URL,
            "amount": {"total": amount, "currency": "CNY"},
            "payer": {"openid": openid},
        },
    ).body
    return _required(body, "prepay_id")["prepay_id"]


def query(out_trade_no: str) -> dict | None:
    """The platform's transaction, or None when it never heard of this out_trade_no."""
    try:
        body = _request(
            "GET",
            f"/v3/pay/transactions/out-trade-no/{quote(out_trade_no)}"
            f"?mchid={quote(settings.WECHATPAY_MCH_ID)}",
        ).body
    except PlatformError as error:
        if error.platform_code == "ORDER_NOT_EXIST":
            return None
        raise
    return _required(body, "out_trade_no", "trade_state")


def close(out_trade_no: str) -> None:
    _request(
        "POST",
        f"/v3/pay/transactions/out-trade-no/{quote(out_trade_no)}/close",
        {"mchid": settings.WECHATPAY_MCH_ID},
    )


def refund(*, out_trade_no: str, out_refund_no: str, amount: int, total: int, reason: str):
    """The platform's refund; the same out_refund_no is sent on every retry, so the platform
    makes one refund however often this is called."""
    body = _request(
        "POST",
        "/v3/refund/domestic/refunds",
        {
            "out_trade_no": out_trade_no,
            "out_refund_no": out_refund_no,
            "reason": reason,
            "notify_url": settings.WECHATPAY_NOTIFY_URL,
            "amount": {"refund": amount, "total": total, "currency": "CNY"},
        },
    ).body
    return _required(body, "out_refund_no", "status")


def refund_query(out_refund_no: str) -> dict | None:
    try:
        body = _request("GET", f"/v3/refund/domestic/refunds/{quote(out_refund_no)}").body
    except PlatformError as error:
        if error.platform_code == "RESOURCE_NOT_EXISTS":
            return None
        raise
    return _required(body, "out_refund_no", "status")


def pay_params(prepay_id: str) -> dict:
    """What the mini-program hands to wx.requestPayment: paySign signs
    `appid\\ntimeStamp\\nnonceStr\\npackage\\n` with the merchant key."""
    timestamp, nonce_str, package = str(int(time.time())), crypto.nonce(), f"prepay_id={prepay_id}"
    return {
        "timeStamp": timestamp,
        "nonceStr": nonce_str,
        "package": package,
        "signType": "RSA",
        "paySign": crypto.sign(
            crypto.private_key(settings.WECHATPAY_MCH_PRIVATE_KEY_FILE),
            settings.IDENTITY_APP_ID,
            timestamp,
            nonce_str,
            package,
        ),
    }
