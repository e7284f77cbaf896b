from django.db import migrations

BUILTIN_TEMPLATES = [
    ("poster_1x2", "Portrait phone poster", 1080, 2160),
    ("poster_4x5", "Social-media image", 1080, 1350),
    ("poster_1x1", "Square cover", 1080, 1080),
    ("poster_3x4", "Portrait advertisement", 1080, 1440),
    ("poster_16x9", "Landscape shop banner", 1920, 1080),
]


def seed_templates(apps, schema_editor):
    Template = apps.get_model("wordclouds", "Template")
    for position, (template_id, name, width, height) in enumerate(BUILTIN_TEMPLATES):
        Template.objects.update_or_create(
            id=template_id,
            defaults={
                "name": name,
                "width": width,
                "height": height,
                "position": position,
                "builtin": True,
            },
        )


def remove_templates(apps, schema_editor):
    Template = apps.get_model("wordclouds", "Template")
    Template.objects.filter(id__in=[row[0] for row in BUILTIN_TEMPLATES]).delete()


class Migration(migrations.Migration):
    dependencies = [("wordclouds", "0001_initial")]

    operations = [migrations.RunPython(seed_templates, remove_templates)]
