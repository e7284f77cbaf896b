"""The studio page at `/` and a finished job's lookup page: server-rendered shells whose
scripts (`static/wordclouds/studio/`, `static/wordclouds/find/`) call only the public /api, so
each page does what any client can."""

import segno
from django.conf import settings
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext, gettext_lazy

from wordclouds.engine.params import PARAMS

# The form's fields and defaults come from the engine's params table, so they cannot drift.
STUDIO_KEYS = (
    "MASK_THRESHOLD",
    "N_REPETITIONS",
    "MARGIN",
    "PREFER_HORIZONTAL",
    "VERTICAL_STYLE",
    "PALETTE",
    "BACKGROUND_COLOR",
    "SKIP_ROWS",
    "RELATIVE_SCALING",
    "LOCALE",
    "NAME_GAP",  # shown when the engine has it
    "PRINT_WIDTH_MM",
    "MIN_NAME_PT",
    "MASK_TEXT_SPACING",
)
LOCALE_LABELS = {
    "zh-Hans": gettext_lazy("Simplified Chinese"),
    "zh-Hant": gettext_lazy("Traditional Chinese"),
    "ja": gettext_lazy("Japanese"),
    "ko": gettext_lazy("Korean"),
}
VERTICAL_STYLE_LABELS = {
    "rotate": gettext_lazy("rotated 90°"),
    "stack": gettext_lazy("upright, stacked"),
    "auto": gettext_lazy("auto: stacked CJK, rotated others"),
}


def studio(request):
    # each key's declaration (its bounds, choices) and default, as the template reads them
    keys = {
        name: {**vars(PARAMS[name]), "default": PARAMS.default(PARAMS[name])}
        for name in STUDIO_KEYS
        if name in PARAMS.names
    }
    locales = [(code, LOCALE_LABELS.get(code, code)) for code in keys["LOCALE"]["choices"]]
    vertical_styles = [
        (choice, VERTICAL_STYLE_LABELS.get(choice, choice))
        for choice in keys["VERTICAL_STYLE"]["choices"]
    ]
    return render(
        request,
        "wordclouds/studio.html",
        {"keys": keys, "locales": locales, "vertical_styles": vertical_styles},
    )


def find(request, job_id: str):
    """The lookup page of a finished job; its scripts (`static/wordclouds/find/`) read the
    job through the public /api, so an unknown job is said there, as the API says it. Its
    link and QR code are at PUBLIC_BASE_URL (else the request's own address, on an allowed
    host), never where a forged Host header points."""
    base = settings.PUBLIC_BASE_URL or request.build_absolute_uri("/").rstrip("/")
    page_url = f"{base}{request.path}"
    qr_svg = segno.make(page_url, error="m").svg_inline(
        scale=4, title=gettext("QR code of this page")
    )
    return render(
        request, "wordclouds/find.html", {"job_id": job_id, "page_url": page_url, "qr_svg": qr_svg}
    )


urlpatterns = [
    path("", studio, name="studio"),
    path("jobs/<str:job_id>/find", find, name="find"),
]
