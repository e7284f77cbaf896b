// The proof of a finished poster (docs/proofs.md): "Send as proof" (POST /api/jobs/<id>/proofs)
// gives the customer's link, the next version's when the poster is a revision of a proofed
// one; the newest version's comments are listed (GET /api/jobs/<id>/proofs) and made one
// revision in one step (POST /api/proofs/<token>/revision), watched like any other job.
import { apiJson, postJson } from "./api.js";

const $ = (id) => document.getElementById(id);

function where(comment) {
  return comment.word_id !== null
    ? interpolate(gettext("name %s"), [comment.word_id])
    : interpolate(gettext("point %(x)s, %(y)s"), { x: Math.round(comment.x), y: Math.round(comment.y) }, true);
}

export class ProofTool {
  constructor({ onSubmitted }) {
    this.onSubmitted = onSubmitted;
    $("proof-send").addEventListener("click", () => this.send());
    $("proof-revise").addEventListener("click", () => this.revise());
  }

  async show(job) {
    this.job = job;
    this.proof = null;
    $("proof-link").textContent = "";
    $("proof-tool-error").textContent = "";
    let proofs = [];
    try {
      proofs = await apiJson(`/api/jobs/${job.job_id}/proofs`);
    } catch {
      // not the caller's to proof (another's job, or no staff sign-in): nothing to list
    }
    if (this.job !== job) return;
    this.list(proofs.find((proof) => proof.revoked_at === null) ?? null);
  }

  list(proof) {
    this.proof = proof;
    const newest = proof?.versions.at(-1);
    const comments = newest ? proof.comments.filter((c) => c.version === newest.version) : [];
    if (proof) {
      $("proof-link").textContent = interpolate(gettext("Proof link (version %(version)s): %(url)s"),
        { version: newest.version, url: new URL(proof.url, window.location).href }, true);
    }
    $("proof-tool-comments").replaceChildren(...comments.map((comment) => {
      const item = document.createElement("li");
      const spelling = comment.spelling ? ` → ${comment.spelling}` : "";
      item.textContent = `${comment.kind} (${where(comment)})${spelling}: ${comment.text}`;
      return item;
    }));
    $("proof-tool-none").hidden = comments.length > 0;
    $("proof-revise").disabled = comments.length === 0 || newest.job_id !== this.job.job_id;
  }

  async send() {
    try {
      await postJson(`/api/jobs/${this.job.job_id}/proofs`, {});
      await this.show(this.job);
    } catch (error) {
      $("proof-tool-error").textContent = error.detail ?? error.message;
    }
  }

  async revise() {
    const token = this.proof.url.split("/").pop();
    try {
      const made = await (await postJson(`/api/proofs/${token}/revision`, {})).json();
      this.onSubmitted(made.job_id);
    } catch (error) {
      $("proof-tool-error").textContent = error.detail ?? error.message;
    }
  }
}
