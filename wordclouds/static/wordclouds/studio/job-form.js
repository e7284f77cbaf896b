// The new-job form: name-list preview and column choice (names, weights, groups), the shape
// (the rectangle, a mask image previewed, or a text shape with its groups' letters
// previewed), fonts, the params object, and the submit to POST /api/jobs.
import { apiJson, clearErrors, showError } from "./api.js";
import { RegionsPreview } from "./groups.js";
import { MaskPreview } from "./mask.js";
import { SizeAdvice } from "./size-advice.js";

const $ = (id) => document.getElementById(id);

function columnName(index) {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

function numberOf(id) {
  const text = $(id).value.trim();
  return text === "" ? undefined : Number(text);
}

export class JobForm {
  constructor(form, { onSubmitted }) {
    this.form = form;
    this.onSubmitted = onSubmitted;
    this.mask = new MaskPreview($("mask-canvas"));
    $("name-list").addEventListener("change", () => this.previewNames());
    $("data-col").addEventListener("change", () => this.markColumn());
    $("weight-col").addEventListener("change", () => this.markColumn());
    $("group-col").addEventListener("change", () => this.markColumn());
    $("shape").addEventListener("change", () => {
      $("text-shape").hidden = $("shape").value !== "TEXT";
    });
    $("skip-rows").addEventListener("input", () => this.markColumn());
    $("mask-image").addEventListener("change", () => this.previewMask());
    $("mask-threshold").addEventListener("input", () => this.drawMask());
    $("one-color").addEventListener("change", () => {
      $("font-color").disabled = !$("one-color").checked;
      $("palette").disabled = $("one-color").checked;
    });
    $("transparent").addEventListener("change", () => {
      $("background").disabled = $("transparent").checked;
    });
    $("palette").addEventListener("input", () => this.drawSwatches());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    // The advice follows every change once the list's columns are chosen (the preview shown).
    this.advice = new SizeAdvice({ body: () => this.body() });
    this.regions = new RegionsPreview({
      body: () => this.body(),
      wanted: () => !$("name-preview").hidden && $("shape").value === "TEXT"
        && $("group-col").value !== "" && $("mask-text").value.trim() !== "",
    });
    for (const kind of ["input", "change"]) {
      form.addEventListener(kind, () => {
        if (!$("name-preview").hidden) this.advice.changed();
        this.regions.changed();
      });
    }
    this.drawSwatches();
    this.loadFonts();
  }

  async loadFonts() {
    const select = $("font-id");
    try {
      const fonts = await apiJson("/api/fonts");
      const options = () => fonts.map((font) => new Option(
        font.is_default ? interpolate(gettext("%s (bundled)"), [font.family]) : `${font.name} · ${font.family}`,
        font.id));
      select.replaceChildren(...options());
      $("mask-font").replaceChildren(new Option(gettext("the poster's font"), ""), ...options());
    } catch (error) {
      showError(this.form, `font_id: ${error.detail}`);
    }
  }

  async previewNames() {
    const file = $("name-list").files[0];
    $("name-preview").hidden = true;
    clearErrors(this.form);
    if (!file) return;
    const body = new FormData();
    body.append("name_list", file);
    try {
      const { rows } = await apiJson("/api/name-lists/preview", { method: "POST", body });
      this.showRows(rows);
    } catch (error) {
      showError(this.form, error.detail);
    }
  }

  showRows(rows) {
    const width = Math.max(1, ...rows.map((row) => row.length));
    const table = $("name-preview-table");
    const head = document.createElement("tr");
    head.append(document.createElement("th"));
    for (let column = 0; column < width; column += 1) {
      const cell = document.createElement("th");
      cell.textContent = columnName(column);
      cell.dataset.column = column;
      cell.title = gettext("use this column");
      cell.addEventListener("click", () => {
        $("data-col").value = column;
        this.markColumn();
      });
      head.append(cell);
    }
    const body = rows.map((row, index) => {
      const line = document.createElement("tr");
      const number = document.createElement("th");
      number.textContent = index + 1;
      line.append(number);
      for (let column = 0; column < width; column += 1) {
        const cell = document.createElement("td");
        cell.textContent = row[column] ?? "";
        cell.dataset.column = column;
        line.append(cell);
      }
      return line;
    });
    table.replaceChildren(head, ...body);
    const header = rows[0] ?? [];
    const columnOptions = () => Array.from({ length: width }, (_, column) => new Option(
      header[column] ? `${columnName(column)} · ${header[column]}` : columnName(column), column));
    $("data-col").replaceChildren(...columnOptions());
    $("data-col").value = this.likelyNamesColumn(rows, width);
    $("weight-col").replaceChildren(new Option(gettext("none"), ""), ...columnOptions());
    $("group-col").replaceChildren(new Option(gettext("none"), ""), ...columnOptions());
    $("name-preview").hidden = false;
    this.markColumn();
    this.advice.changed();
  }

  // A first guess a person then checks: the column with the most cells below the header
  // rows that are text rather than numbers (a list often starts with a number column).
  likelyNamesColumn(rows, width) {
    const skip = Number($("skip-rows").value) || 0;
    const data = rows.slice(skip);
    let best = 0;
    let bestCount = -1;
    for (let column = 0; column < width; column += 1) {
      const count = data.filter((row) => {
        const text = row[column] ?? "";
        return text !== "" && Number.isNaN(Number(text));
      }).length;
      if (count > bestCount) [best, bestCount] = [column, count];
    }
    return best;
  }

  // The chosen column, below the header rows, is what the engine will read; the weight and
  // group columns beside it are marked too, and the scaling only matters with weights.
  markColumn() {
    const column = $("data-col").value;
    const weights = $("weight-col").value;
    const groups = $("group-col").value;
    const skip = Number($("skip-rows").value) || 0;
    for (const cell of $("name-preview-table").querySelectorAll("[data-column]")) {
      const row = cell.parentElement.rowIndex;
      cell.classList.toggle("chosen", cell.dataset.column === column);
      cell.classList.toggle("read", cell.dataset.column === column && row > skip);
      cell.classList.toggle("weight", cell.dataset.column === weights);
      cell.classList.toggle("group", cell.dataset.column === groups);
    }
    $("relative-scaling").disabled = weights === "";
  }

  async previewMask() {
    const file = $("mask-image").files[0];
    $("mask-preview").hidden = !file;
    clearErrors(this.form);
    if (!file) return;
    try {
      await this.mask.load(file);
      this.drawMask();
    } catch {
      $("mask-preview").hidden = true;
      showError(this.form, gettext("mask_image is not a readable image"));
    }
  }

  drawMask() {
    const threshold = Number($("mask-threshold").value);
    $("mask-threshold-value").value = threshold;
    const share = this.mask.draw(threshold);
    if (share === 0 && $("mask-image").files[0]) {
      showError(this.form, gettext("params.MASK_THRESHOLD leaves no drawable area: raise it"));
    } else {
      clearErrors(this.form);
    }
  }

  paletteColors() {
    return $("palette").value.split(/[\s,]+/).filter(Boolean);
  }

  drawSwatches() {
    $("palette-swatches").replaceChildren(...this.paletteColors().map((color) => {
      const swatch = document.createElement("span");
      swatch.style.background = color;
      return swatch;
    }));
  }

  params() {
    const hasMask = Boolean($("mask-image").files[0]);
    const text = $("shape").value === "TEXT";
    const params = {
      MODE: text ? "TEXT" : hasMask ? "IMAGE" : "RECT",
      DATA_COL_INDEX: Number($("data-col").value || 0),
      SKIP_ROWS: numberOf("skip-rows"),
      WIDTH: numberOf("width"),
      HEIGHT: numberOf("height"),
      MIN_FONT_SIZE: numberOf("min-font"),
      MAX_FONT_SIZE: numberOf("max-font"),
      PRINT_WIDTH_MM: numberOf("print-width-mm"),
      MIN_NAME_PT: numberOf("min-name-pt"),
      SEED: numberOf("seed"),
      N_REPETITIONS: numberOf("repetitions"),
      MARGIN: numberOf("margin"),
      PREFER_HORIZONTAL: numberOf("prefer-horizontal"),
      VERTICAL_STYLE: $("vertical-style").value,
      LOCALE: $("locale").value,
      BACKGROUND_COLOR: $("transparent").checked ? "transparent" : $("background").value,
    };
    if (hasMask) {
      if (!text) params.MASK_THRESHOLD = Number($("mask-threshold").value);
      params.COLOR_FROM_MASK = $("color-from-mask").checked;
    }
    if (text) { // a mask image then only gives colours (docs/engine.md, Text as the mask)
      params.MASK_TEXT = $("mask-text").value.replace(/\r/g, "");
      params.MASK_TEXT_SPACING = numberOf("mask-text-spacing");
      if ($("mask-font").value) params.MASK_FONT_ID = $("mask-font").value;
    }
    if ($("group-col").value !== "") params.GROUP_COL_INDEX = Number($("group-col").value);
    if ($("weight-col").value !== "") {
      params.WEIGHT_COL_INDEX = Number($("weight-col").value);
      params.RELATIVE_SCALING = numberOf("relative-scaling");
    }
    if ($("name-gap")) params.NAME_GAP = numberOf("name-gap");
    if ($("one-color").checked) params.FONT_COLOR = $("font-color").value;
    else params.PALETTE = this.paletteColors();
    return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
  }

  // The multipart body of a job (and of its size advice): the files, the font, the params.
  body() {
    const body = new FormData();
    const files = { name_list: "name-list", mask_image: "mask-image", font_file: "font-file" };
    for (const [field, id] of Object.entries(files)) {
      if ($(id).files[0]) body.append(field, $(id).files[0]);
    }
    if (!$("font-file").files[0]) body.append("font_id", $("font-id").value);
    body.append("params", JSON.stringify(this.params()));
    return body;
  }

  async submit() {
    clearErrors(this.form);
    const body = this.body();
    $("submit").disabled = true;
    try {
      const { job_id: jobId } = await apiJson("/api/jobs", { method: "POST", body });
      this.onSubmitted(jobId);
    } catch (error) {
      showError(this.form, error.detail);
    } finally {
      $("submit").disabled = false;
    }
  }
}
