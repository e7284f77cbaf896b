// The print size advice beside the print-size inputs: while the list, the mask, the font and
// the params are chosen, POST /api/jobs/size-advice with the job form's own inputs answers,
// without laying out, the smallest A size on which every name fits at MIN_NAME_PT and, with
// a printed width, the smallest name to expect there.
import { number } from "/static/i18n.js";
import { apiJson } from "./api.js";
import { definitions } from "./terms.js";

const $ = (id) => document.getElementById(id);
// How long the inputs must rest before the advice is asked for (typing a width).
export const SETTLE_MS = 400;

function sheet(size) {
  return interpolate(gettext("%(name)s (%(width)s × %(height)s mm)"),
    { name: size.name, width: number(size.width_mm), height: number(size.height_mm) }, true);
}

// What a multipart body asks: its fields, and each file by name, size and time.
export function signature(body) {
  return JSON.stringify([...body.entries()].map(([key, value]) =>
    [key, value instanceof File ? [value.name, value.size, value.lastModified] : value]));
}

export class SizeAdvice {
  // `body` gives the job form's multipart body (the list, mask, font and params).
  constructor({ body }) {
    this.body = body;
    this.asked = 0;
    this.timer = null;
  }

  // Ask again once the inputs settle; an answer to an earlier question is dropped.
  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), SETTLE_MS);
  }

  async ask() {
    const body = this.body();
    const question = signature(body);
    if (question === this.question) return;  // a change event after the same edit's input
    this.question = question;
    const asked = ++this.asked;
    $("size-advice").hidden = false;
    $("size-advice").classList.remove("warning");
    $("size-advice-status").textContent = gettext("estimating…");
    $("size-advice-result").replaceChildren();
    try {
      const advice = await apiJson("/api/jobs/size-advice", { method: "POST", body });
      if (asked === this.asked) this.show(advice);
    } catch (error) {
      if (asked !== this.asked) return;
      this.question = null;  // the same inputs may be asked again
      $("size-advice-status").textContent = error.detail;
    }
  }

  show(advice) {
    const rows = [[
      "smallest",
      gettext("smallest size that fits"),
      advice.smallest ? sheet(advice.smallest) : gettext("none up to 4A0"),
    ]];
    const printed = advice.printed;
    if (printed) {
      rows.push([
        "printed",
        interpolate(gettext("smallest name at %s mm wide"), [number(printed.width_mm)]),
        interpolate(gettext("about %s pt"), [number(printed.expected_smallest_name_pt)]),
      ]);
    }
    $("size-advice-result").replaceChildren(...definitions(rows));
    const tooSmall = printed && !printed.fits;
    $("size-advice").classList.toggle("warning", Boolean(tooSmall));
    $("size-advice-status").textContent = tooSmall
      ? gettext("At this width the names would print smaller than asked: the poster would fail. Choose a larger width.")
      : printed ? gettext("Every name fits at this width.")
        : gettext("Give a printed width to see the smallest name there.");
  }
}
