"""One round of payment reconciliation now (the worker runs it every minute on its
schedule; this is for operators and the end-to-end tests)."""

from django.core.management.base import BaseCommand

from commerce.payments.reconcile import payments_reconcile


class Command(BaseCommand):
    help = "Query open payment attempts, close expired ones, send and query pending refunds."

    def handle(self, *args, **options):
        self.stdout.write(str(payments_reconcile()))
