"""Django's migrate, then the database cache's table (DATABASE_CACHE_TABLE, made when
missing), so every way the service is set up (`make run`, the container stack's migrate step,
the tests' database template) makes it. It is made whichever cache CACHES names: a database
migrated while Redis was the cache (the tests' template on CI's second pass) may serve a
process started without Redis, whose throttles then count in the table."""

from django.conf import settings
from django.core.management.commands import createcachetable, migrate


class Command(migrate.Command):
    def handle(self, *args, **options):
        super().handle(*args, **options)
        table = createcachetable.Command()
        table.verbosity = 0
        table.create_table(options["database"], settings.DATABASE_CACHE_TABLE, dry_run=False)
