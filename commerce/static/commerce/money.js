// What the orders pages share: money in yuan (the API counts fen), times in the shop's time
// zone (static/i18n.js).
export { when } from "/static/i18n.js";

const yuanFormat = new Intl.NumberFormat(document.documentElement.lang || "en", {
  minimumFractionDigits: 2, maximumFractionDigits: 2,
});

// The orders' and design lists' states, as the admin names them (the API sends PENDING...).
const STATES = {
  PENDING: gettext("pending"), PAID: gettext("paid"), SHIPPED: gettext("shipped"),
  COMPLETED: gettext("completed"), CANCELLED: gettext("cancelled"),
  DRAFT: gettext("draft"), SUBMITTED: gettext("submitted"), PROCESSING: gettext("processing"),
  DONE: gettext("done"),
};

export function statusText(status) {
  return STATES[status] ?? status;
}

export function yuan(fen) {
  return `¥${yuanFormat.format(fen / 100)}`;
}

export function cell(text, className) {
  const element = document.createElement("td");
  element.textContent = text;
  if (className) element.className = className;
  return element;
}
