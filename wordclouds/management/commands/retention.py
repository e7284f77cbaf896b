"""manage.py retention [--dry-run]: delete the jobs past JOB_RETENTION_DAYS now (the worker
does it daily), or with --dry-run list what would go and how many bytes (docs/deploy.md,
"Retention")."""

from django.core.management.base import BaseCommand

from wordclouds.services.retention import retention_plan, retention_run


class Command(BaseCommand):
    help = "Delete the jobs past JOB_RETENTION_DAYS, or list them with --dry-run."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="list, delete nothing")

    def handle(self, *args, dry_run=False, **options):
        if dry_run:
            plan = retention_plan()
            for entry in plan:
                self.stdout.write(
                    f"{entry['job_id']}  {entry['created_at']:%Y-%m-%d}  "
                    f"{entry['files']} files  {entry['bytes']:,} bytes"
                )
            total = sum(entry["bytes"] for entry in plan)
            self.stdout.write(f"{len(plan)} jobs, {total:,} bytes would be deleted")
            return
        deleted = retention_run()
        self.stdout.write(f"{len(deleted)} jobs deleted")
