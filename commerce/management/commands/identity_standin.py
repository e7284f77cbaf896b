"""Serves the stand-in identity platform on loopback until stopped (local development:
`make run` starts it when IDENTITY_STANDIN is on; commerce.E001 refuses it without DEBUG)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from commerce.identity_standin import IdentityPlatform, identity_server
from core.standin import serve_until_stopped


class Command(BaseCommand):
    help = "Serve the stand-in identity platform (any login code works) for local development."

    def handle(self, *args, **options):
        platform = IdentityPlatform(
            app_id=settings.IDENTITY_APP_ID,
            app_secret=settings.IDENTITY_APP_SECRET,
            open_codes=True,
        )
        server = identity_server(platform, port=settings.IDENTITY_STANDIN_PORT)
        self.stdout.write(
            f"stand-in identity platform on {platform.url}: any code logs in "
            "as the end user dev-<code>"
        )
        serve_until_stopped(server)
