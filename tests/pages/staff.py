"""Signing staff in on a page, as a person does: the admin password in the page's sign-in
form (static/staff-session.js keeps the token for the tab, so one sign-in serves the
studio, the lookup page and the orders pages)."""

from django.conf import settings
from playwright.sync_api import expect


def staff_sign_in(page) -> None:
    """On a page showing the staff sign-in (the studio, the orders pages), in whichever
    language the page is in."""
    form = page.locator("#staff-sign-in")
    form.locator("input[type=password]").fill(settings.ORDERS_ADMIN_PASSWORD)
    form.locator("button[type=submit]").click()
    expect(form).to_be_hidden()
