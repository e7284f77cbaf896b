"""Small pieces of admin HTML shared by every app's admin: thumbnails, linked tables of rows,
money in yuan; and the base of the admins staff only look at. Everything goes through
format_html, so stored values are escaped."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext

# Sized by a class of static/admin-images.css (templates/admin/base_site.html): no style
# attribute, which the pages' Content-Security-Policy refuses.
IMAGE = '<img src="{}" alt="{}" loading="lazy" class="admin-image admin-image-{}">'


def image(url: str, alt: str, size: str = "thumbnail"):
    """`size`: thumbnail (64 px) or preview (480 px)."""
    return format_html(IMAGE, url, alt, size)


def linked_image(url: str, alt: str):
    """The preview, opening at full size in a new tab."""
    return format_html('<a href="{}" target="_blank">{}</a>', url, image(url, alt, "preview"))


def change_url(model, pk) -> str:
    """The admin page of one row of `model`."""
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])


def linked_row(model, pk, obj):
    """A link to the row's admin page, or the bare key when the row is gone."""
    if obj is None:
        return gettext("%s (gone)") % pk
    return format_html('<a href="{}">{}</a>', change_url(model, pk), obj)


def table(headers: list[str] | None, rows: list[tuple]):
    """A read-only table (headers None: rows of label and value); cells are already-safe
    HTML or plain text (escaped)."""
    if not rows:
        return "-"
    head = (
        format_html(
            "<thead><tr>{}</tr></thead>",
            format_html_join("", "<th>{}</th>", ((header,) for header in headers)),
        )
        if headers
        else ""
    )
    body = format_html_join(
        "",
        "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows),
    )
    return format_html("<table>{}<tbody>{}</tbody></table>", head, body)


def yuan(fen: int | None) -> str:
    """Money as the shop shows it: fen stored, yuan with two decimals shown (¥49.00)."""
    if fen is None:
        return "-"
    return f"¥{fen // 100:,}.{fen % 100:02d}"


class ViewOnlyAdmin(admin.ModelAdmin):
    """Rows that other parts of the service make and change (the platforms, the order moves):
    staff look, never add, change or delete one."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
