// One order for staff: items in yuan, the address as it was when ordered, the design list
// with thumbnails of its designs and links to their files, the production files of a paid
// order, and the moves staff may make (mark paid, ship). A refused move shows the service's own sentence. Its payments, refunds
// and payment events (read-only) come from the staff list GET /api/payments?orderId=.
import { staffDownload, staffFetch, staffGate, staffSignOut } from "/static/staff-session.js";
import { cell, statusText, when, yuan } from "./money.js";

const area = document.getElementById("staff-area");
const orderId = area.dataset.orderId;
const error = document.getElementById("order-error");
const done = document.getElementById("order-done");
const TIMES = [["createdAt", gettext("Created")], ["paidAt", gettext("Paid")],
  ["shippedAt", gettext("Shipped")], ["completedAt", gettext("Completed")], ["cancelledAt", gettext("Cancelled")]];
// The payments', refunds' and payment events' states (in English as the API sends them) and
// kinds, as the admin names them.
const PAYMENT_WORDS = {
  OPEN: gettext("OPEN"), SUCCESS: gettext("SUCCESS"), CLOSED: gettext("CLOSED"),
  REQUESTED: gettext("REQUESTED"), PROCESSING: gettext("PROCESSING"), ABNORMAL: gettext("ABNORMAL"),
  wechat: gettext("WeChat Pay"), free: gettext("free"), manual: gettext("manual"),
  prepay: gettext("prepay"), notify: gettext("notify"), query: gettext("query"), close: gettext("close"),
  refund: gettext("refund"), "refund-query": gettext("refund query"), "refund-notify": gettext("refund notify"),
};
const word = (value) => PAYMENT_WORDS[value] ?? value;

function link(href, text) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

// A project's files are staff's (docs/security.md): fetched with the token, not followed.
function staffLink(href, text) {
  const anchor = link(href, text);
  anchor.addEventListener("click", (event) => {
    event.preventDefault();
    staffDownload(href).catch((failure) => { document.getElementById("order-error").textContent = failure.detail; });
  });
  return anchor;
}

function showOrder(order) {
  const status = document.getElementById("order-status");
  status.textContent = statusText(order.status);
  status.className = `status status-${order.status.toLowerCase()}`;
  document.getElementById("order-times").replaceChildren(...TIMES.filter(([key]) => order[key]).flatMap(([key, label]) => {
    const term = document.createElement("dt");
    term.textContent = label;
    const value = document.createElement("dd");
    value.textContent = when(order[key]);
    return [term, value];
  }));
  document.getElementById("order-items").replaceChildren(...order.items.map((item) => {
    const tr = document.createElement("tr");
    tr.append(cell(item.productName), cell(yuan(item.unitPrice)), cell(String(item.quantity)), cell(yuan(item.subtotal)));
    return tr;
  }));
  document.getElementById("order-total").textContent = yuan(order.totalAmount);
  const address = order.address;
  document.getElementById("order-address").replaceChildren(
    ...[`${address.recipient} · ${address.phone}`,
      [address.province, address.city, address.district].filter(Boolean).join(" "), address.detail]
      .flatMap((line) => [document.createTextNode(line), document.createElement("br")]));
  document.getElementById("order-request").textContent = order.requestId || "none";
  document.getElementById("order-user").textContent = order.userId;
}

// A design's thumbnail and file links: a job's poster (the smallest tile of its pyramid, or
// its PNG for a job without one) or a project's render, each with its print PDF (PDF/X-1a
// at the design's own size; docs/exports.md).
function design(item) {
  const entry = document.createElement("li");
  const thumbnail = document.createElement("img");
  thumbnail.alt = "";
  thumbnail.className = "design-thumbnail";
  const text = document.createElement("div");
  const links = document.createElement("p");
  links.className = "design-links";
  if (item.jobId) {
    const api = `/api/jobs/${item.jobId}`;
    thumbnail.src = `${api}/tiles/0/0_0.jpg`;
    thumbnail.addEventListener("error", () => { thumbnail.src = `${api}/files/png?inline=1`; }, { once: true });
    text.append(interpolate(gettext("Poster %(id)s × %(quantity)s"), { id: item.jobId, quantity: item.quantity }, true));
    links.append(link(`${api}/files/png`, "PNG"), " ", link(`${api}/files/svg`, "SVG"), " ",
      link(`${api}/files/svg_stroke`, gettext("SVG outline")), " ", link(`${api}/files/pdf`, gettext("print PDF")), " ",
      link(`/jobs/${item.jobId}/find`, gettext("lookup page")));
    // the approval the item was ordered by (docs/proofs.md)
    const approval = document.createElement("p");
    approval.className = "design-approval";
    approval.textContent = item.approval
      ? interpolate(gettext("Approved: version %(version)s of proof %(proof)s, %(at)s"),
        { version: item.approval.version, proof: item.approval.proofId, at: item.approval.approvedAt }, true)
      : gettext("No approval recorded");
    text.append(approval);
  } else {
    const api = `/api/projects/${item.projectId}`;
    staffFetch(`${api}/render.png`).then((response) => response.blob())
      .then((blob) => { thumbnail.src = URL.createObjectURL(blob); }, () => {});
    text.append(interpolate(gettext("Project %(id)s × %(quantity)s"), { id: item.projectId, quantity: item.quantity }, true));
    links.append(staffLink(`${api}/render.png`, "PNG"), " ", staffLink(`${api}/render.svg`, "SVG"), " ",
      staffLink(`${api}/render.pdf`, gettext("print PDF")));
  }
  text.append(links);
  entry.append(thumbnail, text);
  return entry;
}

