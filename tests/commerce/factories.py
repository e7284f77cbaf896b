"""Small factories for commerce tests."""

from rest_framework.test import APIClient

from commerce.auth import user_token_issue
from commerce.models import Address, DesignList, EndUser, Order, Product


def client_with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def user_client(openid: str) -> APIClient:
    """An API client carrying the end-user token of a new user (as after their login)."""
    user = EndUser.objects.create(openid=openid, session_key=f"sk-{openid}")
    client = client_with(user_token_issue(user))
    client.user = user
    return client


def make_product(name: str = "Poster A3", price: int = 4900, active: bool = True) -> Product:
    return Product.objects.create(name=name, price=price, active=active)


def make_address(user: EndUser, recipient: str = "Li Lei") -> Address:
    return Address.objects.create(
        user=user,
        recipient=recipient,
        phone="13800138000",
        province="Guangdong",
        city="Shenzhen",
        district="Nanshan",
        detail="1 Keyuan Road",
    )


def make_design_list(user: EndUser, status: str = DesignList.Status.DRAFT) -> DesignList:
    return DesignList.objects.create(user=user, name="Class of 2026", status=status)


def make_order(user: EndUser, status: str = Order.Status.PENDING, **fields) -> Order:
    return Order.objects.create(
        user=user, status=status, total_amount=4900, address={"recipient": "Li Lei"}, **fields
    )
