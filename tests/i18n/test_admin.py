"""The admin in Simplified Chinese: every project-defined label (models, fields, help texts,
list columns, filters, actions) of jobs, templates, fonts, products, orders, design lists and
the other project models is translated in the catalog, and the list and change pages render
the translation, not the English (Django's own strings come with Django)."""

from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.core.exceptions import FieldDoesNotExist
from django.test import RequestFactory
from django.utils import translation
from django.utils.text import capfirst

from commerce.models import OrderItem
from tests.commerce.factories import make_design_list, make_order, make_product, user_client
from wordclouds.models import Font, Job, Template

pytestmark = pytest.mark.django_db
PROJECT_APPS = ("wordclouds", "commerce")
CHINESE = "zh-hans"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def rows(db):
    """One row of each model the issue names (the built-in templates come with migrations)."""
    user = user_client("openid-i18n").user
    product = make_product()
    order = make_order(user)
    OrderItem.objects.create(
        order=order,
        product=product,
        product_name=product.name,
        unit_price=4900,
        quantity=1,
        subtotal=4900,
    )
    return {
        Job: Job.objects.create(name_list="names.xlsx", status="success", stage="done"),
        Template: Template.objects.first(),
        Font: Font.objects.create(name="A font", family="A", filename="a.ttf", file="fonts/a.ttf"),
        type(product): product,
        type(order): order,
        type(design_list := make_design_list(user)): design_list,
    }


def project_admins():
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in PROJECT_APPS
    ]


def both(text) -> tuple[str, str]:
    """A label in English and in Chinese."""
    with translation.override("en"):
        english = str(text)
    with translation.override(CHINESE):
        return english, str(text)


def labels(model, model_admin, request, obj) -> dict[str, str]:
    """English label -> its Chinese, for what the admin's list page (obj None) or change
    page of `model` shows that the project defines (fields Django makes itself, such as an
    automatic id, are Django's)."""

    def project_field(name):
        try:
            return not model._meta.get_field(name).auto_created
        except FieldDoesNotExist:
            return True  # an admin method or form field: the project's

    form = SimpleNamespace(fields=model_admin.get_form(request, obj).base_fields)
    if obj is None:
        names = [name for name in model_admin.get_list_display(request) if name != "__str__"]
        names += [name for name in model_admin.get_list_filter(request) if isinstance(name, str)]
        texts = [model._meta.verbose_name_plural]
        texts += [
            description
            for _, name, description in model_admin.get_actions(request).values()
            if name != "delete_selected"  # Django's
        ]
    else:
        names = list(model_admin.get_fields(request, obj))
        texts = [model._meta.verbose_name]
        for name in names:
            try:
                texts.append(model._meta.get_field(name).help_text)
            except FieldDoesNotExist:
                continue
    found = dict(both(text) for text in texts if text)
    for name in filter(project_field, dict.fromkeys(names)):
        if name in form.fields and not hasattr(model_admin, name) and not hasattr(model, name):
            found.update([both(form.fields[name].label)])  # a form's own field (price in yuan)
        else:
            with translation.override("en"):
                english = str(label_for_field(name, model, model_admin))
            with translation.override(CHINESE):
                found[english] = str(label_for_field(name, model, model_admin))
    return found


# Labels that read the same in both languages.
SAME = {"ID", "x", "y", "#", "%", "OpenID", "UnionID"}


def test_every_project_label_of_the_admin_is_translated_and_shown(admin_client, admin_user, rows):
    admin_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-CN,zh;q=0.9"
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    untranslated, missing, english_left = [], [], []
    visited = 0
    for model, model_admin in project_admins():
        meta = model._meta
        pages = [(f"/admin/{meta.app_label}/{meta.model_name}/", None)]
        if (obj := rows.get(model)) is not None:
            pages.append((f"/admin/{meta.app_label}/{meta.model_name}/{obj.pk}/change/", obj))
        for url, obj in pages:
            response = admin_client.get(url)
            assert response.status_code == 200, url
            html = response.content.decode()
            assert '<html lang="zh-hans"' in html, url
            visited += 1
            for english, chinese in labels(model, model_admin, request, obj).items():
                if english == chinese and english not in SAME:
                    untranslated.append(f"{meta.model_name}: {english!r}")
                elif obj is None and english in (
                    str(meta.verbose_name),
                    str(meta.verbose_name_plural),
                ):
                    continue  # the list page names the model in the plural only
                elif model in rows and chinese not in html:  # an empty list shows no columns
                    missing.append(f"{url}: {chinese!r} ({english!r})")
                elif english != chinese and f">{capfirst(english)}" in html:
                    english_left.append(f"{url}: {english!r}")

    assert visited >= 6 + len(rows)
    assert untranslated == [], "labels with no Chinese (docs/i18n.md, 'Adding a string')"
    assert missing == [], f"translated labels the admin's pages do not show: {missing}"
    assert english_left == [], f"labels the admin's pages still show in English: {english_left}"


def test_an_admin_action_speaks_chinese(admin_client, rows):
    order = next(obj for model, obj in rows.items() if model._meta.model_name == "order")
    admin_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-CN"

    response = admin_client.post(
        "/admin/commerce/order/",
        {"action": "mark_paid", "_selected_action": [order.pk]},
        follow=True,
    )

    assert "1 个已标记为已付款" in response.content.decode()
    assert "标记为已付款（待付款 → 已付款）" in response.content.decode()
