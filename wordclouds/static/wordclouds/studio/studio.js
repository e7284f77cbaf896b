// The studio page: wires the job form, the progress view, the result tools and the list of
// past jobs, and the corrections of a finished poster (its revisions). The job being shown is in the address (/?job=<id>), so it can be linked to.
import { JobForm } from "./job-form.js";
import { showPastJobs } from "./past-jobs.js";
import { JobProgress } from "./progress.js";
import { JobResult } from "./result.js";
import { ProofTool } from "./proof.js";
import { Reviser } from "./revise.js";
import { staffGate, staffSignOut } from "/static/staff-session.js";

const pastJobs = document.getElementById("past-jobs");
const result = new JobResult();
let current = new URLSearchParams(window.location.search).get("job");

const progress = new JobProgress({
  onEnd(job) {
    if (job.status === "success") {
      result.show(job);
      reviser.show(job);
      proofTool.show(job);
    }
    showPastJobs(pastJobs, { current });
  },
});

function open(jobId) {
  current = jobId;
  result.hide();
  progress.watch(jobId);
  showPastJobs(pastJobs, { current });
}

function go(jobId) {
  window.history.pushState({ job: jobId }, "", `/?job=${jobId}`);
  open(jobId);
}

new JobForm(document.getElementById("job-form"), { onSubmitted: go });
const reviser = new Reviser({ onSubmitted: go, onOpen: go });
const proofTool = new ProofTool({ onSubmitted: go });

window.addEventListener("popstate", () => {
  const jobId = new URLSearchParams(window.location.search).get("job");
  if (jobId) open(jobId);
});

document.getElementById("staff-sign-out").addEventListener("click", staffSignOut);
staffGate(document.getElementById("staff-sign-in"), document.getElementById("past-jobs-area"),
  () => showPastJobs(pastJobs, { current }), { focus: false });
if (current) open(current);
