// The studio's only way to the service: the public /api, whose errors are {"detail": ...}.
// Signed in as staff (static/staff-session.js), every call carries the staff token: staff may
// list and revise every job; without it the studio makes and follows jobs as anyone.
import { staffSignOut, staffToken } from "/static/staff-session.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

export async function api(path, options = {}) {
  const token = staffToken();
  const headers = token ? { ...(options.headers || {}), Authorization: `Bearer ${token}` } : options.headers;
  let response;
  try {
    response = await fetch(path, { ...options, headers });
  } catch {
    throw new ApiError(0, gettext("the service cannot be reached; check the connection and try again"));
  }
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      detail = (await response.json()).detail ?? detail;
    } catch {
      // not JSON: keep the status line
    }
    if (token && response.status === 401) staffSignOut(); // expired: back to the sign-in
    throw new ApiError(response.status, detail);
  }
  return response;
}

export async function apiJson(path, options) {
  return (await api(path, options)).json();
}

export function postJson(path, body) {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll("[data-error-for]")) slot.textContent = "";
  for (const field of form.querySelectorAll(".invalid")) field.classList.remove("invalid");
}

// An error is shown next to the field its detail names ("params.MARGIN must be …",
// "unknown font_id"): the slot whose name comes first in the text as a whole word; a detail
// naming no field of this form goes to the form's own slot.
export function showError(form, detail) {
  clearErrors(form);
  let best = null;
  for (const slot of form.querySelectorAll("[data-error-for]:not([data-error-for=''])")) {
    const name = slot.dataset.errorFor.replace(/[.]/g, "\\.");
    const found = new RegExp(`(^|[^\\w.])${name}(?!\\w)`).exec(detail);
    if (found && (best === null || found.index < best.index)) best = { slot, index: found.index };
  }
  const slot = best ? best.slot : form.querySelector("[data-error-for='']");
  slot.textContent = detail;
  const field = slot.closest(".field");
  if (field) field.classList.add("invalid");
  slot.scrollIntoView({ block: "nearest" });
}

export function saveBlob(blob, filename) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
