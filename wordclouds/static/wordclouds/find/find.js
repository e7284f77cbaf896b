// The lookup page: suggestions as you type (the API's contains mode), the poster zoomed to
// the chosen name with its box highlighted, "1 of 3" for names placed more than once, and the
// query in the address bar so a link restores the view. Anonymous visitors read
// /locations; a member of staff signed in (the orders page's sign-in, this tab) reads /find.
import { staffFetch, staffToken } from "/static/staff-session.js";
import { PosterViewer } from "./viewer.js";

const root = document.getElementById("find");
const jobId = root.dataset.jobId;
const api = `/api/jobs/${jobId}`;
const form = document.getElementById("find-form");
const input = document.getElementById("find-name");
const list = document.getElementById("find-suggestions");
const message = document.getElementById("find-message");
const steps = document.getElementById("find-steps");
const position = document.getElementById("find-position");
const groupField = document.getElementById("find-group-field");
const groupSelect = document.getElementById("find-group");
const viewer = new PosterViewer(
  document.getElementById("poster-viewer"),
  document.getElementById("poster-stage"),
  document.getElementById("poster-highlight"),
);
const SUGGESTIONS = 8;
const TYPING_PAUSE_MS = 120;

let matches = [];
let current = 0;
let typingTimer = 0;
let suggestionRequest = 0;

// A poster with groups (every answer lists the job's groups): a select to search one of them.
function offerGroups(groups) {
  if (!groups.length || groupSelect.options.length > 1) return;
  for (const group of groups) groupSelect.append(new Option(group, group));
  groupField.hidden = false;
}

