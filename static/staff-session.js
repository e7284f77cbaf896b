// The staff token of the studio, the lookup and the orders pages: POST /api/login with the admin password,
// kept for this tab only (sessionStorage), dropped as soon as the service refuses it
// (expired after 12 hours, or the secret key changed), so the page goes back to sign-in.

const KEY = "wordclouds.staffToken";
const listeners = new Set();

export class StaffRequestError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

export function staffToken() {
  return sessionStorage.getItem(KEY);
}

// `callback(signedIn)` runs whenever the token comes or goes.
export function onStaffChange(callback) {
  listeners.add(callback);
}

function changed() {
  for (const callback of listeners) callback(Boolean(staffToken()));
}

export function staffSignOut() {
  sessionStorage.removeItem(KEY);
  changed();
}

async function detailOf(response) {
  try {
    return (await response.json()).detail ?? `${response.status} ${response.statusText}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

// Resolves when signed in; rejects with the service's sentence (wrong password, throttled).
export async function staffSignIn(password) {
  let response;
  try {
    response = await fetch("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password }),
    });
  } catch {
    throw new StaffRequestError(0, gettext("the service cannot be reached; check the connection and try again"));
  }
  if (!response.ok) throw new StaffRequestError(response.status, await detailOf(response));
  sessionStorage.setItem(KEY, (await response.json()).token);
  changed();
}

// fetch() with the token. A 401 or 403 that says the token is no good signs out; every
// other error rejects with the service's own sentence.
export async function staffFetch(path, options = {}) {
  const token = staffToken();
  const headers = { ...(options.headers || {}), Authorization: `Bearer ${token}` };
  let response;
  try {
    response = await fetch(path, { ...options, headers });
  } catch {
    throw new StaffRequestError(0, gettext("the service cannot be reached; check the connection and try again"));
  }
  if (response.ok) return response;
  const detail = await detailOf(response);
  if (response.status === 401) { // no token, or it is expired (or the secret key changed)
    staffSignOut();
  }
  throw new StaffRequestError(response.status, detail);
}

// A file for staff: fetched with the token and saved under the name the service gives it
// (a link cannot carry the token).
export async function staffDownload(path) {
  const response = await staffFetch(path);
  const disposition = response.headers.get("Content-Disposition") || "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] || path.split("/").pop();
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(await response.blob());
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(anchor.href), 60_000);
}

// Wires a sign-in form: <form> with an input[type=password] and a [role=alert] for errors.
export function staffSignInForm(form) {
  const password = form.querySelector("input[type=password]");
  const error = form.querySelector("[role=alert]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await staffSignIn(password.value);
      password.value = "";
    } catch (failure) {
      error.textContent = failure.detail;
    }
  });
}

// A page (or part of one) for staff only: `signIn` (a sign-in form) shows while there is no
// token, `area` while there is one; `onSignedIn()` runs each time the area appears. The
// password field takes the focus when the page is for staff only (`focus`), not otherwise.
export function staffGate(signIn, area, onSignedIn, { focus = true } = {}) {
  staffSignInForm(signIn);
  const show = (signedIn) => {
    signIn.hidden = signedIn;
    area.hidden = !signedIn;
    if (signedIn) onSignedIn();
    else if (focus) signIn.querySelector("input[type=password]").focus();
  };
  onStaffChange(show);
  show(Boolean(staffToken()));
}
