"""The staff orders pages: `/orders` (every order) and `/orders/<id>` (one order). They are
shells; their scripts (`static/commerce/`) sign in with POST /api/login and read and move
orders through the public /api only, so they show what an API client gets."""

from django.shortcuts import render
from django.urls import path

from commerce.models import Order


def orders(request):
    return render(request, "commerce/orders.html", {"statuses": Order.Status.choices})


def order(request, order_id: int):
    return render(request, "commerce/order.html", {"order_id": order_id})


urlpatterns = [
    path("orders", orders, name="orders"),
    path("orders/<int:order_id>", order, name="order"),
]
