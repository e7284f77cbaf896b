import uuid

from django.db import models

from core.pipeline import allow


def new_id() -> str:
    return uuid.uuid4().hex


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCESS = "success"
        FAILED = "failed"

    # The allowed status moves, by verb; core.pipeline.move makes them (services/jobs.py).
    pipeline = {
        "started": allow(Status.QUEUED, to=Status.RUNNING),
        # Progress of a running job: its stage, percent and message change, not its status.
        "updated": allow(Status.RUNNING, to=Status.RUNNING),
        "succeeded": allow(Status.RUNNING, to=Status.SUCCESS),
        "failed": allow(Status.QUEUED, Status.RUNNING, to=Status.FAILED),
    }

    id = models.CharField(primary_key=True, max_length=32, default=new_id, editable=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=32, default="queued")
    progress_percent = models.PositiveSmallIntegerField(default=0)
    message = models.CharField(max_length=500, blank=True, default="")
    error = models.TextField(blank=True, default="")
    params = models.JSONField(default=dict, blank=True)
    # Inputs are stored in the job's directory (MEDIA_ROOT/jobs/<id>/input/); these are the
    # file names there, so the job can be re-run from its own folder.
    name_list = models.CharField(max_length=255)
    mask_image = models.CharField(max_length=255, blank=True, default="")
    font_file = models.CharField(max_length=255, blank=True, default="")
    font_id = models.CharField(max_length=64, blank=True, default="")
    artifacts = models.JSONField(default=dict, blank=True)
    worker_pid = models.IntegerField(null=True, blank=True)
    # A revision (POST /api/jobs/<id>/revisions) names its parent, which it never changes
    # and which cannot be deleted while it has revisions; `revision` counts from 0 (a first
    # layout); `edits` are the revision's checked edits (docs/engine.md, "Revisions").
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="revisions"
    )
    revision = models.PositiveIntegerField(default=0)
    edits = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"job {self.id} ({self.status})"


class JobEvent(models.Model):
    class Type(models.TextChoices):
        LOG = "log"
        STATUS = "status"

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=8, choices=Type.choices)
    stage = models.CharField(max_length=32)
    progress_percent = models.PositiveSmallIntegerField()
    message = models.CharField(max_length=500, blank=True, default="")
    timestamp = models.DateTimeField()

    class Meta:
        ordering = ["job", "seq"]
        constraints = [models.UniqueConstraint(fields=["job", "seq"], name="unique_job_event_seq")]

    def __str__(self):
        return f"{self.job_id}#{self.seq} {self.type} {self.stage}"


class Font(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_id, editable=False)
    name = models.CharField(max_length=200)
    family = models.CharField(max_length=200, blank=True, default="")
    filename = models.CharField(max_length=255)
    # Path relative to MEDIA_ROOT (fonts/<id><ext>).
    file = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self):
        return self.name


class Template(models.Model):
    id = models.SlugField(primary_key=True, max_length=64)
    name = models.CharField(max_length=200)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    # The five fixed templates come first, in the spec's order, and cannot be deleted.
    position = models.PositiveIntegerField(default=1000)
    builtin = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return f"{self.name} ({self.width}×{self.height})"


class Asset(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_id, editable=False)
    name = models.CharField(max_length=200, blank=True, default="")
    type = models.CharField(max_length=64, default="upload", db_index=True)
    job_id = models.CharField(max_length=64, blank=True, default="", db_index=True)
    kind = models.CharField(max_length=32, blank=True, default="")
    filename = models.CharField(max_length=255)
    # Path relative to MEDIA_ROOT (assets/<id><ext>).
    file = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name or self.filename


class Project(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_id, editable=False)
    name = models.CharField(max_length=200)
    template = models.ForeignKey(Template, on_delete=models.PROTECT, related_name="projects")
    background_color = models.CharField(max_length=7)
    stickers = models.JSONField(default=list, blank=True)
    # Kept in step with `stickers` by the project services, so an asset in use cannot be
    # deleted (ProjectAsset.asset is PROTECT) and "which projects use it" is one query.
    assets = models.ManyToManyField(Asset, through="ProjectAsset", related_name="projects")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name


class ProjectAsset(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE)
    asset = models.ForeignKey(Asset, on_delete=models.PROTECT)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "asset"], name="unique_project_asset")
        ]


class PlacementSet(models.Model):
    """A finished job's placements, loaded from its positions.db (docs/lookup.md): one per
    job, whether the job has a record or is only a finished folder, so no foreign key to
    Job. Loaded by the worker with the job's success, else by the first lookup."""

    job_id = models.CharField(primary_key=True, max_length=32)
    canvas_width = models.FloatField()
    canvas_height = models.FloatField()
    loaded_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"placements of job {self.job_id}"


class Placement(models.Model):
    """One row of positions.db's `words`, as the lookups answer it. `number` is its id
    there; `name_folded` is the name lower-cased by Python (Unicode, not ASCII only), which
    `contains` searches (a trigram GIN index on PostgreSQL, migration 0003)."""

    placement_set = models.ForeignKey(
        PlacementSet,
        on_delete=models.CASCADE,
        related_name="placements",
        db_column="job_id",
        db_index=False,  # unique_placement_number's index starts with it
    )
    number = models.PositiveIntegerField()
    name = models.TextField()
    name_folded = models.TextField()
    x = models.FloatField()
    y = models.FloatField()
    font_size = models.FloatField()
    color = models.CharField(max_length=7)
    orientation = models.CharField(max_length=10)
    box_x = models.IntegerField()
    box_y = models.IntegerField()
    box_width = models.IntegerField()
    box_height = models.IntegerField()
    weight = models.FloatField(default=1.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["placement_set", "number"], name="unique_placement_number"
            )
        ]
        indexes = [models.Index(fields=["placement_set", "name"], name="placement_name")]

    def __str__(self):
        return f"{self.placement_set_id}#{self.number} {self.name}"


class WorkerBeat(models.Model):
    """The last time a worker answered the ping of `manage.py runcluster` (one row, shared
    by every worker and web process: docs/architecture.md, "The worker dying")."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    at = models.DateTimeField()

    def __str__(self):
        return f"worker seen {self.at}"
