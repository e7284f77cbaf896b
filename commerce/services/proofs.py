"""Proofs (docs/proofs.md): a finished poster sent to its customer through a link whose token
is the only key; each revision of it sent after is the proof's next version. The customer
pins comments to names or points and decides: approve (their name, the terms ticked) or ask
for changes (after at least one comment). An approval records the SHA-256 of the version's
wordcloud.svg and positions.db; with PROOF_APPROVAL_REQUIRED a design list's job must be
the approved newest version of its proof (`approval_of`), and production draws only from
files with those hashes (services/production.py). A revoked link answers 410."""

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from commerce.models import MAX_COMMENT_LENGTH, Proof, ProofComment, ProofDecision, ProofVersion
from core.access import owner_refusal
from core.errors import Conflict, Forbidden, Gone, InvalidInput, NotFound
from core.identity import Identity
from core.inputs import Boolean, Choice, Items, Number, Object, Text, said_alike
from core.serializers import iso_utc
from wordclouds.engine.names import MAX_NAME_LENGTH
from wordclouds.engine.params import MAX_CANVAS_SIDE
from wordclouds.services.designs import (
    job_file_hashes,
    job_for_proof,
    job_present,
    job_word_ids,
    revision_create,
)

MAX_ROLE_LENGTH = 60
MAX_NOTE_LENGTH = 1000
MAX_VERSION = 32767
# What an approver ticks, recorded in the language the page showed it in.
TERMS = _("The names are spelled as shown; I approve this version for production.")
CODE = "proof_invalid"
# The kinds of a revision's changes, in the order a proof says them (wordclouds' revisions).
CHANGE_KINDS = ("renamed", "added", "removed", "moved", "resized", "recolored", "displaced")


def _body(fields, optional, what: str) -> Object:
    return Object(
        "",
        what,
        code=CODE,
        fields=fields,
        refusal="the body must be a JSON object",
        unknown='unknown field "{key}"',
        missing_key="{key} is required",
        optional=optional,
    )


def _text(name: str, high: int, **declared) -> Text:
    return Text(name, "", code=CODE, high=high, **declared)


def _version() -> Number:
    return Number(
        "version",
        "",
        code=CODE,
        low=1,
        high=MAX_VERSION,
        integer=True,
        **said_alike("{name} must be {accepted}"),
    )


PROOF_SEND = _body(
    (
        Number(
            "approvals_needed",
            "",
            code=CODE,
            low=1,
            high=2,
            integer=True,
            **said_alike("{name} must be 1 or 2"),
        ),
        Items(
            "roles",
            "",
            code=CODE,
            item=_text("role", MAX_ROLE_LENGTH, empty="{name} must not be empty"),
            high=2,
            refusal="{name} must be an array of at most 2 role labels",
        ),
        _text("note", MAX_NOTE_LENGTH),
    ),
    (("approvals_needed", 1), ("roles", ()), ("note", "")),
    "A finished job sent as a proof, or as the next version of its proof (docs/proofs.md).",
)
PROOF_COMMENT = _body(
    (
        _version(),
        Number(
            "word_id",
            "",
            code=CODE,
            low=1,
            high=2**63 - 1,
            integer=True,
            high_shown="2^63-1",
            **said_alike("{name} must be a word id (an integer from 1 to 2^63-1)"),
        ),
        *(
            Number(
                c,
                "",
                code=CODE,
                low=0,
                high=MAX_CANVAS_SIDE,
                **said_alike("{name} must be {accepted}"),
            )
            for c in "xy"
        ),
        Choice("kind", "", code=CODE, choices=tuple(ProofComment.Kind.values)),
        _text("text", MAX_COMMENT_LENGTH, empty="{name} must not be empty"),
        _text("spelling", MAX_COMMENT_LENGTH),
    ),
    (("word_id", None), ("x", None), ("y", None), ("spelling", "")),
    "A comment pinned to a name (word_id) or a point (x and y) of a version.",
)
PROOF_DECISION = _body(
    (
        _version(),
        Choice("decision", "", code=CODE, choices=tuple(ProofDecision.Decision.values)),
        _text("name", 100),
        _text("role", MAX_ROLE_LENGTH),
        Boolean("terms_accepted", "", code=CODE, refusal="{name} must be true or false"),
        Choice("language", "", code=CODE, choices=tuple(code for code, _ in settings.LANGUAGES)),
    ),
    (("name", ""), ("role", ""), ("terms_accepted", False), ("language", "en")),
    "Approve the newest version (name, terms accepted) or ask for changes.",
)


