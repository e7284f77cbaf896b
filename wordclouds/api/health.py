from django.db import DatabaseError
from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from config.serializers import UtcDateTimeField
from wordclouds.services.worker import worker_status

WORKER = inline_serializer("HealthWorker", {
    "alive": serializers.BooleanField(),
    "last_heartbeat": UtcDateTimeField(allow_null=True),
    "queued": serializers.IntegerField(),
    "oldest_queued_seconds": serializers.FloatField(allow_null=True),
})
HEALTH = inline_serializer("Health", {"ok": serializers.BooleanField(), "worker": WORKER})


@extend_schema(responses={200: HEALTH, 503: HEALTH})
@api_view(["GET"])
def health(request):
    """200 {"ok": true, "worker": {...}} while the database answers and a worker was seen
    within WORKER_DEAD_SECONDS (its last heartbeat, the queued jobs and the age of the oldest);
    503 {"ok": false} otherwise."""
    try:
        worker = worker_status()
    except DatabaseError:
        return Response({"ok": False}, status=503)
    ok = worker["alive"]
    if worker["last_heartbeat"]:
        worker["last_heartbeat"] = UtcDateTimeField().to_representation(worker["last_heartbeat"])
    return Response({"ok": ok, "worker": worker}, status=200 if ok else 503)


urlpatterns = [path("health", health, name="health")]
