"""Status pipelines (core/pipeline.py): every model with a status declares its moves, `move`
refuses every undeclared one with nothing changed, and no code outside `move` writes a status.
"""

import ast

import pytest
from django.apps import apps
from django.db import transaction

from commerce.models import DesignList, EndUser, Order, Payment, Refund
from core.errors import Conflict
from core.pipeline import move
from tests.processes import BASE_DIR
from wordclouds.models import Job

pytestmark = pytest.mark.django_db
PROJECT_CODE = ["config", "core", "wordclouds", "commerce", "exports"]


def models_with_status():
    return [
        model for model in apps.get_models() if "status" in {f.name for f in model._meta.fields}
    ]


def test_every_model_with_a_status_declares_its_pipeline():
    assert {model.__name__ for model in models_with_status()} == {
        "Job",
        "DesignList",
        "Order",
        "Payment",
        "Refund",
        "Preparation",
    }
    for model in models_with_status():
        statuses = set(model.Status.values)
        default = model._meta.get_field("status").default
        targets = {declared.to for declared in model.pipeline.values()}
        for verb, declared in model.pipeline.items():
            assert declared.sources <= statuses and declared.to in statuses, (model, verb)
        # Born in the default, every other status is reached by a declared move.
        assert statuses == targets | {default}, model


def _records() -> dict:
    """A saved record of each model with a status (the caller sets the status under test)."""
    user = EndUser.objects.create(openid="openid-pipeline")
    order = Order.objects.create(user=user, address={"recipient": "Li Lei"})
    payment = Payment.objects.create(order=order, out_trade_no="P1_pipeline", amount=4900)
    return {
        Job: Job.objects.create(name_list="names.xlsx"),
        DesignList: DesignList.objects.create(user=user, name="Class of 2026"),
        Order: order,
        Payment: payment,
        Refund: Refund.objects.create(
            payment=payment, out_refund_no="R1_pipeline", amount=4900, reason="test"
        ),
    }


UNDECLARED = [
    (model, verb, status)
    for model in (Job, DesignList, Order, Payment, Refund)
    for verb, declared in model.pipeline.items()
    for status in model.Status.values
    if status not in declared.sources
]


@pytest.mark.parametrize(
    "model, verb, status",
    UNDECLARED,
    ids=[f"{model.__name__}-{verb}-from-{status}" for model, verb, status in UNDECLARED],
)
def test_an_undeclared_move_is_refused_and_changes_nothing(model, verb, status):
    record = _records()[model]
    # The test puts the record in the status under test; the code under test never does.
    model.objects.filter(pk=record.pk).update(status=status)
    before = model.objects.filter(pk=record.pk).values().get()

    with transaction.atomic():
        locked = model.objects.select_for_update().get(pk=record.pk)
        with pytest.raises(Conflict) as refused:
            move(locked, verb, stamp="created_at")

    subject = model._meta.verbose_name
    assert refused.value.detail == f"{subject} cannot be {verb} in status {status}"
    assert model.objects.filter(pk=record.pk).values().get() == before


@pytest.mark.parametrize(
    "model", [Job, DesignList, Order, Payment, Refund], ids=lambda m: m.__name__
)
def test_a_declared_move_changes_the_status_the_stamp_and_the_fields_together(model):
    record = _records()[model]
    verb, declared = next(iter(model.pipeline.items()))
    source = sorted(declared.sources)[0]
    model.objects.filter(pk=record.pk).update(status=source)
    before = model.objects.get(pk=record.pk)

    with transaction.atomic():
        move(model.objects.select_for_update().get(pk=record.pk), verb, stamp="created_at")

    after = model.objects.get(pk=record.pk)
    assert after.status == declared.to
    assert after.created_at > before.created_at and after.updated_at > before.updated_at


WRITERS = {"create", "update", "get_or_create", "update_or_create", "bulk_create", "bulk_update"}
# Lines that name a status without changing one, each with why.
NOT_A_MOVE = {
    ("wordclouds/api/health.py", "_store.update(status="): "a dict: the store check's answer",
    ("wordclouds/management/commands/media_to_store.py", "Job.objects.create("): (
        "the record of a job that finished before it had one: nothing moves"
    ),
}


class StatusWrites(ast.NodeVisitor):
    """Lines that set a status other than through core.pipeline.move: `x.status = ...`,
    `setattr(x, "status", ...)`, `status=` given to a model, a create or an update (or in
    their `defaults`). `self.status` of a class that is not a model (an HTTP error's status)
    is not a model's."""

    def __init__(self):
        self.models = {model.__name__ for model in models_with_status()}
        self.lines, self.in_model = [], [False]

    def visit_ClassDef(self, node):
        bases = {getattr(base, "attr", None) or getattr(base, "id", None) for base in node.bases}
        self.in_model.append("Model" in bases or bool(bases & self.models))
        self.generic_visit(node)
        self.in_model.pop()

    def visit_Assign(self, node):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for element in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(element, ast.Attribute) and element.attr == "status":
                    owner = getattr(element.value, "id", None)
                    if owner != "self" or self.in_model[-1]:
                        self.lines.append(node.lineno)
        self.generic_visit(node)

    visit_AugAssign = visit_AnnAssign = visit_Assign

    def visit_Call(self, node):
        callee = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
        names_status = callee == "setattr" and any(
            isinstance(a, ast.Constant) and a.value == "status" for a in node.args
        )
        for keyword in node.keywords if callee in WRITERS | self.models else []:
            defaults = keyword.value if keyword.arg == "defaults" else None
            names_status = (
                names_status
                or keyword.arg == "status"
                or (
                    isinstance(defaults, ast.Dict)
                    and any(
                        isinstance(k, ast.Constant) and k.value == "status" for k in defaults.keys
                    )
                )
            )
        if names_status:
            self.lines.append(node.lineno)
        self.generic_visit(node)


def status_writes(code: str) -> list[int]:
    reader = StatusWrites()
    reader.visit(ast.parse(code))
    return reader.lines


def test_no_code_sets_a_status_outside_the_mover():
    found = []
    for folder in PROJECT_CODE:
        for path in sorted((BASE_DIR / folder).rglob("*.py")):
            if "migrations" in path.parts or path == BASE_DIR / "core" / "pipeline.py":
                continue
            name, code = str(path.relative_to(BASE_DIR)), path.read_text()
            for line in status_writes(code):
                text = code.splitlines()[line - 1].strip()
                if not any(name == file and text.startswith(start) for file, start in NOT_A_MOVE):
                    found.append(f"{name}:{line}: {text}")

    assert found == []


@pytest.mark.parametrize(
    "code",
    [
        "order.status = Order.Status.PAID",
        "order.status, order.paid_at = 'PAID', now",
        "setattr(order, 'status', 'PAID')",
        "Order.objects.filter(pk=1).update(status='PAID')",
        "Payment.objects.create(order=order, status='SUCCESS')",
        "Refund(payment=payment, status='SUCCESS')",
        "Payment.objects.get_or_create(out_trade_no='x', defaults={'status': 'OPEN'})",
    ],
)
def test_the_reader_of_the_code_finds_each_way_of_setting_a_status(code):
    assert status_writes(code) == [1]


def test_the_reader_of_the_code_leaves_reads_alone():
    code = "Order.objects.filter(status='PAID').exclude(status='X'); x = order.status"
    assert status_writes(code) == []
