// A job's progress from its event stream (GET /api/jobs/<id>/events): stage, percent,
// messages, the engine's retries, and the queue position while it waits. The bar never
// moves backwards, whatever order events arrive in after a reconnect.
import { english } from "/static/i18n.js";
import { apiJson } from "./api.js";

const $ = (id) => document.getElementById(id);
const QUEUE_POLL_MS = 2000;
const RETRY = /retry/i;

// The events' stages and messages are the API's English data: an English page shows the
// message, any other says the stage in its own language, with the percent reached.
const STAGES = {
  queued: gettext("waiting in the queue"),
  reading_names: gettext("reading the names"),
  preparing_mask: gettext("preparing the mask"),
  loading_font: gettext("loading the font"),
  placing_words: gettext("placing the names"),
  rendering: gettext("drawing the poster"),
  writing_artifacts: gettext("writing the files"),
  waiting_for_storage: gettext("waiting for the file store"),
  done: gettext("done"),
  failed: gettext("failed"),
};
const STATUSES = {
  queued: gettext("queued"),
  running: gettext("running"),
  success: gettext("success"),
  failed: gettext("failed"),
};

function stageText(stage) {
  return STAGES[stage] ?? stage.replaceAll("_", " ");
}

export function statusText(status) {
  return STATUSES[status] ?? status;
}

function messageLine(event, retry) {
  const line = document.createElement("li");
  if (english) {
    line.textContent = event.message;
  } else {
    const text = `${stageText(event.stage)} · ${event.progress_percent}%`;
    line.textContent = retry ? interpolate(gettext("%s: trying again"), [text]) : text;
  }
  return line;
}

function statusOf(stage) {
  if (stage === "queued") return "queued";
  if (stage === "done") return "success";
  if (stage === "failed") return "failed";
  return "running";
}

export class JobProgress {
  constructor({ onEnd }) {
    this.onEnd = onEnd;
    this.source = null;
    this.queueTimer = null;
  }

  watch(jobId) {
    this.stop();
    this.jobId = jobId;
    this.percent = 0;
    $("progress-panel").hidden = false;
    $("job-id").textContent = jobId;
    $("job-error").textContent = "";
    $("job-log").replaceChildren();
    $("retries").replaceChildren();
    $("retries").hidden = true;
    this.show({ stage: "queued", progress_percent: 0 });
    $("progress-panel").scrollIntoView({ block: "nearest" });
    this.source = new EventSource(`/api/jobs/${jobId}/events`);
    for (const type of ["status", "log"]) {
      this.source.addEventListener(type, (event) => this.show(JSON.parse(event.data)));
    }
    this.source.addEventListener("end", () => {
      this.stop();
      this.finish();
    });
    // A stream refused outright (an unknown job) is closed, not retried: say why.
    this.source.addEventListener("error", () => {
      if (this.source && this.source.readyState === EventSource.CLOSED) {
        this.stop();
        this.finish();
      }
    });
  }

  stop() {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.queueTimer);
    this.queueTimer = null;
  }

  show(event) {
    const status = statusOf(event.stage);
    this.percent = Math.max(this.percent, event.progress_percent);
    $("job-status").textContent = statusText(status);
    $("job-status").className = `status status-${status}`;
    $("job-stage").textContent = stageText(event.stage);
    $("job-percent").textContent = `${this.percent}%`;
    $("progress-bar").style.width = `${this.percent}%`;
    $("progress-bar").parentElement.setAttribute("aria-valuenow", this.percent);
    const retry = Boolean(event.message) && RETRY.test(event.message);
    if (event.message) $("job-log").append(messageLine(event, retry));
    if (retry) this.showRetry(event);
    if (status === "queued") this.pollQueue();
    else this.hideQueue();
  }

  showRetry(event) {
    $("retries").append(messageLine(event, true));
    $("retries").hidden = false;
  }

  // Queue position: the job's own `queue_position` (GET /api/jobs/{id}, open to whoever
  // holds the id: the studio without signing in too), the queued jobs ahead of it.
  pollQueue() {
    if (this.queueTimer !== null) return;
    const jobId = this.jobId;
    const poll = async () => {
      try {
        const job = await apiJson(`/api/jobs/${jobId}`);
        if (jobId !== this.jobId || job.status !== "queued") return;
        const ahead = job.queue_position;
        $("queue-position").textContent = ahead === 0
          ? gettext("Next in the queue: waiting for a free worker.")
          : interpolate(ngettext("Queued: %s job ahead.", "Queued: %s jobs ahead.", ahead), [ahead]);
        $("queue-position").hidden = false;
      } catch {
        // the stream still reports the job; the position is a courtesy
      }
      if (this.queueTimer !== null) this.queueTimer = setTimeout(poll, QUEUE_POLL_MS);
    };
    this.queueTimer = setTimeout(poll, 0);
  }

  hideQueue() {
    clearTimeout(this.queueTimer);
    this.queueTimer = null;
    $("queue-position").hidden = true;
  }

  async finish() {
    this.hideQueue();
    let job;
    try {
      job = await apiJson(`/api/jobs/${this.jobId}`);
    } catch (error) {
      $("job-error").textContent = error.detail;
      return;
    }
    this.show({ stage: job.stage, progress_percent: job.progress_percent });
    if (job.error) $("job-error").textContent = job.error;
    this.onEnd(job);
  }
}
