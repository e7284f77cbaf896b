"""Copy an existing media folder (the local file storage: jobs/, fonts/, assets/) into the
configured store (S3_BUCKET), under the same keys, so a single machine's files move to the
bucket that several machines share (docs/deploy.md). Run it with the S3 settings of the
service; copying again is harmless (the same keys are written again).

A finished job folder without a record (docs/architecture.md) gets one: the bucket is never
listed, so a job is found by its row."""

from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from wordclouds import storage
from wordclouds.models import Job
from wordclouds.selectors import ARTIFACTS, artifact_urls, is_job_id

FOLDERS = ("jobs", "fonts", "assets")


class Command(BaseCommand):
    help = "Copy a media folder into the S3 bucket, and make rows for record-less job folders."

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path, help="the media folder (MEDIA_ROOT) to copy")

    def handle(self, *args, folder: Path, **options):
        if storage.is_local(storage.files(worker=True)):
            raise CommandError("no S3 store is configured (S3_BUCKET): nothing to copy into")
        if not folder.is_dir():
            raise CommandError(f"{folder} is not a folder")
        storage.bucket_create()
        copied = 0
        for top in FOLDERS:
            for path in sorted((folder / top).rglob("*")):
                relative = path.relative_to(folder)
                # Staging folders, temporary names: never a stored file.
                if path.is_file() and not any(part.startswith(".") for part in relative.parts):
                    storage.save(relative.as_posix(), path, worker=True)
                    copied += 1
        recorded = sum(self._record(job_folder) for job_folder in (folder / "jobs").glob("*"))
        self.stdout.write(f"{copied} file(s) copied; {recorded} record-less job(s) recorded")

    @staticmethod
    def _record(job_folder: Path) -> bool:
        database = job_folder / ARTIFACTS["db"][0]
        if not is_job_id(job_folder.name) or not database.is_file():
            return False
        if Job.objects.filter(id=job_folder.name).exists():
            return False
        present = [
            kind for kind, (name, _, _) in ARTIFACTS.items() if (job_folder / name).is_file()
        ]
        finished = datetime.fromtimestamp(database.stat().st_mtime, tz=UTC)
        Job.objects.create(
            id=job_folder.name,
            status=Job.Status.SUCCESS,
            stage="done",
            progress_percent=100,
            message="finished",
            name_list="",
            artifacts=artifact_urls(job_folder.name, present),
        )
        Job.objects.filter(id=job_folder.name).update(
            created_at=finished, updated_at=finished, finished_at=finished
        )
        return True
