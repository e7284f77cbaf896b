"""Demo data for trying the commerce side on a fresh install: an end user (with a printed
token), products, an address, a small word-cloud job, design lists and one order in each
state (with PROOF_APPROVAL_REQUIRED, on by default, no order names a design list: the job has
no approved proof; docs/proofs.md). Everything goes through the same service functions as the API, so the data obeys
the same rules (snapshots, totals, state moves).

The end user's openid is `dev-demo`: with the stand-in identity platform (IDENTITY_STANDIN),
`POST /api/auth/login {"code": "demo"}` logs in as the same user."""

import io
import json

import openpyxl
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from django.utils import timezone

from commerce.auth import Caller, user_token_issue
from commerce.models import EndUser
from commerce.services.catalog import address_create, product_create
from commerce.services.design_lists import design_list_create
from commerce.services.orders import (
    order_cancel,
    order_confirm,
    order_create,
    order_mark_paid,
    order_ship,
)
from core.identity import customer_identity
from wordclouds.services.designs import job_create

DEMO_OPENID = "dev-demo"
PRODUCTS = [
    ("Poster A2, matte", "Word-cloud poster, 420 × 594 mm", 12900),
    ("Poster A3, matte", "Word-cloud poster, 297 × 420 mm", 6900),
    ("Oak frame A3", "Solid oak, glass front", 8900),
]
NAMES = [
    "李雷",
    "韩梅梅",
    "王芳",
    "张伟",
    "刘洋",
    "陈静",
    "Anna",
    "Bruno",
    "Chloé",
    "Dmitri",
    "Émile",
    "Fatima",
    "Giulia",
    "Hiro",
    "Ingrid",
    "Jonas",
]


class Command(BaseCommand):
    help = "Create demo commerce data (an end user with a token, products, orders in each state)."

    def handle(self, *args, **options):
        user, created = EndUser.objects.get_or_create(
            openid=DEMO_OPENID, defaults={"session_key": "demo", "last_login_at": timezone.now()}
        )
        if created or not user.orders.exists():
            self._fill(user)
        else:
            self.stdout.write("the demo user already has orders; nothing added")
        self.stdout.write(
            f"end user {user.pk} (openid {DEMO_OPENID}); token:\n{user_token_issue(user)}"
        )

    def _fill(self, user: EndUser) -> None:
        products = [
            product_create(name=name, description=text, price=price)
            for name, text, price in PRODUCTS
        ]
        address = address_create(
            user=user,
            fields={
                "recipient": "李雷",
                "phone": "13800138000",
                "province": "广东省",
                "city": "深圳市",
                "district": "南山区",
                "detail": "科苑路 1 号",
            },
        )
        job = job_create(  # the demo user's own: a design list names only its holder's jobs
            owner=customer_identity(user.pk).owner_key,
            params=json.dumps({"WIDTH": 800, "HEIGHT": 600, "SEED": 7}),
            name_list=_names_upload(),
        )
        design_lists = [
            design_list_create(
                user=user,
                name=f"Class of 2026, set {number}",
                items=[{"jobId": job.id, "quantity": number}],
            )
            for number in (1, 2)
        ]

        # the job has no approved proof: with approval required, no list can be ordered
        ordered = [None, None] if settings.PROOF_APPROVAL_REQUIRED else design_lists

        def order(number: int, *lines, design_list=None):
            made, _ = order_create(
                user=user,
                address_id=address.pk,
                request_id=f"demo-{number}",
                items=[
                    {"product_id": products[index].pk, "quantity": quantity}
                    for index, quantity in lines
                ],
                design_list_id=design_list.pk if design_list else None,
            )
            return made.pk

        pending = order(1, (0, 1), design_list=ordered[0])
        paid = order(2, (1, 2))
        shipped = order(3, (1, 1), (2, 1), design_list=ordered[1])
        completed = order(4, (0, 1))
        cancelled = order(5, (2, 1))
        for order_id in (paid, shipped, completed):
            order_mark_paid(order_id=order_id)
        for order_id in (shipped, completed):
            order_ship(order_id=order_id)
        order_confirm(user=user, order_id=completed)
        order_cancel(caller=Caller(user=user), order_id=cancelled)
        self.stdout.write(
            f"{len(products)} products, 1 address, job {job.id} (the worker draws it), "
            f"2 design lists, orders {pending} PENDING, {paid} PAID, {shipped} SHIPPED, "
            f"{completed} COMPLETED, {cancelled} CANCELLED"
        )


def _names_upload() -> SimpleUploadedFile:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["name"])
    for name in NAMES * 3:
        sheet.append([name])
    data = io.BytesIO()
    book.save(data)
    return SimpleUploadedFile(
        "names.xlsx",
        data.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
