"""Payments and refunds as the database tells them, read at each scrape of /metrics
(core/metrics.py)."""

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily

from commerce.models import Payment, Refund

REFUNDS_PENDING = (Refund.Status.REQUESTED, Refund.Status.PROCESSING)


def payments_and_refunds():
    by_state = GaugeMetricFamily(
        "wordcloud_payments",
        "Payments by state (kind wechat, free, manual).",
        labels=["state", "kind"],
    )
    rows = Payment.objects.values_list("status", "kind").annotate(count=Count("id"))
    for state, kind, count in rows.order_by("status", "kind"):
        by_state.add_metric([state, kind], count)
    yield by_state
    yield GaugeMetricFamily(
        "wordcloud_payments_needing_attention",
        "Payments flagged for staff (a mismatch, a second transaction, money for no order).",
        Payment.objects.filter(needs_attention=True).count(),
    )
    yield GaugeMetricFamily(
        "wordcloud_refunds_pending",
        "Refunds not yet final (REQUESTED or PROCESSING).",
        Refund.objects.filter(status__in=REFUNDS_PENDING).count(),
    )