async function showDesignList(designListId) {
  const head = document.getElementById("design-list-head");
  const items = document.getElementById("design-list-items");
  if (!designListId) {
    head.textContent = gettext("This order names no design list.");
    items.replaceChildren();
    return;
  }
  try {
    const list = await (await staffFetch(`/api/design-lists/${designListId}`)).json();
    head.textContent = `#${list.id} “${list.name}” · ${statusText(list.status)}`;
    items.replaceChildren(...list.items.map(design));
  } catch (failure) {
    head.textContent = failure.detail;
  }
}

function table(headings, rows) {
  const element = document.createElement("table");
  element.className = "rows";
  const head = document.createElement("tr");
  head.append(...headings.map((text) => {
    const th = document.createElement("th");
    th.textContent = text;
    return th;
  }));
  element.createTHead().append(head);
  const body = element.createTBody();
  body.append(...rows.map((values) => {
    const tr = document.createElement("tr");
    tr.append(...values.map((value) => cell(value)));
    return tr;
  }));
  return element;
}

function payment(record) {
  const section = document.createElement("section");
  section.className = "payment";
  const head = document.createElement("h3");
  head.textContent = `${word(record.kind)} ${record.outTradeNo} · ${word(record.status)} · ${yuan(record.amount)}`;
  section.append(head);
  if (record.needsAttention) {
    const flag = document.createElement("p");
    flag.className = "form-error";
    flag.textContent = interpolate(gettext("Needs attention: %s"), [record.attentionReason]);
    section.append(flag);
  }
  if (record.refunds.length) {
    section.append(table([gettext("Refund"), gettext("Amount"), gettext("Status"), gettext("Succeeded")], record.refunds.map((refund) =>
      [refund.outRefundNo, yuan(refund.amount), word(refund.status), refund.succeededAt ? when(refund.succeededAt) : ""])));
  }
  section.append(table([gettext("Event"), gettext("At"), gettext("Applied"), gettext("Outcome")], record.events.map((event) =>
    [word(event.kind), when(event.createdAt), event.applied ? gettext("yes") : gettext("no"), event.outcome])));
  return section;
}

async function showPayments() {
  const page = await (await staffFetch(`/api/payments?orderId=${orderId}&pageSize=100`)).json();
  document.getElementById("payments-empty").hidden = page.list.length > 0;
  document.getElementById("payments").replaceChildren(...page.list.map(payment));
}

// A paid order's production files (docs/commerce.md): per product and design, the files at
// the product's size with their signed links and preflight, or the failure's sentence and a
// retry.
function preparation(record) {
  const row = document.createElement("tr");
  const design = record.design.jobId ? `${gettext("Poster")} ${record.design.jobId}` : `${gettext("Project")} ${record.design.projectId}`;
  const size = `${record.kind} · ${record.widthMm ?? "–"} × ${record.heightMm ?? "–"} mm`;
  const files = document.createElement("td");
  for (const file of record.files) {
    const line = document.createElement("p");
    const anchor = link(file.url, file.name);
    anchor.download = file.name;
    line.append(anchor, ` ${Object.entries(file.preflight).map(([key, value]) => `${key} ${value}`).join(", ")}`);
    files.append(line);
  }
  if (record.status === "FAILED") {
    const sentence = document.createElement("p");
    sentence.className = "form-error";
    sentence.textContent = record.error;
    const retry = document.createElement("button");
    retry.type = "button";
    retry.textContent = gettext("Retry");
    retry.addEventListener("click", async () => {
      try {
        await staffFetch(`/api/orders/${orderId}/production/${record.id}/retry`, { method: "POST" });
        await showProduction();
      } catch (failure) {
        sentence.textContent = failure.detail;
      }
    });
    files.append(sentence, retry);
  }
  row.dataset.status = record.status;
  row.append(cell(design), cell(size), cell(record.status), files);
  return row;
}

async function showProduction() {
  const records = await (await staffFetch(`/api/orders/${orderId}/production`)).json();
  document.getElementById("production-empty").hidden = records.length > 0;
  const element = table([gettext("Design"), gettext("Product size"), gettext("Status"), gettext("Files")], []);
  element.tBodies[0].append(...records.map(preparation));
  document.getElementById("production").replaceChildren(...(records.length ? [element] : []));
}

async function load() {
  try {
    const order = await (await staffFetch(`/api/orders/${orderId}`)).json();
    showOrder(order);
    showDesignList(order.designListId);
    await showPayments();
    await showProduction();
  } catch (failure) {
    error.textContent = failure.detail;
  }
}

async function move(action, sentence) {
  error.textContent = done.textContent = "";
  try {
    showOrder(await (await staffFetch(`/api/orders/${orderId}/${action}`, { method: "POST" })).json());
    done.textContent = sentence;
    await showPayments();
  } catch (failure) {
    error.textContent = failure.detail;
  }
}

document.getElementById("order-mark-paid").addEventListener("click", () => move("mark-paid", gettext("Marked paid.")));
document.getElementById("order-ship").addEventListener("click", () => move("ship", gettext("Shipped.")));
document.getElementById("staff-sign-out").addEventListener("click", staffSignOut);

staffGate(document.getElementById("staff-sign-in"), area, load);
