import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.pipeline import allow


def new_id() -> str:
    return uuid.uuid4().hex


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCESS = "success", _("success")
        FAILED = "failed", _("failed")

    # The allowed status moves, by verb; core.pipeline.move makes them (services/jobs.py).
    pipeline = {
        "started": allow(Status.QUEUED, to=Status.RUNNING),
        # Progress of a running job: its stage, percent and message change, not its status.
        "updated": allow(Status.RUNNING, to=Status.RUNNING),
        "succeeded": allow(Status.RUNNING, to=Status.SUCCESS),
        "failed": allow(Status.QUEUED, Status.RUNNING, to=Status.FAILED),
    }

    id = models.CharField(
        verbose_name=_("ID"), primary_key=True, max_length=32, default=new_id, editable=False
    )
    status = models.CharField(
        verbose_name=_("status"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    stage = models.CharField(verbose_name=_("stage"), max_length=32, default="queued")
    progress_percent = models.PositiveSmallIntegerField(
        verbose_name=_("progress percent"), default=0
    )
    message = models.CharField(verbose_name=_("message"), max_length=500, blank=True, default="")
    error = models.TextField(verbose_name=_("error"), blank=True, default="")
    params = models.JSONField(verbose_name=_("params"), default=dict, blank=True)
    # Inputs are stored in the job's directory (MEDIA_ROOT/jobs/<id>/input/); these are the
    # file names there, so the job can be re-run from its own folder.
    name_list = models.CharField(verbose_name=_("name list"), max_length=255)
    mask_image = models.CharField(
        verbose_name=_("mask image"), max_length=255, blank=True, default=""
    )
    font_file = models.CharField(
        verbose_name=_("font file"), max_length=255, blank=True, default=""
    )
    font_id = models.CharField(verbose_name=_("font id"), max_length=64, blank=True, default="")
    artifacts = models.JSONField(verbose_name=_("artifacts"), default=dict, blank=True)
    worker_pid = models.IntegerField(verbose_name=_("worker pid"), null=True, blank=True)
    # A revision (POST /api/jobs/<id>/revisions) names its parent, which it never changes
    # and which cannot be deleted while it has revisions; `revision` counts from 0 (a first
    # layout); `edits` are the revision's checked edits (docs/engine.md, "Revisions").
    parent = models.ForeignKey(
        "self",
        verbose_name=_("revision of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="revisions",
    )
    revision = models.PositiveIntegerField(verbose_name=_("revision"), default=0)
    edits = models.JSONField(verbose_name=_("edits"), default=dict, blank=True)
    # The customer whose token made it (their user id, core.identity's `owner_key`; commerce's
    # users are not this app's to refer to), '' for a job made without one (docs/security.md).
    owner = models.CharField(
        verbose_name=_("owner"), max_length=32, blank=True, default="", db_index=True
    )
    # Retention (docs/deploy.md, "Retention"): a job staff keep is never deleted; `deleting`
    # marks one whose files are being removed (reads answer 404; the next run finishes it).
    keep = models.BooleanField(verbose_name=_("keep"), default=False)
    deleting = models.BooleanField(verbose_name=_("deleting"), default=False)
    # Who asked for it, as a keyed hash of its throttle client (core/throttles.py: an address
    # or a user; empty for staff): MAX_QUEUED_PER_CLIENT counts a client's unfinished jobs.
    client = models.CharField(
        verbose_name=_("client"), max_length=32, blank=True, default="", db_index=True
    )
    created_at = models.DateTimeField(
        verbose_name=_("created at"), auto_now_add=True, db_index=True
    )
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["-created_at"]

    def __str__(self):
        return f"job {self.id} ({self.status})"


class JobEvent(models.Model):
    class Type(models.TextChoices):
        LOG = "log", _("log")
        STATUS = "status", _("status")

    job = models.ForeignKey(
        Job, verbose_name=_("job"), on_delete=models.CASCADE, related_name="events"
    )
    seq = models.PositiveIntegerField(verbose_name=_("seq"))
    type = models.CharField(verbose_name=_("type"), max_length=8, choices=Type.choices)
    stage = models.CharField(verbose_name=_("stage"), max_length=32)
    progress_percent = models.PositiveSmallIntegerField(verbose_name=_("progress percent"))
    message = models.CharField(verbose_name=_("message"), max_length=500, blank=True, default="")
    timestamp = models.DateTimeField(verbose_name=_("timestamp"))

    class Meta:
        verbose_name = _("job event")
        verbose_name_plural = _("job events")
        ordering = ["job", "seq"]
        constraints = [models.UniqueConstraint(fields=["job", "seq"], name="unique_job_event_seq")]

    def __str__(self):
        return f"{self.job_id}#{self.seq} {self.type} {self.stage}"


class Font(models.Model):
    id = models.CharField(
        verbose_name=_("ID"), primary_key=True, max_length=32, default=new_id, editable=False
    )
    name = models.CharField(verbose_name=_("name"), max_length=200)
    family = models.CharField(verbose_name=_("family"), max_length=200, blank=True, default="")
    filename = models.CharField(verbose_name=_("filename"), max_length=255)
    # Path relative to MEDIA_ROOT (fonts/<id><ext>).
    file = models.CharField(verbose_name=_("file"), max_length=255)
    size = models.PositiveBigIntegerField(verbose_name=_("size"), default=0)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("font")
        verbose_name_plural = _("fonts")
        ordering = ["created_at"]

    def __str__(self):
        return self.name


class Template(models.Model):
    id = models.SlugField(verbose_name=_("ID"), primary_key=True, max_length=64)
    name = models.CharField(verbose_name=_("name"), max_length=200)
    width = models.PositiveIntegerField(verbose_name=_("width"))
    height = models.PositiveIntegerField(verbose_name=_("height"))
    # The five fixed templates come first, in the spec's order, and cannot be deleted.
    position = models.PositiveIntegerField(verbose_name=_("position"), default=1000)
    builtin = models.BooleanField(verbose_name=_("builtin"), default=False, editable=False)

    class Meta:
        verbose_name = _("template")
        verbose_name_plural = _("templates")
        ordering = ["position", "id"]

    def __str__(self):
        return f"{self.name} ({self.width}×{self.height})"


class Asset(models.Model):
    id = models.CharField(
        verbose_name=_("ID"), primary_key=True, max_length=32, default=new_id, editable=False
    )
    name = models.CharField(verbose_name=_("name"), max_length=200, blank=True, default="")
    type = models.CharField(verbose_name=_("type"), max_length=64, default="upload", db_index=True)
    job_id = models.CharField(
        verbose_name=_("job id"), max_length=64, blank=True, default="", db_index=True
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=32, blank=True, default="")
    # An import holds its own copy of the artifact, so it keeps its job from retention only
    # when staff say so here (docs/deploy.md, "Retention").
    keeps_job = models.BooleanField(
        verbose_name=_("keeps its job"),
        default=False,
        help_text=_("Retention does not delete the job this asset was imported from."),
    )
    filename = models.CharField(verbose_name=_("filename"), max_length=255)
    # Path relative to MEDIA_ROOT (assets/<id><ext>).
    file = models.CharField(verbose_name=_("file"), max_length=255)
    content_type = models.CharField(verbose_name=_("content type"), max_length=100)
    size = models.PositiveBigIntegerField(verbose_name=_("size"))
    sha256 = models.CharField(verbose_name=_("sha256"), max_length=64)
    created_at = models.DateTimeField(
        verbose_name=_("created at"), auto_now_add=True, db_index=True
    )

    class Meta:
        verbose_name = _("asset")
        verbose_name_plural = _("assets")
        ordering = ["-created_at"]

    def __str__(self):
        return self.name or self.filename


class Project(models.Model):
    id = models.CharField(
        verbose_name=_("ID"), primary_key=True, max_length=32, default=new_id, editable=False
    )
    name = models.CharField(verbose_name=_("name"), max_length=200)
    template = models.ForeignKey(
        Template, verbose_name=_("template"), on_delete=models.PROTECT, related_name="projects"
    )
    background_color = models.CharField(verbose_name=_("background color"), max_length=7)
    stickers = models.JSONField(verbose_name=_("stickers"), default=list, blank=True)
    # The customer whose token made it, as a job's `owner`; '' for one staff made.
    owner = models.CharField(
        verbose_name=_("owner"), max_length=32, blank=True, default="", db_index=True
    )
    # Kept in step with `stickers` by the project services, so an asset in use cannot be
    # deleted (ProjectAsset.asset is PROTECT) and "which projects use it" is one query.
    assets = models.ManyToManyField(
        Asset, verbose_name=_("assets"), through="ProjectAsset", related_name="projects"
    )
    created_at = models.DateTimeField(
        verbose_name=_("created at"), auto_now_add=True, db_index=True
    )
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("project")
        verbose_name_plural = _("projects")
        ordering = ["-created_at"]

    def __str__(self):
        return self.name


class ProjectAsset(models.Model):
    project = models.ForeignKey(Project, verbose_name=_("project"), on_delete=models.CASCADE)
    asset = models.ForeignKey(Asset, verbose_name=_("asset"), on_delete=models.PROTECT)

    class Meta:
        verbose_name = _("project asset")
        verbose_name_plural = _("project assets")
        constraints = [
            models.UniqueConstraint(fields=["project", "asset"], name="unique_project_asset")
        ]


class PlacementSet(models.Model):
    """A finished job's placements, loaded from its positions.db (docs/lookup.md): one per
    job, whether the job has a record or is only a finished folder, so no foreign key to
    Job. Loaded by the worker with the job's success, else by the first lookup."""

    job_id = models.CharField(verbose_name=_("job id"), primary_key=True, max_length=32)
    canvas_width = models.FloatField(verbose_name=_("canvas width"))
    canvas_height = models.FloatField(verbose_name=_("canvas height"))
    loaded_at = models.DateTimeField(verbose_name=_("loaded at"), auto_now=True)
    # the job's groups (GROUP_COL_INDEX) in spreadsheet order, as positions.db's meta.groups
    # names them; [] for a job without groups
    groups = models.JSONField(verbose_name=_("groups"), default=list)

    class Meta:
        verbose_name = _("placement set")
        verbose_name_plural = _("placement sets")

    def __str__(self):
        return f"placements of job {self.job_id}"


class Placement(models.Model):
    """One row of positions.db's `words`, as the lookups answer it. `number` is its id
    there; `name_folded` is the name lower-cased by Python (Unicode, not ASCII only), which
    `contains` searches (a trigram GIN index on PostgreSQL, migration 0003)."""

    placement_set = models.ForeignKey(
        PlacementSet,
        verbose_name=_("placement set"),
        on_delete=models.CASCADE,
        related_name="placements",
        db_column="job_id",
        db_index=False,  # unique_placement_number's index starts with it
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    name = models.TextField(verbose_name=_("name"))
    name_folded = models.TextField(verbose_name=_("name folded"))
    x = models.FloatField(verbose_name=_("x"))
    y = models.FloatField(verbose_name=_("y"))
    font_size = models.FloatField(verbose_name=_("font size"))
    color = models.CharField(verbose_name=_("color"), max_length=7)
    orientation = models.CharField(verbose_name=_("orientation"), max_length=10)
    box_x = models.IntegerField(verbose_name=_("box x"))
    box_y = models.IntegerField(verbose_name=_("box y"))
    box_width = models.IntegerField(verbose_name=_("box width"))
    box_height = models.IntegerField(verbose_name=_("box height"))
    weight = models.FloatField(verbose_name=_("weight"), default=1.0)
    group = models.TextField(verbose_name=_("group"), default="")  # "" without groups

    class Meta:
        verbose_name = _("placement")
        verbose_name_plural = _("placements")
        constraints = [
            models.UniqueConstraint(
                fields=["placement_set", "number"], name="unique_placement_number"
            )
        ]
        indexes = [
            models.Index(fields=["placement_set", "name"], name="placement_name"),
            models.Index(fields=["placement_set", "group", "number"], name="placement_group"),
        ]

    def __str__(self):
        return f"{self.placement_set_id}#{self.number} {self.name}"


class WorkerBeat(models.Model):
    """The last time a worker answered the ping of `manage.py runcluster` (one row, shared
    by every worker and web process: docs/architecture.md, "The worker dying")."""

    id = models.PositiveSmallIntegerField(verbose_name=_("ID"), primary_key=True, default=1)
    at = models.DateTimeField(verbose_name=_("at"))

    class Meta:
        verbose_name = _("worker beat")
        verbose_name_plural = _("worker beats")

    def __str__(self):
        return f"worker seen {self.at}"
