"""Runs the SVG -> legacy Illustrator converter in the foreground, on loopback by default
(CONVERTER_HOST:CONVERTER_PORT). Another address needs --allow-non-loopback, for an internal
container network that only the web service can reach."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.standin import serve_until_stopped
from exports.server import is_loopback, serve


class Command(BaseCommand):
    help = "Run the SVG to Illustrator (.ai) converter service."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=settings.CONVERTER_HOST)
        parser.add_argument("--port", type=int, default=settings.CONVERTER_PORT)
        parser.add_argument(
            "--allow-non-loopback",
            action="store_true",
            help="listen on a non-loopback address (an internal network only)",
        )

    def handle(self, *args, host, port, allow_non_loopback, **options):
        if not is_loopback(host) and not allow_non_loopback:
            raise CommandError(
                f"refusing to listen on non-loopback address {host}; "
                "pass --allow-non-loopback for an internal network"
            )
        server = serve(host, port, max_bytes=settings.SVG_EXPORT_MAX_BYTES)
        self.stdout.write(
            f"converter listening on http://{host}:{server.server_port}/", ending="\n"
        )
        self.stdout.flush()
        serve_until_stopped(server)
