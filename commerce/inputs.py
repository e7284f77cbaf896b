"""The commerce API's request bodies and list queries, declared once in the service's language of inputs
(core/inputs.py): each body's fields, bounds and refusals, from which the views read it, the
schema (commerce/api/serializers.py names each body's component) and docs/commerce.md's
tables come. Every refusal is a 400 `invalid_field`; a body refuses unknown keys, so a client
cannot slip in a user id or an amount. Absent optional fields are left out: the service sets
its own value on a create and keeps the stored one on an update."""

import dataclasses
from collections.abc import Mapping

from commerce.models import Order, Payment, Product
from core.inputs import (
    Boolean,
    Choice,
    Field,
    Inputs,
    Items,
    Nullable,
    Number,
    Object,
    Pattern,
    Refused,
    Text,
    nullable,
    said_alike,
)
from exports.production import SIZE_MAX_MM, SIZE_MIN_MM

CODE = "invalid_field"
# Ids are the database's signed 64-bit integers: a larger one names no record, and is refused
# naming its field before it reaches the database (which would overflow).
MAX_ID = 2**63 - 1
ID_WORDING = "must be an integer from 1 to 2^63-1"
MAX_QUANTITY = 999
MAX_ORDER_LINES = 100
MAX_DESIGN_ITEMS = 200
MAX_PRICE = 100_000_000  # fen


def _body(description: str, *fields: Field, optional: tuple[str, ...] = ()) -> Object:
    """A JSON body of these fields, those not `optional` required."""
    return Object(
        "",
        description,
        code=CODE,
        fields=fields,
        refusal="body must be a JSON object",
        unknown="unknown field: {key}",
        missing_key="{key} is required",
        optional=tuple((name, None) for name in optional),
        sent_only=True,
    )


def _text(name: str, high: int | None = None, *, blank: bool = False, **declared) -> Text:
    """A text trimmed at both ends, refused when empty once trimmed (unless `blank`)."""
    return Text(
        name,
        declared.pop("description", ""),
        code=CODE,
        high=high,
        trim=True,
        empty="" if blank else "{name} must not be empty",
        nul="{name}: Null characters are not allowed.",
        nul_code=CODE,
        surrogate="{name}: Surrogate characters are not allowed.",
        too_long="{name}: Ensure this field has no more than {high} characters.",
        too_long_code=CODE,
        **declared,
    )


BELOW = "{name}: Ensure this value is greater than or equal to {low}."
ABOVE = "{name}: Ensure this value is less than or equal to {high}."


def _id(name: str, attribute: str, description: str, **declared) -> Number:
    """A record's id: the database's signed 64-bit integers from 1."""
    return Number(
        name,
        description,
        code=CODE,
        attribute=attribute,
        **declared,
        low=1,
        high=MAX_ID,
        integer=True,
        high_shown="2^63-1",
        not_number="{name} must be an integer",
        below=f"{{name}} {ID_WORDING}",
        above=f"{{name}} {ID_WORDING}",
    )


def _size(name: str, attribute: str, description: str) -> Nullable:
    return nullable(
        Number(
            name,
            description,
            code=CODE,
            attribute=attribute,
            low=SIZE_MIN_MM,
            high=SIZE_MAX_MM,
            not_number="{name}: A valid number is required.",
            below=BELOW,
            above=ABOVE,
        )
    )


def _flag(name: str, description: str = "", attribute: str = "") -> Boolean:
    return Boolean(
        name,
        description,
        code=CODE,
        attribute=attribute,
        refusal="{name} must be true or false",
        words="true or false",
    )


# ---- identity platform ------------------------------------------------------------------

CODE_BODY = _body("A mini-program code (wx.login's, or a phone number's)", _text("code", 256))

# ---- products and addresses --------------------------------------------------------------

