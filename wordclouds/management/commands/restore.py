"""manage.py restore SRC [--force]: put a backup made by `manage.py backup` back, after
checking its files against the manifest (docs/deploy.md, "Backup and restore")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from wordclouds.services.backups import BackupRefused, backup_restore


class Command(BaseCommand):
    help = "Restore the backup in SRC; --force replaces a target holding jobs, orders or files."

    def add_arguments(self, parser):
        parser.add_argument("src", type=Path)
        parser.add_argument(
            "--force", action="store_true", help="replace the jobs, orders and files there"
        )

    def handle(self, *args, src, force=False, **options):
        try:
            manifest = backup_restore(src, force=force)
        except BackupRefused as error:
            raise CommandError(f"{error.detail} ({error.code})") from None
        rows = sum(manifest["rows"].values())
        self.stdout.write(f"{src}: {rows} rows, {len(manifest['files'])} files restored")
