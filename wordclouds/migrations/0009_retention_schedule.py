"""The worker's daily retention run (wordclouds.tasks.jobs_expire; docs/deploy.md,
"Retention")."""

from django.db import migrations

NAME = "wordclouds retention"


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.update_or_create(
        name=NAME,
        defaults={"func": "wordclouds.tasks.jobs_expire", "schedule_type": "D", "repeats": -1},
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("wordclouds", "0008_job_keep_and_deleting"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
