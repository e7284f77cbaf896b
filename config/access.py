"""Who may call every route, by URL name (the endpoints in front of Django by their path) and
method: anyone, a customer (their own objects; staff may too) or staff. core/access.py
enforces it, writes each operation's OpenAPI `security` from it and docs/security.md's table;
a route missing here is refused to everyone. docs/security.md says why the table is so."""

from core.access import anyone, customer, end_user, staff
from core.metrics import scraper_allowed

A_JOB_READ = "anyone holding the job id"
A_PROOF = "anyone holding the proof's link (its token)"

ROUTES = {
    # In front of Django (config/urls.py `in_front_of_django`): staff is the admin token.
    "/api/health": {"GET": anyone()},
    "/api/jobs/<job_id>/events": {"GET": anyone(A_JOB_READ)},
    "/api/jobs/<job_id>/locations": {"GET": anyone(A_JOB_READ)},
    "/api/jobs/<job_id>/find": {"GET": staff("the staff lookup page")},
    # Jobs and what is drawn from them.
    "jobs": {
        "GET": customer("a customer's own jobs; staff every job"),
        "POST": anyone("a customer's token makes the job theirs", login_setting="JOBS_NEED_LOGIN"),
    },
    "job-size-advice": {"POST": anyone()},
    "job-regions-preview": {"POST": staff("the studio's preview of a grouped text shape")},
    "job-status": {
        "GET": anyone(A_JOB_READ),
        "DELETE": customer("the job's owner; a job made without a token: staff"),
    },
    "job-detail": {"GET": anyone(A_JOB_READ)},
    "job-result": {"GET": anyone(A_JOB_READ)},
    "job-file": {"GET": anyone(A_JOB_READ)},
    "job-file-pdf": {"GET": anyone(A_JOB_READ)},
    "job-file-dxf": {"GET": anyone(A_JOB_READ)},
    "job-file-laser-svg": {"GET": anyone(A_JOB_READ)},
    "job-revisions": {
        "GET": anyone(A_JOB_READ),
        "POST": customer("the job's owner; a job made without a token: staff"),
    },
    "job-proof": {"GET": anyone(A_JOB_READ)},
    "job-words": {"GET": anyone(A_JOB_READ)},
    "job-occupancy-mask": {"GET": anyone(A_JOB_READ)},
    "job-custom-svg": {"GET": anyone(A_JOB_READ)},
    "job-analyze-line-spacing": {"POST": anyone(A_JOB_READ + " (it reads, writes nothing)")},
    "job-tiles": {"GET": anyone(A_JOB_READ)},
    "job-tile": {"GET": anyone(A_JOB_READ)},
    "name-list-preview": {"POST": anyone()},
    # Conversions of what the caller sends.
    "exports-ai": {"POST": anyone()},
    "exports-pdf": {"POST": anyone()},
    # The shop's shelves: read by anyone, written by staff.
    "login": {"POST": anyone("the admin password gives the admin token")},
    "templates": {"GET": anyone()},
    "fonts": {"GET": anyone(), "POST": staff()},
    "font-detail": {"DELETE": staff()},
    "assets": {"GET": anyone(), "POST": staff()},
    "asset-from-job": {"POST": staff()},
    "asset-detail": {"GET": anyone(), "DELETE": staff()},
    "asset-download": {"GET": anyone()},
    "products": {"GET": anyone("staff see the inactive ones too"), "POST": staff()},
    "product-detail": {"GET": anyone(), "PATCH": staff()},
    # A customer's own things (staff: everyone's).
    "projects": {
        "GET": customer("a customer's own projects; staff every project"),
        "POST": customer("a customer's token makes the project theirs"),
    },
    "project-detail": {
        "GET": customer("the project's owner or staff"),
        "PATCH": customer("the project's owner or staff"),
        "DELETE": customer("the project's owner or staff"),
    },
    "project-render-png": {"GET": customer("the project's owner or staff")},
    "project-render-svg": {"GET": customer("the project's owner or staff")},
    "project-render-pdf": {"GET": customer("the project's owner or staff")},
    "auth-login": {"POST": anyone("the identity platform's code gives a customer's token")},
    "platform-openpid": {"POST": end_user()},
    "platform-phone": {"POST": end_user()},
    "addresses": {"GET": end_user("their own addresses"), "POST": end_user()},
    "address-detail": {
        method: end_user("the address's owner") for method in ("GET", "PUT", "PATCH", "DELETE")
    },
    "design-lists": {
        "GET": customer("a customer's own; staff every list"),
        "POST": end_user(),
    },
    "design-list-detail": {
        "GET": customer("the list's owner or staff"),
        **{method: end_user("the list's owner") for method in ("PUT", "PATCH", "DELETE")},
    },
    "design-list-submit": {"POST": end_user("the list's owner")},
    "order-list": {
        "GET": customer("a customer's own orders; staff every order"),
        "POST": end_user(),
    },
    "order-detail": {"GET": customer("the order's owner or staff")},
    "order-confirm": {"PATCH": end_user("the order's owner")},
    "order-cancel": {"POST": customer("the order's owner or staff")},
    "order-pay": {"POST": end_user("the order's owner")},
    "order-payment-sync": {"POST": end_user("the order's owner")},
    # Proofs (docs/proofs.md): the link's token is the key, as a job's id is.
    "job-proofs": {
        "GET": customer("the job's owner; a job made without a token: staff"),
        "POST": customer("the job's owner; a job made without a token: staff"),
    },
    "proof": {
        "GET": anyone(A_PROOF),
        "DELETE": customer("the job's owner; a job made without a token: staff"),
    },
    "proof-comments": {"POST": anyone(A_PROOF)},
    "proof-decision": {"POST": anyone(A_PROOF)},
    "proof-revision": {"POST": customer("the job's owner; a job made without a token: staff")},
    "payment-notify": {"POST": anyone("the payment platform; its signature is checked")},
    # Staff's work.
    "order-mark-paid": {"POST": staff()},
    "order-ship": {"POST": staff()},
    "order-production": {"GET": staff()},
    "order-production-retry": {"POST": staff()},
    "production-file": {"GET": anyone("the signed, expiring link staff were given")},
    "payment-list": {"GET": staff()},
    "metrics": {
        "GET": staff("or a scraper at an address of METRICS_ALLOWED_IPS", also=scraper_allowed)
    },
    # Pages: shells whose scripts call the API above, which checks; the admin signs in itself.
    "studio": {"GET": anyone("its past jobs ask staff to sign in")},
    "find": {"GET": anyone(A_JOB_READ)},
    "orders": {"GET": anyone("asks staff to sign in before it lists orders")},
    "order": {"GET": anyone("asks staff to sign in before it shows the order")},
    "proof-page": {"GET": anyone(A_PROOF)},
    "admin:*": {
        method: anyone("the Django admin: its own sign-in lets staff sessions only")
        for method in ("GET", "POST")
    },
    # The API's documents and the pages' languages.
    "schema": {"GET": anyone()},
    "api-docs": {"GET": anyone()},
    "api-redoc": {"GET": anyone()},
    "javascript-catalog": {"GET": anyone()},
    "set_language": {"POST": anyone()},
}
