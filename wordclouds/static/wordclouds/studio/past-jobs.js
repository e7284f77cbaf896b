// Past jobs with their status (GET /api/jobs, staff only), each opening in the studio as
// /?job=<id>.
import { when } from "/static/i18n.js";
import { staffToken } from "/static/staff-session.js";
import { apiJson } from "./api.js";
import { statusText } from "./progress.js";

const LIMIT = 20;

export async function showPastJobs(table, { current }) {
  if (!staffToken()) return; // the sign-in shows instead
  let jobs;
  try {
    jobs = await apiJson(`/api/jobs?limit=${LIMIT}`);
  } catch (error) {
    table.tBodies[0].replaceChildren(Object.assign(document.createElement("tr"), {
      textContent: error.detail,
    }));
    return;
  }
  table.tBodies[0].replaceChildren(...jobs.map((job) => {
    const row = document.createElement("tr");
    row.innerHTML = "<td><a></a></td><td><span class='status'></span></td><td></td><td></td>";
    const link = row.querySelector("a");
    link.href = `/?job=${job.job_id}`;
    link.textContent = job.job_id.slice(0, 8);
    link.title = job.job_id;
    const status = row.querySelector(".status");
    status.textContent = statusText(job.status);
    status.classList.add(`status-${job.status}`);
    row.cells[2].textContent = `${job.progress_percent}%`;
    row.cells[3].textContent = when(job.created_at);
    if (job.job_id === current) row.classList.add("current");
    row.dataset.jobId = job.job_id;
    return row;
  }));
}
