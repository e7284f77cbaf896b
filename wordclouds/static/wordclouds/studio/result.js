// A finished job: the poster (zoomable), a summary of its metrics (and its groups' legend), its downloads, custom.svg
// fills, the .ai export, the print PDF and the line-spacing check at print size.
import { number } from "/static/i18n.js";
import { api, apiJson, clearErrors, postJson, saveBlob, showError } from "./api.js";
import { showLegend } from "./groups.js";
import { definitions } from "./terms.js";

const $ = (id) => document.getElementById(id);
const ZOOM_STEP = 1.5;
const KIND_LABELS = {
  png: gettext("Poster PNG"),
  svg: gettext("Poster SVG"),
  svg_stroke: gettext("Outline SVG"),
  db: gettext("Positions database"),
  metrics: gettext("Metrics (JSON)"),
};
const FILL_FIELDS = {
  fill: [],
  dot: ["spacing", "radius"],
  line: ["line_spacing", "line_width", "line_angle"],
  ring: ["ring_radius", "ring_width", "ring_spacing"],
};
// What the summary shows of metrics.json, each only when the metrics have it.
const SUMMARY = [
  ["placed", gettext("names placed"), (m) => interpolate(gettext("%(placed)s of %(read)s"),
    { placed: number(m.names_placed), read: number(m.names_read) }, true)],
  ["sizes", gettext("font sizes"), (m) => `${number(m.font_size.min)}–${number(m.font_size.max)} px`],
  ["coverage", gettext("box coverage"), (m) => number(m.box_coverage)],
  ["weights", gettext("weights"), (m) => m.weights && m.weights.column !== null
    ? interpolate(gettext("%(min)s–%(max)s (column %(column)s)"),
      { min: number(m.weights.min), max: number(m.weights.max), column: m.weights.column }, true)
    : undefined],
  ["contrast", gettext("lowest contrast"), (m) => m.lowest_contrast === undefined
    ? undefined : `${m.lowest_contrast}:1`],
];
const SPACING_RESULT = [
  ["spacingMm", gettext("spacing at the percentile"), "mm"],
  ["minSpacingMm", gettext("closest approach"), "mm"],
  ["spacingPx", gettext("spacing at the percentile"), "px"],
  ["minSpacingPx", gettext("closest approach"), "px"],
  ["curveCount", gettext("outlines"), ""],
  ["elementWidth", gettext("print width"), "mm"],
  ["elementHeight", gettext("print height"), "mm"],
];