def terms_text(language: str) -> str:
    """The terms an approver ticks, in `language` (one of LANGUAGES)."""
    with translation.override(language):
        return str(TERMS)


def _token_proof(token: str, *, lock: bool = False) -> Proof:
    """The proof a link's token opens: 404 unknown, 410 revoked or its newest version's job
    deleted."""
    proofs = Proof.objects.select_for_update() if lock else Proof.objects
    proof = proofs.filter(token=token).first()
    if proof is None:
        raise NotFound("proof not found", code="proof_not_found")
    if proof.revoked_at is not None:
        raise Gone("this proof's link was revoked", code="proof_revoked")
    newest = proof.versions.order_by("-version").first()
    if newest is not None and not job_present(job_id=newest.job_id):
        raise Gone("this proof's poster was deleted", code="proof_job_deleted")
    return proof


def proof_get(*, token: str) -> Proof:
    return _token_proof(token)


@transaction.atomic
def proof_send(*, job_id: str, caller: Identity, body) -> tuple[Proof, ProofVersion]:
    """The job `job_id` sent as a proof: the next version of the proof one of the jobs it
    descends from is a version of (a note given replaces its note), else a new proof (its
    settings from `body`). 404/403/409
    for a job not found, not the caller's, not finished; 409 for a job already sent."""
    given = _settings(PROOF_SEND.parse(body))
    job = job_for_proof(job_id=job_id, caller=caller, lock=True)
    sent = ProofVersion.objects.filter(job_id=job.job_id, proof__revoked_at=None).first()
    if sent is not None:
        raise Conflict(
            f"job {job.job_id} is already version {sent.version} of proof {sent.proof_id}",
            code="proof_job_sent",
        )
    by_job = {
        v.job_id: v.proof
        for v in ProofVersion.objects.filter(
            job_id__in=job.ancestors, proof__revoked_at=None
        ).select_related("proof")
    }
    proof = next((by_job[a] for a in job.ancestors if a in by_job), None)
    if proof is None:
        proof = Proof.objects.create(job_id=job.job_id, owner=job.owner, **given)
        number = 1
    else:
        proof = Proof.objects.select_for_update().get(pk=proof.pk)
        number = proof.versions.aggregate(last=Max("version"))["last"] + 1
        if given["note"]:
            proof.note = given["note"]
            proof.save(update_fields=["note"])
    version = ProofVersion.objects.create(
        proof=proof, version=number, job_id=job.job_id, changes=job.changes
    )
    return proof, version


def _settings(given: dict) -> dict:
    """A new proof's settings: with two approvals, two different role labels, one for each."""
    needed, roles = given["approvals_needed"], [r.strip() for r in given["roles"]]
    if (roles or needed > 1) and len(roles) != needed:
        raise InvalidInput(f"roles must hold {needed} label(s), one per approval needed", code=CODE)
    if len(set(roles)) != len(roles) or "" in roles:
        raise InvalidInput("roles must be different labels, none blank", code=CODE)
    return {"approvals_needed": needed, "roles": roles, "note": given["note"]}


def proofs_of_job(*, job_id: str, caller: Identity) -> list[Proof]:
    """The proofs a job is a version of or descends from (staff or the job's owner)."""
    job = job_for_proof(job_id=job_id, caller=caller, finished=False)
    ids = ProofVersion.objects.filter(job_id__in=(job.job_id, *job.ancestors)).values("proof")
    return list(Proof.objects.filter(pk__in=ids))


