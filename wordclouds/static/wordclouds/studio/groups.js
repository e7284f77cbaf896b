// Groups (GROUP_COL_INDEX): the regions preview of a text shape before the poster is made,
// and the legend of groups and colours beside the finished poster.
//
// The preview asks POST /api/jobs/regions-preview (staff only) with the job form's own
// inputs: MASK_TEXT's letters as outlines on the canvas and, per group in spreadsheet order,
// the letters it will fill and its colour; each letter is drawn outlined and tinted in its
// group's colour.
import { number } from "/static/i18n.js";
import { apiJson } from "./api.js";
import { SETTLE_MS, signature } from "./size-advice.js";

const $ = (id) => document.getElementById(id);
const PREVIEW_SIDE = 480;
const TINT_ALPHA = "66"; // the fill's alpha over the group's #rrggbb: the outline stays legible

// One legend line: the colour's swatch, the group's name, its colour and `detail`.
export function legendItem(group, color, detail) {
  const item = document.createElement("li");
  item.dataset.group = group;
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = color;
  swatch.dataset.color = color;
  const name = document.createElement("span");
  name.className = "group-name";
  name.textContent = group;
  const code = document.createElement("code");
  code.textContent = color;
  item.append(swatch, name, code, ` · ${detail}`);
  return item;
}

function lettersText(letters) {
  return interpolate(ngettext("letter %s", "letters %s", letters.length), [letters.join(", ")]);
}

// metrics.json's `region` of a group ("letter 0, 1", "colour #C81E1E", "strip 2") in words.
function regionText(region) {
  const [kind, ...rest] = region.split(" ");
  const items = rest.join(" ").split(", ");
  if (kind === "letter") return lettersText(items);
  if (kind === "colour") return interpolate(gettext("colours %s"), [items.join(", ")]);
  return interpolate(gettext("strip %s"), [items.join(", ")]);
}

// The finished poster's legend, from its metrics' `groups` (hidden without groups).
export function showLegend(groups) {
  const entries = Object.entries(groups ?? {});
  $("group-legend").replaceChildren(...entries.map(([group, figures]) => legendItem(
    group, figures.color,
    interpolate(gettext("%(placed)s of %(names)s names · %(region)s"), {
      placed: number(figures.placed), names: number(figures.names), region: regionText(figures.region),
    }, true))));
  $("group-legend-panel").hidden = entries.length === 0;
}

export class RegionsPreview {
  // `body` gives the job form's multipart body; `wanted` whether there is anything to show
  // (a text shape, a group column, a list).
  constructor({ body, wanted }) {
    this.body = body;
    this.wanted = wanted;
    this.asked = 0;
    this.timer = null;
  }

  changed() {
    clearTimeout(this.timer);
    if (!this.wanted()) {
      this.asked += 1; // an answer on its way is dropped
      this.question = null;
      $("regions-preview").hidden = true;
      return;
    }
    this.timer = setTimeout(() => this.ask(), SETTLE_MS);
  }

  async ask() {
    const body = this.body();
    const question = signature(body);
    if (question === this.question) return;
    this.question = question;
    const asked = ++this.asked;
    $("regions-preview").hidden = false;
    $("regions-status").textContent = gettext("drawing the regions…");
    try {
      const preview = await apiJson("/api/jobs/regions-preview", { method: "POST", body });
      if (asked === this.asked) this.show(preview);
    } catch (error) {
      if (asked !== this.asked) return;
      this.question = null;
      $("regions-canvas").hidden = true;
      $("regions-list").replaceChildren();
      $("regions-status").textContent = error.status === 401 || error.status === 403
        ? gettext("Sign in as staff (below) to see the groups' letters before the poster is made.")
        : error.detail;
    }
  }

  show(preview) {
    const owner = new Map();
    for (const group of preview.groups) {
      for (const letter of group.letters) owner.set(letter, group.color);
    }
    const canvas = $("regions-canvas");
    const scale = Math.min(1, PREVIEW_SIDE / Math.max(preview.width, preview.height));
    canvas.width = Math.max(1, Math.round(preview.width * scale));
    canvas.height = Math.max(1, Math.round(preview.height * scale));
    const context = canvas.getContext("2d");
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.lineWidth = 1;
    context.strokeStyle = "#1d2330";
    preview.letters.forEach((letter, index) => {
      const path = new Path2D();
      for (const contour of letter.contours) {
        contour.forEach(([x, y], k) => (k ? path.lineTo(x * scale, y * scale) : path.moveTo(x * scale, y * scale)));
        path.closePath();
      }
      const color = owner.get(index);
      if (color) {
        context.fillStyle = color + TINT_ALPHA;
        context.fill(path, "evenodd");
      }
      context.stroke(path);
    });
    canvas.hidden = false;
    canvas.dataset.letters = preview.letters.length;
    $("regions-list").replaceChildren(...preview.groups.map((group) => legendItem(
      group.group, group.color,
      interpolate(gettext("%(names)s names · %(letters)s"),
        { names: number(group.names), letters: lettersText(group.letters) }, true))));
    $("regions-status").textContent = interpolate(
      gettext("Each group's letters, tinted in its colour (the text: %s)."),
      [preview.letters.map((letter) => letter.text).join("")]);
  }
}
