"""Compiles the engine's numba functions into their on-disk cache (services/warmup.py), so
the first job after an install or in a fresh container does not pay 10–20 s of compilation.
`make run`'s set-up runs it once (the image build calls engine_warm itself, without Django)."""

from django.core.management.base import BaseCommand

from wordclouds.services.warmup import engine_warm


class Command(BaseCommand):
    help = "Run two tiny engine jobs so numba's compiled code is cached on disk."

    def handle(self, *args, **options):
        self.stdout.write(f"engine compiled and cached in {engine_warm():.1f} s")