@transaction.atomic
def proof_revoke(*, token: str, caller: Identity) -> None:
    """Staff or the job's owner: the link answers 410 from now on (its records stay)."""
    proof = _token_proof(token, lock=True)
    hidden = Forbidden("only the job's owner or staff may revoke its proof", code="not_owner")
    refused = owner_refusal(caller, proof.owner, hidden=hidden)
    if refused is not None:
        raise refused
    proof.revoked_at = timezone.now()
    proof.save(update_fields=["revoked_at"])


def _version_of(proof: Proof, number: int, *, lock: bool = False) -> ProofVersion:
    versions = ProofVersion.objects.select_for_update() if lock else ProofVersion.objects
    version = versions.filter(proof=proof, version=number).first()
    if version is None:
        raise InvalidInput(
            f"version {number} is not a version of this proof", code="proof_version_unknown"
        )
    return version


@transaction.atomic
def proof_comment(*, token: str, body) -> ProofComment:
    """A comment on a version, pinned to one of its names or to a point of it."""
    given = PROOF_COMMENT.parse(body)
    proof = _token_proof(token)
    version = _version_of(proof, given["version"])
    on_word, on_point = given["word_id"] is not None, None not in (given["x"], given["y"])
    if on_word == on_point or (not on_point and (given["x"], given["y"]) != (None, None)):
        raise InvalidInput(
            "a comment is pinned to a name (word_id) or to a point (x and y), one of them",
            code="proof_comment_pin",
        )
    if on_word and given["word_id"] not in job_word_ids(job_id=version.job_id):
        raise InvalidInput(
            f"version {version.version} has no name with id {given['word_id']}",
            code="proof_word_unknown",
        )
    text, spelling = given["text"].strip(), given["spelling"].strip()
    if not text:
        raise InvalidInput("text must not be empty", code=CODE)
    kind = given["kind"]
    if kind in (ProofComment.Kind.MISSPELT, ProofComment.Kind.MISSING) and not spelling:
        needs = "the right spelling" if kind == ProofComment.Kind.MISSPELT else "the names"
        raise InvalidInput(
            f"a {kind} comment needs spelling: {needs}", code="proof_spelling_missing"
        )
    if kind == ProofComment.Kind.MISSPELT and len(spelling) > MAX_NAME_LENGTH:
        raise InvalidInput(
            f"spelling is longer than {MAX_NAME_LENGTH} characters", code="proof_spelling_missing"
        )
    return ProofComment.objects.create(
        version=version,
        word_id=given["word_id"],
        x=given["x"],
        y=given["y"],
        kind=kind,
        text=text,
        spelling=spelling,
    )


@transaction.atomic
def proof_decide(*, token: str, body, client_address: str) -> ProofDecision:
    """Approve the newest version or ask for changes (409 for an older version)."""
    given = PROOF_DECISION.parse(body)
    proof = _token_proof(token, lock=True)
    version = _version_of(proof, given["version"])
    newest = proof.versions.aggregate(last=Max("version"))["last"]
    if version.version != newest:
        raise Conflict(
            f"version {version.version} is not the newest (version {newest}); "
            "only the newest version can be decided",
            code="proof_version_not_newest",
        )
    name = given["name"].strip()
    if given["decision"] == ProofDecision.Decision.CHANGES:
        if not version.comments.exists():
            raise InvalidInput(
                "asking for changes needs at least one comment on this version",
                code="proof_changes_without_comment",
            )
        role, terms = given["role"].strip(), ""
    else:
        if not name:
            raise InvalidInput("approving needs the approver's name", code="proof_name_missing")
        if given["terms_accepted"] is not True:
            raise InvalidInput(
                "approving needs the terms accepted (terms_accepted: true)",
                code="proof_terms_not_accepted",
            )
        role, terms = (
            _approver_role(proof, version, given["role"].strip()),
            terms_text(given["language"]),
        )
    hashes = job_file_hashes(job_id=version.job_id)
    return ProofDecision.objects.create(
        version=version,
        decision=given["decision"],
        name=name,
        role=role,
        terms=terms,
        client_address=client_address,
        svg_sha256=hashes["svgSha256"],
        db_sha256=hashes["dbSha256"],
    )


