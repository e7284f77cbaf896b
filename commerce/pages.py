"""The staff orders pages: `/orders` (every order) and `/orders/<id>` (one order), and the
customer's proof page `/proofs/<token>` (docs/proofs.md). The orders pages are shells; their
scripts (`static/commerce/`) sign in with POST /api/login and read and move orders through
the public /api only, so they show what an API client gets. The proof page is drawn on the
server from the proof; its script (`static/commerce/proof.js`) shows the poster and writes
comments and decisions through the public /api."""

from django.http import Http404
from django.shortcuts import render
from django.urls import path
from django.utils.translation import get_language, ngettext, pgettext

from commerce.models import Order, ProofComment, ProofDecision
from commerce.services.proofs import CHANGE_KINDS, proof_get, terms_text
from core.errors import Gone, NotFound


def orders(request):
    return render(request, "commerce/orders.html", {"statuses": Order.Status.choices})


def order(request, order_id: int):
    return render(request, "commerce/order.html", {"order_id": order_id})


def proof(request, token: str):
    """The proof's newest version: the poster, what changed since the version before by
    name, the comments and approvals, the forms; 404 for an unknown link, 410 revoked."""
    try:
        shown = proof_get(token=token)
    except NotFound:
        raise Http404("proof not found") from None
    except Gone:
        return render(request, "commerce/proof_revoked.html", status=410)
    versions = list(shown.versions.all())
    newest = versions[-1]
    counts = newest.changes.get("counts", {}) if newest.version > 1 else {}
    decisions = list(ProofDecision.objects.filter(version=newest))
    approvals = [d for d in decisions if d.decision == "approve"]
    context = {
        "proof": shown,
        "token": token,
        "versions": versions,
        "newest": newest,
        "changes": newest.changes if counts else {},
        "summary": _summary(counts),
        "comments": ProofComment.objects.filter(version__proof=shown).select_related("version"),
        "kinds": ProofComment.Kind.choices,
        "approvals": approvals,
        "changes_asked": [d for d in decisions if d.decision == "changes"],
        "approved": len({a.role for a in approvals}) >= shown.approvals_needed,
        "open_roles": [r for r in shown.roles if r not in {a.role for a in approvals}],
        "terms": terms_text(get_language()),
        "language": get_language(),
    }
    return render(request, "commerce/proof.html", context)


# What a version's summary says of each kind of change, by its count.
SAID = {
    "renamed": lambda n: ngettext("%(count)s renamed", "%(count)s renamed", n),
    "added": lambda n: ngettext("%(count)s added", "%(count)s added", n),
    "removed": lambda n: ngettext("%(count)s removed", "%(count)s removed", n),
    "moved": lambda n: ngettext("%(count)s moved", "%(count)s moved", n),
    "resized": lambda n: ngettext("%(count)s resized", "%(count)s resized", n),
    "recolored": lambda n: ngettext("%(count)s recoloured", "%(count)s recoloured", n),
    "displaced": lambda n: ngettext(
        "%(count)s moved aside to make room", "%(count)s moved aside to make room", n
    ),
}


def _summary(counts: dict) -> str:
    """`1 renamed, 1 added`: each kind of change the version made, by its count."""
    return pgettext("between the items of a list", ", ").join(
        SAID[kind](counts[kind]) % {"count": counts[kind]}
        for kind in CHANGE_KINDS
        if counts.get(kind)
    )


urlpatterns = [
    path("orders", orders, name="orders"),
    path("orders/<int:order_id>", order, name="order"),
    path("proofs/<str:token>", proof, name="proof-page"),
]
