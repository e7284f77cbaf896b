"""Remove stored files under assets/ and fonts/ that no row describes (a maintenance
command: the one place that lists the file storage).

Files are written before their rows (wordclouds/services/stored_files.py), so a crash in
between leaves a file without a row; this repairs that. Files younger than --min-age seconds
are left alone, because their row may be about to commit.
"""

from datetime import UTC, datetime, timedelta

from django.core.management.base import BaseCommand

from wordclouds import storage
from wordclouds.models import Asset, Font

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
        cutoff = datetime.now(UTC) - timedelta(seconds=min_age)
        removed = 0
        verb = "would remove" if dry_run else "removed"
        for folder, model in FOLDERS.items():
            for key in self._orphans(folder, model, cutoff):
                removed += 1
                self.stdout.write(f"{verb} {key}")
                if not dry_run:
                    storage.delete([key])
        self.stdout.write(f"{removed} orphan file(s)")

    @staticmethod
    def _orphans(folder: str, model, cutoff: datetime) -> list[str]:
        files = storage.files()
        with storage.answers("list"):
            names = (
                files.listdir(folder)[1]
                if files.exists(folder) or not storage.is_local(files)
                else []
            )
            # Read the rows after listing the files, so a file whose row commits in between
            # is seen with its row.
            keys = [
                f"{folder}/{name}"
                for name in names
                if files.get_modified_time(f"{folder}/{name}") < cutoff
            ]
        known = set(model.objects.values_list("file", flat=True))
        return [key for key in keys if key not in known]
