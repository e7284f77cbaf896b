"""Products (staff) and the end user's addresses."""

from django.db import transaction

from commerce.models import Address, EndUser, Product
from commerce.selectors import address_get, product_get


@transaction.atomic
def product_create(*, name: str, price: int, **fields) -> Product:
    """`fields`: description, active, kind, width_mm, height_mm (the model's defaults)."""
    return Product.objects.create(name=name, price=price, **fields)


@transaction.atomic
def product_update(*, product_id: int, changes: dict) -> Product:
    product = product_get(product_id=product_id, lock=True)
    for field, value in changes.items():
        setattr(product, field, value)
    product.save(update_fields=[*changes, "updated_at"])
    return product


def _lock_owner(user: EndUser) -> None:
    """Serialises one user's address writes, so "one default" holds under concurrency
    (the partial unique constraint is the backstop)."""
    EndUser.objects.select_for_update().filter(pk=user.pk).first()


def _clear_default(user: EndUser) -> None:
    user.addresses.filter(is_default=True).update(is_default=False)


@transaction.atomic
def address_create(*, user: EndUser, fields: dict) -> Address:
    """The user's first address becomes the default one."""
    _lock_owner(user)
    is_default = (
        fields.pop("is_default", False) or not user.addresses.filter(is_default=True).exists()
    )
    if is_default:
        _clear_default(user)
    return Address.objects.create(user=user, is_default=is_default, **fields)


@transaction.atomic
def address_update(*, user: EndUser, address_id: int, changes: dict) -> Address:
    _lock_owner(user)
    address = address_get(user=user, address_id=address_id)
    if changes.get("is_default"):
        _clear_default(user)
    for field, value in changes.items():
        setattr(address, field, value)
    address.save(update_fields=[*changes, "updated_at"])
    return address


@transaction.atomic
def address_delete(*, user: EndUser, address_id: int) -> None:
    _lock_owner(user)
    address_get(user=user, address_id=address_id).delete()