PRODUCT_BODY = _body(
    "A product (staff)",
    _text("name", 100),
    _text("description", blank=True),
    Number(
        "price",
        "fen",
        code=CODE,
        low=0,
        high=MAX_PRICE,
        integer=True,
        not_number="{name} must be an integer",
        below=BELOW,
        above=ABOVE,
    ),
    _flag("active", "listed to anyone (absent on a create: true)"),
    Choice(
        "kind",
        "print or engrave (absent on a create: print)",
        code=CODE,
        choices=tuple(Product.Kind.values),
    ),  # fmt: skip
    _size("widthMm", "width_mm", "the poster's width in production, mm; null: no files"),
    _size("heightMm", "height_mm", "its height, mm, when no width is set (it keeps its aspect)"),
    optional=("description", "active", "kind", "widthMm", "heightMm"),
)

# A digit at each end, digits, spaces and hyphens between, an optional + first, at most 20
# characters in all (so 19 after a +). Not trimmed: the pattern is the whole rule.
PHONE = r"(\+[0-9][0-9 -]{1,17}|[0-9][0-9 -]{1,18})[0-9]"
ADDRESS_BODY = _body(
    "One of the caller's addresses",
    _text("recipient", 50),
    Pattern(
        "phone",
        "",
        code=CODE,
        pattern=PHONE,
        refusal="{name} must be a phone number",
        meaning="a phone number of 3 to 20 characters: digits, with spaces and hyphens "
        "between them, and an optional + first",
    ),
    _text("province", 50),
    _text("city", 50),
    _text("district", 50, blank=True),
    _text("detail", 200),
    _flag(
        "isDefault", "the default address (absent on a create: the user's first is)", "is_default"
    ),
    optional=("district", "isDefault"),
)

# ---- design lists ------------------------------------------------------------------------


# The items of a design list and the lines of an order: a service's rules (the design
# exists and is the caller's, the product is active) are checked after the shape.
def _quantity() -> Number:
    sentence = f"{{name}} must be an integer from 1 to {MAX_QUANTITY}"
    return Number(
        "quantity", "", code=CODE, low=1, high=MAX_QUANTITY, integer=True, **said_alike(sentence)
    )


def _design_entry(design: str) -> Object:
    return Object(
        "item",
        "",
        code=CODE,
        fields=(
            Text(
                design,
                "",
                code=CODE,
                empty="{name} must be a non-empty string",
                not_text="{name} must be a non-empty string",
            ),  # fmt: skip
            _quantity(),
        ),
        refusal="{name} must be an object",
        unknown="{name} has an unknown field: {key}",
        # the design's key is there (DesignItem); only the quantity can be missing
        missing_key=f"{{name}}.{{key}} must be an integer from 1 to {MAX_QUANTITY}",
    )


@dataclasses.dataclass(frozen=True)
class DesignItem(Field):
    """A design list's item: an existing project's or job's id (exactly one), a quantity."""

    refusal: str = "{name} must be an object"
    one_design: str = "{name} needs exactly one of projectId or jobId"

    def parse(self, value, where=None):
        if not isinstance(value, Mapping):
            raise self._refused(self.refusal, where)
        designs = [key for key in DESIGNS if key in value]
        if len(designs) != 1:
            raise self._refused(self.one_design, where)
        return DESIGNS[designs[0]].parse(dict(value), where)

    def schema(self) -> dict:
        return {"oneOf": [entry.schema() for entry in DESIGNS.values()]}

    def accepted(self) -> str:
        return "{projectId or jobId, quantity}"

    def _templates(self):
        return (self.refusal, self.one_design)

    def refusals(self, where=None):
        inner = (s for entry in DESIGNS.values() for s in entry.refusals(where))
        return tuple(dict.fromkeys((*super().refusals(where), *inner)))


DESIGNS = {design: _design_entry(design) for design in ("projectId", "jobId")}
DESIGN_ITEMS = Items(
    "items",
    "designs by an existing projectId or jobId, each with a quantity",
    code=CODE,
    item=DesignItem("item", "", code=CODE),
    high=MAX_DESIGN_ITEMS,
    refusal=f"{{name}} must be an array of at most {MAX_DESIGN_ITEMS} items",
)
DESIGN_LIST_BODY = _body(
    "One of the caller's design lists (absent items: none on a create, unchanged on an update)",
    _text("name", 100),
    DESIGN_ITEMS,
    optional=("items",),
)