async function lookup(name, mode) {
  const group = groupSelect.value ? `&group=${encodeURIComponent(groupSelect.value)}` : "";
  const query = `?name=${encodeURIComponent(name)}&mode=${mode}${group}`;
  const response = staffToken()
    ? await staffFetch(`${api}/find${query}`).catch((error) => {
      // A token that stopped working is dropped by staffFetch: carry on as a visitor.
      if (error.status === 401 || error.status === 403) return fetch(`${api}/locations${query}`);
      throw error;
    })
    : await fetch(`${api}/locations${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail);
  document.getElementById("find-staff").hidden = !staffToken();
  offerGroups(body.groups || []);
  return body;
}

// The names holding the query, each once: the exact name first, then names starting with
// the query, then the rest, alphabetically.
function suggestionsFrom(result, query) {
  const counts = new Map();
  for (const match of result.matches) counts.set(match.name, (counts.get(match.name) || 0) + 1);
  const folded = query.toLowerCase();
  const rank = (name) => (name === query ? 0 : name.toLowerCase().startsWith(folded) ? 1 : 2);
  return [...counts].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).slice(0, SUGGESTIONS);
}

function closeSuggestions() {
  list.hidden = true;
  list.replaceChildren();
  input.setAttribute("aria-expanded", "false");
}

async function suggest() {
  const query = input.value.trim();
  const request = ++suggestionRequest;
  if (!query) {
    closeSuggestions();
    return;
  }
  let result;
  try {
    result = await lookup(query, "contains");
  } catch {
    return; // suggestions are a help; the search itself reports errors
  }
  if (request !== suggestionRequest) return; // a later keystroke has its own answer
  const items = suggestionsFrom(result, query).map(([name, count], index) => {
    const item = document.createElement("li");
    item.id = `find-option-${index}`;
    item.setAttribute("role", "option");
    item.setAttribute("aria-selected", "false");
    item.dataset.name = name;
    item.textContent = name;
    if (count > 1) {
      const times = document.createElement("span");
      times.className = "muted";
      times.textContent = ` ×${count}`;
      item.append(times);
    }
    return item;
  });
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
  input.setAttribute("aria-expanded", String(items.length > 0));
}

function showCurrent() {
  const match = matches[current];
  viewer.show({ x: match.box_x, y: match.box_y, width: match.box_width, height: match.box_height });
  steps.hidden = matches.length < 2;
  position.textContent = interpolate(gettext("%(n)s of %(count)s"), { n: current + 1, count: matches.length }, true);
  document.getElementById("find-found-group").textContent =
    match.group ? interpolate(gettext("Group: %s"), [match.group]) : "";
  const url = new URL(window.location);
  url.searchParams.set("name", match.name);
  if (groupSelect.value) url.searchParams.set("group", groupSelect.value);
  else url.searchParams.delete("group");
  if (current > 0) url.searchParams.set("n", current + 1);
  else url.searchParams.delete("n");
  history.replaceState(null, "", url);
}

async function find(name, index = 0) {
  closeSuggestions();
  input.value = name;
  message.textContent = "";
  let result;
  try {
    result = await lookup(name, "exact");
  } catch (error) {
    message.textContent = error.message;
    return;
  }
  matches = result.matches;
  if (matches.length === 0) {
    document.getElementById("find-found-group").textContent = "";
    viewer.clear();
    steps.hidden = true;
    message.textContent = interpolate(
      gettext("“%s” is not on this poster. Check the spelling, or pick a suggestion."), [name.trim()]);
    return;
  }
  current = Math.min(Math.max(0, index), matches.length - 1);
  message.textContent = matches.length === 1 ? gettext("Here you are.")
    : interpolate(ngettext("%s person has this name.", "%s people have this name.", matches.length), [matches.length]);
  showCurrent();
}

function step(by) {
  if (matches.length < 2) return;
  current = (current + by + matches.length) % matches.length;
  showCurrent();
}

async function start() {
  let index = null;
  let size;
  try {
    const tiles = await fetch(`${api}/tiles`);
    if (tiles.ok) {
      index = size = await tiles.json();
    } else {
      // No pyramid (a job folder from before tiles): the PNG as one image, sized by a lookup
      // that matches nothing (a name cannot hold U+0000). It also says why a job cannot be shown.
      const nothing = await lookup("\u0000", "exact");
      size = { width: nothing.canvas_width, height: nothing.canvas_height };
    }
    if (tiles.ok) await lookup("\u0000", "exact"); // the job's groups, for the select
  } catch (error) {
    message.textContent = error.message === "artifact not ready" ? gettext("This poster is not finished yet.") : error.message;
    form.querySelector("button").disabled = input.disabled = true;
    return;
  }
  viewer.open(size.width, size.height, index,
    (level, column, row) => `${api}/tiles/${level}/${column}_${row}.jpg`, `${api}/files/png?inline=1`);
  const params = new URLSearchParams(window.location.search);
  if (params.get("group") && [...groupSelect.options].some((o) => o.value === params.get("group"))) {
    groupSelect.value = params.get("group");
  }
  if (params.get("name")) find(params.get("name"), (parseInt(params.get("n"), 10) || 1) - 1);
}

input.addEventListener("input", () => {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(suggest, TYPING_PAUSE_MS);
});
// Arrow keys walk the suggestions; Enter then finds the one selected.
input.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeSuggestions();
  if ((event.key !== "ArrowDown" && event.key !== "ArrowUp") || list.hidden) return;
  event.preventDefault();
  const options = [...list.children];
  const selected = options.findIndex((option) => option.getAttribute("aria-selected") === "true");
  const next = (selected + (event.key === "ArrowDown" ? 1 : -1) + options.length + 1) % (options.length + 1);
  options.forEach((option, index) => option.setAttribute("aria-selected", String(index === next)));
  input.setAttribute("aria-activedescendant", next < options.length ? `find-option-${next}` : "");
});
input.addEventListener("blur", closeSuggestions);
list.addEventListener("pointerdown", (event) => {
  const item = event.target.closest("[role=option]");
  if (item) {
    event.preventDefault();
    find(item.dataset.name);
  }
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(typingTimer);
  suggestionRequest++;
  const selected = list.hidden ? null : list.querySelector("[aria-selected=true]");
  if (selected) find(selected.dataset.name);
  else if (input.value.trim()) find(input.value);
});
groupSelect.addEventListener("change", () => {
  if (input.value.trim()) find(input.value);
});
document.getElementById("find-previous").addEventListener("click", () => step(-1));
document.getElementById("find-next").addEventListener("click", () => step(1));
document.getElementById("zoom-in").addEventListener("click", () => viewer.zoomCentre(2));
document.getElementById("zoom-out").addEventListener("click", () => viewer.zoomCentre(0.5));
document.getElementById("zoom-fit").addEventListener("click", () => viewer.fit());

start();
