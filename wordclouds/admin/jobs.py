"""Admin for jobs and their events: read-only, with the poster, the artifacts, the studio's
view of the job and a re-run action; and the page of the store's use by kind and of what the
next retention run deletes, linked from the job list."""

import json

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_html import image, linked_image, table
from core.errors import ServiceError
from wordclouds.models import Job
from wordclouds.selectors import artifact_url
from wordclouds.services.jobs import job_rerun
from wordclouds.services.retention import retention_plan
from wordclouds.services.store_use import store_use

INLINE_KINDS = ("png", "svg", "svg_stroke")
STORE_KINDS = {
    "inputs": _("job inputs"),
    "artifacts": _("artifacts"),
    "assets": _("assets"),
    "fonts": _("fonts"),
    "other": _("other (production files and the rest)"),
}


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "thumbnail",
        "revision",
        "keep",
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
    actions = ["rerun", "keep_forever", "let_expire"]
    change_list_template = "admin/wordclouds/job/change_list.html"

    def get_urls(self):
        store = path(
            "store/",
            self.admin_site.admin_view(self.store_view),
            name="wordclouds_job_store",
        )
        return [store, *super().get_urls()]

    def store_view(self, request):
        """The store's use by kind, and what the next retention run deletes (the dry run's
        own list): for staff who may see jobs."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        use = store_use()
        plan = retention_plan()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("The store's use"),
            "kinds": [
                (STORE_KINDS[kind], row["files"], size_shown(row["bytes"]))
                for kind, row in use.items()
            ],
            "total": (
                sum(row["files"] for row in use.values()),
                size_shown(sum(row["bytes"] for row in use.values())),
            ),
            "plan": [
                (entry["job_id"], entry["created_at"], entry["files"], size_shown(entry["bytes"]))
                for entry in plan
            ],
            "plan_total": (
                sum(entry["files"] for entry in plan),
                size_shown(sum(entry["bytes"] for entry in plan)),
            ),
        }
        return TemplateResponse(request, "admin/wordclouds/job/store.html", context)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_rerun_permission(self, request):
        return request.user.has_perm("wordclouds.add_job")

    @admin.display(description=_("poster"))
    def thumbnail(self, job: Job):
        if "png" not in job.artifacts:
            return "-"
        return image(artifact_url(job.id, "png", inline=True), gettext("poster of job %s") % job.id)

    @admin.display(description=_("poster"))
    def preview(self, job: Job):
        if "png" not in job.artifacts:
            return gettext("not made yet") if job.status in ("queued", "running") else "-"
        return linked_image(
            artifact_url(job.id, "png", inline=True), gettext("poster of job %s") % job.id
        )

    @admin.action(description=_("Keep: never delete with retention"))
    def keep_forever(self, request, queryset):
        count = Job.objects.filter(pk__in=queryset.values("pk")).update(keep=True)
        self.message_user(request, gettext("%d jobs kept") % count)

    @admin.action(description=_("Let retention delete (no longer kept)"))
    def let_expire(self, request, queryset):
        count = Job.objects.filter(pk__in=queryset.values("pk")).update(keep=False)
        self.message_user(request, gettext("%d jobs no longer kept") % count)

    @admin.display(description=_("revision of"))
    def parent_link(self, job: Job):
        if job.parent_id is None:
            return gettext("- (a first layout)")
        return format_html('<a href="../../{}/change/">{}</a>', job.parent_id, job.parent_id)

    @admin.display(description=_("revisions"))
    def revisions_list(self, job: Job):
        children = job.revisions.order_by("created_at")
        if not children:
            return "-"
        return format_html_join(
            ", ",
            '<a href="../../{}/change/">{} ({} {}, {})</a>',
            (
                (child.id, child.id[:8], gettext("revision"), child.revision, child.status)
                for child in children
            ),
        )

    @admin.display(description=_("edits"))
    def edits_shown(self, job: Job):
        if not job.edits:
            return "-"
        return format_html("<pre>{}</pre>", json.dumps(job.edits, ensure_ascii=False, indent=1))

    @admin.display(description=_("studio"))
    def studio(self, job: Job):
        return format_html(
            '<a href="/?job={}" target="_blank">{}</a> · <a href="/jobs/{}/find" target="_blank">{}</a>',
            job.id,
            gettext("open this job in the studio"),
            job.id,
            gettext("its lookup page"),
        )

    @admin.display(description=_("artifacts"))
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
                '{} (<a href="{}" target="_blank">{}</a>)',
                link,
                artifact_url(job.id, kind, inline=True),
                gettext("view"),
            )
        return link

    @admin.display(description=_("event log"))
    def event_log(self, job: Job):
        return table(
            ["#", gettext("time"), gettext("type"), gettext("stage"), "%", gettext("message")],
            [
                (
                    event.seq,
                    localtime(event.timestamp).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
                    event.type,
                    event.stage,
                    event.progress_percent,
                    event.message,
                )
                for event in job.events.order_by("seq")
            ],
        )

    @admin.display(description=_("params"))
    def parameters(self, job: Job):
        return format_html("<pre>{}</pre>", json.dumps(job.params, indent=2, ensure_ascii=False))

    @admin.action(description=_("Re-run with the same inputs"), permissions=["rerun"])
    def rerun(self, request, queryset):
        for job in queryset:
            try:
                new_job = job_rerun(job_id=job.id)
            except ServiceError as error:
                self.message_user(
                    request,
                    gettext("Job %(job)s: %(detail)s") % {"job": job.id, "detail": error.detail},
                    messages.ERROR,
                )
            else:
                self.message_user(
                    request,
                    gettext("Job %(job)s re-run as %(new)s") % {"job": job.id, "new": new_job.id},
                    messages.SUCCESS,
                )


def size_shown(size: int) -> str:
    """Bytes as staff read them: the exact count, grouped by thousands."""
    return gettext("%s bytes") % number_format(size, force_grouping=True)
