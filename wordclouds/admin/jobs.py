"""Admin for jobs and their events: read-only, with a re-run action."""
from django.contrib import admin, messages

from config.errors import ServiceError
from wordclouds.models import Job, JobEvent
from wordclouds.services.jobs import job_rerun


class JobEventInline(admin.TabularInline):
    model = JobEvent
    fields = ("seq", "type", "stage", "progress_percent", "message", "timestamp")
    readonly_fields = fields
    ordering = ("seq",)
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "stage", "progress_percent", "created_at", "finished_at")
    list_filter = ("status", "stage")
    search_fields = ("id",)
    date_hierarchy = "created_at"
    fields = ("id", "status", "stage", "progress_percent", "message", "error", "params",
              "name_list", "mask_image", "font_file", "font_id", "artifacts", "worker_pid",
              "created_at", "updated_at", "started_at", "finished_at")
    readonly_fields = fields
    inlines = [JobEventInline]
    actions = ["rerun"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_rerun_permission(self, request):
        return request.user.has_perm("wordclouds.add_job")

    @admin.action(description="Re-run with the same inputs", permissions=["rerun"])
    def rerun(self, request, queryset):
        for job in queryset:
            try:
                new_job = job_rerun(job_id=job.id)
            except ServiceError as error:
                self.message_user(request, f"Job {job.id}: {error.detail}", messages.ERROR)
            else:
                self.message_user(request, f"Job {job.id} re-run as {new_job.id}",
                                  messages.SUCCESS)
