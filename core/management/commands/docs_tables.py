"""Write the docs' generated tables anew from the declarations their markers name
(core/inputs.py): `manage.py docs_tables`, then commit the changed pages."""

from django.conf import settings
from django.core.management.base import BaseCommand

from core.inputs import docs_with_tables


class Command(BaseCommand):
    help = "Write the tables of docs/*.md from the declarations of the inputs they describe."

    def handle(self, *args, **options):
        for path, text in docs_with_tables(settings.BASE_DIR / "docs").items():
            if path.read_text() != text:
                path.write_text(text)
                self.stdout.write(f"wrote {path.relative_to(settings.BASE_DIR)}")
