"""Placements gain their group (GROUP_COL_INDEX) and each set the job's groups. Sets loaded
before this were loaded without groups: they are emptied, and each job's first lookup loads
it again from its positions.db (docs/lookup.md, Loading)."""

from django.db import migrations, models


def unload(apps, schema_editor):
    apps.get_model("wordclouds", "Placement").objects.all().delete()
    apps.get_model("wordclouds", "PlacementSet").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("wordclouds", "0012_asset_keeps_job")]

    operations = [
        migrations.RunPython(unload, migrations.RunPython.noop),
        migrations.AddField(
            model_name="placementset",
            name="groups",
            field=models.JSONField(default=list, verbose_name="groups"),
        ),
        migrations.AddField(
            model_name="placement",
            name="group",
            field=models.TextField(default="", verbose_name="group"),
        ),
        migrations.AddIndex(
            model_name="placement",
            index=models.Index(fields=["placement_set", "group", "number"], name="placement_group"),
        ),
    ]