# ---- orders ------------------------------------------------------------------------------

ORDER_LINES = Items(
    "items",
    "order lines: each existing, active productId once, with a quantity",
    code=CODE,
    item=Object(
        "line",
        "",
        code=CODE,
        fields=(
            Number(
                "productId",
                "",
                code=CODE,
                low=1,
                high=MAX_ID,
                integer=True,
                **said_alike(f"{{name}} {ID_WORDING}"),
            ),
            _quantity(),
        ),
        refusal="{name} must be an object with productId and quantity",
        words="{productId, quantity}",
    ),
    low=1,
    high=MAX_ORDER_LINES,
    refusal="{name} must be a non-empty array",
    too_many=f"{{name}} must hold at most {MAX_ORDER_LINES} lines",
)
ORDER_BODY = _body(
    "An order of the caller's",
    _id("addressId", "address_id", "one of the caller's addresses"),
    ORDER_LINES,
    nullable(_id("designListId", "design_list_id", "the caller's design list the order prints")),
    nullable(
        _text(
            "requestId",
            64,
            description="the caller's key: a repeat answers the first order",
            attribute="request_id",
        )
    ),
    optional=("designListId", "requestId"),
)


def order_read(body) -> dict:
    """An order's body as order_create takes it: its lines `{product_id, quantity}`, each
    product once; a total sent is refused, the server computes it."""
    if isinstance(body, Mapping) and "totalAmount" in body:
        raise Refused("totalAmount is computed by the server", CODE)
    fields = ORDER_BODY.parse(body)
    lines = [
        {"product_id": line["productId"], "quantity": line["quantity"]} for line in fields["items"]
    ]
    if len({line["product_id"] for line in lines}) != len(lines):
        raise Refused("items must name each productId once", CODE)
    return {**fields, "items": lines}


# ---- the lists' queries ------------------------------------------------------------------

MAX_PAGE = 10**9  # keeps the offset within the database's 64-bit integers
PAGE = Number(
    "page",
    "the page, from 1",
    code=CODE,
    low=1,
    high=MAX_PAGE,
    integer=True,
    not_number="{name} must be an integer of at least 1",
    below="{name} must be an integer of at least 1",
    above="{name} must be at most {high}",
)
PAGE_SIZE = Number(
    "pageSize",
    "orders or payments a page",
    code=CODE,
    attribute="page_size",
    low=1,
    high=100,
    integer=True,
    **said_alike("{name} must be an integer from 1 to {high}"),
)


@dataclasses.dataclass(frozen=True)
class OrderQuery:
    page: int = 1
    page_size: int = 20
    status: str | None = None
    payment_status: str | None = None
    search: str | None = None


ORDER_QUERY = Inputs(
    OrderQuery,
    (
        PAGE,
        PAGE_SIZE,
        Choice(
            "status",
            "orders in this status",
            code=CODE,
            choices=tuple(Order.Status.values),
            absent="every status",
        ),
        Choice(
            "paymentStatus",
            "orders with a payment in this status",
            code=CODE,
            attribute="payment_status",
            choices=tuple(Payment.Status.values),
            absent="any or no payment",
        ),
        # the staff page's search box
        Text(
            "search",
            "an order's id, or part of a requestId (any case)",
            code=CODE,
            high=64,
            too_long_code=CODE,
            nul="{name}: Null characters are not allowed.",
            nul_code=CODE,
            absent="every order",
        ),
    ),
    once=True,
)


@dataclasses.dataclass(frozen=True)
class PaymentQuery:
    page: int = 1
    page_size: int = 20
    needs_attention: bool | None = None
    order_id: int | None = None


PAYMENT_QUERY = Inputs(
    PaymentQuery,
    (
        PAGE,
        PAGE_SIZE,
        Boolean(
            "needsAttention",
            "payments that need staff's attention (true) or not (false)",
            code=CODE,
            attribute="needs_attention",
            absent="both",
        ),
        _id("orderId", "order_id", "the order's payments", absent="every order's"),
    ),
    once=True,
)
