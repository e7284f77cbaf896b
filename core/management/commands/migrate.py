"""Django's migrate, then the database cache's table (createcachetable: made only when CACHES
names the database cache and the table is missing), so every way the service is set up
(`make run`, the container stack's migrate step, the tests' database template) makes it."""

from django.core.management import call_command
from django.core.management.commands import migrate


class Command(migrate.Command):
    def handle(self, *args, **options):
        super().handle(*args, **options)
        call_command("createcachetable", database=options["database"])
