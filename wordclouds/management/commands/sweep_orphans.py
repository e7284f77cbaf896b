"""Remove files under MEDIA_ROOT/assets and MEDIA_ROOT/fonts that no row describes.

Files are written before their rows (wordclouds/services/stored_files.py), so a crash in
between leaves a file without a row; this repairs that. Files younger than --min-age seconds
are left alone, because their row may be about to commit.
"""

import time
from pathlib import Path

from django.core.management.base import BaseCommand

from wordclouds.models import Asset, Font
from wordclouds.services.stored_files import media_path

FOLDERS = {"assets": Asset, "fonts": Font}


class Command(BaseCommand):
    help = "Remove asset and font files that have no database row."

    def add_arguments(self, parser):
        parser.add_argument(
            "--min-age",
            type=float,
            default=3600,
            help="only files older than this many seconds (default 3600)",
        )
        parser.add_argument("--dry-run", action="store_true", help="list, do not remove")

    def handle(self, *args, min_age: float, dry_run: bool, **options):
        cutoff = time.time() - min_age
        removed = 0
        verb = "would remove" if dry_run else "removed"
        for folder, model in FOLDERS.items():
            for path in self._orphans(folder, model, cutoff):
                removed += 1
                self.stdout.write(f"{verb} {folder}/{path.name}")
                if not dry_run:
                    path.unlink(missing_ok=True)
        self.stdout.write(f"{removed} orphan file(s)")

    @staticmethod
    def _orphans(folder: str, model, cutoff: float) -> list[Path]:
        directory = media_path(folder)
        if not directory.is_dir():
            return []
        # Read the rows after listing the files, so a file whose row commits in between
        # is seen with its row.
        files = [
            path for path in directory.iterdir() if path.is_file() and path.stat().st_mtime < cutoff
        ]
        known = set(model.objects.values_list("file", flat=True))
        return [path for path in files if f"{folder}/{path.name}" not in known]
