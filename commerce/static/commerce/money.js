// What the orders pages share: money in yuan (the API counts fen), times in the shop's time
// zone (static/i18n.js).
export { when } from "/static/i18n.js";

const yuanFormat = new Intl.NumberFormat(document.documentElement.lang || "en", {
  minimumFractionDigits: 2, maximumFractionDigits: 2,
});

// The orders' and design lists' states: in English as the API sends them, in Chinese as the
// admin names them.
const STATES = {
  PENDING: gettext("PENDING"), PAID: gettext("PAID"), SHIPPED: gettext("SHIPPED"),
  COMPLETED: gettext("COMPLETED"), CANCELLED: gettext("CANCELLED"),
  DRAFT: gettext("DRAFT"), SUBMITTED: gettext("SUBMITTED"), PROCESSING: gettext("PROCESSING"),
  DONE: gettext("DONE"),
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
