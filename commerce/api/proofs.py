"""Proofs (docs/proofs.md): POST/GET /api/jobs/{id}/proofs (the job's owner or staff) send a
finished job as a proof (or as its proof's next version) and list its proofs; the link's
token opens the rest to whoever holds it: GET /api/proofs/{token}, its comments and
decisions; DELETE revokes it (the owner or staff), after which it answers 410."""

from django.conf import settings
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from commerce.models import Proof, ProofComment, ProofDecision
from commerce.services.proofs import (
    PROOF_COMMENT,
    PROOF_DECISION,
    PROOF_SEND,
    proof_comment,
    proof_decide,
    proof_get,
    proof_revision,
    proof_revoke,
    proof_send,
    proofs_of_job,
    terms_text,
)
from core.addresses import client_address
from core.identity import request_identity
from core.schema import error
from core.serializers import UtcDateTimeField, WithInputs
from core.throttles import request_client
from core.views import JsonApiView

TAGS = ["proofs"]


class ProofSendIn(WithInputs):
    inputs = PROOF_SEND


class ProofCommentIn(WithInputs):
    inputs = PROOF_COMMENT


class ProofDecisionIn(WithInputs):
    inputs = PROOF_DECISION


class ProofVersionOut(serializers.Serializer):
    version = serializers.IntegerField()
    job_id = serializers.CharField()
    created_at = UtcDateTimeField()
    changes = serializers.DictField(
        help_text="what the revision changed since its parent, by name: counts, and per "
        "kind its words ({id, name}; a renamed one with `from`); {} for a first layout"
    )
    proof_image = serializers.CharField(help_text="the revision's proof image (changes outlined)")


