"""manage.py backup DEST: the database's consistent snapshot and every stored file, with a
manifest of row counts and SHA-256s, into the new folder DEST (docs/deploy.md, "Backup and
restore")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from wordclouds.services.backups import BackupRefused, backup_make


class Command(BaseCommand):
    help = "Back up the database and every stored file into DEST (a new or empty folder)."

    def add_arguments(self, parser):
        parser.add_argument("dest", type=Path)

    def handle(self, *args, dest, **options):
        try:
            manifest = backup_make(dest)
        except BackupRefused as error:
            raise CommandError(f"{error.detail} ({error.code})") from None
        rows = sum(manifest["rows"].values())
        self.stdout.write(f"{dest}: {rows} rows, {len(manifest['files'])} files")
