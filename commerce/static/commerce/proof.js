// The proof page (docs/proofs.md): the newest version's poster in the lookup page's viewer,
// a name search that highlights, comments pinned to a name (tapped, or found) or a point (the
// middle of the view, for the keyboard), and the decision. It writes only through the public
// /api (POST /api/proofs/{token}/comments and .../decision) and then shows the page again.
import { PosterViewer } from "/static/wordclouds/find/viewer.js";

const root = document.getElementById("proof");
const { token, jobId, language } = root.dataset;
const version = Number(root.dataset.version);
const api = `/api/jobs/${jobId}`;
const viewerElement = document.getElementById("poster-viewer");
const stage = document.getElementById("poster-stage");
const viewer = new PosterViewer(viewerElement, stage, document.getElementById("poster-highlight"));
const errorLine = document.getElementById("proof-error");
const pinLine = document.getElementById("comment-pin");
const TAP_SLOP = 6; // px a tap may move and still be a tap

let words = [];
let pin = null; // {word_id} or {x, y}

function say(body) {
  errorLine.textContent = body?.detail ?? "";
}

async function send(path, body) {
  const response = await fetch(`/api/proofs/${token}/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw answer;
  return answer;
}

function pinTo(next, label) {
  pin = next;
  if (pinLine) pinLine.textContent = label;
}

function pinWord(word) {
  viewer.show({ x: word.box_x, y: word.box_y, width: word.box_width, height: word.box_height });
  pinTo({ word_id: word.id }, interpolate(gettext("Comment on “%s”."), [word.name]));
}

function wordAt(x, y) {
  return words.find((w) => x >= w.box_x && x <= w.box_x + w.box_width && y >= w.box_y && y <= w.box_y + w.box_height);
}

function pinSpot(x, y) {
  viewer.show({ x: x - 10, y: y - 10, width: 20, height: 20 });
  pinTo({ x: Math.round(x), y: Math.round(y) }, gettext("Comment on the point marked."));
}

// A tap on a name pins the name; elsewhere, the point.
function pinPoint(x, y) {
  const word = wordAt(x, y);
  if (word) pinWord(word);
  else pinSpot(x, y);
}

// Markers on the poster for each comment of this version, numbered as the list is.
function mark() {
  const byId = new Map(words.map((w) => [w.id, w]));
  document.querySelectorAll("#proof-comments li[data-version]").forEach((item, index) => {
    const word = byId.get(Number(item.dataset.wordId));
    const where = item.querySelector(".comment-where");
    if (word) where.textContent = word.name;
    if (Number(item.dataset.version) !== version) return;
    const x = word ? word.x : Number(item.dataset.x);
    const y = word ? word.y : Number(item.dataset.y);
    if (!word && item.dataset.x === "") return;
    const marker = document.createElement("div");
    marker.className = "proof-marker";
    marker.setAttribute("aria-hidden", "true");
    marker.style.left = `${x}px`;
    marker.style.top = `${y}px`;
    marker.textContent = String(index + 1);
    stage.append(marker);
  });
}

async function start() {
  const [tiles, listed] = await Promise.all([fetch(`${api}/tiles`), fetch(`${api}/words`)]);
  words = listed.ok ? await listed.json() : [];
  const index = tiles.ok ? await tiles.json() : null;
  if (!index) return;
  viewer.open(index.width, index.height, index,
    (level, column, row) => `${api}/tiles/${level}/${column}_${row}.jpg`, `${api}/files/png?inline=1`);
  mark();
}

document.getElementById("proof-search").addEventListener("submit", (event) => {
  event.preventDefault();
  const query = document.getElementById("proof-name").value.trim().toLowerCase();
  const found = query ? words.filter((w) => w.name.toLowerCase().includes(query)) : [];
  const list = document.getElementById("proof-matches");
  list.replaceChildren(...found.slice(0, 8).map((word) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = word.name;
    button.addEventListener("click", () => pinWord(word));
    item.append(button);
    return item;
  }));
  document.getElementById("proof-found").textContent = found.length
    ? interpolate(ngettext("%s name found.", "%s names found.", found.length), [found.length])
    : gettext("No name on this poster holds that.");
  if (found.length === 1) pinWord(found[0]);
});

// A tap (a press that hardly moved) on the poster pins to the name there, or to the point.
let pressed = null;
viewerElement.addEventListener("pointerdown", (event) => {
  pressed = event.target.closest("button") ? null : { x: event.clientX, y: event.clientY };
});
viewerElement.addEventListener("pointerup", (event) => {
  if (!pressed || Math.hypot(event.clientX - pressed.x, event.clientY - pressed.y) > TAP_SLOP) return;
  const bounds = viewerElement.getBoundingClientRect();
  pinPoint((event.clientX - bounds.left - viewer.x) / viewer.scale, (event.clientY - bounds.top - viewer.y) / viewer.scale);
});
// The middle of the view is a point even where a name lies under it (where a missing name
// should go, say): a name is pinned by finding or tapping it.
document.getElementById("pin-centre")?.addEventListener("click", () => {
  const x = (viewerElement.clientWidth / 2 - viewer.x) / viewer.scale;
  const y = (viewerElement.clientHeight / 2 - viewer.y) / viewer.scale;
  pinSpot(x, y);
});

// The comment form is there until the version is approved.
const kind = document.getElementById("comment-kind");
function showSpelling() {
  document.getElementById("spelling-field").hidden = !["misspelt", "missing"].includes(kind.value);
}
if (kind) {
  kind.addEventListener("change", showSpelling);
  showSpelling();
}

document.getElementById("comment-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!pin) {
    say({ detail: gettext("Choose a name or a point first.") });
    return;
  }
  try {
    await send("comments", {
      version, ...pin, kind: kind.value,
      text: document.getElementById("comment-text").value,
      spelling: document.getElementById("comment-spelling").value,
    });
    window.location.reload();
  } catch (body) {
    say(body);
  }
});

async function decide(decision) {
  const role = document.getElementById("decision-role");
  try {
    await send("decision", {
      version, decision, language,
      name: document.getElementById("decision-name").value,
      terms_accepted: document.getElementById("decision-terms").checked,
      ...(role ? { role: role.value } : {}),
    });
    window.location.reload();
  } catch (body) {
    say(body);
  }
}
document.getElementById("decision-form")?.addEventListener("submit", (event) => {
  event.preventDefault();
  decide("approve");
});
document.getElementById("ask-changes")?.addEventListener("click", () => decide("changes"));
document.getElementById("zoom-in").addEventListener("click", () => viewer.zoomCentre(2));
document.getElementById("zoom-out").addEventListener("click", () => viewer.zoomCentre(0.5));
document.getElementById("zoom-fit").addEventListener("click", () => viewer.fit());

start();