class ProofCommentOut(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(source="version.version")
    word_id = serializers.IntegerField(allow_null=True)
    x = serializers.FloatField(allow_null=True)
    y = serializers.FloatField(allow_null=True)
    kind = serializers.CharField()
    text = serializers.CharField()
    spelling = serializers.CharField()
    created_at = UtcDateTimeField()


class ProofDecisionOut(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(source="version.version")
    decision = serializers.CharField()
    name = serializers.CharField()
    role = serializers.CharField()
    terms = serializers.CharField()
    svg_sha256 = serializers.CharField()
    db_sha256 = serializers.CharField()
    created_at = UtcDateTimeField()


class ProofOut(serializers.Serializer):
    proof_id = serializers.IntegerField(source="pk")
    url = serializers.SerializerMethodField()
    approvals_needed = serializers.IntegerField()
    roles = serializers.ListField(child=serializers.CharField())
    note = serializers.CharField()
    created_at = UtcDateTimeField()
    revoked_at = UtcDateTimeField(allow_null=True)
    versions = serializers.SerializerMethodField()
    comments = serializers.SerializerMethodField()
    approvals = serializers.SerializerMethodField()
    decisions = serializers.SerializerMethodField()
    approval_required = serializers.SerializerMethodField()
    terms = serializers.SerializerMethodField(
        help_text="what an approver ticks, by language: the decision records it as shown"
    )

    def get_url(self, proof: Proof) -> str:
        return f"/proofs/{proof.token}"

    @extend_schema_field(ProofVersionOut(many=True))
    def get_versions(self, proof: Proof) -> list:
        versions = [
            {**vars(v), "proof_image": f"/api/jobs/{v.job_id}/proof.png?inline=1"}
            for v in proof.versions.all()
        ]
        return ProofVersionOut(versions, many=True).data

    @extend_schema_field(ProofCommentOut(many=True))
    def get_comments(self, proof: Proof) -> list:
        return ProofCommentOut(_of(proof, "comments"), many=True).data

    @extend_schema_field(ProofDecisionOut(many=True))
    def get_decisions(self, proof: Proof) -> list:
        return ProofDecisionOut(_of(proof, "decisions"), many=True).data

    @extend_schema_field(ProofDecisionOut(many=True))
    def get_approvals(self, proof: Proof) -> list:
        approvals = [d for d in _of(proof, "decisions") if d.decision == "approve"]
        return ProofDecisionOut(approvals, many=True).data

    def get_approval_required(self, proof: Proof) -> bool:
        return settings.PROOF_APPROVAL_REQUIRED

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_terms(self, proof: Proof) -> dict:
        return {code: terms_text(code) for code, _ in settings.LANGUAGES}


def _of(proof: Proof, records: str) -> list:
    """The proof's comments or decisions, oldest first, with their versions."""
    model = ProofComment if records == "comments" else ProofDecision
    return list(model.objects.filter(version__proof=proof).select_related("version"))


class ProofCreatedOut(serializers.Serializer):
    proof_id = serializers.IntegerField()
    url = serializers.CharField()
    version = serializers.IntegerField()


GONE = error("`this proof's link was revoked`")
UNKNOWN = error("`proof not found`")


class JobProofsView(JsonApiView):
    @extend_schema(
        request=ProofSendIn,
        responses={
            201: ProofCreatedOut,
            400: error("a bad field, named"),
            404: error("`job not found`"),
            409: error(
                "`only a finished poster can be sent as a proof; ...` / `job ... is already version 1 of proof 3`"
            ),
        },
        tags=TAGS,
        summary="Send a finished job as a proof, or a revision of a proofed job as its next version",
    )
    def post(self, request, job_id: str):
        proof, version = proof_send(
            job_id=job_id, caller=request_identity(request), body=request.data
        )
        shown = {"proof_id": proof.pk, "url": f"/proofs/{proof.token}", "version": version.version}
        return Response(ProofCreatedOut(shown).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: ProofOut(many=True), 404: error("`job not found`")},
        tags=TAGS,
        summary="The proofs a job is a version of or descends from (its owner or staff)",
    )
    def get(self, request, job_id: str):
        proofs = proofs_of_job(job_id=job_id, caller=request_identity(request))
        return Response(ProofOut(proofs, many=True).data)


class ProofView(JsonApiView):
    @extend_schema(
        responses={200: ProofOut, 404: UNKNOWN, 410: GONE},
        tags=TAGS,
        summary="A proof by its link's token: versions, comments, approvals",
    )
    def get(self, request, token: str):
        return Response(ProofOut(proof_get(token=token)).data)

    @extend_schema(
        responses={204: None, 404: UNKNOWN, 410: GONE},
        tags=TAGS,
        summary="Revoke the link: its page and API answer 410 (the job's owner or staff)",
    )
    def delete(self, request, token: str):
        proof_revoke(token=token, caller=request_identity(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProofCommentsView(JsonApiView):
    @extend_schema(
        request=ProofCommentIn,
        responses={201: ProofCommentOut, 400: error("a bad field, named"), 404: UNKNOWN, 410: GONE},
        tags=TAGS,
        summary="A comment pinned to a name or a point of a version",
    )
    def post(self, request, token: str):
        comment = proof_comment(token=token, body=request.data)
        return Response(ProofCommentOut(comment).data, status=status.HTTP_201_CREATED)


class ProofDecisionView(JsonApiView):
    @extend_schema(
        request=ProofDecisionIn,
        responses={
            201: ProofDecisionOut,
            400: error("a bad field, named"),
            404: UNKNOWN,
            409: error("`version 1 is not the newest (version 2); ...`"),
            410: GONE,
        },
        tags=TAGS,
        summary="Approve the newest version (name, terms accepted) or ask for changes",
    )
    def post(self, request, token: str):
        address = client_address(
            request.META.get("REMOTE_ADDR", ""),
            request.headers.get("X-Forwarded-For", ""),
            settings.TRUSTED_PROXIES,
        )
        decision = proof_decide(token=token, body=request.data, client_address=address)
        return Response(ProofDecisionOut(decision).data, status=status.HTTP_201_CREATED)


class ProofRevisionOut(serializers.Serializer):
    job_id = serializers.CharField(help_text="the revision, queued (GET /api/jobs/{id})")
    edits = serializers.DictField(help_text="the edits the comments became")


class ProofRevisionView(JsonApiView):
    @extend_schema(
        request=None,
        responses={
            201: ProofRevisionOut,
            400: error("an edit the revision refuses, named"),
            404: UNKNOWN,
            409: error("`the comments on version 1 ask for no rename, addition or removal`"),
            410: GONE,
        },
        tags=TAGS,
        summary="The newest version's comments made into one revision of its job (the job's "
        "owner or staff); sent when finished, it is the next version",
    )
    def post(self, request, token: str):
        job = proof_revision(
            token=token, caller=request_identity(request), client=request_client(request)
        )
        shown = {"job_id": job.id, "edits": job.edits}
        return Response(ProofRevisionOut(shown).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("jobs/<str:job_id>/proofs", JobProofsView.as_view(), name="job-proofs"),
    path("proofs/<str:token>", ProofView.as_view(), name="proof"),
    path("proofs/<str:token>/comments", ProofCommentsView.as_view(), name="proof-comments"),
    path("proofs/<str:token>/decision", ProofDecisionView.as_view(), name="proof-decision"),
    path("proofs/<str:token>/revision", ProofRevisionView.as_view(), name="proof-revision"),
]
