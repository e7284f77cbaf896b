// Correcting a finished poster: its SVG drawn in the page, each name a path whose id is the
// word's id (w<N>). Click a name to rename, remove, resize or recolour it, drag it to move
// it, draw keep-out boxes, paste names to add; "Make revision" sends the corrections
// (POST /api/jobs/<id>/revisions) and the new job is watched like any other. The revisions
// of the poster are listed with their proofs; each opens again.
import { api, apiJson, clearErrors, showError } from "./api.js";
import { statusText } from "./progress.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const STEP = 1.25; // "Bigger" and "Smaller" scale a name by this
const DRAG_PX = 4; // a press that moves less than this many screen px is a click
const CHANGE_SIGNS = [
  ["added", "+"], ["removed", "−"], ["renamed", "✎"], ["moved", "↔"],
  ["resized", "⤢"], ["recolored", "◐"], ["displaced", "~"],
];

function round(value) {
  return Math.round(value * 10) / 10;
}

export class Reviser {
  constructor({ onSubmitted, onOpen }) {
    this.onSubmitted = onSubmitted;
    this.onOpen = onOpen;
    this.frame = $("revise-frame");
    this.frame.addEventListener("pointerdown", (event) => this.press(event));
    this.frame.addEventListener("keydown", (event) => this.key(event));
    $("revise-keep-out-mode").addEventListener("change", () => this.hint());
    const word = (id, action) => $(id).addEventListener("click", action);
    word("revise-rename", () => this.wordEdit("rename", { name: $("revise-name").value.trim() }));
    word("revise-bigger", () => this.scale(STEP));
    word("revise-smaller", () => this.scale(1 / STEP));
    word("revise-resize", () => this.wordEdit("resize", { fontSize: Number($("revise-size").value) }));
    word("revise-recolor", () => this.wordEdit("recolor", { color: $("revise-color").value.toUpperCase() }));
    word("revise-remove", () => this.wordEdit("remove", {}));
    $("revise-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    $("revisions").addEventListener("click", (event) => {
      const link = event.target.closest("a[data-job]");
      if (!link) return;
      event.preventDefault();
      this.onOpen(link.dataset.job);
    });
  }

  async show(job) {
    this.job = job;
    this.words = new Map();
    this.perWord = new Map(); // word id → {rename, remove, move, resize, recolor}
    this.keepOut = [];
    this.selected = null;
    $("revise-word").hidden = true;
    $("revise-add").value = "";
    $("revise-add-file").value = "";
    clearErrors($("revise-form"));
    this.frame.replaceChildren();
    this.listEdits();
    this.hint();
    const [svgText, words] = await Promise.all([
      api(job.artifacts.svg).then((response) => response.text()),
      apiJson(`/api/jobs/${job.job_id}/words`),
      this.showRevisions(),
    ]);
    if (this.job !== job) return; // another poster was opened meanwhile
    for (const word of words) this.words.set(word.id, word);
    const svg = document.importNode(
      new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement, true);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", gettext("poster to correct"));
    this.overlay = document.createElementNS(SVG, "g");
    this.overlay.classList.add("revise-overlay");
    svg.append(this.overlay);
    this.svg = svg;
    this.frame.append(svg);
  }

  hint() {
    $("revise-hint").textContent = $("revise-keep-out-mode").checked
      ? gettext("Drag on the poster to draw a box that no name may enter.")
      : gettext("Click a name to choose it; drag it to move it.");
  }

  // A pointer position in canvas px.
  point(event) {
    const matrix = this.svg.getScreenCTM().inverse();
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return { x: at.x, y: at.y };
  }

  press(event) {
    if (!this.svg || event.button !== 0) return;
    const start = this.point(event);
    const screen = { x: event.clientX, y: event.clientY };
    const path = event.target.closest("path[id^='w']") ?? this.wordAt(start);
    const drawing = $("revise-keep-out-mode").checked;
    if (!drawing && !path) return;
    event.preventDefault();
    this.frame.setPointerCapture(event.pointerId);
    let box = null;
    let moved = false;
    const move = (next) => {
      const at = this.point(next);
      const far = Math.hypot(next.clientX - screen.x, next.clientY - screen.y) >= DRAG_PX;
      if (drawing) {
        box = box ?? this.drawBox();
        const x = Math.min(start.x, at.x);
        const y = Math.min(start.y, at.y);
        for (const [name, value] of [["x", x], ["y", y], ["width", Math.abs(at.x - start.x)],
          ["height", Math.abs(at.y - start.y)]]) box.setAttribute(name, round(value));
      } else if (far || moved) {
        moved = true;
        path.setAttribute("transform", `translate(${at.x - start.x} ${at.y - start.y})`);
      }
    };
    const end = (last) => {
      this.frame.removeEventListener("pointermove", move);
      this.frame.removeEventListener("pointerup", end);
      if (drawing) {
        if (box) this.addKeepOut(box);
      } else {
        this.choose(path);
        if (moved) {
          const at = this.point(last);
          const word = this.words.get(this.selected);
          this.wordEdit("move", {
            x: round(word.x + at.x - start.x), y: round(word.y + at.y - start.y),
          });
        }
      }
    };
    this.frame.addEventListener("pointermove", move);
    this.frame.addEventListener("pointerup", end);
  }

  // The path of the smallest word whose box holds the point: a press between a name's
  // letters chooses it too.
  wordAt({ x, y }) {
    let best = null;
    for (const word of this.words.values()) {
      const inside = x >= word.box_x && x <= word.box_x + word.box_width
        && y >= word.box_y && y <= word.box_y + word.box_height;
      if (inside && (!best || word.box_width * word.box_height < best.box_width * best.box_height)) {
        best = word;
      }
    }
    return best ? this.svg.getElementById(`w${best.id}`) : null;
  }

  // Keyboard: Tab into the poster, then arrows choose the next or previous name.
  key(event) {
    if (!this.svg || !["ArrowRight", "ArrowLeft"].includes(event.key)) return;
    event.preventDefault();
    const ids = [...this.words.keys()];
    const at = ids.indexOf(this.selected);
    const next = ids[(at + (event.key === "ArrowRight" ? 1 : ids.length - 1)) % ids.length];
    this.choose(this.svg.getElementById(`w${next}`));
  }

  drawBox() {
    const box = document.createElementNS(SVG, "rect");
    box.classList.add("revise-keep-out");
    this.overlay.append(box);
    return box;
  }

  addKeepOut(box) {
    const shape = { shape: "rect" };
    for (const name of ["x", "y", "width", "height"]) shape[name] = Number(box.getAttribute(name));
    if (shape.width < 1 || shape.height < 1) {
      box.remove();
      return;
    }
    this.keepOut.push({ shape, box });
    this.listEdits();
  }

  choose(path) {
    if (!path) return;
    const id = Number(path.id.slice(1));
    const word = this.words.get(id);
    if (!word) return;
    for (const chosen of this.svg.querySelectorAll(".revise-chosen")) {
      chosen.classList.remove("revise-chosen");
    }
    path.classList.add("revise-chosen");
    this.selected = id;
    const edits = this.perWord.get(id) ?? {};
    $("revise-word").hidden = false;
    $("revise-word-id").textContent = `#${id}`;
    $("revise-name").value = edits.rename?.name ?? word.name;
    $("revise-color").value = edits.recolor?.color ?? word.color;
    $("revise-size").value = edits.resize?.fontSize ?? word.font_size;
    $("revise-hint").textContent = `${word.name} · ${word.font_size} px`;
  }

  scale(factor) {
    const size = Number($("revise-size").value) * factor;
    $("revise-size").value = round(size);
    this.wordEdit("resize", { fontSize: round(size) });
  }

  // One edit of the chosen word; removing a word drops its other edits, and the other way.
  wordEdit(kind, fields) {
    const id = this.selected;
    if (id === null) return;
    const edits = kind === "remove" ? {} : { ...(this.perWord.get(id) ?? {}) };
    if (kind !== "remove") delete edits.remove;
    if (kind === "rename" && fields.name === this.words.get(id).name) delete edits.rename;
    else edits[kind] = { id, ...fields };
    this.perWord.set(id, edits);
    this.listEdits();
  }

  undo(id, kind) {
    const edits = this.perWord.get(id);
    delete edits[kind];
    if (kind === "move") this.svg.getElementById(`w${id}`).removeAttribute("transform");
    this.listEdits();
  }

  describe(kind, edit) {
    const name = this.words.get(edit.id).name;
    return {
      remove: () => `${gettext("remove")} ${name}`,
      rename: () => `${gettext("rename")} ${name} → ${edit.name}`,
      move: () => `${gettext("move")} ${name} → (${edit.x}, ${edit.y})`,
      resize: () => `${gettext("resize")} ${name} → ${edit.fontSize} px`,
      recolor: () => `${gettext("recolour")} ${name} → ${edit.color}`,
    }[kind]();
  }

  listEdits() {
    const items = [];
    const undoButton = (action) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary small";
      button.textContent = gettext("undo");
      button.addEventListener("click", action);
      return button;
    };
    for (const [id, edits] of this.perWord) {
      for (const [kind, edit] of Object.entries(edits)) {
        const item = document.createElement("li");
        item.dataset.edit = kind;
        item.append(this.describe(kind, edit), " ", undoButton(() => this.undo(id, kind)));
        items.push(item);
      }
    }
    this.keepOut.forEach((entry, index) => {
      const { x, y, width, height } = entry.shape;
      const item = document.createElement("li");
      item.dataset.edit = "keepOut";
      item.append(`${gettext("keep free")} ${width}×${height} @ (${x}, ${y})`, " ", undoButton(() => {
        entry.box.remove();
        this.keepOut.splice(index, 1);
        this.listEdits();
      }));
      items.push(item);
    });
    $("revise-edits").replaceChildren(...items);
    $("revise-none").hidden = items.length > 0;
  }

  edits() {
    const body = {};
    const added = $("revise-add").value.split("\n").map((line) => line.trim()).filter(Boolean);
    if (added.length) body.add = added;
    for (const edits of this.perWord.values()) {
      for (const [kind, edit] of Object.entries(edits)) {
        const entry = kind === "remove" ? edit.id : edit;
        (body[kind] = body[kind] ?? []).push(entry);
      }
    }
    if (this.keepOut.length) body.keepOut = this.keepOut.map((entry) => entry.shape);
    return body;
  }

  async submit() {
    const form = $("revise-form");
    clearErrors(form);
    const edits = this.edits();
    const file = $("revise-add-file").files[0];
    const path = `/api/jobs/${this.job.job_id}/revisions`;
    const options = { method: "POST" };
    if (file) {
      options.body = new FormData();
      options.body.append("edits", JSON.stringify(edits));
      options.body.append("name_list", file);
    } else {
      options.headers = { "Content-Type": "application/json" };
      options.body = JSON.stringify(edits);
    }
    $("revise-submit").disabled = true;
    try {
      const { job_id: jobId } = await (await api(path, options)).json();
      this.onSubmitted(jobId);
    } catch (error) {
      showError(form, error.detail ?? String(error));
    } finally {
      $("revise-submit").disabled = false;
    }
  }

  async showRevisions() {
    const chain = await apiJson(`/api/jobs/${this.job.job_id}/revisions`);
    $("revisions").tBodies[0].replaceChildren(...chain.map((entry) => {
      const row = document.createElement("tr");
      row.dataset.job = entry.job_id;
      if (entry.job_id === this.job.job_id) row.classList.add("current");
      const open = document.createElement("a");
      open.href = `/?job=${entry.job_id}`;
      open.dataset.job = entry.job_id;
      open.textContent = entry.job_id.slice(0, 8);
      const changes = CHANGE_SIGNS
        .filter(([key]) => entry.changes && entry.changes[key])
        .map(([key, sign]) => `${sign}${entry.changes[key]}`).join(" ");
      const cells = [String(entry.revision), open, statusText(entry.status), changes || "—"];
      if (entry.status === "success") {
        const proof = document.createElement("a");
        proof.href = `/api/jobs/${entry.job_id}/proof.png?inline=1`;
        proof.target = "_blank";
        proof.textContent = gettext("proof");
        cells.push(proof);
      } else {
        cells.push("");
      }
      row.replaceChildren(...cells.map((content) => {
        const cell = document.createElement("td");
        cell.append(content);
        return cell;
      }));
      return row;
    }));
  }
}
