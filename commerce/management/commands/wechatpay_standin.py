"""Serves the stand-in WeChat Pay platform on loopback until stopped (local development:
`make run` starts it when WECHATPAY_STANDIN is on, commerce.E002 refuses it without DEBUG;
the end-to-end tests start it too). Its keys live in WECHATPAY_STANDIN_DIR, made on the
first start; `--keys-only` makes them and exits (`runall` does, before the web process, which
reads them, starts)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from commerce.payments.standin import PaymentPlatform, keys_ensure
from commerce.payments.standin_server import payment_server
from core.standin import serve_until_stopped


class Command(BaseCommand):
    help = "Serve the stand-in WeChat Pay platform (APIv3) for local development and tests."
    # It plays the platform, not the service: the service's own settings are not its concern.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--time-scale",
            type=float,
            default=1.0,
            help="multiplies the notify retry schedule and refund delays (tests: 0.01)",
        )
        parser.add_argument(
            "--keys-only",
            action="store_true",
            help="make the key files where missing, and exit without serving",
        )

    def handle(self, *args, time_scale: float, keys_only: bool, **options):
        keys = keys_ensure(
            Path(settings.WECHATPAY_STANDIN_DIR),
            key_id=settings.WECHATPAY_PUBLIC_KEY_ID,
            apiv3_key=settings.WECHATPAY_APIV3_KEY,
        )
        if keys_only:
            return
        platform = PaymentPlatform(
            keys=keys,
            app_id=settings.IDENTITY_APP_ID,
            mch_id=settings.WECHATPAY_MCH_ID,
            mch_serial=settings.WECHATPAY_MCH_SERIAL,
            time_scale=time_scale,
        )
        server = payment_server(platform, port=settings.WECHATPAY_STANDIN_PORT)
        self.stdout.write(
            f"stand-in payment platform on {platform.url}: a payer pays with "
            f"POST {platform.url}/standin/pay <payParams>",
        )
        self.stdout.flush()
        serve_until_stopped(server)
