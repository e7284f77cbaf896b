"""Wait for the file storage to answer and create its bucket when missing (S3 only; the
local folder needs nothing). Run before the web and worker processes start (compose.yaml's
migrate step, .ci/run)."""

import time

from django.core.management.base import BaseCommand, CommandError

from wordclouds import storage


class Command(BaseCommand):
    help = "Wait for the S3 store and create its bucket when missing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--wait", type=float, default=0, help="seconds to wait for the store to answer"
        )

    def handle(self, *args, wait: float, **options):
        deadline = time.monotonic() + wait
        while True:
            try:
                created = storage.bucket_create()
                break
            except storage.StorageUnavailable:
                if time.monotonic() >= deadline:
                    raise CommandError("the file storage does not answer") from None
                time.sleep(1)
        self.stdout.write("bucket created" if created else "file storage ready")
