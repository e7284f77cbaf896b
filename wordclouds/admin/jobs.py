"""Admin for jobs and their events: read-only, with the poster, the artifacts, the studio's
view of the job and a re-run action."""

import json

from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join

from core.admin_html import image, linked_image, table
from core.errors import ServiceError
from wordclouds.models import Job
from wordclouds.selectors import artifact_url
from wordclouds.services.jobs import job_rerun

INLINE_KINDS = ("png", "svg", "svg_stroke")


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "thumbnail",
        "revision",
        "status",
        "stage",
        "progress_percent",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "stage")
    search_fields = ("id", "message", "error")
    date_hierarchy = "created_at"
    fields = (
        "id",
        "preview",
        "studio",
        "revision",
        "parent_link",
        "revisions_list",
        "edits_shown",
        "status",
        "stage",
        "progress_percent",
        "message",
        "error",
        "downloads",
        "parameters",
        "name_list",
        "mask_image",
        "font_file",
        "font_id",
        "worker_pid",
        "created_at",
        "updated_at",
        "started_at",
        "finished_at",
        "event_log",
    )
    readonly_fields = fields
    actions = ["rerun"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_rerun_permission(self, request):
        return request.user.has_perm("wordclouds.add_job")

    @admin.display(description="poster")
    def thumbnail(self, job: Job):
        if "png" not in job.artifacts:
            return "-"
        return image(artifact_url(job.id, "png", inline=True), f"poster of job {job.id}")

    @admin.display(description="poster")
    def preview(self, job: Job):
        if "png" not in job.artifacts:
            return "not made yet" if job.status in ("queued", "running") else "-"
        return linked_image(artifact_url(job.id, "png", inline=True), f"poster of job {job.id}")

    @admin.display(description="revision of")
    def parent_link(self, job: Job):
        if job.parent_id is None:
            return "- (a first layout)"
        return format_html('<a href="../../{}/change/">{}</a>', job.parent_id, job.parent_id)

    @admin.display(description="revisions")
    def revisions_list(self, job: Job):
        children = job.revisions.order_by("created_at")
        if not children:
            return "-"
        return format_html_join(
            ", ",
            '<a href="../../{}/change/">{} (revision {}, {})</a>',
            ((child.id, child.id[:8], child.revision, child.status) for child in children),
        )

    @admin.display(description="edits")
    def edits_shown(self, job: Job):
        if not job.edits:
            return "-"
        return format_html("<pre>{}</pre>", json.dumps(job.edits, ensure_ascii=False, indent=1))

    @admin.display(description="studio")
    def studio(self, job: Job):
        return format_html(
            '<a href="/?job={}" target="_blank">open this job in the studio</a> · '
            '<a href="/jobs/{}/find" target="_blank">its lookup page</a>',
            job.id,
            job.id,
        )

    @admin.display(description="artifacts")
    def downloads(self, job: Job):
        if not job.artifacts:
            return "-"
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "", "<li>{}</li>", ((self._artifact_links(job, kind),) for kind in job.artifacts)
            ),
        )

    def _artifact_links(self, job: Job, kind: str):
        link = format_html('<a href="{}">{}</a>', artifact_url(job.id, kind), kind)
        if kind in INLINE_KINDS:
            return format_html(
                '{} (<a href="{}" target="_blank">view</a>)',
                link,
                artifact_url(job.id, kind, inline=True),
            )
        return link

    @admin.display(description="event log")
    def event_log(self, job: Job):
        return table(
            ["#", "time (UTC)", "type", "stage", "%", "message"],
            [
                (
                    event.seq,
                    event.timestamp.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
                    event.type,
                    event.stage,
                    event.progress_percent,
                    event.message,
                )
                for event in job.events.order_by("seq")
            ],
        )

    @admin.display(description="params")
    def parameters(self, job: Job):
        return format_html("<pre>{}</pre>", json.dumps(job.params, indent=2, ensure_ascii=False))

    @admin.action(description="Re-run with the same inputs", permissions=["rerun"])
    def rerun(self, request, queryset):
        for job in queryset:
            try:
                new_job = job_rerun(job_id=job.id)
            except ServiceError as error:
                self.message_user(request, f"Job {job.id}: {error.detail}", messages.ERROR)
            else:
                self.message_user(request, f"Job {job.id} re-run as {new_job.id}", messages.SUCCESS)