def _approver_role(proof: Proof, version: ProofVersion, role: str) -> str:
    """The role an approval is given in: one of the proof's, not yet approved in (with one
    approval needed, the first label or none)."""
    approved = set(_approvals(version).values_list("role", flat=True))
    if len(approved) >= proof.approvals_needed:
        raise Conflict(f"version {version.version} is approved already", code="proof_approved")
    if proof.approvals_needed == 1:
        return role or (proof.roles[0] if proof.roles else "")
    if role not in proof.roles:
        listed = ", ".join(proof.roles) or "none"
        raise InvalidInput(
            f"role must be one of the proof's roles: {listed}", code="proof_role_unknown"
        )
    if role in approved:
        raise Conflict(
            f"version {version.version} is approved as {role} already", code="proof_approved"
        )
    return role


def _approvals(version: ProofVersion):
    return version.decisions.filter(decision=ProofDecision.Decision.APPROVE)


def approval_of(*, job_id: str) -> dict:
    """The approval of the job `job_id`, as a design list's item records it: the job is the
    newest version of a proof that is not revoked and has every approval it needs. 409
    naming what is missing."""
    version = (
        ProofVersion.objects.filter(job_id=job_id, proof__revoked_at=None)
        .select_related("proof")
        .first()
    )
    if version is None:
        raise Conflict(
            f"job {job_id} has no approved proof: send it as a proof and have it approved",
            code="proof_not_approved",
        )
    proof = version.proof
    newest = proof.versions.aggregate(last=Max("version"))["last"]
    if version.version != newest:
        raise Conflict(
            f"job {job_id} is version {version.version} of proof {proof.pk}, whose newest "
            f"version is {newest}: name the job of version {newest} once it is approved",
            code="proof_not_approved",
        )
    approvals = list(_approvals(version))
    if len({a.role for a in approvals}) < proof.approvals_needed:
        raise Conflict(
            f"version {version.version} of proof {proof.pk} (job {job_id}) has "
            f"{len(approvals)} of the {proof.approvals_needed} approval(s) it needs",
            code="proof_not_approved",
        )
    last = approvals[-1]
    return {
        "proofId": proof.pk,
        "version": version.version,
        "approvedAt": iso_utc(last.created_at),
        "svgSha256": last.svg_sha256,
        "dbSha256": last.db_sha256,
    }


def comment_edits(comments) -> dict:
    """The revision edits the comments ask for: a misspelling a `rename` to its right
    spelling, missing names an `add` (one a line), a name to remove a `remove`; the others
    are for staff to read."""
    edits = {"rename": [], "add": [], "remove": []}
    for comment in comments:
        if comment.kind == ProofComment.Kind.MISSPELT and comment.word_id is not None:
            edits["rename"].append({"id": comment.word_id, "name": comment.spelling})
        elif comment.kind == ProofComment.Kind.MISSING:
            edits["add"] += [name.strip() for name in comment.spelling.splitlines() if name.strip()]
        elif comment.kind == ProofComment.Kind.REMOVE and comment.word_id is not None:
            edits["remove"].append(comment.word_id)
    return {key: value for key, value in edits.items() if value}


def proof_revision(*, token: str, caller: Identity, client: str | None):
    """Staff or the job's owner: the newest version's comments made into one revision of its
    job (queued; sent when finished it is the proof's next version). 409 when they ask for
    no edit; the revision's own refusals otherwise."""
    proof = _token_proof(token)
    hidden = Forbidden("only the job's owner or staff may revise its proof", code="not_owner")
    refused = owner_refusal(caller, proof.owner, hidden=hidden)
    if refused is not None:
        raise refused
    newest = proof.versions.order_by("-version").first()
    edits = comment_edits(newest.comments.all())
    if not edits:
        raise Conflict(
            f"the comments on version {newest.version} ask for no rename, addition or removal",
            code="proof_no_edits",
        )
    return revision_create(parent_id=newest.job_id, edits=edits, caller=caller, client=client)
