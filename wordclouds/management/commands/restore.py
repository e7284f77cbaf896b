"""manage.py restore SRC [--force [--safety-backup DEST]]: put a backup made by `manage.py
backup` back, after checking its files against the manifest (docs/deploy.md, "Backup and
restore"); with --force, what it replaces is backed up first (into DEST, default beside SRC)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from wordclouds.services.backups import BackupRefused, backup_restore, safety_folder


class Command(BaseCommand):
    help = "Restore the backup in SRC; --force replaces a target holding jobs, orders or files."

    def add_arguments(self, parser):
        parser.add_argument("src", type=Path)
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace the jobs, orders and files there, after backing them up",
        )
        parser.add_argument(
            "--safety-backup",
            type=Path,
            help="where --force backs the target up (a new folder; default beside SRC)",
        )

    def handle(self, *args, src, force=False, safety_backup=None, **options):
        safety = safety_backup or safety_folder(src)
        try:
            manifest = backup_restore(src, force=force, safety=safety)
        except BackupRefused as error:
            raise CommandError(f"{error.detail} ({error.code})") from None
        rows = sum(manifest["rows"].values())
        self.stdout.write(f"{src}: {rows} rows, {len(manifest['files'])} files restored")
        if safety.exists():
            self.stdout.write(f"what it replaced is backed up in {safety}")