export class JobResult {
  constructor() {
    this.zoom = null;
    for (const button of document.querySelectorAll("[data-zoom]")) {
      button.addEventListener("click", () => this.zoomBy(button.dataset.zoom));
    }
    $("poster-frame").addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      this.zoomBy(event.deltaY < 0 ? "in" : "out");
    });
    $("custom-fill").addEventListener("change", () => this.showFillFields());
    this.showFillFields();
    this.bind("custom-form", () => this.previewCustom());
    this.bind("ai-form", () => this.exportAi());
    this.bind("pdf-form", () => this.printPdf());
    for (const id of ["pdf-size", "pdf-standard", "pdf-marks", "min-name-pt"]) {
      $(id).addEventListener("change", () => {
        if (this.jobId && !$("result-panel").hidden) this.preflight();
      });
    }
    this.bind("spacing-form", () => this.checkSpacing());
  }

  bind(id, action) {
    const form = $(id);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        await action();
      } catch (error) {
        showError(form, error.detail ?? String(error));
      } finally {
        button.disabled = false;
      }
    });
  }

  show(job) {
    this.jobId = job.job_id;
    $("result-panel").hidden = false;
    const poster = $("poster");
    poster.src = `${job.artifacts.png}?inline=1`;
    $("find-link").href = `/jobs/${job.job_id}/find`;
    this.zoomBy("fit");
    $("downloads").replaceChildren(...Object.entries(job.artifacts).map(([kind, path]) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = path;
      link.download = "";
      link.textContent = KIND_LABELS[kind] ?? kind;
      link.dataset.kind = kind;
      item.append(link);
      if (kind === "png" || kind === "svg" || kind === "svg_stroke") {
        const view = document.createElement("a");
        view.href = `${path}?inline=1`;
        view.target = "_blank";
        view.textContent = gettext("view");
        item.append(" · ", view);
      }
      return item;
    }));
    this.showSummary(job.artifacts.metrics);
    $("custom-preview").hidden = true;
    $("custom-download").hidden = true;
    $("spacing-result").hidden = true;
    $("ai-status").textContent = "";
    $("pdf-status").textContent = "";
    this.preflight();
  }

  async showSummary(path) {
    $("result-summary").replaceChildren();
    $("contrast-warning").hidden = true;
    showLegend({});
    let metrics;
    try {
      metrics = await apiJson(path);
    } catch {
      return; // the downloads still offer the file
    }
    const rows = SUMMARY.map(([key, label, value]) => [key, label, value(metrics)]);
    $("result-summary").append(...definitions(rows.filter(([, , shown]) => shown !== undefined)));
    showLegend(metrics.groups);
    if (metrics.contrast_warning) {
      $("contrast-warning").textContent = metrics.contrast_warning;
      $("contrast-warning").hidden = false;
    }
  }

  hide() {
    $("result-panel").hidden = true;
  }

  zoomBy(how) {
    const poster = $("poster");
    const natural = poster.naturalWidth || 1;
    const fitted = $("poster-frame").clientWidth / natural;
    const current = this.zoom ?? fitted;
    this.zoom = { in: current * ZOOM_STEP, out: current / ZOOM_STEP, fit: null }[how];
    poster.style.width = this.zoom === null ? "100%" : `${Math.round(natural * this.zoom)}px`;
    $("zoom-level").textContent = this.zoom === null ? gettext("fit") : `${Math.round(this.zoom * 100)}%`;
  }

  showFillFields() {
    const fill = $("custom-fill").value;
    for (const row of document.querySelectorAll("[data-fill]")) row.hidden = row.dataset.fill !== fill;
  }

  customQuery() {
    const fill = $("custom-fill").value;
    const query = new URLSearchParams({
      fill, color: $("custom-color").value, stroke: $("custom-stroke").checked ? "1" : "0",
    });
    for (const name of FILL_FIELDS[fill]) {
      query.set(name, $("custom-form").elements[name].value);
    }
    return query;
  }

  async customSvg() {
    const response = await api(`/api/jobs/${this.jobId}/custom.svg?${this.customQuery()}`);
    return response.blob();
  }

  async previewCustom() {
    const blob = await this.customSvg();
    const url = URL.createObjectURL(blob);
    $("custom-preview").src = url;
    $("custom-preview").hidden = false;
    $("custom-download").href = url;
    $("custom-download").download = `custom-${this.jobId}.svg`;
    $("custom-download").hidden = false;
  }

  async exportAi() {
    $("ai-status").textContent = gettext("converting…");
    try {
      const source = $("ai-source").value === "custom"
        ? await this.customSvg()
        : await (await api(`/api/jobs/${this.jobId}/files/svg`)).blob();
      const filename = `wordcloud-${this.jobId}`;
      const response = await postJson("/api/exports/ai", { svg: await source.text(), filename });
      saveBlob(await response.blob(), `${filename}.ai`);
      $("ai-status").textContent = interpolate(gettext("%s saved"), [`${filename}.ai`]);
    } catch (error) {
      $("ai-status").textContent = "";
      throw error;
    }
  }

  // The print PDF's query: an A-size sheet turned to the poster's orientation, or the
  // poster's own size (the service fits the poster inside the sheet); the smallest name the
  // preflight counts against is the job form's MIN_NAME_PT.
  pdfQuery() {
    const query = new URLSearchParams({ standard: $("pdf-standard").value });
    if ($("pdf-marks").checked) query.set("marks", "1");
    const size = $("pdf-size").value;
    if (size) {
      const [short, long] = size.split("x");
      const poster = $("poster");
      const landscape = poster.naturalWidth > poster.naturalHeight;
      query.set("width_mm", landscape ? long : short);
      query.set("height_mm", landscape ? short : long);
    }
    const smallest = $("min-name-pt").value.trim();
    if (smallest !== "") query.set("min_name_pt", smallest);
    return query;
  }

  // The preflight of the print PDF as chosen (GET …/files/pdf?…&preflight=1), beside its
  // button: the smallest name, how many are under MIN_NAME_PT, the thinnest stroke, the
  // coverage; in the warning style when names would print too small.
  async preflight() {
    const jobId = this.jobId;
    const asked = (this.preflightAsked = (this.preflightAsked ?? 0) + 1);
    const panel = $("pdf-preflight");
    panel.hidden = false;
    panel.classList.remove("warning");
    $("pdf-preflight-status").textContent = gettext("checking…");
    $("pdf-preflight-result").replaceChildren();
    await $("poster").decode().catch(() => {}); // its orientation turns the sheet
    const query = this.pdfQuery();
    query.set("preflight", "1");
    let report;
    try {
      report = await apiJson(`/api/jobs/${jobId}/files/pdf?${query}`);
    } catch (error) {
      if (asked === this.preflightAsked) $("pdf-preflight-status").textContent = error.detail;
      return;
    }
    if (asked !== this.preflightAsked) return;
    const tooSmall = report.namesUnderMinPt > 0;
    const smallest = report.smallestNamePt === null ? "—" : interpolate(
      gettext("%(pt)s pt (%(mm)s mm)"),
      { pt: number(report.smallestNamePt), mm: number(report.smallestNameMm) }, true);
    const thinnest = report.thinnestStrokePt === null
      ? "—" : interpolate(gettext("%s pt"), [number(report.thinnestStrokePt)]);
    $("pdf-preflight-result").replaceChildren(...definitions([
      ["smallestName", gettext("smallest name"), smallest],
      ["namesUnderMinPt", interpolate(gettext("names under %s pt"), [number(report.minNamePt)]),
        interpolate(gettext("%(under)s of %(names)s"),
          { under: number(report.namesUnderMinPt), names: number(report.names) }, true)],
      ["thinnestStroke", gettext("thinnest stroke"), thinnest],
      ["coverage", gettext("box coverage"), number(report.inkBoxCoverage)],
    ]));
    panel.classList.toggle("warning", tooSmall);
    $("pdf-preflight-status").textContent = interpolate(
      tooSmall
        ? gettext("Too small: some names would print under %(min)s pt at %(width)s × %(height)s mm. Choose a larger size.")
        : gettext("Every name prints at %(min)s pt or more at %(width)s × %(height)s mm."),
      { min: number(report.minNamePt), width: number(report.widthMm), height: number(report.heightMm) },
      true,
    );
  }

  // The print PDF (GET …/files/pdf) as pdfQuery() chooses it.
  async printPdf() {
    const query = this.pdfQuery();
    $("pdf-status").textContent = gettext("drawing…");
    try {
      const response = await api(`/api/jobs/${this.jobId}/files/pdf?${query}`);
      const disposition = response.headers.get("Content-Disposition") ?? "";
      const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `wordcloud-${this.jobId}.pdf`;
      saveBlob(await response.blob(), filename);
      $("pdf-status").textContent = interpolate(gettext("%s saved"), [filename]);
    } catch (error) {
      $("pdf-status").textContent = "";
      throw error;
    }
  }

  async checkSpacing() {
    const form = $("spacing-form");
    const body = {};
    for (const name of ["elementWidth", "elementHeight", "percentile", "sampleStep"]) {
      const text = form.elements[name].value.trim();
      if (text !== "") body[name] = Number(text);
    }
    const response = await postJson(`/api/jobs/${this.jobId}/analyze-line-spacing`, body);
    const result = await response.json();
    $("spacing-result").replaceChildren(...SPACING_RESULT.map(([key, label, unit]) => {
      const row = document.createElement("tr");
      const value = typeof result[key] === "number" ? +result[key].toFixed(3) : result[key];
      row.innerHTML = "<th></th><td></td>";
      row.cells[0].textContent = label;
      row.cells[1].textContent = `${value} ${unit}`.trim();
      row.dataset.key = key;
      return row;
    }));
    $("spacing-result").hidden = false;
  }
}
