"""The worker's schedule for payment reconciliation (commerce.payments.reconcile): every
minute (django-q2's scheduler looks every 30 s)."""

from django.db import migrations

NAME = "commerce.payments reconciliation"


def schedule(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name=NAME,
        defaults={
            "func": "commerce.payments.reconcile.payments_reconcile",
            "schedule_type": "I",  # minutes
            "minutes": 1,
            "repeats": -1,
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("commerce", "0002_payments"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
