// Every order for staff: status filter, search by order id or request id, pages of 20, and
// new orders appearing without a reload (the page asks again every few seconds).
import { staffFetch, staffGate, staffSignOut } from "/static/staff-session.js";
import { cell, statusText, when, yuan } from "./money.js";

const PAGE_SIZE = 20;
const POLL_MS = 5000;
const filter = document.getElementById("orders-filter");
const statusField = document.getElementById("orders-status");
const searchField = document.getElementById("orders-search");
const rows = document.getElementById("orders-rows");
const error = document.getElementById("orders-error");
const pageLabel = document.getElementById("orders-page");
const previous = document.getElementById("orders-previous");
const next = document.getElementById("orders-next");

// The view lives in the address, so a reload or a link shows the same orders.
const query = new URLSearchParams(window.location.search);
let state = { status: query.get("status") || "", search: query.get("search") || "", page: parseInt(query.get("page"), 10) || 1 };
let seen = null; // ids shown so far; later arrivals are marked new
let timer = 0;

function remember() {
  const url = new URL(window.location);
  for (const [key, value] of Object.entries(state)) {
    if (value && !(key === "page" && value === 1)) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  history.replaceState(null, "", url);
}

function row(order) {
  const tr = document.createElement("tr");
  tr.dataset.orderId = order.id;
  const link = document.createElement("a");
  link.href = `/orders/${order.id}`;
  link.textContent = `#${order.id}`;
  const id = document.createElement("td");
  id.append(link);
  const items = order.items.map((item) => `${item.productName} × ${item.quantity}`).join(", ");
  tr.append(id, cell(when(order.createdAt)), cell(statusText(order.status), `status status-${order.status.toLowerCase()}`),
    cell(items), cell(yuan(order.totalAmount)), cell(order.address.recipient), cell(order.requestId || ""));
  if (seen && !seen.has(order.id)) tr.classList.add("order-new");
  return tr;
}

async function load() {
  clearTimeout(timer);
  const params = new URLSearchParams({ page: state.page, pageSize: PAGE_SIZE });
  if (state.status) params.set("status", state.status);
  if (state.search) params.set("search", state.search);
  try {
    const answer = await (await staffFetch(`/api/orders?${params}`)).json();
    error.textContent = "";
    rows.replaceChildren(...answer.list.map(row));
    seen = new Set([...(seen || []), ...answer.list.map((order) => order.id)]);
    const pages = Math.max(1, Math.ceil(answer.total / PAGE_SIZE));
    pageLabel.textContent = interpolate(ngettext(
      "Page %(page)s of %(pages)s · %(total)s order", "Page %(page)s of %(pages)s · %(total)s orders", answer.total),
    { page: answer.page, pages, total: answer.total }, true);
    previous.disabled = answer.page <= 1;
    next.disabled = answer.page >= pages;
    document.getElementById("orders-empty").hidden = answer.total > 0;
  } catch (failure) {
    error.textContent = failure.detail;
    if (failure.status === 401 || failure.status === 403) return; // signed out: the gate shows sign-in
  }
  timer = setTimeout(load, POLL_MS);
}

function show() {
  statusField.value = state.status;
  searchField.value = state.search;
  seen = null;
  remember();
  load();
}

filter.addEventListener("submit", (event) => {
  event.preventDefault();
  state = { status: statusField.value, search: searchField.value.trim(), page: 1 };
  show();
});
statusField.addEventListener("change", () => filter.requestSubmit());
previous.addEventListener("click", () => { state.page -= 1; show(); });
next.addEventListener("click", () => { state.page += 1; show(); });
document.getElementById("staff-sign-out").addEventListener("click", () => {
  clearTimeout(timer);
  staffSignOut();
});

staffGate(document.getElementById("staff-sign-in"), document.getElementById("staff-area"), show);
