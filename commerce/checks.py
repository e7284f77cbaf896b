"""System checks of the commerce app."""

import re

from django.conf import settings
from django.core import checks


@checks.register()
def identity_standin_check(app_configs, **kwargs):
    """The stand-in identity platform logs anyone in with any code: never outside development."""
    if not settings.IDENTITY_STANDIN or settings.DEBUG:
        return []
    return [
        checks.Error(
            "IDENTITY_STANDIN is on while DEBUG is off: the stand-in identity platform lets "
            "anyone log in as any end user.",
            hint="Unset IDENTITY_STANDIN (and point IDENTITY_PLATFORM_URL at the real platform), "
            "or set DEBUG=1 for local development.",
            id="commerce.E001",
        )
    ]


@checks.register()
def wechatpay_standin_check(app_configs, **kwargs):
    """The stand-in payment platform takes any payer's word: never outside development."""
    if not settings.WECHATPAY_STANDIN or settings.DEBUG:
        return []
    return [
        checks.Error(
            "WECHATPAY_STANDIN is on while DEBUG is off: orders would be paid by the stand-in "
            "payment platform, with no money.",
            hint="Unset WECHATPAY_STANDIN (and set the WECHATPAY_* settings of the real "
            "platform), or set DEBUG=1 for local development.",
            id="commerce.E002",
        )
    ]


def _malformed_wechatpay_settings() -> list[str]:
    """What is wrong with each WeChat Pay setting, one sentence each."""
    from commerce.payments import crypto

    problems = []
    text = {name: str(getattr(settings, name) or "") for name in WECHATPAY_SETTINGS}
    for name, value in text.items():
        if not value:
            problems.append(f"{name} is not set")
    if not settings.IDENTITY_APP_ID:
        problems.append("IDENTITY_APP_ID (the app id payments are made for) is not set")
    for name in ("WECHATPAY_BASE_URL", "WECHATPAY_NOTIFY_URL"):
        if text[name] and not re.match(r"https?://[^/\s]+", text[name]):
            problems.append(f"{name} must be an http(s) URL")
    if text["WECHATPAY_MCH_ID"] and not text["WECHATPAY_MCH_ID"].isdigit():
        problems.append("WECHATPAY_MCH_ID must be the merchant id's digits")
    if text["WECHATPAY_MCH_SERIAL"] and not re.fullmatch(
        r"[0-9A-Fa-f]{8,64}", text["WECHATPAY_MCH_SERIAL"]
    ):
        problems.append("WECHATPAY_MCH_SERIAL must be the certificate's hexadecimal serial")
    if text["WECHATPAY_PUBLIC_KEY_ID"] and not text["WECHATPAY_PUBLIC_KEY_ID"].startswith(
        "PUB_KEY_ID_"
    ):
        problems.append("WECHATPAY_PUBLIC_KEY_ID must start with PUB_KEY_ID_")
    if text["WECHATPAY_APIV3_KEY"] and len(text["WECHATPAY_APIV3_KEY"].encode()) != 32:
        problems.append("WECHATPAY_APIV3_KEY must be 32 characters")
    if settings.WECHATPAY_TIMEOUT <= 0 or settings.WECHATPAY_PAY_WINDOW <= 0:
        problems.append("WECHATPAY_TIMEOUT and WECHATPAY_PAY_WINDOW must be positive")
    # The stand-in makes its key files when it first starts (runall does that first).
    if not settings.WECHATPAY_STANDIN:
        for name, load in (
            ("WECHATPAY_MCH_PRIVATE_KEY_FILE", crypto.private_key),
            ("WECHATPAY_PUBLIC_KEY_FILE", crypto.public_key),
        ):
            if text[name]:
                try:
                    load(text[name])
                except (OSError, ValueError) as error:
                    problems.append(f"{name} is not a readable RSA key in PEM: {error}")
    return problems


WECHATPAY_SETTINGS = (
    "WECHATPAY_BASE_URL",
    "WECHATPAY_MCH_ID",
    "WECHATPAY_MCH_SERIAL",
    "WECHATPAY_MCH_PRIVATE_KEY_FILE",
    "WECHATPAY_PUBLIC_KEY_FILE",
    "WECHATPAY_PUBLIC_KEY_ID",
    "WECHATPAY_APIV3_KEY",
    "WECHATPAY_NOTIFY_URL",
)


@checks.register()
def wechatpay_settings_check(app_configs, **kwargs):
    """Once any merchant setting is given, every one must be there and well formed; with
    none, payments are off (a deploy warning: paying an order would fail with 502)."""
    configured = settings.WECHATPAY_MCH_ID or settings.WECHATPAY_STANDIN
    if not configured:
        return []
    return [
        checks.Error(problem, hint="See docs/settings.md, WeChat Pay.", id="commerce.E010")
        for problem in _malformed_wechatpay_settings()
    ]


@checks.register(deploy=True)
def wechatpay_configured_check(app_configs, **kwargs):
    if settings.WECHATPAY_MCH_ID:
        return []
    return [
        checks.Warning(
            "WeChat Pay is not configured (WECHATPAY_MCH_ID is not set): paying an order "
            "answers 502.",
            hint="Set the WECHATPAY_* settings (docs/settings.md).",
            id="commerce.W010",
        )
    ]
